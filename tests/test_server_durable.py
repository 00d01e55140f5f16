"""``tarneeb serve`` keeps every table going: ids a player picks, failed commits, a busy loop.

* a player's action ids live apart from the server's own (a bot's, the turn
  timer's): no id a player sends can make the server's action a duplicate;
* a commit that fails for a bot or the turn timer is logged, retried with
  backoff, and the table goes on by itself once the database is back, while
  :meth:`Hub.health` says the server is degraded; a player's action that
  cannot be committed gets an error, never an ack, and nothing acked is lost
  (on SQLite: a locked file, a read-only file, a full database; on PostgreSQL:
  a killed backend);
* the health is ``ok`` again once the database answers, even with nothing to store;
* nothing slow runs on the event loop: a slow commit of one table does not
  hold up the server; analyses run in a bounded pool, one per client, kept
  once made; a finished table is served from its stored result, never
  replayed (one of an older database is replayed once, and its result stored).
"""

# ruff: noqa: F811 - the fixtures imported from test_server_persistence are parameters here

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import ws_support  # noqa: F401 - skips without the server's dependencies
from support import need_dds
from tarneeb.actions import format_action
from tarneeb.seats import Seat
from tarneeb.server import app as app_module
from tarneeb.server import config as table_module
from tarneeb.server.hub import Connection, Hub
from tarneeb.server.protocol import events_json
from tarneeb.server.results import RESULT_VERSION
from tarneeb.server.store import Store
from tarneeb.server.table import ErrorCode, ServerError, Table, TableConfig
from test_server_persistence import db_url, hubs  # noqa: F401 - their fixtures
from ws_support import SEAT_NAMES, Peer, Settings, TestClient, choose, connect, create_app, server

sa = pytest.importorskip("sqlalchemy")

# -- action ids: the player's and the server's never meet -------------------------------------


def _all_human(client: Any, **config: Any) -> tuple[str, dict[str, str]]:
    body = {"seats": dict.fromkeys(SEAT_NAMES, "human"), "takeover_seconds": 3600, **config}
    created = client.post("/api/tables", json={**body, "name": "Player south"})
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    tokens = {"south": created.json()["token"]}
    for name in SEAT_NAMES[1:]:
        joined = client.post(f"/api/tables/{table}/join", json={"name": name, "seat": name})
        assert joined.status_code == 200, joined.text
        tokens[name] = joined.json()["token"]
    return table, tokens


def _bids(match: dict[str, Any]) -> list[int]:
    """The ids of the bids among the legal actions."""
    return [a["id"] for a in match["legal"] if a["kind"] == "bid"]


