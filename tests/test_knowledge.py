"""What a seat can infer from its view (tarneeb.bots.knowledge): card counting and voids."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from tarneeb import PRESETS, Card, CardSet, Deal, Phase, Rules, Seat, Suit, find_rules
from tarneeb.bots import Knowledge
from tarneeb.cards import SUIT_MASKS

S, E, N, W = Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST
CLASSIC = find_rules("classic")

# North bids first (East deals), bids 7 and names spades; North leads, then West, South, East.
HANDS = ("762.K92.A83.Q953", "543.AT873.JT976.-", "AKQJ.QJ4.KQ42.A4", "T98.65.5.KJT8762")
AUCTION = ("7", "pass", "pass", "pass", "S")
# East shows out of clubs; then West's king falls and East ruffs.
TRICK_1 = ("AC", "2C", "5C", "6D")
TRICK_2 = ("4C", "KC", "3C", "3S")

# The one-suit hands of the module docstring: South spades, East hearts, North
# diamonds, West clubs. South bids first (West deals).
ONE_SUIT = ("AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432")


def position(
    actions: Sequence[str], hands: Sequence[str] = HANDS, dealer: Seat = E, rules: Rules = CLASSIC
) -> Deal:
    deal = Deal(rules, dealer, list(hands))
    for action in actions:
        deal.push(action)
    return deal


def know(deal: Deal, seat: Seat) -> Knowledge:
    return Knowledge.of(deal.view(seat))


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def test_before_any_card_everything_unseen_may_be_anywhere() -> None:
    deal = position(["7"])
    k = know(deal, S)
    assert k.seat == S
    assert k.hand == deal.hand(S).mask
    assert k.played == 0
    assert k.voids == (frozenset(), frozenset(), frozenset(), frozenset())
    assert k.trump is None
    assert k.trumps_out() == 0
    unseen = deal.hand(E) | deal.hand(N) | deal.hand(W)
    assert k.unseen == unseen.mask
    assert k.possible(S) == deal.hand(S)
    for seat in (E, N, W):
        assert k.possible(seat) == unseen
        assert all(k.can_hold(seat, suit) for suit in Suit)
    assert CardSet(k.out_in_suit(Suit.CLUBS)) == cards("AC KC JC TC 8C 7C 6C 4C 2C")
    assert not any(k.opponents_may_ruff(suit) for suit in Suit)


def test_masters_are_the_cards_no_outstanding_card_beats() -> None:
    deal = position(AUCTION)
    k = know(deal, S)
    assert k.trump is Suit.SPADES
    assert k.masters() == cards("AD")
    assert k.is_master(Card("AD"))
    assert not k.is_master(Card("KH"))  # the ace of hearts is out
    assert not k.is_master(Card("QC"))
    assert k.is_master(Card("AS"))  # nothing above the ace, wherever it is
    assert k.highest_out_above(Card("KH")) == Card("AH")
    assert k.highest_out_above(Card("8D")) == Card("KD")
    assert k.highest_out_above(Card("AD")) is None
    assert know(deal, N).masters() == cards("AS KS QS JS AC")


def test_is_master_after_the_high_cards_are_played() -> None:
    deal = position([*AUCTION, *TRICK_1])
    k = know(deal, S)
    assert k.highest_out_above(Card("QC")) == Card("KC")
    assert not k.is_master(Card("QC"))
    deal = position([*AUCTION, *TRICK_1, *TRICK_2])
    k = know(deal, S)
    assert k.played == cards("AC 2C 5C 6D 4C KC 3C 3S").mask
    assert k.is_master(Card("QC"))
    assert k.highest_out_above(Card("QC")) is None
    assert k.masters() == cards("AD QC")
    # West saw the same cards: its jack of clubs is below South's queen.
    assert not know(deal, W).is_master(Card("JC"))


def test_trumps_out_counts_the_trumps_the_others_hold() -> None:
    deal = position(AUCTION)
    assert know(deal, S).trumps_out() == 10
    assert know(deal, N).trumps_out() == 9
    deal = position([*AUCTION, *TRICK_1, *TRICK_2])  # East ruffed with the 3
    assert know(deal, S).trumps_out() == 9
    assert know(deal, N).trumps_out() == 8
    assert know(deal, E).trumps_out() == 10


def test_a_seat_that_fails_to_follow_is_void() -> None:
    deal = position([*AUCTION, *TRICK_1])
    for seat in Seat:
        k = know(deal, seat)
        assert k.voids == (frozenset(), frozenset({Suit.CLUBS}), frozenset(), frozenset())
    k = know(deal, S)
    unseen = CardSet(k.unseen)
    assert len(unseen) == 36
    assert k.possible(E) == unseen - unseen.suit(Suit.CLUBS)
    assert len(k.possible(E)) == 29
    assert deal.hand(E) <= k.possible(E)
    assert not k.can_hold(E, Suit.CLUBS)
    assert k.can_hold(E, Suit.SPADES)
    assert k.possible(W) == unseen
    assert CardSet(k.out_in_suit(Suit.CLUBS)) == cards("KC JC TC 8C 7C 6C 4C")
    # The view reads the same voids.
    assert deal.view(S).voids(E) == {Suit.CLUBS}
    assert deal.view(S).possible_holdings(E) == k.possible(E)


def test_a_void_shown_in_the_trick_under_way_counts_at_once() -> None:
    # Hearts trump; South leads the ace of spades and East ruffs: North sees it.
    deal = position(["7", "pass", "pass", "pass", "H", "AS"], ONE_SUIT, W)
    assert know(deal, N).voids == (frozenset(),) * 4
    deal.push("AH")
    assert know(deal, N).voids[E] == {Suit.SPADES}
    assert Card("KS") not in know(deal, N).possible(E)
    assert Card("KS") in know(deal, N).possible(W)


def test_opponents_may_ruff_only_a_suit_they_are_out_of_with_trumps_left() -> None:
    deal = position([*AUCTION, *TRICK_1])
    # East (void in clubs, holding spades as far as anyone knows) is South's and
    # North's opponent, West's partner.
    assert know(deal, S).opponents_may_ruff(Suit.CLUBS)
    assert know(deal, N).opponents_may_ruff(Suit.CLUBS)
    assert not know(deal, W).opponents_may_ruff(Suit.CLUBS)
    assert not know(deal, S).opponents_may_ruff(Suit.DIAMONDS)
    assert not know(deal, S).opponents_may_ruff(Suit.SPADES)  # the trump suit itself


def test_an_opponent_out_of_trumps_cannot_ruff() -> None:
    # Hearts trump. South leads spades: East ruffs, North and West show out.
    deal = position(["7", "pass", "pass", "pass", "H", "AS", "AH", "2D", "2C"], ONE_SUIT, W)
    assert know(deal, S).voids == (
        frozenset(),
        frozenset({Suit.SPADES}),
        frozenset({Suit.SPADES}),
        frozenset({Suit.SPADES}),
    )
    # South, North and West each have an opponent out of spades who may hold hearts;
    # East holds every heart left, so neither of its opponents can ruff.
    assert all(know(deal, seat).opponents_may_ruff(Suit.SPADES) for seat in (S, N, W))
    assert not know(deal, E).opponents_may_ruff(Suit.SPADES)
    # East leads a trump and everyone else shows out of hearts.
    for action in ["KH", "3D", "3C", "2S"]:
        deal.push(action)
    k = know(deal, E)
    assert k.trumps_out() == 0
    assert not any(k.can_hold(seat, Suit.HEARTS) for seat in (S, N, W))
    assert k.voids[N] == {Suit.SPADES, Suit.HEARTS}
    # North is out of spades but has no trump to ruff with; South still has spades.
    assert not k.opponents_may_ruff(Suit.SPADES)
    assert not know(deal, W).opponents_may_ruff(Suit.SPADES)
    # East, with eleven trumps, may ruff spades against South and North.
    assert know(deal, S).trumps_out() == 11
    assert know(deal, S).opponents_may_ruff(Suit.SPADES)
    assert know(deal, N).opponents_may_ruff(Suit.SPADES)


def test_beats_follows_suit_and_trump() -> None:
    k = know(position(AUCTION), S)
    assert k.beats(Card("KH"), Card("QH"))
    assert not k.beats(Card("QH"), Card("KH"))
    assert k.beats(Card("2S"), Card("AH"))  # a trump beats a side card
    assert not k.beats(Card("AD"), Card("3H"))  # a side card off the suit never wins
    assert not k.beats(Card("2S"), Card("3S"))


def test_no_trump_has_no_trumps_out_and_no_ruffs() -> None:
    rules = find_rules("sol")
    deal = position(["7NT", "pass", "pass", "pass", *TRICK_1], rules=rules)
    assert deal.phase is Phase.PLAY and deal.trump is None
    k = know(deal, S)
    assert k.trump is None
    assert k.trumps_out() == 0
    assert not any(k.opponents_may_ruff(suit) for suit in Suit)
    assert not k.beats(Card("2S"), Card("AH"))
    assert k.voids[E] == {Suit.CLUBS}


@settings(max_examples=30)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 70),
)
def test_inferences_are_sound_at_every_point(preset: str, seed: int, steps: int) -> None:
    """Whatever was played, each seat's inferences hold of the real hands."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    deal = Deal.from_seed(rules, seed % 4, seed)
    for _ in range(steps):
        if deal.is_over():
            break
        ids = deal.legal_action_ids()
        deal.push(ids[rng.randrange(len(ids))])
    for seat in Seat:
        view = deal.view(seat)
        k = Knowledge.of(view)
        assert k.possible(seat) == deal.hand(seat)
        others = 0
        for other in Seat:
            if other == seat:
                continue
            hand = deal.hand(other)
            others |= hand.mask
            assert hand <= k.possible(other)
            assert k.possible(other) == view.possible_holdings(other)
            assert k.voids[other] == view.voids(other)
            for suit in k.voids[other]:
                assert not hand.suit(suit)
        assert k.unseen == others
        if deal.trump is not None:
            assert k.trumps_out() == (others & SUIT_MASKS[deal.trump]).bit_count()
        for card in CardSet(k.hand):
            above = SUIT_MASKS[card.suit] & ~((2 << card) - 1)
            assert k.is_master(card) == (not others & above)
        assert all(not others & SUIT_MASKS[c.suit] & ~((2 << c) - 1) for c in k.masters())


