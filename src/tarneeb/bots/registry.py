"""Finding bots by name, and letting bots play deals and matches."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence

from tarneeb.bots.base import Bot, BotError, Decision
from tarneeb.bots.heuristic import HeuristicBot
from tarneeb.bots.levels import EasyBot, ExpertBot, HardBot, MediumBot
from tarneeb.bots.randombot import RandomBot
from tarneeb.bots.search import SearchBot
from tarneeb.deal import Deal
from tarneeb.match import Match
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = [
    "BOTS",
    "decide_safely",
    "find_bot",
    "make_bot",
    "play_deal",
    "play_match",
    "register_bot",
]

_log = logging.getLogger("tarneeb.bots")

BOTS: dict[str, type[Bot]] = {}


def register_bot(cls: type[Bot]) -> type[Bot]:
    """Make ``cls`` findable by its ``name`` (usable as a class decorator)."""
    BOTS[cls.name] = cls
    return cls


register_bot(RandomBot)
register_bot(HeuristicBot)
register_bot(SearchBot)
for _level in (EasyBot, MediumBot, HardBot, ExpertBot):
    register_bot(_level)


def find_bot(name: str) -> type[Bot]:
    """The bot class called ``name`` (without options).

    :raises BotError: naming the bots there are.
    """
    cls = BOTS.get(name.strip().lower())
    if cls is None:
        raise BotError(f"no bot named {name!r} (the bots: {', '.join(BOTS)})")
    return cls


def make_bot(spec: str, rng: random.Random | None = None, seed: int | str | None = None) -> Bot:
    """A bot from ``name[:option[:option...]]``, e.g. ``heuristic:aggressive``.

    :param rng: its random source; or give ``seed`` for a seeded one.
    :raises BotError: on an unknown name or option.
    """
    name, *options = spec.strip().split(":")
    cls = find_bot(name)
    if rng is None and seed is not None:
        rng = random.Random(seed)
    return cls(rng, [o for o in options if o])


def make_adviser(spec: str, rng: random.Random | None = None) -> Bot:
    """The bot whose decisions are the hints where ``spec`` is the player's partner:
    that bot, or the heuristic bot where ``spec`` makes mistakes on purpose (a hint
    never advises ``easy``'s slips, nor ``random``'s cards).

    :raises BotError: on an unknown name or option.

    >>> make_adviser("easy").spec, make_adviser("expert:steady").spec
    ('heuristic', 'expert:steady')
    """
    bot = make_bot(spec, rng)
    return HeuristicBot(bot.rng) if bot.errs_on_purpose else bot


def decide_safely(bot: Bot, view: View) -> Decision:
    """``bot``'s decision; where it fails, a stand-in's, so that no bot stops a table.

    A bot fails when it raises (a bug, a solver that went away) or chooses an action
    the rules refuse. Then the heuristic bot decides (and should it fail too, the
    first legal action is taken), and the failure is logged with its traceback on the
    ``tarneeb.bots`` logger. The server and the terminal app play their bots through
    this; the arena does not, as a measurement should stop on a failure, not hide it.

    >>> from tarneeb import Deal, Seat, find_rules
    >>> class Broken(HeuristicBot):
    ...     def decide(self, view):
    ...         raise RuntimeError("the solver went away")
    >>> deal = Deal.from_seed(find_rules("classic"), Seat.WEST, 3)
    >>> view = deal.view(deal.to_act)
    >>> decide_safely(Broken(), view) == HeuristicBot(random.Random(0)).decide(view)
    True
    """
    try:
        decision = bot.decide(view)
    except Exception:
        _log.exception(
            "the %s bot failed in %s's turn: the heuristic bot decides", bot.spec, view.seat
        )
    else:
        if decision.action in view.legal_actions:
            return decision
        _log.error(
            "the %s bot chose %s, which the rules refuse in %s's turn: the heuristic bot decides",
            bot.spec,
            decision.action,
            view.seat,
        )
    try:
        return HeuristicBot(random.Random(0)).decide(view)
    except Exception:
        _log.exception(
            "the heuristic bot failed too in %s's turn: the first legal action", view.seat
        )
        return Decision(next(iter(view.legal_actions)))


def _seats(bots: Mapping[Seat, Bot] | Sequence[Bot]) -> list[Bot]:
    if isinstance(bots, Mapping):
        return [bots[seat] for seat in Seat]
    if len(bots) == 2:
        return [bots[0], bots[1], bots[0], bots[1]]
    if len(bots) != 4:
        raise BotError("give four bots (one a seat) or two (one a side, NS then EW)")
    return list(bots)


def play_deal(deal: Deal, bots: Mapping[Seat, Bot] | Sequence[Bot]) -> Deal:
    """Let the bots finish ``deal``; each sees only its own seat's view."""
    seats = _seats(bots)
    while not deal.is_over():
        seat = deal.to_act
        assert seat is not None
        deal.push(seats[seat].act(deal.view(seat)))
    return deal


def play_match(
    match: Match, bots: Mapping[Seat, Bot] | Sequence[Bot], max_deals: int = 500
) -> Match:
    """Let the bots play ``match`` to its end, or until ``max_deals`` deals (a drawn match)."""
    seats = _seats(bots)
    while not match.is_over() and len(match.deals) <= max_deals:
        seat = match.to_act
        assert seat is not None
        match.push(seats[seat].act(match.view(seat)))
    return match


import tarneeb.bots.policy  # noqa: E402, F401  (registers the 'policy' bot, tarneeb.bots.policy)
