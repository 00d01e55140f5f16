"""The wire schema of ``tarneeb serve`` (docs/protocol.md): codes, limits, frames, parsing.

Everything a client and the server say to each other is defined here, once:
the error codes, the limits, a :class:`~typing.TypedDict` for every frame,
event, state and HTTP body, and the reading of client frames. The browser
client's types (``static/js/wire.d.ts``) are generated from these
definitions (``python -m tarneeb.server.wire --dts``). The bodies themselves
are built in :mod:`tarneeb.server.protocol`; the JSON of the engine's own
objects (actions, tricks, contracts, results) is built here, since the
table's stored events hold it too.

>>> parse_frame('{"type": "act", "id": "a1", "version": 3, "action": 17}')
Act(ref='a1', version=3, action=17)
>>> parse_frame('{"type": "act", "id": "a1", "version": 3, "action": {"id": 17}}').action
17
>>> parse_frame('{"type": "act", "id": "a1", "version": "3", "action": "AS"}')
Traceback (most recent call last):
...
tarneeb.server.wire.ServerError: act: version must be an integer
>>> json.dumps(action_json(Card("6D")))
'{"id": 17, "text": "6D", "kind": "card", "suit": "D"}'
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, cast

from tarneeb.actions import (
    Action,
    ActionKind,
    Bid,
    ChooseTrump,
    Strain,
    action_from_id,
    action_id,
    action_kind,
    format_action,
)
from tarneeb.cards import Card, Suit
from tarneeb.deal import Contract, Deal, Trick
from tarneeb.errors import TarneebError
from tarneeb.rules import Count, Rules
from tarneeb.seats import Seat, Team

__all__ = [
    "MAX_ACTION_REF",
    "MAX_BODY",
    "MAX_CHAT",
    "MAX_DEPTH",
    "MAX_FRAME",
    "MAX_NAME",
    "MAX_TOKEN",
    "PROTOCOL_VERSION",
    "Act",
    "ActedBy",
    "ActionKind",
    "ClientFrame",
    "ErrorCode",
    "EventJson",
    "EventKind",
    "Frame",
    "SeatKind",
    "ServerError",
    "ServerFrame",
    "TableStatus",
    "action_json",
    "call_json",
    "contract_json",
    "counts_card_points",
    "parse_frame",
    "parse_seat_name",
    "result_json",
    "seat_name",
    "side_name",
    "strain_letter",
    "suit_letter",
    "trick_json",
]

PROTOCOL_VERSION = 2
"""The version of this protocol; ``hello`` may name it, ``/api/info`` and ``welcome`` tell it."""
MAX_FRAME = 4096
"""The largest frame a client may send, in bytes."""
MAX_BODY = 16384
"""The largest HTTP request body, in bytes."""
MAX_DEPTH = 8
"""How deeply a client frame's JSON may nest (objects in objects)."""
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


# -- the game's objects -----------------------------------------------------------------------


class _ActionJson(TypedDict):
    id: int
    text: str
    kind: ActionKind


class ActionJson(_ActionJson, total=False):
    """An action: the engine's id (:mod:`tarneeb.actions`), its text, and its kind."""

    level: int
    """A bid's level."""
    strain: StrainLetter | None
    """A bid's strain: a suit letter, ``NT``, or null for a bid that names none."""
    suit: SuitLetter
    """The suit of a card, or the trump a ``trump`` action names."""


class CallJson(TypedDict):
    """One call of the auction (a bid, pass, double, raise, stand, redeal or trump choice)."""

    seat: SeatName
    action: ActionJson


class AuctionJson(TypedDict):
    calls: list[CallJson]
    """Every call of the deal so far, in order."""
    last: list[ActionJson | None]
    """Each seat's last call (South, East, North, West), the trump choice aside; null for none."""


class TrickJson(TypedDict):
    leader: SeatName
    cards: list[Play]
    """The cards in the order played, each with its seat."""
    winner: SeatName | None
    """Null for the trick under way."""
    points: int | None
    """The card points in the trick where the rules count card points, else null."""


class ContractJson(TypedDict):
    seat: SeatName
    level: int
    strain: StrainLetter | None
    multiplier: int


class ScoredJson(TypedDict):
    points: list[int]
    """Per side, NS then EW."""
    seat_points: list[int] | None
    """Per seat where players score alone (Syrian 400), else null."""
    made: bool | None
    all_thirteen: Side | None


class ThrownInJson(TypedDict):
    thrown_in: ThrowInReason


