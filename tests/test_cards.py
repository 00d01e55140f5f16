"""Cards, ranks, suits, card sets, the deck, shuffling and dealing (tarneeb.cards)."""

from __future__ import annotations

import random

import pytest

import tarneeb
from tarneeb import (
    DECK,
    Card,
    CardSet,
    Dealing,
    InvalidActionError,
    Rank,
    Suit,
    deal_hands,
    live_rng,
    new_deck,
    seeded_rng,
    shuffled_deck,
)
from tarneeb.cards import FULL_MASK, SUIT_MASKS

EVAL_NAMES = {name: getattr(tarneeb, name) for name in tarneeb.__all__}


def roundtrip(value: object) -> object:
    """``eval(repr(value))`` in a namespace holding the package's public names."""
    return eval(repr(value), dict(EVAL_NAMES))


# -- suits and ranks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("C", Suit.CLUBS),
        ("d", Suit.DIAMONDS),
        ("H", Suit.HEARTS),
        ("s", Suit.SPADES),
        ("♣", Suit.CLUBS),
        ("♦", Suit.DIAMONDS),
        ("♥", Suit.HEARTS),
        ("♠", Suit.SPADES),
        ("♧", Suit.CLUBS),
        ("♢", Suit.DIAMONDS),
        ("♡", Suit.HEARTS),
        ("♤", Suit.SPADES),
        ("hearts", Suit.HEARTS),
        ("Heart", Suit.HEARTS),
        (" SPADES ", Suit.SPADES),
        ("club", Suit.CLUBS),
    ],
)
def test_suit_parse(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "CD", "trumps", "1", "♛"])
def test_suit_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidActionError, match="is not a suit"):
        Suit.parse(text)


def test_suit_numbers_letters_symbols_masks() -> None:
    assert [int(s) for s in Suit] == [0, 1, 2, 3]
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    assert Suit.HEARTS.mask == 0x1FFF << 26
    assert sum(s.mask for s in Suit) == FULL_MASK
    assert tuple(s.mask for s in Suit) == SUIT_MASKS
    for suit in Suit:
        assert roundtrip(suit) is suit


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("2", Rank.TWO),
        ("9", Rank.NINE),
        ("T", Rank.TEN),
        ("t", Rank.TEN),
        ("10", Rank.TEN),
        ("j", Rank.JACK),
        ("Q", Rank.QUEEN),
        ("K", Rank.KING),
        ("a", Rank.ACE),
        (" A ", Rank.ACE),
    ],
)
def test_rank_parse(text: str, rank: Rank) -> None:
    assert Rank.parse(text) is rank


@pytest.mark.parametrize("text", ["", "1", "0", "11", "B", "AK", "X"])
def test_rank_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidActionError, match="is not a rank"):
        Rank.parse(text)


def test_rank_order_chars_and_card_points() -> None:
    assert [r.char for r in Rank] == list("23456789TJQKA")
    assert Rank.TWO == 0 and Rank.ACE == 12
    assert sorted(Rank) == list(Rank)
    assert [r.card_points for r in Rank] == [0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11]
    assert sum(r.card_points for r in Rank) * 4 == 120
    for rank in Rank:
        assert roundtrip(rank) is rank
        assert str(rank) == rank.char


# -- cards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("2C", 0),
        ("AC", 12),
        ("2D", 13),
        ("QD", 23),
        ("TH", 34),
        ("10H", 34),
        ("10h", 34),
        ("th", 34),
        ("as", 51),
        ("AS", 51),
        (" AS ", 51),
        ("A♠", 51),
        ("a♠", 51),
        ("A♤", 51),
        ("Q♦", 23),
        ("10♥", 34),
        ("T♡", 34),
        ("2♣", 0),
        ("2♧", 0),
        ("K♢", 24),
    ],
)
def test_card_parse(text: str, number: int) -> None:
    card = Card.parse(text)
    assert card == number
    assert isinstance(card, Card)
    assert Card(text) == number
    assert Card(text) is card  # cards are interned


@pytest.mark.parametrize(
    "text",
    ["", "A", "S", "10", "1H", "0S", "11H", "AX", "ASS", "♠A", "SA", "A♠♠", "TT", "ZZ", "2 C D"],
)
def test_card_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidActionError, match="is not a card"):
        Card.parse(text)
    with pytest.raises(InvalidActionError):
        Card(text)


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_number_out_of_range(number: int) -> None:
    with pytest.raises(InvalidActionError, match=r"is not 0\.\.51"):
        Card(number)


