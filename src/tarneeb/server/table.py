"""A table of the server: four seats, a match, and the log of events that built them.

A :class:`Table` holds no I/O. Every change is an :class:`Event` appended to
its log and applied by one method, :meth:`Table._apply`; restoring a table
from its stored log (:meth:`Table.restore`) runs the very same method, so a
restarted server holds the identical table. A refused request raises
:class:`ServerError` with the protocol's error code and changes nothing.

>>> table = Table.new("t1", TableConfig(seats=("human", "bot:random", "bot:random", "bot:random")))
>>> token = table.join("Layla", Seat.SOUTH)
>>> str(table.status), [str(e.kind) for e in table.events]
('playing', ['joined', 'joined', 'joined', 'joined', 'started', 'deal'])

Its error codes, limits and status names are the wire's (:mod:`tarneeb.server.wire`),
re-exported here.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from tarneeb.actions import action_id, format_action, parse_action
from tarneeb.bots.policy import remote_spec_allowed
from tarneeb.bots.registry import make_bot
from tarneeb.cards import Card
from tarneeb.errors import TarneebError
from tarneeb.match import Match
from tarneeb.presets import find_rules
from tarneeb.rules import Rules
from tarneeb.seats import SEATS, Seat
from tarneeb.server.fairness import commitment, deck_from_seed, new_seed
from tarneeb.server.wire import MAX_ACTION_REF as MAX_ACTION_ID
from tarneeb.server.wire import (
    MAX_CHAT,
    MAX_NAME,
    MAX_TOKEN,
    ActedBy,
    ErrorCode,
    EventKind,
    SeatKind,
    ServerError,
    TableStatus,
    contract_json,
    counts_card_points,
    parse_seat_name,
    result_json,
    seat_name,
    trick_json,
)

__all__ = [
    "MAX_ACTION_ID",
    "MAX_CHAT",
    "MAX_NAME",
    "ErrorCode",
    "Event",
    "SeatState",
    "ServerError",
    "Table",
    "TableConfig",
    "check_chat",
    "parse_seat_name",
    "seat_name",
]


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class TableConfig:
    """How a table was set up; stored with it and never changed."""

    rules_name: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, str, str, str] = ("human", "human", "human", "human")
    """``"human"`` or ``"bot:SPEC"`` for each seat, South first."""
    public: bool = True
    turn_seconds: float | None = None
    takeover_seconds: float = 30.0

    @property
    def rules(self) -> Rules:
        base = find_rules(self.rules_name)
        return base.replace(**dict(self.options)) if self.options else base

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules_name,
            "options": dict(self.options),
            "seats": {seat_name(seat): kind for seat, kind in zip(SEATS, self.seats, strict=True)},
            "public": self.public,
            "turn_seconds": self.turn_seconds,
            "takeover_seconds": self.takeover_seconds,
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> TableConfig:
        """A stored set-up: as :meth:`from_dict`, but so that every stored table loads: a
        turn timer set before today's bounds (:data:`TURN_SECONDS`) is moved into them, and
        a match longer than :data:`MATCH_LIMITS` allow keeps its length."""
        turn = data.get("turn_seconds")
        if isinstance(turn, (int, float)) and not isinstance(turn, bool) and math.isfinite(turn):
            low, high = TURN_SECONDS
            data = {**data, "turn_seconds": min(max(turn, low), high)}
        return cls.from_dict(data, limits=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], limits: bool = True) -> TableConfig:
        """Read and check a table's set-up (the body of ``POST /api/tables``).

        ``limits``: hold the match to :data:`MATCH_LIMITS` (a table plays on the server).

        :raises ServerError: ``malformed`` naming the bad key or value.
        """
        known = {"rules", "options", "seats", "public", "turn_seconds", "takeover_seconds"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ServerError(ErrorCode.MALFORMED, f"unknown table setting {unknown[0]!r}")
        rules_name = data.get("rules", "classic")
        if not isinstance(rules_name, str):
            raise ServerError(ErrorCode.MALFORMED, "rules must be a preset name")
        rules_name = rules_name.strip().lower()  # as find_rules reads it: shown so
        options = data.get("options", {}) or {}
        if not isinstance(options, Mapping):
            raise ServerError(ErrorCode.MALFORMED, "options must be an object of rule options")
        seats_in = data.get("seats", {}) or {}
        if not isinstance(seats_in, Mapping):
            raise ServerError(
                ErrorCode.MALFORMED, "seats must map seat names to 'human' or 'bot:SPEC'"
            )
        kinds = ["human"] * 4
        for key, kind in seats_in.items():
            seat = parse_seat_name(key)
            kinds[seat] = _check_seat_kind(kind)
        public = data.get("public", True)
        if not isinstance(public, bool):
            raise ServerError(ErrorCode.MALFORMED, "public must be true or false")
        turn = data.get("turn_seconds")
        if turn is not None:
            turn = _seconds(turn, "turn_seconds", *TURN_SECONDS, "null or ")
        takeover = _seconds(data.get("takeover_seconds", 30.0), "takeover_seconds", 0, 3600)
        config = cls(
            rules_name,
            dict(options),
            (kinds[0], kinds[1], kinds[2], kinds[3]),
            public,
            turn,
            takeover,
        )
        try:
            rules = config.rules
        except TarneebError as exc:
            raise ServerError(ErrorCode.MALFORMED, str(exc)) from None
        except (TypeError, ValueError) as exc:
            raise ServerError(ErrorCode.MALFORMED, f"bad rule option: {exc}") from None
        for option, high in MATCH_LIMITS.items() if limits else ():
            if getattr(rules, option) > high:
                raise ServerError(
                    ErrorCode.MALFORMED, f"{option} is at most {high} for a table of the server"
                )
        return config


TURN_SECONDS = (5, 600)
"""The shortest and longest turn timer, in seconds."""
MATCH_LIMITS = {"target": 1000, "sets": 99}
"""The longest match a table may play: a table plays on the server's time."""


