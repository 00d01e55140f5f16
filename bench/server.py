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
p99 <= 100 ms. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

try:
    from websockets.asyncio.client import ClientConnection, connect
    from websockets.exceptions import ConnectionClosed
except ImportError:  # pragma: no cover - the test extra and uvicorn[standard] install it
    print("bench/server.py needs the websockets library: pip install 'tarneeb[test]'")
    raise SystemExit(1) from None

NAMES = ("south", "east", "north", "west")
CONNECT_AT_ONCE = 50
"""WebSocket handshakes in flight at a time while the clients connect."""


class Stats:
    """What every client measured, and when the measured window is."""

    def __init__(self) -> None:
        self.window: tuple[float, float] = (float("inf"), float("inf"))
        self.latencies: list[float] = []
        self.timeline: list[tuple[float, float]] = []
        self.lags: list[tuple[float, float]] = []
        """(when, how late) of this process's event loop, checked every 10 ms."""
        self.actions = 0
        self.error_frames: dict[str, int] = {}
        self.failed_connections = 0
        self.closed_by_server = 0
        self.matches_over = 0
        self.stopping = False

    def measuring(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    @property
    def errors(self) -> int:
        return sum(self.error_frames.values()) + self.failed_connections + self.closed_by_server


def choose(match: dict[str, Any], rng: random.Random) -> str:
    """The scripted player: the first to speak bids the lowest bid, the others pass."""
    legal: list[str] = match["legal"]
    if match["phase"] == "auction":
        if "pass" in legal and any(action != "pass" for _seat, action in match["history"]):
            return "pass"
        bids = [a for a in legal if a not in ("pass", "double", "redeal")]
        if bids:
            return bids[0]
    return rng.choice(legal)


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
            await self.ws.send(json.dumps({"type": "hello", "protocol": 1, "token": self.token}))
        except (OSError, asyncio.TimeoutError, ConnectionClosed):
            self.stats.failed_connections += 1
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
                    if mine and self.stats.measuring(sent):
                        self.stats.latencies.append(now - sent)
                        self.stats.timeline.append((sent, now - sent))
                    self.on_state(frame["state"])
                elif kind == "ack":
                    if self.stats.measuring(now):
                        self.stats.actions += 1
                elif kind == "error":
                    code = frame["code"]
                    self.stats.error_frames[code] = self.stats.error_frames.get(code, 0) + 1
                if self.over.is_set():
                    return
        except ConnectionClosed:
            pass
        if not self.stats.stopping and not self.over.is_set():
            self.stats.closed_by_server += 1
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

    async def act(self, version: int, action: str) -> None:
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
    for name in NAMES[1:]:
        joined = _http(base, "POST", f"/api/tables/{table}/join", {"name": f"bench {name}"})
        tokens.append(joined["token"])
    return table, tokens


class Bench:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.base = base
        self.ws_base = "ws" + base[len("http") :]
        self.stats = Stats()
        self.rng = random.Random(args.seed)
        self.connected = 0
        self.all_connected = asyncio.Event()
        self.gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def table(self, index: int) -> None:
        """Play tables one after another at this place, until the bench stops."""
        first = True
        while not self.stats.stopping:
            try:
                table, tokens = await asyncio.to_thread(new_table, self.base, self.args.rules)
            except (OSError, urllib.error.URLError, ValueError):
                self.stats.failed_connections += 4
                return
            clients = [
                Client(
                    f"{self.ws_base}/ws/{table}",
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
            if self.stats.measuring(before):
                self.stats.lags.append((before, now - before - 0.01))

    async def run(self, server_pid: int | None) -> dict[str, Any]:
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
        )
        await asyncio.sleep(args.warmup)
        window_start = time.perf_counter()
        self.stats.window = (window_start, window_start + args.seconds)
        server_cpu = _process_cpu(server_pid)
        client_cpu = time.process_time()
        await asyncio.sleep(args.seconds)
        server_cpu = _process_cpu(server_pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        # Let the updates of the actions sent in the window arrive before stopping.
        await asyncio.sleep(min(2.0, max(0.5, args.think)))
        self.stats.stopping = True
        for task in [*tasks, watch]:
            task.cancel()
        await asyncio.gather(*tasks, watch, return_exceptions=True)
        return {"server_cpu": server_cpu, "client_cpu": client_cpu}


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


def start_server(db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
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
        # Every bench table comes from this one address: no per-client table limits.
        "--tables-per-minute",
        "0",
        "--open-tables-per-client",
        "0",
        "--connections-per-client",
        "0",
        "--log-level",
        "warning",
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
            if _http(base, "GET", "/api/info")["protocol"] == 1:
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


def _print_timeline(stats: Stats) -> None:
    """Each second of the window: actions sent, their worst latency, this loop's worst lag."""
    start = stats.window[0]
    print(f"    (the window starts at {start:.2f} s of the monotonic clock)")
    seconds: dict[int, list[float]] = {}
    for sent, latency in stats.timeline:
        seconds.setdefault(int(sent - start), []).append(latency)
    lags: dict[int, float] = {}
    for at, lag in stats.lags:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=250, help="tables (4 clients each)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0, help="warm-up before measuring")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean think time of a player, seconds"
    )
    parser.add_argument("--rules", default="classic", help="preset of the tables")
    parser.add_argument("--seed", type=int, default=0, help="seed of the players' choices")
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
    args = parser.parse_args()

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
            cpu = runner(bench.run(None if process is None else process.pid))
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
    lat = [x * 1000 for x in stats.latencies]
    p50, p90, p99 = (_percentile(lat, q) for q in (0.5, 0.9, 0.99))
    worst = max(lat) if lat else float("nan")
    rate = stats.actions / args.seconds
    print(f"  actions:            {stats.actions} in {args.seconds:.0f} s = {rate:.1f} actions/s")
    print(
        f"  action-to-update:   p50 {p50:.1f} ms, p90 {p90:.1f} ms, p99 {p99:.1f} ms, "
        f"max {worst:.1f} ms ({len(lat)} actions; target p99 <= 100 ms)"
    )
    print(
        f"  errors:             {stats.errors} (error frames {stats.error_frames or 0}, "
        f"failed connections {stats.failed_connections}, closed by the server "
        f"{stats.closed_by_server})"
    )
    lags = [1000 * lag for _at, lag in stats.lags]
    lag_p99 = _percentile(lags, 0.99)
    lag_max = max(lags) if lags else float("nan")
    print(f"  client loop lag:    p99 {lag_p99:.1f} ms, max {lag_max:.1f} ms (this process)")
    if args.timeline:
        _print_timeline(stats)
    if process is not None:
        print(
            f"  CPU over the window: server {100 * cpu['server_cpu'] / args.seconds:.0f}% "
            f"of a core, clients {100 * cpu['client_cpu'] / args.seconds:.0f}%"
        )
    figures: dict[str, Any] = {
        "bench": "server",
        "tables": args.tables,
        "clients": 4 * args.tables,
        "actions_per_s": round(rate, 1),
        "p50_ms": round(p50, 1),
        "p99_ms": round(p99, 1),
        "errors": stats.errors,
        "p90_ms": round(p90, 1),
        "max_ms": round(worst, 1),
        "think_s": args.think,
        "seconds": args.seconds,
        "matches_over": stats.matches_over,
        "server_cpu_pct": round(100 * cpu["server_cpu"] / args.seconds)
        if process is not None
        else None,
        "client_cpu_pct": round(100 * cpu["client_cpu"] / args.seconds),
        "client_lag_p99_ms": round(lag_p99, 1),
        "client_lag_max_ms": round(lag_max, 1),
        "cores": os.cpu_count(),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
