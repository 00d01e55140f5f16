"""``tarneeb serve``: run the multiplayer server.

Starlette, uvicorn and SQLAlchemy are imported only when the server starts,
so the rest of ``tarneeb`` works without them; without them the command says
which extra to install, in one line.

``--workers N`` runs N worker processes over one PostgreSQL on the ports
from ``--port`` on (ids ``w1`` ... ``wN``), restarting one that dies; a
worker of many on another machine is ``--worker-id ID --advertise
HOST:PORT`` (docs/deploy.md, and :mod:`tarneeb.server.cluster`).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import signal
import subprocess
import sys
import time
from typing import Any

from tarneeb.errors import TarneebError
from tarneeb.server.logs import FORMATS, log_config

__all__ = ["ServeError", "add_serve_parser", "run_serve"]

NEEDS = ("starlette", "uvicorn", "sqlalchemy", "prometheus_client", "argon2", "openskill")
WS_MAX_SIZE = 1 << 20
"""Frames past this size close the connection in uvicorn itself (code 1009). It is far above
the protocol's own limit (4 KiB), so an oversized frame is answered with the protocol's
``too_large`` error frame, and only a huge one is cut off unread."""
WS_MAX_QUEUE = 4
"""Frames uvicorn holds for the app of one connection (it reads them one at a time)."""
MAX_HEADERS = 16384
"""The largest request head (request line and headers), in bytes: past it, 400 and close."""
UVICORN_LIMITS: dict[str, Any] = {
    "http": "h11",  # h11 bounds the request head (httptools, uvicorn's other choice, does not)
    "h11_max_incomplete_event_size": MAX_HEADERS,
    "ws_max_size": WS_MAX_SIZE,
    "ws_max_queue": WS_MAX_QUEUE,
    "timeout_keep_alive": 5,
}
"""How uvicorn runs ``tarneeb serve``: the limits of the transport, before the app."""


class ServeError(TarneebError):
    """``tarneeb serve`` cannot start as asked."""


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` command to ``subparsers``; return its parser."""
    serve: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the multiplayer server (tables in the browser)",
        description=(
            "Run the authoritative game server: the browser client at http://HOST:PORT/, "
            "the JSON API and the WebSocket protocol of docs/protocol.md. Tables are stored "
            "in SQLite (a file in your data directory) or the database of --db."
        ),
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy database URL, e.g. sqlite:///tarneeb.db or "
        "postgresql+psycopg://user:pass@host/db (default: SQLite in the user data directory)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a further browser origin allowed to open WebSockets and send requests (repeatable)",
    )
    serve.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="how long bots wait before they act (default 0.6)",
    )
    serve.add_argument(
        "--tables-per-minute",
        type=float,
        default=10.0,
        metavar="N",
        help="new tables one client address may create a minute (default 10; 0: no limit)",
    )
    serve.add_argument(
        "--open-tables-per-client",
        type=int,
        default=20,
        metavar="N",
        help="unfinished tables one client address may have created (default 20; 0: no limit)",
    )
    serve.add_argument(
        "--connections-per-client",
        type=int,
        default=100,
        metavar="N",
        help="WebSocket connections one client address may hold at once (default 100; 0: no limit)",
    )
    serve.add_argument(
        "--api-per-second",
        type=float,
        default=30.0,
        metavar="N",
        help="requests of the API (/api/...) one client address may make a second, after a "
        "burst of 120 (default 30; 0: no limit)",
    )
    serve.add_argument(
        "--connects-per-minute",
        type=float,
        default=300.0,
        metavar="N",
        help="new WebSocket connections one client address may open a minute, after a burst "
        "of 60 (default 300; 0: no limit)",
    )
    serve.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark the session cookie Secure (behind a TLS proxy; it is anyway for https requests)",
    )
    serve.add_argument(
        "--ranked-bot-wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="seconds in the ranked queue before bots are offered (default 60)",
    )
    serve.add_argument(
        "--log-level", default="info", help="the log level, uvicorn's too (default info)"
    )
    serve.add_argument(
        "--log-format",
        choices=FORMATS,
        default="text",
        help="text for people (the default), or json: one JSON object a line on stderr",
    )
    serve.add_argument(
        "--metrics",
        default="here",
        metavar="WHERE",
        help="where the Prometheus metrics are served: 'here' (/metrics on the server's own "
        "port, the default), 'off', or HOST:PORT, a listener of their own "
        "(e.g. 127.0.0.1:9100, to keep them off the public port)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N worker processes over one PostgreSQL database (--db), on the ports "
        "from --port on, with ids w1..wN; put a proxy in front (docs/deploy.md). Default 1",
    )
    serve.add_argument(
        "--worker-id",
        default=None,
        metavar="ID",
        help="run as one worker of many over one PostgreSQL database: its id (lowercase "
        "letters and digits), unique among the workers; the tables it makes carry it",
    )
    serve.add_argument(
        "--advertise",
        default=None,
        metavar="HOST:PORT",
        help="where the other workers reach this one (default: --host and --port)",
    )
    serve.add_argument(
        "--lease-seconds",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long a worker holds a table unless it renews the lease: a dead worker's "
        "tables are taken over this long after (default 3)",
    )
    serve.add_argument(
        "--trusted-proxies",
        default=None,
        metavar="IPS",
        help="comma-separated addresses whose X-Forwarded-For is believed: the proxy's "
        "and, on several machines, the other workers' (default: $FORWARDED_ALLOW_IPS, "
        "else 127.0.0.1)",
    )
    return serve


