"""Whole parties: donnes played one after the other until a team wins (``partie_step``).

Random streams. Partie ``p`` of a run keyed ``run_key`` has its own key
``partie_key(run_key, p) = mix64(donne_key(run_key, p) XOR PARTIE_SALT)``; its donne
``k`` is :func:`.donne.play_one` with that key and index ``k`` (so it draws from
``donne_key(partie_key, k)``). A partie therefore depends only on ``(seed, p)``, the
players, their parameters and the profile — never on the block, thread, chunk or
engine that played it. The dealer of donne ``k`` of partie ``p`` is ``(p + k) mod 4``:
it moves to the next seat after every donne, a passed-out one included, and the first
dealer turns with the partie index so that neither team always deals first.

Cap. A partie could in principle go on for ever (passed-out donnes, equal totals over
the target); after ``max_donnes`` donnes without a winner it stops with winner ``-1``,
which the facade reports (never a silent truncation).

``run_parties(run_key, start, n, (first, end), max_donnes, block_rows, given, players,
prof, PartieOutputs(pout, dout, used, faults), think)``

=========== ===================== ==================================================
argument    shape, dtype          meaning
=========== ===================== ==================================================
run_key     uint64                :func:`.rng.seed_key` of the run's seed
start       int64                 index of the first partie
n           int64                 number of parties (columns of ``pout``)
blocks      (int64, int64)        the blocks ``first .. end-1`` to play (``BLOCK``
                                  parties each; the facade shares them out)
max_donnes  int64                 donnes after which a partie stops unfinished
block_rows  int64                 donne rows of ``dout`` reserved per block
given       int32[N_OUT, m]       test hook: when ``m > 0`` donne ``k`` of every
                                  partie is column ``k mod m`` of ``given`` (constructed
                                  sequences) instead of being played; ``m = 0`` plays
players     :class:`.donne.Players` ``codes`` int32[2] (player kind per team),
                                  ``params`` float64[2, PARAM_LEN] (parameter row
                                  per team), ``kinds`` (:func:`.kinds.kinds_of`)
prof        int32[PROFILE_LEN]    packed profile
outs        :class:`PartieOutputs` the three outputs below
pout        int32[PT_LEN, n]      one column per partie (rows ``PT_*``)
dout        int32[PD_LEN, nb*br]  donne rows: block ``b`` (parties ``b*BLOCK ..``)
                                  fills columns ``b*block_rows ..`` in order, partie
                                  by partie, donne by donne; rows ``O_*`` of
                                  :mod:`.donne` then ``PD_SCORE`` (2 rows: the partie
                                  totals before the donne)
used        int64[nb]             donne rows filled by block ``b``, or ``-1`` when the
                                  block ran out of rows (the caller retries with more)
faults      int32[nb*br]          per donne row of ``dout``: the decisions replaced
                                  (``F_*`` word of :mod:`.layout`, 0: none)
=========== ===================== ==================================================

``nb = ceil(n / BLOCK)``. ``pout`` rows: ``PT_WINNER`` winning team or ``-1``
(unfinished at ``max_donnes``), ``PT_TOTAL`` 2 rows of final totals, ``PT_N_DONNES``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, uint64

from simcoinche._kernels.auction import A_PARTIE, A_PENDING, A_TOTAL
from simcoinche._kernels.batch import donne_scratch
from simcoinche._kernels.borrow import borrow, borrow_all, keep_alive
from simcoinche._kernels.donne import (
    MAX_ACTIONS,
    N_OUT,
    O_MADE,
    O_MARKS,
    O_TAKER,
    O_TRICKS,
    Outputs,
    play_one,
)
from simcoinche._kernels.partie_layout import (
    PD_SCORE,
    PT_N_DONNES,
    PT_TOTAL,
    PT_WINNER,
)
from simcoinche._kernels.rng import donne_key, mix64
from simcoinche._kernels.scoring import partie_step
from simcoinche._kernels.thinking import think_scratch

BLOCK = 64
PARTIE_SALT = np.uint64(0xA0761D6478BD642F)


class PartieOutputs(NamedTuple):
    """What :func:`run_parties` writes (shapes in the module docstring): ``pout``
    int32[PT_LEN, n], ``dout`` int32[PD_LEN, nb*block_rows], ``used`` int64[nb],
    ``faults`` int32[nb*block_rows] (per donne row of ``dout``)."""

    pout: np.ndarray
    dout: np.ndarray
    used: np.ndarray
    faults: np.ndarray


@njit(cache=True, inline="always")
def partie_key(run_key, partie):
    """Key (``uint64``) of partie ``partie`` (``int64`` >= 0) of the run keyed ``run_key``."""
    return mix64(donne_key(run_key, partie) ^ uint64(PARTIE_SALT))


@njit(cache=True, nogil=True)
def run_parties(run_key, start, n, blocks, max_donnes, block_rows, given, players, prof,
                outs, think):
    """Play the blocks ``blocks = (first, end)`` (``BLOCK`` parties each; blocks past
    partie ``n-1`` are empty) of parties ``start .. start+n-1`` into columns ``0 .. n-1``
    of ``outs.pout``, one block after the other, on the calling thread with the GIL
    released (the facade shares the blocks out to its threads:
    :func:`simcoinche.runs.blocks.share_blocks`).

    Shapes, dtypes and layouts in the module docstring.
    """
    first, end = blocks
    used = outs.used
    for b in range(first, min(end, (n + BLOCK - 1) // BLOCK)):
        lo = b * BLOCK
        record_arrays = (np.zeros((0, MAX_ACTIONS), dtype=np.uint8),
                         np.zeros(0, dtype=np.int16), np.zeros((0, 32), dtype=np.uint8))
        partie_arrays = (np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int32),
                         np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int32))
        # Fresh scratch per block. _parties_block is inlined here (a compiled level of
        # its own linked and optimised the whole donne code once more: 2.5 s of a cold
        # parties; benchmarks/README.md, "Compile time, fourteenth cut"), so the locals
        # it borrows are kept alive past its last use of them.
        scr = donne_scratch()
        used[b] = _parties_block(run_key, start, (lo, min(n, lo + BLOCK)),
                                 (b * block_rows, block_rows), max_donnes,
                                 (given, prof, outs.pout, outs.dout, outs.faults), players,
                                 record_arrays, scr, partie_arrays, think_scratch(think))
        keep_alive(scr)
        keep_alive(record_arrays)


@njit(cache=True, inline="always")
def _parties_block(run_key, start, parties, rows, max_donnes, args, players, record_arrays,
                   scr, partie_arrays, thinking):
    """Parties ``lo .. hi-1`` (``parties = (lo, hi)``) of :func:`run_parties` into donne
    rows ``first .. first+block_rows-1`` (``rows = (first, block_rows)``); returns the
    rows filled, or ``-1`` when they ran out.

    ``args`` is ``(given, prof, pout, dout, faults)`` and ``players`` the :class:`.donne.Players`
    of ``run_parties``; ``record_arrays`` the empty record outputs ``(auc uint8[0,
    MAX_ACTIONS], auc_len int16[0], play_rec uint8[0, 32])``; ``scr`` the
    :class:`.donne.Scratch` of :func:`.batch.donne_scratch`; ``partie_arrays`` four
    ``int32[2]`` (totals, pending, marks, tricks won); ``thinking`` the PIMC scratch. The
    donne kernels get borrowed views of them (:func:`.borrow.borrow`, as in
    :func:`.batch.run_batch`). Inlined in :func:`run_parties`, which holds its arguments
    or keeps them alive (:func:`.borrow.keep_alive`) until it returns.
    """
    lo, hi = parties
    first, block_rows = rows
    given, prof, pout, dout, faults = args
    prof = borrow(prof)
    dout = borrow(dout)
    faults = borrow(faults)
    players = borrow_all(players)
    auc, auc_len, play_rec = borrow_all(record_arrays)
    outs = Outputs(dout, auc, auc_len, play_rec, faults)
    scr = borrow_all(scr)
    totals, pending, marks, won = partie_arrays
    astate = scr.astate
    n_given = given.shape[1]
    # Typed bool, not a literal: the card play (play_phase) then gets the argument type
    # run_batch passes, one compiled version for both.
    record = n_given < 0
    row = first
    end = first + block_rows
    for j in range(lo, hi):
        p = start + j
        key = partie_key(run_key, p)
        totals[0] = 0
        totals[1] = 0
        pending[0] = 0
        pending[1] = 0
        winner = -1
        # Typed from the start (a literal 0 compiled play_one twice, Literal[int](0) then
        # int64, when it was a function of its own; benchmarks/README.md, "Compile time").
        k = np.int64(0)
        while winner < 0 and k < max_donnes:
            if row >= end:
                return -1
            # The score before this donne (what the players see at the table).
            dout[PD_SCORE, row] = totals[0]
            dout[PD_SCORE + 1, row] = totals[1]
            # ... and in the auction state, for the score-aware bidder (:mod:`.score_bid`).
            astate[A_PARTIE] = 1
            for t in range(2):
                astate[A_TOTAL + t] = totals[t]
                astate[A_PENDING + t] = pending[t]
            if n_given > 0:
                # Test hook: a constructed donne instead of a played one.
                for c in range(N_OUT):
                    dout[c, row] = given[c, k % n_given]
                # A constructed donne has no players' decisions.
                faults[row] = 0
            else:
                # "The dealer moves to D+1 after every donne, a passed-out one
                # included."
                play_one(key, k, row, (p + k) & 3, players, prof, record, outs, scr,
                         thinking, np.int64(1))
            taker = dout[O_TAKER, row]
            for t in range(2):
                marks[t] = dout[O_MARKS + t, row]
                won[t] = dout[O_TRICKS + t, row]
            # A passed-out donne has no taker team (-1) and scores nothing.
            winner = partie_step(totals, pending, marks, won,
                                 -1 if taker < 0 else taker & 1, dout[O_MADE, row],
                                 prof)
            row += 1
            k += 1
        pout[PT_WINNER, j] = winner
        pout[PT_TOTAL, j] = totals[0]
        pout[PT_TOTAL + 1, j] = totals[1]
        pout[PT_N_DONNES, j] = k
    return row - first
