"""What the client shows without re-deriving the rules: the score sheet, the progress of the
contract, the Egyptian raise, the real target, and whether sets are counted.

Issue 23, item 6: "Tarneeb 400 never shows card points against the bid;
Syrian 400 shows "S 2E 4N 6W 2" and a team bar, though its rule is per
player; Egyptian's raise phase says "trump not chosen" under 7C; nowhere says
"N-S 5 of 8"." Item 7: "shows "Classic (41)" for a custom target, a "Sets
won" line in classic". And: "A score sheet: every deal's contract, bid and
taken, points, running totals."
"""

from __future__ import annotations

import random
from pathlib import Path

from tarneeb.actions import Bid, Pass, Phase, Strain, action_id
from tarneeb.cards import Suit
from tarneeb.seats import Seat
from tarneeb.server import wire
from tarneeb.server.protocol import state_json
from tarneeb.server.sheet import running_scores, sheet_rows
from tarneeb.server.table import Table, TableConfig
from tarneeb.server.wiretypes import check
from ws_support import connect, play_until, server

BOTS = ("human", "bot:random", "bot:random", "bot:random")
PASS = action_id(Pass())


def _table(rules: str, **options: object) -> Table:
    table = Table.new("t", TableConfig(rules, dict(options), BOTS))
    table.join("Layla", Seat.SOUTH)
    return table


def _act(table: Table, action: int) -> None:
    seat = table.to_act()
    assert seat is not None
    table.act(seat, table.version, action, f"a{table.version}", "bot")


def _step(table: Table, rng: random.Random) -> None:
    """One legal action that ends matches soon: the first speaker bids lowest, the rest
    pass; individual bids, raises and trump choices among the lowest; a random card."""
    assert table.match is not None
    deal = table.match.deal
    legal = sorted(deal.legal_action_ids())
    if deal.phase is Phase.PLAY:
        _act(table, rng.choice(legal))
    elif deal.phase is Phase.AUCTION and not table.rules.is_individual:
        someone_bid = any(not isinstance(a, Pass) for _, a in deal.history)
        bids = [a for a in legal if a >= 64]
        _act(table, PASS if PASS in legal and (someone_bid or not bids) else bids[0])
    else:
        _act(table, rng.choice(legal[:3]))


def _play_out(table: Table, rng: random.Random) -> None:
    assert table.match is not None
    while not table.match.is_over():
        _step(table, rng)


def _play_to_trick(table: Table, rng: random.Random, tricks: int) -> None:
    assert table.match is not None
    while table.match.deal.phase is not Phase.PLAY or len(table.match.deal.tricks) < tricks:
        _step(table, rng)


def test_the_sheet_adds_up_to_the_match_and_starts_each_set_afresh() -> None:
    rng = random.Random(3)
    table = _table("levant-sets", target=11, sets=2)
    _play_out(table, rng)
    match = table.match
    assert match is not None and len(match.sets) == 2
    rows = sheet_rows(table)
    assert [row["number"] for row in rows] == list(range(1, len(match.deals) + 1))
    for done in match.sets:  # each set's last row shows that set's final scores
        last = [row for row in rows if row["set"] == done.number][-1]
        assert last["scores"] == list(done.team_scores)
    first_of_second = next(row for row in rows if row["set"] == 2)
    points = first_of_second["result"]
    assert points is not None
    assert first_of_second["scores"] == points.get("points", [0, 0])  # type: ignore[union-attr]
    for row in rows:
        check(row, wire.SheetRowJson)
        assert sum(row["side_tricks"]) in (0, 13)
        assert row["card_points"] is None


