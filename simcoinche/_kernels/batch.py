"""Parallel batches of donnes: ``prange`` over blocks, scratch allocated once per block.

Donne ``start + j`` goes to row ``j``. Each donne depends only on (seed, index, players,
parameters, profile), never on the block or thread that ran it, so a run gives the same
rows whatever the thread count, the block size or the chunking by the caller.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcoinche._kernels.announce import MAX_DECL
from simcoinche._kernels.auction import AUCTION_STATE_LEN
from simcoinche._kernels.donne import MAX_ACTIONS, play_one
from simcoinche._kernels.players import INFO_LEN
from simcoinche._kernels.rng import RNG_STATE_LEN
from simcoinche._kernels.scoring import SCORE_LEN

BLOCK = 512


@njit(cache=True, parallel=True, nogil=True)
def run_batch(run_key, start, n, fixed_dealer, codes, params, prof, record,
              out, auc, auc_len, play_rec):
    """Simulate donnes ``start .. start+n-1`` into rows ``0 .. n-1``.

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the run's seed.
    start : int64
        Index of the first donne.
    n : int64
        Number of donnes (rows).
    fixed_dealer : int
        Dealer seat of every donne, or ``-1`` for the rotation ``index mod 4``.
    codes : int32[2]
        Player kind per team.
    params : float64[2, PARAM_LEN]
        Parameter row per team.
    prof : int32[PROFILE_LEN]
        Packed profile.
    record : bool
        Fill the auction and play record arrays.
    out : int32[N_OUT, n]
        Row columns (offsets ``O_*`` of :mod:`.donne`).
    auc : uint8[n, MAX_ACTIONS] (or ``[0, MAX_ACTIONS]`` without recording)
    auc_len : int16[n] (or ``[0]``)
    play_rec : uint8[n, 32] (or ``[0, 32]``)
    """
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        deck = np.zeros(32, dtype=np.int8)
        hands = np.zeros(4, dtype=np.uint32)
        early = np.zeros(4, dtype=np.uint32)
        cur = np.zeros(4, dtype=np.uint32)
        astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
        trick = np.zeros(4, dtype=np.int32)
        info = np.zeros(INFO_LEN, dtype=np.int64)
        decl = np.zeros((MAX_DECL, 5), dtype=np.int32)
        declare = np.ones(4, dtype=np.uint8)
        ann = np.zeros(2, dtype=np.int32)
        bel = np.zeros(2, dtype=np.int32)
        cpts = np.zeros(2, dtype=np.int32)
        tricks = np.zeros(2, dtype=np.int32)
        score = np.zeros(SCORE_LEN, dtype=np.int32)
        lo = b * BLOCK
        hi = min(n, lo + BLOCK)
        for j in range(lo, hi):
            index = start + j
            dealer = fixed_dealer if fixed_dealer >= 0 else index & 3
            play_one(run_key, index, j, dealer, codes, params, prof, record,
                     out, auc, auc_len, play_rec,
                     st, deck, hands, early, cur, astate, actions, trick, info, decl, declare,
                     ann, bel, cpts, tricks, score)