def test_a_sure_winner_is_a_master_no_opponent_out_of_its_suit_can_ruff() -> None:
    hand = CardSet.parse(".A..").mask | CardSet.parse("A...").mask
    no_voids: frozenset[Suit] = frozenset()
    hearts_out = (no_voids, frozenset({Suit.HEARTS}), no_voids, no_voids)
    both_out = (no_voids, frozenset({Suit.HEARTS, Suit.SPADES}), no_voids, no_voids)
    partner_out = (no_voids, no_voids, frozenset({Suit.HEARTS}), no_voids)
    ace_h, ace_s = Card.parse("AH"), Card.parse("AS")

    def seen(voids: tuple[frozenset[Suit], ...], trump: Suit | None) -> Knowledge:
        return Knowledge(S, hand, 0, voids, trump)  # type: ignore[arg-type]

    assert seen(hearts_out, Suit.SPADES).is_master(ace_h)
    assert not seen(hearts_out, Suit.SPADES).is_sure_winner(ace_h)  # East may ruff
    assert seen(both_out, Suit.SPADES).is_sure_winner(ace_h)  # East has no trump left
    assert seen(partner_out, Suit.SPADES).is_sure_winner(ace_h)  # partner's ruff is ours
    assert seen(hearts_out, None).is_sure_winner(ace_h)  # no trump: nobody ruffs
    assert seen(hearts_out, Suit.SPADES).is_sure_winner(ace_s)  # the master trump
    assert not seen((no_voids,) * 4, Suit.SPADES).is_sure_winner(Card.parse("KD"))  # not a master
