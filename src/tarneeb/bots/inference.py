"""Inference from the play: how likely each layout makes the cards the others played.

Plain Monte Carlo search deals the hidden cards uniformly, as if the other
players had played at random. They did not: a defender who ducked in third
seat probably has no honour above the card played; a partner who led a suit
probably holds strength or length there. Following the opponent modelling of
the bridge and Skat programs (Ginsberg's GIB, Buro et al.'s "Improving state
evaluation, inference and search in trick-based card games", 2009; Solinas,
Rebstock and Buro, 2019), each sampled layout is weighed by the likelihood of
the observed cards under a model policy, here the heuristic bot: replaying
the deal with the layout's hands, each card another seat played counts
``1 - epsilon`` when the model would have played it (or a card equivalent to
it) and ``epsilon`` shared among the other legal cards when not. The search
then draws the layouts it solves from many candidates in proportion to their
weights (importance resampling), so its double-dummy effort goes where the
play says the cards are.

>>> import random
>>> from tarneeb import Deal, Seat, find_rules
>>> deal = Deal.from_seed(find_rules("classic"), Seat.WEST, 3)
>>> for action in ["7", "pass", "pass", "pass", "S"]:
...     deal.push(action)
>>> view = deal.view(deal.to_act)
>>> play_likelihood(view, view.sample_hands(random.Random(1)), PlayModel())
1.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tarneeb.actions import Redeal
from tarneeb.bots.heuristic import HeuristicBot
from tarneeb.cards import SUIT_MASKS, Card
from tarneeb.deal import Deal
from tarneeb.errors import TarneebError
from tarneeb.view import View

__all__ = ["PlayModel", "play_likelihood", "played_masks", "resample"]


@dataclass
class PlayModel:
    """The policy the other seats are assumed to follow, and how strictly."""

    epsilon: float = 0.3
    """The chance a seat departs from the model's card (spread over its other cards)."""
    bot: HeuristicBot = field(default_factory=lambda: HeuristicBot(random.Random(0)))


def played_masks(view: View) -> list[int]:
    """The cards each seat has played so far, as masks."""
    masks = [0, 0, 0, 0]
    tricks = list(view.tricks)
    if view.current_trick is not None:
        tricks.append(view.current_trick)
    for trick in tricks:
        for i, card in enumerate(trick.cards):
            masks[trick.seat_of(i)] |= 1 << card
    return masks


def _alike(a: int, b: int, hand: int, played: int) -> bool:
    """Whether ``a`` and ``b`` touch in ``hand``: no card between them is still out."""
    if a // 13 != b // 13:
        return False
    low, high = min(a, b), max(a, b)
    between = SUIT_MASKS[a // 13] & ((1 << high) - 1) & ~((2 << low) - 1)
    return not between & ~(hand | played)


def _one_run(legal: int, known: int) -> bool:
    """Whether the ``legal`` cards are all alike: one suit, no card of it between them still out."""
    low = (legal & -legal).bit_length() - 1
    high = legal.bit_length() - 1
    if low // 13 != high // 13:
        return False
    between = ((1 << high) - 1) & ~((2 << low) - 1)
    return not between & ~known


def play_likelihood(
    view: View, layout: Sequence[int], model: PlayModel, floor: float = 0.0
) -> float:
    """The likelihood of the cards the other seats have played, were ``layout`` the deal.

    1.0 before anyone else has played; also when the deal cannot be replayed
    (a weak-hand redeal in its history). Once the likelihood falls below
    ``floor`` the replay stops and the answer is 0.0 (every later card can
    only lower it): the search drops layouts that much less likely than the
    best so far.
    """
    if any(isinstance(action, Redeal) for _seat, action in view.history):
        return 1.0
    played = played_masks(view)
    hands = [layout[s] | played[s] for s in range(4)]
    try:
        deal = Deal(view.rules, view.dealer, hands, view.scores)
    except TarneebError:
        return 1.0
    me = view.seat
    keep = 1.0 - model.epsilon
    likelihood = 1.0
    for seat, action in view.history:
        if isinstance(action, Card) and seat != me:
            legal = deal.legal_card_mask()
            count = legal.bit_count()
            if count > 1 and not _one_run(legal, deal.played.mask | deal.hand(seat).mask):
                guess = model.bot.act(deal.view(seat))
                hand = deal.hand(seat).mask
                if guess == action or (
                    isinstance(guess, Card) and _alike(guess, action, hand, deal.played.mask)
                ):
                    likelihood *= keep
                else:
                    likelihood *= model.epsilon / (count - 1)
                if likelihood < floor:
                    return 0.0
            deal.push(int(action))
        else:
            deal.push(action)
    return likelihood


def resample(
    weighted: Sequence[tuple[tuple[int, int, int, int], float]], count: int, rng: random.Random
) -> list[tuple[tuple[int, int, int, int], float]]:
    """``count`` draws from ``weighted`` in proportion to the weights, alike draws merged.

    Systematic resampling: one random offset, evenly spaced pointers. Each
    layout drawn comes once, weighted by how often it was drawn.

    >>> rows = [((1, 0, 0, 0), 3.0), ((2, 0, 0, 0), 1.0), ((3, 0, 0, 0), 0.0)]
    >>> resample(rows, 4, random.Random(1))
    [((1, 0, 0, 0), 3.0), ((2, 0, 0, 0), 1.0)]
    """
    total = sum(w for _h, w in weighted)
    if total <= 0 or not weighted:
        return list(weighted[:count])
    step = total / count
    pointer = rng.random() * step
    out: dict[tuple[int, int, int, int], float] = {}
    cumulative = 0.0
    for hands, weight in weighted:
        cumulative += weight
        while pointer < cumulative:
            out[hands] = out.get(hands, 0.0) + 1.0
            pointer += step
    return list(out.items())
