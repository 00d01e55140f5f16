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
    Ladder,
    Rules,
    ThirteenWins,
)

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

_PRESETS: dict[str, tuple[Rules, str]] = {
    "classic": (
        CLASSIC,
        "Seed 000's rules: target 41, defenders always score their tricks, 13 bid and made = 16.",
    ),
    "lebanese31": (
        CLASSIC.replace(target=31, bid_once=True),
        "Classic to 31, each player bids only once (Lebanon).",
    ),
    "tarneeb61": (CLASSIC.replace(target=61), "Classic to 61, the longer game."),
    "levant-sets": (
        CLASSIC.replace(
            dealing=Dealing.ONE_AT_A_TIME,
            defenders=Defenders.TRICKS_IF_SET,
            thirteen_wins=ThirteenWins.ANY,
            sets=13,
        ),
        "Seed 002: defenders score only when the contract fails, 13 tricks wins the set, "
        "a match of 13 sets.",
    ),
    "original": (
        _ORIGINAL,
        "Seed 003's original game: difference scoring, the 16/26/-16 table for 13 tricks, to 31.",
    ),
    "egyptian": (
        _ORIGINAL.replace(
            target=41,
            bidding=Bidding.STRAINS,
            ladder=Ladder.STRAIN_AND_NUMBER,
            no_trump=True,
            failed=Failed.MINUS_BID,
            bid13_made=16,
            doubling=Doubling.RAISE,
            double_factor=2,
        ),
        "Seed 003's Egyptian game: bids name a strain (clubs < diamonds < hearts < spades < "
        "no-trump); the only bidder may raise to double stakes; to 41.",
    ),
    "saudi": (
        CLASSIC.replace(kabsh=16),
        "Classic with the kabsh bonus: 13 tricks taken without bidding 13 scores 16.",
    ),
    "sol": (
        CLASSIC.replace(no_trump=True),
        "Classic with Sol: no-trump bids beat suit bids of the same number.",
    ),
    "tarneeb400": (
        CLASSIC.replace(
            count=Count.CARD_POINTS,
            min_bid=60,
            max_bid=120,
            bid_step=10,
            target=400,
            bid13_made=None,
        ),
        "Seed 000's card-point game: bids of 60..120 card points (A 11, 10 10, K 4, Q 3, J 2), "
        "target 400.",
    ),
    "syrian400": (
        CLASSIC.replace(
            bidding=Bidding.INDIVIDUAL,
            fixed_trump=Suit.HEARTS,
            min_bid=2,
            bid13_made=None,
        ),
        "The 400 of the apps: hearts always trump, each player bids their own tricks, a side wins "
        "when one partner reaches 41 and the other is positive.",
    ),
}

PRESETS: Mapping[str, Rules] = MappingProxyType({k: v[0] for k, v in _PRESETS.items()})
PRESET_SUMMARIES: Mapping[str, str] = MappingProxyType({k: v[1] for k, v in _PRESETS.items()})
DEFAULT_PRESET = "classic"


def find_rules(name: str) -> Rules:
    """The preset called ``name`` (case and spaces ignored).

    :raises RulesError: when there is no such preset; the message lists them.
    """
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
