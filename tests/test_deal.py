"""The deal as a phase machine: auction, raise, trump, play, scored (tarneeb.deal)."""

from __future__ import annotations

import random

import pytest

from support import CRAFTED
from tarneeb import (
    PRESETS,
    Bid,
    Card,
    CardSet,
    ChooseTrump,
    Contract,
    Deal,
    Double,
    IllegalActionError,
    InvalidActionError,
    Pass,
    Phase,
    Raise,
    Redeal,
    Rules,
    Seat,
    Stand,
    Strain,
    Suit,
    TarneebError,
    Team,
    ThrowIn,
    find_rules,
    is_weak_hand,
    seeded_rng,
)
from tarneeb.actions import PASS, action_id
from tarneeb.record import format_deal, parse_deal
from tarneeb.rules import AllPass, Doubling
from tarneeb.scoring import score_contract

CLASSIC = find_rules("classic")
SEAT_NAMES = ("South", "East", "North", "West")


# CRAFTED (in support.py): West deals; 7 spades by South; its first two tricks show every rule
# of trick play (a ruff, an overruff, following suit, a discard).
def crafted_deal(rules: Rules = CLASSIC) -> Deal:
    return Deal(rules, Seat.WEST, CRAFTED)


def crafted_in_play() -> Deal:
    deal = crafted_deal()
    for action in ["7", "pass", "pass", "pass", "S"]:
        deal.push(action)
    return deal


def push_all(deal: Deal, actions: list[str]) -> None:
    for action in actions:
        deal.push(action)


# -- making deals ------------------------------------------------------------------------


