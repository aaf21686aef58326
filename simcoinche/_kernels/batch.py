"""Parallel batches: ``prange`` over blocks, scratch allocated once per block.

Two entry points, both deterministic per row (a row depends only on the run key, its
index, the players, their parameters and the profile — never on the block or thread that
ran it, so results do not depend on the thread count, the block size or the chunking):

``run_batch`` — complete simulated donnes (deal, auction, play, scoring); donne
``start + j`` goes to row ``j`` of ``out`` (``int32[N_OUT, n]``, offsets ``O_*`` of
:mod:`.donne`).

``play_contracts`` — the play phase only, for given hands and a fixed contract (the
bidding-odds engine: deal the unseen cards, then play the contract many times)::

    play_contracts(run_key, start, hands, dealer, taker, level, kind, coinche,
                   codes, params, prof, out, think=None)

=========  ========================  ==================================================
argument   shape, dtype              meaning
=========  ========================  ==================================================
run_key    uint64                    :func:`.rng.seed_key` of the caller's seed
start      int64                     row ``j`` draws from the players' stream of index
                                     ``start + j`` (``donne_key(run_key, start + j)``,
                                     counters from ``STREAM_PLAYERS``)
hands      uint32[n, 4]              the four 8-card hands by seat (a partition of the
                                     deck: not checked here)
dealer     int8..int64[n]            dealer seat; seat ``dealer + 1`` leads
taker      int8..int64[n]            seat of the bidder 0..3
level      int8..int64[n]            ladder level (``n_values`` capot, ``+1`` générale)
kind       int8..int64[n]            contract kind 0..5 (allowed by the profile)
coinche    int8..int64[n]            1, 2 or 4
codes      int32[2]                  player kind per team (``PLAYER_*``)
params     float64[2, PARAM_LEN]     parameter row per team
prof       int32[PROFILE_LEN]        packed profile
out        int32[PC_LEN, n]          results, one column per row (offsets PC_* in .layout)
think      None or int64             PIMC players' solver table (see ``run_batch``)
=========  ========================  ==================================================

``out`` rows (``PC_*``; "per team" rows are team 0 then team 1): ``PC_TRICKS`` tricks
per team; ``PC_CARD_POINTS`` card points per team including the last trick (the
profile's capot value on a capot); ``PC_ANNOUNCE`` ordinary announcements per team after
the comparison and the capot transfer; ``PC_BELOTE`` belote per team; ``PC_MADE`` 1 if
the contract is made; ``PC_MARKS`` marks per team (rounded as the profile says);
``PC_TOTAL_TAKERS`` / ``PC_TOTAL_DEFENCE`` the totals ``T_t`` and ``T_d`` (cards +
announcements + belote) before rounding; ``PC_LITIGE`` 1 for a classic litige;
``PC_TAKER_TRICKS`` the tricks won by the bidder himself (a générale needs 8). Inputs
are trusted (the facade validates them): an invalid contract gives meaningless rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcoinche._kernels.announce import MAX_DECL
from simcoinche._kernels.auction import AUCTION_STATE_LEN
from simcoinche._kernels.borrow import borrow_all
from simcoinche._kernels.donne import MAX_ACTIONS, play_one, play_phase
from simcoinche._kernels.layout import (
    PC_ANNOUNCE,
    PC_BELOTE,
    PC_CARD_POINTS,
    PC_LITIGE,
    PC_MADE,
    PC_MARKS,
    PC_TAKER_TRICKS,
    PC_TOTAL_DEFENCE,
    PC_TOTAL_TAKERS,
    PC_TRICKS,
)
from simcoinche._kernels.players import INFO_LEN
from simcoinche._kernels.rng import RNG_STATE_LEN, STREAM_PLAYERS, donne_key, rng_seed
from simcoinche._kernels.scoring import (
    S_ANN0,
    S_ANN1,
    S_LITIGE,
    S_MARK0,
    S_MARK1,
    S_TOTAL0,
    SCORE_LEN,
)
from simcoinche._kernels.thinking import think_block, think_scratch

BLOCK = 512



@njit(cache=True)
def play_scratch():
    """Scratch arrays of :func:`.donne.play_phase`, allocated once per block of donnes.

    Returns ``(cur uint32[4], trick int32[4], info int64[INFO_LEN],
    decl int32[MAX_DECL, 5], declare uint8[4] (all 1), ann int32[2], bel int32[2],
    cpts int32[2], tricks int32[2], score int32[SCORE_LEN])``.
    """
    return (np.zeros(4, dtype=np.uint32), np.zeros(4, dtype=np.int32),
            np.zeros(INFO_LEN, dtype=np.int64), np.zeros((MAX_DECL, 5), dtype=np.int32),
            np.ones(4, dtype=np.uint8), np.zeros(2, dtype=np.int32),
            np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int32),
            np.zeros(2, dtype=np.int32), np.zeros(SCORE_LEN, dtype=np.int32))


@njit(cache=True)
def donne_scratch():
    """Scratch arrays of :func:`.donne.play_one` before the play phase, allocated once per
    block of donnes: ``(st uint64[RNG_STATE_LEN], deck int8[32], hands uint32[4],
    early uint32[4], astate int32[AUCTION_STATE_LEN], actions uint8[MAX_ACTIONS])``.
    """
    return (np.zeros(RNG_STATE_LEN, dtype=np.uint64), np.zeros(32, dtype=np.int8),
            np.zeros(4, dtype=np.uint32), np.zeros(4, dtype=np.uint32),
            np.zeros(AUCTION_STATE_LEN, dtype=np.int32), np.zeros(MAX_ACTIONS, dtype=np.uint8))


@njit(cache=True, parallel=True, nogil=True)
def run_batch(run_key, start, n, fixed_dealer, codes, params, prof, record,
              out, auc, auc_len, play_rec, think):
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
    think : None or int64
        None when no team is a PIMC player; otherwise log2 of the table slots of the
        double-dummy solver each block gets (:func:`.thinking.think_scratch`).
    """
    block = think_block(think, BLOCK)
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        lo = b * block
        # The scratch lives in this loop body until the block's call returns.
        _simulate_block(run_key, start, lo, min(n, lo + block), fixed_dealer, record,
                        (codes, params, prof, out, auc, auc_len, play_rec),
                        donne_scratch(), play_scratch(), think_scratch(think))


