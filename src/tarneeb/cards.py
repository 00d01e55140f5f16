"""Cards, hands and the deck.

A card is an int ``0..51`` (``suit * 13 + rank``, deuce lowest), a hand is an
int bitmask with bit ``card`` set. :class:`Card` and :class:`CardSet` wrap
them for people: a :class:`Card` *is* its int, and a :class:`CardSet` holds
its mask in ``.mask``.

>>> Card.parse("10h")
Card('TH')
>>> Card.parse("A♠").rank
Rank.ACE
>>> hand = CardSet.parse("AS KS 2C")
>>> len(hand), Card.parse("KS") in hand
(3, True)
>>> format(hand, "u")
'♠AK ♥- ♦- ♣2'
"""

from __future__ import annotations

import enum
import operator
import random
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from tarneeb.errors import InvalidActionError

__all__ = [
    "DECK",
    "FULL_MASK",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "Dealing",
    "Rank",
    "Suit",
    "deal_hands",
    "deal_masks",
    "hand_card_points",
    "live_rng",
    "new_deck",
    "seeded_rng",
    "shuffled_deck",
]


class Suit(enum.IntEnum):
    """A suit, numbered in bridge order (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def mask(self) -> int:
        """The bitmask of the 13 cards of this suit."""
        return SUIT_MASKS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, a symbol or a name (``"h"``, ``"♥"``, ``"hearts"``).

        :raises InvalidActionError: when it names no suit.
        """
        key = text.strip().upper()
        suit = _SUIT_NAMES.get(key)
        if suit is None:
            raise InvalidActionError(f"{text!r} is not a suit (C, D, H, S)")
        return suit

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.letter


_SUIT_NAMES: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_NAMES[_s.letter] = _s
    _SUIT_NAMES[_s.symbol] = _s
    _SUIT_NAMES[_s.name] = _s
    _SUIT_NAMES[_s.name[:-1]] = _s
for _sym, _s in (("♤", Suit.SPADES), ("♡", Suit.HEARTS), ("♢", Suit.DIAMONDS), ("♧", Suit.CLUBS)):
    _SUIT_NAMES[_sym] = _s


class Rank(enum.IntEnum):
    """A rank, deuce lowest (0) to ace highest (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def card_points(self) -> int:
        """The value of this rank in the card-point game (Tarneeb 400 of seed 000)."""
        return _CARD_POINTS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank from ``"A"``, ``"t"``, ``"10"``, ``"2"``.

        :raises InvalidActionError: when it names no rank.
        """
        key = text.strip().upper()
        if key == "10":
            return Rank.TEN
        index = _RANK_CHARS.find(key) if len(key) == 1 else -1
        if index < 0:
            raise InvalidActionError(f"{text!r} is not a rank (A K Q J T 9 ... 2)")
        return Rank(index)

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __str__(self) -> str:
        return self.char


_RANK_CHARS = "23456789TJQKA"
_CARD_POINTS = (0, 0, 0, 0, 0, 0, 0, 0, 10, 2, 3, 4, 11)

SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
FULL_MASK = (1 << 52) - 1


class Card(int):
    """One of the 52 cards; the int is ``suit * 13 + rank``.

    >>> Card.parse("QD") == Card.of(Rank.QUEEN, Suit.DIAMONDS) == 23
    True
    >>> str(Card.parse("10S")), format(Card.parse("TS"), "u")
    ('TS', 'T♠')
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return Card.parse(value)
        if not 0 <= value < 52:
            raise InvalidActionError(f"card number {value!r} is not 0..51")
        return _CARDS[value] if _READY else super().__new__(cls, value)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return _CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank then suit, ``"AS"``, ``"th"``, ``"10H"``, ``"Q♦"``.

        :raises InvalidActionError: when the text is no card.
        """
        key = text.strip()
        card = _CARD_NAMES.get(key.upper())
        if card is None:
            if len(key) >= 2:
                try:
                    return cls.of(Rank.parse(key[:-1]), Suit.parse(key[-1]))
                except InvalidActionError:
                    pass
            raise InvalidActionError(f"{text!r} is not a card (like AS, TH, 10H, 2C)")
        return card

    @property
    def suit(self) -> Suit:
        return _SUIT_OF[self // 13]  # (indexing: calling the enum costs ten times more)

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self % 13]

    @property
    def mask(self) -> int:
        return 1 << self

    @property
    def card_points(self) -> int:
        return _CARD_POINTS[self % 13]

    def format(self, unicode: bool = False) -> str:
        """``"AS"``, or ``"A♠"`` with ``unicode``."""
        suit = self.suit
        return _RANK_CHARS[self % 13] + (suit.symbol if unicode else suit.letter)

    def __format__(self, spec: str) -> str:
        if spec in ("", "a", "s"):
            return self.format()
        if spec == "u":
            return self.format(unicode=True)
        if spec == "d":
            return int.__format__(int(self), "d")
        raise ValueError(f"unknown format {spec!r} for Card (use 'a' or 'u')")

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"Card({self.format()!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_SUIT_OF: tuple[Suit, ...] = tuple(Suit(i) for i in range(4))
_RANK_OF: tuple[Rank, ...] = tuple(Rank(i) for i in range(13))
_READY = False
_CARDS: list[Card] = [Card(i) for i in range(52)]
_READY = True
_CARD_NAMES: dict[str, Card] = {c.format(): c for c in _CARDS}
_CARD_NAMES.update({c.format(unicode=True): c for c in _CARDS})

