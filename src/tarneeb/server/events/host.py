"""The running events of a server: pairs register, each set gets a table, results move it on.

:class:`EventHost` sits beside the :class:`~tarneeb.server.hub.Hub` and plays
every set through it, as any table: it builds the set's table with the pairs
seated (:meth:`Table.seated <tarneeb.server.table.Table.seated>`: each
player's event token holds the seat, a bot member's seat is a bot seat),
hands it to :meth:`Hub.host <tarneeb.server.hub.Hub.host>` (stored, played,
watched and restored like every table; it plays even unwatched, and a bot
holds an absent player's seat), and hears from the hub when its match ends.
Then it records the set's result, read from that table's match, tells the
ratings hook, and seats what the tournament says plays next: at king of the
table the loser of the set goes to the back of the queue and the next pair
takes its seats, the winner keeping its own
(:class:`~tarneeb.tournament.KingOfTheTable`).

Every change is a fact committed to the store before anyone hears of it; a
fact the database refuses is undone from the facts before (as the hub undoes a
table's events). A restarted server (even after ``kill -9``) rebuilds each
event from its facts, records the result of any set whose table finished
while the fact was not yet written, and seats the sets that had no table yet.
A table is stored before the fact that seats it, so a crash between the two
leaves a table no event names (never played, never shown), and the set is
seated afresh.

The ratings hook (:data:`SetResultHook`) is called once for each set result
of a *rated* event, after it is stored; it is given opaque identities (a
guest's or an account's), and what it raises is logged, never the event's
problem. The default does nothing.

Partner tickets (a signed-in player's leave to be registered as someone's
partner) are stored beside the events, by their hash, with a wall-clock
expiry: they outlive a restart, and one is used up only by the registration
it is for, in the transaction that stores the pair.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from tarneeb.seats import Seat
from tarneeb.server.commits import not_stored, retry
from tarneeb.server.connection import Connection, dumps
from tarneeb.server.events.bodies import event_frame
from tarneeb.server.events.model import (
    ACCOUNT,
    HostedEvent,
    Member,
    bot_member,
    guest_identity,
)
from tarneeb.server.events.records import EventRecords, TicketGone
from tarneeb.server.hub import Hub
from tarneeb.server.limits import Buckets
from tarneeb.server.seating import token_hash
from tarneeb.server.table import ErrorCode, ServerError, Table
from tarneeb.server.wire import EventStatus
from tarneeb.tournament import Pairing, SetPlayed

__all__ = ["EventHost", "SetOutcome", "SetResultHook", "no_ratings"]

_log = logging.getLogger("tarneeb.server.events")

FINISHED_KEPT = 50
"""Finished events a restarted server brings back into memory (the lobby lists them)."""
MAX_EVENTS = 1000
"""Events in memory at most: past it, no new event is made."""
PARTNER_SECONDS = 600.0
"""How long a partner ticket lasts (wall-clock seconds)."""
MAX_PARTNERS = 10_000
"""Partner tickets stored at most (unexpired ones)."""
PARTNER_GONE = "no such partner ticket: ask for a new one"


@dataclass(frozen=True)
class SetOutcome:
    """What the ratings hook is told of one set of a rated event.

    :param players: each pair's members' identities (``None`` for a bot), by pair id,
        for the two pairs of the set.
    """

    event: str
    table: str
    rules: str
    result: SetPlayed
    players: Mapping[str, tuple[str | None, str | None]]


class SetResultHook(Protocol):
    """Called with each set result of a rated event, once it is stored (may be async)."""

    def __call__(self, outcome: SetOutcome) -> Awaitable[None] | None: ...


def no_ratings(outcome: SetOutcome) -> None:
    """The default :data:`SetResultHook`: no ratings."""
    return None


RATED_NO_BOTS = "a rated event is played by signed-in players only: no bots"


def _check_rated(event: HostedEvent, members: list[Member]) -> None:
    """:raises ServerError: unless ``members`` are signed-in players new to ``event``."""
    if any(m.bot is not None for m in members):
        raise ServerError(ErrorCode.MALFORMED, RATED_NO_BOTS)
    identities = [m.identity or "" for m in members]
    if not all(i.startswith(ACCOUNT) for i in identities):
        raise ServerError(
            ErrorCode.UNAUTHORIZED, "a rated event is played by signed-in players: sign in"
        )
    known = {m.identity for pair in event.pairs.values() for m in pair.members}
    if len(set(identities)) != len(identities) or known & set(identities):
        raise ServerError(ErrorCode.CONFLICT, "a player plays in one pair of a rated event")


@dataclass(eq=False)
class _LiveEvent:
    event: HostedEvent
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Connection] = field(default_factory=set)


class EventHost:
    """Every event of one server process (see the module docs)."""

    def __init__(
        self,
        hub: Hub,
        on_set_result: SetResultHook = no_ratings,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.hub = hub
        self.records = EventRecords(hub.store)
        self.on_set_result = on_set_result
        self.live: dict[str, _LiveEvent] = {}
        self.by_table: dict[str, str] = {}
        """The event of each table an event seated."""
        per_minute = max(0.0, hub.settings.tables_per_minute)
        self._creates: Buckets[str] = Buckets(per_minute / 60.0, max(1.0, per_minute), clock)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._clock = clock
        self._wall = wall
        """The wall clock partner tickets expire by (they outlive the process)."""
        hub.finish_listeners.append(self._table_finished)

    # -- life -----------------------------------------------------------------------------

    async def startup(self) -> None:
        """Bring back the events as stored, and move each running one on (after the hub's
        own startup, which brought back its tables)."""
        stored = await self.hub.store.run(self.records.load_recent, FINISHED_KEPT)
        for found in stored:
            try:
                event = await asyncio.to_thread(found.restore)
            except ServerError as exc:
                _log.error("event %s does not load: %s", found.id, exc.message)
                continue
            self._keep(event)
        for live in list(self.live.values()):
            if live.event.status is EventStatus.RUNNING:
                self._spawn(self._stubborn(live, self._advance, "its catching up"))

    async def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for live in self.live.values():
            for conn in list(live.watchers):
                await conn.close()

    def _keep(self, event: HostedEvent) -> _LiveEvent:
        live = _LiveEvent(event)
        self.live[event.id] = live
        for table_id in event.tables.values():
            self.by_table[table_id] = event.id
        return live

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.error("an event's work failed: %r", task.exception())

    # -- reading ----------------------------------------------------------------------------

    def get(self, event_id: str) -> _LiveEvent:
        """:raises ServerError: ``not_found`` for no such event."""
        live = self.live.get(event_id)
        if live is None:
            raise ServerError(ErrorCode.NOT_FOUND, f"no event {event_id[:40]!r}")
        return live

    def events(self) -> list[HostedEvent]:
        """The events in memory, the newest first."""
        return sorted((live.event for live in self.live.values()), key=lambda e: e.created)[::-1]

    # -- requests ---------------------------------------------------------------------------

    async def create(self, event: HostedEvent, client: str | None) -> str:
        """Store a new event; returns its host's token.

        :raises ServerError: ``rate_limited`` past a client's limit, ``conflict`` when
            the server holds all the events it can, ``internal`` when it cannot be stored.
        """
        if len(self.live) >= MAX_EVENTS:
            raise ServerError(ErrorCode.CONFLICT, "the server has all the events it can hold")
        settings = self.hub.settings
        if client is not None and settings.tables_per_minute > 0 and not self._creates.take(client):
            raise ServerError(
                ErrorCode.RATE_LIMITED,
                f"at most {settings.tables_per_minute:g} new events a minute from one client",
            )
        token = event.make_host()
        try:
            await self.hub.store.run(self.records.create, event)
        except Exception as exc:
            raise not_stored(exc) from None
        self._keep(event)
        return token

    async def register(
        self,
        event_id: str,
        name: object,
        members: list[Member],
        partners: tuple[str, ...] = (),
    ) -> tuple[str, list[str | None]]:
        """A pair joins ``event_id``: its id, and a token for each member who is a player
        (a guest here: its identity is its token's hash). A member with a
        ``token_hash`` already (an account's, say) gets no new token.

        A rated event takes signed-in players only (identities ``account:...``), each
        in one pair at most, and no bots. ``partners``: the hashes of the partner
        tickets the members came from (:meth:`find_partner`), used up in the
        transaction that stores the pair; a registration refused leaves them usable.

        :raises ServerError: as :meth:`HostedEvent.register`; for a rated event,
            ``malformed`` for a bot member, ``unauthorized`` for a guest, ``conflict``
            for a player registered already; ``unauthorized`` when a partner ticket
            was used meanwhile (or expired).
        """
        live = self.get(event_id)
        if live.event.config.rated:
            _check_rated(live.event, members)
        tokens: list[str | None] = []
        seated: list[Member] = []
        for member in members:
            if member.bot is not None or member.token_hash is not None:
                tokens.append(None)
                seated.append(member)
                continue
            token = secrets.token_urlsafe(24)
            digest = token_hash(token)
            tokens.append(token)
            seated.append(
                Member(member.name, None, member.identity or guest_identity(digest), digest)
            )
        pair = await self._change(live, lambda e: e.register(name, seated), partners)
        return pair, tokens

    async def partner_ticket(self, event_id: str, member: Member) -> str:
        """A ticket a signed-in player (``member``, an ``account:`` identity) gives their
        partner, who registers the pair with it (:meth:`find_partner`, then
        :meth:`register`). It is stored (its hash only, never the ticket), so it
        outlives a restart, and lasts :data:`PARTNER_SECONDS` of wall-clock time.

        :raises ServerError: ``not_found`` for no such event; ``conflict`` when the
            server holds all the tickets it can (:data:`MAX_PARTNERS`); ``internal``
            when it cannot be stored.
        """
        self.get(event_id)
        ticket = secrets.token_urlsafe(18)
        now = self._wall()
        try:
            added = await self.hub.store.run(
                self.records.add_partner,
                token_hash(ticket),
                event_id,
                member,
                now + PARTNER_SECONDS,
                now,
                MAX_PARTNERS,
            )
        except Exception as exc:
            raise not_stored(exc) from None
        if not added:
            raise ServerError(ErrorCode.CONFLICT, "too many partner tickets: try again later")
        return ticket

    async def find_partner(self, event_id: str, ticket: object) -> tuple[Member, str]:
        """The member a partner ticket of ``event_id`` names, and the ticket's hash (which
        :meth:`register` is given to use it up: the ticket stays until a registration
        with it is stored).

        :raises ServerError: ``unauthorized`` for no such ticket, an expired one, a used
            one or another event's.
        """
        if not isinstance(ticket, str) or not 0 < len(ticket) <= 200:
            raise ServerError(ErrorCode.UNAUTHORIZED, PARTNER_GONE)
        digest = token_hash(ticket)
        try:
            found = await self.hub.store.run(
                self.records.find_partner, digest, event_id, self._wall()
            )
        except Exception as exc:
            raise not_stored(exc) from None
        if found is None:
            raise ServerError(ErrorCode.UNAUTHORIZED, PARTNER_GONE)
        return found, digest

    async def add_bots(self, event_id: str, token: object, count: int = 1) -> list[str]:
        """The host fills ``count`` places with bot pairs. :raises ServerError: as register."""
        live = self.get(event_id)
        live.event.check_host(token)
        if live.event.config.rated:
            raise ServerError(ErrorCode.CONFLICT, RATED_NO_BOTS)
        spec = live.event.config.bot
        made: list[str] = []
        for _ in range(count):
            made.append(
                await self._change(
                    live, lambda e: e.register(None, [bot_member(spec), bot_member(spec)])
                )
            )
        return made

    async def start(self, event_id: str, token: object, fill: bool = False) -> None:
        """The host starts the event (``fill``: bot pairs take the free places first).

        :raises ServerError: ``unauthorized`` for another token; as :meth:`HostedEvent.start`.
        """
        live = self.get(event_id)
        event = live.event
        event.check_host(token)
        if event.status is not EventStatus.REGISTERING:
            raise ServerError(ErrorCode.CONFLICT, "the event has already started")
        if fill and event.config.rated:
            raise ServerError(ErrorCode.CONFLICT, RATED_NO_BOTS)
        if fill:
            await self.add_bots(event_id, token, event.config.capacity - len(event.pairs))
        await self._change(live, lambda e: e.start())
        await self._advance(live)

    # -- watching -----------------------------------------------------------------------------

    def watch(self, live: _LiveEvent, conn: Connection) -> None:
        """Send ``conn`` the event now and after every change.

        :raises ServerError: ``conflict`` when the event has all the watchers it takes;
            ``rate_limited`` when the client holds all the event sockets it may.
        """
        if len(live.watchers) >= self.hub.settings.max_spectators:
            raise ServerError(ErrorCode.CONFLICT, "this event has all the watchers it takes")
        self.hub.check_connections(conn)  # one count with the client's table sockets
        self.hub.count_connection(conn)
        live.watchers.add(conn)
        conn.push(dumps(event_frame(live.event)))

    def unwatch(self, live: _LiveEvent, conn: Connection) -> None:
        live.watchers.discard(conn)
        self.hub.release_connection(conn)

    def _push(self, live: _LiveEvent) -> None:
        if not live.watchers:
            return
        text = dumps(event_frame(live.event))
        for conn in list(live.watchers):
            conn.push(text)

    # -- moving on ----------------------------------------------------------------------------

    async def _change(
        self,
        live: _LiveEvent,
        change: Callable[[HostedEvent], Any],
        partners: tuple[str, ...] = (),
    ) -> Any:
        async with live.lock:
            result = await self._commit(live, change, partners)
        self._push(live)
        return result

    async def _commit(
        self,
        live: _LiveEvent,
        change: Callable[[HostedEvent], Any],
        partners: tuple[str, ...] = (),
    ) -> Any:
        """``change`` the event and store its new facts (the caller holds its lock),
        using up the partner tickets ``partners`` in the same transaction.

        :raises ServerError: as ``change`` (nothing changed), ``unauthorized`` when a
            partner ticket is gone, ``internal`` when the database does not take the
            facts (nothing changed either).
        """
        event = live.event
        start = event.seq
        result = change(event)
        new = event.facts[start:]
        if not new:
            return result
        try:
            tickets = (partners, self._wall()) if partners else ()
            await self.hub.store.run(self.records.append, event.id, new, event.status, *tickets)
        except Exception as exc:
            live.event = await asyncio.to_thread(
                HostedEvent.restore, event.id, event.config, event.created, event.facts[:start]
            )
            if isinstance(exc, TicketGone):
                raise ServerError(ErrorCode.UNAUTHORIZED, PARTNER_GONE) from None
            raise not_stored(exc) from None
        return result

    def _table_finished(self, table: Table) -> None:
        """The hub's word that ``table``'s match ended (its end is stored)."""
        event_id = self.by_table.get(table.id)
        if event_id is not None and event_id in self.live:
            live = self.live[event_id]
            self._spawn(self._stubborn(live, lambda lv: self._set_ended(lv, table), "a set's end"))

    async def _stubborn(
        self, live: _LiveEvent, work: Callable[[_LiveEvent], Awaitable[None]], what: str
    ) -> None:
        """``work`` (what the server does by itself: a set's end, the catching up after a
        restart), tried again while the database does not take it; each try picks up
        where the last stopped (a result told is not told again, a set seated is not
        seated again)."""
        settings = self.hub.settings
        await retry(
            lambda: work(live),
            self.hub.db_health,
            f"event {live.event.id}",
            what,
            settings.commit_retry_first,
            settings.commit_retry_max,
        )

    async def _set_ended(self, live: _LiveEvent, table: Table) -> None:
        async with live.lock:
            await self._record_result(live, table)
            await self._seat_pending(live)
        self._push(live)

    async def _record_result(self, live: _LiveEvent, table: Table) -> None:
        match = table.match
        if match is None:
            return
        result = await self._commit(live, lambda e: e.finish_set(table.id, match))
        if result is None:
            return
        _log.info(
            "event set ended",
            extra={"event": live.event.id, "table": table.id, "set": result.number},
        )
        if live.event.config.rated:
            self._spawn(self._rate(live.event, table.id, result))

    async def _rate(self, event: HostedEvent, table_id: str, result: SetPlayed) -> None:
        players = {
            pair: (
                event.pairs[pair].members[0].identity,
                event.pairs[pair].members[1].identity,
            )
            for pair in (result.ns, result.ew)
        }
        outcome = SetOutcome(event.id, table_id, event.config.rules, result, players)
        try:
            done = self.on_set_result(outcome)
            if inspect.isawaitable(done):
                await done
        except Exception as exc:  # the ratings' problem, never the event's
            _log.error("the ratings hook failed on event %s: %r", event.id, exc)

    async def _advance(self, live: _LiveEvent) -> None:
        """Catch up with the tables: record what ended, run what plays, seat what waits."""
        async with live.lock:
            event = live.event
            pending = [] if event.tournament is None else list(event.tournament.pending())
            for pairing in pending:
                table_id = event.tables.get(pairing.number)
                if table_id is None:
                    continue
                running = self.hub.live.get(table_id)
                if running is not None and running.table.status != "finished":
                    if not running.hosted:
                        self.hub.adopt(running)
                    continue
                with contextlib.suppress(ServerError):
                    found = await self.hub.open(table_id)
                    if found.table.status == "finished":
                        await self._record_result(live, found.table)
            await self._seat_pending(live)
        self._push(live)

    async def _seat_pending(self, live: _LiveEvent) -> None:
        for pairing in live.event.unseated():
            await self._seat(live, pairing)

    async def _seat(self, live: _LiveEvent, pairing: Pairing) -> None:
        """Make the table of ``pairing``, store and run it, then record the seating."""
        event = live.event
        seats = event.seats_of(pairing)
        kinds = [
            "human" if seats[seat].bot is None else f"bot:{seats[seat].bot}"
            for seat in (Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST)
        ]
        players = {
            seat: (member.name, member.token_hash)
            for seat, member in seats.items()
            if member.bot is None and member.token_hash is not None
        }
        table = Table.seated(secrets.token_urlsafe(9), event.config.table_config(kinds), players)
        self.by_table[table.id] = event.id  # before it runs: its end may come at once
        await self.hub.host(table)
        await self._commit(live, lambda e: e.seat(pairing, table.id))