ResultJson = ScoredJson | ThrownInJson


class SetJson(TypedDict):
    winner: Side
    scores: list[int]


class SeatJson(TypedDict):
    seat: SeatName
    name: str | None
    kind: SeatKind
    bot: str | None
    """The spec of the bot in the seat, or holding it for an absent player."""
    taken: bool
    connected: bool
    held_by_bot: bool


class MatchJson(TypedDict):
    deal_number: int
    dealer: SeatName
    phase: PhaseName
    to_act: SeatName | None
    hand: list[str]
    """This seat's own cards; empty for a spectator."""
    hand_sizes: list[int]
    auction: AuctionJson
    contract: ContractJson | None
    trump: SuitLetter | None
    trick: TrickJson | None
    """The trick under way (null outside play)."""
    tricks: list[TrickJson]
    """The deal's finished tricks, in order, with their winners."""
    last_trick: TrickJson | None
    tricks_taken: list[int]
    """Per seat."""
    side_tricks: list[int]
    """Per side, NS then EW."""
    card_points: list[int] | None
    """Card points taken per seat where the rules count card points (Tarneeb 400), else null."""
    side_card_points: list[int] | None
    bids: list[int | None]
    """Each seat's own bid where every player bids alone (Syrian 400), else nulls."""
    legal: list[ActionJson]
    """This seat's legal actions; empty unless it is this seat's turn."""
    scores: list[int]
    seat_scores: list[int]
    target: int
    sets: list[SetJson]
    commitment: str
    over: bool
    winner: Side | None
    individual: bool


class StateJson(TypedDict):
    status: TableStatus
    seats: list[SeatJson]
    version: int
    turn_deadline: float | None
    match: MatchJson | None


class TableJson(TypedDict):
    id: str
    status: TableStatus
    rules: str
    options: dict[str, Any]
    public: bool
    turn_seconds: float | None
    seats: list[SeatJson]
    scores: list[int]
    created: str


# -- events -----------------------------------------------------------------------------------


class JoinedEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.JOINED]
    seat: SeatName
    name: str | None
    bot: str | None


class LeftEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.LEFT]
    seat: SeatName


class StartedEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.STARTED]
    first_dealer: SeatName


class DealEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.DEAL]
    number: int
    dealer: SeatName
    commitment: str


class ActionEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.ACTION]
    seat: SeatName
    action: ActionJson
    by: ActedBy
    version: int


class DealEndEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.DEAL_END]
    number: int
    dealer: SeatName
    seed: str
    commitment: str
    contract: ContractJson | None
    result: ResultJson | None
    tricks_taken: list[int]
    last_trick: TrickJson | None
    scores: list[int]
    seat_scores: list[int]


class MatchEndEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.MATCH_END]
    winner: Side | None
    scores: list[int]


class ChatEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.CHAT]
    seat: SeatName
    name: str
    text: str


class TakeoverEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.TAKEOVER]
    seat: SeatName
    bot: str


class ReclaimEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.RECLAIM]
    seat: SeatName


EventJson = (
    JoinedEvent
    | LeftEvent
    | StartedEvent
    | DealEvent
    | ActionEvent
    | DealEndEvent
    | MatchEndEvent
    | ChatEvent
    | TakeoverEvent
    | ReclaimEvent
)


# -- frames ------------------------------------------------------------------------------------


class _ActionRef(TypedDict):
    id: int


class ActionRef(_ActionRef, total=False):
    """An action named by its id; the other fields of :class:`ActionJson`, if sent, must agree.

    So a client may send back a legal action exactly as the state gave it.
    """

    text: str
    kind: ActionKind
    level: int
    strain: StrainLetter | None
    suit: SuitLetter


class _HelloFrame(TypedDict):
    type: Literal["hello"]


class HelloFrame(_HelloFrame, total=False):
    protocol: int
    token: str | None
    since: int | None


class ActFrame(TypedDict):
    type: Literal["act"]
    id: str
    version: int
    action: int | ActionRef | str
    """The action's id (``17`` or ``{"id": 17}``); its text (``"6D"``) is still read."""


class ChatFrame(TypedDict):
    type: Literal["chat"]
    text: str


class PingFrame(TypedDict):
    type: Literal["ping"]


ClientFrame = HelloFrame | ActFrame | ChatFrame | PingFrame


class WelcomeFrame(TypedDict):
    type: Literal["welcome"]
    protocol: int
    seat: SeatName | None
    seq: int
    version: int
    table: TableJson
    state: StateJson
    events: list[EventJson] | None


