"""What ``tarneeb serve`` shows from outside: Prometheus metrics and its readiness.

Each app has a :class:`Metrics` of its own, with its own registry (never the
library's global one), so that many apps can run in one process, as tests
make them. What can be read off the hub when ``/metrics`` is scraped (tables
by status, open connections) is read then, so the hub keeps no counters for
it; what happens (commits, actions, errors, analysis requests) is counted as
it happens:

>>> metrics = Metrics()
>>> metrics.observe_error("stale")
>>> metrics.observe_error("stale")
>>> metrics.sample("tarneeb_errors_total", code="stale", via="ws")
2.0
>>> b"tarneeb_commit_seconds_bucket" in metrics.exposition()
True

Error frames are built deep in the protocol code, far from any app: they count
through :func:`count_error`, which reaches the metrics of the app serving the
current request (a context variable that :class:`BindMetrics` sets), and does
nothing outside one.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = [
    "CONTENT_TYPE_LATEST",
    "BindMetrics",
    "Metrics",
    "count_error",
    "readiness",
]

log = logging.getLogger("tarneeb.server")

COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: a commit takes about a millisecond on SQLite; past 100 ms a table feels it."""
READY_TIMEOUT = 2.0
"""Seconds the database has to answer the readiness query."""

_current: contextvars.ContextVar[Metrics | None] = contextvars.ContextVar(
    "tarneeb_metrics", default=None
)


class _HubCollector(Collector):
    """Tables by status and open connections, read off the hub at each scrape."""

    def __init__(self, hub: Callable[[], Any]) -> None:
        self._hub = hub

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily(
            "tarneeb_tables", "Tables in the server's memory, by status", labels=["status"]
        )
        connections = GaugeMetricFamily(
            "tarneeb_connections", "Open WebSocket connections, by role", labels=["role"]
        )
        status: dict[str, int] = dict.fromkeys(("waiting", "playing", "finished"), 0)
        players = spectators = 0
        hub = self._hub()
        for live in [] if hub is None else list(hub.live.values()):
            status[live.table.status] = status.get(live.table.status, 0) + 1
            for conn in list(live.connections):
                if conn.seat is None:
                    spectators += 1
                else:
                    players += 1
        for name, count in status.items():
            tables.add_metric([name], count)
        connections.add_metric(["player"], players)
        connections.add_metric(["spectator"], spectators)
        yield tables
        yield connections

    def describe(self) -> Iterator[Metric]:
        return iter(())


