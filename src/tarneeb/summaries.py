"""A preset's one-line summary, made from the values of its options, in any language.

:func:`summary_facts` says what stands out in a :class:`~tarneeb.rules.Rules`
value as :class:`SummaryFact` values (a message key and its parameters, the
same in every language); :func:`fact_text` renders one through the
catalogue (``fact.KEY``), and :func:`preset_summary` puts the tradition's
name in front. A changed option changes the summary (``classic`` with
``target=31`` says 31), so no sentence can be left behind by a change.

>>> from tarneeb.rules import Rules
>>> print(preset_summary("classic", Rules()))
The Levant classic: to 41, defenders always score their tricks, 13 bid and made scores 16.
>>> print(preset_summary("classic", Rules(target=31), "es"))
El clásico del Levante: a 31, los defensores siempre anotan sus bazas, 13 pujadas y cumplidas valen 16.
>>> summary_facts(Rules(target=31))[0]
SummaryFact(key='target', params={'target': 31})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tarneeb.i18n import DEFAULT_LANGUAGE, Translator, translator
from tarneeb.rules import (
    AllPass,
    Bidding,
    Count,
    Defenders,
    Doubling,
    Failed,
    Made,
    Rules,
    ThirteenWins,
)
from tarneeb.scoring import score_contract

__all__ = ["SummaryFact", "fact_text", "preset_summary", "summary_facts", "tradition"]


@dataclass(frozen=True)
class SummaryFact:
    """One thing a summary says: ``key`` names the message ``fact.KEY``, ``params`` fill it in.

    Values in ``params`` are numbers, or option texts as ``Rules.to_dict``
    writes them (``"hearts"``, ``"card-points"``, strain names such as
    ``"no-trump"``), which each language renders in its own words.
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
    if rules.no_win_below_zero:
        add("below_zero_after")
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
        add("kabsh", points=rules.kabsh)


def _factor(stakes: int, tr: Translator) -> str:
    """How many times the stakes count: "double" for 2, "quadruple" for 4, else "N-fold"."""
    return tr(f"factor.{stakes}") if 2 <= stakes <= 4 else tr("factor.n", factor=stakes)


def fact_text(fact: SummaryFact, tr: Translator | None = None) -> str:
    """One fact in the language of ``tr`` (default: English).

    >>> fact_text(SummaryFact("raise", {"stakes": 4}))
    'the only bidder may raise to quadruple stakes'
    >>> fact_text(SummaryFact("strains", {"order": ("clubs", "spades", "no-trump")}), translator("ru"))
    'заявка называет масть (трефы < пики < без козыря)'
    """
    tr = tr or translator()
    params = dict(fact.params)
    if "stakes" in params:
        params["stakes"] = _factor(params["stakes"], tr)
    if "order" in params:
        params["order"] = " < ".join(tr(f"strain.{s}") for s in params["order"])
    if "trump" in params:
        params["trump"] = tr(f"suit.{params['trump']}")
    if "unit" in params:
        params["unit"] = tr(f"unit.{params['unit']}")
    if "floor" in params:
        params["floor"] = tr(f"floor.{params['floor']}")
    return tr(f"fact.{fact.key}", **params)


def tradition(name: str, tr: Translator) -> str:
    """The name of the tradition a preset plays, or the preset's own name for other rules."""
    try:
        return tr(f"preset.{name}.tradition")
    except KeyError:
        return name


def preset_summary(name: str, rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The one-line summary of ``rules`` played as the preset ``name``, in ``lang``.

    :raises LanguageError: for a language without a catalogue.
    """
    tr = translator(lang)
    facts = tr("sep.facts").join(fact_text(f, tr) for f in summary_facts(rules))
    return tr("summary", tradition=tradition(name, tr), facts=facts)
