"""The wire's shapes of hosted tournaments (``/api/events``, ``/ws/events/{id}``).

A tournament of pairs on the server is an *event* (:mod:`tarneeb.server.events`);
these are the bodies and the one frame its API and its WebSocket send.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from tarneeb.server.wire.names import _Text

MAX_PAIRS = 32
"""The most pairs an event takes."""
MAX_EVENT_SETS = 99
"""The most sets a king-of-the-table event or a match of sets may last."""


class EventFormat(_Text):
    """The kinds of event (the core's tournaments, :mod:`tarneeb.competitions`)."""

    KING_OF_THE_TABLE = "king-of-the-table"
    SETS_MATCH = "sets-match"
    KNOCKOUT = "knockout"


class EventStatus(_Text):
    """Where an event stands: pairs register, then sets are played, then it is over."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


SetStatus = Literal["waiting", "playing", "finished"]


class EventMemberJson(TypedDict):
    name: str
    bot: str | None
    """The bot spec of a bot member, null for a player."""


class EventPairJson(TypedDict):
    id: str
    """The pair's id in the event (``p1``, ``p2``, ... in the order they registered)."""
    name: str
    members: list[EventMemberJson]
    """Two members: at a set's table the first sits South (North-South) or East, the second opposite."""
    seed: int
    """The pair's place in the seeding: its order of registration, from 1."""


class EventSetJson(TypedDict):
    number: int
    """The set's number from 1; 0 for a knock-out's bye (no set is played)."""
    round: int | None
    """A knock-out's round, from 1 (the last is the final); null for the other kinds."""
    ns: str | None
    """The pair at North-South (null until a knock-out knows it)."""
    ew: str | None
    table: str | None
    """The table the set is played at, once it is seated (``/t/{table}`` watches it)."""
    status: SetStatus
    winner: str | None
    scores: list[int] | None
    """North-South's and East-West's scores when the set ended."""


class EventStandingJson(TypedDict):
    rank: int
    pair: str
    played: int
    won: int
    lost: int
    points_for: int
    points_against: int
    streak: int
    best_streak: int
    at_table: bool


class HostedEventJson(TypedDict):
    id: str
    title: str
    kind: EventFormat
    status: EventStatus
    rules: str
    target: int
    """The score that ends a set."""
    sets: int | None
    """King of the table: the sets it lasts at most; a match of sets: its sets; null for a knock-out."""
    streak: int | None
    """King of the table: the sets in a row that end it early; null for none."""
    capacity: int
    """The pairs the event takes."""
    rated: bool
    created: str
    pairs: list[EventPairJson]
    standings: list[EventStandingJson]
    games: list[EventSetJson]
    """The sets seated or played, in order of number; a knock-out's whole bracket (byes included)."""
    queue: list[str]
    """King of the table: the pairs waiting for the table, the next first."""
    rounds: int | None
    """A knock-out's number of rounds."""
    winner: str | None


class EventSummaryJson(TypedDict):
    id: str
    title: str
    kind: EventFormat
    status: EventStatus
    rules: str
    registered: int
    capacity: int
    rated: bool
    """Whether it is rated: signed-in players only, its results feed the ratings."""
    created: str
    winner: str | None


class EventsBody(TypedDict):
    events: list[EventSummaryJson]
    """The newest events first."""
    presets: list[str]
    """The presets an event may be played by: those played in pairs."""


class EventCreatedBody(TypedDict):
    """``POST /api/events``: the event, and the host's token (to add bot pairs and start)."""

    event: HostedEventJson
    host_token: str


class EventPartnerBody(TypedDict):
    """``POST /api/events/{id}/partner``: a signed-in player's ticket for their partner,
    who registers the pair with it (``{"partner": TICKET}``); it lasts ten minutes. A new
    ticket replaces the giver's ticket of the event made before."""

    partner: str
    token: str
    """The giver's own seat token: it holds the giver's seats at the pair's sets."""


class EventRegisteredBody(TypedDict):
    """``POST /api/events/{id}/pairs``: the pair, and a token for each member who is a player.

    A member's token holds that member's seat at every table of the event."""

    pair: str
    tokens: list[str | None]
    event: HostedEventJson


class EventFrame(TypedDict):
    """What ``/ws/events/{id}`` sends: the whole event, at once and after every change."""

    type: Literal["event"]
    event: HostedEventJson