def test_a_player_cannot_take_the_turn_timers_action_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timer names its action ``timer-V``; a player who used that id before does not stop it.

    The first to speak bids naming its action as the timer will name its next
    turn (``timer-`` and the version four actions on), the next outbids it,
    the other two pass: the first speaker is to act again, says nothing, and
    its turn timer acts for it.
    """
    monkeypatch.setattr(table_module, "TURN_SECONDS", (0.1, 600))  # a timer of 0.5 s
    with server(tmp_path) as client:
        table, tokens = _all_human(client, turn_seconds=0.5)
        peers: dict[str, Peer] = {}
        with (
            connect(client, table, "south") as south,
            connect(client, table, "east") as east,
            connect(client, table, "north") as north,
            connect(client, table, "west") as west,
        ):
            for name, peer in zip(SEAT_NAMES, (south, east, north, west), strict=True):
                peer.hello(tokens[name])
                peers[name] = peer
            for peer in peers.values():
                peer.sync()
            start = south.version
            first = south.match["to_act"]
            order = [SEAT_NAMES[(SEAT_NAMES.index(first) + i) % 4] for i in range(4)]
            trap = f"timer-{start + 4}"
            for step, name in enumerate(order):
                peer = peers[name]
                peer.until_version(start + step)
                action = _bids(peer.match)[0] if step < 2 else "pass"
                ref = trap if step == 0 else f"{name}-{step}"
                peer.act(action, start + step, ref)
                peer.until(lambda f, ref=ref: f["type"] == "ack" and f["id"] == ref)
            # The first speaker is to act again and waits: its timer acts, as the timer.
            mover = peers[first]
            mover.until_version(start + 4)
            assert mover.match["to_act"] == first
            update = mover.until(lambda f: f["type"] == "update" and f["version"] == start + 5)
            action = [e for e in update["events"] if e["kind"] == "action"]
            assert [(e["seat"], e["by"]) for e in action] == [(first, "timer")]
            # The player's own id is still its own: sent again, it is a duplicate of its bid.
            mover.act("pass", mover.version, trap)
            error = mover.until(lambda f: f["type"] == "error")
            assert (error["code"], error["id"], error["version"]) == ("duplicate", trap, start + 1)


def _lowest_bid(table: Table, seat: Seat) -> str:
    assert table.match is not None
    legal = [format_action(a) for a in table.match.view(seat).legal_actions]
    return next(a for a in legal if a not in ("pass", "double", "redeal"))


@pytest.mark.parametrize("by", ["bot", "timer"])
def test_server_made_actions_are_not_looked_up_among_the_players_ids(by: str) -> None:
    """At the table itself: a player's action named ``bot-V``, then the bot's own at ``V``."""
    table = Table.new("ids1", TableConfig())
    for seat in Seat:
        table.join(seat.name.title(), seat)
    start = table.version
    first = table.to_act()
    assert first is not None
    trap = f"{by}-{start + 4}"
    table.act(first, start, _lowest_bid(table, first), trap)
    table.act(first.next, start + 1, _lowest_bid(table, first.next), "e1")
    table.act(first.next.next, start + 2, "pass", "n1")
    table.act(first.next.next.next, start + 3, "pass", "w1")
    assert table.to_act() == first
    assert table.act(first, start + 4, "pass", trap, by) == start + 5
    # The player's id is still its own; restored, the table knows the same ids.
    with pytest.raises(ServerError) as refused:
        table.act(first, table.version, "pass", trap)
    assert refused.value.code is ErrorCode.DUPLICATE
    assert refused.value.extra == {"version": start + 1}
    restored = Table.restore(table.id, table.config, table.created, table.events)
    assert (
        restored.acted
        == table.acted
        == {
            (first, trap): start + 1,
            (first.next, "e1"): start + 2,
            (first.next.next, "n1"): start + 3,
            (first.next.next.next, "w1"): start + 4,
        }
    )


# -- failed commits: logged, retried, resumed; nothing acked lost --------------------------------


@contextlib.contextmanager
def _app(url: str, **settings: Any) -> Iterator[TestClient]:
    """The app on ``db_url``, bots at once and no frame rate limit."""
    fast = {"bot_delay": 0, "rate_per_s": 1e6, "rate_burst": 1e6}
    with TestClient(create_app(Settings(db_url=url, **{**fast, **settings}))) as client:
        yield client


QUICK_RETRY = {"commit_retry_first": 0.01, "commit_retry_max": 0.05}


class Faults:
    """Faults switched on and off by a test, on every connection the store takes from its pool.

    ``full``: the connection fails as a full disk does (SQLite's own error);
    ``readonly``: SQLite refuses writes on it (``PRAGMA query_only``); ``kill``:
    its PostgreSQL backend is terminated (``pg_terminate_backend``) before use.
    """

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.mode: str | None = None
        self.hits = 0
        sa.event.listen(engine, "checkout", self._checkout)

    def _checkout(self, dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        sqlite = self.engine.dialect.name == "sqlite"
        if sqlite:
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA query_only = {'ON' if self.mode == 'readonly' else 'OFF'}")
            cursor.close()
        if self.mode is None:
            return
        self.hits += 1
        if self.mode == "full":
            raise sqlite3.OperationalError("database or disk is full")
        if self.mode == "kill":
            pid = dbapi_connection.info.backend_pid
            admin = sa.create_engine(self.engine.url, poolclass=sa.pool.NullPool)
            try:
                with admin.begin() as conn:
                    conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            finally:
                admin.dispose()


def _health(client: Any, hub: Hub) -> dict[str, Any]:
    """:meth:`Hub.health` of the app's hub, asked on its event loop (after a request,
    which lets the loop run what waits)."""
    assert client.get("/api/tables").status_code == 200
    health: dict[str, Any] = client.portal.call(hub.health)
    return health


def _health_until(client: Any, hub: Hub, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Ask the hub's health until ``check`` holds (each time a request lets the loop run)."""
    for _ in range(2000):
        health = _health(client, hub)
        if check(health):
            return health
    raise AssertionError(f"health never came: {health}")


