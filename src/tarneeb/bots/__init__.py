"""Bots: the protocol, the registry, and the bots themselves.

The levels people choose are :data:`LEVELS` (``easy`` to ``expert``,
:mod:`tarneeb.bots.levels`).

Bots are found by name, with options after colons:

>>> bot = make_bot("heuristic:aggressive", seed=1)
>>> bot.spec
'heuristic:aggressive'
>>> make_bot("oracle")
Traceback (most recent call last):
...
tarneeb.bots.base.BotError: no bot named 'oracle' (the bots: random, heuristic, search, easy, medium, hard, expert, policy)
"""

from __future__ import annotations

from tarneeb.bots.base import Bot, BotError, Decision
from tarneeb.bots.heuristic import HeuristicBot, hand_tricks
from tarneeb.bots.knowledge import Knowledge
from tarneeb.bots.levels import LEVELS
from tarneeb.bots.randombot import RandomBot
from tarneeb.bots.reasons import Reason
from tarneeb.bots.registry import (
    BOTS,
    decide_safely,
    find_bot,
    make_adviser,
    make_bot,
    play_deal,
    play_match,
    register_bot,
)
from tarneeb.bots.search import Limit, SearchBot, sample_layouts

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotError",
    "Decision",
    "HeuristicBot",
    "Knowledge",
    "Limit",
    "RandomBot",
    "Reason",
    "SearchBot",
    "decide_safely",
    "find_bot",
    "hand_tricks",
    "make_adviser",
    "make_bot",
    "play_deal",
    "play_match",
    "register_bot",
    "sample_layouts",
]
