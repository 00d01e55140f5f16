"""Quick ranked play (issue 24, item 5): the queue seats four signed-in players of close rating.

* the queue itself (:class:`RankedQueue`, on a clock of the test's): the closest
  ratings sit together, a far one waits until their windows have widened enough,
  the four are split into the fairest partnerships, and bots are offered after
  the wait;
* the API: four players who join are seated at one rated table (each told their
  seat and token, which hold that seat on the WebSocket); after the wait a player
  may take bots instead, at a table that is not rated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from players_support import App, app_on
from tarneeb.seats import Seat
from tarneeb.server.players.queue import RankedQueue, partnerships
from tarneeb.server.players.ratings import Family, record_result
from ws_support import connect


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app(tmp_path: Path) -> Any:
    with app_on(f"sqlite:///{tmp_path / 'server.db'}") as running:
        running.service.queue.clock = clock = Clock()
        running.clock = clock  # type: ignore[attr-defined]
        yield running


# -- the queue alone --------------------------------------------------------------------------


def test_the_closest_ratings_sit_together_and_a_far_one_waits_for_the_window_to_widen() -> None:
    clock = Clock()
    queue = RankedQueue(bot_wait=60, base_window=3, widen=0.25, clock=clock)
    for name, ordinal in [("far", 12.0), ("a", 0.0), ("b", 1.0), ("c", 2.5), ("d", 1.5)]:
        queue.join(name, name, "classic", ordinal)
        clock.now += 1
    [(rules, group)] = queue.match()
    assert rules == "classic" and {p.id for p in group} == {"a", "b", "c", "d"}
    assert queue.match() == [] and len(queue) == 1
    # Three newcomers near 6: not close enough to "far" (12) until both windows widen.
    for name in ("e", "f", "g"):
        queue.join(name, name, "classic", 6.0)
    assert queue.match() == []
    clock.now += 4 * 5  # windows of 3 + 0.25 * 20 s = 8 for the newcomers: 12 - 6 = 6 fits
    [(_rules, group)] = queue.match()
    assert {p.id for p in group} == {"far", "e", "f", "g"}


def test_the_rules_are_queues_of_their_own() -> None:
    queue = RankedQueue(clock=Clock())
    for i in range(3):
        queue.join(f"c{i}", "x", "classic", 0.0)
    queue.join("e0", "x", "egyptian", 0.0)
    assert queue.match() == []
    queue.join("c3", "x", "classic", 0.0)
    assert [rules for rules, _group in queue.match()] == ["classic"]


def test_the_four_are_split_into_the_fairest_partnerships() -> None:
    queue = RankedQueue(clock=Clock())
    players = [
        queue.join(n, n, "classic", o) for n, o in [("w", 1.0), ("x", 9.0), ("y", 5.0), ("z", 3.0)]
    ]
    seats = {seat: p.id for seat, p in partnerships(players).items()}
    assert seats == {Seat.SOUTH: "x", Seat.NORTH: "w", Seat.EAST: "y", Seat.WEST: "z"}


def test_bots_are_offered_after_the_wait() -> None:
    clock = Clock()
    queue = RankedQueue(bot_wait=60, clock=clock)
    waiting = queue.join("a", "a", "classic", 0.0)
    clock.now += 59.9
    assert not waiting.offered
    clock.now += 0.1
    assert waiting.offered
    # Joining again (the page reloaded) keeps the wait.
    assert queue.join("a", "a", "classic", 0.0).offered


def test_a_player_whose_page_stopped_asking_leaves_the_queue() -> None:
    clock = Clock()
    queue = RankedQueue(clock=clock, stale=30)
    for name in ("a", "b", "c"):
        queue.join(name, name, "classic", 0.0)
    clock.now += 25
    for name in ("a", "b"):
        queue.seen(name)  # their pages poll; c's was closed
    clock.now += 10
    queue.join("d", "d", "classic", 0.0)
    assert queue.match() == [] and queue.waiting("c") is None and len(queue) == 3


# -- the API ----------------------------------------------------------------------------------


def _rate(app: App, names: list[str], teams: list[list[str]], winner: int, source: str) -> None:
    ids = {n: app.call(app.service.accounts.find, n).id for n in names}
    app.call(
        record_result,
        app.hub.store,
        Family.PARTNERSHIP,
        [[ids[n] for n in team] for team in teams],
        winner,
        source,
    )


def test_four_players_of_close_rating_are_seated_at_one_rated_table(app: App) -> None:
    names = ["Ana", "Ben", "Cem", "Dan", "Eli", "Fay", "Gul", "Hal"]
    for name in names:
        app.player(name)
    # Ana, Ben, Cem and Dan win a lot against the other four: two groups of ratings.
    for i in range(6):
        _rate(app, names, [["Ana", "Ben"], ["Eli", "Fay"]], 0, f"a{i}")
        _rate(app, names, [["Cem", "Dan"], ["Gul", "Hal"]], 0, f"b{i}")
    order = ["Ana", "Eli", "Ben", "Fay", "Cem", "Gul", "Dan", "Hal"]  # mixed up in the queue
    for name in order:
        status = app.players[name].post("/api/players/queue/join", json={"rules": "classic"})
        assert status.status_code == 200, status.text
    seated = {n: app.players[n].get("/api/players/queue").json() for n in names}
    assert {s["state"] for s in seated.values()} == {"seated"}
    strong = {seated[n]["table"] for n in ("Ana", "Ben", "Cem", "Dan")}
    weak = {seated[n]["table"] for n in ("Eli", "Fay", "Gul", "Hal")}
    assert len(strong) == 1 and len(weak) == 1 and strong != weak
    [table_id] = strong
    assert {seated[n]["seat"] for n in ("Ana", "Ben", "Cem", "Dan")} == {
        "south",
        "east",
        "north",
        "west",
    }
    assert all(s["rated"] for s in seated.values()) and table_id in app.service.rated
    state = app.client.get(f"/api/tables/{table_id}").json()
    assert state["status"] == "playing" and not state["public"] and not state["hints"]
    assert sorted(s["name"] for s in state["seats"]) == ["Ana", "Ben", "Cem", "Dan"]
    # Nobody is connected yet: each seat's away clock runs (a no-show loses the match) ...
    live = app.hub.live[table_id]
    assert set(live.away) == {Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST}
    # ... and the token the queue told holds its seat (which stops its clock).
    with connect(app.client, table_id, "ana") as peer:
        welcome = peer.hello(seated["Ana"]["token"])
        assert welcome["seat"] == seated["Ana"]["seat"]
        ana_seat = {"south": Seat.SOUTH, "east": Seat.EAST, "north": Seat.NORTH, "west": Seat.WEST}
        assert ana_seat[seated["Ana"]["seat"]] not in live.away
    # Each one's profile has the table, as theirs.
    [match] = app.players["Ben"].get("/api/players/profile/Ben").json()["matches"]
    assert match["table"] == table_id and match["seat"] == seated["Ben"]["seat"]


def test_the_queue_needs_an_account_and_a_preset(app: App) -> None:
    answer = app.client.post("/api/players/queue/join", json={"rules": "classic"})
    assert answer.status_code == 403 and "sign in" in answer.json()["error"]["message"]
    player = app.player("Ana")
    bad = player.post("/api/players/queue/join", json={"rules": "bridge"})
    assert bad.status_code == 400 and "bridge" in bad.json()["error"]["message"]
    assert player.get("/api/players/queue").json() == {"state": "idle"}


def test_after_the_wait_bots_are_offered_and_that_table_is_not_rated(app: App) -> None:
    ana = app.player("Ana")
    app.player("Ben").post("/api/players/queue/join", json={"rules": "egyptian"})
    waiting = ana.post("/api/players/queue/join", json={"rules": "egyptian"}).json()
    assert waiting["state"] == "waiting" and waiting["others"] == 1
    assert not waiting["bots_offered"] and waiting["bot_wait"] == 60
    early = ana.post("/api/players/queue/bots", json={})
    assert early.status_code == 409 and "60" in early.json()["error"]["message"]
    window = waiting["window"]
    for _half in range(2):  # a minute, each page asking now and then
        app.clock.now += 30  # type: ignore[attr-defined]
        for name in ("Ben", "Ana"):
            assert app.players[name].get("/api/players/queue").json()["state"] == "waiting"
    later = ana.get("/api/players/queue").json()
    assert later["bots_offered"] and later["waited"] == 60 and later["window"] > window
    seated = ana.post("/api/players/queue/bots", json={"bot": "random"}).json()
    assert seated["state"] == "seated" and seated["rated"] is False and seated["seat"] == "south"
    table = app.client.get(f"/api/tables/{seated['table']}").json()
    assert table["rules"] == "egyptian" and table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert seated["table"] not in app.service.rated
    # Ben still waits; Ana left the queue for her table.
    assert app.players["Ben"].get("/api/players/queue").json()["state"] == "waiting"
    assert ana.post("/api/players/queue/leave", json={}).json() == {"state": "idle"}


def test_a_player_who_leaves_the_queue_is_not_seated(app: App) -> None:
    for name in ("Ana", "Ben", "Cem", "Dan"):
        app.player(name)
    for name in ("Ana", "Ben", "Cem"):
        app.players[name].post("/api/players/queue/join", json={"rules": "classic"})
    app.players["Ben"].post("/api/players/queue/leave", json={})
    dan = app.players["Dan"].post("/api/players/queue/join", json={"rules": "classic"}).json()
    assert dan["state"] == "waiting" and dan["others"] == 2
    assert app.players["Ben"].get("/api/players/queue").json() == {"state": "idle"}
