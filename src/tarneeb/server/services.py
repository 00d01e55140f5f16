"""The services one for the whole site, on a worker of many: played by one worker at a time.

A table is played by the holder of its lease (:mod:`.cluster`); so are the
site's services that keep state between requests: the ranked queue (who
waits, since when), the list of rated tables waiting for players, and the
hosted events (each event's sets are started by one host, never twice).
One worker holds the :data:`~.cluster.SERVICES` lease in ``tarneeb_leases``,
renewed every third of the lease time as the tables' are; it runs the events
(:meth:`EventHost.startup` once it holds the lease). Every other worker
forwards those requests and sockets to it (:func:`~.cluster.forward_http`,
:func:`~.cluster.forward_socket`), the way a table's are forwarded to its
owner. When the holder dies its lease lapses, the next worker to look takes
it and brings the events back from the store; a queue's waiting players
join again (the queue is the holder's memory, see
:mod:`.players.queue`).

A single process (SQLite, or PostgreSQL without ``--workers``) holds them
all itself and has none of this.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.websockets import WebSocket

from tarneeb.server.cluster import (
    FORWARDED,
    SERVICES,
    Cluster,
    Unreachable,
    forward_http,
    forward_socket,
)
from tarneeb.server.edge import error_response
from tarneeb.server.store import Store
from tarneeb.server.table import ErrorCode, ServerError

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["PREFIXES", "Services", "ServicesMiddleware"]

_log = logging.getLogger("tarneeb.server.services")

FRAME_MAX = 1 << 16
"""The largest frame carried on a forwarded events socket (a client sends only pings)."""

PREFIXES = ("/api/players/queue", "/api/players/tables", "/api/events", "/ws/events/")
"""The paths of the site-wide services (the events' pages are the client's files)."""


class Services:
    """Whether this worker holds the site's services, and who does if it does not.

    ``gained`` runs when this worker takes them, ``lost`` when it finds another
    worker took them (it stalled past its lease)."""

    def __init__(
        self,
        cluster: Cluster,
        store: Store,
        gained: Callable[[], Awaitable[None]],
        lost: Callable[[], Awaitable[None]],
    ) -> None:
        self.cluster = cluster
        self.store = store
        self.gained = gained
        self.lost = lost
        self.held = False
        self.holder: str | None = None
        """The address of the worker that holds them (``None`` while this one does)."""
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def refresh(self) -> bool:
        """Renew or take the lease; whether this worker holds the services now."""
        async with self._lock:
            holder = await self.store.run(self.cluster.hold, SERVICES)
            self.holder = holder
            if holder is None and not self.held:
                # Held only once they are back: a request that comes meanwhile waits on
                # the lock, and is never answered without the events it asks for.
                try:
                    await self.gained()
                except Exception:  # not back: forget what was, let the lease go for another
                    with contextlib.suppress(Exception):
                        await self.lost()
                    await self.store.run(self.cluster.release, [SERVICES])
                    raise
                self.held = True
            elif holder is not None and self.held:
                self.held = False
                _log.warning("the site's services went to the worker at %s", holder)
                await self.lost()
            return self.held

    async def start(self) -> None:
        await self.refresh()
        self._task = asyncio.get_running_loop().create_task(self._renew())

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.cluster.lease_seconds / 3)
            try:
                await self.refresh()
            except Exception as exc:  # the database is away: look again next time
                _log.error("the services' lease was not renewed: %r", exc)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.held:
            await self.store.run(self.cluster.release, [SERVICES])
            self.held = False


def _moved() -> ServerError:
    return ServerError(
        ErrorCode.CONFLICT, "the site's services moved to another worker just now: try again"
    )


class ServicesMiddleware:
    """Answer the services' paths here when this worker holds them, else forward them
    (once: a forwarded request is answered or refused, never forwarded again)."""

    def __init__(self, app: ASGIApp, services: Callable[[], Services | None]) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        services = self.services() if scope["type"] in ("http", "websocket") else None
        if services is None or not str(scope.get("path", "")).startswith(PREFIXES):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v for k, v in scope.get("headers", ())}
        forwarded = FORWARDED in headers
        ws: WebSocket | None = None
        request = Request(scope, receive) if scope["type"] == "http" else None
        # The holder gone, its lease lapses within a lease's time: wait that long at most.
        deadline = asyncio.get_running_loop().time() + services.cluster.lease_seconds * 1.5
        while True:
            try:
                here = services.held or await services.refresh()
            except Exception as exc:  # the database is away, or the events did not load
                _log.error("the services' lease was not taken: %r", exc)
                break
            if here:
                if ws is None:
                    await self.app(scope, _replayed(request) if request else receive, send)
                else:  # accepted to be carried, and the services came here meanwhile
                    await ws.close(code=1012)
                return
            if forwarded:
                break
            address = services.holder
            assert address is not None
            try:
                if request is not None:  # its body read once, sent again if need be
                    answer = await forward_http(request, address, services.cluster.worker_id)
                    await answer(scope, receive, send)
                    return
                if ws is None:
                    ws = WebSocket(scope, receive, send)
                    await ws.accept()
                await forward_socket(ws, address, services.cluster.worker_id, None, FRAME_MAX)
                return
            except Unreachable as exc:
                if not exc.refused:  # it may have been done there: not again
                    break
            if asyncio.get_running_loop().time() > deadline:
                break
            # The holder is gone: once its lease lapses, the services are played here.
            await asyncio.sleep(services.cluster.lease_seconds / 6)
        where = f"{scope.get('method', 'WS')} {scope.get('path', '')}"
        if scope["type"] == "http":
            await error_response(_moved(), where)(scope, receive, send)
            return
        if ws is None:
            ws = WebSocket(scope, receive, send)
            await ws.accept()
        await ws.close(code=1012)  # reconnect: the services are elsewhere now


def _replayed(request: Request) -> Receive:
    """The ``receive`` of a request whose body may have been read (to forward it) already."""
    if not hasattr(request, "_body"):
        return request.receive
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": request._body, "more_body": False}
        return await request.receive()

    return receive
