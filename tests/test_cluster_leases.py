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
