"""Rated hosted events (issue 24: «Results feed the ratings when rated»).

Signed-in players register as themselves (``{"me": true}``) with a partner's
ticket (``{"partner": TICKET}``); a rated event takes no guest and no bot; the
app's own ratings hook rates each set once, under ``event:ID:set:N``, and the
ratings are worked out here with openskill itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from events_support import make_event
from players_support import FAST, App, app_on, play_to_the_end
from tarneeb.server import wire
from tarneeb.server.app import create_app
from tarneeb.server.events.host import EventHost, SetOutcome
from tarneeb.server.hub import Settings
from tarneeb.server.players import ratings
from tarneeb.server.players.ratings import Family
from tarneeb.server.wiretypes import check

openskill = pytest.importorskip("openskill.models")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    with app_on(f"sqlite:///{tmp_path / 'server.db'}") as running:
        yield running


def _host(app: App) -> EventHost:
    host: EventHost = app.client.app.state.events  # type: ignore[attr-defined]
    return host


def _settled(app: App) -> None:
    """Wait for the ratings hook's work on the sets ended so far."""

    async def wait() -> None:
        while _host(app)._tasks:
            await asyncio.gather(*list(_host(app)._tasks), return_exceptions=True)

    app.call(wait)


def _register(app: App, event_id: str, pair: str, first: str, second: str) -> dict[str, Any]:
    """``first`` registers the pair ``pair`` with ``second``'s partner ticket."""
    for name in (first, second):
        if name not in app.players:
            app.player(name)
    ticket = app.players[second].post(f"/api/events/{event_id}/partner", json={})
    assert ticket.status_code == 201, ticket.text
    made = app.players[first].post(
        f"/api/events/{event_id}/pairs",
        json={"name": pair, "players": [{"me": True}, {"partner": ticket.json()["partner"]}]},
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def _play(app: App, event_id: str, timeout: float = 60.0) -> dict[str, Any]:
    """Play each set of ``event_id`` for its (absent) players as it is seated; the event
    at its end."""
    deadline = time.monotonic() + timeout
    played: set[str] = set()
    while time.monotonic() < deadline:
        event: dict[str, Any] = app.client.get(f"/api/events/{event_id}").json()
        if event["status"] == "finished":
            return event
        for game in event["games"]:
            if game["status"] == "playing" and game["table"] not in played:
                play_to_the_end(app, game["table"], seed=game["number"])
                played.add(game["table"])
        time.sleep(0.02)
    raise AssertionError(f"event {event_id} did not finish")


def _ids(app: App, names: list[str]) -> list[str]:
    return [app.call(app.service.accounts.find, n).id for n in names]


def _error(answer: Any) -> tuple[int, str]:
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "reference"}
    return answer.status_code, body["error"]["code"]


def test_a_rated_events_sets_rate_its_players_as_openskill_does(app: App) -> None:
    event_id, host = make_event(app.client, kind="sets-match", sets=2, rated=True)
    cedars = _register(app, event_id, "Cedars", "Layla", "Nour")
    assert [m["name"] for m in cedars["event"]["pairs"][0]["members"]] == ["Layla", "Nour"]
    # each member's seat is held by a token of its own: the registrant's here, the
    # link's giver's came with the ticket
    assert cedars["tokens"][0] and cedars["tokens"][1] is None
    _register(app, event_id, "Olives", "Omar", "Sami")
    started = app.client.post(f"/api/events/{event_id}/start", json={"token": host})
    assert started.status_code == 200, started.text
    final = _play(app, event_id)
    _settled(app)
    members = {"p1": _ids(app, ["Layla", "Nour"]), "p2": _ids(app, ["Omar", "Sami"])}
    model = openskill.PlackettLuce()
    expected = {p: model.rating() for team in members.values() for p in team}
    games = final["games"]
    assert [g["status"] for g in games] == ["finished", "finished"]
    for game in games:  # set by set, each from the ratings the set before left
        teams = [members[game["ns"]], members[game["ew"]]]
        winner = 0 if game["winner"] == game["ns"] else 1
        rated = model.rate(
            [[expected[p] for p in team] for team in teams],
            ranks=[0, 1] if winner == 0 else [1, 0],
        )
        for team, new in zip(teams, rated, strict=True):
            expected.update(zip(team, new, strict=True))
    wins = {p: 0 for p in expected}
    for game in games:
        for p in members[game["winner"]]:
            wins[p] += 1
    for player, rating in expected.items():
        found = ratings.rating_of(app.hub.store.engine, player)[Family.PARTNERSHIP]
        assert found.mu == pytest.approx(rating.mu, abs=1e-9)
        assert found.sigma == pytest.approx(rating.sigma, abs=1e-9)
        assert (found.played, found.won) == (2, wins[player])
    history = app.players["Layla"].get("/api/players/profile/Layla").json()
    assert history["ratings"]["partnership"]["played"] == 2


