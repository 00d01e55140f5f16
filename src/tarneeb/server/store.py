"""Where tables live between restarts: SQLite by default, PostgreSQL by URL (SQLAlchemy).

A table is one row (its set-up) and its event log, one row an event, keyed
by ``(table, seq)`` so an event can never be written twice. Appending events
is one transaction, committed before anyone hears of them; SQLite runs in
WAL mode, so a committed transaction survives the server being killed.

A finished table also has its result (``tarneeb_results``: what the HTTP API
serves of it, written with its last events), so it is served without
replaying its log. A waiting table nobody used for long is marked
``expired`` and is not brought back by a restart.

The schema only ever grows by whole tables (``create_all`` adds the missing
ones), so a database of any earlier version opens as it is: its finished
tables get their result on first reading.

The server runs the store's work in threads of its own (:meth:`Store.run`),
never on its event loop: one thread for SQLite (which has one writer at a
time anyway), a few for other databases; the changes of different tables
that wait at once are committed together (:meth:`Store.commit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from tarneeb.server.events.schema import EVENT_METADATA
from tarneeb.server.table import Event, Table, TableConfig
from tarneeb.server.text import scrub

__all__ = ["EXPIRED", "FINISHED", "Guard", "StaleWrite", "Store", "StoredTable", "default_db_url"]

T = TypeVar("T")

Change = tuple[str, Sequence[Event], str, "Mapping[str, Any] | None"]
"""One table's change to store: its id, its new events, its status, its result if finished."""
_MAX_GROUP = 500
"""Changes committed in one transaction at most."""

FINISHED = "finished"
EXPIRED = "expired"
"""The status of a waiting table that expired unplayed (never brought back)."""

_metadata = sa.MetaData()

_tables = sa.Table(
    "tarneeb_tables",
    _metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
)

_events = sa.Table(
    "tarneeb_events",
    _metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tarneeb_tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("secret", sa.Text, nullable=True),
)

_results = sa.Table(
    "tarneeb_results",
    _metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tarneeb_tables.id"), primary_key=True),
    sa.Column("data", sa.Text, nullable=False),
)
"""A finished table's result, as the API serves it (see :mod:`tarneeb.server.results`)."""


_leases = sa.Table(
    "tarneeb_leases",
    _metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False, index=True),
    sa.Column("address", sa.String(256), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
)
"""Which worker plays each table, till when, and the last event it wrote (see
:mod:`tarneeb.server.cluster`; a single process, as on SQLite, has no rows here)."""

_presence = sa.Table(
    "tarneeb_presence",
    _metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.BigInteger, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)
"""Who is at each table now, as its owner sees it: the seats connected, the away
countdowns, the turn deadline, the last reactions (JSON, see
:meth:`tarneeb.server.cluster.Cluster.publish_presence`); ``seq`` from the sequence
``tarneeb_presence_seq``, so it only grows, whoever writes it. Not the log: said, not
played; a single process has no rows here."""

sa.Sequence("tarneeb_presence_seq", metadata=_metadata)


class StaleWrite(Exception):
    """A change refused because another worker plays the table now: nothing was written."""

    def __init__(self, table_ids: Sequence[str]) -> None:
        super().__init__(f"tables {', '.join(table_ids)} are played by another worker now")
        self.table_ids = tuple(table_ids)


class Guard(Protocol):
    """What a store of many workers checks in the transaction of each write
    (:class:`tarneeb.server.cluster.Cluster`)."""

    def created(self, conn: sa.Connection, table: Table) -> None:
        """Take the new table's lease (in the transaction that stores it)."""

    def appended(self, cursor: Any, marker: str, changes: Sequence[Change]) -> None:
        """Check and move on the lease of each change's table, in the transaction
        that writes them.

        :raises StaleWrite: when another worker plays any of them now.
        """


_MARKERS = {"qmark": "?", "format": "%s", "pyformat": "%s"}
"""The parameter marker of each DB-API parameter style :meth:`Store.append` writes itself."""


