"""Server load: N tables of four scripted WebSocket players against ``tarneeb serve``.

Run as ``python bench/server.py [--tables N] [--seconds S] [--warmup W] [--think T]``.
It starts ``python -m tarneeb serve`` as a subprocess on a free loopback port
with a temporary SQLite file (or the database of ``--db URL``) and
``--bot-delay 0``, in a session of its own as a service runs (or it uses
``--url`` of a running server). It creates N tables of four human seats
(4 N clients) and runs every client in this process (asyncio and the
``websockets`` library, uvloop when it is installed):

* each client says ``hello`` with its seat token and keeps the last ``state``;
* on its turn it waits a think time, drawn uniformly from 0.5 T to 1.5 T
  (``--think``, default 1.0 s, so that the load is like real play: about one
  action a second per table; ``--think 0`` is a stress test instead), then
  sends an ``act`` against the version it saw: the first to speak bids the
  lowest bid and the others pass, then cards at random among the legal ones;
* a table whose match ends is replaced by a new one.

After the warm-up (``--warmup``, default 5 s, once every client is
connected) it measures for ``--seconds`` (default 30): actions per second (the
acked ``act`` frames of every client), the action-to-update latency (from
sending an ``act`` to receiving the ``update`` whose events hold that action,
at its sender) at p50, p99 and max, and errors (error frames, failed
connections, connections closed by the server). The CPU time of the server
process and of this client process over the window is shown too, and how late
this process's own event loop ran (``client loop lag``): when it is high the
clients, not the server, add to the latency (``--timeline`` shows it second by
second).
Target (docs: ../shared/DESIGN.md): 250 tables, 1,000 clients on 2 cores,
p99 <= 100 ms.

Then (``--mode``, default ``both``: ``normal`` is the above alone, ``hostile``
the below alone) the same tables go on under attack, and a second window of
the same length measures them again (target p99 <= 150 ms):

* ``--analysts`` clients (default 4) ask ``GET /api/tables/ID/deals/N?analysis=1``
  over and over, for the finished deals of a table that a scripted player and
  three bots play first (double-dummy analysis, the server's slowest answer);
* ``--spectators`` (default 200) watch the tables, one a table in turn;
* ``--flooders`` (default 20) extra connections, each with a seat's token of a
  table of its own, send chat lines as fast as ``--flood-rate`` (default 20 a
  second each) and reconnect when they are closed.

Refusals of the attackers (``rate_limited`` frames, 429 answers, closed
sockets) are counted apart from the honest clients' errors. All clients come
from one address, so the server runs with its limits per address on tables
and connections turned off; the attackers meet all its other limits. The last line is
one JSON object with the figures: ``p99_ms`` of the normal window,
``hostile_p99_ms`` of the hostile one.

``--workers 1,2`` measures many workers over PostgreSQL instead (``--db``, or
``$TARNEEB_TEST_POSTGRES_URL``; a schema of its own for each set of workers):
it starts one worker, and two (``tarneeb serve --worker-id``), and in rounds
of ``--start-tables`` tables, ``--step`` times more each round, runs the
normal window on each set in turn (each table made by the workers in turn and
its clients connected to the worker that made it, as the proxy routes them),
until a set no longer holds p99 <= 100 ms without an error. Then it makes
``--failover-tables`` tables on the first of two new workers, kills it with
SIGKILL mid-play, and times how long each table takes to be taken over by the
other (its clients reconnect there; it takes the table over once the lease,
``--lease-seconds``, lapsed, and replays its log: the time of the table's first
welcome there) and to play on (its first ack, a think time later). Its last
line has ``tables_1_worker``, ``tables_2_workers``, ``scale_ratio`` (target
1.4x), ``failover_s`` (the last table taken over, target 5 s) and
``failover_play_s``.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

try:
    from websockets.asyncio.client import ClientConnection, connect
    from websockets.exceptions import ConnectionClosed
except ImportError:  # pragma: no cover - the test extra and uvicorn[standard] install it
    print("bench/server.py needs the websockets library: pip install 'tarneeb[test]'")
    raise SystemExit(1) from None

from tarneeb.server.wire import PROTOCOL_VERSION as PROTOCOL

NAMES = ("south", "east", "north", "west")
CONNECT_AT_ONCE = 50
"""WebSocket handshakes in flight at a time while the clients connect."""


class Window:
    """What the honest clients measured over one window of time."""

    def __init__(self, name: str, start: float, seconds: float) -> None:
        self.name = name
        self.start = start
        self.end = start + seconds
        self.seconds = seconds
        self.latencies: list[float] = []
        self.timeline: list[tuple[float, float]] = []
        self.lags: list[tuple[float, float]] = []
        """(when, how late) of this process's event loop, checked every 10 ms."""
        self.actions = 0
        self.error_frames: dict[str, int] = {}
        self.failed_connections = 0
        self.closed_by_server = 0
        self.cpu: dict[str, float] = {"server_cpu": 0.0, "client_cpu": 0.0}

    @property
    def errors(self) -> int:
        return sum(self.error_frames.values()) + self.failed_connections + self.closed_by_server