def run_serve(args: argparse.Namespace) -> int:
    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        raise ServeError(f"tarneeb serve needs {', '.join(missing)}: pip install 'tarneeb[server]'")
    if not 0 < args.port < 65536:
        raise ServeError(f"--port must be 1 to 65535, not {args.port}")
    if args.bot_delay < 0:
        raise ServeError("--bot-delay cannot be negative")
    if not 0 <= args.ranked_bot_wait < float("inf"):
        raise ServeError("--ranked-bot-wait is a number of seconds, 0 or more")
    metrics_at = _metrics_address(args.metrics)
    if args.log_level.lower() not in _LEVELS:
        raise ServeError(f"--log-level is one of {', '.join(_LEVELS)}, not {args.log_level!r}")
    import sqlalchemy
    import uvicorn

    from tarneeb.server.app import create_app
    from tarneeb.server.hub import Settings
    from tarneeb.server.store import Store, default_db_url

    url = args.db or default_db_url()
    many = args.workers != 1 or args.worker_id is not None
    if args.workers < 1:
        raise ServeError(f"--workers must be 1 or more, not {args.workers}")
    if many and sqlalchemy.engine.make_url(url).get_backend_name() != "postgresql":
        raise ServeError(
            "--workers and --worker-id need PostgreSQL (--db postgresql+psycopg://...): "
            "SQLite is one process"
        )
    if args.worker_id is not None:
        from tarneeb.server.cluster import check_worker_id

        try:
            check_worker_id(args.worker_id)
        except ValueError as exc:
            raise ServeError(f"--worker-id: {exc}") from None
    if not 0.5 <= args.lease_seconds <= 600:
        raise ServeError("--lease-seconds must be from 0.5 to 600")
    if args.workers > 1 and args.port + args.workers > 65536:
        raise ServeError(f"--port {args.port} leaves no room for {args.workers} workers")
    try:
        Store(url).close()  # fail here, in one line, on a bad URL or a database that is down
    except (sqlalchemy.exc.SQLAlchemyError, ImportError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServeError(f"cannot open the database {url!r}: {first}") from None
    if args.workers > 1:
        return _run_workers(args, url)
    limits = (
        args.tables_per_minute,
        args.open_tables_per_client,
        args.connections_per_client,
        args.connects_per_minute,
        args.api_per_second,
    )
    if min(limits) < 0:
        raise ServeError(
            "--tables-per-minute, --open-tables-per-client, --connections-per-client, "
            "--connects-per-minute and --api-per-second cannot be negative"
        )
    settings = Settings(
        db_url=url,
        bot_delay=args.bot_delay,
        allowed_origins=tuple(args.allow_origin),
        tables_per_minute=args.tables_per_minute,
        open_tables_per_client=args.open_tables_per_client,
        connections_per_client=args.connections_per_client,
        connects_per_minute=args.connects_per_minute,
        api_per_second=args.api_per_second,
        worker_id=args.worker_id,
        worker_address=args.advertise or f"{_reachable(args.host)}:{args.port}",
        lease_seconds=args.lease_seconds,
        cookie_secure=args.secure_cookies,
        ranked_bot_wait=args.ranked_bot_wait,
    )
    # A game server holds many long-lived small objects (every table's events): collect the
    # young generation less often, so full collections do not pause every table for long.
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    # Commits run in the store's thread: hand the interpreter over to it (and back) sooner
    # than every 5 ms, the default, or every action waits for that handover.
    sys.setswitchinterval(0.001)
    app = create_app(settings, metrics_route=args.metrics == "here")
    if metrics_at is not None:
        from prometheus_client import start_http_server

        try:
            start_http_server(metrics_at[1], metrics_at[0], registry=app.state.metrics.registry)
        except OSError as exc:
            raise ServeError(f"cannot serve the metrics on {args.metrics}: {exc}") from None
    shown = url.split("@")[-1] if "@" in url else url  # no password in the output
    worker = "" if args.worker_id is None else f"worker {args.worker_id}, "
    print(f"tarneeb: {worker}serving on http://{args.host}:{args.port}/ ({shown})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level.lower(),
        log_config=log_config(args.log_format, args.log_level),
        forwarded_allow_ips=args.trusted_proxies,
        **UVICORN_LIMITS,
    )
    return 0


def _reachable(host: str) -> str:
    """An address of this machine's for the other workers, when listening on ``host``."""
    return "127.0.0.1" if host in ("0.0.0.0", "", "::") else host


_PASSED = (
    "host",
    "db",
    "bot_delay",
    "tables_per_minute",
    "open_tables_per_client",
    "connections_per_client",
    "connects_per_minute",
    "api_per_second",
    "log_level",
    "log_format",
    "lease_seconds",
)
"""The options of ``serve`` each worker of ``--workers`` gets as they were given."""


def _run_workers(args: argparse.Namespace, url: str) -> int:
    """Run ``--workers`` worker processes, on consecutive ports, until interrupted;
    a worker that dies is started again (after a second, its tables taken over meanwhile)."""
    base = [sys.executable, "-m", "tarneeb", "serve"]
    for name in _PASSED:
        value = url if name == "db" else getattr(args, name)
        base += [f"--{name.replace('_', '-')}", str(value)]
    for origin in args.allow_origin:
        base += ["--allow-origin", origin]
    if args.trusted_proxies is not None:
        base += ["--trusted-proxies", args.trusted_proxies]
    base += ["--metrics", "off" if args.metrics == "off" else "here"]
    commands = [
        [*base, "--port", str(args.port + i), "--worker-id", f"w{i + 1}"]
        for i in range(args.workers)
    ]
    if args.advertise is not None:
        print("tarneeb: --advertise is per worker: each of --workers advertises its own port")
    ports = f"{args.port}..{args.port + args.workers - 1}"
    print(
        f"tarneeb: {args.workers} workers on {args.host} ports {ports}; put nginx in front "
        "(deploy/nginx/tarneeb.conf, docs/deploy.md)",
        flush=True,
    )
    stopping = False

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    running = [subprocess.Popen(command) for command in commands]
    try:
        while not stopping:
            time.sleep(0.2)
            for i, process in enumerate(running):
                if process.poll() is not None and not stopping:
                    print(f"tarneeb: worker w{i + 1} exited ({process.returncode}); again in 1 s")
                    time.sleep(1.0)
                    running[i] = subprocess.Popen(commands[i])
    finally:
        for process in running:
            if process.poll() is None:
                process.terminate()
        for process in running:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0


_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _metrics_address(where: str) -> tuple[str, int] | None:
    """``--metrics``: ``None`` for 'here' and 'off', else the (host, port) of their own listener."""
    if where in ("here", "off"):
        return None
    host, sep, port = where.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ServeError(f"--metrics is 'here', 'off' or HOST:PORT, not {where!r}")
    return host.strip("[]"), int(port)
