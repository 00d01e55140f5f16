"""What one client, seat or table may cost ``tarneeb serve``: every limit of :class:`Settings`.

* tables: so many created a minute per client address, so many open at once;
* a waiting table nobody uses expires, and a restart does not bring it back;
* a started table nobody is at leaves memory (and its creator's count), and comes back whole;
* bots (and turn timers) play only while someone is connected to the table;
* chat is limited per seat, however many connections the seat opens;
* spectators are capped per table, and one joining costs one frame (its
  welcome), not a frame to everyone already watching.
"""

# ruff: noqa: F811 - the fixture imported from test_server_persistence is a parameter here

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from pathlib import Path
from typing import Any

import pytest

import ws_support  # noqa: F401 - skips without the server's dependencies
from tarneeb.server.analysis_pool import AnalysisPool
from tarneeb.server.hub import Connection, Hub
from tarneeb.server.store import Store
from tarneeb.server.table import ErrorCode, ServerError
from tarneeb.server.wire import PROTOCOL_VERSION
from test_server_persistence import hubs  # noqa: F401 - its fixture
from ws_support import Closed, choose, connect, open_peer, server

ONE_HUMAN = {"south": "human", "east": "bot:random", "north": "bot:random", "west": "bot:random"}


def _create(client: Any, **body: Any) -> Any:
    return client.post("/api/tables", json={"name": "Layla", **body})


# -- tables per client -------------------------------------------------------------------------


def test_tables_a_minute_per_client(tmp_path: Path) -> None:
    with server(tmp_path, tables_per_minute=3) as client:
        for _ in range(3):
            assert _create(client).status_code == 201
        refused = _create(client)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert "3 new tables a minute" in refused.json()["error"]["message"]
        assert len(client.get("/api/tables").json()["tables"]) == 3


def test_open_tables_per_client(tmp_path: Path) -> None:
    with server(tmp_path, open_tables_per_client=2) as client:
        first = _create(client).json()
        assert _create(client).status_code == 201
        refused = _create(client)
        assert refused.status_code == 429
        assert "2 open tables" in refused.json()["error"]["message"]
        # One of them played to its end (a target of 1: one deal): room for another.
        assert first["table"]
    with server(tmp_path, open_tables_per_client=1) as client:
        done = _create(client, seats=ONE_HUMAN, options={"target": 1}).json()
        _play_to_the_end(client, done["table"], done["token"])
        assert _create(client).status_code == 201


def _play_to_the_end(client: Any, table: str, token: str) -> None:
    rng = random.Random(4)
    with connect(client, table, "south") as south:
        south.hello(token)
        for _ in range(3000):
            if south.over():
                return
            if south.my_turn():
                ref = south.act(choose(south.match, rng))
                south.until(lambda f, ref=ref: f.get("id") == ref)
            south.next()
    raise AssertionError("the match did not end")


# -- idle waiting tables expire --------------------------------------------------------------


def test_an_idle_waiting_table_expires_and_stays_gone_after_a_restart(
    tmp_path: Path, hubs: list[Hub]
) -> None:
    with server(tmp_path, waiting_table_ttl=600) as client:
        hub = hubs[-1]
        idle = _create(client).json()["table"]
        watched = _create(client).json()["table"]
        playing = _create(client, seats=ONE_HUMAN).json()["table"]
        with connect(client, watched, "someone") as peer:
            peer.hello()
            later = hub._clock() + 601
            # Not yet: ten minutes have not gone by.
            assert client.portal.call(hub.expire_idle, hub._clock() + 10) == []
            assert client.portal.call(hub.expire_idle, later) == [idle]
        assert client.get(f"/api/tables/{idle}").status_code == 404
        assert client.post(f"/api/tables/{idle}/join", json={"name": "x"}).status_code == 404
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {watched, playing}
        # The watched table's clock starts when its last connection leaves.
        assert client.portal.call(hub.expire_idle, hub._clock() + 300) == []
        assert client.portal.call(hub.expire_idle, hub._clock() + 601) == [watched]
    with server(tmp_path, waiting_table_ttl=600) as client:
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {playing}
        assert client.get(f"/api/tables/{idle}").status_code == 404
        with connect(client, idle, "late") as late:
            late.send({"type": "hello", "protocol": PROTOCOL_VERSION})
            assert late.next()["code"] == "not_found"


