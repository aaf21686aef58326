"""Pearson's chi-square statistic and its p-value (no scipy in the test dependencies)."""

from __future__ import annotations

from collections.abc import Sequence

from simcoinche.analysis.stats import chi2_sf

__all__ = ["chi2_sf", "chi_square"]


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, float]:
    """Pearson's statistic of ``observed`` against ``expected`` counts, and its p-value
    (``len - 1`` degrees of freedom)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    return stat, chi2_sf(stat, len(observed) - 1)
