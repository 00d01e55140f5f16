"""Inference from the auction and the play: how likely each layout makes what the others did.

Plain Monte Carlo search deals the hidden cards uniformly, as if the other
players had bid and played at random. They did not: a defender who ducked in
third seat probably has no honour above the card played; a partner who led a
suit probably holds strength or length there; a seat that opened the bidding
holds a hand worth its bid. Following the opponent modelling of the bridge
and Skat programs (Ginsberg's GIB; Buro et al., "Improving state evaluation,
inference and search in trick-based card games", 2009; Solinas, Rebstock and
Buro, 2019), each sampled layout is weighed by the likelihood of the observed
actions:

* the auction (:func:`auction_likelihood`): a seat that bid should hold a
  hand that takes about its bid less what partner adds; one that passed, not
  a strong one;
* the play (:func:`play_likelihood`), under a model policy, the heuristic bot:
  replaying the deal with the layout's hands, each card another seat played
  counts ``1 - epsilon + epsilon / n`` when the model would have played it (or
  a card touching it) and ``epsilon / n`` when not, ``n`` the seat's legal
  cards then: the model softened by a uniform choice, so that no layout
  consistent with the cards seen weighs zero.

The product is a :data:`~tarneeb.layouts.LayoutWeight` for
:meth:`View.sample_layouts <tarneeb.view.View.sample_layouts>`
(:func:`layout_weight`). The search bot draws the layouts it solves from
more candidates in proportion to these weights, without replacement
(:func:`draw_distinct`), so that its double-dummy effort goes where the
auction and the play say the cards are. The model's card for a seat depends
only on what was public then and that seat's hand, so a :class:`PlayModel`
remembers it for the rest of the deal: each new decision of the deal, and
each candidate layout with the same hand, asks the model no more.

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

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tarneeb.actions import Bid, Pass, Redeal
from tarneeb.bots.heuristic import HeuristicBot, hand_tricks
from tarneeb.cards import SUIT_MASKS, Card, Suit
from tarneeb.deal import Deal
from tarneeb.layouts import Layout, LayoutWeight
from tarneeb.play import legal_mask, must_lead_suit
from tarneeb.rules import Count
from tarneeb.seats import Seat
from tarneeb.view import View

__all__ = [
    "PlayModel",
    "auction_likelihood",
    "draw_distinct",
    "layout_weight",
    "play_likelihood",
]


@dataclass
class PlayModel:
    """The policy the other seats are assumed to follow, how strictly, and what it said.

    One model serves one bot: it remembers the model's card for each seat's
    hand at each point of the deal under way (and the public part of the
    view at each point), and forgets when another deal comes.
    """

    epsilon: float = 0.5
    """The weight of a uniform choice among the legal cards in the model of a play."""
    bot: HeuristicBot = field(default_factory=lambda: HeuristicBot(random.Random(0)))
    asked: int = 0
    """How many times the model policy was asked (the rest came from memory)."""
    _memo: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)
    _public: dict[int, View] = field(default_factory=dict, repr=False)
    _context: tuple[object, ...] = field(default=(), repr=False)

    def follow(self, view: View) -> dict[tuple[int, int], int]:
        """The remembered cards, (history index, hand) to the mask of the model's card
        and the legal cards touching it; emptied unless ``view`` continues the deal
        remembered.

        The model's card depends only on the public actions before it and the
        seat's hand: a view whose history extends the remembered one shares them.
        """
        rules, dealer, scores, history = self._context or (None, None, None, ())
        assert isinstance(history, tuple)
        same = (
            rules == view.rules
            and dealer == view.dealer
            and scores == view.scores
            and view.history[: len(history)] == history
        )
        if not same:
            self._memo.clear()
            self._public.clear()
        self._context = (view.rules, view.dealer, view.scores, view.history)
        return self._memo

    def guess(self, view: View, k: int, hand: int, legal: int) -> int:
        """The model's card for the seat that took the ``k``-th action of ``view``'s
        history, holding ``hand`` then, with the legal cards touching it (a mask)."""
        self.asked += 1
        public = self._public.get(k)
        if public is None:
            self._fill_public(view)
            public = self._public[k]
        card = self.bot.act(public.holding(hand, legal))
        assert isinstance(card, Card)
        played = public.played.mask
        run = 1 << card
        rest = legal & SUIT_MASKS[card // 13] & ~run
        while rest:
            low = rest & -rest
            if _alike(card, low.bit_length() - 1, hand, played):
                run |= low
            rest ^= low
        return run

    def _fill_public(self, view: View) -> None:
        """The views of the seats that played a card, at every card of ``view``'s history,
        from a replay with hands that fit it (their public part is all that is used)."""
        hands = view.dealt(view.sample_hands(random.Random(0)))
        deal = Deal(view.rules, view.dealer, list(hands), view.scores)
        for k, (seat, action) in enumerate(view.history):
            if isinstance(action, Card) and seat != view.seat and k not in self._public:
                self._public[k] = deal.view(seat)
            deal.push(action)


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

    ``layout``: the hands as they are now (the cards each seat still holds).
    1.0 before anyone else has played; also when the deal cannot be replayed
    (a weak-hand redeal in its history). Once the likelihood falls below
    ``floor`` the replay stops and the answer is 0.0 (every later card can
    only lower it): the search drops layouts that much less likely than the
    best so far. The cards that were the only choice, or all alike, say
    nothing and count 1.
    """
    if any(isinstance(action, Redeal) for _seat, action in view.history):
        return 1.0
    memo = model.follow(view)
    hands = list(view.dealt((layout[0], layout[1], layout[2], layout[3])))
    trump = -1 if view.trump is None else int(view.trump)
    first_lead_trump = view.rules.first_lead_trump
    me = view.seat
    eps = model.epsilon
    played = 0
    count_played = 0
    lead = -1
    likelihood = 1.0
    for k, (seat, action) in enumerate(view.history):
        if not isinstance(action, Card):
            continue
        card = int(action)
        in_trick = count_played & 3
        if seat != me:
            hand = hands[seat]
            if in_trick:
                legal = legal_mask(hand, lead)
            else:
                legal = legal_mask(hand, -1, must_lead_suit(first_lead_trump, trump, count_played))
            n = legal.bit_count()
            if n > 1 and not _one_run(legal, played | hand):
                run = memo.get((k, hand))
                if run is None:
                    run = memo[(k, hand)] = model.guess(view, k, hand, legal)
                likelihood *= (1.0 - eps if run >> card & 1 else 0.0) + eps / n
                if likelihood < floor:
                    return 0.0
        if not in_trick:
            lead = card // 13
        hands[seat] &= ~(1 << card)
        played |= 1 << card
        count_played += 1
    return likelihood


