"""Tests for :class:`tarneeb.match.Match` and :func:`tarneeb.scoring.set_winner`.

Most tests play whole deals through a :class:`Match` with hand-made hands
whose outcome does not depend on how the cards are played (see :func:`support.duel`),
so that the scores of every deal are known exactly; the rest call
:func:`set_winner` with exact scores.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from support import Hands, duel, fill
from tarneeb.actions import Phase
from tarneeb.cards import CardSet, Suit
from tarneeb.deal import Deal, ThrowIn, is_weak_hand
from tarneeb.errors import IllegalActionError, InvalidActionError, RulesError
from tarneeb.match import Match, SetResult
from tarneeb.presets import PRESETS, find_rules
from tarneeb.rules import Rules, ThirteenWins
from tarneeb.scoring import DealResult, set_winner
from tarneeb.seats import Seat, Team

S, E, N, W = Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST
NS, EW = Team.NS, Team.EW
CLASSIC = find_rules("classic")
SYRIAN = find_rules("syrian400")


# -- hands with a known outcome ---------------------------------------------------------


def ns(k: int) -> Hands:
    """South declares in spades and North-South take exactly ``k`` tricks."""
    return duel(S, W, k, side=Suit.HEARTS)


def ew(k: int) -> Hands:
    """West declares in spades and East-West take exactly ``k`` tricks."""
    return duel(W, S, k, side=Suit.HEARTS)


def syrian(a: Seat, b: Seat, k: int) -> Hands:
    """Syrian 400 (hearts trump): ``a`` takes ``k`` tricks, ``b`` the rest, the others none."""
    return duel(a, b, k, trump=Suit.HEARTS, side=Suit.SPADES)


# -- driving a match -------------------------------------------------------------------


def finish(match: Match, deal: Deal, seed: int = 0) -> None:
    """Play ``deal`` (the current deal of ``match``) to its end with random legal actions."""
    rng = random.Random(seed)
    while not deal.is_over():
        assert match.deal is deal
        match.push(rng.choice(deal.legal_action_ids()))


def contract(match: Match, declarer: Seat, level: int, trump: str = "S", seed: int = 0) -> Deal:
    """``declarer`` bids ``level``, everyone else passes, trump is named, the cards are played."""
    deal = match.deal
    while deal.phase is Phase.AUCTION:
        match.push(str(level) if match.to_act == declarer else "pass")
    assert deal.declarer == declarer
    if deal.phase is Phase.TRUMP:
        match.push(trump)
    finish(match, deal, seed)
    return deal


def all_pass(match: Match) -> Deal:
    deal = match.deal
    for _ in range(4):
        match.push("pass")
    assert deal.thrown_in == ThrowIn.ALL_PASS
    return deal


def individual(match: Match, bids: dict[Seat, int], seed: int = 0) -> Deal:
    """Individual bidding: each seat bids ``bids[seat]``, then the cards are played."""
    deal = match.deal
    while deal.phase is Phase.AUCTION:
        to_act = match.to_act
        assert to_act is not None
        match.push(str(bids[to_act]))
    if not deal.is_over():
        finish(match, deal, seed)
    return deal


def snapshot(match: Match) -> tuple[object, ...]:
    return (
        len(match.deals),
        match.deal.copy(),
        list(match.sets),
        match.team_scores,
        match.seat_scores,
        match.is_over(),
        match.winner,
        match.to_act,
    )


# -- the hands used here do what they promise -----------------------------------------------


@pytest.mark.parametrize("k", range(14))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_duel_hands_give_a_fixed_number_of_tricks(k: int, seed: int) -> None:
    match = Match(CLASSIC, seed=1, first_dealer=W, hands=[ns(k), ew(k)])
    first = contract(match, S, 7, seed=seed)
    assert first.tricks_taken == (k, 0, 0, 13 - k)
    second = contract(match, W, 7, seed=seed)
    assert second.tricks_taken == (13 - k, 0, 0, k)


# -- the first dealer and the rotation --------------------------------------------------------


@pytest.mark.parametrize("seat", list(Seat))
def test_given_first_dealer(seat: Seat) -> None:
    match = Match(CLASSIC, seed=3, first_dealer=seat)
    assert match.first_dealer == seat
    assert match.dealer == seat
    assert match.deal.dealer == seat
    assert match.to_act == seat.next  # the first hand bids first


def test_given_first_dealer_as_int() -> None:
    match = Match(CLASSIC, seed=3, first_dealer=2)
    assert match.first_dealer is Seat.NORTH
    assert match.to_act is Seat.WEST


def test_first_dealer_drawn_from_the_seed() -> None:
    seen = set()
    for seed in range(40):
        a = Match(CLASSIC, seed=seed)
        b = Match(CLASSIC, seed=seed)
        assert a.first_dealer == b.first_dealer
        assert a.dealer == a.first_dealer
        assert a.deal.dealt == b.deal.dealt
        seen.add(a.first_dealer)
    assert seen == set(Seat)  # the cut gives every seat the deal for some seed
    assert Match(CLASSIC, seed="abc").first_dealer == Match(CLASSIC, seed="abc").first_dealer


def test_live_match_draws_a_dealer() -> None:
    match = Match(CLASSIC)
    assert match.first_dealer in set(Seat)
    assert match.seed is None
    assert match.deal.phase is Phase.AUCTION


def test_same_seed_same_match() -> None:
    a = Match(CLASSIC, seed=11)
    b = Match(CLASSIC, seed=11)
    for match in (a, b):
        all_pass(match)
        contract(match, S, 7, seed=5)
        all_pass(match)
    assert a == b
    assert [d.dealt for d in a.deals] == [d.dealt for d in b.deals]
    assert len({d.dealt for d in a.deals}) == 4  # a new shuffle for every deal
    assert Match(CLASSIC, seed=12).deal.dealt != a.deals[0].dealt


def test_deal_passes_to_the_next_seat_after_every_deal() -> None:
    match = Match(CLASSIC, seed=8, first_dealer=E, hands=[ns(7)] * 9)
    expected = [E, N, W, S, E, N, W, S, E]
    for i in range(8):
        assert match.dealer == expected[i]
        if i % 2:
            all_pass(match)
        else:
            contract(match, S, 7)
        assert len(match.deals) == i + 2
    assert [d.dealer for d in match.deals] == expected


def test_hands_run_out_then_the_seed_deals() -> None:
    match = Match(CLASSIC, seed=8, first_dealer=S, hands=[ns(7)])
    assert match.deal.dealt == ns(7)
    all_pass(match)
    assert match.deal.dealt != ns(7)
    assert sorted(c for h in match.deal.hands for c in h) == list(range(52))
    twin = Match(CLASSIC, seed=8, first_dealer=S, hands=[ns(7)])
    all_pass(twin)
    assert twin.deal.dealt == match.deal.dealt


# -- thrown-in deals ---------------------------------------------------------------------


def test_all_pass_next_dealer_and_scores_unchanged() -> None:
    match = Match(CLASSIC, seed=1, first_dealer=N, hands=[ns(8), ns(7), ns(7), ns(9)])
    contract(match, S, 7)
    assert match.team_scores == (8, 5)
    assert match.dealer == W
    thrown = all_pass(match)
    assert thrown.result is None
    assert match.team_scores == (8, 5)
    assert match.seat_scores == (8, 5, 8, 5)
    assert match.dealer == S
    assert match.deal.scores == (8, 5, 8, 5)
    assert match.deal.dealt == ns(7)  # the third given hands
    all_pass(match)
    assert match.dealer == E
    assert match.team_scores == (8, 5)
    assert [d.thrown_in for d in match.deals] == [None, ThrowIn.ALL_PASS, ThrowIn.ALL_PASS, None]
    contract(match, S, 7)
    assert match.team_scores == (17, 9)
    assert not match.is_over()


def test_weak_hand_redeal_same_dealer() -> None:
    rules = CLASSIC.replace(weak_redeal=True)
    weak = fill({E: "K.Q2.J32.8765432"})
    assert is_weak_hand(weak[E])
    match = Match(rules, seed=2, first_dealer=W, hands=[ns(9), weak, ns(7)])
    contract(match, S, 7)
    assert match.team_scores == (9, 4)
    assert match.dealer == S and match.to_act == E
    match.push("redeal")
    assert match.deals[1].thrown_in == ThrowIn.WEAK_HAND
    assert len(match.deals) == 3
    assert match.dealer == S  # the same dealer deals again
    assert match.deal.dealt == ns(7)
    assert match.deal.scores == (9, 4, 9, 4)
    assert match.team_scores == (9, 4)
    contract(match, S, 7)
    assert match.dealer == E
    assert match.team_scores == (16, 10)


def test_redeal_refused_without_the_option_changes_nothing() -> None:
    weak = fill({E: "K.Q2.J32.8765432"})
    match = Match(CLASSIC, seed=2, first_dealer=S, hands=[weak])
    before = snapshot(match)
    with pytest.raises(IllegalActionError):
        match.push("redeal")
    assert snapshot(match) == before


def test_individual_low_total_redeal_same_dealer() -> None:
    match = Match(SYRIAN, seed=4, first_dealer=E, hands=[syrian(N, S, 7), syrian(N, S, 7)])
    deal = individual(match, {S: 2, E: 2, N: 2, W: 2})  # 8 < 11
    assert deal.thrown_in == ThrowIn.LOW_TOTAL
    assert match.dealer == E
    assert len(match.deals) == 2
    assert match.seat_scores == (0, 0, 0, 0)
    assert match.team_scores == (0, 0)


# -- scores, the target and the end of a set ---------------------------------------------------


def test_scores_accumulate_per_side() -> None:
    hands = [ns(9), ew(8), ns(7), ew(10)]
    match = Match(CLASSIC, seed=0, first_dealer=S, hands=hands)
    contract(match, S, 8)  # NS make 9, EW defend with 4
    assert match.team_scores == (9, 4)
    assert match.seat_scores == (9, 4, 9, 4)
    contract(match, W, 7)  # EW make 8, NS defend with 5
    assert match.team_scores == (14, 12)
    contract(match, S, 7)  # 7 and 6
    assert match.team_scores == (21, 18)
    contract(match, W, 10)  # 10 and 3
    assert match.team_scores == (24, 28)
    assert [d.scores for d in match.deals] == [
        (0, 0, 0, 0),
        (9, 4, 9, 4),
        (14, 12, 14, 12),
        (21, 18, 21, 18),
        (24, 28, 24, 28),
    ]
    assert not match.is_over()
    assert match.winner is None
    assert match.sets == []
    assert match.set_number == 1


def test_set_ends_only_at_the_end_of_a_deal() -> None:
    rules = CLASSIC.replace(target=5)
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(13)])
    deal = match.deal
    for text in ("7", "pass", "pass", "pass", "S"):
        match.push(text)
    rng = random.Random(3)
    while len(deal.played) < 51:
        match.push(rng.choice(deal.legal_action_ids()))
        # North-South have long taken more tricks than the target: nothing is counted yet.
        assert not match.is_over()
        assert match.to_act is not None
        assert match.team_scores == (0, 0)
        assert match.sets == []
    assert deal.team_tricks(NS) == 12
    match.push(deal.legal_action_ids()[0])
    assert match.is_over()
    assert match.team_scores == (13, 0)
    assert match.winner == NS


def test_reaching_the_target_exactly_wins() -> None:
    rules = CLASSIC.replace(target=16)
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(8), ns(8)])
    contract(match, S, 8)
    assert match.team_scores == (8, 5)
    assert not match.is_over()
    contract(match, S, 8)
    assert match.is_over()
    assert match.team_scores == (16, 10)
    assert match.winner == NS
    assert match.sets == [SetResult(1, NS, (16, 10), (16, 10, 16, 10), 2)]
    assert match.set_number == 1
    assert match.match_points == (16, 10)


def test_classic_set_to_41() -> None:
    hands = [ns(10), ew(9), ns(11), ns(12), ns(9)]
    match = Match(CLASSIC, seed=0, first_dealer=S, hands=hands)
    contract(match, S, 9)  # (10, 3)
    contract(match, W, 9)  # (14, 12)
    contract(match, S, 11)  # (25, 14)
    contract(match, S, 12)  # (37, 15)
    assert match.team_scores == (37, 15)
    assert not match.is_over()
    contract(match, S, 7)  # (46, 19)
    assert match.is_over()
    assert match.winner == NS
    assert match.sets == [SetResult(1, NS, (46, 19), (46, 19, 46, 19), 5)]


def test_both_over_target_higher_wins_ns() -> None:
    match = Match(CLASSIC.replace(target=6), seed=0, first_dealer=W, hands=[ns(7)])
    contract(match, S, 7)
    assert match.team_scores == (7, 6)
    assert match.winner == NS


def test_both_over_target_higher_wins_ew() -> None:
    match = Match(CLASSIC.replace(target=6), seed=0, first_dealer=W, hands=[ew(7)])
    contract(match, W, 7)
    assert match.team_scores == (6, 7)
    assert match.winner == EW


def test_tie_over_target_plays_another_deal() -> None:
    rules = CLASSIC.replace(target=10)
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(7), ew(7), ns(7), ew(7)])
    contract(match, S, 7)
    assert match.team_scores == (7, 6)
    contract(match, W, 7)
    assert match.team_scores == (13, 13)  # both over 10, level: no winner yet
    assert not match.is_over()
    assert match.winner is None
    assert match.sets == []
    assert match.deal.scores == (13, 13, 13, 13)
    assert match.deal.phase is Phase.AUCTION
    contract(match, S, 7)
    assert match.is_over()
    assert match.team_scores == (20, 19)
    assert match.winner == NS
    assert match.sets == [SetResult(1, NS, (20, 19), (20, 19, 20, 19), 3)]


def test_negative_scores_are_carried() -> None:
    hands = [ns(12), ns(6), ew(8), ns(13)]
    match = Match(CLASSIC, seed=0, first_dealer=S, hands=hands)
    contract(match, S, 13)  # 13 bid, 12 taken: NS lose 13, EW score their trick
    assert match.team_scores == (-13, 1)
    assert match.deal.scores == (-13, 1, -13, 1)
    assert match.view(S).scores == (-13, 1, -13, 1)
    contract(match, S, 7)  # 6 of 7
    assert match.team_scores == (-20, 8)
    contract(match, W, 9)  # EW 8 of 9
    assert match.team_scores == (-15, -1)
    assert match.deal.scores == (-15, -1, -15, -1)
    contract(match, S, 13)  # 13 of 13: 16
    assert match.team_scores == (1, -1)
    assert not match.is_over()


# -- thirteen tricks -------------------------------------------------------------------------------


def test_thirteen_tricks_do_not_win_in_classic() -> None:
    match = Match(CLASSIC, seed=0, first_dealer=W, hands=[ns(13), ns(0), ns(13)])
    contract(match, S, 7)
    assert match.team_scores == (13, 0)
    assert not match.is_over()
    contract(match, S, 7)  # the defenders take all 13
    assert match.team_scores == (6, 13)
    assert not match.is_over()
    contract(match, S, 13)
    assert match.team_scores == (22, 13)
    assert not match.is_over()


def test_thirteen_any_declarers_win_below_target() -> None:
    rules = CLASSIC.replace(thirteen_wins="any")
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(9), ns(13)])
    contract(match, S, 8)
    assert match.team_scores == (9, 4)
    contract(match, S, 7)
    assert match.is_over()
    assert match.team_scores == (22, 4)
    assert match.winner == NS
    assert match.sets == [SetResult(1, NS, (22, 4), (22, 4, 22, 4), 2)]


def test_thirteen_any_defenders_win() -> None:
    rules = CLASSIC.replace(thirteen_wins="any")
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(0)])
    contract(match, S, 7)
    assert match.is_over()
    assert match.team_scores == (-7, 13)
    assert match.winner == EW


def test_thirteen_any_ew_declarers_win() -> None:
    rules = CLASSIC.replace(thirteen_wins="any")
    match = Match(rules, seed=0, first_dealer=N, hands=[ew(13)])
    contract(match, W, 10)
    assert match.is_over()
    assert match.team_scores == (0, 13)
    assert match.winner == EW


def test_thirteen_if_bid_needs_a_bid_of_13() -> None:
    rules = CLASSIC.replace(thirteen_wins="if-bid")
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(13), ns(13)])
    contract(match, S, 12)  # 13 tricks on a bid of 12: no win
    assert match.team_scores == (13, 0)
    assert not match.is_over()
    contract(match, S, 13)  # bid 13, took 13: wins at 29
    assert match.is_over()
    assert match.team_scores == (29, 0)
    assert match.winner == NS


def test_thirteen_if_bid_not_for_defenders() -> None:
    rules = CLASSIC.replace(thirteen_wins="if-bid")
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(0), ew(13)])
    contract(match, S, 13)  # NS bid 13, the defenders took all 13
    assert match.team_scores == (-13, 13)
    assert not match.is_over()
    contract(match, W, 13)
    assert match.is_over()
    assert match.team_scores == (-13, 29)
    assert match.winner == EW


def test_no_win_below_zero_blocks_the_thirteen_trick_win() -> None:
    rules = CLASSIC.replace(thirteen_wins="any", no_win_below_zero=True)
    hands = [ns(12), ns(12), ns(13), ns(9)]
    match = Match(rules, seed=0, first_dealer=W, hands=hands)
    contract(match, S, 13)
    contract(match, S, 13)
    assert match.team_scores == (-26, 2)
    contract(match, S, 7)  # all 13 tricks, but North-South are still below zero
    assert match.team_scores == (-13, 2)
    assert not match.is_over()
    assert match.sets == []
    assert match.deal.scores == (-13, 2, -13, 2)
    contract(match, S, 9)
    assert match.team_scores == (-4, 6)


def test_without_no_win_below_zero_a_negative_side_wins_by_thirteen() -> None:
    rules = CLASSIC.replace(thirteen_wins="any")
    hands = [ns(12), ns(12), ns(13)]
    match = Match(rules, seed=0, first_dealer=W, hands=hands)
    contract(match, S, 13)
    contract(match, S, 13)
    contract(match, S, 7)
    assert match.is_over()
    assert match.team_scores == (-13, 2)
    assert match.winner == NS


# 002: «Een team kan niet winnen als hun huidige score lager is dan 0». "Current" is read
# two ways: the score before the deal, or the score once the deal is counted.


@pytest.mark.parametrize(
    ("reading", "wins"), [("no", True), ("before-deal", False), ("after-deal", True)]
)
def test_below_zero_readings_of_a_thirteen_trick_win(reading: str, wins: bool) -> None:
    """002: «Een team kan niet winnen als hun huidige score lager is dan 0»: North-South at -9
    take all 13 (+13, so 4 once counted): only the before-deal reading stops the win."""
    rules = find_rules("levant-sets").replace(sets=1, no_win_below_zero=reading)
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(8), ns(13), ns(9)])
    contract(match, S, 9)
    assert match.team_scores == (-9, 5)
    contract(match, S, 7)
    assert match.team_scores == (4, 5)
    assert match.is_over() is wins
    if wins:
        assert match.winner == NS
        return
    assert match.sets == []
    contract(match, S, 9)  # 4 before this deal: the target rule as usual
    assert match.team_scores == (13, 5)
    assert not match.is_over()


@pytest.mark.parametrize("reading", ["before-deal", "after-deal"])
def test_below_zero_both_readings_stop_a_side_still_below_zero(reading: str) -> None:
    """002: «Een team kan niet winnen als hun huidige score lager is dan 0»: from -26, all 13
    tricks leave North-South at -13, below zero before and after the deal."""
    rules = CLASSIC.replace(thirteen_wins="any", no_win_below_zero=reading)
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(12), ns(12), ns(13)])
    contract(match, S, 13)
    contract(match, S, 13)
    contract(match, S, 7)
    assert match.team_scores == (-13, 2)
    assert not match.is_over()


def _over_the_target(reading: str, first: int, second: int, second_bid: int) -> Match:
    """Target 10: North-South end at -1 or -2 after two deals, then bid 7 and take 12 (+12)
    while East-West's 1 trick takes them to 10 too: both sides are over the target."""
    rules = CLASSIC.replace(target=10, no_win_below_zero=reading)
    hands = [ns(first), ns(second), ns(12), ns(7)]
    match = Match(rules, seed=0, first_dealer=W, hands=hands)
    contract(match, S, 7)
    contract(match, S, second_bid)
    assert match.team_scores[0] < 0 and match.team_scores[1] == 9
    contract(match, S, 7)
    return match


