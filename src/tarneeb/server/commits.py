"""How the hub stands with its database: failed commits, their retries, and the health it reports.

Every change to a table is stored before anyone hears of it (see
:mod:`tarneeb.server.hub`). When the database refuses (a locked SQLite
file, a full disk, a killed PostgreSQL backend, ...), :class:`DatabaseHealth`
notes it and logs it, in one line with the driver's own message and never
the statement or its values; :func:`retry` tries a change the server makes
itself again, with a doubling pause up to a cap, until it is stored or
refused for good; :meth:`DatabaseHealth.report` is ``Hub.health()``, whose
``status`` ``/readyz`` serves as its ``tables`` check.

>>> health = DatabaseHealth()
>>> health.report()
{'status': 'ok', 'tables_pending': 0, 'last_error': None}
>>> health.failed("t1", "an action", OSError("database or disk is full"))
>>> health.report()
{'status': 'degraded', 'tables_pending': 0, 'last_error': 'OSError: database or disk is full'}
>>> health.stored()
>>> health.report()["status"]
'ok'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from tarneeb.server.table import ErrorCode, ServerError

__all__ = ["MOVED_ON", "DatabaseHealth", "not_stored", "retry", "short_error"]

_log = logging.getLogger("tarneeb.server.hub")

MOVED_ON = frozenset(
    {ErrorCode.STALE, ErrorCode.CONFLICT, ErrorCode.GAME_OVER, ErrorCode.NOT_YOUR_TURN}
)
"""What refuses a server-made change when the table moved on before it came (no warning)."""


def short_error(exc: BaseException) -> str:
    """What the database answered, in one short line: the driver's error, without the statement.

    >>> short_error(ValueError("bad\\nSQL: INSERT ..."))
    'ValueError: bad'
    """
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    text = f"{type(orig).__name__}: {lines[0]}" if lines else type(orig).__name__
    return text[:200]


def not_stored(exc: BaseException) -> ServerError:
    """The error of a change the database did not take (nothing changed), ``exc`` what it
    said: an ``internal`` error, whose message goes to the log under its reference
    only (:func:`.edge.public_error`), never to the client.

    >>> not_stored(OSError("database or disk is full")).message
    'the server could not store this change, so nothing changed (OSError: database or disk is full)'
    """
    return ServerError(
        ErrorCode.INTERNAL,
        f"the server could not store this change, so nothing changed ({short_error(exc)})",
    )


class DatabaseHealth:
    """Whether the last write failed, what it said, and which tables wait for the database."""

    def __init__(self) -> None:
        self.failing = False
        self.last_error: str | None = None
        self.pending: dict[str, int] = {}
        """Table id -> server-made changes of it waiting for the database."""

    def report(self) -> dict[str, Any]:
        """``ok``, or ``degraded`` while writes fail or a table waits for the database.

        ``tables_pending`` counts the tables whose bot, turn timer or takeover
        waits to be stored; ``last_error`` says shortly what the database
        answered (never a statement or its values), while degraded.
        """
        degraded = self.failing or bool(self.pending)
        return {
            "status": "degraded" if degraded else "ok",
            "tables_pending": len(self.pending),
            "last_error": self.last_error if degraded else None,
        }

    def failed(self, table_id: str, what: str, exc: BaseException) -> None:
        self.failing = True
        self.last_error = short_error(exc)
        _log.error("table %s: could not store %s: %s", table_id, what, self.last_error)

    def unreadable(self, what: str, exc: BaseException) -> ServerError:
        """Note a failed read; the error to answer with."""
        self.last_error = short_error(exc)
        _log.error("could not read %s: %s", what, self.last_error)
        return ServerError(
            ErrorCode.INTERNAL, f"the server cannot read its database now ({self.last_error})"
        )

    def stored(self) -> None:
        if self.failing:
            _log.warning("the database takes changes again")
        self.failing = False

    def wait(self, table_id: str) -> None:
        self.pending[table_id] = self.pending.get(table_id, 0) + 1

    def done(self, table_id: str) -> None:
        left = self.pending.get(table_id, 1) - 1
        if left > 0:
            self.pending[table_id] = left
        else:
            self.pending.pop(table_id, None)


async def retry(
    change: Callable[[], Awaitable[Any]],
    health: DatabaseHealth,
    table_id: str,
    what: str,
    first: float,
    most: float,
) -> None:
    """Run ``change`` (a change the server makes itself) until it is stored or refused.

    A refusal for a reason of the table (it moved on, say) ends it; while the
    database does not take it (``internal``), it is tried again after
    ``first`` seconds, doubled each time up to ``most``, the table counted
    pending in ``health`` meanwhile.
    """
    delay = first
    tries = 0
    try:
        while True:
            try:
                await change()
            except ServerError as exc:
                if exc.code is not ErrorCode.INTERNAL:
                    if exc.code not in MOVED_ON:
                        _log.warning("table %s: %s refused: %s", table_id, what, exc.message)
                    return
            else:
                if tries:
                    _log.warning("table %s: %s stored after %d tries", table_id, what, tries + 1)
                return
            if not tries:
                health.wait(table_id)
            tries += 1
            _log.warning(
                "table %s: %s waits for the database, again in %.2f s", table_id, what, delay
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, most)
    finally:
        if tries:
            health.done(table_id)
