"""The leases of many workers (:mod:`tarneeb.server.cluster`) against the real PostgreSQL.

Two workers share one database in these tests, in one process: each a
:class:`Store` with its :class:`Cluster`. A table is played by the holder of
its lease; another takes it only once it lapsed; the old holder's writes are
refused whole from then on (a compare-and-set on the table's event number
and owner), and its hub lets the table go. Without PostgreSQL these skip,
unless ``TARNEEB_REQUIRE_EXTRAS=1`` (CI), where they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

import ws_support  # noqa: F401 - skips without the server's dependencies
from test_cluster import pg_url  # noqa: F401 - its fixture

sa = pytest.importorskip("sqlalchemy")
pytest.importorskip("psycopg")

from tarneeb.seats import Seat  # noqa: E402
from tarneeb.server.cluster import Cluster, Elsewhere  # noqa: E402
from tarneeb.server.hub import Connection, Hub, Settings  # noqa: E402
from tarneeb.server.store import StaleWrite, Store  # noqa: E402
from tarneeb.server.table import ErrorCode, ServerError, Table, TableConfig  # noqa: E402

ALL_HUMAN = TableConfig(seats=("human", "human", "human", "human"), takeover_seconds=3600)


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[Cluster, Cluster]]:  # noqa: F811
    stores = [Store(pg_url), Store(pg_url)]
    try:
        yield (
            Cluster(stores[0], "a", "127.0.0.1:1", lease_seconds=30),
            Cluster(stores[1], "b", "127.0.0.1:2", lease_seconds=30),
        )
    finally:
        for store in stores:
            store.close()


def _lapse(cluster: Cluster, table_id: str) -> None:
    """The lease of ``table_id`` lapses now (its holder stalled, or died)."""
    with cluster.store.engine.begin() as conn:
        conn.execute(
            sa.text(
                "UPDATE tarneeb_leases SET expires = now() - interval '1 second' "
                "WHERE table_id = :id"
            ),
            {"id": table_id},
        )


def _seated(table: Table) -> None:
    for seat in Seat:
        table.join(seat.name.title(), seat)


def _act(table: Table, ref: str) -> None:
    """The lowest legal action of whoever is to act."""
    assert table.match is not None
    seat = table.to_act()
    assert seat is not None
    table.act(seat, table.version, min(table.match.deal.legal_action_ids()), ref)


def _stored_seqs(cluster: Cluster, table_id: str) -> list[int]:
    stored = cluster.store.load(table_id)
    assert stored is not None
    return [e.seq for e in stored.events]


def test_one_holder_at_a_time_and_the_old_holders_writes_are_refused_whole(
    two: tuple[Cluster, Cluster],
) -> None:
    a, b = two
    table = Table.new(a.new_id(), ALL_HUMAN)
    assert table.id.startswith("a-")
    _seated(table)
    a.store.create(table)
    assert a.acquire(table.id)  # its own: renewed
    with pytest.raises(Elsewhere) as away:
        b.acquire(table.id)
    assert away.value.address == "127.0.0.1:1" and 0 < away.value.lapses_in <= 30
    assert away.value.code is ErrorCode.CONFLICT
    start = table.seq
    _act(table, "a-1")
    a.store.append(table.id, table.events[start:], table.status)
    # a stalls past its lease; b takes the table over, and replays the log.
    _lapse(a, table.id)
    assert b.acquire(table.id)
    stored = b.store.load(table.id)
    assert stored is not None
    adopted = stored.restore()
    assert adopted.events == table.events and adopted.match == table.match
    # a wakes up and writes its next action: refused, nothing written.
    start = table.seq
    _act(table, "a-2")
    with pytest.raises(StaleWrite) as refused:
        a.store.append(table.id, table.events[start:], table.status)
    assert refused.value.table_ids == (table.id,)
    assert _stored_seqs(b, table.id) == list(range(1, start + 1))
    assert a.renew([table.id]) == set()
    # b plays on from the same number; the event a tried to write is b's to write.
    _act(adopted, "b-2")
    b.store.append(adopted.id, adopted.events[start:], adopted.status)
    assert _stored_seqs(b, table.id) == list(range(1, adopted.seq + 1))
    assert b.renew([table.id]) == {table.id}
    with pytest.raises(Elsewhere):
        a.acquire(table.id)


def test_a_write_must_follow_the_last_event_written(two: tuple[Cluster, Cluster]) -> None:
    """The lease holds the table's event number: a write that does not start right after
    it (a second writer, a lost commit) is refused, even by the holder."""
    a, _b = two
    table = Table.new(a.new_id(), ALL_HUMAN)
    a.store.create(table)
    _seated(table)
    with pytest.raises(StaleWrite):
        a.store.append(table.id, table.events[1:], table.status)  # skips an event
    a.store.append(table.id, table.events, table.status)
    with pytest.raises((StaleWrite, sa.exc.IntegrityError)):
        a.store.append(table.id, table.events[-1:], table.status)  # the same, again
    assert _stored_seqs(a, table.id) == list(range(1, table.seq + 1))


def test_a_table_stored_by_a_single_process_gets_a_lease_on_first_contact(
    two: tuple[Cluster, Cluster],
) -> None:
    a, b = two
    single = Store(str(a.store.engine.url.render_as_string(hide_password=False)))
    try:
        table = Table.new("old1", ALL_HUMAN)
        _seated(table)
        single.create(table)  # no guard: no lease
    finally:
        single.close()
    assert b.acquire(table.id)
    with pytest.raises(Elsewhere):
        a.acquire(table.id)
    assert not a.acquire("no-such-table")


def test_every_write_is_told_to_the_listeners(two: tuple[Cluster, Cluster]) -> None:
    """``NOTIFY`` with the table and its last event, heard by the other worker."""
    a, b = two
    heard: list[tuple[str, int]] = []

    async def scenario() -> None:
        listening = asyncio.Event()

        async def connected() -> None:
            listening.set()

        task = asyncio.create_task(b.listen(lambda t, s: heard.append((t, s)), connected))
        await asyncio.wait_for(listening.wait(), 10)
        table = Table.new(a.new_id(), ALL_HUMAN)
        await asyncio.to_thread(a.store.create, table)
        start = table.seq
        _seated(table)
        await asyncio.to_thread(a.store.append, table.id, table.events[start:], table.status)
        for _ in range(200):
            if (table.id, table.seq) in heard:
                break
            await asyncio.sleep(0.05)
        task.cancel()
        assert heard == [(table.id, 0), (table.id, table.seq)]

    asyncio.run(scenario())


def test_a_hub_lets_go_of_a_table_another_worker_took(two: tuple[Cluster, Cluster]) -> None:
    """Its player's action is refused (``conflict``, nothing stored), its sockets are
    closed with 1012 (their clients reconnect to the new owner), and the table leaves it."""
    a, b = two
    closed: list[int] = []

    async def scenario() -> None:
        hub = Hub(a.store, Settings(bot_delay=0), cluster=a)
        await hub.startup()
        try:
            table, token = await hub.create(ALL_HUMAN, "South", Seat.SOUTH)
            for seat in (Seat.EAST, Seat.NORTH, Seat.WEST):
                await hub.change(table.id, lambda t, seat=seat: t.join(seat.name, seat))
            live = hub.live[table.id]
            to_act = live.table.to_act()
            assert to_act is not None
            sent: list[Any] = []

            async def send(text: str) -> None:
                sent.append(json.loads(text))

            async def abort(code: int) -> None:
                closed.append(code)

            conn = Connection(table.id, to_act, send, abort)
            conn.start()
            await hub.connect(conn, None)
            before = live.table.seq
            await asyncio.to_thread(_lapse, a, table.id)
            assert await asyncio.to_thread(b.acquire, table.id)
            version = live.table.version
            action = min(live.table.match.deal.legal_action_ids())  # type: ignore[union-attr]
            with pytest.raises(ServerError) as refused:
                await hub.change(table.id, lambda t: t.act(to_act, version, action, "x1"))
            assert refused.value.code is ErrorCode.CONFLICT
            for _ in range(100):
                if closed:
                    break
                await asyncio.sleep(0.01)
            assert table.id not in hub.live
            assert _stored_seqs(a, table.id) == list(range(1, before + 1))
            assert token is not None
        finally:
            await hub.shutdown()

    asyncio.run(scenario())
    assert closed == [1012]


# -- presence (tarneeb_presence) ------------------------------------------------------------


def _presence_row(cluster: Cluster, table_id: str) -> Any:
    with cluster.store.engine.connect() as conn:
        return conn.execute(
            sa.text("SELECT seq, data FROM tarneeb_presence WHERE table_id = :id"),
            {"id": table_id},
        ).first()


def test_presence_rows_are_written_by_the_holder_only_and_removed_when_the_table_ends(
    two: tuple[Cluster, Cluster],
) -> None:
    a, b = two
    table = Table.new(a.new_id(), ALL_HUMAN)
    _seated(table)
    a.store.create(table)
    first = a.publish_presence({table.id: lambda seq: json.dumps({"n": seq})})
    assert set(first) == {table.id}
    assert b.read_presence([table.id, "no-such"]) == {
        table.id: (first[table.id], json.dumps({"n": first[table.id]}))
    }
    # b holds no lease on it: its write is refused, the row stays a's.
    assert b.publish_presence({table.id: lambda seq: "{}"}) == {}
    again = a.publish_presence({table.id: lambda seq: "{}"})
    assert again[table.id] > first[table.id]  # the numbers only grow
    assert b.read_presence([table.id])[table.id] == (again[table.id], "{}")
    # An ended table's row goes (and the listeners hear of it).
    a.publish_presence({}, gone=[table.id])
    assert _presence_row(a, table.id) is None
    # A row of a table nobody plays is swept once its lease lapsed long enough.
    a.publish_presence({table.id: lambda seq: "{}"})
    assert a.sweep_presence(lapsed_for=30) == []
    _lapse(a, table.id)
    assert a.sweep_presence(lapsed_for=30) == []  # lapsed a second ago: kept for now
    assert b.sweep_presence(lapsed_for=0) == [table.id]
    assert _presence_row(a, table.id) is None
    # A finished table's row is swept whatever its lease.
    assert b.acquire(table.id)
    b.publish_presence({table.id: lambda seq: "{}"})
    with b.store.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE tarneeb_tables SET status = 'finished' WHERE id = :id"),
            {"id": table.id},
        )
    assert a.sweep_presence() == [table.id]


class _Socket:
    """The frames one hub connection is sent, and a wait for the next one that fits."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.new = asyncio.Event()

    async def send(self, text: str) -> None:
        self.frames.append(json.loads(text))
        self.new.set()

    async def wait(self, fits: Any, seconds: float = 10.0) -> dict[str, Any]:
        """The first frame since the last wait that ``fits`` (a predicate)."""
        deadline = asyncio.get_running_loop().time() + seconds
        seen = 0
        while True:
            for frame in self.frames[seen:]:
                seen += 1
                if fits(frame):
                    del self.frames[:seen]
                    return frame
            self.new.clear()
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no such frame; heard {self.frames[-5:]}"
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.new.wait(), left)