def _outage(
    client: Any, hub: Hub, fault_on: Callable[[], None], fault_off: Callable[[], None]
) -> str:
    """A table goes through a database outage; returns what the health said meanwhile.

    South's own action in the outage gets an error and no ack, and no one hears
    of it; South leaves, and the bot that takes over its seat (a change the
    server makes) waits for the database; once it is back the table plays on
    by itself, and the store holds every event anyone heard.
    """
    rng = random.Random(5)
    seats = {"south": "human", "east": "bot:random", "north": "bot:random", "west": "bot:random"}
    created = client.post(
        "/api/tables", json={"name": "Layla", "seats": seats, "takeover_seconds": 0}
    ).json()
    table = created["table"]
    with connect(client, table, "spectator") as spectator:
        spectator.hello()
        with connect(client, table, "south") as south:
            south.hello(created["token"])
            while not south.my_turn():
                south.next()
            acked = []
            for _ in range(3):  # a few actions acked before the outage
                ref = south.act(choose(south.match, rng))
                answer = south.until(lambda f: f["type"] in ("ack", "error"))
                assert answer == {"type": "ack", "id": ref, "version": answer["version"]}, answer
                acked.append(ref)
                south.until_version(answer["version"])
                while not south.my_turn():
                    south.next()
            spectator.until_version(south.version)
            spectator.sync()
            assert _health(client, hub) == {"status": "ok", "tables_pending": 0, "last_error": None}
            fault_on()
            version = south.version
            ref = south.act(choose(south.match, rng))
            error = south.until(lambda f: f["type"] in ("error", "ack"))
            assert (error["type"], error["code"], error["id"]) == ("error", "internal", ref)
            assert "INSERT" not in error["message"] and "tarneeb_" not in error["message"]
            degraded = _health(client, hub)
            assert degraded["status"] == "degraded"
            spectator.send({"type": "ping"})
            assert spectator.next() == {"type": "pong"}  # nobody heard of it
            assert hub.live[table].table.version == version
        # South is gone: a bot takes the seat over, which waits for the database.
        degraded = _health_until(client, hub, lambda h: h["tables_pending"] == 1)
        assert degraded["status"] == "degraded" and degraded["last_error"]
        fault_off()
        spectator.until(
            lambda f: f["type"] == "update" and any(e["kind"] == "takeover" for e in f["events"])
        )
        spectator.until_version(version + 4)  # the bots (South's holder too) play on
        _health_until(
            client, hub, lambda h: h == {"status": "ok", "tables_pending": 0, "last_error": None}
        )
        heard = list(spectator.events)
    stored = Store(hub.store.url)
    try:
        loaded = stored.load(table)
        assert loaded is not None
        told = events_json(loaded, loaded.events[: len(heard)])  # as the wire tells them
        assert json.loads(json.dumps(told)) == heard
        # Every acked action is stored, the refused one is not.
        mine = [e.secret["ref"] for e in loaded.events if e.kind == "action" and e.secret]
        assert [r for r in mine if r.startswith("south-")] == acked
    finally:
        stored.close()
    return str(degraded["last_error"])


def test_a_locked_sqlite_file(tmp_path: Path, hubs: list[Hub]) -> None:
    """Another connection holds the file's write lock: nothing is stored until it lets go."""
    path = tmp_path / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    with _app(f"sqlite:///{path}?timeout=0.05", **QUICK_RETRY) as client:
        error = _outage(
            client,
            hubs[0],
            lambda: holder.execute("BEGIN EXCLUSIVE"),
            lambda: holder.execute("ROLLBACK"),
        )
    holder.close()
    assert error == "OperationalError: database is locked"


@pytest.mark.parametrize(
    ("fault", "said"),
    [("readonly", "attempt to write a readonly database"), ("full", "database or disk is full")],
)
def test_a_read_only_or_full_sqlite_database(
    tmp_path: Path,
    hubs: list[Hub],
    fault: str,
    said: str,
) -> None:
    with server(tmp_path, **QUICK_RETRY) as client:
        faults = Faults(hubs[0].store.engine)
        error = _outage(
            client,
            hubs[0],
            lambda: setattr(faults, "mode", fault),
            lambda: setattr(faults, "mode", None),
        )
    assert error == f"OperationalError: {said}"


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_killed_postgresql_backends(
    db_url: str,
    hubs: list[Hub],
) -> None:
    """Every connection the server takes has its backend killed under it while the fault is on."""
    with _app(db_url, **QUICK_RETRY) as client:
        faults = Faults(hubs[0].store.engine)
        error = _outage(
            client,
            hubs[0],
            lambda: setattr(faults, "mode", "kill"),
            lambda: setattr(faults, "mode", None),
        )
    assert "terminat" in error or "closed" in error, error