# -- a started table nobody is at leaves memory ---------------------------------------------


def test_an_abandoned_match_leaves_memory_and_comes_back_whole(
    tmp_path: Path, hubs: list[Hub]
) -> None:
    """Every started match stayed in memory for the life of the process, and counted among
    its creator's open tables: twenty abandoned quick games (a tab closed) and that
    address could make no table again ("you have 20 open tables"), a whole café behind one
    address with it. A started table nobody is at leaves memory after
    ``idle_table_release`` seconds, stops counting, and comes back from the store whole."""
    with server(tmp_path, open_tables_per_client=1, idle_table_release=600) as client:
        hub = hubs[-1]
        created = _create(client, seats=ONE_HUMAN).json()
        table, token = created["table"], created["token"]
        with connect(client, table, "south") as south:
            south.hello(token)
            south.until(lambda f: south.my_turn())
            south.act(south.match["legal"][0])
            south.until(lambda f: f.get("type") == "ack")
        assert _create(client).status_code == 429  # one open table: that one
        # a table someone is at stays, however long
        with connect(client, table, "watcher") as watcher:
            watcher.hello()
            assert hub.release_idle(hub._clock() + 10_000) == []
        # the bots played while someone watched: the move under way ends, then they wait
        live = hub.live[table]
        for _ in range(200):
            if live.task is None or live.task.done():
                break
            assert client.get(f"/api/tables/{table}").status_code == 200
        # south sees the table at its turn, and goes (nothing moves then: it waits for south)
        with connect(client, table, "south") as south:
            south.hello(token)
            south.until(lambda f: south.my_turn())
            before = south.state
        assert hub.release_idle(hub._clock() + 10) == []  # not yet
        assert hub.release_idle(hub._clock() + 601) == [table]
        assert table not in hub.live
        assert _create(client).status_code == 201  # it counts no more
        # the database down when its player comes back: a clean error, nothing internal,
        # and the table loads whole once the database answers again
        with pytest.MonkeyPatch.context() as patch:

            def unreadable(*_args: object) -> None:
                raise OSError("disk I/O error at /var/lib/tarneeb/server.db")

            patch.setattr(Store, "load", unreadable)
            with connect(client, table, "south") as south:
                south.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token})
                error = south.next()
            assert error["type"] == "error" and error["code"] == "internal", error
            assert "/var/lib" not in error["message"] and "OSError" not in error["message"]
            assert table not in hub.live
        # back from the store as it was: the same state, and the match goes on
        with connect(client, table, "south") as south:
            welcome = south.hello(token)
            assert welcome["seat"] == "south"
            assert south.state["version"] == before["version"]
            assert south.state["match"]["hand"] == before["match"]["hand"]
            assert south.state["match"]["auction"] == before["match"]["auction"]
            south.until(lambda f: south.my_turn() or south.over())
            if south.my_turn():
                south.act(south.match["legal"][0])
                assert south.until(lambda f: f.get("type") in ("ack", "error"))["type"] == "ack"


def test_a_table_that_plays_on_unwatched_is_not_let_go(tmp_path: Path, hubs: list[Hub]) -> None:
    with server(tmp_path, idle_table_release=600, bots_play_unwatched=True) as client:
        hub = hubs[-1]
        table = _create(client, seats=ONE_HUMAN, options={"target": 1000}).json()["table"]
        assert hub.release_idle(hub._clock() + 10_000) == []
        assert table in hub.live
    (tmp_path / "never").mkdir()
    with server(tmp_path / "never", idle_table_release=None) as client:
        hub = hubs[-1]
        table = _create(client, seats=ONE_HUMAN).json()["table"]
        assert hub.release_idle(hub._clock() + 10**9) == []


