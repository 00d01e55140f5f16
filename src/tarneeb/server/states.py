"""The table as each connection may see it: ``TABLE``, ``STATE`` and its ``match``.

Every state a seat receives is built from that seat's :class:`View`: its own
hand, and the legal actions only on its turn. A spectator's state holds no
hand at all. Nothing here ever reads another seat's cards. (The frames and
bodies that carry these are built in :mod:`tarneeb.server.protocol`.)

>>> from tarneeb.server.table import Table, TableConfig
>>> table = Table.new("t1", TableConfig(seats=("human", "bot:random", "bot:random", "bot:random")))
>>> _ = table.join("Layla", Seat.SOUTH)
>>> state = state_json(table, Seat.SOUTH)
>>> len(state["match"]["hand"]), state_json(table, None)["match"]["hand"]
(13, [])
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Sequence
from typing import cast

from tarneeb.actions import Phase
from tarneeb.cards import Card, Suit
from tarneeb.seats import SEATS, Seat
from tarneeb.server.config import custom_options
from tarneeb.server.fairness import commitment
from tarneeb.server.sheet import progress_json
from tarneeb.server.table import Table
from tarneeb.server.wire import (
    ActionJson,
    AuctionJson,
    CallJson,
    MatchJson,
    RematchJson,
    SeatJson,
    SeatKind,
    Side,
    StateJson,
    TableJson,
    action_json,
    call_json,
    contract_json,
    counts_card_points,
    level_of,
    seat_name,
    side_name,
    suit_letter,
    trick_json,
)
from tarneeb.view import View

__all__ = ["state_json", "states_json", "table_json"]


def _seats_json(table: Table, connected: Collection[Seat]) -> list[SeatJson]:
    seats: list[SeatJson] = []
    for seat in SEATS:
        state = table.seats[seat]
        seats.append(
            {
                "seat": seat_name(seat),
                "name": table.name_of(seat) if state.taken else None,
                "kind": state.kind,
                "bot": state.controller,
                "taken": state.taken,
                "connected": state.kind is SeatKind.BOT or seat in connected,
                "held_by_bot": state.held_by is not None,
                "level": level_of(state.controller),
                "reserved": table.reserved(seat),
                "away_deadline": table.away_deadlines.get(seat),
            }
        )
    return seats


def table_json(table: Table, connected: Collection[Seat] = ()) -> TableJson:
    """The public facts of a table (``TABLE`` in the protocol)."""
    match = table.match
    return {
        "id": table.id,
        "status": table.status,
        "rules": table.config.rules_name,
        "options": table.rules.to_dict(),
        "public": table.config.public,
        "turn_seconds": table.config.turn_seconds,
        "seats": _seats_json(table, connected),
        "scores": [0, 0] if match is None else list(match.team_scores),
        "created": table.created,
        "hints": table.config.hints,
        "custom": custom_options(table.config),
    }


def state_json(table: Table, seat: Seat | None, connected: Collection[Seat] = ()) -> StateJson:
    """The table as ``seat`` may see it (``None``: a spectator)."""
    return states_json(table, (seat,), connected)[seat]


def _auction_json(view: View) -> AuctionJson:
    calls: list[CallJson] = []
    last: list[ActionJson | None] = [None, None, None, None]
    for seat, action in view.history:
        if isinstance(action, Card):
            break
        call = call_json(seat, action)
        calls.append(call)
        if call["action"]["kind"] != "trump":
            last[seat] = call["action"]
    return {"calls": calls, "last": last}


def _sides(values: Sequence[int]) -> list[int]:
    return [values[0] + values[2], values[1] + values[3]]


def _match_json(table: Table, view: View, index: int) -> MatchJson:
    """What every seat is shown alike of the deal under way (no hand, no legal actions)."""
    match = table.match
    assert match is not None
    points = counts_card_points(table.rules)
    tricks = [trick_json(trick, points) for trick in view.tricks]
    card_points: list[int] | None = None
    if points:
        card_points = [0, 0, 0, 0]
        for trick, done in zip(view.tricks, tricks, strict=True):
            assert trick.winner is not None
            card_points[trick.winner] += done["points"] or 0
    return {
        "deal_number": index + 1,
        "dealer": seat_name(view.dealer),
        "phase": view.phase.value,
        "to_act": None if match.to_act is None else seat_name(match.to_act),
        "hand": [],
        "hand_sizes": list(view.hand_sizes),
        "auction": _auction_json(view),
        "contract": contract_json(view.contract),
        "trump": suit_letter(_trump(view)),
        "trick": None if view.current_trick is None else trick_json(view.current_trick, points),
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "tricks_taken": list(view.tricks_taken),
        "side_tricks": _sides(view.tricks_taken),
        "card_points": card_points,
        "side_card_points": None if card_points is None else _sides(card_points),
        "bids": list(view.bids),
        "legal": [],
        "scores": list(match.team_scores),
        "seat_scores": list(match.seat_scores),
        "target": table.rules.target,
        "sets": [
            {"winner": cast(Side, s.winner.name), "scores": list(s.team_scores)} for s in match.sets
        ],
        "commitment": commitment(table.seeds[index]),
        "over": match.is_over(),
        "winner": side_name(match.winner),
        "individual": table.rules.is_individual,
        "progress": progress_json(table.rules, view, card_points),
        "trump_pending": view.contract is not None and _trump(view) is None and _names_trump(view),
        "set_number": match.set_number,
        "sets_counted": table.rules.sets > 1,
    }


def _trump(view: View) -> Suit | None:
    """The trump, or the suit the contract names while it is raised or stood (Egyptian)."""
    if view.trump is not None:
        return view.trump
    strain = None if view.contract is None else view.contract.strain
    return None if strain is None or strain.suit is None else strain.suit


def _names_trump(view: View) -> bool:
    """Whether the contract is to play with a trump the declarer has yet to name."""
    contract = view.contract
    return (
        contract is not None
        and contract.strain is None
        and view.phase
        in (
            Phase.RAISE,
            Phase.TRUMP,
        )
    )


def states_json(
    table: Table, seats: Iterable[Seat | None], connected: Collection[Seat] = ()
) -> dict[Seat | None, StateJson]:
    """The state of each of ``seats`` (``None``: a spectator), as :func:`state_json` builds it.

    What every seat is shown alike is built once; each seat's own cards and
    legal actions come from that seat's :class:`View`, a spectator gets none.
    The states share their public parts: write them out, do not change them.
    """
    seats = list(dict.fromkeys(seats))
    public: StateJson = {
        "status": table.status,
        "seats": _seats_json(table, connected),
        "version": table.version,
        "turn_deadline": table.turn_deadline,
        "server_time": time.time(),
        "match": None,
        "rematch": _rematch_json(table),
    }
    match = table.match
    if match is None:
        return {seat: {**public} for seat in seats}
    deal = match.deal
    index = len(match.deals) - 1
    common: MatchJson | None = None
    states: dict[Seat | None, StateJson] = {}
    for seat in seats:
        view = deal.view(SEATS[0] if seat is None else seat)
        if common is None:
            common = _match_json(table, view, index)
        own: MatchJson = {**common}
        if seat is not None:
            own["hand"] = [str(card) for card in view.hand]
            own["legal"] = [action_json(a) for a in view.legal_actions]
        states[seat] = {**public, "match": own}
    return states


def _rematch_json(table: Table) -> RematchJson | None:
    if table.match is None or not table.match.is_over():
        return None
    return {"votes": table.rematch_votes_json(), "table": table.rematch_table}
