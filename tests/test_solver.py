"""The double-dummy solvers: positions, known answers, the DDS seat mapping, agreement.

The DDS tests need endplay: without it they skip, unless
TARNEEB_REQUIRE_EXTRAS=1 (CI), where they fail.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import random
import time
from collections.abc import Sequence

import pytest

from support import need_dds
from tarneeb import Card, CardSet, Deal, Seat, Suit, find_rules
from tarneeb.actions import Strain
from tarneeb.solver import (
    DDTable,
    OwnSolver,
    Position,
    PositionError,
    Solution,
    SolverError,
    SolverTimeout,
    backend_name,
    dd_table,
    dd_tables,
    solve,
    solve_many,
    trick_winner,
)
from tarneeb.solver import dds as dds_backend

REQUIRE_EXTRAS = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"

# Each seat holds one whole suit.
SUITED = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")


def random_position(rng: random.Random, tricks: int, strain: int | None = None) -> Position:
    """A random position with ``tricks`` left, a random trump and 0-3 cards in the trick."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i : 4 * tricks : 4]) for i in range(4)]
    if strain is None:
        strain = rng.randrange(5)
    position = Position(hands, None if strain == 4 else strain, rng.randrange(4))
    for _ in range(rng.randrange(4)):
        position = position.play(rng.choice(position.legal_cards()))
    return position


def brute_force(position: Position) -> dict[Card, int]:
    """Every legal card's value by plain minimax: the independent reference for tiny endings."""

    def best(p: Position) -> int:
        side = p.to_play & 1
        results = []
        for card in p.legal_cards():
            results.append(after(p, card, side))
        return max(results)

    def after(p: Position, card: int, side: int) -> int:
        won = 0
        if len(p.trick) == 3:
            winner = trick_winner(p.leader, (*p.trick, card), p.trump)
            won = 1 if winner & 1 == side else 0
        nxt = p.play(card)
        if not any(nxt.hands) and not nxt.trick:
            return won
        value = best(nxt)
        if nxt.to_play & 1 != side:
            value = nxt.tricks_left - value
        return won + value

    side = position.to_play & 1
    return {c: after(position, c, side) for c in position.legal_cards()}


# -- positions ---------------------------------------------------------------------------


def test_position_basics() -> None:
    p = Position.parse(["AK.2..", "QJ.3..", "T9.4..", ".5.87."], trump=Suit.HEARTS, leader=1)
    assert p.to_play == Seat.EAST
    assert p.tricks_left == 3
    assert p.strain == Strain.HEARTS
    assert p.legal_cards() == (Card.parse("3H"), Card.parse("JS"), Card.parse("QS"))
    q = p.play(Card.parse("QS"))
    assert q.trick == (Card.parse("QS"),) and q.to_play == Seat.NORTH
    assert q.legal_cards() == (Card.parse("9S"), Card.parse("TS"))
    q = q.play(Card.parse("9S")).play(Card.parse("5H"))
    assert q.to_play == Seat.SOUTH
    assert q.legal_cards() == (Card.parse("KS"), Card.parse("AS"))
    end = q.play(Card.parse("AS"))
    # West, void in spades, ruffed the queen; South had to follow.
    assert end.trick == () and end.leader == Seat.WEST and end.tricks_left == 2
    assert eval(repr(end), {"Position": Position, "Suit": Suit, "Seat": Seat}) == end


def test_position_first_lead_rule() -> None:
    p = Position.parse(["AK.2..", "QJ.3..", "T9.4..", "87.5.."], Suit.HEARTS, 0, lead_trump=True)
    assert p.legal_cards() == (Card.parse("2H"),)
    assert p.play(Card.parse("2H")).lead_trump is False
    no_trump_held = Position.parse(["AKQ...", "JT9...", "876...", "543..."], 2, 0, lead_trump=True)
    assert no_trump_held.legal_mask() == CardSet.parse("AKQ...").mask