class Stats:
    """What every client measured, window by window."""

    def __init__(self) -> None:
        self.windows: list[Window] = []
        self.matches_over = 0
        self.stopping = False
        self.outside = Window("outside", float("-inf"), float("inf"))
        """Errors that happen outside every window (while connecting, say)."""

    def window(self, at: float) -> Window | None:
        """The window ``at`` falls in, if any."""
        for window in self.windows:
            if window.start <= at < window.end:
                return window
        return None

    def now(self) -> Window:
        """The window of the present moment, or :attr:`outside`."""
        return self.window(time.perf_counter()) or self.outside


class Attack:
    """What the hostile clients did, and how the server answered them."""

    def __init__(self) -> None:
        self.analysis: dict[str, int] = {}
        """Answers to analysis requests, by HTTP status (or the failure)."""
        self.analysis_latencies: list[float] = []
        self.spectators = 0
        self.spectator_frames = 0
        self.spectators_refused = 0
        self.chat_sent = 0
        self.chat_refused: dict[str, int] = {}
        self.flooders_closed = 0


def choose(match: dict[str, Any], rng: random.Random) -> int:
    """The scripted player: the first to speak bids the lowest bid, the others pass (an action id)."""
    legal: list[dict[str, Any]] = match["legal"]
    if match["phase"] == "auction":
        calls = match["auction"]["calls"]
        can_pass = any(a["kind"] == "pass" for a in legal)
        if can_pass and any(c["action"]["kind"] != "pass" for c in calls):
            return next(a["id"] for a in legal if a["kind"] == "pass")
        bids = [a["id"] for a in legal if a["kind"] == "bid"]
        if bids:
            return bids[0]
    return int(rng.choice(legal)["id"])


class Client:
    """One seat's scripted player on its own WebSocket."""

    def __init__(
        self, ws_url: str, token: str, stats: Stats, think: float, rng: random.Random
    ) -> None:
        self.ws_url = ws_url
        self.token = token
        self.stats = stats
        self.think = think
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.seat: str | None = None
        self.acting_at = -1
        """The version this client acts (or acted) on; it acts once per version."""
        self.sent: dict[int, float] = {}
        """Version made by an action sent -> when it was sent."""
        self.over = asyncio.Event()

    async def connect(self) -> bool:
        try:
            self.ws = await connect(self.ws_url, open_timeout=60, max_size=2**20)
            await self.ws.send(
                json.dumps({"type": "hello", "protocol": PROTOCOL, "token": self.token})
            )
        except (OSError, asyncio.TimeoutError, ConnectionClosed):
            self.stats.now().failed_connections += 1
            return False
        return True

    async def run(self) -> None:
        """Read frames until the match is over or the bench stops."""
        assert self.ws is not None
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame["type"]
                if kind == "welcome":
                    self.seat = frame["seat"]
                    self.on_state(frame["state"])
                elif kind == "update":
                    sent = self.sent.pop(frame["version"], None)
                    mine = sent is not None and any(
                        e["kind"] == "action" and e["version"] == frame["version"]
                        for e in frame["events"]
                    )
                    window = None if sent is None or not mine else self.stats.window(sent)
                    if sent is not None and window is not None:
                        window.latencies.append(now - sent)
                        window.timeline.append((sent, now - sent))
                    self.on_state(frame["state"])
                elif kind == "ack":
                    window = self.stats.window(now)
                    if window is not None:
                        window.actions += 1
                elif kind == "error":
                    code = frame["code"]
                    errors = self.stats.now().error_frames
                    errors[code] = errors.get(code, 0) + 1
                if self.over.is_set():
                    return
        except ConnectionClosed:
            pass
        if not self.stats.stopping and not self.over.is_set():
            self.stats.now().closed_by_server += 1
        self.over.set()

    def on_state(self, state: dict[str, Any]) -> None:
        match = state["match"]
        if match is None:
            return
        if match["over"]:
            self.over.set()
            return
        version = state["version"]
        if match["to_act"] == self.seat and match["legal"] and version > self.acting_at:
            self.acting_at = version
            asyncio.get_running_loop().create_task(self.act(version, choose(match, self.rng)))

    async def act(self, version: int, action: int) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        if self.stats.stopping or self.ws is None:
            return
        frame = {
            "type": "act",
            "id": f"{self.seat}-{version}",
            "version": version,
            "action": action,
        }
        self.sent[version + 1] = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps(frame))

    async def close(self) -> None:
        self.over.set()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


