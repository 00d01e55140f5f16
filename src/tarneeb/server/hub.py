"""The running server: tables in memory, their connections, bots and timers.

Every change to a table goes through :meth:`Hub.change`: under the table's
lock it asks the :class:`Table` to change (which refuses or changes whole),
commits the new events to the store in a thread of the store (so the event
loop serves every other table meanwhile, and one table's changes are stored
in order), and only then tells each connection what it may see. Should the
commit fail, the table is rebuilt from its events committed before (kept in
memory, so this works with the database down), so memory never runs ahead
of the database; a player gets an error instead of an ack, and a change the
server makes itself (a bot's, the turn timer's, a takeover) is tried again
with backoff until the database is back (:mod:`tarneeb.server.commits`).

Nothing runs for nobody: bots and timers wait at a table nobody is connected
to, and a table that never started expires once idle long enough. The
limits of :class:`Settings` bound what one client, seat or table may cost.

A worker of many (:mod:`tarneeb.server.cluster`) holds in memory only the
tables whose lease it holds: it takes a table on first contact, renews the
leases of those it holds, and lets go of one whose write another worker's
lease refused. It keeps copies of the other workers' public tables for its
lobby and their spectators, brought up to date from the log on each notice,
and their presence (who is connected, the countdowns, the reactions) from the
rows their owners publish (:mod:`.presence`); it publishes its own tables'.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tarneeb.bots.base import Bot
from tarneeb.seats import SEATS, Seat
from tarneeb.server.analysis_pool import AnalysisPool
from tarneeb.server.asks import Asks
from tarneeb.server.clockwork import Clockwork
from tarneeb.server.cluster import CLOSE_LET_GO, Cluster, Elsewhere
from tarneeb.server.commits import DatabaseHealth, not_stored, retry, short_error
from tarneeb.server.connection import CLOSE_BEHIND, MAX_BACKLOG, Connection, dumps
from tarneeb.server.limits import Buckets
from tarneeb.server.presence import (
    NOBODY,
    REACTIONS_KEPT,
    Remote,
    Said,
    presence_body,
    presence_json,
    read_presence,
)
from tarneeb.server.protocol import (
    events_json,
    reaction_frame,
    states_json,
    table_json,
    update_frame,
    welcome_frame,
)
from tarneeb.server.results import RESULT_VERSION, table_result
from tarneeb.server.settings import Settings
from tarneeb.server.store import EXPIRED, FINISHED, StaleWrite, Store
from tarneeb.server.table import (
    ErrorCode,
    Event,
    ServerError,
    Table,
    TableConfig,
    check_chat,
    seat_name,
)
from tarneeb.server.wire import TableJson

__all__ = ["CLOSE_BEHIND", "MAX_BACKLOG", "Connection", "Hub", "Settings"]

T = TypeVar("T")
_log = logging.getLogger(__name__)

MAX_REPLAY = 2000
"""Events replayed to a reconnecting client at most; past that it gets the state alone."""


@dataclass(eq=False)
class _Live:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    spectators: int = 0
    bots: dict[tuple[Seat | None, str], Bot] = field(default_factory=dict)
    """The bots of the table by seat and spec (seat ``None``: the hint bot)."""
    task: asyncio.Task[None] | None = None
    task_version: int = -1
    timer: asyncio.Task[None] | None = None
    away: dict[Seat, asyncio.Task[None]] = field(default_factory=dict)
    creator: str | None = None
    """The address of the client that created the table (while this process runs)."""
    idle_since: float = 0.0
    """When the table last changed or was left by its last connection (the hub's clock)."""
    expired: bool = False
    chat: Buckets[Seat] | None = None
    reclaimed: dict[Seat, float] = field(default_factory=dict)
    """When each seat's player last came back to a seat a bot held (the hub's clock)."""
    limits: dict[str, Buckets[Seat]] = field(default_factory=dict)
    """The per-seat limits of :mod:`.asks` (hints, reactions, seat links), by name."""
    rematching: bool = False
    hosted: bool = False
    """A hosted event's table: its bots and timers play whether or not anyone watches
    (the event waits for it), see :meth:`Hub.host`."""
    copy: bool = False
    """A copy of another worker's table: only watched here, never changed."""
    presence_seq: int = 0
    """Of many: the ``seq`` of the presence row this worker wrote last (its own table) or
    read last (a copy)."""
    published: dict[str, Any] | None = None
    """Its own table: the presence last written (:func:`presence_body`)."""
    said: list[Said] = field(default_factory=list)
    """Its own table: the reactions of the last seconds, for the presence row."""
    remote: Remote = NOBODY
    """A copy: the presence its owner published last."""

    def connected(self) -> set[Seat]:
        if self.copy:
            return set(self.remote.connected)
        return {c.seat for c in self.connections if c.seat is not None}


class Hub(Asks, Clockwork):
    """All tables of one server process."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float] = time.monotonic,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.cluster = cluster
        self.live: dict[str, _Live] = {}
        self.copies: dict[str, _Live] = {}
        """A worker of many: the other workers' public tables as their logs say, and their
        spectators here (no bot, timer or change runs at a copy)."""
        self._catching_up: dict[str, asyncio.Task[None]] = {}
        self._noticed_since: dict[str, int] = {}
        """The last event told of a table while its copy was catching up (read after)."""
        self._uncopied: set[str] = set()
        """Other workers' tables not to copy on a notice: private or finished ones (a
        table's set-up never changes, a finished one leaves the lobby)."""
        self.analyses = AnalysisPool(
            settings.analysis_workers, settings.analysis_queue, settings.analysis_cache
        )
        self._clock = clock
        per_minute = max(0.0, settings.tables_per_minute)
        self._creates: Buckets[str] = Buckets(per_minute / 60.0, max(1.0, per_minute), clock)
        per_second = max(0.0, settings.connects_per_minute) / 60.0
        self._connects: Buckets[str] = Buckets(per_second, max(1.0, settings.connect_burst), clock)
        self.db_health = DatabaseHealth()
        self._results: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._opening: dict[str, asyncio.Future[_Live]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._per_client: dict[str, int] = {}
        """Client address -> its connections now."""
        self.finish_listeners: list[Callable[[Table], None]] = []
        """Called with each table whose match ends, once its end is stored (hosted events)."""
        self.watchers: list[Callable[[Table, Sequence[Event]], None]] = []
        """Called with a table and its new events after each commit (the players' ratings)."""
        self._presence_due: dict[str, _Live] = {}
        """Of many: this worker's tables whose presence may have changed since written."""
        self._presence_writer: asyncio.Task[None] | None = None
        self._presence_last = float("-inf")
        """When (the event loop's clock) the presence was last written."""
        self._presence_wanted: dict[str, int] = {}
        """Of many: the copies whose presence row to read, each with the ``seq`` told."""
        self._presence_reader: asyncio.Task[None] | None = None

    # -- life -------------------------------------------------------------------------------

    async def startup(self) -> None:
        """Bring back every unfinished table exactly as stored (a worker of many: none,
        each comes back on first contact; it listens for the others' changes)."""
        if self.cluster is not None:
            self._spawn(self._heartbeat(self.cluster))
            self._spawn(
                self.cluster.listen(self._noticed, self._copy_all, presence=self._presence_noticed)
            )
            self._spawn(self.analyses.solver_available())
            self._spawn(self._watch_database())
            self._spawn_sweeps()
            return
        for stored in await self.store.run(self.store.load_unfinished):
            live = self._new_live(await asyncio.to_thread(stored.restore))
            self.live[stored.id] = live
            for seat in SEATS:
                self._seat_left(live, seat)
            self._schedule(live)
        self._spawn_sweeps()
        self._spawn(self.analyses.solver_available())  # DDS loads in seconds: start now
        self._spawn(self._watch_database())

    def _spawn_sweeps(self) -> None:
        """The clock's sweeps: idle waiting tables expire, idle started ones leave memory."""
        if self.settings.waiting_table_ttl is not None:
            self._spawn(self._expire_forever(self.settings.waiting_table_ttl))
        if self.settings.idle_table_release is not None:
            self._spawn(self._release_forever(self.settings.idle_table_release))

    async def shutdown(self) -> None:
        for background in list(self._background):
            background.cancel()
        if self.cluster is not None:
            with contextlib.suppress(Exception):  # else they lapse
                await self.store.run(self.cluster.release)
        for live in [*self.live.values(), *self.copies.values()]:
            for task in [live.task, live.timer, *live.away.values()]:
                if task is not None:
                    task.cancel()
            for conn in list(live.connections):
                await conn.close()
        self.analyses.close()

    def health(self) -> dict[str, Any]:
        """``{"status": "ok"|"degraded", "tables_pending": N, "last_error": ...}``
        (see :meth:`DatabaseHealth.report`)."""
        return self.db_health.report()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def _new_live(self, table: Table, creator: str | None = None) -> _Live:
        per_second = self.settings.chat_per_minute / 60.0
        return _Live(
            table,
            creator=creator,
            idle_since=self._clock(),
            chat=Buckets(per_second, max(1.0, self.settings.chat_burst), self._clock),
        )

    # -- the database ---------------------------------------------------------------------------

    async def _check_database(self) -> None:
        """While writes fail, ask the database before changing a table (a failed commit
        costs a replay of the table's log to undo; a refused ping costs nothing).

        :raises ServerError: ``internal`` when it does not answer.
        """
        if not self.db_health.failing:
            return
        try:
            await self.store.run(self.store.ping)
        except Exception as exc:
            self.db_health.last_error = short_error(exc)
            raise not_stored(exc) from None

    # -- tables -----------------------------------------------------------------------------

    async def create(
        self,
        config: TableConfig,
        name: str | None,
        seat: Seat,
        client: str | None = None,
        reserve: Sequence[Sequence[Seat]] | None = None,
    ) -> tuple[Table, str | None]:
        """A new table with its creator in ``seat``; ``client`` is the creator's address.

        ``reserve`` are the free seats to make invites for (each group one invite),
        which keep those seats for their holders; by default every free human seat
        of a private table, and none of a public one (its seats are anyone's).

        :raises ServerError: ``rate_limited`` past a client's limits, ``conflict``
            when the server is full, ``internal`` when it cannot be stored.
        """
        if len(self.live) >= self.settings.max_tables:
            raise ServerError(ErrorCode.CONFLICT, "the server has all the tables it can hold")
        if config.seats[seat] != "human":
            raise ServerError(ErrorCode.MALFORMED, f"your seat {seat_name(seat)} must be human")
        if client is not None:
            mine = sum(
                1
                for live in self.live.values()
                if live.creator == client and live.table.status != "finished"
            )
            if 0 < self.settings.open_tables_per_client <= mine:
                raise ServerError(
                    ErrorCode.RATE_LIMITED,
                    f"you have {mine} open tables, the most one client may have: "
                    "play or leave one first",
                )
            if self.settings.tables_per_minute > 0 and not self._creates.take(client):
                raise ServerError(
                    ErrorCode.RATE_LIMITED,
                    f"at most {self.settings.tables_per_minute:g} new tables a minute "
                    "from one client: wait a little",
                )
        table = Table.new(self._new_id(), config)
        token = table.join(name if name is not None else "Player", seat)
        if reserve is None and not config.public:
            reserve = [[s] for s in SEATS if config.seats[s] == "human" and s != seat]
        if reserve and table.match is None:
            table.invite(reserve)  # the secrets are in table.new_invites, for the answer
        await self._store_new(table, client)
        return table, token

    def _new_id(self) -> str:
        return secrets.token_urlsafe(9) if self.cluster is None else self.cluster.new_id()

    async def _store_new(self, table: Table, client: str | None = None) -> _Live:
        """Store a new table and run it (``client``: the address that created it).

        :raises ServerError: ``internal`` when it cannot be stored.
        """
        await self._check_database()
        try:
            await self.store.run(self.store.create, table)
        except Exception as exc:
            self.db_health.failed(table.id, "a new table", exc)
            raise not_stored(exc) from None
        self.db_health.stored()
        live = self._new_live(table, client)
        self.live[table.id] = live
        self._schedule(live)
        return live

    async def host(self, table: Table) -> None:
        """Store and run a table a hosted event made (:meth:`Table.seated`): it plays
        unwatched, and a bot holds each absent player's seat after the table's
        ``takeover_seconds`` until the player connects.

        :raises ServerError: ``internal`` when it cannot be stored.
        """
        live = await self._store_new(table)
        self.adopt(live)

    def adopt(self, live: _Live) -> None:
        """Mark a running table as a hosted event's (after a restart brought it back)."""
        live.hosted = True
        for seat in SEATS:
            if seat not in live.connected():
                self._seat_left(live, seat)
        self._schedule(live)

    def get(self, table_id: str) -> _Live:
        """A table, from memory or read and replayed at once (it blocks: the server
        itself uses :meth:`open`, which does that off the event loop).

        :raises ServerError: ``not_found`` for no such table (or one that expired).
        """
        live = self.live.get(table_id)
        if live is not None:
            return live
        stored = self.store.load(table_id) if len(table_id) <= 32 else None
        if stored is None or stored.status == EXPIRED:
            raise ServerError(ErrorCode.NOT_FOUND, f"no table {table_id[:40]!r}")
        live = self._new_live(stored.restore())
        if live.table.status != "finished":
            self.live[table_id] = live
        return live

    async def open(self, table_id: str) -> _Live:
        """A table, from memory or from the store (read and replayed off the event loop).

        :raises ServerError: ``not_found`` for no such table (or one that expired).
        """
        live = self.live.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 32:
            raise ServerError(ErrorCode.NOT_FOUND, f"no table {table_id[:40]!r}")
        opening = self._opening.get(table_id)
        if opening is None:
            opening = asyncio.ensure_future(self._load(table_id))
            self._opening[table_id] = opening
            opening.add_done_callback(lambda _f: self._opening.pop(table_id, None))
        return await asyncio.shield(opening)

    async def locate(self, table_id: str) -> None:
        """Make sure this worker plays the table (of many: take its lease if it lapsed).

        :raises Elsewhere: when another worker holds the lease (where it is).
        """
        if self.cluster is None or table_id in self.live or len(table_id) > 32:
            return
        try:
            await self.store.run(self.cluster.acquire, table_id)
        except Elsewhere:
            raise
        except Exception as exc:
            raise self.db_health.unreadable(f"the lease of table {table_id}", exc) from None

    async def _load(self, table_id: str) -> _Live:
        await self.locate(table_id)
        try:
            stored = await self.store.run(self.store.load, table_id)
        except Exception as exc:
            raise self.db_health.unreadable(f"table {table_id}", exc) from None
        if stored is None or stored.status == EXPIRED:
            raise ServerError(ErrorCode.NOT_FOUND, f"no table {table_id[:40]!r}")
        live = self.live.get(table_id)
        if live is None:
            live = self._new_live(await asyncio.to_thread(stored.restore))
            if live.table.status != "finished":
                self.live[table_id] = live
            # A finished table is kept only while someone watches it (see _release).
            copy = self.copies.pop(table_id, None)
            if copy is not None:
                self._let_go(copy)  # its spectators reconnect, to the table itself
            if live.table.status != "finished":
                # taken over, or let go when idle and back: as after a restart, each seat
                # absent until its player is back (a takeover clock starts)
                for seat in SEATS:
                    self._seat_left(live, seat)
                self._presence_changed(live)
        return live

    async def result(self, table_id: str) -> dict[str, Any] | None:
        """What the API serves of a finished table, without replaying it; ``None`` if unfinished.

        Read from the store once (and kept for a while); a table finished by an
        earlier version has no stored result: it is replayed once, off the
        event loop, and its result stored.

        :raises ServerError: ``not_found`` for no such table.
        """
        found = self._results.get(table_id)
        if found is not None:
            self._results.move_to_end(table_id)
            return found
        live = self.live.get(table_id)
        if live is not None and live.table.status != "finished":
            return None
        if live is None:
            if len(table_id) > 32:
                raise ServerError(ErrorCode.NOT_FOUND, f"no table {table_id[:40]!r}")
            try:
                found = await self.store.run(self.store.load_result, table_id)
            except Exception as exc:
                raise self.db_health.unreadable(f"the result of table {table_id}", exc) from None
        if found is None or found.get("version") != RESULT_VERSION:
            live = live or await self.open(table_id)
            if live.table.status != "finished":
                return None
            found = await asyncio.to_thread(table_result, live.table)
            with contextlib.suppress(Exception):
                await self.store.run(self.store.save_result, table_id, found)
        self._keep_result(table_id, found)
        return found

    def _keep_result(self, table_id: str, result: dict[str, Any]) -> None:
        self._results[table_id] = result
        self._results.move_to_end(table_id)
        while len(self._results) > RESULTS_KEPT:
            self._results.popitem(last=False)

    def _release(self, live: _Live) -> None:
        """Forget a finished table nobody watches; the store still has it."""
        if live.table.status == "finished" and not live.connections:
            self._drop(live)

    def _drop(self, live: _Live) -> None:
        if not live.copy and (live.expired or live.table.status == FINISHED):
            self._presence_changed(live)  # its presence row goes
        if self.live.get(live.table.id) is live:
            del self.live[live.table.id]
        if self.copies.get(live.table.id) is live:
            del self.copies[live.table.id]
        for task in [live.task, live.timer, *live.away.values()]:
            if task is not None:
                task.cancel()

    async def table_json(self, table_id: str) -> TableJson:
        """A table's public facts as stored: read under its lock, never mid-commit."""
        live = await self.open(table_id)
        async with live.lock:
            return _table(live)

    def tables(self) -> list[Table]:
        """The public tables not finished: this worker's, and (of many) the others'."""
        return [
            live.table
            for live in [*self.live.values(), *self.copies.values()]
            if live.table.config.public and live.table.status != "finished"
        ]

    async def change(
        self,
        table_id: str,
        change: Callable[[Table], T],
        first: tuple[Connection, Callable[[T], Mapping[str, Any]]] | None = None,
    ) -> T:
        """Apply ``change`` to a table, commit its events, then tell every connection.

        ``first`` is a connection and the frame it hears before the update
        (the ``ack`` of its action). The commit runs in a thread of the store
        while the table's lock is held, so a table's changes are stored in
        order and each is durable before anyone hears of it, and the event
        loop serves every other table meanwhile. The change goes on to its
        end even if the caller is cancelled.

        :raises ServerError: as ``change`` raises (nothing changed), or
            ``internal`` when the database did not take it (nothing changed either).
        """
        live = await self.open(table_id)
        task = asyncio.ensure_future(self._change(live, change, first))
        task.add_done_callback(_retrieved)
        return await asyncio.shield(task)

    async def _change(
        self,
        live: _Live,
        change: Callable[[Table], T],
        first: tuple[Connection, Callable[[T], Mapping[str, Any]]] | None,
    ) -> T:
        async with live.lock:
            if live.expired:
                raise ServerError(ErrorCode.NOT_FOUND, f"no table {live.table.id!r}")
            await self._check_database()
            table = live.table
            start = table.seq
            was_over = table.status == "finished"
            result = change(table)
            new = table.events[start:]
            if not new:
                if first is not None:
                    first[0].push(first[1](result))
                return result
            try:
                finished = (  # stored once, as the match ends (a rematch vote adds events)
                    await asyncio.to_thread(table_result, table)
                    if table.status == "finished" and not was_over
                    else None
                )
                await self.store.commit(table.id, new, table.status, finished)
            except StaleWrite:
                # Another worker plays this table now: nothing was written; let it go.
                self._let_go(live)
                raise Elsewhere(table.id, "", 0.0) from None
            except Exception as exc:
                self.db_health.failed(table.id, f"{len(new)} new events", exc)
                # Back to the last committed event, from memory (the database may be down,
                # and every event before ``start`` was committed), replayed off the loop.
                restored = await asyncio.to_thread(
                    Table.restore, table.id, table.config, table.created, table.events[:start]
                )
                restored.turn_deadline = table.turn_deadline
                restored.away_deadlines = table.away_deadlines
                live.table = restored
                raise not_stored(exc) from None
            self.db_health.stored()
            if finished is not None:
                self._keep_result(table.id, finished)
                for listener in self.finish_listeners:
                    listener(table)
            live.idle_since = self._clock()
            # Schedule first: the update shows the deadline of the turn it gives.
            self._schedule(live)
            if first is not None:
                first[0].push(first[1](result))
            self._broadcast(live, new)
            for watch in self.watchers:
                watch(table, new)
            self._release(live)
            return result

    async def _server_change(
        self, table_id: str, change: Callable[[Table], Any], what: str
    ) -> None:
        """A change the server makes itself (a bot's action, the timer's, a takeover),
        tried again while the database does not take it (see :func:`retry`)."""
        await retry(
            lambda: self.change(table_id, change),
            self.db_health,
            table_id,
            what,
            self.settings.commit_retry_first,
            self.settings.commit_retry_max,
        )

    async def chat(self, table_id: str, seat: Seat, text: object) -> None:
        """A chat line from ``seat``, within the seat's own limit (all its connections together).

        A line refused for its text costs nothing of that limit.

        :raises ServerError: ``rate_limited`` past it; as :meth:`Table.chat`.
        """
        line = check_chat(text)
        live = await self.open(table_id)
        assert live.chat is not None
        if not live.chat.take(seat):
            raise ServerError(
                ErrorCode.RATE_LIMITED,
                f"at most {self.settings.chat_per_minute:g} chat lines a minute from a seat: "
                "slow down",
            )
        await self.change(table_id, lambda t: t.chat(seat, line))

    # -- many workers -------------------------------------------------------------------------

    def _let_go(self, live: _Live) -> None:
        """Forget a table another worker plays now, or a copy: its sockets are closed with
        1012 (their clients reconnect, and reach whoever plays it)."""
        self._drop(live)
        for conn in list(live.connections):
            self._spawn(conn.hang_up(CLOSE_LET_GO))

    async def _heartbeat(self, cluster: Cluster) -> None:
        """Renew the leases of the tables in memory, a third of the lease time apart; let go
        of the ones another worker took (this one stalled past its lease). Now and then,
        sweep away the presence rows of tables nobody plays."""
        beats = 0
        while True:
            await asyncio.sleep(cluster.lease_seconds / 3)
            beats += 1
            if beats * cluster.lease_seconds / 3 >= PRESENCE_SWEEP_SECONDS:
                beats = 0
                try:
                    await self.store.run(cluster.sweep_presence)
                except Exception as exc:
                    _log.warning("could not sweep the presence rows: %s", exc)
            ids = list(self.live)
            try:
                held = await self.store.run(cluster.renew, ids)
            except Exception as exc:  # the writes are refused too while it is down
                self.db_health.failed("-", "the leases", exc)
                continue
            for table_id in ids:
                live = self.live.get(table_id)
                if table_id not in held and live is not None and not live.lock.locked():
                    self._let_go(live)

    def _noticed(self, table_id: str, seq: int) -> None:
        """Another worker (or this one) stored events of a table up to ``seq``."""
        if table_id in self.live:
            return
        if table_id in self._catching_up:  # its read may have missed these: again after it
            self._noticed_since[table_id] = max(seq, self._noticed_since.get(table_id, 0))
            return
        copy = self.copies.get(table_id)
        if copy is None and table_id in self._uncopied:
            return  # (a spectator's copy of a private table is kept up all the same)
        if copy is not None and copy.table.seq >= seq:
            return
        task = self._spawn(self._catch_up(table_id))
        self._catching_up[table_id] = task
        task.add_done_callback(lambda done: self._caught_up(table_id, done))

    def _caught_up(self, table_id: str, task: asyncio.Task[None]) -> None:
        self._catching_up.pop(table_id, None)
        seq = self._noticed_since.pop(table_id, None)
        if seq is not None and not task.cancelled():  # (cancelled: the hub stops)
            self._noticed(table_id, seq)

    async def _catch_up(self, table_id: str) -> None:
        """Bring the copy of a table up to its log, and tell its spectators."""
        copy = self.copies.get(table_id)
        try:
            if copy is None:
                stored = await self.store.run(self.store.load, table_id)
                if stored is None or table_id in self.live:
                    return
                if stored.status in (FINISHED, EXPIRED) or not stored.config.public:
                    self._skip_copies(table_id)
                    return
                self._keep_copy(await asyncio.to_thread(stored.restore))
                return
            new = await self.store.run(self.store.events_since, table_id, copy.table.seq)
        except Exception as exc:
            self.db_health.unreadable(f"the changes of table {table_id}", exc)
            return
        if self.copies.get(table_id) is not copy or not new:
            return
        try:
            copy.table.extend(new)
        except ServerError as exc:  # not whole commits: read it again whole next time
            _log.warning("table %s: its copy is read again: %s", table_id, exc.message)
            self._let_go(copy)
            return
        _turn_deadline(copy)
        self._broadcast(copy, new)
        if copy.table.status == FINISHED and not copy.connections:
            del self.copies[table_id]
            self._skip_copies(table_id)

    def _skip_copies(self, table_id: str) -> None:
        if len(self._uncopied) >= MAX_UNCOPIED:
            self._uncopied.clear()  # read again at most once each
        self._uncopied.add(table_id)

    def _keep_copy(self, table: Table) -> _Live:
        copy = self._new_live(table)
        copy.copy = True
        table.turn_deadline = None  # the owner's presence says it
        table.away_deadlines = {}
        self.copies[table.id] = copy
        self._want_presence(table.id, 0)
        return copy

    async def copy_of(self, table_id: str) -> _Live | None:
        """The copy of another worker's table, for a spectator here; ``None`` for none
        (no such table, or it ended)."""
        copy = self.copies.get(table_id)
        if copy is not None:
            return copy
        try:
            stored = await self.store.run(self.store.load, table_id)
        except Exception as exc:
            raise self.db_health.unreadable(f"table {table_id}", exc) from None
        if stored is None or stored.status == EXPIRED or table_id in self.live:
            return None
        copy = self.copies.get(table_id)  # made meanwhile
        return copy or self._keep_copy(await asyncio.to_thread(stored.restore))

    async def _copy_all(self) -> None:
        """(Again) listening: copy every unfinished public table of the others anew."""
        try:
            stored = await self.store.run(self.store.load_unfinished)
        except Exception as exc:
            self.db_health.unreadable("the tables", exc)
            return
        found = {s.id for s in stored}
        for table_id, copy in list(self.copies.items()):
            if table_id not in found and not copy.connections:
                del self.copies[table_id]
        for each in stored:
            if not each.config.public:
                self._skip_copies(each.id)
            if not each.config.public or each.id in self.live:
                continue
            known = self.copies.get(each.id)
            if known is None:
                self._keep_copy(await asyncio.to_thread(each.restore))
            elif known.table.seq < len(each.events):
                self._noticed(each.id, len(each.events))
        for table_id in self.copies:  # and their presence (notices may have been missed)
            self._want_presence(table_id, 0)

    # -- presence, of many (see :mod:`.presence`) ---------------------------------------------

    def _presence_changed(self, live: _Live) -> None:
        """Write the presence of this worker's table soon (a burst of changes: once)."""
        if self.cluster is None or live.copy:
            return
        self._presence_due[live.table.id] = live
        if self._presence_writer is None or self._presence_writer.done():
            self._presence_writer = self._spawn(self._write_presence(self.cluster))

    def said(self, live: _Live, seat: Seat, reaction: str) -> None:
        """A reaction at this worker's table: for the other workers' spectators too."""
        if self.cluster is None or live.copy:
            return
        live.said.append(Said(seat, reaction, time.time()))
        self._presence_changed(live)

    async def _write_presence(self, cluster: Cluster) -> None:
        """Write what changed of the due tables' presence, together: at once (with the
        changes of the same moment), then ``presence_delay`` apart while changes come."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(
                max(0.0, self._presence_last + self.settings.presence_delay - loop.time())
            )
            if not self._presence_due:
                return
            self._presence_last = loop.time()
            due, self._presence_due = self._presence_due, {}
            rows: dict[str, Callable[[int], str]] = {}
            bodies: dict[str, tuple[dict[str, Any], list[Said]]] = {}
            gone: list[str] = []
            now = time.time()
            for table_id, live in due.items():
                if live.expired or live.table.status == FINISHED:
                    if live.presence_seq >= 0:  # its row goes, once
                        gone.append(table_id)
                        live.presence_seq = -1
                    continue
                if self.live.get(table_id) is not live:
                    continue  # let go: another worker plays it now
                live.said = [s for s in live.said if now - s.at < REACTIONS_KEPT]
                table = live.table
                deadline = table.turn_deadline  # (a version only matters with a deadline)
                body = presence_body(
                    live.connected(),
                    table.away_deadlines,
                    deadline,
                    -1 if deadline is None else table.version,
                )
                said = list(live.said)
                if body == live.published and all(s.seq is not None for s in said):
                    continue
                bodies[table_id] = (body, said)
                rows[table_id] = functools.partial(presence_json, body, said)
            if not rows and not gone:
                continue
            try:
                written = await self.store.run(cluster.publish_presence, rows, gone)
            except Exception as exc:  # said, not played: the next change writes it again
                _log.warning("could not write the presence of %d tables: %s", len(due), exc)
                for table_id, live in due.items():
                    self._presence_due.setdefault(table_id, live)
                await asyncio.sleep(1.0)
                continue
            for table_id, seq in written.items():
                live = due[table_id]
                body, said = bodies[table_id]
                live.published = body
                live.presence_seq = seq
                for each in said:
                    if each.seq is None:
                        each.seq = seq

    def _presence_noticed(self, table_id: str, seq: int) -> None:
        """The owner of a table wrote (or removed) its presence row, numbered ``seq``."""
        copy = self.copies.get(table_id)
        if copy is None or table_id in self.live or seq <= copy.presence_seq:
            return
        self._want_presence(table_id, seq)

    def _want_presence(self, table_id: str, seq: int) -> None:
        if self.cluster is None:
            return
        self._presence_wanted[table_id] = max(seq, self._presence_wanted.get(table_id, 0))
        if self._presence_reader is None or self._presence_reader.done():
            self._presence_reader = self._spawn(self._read_presence(self.cluster))

    async def _read_presence(self, cluster: Cluster) -> None:
        """Read the wanted presence rows (all that are wanted at once, in one query), and
        tell each copy's spectators what changed."""
        while self._presence_wanted:
            wanted, self._presence_wanted = self._presence_wanted, {}
            try:
                rows = await self.store.run(cluster.read_presence, list(wanted))
            except Exception as exc:
                self.db_health.unreadable(f"the presence of {len(wanted)} tables", exc)
                await asyncio.sleep(1.0)
                for table_id, seq in wanted.items():
                    self._presence_wanted.setdefault(table_id, seq)
                continue
            for table_id, told in wanted.items():
                copy = self.copies.get(table_id)
                if copy is None:
                    continue
                found = rows.get(table_id)
                if found is None:
                    if told > copy.presence_seq:  # removed: nobody is known to be there
                        self._show_presence(copy, told, NOBODY)
                    continue
                seq, text = found
                remote = read_presence(text) if seq > copy.presence_seq else None
                if remote is not None:
                    self._show_presence(copy, seq, remote)

    def _show_presence(self, copy: _Live, seq: int, remote: Remote) -> None:
        """A copy's presence as its owner published it: an update to its spectators if
        anything they see changed, and each reaction said since the row read last."""
        last = copy.presence_seq
        before = (copy.remote.connected, copy.table.away_deadlines, copy.table.turn_deadline)
        copy.presence_seq = seq
        copy.remote = remote
        copy.table.away_deadlines = dict(remote.away)
        _turn_deadline(copy)
        after = (copy.remote.connected, copy.table.away_deadlines, copy.table.turn_deadline)
        if after != before:
            self._presence(copy)
        if last == 0:
            return  # the first read: what was said before was not heard here
        for said_in, seat, reaction in remote.reactions:
            if said_in > last:
                text = dumps(reaction_frame(seat, reaction))
                for conn in list(copy.connections):
                    conn.push(text)

    async def _watch_database(self) -> None:
        """While writes fail, ask the database now and then, so the health says ``ok``
        again once it is back even if no table changes meanwhile."""
        while True:
            await asyncio.sleep(max(0.01, self.settings.commit_retry_max))
            if self.db_health.failing:
                with contextlib.suppress(ServerError):
                    await self._check_database()
                    self.db_health.stored()

    # -- connections ------------------------------------------------------------------------

    async def connect(self, conn: Connection, since: int | None) -> None:
        """Add ``conn`` to its table and send it the welcome; reclaim a held seat.

        A spectator joins in one frame, its welcome: what others are shown does
        not change (presence is about seats), so they hear nothing.

        :raises ServerError: ``conflict`` when a spectator finds the table full of them;
            ``rate_limited`` when the client holds all the connections it may.
        """
        copy = self.copies.get(conn.table_id) if conn.table_id not in self.live else None
        live = copy if copy is not None and conn.seat is None else await self.open(conn.table_id)
        seat = conn.seat
        self.check_connections(conn)
        if seat is None and live.spectators >= self.settings.max_spectators:
            raise ServerError(
                ErrorCode.CONFLICT,
                f"this table has all the spectators it takes ({self.settings.max_spectators})",
            )
        if seat is not None:
            task = live.away.pop(seat, None)
            if task is not None:
                task.cancel()
            live.table.away_deadlines.pop(seat, None)
        async with live.lock:
            before = live.connected()
            if not live.copy:
                self.live.setdefault(conn.table_id, live)
            live.connections.add(conn)
            if seat is None:
                live.spectators += 1
            self.count_connection(conn)
            if live.timer is None and not live.copy:
                self._schedule(live)  # wake the bots and timers of a table nobody watched
                self._presence_changed(live)  # its turn deadline, if it has one now
            conn.push(welcome_frame(live.table, seat, live.connected(), since, MAX_REPLAY))
        if seat is not None and live.table.seats[seat].held_by is not None:
            live.reclaimed[seat] = self._clock()
            self._spawn(self._server_change(conn.table_id, lambda t: t.reclaim(seat), "a reclaim"))
        elif live.connected() != before:
            self._presence(live)

    def admit_connection(self, client: str | None) -> None:
        """Whether ``client`` may open a socket now (a table's or an event's), before any
        work is done for it: ``connect_burst`` at once, then ``connects_per_minute``.

        :raises ServerError: ``rate_limited`` for a client that connects faster.
        """
        if client is None or self.settings.connects_per_minute <= 0:
            return
        if not self._connects.take(client):
            raise ServerError(
                ErrorCode.RATE_LIMITED,
                "too many new connections from one client: wait a moment and try again",
            )

    def check_connections(self, conn: Connection) -> None:
        """Whether ``conn``'s client may open one more socket (a table's or an event's: one
        count for both).

        :raises ServerError: ``rate_limited`` when it holds all the connections it may.
        """
        most = self.settings.connections_per_client
        if conn.client is not None and 0 < most <= self._per_client.get(conn.client, 0):
            raise ServerError(
                ErrorCode.RATE_LIMITED,
                f"at most {most} connections at once from one client: close one first",
            )

    def count_connection(self, conn: Connection) -> None:
        """Count ``conn`` against its client's connections (:meth:`check_connections`)."""
        if conn.client is not None:
            self._per_client[conn.client] = self._per_client.get(conn.client, 0) + 1
            conn.counted = True

    def release_connection(self, conn: Connection) -> None:
        """Stop counting ``conn`` (once, however often it is called)."""
        if conn.client is not None and conn.counted:
            conn.counted = False
            left = self._per_client.get(conn.client, 1) - 1
            if left > 0:
                self._per_client[conn.client] = left
            else:
                self._per_client.pop(conn.client, None)

    async def disconnect(self, conn: Connection) -> None:
        self.release_connection(conn)
        live = self.live.get(conn.table_id)
        if live is None or conn not in live.connections:
            live = self.copies.get(conn.table_id)  # a spectator of a copy
        if live is None or conn not in live.connections:
            await conn.close()
            return
        live.connections.discard(conn)
        if conn.seat is None:
            live.spectators -= 1
        await conn.close()
        seat = conn.seat
        if seat is not None and seat not in live.connected():
            self._seat_left(live, seat)
            self._presence(live)
        if not live.connections:
            live.idle_since = self._clock()
        self._release(live)

    def _seat_left(self, live: _Live, seat: Seat) -> None:
        """Start the clock after which a bot holds the seat of an absent player.

        Not sooner than ``takeover_gap`` seconds after the player last came
        back: a seat that comes and goes stores a takeover and a reclaim at most
        once a gap, however fast it reconnects.
        """
        table = live.table
        if table.seats[seat].kind != "human" or table.status != "playing" or seat in live.away:
            return
        since = self._clock() - live.reclaimed.get(seat, float("-inf"))
        delay = max(table.config.takeover_seconds, self.settings.takeover_gap - since)
        if table.seats[seat].held_by is None:
            table.away_deadlines[seat] = time.time() + delay

        async def take_over() -> None:
            await asyncio.sleep(delay)
            if seat not in live.connected():
                live.table.away_deadlines.pop(seat, None)
                await self._server_change(
                    table.id, lambda t: t.take_over(seat, self.settings.timer_bot), "a takeover"
                )
            live.away.pop(seat, None)

        live.away[seat] = asyncio.create_task(take_over())

    def _presence(self, live: _Live) -> None:
        """Tell every connection who is connected now (not an event: nothing changed)."""
        self._broadcast(live, ())

    def _broadcast(self, live: _Live, new: Sequence[Event]) -> None:
        self._presence_changed(live)  # (of many; written only if it changed)
        table = live.table
        events = events_json(table, new)
        connections = list(live.connections)
        states = states_json(table, (c.seat for c in connections), live.connected())
        frames: dict[Seat | None, str] = {}
        for conn in connections:
            text = frames.get(conn.seat)
            if text is None:
                text = dumps(update_frame(table, events, states[conn.seat]))
                frames[conn.seat] = text
            conn.push(text)


RESULTS_KEPT = 64
"""Results of finished tables kept in memory."""
PRESENCE_SWEEP_SECONDS = 30.0
"""How often a worker of many sweeps away the presence rows of tables nobody plays."""
MAX_UNCOPIED = 100_000
"""Other workers' private or finished tables remembered as not to copy, at most."""


def _retrieved(task: asyncio.Task[Any]) -> None:
    """Mark the outcome of a change seen (its caller may have been cancelled)."""
    if not task.cancelled():
        task.exception()


def _table(live: _Live) -> TableJson:
    return table_json(live.table, live.connected())


def _turn_deadline(copy: _Live) -> None:
    """A copy's turn deadline: its owner's, while the copy is at the version it is of."""
    version, deadline = copy.remote.turn
    copy.table.turn_deadline = deadline if version == copy.table.version else None
