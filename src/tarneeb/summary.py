"""A preset's summary, made from the options actually set (not written once by hand).

:func:`summary_facts` says what stands out in a :class:`~tarneeb.rules.Rules`
value as a list of :class:`SummaryFact` (a message key and its values), so
that every language can render the same facts; :func:`fact_text` and
:func:`summary_text` render them in English. Changing an option changes the
summary: ``tarneeb rules classic -o target=31`` says 31.

>>> from tarneeb.rules import Rules
>>> summary_text(Rules(), "The Levant classic")
'The Levant classic: to 41, defenders always score their tricks, 13 bid and made scores 16.'
>>> summary_facts(Rules(target=31))[0]
SummaryFact(key='target', params={'target': 31})
"""

from __future__ import annotations

from collections.abc import Mapping
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

__all__ = ["FACT_TEMPLATES", "SummaryFact", "fact_text", "summary_facts", "summary_text"]


@dataclass(frozen=True)
class SummaryFact:
    """One thing a summary says: ``key`` names the message, ``params`` fill it in.

    Values in ``params`` are numbers, or option texts as ``Rules.to_dict``
    writes them (``"hearts"``, ``"card-points"``, strain names such as
    ``"no-trump"``), which a translation renders in its own words.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


FACT_TEMPLATES: Mapping[str, str] = {
    "target": "to {target}",
    "sets": "a match of {sets} sets",
    "strains": "bids name a strain ({order})",
    "individual": "each player bids for their own tricks, {trump} always trump",
    "individual_win": "a side wins when one partner reaches the target while the other's "
    "score is {floor}",
    "card_points": "bids of {min_bid} to {max_bid} card points (A 11, 10 10, K 4, Q 3, J 2)",
    "fixed_trump": "{trump} always trump",
    "bid_once": "each player bids only once",
    "no_trump": "no-trump bids beat suit bids of the same number",
    "dealer_bids": "the dealer must bid when the other three pass",
    "first_lead_trump": "the first lead must be a trump",
    "weak_redeal": "a weak hand may ask for a redeal",
    "raise": "the only bidder may raise to {stakes} stakes",
    "double": "an opponent of the highest bidder may double, for {stakes} stakes",
    "made_bid": "a made contract scores the bid only",
    "failed_zero": "a failed contract scores nothing",
    "defenders_tricks": "defenders always score their {unit}",
    "defenders_if_set": "defenders score only when the contract fails",
    "difference": "difference scoring (a failed contract gives the defenders the shortfall)",
    "shortfall": "a failed contract loses the bid and gives the defenders the shortfall",
    "bid13_made": "13 bid and made scores {points}",
    "bid13_failed": "13 bid and failed scores {points}",
    "kabsh": "all 13 taken without bidding 13 scores {points}",
    "kabsh_either": "all 13 taken without bidding 13 scores {points}, for either side",
    "thirteen_wins": "13 tricks win the set",
    "thirteen_wins_if_bid": "13 tricks bid and made win the set",
    "below_zero_before": "a side below zero before a deal cannot win in it",
    "below_zero_after": "a side below zero cannot win",
}
"""The English text of each fact key, with ``str.format`` fields named as its params."""

_STAKES = {2: "double", 3: "triple", 4: "quadruple"}
_UNITS = {"tricks": "tricks", "card-points": "card points"}
_FLOORS = {"positive": "positive", "zero": "zero or more"}


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
        ("dealer_bids", rules.all_pass is AllPass.DEALER_BIDS),
        ("first_lead_trump", rules.first_lead_trump),
        ("weak_redeal", rules.weak_redeal),
    ):
        if on:
            add(key)
    if rules.doubling is not Doubling.NONE:
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


def _add_failed(rules: Rules, add: Any) -> None:
    if rules.defenders is Defenders.SHORTFALL:
        add("difference" if rules.failed is Failed.ZERO else "shortfall")
        return
    if rules.failed is Failed.ZERO:
        add("failed_zero")
    if rules.defenders is Defenders.TRICKS:
        add("defenders_tricks", unit=rules.count.value)
    else:
        add("defenders_if_set")


def _add_thirteen(rules: Rules, add: Any) -> None:
    if rules.max_bid == 13:
        add("bid13_made", points=score_contract(rules, 13, 13, 0)[0])
        if rules.bid13_failed is not None:
            add("bid13_failed", points=rules.bid13_failed)
    if rules.kabsh is not None and rules.min_bid < 13:
        either = rules.kabsh_side is KabshSide.EITHER
        add("kabsh_either" if either else "kabsh", points=rules.kabsh)


def fact_text(fact: SummaryFact) -> str:
    """One fact in English.

    >>> fact_text(SummaryFact("raise", {"stakes": 4}))
    'the only bidder may raise to quadruple stakes'
    >>> fact_text(SummaryFact("strains", {"order": ("clubs", "spades", "no-trump")}))
    'bids name a strain (clubs < spades < no-trump)'
    """
    params = dict(fact.params)
    if "stakes" in params:
        params["stakes"] = _STAKES.get(params["stakes"], f"{params['stakes']}-fold")
    if "order" in params:
        params["order"] = " < ".join(params["order"])
    if "unit" in params:
        params["unit"] = _UNITS[params["unit"]]
    if "floor" in params:
        params["floor"] = _FLOORS[params["floor"]]
    return FACT_TEMPLATES[fact.key].format(**params)


def summary_text(rules: Rules, tradition: str) -> str:
    """The English summary: the tradition's name, then the facts of ``rules``."""
    facts = ", ".join(fact_text(f) for f in summary_facts(rules))
    return f"{tradition}: {facts}."