class UpdateFrame(TypedDict):
    type: Literal["update"]
    seq: int
    version: int
    events: list[EventJson]
    state: StateJson


class AckFrame(TypedDict):
    type: Literal["ack"]
    id: str
    version: int


class _ErrorFrame(TypedDict):
    type: Literal["error"]
    code: ErrorCode
    message: str


class ErrorFrame(_ErrorFrame, total=False):
    id: str
    """The ``id`` of the ``act`` it answers."""
    version: int
    """Where a ``duplicate`` action took the table."""


class PongFrame(TypedDict):
    type: Literal["pong"]


ServerFrame = WelcomeFrame | UpdateFrame | AckFrame | ErrorFrame | PongFrame


# -- HTTP bodies -------------------------------------------------------------------------------


class ErrorDetail(TypedDict):
    code: ErrorCode
    message: str


class ErrorBody(TypedDict):
    error: ErrorDetail


class PresetJson(TypedDict):
    name: str
    summary: str


class InfoBody(TypedDict):
    protocol: int
    version: str
    presets: list[PresetJson]
    bots: list[str]
    solver: bool


class RulesBody(TypedDict):
    name: str
    summary: str
    options: dict[str, Any]
    reference: str


class TablesBody(TypedDict):
    tables: list[TableJson]


class CreatedBody(TypedDict):
    table: str
    seat: SeatName
    token: str | None
    invites: dict[str, str]
    spectate: str
    state: TableJson


class JoinedBody(TypedDict):
    seat: SeatName
    token: str


class DealSummaryJson(TypedDict):
    number: int
    dealer: SeatName
    text: str
    contract: ContractJson | None
    result: ResultJson | None
    seed: str
    commitment: str


class DealsBody(TypedDict):
    deals: list[DealSummaryJson]


class _ReplayBody(DealSummaryJson):
    hands: dict[str, list[str]]
    """Each seat's cards as dealt."""
    auction: list[CallJson]
    tricks: list[TrickJson]
    """Every trick, with its winner."""
    trump: SuitLetter | None


class ReplayBody(_ReplayBody, total=False):
    analysis: dict[str, Any] | None
    """With ``?analysis=1``: the double-dummy analysis, or null when it cannot run."""


# -- the engine's objects as JSON --------------------------------------------------------------


@functools.lru_cache(maxsize=2048)
def _action_json(number: int) -> ActionJson:
    action = action_from_id(number)
    out: ActionJson = {"id": number, "text": format_action(action), "kind": action_kind(number)}
    if isinstance(action, Bid):
        out["level"] = action.level
        out["strain"] = strain_letter(action.strain)
    elif isinstance(action, (Card, ChooseTrump)):
        out["suit"] = cast(SuitLetter, action.suit.letter)
    return out


def action_json(action: Action | int) -> ActionJson:
    """An action as the wire writes it (shared: write it out, do not change it).

    >>> json.dumps(action_json(Bid(8)))
    '{"id": 117, "text": "8", "kind": "bid", "level": 8, "strain": null}'
    """
    return _action_json(action_id(action))


def call_json(seat: Seat, action: Action) -> CallJson:
    return {"seat": seat_name(seat), "action": action_json(action)}


def trick_json(trick: Trick, card_points: bool = False) -> TrickJson:
    """A trick; ``card_points``: the rules count card points, so the trick tells its own."""
    return {
        "leader": seat_name(trick.leader),
        # JSON arrays, as stored events read back: equal before and after a round trip
        "cards": [cast(Play, [seat_name(seat), str(card)]) for seat, card in trick.plays],
        "winner": None if trick.winner is None else seat_name(trick.winner),
        "points": sum(c.card_points for c in trick.cards) if card_points else None,
    }


def contract_json(contract: Contract | None) -> ContractJson | None:
    if contract is None:
        return None
    return {
        "seat": seat_name(contract.declarer),
        "level": contract.level,
        "strain": strain_letter(contract.strain),
        "multiplier": contract.multiplier,
    }


def result_json(deal: Deal) -> ResultJson | None:
    """A finished deal's outcome, or ``None`` while it is played."""
    if deal.thrown_in is not None:
        return {"thrown_in": cast(ThrowInReason, deal.thrown_in)}
    result = deal.result
    if result is None:
        return None
    return {
        "points": list(result.team_points),
        "seat_points": None if result.seat_points is None else list(result.seat_points),
        "made": result.made,
        "all_thirteen": side_name(result.all_thirteen),
    }