@pytest.mark.parametrize(("reading", "winner"), [("no", NS), ("before-deal", EW)])
def test_below_zero_before_the_deal_over_the_target_the_other_side_wins(
    reading: str, winner: Team
) -> None:
    """002: «Een team kan niet winnen als hun huidige score lager is dan 0»: both sides over
    the target, North-South higher (11 to 10) but at -1 before the deal: under the
    before-deal reading they cannot win, and East-West, over the target too, win."""
    match = _over_the_target(reading, 9, 8, 10)
    assert match.team_scores == (11, 10)
    assert match.is_over()
    assert match.winner == winner


@pytest.mark.parametrize(("reading", "winner"), [("no", None), ("before-deal", EW)])
def test_below_zero_before_the_deal_a_tie_over_the_target(
    reading: str, winner: Team | None
) -> None:
    """000: «En caso de empate, se juega otra mano»; 002: «Een team kan niet winnen als hun
    huidige score lager is dan 0»: level at 10, a tie plays on, unless North-South were below
    zero before the deal: then East-West are the only side that can win."""
    match = _over_the_target(reading, 8, 9, 10)
    assert match.team_scores == (10, 10)
    if winner is None:
        assert not match.is_over()
        contract(match, S, 7)  # the next deal decides: 17 to 16
        assert match.team_scores == (17, 16)
    assert match.is_over()
    assert match.winner == (NS if winner is None else winner)


