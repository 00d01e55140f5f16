"""Three ``tarneeb serve`` workers over one PostgreSQL, behind nginx with TLS, on loopback.

nginx runs with ``deploy/nginx/tarneeb.conf`` itself (only its addresses and
certificate changed). Each test starts the workers as the deployment does
(``tarneeb serve --worker-id wN``), in a schema of the test PostgreSQL of its
own; without nginx or PostgreSQL they skip, unless ``TARNEEB_REQUIRE_EXTRAS=1``
(CI), where they fail.

* a match is played through the proxy with its players' sockets on three
  workers (two of them forwarded to the owner), a spectator served from
  another worker's copy of the table, and every worker's lobby shows every
  worker's tables as they change;
* ``kill -9`` of a table's owner mid-deal: another worker takes it over once
  its lease lapses, the players reconnect through the proxy and finish the
  match; every event is heard once and in order, every acked action is in
  the log once, none is applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import ws_support  # noqa: F401 - skips without the server's dependencies
from support import free_port, listens, serve_command, start_listening
from test_server_persistence import postgres_schema

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tarneeb.server.store import Store  # noqa: E402
from tarneeb.server.wire import PROTOCOL_VERSION  # noqa: E402

REQUIRE = os.environ.get("TARNEEB_REQUIRE_EXTRAS") == "1"
CONFIG = Path(__file__).resolve().parent.parent / "deploy" / "nginx" / "tarneeb.conf"
NAMES = ("south", "east", "north", "west")
LEASE = 3.0
"""The workers' lease time in these tests, seconds (a dead worker's tables are free after it)."""
TIMEOUT = 30.0
"""Seconds a client waits for a frame before the test fails."""


# -- the cluster ------------------------------------------------------------------------------


def _need_nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found:
        return found
    reason = "nginx is not installed (Debian: apt-get install nginx)"
    if REQUIRE:
        pytest.fail(f"{reason}, and TARNEEB_REQUIRE_EXTRAS=1 insists on it")
    pytest.skip(reason)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema no other test sees."""
    with postgres_schema("tarneeb_cluster") as url:
        yield url


def _get(url: str, context: ssl.SSLContext | None = None) -> Any:
    with urllib.request.urlopen(url, timeout=30, context=context) as answer:
        return json.load(answer)


def _post(url: str, body: dict[str, Any], context: ssl.SSLContext | None = None) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30, context=context) as answer:
        return json.load(answer)


