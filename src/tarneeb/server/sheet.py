"""What a client shows of a match without re-deriving its rules: the score sheet and progress.

The score sheet is one row per finished deal (:func:`sheet_rows`): its
contract and bids, the tricks (and card points, where the rules count them)
taken, its result, and the running scores after it, reset where a set ended.
The ``deal_end`` event of a deal carries its row (:func:`deal_end_data`), and
the ``welcome`` the whole sheet. :func:`progress_json` tells how far the deal
under way is ("N-S 5 of 8", or each player's own bid in Syrian 400).

>>> from tarneeb.server.table import Table, TableConfig
>>> from tarneeb.seats import Seat
>>> table = Table.new("t1", TableConfig(seats=("human", "bot:random", "bot:random", "bot:random")))
>>> _ = table.join("Layla", Seat.SOUTH)
>>> sheet_rows(table)
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from tarneeb.actions import Phase
from tarneeb.deal import Deal
from tarneeb.match import Match
from tarneeb.rules import Rules
from tarneeb.seats import Seat
from tarneeb.server.fairness import commitment
from tarneeb.server.wire import (
    ProgressJson,
    SheetRowJson,
    contract_json,
    counts_card_points,
    result_json,
    seat_name,
    trick_json,
)
from tarneeb.view import View

if TYPE_CHECKING:
    from tarneeb.server.table import Table

__all__ = ["deal_end_data", "progress_json", "running_scores", "sheet_row", "sheet_rows"]

Scores = tuple[tuple[int, int], tuple[int, int, int, int], int]
"""Team scores, seat scores and the set number (from 1), after one deal."""


def running_scores(match: Match) -> list[Scores]:
    """The scores after each finished deal of ``match``, as :class:`Match` adds them up.

    A deal that ends a set shows that set's final scores; the next starts from
    nothing. A thrown-in deal changes nothing.
    """
    out: list[Scores] = []
    team = [0, 0]
    seats = [0, 0, 0, 0]
    set_index = 0
    in_set = 0
    for deal in match.deals:
        if not deal.is_over():
            break
        result = deal.result if deal.thrown_in is None else None
        if result is not None:
            team = [team[0] + result.team_points[0], team[1] + result.team_points[1]]
            if result.seat_points is None:
                seats = [team[0], team[1], team[0], team[1]]
            else:
                seats = [a + b for a, b in zip(seats, result.seat_points, strict=True)]
        out.append(((team[0], team[1]), (seats[0], seats[1], seats[2], seats[3]), set_index + 1))
        in_set += 1
        if set_index < len(match.sets) and in_set == match.sets[set_index].deals:
            set_index, in_set = set_index + 1, 0
            team, seats = [0, 0], [0, 0, 0, 0]
    return out


def _sides(values: Sequence[int]) -> list[int]:
    return [values[0] + values[2], values[1] + values[3]]


def _side_card_points(deal: Deal) -> list[int]:
    points = [0, 0]
    for trick in deal.tricks:
        assert trick.winner is not None
        points[trick.winner % 2] += sum(card.card_points for card in trick.cards)
    return points


def sheet_row(rules: Rules, deal: Deal, index: int, after: Scores) -> SheetRowJson:
    """The score sheet's row of finished deal ``index`` (``after``: its running scores)."""
    team, seats, set_number = after
    return {
        "number": index + 1,
        "set": set_number,
        "dealer": seat_name(deal.dealer),
        "contract": contract_json(deal.contract),
        "bids": list(deal.bids),
        "tricks": list(deal.tricks_taken),
        "side_tricks": _sides(deal.tricks_taken),
        "card_points": _side_card_points(deal) if counts_card_points(rules) else None,
        "result": result_json(deal),
        "scores": list(team),
        "seat_scores": list(seats),
    }


def sheet_rows(table: Table) -> list[SheetRowJson]:
    """Every finished deal of the table's match, in order (empty before the start)."""
    match = table.match
    if match is None:
        return []
    return [
        sheet_row(table.rules, match.deals[index], index, after)
        for index, after in enumerate(running_scores(match))
    ]


def deal_end_data(table: Table, index: int) -> dict[str, Any]:
    """What the ``deal_end`` event tells of deal ``index``: the result and the revealed seed,
    the scores right after it (also when it is told again later), and its sheet row."""
    match = table.match
    assert match is not None
    deal = match.deals[index]
    seed = table.seeds[index]
    last = deal.tricks[-1] if deal.tricks else None
    after = running_scores(match)[index]
    return {
        "number": index + 1,
        "dealer": seat_name(deal.dealer),
        "seed": seed,
        "commitment": commitment(seed),
        "contract": contract_json(deal.contract),
        "result": result_json(deal),
        "tricks_taken": list(deal.tricks_taken),
        "last_trick": None if last is None else trick_json(last, counts_card_points(table.rules)),
        "scores": list(after[0]),
        "seat_scores": list(after[1]),
        "row": sheet_row(table.rules, deal, index, after),
    }


def progress_json(
    rules: Rules, view: View, card_points: Sequence[int] | None
) -> list[ProgressJson]:
    """How far the deal's contract is, from the moment there is one.

    One entry for a partnership contract (the declaring side's tricks, or card
    points where the rules count them, against its bid); where every player
    bids alone, one per player with a bid, against that bid. ``card_points``
    are those taken by seat (or ``None``).
    """
    unit = "points" if card_points is not None else "tricks"
    taken = list(view.tricks_taken) if card_points is None else list(card_points)
    if rules.is_individual:
        if view.phase not in (Phase.PLAY, Phase.SCORED):
            return []
        return [
            _progress(Seat(seat), view.tricks_taken[seat], bid, "tricks")
            for seat, bid in enumerate(view.bids)
            if bid is not None
        ]
    contract = view.contract
    if contract is None:
        return []
    side = _sides(taken)[contract.declarer % 2]
    return [_progress(contract.declarer, side, contract.level, unit)]


def _progress(seat: Seat, taken: int, needed: int, unit: str) -> ProgressJson:
    return {
        "seat": seat_name(seat),
        "side": "NS" if seat % 2 == 0 else "EW",
        "taken": taken,
        "needed": needed,
        "unit": cast(Any, unit),
    }
