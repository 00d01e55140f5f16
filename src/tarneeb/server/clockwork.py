"""What the hub runs by itself, on its clock: bots, turn timers, and the expiry of idle tables.

:class:`Clockwork` is the part of :class:`~tarneeb.server.hub.Hub` that
acts without being asked. Nothing runs for nobody: bots and timers wait at a
table nobody is connected to (unless ``bots_play_unwatched``), a table
that never started expires once idle for ``waiting_table_ttl`` seconds, and
a started one nobody is at leaves memory after ``idle_table_release``
seconds (to come back from the store on the next contact).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tarneeb.actions import Action, Pass, format_action
from tarneeb.bots.base import Bot
from tarneeb.bots.registry import decide_safely, make_bot
from tarneeb.seats import Seat
from tarneeb.server.commits import DatabaseHealth
from tarneeb.server.settings import Settings
from tarneeb.server.store import Store
from tarneeb.server.table import ErrorCode, ServerError, Table
from tarneeb.view import View

if TYPE_CHECKING:
    from tarneeb.server.hub import _Live

__all__ = ["Clockwork"]

_log = logging.getLogger("tarneeb.server.hub")


class Clockwork:
    """Bots, turn timers and expiry (mixed into the hub)."""

    settings: Settings
    store: Store
    live: dict[str, _Live]
    db_health: DatabaseHealth
    _clock: Callable[[], float]

    def _drop(self, live: _Live) -> None:
        raise NotImplementedError  # pragma: no cover - the hub's

    async def _server_change(
        self, table_id: str, change: Callable[[Table], Any], what: str
    ) -> None:
        raise NotImplementedError  # pragma: no cover - the hub's

    # -- expiry -----------------------------------------------------------------------------

    async def _expire_forever(self, ttl: float) -> None:
        every = max(1.0, min(60.0, ttl / 4))
        while True:
            await asyncio.sleep(every)
            await self.expire_idle()

    async def expire_idle(self, now: float | None = None) -> list[str]:
        """Expire every waiting table idle (no change, nobody connected) for the set time.

        Its row stays, marked ``expired``; it leaves memory and a restart does not
        bring it back. Returns the ids expired.
        """
        ttl = self.settings.waiting_table_ttl
        if ttl is None:
            return []
        now = self._clock() if now is None else now
        gone: list[str] = []
        for live in list(self.live.values()):
            if not self._idle(live, now, ttl):
                continue
            async with live.lock:
                if not self._idle(live, now, ttl):
                    continue
                try:
                    await self.store.run(self.store.expire, live.table.id)
                except Exception as exc:
                    self.db_health.failed(live.table.id, "its expiry", exc)
                    continue
                live.expired = True
                self._drop(live)
                gone.append(live.table.id)
        if gone:
            _log.info("expired %d idle waiting tables", len(gone))
        return gone

    async def _release_forever(self, after: float) -> None:
        every = max(1.0, min(60.0, after / 4))
        while True:
            await asyncio.sleep(every)
            self.release_idle()

    def release_idle(self, now: float | None = None) -> list[str]:
        """Let go of every started table nobody has been at for ``idle_table_release``
        seconds: it leaves memory, and the next contact loads it from the store as it was.
        Nothing of it is lost: every change was stored before it was told. (Of many
        workers, its lease is no longer renewed: it lapses, and until then a contact
        anywhere comes back here.) Returns the ids let go.
        """
        after = self.settings.idle_table_release
        if after is None:
            return []
        now = self._clock() if now is None else now
        gone = [live for live in list(self.live.values()) if self._abandoned(live, now, after)]
        for live in gone:
            self._drop(live)
        if gone:
            _log.info("let go of %d tables nobody is at", len(gone))
        return [live.table.id for live in gone]

    def _abandoned(self, live: _Live, now: float, after: float) -> bool:
        """A started table that nothing happens at (nobody connected, no bot or timer,
        no commit under way) and that has been so for ``after`` seconds. A takeover clock
        of an absent seat goes with it: loaded again, its absent seats start theirs anew,
        as after a restart."""
        return (
            live.table.status == "playing"
            and not live.connections
            and not live.copy
            and not self._watched(live)
            and not live.rematching
            and not live.lock.locked()
            and all(task is None or task.done() for task in [live.task, live.timer])
            and now - live.idle_since >= after
        )

    @staticmethod
    def _idle(live: _Live, now: float, ttl: float) -> bool:
        return (
            not live.expired
            and live.table.status == "waiting"
            and not live.connections
            and now - live.idle_since >= ttl
        )

    # -- bots and timers --------------------------------------------------------------------

    def _watched(self, live: _Live) -> bool:
        return bool(live.connections) or live.hosted or self.settings.bots_play_unwatched

    def _schedule(self, live: _Live) -> None:
        """Start the bot or the turn timer for whoever is to act now.

        At a table nobody is connected to, neither starts (unless the settings
        say bots play unwatched): :meth:`connect` starts them.
        """
        table = live.table
        seat = table.to_act()
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
            table.turn_deadline = None
        if seat is None or table.status != "playing" or not self._watched(live):
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
        if not self._watched(live):
            return  # everyone left while the bot waited: it acts when someone is back
        view = match.view(seat)
        bot = self._bot(live, seat, spec)
        if by == "timer":
            action = _safe_action(view, bot)
        elif bot.slow:
            action = (await asyncio.to_thread(decide_safely, bot, view)).action
        else:
            action = decide_safely(bot, view).action
        ref = f"{by}-{version}"

        def act(t: Table) -> int:
            if by == "bot" and t.controller(seat) != spec:
                raise ServerError(ErrorCode.CONFLICT, "the player is back in the seat")
            return t.act(seat, version, format_action(action), ref, by)

        await self._server_change(table.id, act, f"the {by}'s action")


def _safe_action(view: View, bot: Bot) -> Action:
    """What the turn timer plays: a pass where one is legal, else the bot's choice."""
    return Pass() if Pass() in view.legal_actions else decide_safely(bot, view).action