def test_below_zero_after_the_deal_is_refused_where_only_the_target_wins() -> None:
    with pytest.raises(RulesError, match="no_win_below_zero='after-deal' has no effect"):
        CLASSIC.replace(target=10, no_win_below_zero="after-deal")


# -- Syrian 400 ---------------------------------------------------------------------------------


def _syrian_two_deals(rules: Rules, north_first_bid: int) -> Match:
    """South reaches 44 over two deals; North ends on ``north_first_bid - 2``."""
    hands = [syrian(S, N, 10), syrian(E, S, 9), syrian(N, S, 7)]
    match = Match(rules, seed=0, first_dealer=W, hands=hands)
    # Deal 1, South leads: South 10 of 10 (40), North 3 tricks, East and West none.
    individual(match, {S: 10, E: 2, N: north_first_bid, W: 2})
    return match


def test_syrian_scores_per_seat_and_partner_positive_wins() -> None:
    match = _syrian_two_deals(SYRIAN, 3)
    assert match.seat_scores == (40, -2, 3, -2)
    assert match.team_scores == (43, -4)
    assert not match.is_over()
    assert match.dealer == S
    assert match.deal.scores == (40, -2, 3, -2)
    assert match.view(N).scores == (40, -2, 3, -2)
    # South, on 40, must now bid at least 4.
    match.push("9")  # East
    match.push("2")  # North
    match.push("2")  # West
    assert match.to_act == S
    before = snapshot(match)
    with pytest.raises(IllegalActionError):
        match.push("3")
    assert snapshot(match) == before
    match.push("4")
    finish(match, match.deal)
    # East 9 of 9 (27 under 30), South 4 of 4, North and West fail their 2.
    assert match.deals[1].tricks_taken == (4, 9, 0, 0)
    assert match.seat_scores == (44, 25, 1, -4)
    assert match.team_scores == (45, 21)
    assert match.is_over()
    assert match.winner == NS
    assert match.sets == [SetResult(1, NS, (45, 21), (44, 25, 1, -4), 2)]


