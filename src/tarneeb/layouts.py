"""The layouts of hidden cards a seat cannot tell apart: counted, drawn uniformly, listed.

A seat sees its own hand and every card played; the other cards are in the
other hands, so many to each, none of a suit a hand has shown out of. A
:class:`Layouts` holds those facts and counts the layouts that fit them
exactly, by dynamic programming over groups of cards: the cards of the suits
that the same seats may hold are interchangeable, so a layout is a split of
each group's size among its seats (the ways to deal the cards of a group in
that split are a multinomial coefficient) with every seat's share adding up
to its hand size. Drawing a layout walks the groups in order, picking each
split in proportion to the layouts it leaves, then deals that group's cards
at random in that split: every layout comes out equally likely, and there
is no retry that could fail.

>>> from tarneeb.cards import CardSet, Suit
>>> hidden = CardSet.parse("AK.Q..").mask  # AS KS QH with two seats to hold them
>>> layouts = Layouts(hidden, (0, 2, 0, 1), ((), (), (), (Suit.SPADES,)))
>>> layouts.count  # West holds no spade, so QH is West's
1
>>> Layouts(hidden, (0, 2, 0, 1), ((), (), (), ())).count
3
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from tarneeb.cards import SUIT_MASKS, Suit
from tarneeb.errors import TarneebError

__all__ = ["Layout", "LayoutWeight", "Layouts", "NoLayoutError"]

Layout = tuple[int, int, int, int]
"""Four hands, as card masks by seat (South, East, North, West)."""

LayoutWeight = Callable[[Layout], float]
"""How likely what was seen is with the hands of a layout (a likelihood, not normalised)."""


class NoLayoutError(TarneebError, ValueError):
    """No layout of the hidden cards fits what a seat has seen."""


@dataclass(frozen=True)
class _Step:
    """The splits of one group allowed from one state, with their cumulative layout counts."""

    total: int
    cumulative: tuple[int, ...]
    splits: tuple[tuple[int, ...], ...]


def _splits(n: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``n`` as a sum of parts, part ``i`` at most ``caps[i]``."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    rest = sum(caps[1:])
    for first in range(max(0, n - rest), min(n, caps[0]) + 1):
        for tail in _splits(n - first, caps[1:]):
            yield (first, *tail)


class Layouts:
    """The ways to deal ``cards`` to the seats, ``sizes[s]`` to seat ``s``, respecting ``voids``.

    :param cards: the hidden cards (a mask).
    :param sizes: how many of them each seat holds (0 for a seat whose hand is known).
    :param voids: for each seat, the suits it holds none of.
    :param known: cards known to be in each hand, added to every layout as they are
        (the seeing seat's own hand).
    """

    def __init__(
        self,
        cards: int,
        sizes: Sequence[int],
        voids: Sequence[Collection[Suit | int]],
        known: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        self.cards = cards
        self.sizes: Layout = (sizes[0], sizes[1], sizes[2], sizes[3])
        self.known: Layout = (known[0], known[1], known[2], known[3])
        groups: dict[tuple[int, ...], list[int]] = {}
        for suit in range(4):
            mask = cards & SUIT_MASKS[suit]
            if not mask:
                continue
            seats = tuple(s for s in range(4) if self.sizes[s] and suit not in voids[s])
            groups.setdefault(seats, []).extend(c for c in range(52) if mask >> c & 1)
        self._groups: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
            (seats, tuple(group)) for seats, group in groups.items()
        )
        self._steps: dict[tuple[int, Layout], _Step] = {}
        self.count: int = self._ways(0, self.sizes)
        """How many layouts there are (every one of them equally likely to be drawn)."""

    def _ways(self, k: int, caps: Layout) -> int:
        """The layouts of groups ``k`` onwards, ``caps[s]`` cards left to seat ``s``."""
        if k == len(self._groups):
            return int(not any(caps))
        return self._step(k, caps).total

    def _step(self, k: int, caps: Layout) -> _Step:
        step = self._steps.get((k, caps))
        if step is not None:
            return step
        seats, group = self._groups[k]
        n = len(group)
        cumulative: list[int] = []
        splits: list[tuple[int, ...]] = []
        total = 0
        for split in _splits(n, [caps[s] for s in seats]) if seats else ():
            left = list(caps)
            deals = math.factorial(n)
            for seat, part in zip(seats, split, strict=True):
                left[seat] -= part
                deals //= math.factorial(part)
            ways = deals * self._ways(k + 1, (left[0], left[1], left[2], left[3]))
            if ways:
                total += ways
                cumulative.append(total)
                splits.append(split)
        step = _Step(total, tuple(cumulative), tuple(splits))
        self._steps[(k, caps)] = step
        return step

    def sample(self, rng: random.Random) -> Layout:
        """One layout, each with probability ``1 / count``.

        :raises NoLayoutError: when there is none.
        """
        if not self.count:
            raise NoLayoutError("no layout of the hidden cards fits what was seen")
        hands = list(self.known)
        caps = self.sizes
        for k, (seats, group) in enumerate(self._groups):
            step = self._step(k, caps)
            split = step.splits[bisect.bisect_right(step.cumulative, rng.randrange(step.total))]
            cards = rng.sample(group, len(group))
            left = list(caps)
            start = 0
            for seat, part in zip(seats, split, strict=True):
                for card in cards[start : start + part]:
                    hands[seat] |= 1 << card
                start += part
                left[seat] -= part
            caps = (left[0], left[1], left[2], left[3])
        return hands[0], hands[1], hands[2], hands[3]

    def __iter__(self) -> Iterator[Layout]:
        """Every layout once, in a fixed order (there may be very many: check :attr:`count`)."""
        if self.count:
            yield from self._walk(0, self.sizes, self.known)

    def _walk(self, k: int, caps: Layout, hands: Layout) -> Iterator[Layout]:
        if k == len(self._groups):
            yield hands
            return
        seats, group = self._groups[k]
        for split in self._step(k, caps).splits:
            left = list(caps)
            for seat, part in zip(seats, split, strict=True):
                left[seat] -= part
            after = (left[0], left[1], left[2], left[3])
            for dealt in _deal(group, seats, split):
                h = list(hands)
                for seat, mask in zip(seats, dealt, strict=True):
                    h[seat] |= mask
                yield from self._walk(k + 1, after, (h[0], h[1], h[2], h[3]))


def _deal(
    cards: Sequence[int], seats: Sequence[int], split: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    """Every way to deal ``cards`` to ``seats`` in the sizes of ``split``, as masks."""
    if len(seats) == 1:
        yield (sum(1 << c for c in cards),)
        return
    for chosen in itertools.combinations(cards, split[0]):
        mask = sum(1 << c for c in chosen)
        rest = [c for c in cards if not mask >> c & 1]
        for tail in _deal(rest, seats[1:], split[1:]):
            yield (mask, *tail)