def test_tarneeb400_counts_card_points_against_the_bid() -> None:
    """The 400 count: bids and scores are card points (bid 60 to 120, step 10)."""
    rng = random.Random(5)
    table = _table("tarneeb400")
    match = table.match
    assert match is not None
    _play_to_trick(table, rng, 3)
    state = state_json(table, Seat.SOUTH)["match"]
    assert state is not None
    (progress,) = state["progress"]
    contract = state["contract"]
    assert contract is not None and progress["unit"] == "points"
    assert progress["needed"] == contract["level"] and progress["seat"] == contract["seat"]
    side = 0 if progress["side"] == "NS" else 1
    assert state["side_card_points"] is not None
    assert progress["taken"] == state["side_card_points"][side]
    _play_out(table, rng)
    for row in sheet_rows(table):
        if row["contract"] is not None:
            assert row["card_points"] is not None and sum(row["card_points"]) > 0


def test_syrian400_shows_each_players_own_bid_against_their_tricks() -> None:
    rng = random.Random(6)
    table = _table("syrian400")
    match = table.match
    assert match is not None
    _play_to_trick(table, rng, 2)
    state = state_json(table, None)["match"]
    assert state is not None and state["individual"]
    progress = state["progress"]
    assert [p["seat"] for p in progress] == ["south", "east", "north", "west"]
    for entry, bid, taken in zip(progress, state["bids"], state["tricks_taken"], strict=True):
        assert (entry["needed"], entry["taken"], entry["unit"]) == (bid, taken, "tricks")


def test_egyptian_raise_phase_names_the_bid_suit_as_trump() -> None:
    """Under a bid of 7 clubs the trump is clubs already while the declarer may raise."""
    table = _table("egyptian")
    match = table.match
    assert match is not None
    assert state_json(table, None)["match"]["progress"] == []  # type: ignore[index]
    _act(table, action_id(Bid(7, Strain.CLUBS)))
    while match.deal.phase is Phase.AUCTION:
        _act(table, min(match.deal.legal_action_ids()))  # the others pass
    assert match.deal.phase is Phase.RAISE
    state = state_json(table, None)["match"]
    assert state is not None
    assert state["phase"] == "raise" and state["trump"] == "C" and not state["trump_pending"]
    assert state["progress"][0]["needed"] == 7
    assert Suit.CLUBS.letter == "C"


def test_the_table_says_its_custom_options_and_whether_sets_count() -> None:
    table = Table.new("t", TableConfig("classic", {"target": 31}, BOTS))
    table.join("Layla", Seat.SOUTH)
    state = state_json(table, Seat.SOUTH)
    from tarneeb.server.protocol import table_json

    assert table_json(table)["custom"] == {"target": 31}
    assert state["match"] is not None
    assert state["match"]["target"] == 31 and not state["match"]["sets_counted"]
    sets = _table("levant-sets")
    assert state_json(sets, None)["match"]["sets_counted"]  # type: ignore[index]
    assert table_json(sets)["custom"] == {}


def test_a_replayed_deal_end_tells_the_scores_after_its_own_deal(tmp_path: Path) -> None:
    """Before, a ``deal_end`` told again (a reload's welcome) carried the current scores."""
    rng = random.Random(7)
    seats = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "L", "seats": seats}).json()
        table = made["table"]
        with connect(client, table, "south") as south:
            south.hello(made["token"])
            play_until(south, rng, lambda p: p.match["deal_number"] >= 4)
            live = [e for e in south.events if e["kind"] == "deal_end"]
        assert len(live) >= 3
        with connect(client, table, "again") as again:
            welcome = again.hello(made["token"])
            told = [e for e in welcome["events"] if e["kind"] == "deal_end"][: len(live)]
            assert told == live
            assert welcome["sheet"][: len(live)] == [e["row"] for e in live]
            assert [r["scores"] for r in welcome["sheet"][: len(live)]] == [
                e["scores"] for e in live
            ]


def test_running_scores_end_where_the_match_is() -> None:
    rng = random.Random(8)
    table = _table("classic")
    assert table.match is not None
    for _ in range(400):
        if table.match.is_over():
            break
        _step(table, rng)
    after = running_scores(table.match)
    assert after and after[-1][0] == table.match.team_scores