def test_syrian_partner_zero_is_not_enough_by_default() -> None:
    match = _syrian_two_deals(SYRIAN, 2)
    assert match.seat_scores == (40, -2, 2, -2)
    individual(match, {S: 4, E: 9, N: 2, W: 2})
    assert match.seat_scores == (44, 25, 0, -4)
    assert not match.is_over()
    assert match.sets == []
    assert match.deal.scores == (44, 25, 0, -4)


def test_syrian_partner_zero_ok() -> None:
    match = _syrian_two_deals(SYRIAN.replace(partner_zero_ok=True), 2)
    individual(match, {S: 4, E: 9, N: 2, W: 2})
    assert match.seat_scores == (44, 25, 0, -4)
    assert match.is_over()
    assert match.winner == NS
    assert match.sets == [SetResult(1, NS, (44, 21), (44, 25, 0, -4), 2)]


def test_syrian_either_partner_may_reach_the_target() -> None:
    hands = [syrian(S, N, 10), syrian(E, N, 3)]
    match = Match(SYRIAN, seed=0, first_dealer=W, hands=hands)
    individual(match, {S: 10, E: 2, N: 3, W: 2})  # S 40, N 3
    individual(match, {E: 3, N: 10, W: 2, S: 4})  # E 3 of 3, North 10 of 10 (40)
    assert match.seat_scores == (36, 1, 43, -4)
    assert match.team_scores == (79, -3)
    assert match.is_over()  # North on 43, South positive
    assert match.winner == NS