def test_deal_from_hands_in_every_form() -> None:
    masks = [CardSet.parse(h).mask for h in CRAFTED]
    by_text = Deal(CLASSIC, Seat.WEST, CRAFTED)
    by_mask = Deal(CLASSIC, 3, masks)
    by_set = Deal(CLASSIC, Seat.WEST, [CardSet(m) for m in masks])
    assert by_text == by_mask == by_set
    assert by_text.dealt == tuple(masks)
    assert by_text.hands == tuple(CardSet(m) for m in masks)
    assert by_text.hand(Seat.NORTH) == CardSet.parse("-.AKQJT98.AKQJT9.-")
    assert by_text.scores == (0, 0, 0, 0)
    assert by_text.dealer is Seat.WEST
    assert Deal(CLASSIC, 3, masks, scores=(5, -3, 5, -3)).scores == (5, -3, 5, -3)
    assert Deal(CLASSIC, 3, masks, scores=(5, -3, 5, -3)) != by_text


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (CRAFTED[:3], "4 hands"),
        ((*CRAFTED, CRAFTED[0]), "4 hands"),
        (("AKQ.765432.32.3", *CRAFTED[1:]), "12 cards"),
        ((CRAFTED[1], *CRAFTED[1:]), "repeats"),
        (("AKQ.765432.32.32", "76542.-.8765.AKQ9", "-.AKQJT98.AKQJT9.-", "bad"), "not a card"),
        ((-1, 0, 0, 0), "not a hand"),
    ],
)
def test_deal_refuses_bad_hands(hands: tuple[object, ...], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        Deal(CLASSIC, Seat.WEST, hands)  # type: ignore[arg-type]


def test_deal_refuses_bad_scores() -> None:
    with pytest.raises(InvalidActionError, match="one number per seat"):
        Deal(CLASSIC, Seat.WEST, CRAFTED, scores=(0, 0))


def test_from_seed_is_reproducible_and_follows_the_dealing_pattern() -> None:
    one = Deal.from_seed(CLASSIC, Seat.NORTH, 17)
    two = Deal.from_seed(CLASSIC, Seat.NORTH, 17)
    assert one == two
    assert Deal.from_seed(CLASSIC, Seat.NORTH, 18) != one
    assert Deal.from_rng(CLASSIC, Seat.NORTH, seeded_rng(17)) == one
    other = Deal.from_seed(CLASSIC.replace(dealing="one-at-a-time"), Seat.NORTH, 17)
    assert other.dealt != one.dealt
    assert sorted(one.dealt) == sorted(one.dealt)  # sanity
    union = 0
    for mask in one.dealt:
        assert mask.bit_count() == 13
        union |= mask
    assert union == (1 << 52) - 1
    live = Deal.from_seed(CLASSIC, Seat.NORTH)
    assert [m.bit_count() for m in live.dealt] == [13] * 4


# -- the auction -------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", list(Seat))
def test_auction_starts_right_of_the_dealer(dealer: Seat) -> None:
    deal = Deal.from_seed(CLASSIC, dealer, 3)
    assert deal.phase is Phase.AUCTION
    assert deal.to_act is dealer.next
    assert deal.view(dealer.next).is_my_turn
    seen = []
    for _ in range(4):
        seen.append(deal.to_act)
        deal.push("pass")
    assert seen == [Seat((dealer + 1 + i) % 4) for i in range(4)]


def test_first_auction_offers_pass_and_every_bid() -> None:
    deal = crafted_deal()
    assert list(deal.legal_actions) == [Pass(), *(Bid(n) for n in range(7, 14))]
    assert deal.legal_action_ids() == (PASS, *(Bid(n).id for n in range(7, 14)))


def test_auction_bids_must_climb_and_passed_players_are_skipped() -> None:
    deal = crafted_deal()  # dealer West: South first
    deal.push("7")
    assert deal.to_act is Seat.EAST
    assert list(deal.legal_actions) == [Pass(), *(Bid(n) for n in range(8, 14))]
    deal.push("pass")
    assert deal.to_act is Seat.NORTH
    deal.push("8")
    deal.push("pass")
    assert deal.to_act is Seat.SOUTH
    deal.push("9")
    assert deal.to_act is Seat.NORTH  # East passed: skipped
    deal.push("10")
    assert deal.to_act is Seat.SOUTH  # West and East passed: skipped
    assert deal.phase is Phase.AUCTION
    deal.push("pass")
    assert deal.phase is Phase.TRUMP
    assert deal.to_act is Seat.NORTH
    assert deal.contract == Contract(Seat.NORTH, 10, None)
    assert deal.declarer is Seat.NORTH


def test_auction_ends_after_three_passes_following_a_bid() -> None:
    deal = crafted_deal()
    deal.push("7")
    deal.push("pass")
    deal.push("pass")
    assert deal.phase is Phase.AUCTION and deal.to_act is Seat.WEST
    deal.push("pass")
    assert deal.phase is Phase.TRUMP
    assert deal.to_act is Seat.SOUTH
    assert deal.contract == Contract(Seat.SOUTH, 7, None)
    assert deal.contract.team is Team.NS


def test_last_seat_bidding_after_three_passes_ends_the_auction() -> None:
    deal = crafted_deal()
    push_all(deal, ["pass", "pass", "pass", "9"])
    assert deal.phase is Phase.TRUMP
    assert deal.declarer is Seat.WEST
    assert deal.contract == Contract(Seat.WEST, 9, None)


def test_a_passed_player_cannot_come_back() -> None:
    deal = crafted_deal()
    push_all(deal, ["pass", "7", "8", "9", "10", "11"])  # S passes; E, N, W, E, N bid
    assert deal.to_act is Seat.WEST
    deal.push("pass")
    assert deal.to_act is Seat.EAST  # South passed: skipped
    assert [s for s, _ in deal.history] == [
        Seat.SOUTH,
        Seat.EAST,
        Seat.NORTH,
        Seat.WEST,
        Seat.EAST,
        Seat.NORTH,
        Seat.WEST,
    ]
    deal.push("pass")
    assert deal.phase is Phase.TRUMP
    assert deal.contract == Contract(Seat.NORTH, 11, None)


def test_all_four_pass_throws_the_deal_in() -> None:
    deal = crafted_deal()
    push_all(deal, ["pass", "pass", "pass"])
    assert deal.phase is Phase.AUCTION
    deal.push("pass")
    assert deal.phase is Phase.THROWN_IN
    assert deal.thrown_in == ThrowIn.ALL_PASS == "all-pass"
    assert deal.is_over()
    assert deal.to_act is None
    assert deal.result is None
    assert deal.contract is None
    assert list(deal.legal_actions) == []
    assert len(deal.legal_actions) == 0
    assert not deal.legal_actions


def test_bid_once_refuses_a_second_bid() -> None:
    deal = Deal(find_rules("lebanese31"), Seat.WEST, CRAFTED)
    push_all(deal, ["7", "8", "pass", "pass"])
    assert deal.to_act is Seat.SOUTH
    assert list(deal.legal_actions) == [Pass()]
    with pytest.raises(IllegalActionError, match="only once"):
        deal.push("9")
    classic = crafted_deal()
    push_all(classic, ["7", "8", "pass", "pass"])
    assert Bid(9) in classic.legal_actions


def test_dealer_must_bid_when_the_others_pass() -> None:
    rules = CLASSIC.replace(all_pass=AllPass.DEALER_BIDS)
    deal = Deal(rules, Seat.WEST, CRAFTED)
    push_all(deal, ["pass", "pass", "pass"])
    assert deal.to_act is Seat.WEST
    assert list(deal.legal_actions) == [Bid(7)]
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="dealer must bid") as info:
        deal.push("pass")
    assert "West" in str(info.value) and "auction phase" in str(info.value)
    assert deal == before
    deal.push("7")
    assert deal.phase is Phase.TRUMP and deal.declarer is Seat.WEST


