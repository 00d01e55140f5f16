"""The wire's names and numbers: the limits, error codes, enums and seat and suit names."""

from __future__ import annotations

import enum
from typing import Any, Literal, cast, get_args

from tarneeb.actions import Strain
from tarneeb.cards import Suit
from tarneeb.errors import TarneebError
from tarneeb.rules import Count, Rules
from tarneeb.seats import Seat, Team

PROTOCOL_VERSION = 3
"""The version of this protocol; ``hello`` may name it, ``/api/info`` and ``welcome`` tell it."""
PROTOCOLS = (2, 3)
"""The versions a ``hello`` may name: version 3 only adds to 2, so a client of 2 still plays."""
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
MAX_SEAT_LOOKUPS = 20
"""The most seats one ``POST /api/seats`` may ask about."""


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
    FORBIDDEN = "forbidden"


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
    SEAT_LINK = "seat_link"
    MOVED = "moved"
    REMATCH_VOTE = "rematch_vote"
    REMATCH = "rematch"


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
Level = Literal["easy", "medium", "hard", "expert"]
Reaction = Literal[
    "thumbs-up",
    "clap",
    "laugh",
    "wow",
    "sad",
    "oops",
    "good-luck",
    "well-played",
    "thanks",
    "sorry",
    "hurry-up",
    "good-game",
]
Unit = Literal["tricks", "points"]

LEVELS: tuple[str, ...] = get_args(Level)
"""The bot levels people choose when filling seats (bot names of :mod:`tarneeb.bots`)."""
REACTIONS: tuple[str, ...] = get_args(Reaction)
"""The quick reactions a seat may send (no free text: the catalogue's ``reaction.ID`` says them)."""
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


def level_of(spec: str | None) -> Level | None:
    """The level a bot spec names (``"hard"`` for ``"hard"``), or ``None`` for another bot.

    >>> level_of("expert"), level_of("heuristic:aggressive"), level_of(None)
    ('expert', None, None)
    """
    if spec is None:
        return None
    name = spec.split(":", 1)[0].strip().lower()
    return cast(Level, name) if name in LEVELS else None