# -- sets and matches of sets -------------------------------------------------------------------


def test_match_of_three_sets_ties_on_points_broken_by_sets_won() -> None:
    rules = CLASSIC.replace(sets=3, target=5)
    hands = [ns(7), ns(7), ns(13), ns(7)]
    match = Match(rules, seed=0, first_dealer=S, hands=hands)
    assert match.set_number == 1
    all_pass(match)
    contract(match, S, 7)  # (7, 6): both over 5, NS higher
    assert match.sets == [SetResult(1, NS, (7, 6), (7, 6, 7, 6), 2)]
    assert not match.is_over()
    assert match.winner is None
    assert match.set_number == 2
    assert match.team_scores == (0, 0)
    assert match.seat_scores == (0, 0, 0, 0)
    assert match.deal.scores == (0, 0, 0, 0)
    assert match.view(E).scores == (0, 0, 0, 0)
    assert match.dealer == N  # the rotation goes on across sets
    contract(match, S, 7)  # (13, 0)
    assert match.sets[1] == SetResult(2, NS, (13, 0), (13, 0, 13, 0), 1)
    assert match.set_number == 3
    assert match.dealer == W
    contract(match, S, 8)  # 7 of 8: (-8, 6)
    assert match.is_over()
    assert match.sets[2] == SetResult(3, EW, (-8, 6), (-8, 6, -8, 6), 1)
    assert len(match.sets) == 3
    assert match.set_number == 3
    assert match.match_points == (12, 12)
    assert match.winner == NS  # level on points, two sets to one