def _http(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def new_table(base: str, rules: str) -> tuple[str, list[str]]:
    """A table of four human seats, every seat taken: its id and the four seat tokens."""
    body = {
        "rules": rules,
        "seats": dict.fromkeys(NAMES, "human"),
        "public": False,
        "takeover_seconds": 3600,
        "name": "bench south",
    }
    created = _http(base, "POST", "/api/tables", body)
    table = created["table"]
    tokens = [created["token"]]
    for name in NAMES[1:]:  # a private table: each seat by its invite's secret
        invite = parse_qs(urlsplit(created["invites"][name]).query)["invite"][0]
        body = {"name": f"bench {name}", "invite": invite}
        joined = _http(base, "POST", f"/api/tables/{table}/join", body)
        tokens.append(joined["token"])
    return table, tokens


class Bench:
    def __init__(self, args: argparse.Namespace, base: str, others: tuple[str, ...] = ()) -> None:
        self.args = args
        self.base = base
        self.ws_base = "ws" + base[len("http") :]
        self.bases = (base, *others)
        """Where the tables are made, in turn (the workers of ``--workers``): each table's
        players connect to the worker that made it, its home, as the proxy routes them."""
        self.stats = Stats()
        self.attack = Attack()
        self.rng = random.Random(args.seed)
        self.connected = 0
        self.all_connected = asyncio.Event()
        self.gate = asyncio.Semaphore(CONNECT_AT_ONCE)
        self.places: dict[int, tuple[str, list[str]]] = {}
        """Where each place plays now: its table and the four seat tokens."""
        self.http = concurrent.futures.ThreadPoolExecutor(max(1, args.analysts))
        """The analysts' threads (apart from the default pool, which creates the tables)."""
        self.analysts: list[asyncio.Task[None]] = []
        """The analysts' tasks (:meth:`start_attack`)."""

    async def table(self, index: int) -> None:
        """Play tables one after another at this place, until the bench stops."""
        first = True
        base = self.bases[index % len(self.bases)]
        ws_base = "ws" + base[len("http") :]
        while not self.stats.stopping:
            try:
                table, tokens = await asyncio.to_thread(new_table, base, self.args.rules)
            except (OSError, urllib.error.URLError, ValueError):
                self.stats.now().failed_connections += 4
                return
            self.places[index] = (table, tokens)
            clients = [
                Client(
                    f"{ws_base}/ws/{table}",
                    token,
                    self.stats,
                    self.args.think,
                    random.Random(self.rng.random()),
                )
                for token in tokens
            ]
            async with self.gate:
                ok = [await client.connect() for client in clients]
            if first:
                first = False
                self.connected += 1
                if self.connected == self.args.tables:
                    self.all_connected.set()
            if not all(ok):
                for client in clients:
                    await client.close()
                return
            runs = [asyncio.create_task(client.run()) for client in clients]
            await asyncio.wait(runs, return_when=asyncio.FIRST_COMPLETED)
            for client in clients:
                await client.close()
            await asyncio.gather(*runs, return_exceptions=True)
            if not self.stats.stopping:
                self.stats.matches_over += 1

    async def watch_loop(self) -> None:
        """How late this process's event loop wakes up: the clients' own delay."""
        while not self.stats.stopping:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            window = self.stats.window(before)
            if window is not None:
                window.lags.append((before, now - before - 0.01))

    # -- the attack -----------------------------------------------------------------------------

    async def played_deals(self, deals: int = 2) -> tuple[str, int]:
        """A table where a scripted South and three bots finished ``deals`` deals (or the match)."""
        body = {
            "rules": self.args.rules,
            "seats": {"east": "bot:random", "north": "bot:random", "west": "bot:random"},
            "public": False,
            "takeover_seconds": 3600,
            "name": "bench analyst",
        }
        created = await asyncio.to_thread(_http, self.base, "POST", "/api/tables", body)
        table = created["table"]
        rng = random.Random(self.args.seed + 1)
        acted = -1
        finished = 0
        async with connect(f"{self.ws_base}/ws/{table}", max_size=2**20) as ws:
            await ws.send(
                json.dumps({"type": "hello", "protocol": PROTOCOL, "token": created["token"]})
            )
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] not in ("welcome", "update"):
                    continue
                state = frame["state"]
                match = state["match"]
                finished = match["deal_number"] - 1 + (1 if match["over"] else 0)
                if finished >= deals or match["over"]:
                    break
                if match["to_act"] == "south" and match["legal"] and state["version"] > acted:
                    acted = state["version"]
                    act = {"type": "act", "id": f"a{acted}", "version": acted}
                    await ws.send(json.dumps({**act, "action": choose(match, rng)}))
        return table, max(1, finished)

    async def analyst(self, table: str, deals: int, index: int) -> None:
        """Ask for the analysis of the finished deals in turn, ``--analysis-rate`` a second."""
        loop = asyncio.get_running_loop()
        pause = 1 / self.args.analysis_rate
        number = index
        while not self.stats.stopping:
            number = number % deals + 1
            path = f"/api/tables/{table}/deals/{number}?analysis=1"
            start = time.perf_counter()
            answer = await loop.run_in_executor(self.http, _status, self.base, path)
            self.attack.analysis[answer] = self.attack.analysis.get(answer, 0) + 1
            if self.stats.window(start) is not None:
                self.attack.analysis_latencies.append(time.perf_counter() - start)
            await asyncio.sleep(pause)

    async def spectator(self, index: int) -> None:
        """Watch one table until the bench stops (or the server turns this spectator away)."""
        table, _tokens = self.places[index % len(self.places)]
        try:
            async with self.gate:
                ws = await connect(f"{self.ws_base}/ws/{table}", open_timeout=60, max_size=2**20)
            async with ws:
                await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))
                self.attack.spectators += 1
                async for _raw in ws:
                    self.attack.spectator_frames += 1
        except (OSError, asyncio.TimeoutError, ConnectionClosed):
            pass
        if not self.stats.stopping:
            self.attack.spectators_refused += 1

    async def flooder(self, index: int) -> None:
        """A seat's second connection that sends chat lines as fast as it may, reconnecting."""
        pause = 1 / self.args.flood_rate
        sent = 0
        while not self.stats.stopping:
            table, tokens = self.places[index % len(self.places)]
            hello = {"type": "hello", "protocol": PROTOCOL, "token": tokens[1]}
            try:
                async with connect(
                    f"{self.ws_base}/ws/{table}", open_timeout=60, max_size=2**20
                ) as ws:
                    await ws.send(json.dumps(hello))
                    reader = asyncio.create_task(self._count_refusals(ws))
                    try:
                        while not reader.done():
                            sent += 1
                            await ws.send(json.dumps({"type": "chat", "text": f"flood {sent}"}))
                            self.attack.chat_sent += 1
                            await asyncio.sleep(pause)
                    finally:
                        reader.cancel()
            except (OSError, asyncio.TimeoutError, ConnectionClosed):
                pass
            if not self.stats.stopping:
                self.attack.flooders_closed += 1
                await asyncio.sleep(0.5)

    async def _count_refusals(self, ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] == "error":
                    refused = self.attack.chat_refused
                    refused[frame["code"]] = refused.get(frame["code"], 0) + 1

    async def start_attack(self) -> list[asyncio.Task[None]]:
        args = self.args
        tasks: list[asyncio.Task[None]] = []
        if args.analysts > 0:
            table, deals = await self.played_deals()
            print(f"  attack: {args.analysts} analysts on {deals} finished deals of table {table}")
            self.analysts = [
                asyncio.create_task(self.analyst(table, deals, i)) for i in range(args.analysts)
            ]
            tasks += self.analysts
        tasks += [asyncio.create_task(self.spectator(i)) for i in range(args.spectators)]
        tasks += [asyncio.create_task(self.flooder(i)) for i in range(args.flooders)]
        print(
            f"  attack: {args.spectators} spectators, {args.flooders} chat flooders at "
            f"{args.flood_rate:g} lines/s each"
        )
        return tasks

    # -- the run --------------------------------------------------------------------------------

    async def measure(self, name: str, server_pid: int | None) -> None:
        """Warm up, then measure one window of ``--seconds``."""
        args = self.args
        await asyncio.sleep(args.warmup)
        window = Window(name, time.perf_counter(), args.seconds)
        self.stats.windows.append(window)
        server_cpu = _process_cpu(server_pid)
        client_cpu = time.process_time()
        await asyncio.sleep(args.seconds)
        window.cpu = {
            "server_cpu": _process_cpu(server_pid) - server_cpu,
            "client_cpu": time.process_time() - client_cpu,
        }

    async def run(self, server_pid: int | None) -> None:
        args = self.args
        start = time.perf_counter()
        watch = asyncio.create_task(self.watch_loop())
        tasks = [asyncio.create_task(self.table(i)) for i in range(args.tables)]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.all_connected.wait(), timeout=300)
        setup = time.perf_counter() - start
        print(
            f"  {self.connected} tables and {4 * self.connected} clients connected "
            f"in {setup:.1f} s; warm-up {args.warmup:.0f} s, then {args.seconds:.0f} s measured"
            + (", then the same under attack" if args.mode == "both" else "")
        )
        if args.mode in ("normal", "both"):
            await self.measure("normal", server_pid)
        if args.mode in ("hostile", "both") and self.places:
            tasks += await self.start_attack()
            await self.measure("hostile", server_pid)
        # Let the updates of the actions sent in the window arrive before stopping.
        await asyncio.sleep(min(2.0, max(0.5, args.think)))
        self.stats.stopping = True
        if self.analysts:
            # An analysis takes a while on a busy machine: let the ones asked be answered
            # (each analyst stops after its current request) rather than lose them all.
            await asyncio.wait(self.analysts, timeout=60)
        for task in [*tasks, watch]:
            task.cancel()
        await asyncio.gather(*tasks, watch, return_exceptions=True)
        self.http.shutdown(wait=False, cancel_futures=True)


