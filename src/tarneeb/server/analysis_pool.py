"""Double-dummy analyses of played deals for the API, off the event loop, bounded and cached.

An analysis takes DDS a second or more, so it never runs on the event loop:
it runs in a small pool of worker threads (DDS is C, called through ctypes,
which lets go of the GIL while it solves; the solver runs one call at a time
in any case). Requests are bounded three ways:

* one analysis in flight per client: a second request from the same client
  while its first runs is refused (``rate_limited``, HTTP 429);
* at most ``workers + queue`` analyses at once over all clients, past that
  every request is refused the same way;
* every analysis is kept (per table and deal, the ``cache`` newest), and a
  request for one being computed waits for that one instead of starting its own.

A played deal never changes, so a cached analysis never goes stale.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tarneeb.server.table import ErrorCode, ServerError

__all__ = ["AnalysisPool", "analyse_deal_text"]


def analyse_deal_text(text: str) -> dict[str, Any] | None:
    """The analysis of the deal ``text`` (as :func:`tarneeb.record.format_deal` writes it),
    as ``tarneeb analyze --json`` gives it; ``None`` without DDS (our own solver takes too
    long on whole deals for a page) or when it does not solve."""
    from tarneeb.errors import TarneebError
    from tarneeb.record import parse_deal
    from tarneeb.solver import dds
    from tarneeb.solver.analysis import analyze_deal

    if not dds.available():
        return None
    try:
        return {"backend": "dds", **analyze_deal(parse_deal(text), backend="dds").to_dict()}
    except TarneebError:
        return None


class AnalysisPool:
    """Worker threads for analyses, with a per-client limit, a bound and a cache."""

    def __init__(self, workers: int = 1, queue: int = 8, cache: int = 256) -> None:
        self.workers = max(1, workers)
        self.limit = self.workers + max(0, queue)
        self.cache_size = max(0, cache)
        self._executor: ThreadPoolExecutor | None = None
        self._cache: OrderedDict[Hashable, Any] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[Any]] = {}
        self._clients: set[str] = set()
        self._solver: asyncio.Future[bool] | None = None

    async def solver_available(self) -> bool:
        """Whether DDS loads here; loading it takes seconds, so it is done once, in a thread."""
        if self._solver is None:
            from tarneeb.solver import dds

            self._solver = asyncio.ensure_future(asyncio.to_thread(dds.available))
        return await asyncio.shield(self._solver)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    @property
    def in_flight(self) -> int:
        return len(self._running)

    async def run(
        self, key: Hashable, client: str | None, work: Callable[..., Any], *args: Any
    ) -> Any:
        """``work(*args)`` in a worker, or its kept answer for ``key``.

        :raises ServerError: ``rate_limited`` when ``client`` has an analysis in
            flight already, or the pool has all it takes.
        """
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if client is not None and client in self._clients:
            raise ServerError(
                ErrorCode.RATE_LIMITED,
                "one analysis at a time per client: wait for the one you asked for",
            )
        running = self._running.get(key)
        if running is None:
            if len(self._running) >= self.limit:
                raise ServerError(
                    ErrorCode.RATE_LIMITED, "the server is busy analysing deals: try again soon"
                )
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="analysis")
            future = asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
            running = self._running[key] = asyncio.ensure_future(future)
            running.add_done_callback(lambda done: self._done(key, done))
        if client is not None:
            self._clients.add(client)
        try:
            return await asyncio.shield(running)
        finally:
            if client is not None:
                self._clients.discard(client)

    def _done(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        self._running.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return
        if self.cache_size:
            self._cache[key] = done.result()
            self._cache.move_to_end(key)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