def test_match_of_sets_most_points_wins_over_sets_won() -> None:
    rules = CLASSIC.replace(sets=3, target=5)
    match = Match(rules, seed=0, first_dealer=S, hands=[ns(13), ew(7), ew(7)])
    contract(match, S, 13)  # (16, 0)
    contract(match, W, 7)  # (6, 7)
    assert not match.is_over()
    contract(match, W, 7)  # (6, 7)
    assert match.is_over()
    assert [s.winner for s in match.sets] == [NS, EW, EW]
    assert match.match_points == (28, 14)
    assert match.winner == NS


def test_match_of_sets_ew_wins_on_points() -> None:
    rules = CLASSIC.replace(sets=3, target=5)
    match = Match(rules, seed=0, first_dealer=S, hands=[ns(7), ew(7), ew(8)])
    contract(match, S, 7)  # (7, 6)
    contract(match, W, 7)  # (6, 7)
    contract(match, W, 7)  # (5, 8)
    assert match.match_points == (18, 21)
    assert match.winner == EW


def test_match_of_sets_drawn() -> None:
    rules = CLASSIC.replace(sets=2, target=5)
    match = Match(rules, seed=0, first_dealer=S, hands=[ns(7), ew(7)])
    contract(match, S, 7)
    contract(match, W, 7)
    assert match.is_over()
    assert [s.winner for s in match.sets] == [NS, EW]
    assert match.match_points == (13, 13)
    assert match.winner is None


def test_set_with_several_deals_counts_its_deals() -> None:
    rules = CLASSIC.replace(sets=2, target=20)
    hands = [ns(10), ew(7), ns(7), ns(12), ns(7)]
    match = Match(rules, seed=0, first_dealer=E, hands=hands)
    contract(match, S, 9)  # (10, 3)
    all_pass(match)
    contract(match, S, 7)  # (17, 9)
    assert not match.is_over()
    contract(match, S, 12)  # (29, 10)
    assert match.sets == [SetResult(1, NS, (29, 10), (29, 10, 29, 10), 4)]
    assert match.team_scores == (0, 0)
    assert match.dealer == E
    assert [d.dealer for d in match.deals] == [E, N, W, S, E]


def test_levant_sets_thirteen_sets() -> None:
    rules = find_rules("levant-sets")
    assert rules.sets == 13
    match = Match(rules, seed=0, first_dealer=W, hands=[ns(8)] + [ns(13)] * 13)
    contract(match, S, 8)  # made: the defenders score nothing (tricks-if-set)
    assert match.team_scores == (8, 0)
    for number in range(1, 14):
        assert not match.is_over()
        assert match.set_number == number
        contract(match, S, 7)  # all 13 tricks win the set
        assert len(match.sets) == number
    assert match.is_over()
    assert match.sets[0] == SetResult(1, NS, (21, 0), (21, 0, 21, 0), 2)
    assert match.sets[1:] == [SetResult(n, NS, (13, 0), (13, 0, 13, 0), 1) for n in range(2, 14)]
    assert match.match_points == (21 + 12 * 13, 0)
    assert match.winner == NS
    assert len(match.deals) == 14


def test_levant_sets_ew_win_sets() -> None:
    rules = find_rules("levant-sets").replace(sets=3)
    match = Match(rules, seed=0, first_dealer=W, hands=[ew(13), ns(13), ns(0)])
    contract(match, W, 7)
    contract(match, S, 7)
    assert not match.is_over()
    contract(match, S, 8)  # the defenders take all 13: (-8, 13)
    assert match.is_over()
    assert [s.team_scores for s in match.sets] == [(0, 13), (13, 0), (-8, 13)]
    assert match.match_points == (5, 26)
    assert match.winner == EW


# -- after the match ---------------------------------------------------------------------------


def test_push_after_the_match_raises_and_changes_nothing() -> None:
    match = Match(CLASSIC.replace(target=5), seed=0, first_dealer=W, hands=[ns(13)])
    deal = contract(match, S, 7)
    assert match.is_over()
    assert match.deal is deal
    assert match.to_act is None
    assert match.legal_actions == ()
    before = snapshot(match)
    for action in ("pass", "7", "AS", 0, 52):
        with pytest.raises(IllegalActionError):
            match.push(action)
        assert snapshot(match) == before
    assert len(match.deals) == 1


def test_push_after_a_match_of_sets_raises() -> None:
    rules = CLASSIC.replace(sets=2, target=5)
    match = Match(rules, seed=0, first_dealer=S, hands=[ns(7), ns(7)])
    contract(match, S, 7)
    contract(match, S, 7)
    assert match.is_over()
    before = snapshot(match)
    with pytest.raises(IllegalActionError):
        match.push("pass")
    assert snapshot(match) == before
    assert match.team_scores == (7, 6)  # the last set's scores stay on show


def test_illegal_action_during_a_match_changes_nothing() -> None:
    match = Match(CLASSIC, seed=5, first_dealer=S)
    match.push("8")
    before = snapshot(match)
    with pytest.raises(IllegalActionError):
        match.push("7")  # must outbid 8
    assert snapshot(match) == before