def _status(base: str, path: str) -> str:
    """The HTTP status of ``GET path`` as text, or the name of the failure."""
    try:
        with urllib.request.urlopen(f"{base}{path}", timeout=60) as answer:
            answer.read()
            return str(answer.status)
    except urllib.error.HTTPError as exc:
        return str(exc.code)
    except (OSError, urllib.error.URLError) as exc:
        return type(exc).__name__


def _process_cpu(pid: int | None) -> float:
    """CPU seconds (user and system) used by process ``pid`` so far; 0 when unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db: str, port: int, log: Path, extra: tuple[str, ...] = ()
) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "tarneeb",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        "0",
        # Every client of the bench, honest or hostile, comes from 127.0.0.1: the limits
        # per client address on tables and connections are off. The attackers still meet
        # every other limit: chat per seat, spectators per table, and the analysis pool's
        # (one analysis at a time a client, a bounded queue: 429 past them).
        "--tables-per-minute",
        "0",
        "--open-tables-per-client",
        "0",
        "--connections-per-client",
        "0",
        "--log-level",
        "warning",
        *extra,
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    with log.open("ab") as out:
        # A session of its own, as a service runs (with Linux's autogroup scheduling,
        # its own share of the CPU rather than part of this process's).
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):  # poll the port; waiting on the process is the pause between tries
        try:
            if _http(base, "GET", "/api/info")["protocol"] == PROTOCOL:
                return process
        except (OSError, urllib.error.URLError, ValueError):
            pass
        try:
            code = process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            continue
        raise SystemExit(f"tarneeb serve exited ({code}): {log.read_text()[-2000:]}")
    process.kill()
    raise SystemExit(f"tarneeb serve did not answer: {log.read_text()[-2000:]}")


def _print_timeline(window: Window) -> None:
    """Each second of the window: actions sent, their worst latency, this loop's worst lag."""
    start = window.start
    print(f"    (the window starts at {start:.2f} s of the monotonic clock)")
    seconds: dict[int, list[float]] = {}
    for sent, latency in window.timeline:
        seconds.setdefault(int(sent - start), []).append(latency)
    lags: dict[int, float] = {}
    for at, lag in window.lags:
        second = int(at - start)
        lags[second] = max(lags.get(second, 0.0), lag)
    for second in sorted(seconds):
        values = seconds[second]
        print(
            f"    {second:4d} s: {len(values):4d} actions, worst {1000 * max(values):7.1f} ms, "
            f"client loop lag {1000 * lags.get(second, 0.0):6.1f} ms"
        )


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _round(value: float) -> float | None:
    return None if value != value else round(value, 1)  # NaN (nothing measured): null


