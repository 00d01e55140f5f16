"""Partner tickets of hosted events, stored beside the events (SQLite and PostgreSQL).

A signed-in player asks ``POST /api/events/{id}/partner`` for a ticket; whoever
registers a pair with it (``{"partner": TICKET}``) registers them as the pair's
partner. The store keeps the ticket's sha256 only, with a wall-clock expiry; a
ticket registers one pair, is used up only when that registration is stored,
and outlives a restart of the server.
"""

from __future__ import annotations

# ruff: noqa: F811 - the fixture imported from test_server_persistence is a parameter here
import hashlib
import time
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from events_support import make_event
from players_support import PASSWORD, App, app_on
from tarneeb.server.events import host as host_module
from tarneeb.server.events.host import PARTNER_SECONDS, EventHost
from tarneeb.server.events.model import Member
from tarneeb.server.events.schema import event_partners
from tarneeb.server.table import ServerError
from test_server_persistence import db_url  # noqa: F401 - its fixture


def _host(app: App) -> EventHost:
    host: EventHost = app.client.app.state.events  # type: ignore[attr-defined]
    return host


def _ticket(client: TestClient, event_id: str) -> str:
    answer = client.post(f"/api/events/{event_id}/partner", json={})
    assert answer.status_code == 201, answer.text
    ticket = answer.json()["partner"]
    assert isinstance(ticket, str) and len(ticket) >= 20
    return ticket


def _pair(client: TestClient, event_id: str, ticket: str, name: str = "Cedars") -> Any:
    return client.post(
        f"/api/events/{event_id}/pairs",
        json={"name": name, "players": [{"me": True}, {"partner": ticket}]},
    )


def _code(answer: Any) -> tuple[int, str]:
    body = answer.json()
    assert set(body) == {"error"}, body
    return answer.status_code, body["error"]["code"]


def _rows(app: App) -> list[Any]:
    with app.hub.store.engine.connect() as conn:
        return list(conn.execute(event_partners.select()).all())


def _members(app: App, event_id: str) -> list[list[str]]:
    event = app.client.get(f"/api/events/{event_id}").json()
    return [[m["name"] for m in p["members"]] for p in event["pairs"]]


def test_a_ticket_registers_its_player_as_the_partner_once(db_url: str) -> None:
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        layla, nour, omar = app.player("Layla"), app.player("Nour"), app.player("Omar")
        ticket = _ticket(nour, event_id)
        (row,) = _rows(app)  # the hash only, never the ticket
        assert row.ticket_hash == hashlib.sha256(ticket.encode()).hexdigest()
        assert ticket not in repr(tuple(row))
        assert row.event_id == event_id and row.name == "Nour"
        assert row.expires == pytest.approx(time.time() + PARTNER_SECONDS, abs=30)
        made = _pair(layla, event_id, ticket)
        assert made.status_code == 201, made.text
        assert _members(app, event_id) == [["Layla", "Nour"]]
        assert _rows(app) == []  # used up with the registration
        again = _pair(omar, event_id, ticket, "Again")
        assert _code(again) == (403, "unauthorized")
        assert _members(app, event_id) == [["Layla", "Nour"]]


def test_a_ticket_of_another_event_or_none_at_all_is_refused(db_url: str) -> None:
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        other_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        layla, nour = app.player("Layla"), app.player("Nour")
        elsewhere = _ticket(nour, other_id)
        for ticket in (elsewhere, "not-a-ticket", "x" * 5000):
            assert _code(_pair(layla, event_id, ticket)) == (403, "unauthorized")
        not_text: list[object] = [None, 7, ["a"], {"a": 1}]
        for odd in not_text:
            answer = layla.post(
                f"/api/events/{event_id}/pairs",
                json={"name": "C", "players": [{"me": True}, {"partner": odd}]},
            )
            assert _code(answer) == (403, "unauthorized")
        assert _pair(layla, other_id, elsewhere).status_code == 201  # its own event's
        missing = nour.post("/api/events/nosuchevent/partner", json={})
        assert _code(missing) == (404, "not_found")


