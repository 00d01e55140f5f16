"""King of the table (seed 002): the rotation, the standings, bad results, persistence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tarneeb import KingOfTheTable, Match, Pairing, SetPlayed, Team, TournamentError, find_rules
from tarneeb.bots import make_bot, play_match
from tarneeb.tournament import DEFAULT_SETS, Ending, play_out, set_rules

SIX = ["P1", "P2", "P3", "P4", "P5", "P6"]

# The winner of each set in the six-pair run below, and what the table must be
# before each set: (North-South, East-West, holder), then the queue.
SIX_WINNERS = ["P2", "P2", "P4", "P5", "P6", "P6", "P3", "P2"]
SIX_TABLES = [
    ("P1", "P2", None, ("P3", "P4", "P5", "P6")),
    ("P3", "P2", "P2", ("P4", "P5", "P6", "P1")),
    ("P4", "P2", "P2", ("P5", "P6", "P1", "P3")),
    ("P4", "P5", "P4", ("P6", "P1", "P3", "P2")),
    ("P6", "P5", "P5", ("P1", "P3", "P2", "P4")),
    ("P6", "P1", "P6", ("P3", "P2", "P4", "P5")),
    ("P6", "P3", "P6", ("P2", "P4", "P5", "P1")),
    ("P2", "P3", "P3", ("P4", "P5", "P1", "P6")),
]


def scores_for(pairing: Pairing, winner: str) -> tuple[int, int]:
    """A plausible end of a set: the winner at 41 or more, the loser well behind."""
    won, lost = 41 + pairing.number, 10 - pairing.number
    return (won, lost) if winner == pairing.ns else (lost, won)


def run_six(played: int = len(SIX_WINNERS)) -> KingOfTheTable:
    """The six pairs of :data:`SIX_WINNERS`, a tournament of 8 sets, ``played`` of them played."""
    table = KingOfTheTable(SIX, sets=len(SIX_WINNERS))
    for winner in SIX_WINNERS[:played]:
        pairing = table.current_pairing()
        table.record_set(pairing.result(winner, scores_for(pairing, winner), deals=7))
    return table


def test_six_pairs_rotate_as_the_seed_says() -> None:
    """«In een toernooi wordt aan het eind van een set het verliezende team vervangen
    voor de volgende set.» (seed 002): the loser queues at the back, the next pair
    takes the loser's seats, the winner keeps its own."""
    table = KingOfTheTable(SIX, sets=len(SIX_WINNERS))
    for number, (winner, (ns, ew, holder, queue)) in enumerate(
        zip(SIX_WINNERS, SIX_TABLES, strict=True), 1
    ):
        pairing = table.current_pairing()
        assert pairing == Pairing(number, ns, ew, holder)
        assert table.queue == queue
        assert table.king == holder
        table.record_set(pairing.result(winner, scores_for(pairing, winner)))
        assert table.king == winner
        if not table.is_over():
            assert table.queue[-1] == table.played[-1].loser
    assert table.is_over() and table.ending is Ending.SETS
    assert [(p.ns, p.ew, p.holder) for p in table.pairings] == [t[:3] for t in SIX_TABLES]
    # Set 8 was the last: nobody moves, the table stays as it was played.
    assert table.queue == SIX_TABLES[-1][3]
    assert {s.pair for s in table.standings() if s.at_table} == {"P2", "P3"}


def test_the_pairs_at_the_table_sit_for_the_next_set() -> None:
    table = run_six(3)  # set 4 is P4 (NS) against P5 (EW)
    assert {s.pair for s in table.standings() if s.at_table} == {"P4", "P5"}


def test_the_challenger_is_the_pair_that_just_sat_down() -> None:
    table = run_six(3)
    first, second, third = table.pairings
    assert first.challenger is None
    assert (second.holder, second.challenger) == ("P2", "P3")
    assert (third.holder, third.challenger) == ("P2", "P4")


def test_two_pairs_play_each_other_and_the_loser_comes_straight_back() -> None:
    table = KingOfTheTable(["A", "B"], sets=3)
    for winner in ("B", "A", "A"):
        pairing = table.current_pairing()
        assert {pairing.ns, pairing.ew} == {"A", "B"}
        assert (pairing.ns, pairing.ew) == ("A", "B")  # nobody changes seats
        table.record_set(pairing.result(winner, (0, 0)))
        assert table.queue == ()
    assert [s.won for s in table.standings()] == [2, 1]


