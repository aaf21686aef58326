"""Batches of donnes in blocks, scratch allocated once per block.

Two entry points, both deterministic per row (a row depends only on the run key, its
index, the players, their parameters and the profile — never on the block or thread that
ran it, so results do not depend on the thread count, the block size or the chunking):

``run_batch`` — complete simulated donnes (deal, auction, play, scoring); donne
``start + j`` goes to row ``j`` of ``out`` (``int32[N_OUT, n]``, offsets ``O_*`` of
:mod:`.donne`). It runs the blocks it is given on the calling thread (GIL released); the
facade's threads share the blocks out.

``play_contracts`` — ``prange`` over blocks: the play phase only, for given hands and a
fixed contract (the bidding-odds engine: deal the unseen cards, then play the contract
many times)::

    play_contracts(run_key, start, hands, Contracts(dealer, taker, level, kind, coinche),
                   Players(codes, params, NO_KINDS), prof, out, think=None)

=========  ========================  ==================================================
argument   shape, dtype              meaning
=========  ========================  ==================================================
run_key    uint64                    :func:`.rng.seed_key` of the caller's seed
start      int64                     row ``j`` draws from the players' stream of index
                                     ``start + j`` (``donne_key(run_key, start + j)``,
                                     counters from ``STREAM_PLAYERS``)
hands      uint32[n, 4]              the four 8-card hands by seat (a partition of the
                                     deck: not checked here)
contracts  :class:`Contracts`        per row: ``dealer``, ``taker``, ``level``,
                                     ``kind``, ``coinche``, each int8..int64[n]
players    :class:`.donne.Players`   ``codes`` int32[2] (player kind per team,
                                     ``PLAYER_*``), ``params`` float64[2, PARAM_LEN],
                                     ``kinds`` (not read: no call is asked here;
                                     :data:`.kinds.NO_KINDS`)
prof       int32[PROFILE_LEN]        packed profile
out        int32[PC_LEN, n]          results, one column per row (offsets PC_* in .layout)
think      None, int64 or pair       PIMC players' think spec (see ``run_batch``)
=========  ========================  ==================================================

:class:`Contracts` fields: ``dealer`` dealer seat (seat ``dealer + 1`` leads);
``taker`` seat of the bidder 0..3; ``level`` ladder level (``n_values`` capot, ``+1``
générale); ``kind`` contract kind 0..5 (allowed by the profile); ``coinche`` 1, 2 or 4.

``out`` rows (``PC_*``; "per team" rows are team 0 then team 1): ``PC_TRICKS`` tricks
per team; ``PC_CARD_POINTS`` card points per team including the last trick (the
profile's capot value on a capot); ``PC_ANNOUNCE`` ordinary announcements per team after
the comparison and the capot transfer; ``PC_BELOTE`` belote per team; ``PC_MADE`` 1 if
the contract is made; ``PC_MARKS`` marks per team (rounded as the profile says);
``PC_TOTAL_TAKERS`` / ``PC_TOTAL_DEFENCE`` the totals ``T_t`` and ``T_d`` (cards +
announcements + belote) before rounding; ``PC_LITIGE`` 1 for a classic litige;
``PC_TAKER_TRICKS`` the tricks won by the bidder himself (a générale needs 8);
``PC_FAULTS`` the cards replaced (the ``F_*`` word of :mod:`.layout`, 0 when every card
played was legal: the facade fails on any other value). Inputs
are trusted (the facade validates them): an invalid contract gives meaningless rows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from simcoinche._kernels.announce import MAX_DECL
from simcoinche._kernels.auction import AUCTION_STATE_LEN
from simcoinche._kernels.borrow import borrow, borrow_all, keep_alive
from simcoinche._kernels.donne import MAX_ACTIONS, Outputs, Players, Scratch, play_one, play_phase
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import (
    PC_ANNOUNCE,
    PC_BELOTE,
    PC_CARD_POINTS,
    PC_FAULTS,
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



class Contracts(NamedTuple):
    """The fixed contracts :func:`play_contracts` plays, one per row (each field an
    integer array ``int8..int64[n]``; shapes in the module docstring)."""

    dealer: np.ndarray
    taker: np.ndarray
    level: np.ndarray
    kind: np.ndarray
    coinche: np.ndarray


@njit(cache=True)
def donne_scratch():
    """Scratch arrays of :func:`.donne.play_one` and :func:`.donne.play_phase`, allocated
    once per block of donnes: a :class:`.donne.Scratch` (shapes and dtypes there;
    ``declare`` all 1, everything else 0)."""
    return Scratch(np.zeros(RNG_STATE_LEN, dtype=np.uint64), np.zeros(32, dtype=np.int8),
                   np.zeros(4, dtype=np.uint32), np.zeros(4, dtype=np.uint32),
                   np.zeros(AUCTION_STATE_LEN, dtype=np.int32),
                   np.zeros(MAX_ACTIONS, dtype=np.uint8),
                   np.zeros(4, dtype=np.uint32), np.zeros(4, dtype=np.int32),
                   np.zeros(INFO_LEN, dtype=np.int64), np.zeros((MAX_DECL, 5), dtype=np.int32),
                   np.ones(4, dtype=np.uint8), np.zeros(2, dtype=np.int32),
                   np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int32),
                   np.zeros(2, dtype=np.int32), np.zeros(SCORE_LEN, dtype=np.int32))


@njit(cache=True, nogil=True)
def run_batch(run_key, start, n, first_block, end_block, fixed_dealer, players, prof, record,
              outs, think):
    """Simulate the blocks ``first_block .. end_block-1`` of donnes ``start .. start+n-1``
    (block ``b`` holds rows ``b*B .. min(n, (b+1)*B)-1``, ``B`` = :data:`BLOCK`, or 1 with
    a PIMC player; blocks past row ``n-1`` are empty), one after the other, on the
    calling thread with the GIL released. The facade
    (:func:`simcoinche.runs.simulation.run_donnes`) hands the blocks to its threads a few
    at a time: a row depends only on its index, never on the thread or the block.

    (Not a ``prange`` kernel: numba's parallel loop wraps the block kernel in four more
    compiled levels, each of which links and optimises the whole donne code again, 9-12 s
    of a cold ``simulate``'s compile; ``benchmarks/README.md``, "Compile time, sixth
    cut".)

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the run's seed.
    start : int64
        Index of the first donne.
    n : int64
        Number of donnes (rows).
    first_block, end_block : int64
        The blocks to simulate.
    fixed_dealer : int
        Dealer seat of every donne, or ``-1`` for the rotation ``index mod 4``.
    players : .donne.Players
        ``codes`` int32[2] (player kind per team), ``params`` float64[2, PARAM_LEN]
        (parameter row per team), ``kinds`` the optional player kinds compiled in
        (:func:`.kinds.kinds_of` of ``codes``).
    prof : int32[PROFILE_LEN]
        Packed profile.
    record : bool
        Fill the auction and play record arrays.
    outs : .donne.Outputs
        ``out`` int32[N_OUT, n] (row columns, offsets ``O_*`` of :mod:`.donne`);
        ``auc`` uint8[n, MAX_ACTIONS], ``auc_len`` int16[n], ``play_rec`` uint8[n, 32]
        (``[0, MAX_ACTIONS]``, ``[0]``, ``[0, 32]`` without recording); ``faults``
        int32[n] (the decisions replaced per row, ``F_*`` of :mod:`.layout`).
    think : None, int64 or (int64, bool)
        The think spec (:mod:`.thinking`): None when no team is a PIMC player; otherwise
        log2 of the table slots of the double-dummy solver each block gets
        (:func:`.thinking.think_scratch`), paired with True when a PIMC player thinks at
        the auction (the thinking bidder is compiled in only then).
    """
    # Every array every thread shares is passed on as a borrowed view (:func:`.borrow.borrow`,
    # no reference counting: the players' kernels take them at every decision, and their
    # counts would bounce between the cores). Safe: they are arguments of this call, held
    # by the caller until it returns. The NamedTuples are borrowed field by field
    # (:func:`.borrow.borrow_all` keeps their type).
    shared_players = borrow_all(players)
    shared_prof = borrow(prof)
    shared = borrow_all(outs)
    # The row columns as a strided view whatever the caller passes (a run's chunk of its
    # buffer is one; a whole array is contiguous): the donne code (play_one, inlined here)
    # is typed for one layout (run_batch itself still compiles per layout).
    rows = Outputs(shared.out[:, :], shared.auc, shared.auc_len, shared.play_rec,
                   shared.faults)
    block = think_block(think, BLOCK)
    for b in range(first_block, min(end_block, (n + block - 1) // block)):
        lo = b * block
        # Fresh scratch per block, as every run of a block has always had, borrowed too
        # (its counts cost 6 % of the heuristic donnes' speed), so kept alive below. The
        # blocks' loop is here, not in a kernel of its own: each compiled level links
        # and optimises the whole donne code again (2 s of a cold simulate;
        # benchmarks/README.md, "Compile time, fourteenth cut").
        scr = donne_scratch()
        block_scr = borrow_all(scr)
        thinking = think_scratch(think)
        for j in range(lo, min(n, lo + block)):
            index = start + j
            dealer = fixed_dealer if fixed_dealer >= 0 else index & 3
            # Single donnes: no score-aware bidder compiled in (None).
            play_one(run_key, index, j, dealer, shared_players, shared_prof, record, rows,
                     block_scr, thinking, None)
        # The scratch outlives its borrowed view (numba frees a local after its last use).
        keep_alive(scr)


@njit(cache=True, parallel=True, nogil=True)
def play_contracts(run_key, start, hands, contracts, players, prof, out, think=None):
    """Play fixed contracts on given hands: announcements, 32 cards, scoring.

    Shapes, dtypes and the ``out`` rows are in the module docstring. Row ``j`` plays the
    contract ``(contracts.taker[j], .level[j], .kind[j], .coinche[j])`` with the hands
    ``hands[j]`` and dealer ``contracts.dealer[j]``; the players draw from the stream of
    index ``start + j``. Writes ``out[:, j]`` for ``j`` in ``0 .. n-1`` (``n =
    hands.shape[0]``).
    """
    n = hands.shape[0]
    block = think_block(think, BLOCK)
    n_blocks = (n + block - 1) // block
    # ``players.kinds`` is not read: no call is asked here (and a parallel loop cannot
    # take its None members).
    codes = players.codes
    params = players.params
    for b in prange(n_blocks):
        lo = b * block
        scr = donne_scratch()
        play_rec = np.zeros((0, 32), dtype=np.uint8)
        _play_block(run_key, start, lo, min(n, lo + block), hands, contracts,
                    Players(codes, params, NO_KINDS), prof, out, play_rec, scr,
                    think_scratch(think))
        # _play_block is copied here (a level of its own linked and optimised the card
        # play once more: 1.4 s of a cold odds) and borrows the scratch and the empty play
        # record: both kept alive past their last use.
        keep_alive(scr)
        keep_alive(play_rec)


@njit(cache=True, inline="always")
def _play_block(run_key, start, lo, hi, hands, contracts, players, prof, out, play_rec, scr,
                thinking):
    """Rows ``lo .. hi-1`` of :func:`play_contracts`, one after the other.

    ``hands``, ``contracts``, ``players``, ``prof`` and ``out`` are those of
    ``play_contracts``; ``play_rec`` is ``uint8[0, 32]`` (no play record),
    ``scr`` the :class:`.donne.Scratch` of :func:`donne_scratch` (row ``j``'s hands are
    copied into ``scr.hands``), ``thinking`` the PIMC scratch. The arrays the play
    kernels take are passed on as borrowed views, as in :func:`run_batch`. Inlined in
    :func:`play_contracts`' loop, which holds its arguments or keeps them alive
    (:func:`.borrow.keep_alive` of the block's scratch and play record).
    """
    players = borrow_all(players)
    prof = borrow(prof)
    play_rec = borrow(play_rec)
    scr = borrow_all(scr)
    out = borrow(out)
    dealer, taker, level, kind, coinche = contracts
    hs = scr.hands
    st = scr.st
    for j in range(lo, hi):
        for s in range(4):
            hs[s] = hands[j, s]
        rng_seed(st, donne_key(run_key, start + j), STREAM_PLAYERS)
        t = np.int64(taker[j])
        # The argument types of play_one's call (int32 contract fields, as read from the
        # auction state; int64 counts; a bool that is not a literal): one compiled
        # play_phase for simulate, odds, advise and the thinking bidder, not one each.
        made, own, fault = play_phase(np.int64(dealer[j]),
                               (np.int32(taker[j]), np.int32(level[j]), np.int32(kind[j]),
                                np.int32(coinche[j])),
                               players, prof, np.int64(0), np.bool_(False), play_rec,
                               np.int64(0), scr, thinking)
        tricks = scr.tricks
        cpts = scr.cpts
        bel = scr.bel
        score = scr.score
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
        # The cards replaced (0: every card was legal).
        out[PC_FAULTS, j] = fault