def test_sol_no_trump_bids_outrank_the_same_number() -> None:
    deal = Deal(find_rules("sol"), Seat.WEST, CRAFTED)
    assert list(deal.legal_actions)[:3] == [Pass(), Bid(7), Bid(7, Strain.NO_TRUMP)]
    deal.push("7")
    assert deal.legal_actions[1] == Bid(7, Strain.NO_TRUMP)
    deal.push("7NT")
    assert Bid(7) not in deal.legal_actions
    assert deal.legal_actions[1] == Bid(8)
    push_all(deal, ["pass", "pass", "pass"])
    assert deal.phase is Phase.PLAY  # no-trump: no trump to name
    assert deal.trump is None
    assert deal.contract == Contract(Seat.EAST, 7, Strain.NO_TRUMP)
    assert deal.to_act is Seat.EAST


def test_egyptian_strain_bids_and_the_raise() -> None:
    """The app platforms' bridge ladder (``ladder='number-or-strain'``); the seed's is in
    tests/test_auction.py."""
    rules = find_rules("egyptian").replace(ladder="number-or-strain")
    deal = Deal(rules, Seat.WEST, CRAFTED)
    ladder = list(deal.legal_actions)
    assert ladder[:7] == [
        Pass(),
        Bid(7, Strain.CLUBS),
        Bid(7, Strain.DIAMONDS),
        Bid(7, Strain.HEARTS),
        Bid(7, Strain.SPADES),
        Bid(7, Strain.NO_TRUMP),
        Bid(8, Strain.CLUBS),
    ]
    deal.push("7H")
    assert deal.legal_actions[1] == Bid(7, Strain.SPADES)
    with pytest.raises(IllegalActionError, match="outrank 7H"):
        deal.push("7D")
    push_all(deal, ["pass", "pass", "pass"])
    assert deal.phase is Phase.RAISE
    assert deal.to_act is Seat.SOUTH
    assert list(deal.legal_actions) == [Raise(), Stand()]
    deal.push("raise")
    assert deal.phase is Phase.PLAY
    assert deal.trump is Suit.HEARTS
    assert deal.contract == Contract(Seat.SOUTH, 7, Strain.HEARTS, multiplier=2, raised=True)
    stand = Deal(rules, Seat.WEST, CRAFTED)
    push_all(stand, ["7H", "pass", "pass", "pass", "stand"])
    assert stand.contract == Contract(Seat.SOUTH, 7, Strain.HEARTS)


def test_egyptian_contested_auction_has_no_raise() -> None:
    deal = Deal(find_rules("egyptian"), Seat.WEST, CRAFTED)
    push_all(deal, ["7H", "8S", "pass", "pass", "pass"])
    assert deal.phase is Phase.PLAY
    assert deal.contract == Contract(Seat.EAST, 8, Strain.SPADES)