# -- bots play only while someone watches ---------------------------------------------------


def test_a_table_of_bots_nobody_watches_waits_and_resumes_when_someone_does(
    tmp_path: Path, hubs: list[Hub]
) -> None:
    with server(tmp_path) as client:
        hub = hubs[-1]
        created = _create(client, seats=ONE_HUMAN, takeover_seconds=0).json()
        table = created["table"]
        # South leaves at once: a bot holds its seat, the table is all bots, nobody watches.
        assert client.post(f"/api/tables/{table}/leave", json={"token": created["token"]}).json()
        live = hub.live[table]
        version = live.table.version
        for _ in range(20):  # requests let the loop run: bots would act now if they played
            assert client.get(f"/api/tables/{table}").status_code == 200
        assert live.table.version == version
        assert live.task is None or live.task.done()
        assert live.timer is None
        with connect(client, table, "spectator") as spectator:
            spectator.hello()
            spectator.until_version(version + 4)


# -- chat per seat -------------------------------------------------------------------------


def test_chat_is_limited_per_seat_not_per_connection(tmp_path: Path) -> None:
    """Two connections of one seat share one allowance (frames are not limited here)."""
    with server(tmp_path, chat_per_minute=1, chat_burst=3) as client:
        created = _create(client).json()
        table, token = created["table"], created["token"]
        with connect(client, table, "a") as first, connect(client, table, "b") as second:
            first.hello(token)
            second.hello(token)
            answers = []
            for n in range(6):
                peer = (first, second)[n % 2]
                peer.send({"type": "chat", "text": f"line {n}"})
                peer.send({"type": "ping"})
                frames = []
                while not frames or frames[-1]["type"] != "pong":
                    frames.append(peer.next())
                answers.append([f.get("code") for f in frames if f["type"] == "error"])
            assert answers == [[], [], [], ["rate_limited"], ["rate_limited"], ["rate_limited"]]
        events = client.get(f"/api/tables/{table}").json()
        assert events["status"] == "waiting"
        with connect(client, table, "reader") as reader:
            welcome = reader.hello(since=0)
        assert [e["text"] for e in welcome["events"] if e["kind"] == "chat"] == [
            "line 0",
            "line 1",
            "line 2",
        ]


# -- spectators ------------------------------------------------------------------------------


def test_spectators_are_capped_per_table(tmp_path: Path) -> None:
    with server(tmp_path, max_spectators=3) as client:
        created = _create(client).json()
        table = created["table"]
        with contextlib.ExitStack() as stack:
            for n in range(3):
                stack.enter_context(connect(client, table, f"s{n}")).hello()
            with connect(client, table, "one too many") as late:
                late.send({"type": "hello", "protocol": PROTOCOL_VERSION})
                error = late.next()
                assert (error["type"], error["code"]) == ("error", "conflict")
                assert "spectators" in error["message"]
                with pytest.raises(Closed):
                    late.next()
            # A seat's own connection is no spectator: it still connects.
            stack.enter_context(connect(client, table, "south")).hello(created["token"])


