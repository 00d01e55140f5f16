"""Where hosted events live between restarts: their rows in the store's database.

The same database as the tables (:class:`~tarneeb.server.store.Store`), in the
tables of :mod:`.schema`; the work runs in the store's threads. Facts are
appended in one transaction with the event's status, committed before anyone
hears of them, so an event killed mid-way comes back as it was stored.
Partner tickets are rows too (:data:`.schema.event_partners`): one is added
only under a cap of live tickets, and used up in the transaction that appends
the registration it is for (:class:`TicketGone` rolls the registration back
when another took it first or it expired meanwhile).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tarneeb.server.events.model import EventConfig, Fact, HostedEvent, Member
from tarneeb.server.events.schema import event_facts, event_partners, events
from tarneeb.server.store import Store
from tarneeb.server.text import scrub
from tarneeb.server.wire import EventStatus

__all__ = ["EventRecords", "StoredEvent", "TicketGone"]


def _dump(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class TicketGone(Exception):
    """A partner ticket a registration used was gone when it was to be stored (used by
    another registration, or expired): nothing was written."""


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

    def append(
        self,
        event_id: str,
        facts: Sequence[Fact],
        status: EventStatus,
        partners: Sequence[str] = (),
        now: float = 0.0,
    ) -> None:
        """Add ``facts`` to an event's log and set its status, in one transaction, which
        also uses up the partner tickets whose hashes are ``partners`` (tickets of
        ``event_id`` unexpired at ``now``).

        :raises TicketGone: when one of ``partners`` is no such live ticket; nothing is
            written then.
        :raises sqlalchemy.exc.DBAPIError: when the database refuses (a fact written
            twice, say); nothing is written then.
        """
        with self.store.engine.begin() as conn:
            for digest in partners:
                gone = conn.execute(
                    event_partners.delete().where(
                        event_partners.c.ticket_hash == digest,
                        event_partners.c.event_id == event_id,
                        event_partners.c.expires > now,
                    )
                )
                if gone.rowcount != 1:
                    raise TicketGone(digest)
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

    def add_partner(
        self, digest: str, event_id: str, member: Member, expires: float, now: float, cap: int
    ) -> bool:
        """Store a partner ticket (by its hash ``digest``) naming ``member`` until
        ``expires``, after dropping the tickets expired at ``now``; ``False`` (nothing
        stored) when ``cap`` tickets live already."""
        with self.store.engine.begin() as conn:
            conn.execute(event_partners.delete().where(event_partners.c.expires <= now))
            # One live ticket a giver and event: a new link replaces the one made before
            # (whose token the giver's page no longer keeps).
            conn.execute(
                event_partners.delete().where(
                    event_partners.c.event_id == event_id,
                    event_partners.c.identity == (member.identity or ""),
                )
            )
            live = conn.execute(sa.select(sa.func.count()).select_from(event_partners)).scalar()
            if (live or 0) >= cap:
                return False
            conn.execute(
                event_partners.insert().values(
                    ticket_hash=digest,
                    event_id=event_id,
                    name=member.name,
                    identity=member.identity or "",
                    token_hash=member.token_hash,
                    expires=expires,
                )
            )
            return True

    def find_partner(self, digest: str, event_id: str, now: float) -> Member | None:
        """The member the live partner ticket ``digest`` of ``event_id`` names (it stays)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                event_partners.select().where(
                    event_partners.c.ticket_hash == digest,
                    event_partners.c.event_id == event_id,
                    event_partners.c.expires > now,
                )
            ).first()
        if row is None:
            return None
        return Member(row.name, identity=row.identity, token_hash=row.token_hash)

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
