"""Match equity: a side's chance of winning the set from a score, under the rules.

The search bot plays to win the match, not to score points: a deal's outcome
is worth the chance of winning the set from the score it leaves. That chance
comes from a simple model of a deal, computed once per rules and cached:

* either side declares, with even chances;
* the contract is ``min_bid + k`` with the probabilities of :data:`LEVEL_SHARES`;
* the declarers take ``level + m`` tricks with the probabilities of
  :data:`MARGIN_SHARES` for that ``k``;
* the deal is scored by the rules themselves (:func:`~tarneeb.scoring.score_contract`,
  kabsh and the 13-trick bonuses included), and the set ends as
  :func:`~tarneeb.scoring.set_winner` says (the target, ties playing on, 13
  tricks winning the set, no win below zero).

The shares were counted over 2,839 deals of four heuristic bots under the
classic rules (``python`` over ``Deal.from_seed(rules, dealer, 77000 + i)``,
``i < 3000``, thrown-in deals left out), and serve every preset: what varies
between presets, the points and when a set ends, comes from the rules. The
model ignores doubles and raises (the multiplier is 1), and who deals.

The equity of a score is then the fixed point of one deal's step, found by
sweeping the table of scores from the target down until no value moves by
more than :data:`TOLERANCE`. Scores below ``-target`` count as ``-target``
(the model rarely goes there), and a deal that leaves a side over the
target without ending the set (a tie, or a side barred by a score below
zero) counts as both sides one point short of the target.

Two kinds of rules have no table (:func:`match_equity` returns ``None``):
individual bidding (each player scores alone) and card-point counting (the
tricks of the model are no measure there); the search bot then plays for
points.

>>> from tarneeb.presets import find_rules
>>> table = match_equity(find_rules("classic"))
>>> round(table.value(0, 0), 2)
0.5
>>> table.value(38, 20) > 0.8 > 0.2 > table.value(20, 38)
True
"""

from __future__ import annotations

import functools
import operator
from collections import defaultdict
from dataclasses import dataclass

from tarneeb.rules import Count, Rules
from tarneeb.scoring import DealResult, score_contract, set_winner
from tarneeb.seats import Team

__all__ = [
    "LEVEL_SHARES",
    "MARGIN_SHARES",
    "TOLERANCE",
    "MatchEquity",
    "deal_outcomes",
    "match_equity",
]

LEVEL_SHARES: tuple[float, ...] = (0.69, 0.219, 0.074, 0.013, 0.003, 0.001)
"""The share of contracts at ``min_bid + k``, for ``k = 0, 1, ...`` (the rest never seen)."""

MARGIN_SHARES: tuple[dict[int, float], ...] = (
    {-3: 0.004, -2: 0.035, -1: 0.093, 0: 0.192, 1: 0.248, 2: 0.211, 3: 0.138, 4: 0.058, 5: 0.019},
    {-4: 0.005, -3: 0.008, -2: 0.04, -1: 0.108, 0: 0.262, 1: 0.233, 2: 0.207, 3: 0.096, 4: 0.041},
    {-4: 0.005, -3: 0.024, -2: 0.115, -1: 0.167, 0: 0.258, 1: 0.187, 2: 0.187, 3: 0.057},
    {-4: 0.042, -3: 0.167, -2: 0.188, -1: 0.146, 0: 0.188, 1: 0.188, 2: 0.081},
)
"""For ``k = 0, 1, 2`` and ``3`` or more: the share of deals the declarers end
``m`` tricks over (or under) their contract."""

TOLERANCE = 1e-3
"""The sweeps stop when no equity moves by more than this."""


@dataclass(frozen=True)
class Outcome:
    """One way a deal can end in the model, from the declaring side's seat."""

    probability: float
    declarers: int
    """The declarers' points."""
    defenders: int
    all_thirteen: bool | None
    """``True``: the declarers took all 13 tricks; ``False``: the defenders did."""
    bid13: bool


def deal_outcomes(rules: Rules) -> list[Outcome]:
    """The model's outcomes of one deal declared by either side (their shares sum to 1).

    >>> from tarneeb.presets import find_rules
    >>> round(sum(o.probability for o in deal_outcomes(find_rules("classic"))), 6)
    1.0
    """
    merged: dict[tuple[int, int, bool | None, bool], float] = defaultdict(float)
    levels = range(rules.min_bid, rules.max_bid + 1, rules.bid_step)
    for k, level in enumerate(levels):
        if k >= len(LEVEL_SHARES):
            break
        margins = MARGIN_SHARES[min(k, len(MARGIN_SHARES) - 1)]
        for margin, share in margins.items():
            taken = max(0, min(13, level + margin))
            decl, defs = score_contract(rules, level, taken, 13 - taken)
            thirteen = True if taken == 13 else (False if taken == 0 else None)
            merged[decl, defs, thirteen, level == 13] += LEVEL_SHARES[k] * share
    total = sum(merged.values())
    return [
        Outcome(p / total, decl, defs, thirteen, bid13)
        for (decl, defs, thirteen, bid13), p in sorted(merged.items(), key=str)
    ]


