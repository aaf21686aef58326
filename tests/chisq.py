"""Pearson's chi-square statistic and its p-value (no scipy in the test dependencies)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom (series of the lower
    regularized gamma function, accurate to ~1e-12 for the statistics tests meet)."""
    if x <= 0:
        return 1.0
    a = df / 2.0
    z = x / 2.0
    term = 1.0 / a
    total = term
    n = 1
    while term > total * 1e-16 and n < 100_000:
        term *= z / (a + n)
        total += term
        n += 1
    lower = math.exp(a * math.log(z) - z - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, float]:
    """Pearson's statistic of ``observed`` against ``expected`` counts, and its p-value
    (``len - 1`` degrees of freedom)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    return stat, chi2_sf(stat, len(observed) - 1)
