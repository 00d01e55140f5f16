"""The database tables of hosted events, created with the store's own (:class:`~tarneeb.server.store.Store`).

An event is one row (its set-up) and its log of facts, one row a fact, keyed
by ``(event, seq)`` so a fact is never written twice, as a table and its
events are. The facts are what happened (a pair registered, the event
started, a set was seated at a table, a set ended so); the event's state is
rebuilt from them, and each set's play stays in its table's own log.

A partner ticket (a signed-in player's word that whoever holds it may register
them as their partner) is one row of :data:`event_partners`, keyed by the
ticket's hash (never the ticket), with the member it names and when it
expires (wall-clock seconds); the registration that uses it deletes it in the
transaction that stores the pair, so a ticket registers one pair at most.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["EVENT_METADATA", "event_facts", "event_partners", "events"]

EVENT_METADATA = sa.MetaData()

events = sa.Table(
    "tarneeb_hosted_events",
    EVENT_METADATA,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
)

event_facts = sa.Table(
    "tarneeb_hosted_event_facts",
    EVENT_METADATA,
    sa.Column(
        "event_id", sa.String(32), sa.ForeignKey("tarneeb_hosted_events.id"), primary_key=True
    ),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("secret", sa.Text, nullable=True),
)

event_partners = sa.Table(
    "tarneeb_hosted_event_partners",
    EVENT_METADATA,
    sa.Column("ticket_hash", sa.String(64), primary_key=True),
    sa.Column(
        "event_id",
        sa.String(32),
        sa.ForeignKey("tarneeb_hosted_events.id"),
        nullable=False,
        index=True,
    ),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("identity", sa.Text, nullable=False),
    # the hash of the token the ticket's giver holds their seats by (given them with it)
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("expires", sa.Float, nullable=False, index=True),
)