def default_db_url() -> str:
    """A SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("tarneeb", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.db'}"


@dataclass(frozen=True)
class StoredTable:
    id: str
    created: str
    config: TableConfig
    status: str
    events: tuple[Event, ...]

    def restore(self) -> Table:
        return Table.restore(self.id, self.config, self.created, self.events)


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class Store:
    """The database of tables and their event logs."""

    def __init__(self, url: str, threads: int = 4) -> None:
        self.url = url
        parsed = sa.engine.make_url(url)
        sqlite = parsed.get_backend_name() == "sqlite"
        options: dict[str, Any] = {}
        if sqlite and parsed.database in (None, "", ":memory:"):
            # One in-memory database, shared by the store's thread and the caller's.
            options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif not sqlite:
            options = {"pool_pre_ping": True}  # a killed backend is found before its use
            if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
                # A database that does not answer fails a commit in seconds, not minutes.
                options["connect_args"] = {"connect_timeout": 10}
        self.engine: Engine = sa.create_engine(url, future=True, **options)
        if sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        for schema in (_metadata, EVENT_METADATA):  # the tables', then the hosted events'
            schema.create_all(self.engine)
        self._queue: list[tuple[Change, asyncio.Future[None], asyncio.AbstractEventLoop]] = []
        self._queue_lock = threading.Lock()
        self._draining = False
        self._executor = ThreadPoolExecutor(
            max_workers=1 if sqlite else max(1, threads), thread_name_prefix="tarneeb-store"
        )
        self.guard: Guard | None = None
        """Set by a worker of many (:mod:`.cluster`): every write checks its lease."""

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a thread of the store, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)

    def ping(self) -> None:
        """Write nothing: raises when the database does not answer, is locked or read-only."""
        with self.engine.begin() as conn:
            conn.execute(_tables.update().where(sa.false()).values(status="waiting"))

    def create(self, table: Table) -> None:
        """Store a new table with the events it has."""
        with self.engine.begin() as conn:
            conn.execute(
                _tables.insert().values(
                    id=table.id,
                    created=table.created,
                    config=_dump(table.config.to_dict()),
                    status=table.status,
                )
            )
            self._insert(conn, table.id, table.events)
            if self.guard is not None:
                self.guard.created(conn, table)

    def append(
        self,
        table_id: str,
        events: Sequence[Event],
        status: str,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        """Add ``events`` to a table's log and set its status, in one transaction.

        ``result``, the result of a table these events finish, is written in
        the same transaction.

        :raises sqlalchemy.exc.DBAPIError: (such as ``IntegrityError`` for an
            event written twice) when the database refuses; nothing is written then.
        """
        self.append_many([(table_id, events, status, result)])

    def append_many(self, changes: Sequence[Change]) -> None:
        """:meth:`append` of several changes (of different tables), in one transaction.

        This runs for every action, so where the driver's parameter style is
        known (SQLite, psycopg) it goes straight to the driver: the same
        statements in one transaction, without SQLAlchemy's per-statement work
        (a quarter of the time).

        :raises sqlalchemy.exc.DBAPIError: when the database refuses; nothing is written then.
        """
        marker = _MARKERS.get(self.engine.dialect.paramstyle)
        if marker is None:
            if self.guard is not None:
                raise ValueError(f"many workers need psycopg, not {self.engine.dialect.driver}")
            with self.engine.begin() as conn:
                for table_id, events, status, result in changes:
                    self._insert(conn, table_id, events)
                    conn.execute(
                        _tables.update().where(_tables.c.id == table_id).values(status=status)
                    )
                    if result is not None:
                        conn.execute(
                            _results.insert().values(table_id=table_id, data=_dump(result))
                        )
            return
        insert = (
            f"INSERT INTO {_events.name} (table_id, seq, kind, data, secret) "
            f"VALUES ({marker}, {marker}, {marker}, {marker}, {marker})"
        )
        update = f"UPDATE {_tables.name} SET status = {marker} WHERE id = {marker}"
        rows = [
            (
                table_id,
                e.seq,
                e.kind,
                _dump(dict(e.data)),
                None if e.secret is None else _dump(dict(e.secret)),
            )
            for table_id, events, _status, _result in changes
            for e in events
        ]
        statuses = [(status, table_id) for table_id, _events, status, _result in changes]
        results = [
            (table_id, _dump(result))
            for table_id, _events, _status, result in changes
            if result is not None
        ]
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                if rows:
                    cursor.executemany(insert, rows)
                cursor.executemany(update, statuses)
                if results:
                    cursor.executemany(
                        f"INSERT INTO {_results.name} (table_id, data) VALUES ({marker}, {marker})",
                        results,
                    )
                if self.guard is not None:
                    self.guard.appended(cursor, marker, changes)
            finally:
                cursor.close()
            raw.commit()
        except dbapi_error as exc:
            with contextlib.suppress(Exception):
                raw.rollback()
            # Never hand this connection out again: it may be dead (a killed backend) or
            # opened read-only; the pool opens a new one for the next commit.
            with contextlib.suppress(Exception):
                raw.invalidate()
            raise sa.exc.DBAPIError.instance(insert, rows, exc, dbapi_error) from exc
        except BaseException:
            with contextlib.suppress(Exception):
                raw.rollback()
            raise
        finally:
            raw.close()  # back to the pool

    async def commit(
        self,
        table_id: str,
        events: Sequence[Event],
        status: str,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        """:meth:`append`, in the store's thread, grouped with the commits of other tables
        that wait meanwhile (one transaction for them all: under load, many actions
        cost one commit, not one each).

        Should the group be refused for its data (an event written twice, say),
        each change of it is tried alone, so one table's fault is its own; a
        database that refuses everything (locked, full, down) fails them all.

        :raises Exception: what :meth:`append` raises for this change.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._queue_lock:
            self._queue.append(((table_id, list(events), status, result), done, loop))
            start = not self._draining
            self._draining = True
        if start:
            self._executor.submit(self._drain)
        await done

    def _drain(self) -> None:
        """Commit every change that waits, in groups, until none does (in the store's thread)."""
        while True:
            with self._queue_lock:
                if not self._queue:
                    self._draining = False
                    return
                group = self._queue[:_MAX_GROUP]
                del self._queue[:_MAX_GROUP]
            outcomes: list[BaseException | None]
            try:
                self.append_many([change for change, _done, _loop in group])
                outcomes = [None] * len(group)
            except (sa.exc.IntegrityError, StaleWrite):
                outcomes = []
                for change, _done, _loop in group:
                    try:
                        self.append_many([change])
                        outcomes.append(None)
                    except Exception as exc:
                        outcomes.append(exc)
            except Exception as exc:
                outcomes = [exc] * len(group)
            for (_change, done, loop), outcome in zip(group, outcomes, strict=True):
                with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
                    loop.call_soon_threadsafe(_settle, done, outcome)

    @staticmethod
    def _insert(conn: sa.Connection, table_id: str, events: Sequence[Event]) -> None:
        if events:
            conn.execute(
                _events.insert(),
                [
                    {
                        "table_id": table_id,
                        "seq": e.seq,
                        "kind": e.kind,
                        "data": _dump(dict(e.data)),
                        "secret": None if e.secret is None else _dump(dict(e.secret)),
                    }
                    for e in events
                ],
            )

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(_tables.select().where(_tables.c.id == table_id)).first()
            if row is None:
                return None
            return self._stored(conn, row)

    def events_since(self, table_id: str, seq: int) -> list[Event]:
        """The events of a table's log after its event ``seq``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                _events.select()
                .where(_events.c.table_id == table_id, _events.c.seq > seq)
                .order_by(_events.c.seq)
            ).all()
        return [_event(e) for e in rows]

    def load_unfinished(self) -> list[StoredTable]:
        """Every table whose match has not ended (nor expired), to bring back after a restart."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                _tables.select()
                .where(_tables.c.status.not_in([FINISHED, EXPIRED]))
                .order_by(_tables.c.created)
            ).all()
            return [self._stored(conn, row) for row in rows]

    def status(self, table_id: str) -> str | None:
        """A table's stored status, ``None`` for no such table."""
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(_tables.c.status).where(_tables.c.id == table_id)
            ).scalar_one_or_none()
            return None if found is None else str(found)

    def expire(self, table_id: str) -> bool:
        """Mark a waiting table expired; whether it was still waiting."""
        with self.engine.begin() as conn:
            done = conn.execute(
                _tables.update()
                .where(_tables.c.id == table_id, _tables.c.status == "waiting")
                .values(status=EXPIRED)
            )
            return bool(done.rowcount)

    def load_result(self, table_id: str) -> dict[str, Any] | None:
        """A finished table's stored result, ``None`` when it has none (yet)."""
        with self.engine.connect() as conn:
            data = conn.execute(
                sa.select(_results.c.data).where(_results.c.table_id == table_id)
            ).scalar_one_or_none()
        if data is None:
            return None
        result: dict[str, Any] = json.loads(data)
        return result

    def save_result(self, table_id: str, result: Mapping[str, Any]) -> None:
        """Store the result of a table finished before results were stored (once), or
        in place of a stored one of another ``version`` (built by an earlier server).

        Of two saves of the same version, the first one stays.
        """
        with contextlib.suppress(sa.exc.IntegrityError), self.engine.begin() as conn:
            conn.execute(_results.insert().values(table_id=table_id, data=_dump(result)))
            return
        stored = self.load_result(table_id)
        if stored is not None and stored.get("version") != result.get("version"):
            with self.engine.begin() as conn:
                conn.execute(
                    _results.update()
                    .where(_results.c.table_id == table_id)
                    .values(data=_dump(result))
                )

    def _stored(self, conn: sa.Connection, row: sa.Row[Any]) -> StoredTable:
        events = conn.execute(
            _events.select().where(_events.c.table_id == row.id).order_by(_events.c.seq)
        ).all()
        return StoredTable(
            row.id,
            row.created,
            TableConfig.load(scrub(json.loads(row.config))),
            row.status,
            tuple(_event(e) for e in events),
        )


def _event(row: sa.Row[Any]) -> Event:
    return Event(
        row.seq,
        row.kind,
        scrub(json.loads(row.data)),  # text stored before the edge checked it
        None if row.secret is None else json.loads(row.secret),
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit survives the process being killed (not power loss).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    if done.done():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)
