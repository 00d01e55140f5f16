"""The wire's shapes: a TypedDict for every frame, event, state and HTTP body."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from tarneeb.actions import ActionKind
from tarneeb.server.wire.names import (
    ActedBy,
    ErrorCode,
    EventKind,
    Level,
    PhaseName,
    Play,
    Reaction,
    SeatKind,
    SeatName,
    Side,
    StrainLetter,
    SuitLetter,
    TableStatus,
    ThrowInReason,
    Unit,
)

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
    level: Level | None
    """The level of the bot in the seat or holding it (``easy`` .. ``expert``), or null for
    another bot or none: a client names a bot seat from its seat and level, in its words."""
    reserved: bool
    """A free seat kept for the holder of its invite: nobody else may take it."""
    away_deadline: float | None
    """While a seated player is away: the server's Unix time at which a bot takes the seat
    over (compare with the state's ``server_time``); null otherwise."""


class ProgressJson(TypedDict):
    """How far a contract is: ``{"side": "NS", "taken": 5, "needed": 8}`` is "N-S 5 of 8"."""

    seat: SeatName
    """The declarer, or the bidder where every player bids alone."""
    side: Side
    taken: int
    """Tricks (or card points, ``unit``) the declaring side, or the bidder, has taken."""
    needed: int
    """What the contract, or the bid, needs."""
    unit: Unit


class SheetRowJson(TypedDict):
    """One finished deal on the score sheet."""

    number: int
    set: int
    """The set the deal belongs to (from 1; always 1 where sets are not counted)."""
    dealer: SeatName
    contract: ContractJson | None
    bids: list[int | None]
    """Each player's own bid where every player bids alone (Syrian 400), else nulls."""
    tricks: list[int]
    """Tricks taken per seat."""
    side_tricks: list[int]
    card_points: list[int] | None
    """Card points taken per side where the rules count them (Tarneeb 400), else null."""
    result: ResultJson | None
    scores: list[int]
    """The running scores of the set after the deal, per side."""
    seat_scores: list[int]
    """... and per seat (the players' own where they score alone)."""


class RematchJson(TypedDict):
    """After the match: who wants a rematch (same seats and rules, new deals)."""

    votes: list[bool | None]
    """Per seat: true, false, or null for not yet (a bot seat always says true)."""
    table: str | None
    """The rematch's table once every player agreed; your seat token holds your seat there."""


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
    progress: list[ProgressJson]
    """How far the contract is (one entry), or each player's bid (four); empty before."""
    trump_pending: bool
    """Whether the contract's trump is still to be named (a bid that names no suit, before
    the declarer names it); ``trump`` is the contract's suit as soon as the bid names one."""
    set_number: int
    """The set under way (from 1)."""
    sets_counted: bool
    """Whether the match is played in sets (``sets`` of the rules above 1)."""


class StateJson(TypedDict):
    status: TableStatus
    seats: list[SeatJson]
    version: int
    turn_deadline: float | None
    server_time: float
    """The server's Unix time when it built the state, for the deadlines in it."""
    match: MatchJson | None
    rematch: RematchJson | None
    """Null until the match is over."""


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
    hints: bool
    """Whether a seat may ask for a hint (the host's choice at creation)."""
    custom: dict[str, Any]
    """The options that differ from the preset's (``{"target": 31}``), shown as custom."""


# -- events -----------------------------------------------------------------------------------


class JoinedEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.JOINED]
    seat: SeatName
    name: str | None
    bot: str | None
    level: Level | None
    """The bot's level, if its spec is one."""


class InvitedEvent(TypedDict):
    """Invites were made for these free seats (their secrets are never sent)."""

    seq: int
    kind: Literal[EventKind.INVITED]
    seats: list[SeatName]
    reserved: bool
    """Whether the invites keep their seats (true since protocol 3)."""


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
    row: SheetRowJson
    """The deal's row of the score sheet."""


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
    level: Level | None


class ReclaimEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.RECLAIM]
    seat: SeatName


class SeatLinkEvent(TypedDict):
    """A seat link was made for the seat (an earlier one of the seat no longer works)."""

    seq: int
    kind: Literal[EventKind.SEAT_LINK]
    seat: SeatName


class MovedEvent(TypedDict):
    """The seat's player moved to another device by its seat link (the old token is void)."""

    seq: int
    kind: Literal[EventKind.MOVED]
    seat: SeatName


class RematchVoteEvent(TypedDict):
    seq: int
    kind: Literal[EventKind.REMATCH_VOTE]
    seat: SeatName
    vote: bool


class RematchEvent(TypedDict):
    """Every player wants a rematch: it is table ``table`` (each seat token holds its seat)."""

    seq: int
    kind: Literal[EventKind.REMATCH]
    table: str