@pytest.mark.parametrize(
    ("hands", "trick", "message"),
    [
        (["AK...", "QJ...", "T9...", "8..."], (), "West holds 1 cards where 2 are expected"),
        (["AK...", "AJ...", "T9...", "87..."], (), "AS is in two hands"),
        (["AK...", "QJ...", "T9...", "87..."], ("AS",), "AS is both in the trick and in a hand"),
        (["K...", "QJ...", "T9...", "87..."], ("AS", "2S", "3S", "4S"), "0 to 3 cards, not 4"),
    ],
)
def test_position_errors(hands: list[str], trick: tuple[str, ...], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.parse(hands, None, 0, trick)


def test_empty_position_has_nothing_to_solve() -> None:
    empty = Position([0, 0, 0, 0], None, Seat.WEST)
    assert empty.tricks_left == 0 and empty.legal_cards() == ()
    with pytest.raises(PositionError, match="no cards are left"):
        solve(empty, backend="own")
    with pytest.raises(PositionError, match="no cards are left"):
        solve_many([empty], backend="own")


def test_position_bad_card_and_seat() -> None:
    p = Position.parse(["AK...", "QJ...", "T9...", "87..."], None, 0)
    with pytest.raises(PositionError, match="South cannot play QS here"):
        p.play(Card.parse("QS"))
    with pytest.raises(PositionError, match="leader 4 is not a seat"):
        Position(p.hands, None, 4)
    with pytest.raises(PositionError, match="trump 5 is not a suit"):
        Position(p.hands, 5, 0)


def test_position_from_deal() -> None:
    rules = find_rules("classic").replace(first_lead_trump=True)
    deal = Deal(rules, Seat.WEST, list(SUITED))
    with pytest.raises(PositionError, match="not in the play phase"):
        Position.from_deal(deal)
    for action in ["7", "pass", "pass", "pass", "H"]:
        deal.push(action)
    p = Position.from_deal(deal)
    assert p.leader == Seat.SOUTH and p.trump == Suit.HEARTS and p.lead_trump
    assert p.hands == tuple(CardSet.parse(h).mask for h in SUITED)
    deal.push("AS")
    q = Position.from_deal(deal)
    assert q.trick == (Card.parse("AS"),) and not q.lead_trump and q.to_play == Seat.EAST


# -- known answers, both backends ----------------------------------------------------------

BACKEND_PARAMS = [
    pytest.param("own", id="own"),
    pytest.param("dds", id="dds"),
]


def run(backend: str, position: Position) -> Solution:
    if backend == "dds":
        need_dds()
    return solve(position, backend=backend)


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
@pytest.mark.parametrize(
    ("trump", "leader", "tricks"),
    [
        # South holds every spade: with spades trump the lead wins only when South's side leads.
        (Suit.SPADES, Seat.SOUTH, 13),
        (Suit.SPADES, Seat.EAST, 0),
        (Suit.SPADES, Seat.NORTH, 13),
        (Suit.SPADES, Seat.WEST, 0),
        # East holds every heart.
        (Suit.HEARTS, Seat.SOUTH, 0),
        (Suit.HEARTS, Seat.EAST, 13),
        (Suit.HEARTS, Seat.NORTH, 0),
        # No trump: the leader runs the suit.
        (None, Seat.SOUTH, 13),
        (None, Seat.WEST, 13),
    ],
)
def test_known_suited_deal(backend: str, trump: Suit | None, leader: Seat, tricks: int) -> None:
    solution = run(backend, Position.parse(SUITED, trump, leader))
    assert solution.tricks == tricks
    assert set(solution.values.values()) == {tricks}
    assert len(solution.values) == 13


# The finesse: South leads a spade towards North's AQ. It works when the king
# sits with East, who plays before North (S -> E -> N -> W), and fails with
# West. A clockwise mapping of our seats onto DDS's would swap the answers.
FINESSE_ONSIDE = ["32...", "K4...", "AQ...", ".65.."]
FINESSE_OFFSIDE = ["32...", ".65..", "AQ...", "K4..."]


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_finesse_by_play_order(backend: str) -> None:
    onside = run(backend, Position.parse(FINESSE_ONSIDE, None, Seat.SOUTH))
    assert onside.tricks == 2
    assert onside.values == {Card.parse("2S"): 2, Card.parse("3S"): 2}
    offside = run(backend, Position.parse(FINESSE_OFFSIDE, None, Seat.SOUTH))
    assert offside.tricks == 1
    # Mid-trick: East has played low on the onside layout; North must finesse.
    p = Position.parse(FINESSE_ONSIDE, None, Seat.SOUTH).play(Card.parse("2S"))
    p = p.play(Card.parse("4S"))
    north = run(backend, p)
    assert north.seat == Seat.NORTH
    assert north.values == {Card.parse("QS"): 2, Card.parse("AS"): 1}
    assert north.best_cards == (Card.parse("QS"),)
    assert north.cost(Card.parse("AS")) == 1


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_ruff_and_overruff(backend: str) -> None:
    # West leads a club; North can ruff, East (fourth) can overruff only if North ruffs low.
    p = Position.parse([".2.5.A", "..2.3K", "..3.4Q", "3.4..5"], Suit.DIAMONDS, Seat.WEST)
    assert p.to_play == Seat.WEST
    solution = run(backend, p)
    expected = brute_force(p)
    assert solution == Solution(p, max(expected.values()), expected)


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_first_lead_rule(backend: str) -> None:
    # South must lead its small trump when the rule holds; without it, it cashes the spade ace.
    hands = ["A.2..", "K.3..", "Q.A..", "J.4.."]
    free = run(backend, Position.parse(hands, Suit.HEARTS, 0))
    ruled = run(backend, Position.parse(hands, Suit.HEARTS, 0, lead_trump=True))
    assert free.values == {Card.parse("2H"): 2, Card.parse("AS"): 2}
    assert ruled.values == {Card.parse("2H"): 2}
    hands = ["A.2..", "K.A..", "Q.3..", "J.4.."]
    ruled = run(backend, Position.parse(hands, Suit.HEARTS, 0, lead_trump=True))
    free = run(backend, Position.parse(hands, Suit.HEARTS, 0))
    assert ruled.tricks == 1 and free.tricks == 1
    assert free.values == {Card.parse("2H"): 1, Card.parse("AS"): 1}


def test_own_against_brute_force() -> None:
    rng = random.Random(41)
    solver = OwnSolver()
    for i in range(150):
        p = random_position(rng, 2 + i % 2, i % 5)
        expected = brute_force(p)
        got = solver.solve(p)
        assert dict(got.values) == expected, p
        assert got.tricks == max(expected.values())
    assert solver.nodes > 0


@pytest.mark.parametrize(
    "hands, trump, leader",
    [
        # East-West's top trumps lie in two hands, East's with a second trump:
        # two sure tricks for them, whoever leads what.
        (["QJT...", "A2.2..", ".AKQ..", "K.J3.."], Suit.SPADES, Seat.SOUTH),
        # South has nothing to cash, but North ruffs diamonds and neither
        # opponent holds a trump to overruff.
        (["..43.", "..AK.", ".2..2", "..J.A"], Suit.HEARTS, Seat.SOUTH),
        # West holds the second-best trump and another, sitting just after
        # North's ace: North-South, on lead, cannot take every trick.
        (["K.J.Q.", "T.A..A", ".KT..J", "AJ...Q"], Suit.SPADES, Seat.SOUTH),
        # East-West hold the second- and third-best trumps, East two of them.
        (["J.K.QT.", ".Q.K.AQ", "KT.JT..", "AQ...JT"], Suit.SPADES, Seat.SOUTH),
        # Every suit South holds is headed by East-West, and North, holding
        # trumps, holds those suits too: no lead of South's takes a trick.
        ([".A.A.K", "AT.J..", ".KT..A", "K...JT"], Suit.SPADES, Seat.SOUTH),
        # No-trump: a side short of tricks in the suits it heads cannot take
        # every trick, whoever is on lead.
        (["J.A.T.", ".J..AJ", "A..A.T", "K..KJ."], None, Seat.SOUTH),
        (["Q.A.J.K", "KT.Q.A.", ".J.Q.AJ", "J.T..QT"], None, Seat.SOUTH),
        # No-trump: South cashes its winners, then leads to North's top card
        # and North cashes its own; the two counts add up.
        ([".Q.A.K", "QJ..T.", "T.J..A", ".K.K.J"], None, Seat.SOUTH),
        # So they do with trumps once the opponents have none left.
        (["Q.A.J.K", "KT.Q.A.", ".J.Q.AJ", "J.T..QT"], Suit.HEARTS, Seat.SOUTH),
        # North's guarded queen of trumps sits just after East's king: one sure
        # trick for North-South whoever leads, but North (who may hold nothing
        # but trumps to lead), and only one.
        # With trumps still out: South's top trumps draw the opponents', then
        # South cashes its winners, leads to North's and North cashes its own
        # (an ending where overstating that sum by a trick goes wrong).
        (["KQ.Q..T", ".AK..KJ", "T..QJ.A", "J.J.AK."], Suit.SPADES, Seat.WEST),
        ([".Q..JT", "KJ...Q", "QT...A", ".K.QJ."], Suit.SPADES, Seat.EAST),
        (["T...KQJ", "K.Q.JT.", "QJ.T.K.", ".K.A.AT"], Suit.SPADES, Seat.EAST),
    ],
)
def test_own_solver_bounds_against_brute_force(
    hands: list[str], trump: Suit | None, leader: Seat
) -> None:
    position = Position.parse(hands, trump=trump, leader=leader)
    expected = brute_force(position)
    solution = OwnSolver().solve(position)
    assert dict(solution.values) == expected
    assert solution.tricks == max(expected.values())


def test_own_solver_leaves_the_garbage_collector_as_it_found_it() -> None:
    position = random_position(random.Random(8), 4, 1)
    assert gc.isenabled()
    OwnSolver().solve(position)
    assert gc.isenabled()
    gc.disable()
    try:
        OwnSolver().solve(position)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_own_solver_tables_stay_out_of_the_collectors_way() -> None:
    # A kept solver's table entries are tuples of ints, which Python's collector
    # stops tracking after one look: its full collections do not walk them again.
    solver = OwnSolver()
    solver.solve(random_position(random.Random(9), 9, 4))
    gc.collect()
    entries = [e for tables in solver._tables.values() for es in tables[0].values() for e in es]
    assert len(entries) > 500
    assert not any(gc.is_tracked(e) for e in entries)


def test_own_solver_shares_answers_between_deals() -> None:
    # One table for many deals: an entry stands for every position that agrees
    # on the cards its proof compared, whatever the deal (partition search).
    positions = agreement_positions(31, [(4, 30), (5, 30)])
    shared = OwnSolver()
    assert [shared.solve(p) for p in positions] == [OwnSolver().solve(p) for p in positions]


def test_own_solver_stops_at_its_deadline_and_stays_sound() -> None:
    position = random_position(random.Random(1), 9)  # about 5,000 trick starts
    solver = OwnSolver()
    with pytest.raises(SolverTimeout, match="passed its deadline"):
        solver.solve(position, deadline=time.perf_counter())
    assert gc.isenabled()
    # Stopped partway, the search leaves in its tables only what it proved.
    stopped = 0
    for wait in (0.002, 0.005, 0.01, 0.02):
        try:
            solver.solve(position, deadline=time.perf_counter() + wait)
        except SolverTimeout:
            stopped += 1
    assert stopped and solver.nodes > 0
    expected = OwnSolver().solve(position)
    assert solver.solve(position) == expected
    assert OwnSolver().solve(position, deadline=time.perf_counter() + 3600) == expected


def test_own_solver_table_is_reused_and_cleared() -> None:
    solver = OwnSolver(max_entries=10)
    rng = random.Random(3)
    first = solver.solve(random_position(rng, 5, 0))
    again = OwnSolver().solve(first.position)
    assert first == again
    solver.clear()
    assert solver.solve(first.position) == first


# -- backends --------------------------------------------------------------------------


def test_backend_names() -> None:
    assert backend_name("own") == "own"
    assert backend_name("auto") in ("own", "dds")
    with pytest.raises(SolverError, match="unknown solver backend 'fast'"):
        backend_name("fast")


def test_dds_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def fake(name: str, package: str | None = None) -> object:
        if name.startswith("endplay"):
            raise ImportError("No module named 'endplay'")
        return real(name, package)

    monkeypatch.setattr(dds_backend, "_lib", None)
    monkeypatch.setattr(importlib, "import_module", fake)
    assert not dds_backend.available()
    assert backend_name("auto") == "own"
    with pytest.raises(SolverError, match=r"pip install 'tarneeb\[solver\]'"):
        solve(Position.parse(FINESSE_ONSIDE, None, 0), backend="dds")


def test_dds_suit_and_seat_encoding() -> None:
    # Our suits clubs..spades are DDS's 3..0; no-trump is 4 in both.
    assert [dds_backend.dds_strain(s) for s in (0, 1, 2, 3, None)] == [3, 2, 1, 0, 4]
    need_dds()
    lib = importlib.import_module("endplay._dds")
    dl = lib.deal()
    p = Position.parse(FINESSE_ONSIDE, Suit.HEARTS, Seat.EAST).play(Card.parse("4S"))
    dds_backend._fill_deal(dl, p)
    assert dl.trump == 1 and dl.first == 1
    assert (dl.currentTrickSuit[0], dl.currentTrickRank[0]) == (0, 4)
    # South (our 0) is DDS's hand 0 (North): the same place in play order.
    assert dl.remainCards[0][0] == (1 << 3) | (1 << 2)  # 3S 2S
    assert dl.remainCards[3][1] == (1 << 6) | (1 << 5)  # West: 6H 5H


def test_dds_search_nodes_counts_work_from_an_empty_table() -> None:
    need_dds()
    rng = random.Random(5)
    position, unrelated = random_position(rng, 7), random_position(rng, 9)
    counts = []
    for _ in range(2):
        dds_backend.search_nodes(unrelated)
        counts.append(dds_backend.search_nodes(position))
    assert counts[0] == counts[1] > 0  # the same work each time, from an empty table
    # Right after the same cards, DDS's kept table saves work.
    assert dds_backend.search_nodes(position) < counts[0]


def test_dds_table_matches_single_solves() -> None:
    need_dds()
    rng = random.Random(8)
    deals = []
    for _ in range(2):
        deck = list(range(52))
        rng.shuffle(deck)
        deals.append([sum(1 << c for c in deck[i::4]) for i in range(4)])
    tables = dds_backend.dd_tables(deals)
    positions = [
        Position(d, None if s == 4 else s, seat)
        for d in deals
        for s in range(5)
        for seat in range(4)
    ]
    solved = dds_backend.solve_many(positions)
    i = 0
    for table in tables:
        for s in range(5):
            assert list(table[Strain(s)]) == [solved[i + k].tricks for k in range(4)]
            i += 4


def test_dd_table_known() -> None:
    hands = [CardSet.parse(h) for h in SUITED]
    for backend in ("own", "dds") if dds_backend.available() else ("own",):
        table = dd_table(hands, backend=backend)
        assert table.strains == tuple(Strain)
        assert table[Strain.SPADES] == (13, 0, 13, 0)
        assert table[Strain.CLUBS] == (0, 13, 0, 13)
        assert table[Strain.NO_TRUMP] == (13, 13, 13, 13)
        assert table.to_dict()["S"] == {"S": 13, "E": 0, "N": 13, "W": 0}
        assert dd_table(hands, [None, 0], backend=backend) == DDTable(
            {Strain.NO_TRUMP: (13, 13, 13, 13), Strain.CLUBS: (0, 13, 0, 13)}
        )
    with pytest.raises(PositionError, match="13 cards in each hand"):
        dd_table([CardSet.parse(h) for h in FINESSE_ONSIDE], backend="own")


def test_dd_table_first_lead_rule_matches_trump_leads() -> None:
    need_dds()
    rng = random.Random(12)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i::4]) for i in range(4)]
    ruled = dd_table(hands, lead_trump=True, backend="dds")
    for suit in range(4):
        for seat in range(4):
            values = solve(Position(hands, suit, seat), backend="dds").values
            trumps = [v for c, v in values.items() if c // 13 == suit] or list(values.values())
            assert ruled[Strain(suit)][seat] == max(trumps)
    assert ruled[Strain.NO_TRUMP] == dd_table(hands, [None], backend="dds")[Strain.NO_TRUMP]


# -- agreement of the two backends --------------------------------------------------------


def agreement_positions(seed: int, sizes: Sequence[tuple[int, int]]) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for tricks, count in sizes:
        positions.extend(random_position(rng, tricks, i % 5) for i in range(count))
    return positions


def assert_agree(positions: list[Position]) -> None:
    need_dds()
    reference = solve_many(positions, backend="dds")
    own = OwnSolver()
    mismatches = [
        (p, r, o)
        for p, r, o in zip(positions, reference, map(own.solve, positions), strict=True)
        if r != o
    ]
    assert not mismatches, mismatches[:3]


def test_backends_agree_on_2000_positions() -> None:
    # Endgames of 3 to 9 tricks, every strain in turn, 0-3 cards already in the
    # trick; one table for all of them, as the bots use it. (Rare unsound
    # shortcuts have shown up only after a thousand positions or more.)
    sizes = [(3, 600), (4, 600), (5, 400), (6, 250), (7, 100), (8, 40), (9, 10)]
    positions = agreement_positions(2024, sizes)
    assert len(positions) == 2000
    assert {p.strain for p in positions} == set(Strain)
    assert {len(p.trick) for p in positions} == {0, 1, 2, 3}
    assert_agree(positions)


def test_backends_agree_under_the_first_lead_rule() -> None:
    rng = random.Random(77)
    positions = []
    for i in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[k:16:4]) for k in range(4)]
        positions.append(Position(hands, i % 4, rng.randrange(4), lead_trump=True))
    assert_agree(positions)


