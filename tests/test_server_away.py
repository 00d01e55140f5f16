"""The away countdown, bot levels and names, and the backlog a joining player hears.

Issue 23: "A visible countdown when a seat is away before its bot takes
over"; "All three bots are "Good bot" ... Bot levels to choose when filling
seats (easy / medium / hard), with names that say which seat and level they
are"; item 5: "After joining, the log and chat appear twice."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tarneeb.bots import LEVELS
from tarneeb.server import wire
from tarneeb.server.wiretypes import check
from ws_support import SEAT_NAMES, TestClient, connect, server

SEATS = {"east": "bot:random", "north": "human", "west": "bot:random"}


def _table(client: TestClient, **body: Any) -> tuple[str, str, str]:
    made = client.post(
        "/api/tables", json={"name": "Layla", "seats": SEATS, "public": True, **body}
    ).json()
    table = made["table"]
    north = client.post(f"/api/tables/{table}/join", json={"name": "Nour"}).json()["token"]
    return table, made["token"], north


def _seat(state: dict[str, Any], seat: str) -> dict[str, Any]:
    return state["seats"][SEAT_NAMES.index(seat)]  # type: ignore[no-any-return]


# -- the away countdown ---------------------------------------------------------------------------


def test_an_away_seat_shows_when_its_bot_takes_over_and_the_clock_stops_on_return(
    tmp_path: Path,
) -> None:
    with server(tmp_path) as client:
        table, south_token, north_token = _table(client, takeover_seconds=30)
        with connect(client, table, "south") as south:
            south.hello(south_token)
            north = connect(client, table, "north")
            with north as first:
                first.hello(north_token)
                south.until(lambda f: f["type"] == "update" and south.connected("north"))
                assert _seat(south.state or {}, "north")["away_deadline"] is None
            gone = south.until(lambda f: f["type"] == "update" and not south.connected("north"))
            check(gone["state"], wire.StateJson)
            north_seat = _seat(gone["state"], "north")
            left = north_seat["away_deadline"] - gone["state"]["server_time"]
            assert 28 <= left <= 30, left
            assert not north_seat["held_by_bot"]
            with connect(client, table, "north") as back:
                back.hello(north_token)
                returned = south.until(lambda f: f["type"] == "update" and south.connected("north"))
                assert _seat(returned["state"], "north")["away_deadline"] is None


def test_the_countdown_ends_when_the_bot_takes_the_seat(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        table, south_token, north_token = _table(client, takeover_seconds=0)
        with connect(client, table, "south") as south:
            south.hello(south_token)
            with connect(client, table, "north") as north:
                north.hello(north_token)
                south.until(lambda f: f["type"] == "update" and south.connected("north"))
            held = south.until(
                lambda f: (
                    f["type"] == "update"
                    and any(e["kind"] == "takeover" and e["seat"] == "north" for e in f["events"])
                )
            )
            seat = _seat(held["state"], "north")
            assert seat["held_by_bot"] and seat["away_deadline"] is None


# -- bot levels and names ---------------------------------------------------------------------------


def test_filling_seats_takes_a_level_and_seats_say_their_level(tmp_path: Path) -> None:
    assert tuple(LEVELS) == wire.LEVELS  # the wire's names are the bots'
    with server(tmp_path) as client:
        assert client.get("/api/info").json()["levels"] == list(LEVELS)
        made = client.post("/api/tables", json={"name": "Layla", "public": False}).json()
        table, token = made["table"], made["token"]
        start = f"/api/tables/{table}/start"
        for bad in ({"level": "grandmaster"}, {"level": 3}, {"level": "hard", "bot": "random"}):
            answer = client.post(start, json={"token": token, **bad})
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed"
        assert client.post(start, json={"level": "hard"}).status_code == 403
        started = client.post(start, json={"token": token, "level": "easy"})
        assert started.status_code == 200, started.text
        seats = started.json()["seats"]
        assert [(s["seat"], s["kind"], s["level"]) for s in seats] == [
            ("south", "human", None),
            ("east", "bot", "easy"),
            ("north", "bot", "easy"),
            ("west", "bot", "easy"),
        ]
        with connect(client, table, "south") as south:
            welcome = south.hello(token)
            joined = [e for e in welcome["events"] if e["kind"] == "joined"]
            assert [(e["seat"], e["level"]) for e in joined] == [
                ("south", None),
                ("east", "easy"),
                ("north", "easy"),
                ("west", "easy"),
            ]
        mixed = {"east": "bot:hard", "north": "bot:heuristic", "west": "bot:expert"}
        made = client.post("/api/tables", json={"name": "L", "seats": mixed}).json()
        levels = [s["level"] for s in made["state"]["seats"]]
        assert levels == [None, "hard", None, "expert"]


# -- the backlog of a joining player (item 5) ---------------------------------------------------


def test_a_spectator_who_joins_hears_each_event_once(tmp_path: Path) -> None:
    """The server sends each event once on a connection, and a reconnect with ``since``
    repeats none: the log and chat shown twice after joining are the client's own doing."""
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Layla", "public": True}).json()
        table = made["table"]
        with connect(client, table, "host") as host:
            host.hello(made["token"])
            host.send({"type": "chat", "text": "hello, who joins?"})
            host.until(lambda f: f["type"] == "update" and f["events"])
            with connect(client, table, "guest") as watching:
                watching.hello()
                joined = client.post(f"/api/tables/{table}/join", json={"name": "Omar"}).json()
                watching.until(lambda f: f["type"] == "update" and f["events"])
                seen = watching.seq
                seqs = [e["seq"] for e in watching.events]
                assert seqs == sorted(set(seqs)) == list(range(1, seen + 1))
            with connect(client, table, "guest") as seated:
                again = seated.hello(joined["token"], since=seen)
                assert again["events"] == [] and again["seat"] == "east"
            chats = [e for e in host.events if e["kind"] == "chat"]
            assert len(chats) == 1