def _seconds(value: object, what: str, low: float, high: float, other: str = "") -> float:
    """``value`` as a number of seconds from ``low`` to ``high`` (a finite JSON number).

    >>> _seconds(30, "turn_seconds", 5, 600)
    30.0
    >>> _seconds(1e-9, "turn_seconds", 5, 600)
    Traceback (most recent call last):
    ...
    tarneeb.server.wire.names.ServerError: turn_seconds must be a number of seconds from 5 to 600
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ServerError(
            ErrorCode.MALFORMED, f"{what} must be {other}a number of seconds from {low} to {high}"
        )
    return float(value)


def _check_seat_kind(kind: object) -> str:
    if kind == "human":
        return "human"
    if isinstance(kind, str) and kind.startswith("bot:"):
        spec = ":".join(
            part for part in kind[4:].strip().split(":") if part
        )  # as make_bot reads it
        if not remote_spec_allowed(spec):  # loading a file or module would run its code
            raise ServerError(ErrorCode.MALFORMED, "a policy bot here is an installed entry point")
        try:
            make_bot(spec)
        except TarneebError as exc:
            raise ServerError(ErrorCode.MALFORMED, str(exc)) from None
        return f"bot:{spec}"
    raise ServerError(ErrorCode.MALFORMED, f"a seat is 'human' or 'bot:SPEC', not {kind!r}")


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: ``data`` is public, ``secret`` stays on the server.

    ``kind`` may be given as its text (as the store reads it); it is kept as
    the :class:`EventKind`.
    """

    seq: int
    kind: EventKind
    data: Mapping[str, Any]
    secret: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", EventKind(self.kind))
        except ValueError:
            raise ServerError(ErrorCode.INTERNAL, f"unknown event kind {self.kind!r}") from None

    def public(self) -> dict[str, Any]:
        """The event's public data as stored (the wire's form is ``protocol.event_json``)."""
        return {"seq": self.seq, "kind": self.kind, **self.data}