@njit(cache=True)
def _simulate_block(run_key, start, lo, hi, fixed_dealer, record, args, donne_arrays,
                    play_arrays, thinking):
    """Rows ``lo .. hi-1`` of :func:`run_batch`, one after the other.

    ``args`` is ``(codes, params, prof, out, auc, auc_len, play_rec)`` of ``run_batch``;
    ``donne_arrays`` and ``play_arrays`` are the tuples of :func:`donne_scratch` and
    :func:`play_scratch`; ``thinking`` is the PIMC scratch (:func:`.thinking.think_scratch`).

    Every array is passed on as a borrowed view (:func:`.borrow.borrow`, no reference
    counting: the players' kernels take them at every decision, and the counts of the
    arrays every thread shares would bounce between cores). This is safe because they are
    all arguments of this call: the caller holds them until it returns.
    """
    codes, params, prof, out, auc, auc_len, play_rec = borrow_all(args)
    st, deck, hands, early, astate, actions = borrow_all(donne_arrays)
    cur, trick, info, decl, declare, ann, bel, cpts, tricks, score = borrow_all(play_arrays)
    for j in range(lo, hi):
        index = start + j
        dealer = fixed_dealer if fixed_dealer >= 0 else index & 3
        play_one(run_key, index, j, dealer, codes, params, prof, record,
                 out, auc, auc_len, play_rec,
                 st, deck, hands, early, cur, astate, actions, trick, info, decl, declare,
                 ann, bel, cpts, tricks, score, thinking)


