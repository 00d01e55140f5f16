"""Match equity: the chance of winning the set from a score, and the search bot playing to it."""

from __future__ import annotations

import pytest

from tarneeb import Deal, Seat, find_rules
from tarneeb.bots import SearchBot
from tarneeb.bots.equity import TOLERANCE, MatchEquity, deal_outcomes, match_equity
from tarneeb.scoring import score_contract


def test_presets_with_and_without_a_table() -> None:
    # Individual bidding and card points have no table: the bot plays for points there.
    assert match_equity(find_rules("syrian400")) is None
    assert match_equity(find_rules("tarneeb400")) is None
    assert match_equity(find_rules("lebanese31")) is not None
    assert match_equity(find_rules("classic")) is match_equity(find_rules("classic"))  # cached


@pytest.mark.parametrize("name", ["classic", "original"])
def test_the_model_scores_deals_by_the_rules(name: str) -> None:
    rules = find_rules(name)
    outcomes = deal_outcomes(rules)
    assert sum(o.probability for o in outcomes) == pytest.approx(1.0)
    pairs = {(o.declarers, o.defenders) for o in outcomes}
    for taken in (rules.min_bid, rules.min_bid - 1, rules.min_bid + 2):
        assert score_contract(rules, rules.min_bid, taken, 13 - taken) in pairs


@pytest.mark.parametrize("name", ["classic", "original", "lebanese31"])
def test_equity_is_a_fair_and_monotone_chance(name: str) -> None:
    table = match_equity(find_rules(name))
    assert isinstance(table, MatchEquity)
    target = table.rules.target
    scores = range(-10, target, 4)
    for us in scores:
        for them in scores:
            value = table.value(us, them)
            assert 0.0 <= value <= 1.0
            # The model deals both sides alike: what one side wins the other loses.
            assert value + table.value(them, us) == pytest.approx(1.0, abs=20 * TOLERANCE)
            if us + 4 < target:
                assert table.value(us + 4, them) >= value - TOLERANCE
    assert table.value(0, 0) == pytest.approx(0.5, abs=0.01)


def test_equity_is_the_fixed_point_of_one_deal() -> None:
    """Each value is what one more deal of the model makes of it."""
    table = match_equity(find_rules("classic"))
    assert table is not None
    for us, them in [(0, 0), (30, 12), (-5, 36), (39, 39), (20, 33)]:
        step = 0.0
        for o in deal_outcomes(table.rules):
            thirteen = o.all_thirteen
            step += (
                o.probability
                / 2
                * table.after((us, them), (o.declarers, o.defenders), thirteen, o.bid13, True)
            )
            theirs = None if thirteen is None else not thirteen
            step += (
                o.probability
                / 2
                * table.after((us, them), (o.defenders, o.declarers), theirs, o.bid13, False)
            )
        assert step == pytest.approx(table.value(us, them), abs=10 * TOLERANCE)


def test_a_deal_that_ends_the_set_is_certain() -> None:
    table = match_equity(find_rules("classic"))
    assert table is not None
    assert table.after((38, 20), (7, 6)) == 1.0  # over the target: the set is won
    assert table.after((20, 38), (-7, 6), declaring=True) == 0.0
    # Both over the target and level: the set goes on, an even chance.
    assert table.after((34, 34), (7, 7)) == pytest.approx(0.5, abs=0.01)
    # Closer to the target is better, the scores equal otherwise.
    assert table.value(35, 20) > table.value(25, 20) > table.value(15, 20)


def test_thirteen_tricks_win_the_set_where_the_rules_say_so() -> None:
    # levant-sets: 13 tricks win the set, whatever the score.
    table = match_equity(find_rules("levant-sets"))
    assert table is not None
    assert table.after((0, 30), (13, 0), all_thirteen=True) == 1.0
    assert table.after((30, 0), (0, 13), all_thirteen=False, declaring=False) == 0.0


def test_the_search_bot_plays_safe_when_making_the_contract_wins_the_set() -> None:
    """At 38 to 20 (target 41), making the 7 wins the set: overtricks add nothing,
    while for points each one counts; one trick short costs the set's sure win."""
    rules = find_rules("classic")
    deal = Deal(
        rules,
        Seat.WEST,
        [
            "AKQJT98765432...",
            ".AKQJT98765432..",
            "..AKQJT98765432.",
            "...AKQJT98765432",
        ],
        scores=(38, 20, 38, 20),
    )
    for action in ["7", "pass", "pass", "pass", "S"]:
        deal.push(action)
    view = deal.view(Seat.SOUTH)
    to_match, points = SearchBot(), SearchBot(options=["points"])
    assert to_match._utility(view, 7) == to_match._utility(view, 13) == 1.0
    assert to_match._utility(view, 6) < 0.95
    assert points._utility(view, 9) > points._utility(view, 7)