def test_card_of_suit_rank_and_int() -> None:
    for number in range(52):
        card = Card(number)
        assert int(card) == number
        assert card.suit == number // 13
        assert card.rank == number % 13
        assert Card.of(card.rank, card.suit) is card
        assert card.mask == 1 << number
        assert card.card_points == card.rank.card_points
    assert Card.of(Rank.QUEEN, Suit.DIAMONDS) == 23
    assert Card.parse("KS").suit is Suit.SPADES
    assert Card.parse("KS").rank is Rank.KING


def test_card_formatting() -> None:
    ten = Card.parse("10S")
    assert str(ten) == "TS"
    assert ten.format() == "TS"
    assert ten.format(unicode=True) == "T♠"
    assert format(ten) == "TS"
    assert format(ten, "a") == "TS"
    assert format(ten, "u") == "T♠"
    assert format(ten, "d") == str(3 * 13 + 8)
    assert f"{Card.parse('2c'):u}" == "2♣"
    assert f"{Card.parse('QD'):u}" == "Q♦"
    assert f"{Card.parse('JH'):u}" == "J♥"
    assert repr(ten) == "Card('TS')"
    with pytest.raises(ValueError, match="unknown format"):
        format(ten, "x")


def test_card_text_round_trips_for_every_card() -> None:
    for card in DECK:
        assert Card.parse(card.format()) is card
        assert Card.parse(card.format(unicode=True)) is card
        assert Card.parse(card.format().lower()) is card
        assert roundtrip(card) == card
        assert type(roundtrip(card)) is Card


def test_card_pickles_to_itself() -> None:
    import pickle

    for card in (Card(0), Card(51), Card.parse("TH")):
        assert pickle.loads(pickle.dumps(card)) is card


# -- card sets ---------------------------------------------------------------------------


def test_cardset_parse_by_suit_and_by_cards() -> None:
    by_suit = CardSet.parse("AKQ.JT9.8.765")
    by_cards = CardSet.parse("AS KS QS JH TH 9H 8D 7C 6C 5C")
    assert by_suit == by_cards
    assert len(by_suit) == 10
    assert CardSet.parse("AS,KS, QS JH 10H 9H 8D 7C 6C 5C") == by_suit
    assert CardSet.parse("AK10.-.-.2") == CardSet.parse("AS KS TS 2C")
    assert CardSet.parse("ak.-.-.-") == CardSet.parse("AS KS")
    assert CardSet.parse("") == CardSet() == CardSet.parse("-") == CardSet.parse("...")
    assert CardSet(["AS", 0, Card.parse("KD")]) == CardSet.parse("A..K.2")
    assert CardSet(Card.parse("AS").mask | 1) == CardSet.parse("AS 2C")


@pytest.mark.parametrize(
    "text",
    ["AKQ.JT9.8", "AKQ.JT9.8.7.6", "AX.-.-.-", "AS AS", "AA.-.-.-", "AS ZZ", "1.-.-.-"],
)
def test_cardset_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidActionError):
        CardSet.parse(text)


@pytest.mark.parametrize("bad", [-1, 1 << 52, [52], ["XX"]])
def test_cardset_constructor_rejects(bad: object) -> None:
    with pytest.raises(InvalidActionError):
        CardSet(bad)  # type: ignore[arg-type]


def test_cardset_formatting() -> None:
    hand = CardSet.parse("AKQ.JT9.8.765")
    assert hand.format() == "AKQ.JT9.8.765"
    assert str(hand) == "AKQ.JT9.8.765"
    assert format(hand) == "AKQ.JT9.8.765"
    assert hand.format(unicode=True) == "♠AKQ ♥JT9 ♦8 ♣765"
    assert format(hand, "u") == "♠AKQ ♥JT9 ♦8 ♣765"
    assert format(CardSet.parse("AS KS 2C"), "u") == "♠AK ♥- ♦- ♣2"
    assert CardSet().format() == "..."
    assert CardSet().format(unicode=True) == "♠- ♥- ♦- ♣-"
    assert repr(hand) == "CardSet.parse('AKQ.JT9.8.765')"
    with pytest.raises(ValueError, match="unknown format"):
        format(hand, "d")


def test_cardset_unicode_text_reads_back() -> None:
    hand = CardSet.parse("AKQ.JT9.8.765")
    cards = hand.format(unicode=True)
    # The suit-grouped unicode form is for output; card by card, unicode reads back.
    assert CardSet.parse(" ".join(c.format(unicode=True) for c in hand)) == hand
    assert "♠AKQ" in cards


@pytest.mark.parametrize(
    "hand",
    [
        CardSet(),
        CardSet(FULL_MASK),
        CardSet.parse("AKQ.JT9.8.765"),
        CardSet.parse("...2"),
        CardSet.parse("A..."),
        CardSet.parse("T9.T9.T9.T9"),
    ],
)
def test_cardset_repr_round_trip(hand: CardSet) -> None:
    again = roundtrip(hand)
    assert isinstance(again, CardSet)
    assert again == hand
    assert again.mask == hand.mask