def test_full_deals_dds_tables_by_both_solvers_on_easy_deals() -> None:
    # Full deals are slow for the own solver; deals with long solid suits are quick.
    need_dds()
    hands = [
        CardSet.parse("AKQJT98.AKQ.2.32").mask,
        CardSet.parse("765.JT9.AKQJ.AKQ").mask,
        CardSet.parse("432.8765.T98.JT9").mask,
        CardSet.parse(".432.76543.87654").mask,
    ]
    assert dd_table(hands, [Suit.SPADES, None], backend="own") == dd_table(
        hands, [Suit.SPADES, None], backend="dds"
    )


def test_backends_agree_on_big_positions() -> None:
    # After 2 and 4 tricks, and a whole deal.
    assert_agree(agreement_positions(99, [(9, 10), (11, 2), (13, 1)]))


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_tricks_alone_match_the_full_solution(backend: str) -> None:
    rng = random.Random(6)
    positions = agreement_positions(6, [(4, 20), (6, 10)])
    for i in range(10):  # the first-lead rule restricts the lead to trumps
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[k:20:4]) for k in range(4)]
        positions.append(Position(hands, i % 4, rng.randrange(4), lead_trump=True))
    full = solve_many(positions, backend=backend)
    alone = solve_many(positions, backend=backend, values=False)
    assert [s.tricks for s in alone] == [s.tricks for s in full]
    assert all(not s.values for s in alone)


