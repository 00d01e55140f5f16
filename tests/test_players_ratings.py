"""Ratings of ``tarneeb serve`` (issue 24, item 3): openskill, rated tables, leavers, the ladder.

Every expected rating is worked out here with openskill itself (the
PlackettLuce model with its defaults), from the result the server had: the
server must agree with the library to the last digit it stores.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from players_support import App, app_on, play_to_the_end
from tarneeb.seats import Seat, Team
from tarneeb.server.players import ratings
from tarneeb.server.players.ratings import Family, record_result

openskill = pytest.importorskip("openskill.models")

NAMES = ["Layla", "Nour", "Omar", "Sami"]


@pytest.fixture
def app(tmp_path: Path) -> Any:
    with app_on(f"sqlite:///{tmp_path / 'server.db'}") as running:
        yield running


def _rated_table(app: App, names: list[str] = NAMES, **body: Any) -> tuple[str, dict[str, str]]:
    """A rated table with ``names`` in South, East, North, West (signed up now)."""
    host = app.player(names[0])
    made = host.post("/api/players/tables", json={"rules": "classic", **body})
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    tokens = {"south": made.json()["token"]}
    for name, seat in zip(names[1:], ("east", "north", "west"), strict=True):
        joined = app.player(name).post(f"/api/players/tables/{table}/join", json={"seat": seat})
        assert joined.status_code == 200, joined.text
        tokens[seat] = joined.json()["token"]
    return table, tokens


def _ids(app: App, names: list[str]) -> list[str]:
    found = [app.call(app.service.accounts.find, n) for n in names]
    return [p.id for p in found]


def _expected(
    teams: list[list[str]], winner: int, before: dict[str, Any] | None = None
) -> dict[str, Any]:
    model = openskill.PlackettLuce()
    before = before or {}
    rated = model.rate(
        [[before.get(p) or model.rating() for p in team] for team in teams],
        ranks=[0, 1] if winner == 0 else [1, 0],
    )
    return {
        p: r for team, new in zip(teams, rated, strict=True) for p, r in zip(team, new, strict=True)
    }


def _rating(app: App, name: str, family: str = "partnership") -> dict[str, Any]:
    profile = app.client.get(f"/api/players/profile/{name}").json()
    return profile["ratings"][family]  # type: ignore[no-any-return]


def test_record_result_agrees_with_openskill_on_known_results(app: App) -> None:
    a, b, c, d, e = _ids_of_new(app, ["Ana", "Ben", "Cem", "Dan", "Eli"])
    model = openskill.PlackettLuce()
    first = app.call(record_result, app.hub.store, Family.PARTNERSHIP, [[a, b], [c, d]], 0, "t1")
    expected = _expected([[a, b], [c, d]], 0)
    for player, (old, new) in first.items():
        assert (old.mu, old.sigma) == (model.mu, model.sigma)
        assert new.mu == pytest.approx(expected[player].mu, abs=1e-12)
        assert new.sigma == pytest.approx(expected[player].sigma, abs=1e-12)
    # A second result starts from the first's ratings: a newcomer (e) with a winner of before.
    second = app.call(record_result, app.hub.store, Family.PARTNERSHIP, [[a, e], [c, b]], 1, "t2")
    again = _expected([[a, e], [c, b]], 1, before=expected)
    for player, (_old, new) in second.items():
        assert new.mu == pytest.approx(again[player].mu, abs=1e-12)
        assert new.ordinal == pytest.approx(again[player].ordinal(), abs=1e-12)
    assert second[a][1].played == 2 and second[a][1].won == 1 and second[e][1].won == 0
    # Told twice, a result changes nothing; another ladder is a ladder of its own.
    assert (
        app.call(record_result, app.hub.store, Family.PARTNERSHIP, [[a, b], [c, d]], 0, "t1")
        is None
    )
    assert app.call(record_result, app.hub.store, Family.EGYPTIAN, [[a, b], [c, d]], 1, "t3")
    assert _rating(app, "Ana")["played"] == 2 and _rating(app, "Ana", "egyptian")["played"] == 1


def _ids_of_new(app: App, names: list[str]) -> list[str]:
    for name in names:
        app.player(name)
    return _ids(app, names)


@pytest.mark.parametrize(
    ("teams", "winner"),
    [([["x"], []], 0), ([["x", "x"], ["y", "z"]], 0), ([["x", "y"], ["z", "w"]], 2), ([["x"]], 0)],
)
def test_a_malformed_result_is_refused(app: App, teams: list[list[str]], winner: int) -> None:
    from tarneeb.server.table import ServerError

    with pytest.raises(ServerError, match="two teams"):
        ratings.record_result_now(app.hub.store.engine, Family.PARTNERSHIP, teams, winner, "s")
    assert app.client.get("/api/players/leaderboard").json()["players"] == []


def test_a_rated_match_rates_its_four_players_by_its_winner(app: App) -> None:
    table_id, _tokens = _rated_table(app, options={"target": 11})
    table = play_to_the_end(app, table_id, seed=3)
    app.settled()
    assert table.match is not None and table.match.winner is not None
    ids = dict(zip(NAMES, _ids(app, NAMES), strict=True))
    teams = [[ids["Layla"], ids["Omar"]], [ids["Nour"], ids["Sami"]]]  # S+N, E+W
    expected = _expected(teams, int(table.match.winner))
    for name in NAMES:
        rating = _rating(app, name)
        assert rating["mu"] == pytest.approx(expected[ids[name]].mu, abs=1e-4)
        assert rating["sigma"] == pytest.approx(expected[ids[name]].sigma, abs=1e-4)
        assert rating["played"] == 1
    winners = {"Layla", "Omar"} if table.match.winner is Team.NS else {"Nour", "Sami"}
    assert {n for n in NAMES if _rating(app, n)["won"]} == winners
    profile = app.client.get("/api/players/profile/Layla").json()
    [match] = profile["matches"]
    assert match["rated"] == "settled" and match["won"] == (table.match.winner is Team.NS)
    assert match["record"] == f"/api/tables/{table_id}/record"
    assert app.client.get(match["record"]).status_code == 200
    assert len(match["deals"]) == len(table.match.deals) - sum(
        1 for d in table.match.deals if not d.is_over()
    )
    assert [p["source"] for p in profile["rating_history"]] == [f"table:{table_id}"]


def test_a_player_who_leaves_a_rated_match_loses_it(app: App) -> None:
    table_id, tokens = _rated_table(app)
    # East leaves mid-deal (the bot takes the seat at once): East-West lose.
    east = app.players["Nour"]
    left = east.post(f"/api/tables/{table_id}/leave", json={"token": tokens["east"]})
    assert left.status_code == 200, left.text
    app.settled()
    ids = dict(zip(NAMES, _ids(app, NAMES), strict=True))
    teams = [[ids["Layla"], ids["Omar"]], [ids["Nour"], ids["Sami"]]]
    expected = _expected(teams, 0)
    for name in NAMES:
        assert _rating(app, name)["mu"] == pytest.approx(expected[ids[name]].mu, abs=1e-4)
    assert _rating(app, "Nour")["won"] == 0 and _rating(app, "Layla")["won"] == 1
    # The match plays on with the bot; its end rates nothing a second time.
    play_to_the_end(app, table_id, seed=5)
    app.settled()
    assert _rating(app, "Layla")["played"] == 1


def test_an_away_player_whose_bot_takes_over_loses_but_one_who_returns_does_not(
    tmp_path: Path,
) -> None:
    from ws_support import connect

    with app_on(f"sqlite:///{tmp_path / 'a.db'}", takeover_gap=0.0) as app:
        table_id, tokens = _rated_table(app)
        live = app.call(app.hub.open, table_id)
        with connect(app.client, table_id, "west") as west:
            west.hello(tokens["west"])
        # West went away; the away timer (the table's takeover_seconds) is running ...
        assert Seat.WEST in live.away
        task = live.away[Seat.WEST]

        async def expire() -> None:
            # ... and runs out now: what the timer does when it fires, without the wait.
            task.cancel()
            await app.hub.change(table_id, lambda t: t.take_over(Seat.WEST))

        app.call(expire)
        app.settled()
        assert _rating(app, "Sami")["won"] == 0 and _rating(app, "Layla")["won"] == 1
    with app_on(f"sqlite:///{tmp_path / 'b.db'}") as app:
        table_id, tokens = _rated_table(app)
        with connect(app.client, table_id, "west") as west:
            west.hello(tokens["west"])
        with connect(app.client, table_id, "west") as back:  # back before the bot took over
            back.hello(tokens["west"])
        app.settled()
        assert app.client.get("/api/players/profile/Sami").json()["ratings"] == {}
        assert table_id in app.service.rated


def test_the_leaderboard_is_ordered_by_mu_minus_three_sigma(app: App) -> None:
    names = ["Ana", "Ben", "Cem", "Dan", "Eli", "Fay"]
    ids = dict(zip(names, _ids_of_new(app, names), strict=True))
    results = [
        (["Ana", "Ben"], ["Cem", "Dan"], 0),
        (["Ana", "Cem"], ["Eli", "Fay"], 0),
        (["Ana", "Eli"], ["Ben", "Dan"], 0),
        (["Fay", "Ben"], ["Dan", "Cem"], 0),
    ]
    model = openskill.PlackettLuce()
    current = {p: model.rating() for p in ids.values()}
    for i, (north_south, east_west, winner) in enumerate(results):
        teams = [[ids[n] for n in north_south], [ids[n] for n in east_west]]
        app.call(record_result, app.hub.store, Family.PARTNERSHIP, teams, winner, f"r{i}")
        current.update(_expected(teams, winner, current))
    board = app.client.get("/api/players/leaderboard?family=partnership").json()
    shown = [row["name"] for row in board["players"]]
    ordinal = {n: current[ids[n]].ordinal() for n in names}
    assert shown == sorted(names, key=lambda n: -ordinal[n])
    assert [row["rank"] for row in board["players"]] == list(range(1, 7))
    for row in board["players"]:
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"], abs=1e-3)
    assert app.client.get("/api/players/leaderboard?family=egyptian").json()["players"] == []
    bad = app.client.get("/api/players/leaderboard?family=bridge")
    assert bad.status_code == 400 and "ladder" in bad.json()["error"]["message"]


# -- rated tables ---------------------------------------------------------------------------


def test_a_rated_table_takes_signed_in_players_only_and_never_bots(app: App) -> None:
    host = app.player("Layla")
    bots = host.post(
        "/api/players/tables", json={"rules": "classic", "seats": {"east": "bot:random"}}
    )
    assert bots.status_code == 400 and "no bots" in bots.json()["error"]["message"]
    made = host.post("/api/players/tables", json={"rules": "egyptian"}).json()
    table = made["table"]
    assert app.service.rated[table] is Family.EGYPTIAN
    # The host cannot fill it with bots; a guest cannot sit, by either door.
    start = host.post(f"/api/tables/{table}/start", json={"token": made["token"]})
    assert start.status_code == 409 and "no bots" in start.json()["error"]["message"]
    guest = app.browser()
    assert guest.post(f"/api/players/tables/{table}/join", json={}).status_code == 403
    plain = guest.post(f"/api/tables/{table}/join", json={"name": "Guest"})
    assert plain.status_code == 403, plain.text
    # The host is seated once; the listing shows the free seats.
    again = host.post(f"/api/players/tables/{table}/join", json={})
    assert again.status_code == 409 and "already" in again.json()["error"]["message"]
    [listed] = app.client.get("/api/players/tables").json()["tables"]
    assert listed["id"] == table and listed["family"] == "egyptian"
    assert [s["name"] for s in listed["seats"]] == ["Layla", None, None, None]
    taken = app.player("Nour").post(f"/api/players/tables/{table}/join", json={"seat": "south"})
    assert taken.status_code == 409


def test_the_family_is_read_from_the_rules_options(app: App) -> None:
    host = app.player("Layla")
    for body, family in [
        ({"rules": "syrian400"}, Family.SOLO),
        ({"rules": "tarneeb400"}, Family.PARTNERSHIP),
        (
            {"rules": "classic", "options": {"bidding": "strains", "no_trump": True}},
            Family.EGYPTIAN,
        ),
    ]:
        made = host.post("/api/players/tables", json=body)
        assert made.status_code == 201, made.text
        assert app.service.rated[made.json()["table"]] is family


def test_results_of_one_player_at_once_are_rated_one_after_the_other(app: App) -> None:
    a, b, c, d, e, f = _ids_of_new(app, ["Ana", "Ben", "Cem", "Dan", "Eli", "Fay"])

    async def both() -> None:
        store = app.hub.store
        await asyncio.gather(
            record_result(store, Family.PARTNERSHIP, [[a, b], [c, d]], 0, "x1"),
            record_result(store, Family.PARTNERSHIP, [[a, e], [f, d]], 0, "x2"),
        )

    app.call(both)
    assert _rating(app, "Ana")["played"] == 2 and _rating(app, "Dan")["played"] == 2


def test_a_rated_table_makes_no_invites_and_a_seat_left_before_the_start_is_free(app: App) -> None:
    host = app.player("Layla")
    made = host.post("/api/players/tables", json={"rules": "classic"}).json()
    table = made["table"]
    invite = host.post(
        f"/api/tables/{table}/invite", json={"token": made["token"], "seats": ["east"]}
    )
    assert invite.status_code == 409 and "no invites" in invite.json()["error"]["message"]
    nour = app.player("Nour")
    joined = nour.post(f"/api/players/tables/{table}/join", json={"seat": "east"}).json()
    assert (
        nour.post(f"/api/tables/{table}/leave", json={"token": joined["token"]}).status_code == 200
    )
    # East is free again: another player takes it, and Nour may come back in another seat.
    omar = app.player("Omar").post(f"/api/players/tables/{table}/join", json={"seat": "east"})
    assert omar.status_code == 200, omar.text
    back = nour.post(f"/api/players/tables/{table}/join", json={"seat": "north"})
    assert back.status_code == 200, back.text
    sami = app.player("Sami").post(f"/api/players/tables/{table}/join", json={}).json()
    assert sami["seat"] == "west"
    # Four players: it plays, and a leaver's loss rates the four who sit there now.
    assert (
        app.players["Sami"]
        .post(f"/api/tables/{table}/leave", json={"token": sami["token"]})
        .status_code
        == 200
    )
    app.settled()
    assert _rating(app, "Omar")["won"] == 0 and _rating(app, "Nour")["won"] == 1