@dataclass(frozen=True)
class SeatState:
    """Who sits in a seat."""

    kind: SeatKind = SeatKind.HUMAN
    bot: str | None = None
    """The spec of the bot of a bot seat."""
    name: str | None = None
    token_hash: str | None = None
    held_by: str | None = None
    """The spec of the bot holding an absent player's seat."""

    @property
    def taken(self) -> bool:
        return self.kind is SeatKind.BOT or self.token_hash is not None

    @property
    def controller(self) -> str | None:
        """The bot spec that acts for this seat now, or ``None`` for its player."""
        return self.bot if self.kind is SeatKind.BOT else self.held_by


class Table:
    """One table: its set-up, seats, match and event log (see the module docs)."""

    def __init__(self, table_id: str, config: TableConfig, created: str) -> None:
        self.id = table_id
        self.config = config
        self.rules = config.rules
        self.created = created
        self.events: list[Event] = []
        self.seats: list[SeatState] = [SeatState() for _ in SEATS]
        self.match: Match | None = None
        self.version = 0
        """The state version: how many game actions have been taken."""
        self.seeds: list[str] = []
        """The seed of each deal, by deal index (secret until the deal is over)."""
        self.acted: dict[tuple[int, str], int] = {}
        """(seat, action id) -> the version the action made, for the actions of players.

        Only ids a client chose are here: the server's own actions (a bot's, the
        turn timer's) are never looked up by id, so no id a player picks can make
        one of them a "duplicate" (they are made against a version, and the
        version check refuses them once the table moved on).
        """
        self.turn_deadline: float | None = None
        """Set by the hub while a turn timer runs (not part of the log)."""
        self.invites: dict[Seat, str] = {}
        """The hash of each seat invite's secret (from the ``invited`` events)."""
        self.new_invites: dict[Seat, str] = {}
        """The secrets :meth:`invite` made last, for the answer that hands them out
        (kept in memory only, like :attr:`turn_deadline`; the log has their hashes)."""

    # -- making and restoring -----------------------------------------------------------

    @classmethod
    def new(cls, table_id: str, config: TableConfig) -> Table:
        """A new table; bot seats are taken at once."""
        table = cls(table_id, config, _now())
        for seat, kind in zip(SEATS, config.seats, strict=True):
            if kind.startswith("bot:"):
                table._record(
                    EventKind.JOINED, {"seat": seat_name(seat), "name": None, "bot": kind[4:]}
                )
        return table

    @classmethod
    def restore(
        cls, table_id: str, config: TableConfig, created: str, events: Sequence[Event]
    ) -> Table:
        """The table its stored ``events`` built, exactly as it was."""
        table = cls(table_id, config, created)
        table.seeds = [
            str(e.secret["seed"]) for e in events if e.kind is EventKind.DEAL and e.secret
        ]
        for event in events:
            if event.seq != len(table.events) + 1:
                raise ServerError(
                    ErrorCode.INTERNAL, f"table {table_id}: event {event.seq} out of order"
                )
            table.events.append(event)
            table._apply(event)
        return table

    # -- reading ------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of events in the log (the last event's ``seq``)."""
        return len(self.events)

    @property
    def status(self) -> TableStatus:
        if self.match is None:
            return TableStatus.WAITING
        return TableStatus.FINISHED if self.match.is_over() else TableStatus.PLAYING

    def seat_of_token(self, token: object) -> Seat:
        """The seat ``token`` proves (compared in constant time).

        :raises ServerError: ``unauthorized`` when it proves none.
        """
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
            raise ServerError(ErrorCode.UNAUTHORIZED, "a seat token is required")
        digest = _token_hash(token)
        found: Seat | None = None
        for seat, state in zip(SEATS, self.seats, strict=True):
            if state.token_hash is not None and hmac.compare_digest(digest, state.token_hash):
                found = seat
        if found is None:
            raise ServerError(ErrorCode.UNAUTHORIZED, "this token holds no seat at this table")
        return found

    def controller(self, seat: Seat) -> str | None:
        return self.seats[seat].controller

    def to_act(self) -> Seat | None:
        return None if self.match is None else self.match.to_act

    def name_of(self, seat: Seat) -> str:
        state = self.seats[seat]
        if state.kind is SeatKind.BOT:
            return f"Bot ({state.bot})"
        return state.name or seat_name(seat).title()

    # -- requests -------------------------------------------------------------------------

    @property
    def open_seats(self) -> bool:
        """Whether anyone may take a free seat without its invite.

        So at a public table (listed among the open tables), and at one made
        before seats had invites; at a private table a free seat is taken
        only with the secret of its invite.
        """
        return self.config.public or not self.invites

    def invite(self) -> dict[Seat, str]:
        """Make an invite for every free human seat (before the start); their secrets.

        Each invite's secret reserves its seat at a private table; only its
        hash is kept. Inviting again replaces the old invites of those seats.
        """
        if self.match is not None:
            return {}
        made = {s: secrets.token_urlsafe(18) for s in SEATS if not self.seats[s].taken}
        if made:
            self._record(
                EventKind.INVITED,
                {"seats": [seat_name(s) for s in made]},
                {"invites": {seat_name(s): _token_hash(secret) for s, secret in made.items()}},
            )
        self.new_invites = made
        return made

    def seat_of_invite(self, invite: object) -> Seat:
        """The seat ``invite`` (an invite's secret) is for (compared in constant time).

        :raises ServerError: ``unauthorized`` when it is for none.
        """
        if not isinstance(invite, str) or not 0 < len(invite) <= MAX_TOKEN:
            raise ServerError(ErrorCode.UNAUTHORIZED, "an invite is its link's secret, a string")
        digest = _token_hash(invite)
        found: Seat | None = None
        for seat, known in self.invites.items():
            if hmac.compare_digest(digest, known):
                found = seat
        if found is None:
            raise ServerError(ErrorCode.UNAUTHORIZED, "this invite is for no seat at this table")
        return found

    def join(self, name: object, seat: Seat | None = None, invite: object = None) -> str:
        """Take ``seat`` (or the first free human seat) as ``name``; returns the seat token.

        With ``invite`` (an invite's secret), the seat is that invite's. At a
        private table a seat is taken only so (see :attr:`open_seats`).

        :raises ServerError: ``conflict`` when the seat is taken or the table has started;
            ``unauthorized`` for a bad invite, or none where one is needed.
        """
        if self.match is not None:
            raise ServerError(ErrorCode.CONFLICT, "the table has started: no seat is free")
        clean = _check_name(name)
        if invite is not None:
            invited = self.seat_of_invite(invite)
            if seat is not None and seat != invited:
                raise ServerError(
                    ErrorCode.UNAUTHORIZED,
                    f"this invite is for {seat_name(invited)}, not {seat_name(seat)}",
                )
            seat = invited
        if seat is None:
            free = [s for s in SEATS if not self.seats[s].taken]
            if not free:
                raise ServerError(ErrorCode.CONFLICT, "every seat is taken")
            seat = free[0]
        if self.seats[seat].taken:
            raise ServerError(ErrorCode.CONFLICT, f"{seat_name(seat)} is taken")
        if invite is None and not self.open_seats:
            raise ServerError(
                ErrorCode.UNAUTHORIZED,
                "a seat at a private table is taken with its invite link; this link only watches",
            )
        token = secrets.token_urlsafe(24)
        self._record(
            EventKind.JOINED,
            {"seat": seat_name(seat), "name": clean, "bot": None},
            {"token_hash": _token_hash(token)},
        )
        self._start_if_full()
        return token

    def leave(self, seat: Seat) -> None:
        """Free ``seat`` before the start; after it a bot holds the seat."""
        if self.match is None:
            self._record(EventKind.LEFT, {"seat": seat_name(seat)})
        elif self.seats[seat].held_by is None and not self.match.is_over():
            self.take_over(seat)

    def start(self, bot: str = "heuristic") -> None:
        """Fill the free seats with ``bot`` and start.

        :raises ServerError: ``conflict`` when it has started; ``malformed`` for a bad bot.
        """
        if self.match is not None:
            raise ServerError(ErrorCode.CONFLICT, "the table has already started")
        spec = _check_seat_kind(f"bot:{bot}")[4:]
        for seat in SEATS:
            if not self.seats[seat].taken:
                self._record(EventKind.JOINED, {"seat": seat_name(seat), "name": None, "bot": spec})
        self._start_if_full()

    def act(
        self,
        seat: Seat,
        version: int,
        action: int | str,
        action_ref: str,
        by: ActedBy | str = ActedBy.PLAYER,
    ) -> int:
        """Take ``action`` (an action id, or its text) for ``seat``, made against ``version``.

        Returns the new version.

        :raises ServerError: ``not_started``, ``duplicate``, ``game_over``,
            ``stale``, ``not_your_turn`` or ``illegal``; nothing changes then.
        """
        match = self.match
        if match is None:
            raise ServerError(ErrorCode.NOT_STARTED, "the table has not started")
        done = self.acted.get((seat, action_ref)) if by == "player" else None
        if done is not None:
            raise ServerError(
                ErrorCode.DUPLICATE, f"action {action_ref!r} was applied already", version=done
            )
        if match.is_over():
            raise ServerError(ErrorCode.GAME_OVER, "the match is over")
        if version != self.version:
            raise ServerError(
                ErrorCode.STALE, f"version {version} is stale: the table is at {self.version}"
            )
        if match.to_act != seat:
            to_act = match.to_act
            assert to_act is not None
            raise ServerError(
                ErrorCode.NOT_YOUR_TURN,
                f"it is {seat_name(to_act)}'s turn, not {seat_name(seat)}'s",
            )
        deal = match.deal
        try:
            number = action_id(
                action if isinstance(action, int) else parse_action(action, deal.phase)
            )
        except TarneebError as exc:
            raise ServerError(ErrorCode.ILLEGAL, str(exc)) from None
        if number not in deal.legal_action_ids():
            raise ServerError(
                ErrorCode.ILLEGAL,
                f"{format_action(number)} is not legal for {seat_name(seat)} in the {deal.phase.value}",
            )
        deals_before = len(match.deals)
        self._record(
            EventKind.ACTION,
            {
                "seat": seat_name(seat),
                "action": format_action(number),
                "by": ActedBy(by),
                "version": self.version + 1,
            },
            {"ref": action_ref, "id": number},
        )
        self._after_deals(deals_before)
        return self.version

    def chat(self, seat: Seat, text: object) -> None:
        line = check_chat(text)
        self._record(
            EventKind.CHAT, {"seat": seat_name(seat), "name": self.name_of(seat), "text": line}
        )

    def take_over(self, seat: Seat, bot: str = "heuristic") -> None:
        """A bot holds ``seat`` while its player is away."""
        state = self.seats[seat]
        playing = self.status is TableStatus.PLAYING
        if state.kind is SeatKind.HUMAN and state.held_by is None and playing:
            self._record(EventKind.TAKEOVER, {"seat": seat_name(seat), "bot": bot})

    def reclaim(self, seat: Seat) -> None:
        """The player of ``seat`` is back: the holding bot stands up."""
        if self.seats[seat].held_by is not None:
            self._record(EventKind.RECLAIM, {"seat": seat_name(seat)})

    # -- the log ----------------------------------------------------------------------------

    def _record(
        self, kind: EventKind, data: Mapping[str, Any], secret: Mapping[str, Any] | None = None
    ) -> Event:
        event = Event(
            len(self.events) + 1, kind, dict(data), None if secret is None else dict(secret)
        )
        self._apply(event)
        self.events.append(event)
        return event

    def _apply(self, event: Event) -> None:
        """Change the table as ``event`` says: the one place state changes."""
        data = event.data
        match event.kind:
            case EventKind.ACTION:
                assert self.match is not None and event.secret is not None
                seat = parse_seat_name(data["seat"])
                self.match.push(int(event.secret["id"]))
                self.version += 1
                if data.get("by", ActedBy.PLAYER) == ActedBy.PLAYER:
                    self.acted[(seat, str(event.secret["ref"]))] = self.version
            case EventKind.JOINED:
                seat = parse_seat_name(data["seat"])
                if data.get("bot"):
                    self.seats[seat] = SeatState(SeatKind.BOT, str(data["bot"]))
                else:
                    assert event.secret is not None
                    self.seats[seat] = SeatState(
                        SeatKind.HUMAN, None, str(data["name"]), str(event.secret["token_hash"])
                    )
            case EventKind.LEFT:
                self.seats[parse_seat_name(data["seat"])] = SeatState()
            case EventKind.STARTED:
                self.match = Match(
                    self.rules,
                    first_dealer=parse_seat_name(data["first_dealer"]),
                    deck_source=self._deck,
                )
            case EventKind.INVITED:
                assert event.secret is not None
                for name, digest in event.secret["invites"].items():
                    self.invites[parse_seat_name(name)] = str(digest)
            case EventKind.TAKEOVER:
                seat = parse_seat_name(data["seat"])
                self.seats[seat] = replace(self.seats[seat], held_by=str(data["bot"]))
            case EventKind.RECLAIM:
                seat = parse_seat_name(data["seat"])
                self.seats[seat] = replace(self.seats[seat], held_by=None)
            case EventKind.DEAL | EventKind.DEAL_END | EventKind.MATCH_END | EventKind.CHAT:
                pass  # they only tell: the state follows from the rest

    def _deck(self, index: int) -> list[Card]:
        while len(self.seeds) <= index:
            self.seeds.append(new_seed())
        return deck_from_seed(self.seeds[index])

    def _start_if_full(self) -> None:
        if self.match is None and all(s.taken for s in self.seats):
            first = SEATS[secrets.randbelow(4)]
            self._record(EventKind.STARTED, {"first_dealer": seat_name(first)})
            self._after_deals(0)

    def _after_deals(self, before: int) -> None:
        """Tell the deals that ended and the ones dealt since there were ``before``."""
        match = self.match
        assert match is not None
        if before:
            for index in range(before - 1, len(match.deals)):
                deal = match.deals[index]
                if deal.is_over():
                    self._record(EventKind.DEAL_END, deal_end_data(self, index))
        for index in range(before, len(match.deals)):
            seed = self.seeds[index]
            self._record(
                EventKind.DEAL,
                {
                    "number": index + 1,
                    "dealer": seat_name(match.deals[index].dealer),
                    "commitment": commitment(seed),
                },
                {"seed": seed},
            )
        if match.is_over():
            winner = match.winner
            self._record(
                EventKind.MATCH_END,
                {
                    "winner": None if winner is None else winner.name,
                    "scores": list(match.match_points if match.sets else match.team_scores),
                },
            )