def test_double_instead_of_pass() -> None:
    rules = CLASSIC.replace(doubling=Doubling.DOUBLE)
    deal = Deal(rules, Seat.WEST, CRAFTED)
    assert Double() not in deal.legal_actions  # nothing to double
    deal.push("7")
    assert Double() in deal.legal_actions  # East is an opponent
    deal.push("pass")
    assert Double() not in deal.legal_actions  # North is South's partner
    deal.push("pass")
    deal.push("double")
    assert deal.phase is Phase.TRUMP
    assert deal.contract == Contract(Seat.SOUTH, 7, None, multiplier=2, doubled_by=Seat.WEST)


def test_weak_hand_may_claim_a_redeal_on_its_first_turn() -> None:
    weak = "K.Q2.J32.9876543"
    assert is_weak_hand(CardSet.parse(weak).mask)
    rest = CardSet(((1 << 52) - 1) & ~CardSet.parse(weak).mask)
    cards = list(rest)
    hands = [weak, CardSet(cards[0:13]), CardSet(cards[13:26]), CardSet(cards[26:39])]
    rules = CLASSIC.replace(weak_redeal=True)
    deal = Deal(rules, Seat.WEST, hands)
    assert Redeal() in deal.legal_actions
    assert Redeal() not in Deal(CLASSIC, Seat.WEST, hands).legal_actions
    deal.push("redeal")
    assert deal.phase is Phase.THROWN_IN
    assert deal.thrown_in == ThrowIn.WEAK_HAND
    assert deal.is_over() and deal.to_act is None
    deal.pop()
    # only on the seat's first turn
    push_all(deal, ["7", "8", "pass", "pass"])
    assert deal.to_act is Seat.SOUTH
    assert Redeal() not in deal.legal_actions
    assert Redeal() not in deal.legal_action_ids() and 56 not in deal.legal_actions
    with pytest.raises(IllegalActionError, match="South cannot choose redeal in the auction"):
        deal.push("redeal")


def test_trump_choice() -> None:
    deal = crafted_deal()
    push_all(deal, ["7", "pass", "pass", "pass"])
    assert deal.phase is Phase.TRUMP
    assert list(deal.legal_actions) == [ChooseTrump(s) for s in Suit]
    assert deal.trump is None
    deal.push(ChooseTrump(Suit.HEARTS))
    assert deal.phase is Phase.PLAY
    assert deal.trump is Suit.HEARTS
    assert deal.contract == Contract(Seat.SOUTH, 7, Strain.HEARTS)
    assert deal.to_act is Seat.SOUTH  # the declarer leads
    for text, suit in [("c", Suit.CLUBS), ("♦", Suit.DIAMONDS), ("spades", Suit.SPADES)]:
        other = crafted_deal()
        push_all(other, ["7", "pass", "pass", "pass", text])
        assert other.trump is suit


def test_syrian400_individual_bids_then_hearts_and_first_hand_leads() -> None:
    rules = find_rules("syrian400")
    deal = Deal(rules, Seat.WEST, CRAFTED)
    assert list(deal.legal_actions) == [Bid(n) for n in range(2, 14)]
    assert Pass() not in deal.legal_actions
    push_all(deal, ["4", "3", "2", "2"])
    assert deal.bids == (4, 3, 2, 2)
    assert deal.phase is Phase.PLAY
    assert deal.trump is Suit.HEARTS
    assert deal.to_act is Seat.SOUTH
    assert deal.contract is None
    low = Deal(rules, Seat.WEST, CRAFTED)
    push_all(low, ["2", "2", "2", "4"])
    assert low.phase is Phase.THROWN_IN
    assert low.thrown_in == ThrowIn.LOW_TOTAL


# -- trick play ----------------------------------------------------------------------------


