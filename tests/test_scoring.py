"""Scoring known answers from the seeds: the pure functions, and the same played out in deals.

The deals use "duel" hands (see :func:`support.duel`) on which the declaring side
takes an exact number of tricks whatever is played, so random legal play must
always end in the seed's score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from support import duel, play_randomly
from tarneeb import (
    Contract,
    Deal,
    DealResult,
    IllegalActionError,
    Phase,
    Rules,
    Seat,
    Strain,
    Suit,
    Team,
    find_rules,
)
from tarneeb.scoring import score_contract, score_individual, set_winner

S, E, N, W = Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST
PASSES = ["pass", "pass", "pass"]


def play_out(
    rules: Rules,
    hands: Sequence[int],
    dealer: Seat,
    actions: Sequence[str],
    scores: Sequence[int] = (0, 0, 0, 0),
    seeds: Sequence[int] = range(6),
) -> list[Deal]:
    """The deal after ``actions``, played out once per seed (checked pushes and the fast playout)."""
    finished = []
    for seed in seeds:
        deal = Deal(rules, dealer, hands, scores)
        for action in actions:
            deal.push(action)
        assert deal.phase is Phase.PLAY
        fast = deal.copy()
        play_randomly(deal, seed)
        fast.playout(random.Random(1000 + seed))
        finished += [deal, fast]
    for deal in finished:
        assert deal.phase is Phase.SCORED
        assert deal.result is not None
    return finished


def team_points_of(
    rules: Rules, hands: Sequence[int], actions: Sequence[str], tricks: tuple[int, ...]
) -> tuple[int, int]:
    """Play the deal (dealer West, so South bids first) and return the one team score seen."""
    deals = play_out(rules, hands, W, actions)
    seen = set()
    for deal in deals:
        assert deal.tricks_taken == tricks
        assert deal.result is not None
        seen.add(deal.result.team_points)
    assert len(seen) == 1, seen
    return seen.pop()


# -- the duel hands themselves -------------------------------------------------------


@pytest.mark.parametrize("k", range(14))
def test_duel_hands_force_the_trick_count(k: int) -> None:
    hands = duel(S, E, k)
    deals = play_out(find_rules("classic"), hands, W, ["7", *PASSES, "S"], seeds=range(10))
    for deal in deals:
        assert deal.tricks_taken == (k, 13 - k, 0, 0)
        assert deal.team_tricks(Team.NS) == k


# -- score_contract: the seeds' tables -------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "bid", "taken", "expected"),
    [
        # 000: made scores the tricks taken, failed loses the bid, defenders always score.
        ("classic", 8, 9, (9, 4)),
        ("classic", 9, 8, (-9, 5)),
        ("classic", 7, 7, (7, 6)),
        ("classic", 7, 0, (-7, 13)),
        ("classic", 13, 13, (16, 0)),
        ("classic", 13, 12, (-13, 1)),
        ("classic", 10, 13, (13, 0)),
        ("lebanese31", 8, 9, (9, 4)),
        ("tarneeb61", 9, 8, (-9, 5)),
        # 002: defenders score their tricks only when the contract fails. «Als de partij die
        # opgeeft minstens het aantal geboden slagen wint, scoort zij het aantal slagen dat zij
        # heeft»: 13 bid and made scores the 13 tricks, with no bonus.
        ("levant-sets", 8, 9, (9, 0)),
        ("levant-sets", 9, 8, (-9, 5)),
        ("levant-sets", 13, 13, (13, 0)),
        ("levant-sets", 10, 13, (13, 0)),
        ("levant-sets", 13, 12, (-13, 1)),
        ("levant-sets", 7, 0, (-7, 13)),
        # 003 original: difference scoring and the 16/26/-16 table.
        ("original", 10, 10, (10, 0)),
        ("original", 10, 7, (0, 3)),
        ("original", 8, 9, (9, 0)),
        ("original", 8, 13, (16, 0)),
        ("original", 12, 13, (16, 0)),
        ("original", 13, 13, (26, 0)),
        ("original", 13, 10, (-16, 6)),
        ("original", 13, 12, (-16, 2)),
        ("original", 7, 0, (0, 7)),
        # 003's kabsh is the declaring team's: «Если команда объявила менее 13-и взяток и
        # взяла 13»; defenders who take all 13 score the shortfall.
        ("original", 12, 0, (0, 12)),
        # Saudi kabsh, 000: «cuando una pareja gana las 13 bazas sin haberlo reclamado de
        # antemano»: either side, defenders included.
        ("saudi", 7, 13, (16, 0)),
        ("saudi", 12, 13, (16, 0)),
        ("saudi", 13, 13, (16, 0)),
        ("saudi", 8, 9, (9, 4)),
        ("saudi", 7, 0, (-7, 16)),
        ("saudi", 13, 0, (-13, 16)),
        ("saudi", 8, 1, (-8, 12)),
        ("sol", 8, 9, (9, 4)),
        # Egyptian, not raised: seed 003's Egyptian failed contract loses the bid.
        ("egyptian", 8, 10, (10, 0)),
        ("egyptian", 10, 7, (-10, 3)),
        ("egyptian", 13, 13, (16, 0)),
        ("egyptian", 10, 13, (16, 0)),
        ("egyptian", 7, 0, (-7, 7)),
        ("tarneeb61", 7, 0, (-7, 13)),
        ("sol", 7, 0, (-7, 13)),
    ],
)
def test_score_contract_known_answers(
    preset: str, bid: int, taken: int, expected: tuple[int, int]
) -> None:
    assert score_contract(find_rules(preset), bid, taken, 13 - taken) == expected


@pytest.mark.parametrize(
    ("factor", "bid", "taken", "expected"),
    [
        (2, 8, 10, (20, 0)),
        (2, 8, 8, (16, 0)),
        (2, 10, 7, (-20, 6)),
        (2, 13, 13, (32, 0)),
        (2, 10, 13, (32, 0)),
        (2, 13, 10, (-32, 12)),
        (4, 8, 10, (40, 0)),
        (4, 10, 7, (-40, 12)),
        (4, 13, 13, (64, 0)),
    ],
)
def test_score_contract_raised_egyptian(
    factor: int, bid: int, taken: int, expected: tuple[int, int]
) -> None:
    rules = find_rules("egyptian").replace(double_factor=factor)
    assert score_contract(rules, bid, taken, 13 - taken, multiplier=factor) == expected


def test_score_contract_made_bid_reading() -> None:
    rules = find_rules("classic").replace(made="bid")
    assert score_contract(rules, 8, 9, 4) == (8, 4)
    assert score_contract(rules, 8, 8, 5) == (8, 5)
    assert score_contract(rules, 9, 8, 5) == (-9, 5)
    assert score_contract(rules, 13, 13, 0) == (16, 0)


def test_score_contract_other_combinations() -> None:
    zero = find_rules("classic").replace(failed="zero")
    assert score_contract(zero, 9, 8, 5) == (0, 5)
    shortfall = find_rules("classic").replace(defenders="shortfall", bid13_failed=-16)
    assert score_contract(shortfall, 9, 8, 5) == (-9, 1)
    assert score_contract(shortfall, 13, 10, 3) == (-16, 3)
    assert score_contract(shortfall.replace(bid13_shortfall_factor=3), 13, 10, 3) == (-16, 9)
    assert score_contract(find_rules("classic").replace(bid13_made=None), 13, 13, 0) == (13, 0)
    doubled = find_rules("classic").replace(doubling="double")
    assert score_contract(doubled, 8, 9, 4, multiplier=2) == (18, 8)
    assert score_contract(doubled, 8, 7, 6, multiplier=2) == (-16, 12)


@pytest.mark.parametrize(
    ("bid", "taken", "expected"),
    [
        (80, 85, (85, 35)),
        (80, 80, (80, 40)),
        (80, 70, (-80, 50)),
        (60, 0, (-60, 120)),
        (120, 120, (120, 0)),
        (120, 119, (-120, 1)),
        (60, 60, (60, 60)),
    ],
)
def test_score_contract_card_points(bid: int, taken: int, expected: tuple[int, int]) -> None:
    # Tarneeb 400: made scores the card points taken, failed loses the bid,
    # defenders score their card points; no 13-trick bonus in card points.
    assert score_contract(find_rules("tarneeb400"), bid, taken, 120 - taken) == expected


# -- the same played out in deals --------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "bid", "k", "expected"),
    [
        ("classic", "8", 9, (9, 4)),
        ("classic", "9", 8, (-9, 5)),
        ("classic", "7", 7, (7, 6)),
        ("classic", "13", 13, (16, 0)),
        ("classic", "10", 13, (13, 0)),
        ("classic", "7", 0, (-7, 13)),
        ("levant-sets", "8", 9, (9, 0)),
        ("levant-sets", "9", 8, (-9, 5)),
        ("levant-sets", "13", 13, (13, 0)),
        ("levant-sets", "10", 13, (13, 0)),
        ("original", "10", 7, (0, 3)),
        ("original", "10", 10, (10, 0)),
        ("original", "8", 9, (9, 0)),
        ("original", "8", 13, (16, 0)),
        ("original", "13", 13, (26, 0)),
        ("original", "13", 10, (-16, 6)),
        ("saudi", "7", 13, (16, 0)),
        ("saudi", "13", 13, (16, 0)),
        ("saudi", "8", 9, (9, 4)),
        ("saudi", "7", 0, (-7, 16)),
        ("saudi", "12", 0, (-12, 16)),
        ("original", "9", 0, (0, 9)),
    ],
)
def test_partnership_deals_score_the_seeds(
    preset: str, bid: str, k: int, expected: tuple[int, int]
) -> None:
    rules = find_rules(preset)
    points = team_points_of(rules, duel(S, E, k), [bid, *PASSES, "S"], (k, 13 - k, 0, 0))
    assert points == expected


def test_levant_sets_thirteen_bid_and_made_scores_the_tricks_in_a_whole_deal() -> None:
    """002: «Als de partij die opgeeft minstens het aantal geboden slagen wint, scoort zij het
    aantal slagen dat zij heeft»: no bonus for 13, bid or not; the 13 still win the set."""
    rules = find_rules("levant-sets")
    for deal in play_out(rules, duel(S, E, 13), W, ["13", *PASSES, "S"]):
        assert deal.result == DealResult((13, 0), None, True, Team.NS, True)
    for deal in play_out(rules, duel(S, E, 13), W, ["9", *PASSES, "S"]):
        assert deal.result == DealResult((13, 0), None, True, Team.NS, False)


def test_saudi_kabsh_for_the_defenders_in_a_whole_deal() -> None:
    """000: «Permite un bono de "kabsh" (capot) cuando una pareja gana las 13 bazas sin haberlo
    reclamado de antemano»: the defenders, who never bid 13, take all 13 and score it."""
    saudi = find_rules("saudi")
    hands = duel(S, E, 0)  # South declares and East-West take every trick
    for deal in play_out(saudi, hands, W, ["8", *PASSES, "S"]):
        assert deal.tricks_taken == (0, 13, 0, 0)
        assert deal.result == DealResult((-8, 16), None, False, Team.EW, False)
    # Doubled stakes multiply the defenders' kabsh like every other point.
    raised = saudi.replace(doubling="raise")
    for deal in play_out(raised, hands, W, ["8", *PASSES, "raise", "S"], seeds=[0]):
        assert deal.result is not None and deal.result.team_points == (-16, 32)
    # Declarers only (003's reading, the default): the defenders score their 13 tricks.
    declarers_only = saudi.replace(kabsh_side="declarers")
    for deal in play_out(declarers_only, hands, W, ["8", *PASSES, "S"], seeds=[0]):
        assert deal.result is not None and deal.result.team_points == (-8, 13)
    # East-West declaring: the kabsh goes to North-South, the defenders, on their side.
    hands = duel(E, S, 0, trump=Suit.HEARTS, side=Suit.DIAMONDS)
    for deal in play_out(saudi, hands, S, ["7", *PASSES, "H"], seeds=[0]):
        assert deal.declarer is E
        assert deal.result is not None and deal.result.team_points == (16, -7)


def test_deal_result_fields() -> None:
    rules = find_rules("original")
    made13, failed, made = (
        play_out(rules, duel(S, E, k), W, [bid, *PASSES, "S"], seeds=[0])[0]
        for bid, k in (("13", 13), ("13", 10), ("8", 9))
    )
    assert made13.result == DealResult((26, 0), None, True, Team.NS, True)
    assert failed.result == DealResult((-16, 6), None, False, None, True)
    assert made.result == DealResult((9, 0), None, True, None, False)
    assert made.contract == Contract(S, 8, Strain.SPADES)


def test_east_west_declarers_score_on_their_side() -> None:
    # Dealer South: East bids first, takes 9 of a contract of 8 with hearts trump.
    rules = find_rules("classic")
    hands = duel(E, S, 9, trump=Suit.HEARTS, side=Suit.DIAMONDS)
    for deal in play_out(rules, hands, S, ["8", *PASSES, "H"]):
        assert deal.declarer is E
        assert deal.tricks_taken == (4, 9, 0, 0)
        assert deal.result is not None
        assert deal.result.team_points == (4, 9)
        assert deal.result.made is True
    for deal in play_out(rules, duel(E, S, 7, Suit.HEARTS, Suit.DIAMONDS), S, ["9", *PASSES, "H"]):
        assert deal.result is not None
        assert deal.result.team_points == (6, -9)
        assert deal.result.made is False


def test_made_bid_reading_in_a_deal() -> None:
    rules = find_rules("classic").replace(made="bid")
    assert team_points_of(rules, duel(S, E, 9), ["8", *PASSES, "S"], (9, 4, 0, 0)) == (8, 4)


# -- Egyptian: the raise -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("factor", "bid", "answer", "k", "expected"),
    [
        (2, "8S", "raise", 10, (20, 0)),
        (2, "8S", "stand", 10, (10, 0)),
        (2, "10S", "raise", 7, (-20, 6)),
        (2, "10S", "stand", 7, (-10, 3)),
        (2, "13S", "raise", 13, (32, 0)),
        (2, "10S", "raise", 13, (32, 0)),
        (2, "13S", "raise", 10, (-32, 12)),
        (4, "8S", "raise", 10, (40, 0)),
        (4, "10S", "raise", 7, (-40, 12)),
        (4, "13S", "raise", 13, (64, 0)),
    ],
)
def test_egyptian_raise_played_out(
    factor: int, bid: str, answer: str, k: int, expected: tuple[int, int]
) -> None:
    rules = find_rules("egyptian").replace(double_factor=factor)
    deal = Deal(rules, W, duel(S, E, k))
    deal.push(bid)
    for _ in range(3):
        deal.push("pass")
    # The only bidder decides whether to raise; nobody names trump afterwards.
    assert deal.phase is Phase.RAISE
    assert deal.to_act is S
    assert sorted(deal.legal_action_ids()) == [54, 55]
    raised = answer == "raise"
    points = team_points_of(rules, duel(S, E, k), [bid, *PASSES, answer], (k, 13 - k, 0, 0))
    assert points == expected
    deal.push(answer)
    assert deal.phase is Phase.PLAY
    assert deal.trump is Suit.SPADES
    level = int(bid[:-1])
    assert deal.contract == Contract(S, level, Strain.SPADES, factor if raised else 1, None, raised)


def test_egyptian_contested_auction_has_no_raise() -> None:
    rules = find_rules("egyptian")
    actions = ["7C", "8H", "pass", "pass", "9S", "pass"]
    deal = Deal(rules, W, duel(S, E, 10))
    for action in actions:
        deal.push(action)
    assert deal.phase is Phase.PLAY
    assert deal.contract == Contract(S, 9, Strain.SPADES)
    assert team_points_of(rules, duel(S, E, 10), actions, (10, 3, 0, 0)) == (10, 0)


# -- doubling = "double" ------------------------------------------------------------------


def test_double_multiplies_the_doubled_contract() -> None:
    rules = find_rules("classic").replace(doubling="double")
    actions = ["8", "double", "pass", "pass", "S"]
    deal = Deal(rules, W, duel(S, E, 9))
    deal.push("8")
    assert 53 in deal.legal_action_ids()  # East, an opponent, may double
    for action in actions[1:]:
        deal.push(action)
    assert deal.contract == Contract(S, 8, Strain.SPADES, 2, E)
    assert team_points_of(rules, duel(S, E, 9), actions, (9, 4, 0, 0)) == (18, 8)
    assert team_points_of(rules, duel(S, E, 7), actions, (7, 6, 0, 0)) == (-16, 12)
    four = rules.replace(double_factor=4)
    assert team_points_of(four, duel(S, E, 9), actions, (9, 4, 0, 0)) == (36, 16)


def test_a_higher_bid_cancels_the_double() -> None:
    rules = find_rules("classic").replace(doubling="double")
    actions = ["8", "double", "9", "pass", "pass", "S"]
    deal = Deal(rules, W, duel(N, E, 9))
    for action in actions:
        deal.push(action)
    assert deal.contract == Contract(N, 9, Strain.SPADES)
    assert team_points_of(rules, duel(N, E, 9), actions, (0, 4, 9, 0)) == (9, 4)
    # West may double the new bid; that double counts.
    redoubled = ["8", "double", "9", "double", "pass", "S"]
    deal = Deal(rules, W, duel(N, E, 9))
    for action in redoubled:
        deal.push(action)
    assert deal.contract == Contract(N, 9, Strain.SPADES, 2, W)
    assert team_points_of(rules, duel(N, E, 9), redoubled, (0, 4, 9, 0)) == (18, 8)


def test_who_may_double() -> None:
    rules = find_rules("classic").replace(doubling="double")
    deal = Deal(rules, W, duel(S, E, 9))
    assert 53 not in deal.legal_action_ids()  # nothing to double yet
    with pytest.raises(IllegalActionError):
        deal.push("double")
    deal.push("8")
    deal.push("pass")
    assert deal.to_act is N
    assert 53 not in deal.legal_action_ids()  # not one's partner's bid
    with pytest.raises(IllegalActionError):
        deal.push("double")
    deal.push("pass")
    deal.push("double")  # West
    assert deal.phase is Phase.TRUMP
    assert deal.contract == Contract(S, 8, None, 2, W)
    # Only one double of a bid: after East's double West cannot double again.
    deal = Deal(rules, W, duel(S, E, 9))
    deal.push("8")
    deal.push("double")
    deal.push("pass")
    assert deal.to_act is W
    assert 53 not in deal.legal_action_ids()
    # Without the option nobody doubles.
    plain = Deal(find_rules("classic"), W, duel(S, E, 9))
    plain.push("8")
    assert 53 not in plain.legal_action_ids()


# -- card points (Tarneeb 400) -------------------------------------------------------------


def card_points_won(deal: Deal, team: Team) -> int:
    return sum(
        card.card_points
        for trick in deal.tricks
        if trick.winner.team == team
        for card in trick.cards
    )


def test_card_points_all_to_the_declarers() -> None:
    rules = find_rules("tarneeb400")
    for bid in ("60", "120"):
        for deal in play_out(rules, duel(S, E, 13), W, [bid, *PASSES, "S"]):
            assert deal.card_points_taken == (120, 0, 0, 0)
            assert deal.result is not None
            assert deal.result.team_points == (120, 0)
            assert deal.result.made is True
            assert deal.result.declarers_bid_13 is False


def test_card_points_all_to_the_defenders() -> None:
    # South names clubs, which East holds all of: East takes every trick.
    rules = find_rules("tarneeb400")
    for deal in play_out(rules, duel(S, E, 13), W, ["60", *PASSES, "C"]):
        assert deal.tricks_taken == (0, 13, 0, 0)
        assert deal.card_points_taken == (0, 120, 0, 0)
        assert deal.result is not None
        assert deal.result.team_points == (-60, 120)
        assert deal.result.made is False


@pytest.mark.parametrize("seed", range(8))
def test_card_points_count_the_cards_won(seed: int) -> None:
    rules = find_rules("tarneeb400")
    deal = Deal.from_seed(rules, W, seed)
    deal.push("80")
    for _ in range(3):
        deal.push("pass")
    deal.push("H")
    play_randomly(deal, seed)
    ns, ew = card_points_won(deal, Team.NS), card_points_won(deal, Team.EW)
    assert ns + ew == 120
    assert deal.card_points_taken[0] + deal.card_points_taken[2] == ns
    assert deal.result is not None
    assert deal.result.team_points == ((ns, ew) if ns >= 80 else (-80, ew))
    assert deal.result.made is (ns >= 80)


def test_card_point_bids() -> None:
    deal = Deal(find_rules("tarneeb400"), W, duel(S, E, 13))
    bids = [a - 64 for a in deal.legal_action_ids() if a >= 64]
    assert [b // 6 for b in bids] == [60, 70, 80, 90, 100, 110, 120]
    with pytest.raises(IllegalActionError, match="not a bid of these rules"):
        deal.push("65")
    with pytest.raises(IllegalActionError):
        deal.push("8")


# -- individual bidding (Syrian 400) -------------------------------------------------------


def test_syrian_bid_values() -> None:
    rules = find_rules("syrian400")
    under = {b: rules.bid_value(b, 29) for b in range(2, 14)}
    over = {b: rules.bid_value(b, 30) for b in range(2, 14)}
    assert under == {2: 2, 3: 3, 4: 4, 5: 10, 6: 12, 7: 14, 8: 16, 9: 27} | dict.fromkeys(
        range(10, 14), 40
    )
    assert over == under | {5: 5, 6: 6}


@pytest.mark.parametrize(
    ("bids", "tricks", "scores", "expected"),
    [
        ((5, 3, 2, 3), (5, 2, 3, 3), (0, 0, 35, 0), (10, -3, 2, 3)),
        ((5, 6, 2, 2), (5, 6, 1, 1), (29, 30, 0, 0), (10, 6, -2, -2)),
        ((5, 6, 2, 2), (4, 5, 2, 2), (29, 30, 0, 0), (-10, -6, 2, 2)),
        ((7, 8, 9, 10), (7, 8, 9, 10), (0, 30, 0, 30), (14, 16, 27, 40)),
        ((13, 2, 2, 2), (13, 0, 0, 0), (0, 0, 0, 0), (40, -2, -2, -2)),
        ((11, 12, 2, 3), (10, 3, 0, 0), (50, -5, 0, 0), (-40, -40, -2, -3)),
        ((6, 6, 6, 6), (7, 6, 0, 0), (30, 29, 30, 29), (6, 12, -6, -12)),
    ],
)
def test_score_individual(
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    scores: tuple[int, ...],
    expected: tuple[int, int, int, int],
) -> None:
    assert score_individual(find_rules("syrian400"), bids, tricks, scores) == expected


@pytest.mark.parametrize(
    ("bids", "k", "scores", "expected"),
    [
        (("5", "8", "2", "2"), 5, (0, 0, 0, 0), (10, 16, -2, -2)),
        (("5", "8", "2", "2"), 5, (29, 0, 0, 0), (10, 16, -2, -2)),
        (("5", "8", "2", "2"), 5, (30, 0, 0, 0), (5, 16, -2, -2)),
        (("6", "7", "2", "2"), 5, (0, 0, 0, 0), (-12, 14, -2, -2)),
        (("6", "7", "2", "2"), 5, (35, 0, 0, 0), (-6, 14, -2, -2)),
        (("9", "2", "2", "2"), 9, (0, 0, 0, 0), (27, 2, -2, -2)),
        (("13", "2", "2", "2"), 13, (0, 0, 0, 0), (40, -2, -2, -2)),
        (("4", "9", "2", "2"), 3, (40, 0, 0, 0), (-4, 27, -2, -2)),
    ],
)
def test_individual_deals_score_each_seat(
    bids: tuple[str, ...],
    k: int,
    scores: tuple[int, int, int, int],
    expected: tuple[int, int, int, int],
) -> None:
    rules = find_rules("syrian400")
    deals = play_out(rules, duel(S, E, k, Suit.HEARTS, Suit.CLUBS), W, bids, scores)
    for deal in deals:
        assert deal.bids == tuple(int(b) for b in bids)
        assert deal.tricks_taken == (k, 13 - k, 0, 0)
        assert deal.contract is None
        assert deal.result is not None
        assert deal.result.seat_points == expected
        assert deal.result.team_points == (expected[0] + expected[2], expected[1] + expected[3])
        assert deal.result.made is None


# -- set_winner -----------------------------------------------------------------------------


def test_set_winner_by_target() -> None:
    rules = find_rules("classic")
    plain = DealResult((0, 0))

    def winner(ns: int, ew: int) -> Team | None:
        return set_winner(rules, (ns, ew), (ns, ew, ns, ew), plain, Team.NS)

    assert winner(41, 30) is Team.NS
    assert winner(30, 41) is Team.EW
    assert winner(40, 40) is None
    assert winner(45, 43) is Team.NS
    assert winner(43, 45) is Team.EW
    assert winner(45, 45) is None  # a tie over the target plays another deal
    assert winner(-10, 40) is None


def test_set_winner_by_thirteen_tricks() -> None:
    levant = find_rules("levant-sets")
    ew13 = DealResult((0, 13), all_thirteen=Team.EW)
    assert set_winner(levant, (20, 5), (20, 5, 20, 5), ew13, Team.NS) is Team.EW
    assert set_winner(find_rules("classic"), (20, 5), (20, 5, 20, 5), ew13, Team.NS) is None
    below = levant.replace(no_win_below_zero=True)
    assert set_winner(below, (20, -5), (20, -5, 20, -5), ew13, Team.NS) is None
    assert set_winner(below, (20, 0), (20, 0, 20, 0), ew13, Team.NS) is Team.EW
    if_bid = find_rules("classic").replace(thirteen_wins="if-bid")
    ns13 = DealResult((13, 0), made=True, all_thirteen=Team.NS, declarers_bid_13=False)
    ns13_bid = DealResult((16, 0), made=True, all_thirteen=Team.NS, declarers_bid_13=True)
    assert set_winner(if_bid, (13, 0), (13, 0, 13, 0), ns13, Team.NS) is None
    assert set_winner(if_bid, (16, 0), (16, 0, 16, 0), ns13_bid, Team.NS) is Team.NS


def test_set_winner_individual() -> None:
    rules = find_rules("syrian400")
    assert set_winner(rules, (42, 0), (41, 0, 1, 0), None, None) is Team.NS
    assert set_winner(rules, (41, 0), (41, 0, 0, 0), None, None) is None
    assert set_winner(rules, (39, 0), (41, 0, -2, 0), None, None) is None
    assert set_winner(rules, (0, 45), (0, 3, 0, 42), None, None) is Team.EW
    zero_ok = rules.replace(partner_zero_ok=True)
    assert set_winner(zero_ok, (41, 0), (41, 0, 0, 0), None, None) is Team.NS
    assert set_winner(zero_ok, (39, 0), (41, 0, -2, 0), None, None) is None