def test_standings_of_the_six_pairs() -> None:
    table = run_six()
    rows = {s.pair: s for s in table.standings()}
    # Sets won: P2 3 (1, 2, 8), P6 2 (5, 6), P4 1, P5 1, P3 1, P1 0.
    assert {p: (s.won, s.lost, s.played) for p, s in rows.items()} == {
        "P1": (0, 2, 2),
        "P2": (3, 1, 4),
        "P3": (1, 2, 3),
        "P4": (1, 1, 2),
        "P5": (1, 1, 2),
        "P6": (2, 1, 3),
    }
    # Points: set n ends 41+n to 10-n for the winner.
    assert (rows["P2"].points_for, rows["P2"].points_against) == (
        (42 + 43 + 49) + (10 - 3),
        (9 + 8 + 2) + (41 + 3),
    )
    assert (rows["P1"].points_for, rows["P1"].points_against) == (9 + 4, 42 + 47)
    assert {p: (s.streak, s.best_streak) for p, s in rows.items()} == {
        "P1": (0, 0),
        "P2": (1, 2),
        "P3": (0, 1),
        "P4": (0, 1),
        "P5": (0, 1),
        "P6": (0, 2),
    }
    assert {p for p, s in rows.items() if s.at_table} == {"P2", "P3"}
    # Ranked by sets won, then fewer lost, then points, then the queue order:
    # P4 and P5 are both 1-1 with 50 points (44 + 6 and 45 + 5), P4 queued first;
    # P3 (1-2) after them.
    assert (rows["P4"].points_for, rows["P5"].points_for) == (50, 50)
    order = [s.pair for s in table.standings()]
    assert order == ["P2", "P6", "P4", "P5", "P3", "P1"]
    assert [s.rank for s in table.standings()] == [1, 2, 3, 4, 5, 6]
    assert table.winner == "P2"


@pytest.mark.parametrize(
    ("second", "order"),
    [
        ((20, 20), ["D", "A", "C", "B"]),  # A and C even on all counts: A queued first
        ((20, 25), ["D", "C", "A", "B"]),  # C scored more
    ],
)
def test_the_tie_breaks(second: tuple[int, int], order: list[str]) -> None:
    table = KingOfTheTable(["A", "B", "C", "D"], sets=3)
    table.record_set(SetPlayed(1, "A", "B", "A", (20, 20)))
    table.record_set(SetPlayed(2, "A", "C", "C", second))
    table.record_set(SetPlayed(3, "D", "C", "D", (20, 20)))
    # D 1-0 first (fewer lost); A and C 1-1; B 0-1 last.
    assert [s.pair for s in table.standings()] == order
    assert table.winner == "D"


def test_a_pair_yet_to_play_ranks_above_one_that_only_lost() -> None:
    table = KingOfTheTable(["A", "B", "C"], sets=1)
    table.record_set(SetPlayed(1, "A", "B", "A", (41, 3)))
    assert [(s.pair, s.played) for s in table.standings()] == [("A", 1), ("C", 0), ("B", 1)]


def test_a_streak_ends_it_and_its_holder_wins() -> None:
    table = KingOfTheTable(["A", "B", "C", "D"], sets=20, streak=3)
    winners = ["A", "C", "C", "C"]  # C: takes the table in set 2, holds it in 3 and 4
    for winner in winners:
        assert not table.is_over()
        table.record_set(table.current_pairing().result(winner, (41, 0)))
    assert (table.ending, table.winner, len(table.played)) == (Ending.STREAK, "C", 4)
    with pytest.raises(TournamentError, match="over"):
        table.current_pairing()


def test_a_streak_alone_ends_it() -> None:
    table = KingOfTheTable(["A", "B", "C", "D"], sets=None, streak=2)
    for winner in ["A", "C", "D", "D"]:  # D sits down in set 3 and holds the table in 4
        assert not table.is_over()
        table.record_set(table.current_pairing().result(winner, (41, 0)))
    assert (table.ending, table.winner, table.king) == (Ending.STREAK, "D", "D")
    assert table.standings()[0].pair == "D"


