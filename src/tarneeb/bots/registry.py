"""Finding bots by name, and letting bots play deals and matches."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tarneeb.bots.base import Bot, BotError
from tarneeb.bots.heuristic import HeuristicBot
from tarneeb.bots.levels import EasyBot, ExpertBot, HardBot, MediumBot
from tarneeb.bots.randombot import RandomBot
from tarneeb.bots.search import SearchBot
from tarneeb.deal import Deal
from tarneeb.match import Match
from tarneeb.seats import Seat

__all__ = ["BOTS", "find_bot", "make_bot", "play_deal", "play_match", "register_bot"]

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
