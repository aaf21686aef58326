"""The PIMC player's per-thread scratch (:class:`Think`) and its allocation.

Apart from :mod:`.pimc`, which imports the double-dummy solver (and so compiles its
search, which has an explicit signature): a run allocates its PIMC players' scratch at
the start of its blocks, and compiling that allocation must not compile the solver too.
A cold run with PIMC seats thus leaves the solver to its compile helper
(``simcoinche.runs.simulation.warm_pimc_card``) until its card play reaches the PIMC
decision, :func:`.pimc.pimc_card`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcoinche._kernels import dd_scratch
from simcoinche._kernels.sampler import CUM_SHAPE, PICK_SHAPE, W_SHAPE

# Transposition table of the per-thread solver: 2**PIMC_TT_LOG2 slots.
PIMC_TT_LOG2 = dd_scratch.TT_LOG2
# The most worlds one decision keeps (the largest ``worlds`` the registry accepts).
MAX_WORLDS = 4096


class Think(NamedTuple):
    """Per-thread scratch of the PIMC player (shapes fixed, dtypes below).

    ``solver`` the double-dummy scratch (:func:`.dd_scratch.new_scratch`); the sampler's tables
    ``w`` int64[5, 9, 9], ``cum`` int64[4, 9, 9, 45], ``pick`` int8[4, 9, 9, 45, 2];
    ``counts`` int64[4] free cards per suit, ``allow`` uint8[4, 3], ``caps`` int64[3],
    ``seats`` int64[3] the other seats; ``known`` uint32[4] cards placed per seat,
    ``free`` uint32[4] free cards per suit, ``perm`` int64[8], ``world`` uint32[4] a
    sampled deal; ``trick`` int64[4]; ``sums`` int64[32] the values summed over the
    worlds, by card (-1: a card that cannot be best; the best lower sum for a card of
    the one class that alone can be best without an exact sum).

    The worlds of one decision and what is known of them: ``hands``
    uint32[MAX_WORLDS, 4] each world renumbered for the solver; ``lo`` / ``hi``
    int32[MAX_WORLDS, 8] the bounds of each class's value in each world; ``sum_lo`` /
    ``sum_hi`` int64[8] their sums over the worlds; ``guess`` int64[8] each class's
    last exact value; ``reps`` int64[8] one card of each class of equivalent legal
    cards and ``card_class`` int64[32] each legal card's class
    (:func:`.dd.root_classes`).
    """

    solver: dd_scratch.Scratch
    w: np.ndarray
    cum: np.ndarray
    pick: np.ndarray
    counts: np.ndarray
    allow: np.ndarray
    caps: np.ndarray
    seats: np.ndarray
    known: np.ndarray
    free: np.ndarray
    perm: np.ndarray
    world: np.ndarray
    trick: np.ndarray
    sums: np.ndarray
    hands: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    sum_lo: np.ndarray
    sum_hi: np.ndarray
    guess: np.ndarray
    reps: np.ndarray
    card_class: np.ndarray


@njit(cache=True)
def new_think(tt_log2):
    """A fresh :class:`Think` whose solver table has ``2**tt_log2`` slots."""
    return Think(dd_scratch.new_scratch(tt_log2),
                 np.zeros(W_SHAPE, np.int64), np.zeros(CUM_SHAPE, np.int64),
                 np.zeros(PICK_SHAPE, np.int8), np.zeros(4, np.int64),
                 np.zeros((4, 3), np.uint8), np.zeros(3, np.int64), np.zeros(3, np.int64),
                 np.zeros(4, np.uint32), np.zeros(4, np.uint32), np.zeros(8, np.int64),
                 np.zeros(4, np.uint32), np.zeros(4, np.int64),
                 np.zeros(32, np.int64), np.zeros((MAX_WORLDS, 4), np.uint32),
                 np.zeros((MAX_WORLDS, 8), np.int32), np.zeros((MAX_WORLDS, 8), np.int32),
                 np.zeros(8, np.int64), np.zeros(8, np.int64), np.zeros(8, np.int64),
                 np.zeros(8, np.int64), np.zeros(32, np.int64))