def test_bad_given_hands_never_leave_the_match_half_counted() -> None:
    """Hands for a later deal that cannot be dealt: refused, and nothing half done.

    Either :class:`Match` refuses them when it is made, or the push that ends
    the deal before raises and, as ``push`` promises, changes nothing.
    """
    bad = (1, 2, 3, 4)
    try:
        match = Match(CLASSIC, seed=1, first_dealer=W, hands=[ns(7), bad])
    except InvalidActionError:
        return
    deal = match.deal
    for text in ("7", "pass", "pass", "pass", "S"):
        match.push(text)
    rng = random.Random(0)
    while len(deal.played) < 51:
        match.push(rng.choice(deal.legal_action_ids()))
    before = snapshot(match)
    with pytest.raises(InvalidActionError):
        match.push(deal.legal_action_ids()[0])
    assert snapshot(match) == before


# -- views ------------------------------------------------------------------------------------


def test_view_holds_scores_before_the_deal_and_one_hand() -> None:
    match = Match(CLASSIC, seed=0, first_dealer=W, hands=[ns(9), ew(8)])
    for seat in Seat:
        view = match.view(seat)
        assert view.seat == seat
        assert view.scores == (0, 0, 0, 0)
        assert view.hand == CardSet(ns(9)[seat])
        assert view.dealer == W
    contract(match, S, 9)
    assert match.team_scores == (9, 4)
    deal = match.deal
    for seat in Seat:
        view = match.view(seat)
        assert view.scores == (9, 4, 9, 4)
        assert view.hand == CardSet(ew(8)[seat])
        assert view.hand_sizes == (13, 13, 13, 13)
        assert view.dealer == S
        assert view.legal_actions == (tuple(deal.legal_actions) if seat == E else ())
    # Only the seat's own cards: no field of the view holds another hand.
    card_fields = [
        f.name
        for f in dataclasses.fields(match.view(S))
        if isinstance(getattr(match.view(S), f.name), CardSet)
    ]
    assert sorted(card_fields) == ["hand", "played"]
    # The scores stay those before the deal while it is played.
    for text in ("pass", "pass", "7", "pass", "S"):
        match.push(text)
    match.push(deal.legal_action_ids()[0])
    assert match.view(E).scores == (9, 4, 9, 4)
    assert len(match.view(W).hand) == 12
    assert len(match.view(E).hand) == 13


def test_view_in_syrian_carries_each_players_own_score() -> None:
    match = _syrian_two_deals(SYRIAN, 3)
    for seat in Seat:
        view = match.view(seat)
        assert view.scores == (40, -2, 3, -2)
        assert view.scores[seat] == match.seat_scores[seat]
        assert view.hand == CardSet(syrian(E, S, 9)[seat])


# -- set_winner with exact scores ------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((0, 0), None),
        ((40, 40), None),
        ((41, 0), NS),
        ((0, 41), EW),
        ((41, 40), NS),
        ((-20, 41), EW),
        ((45, 44), NS),
        ((44, 45), EW),
        ((41, 41), None),
        ((60, 60), None),
        ((-50, -50), None),
    ],
)
def test_set_winner_target(scores: tuple[int, int], expected: Team | None) -> None:
    seat_scores = (scores[0], scores[1], scores[0], scores[1])
    assert set_winner(CLASSIC, scores, seat_scores, None, None) == expected
    result = DealResult(team_points=(7, 6), made=True)
    assert set_winner(CLASSIC, scores, seat_scores, result, NS) == expected


def test_set_winner_other_targets() -> None:
    assert set_winner(find_rules("lebanese31"), (31, 0), (31, 0, 31, 0), None, None) == NS
    assert set_winner(find_rules("lebanese31"), (30, 0), (30, 0, 30, 0), None, None) is None
    assert set_winner(find_rules("tarneeb61"), (60, 59), (60, 59, 60, 59), None, None) is None
    assert set_winner(find_rules("tarneeb61"), (60, 61), (60, 61, 60, 61), None, None) == EW
    assert set_winner(find_rules("tarneeb400"), (400, 399), (0, 0, 0, 0), None, None) == NS


def _all13(side: Team, bid13: bool) -> DealResult:
    points = (13, 0) if side == NS else (0, 13)
    return DealResult(points, None, True, side, bid13)


@pytest.mark.parametrize(
    ("mode", "side", "declarers", "bid13", "expected"),
    [
        ("no", NS, NS, True, None),
        ("no", EW, NS, False, None),
        ("any", NS, NS, False, NS),
        ("any", NS, NS, True, NS),
        ("any", EW, NS, False, EW),  # the defenders took them all
        ("any", EW, NS, True, EW),
        ("if-bid", NS, NS, True, NS),
        ("if-bid", NS, NS, False, None),
        ("if-bid", EW, EW, True, EW),
        ("if-bid", EW, NS, True, None),  # defenders against a bid of 13
        ("if-bid", EW, NS, False, None),
    ],
)
def test_set_winner_thirteen_tricks(
    mode: str, side: Team, declarers: Team, bid13: bool, expected: Team | None
) -> None:
    rules = CLASSIC.replace(thirteen_wins=mode)
    scores = (13, 5) if side == NS else (5, 13)
    seats = (scores[0], scores[1], scores[0], scores[1])
    assert set_winner(rules, scores, seats, _all13(side, bid13), declarers) == expected


def test_set_winner_thirteen_wins_even_below_zero_without_the_option() -> None:
    rules = CLASSIC.replace(thirteen_wins=ThirteenWins.ANY)
    assert set_winner(rules, (-3, 20), (-3, 20, -3, 20), _all13(NS, False), NS) == NS