def test_250_spectators_join_in_one_frame_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, each joining spectator was a presence update to everyone watching:
    250 of them cost 31,625 frames; now 250 (their welcomes)."""
    pushed = [0]
    push = Connection.push

    def counted(self: Connection, frame: Any) -> None:
        pushed[0] += 1
        push(self, frame)

    monkeypatch.setattr(Connection, "push", counted)
    with server(tmp_path, connections_per_client=0) as client:  # all from one address here
        created = _create(client).json()
        table = created["table"]
        peers = []
        try:
            player = open_peer(client, table, "south")
            peers.append(player)
            player.hello(created["token"])
            player.sync()
            heard = len(player.frames)
            pushed[0] = 0
            for n in range(250):
                peer = open_peer(client, table, f"s{n}")
                peers.append(peer)
                peer.hello()
            assert pushed[0] == 250
            player.sync()  # the player heard nothing of them: the next frame is its pong
            assert [f["type"] for _, f in player.frames[heard:]] == ["pong"]
        finally:
            for peer in peers:
                peer.close()


# -- the analysis pool -------------------------------------------------------------------------


def test_the_analysis_pool_is_bounded_shares_a_running_analysis_and_keeps_answers() -> None:
    """Two workers and one waiting place: a fourth analysis at once is refused; a request
    for one already running waits for it instead of starting another."""
    gate = threading.Event()
    calls: list[int] = []

    def work(n: int) -> int:
        calls.append(n)
        gate.wait(5)
        return n * 10

    async def scenario() -> list[Any]:
        pool = AnalysisPool(workers=2, queue=1, cache=2)
        try:
            running = [asyncio.ensure_future(pool.run(n, f"client{n}", work, n)) for n in range(3)]
            await asyncio.sleep(0)
            refusals = []
            with pytest.raises(ServerError) as busy:
                await pool.run(3, "client3", work, 3)
            refusals.append(busy.value.code)
            with pytest.raises(ServerError) as again:  # the same client, its first one running
                await pool.run(9, "client0", work, 9)
            refusals.append(again.value.code)
            shared = asyncio.ensure_future(pool.run(1, "client7", work, 1))
            await asyncio.sleep(0)
            gate.set()
            answers = [await task for task in [*running, shared]]
            kept = await pool.run(2, "client0", work, 2)  # kept: not run again
            return [refusals, answers, kept, pool.in_flight]
        finally:
            pool.close()

    refusals, answers, kept, in_flight = asyncio.run(scenario())
    assert refusals == [ErrorCode.RATE_LIMITED, ErrorCode.RATE_LIMITED]
    assert answers == [0, 10, 20, 10]
    assert kept == 20 and in_flight == 0
    assert sorted(calls) == [0, 1, 2]


# -- a seat that comes and goes ----------------------------------------------------------------


def test_a_seat_that_comes_and_goes_stores_one_takeover_a_gap(
    tmp_path: Path, hubs: list[Hub]
) -> None:
    """Each takeover and each return is a stored event: reconnecting in a loop stored two
    events a cycle; now the bot takes the seat again only ``takeover_gap`` after a return."""
    with server(tmp_path, takeover_gap=3600) as client:
        created = _create(client, seats=ONE_HUMAN, takeover_seconds=0).json()
        table, token = created["table"], created["token"]
        live = hubs[-1].live[table]
        with connect(client, table, "spectator") as spectator:  # watched: the bots play
            spectator.hello()
            for cycle in range(4):
                with connect(client, table, "south") as south:
                    south.hello(token)
                    if cycle == 1:  # back after the first takeover
                        spectator.until(
                            lambda f: any(e["kind"] == "reclaim" for e in f.get("events") or [])
                        )
                if cycle == 0:
                    spectator.until(
                        lambda f: any(e["kind"] == "takeover" for e in f.get("events") or [])
                    )
                else:  # the seat stays the player's: give the loop the time a takeover took
                    for _ in range(20):
                        spectator.sync()
                        if live.table.seats[0].held_by is not None:
                            break
            kinds = [e.kind for e in live.table.events if e.kind in ("takeover", "reclaim")]
    assert kinds == ["takeover", "reclaim"]


def test_connections_per_client(tmp_path: Path) -> None:
    with server(tmp_path, connections_per_client=3) as client:
        tables = [_create(client).json()["table"] for _ in range(2)]
        with contextlib.ExitStack() as stack:
            for n in range(3):  # over two tables: the limit is the client's, not a table's
                stack.enter_context(connect(client, tables[n % 2], f"p{n}")).hello()
            with connect(client, tables[1], "one too many") as late:
                late.send({"type": "hello", "protocol": PROTOCOL_VERSION})
                error = late.next()
                assert (error["type"], error["code"]) == ("error", "rate_limited")
                assert "3 connections" in error["message"]
                with pytest.raises(Closed):
                    late.next()
        # All closed: the client may connect again.
        with connect(client, tables[0], "again") as again:
            assert again.hello()["type"] == "welcome"


def test_a_reconnect_loop_is_refused_before_any_work_and_a_burst_back_is_not(
    tmp_path: Path,
) -> None:
    """A hostile client (stop 36) connected, read its welcome and closed, again and again on
    20 sockets: 700 welcomes a second, the server's whole core, from one address, under
    every other limit (it never held more than 20 connections). Now a client may open a
    burst of sockets at once (a household back after a drop), then a few a second; one more
    hears why and is closed before its table is read or its hello is."""
    from starlette.testclient import WebSocketDenialResponse

    with server(tmp_path, connects_per_minute=1, connect_burst=5) as client:
        table = _create(client).json()["table"]
        for n in range(5):
            with connect(client, table, f"back {n}") as back:
                assert back.hello()["type"] == "welcome"
        for path in (f"/ws/{table}", "/ws/events/nothing"):  # one count for both
            with pytest.raises(WebSocketDenialResponse) as denied:
                client.websocket_connect(path).__enter__()
            assert denied.value.status_code == 429
            error = denied.value.json()["error"]
            assert error["code"] == "rate_limited" and "new connections" in error["message"]
    with server(tmp_path, connects_per_minute=0, connect_burst=1) as client:  # 0: no limit
        table = _create(client).json()["table"]
        for n in range(3):
            with connect(client, table, f"back {n}") as back:
                assert back.hello()["type"] == "welcome"


def test_one_client_asking_the_api_in_a_loop_is_slowed_and_the_pages_are_not(
    tmp_path: Path,
) -> None:
    """A hostile client (stop 36) asked for the lobby on eight kept-alive connections in a
    loop: 2,700 answers a second, the server's whole core, and an honest player's moves
    took 233 ms (p95) to come back instead of 2. Now a client's API requests have a burst
    and a rate; past them the answer is 429 with Retry-After, before any handler runs."""
    with server(tmp_path, api_per_second=0.01, api_burst=3) as client:
        assert [client.get("/api/tables").status_code for _ in range(3)] == [200] * 3
        refused = client.get("/api/tables")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        error = refused.json()["error"]
        assert error["code"] == "rate_limited" and "too many requests" in error["message"]
        assert client.post("/api/tables", json={"rules": "classic"}).status_code == 429
        assert client.get("/").status_code == 200  # the pages and their files are not counted
        assert client.get("/static/js/app.js").status_code == 200
    with server(tmp_path, api_per_second=0, api_burst=1) as client:  # 0: no limit
        assert [client.get("/api/tables").status_code for _ in range(5)] == [200] * 5


def test_a_steady_sender_over_the_frame_rate_is_closed_and_an_honest_burst_is_not() -> None:
    """A hostile client (stop 35) sent hints at 100 frames a second on 45 sockets for 20
    seconds: the frame limit (20 a second) let one frame in five through, and since a
    connection was closed only after ten refusals *in a row*, none ever was. The server
    wrote 76,000 error frames, one for each refused frame. Now an accepted frame takes
    back one strike rather than all of them: a sender at three times the rate is closed
    within seconds; a player's burst now and then, and a rate just under the limit, never."""
    from tarneeb.server.limits import FrameGate

    def closed_after(every: float, frames: int, burst_every: int = 0) -> int | None:
        """The frame at which a steady sender is closed (None: never)."""
        now = [0.0]
        gate = FrameGate(rate=20.0, burst=40.0, strikes=10, clock=lambda: now[0])
        for i in range(frames):
            now[0] += every
            for _ in range(45 if burst_every and i % burst_every == 0 else 1):
                gate.take()
                if gate.spent:
                    return i
        return None

    assert closed_after(1 / 100, 2000) is not None  # the flood: five times the rate
    assert (closed_after(1 / 60, 2000) or 2000) < 200  # three times: within three seconds
    assert closed_after(1 / 19, 20_000) is None  # just under the rate, for ever
    assert closed_after(1 / 2, 2000, burst_every=100) is None  # 45 frames at once each 50 s
    # 45 frames at once every second: five refused each time, closed
    assert closed_after(1.0, 60, burst_every=1) is not None
