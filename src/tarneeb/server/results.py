"""What the HTTP API serves of a table's played deals, and the stored result of a finished table.

A finished table never changes again, so what its API answers is built once,
when its last events are committed, and stored with them
(:meth:`Store.append`); later requests read that result instead of
replaying the table's log. The live table answers the same through the same
builders (:mod:`tarneeb.server.protocol`), so the two cannot disagree.
"""

from __future__ import annotations

from typing import Any

from tarneeb.record import match_to_record
from tarneeb.seats import SEATS
from tarneeb.server.protocol import replay_body, table_json
from tarneeb.server.table import Table, seat_name

__all__ = [
    "RESULT_VERSION",
    "deals_result",
    "finished_deals",
    "record_json",
    "table_result",
]

RESULT_VERSION = 2
"""The shape of a stored result; one of another version is built again from the log.
(2: the replays of protocol 2, with the auction and the tricks instead of the actions.)"""


def finished_deals(table: Table) -> list[int]:
    """The indexes of the deals played to their end."""
    match = table.match
    if match is None:
        return []
    return [i for i, deal in enumerate(match.deals) if deal.is_over()]


def deals_result(table: Table) -> dict[str, Any]:
    """The finished deals of ``table``: ``deals``, each deal's ``REPLAY`` (no analysis) by
    its number as text, and ``played``, the numbers of those with a trick to analyse."""
    done = finished_deals(table)
    match = table.match
    return {
        "deals": {str(i + 1): replay_body(table, i) for i in done},
        "played": [i + 1 for i in done if match is not None and match.deals[i].tricks],
    }


def record_json(table: Table) -> dict[str, Any]:
    """The match record of a finished table."""
    assert table.match is not None
    players: dict[str, str] = {seat_name(s): table.name_of(s) for s in SEATS}
    return match_to_record(table.match, players)


def table_result(table: Table) -> dict[str, Any]:
    """Everything the API serves of a finished table: stored once, served without a replay."""
    return {
        "version": RESULT_VERSION,
        "table": table_json(table, ()),
        **deals_result(table),
        "record": record_json(table),
    }
