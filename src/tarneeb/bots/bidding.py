"""Bidding to the score: what a bid, or a pass, is worth to the chance of winning the set.

The search bot's auction solves layouts of the hidden hands that fit the
auction, each giving its side's double-dummy tricks in every strain
(:meth:`SearchBot._layout_tricks`). Here those rows are turned into match
equity (:mod:`tarneeb.bots.equity`): the chance of winning the set should the
auction end now with a given side declaring a given contract. Double dummy is
kind to declarers, so the declarers take the double-dummy tricks in half the
layouts and one fewer in the other half. The opponents, declaring, take the
tricks our side does not (we solve with our seat on lead: an approximation)
in the trump that suits them best, where they still have to name it.

Two uses (see :meth:`SearchBot._auction`); the heuristic valuation still
proposes every bid, as bidding on the simulation alone overbids (in 20
matches against the heuristic bot a version that chose any bid by equity
against the opponents' high bid made 15 of its 33 contracts of 8):

* When the valuation would pass the opponents' high bid, and letting them
  play it leaves under ``RESCUE_BELOW`` of the set, the bot outbids them
  (up to :data:`REACH` levels above the lowest legal bid) if that does
  better: "bid higher when only that can win".
* When the valuation proposes a bid, the bid must make often enough, and
  must not lower the chance of the set clearly below passing (the
  opponents' or partner's contract if either holds the high bid; with no
  bid yet and our side ahead, the chance the score gives before the deal).
  Near the target with the lead, a risky bid is not worth it: "stay low to
  protect a lead" (defending, a side still scores its tricks under most
  presets).
"""

from __future__ import annotations

from collections.abc import Sequence

from tarneeb.actions import Bid, Strain
from tarneeb.bots.equity import MatchEquity
from tarneeb.rules import Count, Rules
from tarneeb.scoring import score_contract
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = [
    "REACH",
    "Rows",
    "contract_equity",
    "high_bid",
    "kind_after",
    "strain_tricks",
    "tricks_wanted",
]

Rows = Sequence[tuple[float, dict[Strain, int]]]
"""Solved layouts: each one's weight and our side's double-dummy tricks per strain."""

REACH = 2
"""How many levels above the lowest legal bid a competing bid may go."""


def high_bid(view: View) -> tuple[Seat, Bid] | None:
    """The seat holding the highest bid so far, and the bid."""
    high = None
    for seat, action in view.history:
        if isinstance(action, Bid):
            high = (seat, action)
    return high


def tricks_wanted(rules: Rules, level: int) -> float:
    """The tricks a contract of ``level`` asks for (card points: their share of 13 tricks)."""
    return level * 13 / 120 if rules.count is Count.CARD_POINTS else level


def strain_tricks(row: dict[Strain, int], strain: Strain | None, best: bool = True) -> int:
    """Our tricks in ``strain``; with no strain named, in our best trump suit (``best``)
    or in the suit worst for us (the opponents name their trump)."""
    if strain is not None and strain in row:
        return row[strain]
    suits = [t for s, t in row.items() if s != Strain.NO_TRUMP]
    return max(suits) if best else min(suits)


def _after(
    equity: MatchEquity, view: View, level: int, declarers_take: int, declaring: bool, mult: int
) -> float:
    rules: Rules = view.rules
    taken = max(0, min(13, declarers_take))
    decl, defs = score_contract(rules, level, taken, 13 - taken, mult)
    ours, theirs = (decl, defs) if declaring else (defs, decl)
    our_tricks = taken if declaring else 13 - taken
    thirteen = True if our_tricks == 13 else (False if our_tricks == 0 else None)
    scores = (view.scores[view.seat], view.scores[(view.seat + 1) & 3])
    return equity.after(scores, (ours, theirs), thirteen, level == 13, declaring)


def kind_after(
    equity: MatchEquity, view: View, level: int, declarers_take: int, declaring: bool, mult: int
) -> float:
    """The chance of winning the set once a contract of ``level`` is played, the
    declarers' double-dummy tricks ``declarers_take``: as double dummy is kind to
    declarers, they take those tricks half the time and one fewer the other half."""
    return 0.5 * (
        _after(equity, view, level, declarers_take, declaring, mult)
        + _after(equity, view, level, declarers_take - 1, declaring, mult)
    )


def contract_equity(
    equity: MatchEquity,
    view: View,
    rows: Rows,
    bid: Bid,
    declaring: bool,
) -> float:
    """The chance of winning the set if the auction ends in ``bid``, declared by our
    side (``declaring``) or theirs, averaged over the solved layouts."""
    total = weight_sum = 0.0
    for weight, row in rows:
        ours = strain_tricks(row, bid.strain, best=declaring)
        declarers = ours if declaring else 13 - ours
        total += weight * kind_after(equity, view, bid.level, declarers, declaring, 1)
        weight_sum += weight
    return (
        total / weight_sum
        if weight_sum
        else equity.value(view.scores[view.seat], view.scores[(view.seat + 1) & 3])
    )
