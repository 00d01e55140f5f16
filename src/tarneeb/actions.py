"""Actions: every decision a seat can make, as one integer space.

As in OpenSpiel, every action of a deal is one int, so a history is a list of
ints and a policy is a vector:

=========  =====================================================
ids        action
=========  =====================================================
0..51      play that card (:class:`~tarneeb.cards.Card`)
52         :class:`Pass`
53         :class:`Double` (an opponent's bid, where the rules allow)
54         :class:`Raise` (an uncontested contract, where the rules allow)
55         :class:`Stand` (decline to raise)
56         :class:`Redeal` (claim a redeal of a weak hand)
57..60     :class:`ChooseTrump` clubs, diamonds, hearts, spades
64..       :class:`Bid`: ``64 + level * 6 + strain`` (strain 0..3 a suit,
           4 no-trump, 5 no strain named)
=========  =====================================================

The friendly classes below wrap those ids at the edges.

>>> Bid(8).id, Bid.from_id(Bid(8).id)
(117, Bid(8))
>>> parse_action("8nt", Phase.AUCTION), parse_action("8s", Phase.PLAY)
(Bid(8, Strain.NO_TRUMP), Card('8S'))
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, Protocol, overload

from tarneeb.cards import Card, Suit
from tarneeb.errors import InvalidActionError

__all__ = [
    "BID_BASE",
    "DOUBLE",
    "NUM_ACTIONS",
    "PASS",
    "RAISE",
    "REDEAL",
    "STAND",
    "TRUMP_BASE",
    "Action",
    "ActionKind",
    "Bid",
    "ChooseTrump",
    "Double",
    "LegalActions",
    "Pass",
    "Phase",
    "Raise",
    "Redeal",
    "Stand",
    "Strain",
    "action_from_id",
    "action_id",
    "action_kind",
    "format_action",
    "parse_action",
]

PASS = 52
DOUBLE = 53
RAISE = 54
STAND = 55
REDEAL = 56
TRUMP_BASE = 57
BID_BASE = 64
NO_STRAIN = 5
MAX_LEVEL = 120
NUM_ACTIONS = BID_BASE + (MAX_LEVEL + 1) * 6


class Phase(enum.Enum):
    """Where a deal stands."""

    AUCTION = "auction"
    RAISE = "raise"
    TRUMP = "trump"
    PLAY = "play"
    SCORED = "scored"
    THROWN_IN = "thrown-in"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"

    def __str__(self) -> str:
        return self.value


class Strain(enum.IntEnum):
    """What a contract is played in: a trump suit or no-trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NO_TRUMP = 4

    @property
    def suit(self) -> Suit | None:
        return None if self == Strain.NO_TRUMP else Suit(self.value)

    @property
    def letter(self) -> str:
        return ("C", "D", "H", "S", "NT")[self]

    @property
    def symbol(self) -> str:
        return ("♣", "♦", "♥", "♠", "NT")[self]

    @classmethod
    def parse(cls, text: str) -> Strain:
        """Read a strain: a suit (``"H"``, ``"♥"``, ``"hearts"``) or ``"NT"``/``"sol"``.

        :raises InvalidActionError: when the text names no strain.
        """
        key = text.strip().upper()
        if key in ("NT", "N", "NOTRUMP", "NO-TRUMP", "NO_TRUMP", "SOL", "SHAMS"):
            return Strain.NO_TRUMP
        return Strain(Suit.parse(key).value)

    @classmethod
    def of(cls, suit: Suit) -> Strain:
        return Strain(int(suit))

    def __repr__(self) -> str:
        return f"Strain.{self.name}"

    def __str__(self) -> str:
        return self.letter


class _Simple:
    """Base of the actions that carry no data: one instance each, compared by id."""

    __slots__ = ()
    id: ClassVar[int]
    word: ClassVar[str]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __str__(self) -> str:
        return self.word


class Pass(_Simple):
    """Pass in the auction; a seat that passes is out of it."""

    id = PASS
    word = "pass"


class Double(_Simple):
    """Double the opponents' bid instead of passing (``doubling = "double"``)."""

    id = DOUBLE
    word = "double"