def test_an_expired_ticket_is_refused_and_dropped(db_url: str) -> None:
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        layla, nour, omar = app.player("Layla"), app.player("Nour"), app.player("Omar")
        ticket = _ticket(nour, event_id)
        host = _host(app)
        later = time.time() + PARTNER_SECONDS + 1
        host._wall = lambda: later
        assert _code(_pair(layla, event_id, ticket)) == (403, "unauthorized")
        assert _members(app, event_id) == []
        host._wall = lambda: later - 2  # just before its end: it still holds
        assert _pair(layla, event_id, ticket).status_code == 201
        stale = _ticket(omar, event_id)
        host._wall = lambda: later + PARTNER_SECONDS + 1
        fresh = _ticket(omar, event_id)  # a new ticket drops the expired ones
        assert [r.ticket_hash for r in _rows(app)] == [hashlib.sha256(fresh.encode()).hexdigest()]
        assert stale != fresh


def test_a_refused_registration_leaves_the_ticket_usable(db_url: str) -> None:
    """Before tickets were stored, the registration took the ticket before it was
    checked: a registration refused for any reason burnt it."""
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        layla, nour = app.player("Layla"), app.player("Nour")
        omar, sami = app.player("Omar"), app.player("Sami")
        assert _pair(layla, event_id, _ticket(nour, event_id)).status_code == 201
        ticket = _ticket(omar, event_id)
        # Layla plays in a pair already; Omar's own ticket names himself twice; a pair
        # name that is no text; a guest asking to be "me"
        assert _code(_pair(layla, event_id, ticket, "Twice")) == (409, "conflict")
        assert _code(_pair(omar, event_id, ticket, "Self")) == (409, "conflict")
        bad_name = sami.post(
            f"/api/events/{event_id}/pairs",
            json={"name": ["no"], "players": [{"me": True}, {"partner": ticket}]},
        )
        assert _code(bad_name)[0] == 400
        assert _code(_pair(app.client, event_id, ticket, "Guest")) == (403, "unauthorized")
        assert len(_rows(app)) == 1
        made = _pair(sami, event_id, ticket, "Olives")
        assert made.status_code == 201, made.text
        assert _members(app, event_id) == [["Layla", "Nour"], ["Sami", "Omar"]]


def test_a_ticket_taken_meanwhile_rolls_the_second_registration_back(db_url: str) -> None:
    """Two registrations read the same ticket; the store takes the first and refuses the
    second in its own transaction (as two workers on one database would race; an
    unrated event, which takes a player in two pairs, so only the ticket refuses)."""
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4)
        app.player("Nour")
        ticket = _ticket(app.players["Nour"], event_id)
        host = _host(app)
        first, digest = app.call(host.find_partner, event_id, ticket)
        second, again = app.call(host.find_partner, event_id, ticket)
        assert first == second and digest == again
        layla = Member("Layla", identity="account:layla")
        omar = Member("Omar", identity="account:omar")

        async def register(member: Member, name: str) -> object:
            return await host.register(event_id, name, [member, first], (digest,))

        app.call(register, layla, "Cedars")
        with pytest.raises(ServerError) as refused:
            app.call(register, omar, "Olives")
        assert refused.value.code.value == "unauthorized"
        assert _members(app, event_id) == [["Layla", "Nour"]]
        assert [p.name for p in host.get(event_id).event.pairs.values()] == ["Cedars"]


def test_the_tickets_a_server_holds_are_capped(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host_module, "MAX_PARTNERS", 2)
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        nour, omar, sami = app.player("Nour"), app.player("Omar"), app.player("Sami")
        _ticket(nour, event_id)
        _ticket(nour, event_id)  # replaces Nour's first: one live ticket a giver
        _ticket(omar, event_id)
        full = sami.post(f"/api/events/{event_id}/partner", json={})
        assert _code(full) == (409, "conflict")
        host = _host(app)
        later = time.time() + PARTNER_SECONDS + 1
        host._wall = lambda: later  # the expired make room
        _ticket(sami, event_id)


def test_a_ticket_outlives_a_restart_of_the_server(db_url: str) -> None:
    with app_on(db_url) as app:
        event_id, _ = make_event(app.client, kind="king-of-the-table", pairs=4, rated=True)
        app.player("Layla")
        ticket = _ticket(app.player("Nour"), event_id)
    with app_on(db_url) as app:
        layla = app.browser()
        signed = layla.post("/api/players/login", json={"name": "Layla", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        made = _pair(layla, event_id, ticket)
        assert made.status_code == 201, made.text
    with app_on(db_url) as app:
        assert _members(app, event_id) == [["Layla", "Nour"]]
        assert _rows(app) == []
        with app.hub.store.engine.connect() as conn:
            assert (
                conn.execute(sa.select(sa.func.count()).select_from(event_partners)).scalar() == 0
            )