def test_cardset_repr_round_trip_random() -> None:
    rng = random.Random(11)
    for _ in range(200):
        hand = CardSet(rng.getrandbits(52))
        assert roundtrip(hand) == hand
        assert CardSet.parse(hand.format()) == hand
        assert CardSet.parse(" ".join(map(str, hand))) == hand


def test_cardset_iteration_order() -> None:
    hand = CardSet.parse("AS 2C KD TH 3S AC")
    assert [str(c) for c in hand] == ["AS", "3S", "TH", "KD", "AC", "2C"]
    assert [str(c) for c in reversed(hand)] == ["2C", "AC", "KD", "TH", "3S", "AS"]
    assert all(type(c) is Card for c in hand)
    full = CardSet(FULL_MASK)
    assert list(full) == list(range(51, -1, -1))
    assert list(reversed(full)) == list(range(52))
    assert list(CardSet()) == []


def test_cardset_membership_len_bool_hash() -> None:
    hand = CardSet.parse("AS KS 2C")
    assert Card.parse("KS") in hand
    assert 51 in hand
    assert "2c" in hand
    assert "10h" not in hand
    assert "garbage" not in hand
    assert 52 not in hand
    assert -1 not in hand
    assert None not in hand
    assert 2.0 not in hand
    assert len(hand) == 3
    assert bool(hand) and not bool(CardSet())
    assert hash(hand) == hash(CardSet.parse("2C KS AS"))
    assert {hand, CardSet.parse("AK.-.-.2")} == {hand}
    assert hand != hand.mask  # a card set is not its mask
    assert hand != "AS KS 2C"


def test_cardset_set_operations() -> None:
    a = CardSet.parse("AS KS QS 2C")
    b = CardSet.parse("QS 2C 3D")
    assert a | b == CardSet.parse("AS KS QS 2C 3D")
    assert a & b == CardSet.parse("QS 2C")
    assert a - b == CardSet.parse("AS KS")
    assert b - a == CardSet.parse("3D")
    assert a ^ b == CardSet.parse("AS KS 3D")
    assert CardSet.parse("AS KS") <= a
    assert CardSet.parse("AS KS") < a
    assert a <= a and not a < a
    assert a >= CardSet.parse("QS") and a > CardSet.parse("QS")
    assert not a <= b and not b <= a
    assert not a > b and not a >= b
    assert CardSet() <= a
    assert a.suit(Suit.SPADES) == CardSet.parse("AKQ.-.-.-")
    assert a.suit(Suit.HEARTS) == CardSet()
    assert [a.count(s) for s in Suit] == [1, 0, 0, 3]
    assert CardSet.parse("A.T.K.Q").card_points == 11 + 10 + 4 + 3
    assert CardSet(FULL_MASK).card_points == 120


def test_cardset_is_immutable() -> None:
    hand = CardSet.parse("AS")
    with pytest.raises(AttributeError):
        hand.mask = 0  # type: ignore[misc]
    assert hand.mask == 1 << 51


# -- the deck and shuffling --------------------------------------------------------------


def test_deck() -> None:
    assert len(DECK) == 52
    assert list(DECK) == list(range(52))
    assert all(type(c) is Card for c in DECK)
    deck = new_deck()
    assert deck == list(DECK)
    assert str(deck[0]) == "2C" and str(deck[-1]) == "AS"
    deck.pop()  # a new list each time
    assert len(new_deck()) == 52


def test_shuffled_deck_is_reproducible_for_a_seed() -> None:
    one = shuffled_deck(seeded_rng(2024))
    two = shuffled_deck(seeded_rng(2024))
    assert one == two
    assert sorted(one) == list(range(52))
    assert one != list(DECK)
    assert shuffled_deck(random.Random("text seed")) == shuffled_deck(seeded_rng("text seed"))


def test_shuffled_deck_pins_the_seed_zero_deck() -> None:
    # Fisher-Yates over rng.random(): pinned, so the same seed gives the same
    # deals on every platform and Python version (records depend on it).
    rng = random.Random(0)
    expected = list(range(52))
    for i in range(51, 0, -1):
        j = int(rng.random() * (i + 1))
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled_deck(seeded_rng(0)) == expected


def test_shuffled_deck_uses_one_random_call_a_card() -> None:
    rng = seeded_rng(5)
    shuffled_deck(rng)
    check = seeded_rng(5)
    for _ in range(51):
        check.random()
    assert rng.random() == check.random()


def test_shuffled_deck_differs_across_seeds() -> None:
    decks = {tuple(shuffled_deck(seeded_rng(seed))) for seed in range(50)}
    assert len(decks) == 50
    for deck in decks:
        assert sorted(deck) == list(range(52))


