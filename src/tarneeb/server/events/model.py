"""A hosted event: its set-up, its pairs, and the log of facts its state is rebuilt from.

A :class:`HostedEvent` holds no I/O, like a :class:`~tarneeb.server.table.Table`:
every change is a :class:`Fact` appended to its log and applied by one method,
:meth:`HostedEvent._apply`, which restoring a stored event runs too. The
tournament itself is the core's (:mod:`tarneeb.competitions`), told each set
result; the play of each set lives in its table's own log, never here.

A pair's members are opaque to the event: a name, and either a bot's spec or
a player's identity (``guest:...`` for a guest, whose seat token the event
made; an account's identity once the server has accounts) and the hash of the
token that holds the member's seat at each of the event's tables.

>>> event = HostedEvent.new("e1", EventConfig.from_dict({"kind": "sets-match", "sets": 3}))
>>> host = event.make_host()
>>> _ = event.register("Cedars", [Member("Layla"), Member("Bot", bot="random")])
>>> _ = event.register("Olives", [Member("Bot", bot="random"), Member("Bot", bot="random")])
>>> event.start()
>>> [(p.number, p.ns, p.ew) for p in event.unseated()]
[(1, 'p1', 'p2')]
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from tarneeb.competitions import Knockout, SetsMatch, Tournament
from tarneeb.errors import TarneebError
from tarneeb.match import Match
from tarneeb.presets import find_rules
from tarneeb.seats import Seat
from tarneeb.server.config import TableConfig, check_bot_spec
from tarneeb.server.seating import token_hash
from tarneeb.server.text import clean_text
from tarneeb.server.wire import (
    MAX_EVENT_SETS,
    MAX_NAME,
    MAX_PAIRS,
    ErrorCode,
    EventFormat,
    EventStatus,
    ServerError,
)
from tarneeb.tournament import KingOfTheTable, Pairing, SetPlayed, TournamentError

__all__ = [
    "ACCOUNT",
    "EventConfig",
    "Fact",
    "FactKind",
    "HostedEvent",
    "Member",
    "Pair",
    "account_identity",
    "bot_member",
    "guest_identity",
]

MAX_TITLE = 60
"""The longest event title, in characters."""


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServerError(
            ErrorCode.MALFORMED, f"{what} must be a whole number from {low} to {high}"
        )
    return value


@dataclass(frozen=True)
class EventConfig:
    """How an event was set up; stored with it and never changed.

    :param kind: king of the table, a match of sets, or a knock-out.
    :param rules: the preset each set is played by (one set of it: to ``target``).
    :param target: the score that ends a set; ``None``: the preset's.
    :param capacity: the pairs the event takes (a match of sets: two).
    :param sets: king of the table: the most sets it lasts (13 by default);
        a match of sets: its sets (13 by default); a knock-out: ``None``.
    :param streak: king of the table only: it ends once a pair wins this many
        sets in a row; ``None``: no such end.
    :param bot: the bot that plays for a bot member.
    :param turn_seconds: a player's time for a turn at the event's tables (the
        event waits for nobody longer); ``None``: no turn timer.
    :param rated: whether the event's set results go to the ratings hook
        (:class:`~tarneeb.server.events.host.SetResultHook`).
    """

    kind: EventFormat
    title: str = "Tournament"
    rules: str = "classic"
    target: int | None = None
    capacity: int = 6
    sets: int | None = None
    streak: int | None = None
    bot: str = "heuristic"
    turn_seconds: float | None = 60.0
    rated: bool = False

    def table_config(self, seats: Sequence[str]) -> TableConfig:
        """The set-up of one set's table: ``seats`` (South first) ``human`` or ``bot:SPEC``."""
        options: dict[str, Any] = {"sets": 1}
        if self.target is not None:
            options["target"] = self.target
        return TableConfig(
            self.rules,
            options,
            (seats[0], seats[1], seats[2], seats[3]),
            public=False,
            turn_seconds=self.turn_seconds,
        )

    @property
    def set_target(self) -> int:
        return self.table_config(["human"] * 4).rules.target

    def tournament(self, order: Sequence[str]) -> Tournament:
        """The core's tournament of the pairs ``order`` (their ids, best seed first)."""
        if self.kind is EventFormat.KING_OF_THE_TABLE:
            return KingOfTheTable(order, sets=self.sets, streak=self.streak)
        if self.kind is EventFormat.SETS_MATCH:
            return SetsMatch(order, sets=self.sets or 13)
        return Knockout(order)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "title": self.title,
            "rules": self.rules,
            "target": self.target,
            "capacity": self.capacity,
            "sets": self.sets,
            "streak": self.streak,
            "bot": self.bot,
            "turn_seconds": self.turn_seconds,
            "rated": self.rated,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventConfig:
        """Read and check an event's set-up (the body of ``POST /api/events``).

        :raises ServerError: ``malformed`` naming the bad key or value.
        """
        known = {"kind", "title", "rules", "target", "capacity", "pairs", "sets", "streak"}
        known |= {"bot", "turn_seconds", "rated"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ServerError(ErrorCode.MALFORMED, f"unknown event setting {unknown[0]!r}")
        try:
            kind = EventFormat(data.get("kind"))
        except ValueError:
            kinds = ", ".join(k.value for k in EventFormat)
            raise ServerError(
                ErrorCode.MALFORMED, f"an event's kind is one of {kinds}, not {data.get('kind')!r}"
            ) from None
        title = data.get("title", "Tournament")
        if not isinstance(title, str) or not title.strip():
            raise ServerError(ErrorCode.MALFORMED, "an event's title is a line of text")
        title = clean_text(title, "a title", MAX_TITLE)
        rules = data.get("rules", "classic")
        if not isinstance(rules, str):
            raise ServerError(ErrorCode.MALFORMED, "rules must be a preset name")
        rules = rules.strip().lower()
        try:
            preset = find_rules(rules)
        except TarneebError:
            raise ServerError(ErrorCode.MALFORMED, f"no preset {rules!r}") from None
        if preset.is_individual:
            raise ServerError(ErrorCode.MALFORMED, f"{rules} is played alone, not in pairs")
        target = data.get("target")
        if target is not None:
            target = _whole(target, "target", 1, 1000)
        default = 2 if kind is EventFormat.SETS_MATCH else 6
        capacity = _whole(data.get("capacity", data.get("pairs", default)), "pairs", 2, MAX_PAIRS)
        if kind is EventFormat.SETS_MATCH and capacity != 2:
            raise ServerError(ErrorCode.MALFORMED, "a match of sets is between two pairs")
        sets = data.get("sets")
        streak = data.get("streak")
        if kind is EventFormat.KNOCKOUT and (sets is not None or streak is not None):
            raise ServerError(ErrorCode.MALFORMED, "a knock-out plays one set a tie: no sets")
        if kind is EventFormat.SETS_MATCH and streak is not None:
            raise ServerError(ErrorCode.MALFORMED, "a match of sets plays all its sets: no streak")
        if kind is not EventFormat.KNOCKOUT:
            sets = 13 if sets is None else _whole(sets, "sets", 1, MAX_EVENT_SETS)
        if streak is not None:
            streak = _whole(streak, "streak", 1, MAX_EVENT_SETS)
        bot = data.get("bot", "heuristic")
        if not isinstance(bot, str):
            raise ServerError(ErrorCode.MALFORMED, "bot must be a bot spec")
        bot = check_bot_spec(bot)
        turn = data.get("turn_seconds", 60.0)
        if turn is not None:
            if isinstance(turn, bool) or not isinstance(turn, (int, float)) or not 5 <= turn <= 600:
                raise ServerError(
                    ErrorCode.MALFORMED, "turn_seconds must be null or a number from 5 to 600"
                )
            turn = float(turn)
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise ServerError(ErrorCode.MALFORMED, "rated must be true or false")
        return cls(kind, title, rules, target, capacity, sets, streak, bot, turn, rated)


@dataclass(frozen=True)
class Member:
    """One member of a pair: a bot (``bot``, its spec) or a player.

    :param identity: the player's identity, opaque to the event (a guest's,
        ``guest:...``, or an account's); what a ratings hook is given.
    :param token_hash: the hash of the token that holds the player's seats.
    """

    name: str
    bot: str | None = None
    identity: str | None = None
    token_hash: str | None = None

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


ACCOUNT = "account:"
"""The prefix of a signed-in player's identity in an event (then the account's id)."""


def account_identity(account_id: str) -> str:
    """A signed-in player's identity in an event: ``account:`` and the account's id."""
    return f"{ACCOUNT}{account_id}"


def guest_identity(digest: str) -> str:
    """A guest's identity in an event: its seat token's hash (the token itself stays the guest's)."""
    return f"guest:{digest}"


@dataclass(frozen=True)
class Pair:
    id: str
    name: str
    members: tuple[Member, Member]
    seed: int


class FactKind(str, enum.Enum):
    """The kinds of fact of an event's log."""

    CREATED = "created"
    """The event was made (its host's token hash secret)."""
    REGISTERED = "registered"
    """A pair registered: its id, name and members (their tokens' hashes secret)."""
    STARTED = "started"
    """Registration closed; the pairs in seeding order."""
    SEATED = "seated"
    """A set was seated at a table (made just before, in the tables' log)."""
    RESULT = "result"
    """A set ended so (read from its table's match end)."""


@dataclass(frozen=True)
class Fact:
    """One entry of an event's log: ``data`` is public, ``secret`` stays on the server."""

    seq: int
    kind: FactKind
    data: Mapping[str, Any]
    secret: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", FactKind(self.kind))
        except ValueError:
            raise ServerError(ErrorCode.INTERNAL, f"unknown event fact {self.kind!r}") from None


@dataclass(eq=False)
class HostedEvent:
    """One event: its set-up, pairs, tournament and log of facts (see the module docs)."""

    id: str
    config: EventConfig
    created: str
    facts: list[Fact] = field(default_factory=list)
    pairs: dict[str, Pair] = field(default_factory=dict)
    tournament: Tournament | None = None
    tables: dict[int, str] = field(default_factory=dict)
    """The table of each set seated, by set number."""
    host_hash: str | None = None

    # -- making and restoring -------------------------------------------------------------

    @classmethod
    def new(cls, event_id: str, config: EventConfig) -> HostedEvent:
        return cls(event_id, config, _now())

    @classmethod
    def restore(
        cls, event_id: str, config: EventConfig, created: str, facts: Sequence[Fact]
    ) -> HostedEvent:
        """The event its stored ``facts`` built, exactly as it was.

        :raises ServerError: ``internal`` for facts out of order or that do not follow.
        """
        event = cls(event_id, config, created)
        for fact in facts:
            if fact.seq != len(event.facts) + 1:
                raise ServerError(
                    ErrorCode.INTERNAL, f"event {event_id}: fact {fact.seq} out of order"
                )
            event.facts.append(fact)
            try:
                event._apply(fact)
            except (TournamentError, KeyError, TypeError, ValueError) as exc:
                raise ServerError(
                    ErrorCode.INTERNAL, f"event {event_id}: fact {fact.seq} does not follow: {exc}"
                ) from None
        return event

    # -- reading --------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return len(self.facts)

    @property
    def status(self) -> EventStatus:
        if self.tournament is None:
            return EventStatus.REGISTERING
        return EventStatus.FINISHED if self.tournament.is_over() else EventStatus.RUNNING

    @property
    def full(self) -> bool:
        return len(self.pairs) >= self.config.capacity

    def unseated(self) -> list[Pairing]:
        """The sets that can be played now and have no table yet."""
        if self.tournament is None:
            return []
        return [p for p in self.tournament.pending() if p.number not in self.tables]

    def pairing_of(self, table_id: str) -> Pairing | None:
        """The set being played at ``table_id``, ``None`` for none (or one that ended)."""
        if self.tournament is None:
            return None
        for pairing in self.tournament.pending():
            if self.tables.get(pairing.number) == table_id:
                return pairing
        return None

    def seats_of(self, pairing: Pairing) -> dict[Seat, Member]:
        """Who sits where for ``pairing``: North-South's first member South, its second
        North; East-West's first East, its second West."""
        ns, ew = self.pairs[pairing.ns].members, self.pairs[pairing.ew].members
        return {Seat.SOUTH: ns[0], Seat.NORTH: ns[1], Seat.EAST: ew[0], Seat.WEST: ew[1]}

    def check_host(self, token: object) -> None:
        """:raises ServerError: ``unauthorized`` unless ``token`` is the host's."""
        if not isinstance(token, str) or self.host_hash is None:
            raise ServerError(ErrorCode.UNAUTHORIZED, "only the event's host may do that")
        if not secrets.compare_digest(token_hash(token), self.host_hash):
            raise ServerError(ErrorCode.UNAUTHORIZED, "only the event's host may do that")

    # -- requests -------------------------------------------------------------------------

    def make_host(self) -> str:
        """The first fact: the event is made; returns its host's token (its hash is kept)."""
        if self.facts:
            raise ServerError(ErrorCode.CONFLICT, "the event has its host already")
        token = secrets.token_urlsafe(24)
        self._record(FactKind.CREATED, {}, {"host": token_hash(token)})
        return token

    def register(self, name: object, members: Sequence[Member]) -> str:
        """A new pair; returns its id.

        :raises ServerError: ``conflict`` once started or full, or for a name in use;
            ``malformed`` for a bad name or not two members.
        """
        if self.tournament is not None:
            raise ServerError(ErrorCode.CONFLICT, "the event has started: registration is closed")
        if self.full:
            raise ServerError(
                ErrorCode.CONFLICT, f"the event is full: it takes {self.config.capacity} pairs"
            )
        if len(members) != 2:
            raise ServerError(ErrorCode.MALFORMED, "a pair is two members")
        pair_id = f"p{len(self.pairs) + 1}"
        clean = pair_id.upper() if name is None else _pair_name(name)
        if any(p.name.casefold() == clean.casefold() for p in self.pairs.values()):
            raise ServerError(ErrorCode.CONFLICT, f"a pair is called {clean!r} already")
        data = {"pair": pair_id, "name": clean, "members": [m.public() for m in members]}
        secret: dict[str, Any] = {
            "players": [
                None if m.bot is not None else {"identity": m.identity, "token_hash": m.token_hash}
                for m in members
            ]
        }
        self._record(FactKind.REGISTERED, data, secret)
        return pair_id

    def start(self) -> None:
        """Close registration and start the tournament, the pairs seeded as they registered.

        :raises ServerError: ``conflict`` once started, or with too few pairs
            (a match of sets: exactly two).
        """
        if self.tournament is not None:
            raise ServerError(ErrorCode.CONFLICT, "the event has already started")
        if len(self.pairs) < 2:
            raise ServerError(ErrorCode.CONFLICT, "an event needs at least two pairs to start")
        self._record(FactKind.STARTED, {"order": list(self.pairs)})

    def seat(self, pairing: Pairing, table_id: str) -> None:
        """Record that set ``pairing`` is played at ``table_id`` (stored just before)."""
        self._record(FactKind.SEATED, {"set": pairing.number, "table": table_id})

    def finish_set(self, table_id: str, match: Match) -> SetPlayed | None:
        """Record how the set at ``table_id`` ended, from its finished match; the result,
        or ``None`` when that table plays no set of this event now (told already)."""
        pairing = self.pairing_of(table_id)
        if pairing is None or not match.is_over() or not match.sets:
            return None
        result = pairing.result_of(match.sets[-1])
        self._record(FactKind.RESULT, {**result.to_dict(), "table": table_id})
        return result

    # -- the log --------------------------------------------------------------------------

    def _record(
        self, kind: FactKind, data: Mapping[str, Any], secret: Mapping[str, Any] | None = None
    ) -> Fact:
        fact = Fact(len(self.facts) + 1, kind, dict(data), None if secret is None else dict(secret))
        self._apply(fact)
        self.facts.append(fact)
        return fact

    def _apply(self, fact: Fact) -> None:
        """Change the event as ``fact`` says: the one place its state changes."""
        data = fact.data
        if fact.kind is FactKind.CREATED:
            self.host_hash = str((fact.secret or {})["host"])
        elif fact.kind is FactKind.REGISTERED:
            secret = fact.secret or {}
            players = secret.get("players", [None, None])
            members = []
            for public, player in zip(data["members"], players, strict=True):
                members.append(
                    Member(
                        str(public["name"]),
                        public.get("bot"),
                        None if player is None else player.get("identity"),
                        None if player is None else player.get("token_hash"),
                    )
                )
            pair_id = str(data["pair"])
            self.pairs[pair_id] = Pair(
                pair_id, str(data["name"]), (members[0], members[1]), len(self.pairs) + 1
            )
        elif fact.kind is FactKind.STARTED:
            self.tournament = self.config.tournament([str(p) for p in data["order"]])
        elif fact.kind is FactKind.SEATED:
            self.tables[int(data["set"])] = str(data["table"])
        elif fact.kind is FactKind.RESULT:
            assert self.tournament is not None
            self.tournament.record_set(SetPlayed.from_dict(data))


def _pair_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ServerError(ErrorCode.MALFORMED, "a pair's name is a line of text")
    return clean_text(name, "a pair's name", MAX_NAME)


def bot_member(spec: str) -> Member:
    """A bot member of a pair."""
    return Member("Bot", bot=spec)
