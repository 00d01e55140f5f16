"""Invites that reserve seats, seat links between devices, and the way back from the home page.

Issue 23, item 4: "Invite links do not reserve seats (a spectator took a
friend's seat); the seat token lives only in local storage, so a player on
another device cannot get back; there is no way back to a running game from
the home page."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tarneeb.server import wire
from tarneeb.server.store import Store
from tarneeb.server.wiretypes import check
from ws_support import Closed, TestClient, connect, server

BOTS = {"east": "bot:random", "north": "human", "west": "bot:random"}


def refused(response: Any, status: int, code: str) -> str:
    """The message of an error answer, checked for the one error shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert set(body["error"]) == {"code", "message", "reference"}
    return str(body["error"]["message"])


def invite_of(path: str) -> str:
    return parse_qs(urlsplit(path).query)["invite"][0]


def claim_of(link: str) -> str:
    parts = urlsplit(link)
    assert not parts.query  # the secret stays out of every server's log
    return parse_qs(parts.fragment)["claim"][0]


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Layla")
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    check(made.json(), wire.CreatedBody)
    return made.json()  # type: ignore[no-any-return]


# -- invites reserve their seats ----------------------------------------------------------------


def test_a_spectator_cannot_take_the_seat_reserved_for_a_friend(tmp_path: Path) -> None:
    """The regression of issue 23: at an open table the spectator took the invited seat."""
    with server(tmp_path) as client:
        made = create(client, public=True, reserve=["north"])
        table = made["table"]
        join = f"/api/tables/{table}/join"
        with connect(client, table, "spectator") as spectator:
            welcome = spectator.hello()
            seats = {s["seat"]: s for s in welcome["state"]["seats"]}
            assert seats["north"]["reserved"] and not seats["east"]["reserved"]
            # the spectator's link, asking for the friend's seat: refused, nothing changes
            message = refused(
                client.post(join, json={"name": "Eve", "seat": "north"}), 403, "unauthorized"
            )
            assert "invite" in message
            # a wrong or another table's invite does not open it either
            refused(
                client.post(join, json={"name": "Eve", "invite": "x" * 24}), 403, "unauthorized"
            )
            refused(client.post(join, json={"name": "Eve", "invite": ["x"]}), 403, "unauthorized")
            # without a seat the stranger gets a free seat nobody reserved
            assert client.post(join, json={"name": "Eve"}).json()["seat"] == "east"
            friend = client.post(
                join, json={"name": "Nour", "invite": invite_of(made["invites"]["north"])}
            )
            assert friend.json()["seat"] == "north"
            spectator.sync()
            names = [s["name"] for s in spectator.state["seats"]]  # type: ignore[index]
            assert names[:3] == ["Layla", "Eve", "Nour"]


