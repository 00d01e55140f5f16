"""Ratings: one ladder per game family, updated by ``openskill`` from rated results.

The model is openskill's :class:`~openskill.models.PlackettLuce` (its default,
built for teams of several players): a player's skill is a normal
distribution (``mu``, ``sigma``), and the leaderboard orders players by the
conservative estimate ``mu - 3 sigma`` (openskill's ``ordinal``).

A **family** is what a rating measures, read from the rules' options (never
from a preset's name): where every player bids alone (``bidding=individual``,
Syrian 400) is one, where bids name their strain (``bidding=strains``,
Egyptian) another, and every other partnership auction the third.

:func:`record_result` is the one way a rating changes: a rated table's end
(:mod:`.service`) and a tournament's set alike call it, naming the result
by a ``source`` of their own; a source is rated once, so a result told
again (after a restart, a retry) changes nothing.

>>> from tarneeb.presets import find_rules
>>> [family_of(find_rules(n)).value for n in ("classic", "tarneeb400", "egyptian", "syrian400")]
['partnership', 'partnership', 'egyptian', 'solo']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.engine import Engine

from tarneeb.options import Bidding
from tarneeb.rules import Rules
from tarneeb.server.players import schema
from tarneeb.server.players.accounts import now
from tarneeb.server.store import Store
from tarneeb.server.wire import (
    ErrorCode,
    Family,
    LeaderboardRowJson,
    RatingJson,
    RatingPointJson,
    ServerError,
)

__all__ = [
    "MODEL",
    "Family",
    "Rating",
    "family_of",
    "leaderboard",
    "parse_family",
    "rating_of",
    "record_result",
    "record_result_now",
]

_TRIES = 8
"""Tries of a result that meets unique-key refusals from results told at the same time."""

MODEL = PlackettLuce()
"""The rating model (openskill's defaults: mu 25, sigma 25/3)."""


def family_of(rules: Rules) -> Family:
    """The family of a match played by ``rules`` (by its bidding option)."""
    if rules.bidding is Bidding.INDIVIDUAL:
        return Family.SOLO
    if rules.bidding is Bidding.STRAINS:
        return Family.EGYPTIAN
    return Family.PARTNERSHIP


def parse_family(value: object) -> Family:
    """:raises ServerError: ``malformed`` for no such family."""
    try:
        return Family(value)
    except ValueError:
        known = ", ".join(f.value for f in Family)
        raise ServerError(ErrorCode.MALFORMED, f"a ladder is one of: {known}") from None


@dataclass(frozen=True)
class Rating:
    """A player's rating on one ladder."""

    mu: float
    sigma: float
    played: int = 0
    won: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard orders by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> RatingJson:
        return RatingJson(
            mu=round(self.mu, 4),
            sigma=round(self.sigma, 4),
            ordinal=round(self.ordinal, 4),
            played=self.played,
            won=self.won,
        )


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


def _ratings(conn: sa.Connection, family: Family, ids: Sequence[str]) -> dict[str, Rating]:
    table = schema.ratings
    query = (
        sa.select(table.c.account_id, table.c.mu, table.c.sigma, table.c.played, table.c.won)
        .where(table.c.family == family.value, table.c.account_id.in_(list(ids)))
        .order_by(table.c.account_id)
        .with_for_update()  # PostgreSQL: two results of one player are rated one after the other
    )
    return {
        row.account_id: Rating(row.mu, row.sigma, row.played, row.won)
        for row in conn.execute(query)
    }


def record_result_now(
    engine: Engine,
    family: Family,
    teams: Sequence[Sequence[str]],
    winner: int,
    source: str,
    detail: dict[str, Any] | None = None,
) -> dict[str, tuple[Rating, Rating]] | None:
    """:func:`record_result` in this thread (a thread of the store).

    Returns each player's rating before and after, or ``None`` when ``source``
    was rated already (nothing changes then).
    """
    ids = [player for team in teams for player in team]
    if len(teams) != 2 or not all(teams) or len(set(ids)) != len(ids) or winner not in (0, 1):
        raise ServerError(
            ErrorCode.MALFORMED, "a rated result is two teams of distinct players and a winner"
        )
    if not 0 < len(source) <= 96:
        raise ServerError(ErrorCode.MALFORMED, "a rated result's source is 1 to 96 characters")
    at = now()
    data = {"teams": [list(t) for t in teams], "winner": winner, **(detail or {})}
    with engine.begin() as conn:
        done = conn.execute(
            sa.select(schema.rated_results.c.source).where(schema.rated_results.c.source == source)
        ).first()
        if done is not None:
            return None
        # Two tellings at once: the second insert is refused, and its retry finds this one.
        conn.execute(
            schema.rated_results.insert().values(
                source=source, family=family.value, at=at, data=json.dumps(data)
            )
        )
        before = _ratings(conn, family, ids)
        model = [
            [MODEL.rating(mu=r.mu, sigma=r.sigma) for r in (before.get(p, DEFAULT) for p in team)]
            for team in teams
        ]
        ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
        rated = MODEL.rate(model, ranks=ranks)
        changes: dict[str, tuple[Rating, Rating]] = {}
        for index, (team, new) in enumerate(zip(teams, rated, strict=True)):
            won = index == winner
            for player, rating in zip(team, new, strict=True):
                old = before.get(player, DEFAULT)
                after = Rating(rating.mu, rating.sigma, old.played + 1, old.won + int(won))
                changes[player] = (old, after)
                values = {
                    "mu": after.mu,
                    "sigma": after.sigma,
                    "ordinal": after.ordinal,
                    "played": after.played,
                    "won": after.won,
                    "updated": at,
                }
                if player in before:
                    conn.execute(
                        schema.ratings.update()
                        .where(
                            schema.ratings.c.account_id == player,
                            schema.ratings.c.family == family.value,
                        )
                        .values(**values)
                    )
                else:
                    conn.execute(
                        schema.ratings.insert().values(
                            account_id=player, family=family.value, **values
                        )
                    )
                conn.execute(
                    schema.rating_history.insert().values(
                        account_id=player,
                        family=family.value,
                        source=source,
                        mu=after.mu,
                        sigma=after.sigma,
                        ordinal=after.ordinal,
                        won=won,
                        at=at,
                    )
                )
    return changes


async def record_result(
    store: Store,
    family: Family,
    teams: Sequence[Sequence[str]],
    winner: int,
    source: str,
    detail: dict[str, Any] | None = None,
) -> dict[str, tuple[Rating, Rating]] | None:
    """Rate a result: ``teams`` are two lists of account ids (:attr:`Player.id`),
    ``winner`` the index of the team that won, ``source`` the result's own name
    (``table:ID``, ``event:ID:set:3``), rated once.

    Returns each player's rating before and after, or ``None`` when ``source`` was
    rated already. A PostgreSQL store rates two results of the same player one after
    the other (the rows are locked); a result told twice at once, or a concurrent
    first rating of a new player (no row to lock yet), meets a unique-key refusal and
    is tried again (each refusal means another result committed).

    :raises ServerError: ``malformed`` for teams that are not two teams of distinct players.
    """
    for _attempt in range(_TRIES - 1):
        try:
            return await store.run(
                record_result_now, store.engine, family, teams, winner, source, detail
            )
        except sa.exc.IntegrityError:
            continue  # another result committed meanwhile: read again, from what it wrote
    return await store.run(record_result_now, store.engine, family, teams, winner, source, detail)


def rating_of(engine: Engine, account: str) -> dict[Family, Rating]:
    """A player's rating on each ladder they played on."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(schema.ratings).where(schema.ratings.c.account_id == account)
        ).all()
    return {Family(row.family): Rating(row.mu, row.sigma, row.played, row.won) for row in rows}


def ordinals(engine: Engine, family: Family, ids: Sequence[str]) -> dict[str, float]:
    """The ordinal of each of ``ids`` on ``family``'s ladder (a new player's: the model's)."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(schema.ratings.c.account_id, schema.ratings.c.ordinal).where(
                schema.ratings.c.family == family.value,
                schema.ratings.c.account_id.in_(list(ids)),
            )
        ).all()
    found = {row.account_id: row.ordinal for row in rows}
    return {i: found.get(i, DEFAULT.ordinal) for i in ids}