class Metrics:
    """One app's metrics: a registry of their own, and the calls that count into it."""

    def __init__(self, hub: Callable[[], Any] | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        if hub is not None:
            registry.register(_HubCollector(hub))
        self.commit_seconds = Histogram(
            "tarneeb_commit_seconds",
            "Time to commit a change of a table to the database",
            buckets=COMMIT_BUCKETS,
            registry=registry,
        )
        self.commit_failures = Counter(
            "tarneeb_commit_failures",
            "Commits the database refused or failed",
            registry=registry,
        )
        self.actions = Counter(
            "tarneeb_actions",
            "Actions (bids, cards) applied and committed, by who took them",
            ["by"],
            registry=registry,
        )
        self.events = Counter(
            "tarneeb_events",
            "Events committed to tables' logs, by kind",
            ["kind"],
            registry=registry,
        )
        self._children: dict[tuple[Counter, str], Any] = {}
        self.errors = Counter(
            "tarneeb_errors",
            "Error frames and error responses sent, by code",
            ["code", "via"],
            registry=registry,
        )
        self.requests = Histogram(
            "tarneeb_http_request_seconds",
            "Time to answer an HTTP request, by route (its template) and status",
            ["route", "method", "status"],
            registry=registry,
        )
        self.analysis_requests = Counter(
            "tarneeb_analysis_requests",
            "Requests for the double-dummy analysis of a deal",
            registry=registry,
        )

    # -- counting -----------------------------------------------------------------------------

    def observe_commit(self, seconds: float, events: Sequence[Any] = (), ok: bool = True) -> None:
        """One commit took ``seconds``; on success, count the events it stored."""
        self.commit_seconds.observe(seconds)
        if not ok:
            self.commit_failures.inc()
            return
        for event in events:
            self._child(self.events, event.kind).inc()
            if event.kind == "action":
                self._child(self.actions, str(event.data.get("by", "player"))).inc()

    def _child(self, counter: Counter, label: str) -> Any:
        """``counter.labels(label)``, looked up once (``labels`` takes a lock each call)."""
        child = self._children.get((counter, label))
        if child is None:
            child = self._children[(counter, label)] = counter.labels(label)
        return child

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        method = method if method in _METHODS else "other"
        self.requests.labels(route, method, str(status)).observe(seconds)

    def observe_error(self, code: str, via: str = "ws") -> None:
        self.errors.labels(code, via).inc()

    def watch_store(self, store: Any) -> None:
        """Time every commit of ``store``: ``create``, and ``append_many`` (each transaction
        of changes, which ``append`` and the grouped commits of ``commit`` all go through),
        wherever the hub runs them.

        The store's own methods are looked up at each call, so that a test (or
        a fault injection) that replaces them on the class still takes effect.
        """

        def timed(name: str, events: Sequence[Any], *args: Any) -> None:
            commit = _class_method(store, name)
            start = time.perf_counter()
            try:
                commit(*args)
            except BaseException:
                self.observe_commit(time.perf_counter() - start, ok=False)
                raise
            self.observe_commit(time.perf_counter() - start, events)

        store.append_many = lambda changes: timed(
            "append_many", [e for change in changes for e in change[1]], changes
        )
        store.create = lambda table: timed("create", list(table.events), table)

    # -- reading ------------------------------------------------------------------------------

    def exposition(self) -> bytes:
        """Every metric in the Prometheus text format."""
        return generate_latest(self.registry)

    def sample(self, name: str, **labels: str) -> float | None:
        """The value of one sample (as ``/metrics`` would show it), or ``None``."""
        return self.registry.get_sample_value(name, labels)


def _class_method(obj: Any, name: str) -> Callable[..., Any]:
    """``obj.name`` as the class defines it now, past anything set on ``obj`` itself."""
    attr = getattr(type(obj), name)
    get = getattr(type(attr), "__get__", None)
    return attr if get is None else get(attr, obj, type(obj))  # type: ignore[no-any-return]


def count_error(code: str, via: str = "ws") -> None:
    """Count an error sent by the app serving the current request, if there is one."""
    metrics = _current.get()
    if metrics is not None:
        metrics.observe_error(code, via)


_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
"""HTTP methods named in the labels; any other is ``other`` (a label per junk method would not do)."""


class BindMetrics:
    """ASGI middleware: everything run for a request (and the tasks it starts) counts into ``metrics``.

    It also times each HTTP request, labelled with its route's template
    (``routes``: endpoint -> path, as ``/api/tables/{id}``; ``other`` for
    anything else), so that the labels stay few whatever paths clients ask for.
    """

    def __init__(self, app: Any, metrics: Metrics, routes: dict[Any, str] | None = None) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes or {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        token = _current.set(self.metrics)
        try:
            if scope["type"] != "http":
                await self.app(scope, receive, send)
                return
            status = 500

            async def sending(message: Any) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = int(message["status"])
                await send(message)

            start = time.perf_counter()
            try:
                await self.app(scope, receive, sending)
            finally:
                route = self.routes.get(scope.get("endpoint"), "other")
                seconds = time.perf_counter() - start
                self.metrics.observe_request(route, scope["method"], status, seconds)
        finally:
            _current.reset(token)


async def readiness(store: Any, hub: Any) -> tuple[bool, dict[str, str]]:
    """Whether the server can take players now, and its checks (``protocol.ready_body``
    writes them out, with no internals).

    Ready when the database takes a write that changes nothing (``Store.ping``,
    asked in the store's thread, off the event loop) within :data:`READY_TIMEOUT`
    seconds, and the hub does not call itself degraded (``Hub.health()``).
    """
    checks: dict[str, str] = {}
    try:
        # In the store's own thread: an in-memory SQLite database is one connection,
        # which only that thread may use while it commits.
        await asyncio.wait_for(store.run(store.ping), READY_TIMEOUT)
        checks["database"] = "ok"
    except Exception as exc:
        log.warning("readiness: the database does not answer: %s", exc, extra={"check": "database"})
        checks["database"] = "unavailable"
    health = getattr(hub, "health", None)
    status = "ok"
    if callable(health):
        try:
            report = health()
            if inspect.isawaitable(report):
                report = await report
            status = str(report.get("status", "ok"))
        except Exception as exc:
            log.warning("readiness: the hub's health failed: %s", exc, extra={"check": "hub"})
            status = "unknown"
    checks["tables"] = status
    ready = checks == {"database": "ok", "tables": "ok"}
    return ready, checks