class Raise(_Simple):
    """Raise an uncontested contract to double or quadruple stakes (``doubling = "raise"``)."""

    id = RAISE
    word = "raise"


class Stand(_Simple):
    """Keep an uncontested contract as it is (the other answer to the raise)."""

    id = STAND
    word = "stand"


class Redeal(_Simple):
    """Ask for a redeal of a weak hand (``weak_redeal``), on one's first turn."""

    id = REDEAL
    word = "redeal"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The declarer names the trump suit."""

    suit: Suit

    @property
    def id(self) -> int:
        return TRUMP_BASE + self.suit

    def __str__(self) -> str:
        return self.suit.letter

    def __repr__(self) -> str:
        return f"ChooseTrump({self.suit!r})"


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``level`` (tricks, or card points), naming a ``strain`` or not.

    In the partnership trick auction a bid names no strain (``Bid(8)``), or
    no-trump where the rules allow Sol (``Bid(8, Strain.NO_TRUMP)``). In the
    Egyptian auction every bid names its strain (``Bid(8, Strain.SPADES)``).
    """

    level: int
    strain: Strain | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.level, int) or not 1 <= self.level <= MAX_LEVEL:
            raise InvalidActionError(f"bid level {self.level!r} is not 1..{MAX_LEVEL}")

    @property
    def id(self) -> int:
        return BID_BASE + self.level * 6 + (NO_STRAIN if self.strain is None else self.strain)

    @classmethod
    def from_id(cls, action: int) -> Bid:
        level, strain = divmod(action - BID_BASE, 6)
        return cls(level, None if strain == NO_STRAIN else Strain(strain))

    def __str__(self) -> str:
        return f"{self.level}{'' if self.strain is None else self.strain.letter}"

    def __repr__(self) -> str:
        if self.strain is None:
            return f"Bid({self.level})"
        return f"Bid({self.level}, {self.strain!r})"


Action = Card | Bid | Pass | Double | Raise | Stand | Redeal | ChooseTrump

_SIMPLE: dict[int, _Simple] = {a.id: a for a in (Pass(), Double(), Raise(), Stand(), Redeal())}
_WORDS: dict[str, int] = {
    "PASS": PASS,
    "P": PASS,
    "-": PASS,
    "DOUBLE": DOUBLE,
    "DBL": DOUBLE,
    "X": DOUBLE,
    "RAISE": RAISE,
    "STAND": STAND,
    "KEEP": STAND,
    "NO RAISE": STAND,
    "REDEAL": REDEAL,
}


def action_id(action: Action | int) -> int:
    """The int of an action (an int is checked and returned).

    :raises InvalidActionError: for an int outside the action space.
    """
    if isinstance(action, int):
        if 0 <= action < NUM_ACTIONS and not TRUMP_BASE + 4 <= action < BID_BASE + 6:
            return int(action)
        raise InvalidActionError(f"{action!r} is no action id")
    if isinstance(action, (_Simple, Bid, ChooseTrump)):
        return action.id
    raise InvalidActionError(f"{action!r} is not an action")


def action_from_id(action: int) -> Action:
    """The friendly object for an action id.

    :raises InvalidActionError: for an int outside the action space.
    """
    action = action_id(action)
    if action < 52:
        return Card(action)
    if action < TRUMP_BASE:
        return _SIMPLE[action]  # type: ignore[return-value]
    if action < BID_BASE:
        return ChooseTrump(Suit(action - TRUMP_BASE))
    return Bid.from_id(action)


class ActionKind(str, enum.Enum):
    """What sort of decision an action is (the ``kind`` of an action on the server's wire)."""

    CARD = "card"
    BID = "bid"
    PASS = "pass"
    DOUBLE = "double"
    RAISE = "raise"
    STAND = "stand"
    REDEAL = "redeal"
    TRUMP = "trump"

    def __str__(self) -> str:
        return self.value


_SIMPLE_KINDS = {
    PASS: ActionKind.PASS,
    DOUBLE: ActionKind.DOUBLE,
    RAISE: ActionKind.RAISE,
    STAND: ActionKind.STAND,
    REDEAL: ActionKind.REDEAL,
}


