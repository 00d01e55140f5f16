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

__all__ = ["Buckets", "FrameGate", "TokenBucket"]

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


class FrameGate:
    """A connection's frames: a :class:`TokenBucket`, and the strikes that close it.

    A frame the bucket refuses is a strike; an accepted frame takes one strike
    back. At ``strikes`` strikes the connection is :attr:`spent`. Ten refusals
    in a row spend it, as before; so does a steady sender at three times the
    rate (two refused and one accepted a cycle), which "ten in a row" let go on
    for ever, answering each of its frames with an error frame. A player's
    burst now and then is forgiven by the frames after it, and a sender under
    the rate is never refused at all.

    >>> clock = [0.0]
    >>> gate = FrameGate(rate=1.0, burst=1.0, strikes=3, clock=lambda: clock[0])
    >>> [gate.take() for _ in range(3)], gate.spent
    ([True, False, False], False)
    >>> clock[0] = 1.0
    >>> gate.take(), gate.take(), gate.take(), gate.spent
    (True, False, False, True)
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        strikes: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bucket = TokenBucket(rate, burst, clock)
        self.limit = strikes
        self.strikes = 0

    def take(self) -> bool:
        """Whether the next frame may be read (else it is a strike)."""
        if self._bucket.take():
            self.strikes = max(0, self.strikes - 1)
            return True
        self.strikes += 1
        return False

    @property
    def spent(self) -> bool:
        """Whether the connection struck out and is to be closed."""
        return self.strikes >= self.limit


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
