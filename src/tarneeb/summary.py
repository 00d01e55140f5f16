"""What a preset's summary says, made from the options actually set (not written once by hand).

:func:`summary_facts` says what stands out in a :class:`~tarneeb.rules.Rules`
value as a list of :class:`SummaryFact` (a message key and its values), the
same in every language; :mod:`tarneeb.summaries` renders them through the
message catalogue (``fact.KEY``, :mod:`tarneeb.i18n`). Changing an option
changes the summary: ``tarneeb rules classic -o target=31`` says 31.

>>> from tarneeb.rules import Rules
>>> summary_facts(Rules(target=31))[0]
SummaryFact(key='target', params={'target': 31})
>>> [f.key for f in summary_facts(Rules(kabsh=16, kabsh_side=KabshSide.EITHER))][-1]
'kabsh_either'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tarneeb.rules import (
    AllPass,
    BelowZero,
    Bidding,
    Count,
    Defenders,
    Doubling,
    Failed,
    KabshSide,
    Made,
    Rules,
    ThirteenWins,
)
from tarneeb.scoring import score_contract

__all__ = ["SummaryFact", "summary_facts"]


@dataclass(frozen=True)
class SummaryFact:
    """One thing a summary says: ``key`` names the message, ``params`` fill it in.

    Values in ``params`` are numbers, or option texts as ``Rules.to_dict``
    writes them (``"hearts"``, ``"card-points"``, strain names such as
    ``"no-trump"``), which a translation renders in its own words.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


def summary_facts(rules: Rules) -> tuple[SummaryFact, ...]:
    """What a summary of ``rules`` says, in order: the target, then what stands out."""
    facts = [SummaryFact("target", {"target": rules.target})]

    def add(key: str, **params: Any) -> None:
        facts.append(SummaryFact(key, params))

    plain = rules.to_dict()
    if rules.sets > 1:
        add("sets", sets=rules.sets)
    if rules.bidding is Bidding.STRAINS:
        add("strains", order=(*plain["strain_order"], *(("no-trump",) if rules.no_trump else ())))
    elif rules.no_trump:
        add("no_trump")
    if rules.is_individual:
        add("individual", trump=plain["fixed_trump"])
    elif rules.fixed_trump is not None:
        add("fixed_trump", trump=plain["fixed_trump"])
    if rules.count is Count.CARD_POINTS:
        add("card_points", min_bid=rules.min_bid, max_bid=rules.max_bid)
    for key, on in (
        ("bid_once", rules.bid_once and not rules.is_individual),
        ("dealer_bids", rules.all_pass is AllPass.DEALER_BIDS and not rules.is_individual),
        ("first_lead_trump", rules.first_lead_trump),
        ("weak_redeal", rules.weak_redeal),
    ):
        if on:
            add(key)
    if rules.doubling is not Doubling.NONE and not rules.is_individual:
        add(rules.doubling.value, stakes=rules.double_factor)
    if rules.is_individual:
        add("individual_win", floor="zero" if rules.partner_zero_ok else "positive")
        return tuple(facts)
    if rules.made is Made.BID:
        add("made_bid")
    _add_failed(rules, add)
    if rules.count is Count.TRICKS:
        _add_thirteen(rules, add)
    if rules.thirteen_wins is not ThirteenWins.NO:
        add("thirteen_wins" if rules.thirteen_wins is ThirteenWins.ANY else "thirteen_wins_if_bid")
    if rules.no_win_below_zero is not BelowZero.NO:
        add(
            "below_zero_before"
            if rules.no_win_below_zero is BelowZero.BEFORE_DEAL
            else "below_zero_after"
        )
    return tuple(facts)


def _add_failed(rules: Rules, add: Callable[..., None]) -> None:
    if rules.defenders is Defenders.SHORTFALL:
        add("difference" if rules.failed is Failed.ZERO else "shortfall")
        return
    if rules.failed is Failed.ZERO:
        add("failed_zero")
    if rules.defenders is Defenders.TRICKS:
        add("defenders_tricks", unit=rules.count.value)
    else:
        add("defenders_if_set")


def _add_thirteen(rules: Rules, add: Callable[..., None]) -> None:
    if rules.max_bid == 13:
        add("bid13_made", points=score_contract(rules, 13, 13, 0)[0])
        if rules.bid13_failed is not None:
            add("bid13_failed", points=rules.bid13_failed)
    if rules.kabsh is not None and rules.min_bid < 13:
        either = rules.kabsh_side is KabshSide.EITHER
        add("kabsh_either" if either else "kabsh", points=rules.kabsh)
