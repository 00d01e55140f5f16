"""The wire's shapes of players (``/api/players/...``): accounts, profiles, ladders, the queue.

Each request body a route reads (``...Request``: the fields it takes, no other)
and each body it answers with (``...Body``). The server builds the answers
with these constructors, so ``mypy --strict`` checks them; the browser client
reads them by their generated types (``static/js/wire.d.ts``).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from tarneeb.server.wire.names import SeatName, TableStatus, _Text
from tarneeb.server.wire.schema import ContractJson

MAX_CLAIMS = 50
"""The most guest seats one sign-up, sign-in or claim hands in."""


class Family(_Text):
    """A ladder: the game family a rated match belongs to."""

    PARTNERSHIP = "partnership"
    """Partners bid for tricks together (classic, Lebanese, 61, sets, 400 ...)."""
    EGYPTIAN = "egyptian"
    """Bids name their strain (Egyptian)."""
    SOLO = "solo"
    """Every player bids alone for their own tricks (Syrian 400)."""


RatedState = Literal["open", "settled", "void"]
"""A rated table's match: not decided yet, rated, or void (not every seat a player's)."""


# -- requests ----------------------------------------------------------------------------------


class SeatClaimJson(TypedDict):
    """A seat a browser holds as a guest: its table and the seat's token."""

    table: str
    token: str


class _SignInRequest(TypedDict):
    name: str
    password: str


class SignInRequest(_SignInRequest, total=False):
    """``POST /api/players/login`` (and ``signup``): the name, the password, and the guest
    seats to make the account's."""

    seats: list[SeatClaimJson]
    """At most :data:`MAX_CLAIMS`."""


class SignUpRequest(SignInRequest):
    """``POST /api/players/signup``: as sign-in; the name must be free."""


class RecoverRequest(TypedDict):
    """``POST /api/players/recover``: the recovery code resets the password."""

    name: str
    code: str
    password: str


class ClaimRequest(TypedDict):
    """``POST /api/players/claim``: make these guest seats the signed-in player's."""

    seats: list[SeatClaimJson]


class EmptyRequest(TypedDict):
    """``POST /api/players/logout``, ``queue/leave``: no field (``{}``)."""


class RatedTableRequest(TypedDict, total=False):
    """``POST /api/players/tables``: the host's choice of rules (no bot seats)."""

    rules: str
    options: dict[str, Any]
    turn_seconds: float | None
    seats: dict[str, str]


class RatedJoinRequest(TypedDict, total=False):
    """``POST /api/players/tables/{id}/join``: a seat, or none for the first free one."""

    seat: SeatName | None


class QueueJoinRequest(TypedDict, total=False):
    """``POST /api/players/queue/join``: the preset to play (``classic`` if none)."""

    rules: str


class QueueBotsRequest(TypedDict, total=False):
    """``POST /api/players/queue/bots``: the bots' spec (the server's timer bot if none)."""

    bot: str


# -- answers ----------------------------------------------------------------------------------


class PlayerJson(TypedDict):
    name: str


class SignedUpBody(TypedDict):
    """``POST /api/players/signup`` (201, with the session cookie)."""

    player: PlayerJson
    recovery_code: str
    """Shown once: it resets the password."""
    claimed: int
    """How many of the guest seats became the account's."""


class SignedInBody(TypedDict):
    """``POST /api/players/login`` (with the session cookie)."""

    player: PlayerJson
    claimed: int


class RecoveredBody(TypedDict):
    """``POST /api/players/recover``: signed in, with a new recovery code (the old is void)."""

    player: PlayerJson
    recovery_code: str


class SignedOutBody(TypedDict):
    signed_out: Literal[True]


class MeBody(TypedDict):
    """``GET /api/players/me``: the signed-in player, or null for a guest."""

    player: PlayerJson | None


class ClaimedBody(TypedDict):
    claimed: int