EventJson = (
    JoinedEvent
    | InvitedEvent
    | LeftEvent
    | StartedEvent
    | DealEvent
    | ActionEvent
    | DealEndEvent
    | MatchEndEvent
    | ChatEvent
    | TakeoverEvent
    | ReclaimEvent
    | SeatLinkEvent
    | MovedEvent
    | RematchVoteEvent
    | RematchEvent
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


class HintFrame(TypedDict):
    """Ask what the bot would do in your seat now (your turn, at a table with hints)."""

    type: Literal["hint"]


class ReactFrame(TypedDict):
    type: Literal["react"]
    reaction: Reaction


class RematchFrame(TypedDict):
    """After the match: whether you want a rematch."""

    type: Literal["rematch"]
    vote: bool


ClientFrame = HelloFrame | ActFrame | ChatFrame | PingFrame | HintFrame | ReactFrame | RematchFrame


class WelcomeFrame(TypedDict):
    type: Literal["welcome"]
    protocol: int
    seat: SeatName | None
    seq: int
    version: int
    table: TableJson
    state: StateJson
    events: list[EventJson] | None
    sheet: list[SheetRowJson]
    """The score sheet: every finished deal of the match (each ``deal_end`` adds its row)."""


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
    reference: str
    """The error's reference id: the server's log line of it names the same one."""


class ErrorFrame(_ErrorFrame, total=False):
    id: str
    """The ``id`` of the ``act`` it answers."""
    version: int
    """Where a ``duplicate`` action took the table."""


class PongFrame(TypedDict):
    type: Literal["pong"]


class CardArg(TypedDict):
    card: str


class SuitArg(TypedDict):
    suit: SuitLetter


class StrainArg(TypedDict):
    strain: StrainLetter


class InnerReasonJson(TypedDict):
    """A reason inside a reason: its arguments are of :data:`ReasonArg` too."""

    key: str | None
    args: dict[str, Any]
    text: str


ReasonArg = str | float | CardArg | SuitArg | StrainArg | InnerReasonJson
"""An argument of a reason: a number, a text, a card, suit or strain (shown in the client's
words), or another reason."""


class ReasonJson(TypedDict):
    """Why: a message of the catalogue (``reason.NAME``) and its arguments."""

    key: str | None
    """The catalogue key; null for a reason that is only its text, the same in every
    language."""
    args: dict[str, ReasonArg]
    text: str
    """The reason in English (what to show where the client lacks the key)."""


class HintAnswerFrame(TypedDict):
    """The answer to ``hint``, to the asker only: what the bot would do, and why."""

    type: Literal["hint"]
    version: int
    """The state version it is for (stale once the table moved on)."""
    action: ActionJson
    reason: ReasonJson | None


class ReactionFrame(TypedDict):
    """A seat's quick reaction, to every connection of the table (not kept in the log)."""

    type: Literal["reaction"]
    seat: SeatName
    reaction: Reaction


class ByeFrame(TypedDict):
    """The server closes this socket on purpose: ``moved``, the seat went to another device."""

    type: Literal["bye"]
    reason: Literal["moved"]


ServerFrame = (
    WelcomeFrame
    | UpdateFrame
    | AckFrame
    | ErrorFrame
    | PongFrame
    | HintAnswerFrame
    | ReactionFrame
    | ByeFrame
)


# -- HTTP bodies -------------------------------------------------------------------------------


class ErrorDetail(TypedDict):
    code: ErrorCode
    message: str
    reference: str
    """The error's reference id: the server's log line of it names the same one."""


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
    levels: list[Level]
    """The bot levels to fill seats with (``level`` of ``start``, ``bot:LEVEL`` of a seat)."""
    reactions: list[Reaction]


class RulesBody(TypedDict):
    name: str
    lang: str
    """The language of ``summary`` and ``reference`` (``?lang=``, else the browser's, else en)."""
    dir: Literal["ltr", "rtl"]
    """The direction that language is written in."""
    summary: str
    options: dict[str, Any]
    reference: str
    """Every option and its value, as ``tarneeb rules NAME`` prints it: for whoever sets rules up."""
    howto: str
    """How to play, for players: the summary and how the game goes in plain words, no option names."""


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


class InviteBody(TypedDict):
    """``POST .../invite``: one invite for these free seats; its holder takes one of them."""

    seats: list[SeatName]
    link: str


class SeatLinkBody(TypedDict):
    """``POST .../seat-link``: a link that moves your seat to another device (once)."""

    seat: SeatName
    link: str
    """``/t/ID#claim=SECRET``: the secret is in the fragment, which no server logs."""


class MySeatJson(TypedDict):
    seat: SeatName
    table: TableJson
    to_act: bool
    """Whether it is this seat's turn."""


class MySeatsBody(TypedDict):
    """``POST /api/seats``: the tables still running where these tokens hold a seat."""

    seats: list[MySeatJson]


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


class HealthBody(TypedDict):
    """``GET /healthz``: the process answers (liveness)."""

    status: Literal["ok"]


class ReadyBody(TypedDict):
    """``GET /readyz``: whether the server can take players now (status 503 when not)."""

    status: Literal["ready", "not ready"]
    checks: dict[str, str]
    """Each check's outcome: ``database`` (``ok``, ``unavailable``), ``tables`` (``ok``,
    ``degraded``, ``unknown``)."""
