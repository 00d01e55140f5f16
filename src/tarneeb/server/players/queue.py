"""Quick ranked play: a queue that seats four signed-in players of close rating.

Each waiting player has a *window* of ratings (ordinals) they accept, which
widens the longer they wait (:attr:`RankedQueue.base_window` plus
:attr:`RankedQueue.widen` a second). The longest waiting player is seated
first, with the three others of the same rules closest to their rating whose
windows both take the other; the four are split in the two fairest
partnerships (the best and the worst against the two in the middle).

After :attr:`RankedQueue.bot_wait` seconds a player is offered bots instead:
accepting seats them with bots at a table that is not rated.

A player whose page stopped asking for the queue's status for
:attr:`RankedQueue.stale` seconds (they closed it) leaves the queue: nobody is
seated at a rated table they will not come to (and lose as a no-show).

The queue is the process's own (in memory): a restart empties it, and a
player's browser joins again. On a worker of many it is the memory of the
worker that holds the site's services, which every other worker forwards
the queue's requests to (:mod:`tarneeb.server.services`).

>>> clock = [0.0]
>>> queue = RankedQueue(bot_wait=60, clock=lambda: clock[0])
>>> for name, ordinal in [("a", 0.0), ("b", 9.0), ("c", 1.0), ("d", 2.0), ("e", 3.0)]:
...     _ = queue.join(name, name, "classic", ordinal)
>>> [sorted(p.id for p in group) for _rules, group in queue.match()]
[['a', 'c', 'd', 'e']]
>>> queue.waiting("b").offered, queue.waiting("b").window(clock[0]) < 9
(False, True)
>>> clock[0] = 60.0
>>> queue.waiting("b").offered
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tarneeb.seats import Seat

__all__ = ["RankedQueue", "Waiting", "partnerships"]


@dataclass
class Waiting:
    """A player in the queue."""

    id: str
    name: str
    rules: str
    ordinal: float
    since: float
    queue: RankedQueue = field(repr=False)
    seen: float = 0.0
    """When the player last asked for the queue's status (or joined)."""

    def waited(self, now: float) -> float:
        return max(0.0, now - self.since)

    def window(self, now: float) -> float:
        """How far from their own rating this player takes the others now."""
        return self.queue.base_window + self.queue.widen * self.waited(now)

    @property
    def offered(self) -> bool:
        """Whether they waited long enough to be offered bots."""
        return self.waited(self.queue.clock()) >= self.queue.bot_wait


def partnerships(players: list[Waiting]) -> dict[Seat, Waiting]:
    """Four players in two partnerships of close strength: the best and the worst
    (South and North) against the two in the middle (East and West)."""
    best, second, third, worst = sorted(players, key=lambda p: (-p.ordinal, p.since, p.id))
    return {Seat.SOUTH: best, Seat.NORTH: worst, Seat.EAST: second, Seat.WEST: third}


class RankedQueue:
    """The players waiting for a ranked table, by rules (see the module docs)."""

    def __init__(
        self,
        bot_wait: float = 60.0,
        base_window: float = 3.0,
        widen: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
        stale: float = 30.0,
    ) -> None:
        self.bot_wait = bot_wait
        self.stale = stale
        self.base_window = base_window
        self.widen = widen
        self.clock = clock
        self._waiting: dict[str, Waiting] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def join(self, player: str, name: str, rules: str, ordinal: float) -> Waiting:
        """Put ``player`` in the queue of ``rules`` (again: their wait goes on, in those rules)."""
        known = self._waiting.get(player)
        if known is not None and known.rules == rules:
            known.ordinal = ordinal
            known.seen = self.clock()
            return known
        entry = Waiting(player, name, rules, ordinal, self.clock(), self, self.clock())
        self._waiting[player] = entry
        return entry

    def leave(self, player: str) -> bool:
        return self._waiting.pop(player, None) is not None

    def waiting(self, player: str) -> Waiting | None:
        return self._waiting.get(player)

    def seen(self, player: str) -> None:
        """The player's page asked for the status: they are still there."""
        entry = self._waiting.get(player)
        if entry is not None:
            entry.seen = self.clock()

    def count(self, rules: str) -> int:
        return sum(1 for w in self._waiting.values() if w.rules == rules)

    def match(self) -> list[tuple[str, list[Waiting]]]:
        """Take every group of four that can sit now out of the queue: ``(rules, players)``."""
        now = self.clock()
        for gone in [w for w in self._waiting.values() if now - w.seen > self.stale]:
            del self._waiting[gone.id]
        groups: list[tuple[str, list[Waiting]]] = []
        for anchor in sorted(self._waiting.values(), key=lambda w: (w.since, w.id)):
            if anchor.id not in self._waiting:
                continue  # seated by an earlier anchor
            near = sorted(
                (
                    other
                    for other in self._waiting.values()
                    if other is not anchor
                    and other.rules == anchor.rules
                    and abs(other.ordinal - anchor.ordinal)
                    <= min(anchor.window(now), other.window(now))
                ),
                key=lambda o: (abs(o.ordinal - anchor.ordinal), o.since, o.id),
            )
            if len(near) < 3:
                continue
            group = [anchor, *near[:3]]
            for player in group:
                del self._waiting[player.id]
            groups.append((anchor.rules, group))
        return groups