TARGETS = {"normal": 100, "hostile": 150}
"""The p99 each window must hold, in milliseconds."""


def report(
    window: Window, extra: Window | None, args: argparse.Namespace, server: bool
) -> dict[str, Any]:
    """Print one window's figures; return them (``extra``: errors outside every window)."""
    lat = [x * 1000 for x in window.latencies]
    p50, p90, p99 = (_percentile(lat, q) for q in (0.5, 0.9, 0.99))
    worst = max(lat) if lat else float("nan")
    rate = window.actions / window.seconds
    frames = dict(window.error_frames)
    failed, closed = window.failed_connections, window.closed_by_server
    if extra is not None:
        for code, count in extra.error_frames.items():
            frames[code] = frames.get(code, 0) + count
        failed += extra.failed_connections
        closed += extra.closed_by_server
    errors = sum(frames.values()) + failed + closed
    print(f"  {window.name} window:")
    print(
        f"    actions:            {window.actions} in {window.seconds:.0f} s = {rate:.1f} actions/s"
    )
    print(
        f"    action-to-update:   p50 {p50:.1f} ms, p90 {p90:.1f} ms, p99 {p99:.1f} ms, "
        f"max {worst:.1f} ms ({len(lat)} actions; target p99 <= {TARGETS[window.name]} ms)"
    )
    print(
        f"    errors:             {errors} (error frames {frames or 0}, "
        f"failed connections {failed}, closed by the server {closed})"
    )
    lags = [1000 * lag for _at, lag in window.lags]
    lag_p99 = _percentile(lags, 0.99)
    lag_max = max(lags) if lags else float("nan")
    print(f"    client loop lag:    p99 {lag_p99:.1f} ms, max {lag_max:.1f} ms (this process)")
    if args.timeline:
        _print_timeline(window)
    cpu = window.cpu
    if server:
        print(
            f"    CPU over the window: server {100 * cpu['server_cpu'] / window.seconds:.0f}% "
            f"of a core, clients {100 * cpu['client_cpu'] / window.seconds:.0f}%"
        )
    return {
        "actions_per_s": round(rate, 1),
        "p50_ms": _round(p50),
        "p99_ms": _round(p99),
        "errors": errors,
        "p90_ms": _round(p90),
        "max_ms": _round(worst),
        "server_cpu_pct": round(100 * cpu["server_cpu"] / window.seconds) if server else None,
        "client_cpu_pct": round(100 * cpu["client_cpu"] / window.seconds),
        "client_lag_p99_ms": _round(lag_p99),
        "client_lag_max_ms": _round(lag_max),
    }