def test_solve_many_matches_solve() -> None:
    positions = agreement_positions(5, [(3, 10), (4, 5)])
    assert solve_many(positions, backend="own") == [solve(p, backend="own") for p in positions]
    if dds_backend.available():
        assert solve_many(positions, backend="dds") == [solve(p, "dds") for p in positions]
    assert dd_tables([], backend="own") == []


def test_solver_bench_last_line_is_the_json_figures() -> None:
    from support import run_python

    done = run_python(
        "bench/solver.py", "--start", "0", "--after4", "1", "--after8", "3", timeout=300
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 3
    figures = json.loads(lines[-1])
    assert figures["bench"] == "solver"
    for key in ("own_vs_dds_start", "own_vs_dds_after4", "own_vs_dds_after8", "agree"):
        assert key in figures, key
    assert figures["own_vs_dds_start"] is None  # no positions at the start of play asked for
    assert figures["own_after4_nodes"] > 0 and "own_start_nodes" not in figures
    assert "work: own" in done.stdout
    if dds_backend.available():
        assert figures["positions"] == 4 and figures["agree"] == 4
        assert figures["own_vs_dds_after4"] > 0 and figures["own_vs_dds_after8"] > 0
        assert figures["dds_after4_nodes"] > 0 and figures["dds_after8_nodes"] > 0
    else:
        assert not REQUIRE_EXTRAS, "endplay (DDS) is missing"
        assert figures["positions"] == 0 and figures["own_vs_dds_after4"] is None
        assert "DDS is missing" in done.stdout