@dataclass
class Cluster:
    """Three workers and nginx in front of them (TLS on ``port``)."""

    url: str
    folder: Path
    ports: list[int]
    port: int = 0
    workers: list[subprocess.Popen[bytes] | None] = field(default_factory=list)
    nginx: subprocess.Popen[bytes] | None = None
    context: ssl.SSLContext = field(default_factory=ssl.create_default_context)

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def worker_base(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    def start_worker(self, index: int) -> None:
        """Start worker ``index`` on its port (a free one the first time, the same again after)."""

        def command(port: int) -> list[str]:
            return [
                *serve_command(self.url, port),
                *("--worker-id", f"w{index + 1}", "--lease-seconds", str(LEASE)),
                *("--tables-per-minute", "0", "--open-tables-per-client", "0"),
                *("--connections-per-client", "0"),
            ]

        log = (self.folder / f"w{index + 1}.log").open("ab")
        known = self.ports[index] if index < len(self.ports) else None
        process, port = start_listening(
            command, port=known, log=self.logs, stdout=log, stderr=subprocess.STDOUT
        )
        while len(self.workers) <= index:
            self.workers.append(None)
            self.ports.append(0)
        self.workers[index], self.ports[index] = process, port
        self._wait(lambda: _get(f"{self.worker_base(index)}/api/info"), process)

    def start_nginx(self, nginx: str) -> None:
        cert, key = self.folder / "cert.pem", self.folder / "key.pem"
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "ec"),
                *("-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"),
                *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
        )
        self.context = ssl.create_default_context(cafile=str(cert))
        self.context.check_hostname = False
        temp = self.folder / "nginx-temp"
        temp.mkdir()
        user = "user root;\n" if os.geteuid() == 0 else ""
        paths = "\n".join(
            f"    {kind}_temp_path {temp / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.folder / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'nginx-error.log'} warn;\n"
            "events { worker_connections 1024; }\n"
            f"http {{\n    access_log off;\n{paths}\n"
            f"    include {self.folder / 'tarneeb.conf'};\n}}\n"
        )

        def command(port: int) -> list[str]:
            text = CONFIG.read_text()
            changes = {
                "listen 80;": f"listen 127.0.0.1:{free_port()};",
                "listen 443 ssl;": f"listen 127.0.0.1:{port} ssl;",
                "/etc/letsencrypt/live/tarneeb.example.org/fullchain.pem": str(cert),
                "/etc/letsencrypt/live/tarneeb.example.org/privkey.pem": str(key),
                **{f"127.0.0.1:{8001 + i}": f"127.0.0.1:{p}" for i, p in enumerate(self.ports)},
            }
            for old, new in changes.items():
                assert old in text, f"deploy/nginx/tarneeb.conf has no {old!r} any more"
                text = text.replace(old, new)
            (self.folder / "tarneeb.conf").write_text(text)
            return [
                *(nginx, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")),
                *("-e", str(self.folder / "nginx-error.log")),  # not /var/log/nginx
            ]

        log = (self.folder / "nginx.log").open("ab")
        self.nginx, self.port = start_listening(
            command, log=self.logs, stdout=log, stderr=subprocess.STDOUT
        )
        self._wait(lambda: _get(f"{self.base}/api/info", self.context), self.nginx)

    def _wait(self, ask: Any, process: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, http.client.HTTPException, ValueError):
                ask()
                return
            if process.poll() is not None:
                raise AssertionError(f"exited ({process.returncode}): {self.logs()}")
            time.sleep(0.1)
        raise AssertionError(f"did not answer: {self.logs()}")

    def kill(self, index: int) -> None:
        process = self.workers[index]
        assert process is not None
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in [*self.workers, self.nginx]:
            if process is not None and process.poll() is None:
                process.terminate()
        for process in [*self.workers, self.nginx]:
            if process is not None:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def logs(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
            for log in sorted(self.folder.glob("*.log"))
        )


@pytest.fixture
def cluster(pg_url: str, tmp_path: Path) -> Iterator[Cluster]:
    nginx = _need_nginx()
    running = Cluster(pg_url, tmp_path, [])
    try:
        for index in range(3):
            running.start_worker(index)
        running.start_nginx(nginx)
        yield running
    finally:
        running.stop()


# -- the players ------------------------------------------------------------------------------


def choose(match: dict[str, Any], rng: random.Random) -> int:
    """The first to speak bids the lowest bid, the others pass; cards at random (an action id)."""
    legal: list[dict[str, Any]] = match["legal"]
    if match["phase"] == "auction":
        bids = [a["id"] for a in legal if a["kind"] == "bid"]
        calls = match["auction"]["calls"]
        can_pass = any(a["kind"] == "pass" for a in legal)
        if can_pass and (any(c["action"]["kind"] != "pass" for c in calls) or not bids):
            return next(a["id"] for a in legal if a["kind"] == "pass")
        if bids:
            return int(bids[0])
    return int(rng.choice(legal)["id"])


class Client:
    """A seat's player (or a spectator, without a token) on one socket at a time: it
    reconnects when the socket closes, with the last event it heard, and acts on its turn
    naming each action by the version it was made against (so one sent again is the same)."""

    def __init__(self, url: str, context: ssl.SSLContext | None, token: str | None) -> None:
        self.url = url
        self.context = context
        self.token = token
        self.rng = random.Random(token or "spectator")
        self.seen: list[int] = []
        """The seq of every event heard, in the order heard (across reconnects)."""
        self.acked: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self.reconnects = 0
        self.closes: list[str] = []
        """Why each socket ended, for a failure's message."""
        self.state: dict[str, Any] | None = None
        self.seat: str | None = None
        self.acted: set[int] = set()
        self.ws: ClientConnection | None = None
        self.welcomed = asyncio.Event()

    @property
    def over(self) -> bool:
        match = None if self.state is None else self.state["match"]
        return bool(match and match["over"])

    def _events(self, events: list[dict[str, Any]] | None) -> None:
        for event in events or []:
            self.seen.append(event["seq"])

    async def run(self, until: asyncio.Event) -> None:
        while not until.is_set():
            try:
                ssl_context = self.context if self.url.startswith("wss:") else None
                self.ws = await connect(self.url, ssl=ssl_context, open_timeout=TIMEOUT)
                hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
                if self.token is not None:
                    hello["token"] = self.token
                if self.seen:
                    hello["since"] = self.seen[-1]
                await self.ws.send(json.dumps(hello))
                while not until.is_set():
                    frame = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
                    await self._frame(frame)
            except (ConnectionClosed, OSError) as exc:
                if until.is_set():
                    return
                self.closes.append(repr(exc))
                self.reconnects += 1
                self.welcomed.clear()
                await asyncio.sleep(0.2)
            finally:
                if self.ws is not None:
                    await self.ws.close()

    async def _frame(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "welcome":
            assert frame["events"] is not None, "the replay since the last event heard"
            self.seat = frame["seat"]
            self._events(frame["events"])
            assert not self.seen or self.seen[-1] == frame["seq"], (self.seen[-3:], frame["seq"])
            self.state = frame["state"]
            self.acted.clear()  # an action sent and not heard of is sent again (same id)
            self.welcomed.set()
        elif kind == "update":
            self._events(frame["events"])
            self.state = frame["state"]
        elif kind == "ack":
            self.acked.append(frame["id"])
        elif kind == "error":
            self.errors.append(frame)
        await self._maybe_act()

    async def _maybe_act(self) -> None:
        state = self.state
        if state is None or self.seat is None or self.ws is None:
            return
        match = state["match"]
        if not match or match["over"] or match["to_act"] != self.seat or not match["legal"]:
            return
        version = state["version"]
        if version in self.acted:
            return
        frame = {
            "type": "act",
            "id": f"{self.seat}-{version}",
            "version": version,
            "action": choose(match, self.rng),
        }
        self.acted.add(version)
        await self.ws.send(json.dumps(frame))


def _all_human_table(base: str, context: ssl.SSLContext | None, public: bool = True) -> Any:
    body = {
        "name": "south",
        "seats": dict.fromkeys(NAMES, "human"),
        "takeover_seconds": 3600,
        "options": {"target": 11},
        "public": public,
    }
    return _post(f"{base}/api/tables", body, context)


def _seat_all(base: str, context: ssl.SSLContext | None, created: Any) -> list[str]:
    table = created["table"]
    tokens = [created["token"]]
    for name in NAMES[1:]:
        joined = _post(f"{base}/api/tables/{table}/join", {"name": name, "seat": name}, context)
        tokens.append(joined["token"])
    return tokens


def _log(url: str, table_id: str) -> list[Any]:
    store = Store(url)
    try:
        stored = store.load(table_id)
        assert stored is not None
        return list(stored.events)
    finally:
        store.close()


def _accounted(clients: list[Client], events: list[Any]) -> None:
    """Every client heard every event of the log once, in order; every action acked is in
    the log once, and no action twice."""
    seqs = [e.seq for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    for client in clients:
        assert client.seen == seqs, (client.seat, client.seen[-5:], seqs[-5:])
    refs = [e.secret["ref"] for e in events if e.kind == "action" and e.data["by"] == "player"]
    assert len(refs) == len(set(refs)), "an action applied twice"
    acked = [ref for client in clients for ref in client.acked]
    assert len(acked) == len(set(acked)), "an action acked twice"
    assert set(acked) <= set(refs), "an acked action is not in the log"


def _still_going(
    clients: list[Client], tasks: list[asyncio.Task[None]], deadline: float, what: str
) -> None:
    """Fail with what each client heard once ``deadline`` passes, and at once with the
    error of a client that stopped on one (an assertion of its own: else the match only
    "did not end", and a run under load said no more)."""
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise AssertionError(f"a client stopped: {task.exception()!r}") from task.exception()
    heard = "; ".join(
        f"{c.seat or 'spectator'}: over {c.over}, {len(c.seen)} events (last {c.seen[-1:]}),"
        f" {c.reconnects} reconnects {c.closes[-2:]}, errors {[e.get('code') for e in c.errors]}"
        for c in clients
    )
    assert time.monotonic() < deadline, f"{what}: {heard}"


async def _play(clients: list[Client], seconds: float = 240.0) -> None:
    done = asyncio.Event()
    tasks = [asyncio.create_task(c.run(done)) for c in clients]
    try:
        deadline = time.monotonic() + seconds
        while not all(c.over for c in clients[:4]):
            _still_going(clients, tasks, deadline, "the match did not end")
            await asyncio.sleep(0.05)
        # The spectator (if any) hears the last events too.
        while any(c.seen != clients[0].seen for c in clients):
            _still_going(clients, tasks, deadline, "not every client heard the end")
            await asyncio.sleep(0.05)
    finally:
        done.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _lobby_ids(base: str) -> dict[str, str]:
    return {t["id"]: t["status"] for t in _get(f"{base}/api/tables")["tables"]}


def _until(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "it never came"
        time.sleep(0.05)


# -- the tests --------------------------------------------------------------------------------


def test_a_match_through_nginx_on_three_workers_and_every_lobby_shows_every_table(
    cluster: Cluster,
) -> None:
    made = [_all_human_table(cluster.base, cluster.context) for _ in range(6)]
    homes = {m["table"].split("-", 1)[0] for m in made}
    assert homes == {"w1", "w2", "w3"}, homes  # new tables go to every worker in turn
    ids = {m["table"] for m in made}
    for index in range(3):  # each worker's own lobby, straight (not through nginx)
        base = cluster.worker_base(index)
        _until(lambda base=base: ids <= set(_lobby_ids(base)))
    first = made[0]
    home = int(first["table"][1]) - 1
    tokens = _seat_all(cluster.base, cluster.context, first)
    for index in range(3):  # the joins (on the table's owner) reach every lobby
        base = cluster.worker_base(index)
        _until(lambda base=base: _lobby_ids(base)[first["table"]] == "playing")
    # South and West through nginx (to the owner); East and North straight to the other
    # two workers, which forward their sockets to the owner; a spectator on another
    # worker, which serves it from its copy of the table, kept up by notices.
    others = [i for i in range(3) if i != home]
    path = f"/ws/{first['table']}"
    proxy = f"wss://127.0.0.1:{cluster.port}{path}"
    urls = [
        proxy,
        f"ws://127.0.0.1:{cluster.ports[others[0]]}{path}",
        f"ws://127.0.0.1:{cluster.ports[others[1]]}{path}",
        proxy,
    ]
    # The table's API from a worker that does not play it: forwarded to its owner.
    owner_answer = _get(f"{cluster.worker_base(home)}/api/tables/{first['table']}")
    for index in others:
        assert _get(f"{cluster.worker_base(index)}/api/tables/{first['table']}") == owner_answer
    refused = urllib.request.Request(
        f"{cluster.worker_base(others[0])}/api/tables/{first['table']}/start",
        b"{}",
        method="POST",
        headers={"Content-Type": "application/json", "X-Tarneeb-Forwarded": "w9"},
    )
    with pytest.raises(urllib.error.HTTPError) as forwarded_twice:
        urllib.request.urlopen(refused, timeout=30)
    assert forwarded_twice.value.code == 409  # a forwarded request is never forwarded again
    clients = [Client(u, cluster.context, t) for u, t in zip(urls, tokens, strict=True)]
    spectator = Client(f"ws://127.0.0.1:{cluster.ports[others[0]]}{path}", None, None)
    asyncio.run(_play([*clients, spectator]))
    events = _log(cluster.url, first["table"])
    _accounted([*clients, spectator], events)
    assert all(c.reconnects == 0 for c in [*clients, spectator]), (
        [(c.reconnects, c.errors[:3], c.closes[:3]) for c in [*clients, spectator]],
        cluster.logs(),
    )
    assert sum(len(c.acked) for c in clients) > 40
    for index in range(3):  # the finished table leaves every lobby
        base = cluster.worker_base(index)
        _until(lambda base=base: first["table"] not in _lobby_ids(base))
    # Its record is served by any worker (through nginx it goes to its owner).
    record = _get(f"{cluster.base}/api/tables/{first['table']}/record", cluster.context)
    assert record == _get(f"{cluster.worker_base(others[0])}/api/tables/{first['table']}/record")


def test_kill_9_of_the_owner_mid_deal_another_worker_finishes_the_match(cluster: Cluster) -> None:
    created = _post(
        f"{cluster.worker_base(1)}/api/tables",  # made by w2: its home is w2
        {
            "name": "south",
            "seats": dict.fromkeys(NAMES, "human"),
            "takeover_seconds": 3600,
            "options": {"target": 11},
        },
    )
    table = created["table"]
    assert table.startswith("w2-")
    tokens = _seat_all(cluster.base, cluster.context, created)
    url = f"wss://127.0.0.1:{cluster.port}/ws/{table}"
    clients = [Client(url, cluster.context, token) for token in tokens]
    spectator = Client(f"ws://127.0.0.1:{cluster.ports[0]}/ws/{table}", None, None)
    timing: dict[str, float] = {}

    async def scenario() -> None:
        done = asyncio.Event()
        players = [*clients, spectator]
        tasks = [asyncio.create_task(c.run(done)) for c in players]
        try:
            # Mid-deal: some cards of the first deal played.
            while len(clients[0].seen) < 20:
                await asyncio.sleep(0.01)
            await asyncio.to_thread(cluster.kill, 1)
            killed = time.monotonic()
            before = max(len(c.seen) for c in clients)
            while max(len(c.seen) for c in clients) <= before:
                _still_going(players, tasks, killed + 30, "no worker took the table over")
                await asyncio.sleep(0.01)
            timing["adopted"] = time.monotonic() - killed
            deadline = time.monotonic() + 240
            while not all(c.over for c in clients) or any(
                c.seen != clients[0].seen for c in players
            ):
                _still_going(players, tasks, deadline, "the match did not end")
                await asyncio.sleep(0.05)
        finally:
            done.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    events = _log(cluster.url, table)
    _accounted([*clients, spectator], events)
    assert all(c.reconnects >= 1 for c in clients)  # every player's socket went with w2
    assert timing["adopted"] < LEASE + 8, timing  # (the bench times it: target 5 s)
    store = Store(cluster.url)
    try:
        with store.engine.connect() as conn:
            owner = conn.execute(
                sa.text("SELECT owner FROM tarneeb_leases WHERE table_id = :id"), {"id": table}
            ).scalar_one()
    finally:
        store.close()
    assert not owner.startswith("w2:"), owner
    print(f"adopted {timing['adopted']:.2f} s after the kill", file=sys.stderr)
    # w2 comes back (a new run of it, holding nothing): its old table's requests, which
    # nginx sends it again, it forwards to the table's owner (or, once the finished
    # table's lease lapsed, answers itself from the log): the same answer either way.
    cluster.start_worker(1)
    adopter = 0 if owner.startswith("w1:") else 2
    record = _get(f"{cluster.worker_base(adopter)}/api/tables/{table}/record")
    assert _get(f"{cluster.worker_base(1)}/api/tables/{table}/record") == record


def test_a_spectator_on_another_worker_sees_a_seat_go_away_and_a_reaction(
    cluster: Cluster,
) -> None:
    """Presence through ``tarneeb_presence``: a spectator on a worker that does not play
    the table sees South connect, react and leave with the countdown before the bot
    takes over, as the owner's spectators do; that worker's lobby shows the dots."""
    created = _all_human_table(cluster.base, cluster.context)
    table = created["table"]
    tokens = _seat_all(cluster.base, cluster.context, created)
    home = int(table[1]) - 1
    other = (home + 1) % 3
    path = f"/ws/{table}"

    def south_dot(index: int) -> bool:
        found = [t for t in _get(f"{cluster.worker_base(index)}/api/tables")["tables"]]
        entry = next(t for t in found if t["id"] == table)
        return bool(entry["seats"][0]["connected"])

    async def hello(url: str, token: str | None) -> ClientConnection:
        ws = await connect(url, open_timeout=TIMEOUT)
        frame: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
        if token is not None:
            frame["token"] = token
        await ws.send(json.dumps(frame))
        return ws

    async def until(ws: ClientConnection, fits: Any) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the frame never came"
            frame = json.loads(await asyncio.wait_for(ws.recv(), left))
            if fits(frame):
                return frame

    def south(frame: dict[str, Any]) -> dict[str, Any]:
        return dict(frame["state"]["seats"][0])

    async def scenario() -> None:
        watcher = await hello(f"ws://127.0.0.1:{cluster.ports[other]}{path}", None)
        welcome = await until(watcher, lambda f: f["type"] == "welcome")
        assert welcome["seat"] is None and not welcome["table"]["seats"][0]["connected"]
        player = await hello(f"ws://127.0.0.1:{cluster.ports[home]}{path}", tokens[0])
        await until(player, lambda f: f["type"] == "welcome")
        shown = await until(watcher, lambda f: f["type"] == "update" and south(f)["connected"])
        assert shown["events"] == [] and south(shown)["away_deadline"] is None
        await asyncio.to_thread(_until, lambda: south_dot(other))
        await player.send(json.dumps({"type": "react", "reaction": "good-luck"}))
        said = await until(watcher, lambda f: f["type"] == "reaction")
        assert said == {"type": "reaction", "seat": "south", "reaction": "good-luck"}
        await asyncio.sleep(0.5)  # (a change after a quiet while is written at once)
        await player.close()
        left = time.monotonic()
        away = await until(watcher, lambda f: f["type"] == "update" and not south(f)["connected"])
        print(
            f"presence reached the other worker {time.monotonic() - left:.3f} s after",
            file=sys.stderr,
        )
        countdown = south(away)["away_deadline"]
        assert countdown is not None
        assert 3000 < countdown - away["state"]["server_time"] <= 3600  # takeover_seconds
        await asyncio.to_thread(_until, lambda: not south_dot(other))
        await watcher.close()

    asyncio.run(scenario())


def test_serve_workers_runs_n_workers_on_consecutive_ports(pg_url: str, tmp_path: Path) -> None:
    """``tarneeb serve --workers 2``: two workers (w1, w2) on the port given and the next,
    each making tables of its own id; stopped together by SIGTERM."""
    port = free_port()
    while True:  # two free ports in a row
        with contextlib.suppress(OSError), socket.socket() as probe:
            probe.bind(("127.0.0.1", port + 1))
            break
        port = free_port()
    command = [*serve_command(pg_url, port), "--workers", "2", "--tables-per-minute", "0"]
    log = (tmp_path / "serve.log").open("ab")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        homes = []
        for worker in (port, port + 1):
            deadline = time.monotonic() + 60
            while True:  # a worker of this process's listens there (not another program)
                with contextlib.suppress(OSError, http.client.HTTPException):
                    if listens(process, worker):
                        _get(f"http://127.0.0.1:{worker}/api/info")
                        break
                assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.1)
            made = _post(f"http://127.0.0.1:{worker}/api/tables", {"name": "south"})
            homes.append(made["table"].split("-", 1)[0])
        assert homes == ["w1", "w2"]
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0
    with pytest.raises((OSError, urllib.error.URLError)):
        _get(f"http://127.0.0.1:{port + 1}/api/info")


# -- the site's services: one for all workers -------------------------------------------------


class _Member:
    """A signed-in player on one worker (its own cookie jar; the proxy would send its
    requests to any worker in turn, as these are sent to the one named)."""

    def __init__(self, base: str, name: str) -> None:
        import http.cookiejar

        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.name = name
        self.call(
            base, "POST", "/api/players/signup", {"name": name, "password": "a long password"}
        )

    def call(self, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{base}{path}",
            data,
            method=method,
            headers={"Content-Type": "application/json", "Origin": base},
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as refused:
            raise AssertionError(
                f"{method} {base}{path}: {refused.code} {refused.read()!r}"
            ) from None


def _services_holder(cluster: Cluster) -> int:
    """The index of the worker that holds the site's services' lease now."""
    store = Store(cluster.url, threads=1)
    try:
        with store.engine.connect() as conn:
            address = conn.execute(
                sa.text(
                    "SELECT address FROM tarneeb_leases "
                    "WHERE table_id = '~services' AND expires > now()"
                )
            ).scalar()
    finally:
        store.close()
    assert address is not None, "no worker holds the services"
    return cluster.ports.index(int(str(address).rsplit(":", 1)[1]))


def test_the_ranked_queue_and_the_events_are_one_for_all_workers(cluster: Cluster) -> None:
    """The proxy sends the queue's and the events' requests to any worker in turn: each
    is answered as one site's (the queue seats four players who joined on three workers;
    an event made on one worker is the same event on every worker, and runs once)."""
    bases = [cluster.worker_base(i) for i in range(3)]
    members = [
        _Member(bases[i % 3], name) for i, name in enumerate(("Aya", "Bilal", "Dina", "Emad"))
    ]
    for i, member in enumerate(members):
        answer = member.call(bases[i % 3], "POST", "/api/players/queue/join", {"rules": "classic"})
        assert answer["state"] in ("waiting", "seated"), answer
    seated: list[Any] = []
    for i, member in enumerate(members):
        # asked of another worker than the one joined on: still waiting, or seated
        status = member.call(bases[(i + 1) % 3], "GET", "/api/players/queue")
        assert status["state"] == "seated", (member.name, status)
        seated.append(status)
    assert len({s["table"] for s in seated}) == 1 and all(s["rated"] for s in seated)
    assert {s["seat"] for s in seated} == set(NAMES)

    made = _post(
        f"{bases[2]}/api/events",
        {
            "kind": "king-of-the-table",
            "pairs": 3,
            "sets": 2,
            "target": 1,
            "bot": "random",
            "turn_seconds": None,
        },
    )
    event_id, host = made["event"]["id"], made["host_token"]
    for i in range(3):  # each pair added through another worker
        _post(f"{bases[i]}/api/events/{event_id}/pairs", {"bots": True, "token": host})
    _post(f"{bases[0]}/api/events/{event_id}/start", {"token": host})
    for base in bases:
        assert _get(f"{base}/api/events/{event_id}")["id"] == event_id
    _until(lambda: _get(f"{bases[1]}/api/events/{event_id}")["status"] == "finished", 120)
    final = _get(f"{bases[0]}/api/events/{event_id}")
    assert len(final["games"]) == 2, final["games"]

    # The worker that holds them dies: another takes them over within a lease or two,
    # and the event is still there (brought back from the store).
    holder = _services_holder(cluster)
    cluster.kill(holder)
    other = bases[(holder + 1) % 3]
    started = time.monotonic()
    again = _get(f"{other}/api/events/{event_id}")
    assert again["status"] == "finished" and len(again["games"]) == 2
    assert time.monotonic() - started < 4 * LEASE
    assert _services_holder(cluster) != holder


def test_nginx_stops_a_flood_from_one_address_before_the_workers(cluster: Cluster) -> None:
    """deploy/nginx/tarneeb.conf limits one address to 50 requests a second after a burst
    of 400 (a page's files), answered 429 by nginx itself: a loop from one address asking
    as fast as it can gets the burst and then a trickle, and no worker reads the rest."""
    statuses: dict[int, int] = {}
    conn = http.client.HTTPSConnection("127.0.0.1", cluster.port, context=cluster.context)
    started = time.monotonic()
    try:
        for _ in range(1000):
            conn.request("GET", "/")
            answer = conn.getresponse()
            answer.read()
            statuses[answer.status] = statuses.get(answer.status, 0) + 1
    finally:
        conn.close()
    took = time.monotonic() - started
    allowed = 400 + 50 * took + 5
    assert 400 <= statuses.get(200, 0) <= allowed, (statuses, took)
    assert statuses.get(429, 0) >= 1000 - allowed, (statuses, took)
    assert set(statuses) == {200, 429}, statuses
