"""A match of 13 sets and a knock-out bracket (seed 002), and what they share with king of the table."""

from __future__ import annotations

import json
import random

import pytest

from tarneeb import KingOfTheTable, Knockout, SetPlayed, SetsMatch, TournamentError
from tarneeb.competitions import KINDS, Tie, bracket_order, tournament_from_dict
from tarneeb.tournament import DEFAULT_SETS, Pairing, tally_sets

SEED_MATCH = "Het team met de meeste punten uit 13 sets wint de wedstrijd."
"""Seed 002, its last line: the team with the most points from 13 sets wins the match."""


# -- a match of 13 sets -----------------------------------------------------------------------


def test_a_match_is_thirteen_sets_and_the_most_points_wins() -> None:
    """«Het team met de meeste punten uit 13 sets wint de wedstrijd.» (seed 002)."""
    match = SetsMatch(["Cedars", "Olives"])
    assert match.sets == DEFAULT_SETS == 13
    rng = random.Random(2)
    for number in range(1, 14):
        (pairing,) = match.pending()
        assert pairing == Pairing(number, "Cedars", "Olives", None)  # seats never move
        # Olives win 7 sets narrowly, Cedars 6 by far: Cedars have more points
        if number % 2:
            scores = (38 + rng.randrange(3), 41)
            match.record_set(pairing.result("Olives", scores))
        else:
            match.record_set(pairing.result("Cedars", (41 + rng.randrange(5), 2)))
        assert match.is_over() == (number == 13)
    assert match.pending() == ()
    first, second = match.standings()
    assert (first.pair, first.won, second.pair, second.won) == ("Cedars", 6, "Olives", 7)
    assert match.totals == (first.points_for, second.points_for)
    assert first.points_for > second.points_for
    assert match.winner == "Cedars"


def test_a_match_of_sets_counts_negative_scores_and_breaks_equal_points_by_sets() -> None:
    match = SetsMatch(["A", "B"], sets=2)
    match.record_set(match.pending()[0].result("A", (41, -7)))
    match.record_set(match.pending()[0].result("B", (-7, 41)))
    assert match.totals == (34, 34)
    assert match.winner is None  # equal points, one set each: a draw
    match = SetsMatch(["A", "B"], sets=3)
    for winner, scores in [("A", (41, 0)), ("B", (0, 41)), ("A", (13, 0))]:
        match.record_set(match.pending()[0].result(winner, scores))
    assert match.totals == (54, 41) and match.winner == "A"
    match = SetsMatch(["A", "B"], sets=3)
    for winner, scores in [("A", (41, 30)), ("B", (30, 31)), ("B", (10, 20))]:
        match.record_set(match.pending()[0].result(winner, scores))
    assert match.totals == (81, 81) and match.winner == "B"  # equal points: B won two sets


def test_a_match_of_sets_refuses_what_does_not_fit() -> None:
    with pytest.raises(TournamentError, match="two pairs"):
        SetsMatch(["A", "B", "C"])
    with pytest.raises(TournamentError, match="at least 2"):
        SetsMatch(["A"])
    with pytest.raises(TournamentError, match="sets=0"):
        SetsMatch(["A", "B"], sets=0)
    match = SetsMatch(["A", "B"], sets=1)
    with pytest.raises(TournamentError, match="not B against A"):
        match.record_set(SetPlayed(1, "B", "A", "A", (41, 0)))
    with pytest.raises(TournamentError, match="no set 2"):
        match.record_set(SetPlayed(2, "A", "B", "A", (41, 0)))
    match.record_set(SetPlayed(1, "A", "B", "A", (41, 0)))
    with pytest.raises(TournamentError, match="none: it is over"):
        match.record_set(SetPlayed(2, "A", "B", "A", (41, 0)))


# -- a knock-out --------------------------------------------------------------------------------


def test_bracket_order_keeps_the_best_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    order = bracket_order(16)
    assert sorted(order) == list(range(1, 17))
    for i in range(0, 16, 2):
        assert order[i] + order[i + 1] == 17  # each first-round tie: seed s against 17 - s
    assert order.index(1) < 8 <= order.index(2)  # 1 and 2 in different halves
    with pytest.raises(TournamentError, match="power of two"):
        bracket_order(6)


def _play_knockout(bracket: Knockout, better: list[str]) -> list[Pairing]:
    """Play every tie as it becomes ready; the pair earlier in ``better`` wins."""
    seen: list[Pairing] = []
    while not bracket.is_over():
        pending = bracket.pending()
        assert pending, "a bracket that is not over has a tie to play"
        for pairing in pending:
            seen.append(pairing)
            winner = min(pairing.ns, pairing.ew, key=better.index)
            scores = (41, 12) if winner == pairing.ns else (12, 41)
            bracket.record_set(pairing.result(winner, scores))
    return seen