def test_the_default_is_the_seeds_thirteen_sets() -> None:
    """«Het team met de meeste punten uit 13 sets wint de wedstrijd.» (seed 002)"""
    table = KingOfTheTable(SIX)
    assert (table.sets, table.streak, DEFAULT_SETS) == (13, None, 13)
    play_out(table, lambda p: p.result(p.ew, (0, 41)))
    assert len(table.played) == 13 and table.ending is Ending.SETS
    # East-West always won: North-South was replaced every set, in queue order.
    assert [p.ns for p in table.pairings[:6]] == ["P1", "P3", "P4", "P5", "P6", "P1"]
    assert {p.ew for p in table.pairings} == {"P2"}


# -- bad settings and bad results ------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "options", "message"),
    [
        (["A"], {}, "at least two pairs"),
        ([], {}, "at least two pairs"),
        (["A", "B", "A"], {}, "A twice"),
        (["A", ""], {}, "non-empty"),
        (["A", 3], {}, "non-empty string"),
        (["A", "B"], {"sets": 0}, "sets=0"),
        (["A", "B"], {"sets": True}, "sets=True"),
        (["A", "B"], {"streak": -1}, "streak=-1"),
        (["A", "B"], {"sets": None}, "never ends"),
    ],
)
def test_settings_that_cannot_work(pairs: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        KingOfTheTable(pairs, **options)


def test_a_result_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    table = run_six(2)  # set 3 is P4 (NS) against P2 (EW)
    before = table.to_dict()
    bad = [
        SetPlayed(2, "P4", "P2", "P4", (41, 0)),  # an old set number
        SetPlayed(4, "P4", "P2", "P4", (41, 0)),  # a future one
        SetPlayed(3, "P2", "P4", "P4", (0, 41)),  # the seats swapped
        SetPlayed(3, "P4", "P5", "P4", (41, 0)),  # a pair still queueing
        SetPlayed(3, "P1", "P3", "P1", (41, 0)),  # neither at the table
    ]
    for result in bad:
        with pytest.raises(TournamentError, match=r"set 3|being played"):
            table.record_set(result)
    with pytest.raises(TournamentError, match="SetPlayed"):
        table.record_set({"number": 3})  # type: ignore[arg-type]
    assert table.to_dict() == before
    table.record_set(SetPlayed(3, "P4", "P2", "P4", (41, 0)))  # the right one still goes


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"winner": "P9"}, "neither"),
        ({"ew": "P1"}, "against itself"),
        ({"scores": (1, 2, 3)}, "two numbers"),
        ({"scores": (1, "2")}, "two numbers"),
        ({"number": 0}, "from 1"),
        ({"deals": -1}, "negative"),
        ({"ns": ""}, "non-empty"),
    ],
)
def test_a_result_that_cannot_be(fields: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {"number": 1, "ns": "P1", "ew": "P2", "winner": "P1"}
    values["scores"] = (41, 0)
    values.update(fields)
    with pytest.raises(TournamentError, match=message):
        SetPlayed(**values)


def test_no_result_once_it_is_over() -> None:
    table = KingOfTheTable(SIX, sets=3)
    play_out(table, lambda p: p.result(p.ns, (41, 0)))
    with pytest.raises(TournamentError, match="over after 3 sets"):
        table.record_set(SetPlayed(4, "P1", "P5", "P1", (41, 0)))
    assert len(table.played) == 3 and table.winner == "P1"


def test_a_winner_named_by_side() -> None:
    pairing = Pairing(1, "A", "B", None)
    assert pairing.result(Team.EW, [3, 41]).winner == "B"
    assert pairing.pair_of(Team.NS) == "A"
    with pytest.raises(TournamentError, match="two numbers"):
        pairing.result("A", [41])


def test_an_unfinished_set_goes_to_the_pair_ahead_then_the_holder() -> None:
    first = Pairing(1, "A", "B", None)
    assert first.unfinished_result((12, 30)).winner == "B"
    assert first.unfinished_result((5, 5)).winner == "A"  # no holder yet: North-South
    later = Pairing(4, "C", "B", "B")
    assert later.unfinished_result((7, 7), deals=200).winner == "B"
    assert later.unfinished_result((8, 7)).winner == "C"


# -- a set is a match -------------------------------------------------------------------


def test_a_set_is_a_one_set_match_of_the_rules() -> None:
    """«De set eindigt wanneer een team eenenveertig (41) bereikt en het verliezende
    team wordt vervangen voor de volgende set.» (seed 002)"""
    levant = find_rules("levant-sets")
    rules = set_rules(levant)
    assert (levant.sets, rules.sets) == (13, 1)
    assert rules.replace(sets=13) == levant
    assert set_rules(rules) is rules
    table = KingOfTheTable(["heuristic", "random"], sets=1)
    pairing = table.current_pairing()
    bots = [make_bot("heuristic", seed=1), make_bot("random", seed=2)] * 2
    match = play_match(Match(rules, seed=3), bots)
    assert match.is_over() and len(match.sets) == 1
    result = pairing.result_of(match.sets[0])
    assert result.winner == pairing.pair_of(match.sets[0].winner)
    assert result.scores == match.team_scores and max(result.scores) >= 41
    assert result.deals == len(match.deals)
    table.record_set(result)
    assert table.standings()[0].points_for == max(match.team_scores)


# -- persistence ------------------------------------------------------------------------


@pytest.mark.parametrize("sets_played", [0, 1, 4, 8])
def test_to_dict_and_back_through_json(sets_played: int) -> None:
    table = run_six(sets_played) if sets_played else KingOfTheTable(SIX, sets=8)
    data = json.loads(json.dumps(table.to_dict()))
    again = KingOfTheTable.from_dict(data)
    assert again == table
    assert again.to_dict() == table.to_dict()
    assert again.standings() == table.standings()
    assert again.queue == table.queue and again.pairings == table.pairings
    assert again.is_over() == table.is_over()
    if not table.is_over():
        assert again.current_pairing() == table.current_pairing()


def test_the_dict_format() -> None:
    table = KingOfTheTable(["A", "B", "C"], sets=5, streak=2)
    table.record_set(SetPlayed(1, "A", "B", "B", (12, 41), deals=6))
    assert table.to_dict() == {
        "kind": "king-of-the-table",
        "version": 1,
        "pairs": ["A", "B", "C"],
        "sets": 5,
        "streak": 2,
        "played": [
            {"number": 1, "ns": "A", "ew": "B", "winner": "B", "scores": [12, 41], "deals": 6}
        ],
    }


def good_dict() -> dict[str, Any]:
    return json.loads(json.dumps(run_six(3).to_dict()))  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(kind="knock-out"), "kind"),
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.pop("version"), "version None"),
        (lambda d: d.update(pairs="P1"), "list of names"),
        (lambda d: d.update(pairs=["P1"]), "two pairs"),
        (lambda d: d.update(sets=0), "sets=0"),
        (lambda d: d.update(played={}), "list of sets"),
        (lambda d: d["played"].append(7), "object"),
        (lambda d: d["played"][1].pop("winner"), "without winner"),
        (lambda d: d["played"][1].update(scores=[1]), "two numbers"),
        (lambda d: d["played"][1].update(ns="P4"), "set 2 is P3"),
        (lambda d: d["played"].pop(0), "set 1"),
        (lambda d: d.update(sets=2), "over after 2 sets"),
    ],
)
def test_from_dict_refuses_what_does_not_replay(damage: Any, message: str) -> None:
    data = good_dict()
    damage(data)
    with pytest.raises(TournamentError, match=message):
        KingOfTheTable.from_dict(data)


def test_from_dict_refuses_what_is_not_an_object() -> None:
    with pytest.raises(TournamentError, match="object, not list"):
        KingOfTheTable.from_dict([])


def test_repr() -> None:
    assert repr(run_six(2)) == (
        "<KingOfTheTable pairs=['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] sets=8 streak=None "
        "played=2 over=False>"
    )


def test_a_standing_as_data() -> None:
    table = KingOfTheTable(["A", "B"], sets=1)
    table.record_set(SetPlayed(1, "A", "B", "B", (-4, 41)))
    assert table.standings()[1].to_dict() == {
        "rank": 2,
        "pair": "A",
        "played": 1,
        "won": 0,
        "lost": 1,
        "points_for": -4,
        "points_against": 41,
        "streak": 0,
        "best_streak": 0,
        "at_table": True,
    }
