"""No favourite suit: the four suit-contract counts agree within sampling noise.

RULES.md deals every suit alike, so a player without a favourite suit bids each suit as
often as the others. The club bidder used to choose the first of several contract kinds
of equal estimate in the order S H D C (1,000,000 donnes: 252,418 spade against 238,206
club contracts); it now draws among them from its own stream (``symmetric_ties``). The
data-fitted bidder of the heuristic player draws among kinds of equal value the same way.
"""

from __future__ import annotations

import numpy as np
from chisq import chi_square

from simcoinche.runs.simulation import simulate

N = 200_000


def _suit_counts(symmetric: float | None, players: str = "club") -> np.ndarray:
    p = None if symmetric is None else {"symmetric_ties": symmetric}
    vc = simulate(N, seed=1, players=players, params=(p, p),
                  progress=False)["trump"].value_counts()
    return np.array([int(vc.get(k, 0)) for k in "SHDC"])


def test_club_bids_the_four_suits_equally_often():
    counts = _suit_counts(1.0)
    _, p = chi_square(counts, [counts.sum() / 4] * 4)
    assert p > 0.001, counts


def test_heuristic_bids_the_four_suits_equally_often():
    counts = _suit_counts(None, "heuristic")
    _, p = chi_square(counts, [counts.sum() / 4] * 4)
    assert p > 0.001, counts


def test_the_old_first_in_order_tie_break_favours_spades_measurably():
    # The same test detects the old suit preference at this size (so it can fail).
    counts = _suit_counts(0.0)
    _, p = chi_square(counts, [counts.sum() / 4] * 4)
    assert p < 1e-6 and counts[0] > counts[1] > counts[2] > counts[3], counts