def test_a_bots_and_the_turn_timers_failed_commits_are_tried_again(tmp_path: Path) -> None:
    """The first commits of a bot's action and of the timer's fail; each is stored on a retry.

    Before, the bot's or timer's task ended on the error and the table waited for ever.
    """
    store = Store(f"sqlite:///{tmp_path / 'hub.db'}")
    fails = {"bot": 2, "timer": 2}
    append_many = store.append_many

    def failing(changes: Any) -> None:
        for _table_id, events, _status, _result in changes:
            for event in events:
                by = event.data.get("by") if event.kind == "action" else None
                if fails.get(by):
                    fails[by] -= 1
                    refusal = sqlite3.OperationalError("database is locked")
                    raise sa.exc.OperationalError("INSERT ...", {}, refusal)
        append_many(changes)

    store.append_many = failing  # type: ignore[method-assign]

    async def scenario() -> tuple[Hub, str, list[dict[str, Any]]]:
        hub = Hub(store, Settings(bot_delay=0, **QUICK_RETRY))
        await hub.startup()
        seats = {
            "south": "human",
            "east": "bot:random",
            "north": "bot:random",
            "west": "bot:random",
        }
        # a timer far below the API's floor (TURN_SECONDS), as a test would have it
        config = dataclasses.replace(TableConfig.from_dict({"seats": seats}), turn_seconds=0.05)
        table, _token = await hub.create(config, "Layla", Seat.SOUTH)
        heard: list[dict[str, Any]] = []
        done = asyncio.Event()

        async def send(text: str) -> None:
            frame = json.loads(text)
            heard.extend(frame.get("events") or [])
            by = {e["by"] for e in heard if e["kind"] == "action"}
            if {"bot", "timer"} <= by and not any(fails.values()):
                done.set()

        spectator = Connection(table.id, None, send)  # someone watches: the bots play
        spectator.start()
        await hub.connect(spectator, None)
        await asyncio.wait_for(done.wait(), 20)
        health = hub.health()
        await hub.disconnect(spectator)
        await hub.shutdown()
        assert health == {"status": "ok", "tables_pending": 0, "last_error": None}
        return hub, table.id, heard

    try:
        _hub, table_id, heard = asyncio.run(scenario())
        stored = store.load(table_id)
        assert stored is not None
        told = events_json(stored, stored.events[: len(heard)])  # as the wire tells them
        assert json.loads(json.dumps(told)) == heard
    finally:
        store.close()


# -- nothing slow on the event loop ------------------------------------------------------------


def _respond_time(client: Any, path: str = "/api/tables") -> float:
    start = time.perf_counter()
    assert client.get(path).status_code == 200
    return time.perf_counter() - start


