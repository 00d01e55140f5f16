"""A preset's one-line summary, made from the values of its options, in any language.

:func:`tarneeb.summary.summary_facts` says what stands out in a
:class:`~tarneeb.rules.Rules` value as :class:`~tarneeb.summary.SummaryFact`
values (a message key and its parameters, the same in every language);
:func:`fact_text` renders one through the catalogue (``fact.KEY``), and
:func:`preset_summary` puts the tradition's name (``preset.NAME.tradition``)
in front. A changed option changes the summary (``classic`` with
``target=31`` says 31), so no sentence can be left behind by a change.

>>> from tarneeb.rules import Rules
>>> print(preset_summary("classic", Rules()))
The Levant classic: to 41, defenders always score their tricks, 13 bid and made scores 16.
>>> print(preset_summary("classic", Rules(target=31), "es"))
El clásico del Levante: a 31, los defensores siempre anotan sus bazas, 13 pujadas y cumplidas valen 16.
"""

from __future__ import annotations

from tarneeb.i18n import DEFAULT_LANGUAGE, Translator, translator
from tarneeb.rules import Rules
from tarneeb.summary import SummaryFact, summary_facts

__all__ = ["fact_text", "preset_summary", "tradition"]


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


def preset_summary(name: str, rules: Rules | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The one-line summary of ``rules`` played as the preset ``name``, in ``lang``.

    Pass the rules actually played (a preset with options changed) and the
    summary says their values; without them, the preset's own.

    >>> print(preset_summary("Classic", lang="nl").split(":")[0])
    De Levantijnse klassieker

    :raises RulesError: when ``rules`` is not given and there is no such preset.
    :raises LanguageError: for a language without a catalogue.
    """
    key = name.strip().lower()
    if rules is None:
        from tarneeb.presets import find_rules  # the presets' summaries are made here

        rules = find_rules(key)
    tr = translator(lang)
    facts = tr("sep.facts").join(fact_text(f, tr) for f in summary_facts(rules))
    return tr("summary", tradition=tradition(key, tr), facts=facts)