class RatingJson(TypedDict):
    """A rating on one ladder: ``ordinal`` is ``mu - 3 sigma``, what the ladder orders by."""

    mu: float
    sigma: float
    ordinal: float
    played: int
    won: int


class RatingPointJson(TypedDict):
    """A player's rating after one rated result."""

    family: Family
    source: str
    """What was rated (``table:ID``, ``event:ID``)."""
    at: str
    won: bool
    mu: float
    sigma: float
    ordinal: float


class ContractsJson(TypedDict):
    """The contracts a player bid (as declarer) and made."""

    bid: int
    made: int


class MatchDealJson(TypedDict):
    """One deal of a finished match, from the player's seat."""

    number: int
    contract: ContractJson | None
    declarer: bool
    """Whether the contract was the player's."""
    made: bool | None
    points: int | None
    """The points the player's side (or they, scoring alone) took; null for a deal thrown in."""


class _PlayerMatchJson(TypedDict):
    table: str
    status: TableStatus
    rules: str
    created: str
    seat: SeatName
    replay: str
    """The table's page (its replay, once finished)."""
    rated: RatedState | None
    """Null for a table that is not rated."""
    claimed: str
    """When the seat became the player's."""


class PlayerMatchJson(_PlayerMatchJson, total=False):
    """A match a player sat at; a finished one tells its outcome too."""

    partner: str | None
    players: list[str | None]
    """The names per seat (South, East, North, West)."""
    won: bool | None
    scores: list[int] | None
    contracts: ContractsJson
    deals: list[MatchDealJson]
    record: str
    """The table's record download."""


class ProfileBody(TypedDict):
    """``GET /api/players/profile/{name}``."""

    name: str
    ratings: dict[str, RatingJson]
    """By ladder (:class:`Family`): those the player has a rating on."""
    rating_history: list[RatingPointJson]
    """Oldest first, every ladder."""
    matches: list[PlayerMatchJson]
    """The latest first."""
    contracts: ContractsJson
    """Over the finished matches listed."""


class LeaderboardRowJson(RatingJson):
    rank: int
    name: str


class LeaderboardBody(TypedDict):
    """``GET /api/players/leaderboard?family=``."""

    family: Family
    families: list[Family]
    players: list[LeaderboardRowJson]
    """Best ordinal first."""


class RatedSeatJson(TypedDict):
    seat: SeatName
    name: str | None
    """Null for a free seat."""


class RatedTableJson(TypedDict):
    id: str
    rules: str
    target: int
    """The match's target: the preset's own or the host's."""
    family: Family
    seats: list[RatedSeatJson]


class RatedTablesBody(TypedDict):
    """``GET /api/players/tables``: the rated tables waiting for players."""

    tables: list[RatedTableJson]


class RatedCreatedBody(TypedDict):
    """``POST /api/players/tables`` (201): the host sits South."""

    table: str
    seat: SeatName
    token: str
    rated: Literal[True]


class RatedJoinedBody(TypedDict):
    """``POST /api/players/tables/{id}/join``."""

    seat: SeatName
    token: str


class QueueIdleBody(TypedDict):
    """Not in the ranked queue."""

    state: Literal["idle"]


class QueueWaitingBody(TypedDict):
    """Waiting in the ranked queue."""

    state: Literal["waiting"]
    rules: str
    waited: float
    """Seconds in the queue."""
    window: float
    """How far from their own ordinal the player takes the others now."""
    ordinal: float
    others: int
    """The others waiting for the same rules."""
    bots_offered: bool
    bot_wait: float
    """Seconds in the queue before bots are offered."""


class QueueSeatedBody(TypedDict):
    """Seated by the queue: the table, seat and token (``rated`` false at a table of bots)."""

    state: Literal["seated"]
    table: str
    seat: SeatName
    token: str
    rated: bool


QueueBody = QueueIdleBody | QueueWaitingBody | QueueSeatedBody
"""``GET /api/players/queue`` and the answers of ``queue/join``, ``leave`` and ``bots``."""