def deal_end_data(table: Table, index: int) -> dict[str, Any]:
    """What the ``deal_end`` event tells of deal ``index``: the result and the revealed seed."""
    match = table.match
    assert match is not None
    deal = match.deals[index]
    seed = table.seeds[index]
    last = deal.tricks[-1] if deal.tricks else None
    return {
        "number": index + 1,
        "dealer": seat_name(deal.dealer),
        "seed": seed,
        "commitment": commitment(seed),
        "contract": contract_json(deal.contract),
        "result": result_json(deal),
        "tricks_taken": list(deal.tricks_taken),
        "last_trick": None if last is None else trick_json(last, counts_card_points(table.rules)),
        **_scores_after(match, index),
    }


def _scores_after(match: Match, index: int) -> dict[str, list[int]]:
    """The scores right after deal ``index`` (a set it ended shows its final scores)."""
    end = 0
    for done in match.sets:
        end += done.deals
        if end == index + 1:
            return {"scores": list(done.team_scores), "seat_scores": list(done.seat_scores)}
    return {"scores": list(match.team_scores), "seat_scores": list(match.seat_scores)}


def check_chat(text: object) -> str:
    """``text`` as a chat line is stored (see :func:`.text.clean_text`).

    :raises ServerError: ``malformed`` for no text, or text that is not a plain line.
    """
    from tarneeb.server.text import clean_text

    if not isinstance(text, str) or not text.strip():
        raise ServerError(ErrorCode.MALFORMED, "a chat line needs text")
    return clean_text(text, "a chat line", MAX_CHAT, collapse=False)


def _check_name(name: object) -> str:
    from tarneeb.server.text import clean_text

    if not isinstance(name, str) or not name.strip():
        raise ServerError(ErrorCode.MALFORMED, "a player needs a name")
    return clean_text(name, "a name", MAX_NAME)