def _seat(frame: dict[str, Any], name: str) -> dict[str, Any]:
    state = frame["state"]
    return next(s for s in state["seats"] if s["seat"] == name)


def test_a_spectator_on_another_worker_sees_the_owners_presence_and_reactions(
    two: tuple[Cluster, Cluster],
) -> None:
    """Hub ``a`` plays the table; hub ``b``'s copy of it shows its spectator who is
    connected, the away countdown and every reaction, in the owner's own frames; a burst
    of changes is written once; ``b``'s lobby shows the dots; an expired table's row goes."""
    a, b = two
    settings = Settings(bot_delay=0, presence_delay=0.1)

    async def scenario() -> None:
        owner, other = Hub(a.store, settings, cluster=a), Hub(b.store, settings, cluster=b)
        await owner.startup()
        await other.startup()
        try:
            config = TableConfig(
                seats=("human", "human", "human", "human"), takeover_seconds=3600, public=True
            )
            table, _token = await owner.create(config, "South", Seat.SOUTH)
            for seat in (Seat.EAST, Seat.NORTH, Seat.WEST):
                await owner.change(table.id, lambda t, seat=seat: t.join(seat.name, seat))
            for _ in range(200):  # b copies the table from the log, on the notices
                copy = other.copies.get(table.id)
                if copy is not None and copy.table.seq == owner.live[table.id].table.seq:
                    break
                await asyncio.sleep(0.05)
            watching = _Socket()
            spectator = Connection(table.id, None, watching.send)
            spectator.start()
            await other.connect(spectator, None)
            await watching.wait(lambda f: f["type"] == "welcome")
            # South connects at the owner: b's spectator sees the dot.
            south_socket = _Socket()
            south = Connection(table.id, Seat.SOUTH, south_socket.send)
            south.start()
            await owner.connect(south, None)
            shown = await watching.wait(
                lambda f: f["type"] == "update" and _seat(f, "south")["connected"]
            )
            assert shown["events"] == [] and _seat(shown, "south")["away_deadline"] is None
            assert [t["seats"][0]["connected"] for t in _lobby(other, table.id)] == [True]
            # South leaves: away, with the countdown the owner's frames show.
            await owner.disconnect(south)
            away = await watching.wait(
                lambda f: f["type"] == "update" and not _seat(f, "south")["connected"]
            )
            deadline = owner.live[table.id].table.away_deadlines[Seat.SOUTH]
            assert _seat(away, "south")["away_deadline"] == deadline
            assert [t["seats"][0]["connected"] for t in _lobby(other, table.id)] == [False]
            # Three reactions at once: one row written, each reaction heard once, in order.
            await asyncio.sleep(0.3)
            before = owner.live[table.id].presence_seq
            assert before == other.copies[table.id].presence_seq
            for seat, reaction in ((Seat.EAST, "clap"), (Seat.WEST, "wow"), (Seat.EAST, "oops")):
                await owner.react(table.id, seat, reaction)
            heard = [await watching.wait(lambda f: f["type"] == "reaction") for _ in range(3)]
            assert [(f["seat"], f["reaction"]) for f in heard] == [
                ("east", "clap"),
                ("west", "wow"),
                ("east", "oops"),
            ]
            await asyncio.sleep(0.3)
            assert owner.live[table.id].presence_seq == before + 1  # one write for the burst
            assert not [f for f in watching.frames if f["type"] == "reaction"]  # none twice
            # The spectator leaves b's copy (it was never let go before).
            await other.disconnect(spectator)
            assert not other.copies[table.id].connections
            assert other.copies[table.id].spectators == 0
            # A waiting table that expires: its presence row goes.
            waiting, _ = await owner.create(config, "South", Seat.SOUTH)
            socket = _Socket()
            lone = Connection(waiting.id, Seat.SOUTH, socket.send)
            lone.start()
            await owner.connect(lone, None)
            await owner.disconnect(lone)
            for _ in range(100):
                if _presence_row(a, waiting.id) is not None:
                    break
                await asyncio.sleep(0.05)
            assert _presence_row(a, waiting.id) is not None
            assert await owner.expire_idle(now=owner._clock() + 7200) == [waiting.id]
            for _ in range(100):
                if _presence_row(a, waiting.id) is None:
                    break
                await asyncio.sleep(0.05)
            assert _presence_row(a, waiting.id) is None
        finally:
            await owner.shutdown()
            await other.shutdown()

    asyncio.run(scenario())


def _lobby(hub: Hub, table_id: str) -> list[Any]:
    """The lobby's entry of ``table_id`` as ``hub`` serves it (``GET /api/tables``)."""
    from tarneeb.server.protocol import table_json

    found = [t for t in hub.tables() if t.id == table_id]
    live = hub.live.get(table_id) or hub.copies.get(table_id)
    return [table_json(t, () if live is None else live.connected()) for t in found]