def auction_likelihood(view: View, layout: Sequence[int]) -> float:
    """How well the hands of ``layout`` fit the bids and passes of the auction.

    A seat's first bid says what its hand takes with its best trump (the
    bidder counts on about three tricks from partner); a pass, that it takes
    no more than about five. Each shortfall of ``x`` tricks weighs
    ``exp(-x**2 / 2)``. The seeing seat's own bids say nothing new.
    """
    weight = 1.0
    first_bid: dict[Seat, int] = {}
    passed: set[Seat] = set()
    for seat, action in view.history:
        if isinstance(action, Bid):
            first_bid.setdefault(seat, action.level)
        elif isinstance(action, Pass) and seat not in first_bid:
            passed.add(seat)
    if not first_bid and not passed:
        return 1.0
    points = view.rules.count is Count.CARD_POINTS
    played = view.played_by
    for seat in Seat:
        if seat == view.seat or (seat not in first_bid and seat not in passed):
            continue
        # What the hand could take with its best trump (the hidden part included).
        hand = layout[seat] | played[seat]
        best = max(hand_tricks(hand, suit) for suit in Suit)
        if seat in first_bid:
            level = first_bid[seat] * 13 / 120 if points else first_bid[seat]
            short = max(0.0, level - 3.0 - best)
            weight *= math.exp(-short * short / 2)
        else:
            over = max(0.0, best - 5.0)
            weight *= math.exp(-over * over / 2)
    return weight


def layout_weight(view: View, model: PlayModel | None = None, floor: float = 0.0) -> LayoutWeight:
    """The weight of a layout for :meth:`View.sample_layouts <tarneeb.view.View.sample_layouts>`:
    :func:`auction_likelihood`, times :func:`play_likelihood` under ``model`` if given.

    With ``floor`` > 0, a layout whose likelihood falls under ``floor`` times
    the best seen so far weighs 0.0, its replay cut short.
    """
    best = [0.0]

    def weight(layout: Layout) -> float:
        value = auction_likelihood(view, layout)
        if model is not None and value > 0:
            value *= play_likelihood(view, layout, model, best[0] * floor / value)
        best[0] = max(best[0], value)
        return value

    return weight


def draw_distinct(
    weighted: Sequence[tuple[tuple[int, int, int, int], float]], count: int, rng: random.Random
) -> list[tuple[tuple[int, int, int, int], float]]:
    """``count`` different layouts of ``weighted``, drawn in proportion to the weights
    without replacement (Efraimidis and Spirakis' keys), each then weighing 1.

    Without replacement, a few layouts far likelier than the rest do not fill
    the whole sample with copies of themselves: the search still sees
    ``count`` different layouts, the likeliest first. Layouts of weight 0 are
    never drawn.

    >>> rows = [((1, 0, 0, 0), 3.0), ((2, 0, 0, 0), 1.0), ((3, 0, 0, 0), 0.0)]
    >>> sorted(draw_distinct(rows, 4, random.Random(1)))
    [((1, 0, 0, 0), 1.0), ((2, 0, 0, 0), 1.0)]
    """
    keyed = []
    seen = set()
    for hands, weight in weighted:
        if weight > 0 and hands not in seen:
            seen.add(hands)
            keyed.append((rng.random() ** (1.0 / weight), hands))
    keyed.sort(reverse=True)
    return [(hands, 1.0) for _key, hands in keyed[:count]]