def action_kind(action: Action | int) -> ActionKind:
    """The kind of an action (or action id), from its place in the id space.

    >>> action_kind(Card("AS")), action_kind(Bid(8)), action_kind(PASS), action_kind(TRUMP_BASE)
    (<ActionKind.CARD: 'card'>, <ActionKind.BID: 'bid'>, <ActionKind.PASS: 'pass'>, <ActionKind.TRUMP: 'trump'>)

    :raises InvalidActionError: for an int outside the action space.
    """
    number = action_id(action)
    if number < 52:
        return ActionKind.CARD
    if number < TRUMP_BASE:
        return _SIMPLE_KINDS[number]
    return ActionKind.TRUMP if number < BID_BASE else ActionKind.BID


def format_action(action: Action | int, unicode: bool = False) -> str:
    """Text for an action: ``"AS"``, ``"pass"``, ``"8"``, ``"8NT"``, ``"H"``.

    The text of a bid and of a card can look alike (``"8S"``); the phase tells
    them apart, which is what :func:`parse_action` takes.
    """
    obj = (
        action_from_id(action)
        if isinstance(action, int) and not isinstance(action, Card)
        else action
    )
    if isinstance(obj, Card):
        return obj.format(unicode)
    if unicode and isinstance(obj, ChooseTrump):
        return obj.suit.symbol
    if unicode and isinstance(obj, Bid) and obj.strain is not None:
        return f"{obj.level}{obj.strain.symbol}"
    return str(obj)


def parse_action(text: str, phase: Phase) -> Action:
    """Read an action typed for ``phase``.

    In the auction: ``pass``, ``double``, ``redeal``, ``8``, ``8NT``,
    ``8S``; after it: ``raise``/``stand``; choosing trump: ``H``/``hearts``;
    in play: a card (``AS``, ``10h``, ``Q♦``).

    :raises InvalidActionError: when the text is no action of that phase.
    """
    raw = text.strip()
    key = " ".join(raw.upper().split())
    if key.startswith("TRUMP "):
        key = key[6:]
    if key.startswith("BID "):
        key = key[4:]
    if phase is Phase.PLAY:
        return Card.parse(raw)
    if key in _WORDS:
        return _SIMPLE[_WORDS[key]]  # type: ignore[return-value]
    if phase is Phase.TRUMP:
        try:
            return ChooseTrump(Suit.parse(key))
        except InvalidActionError:
            raise InvalidActionError(f"{text!r} is not a trump suit (C, D, H, S)") from None
    if phase is Phase.AUCTION:
        digits = len(key) - len(key.lstrip("0123456789"))
        if digits:
            rest = key[digits:].strip()
            level = int(key[:digits])
            try:
                return Bid(level, Strain.parse(rest) if rest else None)
            except InvalidActionError:
                pass
        raise InvalidActionError(f"{text!r} is not a bid (like 8, 8NT, 8S) or pass")
    raise InvalidActionError(f"{text!r} is not an action in the {phase} phase")


class _Deciding(Protocol):
    """What :class:`LegalActions` asks of a deal (:class:`tarneeb.deal.Deal`)."""

    @property
    def phase(self) -> Phase: ...
    def legal_action_ids(self) -> tuple[int, ...]: ...
    def legal_card_mask(self) -> int: ...
    def is_legal(self, action: Action | int | str) -> bool: ...


class LegalActions:
    """The legal actions of a deal, computed when asked (python-chess style)."""

    __slots__ = ("_deal",)

    def __init__(self, deal: _Deciding) -> None:
        self._deal = deal

    def ids(self) -> tuple[int, ...]:
        return self._deal.legal_action_ids()

    def __iter__(self) -> Iterator[Action]:
        return (action_from_id(a) for a in self._deal.legal_action_ids())

    def __len__(self) -> int:
        if self._deal.phase is Phase.PLAY:
            return self._deal.legal_card_mask().bit_count()
        return len(self._deal.legal_action_ids())

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, (int, str, Bid)) and not hasattr(action, "id"):
            return False
        return self._deal.is_legal(action)  # type: ignore[arg-type]

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        ids = self._deal.legal_action_ids()
        if isinstance(index, slice):
            return [action_from_id(a) for a in ids[index]]
        return action_from_id(ids[index])

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(format_action(a) for a in self.ids())})>"
