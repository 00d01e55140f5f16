"""The tables of players, sessions and ratings, beside the store's tables of games.

They are created the way the store creates its own (``create_all`` adds the
tables a database lacks, and the schema only ever grows by whole tables), on
the store's engine, in SQLite and PostgreSQL alike. A game table is named by
its id only (no foreign key into the store's schema, which is another
``MetaData``): a row here never stops the store from being what it is.

Every secret is kept as a hash: a password and a recovery code as argon2
hashes, a session token as its SHA-256 (it is a random 256-bit value, so a
fast hash is enough to make a stolen database useless for signing in).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine

__all__ = [
    "account_seats",
    "accounts",
    "create_schema",
    "metadata",
    "rated_results",
    "rated_tables",
    "rating_history",
    "ratings",
    "sessions",
]

metadata = sa.MetaData()

accounts = sa.Table(
    "tarneeb_accounts",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(128), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("recovery_hash", sa.String(255), nullable=True),
    sa.Column("created", sa.String(32), nullable=False),
)
"""One row a player: the shown name, its normal form (unique), and the two hashed secrets."""

sessions = sa.Table(
    "tarneeb_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("tarneeb_accounts.id"), nullable=False),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("revoked", sa.String(32), nullable=True),
    sa.Index("ix_tarneeb_sessions_account", "account_id"),
)
"""A signed-in browser: the hash of its cookie; ``revoked`` once signed out (never reused)."""

account_seats = sa.Table(
    "tarneeb_account_seats",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.String(8), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("tarneeb_accounts.id"), nullable=False),
    sa.Column("claimed", sa.String(32), nullable=False),
    sa.Index("ix_tarneeb_account_seats_account", "account_id"),
)
"""Whose a seat of a game table is: one account a seat, for good."""

rated_tables = sa.Table(
    "tarneeb_rated_tables",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("family", sa.String(16), nullable=False),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("state", sa.String(16), nullable=False, index=True),
)
"""The tables that play rated: ``state`` is ``open`` until the match is decided, then
``settled`` (its result rated) or ``void`` (not every seat a signed-in player's)."""

rated_results = sa.Table(
    "tarneeb_rated_results",
    metadata,
    sa.Column("source", sa.String(96), primary_key=True),
    sa.Column("family", sa.String(16), nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
"""Each rated result once (its ``source`` names it: ``table:ID``, an event's set): a result
told twice (a restart, a retry) changes no rating twice."""

ratings = sa.Table(
    "tarneeb_ratings",
    metadata,
    sa.Column("account_id", sa.String(32), sa.ForeignKey("tarneeb_accounts.id"), primary_key=True),
    sa.Column("family", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("ordinal", sa.Float, nullable=False, index=True),
    sa.Column("played", sa.Integer, nullable=False),
    sa.Column("won", sa.Integer, nullable=False),
    sa.Column("updated", sa.String(32), nullable=False),
)

rating_history = sa.Table(
    "tarneeb_rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("tarneeb_accounts.id"), nullable=False),
    sa.Column("family", sa.String(16), nullable=False),
    sa.Column("source", sa.String(96), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("ordinal", sa.Float, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("at", sa.String(32), nullable=False),
    sa.Index("ix_tarneeb_rating_history_account", "account_id", "family"),
)
"""A player's rating after each rated result, for the plot of the profile."""


def create_schema(engine: Engine) -> None:
    """Create the tables ``engine``'s database lacks (as :class:`~tarneeb.server.store.Store`)."""
    metadata.create_all(engine)
