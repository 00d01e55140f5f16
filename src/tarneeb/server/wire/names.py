"""The wire's names and numbers: the limits, error codes, enums and seat and suit names."""

from __future__ import annotations

import enum
from typing import Any, Literal, cast

from tarneeb.actions import Strain
from tarneeb.cards import Suit
from tarneeb.errors import TarneebError
from tarneeb.rules import Count, Rules
from tarneeb.seats import Seat, Team

PROTOCOL_VERSION = 2
"""The version of this protocol; ``hello`` may name it, ``/api/info`` and ``welcome`` tell it."""
MAX_FRAME = 4096
"""The largest frame a client may send, in bytes."""
MAX_BODY = 16384
"""The largest HTTP request body, in bytes."""
MAX_DEPTH = 32
"""How deeply JSON from a client (a frame or a request body) may nest (objects and lists)."""
MAX_CHAT = 300
"""The longest chat line, in characters."""
MAX_NAME = 40
"""The longest player name, in characters (after runs of spaces become one)."""
MAX_ACTION_REF = 64
"""The longest ``id`` of an ``act`` frame, in characters."""
MAX_TOKEN = 200
"""The longest seat token the server reads, in characters."""


# -- codes and names ------------------------------------------------------------------------


class _Text(str, enum.Enum):
    """An enum whose members are their text, in JSON and in ``str()`` alike."""

    def __str__(self) -> str:
        return str(self.value)


class ErrorCode(_Text):
    """The codes of error frames and error bodies (docs/protocol.md)."""

    MALFORMED = "malformed"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    UNAUTHORIZED = "unauthorized"
    NOT_STARTED = "not_started"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    ILLEGAL = "illegal"
    DUPLICATE = "duplicate"
    GAME_OVER = "game_over"
    INTERNAL = "internal"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"


class ServerError(TarneebError):
    """A request the server refuses; :attr:`code` is the protocol's error code.

    ``extra`` fields go into the error frame as they are (``version`` of a
    ``duplicate``).
    """

    def __init__(self, code: ErrorCode, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


class TableStatus(_Text):
    """Where a table stands."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatKind(_Text):
    """Who sits in a seat for good: a person, or a bot the table was set up with."""

    HUMAN = "human"
    BOT = "bot"


class EventKind(_Text):
    """The kinds of the events of a table's log."""

    JOINED = "joined"
    INVITED = "invited"
    LEFT = "left"
    STARTED = "started"
    DEAL = "deal"
    ACTION = "action"
    DEAL_END = "deal_end"
    MATCH_END = "match_end"
    CHAT = "chat"
    TAKEOVER = "takeover"
    RECLAIM = "reclaim"


class ActedBy(_Text):
    """Who took an action for a seat."""

    PLAYER = "player"
    BOT = "bot"
    TIMER = "timer"


SeatName = Literal["south", "east", "north", "west"]
Side = Literal["NS", "EW"]
StrainLetter = Literal["C", "D", "H", "S", "NT"]
SuitLetter = Literal["C", "D", "H", "S"]
ThrowInReason = Literal["all-pass", "weak-hand", "low-total"]
PhaseName = Literal["auction", "raise", "trump", "play", "scored", "thrown-in"]
Play = tuple[SeatName, str]
"""A card played: ``["south", "AS"]`` (built as a list, as JSON reads it back)."""


_SEAT_NAMES: tuple[SeatName, ...] = ("south", "east", "north", "west")


def seat_name(seat: Seat | int) -> SeatName:
    """``"south"`` for South: the protocol's name of a seat."""
    return _SEAT_NAMES[Seat(seat)]


def parse_seat_name(text: object) -> Seat:
    """The seat the protocol names ``"south"``, ``"east"``, ``"north"`` or ``"west"``.

    :raises ServerError: ``malformed`` for anything else.
    """
    if isinstance(text, str):
        key = text.strip().lower()
        if key in _SEAT_NAMES:
            return Seat(_SEAT_NAMES.index(key))
    raise ServerError(ErrorCode.MALFORMED, f"unknown seat {text!r}: use south, east, north or west")


def strain_letter(strain: Strain | None) -> StrainLetter | None:
    """``"H"``, ``"NT"``, or ``None``."""
    return None if strain is None else cast(StrainLetter, strain.letter)


def suit_letter(suit: Suit | None) -> SuitLetter | None:
    return None if suit is None else cast(SuitLetter, suit.letter)


def side_name(team: Team | None) -> Side | None:
    """``"NS"``, ``"EW"``, or ``None``."""
    return None if team is None else cast(Side, team.name)


def counts_card_points(rules: Rules) -> bool:
    """Whether bids and scores count card points (Tarneeb 400), so tricks tell theirs."""
    return rules.count is Count.CARD_POINTS