DECK: tuple[Card, ...] = tuple(_CARDS)


def _iter_mask(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards over an int bitmask.

    Iterates from the highest card down (spades first, aces first), which is
    how people read a hand. Supports ``in``, ``len``, ``|``, ``&``, ``-``,
    ``^``, comparison as sets, and hashing.

    >>> CardSet.parse("AKQ.JT9.8.765")
    CardSet.parse('AKQ.JT9.8.765')
    >>> CardSet.parse("AS 2C") | CardSet.parse("KD")
    CardSet.parse('A..K.2')
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[int | str] | int = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_MASK:
                raise InvalidActionError(f"card mask {cards:#x} is not within 52 cards")
            mask = cards
        else:
            mask = 0
            for card in cards:
                mask |= 1 << (Card.parse(card) if isinstance(card, str) else Card(card))
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read a hand as cards (``"AS KS 2C"``) or by suit (``"AKQ.JT9.8.765"``).

        The suit form lists spades, hearts, diamonds, clubs, separated by dots
        (the PBN convention); ``-`` or nothing marks a void. Each card may
        appear once.

        :raises InvalidActionError: on text that is neither, or a repeated card.
        """
        text = text.strip()
        cards: list[Card] = []
        if "." in text:
            parts = text.split(".")
            if len(parts) != 4:
                raise InvalidActionError(f"{text!r}: a hand by suit needs 4 parts (S.H.D.C)")
            for suit, part in zip((3, 2, 1, 0), parts, strict=True):
                part = part.strip().replace("10", "T")
                if part == "-":
                    continue
                for ch in part:
                    if ch.isspace():
                        continue
                    rank = Rank.parse(ch)
                    cards.append(Card.of(rank, Suit(suit)))
        elif text and text != "-":
            cards = [Card.parse(word) for word in text.replace(",", " ").split()]
        mask = 0
        for card in cards:
            if mask >> card & 1:
                raise InvalidActionError(f"{text!r}: card {card} appears twice")
            mask |= 1 << card
        return cls(mask)

    def format(self, unicode: bool = False) -> str:
        """The hand by suit: ``"AKQ.JT9.8.765"``, or ``"♠AKQ ♥JT9 ♦8 ♣765"``."""
        parts = []
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
            bits = (self.mask >> (13 * suit)) & 0x1FFF
            ranks = "".join(_RANK_CHARS[r] for r in range(12, -1, -1) if bits >> r & 1)
            parts.append(suit.symbol + (ranks or "-") if unicode else ranks)
        return " ".join(parts) if unicode else ".".join(parts)

    def __format__(self, spec: str) -> str:
        if spec in ("", "a"):
            return self.format()
        if spec == "u":
            return self.format(unicode=True)
        raise ValueError(f"unknown format {spec!r} for CardSet (use 'a' or 'u')")

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"CardSet.parse({self.format()!r})"

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            card = mask.bit_length() - 1
            yield _CARDS[card]
            mask ^= 1 << card

    def __reversed__(self) -> Iterator[Card]:
        return (_CARDS[c] for c in _iter_mask(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            try:
                card = Card.parse(card)
            except InvalidActionError:
                return False
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __lt__(self, other: CardSet) -> bool:
        return self <= other and self.mask != other.mask

    def __ge__(self, other: CardSet) -> bool:
        return other <= self

    def __gt__(self, other: CardSet) -> bool:
        return other < self

    def suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def count(self, suit: Suit) -> int:
        """How many cards of ``suit`` the set holds."""
        return (self.mask & SUIT_MASKS[suit]).bit_count()

    @property
    def card_points(self) -> int:
        return hand_card_points(self.mask)


def hand_card_points(mask: int) -> int:
    """The card points (A 11, 10 10, K 4, Q 3, J 2) of the cards in ``mask``."""
    total = 0
    for shift in (0, 13, 26, 39):
        bits = mask >> shift
        total += (
            11 * (bits >> 12 & 1)
            + 4 * (bits >> 11 & 1)
            + 3 * (bits >> 10 & 1)
            + 2 * (bits >> 9 & 1)
            + 10 * (bits >> 8 & 1)
        )
    return total


class Dealing(enum.Enum):
    """How the cards leave the deck (it changes the hands a seed gives)."""

    ONE_AT_A_TIME = "one-at-a-time"
    PACKETS_4_4_5 = "4-4-5"
    THIRTEEN = "13-at-once"


_PACKETS = {
    Dealing.ONE_AT_A_TIME: (1,) * 13,
    Dealing.PACKETS_4_4_5: (4, 4, 5),
    Dealing.THIRTEEN: (13,),
}


class _Random(Protocol):
    def random(self) -> float: ...


def seeded_rng(seed: int | str) -> random.Random:
    """A reproducible random source (the same seed gives the same deals)."""
    return random.Random(seed)


def live_rng() -> random.Random:
    """A random source from the operating system, for live games."""
    return secrets.SystemRandom()


def new_deck() -> list[Card]:
    """The 52 cards in order, 2C first."""
    return list(DECK)


def shuffled_deck(rng: _Random) -> list[Card]:
    """A shuffled deck drawn from ``rng`` (seeded or :func:`live_rng`).

    Fisher-Yates over ``rng.random()``: one call a card, and the same seed
    gives the same deck on every platform and Python version.
    """
    deck = list(DECK)
    rand = rng.random
    for i in range(51, 0, -1):
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_hands(
    deck: Sequence[int], dealer: int, dealing: Dealing = Dealing.ONE_AT_A_TIME
) -> tuple[int, int, int, int]:
    """Deal ``deck`` from the player right of ``dealer``, counter-clockwise.

    Returns the four hands as bitmasks, indexed by seat.

    :raises InvalidActionError: when ``deck`` is not the 52 cards once each.

    >>> hands = deal_hands(new_deck(), dealer=3, dealing=Dealing.THIRTEEN)
    >>> CardSet(hands[0])
    CardSet.parse('...AKQJT98765432')
    """
    if len(deck) != 52 or set(deck) != set(range(52)):
        raise InvalidActionError("a deck must hold each of the 52 cards once")
    return deal_masks(deck, dealer, dealing)


def _positions(dealing: Dealing) -> tuple[tuple[int, ...], ...]:
    """For each place in the deal order (first hand first), the deck positions it receives."""
    places: list[list[int]] = [[], [], [], []]
    position = 0
    for packet in _PACKETS[dealing]:
        for place in range(4):
            places[place].extend(range(position, position + packet))
            position += packet
    return tuple(tuple(p) for p in places)


_BITS = tuple(1 << c for c in range(52))
# For each dealing (by its value) and first hand, one picker of the deck positions each
# seat receives, South's first: the hands come out in seat order without a rotation.
_TAKE = {
    dealing._value_: tuple(
        tuple(operator.itemgetter(*_positions(dealing)[(seat - first) & 3]) for seat in range(4))
        for first in range(4)
    )
    for dealing in Dealing
}


def deal_masks(
    deck: Sequence[int], dealer: int, dealing: Dealing = Dealing.ONE_AT_A_TIME
) -> tuple[int, int, int, int]:
    """:func:`deal_hands` without checking the deck (for decks this package shuffled)."""
    bit = _BITS.__getitem__
    s, e, n, w = _TAKE[dealing._value_][(dealer + 1) & 3]
    return (
        sum(map(bit, s(deck))),
        sum(map(bit, e(deck))),
        sum(map(bit, n(deck))),
        sum(map(bit, w(deck))),
    )