@pytest.mark.parametrize(
    ("scores", "side", "expected"),
    [
        ((-1, 20), NS, None),
        ((-30, 20), NS, None),
        ((20, -1), EW, None),
        ((13, 0), NS, NS),
        ((5, 13), EW, EW),
        # Engine's reading: the score after the deal is counted; zero is not below zero.
        ((0, 20), NS, NS),
        # Blocked, but the other side is over the target: the target rule still applies.
        ((-3, 45), NS, EW),
    ],
)
def test_set_winner_no_win_below_zero(
    scores: tuple[int, int], side: Team, expected: Team | None
) -> None:
    rules = CLASSIC.replace(thirteen_wins="any", no_win_below_zero=True)
    seats = (scores[0], scores[1], scores[0], scores[1])
    assert set_winner(rules, scores, seats, _all13(side, False), NS) == expected


@pytest.mark.parametrize(
    ("seat_scores", "team_scores", "expected", "expected_zero_ok"),
    [
        ((41, 0, 1, 0), (42, 0), NS, NS),
        ((40, 0, 30, 0), (70, 0), None, None),  # nobody on 41
        ((41, 0, 0, 0), (41, 0), None, NS),  # partner on zero
        ((41, 0, -5, 0), (36, 0), None, None),  # partner below zero
        ((1, 50, 0, 3), (1, 53), EW, EW),
        ((0, 3, 0, 41), (0, 44), EW, EW),  # West reaches it, East positive
        ((2, 41, 60, 0), (62, 41), NS, NS),  # EW's partner on zero; NS qualify
        ((45, 41, 1, 2), (46, 43), NS, NS),  # both qualify: the higher team total
        ((41, 45, 2, 1), (43, 46), EW, EW),
        ((41, 41, 2, 2), (43, 43), None, None),  # both qualify, level: play on
        ((41, 41, 0, 2), (41, 43), EW, EW),  # NS's partner on zero: only EW qualify
    ],
)
def test_set_winner_syrian(
    seat_scores: tuple[int, int, int, int],
    team_scores: tuple[int, int],
    expected: Team | None,
    expected_zero_ok: Team | None,
) -> None:
    assert set_winner(SYRIAN, team_scores, seat_scores, None, None) == expected
    zero_ok = SYRIAN.replace(partner_zero_ok=True)
    assert set_winner(zero_ok, team_scores, seat_scores, None, None) == expected_zero_ok


def test_set_winner_syrian_both_level_with_zero_ok() -> None:
    zero_ok = SYRIAN.replace(partner_zero_ok=True)
    assert set_winner(zero_ok, (41, 41), (41, 0, 0, 41), None, None) is None


# -- every preset, played at random: the match keeps its books --------------------------------


def _policy(deal: Deal, rng: random.Random) -> int:
    """Random play; in the auction mostly pass or the lowest bids, so deals get played."""
    ids = deal.legal_action_ids()
    if deal.phase is Phase.AUCTION:
        if deal.rules.is_individual:
            bids = [a for a in ids if a >= 64]
            return bids[1]  # one over the lowest: the total reaches the minimum
        if 52 in ids and rng.random() < 0.6:
            return 52
        return min(ids, key=lambda a: (a < 64, a))  # the lowest bid, or what is left
    return rng.choice(ids)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_matches_keep_their_books(name: str, seed: int) -> None:
    rules = PRESETS[name].replace(target=min(PRESETS[name].target, 25), sets=2)
    if rules.count.value == "card-points":
        rules = rules.replace(target=250)
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    team = [0, 0]
    seat = [0, 0, 0, 0]
    sets: list[Team] = []
    for _ in range(80):
        if match.is_over():
            break
        deal = match.deal
        index = len(match.deals) - 1
        assert deal.scores == (tuple(seat) if rules.is_individual else (team[0], team[1]) * 2)
        assert match.view(S).scores == deal.scores
        while not deal.is_over():
            match.push(_policy(deal, rng))
        if deal.thrown_in is not None:
            assert deal.result is None
            same = deal.thrown_in in (ThrowIn.WEAK_HAND, ThrowIn.LOW_TOTAL)
            assert match.deals[index + 1].dealer == (deal.dealer if same else deal.dealer.next)
            continue
        result = deal.result
        assert result is not None
        team = [team[0] + result.team_points[0], team[1] + result.team_points[1]]
        if result.seat_points is not None:
            seat = [s + p for s, p in zip(seat, result.seat_points, strict=True)]
        declarer = deal.declarer
        winner = set_winner(rules, team, seat, result, None if declarer is None else declarer.team)
        if winner is not None:
            sets.append(winner)
            assert match.sets[-1].winner == winner
            assert match.sets[-1].team_scores == (team[0], team[1])
            team, seat = [0, 0], [0, 0, 0, 0]
        assert len(match.sets) == len(sets)
        if match.is_over():
            assert len(sets) == 2
            break
        assert match.deals[index + 1].dealer == deal.dealer.next
        assert match.team_scores == (team[0], team[1])
        if rules.is_individual:
            assert match.seat_scores == tuple(seat)
    assert match.deals[0].dealer == match.first_dealer
    assert [s.winner for s in match.sets] == sets
    if match.is_over():
        points = [sum(s.team_scores[t] for s in match.sets) for t in Team]
        wins = [sets.count(t) for t in Team]
        expected = None
        if points[0] != points[1]:
            expected = NS if points[0] > points[1] else EW
        elif wins[0] != wins[1]:
            expected = NS if wins[0] > wins[1] else EW
        assert match.match_points == (points[0], points[1])
        assert match.winner == expected
