"""Levels people choose: ``easy``, ``medium``, ``hard`` and ``expert``.

=========  ==========================================================  ======
level      what plays                                                  slow
=========  ==========================================================  ======
easy       the heuristic bot, making a plausible mistake now and then  no
medium     the heuristic bot                                           no
hard       medium's bids, the search bot's cards (half its layouts)    yes
expert     the search's cards (40 layouts), bids by rollout            yes
=========  ==========================================================  ======

The easy bot's mistakes are the ones a beginner makes, never absurd ones. In
about :data:`EASY_CARD_SLIP` of its card decisions it plays a near miss
instead of the heuristic's card: ducking where the heuristic would win the
trick, playing high where it would play low, discarding where it would ruff,
leading another suit. It never overtakes or overtrumps partner's winning
card, never throws a master away (a master it plays wins the trick), and
plays the heuristic's card whenever every remaining trick counts for the
contract. In about :data:`EASY_BID_SLIP` of its bids it bids like the
cautious or the aggressive heuristic bot (a trick less or more than its
estimate). ``tests/test_levels.py`` measures both rates and checks every
mistake against those limits.

>>> from tarneeb.bots import LEVELS, make_bot
>>> LEVELS
('easy', 'medium', 'hard', 'expert')
>>> [make_bot(level).slow for level in LEVELS]
[False, False, True, True]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from tarneeb.actions import Bid, Pass, Phase
from tarneeb.bots.base import Bot, Decision
from tarneeb.bots.heuristic import HeuristicBot, tricks_needed
from tarneeb.bots.knowledge import Knowledge
from tarneeb.bots.reasons import Reason
from tarneeb.bots.search import Limit, SearchBot
from tarneeb.cards import Card
from tarneeb.view import View

__all__ = [
    "EASY_BID_SLIP",
    "EASY_CARD_SLIP",
    "EXPERT_LIMIT",
    "HARD_LIMIT",
    "LEVELS",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "MediumBot",
    "plausible_slips",
]

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The level names, weakest first."""

EASY_CARD_SLIP = 0.25
"""The share of card decisions (with a plausible alternative) in which ``easy`` slips."""
EASY_BID_SLIP = 0.3
"""The share of auction decisions in which ``easy`` bids as a cautious or bold player."""

HARD_LIMIT = Limit(samples=20)
"""What ``hard`` may spend on a card: the search bot's budget with half its layouts.

``hard`` bids and names trump as ``medium`` does; it plays its cards by
search. Its steps up from ``medium`` and to ``expert`` are then each one
thing a player can name: the search's card play, then the search's bidding
(the simulation that checks the valuation's bids, :class:`SearchBot`).
Layouts alone were no such step: the search bot with 40 layouts a card and
with 20, both bidding by simulation, split their matches about evenly (43
of 91 to the 40, 95% interval 37% to 57%; ``bench/results/``), though 40
give away fewer tricks against double-dummy play.

The search's card play alone is a step: over 400 duplicate matches against
``medium`` (``tarneeb arena --bots hard:steady,medium --matches 400 --seed
2026 --double-dummy``, ``bench/results/``), ``hard`` won 269 at 25b9741
(67.2%, 95% interval 62.5 to 71.7; +1.39 points a deal), giving away 1.45
tricks a deal against double-dummy play to medium's 1.79 (268 at 70d3501,
before the heuristic's bidding changed). Its cards take 11 ms median processor time, 344 ms
p95, against the search bot's 23.5 and 662 (``bench/search.py --accuracy
400``, no time limit)."""

EXPERT_LIMIT = Limit(samples=40, time=1.5)
"""What ``expert`` may spend a decision: twice the layouts of ``hard`` (the search bot's
own 40) and three times its time, so that a busy machine still solves them all.

More layouts than 40 buy nothing measurable (:attr:`Limit.samples`: 160
gave away as many tricks against double-dummy play as 40 at four times the
time), where going from 20 to 40 does: 2.17 fewer tricks given away per 100
card decisions (95% interval 0.75 to 3.59). The levels were once 40 and 96
layouts, a difference no player could feel.

Its bids are what a player feels of expert over hard. Bidding as the search
bot does (the valuation's proposals checked by simulation, ``expert:checked``),
expert was no step: head to head with hard at 70d3501 (``tarneeb arena --bots
expert:steady,hard:steady --matches 400 --seed 2026``,
``bench/results/arena-expert-hard.jsonl``) it won 207 of 400 (51.7%, 95%
interval 46.9 to 56.6), +0.30 points a deal (that hard bid as the heuristic bot
did before e7dd74d; ``expert:checked`` against today's hard has not been run).
Bidding by rollout (each call
followed to the contract it leads to, the others bidding as hard does), it
is: ``tarneeb arena --bots expert:steady:rollout,hard:steady --matches 400
--seed 2026`` (07c8f08, ``bench/results/arena-expert-rollout-hard-07c8f08.jsonl``)
won 243 of 400 (60.8%, 95% interval 55.9 to 65.4), +0.84 points a deal
(+0.59 to +1.09), winning both matches of 51 duplicate pairs to hard's 8;
its contracts of 7 and 8 made 939 of 1,066 (88%), hard's 1,015 of 1,218
(83%), its 10s to 13s 13 of 35, hard's 23 of 132. Its decisions took 213 ms
each on average, hard's 60, both cores busy."""