def test_a_set_is_rated_once_when_the_hook_is_told_again(app: App) -> None:
    event_id, host = make_event(app.client, kind="sets-match", sets=1, rated=True)
    _register(app, event_id, "Cedars", "Layla", "Nour")
    _register(app, event_id, "Olives", "Omar", "Sami")
    app.client.post(f"/api/events/{event_id}/start", json={"token": host})
    final = _play(app, event_id)
    _settled(app)
    event = _host(app).get(event_id).event
    assert event.tournament is not None
    (result,) = event.tournament.played
    identities = {
        pair: (event.pairs[pair].members[0].identity, event.pairs[pair].members[1].identity)
        for pair in (result.ns, result.ew)
    }
    assert all(i is not None and i.startswith("account:") for v in identities.values() for i in v)
    ids = _ids(app, ["Layla", "Nour", "Omar", "Sami"])
    before = {p: ratings.rating_of(app.hub.store.engine, p) for p in ids}
    assert all(r[Family.PARTNERSHIP].played == 1 for r in before.values())
    outcome = SetOutcome(event_id, final["games"][0]["table"], "classic", result, identities)
    app.call(_host(app).on_set_result, outcome)  # a restart's telling, say
    assert {p: ratings.rating_of(app.hub.store.engine, p) for p in ids} == before


def test_a_rated_event_takes_no_guest_and_no_bot(app: App) -> None:
    event_id, host = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
    pairs = f"/api/events/{event_id}/pairs"
    guests = {"name": "Guests", "players": [{"name": "Layla"}, {"name": "Nour"}]}
    assert _error(app.client.post(pairs, json=guests)) == (403, "unauthorized")
    layla = app.player("Layla")
    nour = app.player("Nour")
    half = {"name": "Half", "players": [{"me": True}, {"name": "Nour"}]}
    assert _error(layla.post(pairs, json=half)) == (403, "unauthorized")
    botted = {"name": "Bot", "players": [{"me": True}, {"bot": True}]}
    assert _error(layla.post(pairs, json=botted)) == (400, "malformed")
    me_as_guest = {"name": "Me", "players": [{"me": True}, {"name": "Nour"}]}
    assert _error(app.client.post(pairs, json=me_as_guest)) == (403, "unauthorized")
    assert _error(app.client.post(f"/api/events/{event_id}/partner", json={})) == (
        403,
        "unauthorized",
    )
    bots = {"bots": True, "token": host}
    assert _error(app.client.post(pairs, json=bots)) == (409, "conflict")
    # a ticket is one event's, used once; a player plays in one pair
    other_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
    elsewhere = nour.post(f"/api/events/{other_id}/partner", json={}).json()["partner"]
    wrong = {"name": "Wrong", "players": [{"me": True}, {"partner": elsewhere}]}
    assert _error(layla.post(pairs, json=wrong)) == (403, "unauthorized")
    _register(app, event_id, "Cedars", "Layla", "Nour")
    twice = nour.post(f"/api/events/{event_id}/partner", json={}).json()["partner"]
    omar = app.player("Omar")
    dup = {"name": "Dup", "players": [{"me": True}, {"partner": twice}]}
    assert _error(omar.post(pairs, json=dup)) == (409, "conflict")
    start = {"token": host, "fill": True}
    assert _error(app.client.post(f"/api/events/{event_id}/start", json=start)) == (
        409,
        "conflict",
    )
    registered = app.client.get(f"/api/events/{event_id}").json()["pairs"]
    assert [p["name"] for p in registered] == ["Cedars"]


