"""The double-dummy solver's working memory: its layout and its allocation.

Apart from :mod:`.dd` so that a run can allocate the scratch of its PIMC players (and
compile what allocates it) without importing the solver itself: importing :mod:`.dd`
compiles its search, which has an explicit signature. A cold run with PIMC seats thus
leaves that compile to its compile helper (``simcoinche.runs.simulation.warm_pimc_card``)
until its card play reaches the PIMC decision.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcoinche._kernels.layout import PROFILE_LEN

# RULES.md, "Rulings on points the sources leave open": the double-dummy value of a team
# that wins every trick, in every profile and contract kind.
DD_CAPOT = 252

# Transposition table: 2 ** TT_LOG2 slots (buckets of two), two int64 words a slot: key,
# data.
TT_LOG2 = 17

# Layout of the work array (int64): offsets of each part. The packed profile comes first,
# so the work array itself is the ``prof`` argument of the play kernels.
MAX_PLY = 36
W_HANDS = PROFILE_LEN             # [4] cards each seat still holds
W_POINTS = W_HANDS + 4            # [32] card points under the contract kind
W_ABOVE_EQ = W_POINTS + 32        # [32] next stronger card of the suit with equal points, -1
W_MOVES = W_ABOVE_EQ + 32         # [MAX_PLY, 8] candidates per ply, best first
W_SCORES = W_MOVES + 8 * MAX_PLY  # [MAX_PLY, 8] their ordering scores
W_KILLER = W_SCORES + 8 * MAX_PLY  # [MAX_PLY, 2] killer cards per ply
W_STAMP = W_KILLER + 2 * MAX_PLY   # solve stamp
W_NODES = W_STAMP + 1             # nodes searched
W_SHIFT = W_STAMP + 2             # 64 - TT log2 (index = top bits of the hash)
W_EQ_CARDS = W_STAMP + 3          # cards that have an equal-point stronger neighbour
W_TRUMP = W_STAMP + 4             # contract kind of the search
W_MODE = W_STAMP + 5              # search mode (MODE_*)
W_TARGET = W_STAMP + 6            # sweeping seat (sweep modes)
W_CAPOT = W_STAMP + 7             # the last trick's bonus on a capot: 252 - card points
W_OPEN = W_STAMP + 8              # the most the last trick adds while a capot is possible
W_DD_TOTAL = W_STAMP + 9          # card points + last trick: the two teams' sum, no capot
W_TRUMP_PTS = W_STAMP + 10        # [256] points of a set of trumps (strength-ordered byte)
W_CHILD = W_TRUMP_PTS + 256      # [4] card_value: the trick after the card tried
W_REPS = W_CHILD + 4              # [8] root_values: one card of each class of equal cards
W_REP_VALUES = W_REPS + 8         # [8] root_values: the value of each class
W_CLASS_MARK = W_REP_VALUES + 8   # [32] root_classes: class of each searched card, -1
W_CARD_CLASS = W_CLASS_MARK + 32  # [32] root_values: class of each legal card, -1
W_TABLE = W_CARD_CLASS + 32       # [2 * 2**log2] transposition table: key, data


class Scratch(NamedTuple):
    """Working memory of one solving thread (allocated once, see :func:`new_scratch`).

    ``work`` int64[W_TABLE + 2 * 2**log2]: the packed profile of the current solve,
    hands, points, candidates, killers and counters at the ``W_*`` offsets, then the
    transposition table (key, data per slot). One array, so the
    search passes a single array down its recursion.
    """

    work: np.ndarray


@njit(cache=True)
def new_scratch(tt_log2=TT_LOG2):
    """A fresh :class:`Scratch` (``2 * 8 * 2**tt_log2`` bytes of table, 2 MiB by default)."""
    S = Scratch(np.zeros(W_TABLE + (2 << tt_log2), np.int64))
    S.work[W_SHIFT] = 64 - tt_log2
    return S
