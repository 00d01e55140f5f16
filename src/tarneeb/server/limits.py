"""Rate limits of the server: token buckets, alone or one per key (a client address, a seat).

A bucket holds up to ``burst`` tokens and refills at ``rate`` tokens a
second; each request takes one, and a request finding the bucket empty is
refused. :class:`Buckets` keeps one bucket per key and forgets the buckets
that refilled (their keys are as good as new), so a flood of addresses costs
memory only while they keep sending.

>>> clock = [0.0]
>>> bucket = TokenBucket(rate=1.0, burst=2.0, clock=lambda: clock[0])
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> clock[0] = 1.0
>>> bucket.take(), bucket.take()
(True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Buckets", "TokenBucket"]

K = TypeVar("K", bound=Hashable)


class TokenBucket:
    """``rate`` requests a second on average, ``burst`` at once."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._clock = clock
        self.at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        """Take a token if there is one."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self) -> bool:
        """Whether the bucket refilled to its burst (it may as well be new)."""
        self._refill()
        return self.tokens >= self.burst


class Buckets(Generic[K]):
    """One :class:`TokenBucket` per key; the refilled ones are forgotten.

    Every refill time (``burst / rate``) the buckets that are full again go,
    so only the keys that sent within that time take memory; past
    ``max_keys`` of them a new key is refused until some refill.

    >>> clock = [0.0]
    >>> per_seat = Buckets(rate=0.5, burst=1.0, clock=lambda: clock[0])
    >>> per_seat.take("south"), per_seat.take("south"), per_seat.take("east")
    (True, False, True)
    >>> clock[0] = 10.0
    >>> per_seat.take("north"), len(per_seat)  # the refilled buckets went
    (True, 1)
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: dict[K, TokenBucket] = {}
        self._period = burst / rate if rate > 0 else float("inf")
        self._swept = clock()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: K) -> bool:
        """Take a token from ``key``'s bucket if there is one."""
        if self._clock() - self._swept >= self._period:
            self._sweep()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                return False
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self._clock)
        return bucket.take()

    def _sweep(self) -> None:
        self._swept = self._clock()
        for key in [k for k, b in self._buckets.items() if b.full()]:
            del self._buckets[key]