class MediumBot(HeuristicBot):
    """The heuristic bot, under its level name."""

    name = "medium"
    option_docs: ClassVar[Mapping[str, str]] = {}


class HardBot(SearchBot):
    """The search bot's card play with :data:`HARD_LIMIT`; the heuristic bot's auction
    and trump."""

    name = "hard"
    default_limit = HARD_LIMIT

    def decide(self, view: View) -> Decision:
        if view.phase is Phase.PLAY:
            return super().decide(view)
        return self._fallback.decide(view)


class ExpertBot(SearchBot):
    """The search bot's card play with :data:`EXPERT_LIMIT`, bidding by rollout: each call
    it could make followed to the contract it leads to (:mod:`tarneeb.bots.rollout`).

    With ``checked`` it bids as the search bot does, the valuation's proposals checked
    by simulation (the expert of 70d3501 to 586eda8).
    """

    name = "expert"
    default_limit = EXPERT_LIMIT
    bids_by_rollout = True


class EasyBot(Bot):
    """The heuristic bot with a beginner's plausible mistakes (see the module)."""

    name = "easy"
    errs_on_purpose = True

    def __init__(self, rng: random.Random | None = None, options: Sequence[str] = ()) -> None:
        super().__init__(rng, options)
        self._plain = HeuristicBot(self.rng)
        self._timid = HeuristicBot(self.rng, ["cautious"])
        self._bold = HeuristicBot(self.rng, ["aggressive"])

    def decide(self, view: View) -> Decision:
        decision = self._plain.decide(view)
        if len(view.legal_actions) < 2:
            return decision
        if view.phase is Phase.AUCTION and not view.rules.is_individual:
            return self._bid(view, decision)
        if view.phase is Phase.PLAY and isinstance(decision.action, Card):
            slips = plausible_slips(view, decision.action)
            if slips and self.rng.random() < EASY_CARD_SLIP:
                card, why = self.rng.choice(slips)
                return Decision(card, why)
        return decision

    def _bid(self, view: View, decision: Decision) -> Decision:
        if self.rng.random() >= EASY_BID_SLIP:
            return decision
        other = self.rng.choice((self._timid, self._bold)).decide(view)
        if other.action == decision.action:
            return decision
        if isinstance(other.action, (Bid, Pass)):
            return other
        return decision


def plausible_slips(view: View, card: Card) -> list[tuple[Card, Reason]]:
    """The near misses ``easy`` may play instead of ``card`` (the heuristic's), with why.

    None when every remaining trick counts for the side's goal. A slip never
    beats partner's winning card, and never plays a master that does not win
    the trick.
    """
    know = Knowledge.of(view)
    legal = [a for a in view.legal_actions if isinstance(a, Card) and a != card]
    if not legal or _every_trick_counts(view):
        return []
    trick = view.current_trick
    assert trick is not None
    if not trick.cards:
        return _lead_slips(view, know, card, legal)
    led = trick.cards[0].suit
    best, best_index = trick.cards[0], 0
    for i, played in enumerate(trick.cards[1:], 1):
        if know.beats(played, best):
            best, best_index = played, i
    partner_wins = trick.seat_of(best_index) == view.seat.partner

    def allowed(c: Card) -> bool:
        wins = know.beats(c, best)
        if partner_wins and wins:
            return False  # never overtake or overtrump partner
        return not (know.is_master(c) and not wins)  # never throw a master away

    out: list[tuple[Card, Reason]] = []
    following = card.suit == led
    if following:
        same = sorted(c for c in legal if c.suit == led and allowed(c))
        if know.beats(card, best):
            lower = [c for c in same if not know.beats(c, best)]
            if lower:
                out.append((lower[0], Reason("slip-low")))
        elif same:
            higher = [c for c in same if c > card]
            if higher:
                out.append((higher[-1], Reason("slip-high")))
    else:
        trump = view.trump
        if card.suit == trump:
            discards = sorted(c for c in legal if c.suit != trump and allowed(c))
            if discards:
                out.append((discards[0], Reason("slip-keep-trumps")))
        else:
            discards = sorted(
                (c for c in legal if c.suit != trump and c.suit != card.suit and allowed(c)),
                key=lambda c: c.rank,
            )
            if discards:
                out.append((discards[0], Reason("slip-discard")))
    return out


def _lead_slips(
    view: View, know: Knowledge, card: Card, legal: list[Card]
) -> list[tuple[Card, Reason]]:
    trump = view.trump
    out: list[tuple[Card, Reason]] = []
    for suit in {c.suit for c in legal} - {card.suit}:
        cards = sorted(c for c in legal if c.suit == suit)
        low = cards[0]
        if know.is_master(low):
            continue  # a master led wins: that is no slip
        if suit == trump and len(cards) < 3:
            continue  # leading from two small trumps is more than a beginner's slip
        out.append((low, Reason("slip-lead")))
    return out


def _every_trick_counts(view: View) -> bool:
    """Whether the side needs every remaining trick but at most one for its goal."""
    needed, left = tricks_needed(view)
    return needed >= left - 1 and needed > 0
