"""What a seat may ask of the hub beside playing: hints, reactions, a rematch, seat links.

:class:`Asks` is the part of :class:`~tarneeb.server.hub.Hub` that answers
them. Each is bounded per seat (all its connections together) by the limits
of :class:`~tarneeb.server.settings.Settings`; a refused ask changes
nothing and costs nothing of the limit unless it was read.

* ``hint``: what the hint bot would do in the asking seat, from that seat's
  :class:`~tarneeb.view.View` only, and why, to the asker alone; only on its
  turn and at a table whose host left hints on.
* ``react``: one of the fixed reactions, to every connection of the table
  (not stored: it is said, not played); spectators cannot.
* ``rematch``: after the match, each player's word; once every player
  (bots agree) says yes, a new table with the same set-up and seats.
* seat links and claims move a seat to another device (:mod:`.seating`);
  the old device's sockets hear ``bye`` and are closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from tarneeb.bots.base import Bot
from tarneeb.bots.registry import decide_safely, make_adviser
from tarneeb.seats import Seat
from tarneeb.server.connection import dumps
from tarneeb.server.limits import Buckets
from tarneeb.server.protocol import (
    hint_frame,
    my_seat_json,
    reaction_frame,
)
from tarneeb.server.settings import Settings
from tarneeb.server.table import ErrorCode, ServerError, Table
from tarneeb.server.wire import (
    MAX_SEAT_LOOKUPS,
    HintAnswerFrame,
    MySeatJson,
)

if TYPE_CHECKING:
    from tarneeb.server.hub import _Live

__all__ = ["CLOSE_MOVED", "Asks"]

T = TypeVar("T")

CLOSE_MOVED = 4001
"""The WebSocket close code after ``bye``: the seat moved to another device."""


class Asks:
    """Hints, reactions, rematches, seat links and claims (mixed into the hub)."""

    settings: Settings
    live: dict[str, _Live]
    copies: dict[str, _Live]
    _clock: Callable[[], float]

    async def open(self, table_id: str) -> _Live:
        raise NotImplementedError  # pragma: no cover - the hub's

    async def change(self, table_id: str, change: Callable[[Table], T], first: Any = None) -> T:
        raise NotImplementedError  # pragma: no cover - the hub's

    async def _store_new(self, table: Table) -> _Live:
        raise NotImplementedError  # pragma: no cover - the hub's

    def _new_id(self) -> str:
        raise NotImplementedError  # pragma: no cover - the hub's

    def said(self, live: _Live, seat: Seat, reaction: str) -> None:
        raise NotImplementedError  # pragma: no cover - the hub's

    def _buckets(self, live: _Live, what: str, per_minute: float, burst: float) -> Buckets[Seat]:
        """The per-seat limit ``what`` of a table (made on first use)."""
        found = live.limits.get(what)
        if found is None:
            found = Buckets(per_minute / 60.0, max(1.0, burst), self._clock)
            live.limits[what] = found
        return found

    def _take(self, live: _Live, seat: Seat, what: str, per_minute: float, burst: float) -> None:
        """Take one ``what`` of ``seat``'s limit.

        :raises ServerError: ``rate_limited`` when it has none left.
        """
        if not self._buckets(live, what, per_minute, burst).take(seat):
            # the burst is what refuses a quick run of them: the message says both
            raise ServerError(
                ErrorCode.RATE_LIMITED,
                f"at most {max(1.0, burst):g} {what} at once and {per_minute:g} a minute "
                "from a seat: wait a few seconds",
            )

    # -- hints ----------------------------------------------------------------------------

    async def hint(self, table_id: str, seat: Seat) -> HintAnswerFrame:
        """What the hint bot would do for ``seat`` now, from its own view, and why.

        :raises ServerError: ``forbidden`` where the host turned hints off;
            ``not_started``, ``game_over`` or ``not_your_turn``; ``rate_limited``.
        """
        live = await self.open(table_id)
        table = live.table
        if not table.config.hints:
            raise ServerError(ErrorCode.FORBIDDEN, "the host turned hints off at this table")
        match = table.match
        if match is None:
            raise ServerError(ErrorCode.NOT_STARTED, "the table has not started")
        if match.is_over():
            raise ServerError(ErrorCode.GAME_OVER, "the match is over")
        if match.to_act != seat:
            raise ServerError(ErrorCode.NOT_YOUR_TURN, "a hint is for your own turn")
        settings = self.settings
        self._take(live, seat, "hints", settings.hints_per_minute, settings.hint_burst)
        version = table.version
        view = match.view(seat)
        bot = self._hint_bot(live)
        if bot.slow:
            decision = await asyncio.to_thread(decide_safely, bot, view)
        else:
            decision = decide_safely(bot, view)
        return hint_frame(version, decision)

    def _hint_bot(self, live: _Live) -> Bot:
        bot = live.bots.get((None, self.settings.hint_bot))
        if bot is None:
            bot = make_adviser(self.settings.hint_bot, rng=random.Random(secrets.randbits(64)))
            live.bots[(None, self.settings.hint_bot)] = bot
        return bot

    # -- reactions --------------------------------------------------------------------------

    async def react(self, table_id: str, seat: Seat, reaction: str) -> None:
        """Tell every connection of the table ``seat``'s reaction.

        :raises ServerError: ``rate_limited`` past the seat's limit.
        """
        live = await self.open(table_id)
        settings = self.settings
        self._take(live, seat, "reactions", settings.reactions_per_minute, settings.reaction_burst)
        text = dumps(reaction_frame(seat, reaction))
        for conn in list(live.connections):
            conn.push(text)
        self.said(live, seat, reaction)  # of many: the other workers' spectators hear it too

    # -- a rematch --------------------------------------------------------------------------

    async def vote_rematch(self, table_id: str, seat: Seat, vote: bool) -> None:
        """``seat``'s word on a rematch; once every player agrees, the rematch is made.

        :raises ServerError: as :meth:`Table.vote_rematch`; ``rate_limited`` (votes share
            the seat's chat limit: each is stored).
        """
        live = await self.open(table_id)
        assert live.chat is not None
        if not live.chat.take(seat):
            raise ServerError(ErrorCode.RATE_LIMITED, "too many words from this seat: slow down")
        agreed = await self.change(table_id, lambda t: t.vote_rematch(seat, vote))
        if agreed:
            await self._make_rematch(live)

    async def _make_rematch(self, live: _Live) -> None:
        """Store the rematch's table, then tell the old one (each once, however many ask)."""
        if live.rematching:
            return
        live.rematching = True
        try:
            table = live.table
            if not table.rematch_agreed:
                return
            new = table.rematch_of(self._new_id())
            await self._store_new(new)
            await self.change(table.id, lambda t: t.made_rematch(new.id))
        finally:
            live.rematching = False

    # -- seat links -------------------------------------------------------------------------

    async def seat_link(self, table_id: str, token: object) -> tuple[Seat, str]:
        """A new seat link's secret for the seat ``token`` holds (its last one is void).

        :raises ServerError: ``unauthorized`` for a bad token; ``rate_limited``.
        """
        live = await self.open(table_id)
        seat = live.table.seat_of_token(token)
        settings = self.settings
        self._take(live, seat, "seat links", settings.links_per_minute, settings.links_per_minute)
        secret = await self.change(table_id, lambda t: t.seat_link(seat))
        return seat, secret

    async def invite(
        self, table_id: str, token: object, groups: Sequence[Sequence[Seat]]
    ) -> dict[Seat, str]:
        """New invites, made by a seated player, for free seats (each group one invite).

        :raises ServerError: ``unauthorized`` for a bad token; as :meth:`Table.invite`.
        """
        live = await self.open(table_id)
        seat = live.table.seat_of_token(token)
        settings = self.settings
        self._take(live, seat, "seat links", settings.links_per_minute, settings.links_per_minute)
        return await self.change(table_id, lambda t: t.invite(groups))

    async def claim(self, table_id: str, link: object) -> tuple[Seat, str]:
        """Move a seat here by its link: the seat and its new token. The seat's sockets of
        before hear ``bye`` and are closed (the old token holds no seat any more).

        :raises ServerError: ``unauthorized`` for a link that is used, replaced or wrong.
        """
        live = await self.open(table_id)
        before = [c for c in live.connections if c.seat is not None]
        seat, token = await self.change(table_id, lambda t: t.claim(link))
        for conn in before:
            if conn.seat == seat:
                await conn.bye({"type": "bye", "reason": "moved"}, CLOSE_MOVED)
        return seat, token

    def my_seats(self, asked: object) -> list[MySeatJson]:
        """The running tables where the given tokens hold seats (``[{"table", "token"}]``).

        Only tables this server has under way are looked at, and only the given
        tokens are checked: what it tells is what the tokens prove, nothing more.

        :raises ServerError: ``malformed`` for anything but a list of such objects.
        """
        if not isinstance(asked, list) or len(asked) > MAX_SEAT_LOOKUPS:
            raise ServerError(
                ErrorCode.MALFORMED,
                f"seats are a list of at most {MAX_SEAT_LOOKUPS} {{table, token}} objects",
            )
        found: list[MySeatJson] = []
        seen: set[tuple[str, Seat]] = set()
        for item in asked:
            if not isinstance(item, Mapping) or set(item) != {"table", "token"}:
                raise ServerError(ErrorCode.MALFORMED, "each seat is {table, token}")
            table_id, token = item["table"], item["token"]
            if not isinstance(table_id, str) or not isinstance(token, str):
                raise ServerError(ErrorCode.MALFORMED, "a table id and a token are strings")
            live = self.live.get(table_id) or self.copies.get(table_id)  # of many: copies
            if live is None or live.expired or live.table.status == "finished":
                continue
            with contextlib.suppress(ServerError):
                seat = live.table.seat_of_token(token)
                if (table_id, seat) not in seen:
                    seen.add((table_id, seat))
                    found.append(my_seat_json(live.table, seat, live.connected()))
        return found
