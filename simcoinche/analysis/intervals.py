"""Binomial intervals and the chi-square tail: the statistics of the tables, in plain numpy.

Kept apart from :mod:`.stats` (pandas tables) so that the commands that only count, such
as ``odds`` and ``advise``, start without importing pandas (issue 24). Both functions are
also importable from :mod:`simcoinche.analysis.stats`.
"""

from __future__ import annotations

import math

import numpy as np

from simcoinche.rules.errors import InputError


def wilson_interval(
    successes: object, n: object, z: float = 1.96
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion, vectorised.

    Parameters
    ----------
    successes, n : int or array-like of int
        Successes and trials (broadcast together); ``0 <= successes <= n``.
    z : float
        Normal quantile (1.96 → 95 %).

    Returns
    -------
    low, high : ndarray of float64
        Bounds in ``[0, 1]``; NaN where ``n == 0``. ``low`` is exactly 0 when
        ``successes == 0`` and ``high`` exactly 1 when ``successes == n``.

    Raises
    ------
    InputError
        Negative counts, ``successes > n``, non-integer counts or ``z <= 0``.
    """
    k = np.asarray(successes)
    m = np.asarray(n)
    for name, a in (("successes", k), ("n", m)):
        if a.dtype.kind not in "iub":
            if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
                continue
            raise InputError(f"wilson_interval: {name} must be integer counts")
    if not np.isfinite(z) or z <= 0:
        raise InputError(f"wilson_interval: z must be positive, got {z}")
    k = k.astype(np.float64)
    m = m.astype(np.float64)
    k, m = np.broadcast_arrays(k, m)
    if np.any(k < 0) or np.any(m < 0):
        raise InputError("wilson_interval: counts must be non-negative")
    if np.any(k > m):
        raise InputError("wilson_interval: successes exceed n")
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        z2 = z * z
        denom = 1.0 + z2 / m
        centre = (p + z2 / (2.0 * m)) / denom
        half = z / denom * np.sqrt(p * (1.0 - p) / m + z2 / (4.0 * m * m))
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
    low = np.where(k == 0, 0.0, low)
    high = np.where(k == m, 1.0, high)
    empty = m == 0
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    return low, high


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom.

    The series of the lower regularized gamma function, accurate to ~1e-12 for the
    statistics the tests and the equity check meet (no scipy among the dependencies).
    """
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
