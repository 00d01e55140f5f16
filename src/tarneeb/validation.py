"""The checks a :class:`~tarneeb.rules.Rules` value passes when it is made.

Each option's own check (its type, its lowest value) is in its spec; here are
the combinations of options that cannot work, or where an option could have
no effect at all (which is refused rather than silently ignored).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from tarneeb.actions import Strain
from tarneeb.errors import RulesError
from tarneeb.options import (
    AllPass,
    BelowZero,
    Bidding,
    Count,
    Defenders,
    Doubling,
    Failed,
    KabshSide,
    Ladder,
    Made,
    OptionSpec,
    ThirteenWins,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tarneeb.rules import Rules

__all__ = ["below_zero_problem", "max_deal_gain", "validate"]

_SUITS = [Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES]


def validate(r: Rules, specs: Mapping[str, OptionSpec]) -> None:
    """Refuse ``r`` when an option or a combination of options cannot work.

    :raises RulesError: naming the options.
    """
    for name, spec in specs.items():
        spec.check(getattr(r, name))
    top = r.max_points_per_deal
    if not 1 <= r.min_bid <= r.max_bid <= top:
        raise RulesError(
            f"min_bid={r.min_bid} and max_bid={r.max_bid} must satisfy 1 <= min_bid <= max_bid "
            f"<= {top} with count={r.count.value!r}"
        )
    if (r.max_bid - r.min_bid) % r.bid_step:
        raise RulesError(
            f"bid_step={r.bid_step} must divide max_bid - min_bid ({r.max_bid} - {r.min_bid})"
        )
    if r.count is Count.TRICKS and r.bid_step != 1:
        raise RulesError(f"bid_step={r.bid_step} needs count='card-points'; trick bids go up by 1")
    if r.count is Count.CARD_POINTS:
        for name in ("bid13_made", "bid13_failed", "kabsh"):
            if getattr(r, name) is not None:
                raise RulesError(
                    f"{name}={getattr(r, name)} scores 13 tricks, which count='card-points' does "
                    f"not bid for: set {name} to none"
                )
        if r.thirteen_wins is ThirteenWins.IF_BID:
            raise RulesError(
                "thirteen_wins='if-bid' needs trick bids; count='card-points' has no bid of 13"
            )
    if sorted(r.strain_order) != _SUITS:
        raise RulesError(
            f"strain_order={[s.letter for s in r.strain_order]} must hold the four suits once each"
        )
    if r.bidding is Bidding.STRAINS and r.fixed_trump is not None:
        raise RulesError("fixed_trump cannot go with bidding='strains': the bids name the trump")
    if r.bidding is not Bidding.STRAINS and r.ladder is not Ladder.NUMBER_OR_STRAIN:
        raise RulesError(
            f"ladder={r.ladder.value!r} needs bidding='strains': only strain bids climb a ladder "
            "of strains"
        )
    if r.kabsh_side is KabshSide.EITHER and r.kabsh is None:
        raise RulesError(
            "kabsh_side='either' needs kabsh: with kabsh=none no side scores a kabsh; set kabsh "
            "to its points"
        )
    if r.is_individual:
        _validate_individual(r)
    elif r.partner_zero_ok:
        raise RulesError("partner_zero_ok needs bidding='individual'")
    if r.no_win_below_zero is not BelowZero.NO:
        problem = below_zero_problem(r, r.no_win_below_zero)
        if problem is not None:
            raise RulesError(problem)


def _validate_individual(r: Rules) -> None:
    if r.fixed_trump is None:
        raise RulesError(
            "bidding='individual' needs fixed_trump: every player bids for their own tricks with a "
            "fixed trump suit"
        )
    conflicts = [
        f"{name}={value!r}"
        for name, value, ok in (
            ("count", r.count.value, r.count is Count.TRICKS),
            ("no_trump", r.no_trump, not r.no_trump),
            ("doubling", r.doubling.value, r.doubling is Doubling.NONE),
            ("all_pass", r.all_pass.value, r.all_pass is AllPass.THROW_IN),
            ("bid13_made", r.bid13_made, r.bid13_made is None),
            ("bid13_failed", r.bid13_failed, r.bid13_failed is None),
            ("kabsh", r.kabsh, r.kabsh is None),
            ("thirteen_wins", r.thirteen_wins.value, r.thirteen_wins is ThirteenWins.NO),
            (
                "no_win_below_zero",
                r.no_win_below_zero.value,
                r.no_win_below_zero is BelowZero.NO,
            ),
        )
        if not ok
    ]
    if conflicts:
        raise RulesError(
            "bidding='individual' scores each player's own bid, without passing, doubling or "
            f"partnership contracts; these options cannot go with it: {', '.join(conflicts)}"
        )
    minimums = r.individual_minimums
    if not minimums or minimums[0][0] != 0:
        raise RulesError("individual_minimums must start with a row for score 0")
    if any(a[0] >= b[0] for a, b in itertools.pairwise(minimums)):
        raise RulesError("individual_minimums must list rising scores")
    for score, bid, total in minimums:
        if not 1 <= bid <= 13 or not 4 <= total <= 52:
            raise RulesError(
                f"individual_minimums row {(score, bid, total)}: the lowest bid must be 1..13 and "
                "the lowest total 4..52"
            )
    valued = {row[0] for row in r.bid_values}
    missing = [b for b in range(min(row[1] for row in minimums), 14) if b not in valued]
    if missing:
        raise RulesError(f"bid_values has no value for the bids {missing}")


def _can_go_negative(r: Rules) -> bool:
    """Whether a partnership's score can ever fall below zero under ``r``."""
    if r.failed is Failed.MINUS_BID:
        return True
    return any(v is not None and v < 0 for v in (r.bid13_made, r.bid13_failed, r.kabsh))