# -- reading client frames ---------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    token: str | None
    since: int | None


@dataclass(frozen=True)
class Act:
    ref: str
    version: int
    action: int | str
    """The action's id, or the text it was sent as (read against the phase by the table)."""


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Ping:
    pass


Frame = Hello | Act | Chat | Ping

_NONE = type(None)
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"protocol": (int,), "token": (str, _NONE), "since": (int, _NONE)},
    "act": {"id": (str,), "version": (int,), "action": (int, str, dict)},
    "chat": {"text": (str,)},
    "ping": {},
}
_REQUIRED = {"hello": (), "act": ("id", "version", "action"), "chat": ("text",), "ping": ()}
_WHAT = {int: "an integer", str: "a string", dict: "an object"}


def _malformed(message: str) -> ServerError:
    return ServerError(ErrorCode.MALFORMED, message)


def _depth(value: object, limit: int) -> bool:
    """Whether ``value`` nests no deeper than ``limit`` objects or lists."""
    if isinstance(value, (dict, list)):
        if limit <= 0:
            return False
        items = value.values() if isinstance(value, dict) else value
        return all(_depth(v, limit - 1) for v in items)
    return True


def _load(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except RecursionError:
        raise _malformed(f"a frame nests at most {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise _malformed("a frame must be one JSON object") from None


def parse_frame(text: str | bytes) -> Frame:
    """Read one client frame.

    :raises ServerError: ``too_large`` over :data:`MAX_FRAME` bytes;
        ``malformed`` for anything but one of the protocol's frames, exactly.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_FRAME:
        raise ServerError(ErrorCode.TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes")
    data = _load(raw)
    if not isinstance(data, dict):
        raise _malformed("a frame must be one JSON object")
    if not _depth(data, MAX_DEPTH):
        raise _malformed(f"a frame nests at most {MAX_DEPTH} levels")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _malformed(f"unknown frame type {kind!r}")
    fields = _FIELDS[kind]
    for key, value in data.items():
        if key == "type":
            continue
        if key not in fields:
            raise _malformed(f"{kind}: unknown field {key!r}")
        if isinstance(value, bool) or not isinstance(value, fields[key]):
            what = " or ".join(_WHAT[t] for t in fields[key] if t is not _NONE)
            raise _malformed(f"{kind}: {key} must be {what}")
    for key in _REQUIRED[kind]:
        if key not in data:
            raise _malformed(f"{kind}: {key} is missing")
    if kind == "hello":
        if data.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
            raise _malformed(f"this server speaks protocol {PROTOCOL_VERSION}")
        since = data.get("since")
        if since is not None and since < 0:
            raise _malformed("hello: since must be 0 or more")
        return Hello(data.get("token"), since)
    if kind == "act":
        ref = data["id"]
        if not 0 < len(ref) <= MAX_ACTION_REF:
            raise _malformed(f"act: id must be 1 to {MAX_ACTION_REF} characters")
        try:
            return Act(ref, data["version"], _action_ref(data["action"]))
        except ServerError as exc:  # the error answers this act: it names its id
            raise ServerError(exc.code, exc.message, id=ref) from None
    if kind == "chat":
        return Chat(data["text"])
    return Ping()


_ACTION_KEYS = ("id", "text", "kind", "level", "strain", "suit")


def _action_ref(value: int | str | Mapping[str, Any]) -> int | str:
    """The action of an ``act``: an id, ``{"id": ...}``, or text."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    unknown = sorted(set(value) - set(_ACTION_KEYS))
    if unknown:
        raise _malformed(f"act: unknown action field {unknown[0]!r}")
    number = value.get("id")
    if isinstance(number, bool) or not isinstance(number, int):
        raise _malformed("act: an action object needs its integer id")
    try:
        known = action_json(number)
    except TarneebError:
        raise ServerError(ErrorCode.ILLEGAL, f"{number} is no action id") from None
    for key in _ACTION_KEYS[1:]:
        if key in value and value[key] != known.get(key):
            raise _malformed(f"act: action {key} {value[key]!r} is not that of id {number}")
    return number


if __name__ == "__main__":  # pragma: no cover - python -m tarneeb.server.wire --dts
    import sys

    from tarneeb.server.wiretypes import typescript

    if sys.argv[1:] != ["--dts"]:
        sys.exit("usage: python -m tarneeb.server.wire --dts")
    sys.stdout.write(typescript())
