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

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from tarneeb.actions import action_id, format_action, parse_action
from tarneeb.cards import Card
from tarneeb.errors import TarneebError
from tarneeb.match import Match
from tarneeb.seats import SEATS, Seat
from tarneeb.server.config import MATCH_LIMITS, TURN_SECONDS, TableConfig, check_bot_spec
from tarneeb.server.fairness import commitment, deck_from_seed, new_seed
from tarneeb.server.seating import Seating, token_hash
from tarneeb.server.sheet import deal_end_data
from tarneeb.server.wire import MAX_ACTION_REF as MAX_ACTION_ID
from tarneeb.server.wire import (
    MAX_CHAT,
    MAX_NAME,
    ActedBy,
    ErrorCode,
    EventKind,
    SeatKind,
    ServerError,
    TableStatus,
    parse_seat_name,
    seat_name,
)

__all__ = [
    "MATCH_LIMITS",
    "MAX_ACTION_ID",
    "MAX_CHAT",
    "MAX_NAME",
    "TURN_SECONDS",
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


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


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


class Table(Seating):
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
        self.keeping: set[Seat] = set()
        """The seats whose invites keep them for their holders at an open table too
        (every invite since protocol 3; an open table's invites of before did not)."""
        self.seat_links: dict[Seat, str] = {}
        self.away_deadlines: dict[Seat, float] = {}
        """Set by the hub: when a bot takes over each away player's seat (Unix time)."""
        self.rematch_votes: dict[Seat, bool] = {}
        """Each player's word on a rematch, once the match is over."""
        self.rematch_table: str | None = None
        """The table of the rematch, once every player agreed."""

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
    def seated(
        cls, table_id: str, config: TableConfig, players: Mapping[Seat, tuple[str, str]]
    ) -> Table:
        """A new table whose human seats are taken at once, so it starts: each by
        ``(name, seat token hash)`` (a hosted event's tables: the player's token of the
        event holds the seat, as a rematch keeps the tokens of its table).

        :raises ServerError: ``malformed`` when ``players`` are not the human seats of ``config``.
        """
        table = cls.new(table_id, config)
        humans = {seat for seat in SEATS if config.seats[seat] == "human"}
        if set(players) != humans:
            raise ServerError(ErrorCode.MALFORMED, "a seated table names every human seat")
        for seat, (name, digest) in sorted(players.items()):
            data = {"seat": seat_name(seat), "name": _check_name(name), "bot": None}
            table._record(EventKind.JOINED, data, {"token_hash": digest})
        table._start_if_full()
        return table

    @classmethod
    def restore(
        cls, table_id: str, config: TableConfig, created: str, events: Sequence[Event]
    ) -> Table:
        """The table its stored ``events`` built, exactly as it was."""
        table = cls(table_id, config, created)
        table.extend(events)
        return table

    def extend(self, events: Sequence[Event]) -> None:
        """Apply stored ``events`` that follow the log (another worker wrote them), whole
        commits at a time: a deal's seed comes in the commit of the action that deals it.

        :raises ServerError: ``internal`` for an event out of order (the table is as
            far as the events before it took it).
        """
        self.seeds.extend(
            str(e.secret["seed"]) for e in events if e.kind is EventKind.DEAL and e.secret
        )
        for event in events:
            if event.seq != len(self.events) + 1:
                raise ServerError(
                    ErrorCode.INTERNAL, f"table {self.id}: event {event.seq} out of order"
                )
            self.events.append(event)
            self._apply(event)

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

    def join(self, name: object, seat: Seat | None = None, invite: object = None) -> str:
        """Take ``seat`` (or the first free human seat) as ``name``; returns the seat token.

        With ``invite`` (an invite's secret), the seat is that invite's (or
        ``seat`` among its seats). A free seat with an invite is taken only so,
        and at a private table every seat is (see :mod:`.seating`); without
        ``seat``, a join takes the first free seat nobody's invite keeps.

        :raises ServerError: ``conflict`` when the seat is taken or the table has started;
            ``unauthorized`` for a bad invite, or none where one is needed.
        """
        if self.match is not None:
            raise ServerError(ErrorCode.CONFLICT, "the table has started: no seat is free")
        clean = _check_name(name)
        seat = self._seat_to_join(seat, invite)
        token = secrets.token_urlsafe(24)
        self._record(
            EventKind.JOINED,
            {"seat": seat_name(seat), "name": clean, "bot": None},
            {"token_hash": token_hash(token)},
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
        spec = check_bot_spec(bot)
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

    # -- after the match: a rematch --------------------------------------------------------

    def vote_rematch(self, seat: Seat, vote: bool) -> bool:
        """``seat``'s player wants a rematch (or no more); whether every player wants one now.

        A bot seat always agrees; the same word twice is stored once.

        :raises ServerError: ``conflict`` before the match is over, or once the rematch is
            made; ``unauthorized`` for a bot's seat.
        """
        if self.match is None or not self.match.is_over():
            raise ServerError(ErrorCode.CONFLICT, "a rematch is voted once the match is over")
        if self.rematch_table is not None:
            raise ServerError(ErrorCode.CONFLICT, "the rematch is made: it is its own table")
        if self.seats[seat].kind is not SeatKind.HUMAN:
            raise ServerError(ErrorCode.UNAUTHORIZED, "a bot's seat does not vote")
        if self.rematch_votes.get(seat) is not vote:
            self._record(EventKind.REMATCH_VOTE, {"seat": seat_name(seat), "vote": vote})
        return self.rematch_agreed

    @property
    def rematch_agreed(self) -> bool:
        """Whether every player said yes to a rematch not yet made."""
        return self.rematch_table is None and all(
            state.kind is SeatKind.BOT or self.rematch_votes.get(seat) is True
            for seat, state in zip(SEATS, self.seats, strict=True)
        )

    def rematch_votes_json(self) -> list[bool | None]:
        """Each seat's word on a rematch (a bot's seat: yes), by seat."""
        return [
            True if state.kind is SeatKind.BOT else self.rematch_votes.get(seat)
            for seat, state in zip(SEATS, self.seats, strict=True)
        ]

    def rematch_of(self, table_id: str) -> Table:
        """The rematch, a new table ``table_id``: the same set-up and seats, new deals.

        Each player's seat token holds the same seat there (only its hash is
        copied). Once it is stored, :meth:`made_rematch` tells this table.
        """
        new = Table(table_id, self.config, _now())
        for seat, state in zip(SEATS, self.seats, strict=True):
            if state.kind is SeatKind.BOT:
                data = {"seat": seat_name(seat), "name": None, "bot": state.bot}
                new._record(EventKind.JOINED, data)
            else:
                data = {"seat": seat_name(seat), "name": state.name, "bot": None}
                new._record(EventKind.JOINED, data, {"token_hash": state.token_hash})
        new._start_if_full()
        return new

    def made_rematch(self, table_id: str) -> None:
        """Tell that the rematch every player agreed to is table ``table_id``.

        :raises ServerError: ``conflict`` when they no longer all agree, or it was made.
        """
        if not self.rematch_agreed:
            raise ServerError(ErrorCode.CONFLICT, "not every player wants a rematch")
        self._record(EventKind.REMATCH, {"table": table_id})

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
                    seat = parse_seat_name(name)
                    self.invites[seat] = str(digest)
                    if data.get("reserved"):
                        self.keeping.add(seat)
            case EventKind.TAKEOVER:
                seat = parse_seat_name(data["seat"])
                self.seats[seat] = replace(self.seats[seat], held_by=str(data["bot"]))
            case EventKind.RECLAIM:
                seat = parse_seat_name(data["seat"])
                self.seats[seat] = replace(self.seats[seat], held_by=None)
            case EventKind.SEAT_LINK | EventKind.MOVED:
                assert event.secret is not None
                self._apply_seating(event.kind, parse_seat_name(data["seat"]), event.secret)
            case EventKind.REMATCH_VOTE:
                self.rematch_votes[parse_seat_name(data["seat"])] = bool(data["vote"])
            case EventKind.REMATCH:
                self.rematch_table = str(data["table"])
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