def max_deal_gain(r: Rules) -> int:
    """An upper bound of the points one side can score in one partnership deal under ``r``.

    >>> from tarneeb.presets import find_rules
    >>> max_deal_gain(find_rules("classic")), max_deal_gain(find_rules("egyptian"))
    (16, 52)
    """
    points = r.max_points_per_deal
    bonuses = [v for v in (r.bid13_made, r.bid13_failed, r.kabsh) if v is not None]
    declarers = max([points if r.made is Made.TAKEN else r.max_bid, *bonuses])
    if r.defenders is Defenders.SHORTFALL:
        thirteen = r.count is Count.TRICKS and r.max_bid == 13
        defenders = r.max_bid * (r.bid13_shortfall_factor if thirteen else 1)
    else:
        defenders = points
    if r.kabsh_side is KabshSide.EITHER and r.kabsh is not None:
        defenders = max(defenders, r.kabsh)
    factor = 1 if r.doubling is Doubling.NONE else r.double_factor
    return max(declarers, defenders) * factor


def below_zero_problem(r: Rules, reading: BelowZero) -> str | None:
    """Why ``no_win_below_zero=reading`` could have no effect with the other options of ``r``.

    ``None`` when it can have one. (Individual bidding refuses the option on its own.)
    """
    named = f"no_win_below_zero={reading.value!r}"
    if r.is_individual:
        return f"{named} needs partnership scores; bidding='individual' has its own winning rule"
    if not _can_go_negative(r):
        return (
            f"{named} has no effect: no score can fall below zero with failed="
            f"{r.failed.value!r} and no negative points for 13 tricks"
        )
    if r.thirteen_wins is not ThirteenWins.NO:
        return None
    if reading is BelowZero.AFTER_DEAL:
        return (
            f"{named} has no effect with thirteen_wins='no': a side that reaches the target is "
            "above zero"
        )
    gain = max_deal_gain(r)
    if gain <= r.target:
        return (
            f"{named} has no effect with thirteen_wins='no' and target={r.target}: no deal "
            f"scores a side more than {gain}, so a side below zero cannot reach the target in "
            "one deal"
        )
    return None
