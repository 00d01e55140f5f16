"""``tarneeb serve`` seen from outside: /healthz, /readyz, /metrics and the JSON logs."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from support import ROOT, free_port, serve_command, start_listening
from tarneeb.server.logs import JsonFormatter, TextFormatter
from tarneeb.server.metrics import Metrics, count_error
from ws_support import Peer, TestClient, choose, connect, create_app, server

BOTS = {"east": "bot:random", "north": "bot:random", "west": "bot:random"}


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``/metrics`` parsed as Prometheus parses it: (sample name, labels) -> value."""
    page = client.get("/metrics")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(page.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def play_deal(client: TestClient, table: str, token: str, rng: random.Random) -> Peer:
    """South plays with three bots until the first deal is over; south's peer, still open."""
    peer = Peer(client.websocket_connect(f"/ws/{table}").__enter__(), "south")
    peer.hello(token)
    acted = -1
    while not peer.match["deal_number"] > 1 and not peer.over():
        if peer.my_turn() and peer.version > acted:
            acted = peer.version
            peer.act(choose(peer.match, rng))
        frame = peer.next()
        assert frame["type"] != "error", frame
    return peer


# -- health ---------------------------------------------------------------------------------------


def test_healthz_and_readyz_answer_when_all_is_well(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        live = client.get("/healthz")
        assert (live.status_code, live.json()) == (200, {"status": "ok"})
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ready", "checks": {"database": "ok", "tables": "ok"}}
        assert ready.headers["cache-control"] == "no-store"


def test_readyz_is_503_when_the_database_does_not_answer(tmp_path: Path) -> None:
    import sqlalchemy as sa

    with server(tmp_path) as client:
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        good = store.engine
        store.engine = sa.create_engine(f"sqlite:///{tmp_path}/no/such/folder/x.db")
        try:
            answer = client.get("/readyz")
            assert client.get("/healthz").status_code == 200  # alive all the same
        finally:
            store.engine = good
        assert answer.status_code == 503
        assert answer.json() == {
            "status": "not ready",
            "checks": {"database": "unavailable", "tables": "ok"},
        }
        assert "sqlite" not in answer.text and "folder" not in answer.text  # no internals
        assert client.get("/readyz").status_code == 200  # and back once it answers


def test_readyz_asks_the_database_in_the_stores_own_thread() -> None:
    """An in-memory SQLite database is one connection (a ``StaticPool``), which the
    store's thread uses for its commits: readiness asks there, never beside it."""
    import threading

    from tarneeb.server.hub import Settings
    from tarneeb.server.store import Store

    threads: list[str] = []
    ping = Store.ping

    def recorded(store: Store) -> None:
        threads.append(threading.current_thread().name)
        ping(store)

    app = create_app(Settings(db_url="sqlite://", bot_delay=0))
    with pytest.MonkeyPatch.context() as patch, TestClient(app) as client:
        patch.setattr(Store, "ping", recorded)
        made = client.post("/api/tables", json={"rules": "classic", "seats": BOTS}).json()
        assert made["table"]
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.json()
    assert threads and all(name.startswith("tarneeb-store") for name in threads), threads


def test_readyz_is_503_while_the_hub_is_degraded(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.health = lambda: {"status": "degraded", "failing_tables": ["abc"]}
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {
            "status": "not ready",
            "checks": {"database": "ok", "tables": "degraded"},
        }
        hub.health = lambda: {"status": "ok"}
        assert client.get("/readyz").status_code == 200

        async def degraded() -> dict[str, str]:
            return {"status": "degraded"}

        hub.health = degraded  # a coroutine does as well
        assert client.get("/readyz").json()["checks"]["tables"] == "degraded"


# -- metrics --------------------------------------------------------------------------------------


def test_metrics_count_tables_connections_actions_commits_and_errors(tmp_path: Path) -> None:
    rng = random.Random(19)
    with server(tmp_path) as client:
        made = client.post("/api/tables", json={"rules": "classic", "seats": BOTS}).json()
        waiting = client.post("/api/tables", json={"rules": "classic"}).json()["table"]
        table = made["table"]
        peer = play_deal(client, table, made["token"], rng)
        try:
            with connect(client, table, "watcher") as watcher:
                watcher.hello()
                peer.sync()
                before = list(peer.events)
                samples = scrape(client)
                assert value(samples, "tarneeb_tables", status="playing") == 1
                assert value(samples, "tarneeb_tables", status="waiting") == 1
                assert value(samples, "tarneeb_connections", role="player") == 1
                assert value(samples, "tarneeb_connections", role="spectator") == 1
                peer.sync()  # the bots play on into the next deal while the page is read
                after = list(peer.events)

            def count(events: list[dict[str, Any]], kind: str, by: str | None = None) -> int:
                return sum(e["kind"] == kind and (by is None or e["by"] == by) for e in events)

            acted = [e for e in before if e["kind"] == "action"]
            by_player = count(before, "action", "player")
            assert by_player >= 1 and count(before, "action", "bot") >= 3
            assert value(samples, "tarneeb_actions_total", by="player") == by_player
            for by in ("player", "bot"):
                seen = value(samples, "tarneeb_actions_total", by=by)
                assert count(before, "action", by) <= seen <= count(after, "action", by)
            for kind in ("action", "deal", "deal_end"):
                seen = value(samples, "tarneeb_events_total", kind=kind)
                assert count(before, kind) <= seen <= count(after, kind)
            # every action is one commit at least, and each took some time
            commits = value(samples, "tarneeb_commit_seconds_count")
            assert commits >= len(acted)
            assert value(samples, "tarneeb_commit_seconds_sum") > 0
            assert value(samples, "tarneeb_commit_seconds_bucket", le="+Inf") == commits
            assert value(samples, "tarneeb_commit_failures_total") == 0
            # refusals, by code: a stale act on the socket, a missing table over HTTP
            peer.act(peer.match["legal"][0] if peer.my_turn() else "pass", version=0, ref="old")
            frame = peer.until(lambda f: f["type"] == "error")
            assert frame["code"] == "stale"
            assert client.get(f"/api/tables/{waiting}x").status_code == 404
            client.get(f"/api/tables/{table}/deals/1?analysis=1")
            samples = scrape(client)
            assert value(samples, "tarneeb_errors_total", code="stale", via="ws") == 1
            assert value(samples, "tarneeb_errors_total", code="not_found", via="http") == 1
            assert value(samples, "tarneeb_analysis_requests_total") == 1
            assert value(samples, "process_cpu_seconds_total") > 0
        finally:
            peer.close()
        samples = scrape(client)
        assert value(samples, "tarneeb_connections", role="player") == 0


def test_every_app_has_its_own_registry(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with server(tmp_path / "a") as one, server(tmp_path / "b") as two:
        assert one.get("/api/tables/nothing").status_code == 404
        assert value(scrape(one), "tarneeb_errors_total", code="not_found", via="http") == 1
        assert value(scrape(two), "tarneeb_errors_total", code="not_found", via="http") == 0


def test_http_requests_are_timed_by_route_template(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        for table in ("one", "two", "x" * 40):  # many paths, one label
            assert client.get(f"/api/tables/{table}").status_code == 404
        assert client.get("/no/such/page").status_code == 404
        assert client.request("BREW", "/api/info").status_code in (400, 405)
        samples = scrape(client)
        count = "tarneeb_http_request_seconds_count"
        assert value(samples, count, route="/api/tables/{id}", method="GET", status="404") == 3
        assert value(samples, count, route="other", method="GET", status="404") == 1
        assert value(samples, count, route="/api/info", method="other", status="405") == 1
        routes = {dict(labels).get("route") for name, labels in samples if name == count}
        assert routes == {"/api/tables/{id}", "other", "/api/info"}


def test_the_metrics_route_can_be_left_out(tmp_path: Path) -> None:
    from tarneeb.server.hub import Settings

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 's.db'}"), metrics_route=False)
    with TestClient(app) as client:
        assert client.get("/metrics").status_code == 404
        assert client.get("/healthz").status_code == 200


def test_a_failed_commit_is_timed_and_counted() -> None:
    class Store:
        def __init__(self) -> None:
            self.fail = False

        def append_many(self, changes: Any) -> None:
            if self.fail:
                raise OSError("disk full")

        def create(self, table: Any) -> None:
            raise AssertionError("not called")

    metrics = Metrics()
    store = Store()
    metrics.watch_store(store)
    store.append_many([("t", [], "playing", None)])
    store.fail = True
    with pytest.raises(OSError, match="disk full"):
        store.append_many([("t", [], "playing", None)])
    assert metrics.sample("tarneeb_commit_seconds_count") == 2
    assert metrics.sample("tarneeb_commit_failures_total") == 1
    # a fault injected into the class later still takes effect, and is counted
    store.fail = False
    calls: list[tuple[Any, ...]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Store, "append_many", lambda *args: calls.append(args))
        store.append_many([("t", [], "over", None)])
    assert calls == [(store, [("t", [], "over", None)])]
    assert metrics.sample("tarneeb_commit_seconds_count") == 3


def test_every_transaction_of_the_store_is_timed_grouped_or_not(tmp_path: Path) -> None:
    """``append``, and :meth:`Store.commit`'s groups of several tables' changes, all
    commit through ``append_many``: each transaction is one observation, its events all
    counted (timing ``append`` alone saw none of the hub's commits)."""
    import asyncio

    from tarneeb.seats import Seat
    from tarneeb.server.store import Store
    from tarneeb.server.table import Table, TableConfig

    metrics = Metrics()
    store = Store(f"sqlite:///{tmp_path / 'timed.db'}")
    try:
        metrics.watch_store(store)
        tables = [Table.new(f"timed{n}", TableConfig()) for n in range(3)]
        for table in tables:
            store.create(table)
        assert metrics.sample("tarneeb_commit_seconds_count") == 3
        starts = [t.seq for t in tables]
        for n, table in enumerate(tables):
            table.join(f"Player {n}", Seat.SOUTH)
        store.append(tables[0].id, tables[0].events[starts[0] :], tables[0].status)
        assert metrics.sample("tarneeb_commit_seconds_count") == 4
        assert metrics.sample("tarneeb_events_total", kind="joined") == 1

        async def commit_rest() -> None:
            await asyncio.gather(
                *(
                    store.commit(t.id, t.events[start:], t.status)
                    for t, start in zip(tables[1:], starts[1:], strict=True)
                )
            )

        asyncio.run(commit_rest())
        commits = metrics.sample("tarneeb_commit_seconds_count")
        assert commits is not None and 5 <= commits <= 6  # one group of two, or two alone
        assert metrics.sample("tarneeb_events_total", kind="joined") == 3
        assert metrics.sample("tarneeb_commit_failures_total") == 0
        for table in tables:
            stored = store.load(table.id)
            assert stored is not None and len(stored.events) == len(table.events)
    finally:
        store.close()


def test_errors_outside_an_app_count_nowhere() -> None:
    metrics = Metrics()
    count_error("stale")
    assert metrics.sample("tarneeb_errors_total", code="stale", via="ws") is None


# -- logs -----------------------------------------------------------------------------------------


def record(message: str, **extra: Any) -> logging.LogRecord:
    return logging.makeLogRecord(
        {"name": "tarneeb.server", "levelname": "WARNING", "msg": message, **extra}
    )


def test_a_json_line_is_one_line_whatever_the_message_holds() -> None:
    hostile = 'Layla\n{"level": "critical"}\x1b[31m\ud800\u202e'
    try:
        raise ValueError("boom")
    except ValueError:
        exc_info = sys.exc_info()
    line = JsonFormatter().format(record(hostile, table="t1", seat="south", exc_info=exc_info))
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == hostile
    assert (data["level"], data["logger"], data["table"], data["seat"]) == (
        "warning",
        "tarneeb.server",
        "t1",
        "south",
    )
    assert "ValueError: boom" in data["exception"]
    assert data["time"].endswith("Z")
    text = TextFormatter().format(record(hostile, table="t1"))
    assert "\n" not in text and "\x1b" not in text and "\u202e" not in text
    assert text.endswith("[table=t1]")
    assert "لاعب" in TextFormatter().format(record("لاعب"))  # Arabic names stay readable


def test_an_access_line_drops_the_query() -> None:
    access = logging.makeLogRecord(
        {
            "name": "uvicorn.access",
            "levelname": "INFO",
            "msg": '%s - "%s %s HTTP/%s" %d',
            "args": ("1.2.3.4:5", "GET", "/t/abc?invite=SECRET", "1.1", 200),
        }
    )
    data = json.loads(JsonFormatter().format(access))
    assert data["message"] == "GET /t/abc 200"
    assert (data["client"], data["path"], data["status"]) == ("1.2.3.4:5", "/t/abc", 200)
    assert "SECRET" not in json.dumps(data)


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_serve_writes_json_logs_and_metrics_on_their_own_port(tmp_path: Path) -> None:
    metrics_port = free_port()

    def command(port: int) -> list[str]:
        command = serve_command(f"sqlite:///{tmp_path / 's.db'}", port)
        command[command.index("warning")] = "info"
        return [*command, "--log-format", "json", "--metrics", f"127.0.0.1:{metrics_port}"]

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    process, port = start_listening(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                if _get(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server never answered")
        assert _get(f"{base}/api/tables/nope?token=SECRET")[0] == 404
        request = urllib.request.Request(
            f"{base}/api/tables",
            data=b"{}",
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            table = json.load(answer)["table"]
        assert _get(f"{base}/metrics")[0] == 404  # on their own port instead
        status, page = _get(f"http://127.0.0.1:{metrics_port}/metrics")
        assert status == 200
        # the missing table and the /metrics of the main port: two not_found answers
        assert b'tarneeb_errors_total{code="not_found",via="http"} 2.0' in page
    finally:
        process.terminate()
        out, err = process.communicate(timeout=20)
    lines = [json.loads(line) for line in err.decode().splitlines()]  # every line is JSON
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    loggers = {line["logger"] for line in lines}
    assert {"uvicorn.error", "uvicorn.access"} <= loggers
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert {"method": "GET", "path": "/api/tables/nope", "status": 404}.items() <= access[1].items()
    assert b"SECRET" not in err
    created = [line for line in lines if line["logger"] == "tarneeb.server"]
    assert created == [{**created[0], "message": "table created", "table": table}]
    assert created[0]["rules"] == "classic" and created[0]["level"] == "info"
    assert out.decode().startswith("tarneeb: serving on")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--metrics", "nowhere"], "--metrics is 'here', 'off' or HOST:PORT, not 'nowhere'"),
        (["--metrics", "h:0"], "--metrics is 'here', 'off' or HOST:PORT, not 'h:0'"),
        (["--log-level", "loud"], "--log-level is one of critical, error"),
    ],
)
def test_bad_observe_options_are_one_line(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tarneeb.cli import main

    assert main(["serve", *argv]) == 2
    assert capsys.readouterr().err.startswith(f"tarneeb: error: {expected}")
