"""Confidence intervals for the arena: Wilson for win rates, Student's t for means.

>>> lo, hi = wilson_interval(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
>>> mean, (lo, hi) = mean_ci([1.0, 2.0, 3.0])
>>> mean, round(lo, 4), round(hi, 4)
(2.0, -0.4843, 4.4843)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

__all__ = ["Z95", "mean_ci", "sign_test", "t_quantile95", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

# Two-sided 95% quantiles of Student's t (the 0.975 quantile) for 1..30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
# Past 30, interpolate linearly in 1/df between these points (exact to 3 decimals).
_T95_TAIL = ((30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980))


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` in ``trials``.

    ``successes`` may be fractional (a drawn match counts a half). With no
    trials, nothing is known: ``(0.0, 1.0)``.

    >>> wilson_interval(0, 10)[1] > 0.27
    True
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes={successes} must lie between 0 and trials={trials}")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return (lo, hi)


def t_quantile95(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (to 3 decimals)."""
    if df < 1:
        raise ValueError(f"df={df} must be at least 1")
    if df <= 30:
        return _T95[df - 1]
    for (d0, t0), (d1, t1) in itertools.pairwise(_T95_TAIL):
        if df <= d1:
            w = (1 / d0 - 1 / df) / (1 / d0 - 1 / d1)
            return t0 + w * (t1 - t0)
    d0, t0 = _T95_TAIL[-1]
    return t0 + (Z95 - t0) * (1 - d0 / df)


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95% interval (Student's t).

    The interval is ``None`` with fewer than two values (nothing to tell the
    spread from); the mean of no values is 0.
    """
    n = len(values)
    if n == 0:
        return (0.0, None)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, None)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile95(n - 1) * math.sqrt(variance / n)
    return (mean, (mean - half, mean + half))


def sign_test(wins: int, losses: int) -> float:
    """The two-sided exact sign test: the chance of a split at least as uneven as
    ``wins`` to ``losses`` if each were equally likely (ties left out beforehand).

    >>> sign_test(31, 19) > 0.1, round(sign_test(10, 0), 4), sign_test(0, 0)
    (True, 0.002, 1.0)
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"wins={wins} and losses={losses} must not be negative")
    n = wins + losses
    if not n:
        return 1.0
    k = min(wins, losses)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)