def leaderboard(engine: Engine, family: Family, limit: int = 100) -> list[LeaderboardRowJson]:
    """The ladder of ``family``: best conservative estimate first (ties: more played, name)."""
    query = (
        sa.select(
            schema.accounts.c.name,
            schema.ratings.c.mu,
            schema.ratings.c.sigma,
            schema.ratings.c.played,
            schema.ratings.c.won,
        )
        .join(schema.accounts, schema.accounts.c.id == schema.ratings.c.account_id)
        .where(schema.ratings.c.family == family.value)
        .order_by(
            schema.ratings.c.ordinal.desc(),
            schema.ratings.c.played.desc(),
            schema.accounts.c.name_key,
        )
        .limit(limit)
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        LeaderboardRowJson(
            rank=i + 1, name=row.name, **Rating(row.mu, row.sigma, row.played, row.won).to_json()
        )
        for i, row in enumerate(rows)
    ]


def history(engine: Engine, account: str, limit: int = 200) -> list[RatingPointJson]:
    """A player's rating after each rated result, oldest first, by ladder."""
    table = schema.rating_history
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(table)
            .where(table.c.account_id == account)
            .order_by(table.c.id.desc())
            .limit(limit)
        ).all()
    return [
        RatingPointJson(
            family=Family(row.family),
            source=row.source,
            at=row.at,
            won=bool(row.won),
            mu=round(row.mu, 4),
            sigma=round(row.sigma, 4),
            ordinal=round(row.ordinal, 4),
        )
        for row in reversed(rows)
    ]