def test_eight_pairs_seeded_play_three_rounds_and_the_favourite_wins() -> None:
    pairs = [f"P{i}" for i in range(1, 9)]
    bracket = Knockout(pairs)
    assert (bracket.size, bracket.rounds) == (8, 3)
    first = [(p.number, p.ns, p.ew) for p in bracket.pending()]
    assert first == [(1, "P1", "P8"), (2, "P4", "P5"), (3, "P2", "P7"), (4, "P3", "P6")]
    seen = _play_knockout(bracket, pairs)
    assert len(seen) == 7  # n - 1 ties for n pairs
    assert [(p.number, p.ns, p.ew) for p in seen[4:]] == [
        (5, "P1", "P4"),
        (6, "P2", "P3"),
        (7, "P1", "P2"),
    ]
    assert bracket.winner == "P1"
    lines = bracket.standings()
    assert [line.pair for line in lines] == ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
    assert [(line.won, line.lost) for line in lines[:3]] == [(3, 0), (2, 1), (1, 1)]
    assert [tie.round for tie in bracket.ties()] == [1, 1, 1, 1, 2, 2, 3]


def test_six_pairs_give_the_two_best_seeds_a_bye() -> None:
    pairs = ["A", "B", "C", "D", "E", "F"]
    bracket = Knockout(pairs)
    ties = bracket.ties()
    assert [t for t in ties if t.bye] == [Tie(0, 1, "A", None, "A"), Tie(0, 1, "B", None, "B")]
    assert [(p.ns, p.ew) for p in bracket.pending()] == [("D", "E"), ("C", "F")]
    # the upset: E beats D, then meets A, who waited
    bracket.record_set(bracket.pending()[0].result("E", (3, 41)))
    assert [(p.number, p.ns, p.ew) for p in bracket.pending()] == [(2, "C", "F"), (3, "A", "E")]
    seen = _play_knockout(bracket, ["A", "B", "C", "D", "E", "F"])
    assert bracket.winner == "A" and len(seen) + 1 == 5  # 6 pairs: 5 ties, one told by hand
    assert bracket.standings()[0].pair == "A"
    assert bracket.standings()[-1].pair in {"D", "F"}


def test_a_tie_may_start_before_its_round_is_done_and_bad_results_change_nothing() -> None:
    bracket = Knockout(["A", "B", "C", "D"])
    one, two = bracket.pending()
    bracket.record_set(one.result("A", (41, 0)))
    assert bracket.pending() == (two,)  # the final waits for its other pair
    before = bracket.to_dict()
    with pytest.raises(TournamentError, match="no set 3"):
        bracket.record_set(SetPlayed(3, "A", "B", "A", (41, 0)))
    with pytest.raises(TournamentError, match="no set 1"):
        bracket.record_set(one.result("A", (41, 0)))  # told twice
    with pytest.raises(TournamentError, match="not A against B"):
        bracket.record_set(SetPlayed(2, "A", "B", "A", (41, 0)))
    assert bracket.to_dict() == before
    with pytest.raises(TournamentError, match="no set 9"):
        bracket.round_of(9)
    assert bracket.round_of(3) == 2
    with pytest.raises(TournamentError, match="at least 2"):
        Knockout(["solo"])
    with pytest.raises(TournamentError, match="different names"):
        Knockout(["A", "B", "A"])


def test_two_pairs_make_a_final_alone() -> None:
    bracket = Knockout(["A", "B"])
    (final,) = bracket.pending()
    assert bracket.round_of(final.number) == 1 == bracket.rounds
    bracket.record_set(final.result("B", (30, 41)))
    assert bracket.winner == "B" and bracket.is_over() and bracket.pending() == ()


# -- what all three share --------------------------------------------------------------------------


def test_every_kind_reads_back_from_json() -> None:
    king = KingOfTheTable(["A", "B", "C"], sets=2)
    king.record_set(king.pending()[0].result("B", (0, 41)))
    match = SetsMatch(["A", "B"], sets=2)
    match.record_set(match.pending()[0].result("A", (41, 1)))
    bracket = Knockout(["A", "B", "C"])
    bracket.record_set(bracket.pending()[0].result("C", (2, 41)))
    for tournament in (king, match, bracket):
        data = json.loads(json.dumps(tournament.to_dict()))
        back = tournament_from_dict(data)
        assert type(back) is type(tournament)
        assert back.to_dict() == tournament.to_dict()
        assert back.standings() == tournament.standings()
        assert back.pending() == tournament.pending()
    assert {t.to_dict()["kind"] for t in (king, match, bracket)} == set(KINDS)
    with pytest.raises(TournamentError, match="no tournament of kind 'league'"):
        tournament_from_dict({"kind": "league"})
    with pytest.raises(TournamentError, match="version"):
        tournament_from_dict({**match.to_dict(), "version": 99})
    bad = match.to_dict()
    bad["played"][0]["ns"] = "B"
    bad["played"][0]["ew"] = "A"
    with pytest.raises(TournamentError):
        tournament_from_dict(bad)


def test_the_tally_is_the_same_for_every_kind() -> None:
    played = [
        SetPlayed(1, "A", "B", "A", (41, 3)),
        SetPlayed(2, "A", "B", "A", (41, -5)),
        SetPlayed(3, "A", "B", "B", (20, 41)),
    ]
    tally = tally_sets(["A", "B"], played)
    assert (tally["A"].won, tally["A"].lost, tally["A"].points_for) == (2, 1, 102)
    assert (tally["A"].streak, tally["A"].best_streak, tally["B"].streak) == (0, 2, 1)
    assert tally["B"].points_against == 102
