"""Scoring a finished deal, and deciding who has won a set.

Pure functions of the rules and the tricks (or card points) taken, so that
the tables of the seeds can be pinned by known-answer tests.

>>> from tarneeb.presets import find_rules
>>> score_contract(find_rules("classic"), bid=8, taken=9, defenders_taken=4)
(9, 4)
>>> score_contract(find_rules("original"), bid=13, taken=10, defenders_taken=3)
(-16, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarneeb.rules import (
    BelowZero,
    Count,
    Defenders,
    Failed,
    KabshSide,
    Made,
    Rules,
    ThirteenWins,
)
from tarneeb.seats import Team

__all__ = ["DealResult", "score_contract", "score_individual", "set_winner"]


@dataclass(frozen=True)
class DealResult:
    """What a scored deal gave each side (and each player, in individual play)."""

    team_points: tuple[int, int]
    """Points for North-South and East-West."""
    seat_points: tuple[int, int, int, int] | None = None
    """Points per seat where players score alone (individual bidding)."""
    made: bool | None = None
    """Whether the partnership contract was made (``None`` in individual play)."""
    all_thirteen: Team | None = None
    """The side that took all 13 tricks, if one did."""
    declarers_bid_13: bool = False


def score_contract(
    rules: Rules, bid: int, taken: int, defenders_taken: int, multiplier: int = 1
) -> tuple[int, int]:
    """Points for (declarers, defenders) of a partnership contract.

    ``taken`` and ``defenders_taken`` are tricks, or card points with
    ``count = "card-points"``; ``multiplier`` is the raise or double factor,
    which multiplies every point of the deal. A side that takes all 13 tricks
    without having bid 13 scores the ``kabsh`` instead, where one is set:
    declarers only, or either side with ``kabsh_side = "either"``.

    >>> from tarneeb.presets import find_rules
    >>> score_contract(find_rules("saudi"), bid=8, taken=0, defenders_taken=13)
    (-8, 16)
    """
    tricks = rules.count is Count.TRICKS
    bid13 = tricks and bid == 13
    if taken >= bid:
        if bid13 and rules.bid13_made is not None:
            declarers = rules.bid13_made
        elif tricks and taken == 13 and bid < 13 and rules.kabsh is not None:
            declarers = rules.kabsh
        else:
            declarers = taken if rules.made is Made.TAKEN else bid
        defenders = defenders_taken if rules.defenders is Defenders.TRICKS else 0
    else:
        if bid13 and rules.bid13_failed is not None:
            declarers = rules.bid13_failed
        else:
            declarers = -bid if rules.failed is Failed.MINUS_BID else 0
        if (
            tricks
            and defenders_taken == 13
            and rules.kabsh is not None
            and rules.kabsh_side is KabshSide.EITHER
        ):
            defenders = rules.kabsh
        elif rules.defenders is Defenders.SHORTFALL:
            defenders = (bid - taken) * (rules.bid13_shortfall_factor if bid13 else 1)
        else:
            defenders = defenders_taken
    return declarers * multiplier, defenders * multiplier


def score_individual(
    rules: Rules,
    bids: Sequence[int],
    tricks: Sequence[int],
    scores: Sequence[int],
) -> tuple[int, int, int, int]:
    """Points per seat where each player bid for their own tricks.

    A made bid adds its value, a failed one takes it away; the value depends
    on the bid and on the bidder's score before the deal.

    >>> from tarneeb.presets import find_rules
    >>> score_individual(find_rules("syrian400"), [5, 3, 2, 3], [5, 2, 3, 3], [0, 0, 35, 0])
    (10, -3, 2, 3)
    """
    points = []
    for seat in range(4):
        value = rules.bid_value(bids[seat], scores[seat])
        points.append(value if tricks[seat] >= bids[seat] else -value)
    return points[0], points[1], points[2], points[3]


def set_winner(
    rules: Rules,
    team_scores: Sequence[int],
    seat_scores: Sequence[int],
    result: DealResult | None,
    declarer_team: Team | None,
) -> Team | None:
    """The side that has won the set once a deal has been counted, if any.

    Scores are counted at the end of a deal. Where 13 tricks win the set, that
    comes first. Otherwise a side at or over the target wins; when both are,
    the higher wins, and a tie plays another deal. Under ``no_win_below_zero``
    a side whose score was below zero before the deal (``before-deal``), or is
    once it is counted (``after-deal``), cannot win the set in this deal: it
    is left out of both counts, so the other side may still win.

    >>> from tarneeb.presets import find_rules
    >>> rules = find_rules("classic").replace(target=31)
    >>> set_winner(rules, (33, 31), (33, 31, 33, 31), None, None)
    Team.NS
    >>> set_winner(rules, (31, 31), (31, 31, 31, 31), None, None) is None  # a tie plays on
    True
    """
    barred = _barred(rules, team_scores, result)
    if result is not None and result.all_thirteen is not None:
        side = result.all_thirteen
        wins = rules.thirteen_wins is ThirteenWins.ANY or (
            rules.thirteen_wins is ThirteenWins.IF_BID
            and result.declarers_bid_13
            and side == declarer_team
        )
        if wins and side not in barred:
            return side
    if rules.is_individual:
        floor = 0 if rules.partner_zero_ok else 1
        qualified = [
            team
            for team in Team
            if any(
                seat_scores[seat] >= rules.target and seat_scores[seat ^ 2] >= floor
                for seat in team.seats
            )
        ]
    else:
        qualified = [
            team for team in Team if team_scores[team] >= rules.target and team not in barred
        ]
    if len(qualified) == 1:
        return qualified[0]
    if len(qualified) == 2 and team_scores[0] != team_scores[1]:
        return Team.NS if team_scores[0] > team_scores[1] else Team.EW
    return None


def _barred(
    rules: Rules, team_scores: Sequence[int], result: DealResult | None
) -> tuple[Team, ...]:
    """The sides that cannot win the set in this deal under ``no_win_below_zero``."""
    reading = rules.no_win_below_zero
    if reading is BelowZero.NO:
        return ()
    # 002: «Een team kan niet winnen als hun huidige score lager is dan 0».
    gained = (0, 0) if result is None else result.team_points
    if reading is BelowZero.BEFORE_DEAL:
        return tuple(t for t in Team if team_scores[t] - gained[t] < 0)
    return tuple(t for t in Team if team_scores[t] < 0)