def report_attack(attack: Attack) -> dict[str, Any]:
    analysis_p99 = _percentile([1000 * x for x in attack.analysis_latencies], 0.99)
    print("  the attackers:")
    print(
        f"    analysis requests:  {sum(attack.analysis.values())} answered "
        f"{dict(sorted(attack.analysis.items()))}, p99 {analysis_p99:.0f} ms in the window"
    )
    print(
        f"    spectators:         {attack.spectators} connected, {attack.spectators_refused} "
        f"turned away or closed, {attack.spectator_frames} frames heard"
    )
    print(
        f"    chat flood:         {attack.chat_sent} lines sent, refused "
        f"{attack.chat_refused or 0}, flooders closed {attack.flooders_closed} times"
    )
    return {
        "analysis_requests": sum(attack.analysis.values()),
        "analysis_answers": dict(sorted(attack.analysis.items())),
        "analysis_p99_ms": _round(analysis_p99),
        "spectators": attack.spectators,
        "spectators_refused": attack.spectators_refused,
        "chat_sent": attack.chat_sent,
        "chat_refused": attack.chat_refused,
        "flooders_closed": attack.flooders_closed,
    }


# -- many workers: --workers 1,2 --------------------------------------------------------------


def _schema_url(db: str, schema: str) -> str:
    """``db`` with its tables in ``schema`` (made now), so each run starts empty."""
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    finally:
        engine.dispose()
    url = sa.engine.make_url(db).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def _drop_schema(db: str, schema: str) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        engine.dispose()


def start_workers(
    db: str, count: int, lease: float, log: Path
) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """``count`` workers of one database (``--worker-id w1``...), each in a session of its
    own; their processes and base URLs."""
    processes, bases = [], []
    for index in range(count):
        port = _free_port()
        extra = ("--worker-id", f"w{index + 1}", "--lease-seconds", str(lease))
        processes.append(start_server(db, port, log, extra))
        bases.append(f"http://127.0.0.1:{port}")
    return processes, bases


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def one_round(args: argparse.Namespace, tables: int, bases: list[str], pids: list[int]) -> bool:
    """One round of ``tables`` tables on the workers at ``bases``: whether they held
    (p99 <= 100 ms, no error); its line printed."""
    step = argparse.Namespace(**{**vars(args), "tables": tables, "mode": "normal"})
    bench = Bench(step, bases[0], tuple(bases[1:]))
    cpu = sum(_process_cpu(pid) for pid in pids)
    started = time.perf_counter()
    _runner()(bench.run(None))
    cpu = (sum(_process_cpu(pid) for pid in pids) - cpu) / (time.perf_counter() - started)
    window = bench.stats.windows[0] if bench.stats.windows else None
    lat = [] if window is None else [1000 * x for x in window.latencies]
    p50, p99 = _percentile(lat, 0.5), _percentile(lat, 0.99)
    errors = bench.stats.outside.errors + (0 if window is None else window.errors)
    ok = bool(lat) and p99 <= TARGETS["normal"] and errors == 0
    rate = 0.0 if window is None else window.actions / window.seconds
    print(
        f"    {len(bases)} worker{'s' * (len(bases) > 1)}, {tables:5d} tables: "
        f"{rate:7.1f} actions/s, p50 {p50:6.1f} ms, p99 {p99:7.1f} ms, errors {errors}, "
        f"workers' CPU {100 * cpu:.0f}% of a core -> " + ("held" if ok else "not held")
    )
    return ok


def held_tables(
    args: argparse.Namespace, clusters: dict[int, tuple[list[str], list[int]]]
) -> dict[int, int]:
    """The most tables each set of workers (by count: their bases and pids) holds at
    p99 <= 100 ms without an error: ``--start-tables``, then ``--step`` times as many
    each round, till a round fails. The sets take turns at each number of tables, so a
    machine shared with others loads them alike."""
    held = dict.fromkeys(clusters, 0)
    going = set(clusters)
    tables = args.start_tables
    while going and tables <= args.max_tables:
        print(f"  {tables} tables, {4 * tables} clients:")
        for count in sorted(going):
            bases, pids = clusters[count]
            if one_round(args, tables, bases, pids):
                held[count] = tables
            else:
                going.discard(count)
        tables = max(tables + 1, round(tables * args.step))
    return held


class Reconnecting:
    """A seat's scripted player that reconnects (to the next URL of its list) when its
    socket closes, with the last event it heard; for the failover."""

    def __init__(self, urls: list[str], token: str, think: float, rng: random.Random) -> None:
        self.urls = urls
        self.token = token
        self.think = think
        self.rng = rng
        self.seq = 0
        self.acks: list[float] = []
        self.welcomes: list[float] = []
        self.turn = -1
        self.seat: str | None = None

    async def run(self, stopping: asyncio.Event) -> None:
        attempt = 0
        while not stopping.is_set():
            url = self.urls[min(attempt, len(self.urls) - 1)]
            attempt += 1
            try:
                async with connect(url, open_timeout=30, max_size=2**20) as ws:
                    hello = {"type": "hello", "protocol": PROTOCOL, "token": self.token}
                    await ws.send(json.dumps({**hello, "since": self.seq}))
                    async for raw in ws:
                        frame = json.loads(raw)
                        if frame["type"] == "welcome":
                            self.seat = frame["seat"]
                            self.welcomes.append(time.perf_counter())
                            self.turn = -1  # an action not heard of is sent again
                        if frame["type"] == "ack":
                            self.acks.append(time.perf_counter())
                        if frame["type"] in ("welcome", "update"):
                            self.seq = frame["seq"]
                            await self._act(ws, frame["state"])
            except (OSError, asyncio.TimeoutError, ConnectionClosed):
                pass
            await asyncio.sleep(0.1)

    async def _act(self, ws: ClientConnection, state: dict[str, Any]) -> None:
        match = state["match"]
        version = state["version"]
        if not match or match["over"] or not match["legal"] or self.turn == version:
            return
        if match["to_act"] != self.seat:
            return
        self.turn = version
        action = choose(match, self.rng)

        async def later() -> None:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            frame = {"type": "act", "id": f"p-{version}", "version": version, "action": action}
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps(frame))

        asyncio.get_running_loop().create_task(later())


