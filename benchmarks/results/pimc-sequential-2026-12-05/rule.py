"""How many of the 32 worlds a PIMC decision would need if it stopped once the best card
so far leads every other by ``z`` standard deviations of what the remaining worlds could
swing (``drift`` 1: also counting on each difference's mean so far), from the exact
values of ``values.py``: the share of worlds solved, and how often the card differs from
the one of all 32 worlds (with its cost: the mean value lost per decision, in points).

Usage (from the repository root, after values.py)::

    python benchmarks/results/pimc-sequential-2026-12-05/rule.py
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

WORLDS = 32


def stop_rule(values: np.ndarray, z: float, first: int, drift: bool) -> tuple[float, int,
                                                                              float]:
    """(share of worlds solved, decisions whose card differs, mean points lost)."""
    used = 0
    differ = 0
    lost = 0.0
    for v in values:
        v = v[:, v[0] >= 0]
        full = v.sum(0)
        stop = WORLDS
        for w in range(first, WORLDS):
            sums = v[:w].sum(0)
            best = int(np.argmax(sums))
            left = WORLDS - w
            settled = True
            for j in range(v.shape[1]):
                if j == best:
                    continue
                d = v[:w, best] - v[:w, j]
                sd = max(float(d.std(ddof=1)), 1.0)
                mean = float(d.mean()) if drift else 0.0
                if d.sum() + left * mean - z * sd * math.sqrt(left) <= 0:
                    settled = False
                    break
            if settled:
                stop = w
                break
        used += stop
        best = int(np.argmax(v[:stop].sum(0)))
        if full[best] < full.max():
            differ += 1
            lost += (full.max() - full[best]) / WORLDS
    return used / len(values) / WORLDS, differ, lost / len(values)


def main() -> None:
    values = np.load(Path(__file__).with_name("values.npy"))
    for first in (4, 8, 12):
        for z in (2, 3, 4):
            for drift in (False, True):
                share, differ, lost = stop_rule(values, z, first, drift)
                print(f"first {first:2d} z {z} drift {int(drift)}: worlds {share:.3f} "
                      f"differ {differ}/{len(values)} lost {lost:.4f} points/decision")


if __name__ == "__main__":
    main()