def test_an_invite_for_two_seats_seats_two_friends_and_nobody_else(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = create(client, public=True)
        assert made["invites"] == {}
        table = made["table"]
        invite = f"/api/tables/{table}/invite"
        answer = client.post(invite, json={"token": made["token"], "seats": ["east", "west"]})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        check(body, wire.InviteBody)
        assert body["seats"] == ["east", "west"]
        secret = invite_of(body["link"])
        join = f"/api/tables/{table}/join"
        refused(client.post(join, json={"name": "Eve", "seat": "west"}), 403, "unauthorized")
        assert client.post(join, json={"name": "Eve"}).json()["seat"] == "north"
        refused(
            client.post(join, json={"name": "Omar", "invite": secret, "seat": "north"}),
            403,
            "unauthorized",
        )
        assert client.post(join, json={"name": "Omar", "invite": secret}).json()["seat"] == "east"
        assert client.post(join, json={"name": "Sami", "invite": secret}).json()["seat"] == "west"
        assert client.get(f"/api/tables/{table}").json()["status"] == "playing"


def test_inviting_asks_for_a_seat_token_and_free_seats(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = create(client, public=True)
        table = made["table"]
        invite = f"/api/tables/{table}/invite"
        token = made["token"]
        refused(client.post(invite, json={"seats": ["east"]}), 403, "unauthorized")
        refused(
            client.post(invite, json={"token": "stolen", "seats": ["east"]}), 403, "unauthorized"
        )
        refused(client.post(invite, json={"token": token, "seats": ["south"]}), 409, "conflict")
        refused(client.post(invite, json={"token": token, "seats": []}), 400, "malformed")
        refused(client.post(invite, json={"token": token, "seats": ["up"]}), 400, "malformed")
        refused(client.post(invite, json={"token": token, "seats": [["east"]]}), 400, "malformed")
        refused(
            client.post(invite, json={"token": token, "seats": "east", "x": 1}), 400, "malformed"
        )
        refused(
            client.post(invite, json={"token": token, "seats": list("abcde")}), 400, "malformed"
        )
        # a seat invited again is its new invite's only
        first = client.post(invite, json={"token": token, "seats": "east"}).json()
        second = client.post(invite, json={"token": token, "seats": "east"}).json()
        join = f"/api/tables/{table}/join"
        refused(
            client.post(join, json={"name": "Eve", "invite": invite_of(first["link"])}),
            403,
            "unauthorized",
        )
        assert (
            client.post(join, json={"name": "Omar", "invite": invite_of(second["link"])}).json()[
                "seat"
            ]
            == "east"
        )


def test_making_invites_is_limited_per_seat(tmp_path: Path) -> None:
    with server(tmp_path, links_per_minute=2) as client:
        made = create(client, public=True)
        invite = f"/api/tables/{made['table']}/invite"
        for _ in range(2):
            assert (
                client.post(invite, json={"token": made["token"], "seats": "east"}).status_code
                == 200
            )
        refused(
            client.post(invite, json={"token": made["token"], "seats": "east"}), 429, "rate_limited"
        )


# -- seat links: the same seat on another device -------------------------------------------------


def test_a_seat_link_moves_the_seat_and_the_old_device_is_told_and_closed(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = create(client, seats=BOTS, public=False)
        table = made["table"]
        token = made["token"]
        with connect(client, table, "laptop") as laptop:
            laptop.hello(token)
            link = client.post(f"/api/tables/{table}/seat-link", json={"token": token})
            assert link.status_code == 200, link.text
            check(link.json(), wire.SeatLinkBody)
            assert link.json()["seat"] == "south"
            assert urlsplit(link.json()["link"]).path == f"/t/{table}"
            secret = claim_of(link.json()["link"])
            claimed = client.post(f"/api/tables/{table}/claim", json={"claim": secret})
            assert claimed.status_code == 200, claimed.text
            moved = claimed.json()
            assert moved["seat"] == "south" and moved["token"] != token
            bye = laptop.until(lambda f: f["type"] == "bye")
            check(bye, wire.ByeFrame)
            assert bye == {"type": "bye", "reason": "moved"}
            assert laptop.expect_close() == 4001
        # the old token holds nothing now; the new one holds the seat
        with connect(client, table, "old") as old:
            old.send({"type": "hello", "protocol": 3, "token": token})
            assert old.next()["code"] == "unauthorized"
        with connect(client, table, "phone") as phone:
            assert phone.hello(moved["token"])["seat"] == "south"
        # the link was used once: a replay is refused and changes nothing
        replay = client.post(f"/api/tables/{table}/claim", json={"claim": secret})
        refused(replay, 403, "unauthorized")
        with connect(client, table, "phone") as phone:
            assert phone.hello(moved["token"])["seat"] == "south"


def test_a_new_seat_link_voids_the_last_and_bad_claims_change_nothing(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = create(client, seats=BOTS, public=False)
        table = made["table"]
        link = f"/api/tables/{table}/seat-link"
        first = claim_of(client.post(link, json={"token": made["token"]}).json()["link"])
        second = claim_of(client.post(link, json={"token": made["token"]}).json()["link"])
        claim = f"/api/tables/{table}/claim"
        refused(client.post(claim, json={"claim": first}), 403, "unauthorized")
        for bad in (
            {"claim": ""},
            {"claim": 7},
            {"claim": "x" * 500},
            {},
            {"claim": made["token"]},
        ):
            refused(client.post(claim, json=bad), 403, "unauthorized")
        refused(client.post(claim, json={"claim": second, "seat": "north"}), 400, "malformed")
        refused(client.post(link, json={"token": "nope"}), 403, "unauthorized")
        refused(client.post(link, json={}), 403, "unauthorized")
        # a link of one table claims nothing at another
        other = create(client, seats=BOTS, public=False)
        refused(
            client.post(f"/api/tables/{other['table']}/claim", json={"claim": second}),
            403,
            "unauthorized",
        )
        # the creator's token still holds the seat: nothing above changed it
        with connect(client, table, "south") as south:
            assert south.hello(made["token"])["seat"] == "south"
        assert client.post(claim, json={"claim": second}).status_code == 200


def test_seat_links_are_stored_hashed_and_work_after_a_restart(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        made = create(client, seats=BOTS, public=False)
        table = made["table"]
        secret = claim_of(
            client.post(f"/api/tables/{table}/seat-link", json={"token": made["token"]}).json()[
                "link"
            ]
        )
    with Store(f"sqlite:///{tmp_path / 'server.db'}").engine.connect() as conn:
        dumped = repr(conn.exec_driver_sql("SELECT * FROM tarneeb_events").all())
    assert secret not in dumped
    with server(tmp_path) as client:
        moved = client.post(f"/api/tables/{table}/claim", json={"claim": secret}).json()
        with connect(client, table, "phone") as phone:
            assert phone.hello(moved["token"])["seat"] == "south"
            try:
                phone.sync()
            except Closed:  # pragma: no cover - the new device's socket must stay
                raise AssertionError("the new device was closed") from None


# -- back to a running game from the home page ---------------------------------------------------


def test_the_home_page_finds_the_running_tables_of_its_tokens_only(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        solo = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}
        mine = create(client, seats=solo, public=False)
        other = create(client, seats=solo, public=True, name="Omar")
        waiting = create(client, public=False)
        asked = [
            {"table": mine["table"], "token": mine["token"]},
            {"table": waiting["table"], "token": waiting["token"]},
            {"table": other["table"], "token": mine["token"]},  # my token, another's table
            {"table": "no-such-table", "token": mine["token"]},
            {"table": mine["table"], "token": mine["token"]},  # twice: told once
        ]
        found = client.post("/api/seats", json={"seats": asked})
        assert found.status_code == 200, found.text
        body = found.json()
        check(body, wire.MySeatsBody)
        assert [(s["table"]["id"], s["seat"]) for s in body["seats"]] == [
            (mine["table"], "south"),
            (waiting["table"], "south"),
        ]
        assert body["seats"][0]["table"]["status"] == "playing"
        assert client.post("/api/seats", json={"seats": []}).json() == {"seats": []}


def test_the_seats_lookup_refuses_what_is_not_a_short_list_of_table_and_token(
    tmp_path: Path,
) -> None:
    with server(tmp_path) as client:
        seats = "/api/seats"
        for bad in (
            {"seats": "all"},
            {"seats": [{"table": "t"}]},
            {"seats": [{"table": "t", "token": 1}]},
            {"seats": [{"table": "t", "token": "x", "seat": "south"}]},
            {"seats": [["t", "x"]]},
            {"seats": [{"table": "t", "token": "x"}] * (wire.MAX_SEAT_LOOKUPS + 1)},
            {"tables": []},
        ):
            refused(client.post(seats, json=bad), 400, "malformed")
        refused(client.get(seats), 405, "malformed")


def test_an_open_table_from_before_keeps_its_invited_seats_open() -> None:
    """Before protocol 3 an open table's invites did not reserve: a stored one still does not
    (while every invite of a private table did and does)."""
    from tarneeb.seats import Seat
    from tarneeb.server.seating import token_hash
    from tarneeb.server.table import Table, TableConfig
    from tarneeb.server.wire import EventKind

    old = Table.new("old", TableConfig(public=True))
    old.join("Layla", Seat.SOUTH)
    old._record(  # an `invited` event as protocol 2 stored it
        EventKind.INVITED,
        {"seats": ["east", "north", "west"]},
        {"invites": {name: token_hash(name + "-secret") for name in ("east", "north", "west")}},
    )
    restored = Table.restore("old", old.config, old.created, old.events)
    assert not restored.reserved(Seat.NORTH)
    assert restored.seat_of_token(restored.join("Eve", Seat.NORTH)) == Seat.NORTH
    assert restored.seat_of_token(restored.join("Omar", invite="east-secret")) == Seat.EAST


def test_no_invite_once_the_table_has_started(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        solo = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}
        made = create(client, seats=solo)
        answer = client.post(
            f"/api/tables/{made['table']}/invite", json={"token": made["token"], "seats": "east"}
        )
        refused(answer, 409, "conflict")