async def failover(
    args: argparse.Namespace, victim: subprocess.Popen[bytes], bases: list[str]
) -> tuple[list[float], list[float]]:
    """``--failover-tables`` tables made by the first worker of ``bases``, played; that
    worker killed (SIGKILL): the seconds until each table is taken over by the other
    worker (its first welcome there: the log replayed), and until it plays on (its first
    ack after the kill: a player's think time later)."""
    home, survivor = bases
    players: list[list[Reconnecting]] = []
    for index in range(args.failover_tables):
        table, tokens = await asyncio.to_thread(new_table, home, args.rules)
        urls = [f"ws{base[len('http') :]}/ws/{table}" for base in (home, survivor)]
        rng = random.Random(args.seed + index)
        players.append([Reconnecting(urls, token, args.think, rng) for token in tokens])
    stopping = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stopping)) for table in players for p in table]
    try:
        deadline = time.perf_counter() + 60
        while not all(any(p.acks for p in table) for table in players):
            if time.perf_counter() > deadline:
                raise SystemExit("failover: the tables did not start playing")
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        killed = time.perf_counter()
        victim.send_signal(signal.SIGKILL)
        adopted: list[float] = []
        playing: list[float] = []
        for table in players:
            while True:
                later = [t for p in table for t in p.acks if t > killed]
                if later:
                    welcomes = [t for p in table for t in p.welcomes if t > killed]
                    adopted.append(min(welcomes) - killed)
                    playing.append(min(later) - killed)
                    break
                if time.perf_counter() - killed > 60:
                    raise SystemExit("failover: a table was not taken over in 60 s")
                await asyncio.sleep(0.02)
        return adopted, playing
    finally:
        stopping.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _runner() -> Any:
    try:
        import uvloop  # type: ignore[import-not-found]
    except ImportError:
        return asyncio.run
    return uvloop.run


