"""The named presets of RULES.md, in one registry.

>>> find_rules("lebanese31").target
31
>>> sorted(PRESETS)[:3]
['classic', 'egyptian', 'lebanese31']
>>> find_rules("bridge")
Traceback (most recent call last):
...
tarneeb.errors.RulesError: no preset named 'bridge'; the presets are: classic, lebanese31, tarneeb61, levant-sets, original, egyptian, saudi, sol, tarneeb400, syrian400
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tarneeb.cards import Dealing, Suit
from tarneeb.errors import RulesError
from tarneeb.rules import (
    Bidding,
    Count,
    Defenders,
    Doubling,
    Failed,
    KabshSide,
    Ladder,
    Rules,
    ThirteenWins,
)
from tarneeb.summaries import preset_summary

__all__ = ["DEFAULT_PRESET", "PRESETS", "PRESET_SUMMARIES", "find_rules", "preset_name"]

CLASSIC = Rules()

_ORIGINAL = Rules(
    target=31,
    dealing=Dealing.ONE_AT_A_TIME,
    failed=Failed.ZERO,
    defenders=Defenders.SHORTFALL,
    bid13_made=26,
    bid13_failed=-16,
    bid13_shortfall_factor=2,
    kabsh=16,
)

_PRESETS: dict[str, Rules] = {
    "classic": CLASSIC,
    "lebanese31": CLASSIC.replace(target=31, bid_once=True),
    "tarneeb61": CLASSIC.replace(target=61),
    # 002: «Als de partij die opgeeft minstens het aantal geboden slagen wint, scoort zij het
    # aantal slagen dat zij heeft»: 13 bid and made scores the 13 tricks, no bonus.
    "levant-sets": CLASSIC.replace(
        dealing=Dealing.ONE_AT_A_TIME,
        defenders=Defenders.TRICKS_IF_SET,
        thirteen_wins=ThirteenWins.ANY,
        sets=13,
        bid13_made=None,
    ),
    "original": _ORIGINAL,
    "egyptian": _ORIGINAL.replace(
        target=41,
        bidding=Bidding.STRAINS,
        ladder=Ladder.STRAIN_AND_NUMBER,
        no_trump=True,
        failed=Failed.MINUS_BID,
        bid13_made=16,
        doubling=Doubling.RAISE,
        double_factor=2,
    ),
    # 000: «un bono de "kabsh" (capot) cuando una pareja gana las 13 bazas sin haberlo
    # reclamado de antemano»: whichever side takes all 13, the defenders too.
    "saudi": CLASSIC.replace(kabsh=16, kabsh_side=KabshSide.EITHER),
    "sol": CLASSIC.replace(no_trump=True),
    "tarneeb400": CLASSIC.replace(
        count=Count.CARD_POINTS,
        min_bid=60,
        max_bid=120,
        bid_step=10,
        target=400,
        bid13_made=None,
    ),
    "syrian400": CLASSIC.replace(
        bidding=Bidding.INDIVIDUAL,
        fixed_trump=Suit.HEARTS,
        min_bid=2,
        bid13_made=None,
    ),
}

PRESETS: Mapping[str, Rules] = MappingProxyType(_PRESETS)
#: Each preset's one-line summary in English, written from its options (see
#: :func:`tarneeb.summaries.preset_summary` for the other languages and for
#: a preset with options changed; its tradition's name is the catalogue's
#: ``preset.NAME.tradition``).
PRESET_SUMMARIES: Mapping[str, str] = MappingProxyType(
    {name: preset_summary(name, rules) for name, rules in _PRESETS.items()}
)
DEFAULT_PRESET = "classic"


def find_rules(name: str) -> Rules:
    """The preset called ``name`` (case and spaces ignored).

    :raises RulesError: when there is no such preset, or ``name`` is not text; the
        message lists them.
    """
    if not isinstance(name, str):
        raise RulesError(
            f"a preset is named by text, not {name!r}; the presets are: {', '.join(PRESETS)}"
        )
    key = name.strip().lower()
    rules = PRESETS.get(key)
    if rules is None:
        raise RulesError(f"no preset named {name!r}; the presets are: {', '.join(PRESETS)}")
    return rules


def preset_name(rules: Rules) -> str | None:
    """The name of the preset equal to ``rules``, if any."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