@njit(cache=True, parallel=True, nogil=True)
def play_contracts(run_key, start, hands, dealer, taker, level, kind, coinche, codes, params,
                   prof, out, think=None):
    """Play fixed contracts on given hands: announcements, 32 cards, scoring.

    Shapes, dtypes and the ``out`` rows are in the module docstring. Row ``j`` plays the
    contract ``(taker[j], level[j], kind[j], coinche[j])`` with the hands ``hands[j]``
    and dealer ``dealer[j]``; the players draw from the stream of index ``start + j``.
    Writes ``out[:, j]`` for ``j`` in ``0 .. n-1`` (``n = hands.shape[0]``).
    """
    n = hands.shape[0]
    block = think_block(think, BLOCK)
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        lo = b * block
        block_arrays = (np.zeros(RNG_STATE_LEN, dtype=np.uint64), np.zeros(4, dtype=np.uint32),
                        np.zeros(1, dtype=np.uint8), np.zeros((0, 32), dtype=np.uint8))
        # The scratch lives in this loop body until the block's call returns.
        _play_block(run_key, start, lo, min(n, lo + block),
                    (hands, dealer, taker, level, kind, coinche), (codes, params, prof, out),
                    block_arrays, play_scratch(), think_scratch(think))


@njit(cache=True)
def _play_block(run_key, start, lo, hi, contracts, args, block_arrays, play_arrays, thinking):
    """Rows ``lo .. hi-1`` of :func:`play_contracts`, one after the other.

    ``contracts`` is ``(hands, dealer, taker, level, kind, coinche)`` and ``args``
    ``(codes, params, prof, out)`` of ``play_contracts``; ``block_arrays`` is ``(st
    uint64[RNG_STATE_LEN], hs uint32[4], actions uint8[1], play_rec uint8[0, 32])``,
    ``play_arrays`` the tuple of :func:`play_scratch`, ``thinking`` the PIMC scratch.
    The arrays the play kernels take are passed on as borrowed views, as in
    :func:`_simulate_block` (safe: they are arguments of this call).
    """
    hands, dealer, taker, level, kind, coinche = contracts
    codes, params, prof, out = borrow_all(args)
    st, hs, actions, play_rec = borrow_all(block_arrays)
    cur, trick, info, decl, declare, ann, bel, cpts, tricks, score = borrow_all(play_arrays)
    for j in range(lo, hi):
        for s in range(4):
            hs[s] = hands[j, s]
        rng_seed(st, donne_key(run_key, start + j), STREAM_PLAYERS)
        t = np.int64(taker[j])
        made, own = play_phase(hs, np.int64(dealer[j]), t, np.int64(level[j]),
                               np.int64(kind[j]), np.int64(coinche[j]), codes, params, prof,
                               st, actions, 0, False, play_rec, 0,
                               cur, trick, info, decl, declare, ann, bel, cpts, tricks, score,
                               thinking)
        for q in range(2):
            out[PC_TRICKS + q, j] = tricks[q]
            out[PC_CARD_POINTS + q, j] = cpts[q]
            out[PC_BELOTE + q, j] = bel[q]
        out[PC_ANNOUNCE, j] = score[S_ANN0]
        out[PC_ANNOUNCE + 1, j] = score[S_ANN1]
        out[PC_MADE, j] = made
        out[PC_MARKS, j] = score[S_MARK0]
        out[PC_MARKS + 1, j] = score[S_MARK1]
        out[PC_TOTAL_TAKERS, j] = score[S_TOTAL0 + (t & 1)]
        out[PC_TOTAL_DEFENCE, j] = score[S_TOTAL0 + 1 - (t & 1)]
        out[PC_LITIGE, j] = score[S_LITIGE]
        out[PC_TAKER_TRICKS, j] = own