def test_follow_suit_trumps_and_the_winner_leads() -> None:
    deal = crafted_in_play()
    assert deal.phase is Phase.PLAY and deal.to_act is Seat.SOUTH
    assert len(deal.legal_actions) == 13
    deal.push("2H")
    assert deal.to_act is Seat.EAST
    assert len(deal.legal_actions) == 13  # void in hearts: anything
    deal.push("2S")
    assert deal.to_act is Seat.NORTH
    assert set(deal.legal_actions) == set(CardSet.parse("-.AKQJT98.-.-"))
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="North must follow suit \\(hearts led\\)"):
        deal.push("AD")
    assert deal == before
    deal.push("AH")
    deal.push("3S")
    trick = deal.tricks[0]
    assert trick.leader is Seat.SOUTH
    assert [str(c) for c in trick.cards] == ["2H", "2S", "AH", "3S"]
    assert trick.winner is Seat.WEST  # the higher of two trumps, over the ace led
    assert trick.plays[2] == (Seat.NORTH, Card.parse("AH"))
    assert deal.to_act is Seat.WEST  # the winner leads
    assert deal.tricks_taken == (0, 0, 0, 1)
    deal.push("4C")
    assert set(deal.legal_actions) == {Card.parse("3C"), Card.parse("2C")}
    with pytest.raises(IllegalActionError, match="South must follow suit \\(clubs led\\)"):
        deal.push("3D")
    push_all(deal, ["2C", "9C", "AD"])
    assert deal.tricks[1].winner is Seat.EAST  # highest of the suit led; the AD is off-suit
    assert deal.to_act is Seat.EAST
    assert deal.tricks_taken == (0, 1, 0, 1)
    assert deal.team_tricks(Team.EW) == 2 and deal.team_tricks(Team.NS) == 0
    assert deal.current_trick is not None and deal.current_trick.cards == ()
    assert deal.current_trick.leader is Seat.EAST
    deal.push("AC")
    assert deal.current_trick.cards == (Card.parse("AC"),)
    assert deal.played == CardSet.parse("32.A2.A.A942")


def test_a_card_not_in_hand_is_refused() -> None:
    deal = crafted_in_play()
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="not in South's hand") as info:
        deal.push("AH")
    assert "play phase" in str(info.value)
    assert deal == before
    with pytest.raises(IllegalActionError, match="not in South's hand"):
        deal.push(Card.parse("AH").__int__())
    assert deal == before


def test_first_lead_must_be_a_trump_when_the_rules_say_so() -> None:
    rules = CLASSIC.replace(first_lead_trump=True)
    deal = Deal(rules, Seat.WEST, CRAFTED)
    push_all(deal, ["7", "pass", "pass", "pass", "S"])
    assert set(deal.legal_actions) == set(CardSet.parse("AKQ.-.-.-"))
    before = deal.copy()
    with pytest.raises(IllegalActionError, match="first lead must be a trump"):
        deal.push("2H")
    with pytest.raises(IllegalActionError, match="first lead must be a trump"):
        deal.push(int(Card.parse("2H")))
    assert deal == before
    deal.push("AS")
    # a leader without trumps may lead anything
    no_trumps = Deal(rules, Seat.WEST, CRAFTED)
    push_all(no_trumps, ["pass", "pass", "7", "pass", "S"])  # North, void in spades, declares
    assert len(no_trumps.legal_actions) == 13


def test_thirteen_tricks_then_scored() -> None:
    deal = crafted_in_play()
    count = 0
    while deal.phase is Phase.PLAY:
        assert len(deal.tricks) == count // 4
        deal.push(deal.legal_actions[0])
        count += 1
    assert count == 52
    assert deal.phase is Phase.SCORED
    assert deal.is_over() and deal.to_act is None
    assert len(deal.tricks) == 13
    assert sum(deal.tricks_taken) == 13
    assert deal.current_trick is None
    assert all(len(deal.hand(s)) == 0 for s in Seat)
    assert deal.played == CardSet((1 << 52) - 1)
    ns = deal.team_tricks(Team.NS)
    ew = deal.team_tricks(Team.EW)
    assert ns + ew == 13
    result = deal.result
    assert result is not None
    assert result.made is (ns >= 7)
    assert result.team_points == score_contract(CLASSIC, 7, ns, ew)
    assert sum(deal.card_points_taken) == 120


