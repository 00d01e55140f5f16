"""Where hosted events live between restarts: their rows in the store's database.

The same database as the tables (:class:`~tarneeb.server.store.Store`), in the
tables of :mod:`.schema`; the work runs in the store's threads. Facts are
appended in one transaction with the event's status, committed before anyone
hears of them, so an event killed mid-way comes back as it was stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tarneeb.server.events.model import EventConfig, Fact, HostedEvent
from tarneeb.server.events.schema import event_facts, events
from tarneeb.server.store import Store
from tarneeb.server.text import scrub
from tarneeb.server.wire import EventStatus

__all__ = ["EventRecords", "StoredEvent"]


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class StoredEvent:
    id: str
    created: str
    config: EventConfig
    status: str
    facts: tuple[Fact, ...]

    def restore(self) -> HostedEvent:
        return HostedEvent.restore(self.id, self.config, self.created, self.facts)


class EventRecords:
    """The events of a :class:`Store`'s database (call these in its threads: :meth:`Store.run`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, event: HostedEvent) -> None:
        """Store a new event with the facts it has."""
        with self.store.engine.begin() as conn:
            conn.execute(
                events.insert().values(
                    id=event.id,
                    created=event.created,
                    config=_dump(event.config.to_dict()),
                    status=event.status.value,
                )
            )
            self._insert(conn, event.id, event.facts)

    def append(self, event_id: str, facts: Sequence[Fact], status: EventStatus) -> None:
        """Add ``facts`` to an event's log and set its status, in one transaction.

        :raises sqlalchemy.exc.DBAPIError: when the database refuses (a fact written
            twice, say); nothing is written then.
        """
        with self.store.engine.begin() as conn:
            self._insert(conn, event_id, facts)
            conn.execute(events.update().where(events.c.id == event_id).values(status=status.value))

    @staticmethod
    def _insert(conn: sa.Connection, event_id: str, facts: Sequence[Fact]) -> None:
        if facts:
            conn.execute(
                event_facts.insert(),
                [
                    {
                        "event_id": event_id,
                        "seq": f.seq,
                        "kind": f.kind.value,
                        "data": _dump(dict(f.data)),
                        "secret": None if f.secret is None else _dump(dict(f.secret)),
                    }
                    for f in facts
                ],
            )

    def load(self, event_id: str) -> StoredEvent | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(events.select().where(events.c.id == event_id)).first()
            return None if row is None else self._stored(conn, row)

    def load_recent(self, finished: int) -> list[StoredEvent]:
        """Every event not finished, and the ``finished`` that finished last (by creation)."""
        with self.store.engine.connect() as conn:
            rows = list(
                conn.execute(
                    events.select()
                    .where(events.c.status != EventStatus.FINISHED.value)
                    .order_by(events.c.created)
                ).all()
            )
            rows += conn.execute(
                events.select()
                .where(events.c.status == EventStatus.FINISHED.value)
                .order_by(events.c.created.desc())
                .limit(finished)
            ).all()
            return [self._stored(conn, row) for row in rows]

    @staticmethod
    def _stored(conn: sa.Connection, row: sa.Row[Any]) -> StoredEvent:
        facts = conn.execute(
            event_facts.select().where(event_facts.c.event_id == row.id).order_by(event_facts.c.seq)
        ).all()
        return StoredEvent(
            row.id,
            row.created,
            EventConfig.from_dict(json.loads(row.config)),
            row.status,
            tuple(
                Fact(
                    f.seq,
                    f.kind,
                    scrub(json.loads(f.data)),
                    None if f.secret is None else json.loads(f.secret),
                )
                for f in facts
            ),
        )
