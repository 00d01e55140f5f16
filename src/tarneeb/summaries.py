"""A preset's one-line summary, written from the values of its options in any language.

The summary names the preset's tradition and then states the facts its
options set, so a changed option changes the summary (``classic`` with
``target=31`` says 31) and no sentence can be left behind by a change.

>>> from tarneeb.rules import Rules
>>> print(preset_summary("classic", Rules()))
The Levant classic: defenders always score what they take; 13 bid and made scores 16; to 41.
>>> print(preset_summary("classic", Rules(target=31), "es"))
El clásico del Levante: los defensores siempre anotan lo que ganan; 13 pujadas y cumplidas valen 16; a 31.
"""

from __future__ import annotations

from tarneeb.howto import factor_word, strain_names
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

__all__ = ["preset_summary", "summary_facts", "tradition"]


def tradition(name: str, tr: Translator) -> str:
    """The name of the tradition a preset plays, or the preset's own name for other rules."""
    try:
        return tr(f"preset.{name}.tradition")
    except KeyError:
        return name


def _auction_facts(rules: Rules, tr: Translator) -> list[str]:
    facts = []
    if rules.count is Count.CARD_POINTS:
        facts.append(tr("fact.card-points", low=rules.min_bid, high=rules.max_bid))
    if rules.bidding is Bidding.STRAINS:
        facts.append(tr("fact.strains", strains=strain_names(rules, tr)))
    elif rules.bidding is Bidding.INDIVIDUAL:
        facts.append(tr("fact.individual"))
    elif rules.no_trump:
        facts.append(tr("fact.sol"))
    if rules.fixed_trump is not None:
        facts.append(tr("fact.fixed-trump", suit=tr(f"suit.{rules.fixed_trump.name.lower()}")))
    if rules.bid_once and not rules.is_individual:
        facts.append(tr("fact.bid-once"))
    if rules.all_pass is AllPass.DEALER_BIDS and not rules.is_individual:
        facts.append(tr("fact.dealer-bids", bid=rules.min_bid))
    if rules.first_lead_trump:
        facts.append(tr("fact.first-lead-trump"))
    if rules.weak_redeal:
        facts.append(tr("fact.weak-redeal"))
    return facts


def _scoring_facts(rules: Rules, tr: Translator) -> list[str]:
    if rules.is_individual:
        return []
    facts = []
    if rules.made is Made.BID:
        facts.append(tr("fact.made-bid"))
    if rules.failed is Failed.ZERO and rules.defenders is Defenders.SHORTFALL:
        facts.append(tr("fact.difference"))
    else:
        if rules.failed is Failed.ZERO:
            facts.append(tr("fact.failed-zero"))
        facts.append(tr(f"fact.defenders.{rules.defenders.value}"))
    if rules.count is Count.TRICKS:
        table = (rules.bid13_made, rules.bid13_failed, rules.kabsh)
        if None not in table:
            made, failed, kabsh = table
            facts.append(tr("fact.table13", made=made, failed=failed, kabsh=kabsh))
        else:
            if rules.bid13_made is not None:
                facts.append(tr("fact.bid13", score=rules.bid13_made))
            if rules.bid13_failed is not None:
                facts.append(tr("fact.bid13-failed", score=rules.bid13_failed))
            if rules.kabsh is not None:
                facts.append(tr("fact.kabsh", score=rules.kabsh))
    if rules.doubling is Doubling.RAISE:
        facts.append(tr("fact.raise", stakes=factor_word(rules.double_factor, tr)))
    elif rules.doubling is Doubling.DOUBLE:
        facts.append(tr("fact.double", stakes=factor_word(rules.double_factor, tr)))
    return facts


def summary_facts(rules: Rules, tr: Translator) -> list[str]:
    """The facts a summary states, from the options' values, in reading order."""
    facts = _auction_facts(rules, tr) + _scoring_facts(rules, tr)
    if rules.thirteen_wins is ThirteenWins.ANY:
        facts.append(tr("fact.thirteen-wins"))
    elif rules.thirteen_wins is ThirteenWins.IF_BID:
        facts.append(tr("fact.thirteen-wins-if-bid"))
    if rules.is_individual:
        floor = "zero" if rules.partner_zero_ok else "positive"
        facts.append(tr(f"fact.target.individual.{floor}", target=rules.target))
    else:
        facts.append(tr("fact.target", target=rules.target))
    if rules.no_win_below_zero:
        facts.append(tr("fact.below-zero"))
    if rules.sets > 1:
        facts.append(tr("fact.sets", sets=rules.sets))
    return facts


def preset_summary(name: str, rules: Rules, lang: str = DEFAULT_LANGUAGE) -> str:
    """The one-line summary of ``rules`` played as the preset ``name``, in ``lang``."""
    tr = translator(lang)
    facts = tr("sep.items").join(summary_facts(rules, tr))
    return tr("summary", tradition=tradition(name, tr), facts=facts)