def test_every_seat_plays_in_turn_within_a_trick() -> None:
    deal = Deal.from_seed(CLASSIC, Seat.SOUTH, 21)
    push_all(deal, ["8", "pass", "pass", "pass", "D"])
    rng = random.Random(4)
    while not deal.is_over():
        deal.push(rng.choice(list(deal.legal_actions)))
    for number, trick in enumerate(deal.tricks):
        expected_leader = Seat.EAST if number == 0 else deal.tricks[number - 1].winner
        assert trick.leader is expected_leader
        assert [s for s, _ in trick.plays] == [Seat((trick.leader + i) % 4) for i in range(4)]


# -- the legal-actions view ----------------------------------------------------------------


def test_legal_actions_view_in_the_auction() -> None:
    deal = crafted_deal()
    deal.push("9")
    legal = deal.legal_actions
    assert len(legal) == 5
    assert bool(legal)
    assert list(legal) == [Pass(), Bid(10), Bid(11), Bid(12), Bid(13)]
    assert legal.ids() == (PASS, Bid(10).id, Bid(11).id, Bid(12).id, Bid(13).id)
    assert legal[0] == Pass()
    assert legal[-1] == Bid(13)
    assert legal[1:3] == [Bid(10), Bid(11)]
    # `in` with objects, ints and text
    assert Pass() in legal
    assert Bid(10) in legal
    assert Bid(9) not in legal
    assert Bid(7) not in legal
    assert PASS in legal
    assert Bid(12).id in legal
    assert Bid(9).id not in legal
    assert "pass" in legal
    assert "10" in legal
    assert "9" not in legal
    assert "nonsense" not in legal
    assert "AS" not in legal
    assert Card.parse("AS") not in legal
    assert Double() not in legal
    assert None not in legal
    assert 1.5 not in legal
    assert -5 not in legal
    assert "pass" in repr(legal) and "13" in repr(legal)
    with pytest.raises(IndexError):
        legal[5]


def test_legal_actions_view_in_play() -> None:
    deal = crafted_in_play()
    push_all(deal, ["2H", "2S"])
    legal = deal.legal_actions  # North must follow hearts
    assert len(legal) == 7
    # in action-id order, lowest card first (a card set iterates highest first)
    assert list(legal) == list(reversed(CardSet.parse("-.AKQJT98.-.-")))
    assert all(type(c) is Card for c in legal)
    assert legal[0] == Card.parse("8H")
    assert legal[-1] == Card.parse("AH")
    assert legal[1:3] == [Card.parse("9H"), Card.parse("TH")]
    assert Card.parse("KH") in legal
    assert int(Card.parse("KH")) in legal
    assert "kh" in legal
    assert "10H" in legal
    assert "AD" not in legal
    assert Card.parse("AD") not in legal
    assert Card.parse("AS") not in legal  # not North's card
    assert Pass() not in legal
    assert "pass" not in legal
    assert 52 not in legal
    assert legal.ids() == tuple(sorted(int(c) for c in CardSet.parse("-.AKQJT98.-.-")))


def test_legal_actions_view_is_live() -> None:
    deal = crafted_deal()
    legal = deal.legal_actions
    assert len(legal) == 8
    deal.push("12")
    assert len(legal) == 2  # the view follows the deal
    assert list(legal) == [Pass(), Bid(13)]


# -- bad input -----------------------------------------------------------------------------

ILLEGAL_BY_PHASE: dict[Phase, list[object]] = {
    Phase.AUCTION: ["6", "14", Bid(6), Raise(), "raise", "stand", ChooseTrump(Suit.HEARTS), 0],
    Phase.TRUMP: ["pass", Pass(), Bid(8), "raise", 0, Card.parse("AS")],
    Phase.PLAY: [Pass(), Bid(7), ChooseTrump(Suit.SPADES), 52, 117],
}
MALFORMED: list[object] = ["", "zz", "7X", "bid seven", -1, 61, 10_000, object(), 3.5, None]


def assert_refused(deal: Deal, action: object, kind: type[Exception]) -> str:
    before = deal.copy()
    history = deal.action_ids
    with pytest.raises(kind) as info:
        deal.push(action)  # type: ignore[arg-type]
    assert deal == before
    assert deal.action_ids == history
    return str(info.value)