def run_workers(args: argparse.Namespace) -> None:
    """``--workers 1,2``: the tables each number of workers holds, their ratio, and the
    time a dead worker's tables take to play on at another."""
    db = args.db or os.environ.get("TARNEEB_TEST_POSTGRES_URL")
    if not db or not db.startswith("postgresql"):
        raise SystemExit("--workers needs PostgreSQL: --db postgresql+psycopg://...")
    counts = [int(n) for n in args.workers.split(",")]
    print(
        f"server bench, many workers: {counts} workers over PostgreSQL, think {args.think:.2f} s, "
        f"windows of {args.seconds:g} s after {args.warmup:g} s, tables from "
        f"{args.start_tables} times {args.step:g} per round, lease {args.lease_seconds:g} s, "
        f"{os.cpu_count()} cores (the clients share them)"
    )
    figures: dict[str, Any] = {"bench": "server-workers", "think_s": args.think}
    with tempfile.TemporaryDirectory(prefix="tarneeb-bench-") as folder:
        log = Path(folder) / "workers.log"
        schemas = {count: f"tarneeb_bench_{os.getpid()}_{count}" for count in counts}
        processes: list[subprocess.Popen[bytes]] = []
        try:
            clusters = {}
            for count, schema in schemas.items():
                started, bases = start_workers(
                    _schema_url(db, schema), count, args.lease_seconds, log
                )
                processes += started
                clusters[count] = (bases, [p.pid for p in started])
                print(f"  {count} worker{'s' * (count > 1)}: {', '.join(bases)}")
            for count, held in held_tables(args, clusters).items():
                figures[f"tables_{count}_worker{'s' * (count > 1)}"] = held
        finally:
            stop(processes)
            for schema in schemas.values():
                _drop_schema(db, schema)
        schema = f"tarneeb_bench_{os.getpid()}_failover"
        url = _schema_url(db, schema)
        processes = []
        try:
            processes, bases = start_workers(url, 2, args.lease_seconds, log)
            times, playing = _runner()(failover(args, processes[0], bases))
        finally:
            stop(processes)
            _drop_schema(db, schema)
            if args.keep_log and log.exists():
                print(log.read_text())
    print(
        f"  failover: {len(times)} tables of a worker killed with SIGKILL taken over by the "
        f"other after {_percentile(times, 0.5):.2f} s (median), {max(times):.2f} s (last; "
        f"target <= 5 s); playing on after {_percentile(playing, 0.5):.2f} s, "
        f"{max(playing):.2f} s (a think time later)"
    )
    one, two = figures.get("tables_1_worker"), figures.get("tables_2_workers")
    ratio = round(two / one, 2) if one and two is not None else None
    if ratio is not None:
        print(f"  tables held: {one} with 1 worker, {two} with 2: {ratio}x (target >= 1.4x)")
    figures.update(
        failover_play_s=round(max(playing), 2), scale_ratio=ratio, failover_s=round(max(times), 2)
    )
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=250, help="tables (4 clients each)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time of a window")
    parser.add_argument("--warmup", type=float, default=5.0, help="warm-up before each window")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean think time of a player, seconds"
    )
    parser.add_argument("--rules", default="classic", help="preset of the tables")
    parser.add_argument("--seed", type=int, default=0, help="seed of the players' choices")
    parser.add_argument(
        "--mode",
        choices=("normal", "hostile", "both"),
        default="both",
        help="the plain load, the load under attack, or one window of each (the default)",
    )
    parser.add_argument("--analysts", type=int, default=4, help="clients asking for analyses")
    parser.add_argument(
        "--analysis-rate", type=float, default=2.0, help="analysis requests a second, each"
    )
    parser.add_argument("--spectators", type=int, default=200, help="spectators under attack")
    parser.add_argument("--flooders", type=int, default=20, help="chat-flooding connections")
    parser.add_argument(
        "--flood-rate", type=float, default=20.0, help="chat lines a second of each flooder"
    )
    parser.add_argument("--url", default=None, help="a running server (default: start one)")
    parser.add_argument(
        "--db",
        default=None,
        help="database URL of the server started (default: a temporary SQLite file)",
    )
    parser.add_argument(
        "--timeline", action="store_true", help="print the worst latency of each second"
    )
    parser.add_argument("--keep-log", action="store_true", help="print the server's log")
    parser.add_argument(
        "--workers",
        default=None,
        metavar="N,M",
        help="many workers over PostgreSQL (--db or $TARNEEB_TEST_POSTGRES_URL): the tables "
        "each number of workers holds at p99 <= 100 ms, their ratio, and the failover time",
    )
    parser.add_argument(
        "--start-tables", type=int, default=50, help="--workers: tables of the first round"
    )
    parser.add_argument(
        "--step", type=float, default=1.5, help="--workers: tables of a round over the last's"
    )
    parser.add_argument(
        "--max-tables", type=int, default=2000, help="--workers: tables of a round at most"
    )
    parser.add_argument(
        "--lease-seconds", type=float, default=3.0, help="--workers: the workers' lease time"
    )
    parser.add_argument(
        "--failover-tables", type=int, default=20, help="--workers: tables of the killed worker"
    )
    args = parser.parse_args()
    if args.workers is not None:
        run_workers(args)
        return
    if args.analysis_rate <= 0 or args.flood_rate <= 0:
        parser.error("--analysis-rate and --flood-rate must be positive")

    try:
        import uvloop  # type: ignore[import-not-found]

        loop_name = "uvloop"
    except ImportError:
        uvloop = None
        loop_name = "asyncio"
    print(
        f"server bench: {args.tables} tables, {4 * args.tables} clients, think "
        f"{args.think:.2f} s (0.5x-1.5x), preset {args.rules}, clients on {loop_name}, "
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory(prefix="tarneeb-bench-") as folder:
        log = Path(folder) / "server.log"
        process: subprocess.Popen[bytes] | None = None
        if args.url is None:
            db = args.db or f"sqlite:///{Path(folder) / 'bench.db'}"
            port = _free_port()
            process = start_server(db, port, log)
            base = f"http://127.0.0.1:{port}"
            shown = db.split("@")[-1] if "@" in db else db  # no password in the output
            print(f"  tarneeb serve (pid {process.pid}) on {base}, {shown}, --bot-delay 0")
        else:
            base = args.url.rstrip("/")
        try:
            bench = Bench(args, base)
            runner = asyncio.run if uvloop is None else uvloop.run
            runner(bench.run(None if process is None else process.pid))
        finally:
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            if args.keep_log and log.exists():
                print(log.read_text())
    stats = bench.stats
    windows = {window.name: window for window in stats.windows}
    figures: dict[str, Any] = {
        "bench": "server",
        "mode": args.mode,
        "tables": args.tables,
        "clients": 4 * args.tables,
    }
    normal = windows.get("normal")
    if normal is not None:
        figures.update(report(normal, stats.outside, args, process is not None))
    else:
        figures.update(p99_ms=None, errors=None)
    hostile = windows.get("hostile")
    if hostile is not None:
        shown = report(hostile, None if normal else stats.outside, args, process is not None)
        figures.update({f"hostile_{key}": figure for key, figure in shown.items()})
        figures.update(report_attack(bench.attack))
    else:
        figures["hostile_p99_ms"] = None
    figures.update(
        think_s=args.think,
        seconds=args.seconds,
        matches_over=stats.matches_over,
        cores=os.cpu_count(),
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
