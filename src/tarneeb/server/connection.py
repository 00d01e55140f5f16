"""One WebSocket of a table as the hub sees it: a seat's or a spectator's, with its send queue."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from tarneeb.seats import Seat

__all__ = ["CLOSE_BEHIND", "MAX_BACKLOG", "Connection", "dumps"]

MAX_BACKLOG = 500
"""Frames waiting to be sent to one connection, past which it is closed."""
CLOSE_BEHIND = 1013
"""The WebSocket close code for a client too far behind (try again later)."""


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
        client: str | None = None,
    ) -> None:
        self.table_id = table_id
        self.seat = seat
        self.client = client
        """The client's address, that the hub counts connections by."""
        self.counted = False
        """Whether the hub counts this connection among its client's."""
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

    def push(self, frame: Mapping[str, Any] | str) -> None:
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
        self.queue.put_nowait(frame if isinstance(frame, str) else dumps(frame))

    async def bye(self, frame: Mapping[str, Any], code: int) -> None:
        """Send ``frame`` after what waits, then close the socket with ``code`` (on purpose)."""
        self.push(frame)
        await self.close()
        if self._abort is not None and not self.overflowed:
            with contextlib.suppress(Exception):
                await self._abort(code)

    async def hang_up(self, code: int) -> None:
        """Send what waits, then close the socket with ``code`` (its client reconnects)."""
        await self.close()
        if self._abort is not None and not self.overflowed:
            with contextlib.suppress(Exception):
                await self._abort(code)

    async def close(self) -> None:
        self.queue.put_nowait(None)
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await self.writer


def dumps(frame: Mapping[str, Any]) -> str:
    """A frame as it goes on the wire: compact JSON."""
    return json.dumps(frame, separators=(",", ":"))