def test_a_slow_commit_does_not_hold_up_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit that takes its time (held until the test lets it go, five seconds at most):
    meanwhile the server answers others at once, and the action's ack and update wait for it."""
    entered, release = threading.Event(), threading.Event()
    slowing = [False]
    append_many = Store.append_many

    def slow(self: Store, *args: Any, **kwargs: Any) -> None:
        if slowing[0]:
            entered.set()
            release.wait(5)
        append_many(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append_many", slow)
    rng = random.Random(2)
    with server(tmp_path) as client:
        table, tokens = _all_human(client)
        with connect(client, table, "spectator") as spectator:
            spectator.hello()
            first = spectator.state["match"]["to_act"]  # type: ignore[index]
            with connect(client, table, first) as mover:
                mover.hello(tokens[first])
                spectator.sync()
                slowing[0] = True
                ref = mover.act(choose(mover.match, rng))
                assert entered.wait(5)
                waited = _respond_time(client)
                release.set()
                ack = mover.until(lambda f: f["type"] in ("ack", "error"))
                assert ack["type"] == "ack" and ack["id"] == ref
                spectator.until_version(1)
    assert waited < 1.0, waited


def _finished_deal(client: Any, target: int = 1) -> tuple[str, str]:
    """A table of one player and three bots whose first deal is over (the match too, for
    a target of 1); its id and the player's token."""
    seats = {"south": "human", "east": "bot:random", "north": "bot:random", "west": "bot:random"}
    body = {"name": "Layla", "seats": seats, "options": {"target": target}}
    created = client.post("/api/tables", json=body).json()
    rng = random.Random(8)
    with connect(client, created["table"], "south") as south:
        south.hello(created["token"])
        for _ in range(2000):
            match = south.match
            if match["over"] or match["deal_number"] > 1:
                break
            if south.my_turn():
                ref = south.act(choose(match, rng))
                south.until(lambda f, ref=ref: f.get("id") == ref)
            south.next()
        south.sync()
    return created["table"], created["token"]


def test_analyses_run_in_a_bounded_pool_one_per_client_and_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow_analysis(text: str) -> dict[str, Any]:
        calls.append(text)
        entered.set()
        release.wait(5)
        return {"backend": "fake", "deal": text[:20]}

    monkeypatch.setattr(app_module, "analyse_deal_text", slow_analysis)
    with server(tmp_path) as client:
        table, _token = _finished_deal(client, target=31)
        path = f"/api/tables/{table}/deals/1?analysis=1"
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(client.get, path)
            assert entered.wait(5)
            waited = _respond_time(client)
            # The same client again while its analysis runs: refused, clearly.
            again = client.get(path)
            assert again.status_code == 429
            assert again.json()["error"]["code"] == "rate_limited"
            assert "one analysis at a time" in again.json()["error"]["message"]
            release.set()
            answer = first.result(10)
        assert answer.status_code == 200, answer.text
        assert answer.json()["analysis"]["backend"] == "fake"
        # Kept: asked again, the deal is not analysed again.
        assert client.get(path).json()["analysis"] == answer.json()["analysis"]
        assert len(calls) == 1
        # Without analysis=1, no analysis at all.
        assert "analysis" not in client.get(f"/api/tables/{table}/deals/1").json()
    assert waited < 1.0, waited


def test_a_real_double_dummy_analysis_through_the_pool(tmp_path: Path) -> None:
    need_dds()
    with server(tmp_path) as client:
        table, _token = _finished_deal(client, target=31)
        body = client.get(f"/api/tables/{table}/deals/1?analysis=1").json()
    if body["result"] and "thrown_in" in body["result"]:
        assert "analysis" not in body
    else:
        assert body["analysis"]["backend"] == "dds"


def test_a_finished_table_is_served_from_its_stored_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once stored, a finished table's API answers never replay its log; a table finished
    before results were stored (an older database) is replayed once and its result stored."""
    db = tmp_path / "server.db"
    with server(tmp_path) as client:
        table, _token = _finished_deal(client)
        paths = [f"/api/tables/{table}{p}" for p in ("", "/deals", "/deals/1", "/record")]
        before = {path: client.get(path).json() for path in paths}
    assert before[paths[0]]["status"] == "finished"
    restores: list[str] = []
    restore = Table.restore.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Table], table_id: str, *args: Any) -> Table:
        restores.append(table_id)
        return restore(cls, table_id, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(Table, "restore", classmethod(counted))
    with server(tmp_path) as client:  # a restart on the same database
        for _ in range(3):
            assert {path: client.get(path).json() for path in paths} == before
    assert restores == []
    # An older database: no stored results.
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE tarneeb_results")
    for _ in range(2):
        with server(tmp_path) as client:
            assert {path: client.get(path).json() for path in paths} == before
    assert restores == [table]


def test_a_stored_result_of_an_earlier_shape_is_built_again_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result stored by a server of protocol 1 (replays with ``actions``, RESULT_VERSION 1)
    is not served as it is: the table is replayed once, and its new result stored."""
    db = tmp_path / "server.db"
    with server(tmp_path) as client:
        table, _token = _finished_deal(client)
        paths = [f"/api/tables/{table}{p}" for p in ("", "/deals", "/deals/1", "/record")]
        before = {path: client.get(path).json() for path in paths}
    assert "auction" in before[paths[2]] and "actions" not in before[paths[2]]
    old = {"version": 1, "table": before[paths[0]], "played": [1], "record": None}
    old["deals"] = {"1": {**before[paths[2]], "actions": [["south", "pass"]]}}
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tarneeb_results SET data = ?", (json.dumps(old),))
    restores: list[str] = []
    restore = Table.restore.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Table], table_id: str, *args: Any) -> Table:
        restores.append(table_id)
        return restore(cls, table_id, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(Table, "restore", classmethod(counted))
    for _ in range(2):
        with server(tmp_path) as client:
            assert {path: client.get(path).json() for path in paths} == before
    assert restores == [table]
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM tarneeb_results").fetchone()
    assert json.loads(data)["version"] == RESULT_VERSION


def test_the_health_is_ok_again_once_the_database_is_back_with_nothing_to_store(
    tmp_path: Path, hubs: list[Hub]
) -> None:
    """A failed create (no retry: the client was told) makes the server degraded; it is ok
    again once the database answers, though nothing else is stored meanwhile."""
    with server(tmp_path, **QUICK_RETRY) as client:
        hub = hubs[0]
        faults = Faults(hub.store.engine)
        faults.mode = "full"
        refused = client.post("/api/tables", json={"name": "Layla"})
        assert refused.status_code == 500
        assert refused.json()["error"]["code"] == "internal"
        assert "INSERT" not in refused.text and "token" not in refused.text
        assert _health(client, hub)["status"] == "degraded"
        assert client.get("/api/tables").json() == {"tables": []}
        faults.mode = None
        _health_until(client, hub, lambda h: h["status"] == "ok")
        assert client.post("/api/tables", json={"name": "Layla"}).status_code == 201
