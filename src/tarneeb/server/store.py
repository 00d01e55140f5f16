"""Where tables live between restarts: SQLite by default, PostgreSQL by URL (SQLAlchemy).

A table is one row (its set-up) and its event log, one row an event, keyed
by ``(table, seq)`` so an event can never be written twice. Appending events
is one transaction, committed before anyone hears of them; SQLite runs in
WAL mode, so a committed transaction survives the server being killed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tarneeb.server.table import Event, Table, TableConfig
from tarneeb.server.text import scrub

__all__ = ["Store", "StoredTable", "default_db_url"]

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

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = sa.create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        _metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

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

    def append(self, table_id: str, events: Sequence[Event], status: str) -> None:
        """Add ``events`` to a table's log and set its status, in one transaction.

        This runs for every action, so where the driver's parameter style is
        known (SQLite, psycopg) it goes straight to the driver: the same two
        statements in one transaction, without SQLAlchemy's per-statement work
        (a quarter of the time).

        :raises sqlalchemy.exc.DBAPIError: (such as ``IntegrityError`` for an
            event written twice) when the database refuses; nothing is written then.
        """
        marker = _MARKERS.get(self.engine.dialect.paramstyle)
        if marker is None:
            with self.engine.begin() as conn:
                self._insert(conn, table_id, events)
                conn.execute(_tables.update().where(_tables.c.id == table_id).values(status=status))
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
            for e in events
        ]
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                if rows:
                    cursor.executemany(insert, rows)
                cursor.execute(update, (status, table_id))
            finally:
                cursor.close()
            raw.commit()
        except dbapi_error as exc:
            with contextlib.suppress(Exception):
                raw.rollback()
            raise sa.exc.DBAPIError.instance(insert, rows, exc, dbapi_error) from exc
        except BaseException:
            with contextlib.suppress(Exception):
                raw.rollback()
            raise
        finally:
            raw.close()  # back to the pool

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

    def load_unfinished(self) -> list[StoredTable]:
        """Every table whose match has not ended, to bring back after a restart."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                _tables.select().where(_tables.c.status != "finished").order_by(_tables.c.created)
            ).all()
            return [self._stored(conn, row) for row in rows]

    def _stored(self, conn: sa.Connection, row: sa.Row[Any]) -> StoredTable:
        events = conn.execute(
            _events.select().where(_events.c.table_id == row.id).order_by(_events.c.seq)
        ).all()
        return StoredTable(
            row.id,
            row.created,
            TableConfig.load(scrub(json.loads(row.config))),
            row.status,
            tuple(
                Event(
                    e.seq,
                    e.kind,
                    scrub(json.loads(e.data)),  # text stored before the edge checked it
                    None if e.secret is None else json.loads(e.secret),
                )
                for e in events
            ),
        )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit survives the process being killed (not power loss).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
