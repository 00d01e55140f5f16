"""The running server: tables in memory, their connections, bots and timers.

Every change to a table goes through :meth:`Hub.change`: under the table's
lock it asks the :class:`Table` to change (which refuses or changes whole),
commits the new events to the store, and only then tells each connection
what it may see. Should the commit fail, the table is rebuilt from its
events committed before (kept in memory, so this works with the database
down), so memory never runs ahead of the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tarneeb.actions import Action, Pass, format_action
from tarneeb.bots.base import Bot
from tarneeb.bots.registry import make_bot
from tarneeb.seats import SEATS, Seat
from tarneeb.server.protocol import state_json, states_json, table_json
from tarneeb.server.store import Store
from tarneeb.server.table import ErrorCode, Event, ServerError, Table, TableConfig, seat_name
from tarneeb.view import View

__all__ = ["Connection", "Hub", "Settings"]

T = TypeVar("T")

MAX_BACKLOG = 500
"""Frames waiting to be sent to one connection, past which it is closed."""
CLOSE_BEHIND = 1013
"""The WebSocket close code for a client too far behind (try again later)."""
MAX_REPLAY = 2000
"""Events replayed to a reconnecting client at most; past that it gets the state alone."""


@dataclass(frozen=True)
class Settings:
    """How a server runs."""

    db_url: str | None = None
    """SQLAlchemy URL; ``None``: a SQLite file in the user's data directory."""
    bot_delay: float = 0.6
    """Seconds a bot waits before it acts, so people can follow the play."""
    allowed_origins: tuple[str, ...] = ()
    """Browser origins allowed besides the server's own."""
    rate_per_s: float = 20.0
    rate_burst: float = 40.0
    max_tables: int = 10000
    timer_bot: str = "heuristic"
    """The bot that plays for a seat whose turn timer ran out, or that holds an absent player's seat."""


class Connection:
    """One WebSocket of a table: a seat's or a spectator's, with its own send queue.

    A client that does not read its frames is not allowed to make the server
    hold them without end: past :data:`MAX_BACKLOG` unsent frames its socket
    is closed (code 1013, try again later), and on reconnecting it gets the
    events it missed.
    """

    def __init__(
        self,
        table_id: str,
        seat: Seat | None,
        send: Callable[[str], Awaitable[Any]],
        abort: Callable[[int], Coroutine[Any, Any, Any]] | None = None,
    ) -> None:
        self.table_id = table_id
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._send = send
        self._abort = abort
        self.writer: asyncio.Task[None] | None = None
        self.overflowed = False
        self._aborting: asyncio.Task[Any] | None = None

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self._send(text)
            except Exception:  # the socket went away; the reader notices and cleans up
                return

    def push(self, frame: dict[str, Any] | str) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)
            if self._abort is not None:
                self._aborting = asyncio.get_running_loop().create_task(self._abort(CLOSE_BEHIND))
            return
        self.queue.put_nowait(frame if isinstance(frame, str) else _dumps(frame))

    async def close(self) -> None:
        self.queue.put_nowait(None)
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await self.writer


def _dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame, separators=(",", ":"))


@dataclass
class _Live:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[tuple[Seat, str], Bot] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    task_version: int = -1
    timer: asyncio.Task[None] | None = None
    away: dict[Seat, asyncio.Task[None]] = field(default_factory=dict)

    def connected(self) -> set[Seat]:
        return {c.seat for c in self.connections if c.seat is not None}


