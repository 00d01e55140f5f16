"""What the HTTP API serves of a table's played deals, and the stored result of a finished table.

A finished table never changes again, so what its API answers is built once,
when its last events are committed, and stored with them
(:meth:`Store.append`); later requests read that result instead of
replaying the table's log. The live table answers the same through the same
functions, so the two cannot disagree.
"""

from __future__ import annotations

from typing import Any

from tarneeb.actions import format_action
from tarneeb.cards import CardSet
from tarneeb.record import format_deal, match_to_record
from tarneeb.seats import SEATS
from tarneeb.server.fairness import commitment
from tarneeb.server.protocol import contract_json, result_json, table_json
from tarneeb.server.table import Table, seat_name

__all__ = [
    "RESULT_VERSION",
    "deal_replay",
    "deal_summary",
    "finished_deals",
    "record_json",
    "table_result",
]

RESULT_VERSION = 1
"""The shape of a stored result; one of another version is built again from the log."""


def finished_deals(table: Table) -> list[int]:
    """The indexes of the deals played to their end."""
    match = table.match
    if match is None:
        return []
    return [i for i, deal in enumerate(match.deals) if deal.is_over()]


def deal_summary(table: Table, index: int) -> dict[str, Any]:
    """A finished deal as ``GET .../deals`` lists it (its seed revealed)."""
    assert table.match is not None
    deal = table.match.deals[index]
    seed = table.seeds[index]
    return {
        "number": index + 1,
        "dealer": seat_name(deal.dealer),
        "text": format_deal(deal),
        "contract": contract_json(deal.contract),
        "result": result_json(deal),
        "seed": seed,
        "commitment": commitment(seed),
    }


def deal_replay(table: Table, index: int) -> dict[str, Any]:
    """A finished deal with its hands and every action (``GET .../deals/N``, no analysis)."""
    assert table.match is not None
    deal = table.match.deals[index]
    body = deal_summary(table, index)
    body["hands"] = {seat_name(s): [str(c) for c in CardSet(deal.dealt[s])] for s in SEATS}
    body["actions"] = [[seat_name(s), format_action(a)] for s, a in deal.history]
    return body


def record_json(table: Table) -> dict[str, Any]:
    """The match record of a finished table."""
    assert table.match is not None
    players = {seat_name(s): table.name_of(s) for s in SEATS}
    return match_to_record(table.match, players)


def table_result(table: Table) -> dict[str, Any]:
    """Everything the API serves of a finished table: stored once, served without a replay."""
    return {
        "version": RESULT_VERSION,
        "table": table_json(table, ()),
        "deals": {str(i + 1): deal_replay(table, i) for i in finished_deals(table)},
        "played": [
            i + 1 for i in finished_deals(table) if table.match and table.match.deals[i].tricks
        ],
        "record": record_json(table),
    }