def test_live_rng_shuffles() -> None:
    rng = live_rng()
    assert isinstance(rng, random.SystemRandom)
    decks = [shuffled_deck(rng) for _ in range(5)]
    for deck in decks:
        assert sorted(deck) == list(range(52))
        assert all(type(c) is Card for c in deck)
    # Five equal decks from the OS would be a 1 in (52!)^4 event.
    assert len({tuple(d) for d in decks}) == 5


# -- dealing -----------------------------------------------------------------------------


def hand_of(deck: list[Card], indices: list[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << deck[i]
    return mask


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_one_at_a_time(dealer: int) -> None:
    deck = shuffled_deck(seeded_rng(dealer + 100))
    hands = deal_hands(deck, dealer, Dealing.ONE_AT_A_TIME)
    first = (dealer + 1) % 4
    for k in range(4):
        seat = (first + k) % 4
        assert hands[seat] == hand_of(deck, list(range(k, 52, 4)))
    # the first hand (right of the dealer) gets the top card, the dealer the last
    assert hands[first] >> deck[0] & 1
    assert hands[dealer] >> deck[51] & 1


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_packets_4_4_5(dealer: int) -> None:
    deck = shuffled_deck(seeded_rng(dealer + 200))
    hands = deal_hands(deck, dealer, Dealing.PACKETS_4_4_5)
    first = (dealer + 1) % 4
    for k in range(4):
        seat = (first + k) % 4
        indices = (
            list(range(4 * k, 4 * k + 4))
            + list(range(16 + 4 * k, 16 + 4 * k + 4))
            + list(range(32 + 5 * k, 32 + 5 * k + 5))
        )
        assert hands[seat] == hand_of(deck, indices)
    # exactly: the first hand receives cards 0-3, 16-19 and 32-36 of the deck
    assert hands[first] == hand_of(deck, [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 36])
    assert hands[dealer] == hand_of(deck, [12, 13, 14, 15, 28, 29, 30, 31, *range(47, 52)])


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_thirteen_at_once(dealer: int) -> None:
    deck = shuffled_deck(seeded_rng(dealer + 300))
    hands = deal_hands(deck, dealer, Dealing.THIRTEEN)
    first = (dealer + 1) % 4
    for k in range(4):
        assert hands[(first + k) % 4] == hand_of(deck, list(range(13 * k, 13 * k + 13)))


def test_deal_ordered_deck_known_answers() -> None:
    deck = new_deck()
    # dealer West: South is the first hand
    thirteen = deal_hands(deck, 3, Dealing.THIRTEEN)
    assert CardSet(thirteen[0]) == CardSet.parse("...AKQJT98765432")
    assert CardSet(thirteen[3]) == CardSet.parse("AKQJT98765432...")
    one = deal_hands(deck, 3, Dealing.ONE_AT_A_TIME)
    assert CardSet(one[0]) == CardSet.parse("J73.Q84.K95.AT62")
    assert Card.parse("2C") in CardSet(one[0]) and Card.parse("3C") in CardSet(one[1])
    packets = deal_hands(deck, 3, Dealing.PACKETS_4_4_5)
    assert CardSet(packets[0]) == CardSet(
        hand_of(deck, [0, 1, 2, 3, 16, 17, 18, 19, *range(32, 37)])
    )
    assert CardSet(packets[0]) == CardSet.parse(".QJT98.8765.5432")
    # default is one at a time
    assert deal_hands(deck, 3) == one


@pytest.mark.parametrize("dealing", list(Dealing))
def test_deal_hands_partition_the_deck(dealing: Dealing) -> None:
    for seed in range(20):
        deck = shuffled_deck(seeded_rng(seed))
        hands = deal_hands(deck, seed % 4, dealing)
        assert [h.bit_count() for h in hands] == [13, 13, 13, 13]
        assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_MASK
        assert hands[0] ^ hands[1] ^ hands[2] ^ hands[3] == FULL_MASK


def test_dealing_patterns_give_different_hands() -> None:
    deck = shuffled_deck(seeded_rng(9))
    results = {deal_hands(deck, 0, dealing) for dealing in Dealing}
    assert len(results) == 3
    assert {d.value for d in Dealing} == {"one-at-a-time", "4-4-5", "13-at-once"}


@pytest.mark.parametrize(
    "deck",
    [
        list(range(51)),
        [*range(52), 0],
        [*range(51), 0],
        [*range(51), 52],
        [],
        [-1, *range(1, 52)],
    ],
    ids=["51-cards", "53-cards", "repeat", "card-52", "empty", "negative"],
)
def test_deal_hands_refuses_bad_decks(deck: list[int]) -> None:
    with pytest.raises(InvalidActionError, match="52 cards once"):
        deal_hands(deck, 0)