class Hub:
    """All tables of one server process."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.live: dict[str, _Live] = {}

    # -- life -------------------------------------------------------------------------------

    async def startup(self) -> None:
        """Bring back every unfinished table exactly as stored."""
        for stored in self.store.load_unfinished():
            live = _Live(stored.restore())
            self.live[stored.id] = live
            for seat in SEATS:
                self._seat_left(live, seat)
            self._schedule(live)

    async def shutdown(self) -> None:
        for live in self.live.values():
            for task in [live.task, live.timer, *live.away.values()]:
                if task is not None:
                    task.cancel()
            for conn in list(live.connections):
                await conn.close()

    # -- tables -----------------------------------------------------------------------------

    def create(self, config: TableConfig, name: str | None, seat: Seat) -> tuple[Table, str | None]:
        if len(self.live) >= self.settings.max_tables:
            raise ServerError(ErrorCode.CONFLICT, "the server has all the tables it can hold")
        if config.seats[seat] != "human":
            raise ServerError(ErrorCode.MALFORMED, f"your seat {seat_name(seat)} must be human")
        table = Table.new(secrets.token_urlsafe(9), config)
        token = table.join(name if name is not None else "Player", seat)
        table.invite()  # the secrets are in table.new_invites, for the creator's answer
        self.store.create(table)
        live = _Live(table)
        self.live[table.id] = live
        self._schedule(live)
        return table, token

    def get(self, table_id: str) -> _Live:
        live = self.live.get(table_id)
        if live is None:
            stored = self.store.load(table_id) if len(table_id) <= 32 else None
            if stored is None:
                raise ServerError(ErrorCode.NOT_FOUND, f"no table {table_id!r}")
            live = _Live(stored.restore())
            if live.table.status != "finished":
                self.live[table_id] = live
            # A finished table is kept only while someone watches it (see _release).
        return live

    def _release(self, live: _Live) -> None:
        """Forget a finished table nobody watches; the store still has it."""
        if live.table.status == "finished" and not live.connections:
            if self.live.get(live.table.id) is live:
                del self.live[live.table.id]
            for task in [live.task, live.timer, *live.away.values()]:
                if task is not None:
                    task.cancel()

    def tables(self) -> list[Table]:
        return [
            live.table
            for live in self.live.values()
            if live.table.config.public and live.table.status != "finished"
        ]

    async def change(
        self,
        table_id: str,
        change: Callable[[Table], T],
        first: tuple[Connection, Callable[[T], dict[str, Any]]] | None = None,
    ) -> T:
        """Apply ``change`` to a table, commit its events, then tell every connection.

        ``first`` is a connection and the frame it hears before the update
        (the ``ack`` of its action).

        :raises ServerError: as ``change`` raises (nothing changed), or ``internal``.
        """
        live = self.get(table_id)
        async with live.lock:
            table = live.table
            start = table.seq
            result = change(table)
            new = table.events[start:]
            if new:
                try:
                    self.store.append(table.id, new, table.status)
                except Exception as exc:
                    # Back to the last committed event, from memory: the database may be
                    # down, and every event before ``start`` was committed.
                    restored = Table.restore(
                        table.id, table.config, table.created, table.events[:start]
                    )
                    restored.turn_deadline = table.turn_deadline
                    live.table = restored
                    raise ServerError(
                        ErrorCode.INTERNAL, f"could not store the change: {exc}"
                    ) from None
                # Schedule first: the update shows the deadline of the turn it gives.
                self._schedule(live)
                if first is not None:
                    first[0].push(first[1](result))
                self._broadcast(live, new)
                self._release(live)
            elif first is not None:
                first[0].push(first[1](result))
            return result

    # -- connections ------------------------------------------------------------------------

    async def connect(self, conn: Connection, since: int | None) -> None:
        """Add ``conn`` to its table and send it the welcome; reclaim a held seat."""
        live = self.get(conn.table_id)
        seat = conn.seat
        if seat is not None:
            task = live.away.pop(seat, None)
            if task is not None:
                task.cancel()
        async with live.lock:
            self.live.setdefault(conn.table_id, live)
            live.connections.add(conn)
            table = live.table
            events: list[dict[str, Any]] | None
            if since is None:
                since = 0
            if since > table.seq or table.seq - since > MAX_REPLAY:
                events = None
            else:
                events = [e.public() for e in table.events[since:]]
            conn.push(
                {
                    "type": "welcome",
                    "protocol": 1,
                    "seat": None if seat is None else seat_name(seat),
                    "seq": table.seq,
                    "version": table.version,
                    "table": _table(live),
                    "state": state_json(table, seat, live.connected()),
                    "events": events,
                }
            )
        if seat is not None and live.table.seats[seat].held_by is not None:
            await self.change(conn.table_id, lambda t: t.reclaim(seat))
        else:
            self._presence(live)

    async def disconnect(self, conn: Connection) -> None:
        live = self.live.get(conn.table_id)
        if live is None:
            return
        live.connections.discard(conn)
        await conn.close()
        seat = conn.seat
        if seat is not None and seat not in live.connected():
            self._seat_left(live, seat)
            self._presence(live)
        self._release(live)

    def _seat_left(self, live: _Live, seat: Seat) -> None:
        """Start the clock after which a bot holds the seat of an absent player."""
        table = live.table
        if table.seats[seat].kind != "human" or table.status != "playing" or seat in live.away:
            return
        delay = table.config.takeover_seconds

        async def take_over() -> None:
            await asyncio.sleep(delay)
            live.away.pop(seat, None)
            if seat not in live.connected():
                with contextlib.suppress(ServerError):
                    await self.change(
                        table.id, lambda t: t.take_over(seat, self.settings.timer_bot)
                    )

        live.away[seat] = asyncio.create_task(take_over())

    def _presence(self, live: _Live) -> None:
        """Tell every connection who is connected now (not an event: nothing changed)."""
        self._broadcast(live, ())

    def _broadcast(self, live: _Live, new: Sequence[Event]) -> None:
        table = live.table
        events = [e.public() for e in new]
        connections = list(live.connections)
        states = states_json(table, (c.seat for c in connections), live.connected())
        frames: dict[Seat | None, str] = {}
        for conn in connections:
            text = frames.get(conn.seat)
            if text is None:
                text = _dumps(
                    {
                        "type": "update",
                        "seq": table.seq,
                        "version": table.version,
                        "events": events,
                        "state": states[conn.seat],
                    }
                )
                frames[conn.seat] = text
            conn.push(text)

    # -- bots and timers --------------------------------------------------------------------

    def _schedule(self, live: _Live) -> None:
        """Start the bot or the turn timer for whoever is to act now."""
        table = live.table
        seat = table.to_act()
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
            table.turn_deadline = None
        if seat is None or table.status != "playing":
            return
        spec = table.controller(seat)
        if spec is not None:
            if live.task_version != table.version or live.task is None or live.task.done():
                live.task_version = table.version
                live.task = asyncio.create_task(self._bot_turn(live, seat, spec, table.version))
        elif table.config.turn_seconds is not None:
            seconds = table.config.turn_seconds
            table.turn_deadline = time.time() + seconds
            live.timer = asyncio.create_task(self._timer(live, seat, table.version, seconds))

    def _bot(self, live: _Live, seat: Seat, spec: str) -> Bot:
        bot = live.bots.get((seat, spec))
        if bot is None:
            bot = make_bot(spec, rng=random.Random(secrets.randbits(64)))
            live.bots[(seat, spec)] = bot
        return bot

    async def _bot_turn(self, live: _Live, seat: Seat, spec: str, version: int) -> None:
        if self.settings.bot_delay > 0:
            await asyncio.sleep(self.settings.bot_delay)
        await self._play_for(live, seat, spec, version, "bot")

    async def _timer(self, live: _Live, seat: Seat, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        await self._play_for(live, seat, self.settings.timer_bot, version, "timer")

    async def _play_for(self, live: _Live, seat: Seat, spec: str, version: int, by: str) -> None:
        table = live.table
        match = table.match
        if match is None or table.version != version or match.to_act != seat:
            return
        if by == "bot" and table.controller(seat) != spec:
            return  # the player reclaimed the seat while the bot waited
        view = match.view(seat)
        bot = self._bot(live, seat, spec)
        if by == "timer":
            action = _safe_action(view, bot)
        elif bot.slow:
            action = await asyncio.to_thread(bot.act, view)
        else:
            action = bot.act(view)
        ref = f"{by}-{version}"

        def act(t: Table) -> int:
            if by == "bot" and t.controller(seat) != spec:
                raise ServerError(ErrorCode.CONFLICT, "the player is back in the seat")
            return t.act(seat, version, format_action(action), ref, by)

        with contextlib.suppress(ServerError):
            await self.change(table.id, act)


def _safe_action(view: View, bot: Bot) -> Action:
    """What the turn timer plays: a pass where one is legal, else the bot's choice."""
    return Pass() if Pass() in view.legal_actions else bot.act(view)


def _table(live: _Live) -> dict[str, Any]:
    return table_json(live.table, live.connected())