def test_illegal_and_malformed_actions_at_every_step() -> None:
    rng = random.Random(8)
    for seed in range(6):
        deal = Deal.from_seed(CLASSIC, seed % 4, seed)
        push_all(deal, ["7", "8", "pass", "pass", "pass"])
        while not deal.is_over():
            seat_name = SEAT_NAMES[deal.to_act]
            phase = deal.phase
            illegal = list(ILLEGAL_BY_PHASE.get(phase, []))
            if phase is Phase.PLAY:
                # every card the seat to act may not play now
                legal_mask = deal.legal_card_mask()
                illegal += [c for c in range(52) if not legal_mask >> c & 1]
                illegal += [Card(c) for c in range(52) if not legal_mask >> c & 1][:3]
            for action in illegal:
                message = assert_refused(deal, action, IllegalActionError)
                assert seat_name in message, message
                assert f"{phase} phase" in message, message
            for action in MALFORMED:
                message = assert_refused(deal, action, InvalidActionError)
                if isinstance(action, (str, int)):
                    assert seat_name in message and f"{phase} phase" in message, message
            deal.push(rng.choice(list(deal.legal_actions)))


def test_illegal_messages_name_seat_and_phase_in_the_auction() -> None:
    deal = crafted_deal()
    deal.push("9")
    message = assert_refused(deal, "8", IllegalActionError)
    assert message == "East cannot bid 8 in the auction phase: it must outrank 9"
    message = assert_refused(deal, "eight", InvalidActionError)
    assert "'eight'" in message and "East" in message and "auction phase" in message
    message = assert_refused(deal, "raise", IllegalActionError)
    assert message.startswith("East cannot choose raise in the auction phase")


def test_actions_after_the_deal_is_over_are_refused() -> None:
    thrown = crafted_deal()
    push_all(thrown, ["pass"] * 4)
    scored = crafted_in_play()
    scored.playout(seeded_rng(2))
    assert scored.phase is Phase.SCORED
    for deal in (thrown, scored):
        for action in ["pass", Pass(), Bid(7), 0, 51, Card.parse("AS"), PASS]:
            message = assert_refused(deal, action, IllegalActionError)
            assert "no action is possible" in message
            assert str(deal.phase) in message
        for action in ["AS", "7", "zz"]:
            assert_refused(deal, action, TarneebError)


def test_rules_bids_outside_the_ladder_are_illegal_not_invalid() -> None:
    deal = crafted_deal()
    for action in ["6", "14", "2", Bid(20), Bid(7, Strain.HEARTS)]:
        message = assert_refused(deal, action, IllegalActionError)
        assert "South" in message and "auction phase" in message
    with pytest.raises(InvalidActionError):
        Bid(0)
    with pytest.raises(InvalidActionError):
        Bid(121)


# -- push and pop --------------------------------------------------------------------------


def walk(deal: Deal, rng: random.Random) -> list[tuple[Deal, object]]:
    """Play to the end with ``push``, returning (state before, action) for every step."""
    steps: list[tuple[Deal, object]] = []
    while not deal.is_over():
        choices = list(deal.legal_actions)
        if deal.phase is Phase.AUCTION and Pass() in choices and rng.random() < 0.6:
            action: object = Pass()
        else:
            action = rng.choice(choices)
        steps.append((deal.copy(), action))
        deal.push(action)  # type: ignore[arg-type]
    return steps


@pytest.mark.parametrize("name", list(PRESETS))
def test_pop_undoes_every_step_exactly(name: str) -> None:
    rules = PRESETS[name]
    for seed in range(4):
        deal = Deal.from_seed(rules, seed % 4, seed, scores=(seed, 2 * seed, seed, 2 * seed))
        start = deal.copy()
        steps = walk(deal, random.Random(seed))
        end = deal.copy()
        for before, action in reversed(steps):
            popped = deal.pop()
            assert popped == action
            assert action_id(popped) == action_id(action)  # type: ignore[arg-type]
            assert deal == before
            assert deal.phase is before.phase
            assert deal.to_act == before.to_act
            assert deal.legal_action_ids() == before.legal_action_ids()
            assert deal.tricks == before.tricks
            assert deal.result == before.result
        assert deal == start
        with pytest.raises(IndexError):
            deal.pop()
        for _, action in steps:
            deal.push(action)  # type: ignore[arg-type]
        assert deal == end