def test_a_signed_in_member_is_their_account_and_a_given_hook_replaces_the_ratings(
    tmp_path: Path,
) -> None:
    heard: list[SetOutcome] = []
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'server.db'}", **FAST)
    with TestClient(create_app(settings, on_set_result=heard.append)) as client:
        app = App(client, settings.db_url or "")
        event_id, host = make_event(client, kind="sets-match", sets=2, rated=True)
        _register(app, event_id, "Cedars", "Layla", "Nour")
        _register(app, event_id, "Olives", "Omar", "Sami")
        client.post(f"/api/events/{event_id}/start", json={"token": host})
        final = _play(app, event_id)
        _settled(app)
        ids = _ids(app, ["Layla", "Nour", "Omar", "Sami"])
        engine = app.hub.store.engine
        assert all(ratings.rating_of(engine, p) == {} for p in ids)  # the given hook only
        # an unrated event: a signed-in member is their account, a named one a guest;
        # its sets tell the hook nothing
        unrated_id, unrated_host = make_event(client, kind="sets-match", sets=1)
        mixed = app.players["Layla"].post(
            f"/api/events/{unrated_id}/pairs",
            json={"name": "Mixed", "players": [{"me": True}, {"name": "Rami"}]},
        )
        assert mixed.status_code == 201, mixed.text
        members = _host(app).get(unrated_id).event.pairs["p1"].members
        assert members[0].identity == f"account:{ids[0]}" and members[0].name == "Layla"
        assert members[1].identity is not None and members[1].identity.startswith("guest:")
        client.post(f"/api/events/{unrated_id}/start", json={"token": unrated_host, "fill": True})
        _play(app, unrated_id)
        _settled(app)
    assert [o.result.number for o in heard] == [1, 2]
    assert all(o.event == event_id for o in heard)
    assert [o.table for o in heard] == [g["table"] for g in final["games"]]
    assert heard[0].players == {
        "p1": (f"account:{ids[0]}", f"account:{ids[1]}"),
        "p2": (f"account:{ids[2]}", f"account:{ids[3]}"),
    }


def test_the_lobby_says_which_events_are_rated(app: App) -> None:
    rated_id, _ = make_event(app.client, kind="sets-match", sets=1, rated=True)
    plain_id, _ = make_event(app.client, kind="sets-match", sets=1)
    lobby = app.client.get("/api/events").json()
    check(lobby, wire.EventsBody)
    assert {e["id"]: e["rated"] for e in lobby["events"]} == {rated_id: True, plain_id: False}


def test_the_giver_of_a_partner_link_holds_their_own_seats(app: App) -> None:
    """The partner link's giver registers nothing (the partner does, on their page), yet
    plays: the giver's own token comes with the ticket and holds the pair's second seats
    at every set. A new link replaces the one made before (its ticket is void)."""
    from ws_support import connect

    event_id, host = make_event(app.client, kind="king-of-the-table", pairs=2, sets=1, rated=True)
    layla, nour = app.player("Layla"), app.player("Nour")
    first = nour.post(f"/api/events/{event_id}/partner", json={}).json()
    given = nour.post(f"/api/events/{event_id}/partner", json={}).json()
    check(given, wire.EventPartnerBody)
    assert given["token"] != first["token"]
    pairs = f"/api/events/{event_id}/pairs"
    stale = {"name": "Cedars", "players": [{"me": True}, {"partner": first["partner"]}]}
    assert _error(layla.post(pairs, json=stale)) == (403, "unauthorized")
    made = layla.post(
        pairs, json={"name": "Cedars", "players": [{"me": True}, {"partner": given["partner"]}]}
    ).json()
    assert made["tokens"][1] is None  # the giver's token is theirs already
    _register(app, event_id, "Olives", "Omar", "Sami")
    begun = app.client.post(f"/api/events/{event_id}/start", json={"token": host}).json()
    (game,) = begun["games"]
    table = game["table"]
    second = "north" if game["ns"] == made["pair"] else "west"
    with connect(app.client, table, "nour") as peer:
        assert peer.hello(given["token"])["seat"] == second
    with connect(app.client, table, "old") as peer:
        peer.send({"type": "hello", "protocol": 3, "token": first["token"]})
        assert peer.next()["code"] == "unauthorized"