class MatchEquity:
    """The chance that the side scoring ``us`` wins the set against ``them``.

    Build it with :func:`match_equity` (cached per rules).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.low = -rules.target
        self.high = rules.target - 1
        self._outcomes = deal_outcomes(rules)
        self._winners: dict[tuple[int, int, int, int, bool | None, bool, bool], float | None] = {}
        self._table = self._solve()

    def _size(self) -> int:
        return self.high - self.low + 1

    def _index(self, us: int, them: int) -> int:
        clamp_us = min(self.high, max(self.low, us))
        clamp_them = min(self.high, max(self.low, them))
        return (clamp_us - self.low) * self._size() + (clamp_them - self.low)

    def value(self, us: int, them: int) -> float:
        """The chance of winning the set from ``us`` to ``them`` before a deal."""
        return self._table[self._index(us, them)]

    def after(
        self,
        before: tuple[int, int],
        points: tuple[int, int],
        all_thirteen: bool | None = None,
        bid13: bool = False,
        declaring: bool = True,
    ) -> float:
        """The chance of winning the set once a deal scoring ``points`` (ours,
        theirs) is counted, from the scores ``before`` it.

        ``all_thirteen``: whether our side (``True``) or theirs (``False``) took
        every trick; ``bid13``: the contract was 13; ``declaring``: our side
        declared.
        """
        won = self._ended(
            before[0], before[1], points[0], points[1], all_thirteen, bid13, declaring
        )
        if won is not None:
            return won
        return self.value(before[0] + points[0], before[1] + points[1])

    def _ended(
        self,
        us: int,
        them: int,
        gain_us: int,
        gain_them: int,
        all_thirteen: bool | None,
        bid13: bool,
        declaring: bool,
    ) -> float | None:
        """1.0 if the deal wins us the set, 0.0 if it loses it, ``None`` if play goes on."""
        new_us, new_them = us + gain_us, them + gain_them
        target = self.rules.target
        if new_us < target and new_them < target and all_thirteen is None:
            return None
        key = (new_us, new_them, gain_us, gain_them, all_thirteen, bid13, declaring)
        if key in self._winners:
            return self._winners[key]
        # We are North-South for set_winner.
        thirteen = None
        if all_thirteen is not None:
            thirteen = Team.NS if all_thirteen else Team.EW
        result = DealResult((gain_us, gain_them), None, None, thirteen, bid13)
        winner = set_winner(
            self.rules,
            (new_us, new_them),
            (new_us, new_them, new_us, new_them),
            result,
            Team.NS if declaring else Team.EW,
        )
        value = None if winner is None else float(winner is Team.NS)
        self._winners[key] = value
        return value

    def _solve(self) -> list[float]:
        size, low, high = self._size(), self.low, self.high
        target = self.rules.target
        steps: list[tuple[float, int, int, bool | None, bool, bool]] = []
        for o in self._outcomes:
            p = o.probability / 2  # either side declares
            steps.append((p, o.declarers, o.defenders, o.all_thirteen, o.bid13, True))
            theirs = None if o.all_thirteen is None else not o.all_thirteen
            steps.append((p, o.defenders, o.declarers, theirs, o.bid13, False))
        fixed = [0.0] * (size * size)
        probs: list[list[float]] = [[] for _ in range(size * size)]
        links: list[list[int]] = [[] for _ in range(size * size)]
        for us in range(low, high + 1):
            for them in range(low, high + 1):
                i = (us - low) * size + (them - low)
                for p, gain, loss, thirteen, bid13, declaring in steps:
                    end = None
                    if thirteen is not None or us + gain >= target or them + loss >= target:
                        end = self._ended(us, them, gain, loss, thirteen, bid13, declaring)
                    if end is None:
                        a = min(high, max(low, us + gain)) - low
                        b = min(high, max(low, them + loss)) - low
                        probs[i].append(p)
                        links[i].append(a * size + b)
                    else:
                        fixed[i] += p * end
        table = [0.5] * (size * size)
        get = table.__getitem__
        # Sweep from the scores nearest the target down: most moves go up.
        order = sorted(range(size * size), key=lambda i: -(i // size + i % size))
        for _sweep in range(500):
            delta = 0.0
            for i in order:
                new = fixed[i] + sum(map(operator.mul, probs[i], map(get, links[i])))
                change = abs(new - table[i])
                if change > delta:
                    delta = change
                table[i] = new
            if delta < TOLERANCE:
                break
        return table


@functools.lru_cache(maxsize=16)
def match_equity(rules: Rules) -> MatchEquity | None:
    """The equity table of ``rules`` (cached), or ``None`` where the model does not apply."""
    if rules.is_individual or rules.count is Count.CARD_POINTS:
        return None
    return MatchEquity(rules)