def test_pop_after_playout_and_unchecked_pushes() -> None:
    deal = crafted_in_play()
    start = deal.copy()
    deal.playout(seeded_rng(5))
    assert deal.phase is Phase.SCORED
    for _ in range(52):
        deal.pop()
    assert deal == start
    deal.push_unchecked(int(Card.parse("2H")))
    deal.pop()
    assert deal == start


def test_pop_returns_friendly_objects() -> None:
    deal = crafted_deal()
    push_all(deal, ["7", "pass", "pass", "pass", "S", "2H"])
    assert deal.pop() == Card.parse("2H")
    assert deal.pop() == ChooseTrump(Suit.SPADES)
    assert deal.pop() == Pass()
    assert deal.phase is Phase.AUCTION and deal.to_act is Seat.WEST
    deal.pop()
    deal.pop()
    assert deal.pop() == Bid(7)
    assert deal == crafted_deal()


# -- copies ----------------------------------------------------------------------------


def test_copy_is_independent() -> None:
    deal = crafted_in_play()
    deal.push("2H")
    copy = deal.copy()
    assert copy == deal and copy is not deal
    copy.push("2S")
    assert copy != deal
    assert deal.to_act is Seat.EAST
    assert len(deal.played) == 1 and len(copy.played) == 2
    assert Card.parse("2S") in deal.hand(Seat.EAST)
    deal.push("4S")
    assert Card.parse("4S") not in deal.hand(Seat.EAST)
    assert Card.parse("4S") in copy.hand(Seat.EAST)
    assert copy.action_ids[-1] == int(Card.parse("2S"))
    assert deal.action_ids[-1] == int(Card.parse("4S"))
    # popping one leaves the other alone
    copy.pop()
    copy.pop()
    assert deal.action_ids[-2:] == (int(Card.parse("2H")), int(Card.parse("4S")))
    import copy as copy_module

    again = copy_module.copy(deal)
    assert again == deal
    again.pop()
    assert again != deal


def test_a_copy_is_equal_and_independent() -> None:
    deal = crafted_in_play()
    deal.push("2H")
    light = deal.copy()
    assert light == deal
    light.push("2S")
    assert light != deal
    assert deal.to_act is Seat.EAST


def test_deals_are_unhashable_and_compare_only_to_deals() -> None:
    deal = crafted_deal()
    with pytest.raises(TypeError):
        hash(deal)
    assert deal != "deal"
    assert repr(deal) == f"parse_deal({format_deal(deal)!r})"


def test_history_names_each_seat_and_action() -> None:
    deal = crafted_deal()
    push_all(deal, ["7", "pass", "pass", "pass", "S", "2H"])
    assert deal.history == (
        (Seat.SOUTH, Bid(7)),
        (Seat.EAST, Pass()),
        (Seat.NORTH, Pass()),
        (Seat.WEST, Pass()),
        (Seat.SOUTH, ChooseTrump(Suit.SPADES)),
        (Seat.SOUTH, Card.parse("2H")),
    )
    assert deal.action_ids == (Bid(7).id, PASS, PASS, PASS, 60, int(Card.parse("2H")))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_repr_pastes_back_to_an_equal_deal(name: str) -> None:
    """repr(deal) is a parse_deal call: evaluated, it gives an equal deal, at any point."""
    rng = random.Random(name)
    deal = Deal.from_seed(find_rules(name), rng.randrange(4), seed=name, scores=(3, -2, 3, -2))
    states = 0
    while True:
        assert eval(repr(deal), {"parse_deal": parse_deal}) == deal
        states += 1
        if deal.is_over() or states > 30:
            break
        deal.push(rng.choice(deal.legal_action_ids()))
    assert repr(deal).startswith("parse_deal('tarneeb-deal/1 rules=")
