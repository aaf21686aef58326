"""Kernels of the odds engine: exact constrained dealing, and every bid level from one play.

Dealing is uniform over every deal consistent with what a player knows;
:func:`made_at_levels` (end of the module) applies the success test of each bid level to
deals played once.

The problem
-----------
One seat's 8 cards are known. Some of the 24 unseen cards may be pinned to a seat
("``--give``") and some seats may be known void in some suits ("``--void``"). The
remaining *free* cards must be dealt to the three other seats so that each seat ends with
8 cards and no seat receives a card of a suit it is void in. We want a deal drawn
uniformly among all such consistent deals — exactly, and without rejection loops that
could stall when the constraints are tight.

Method
------
Name the three other seats ``a, b, c`` with remaining capacities ``cap_a, cap_b, cap_c``
(8 minus the cards pinned to them; they add up to the number of free cards). An
*allocation* says how many free cards of each suit go to each seat: ``k[s] = (ka, kb, kc)``
with ``ka + kb + kc = n_s`` (free cards of suit ``s``), ``k = 0`` for a seat void in ``s``,
and column sums equal to the capacities. An allocation is realised by
``prod_s n_s! / (ka! kb! kc!)`` deals (which cards of the suit go where), so

    #deals = sum over allocations of prod_s multinomial(n_s; k[s]).

The dynamic programme ``W[s, ca, cb]`` counts the ways to deal suits ``s..3`` when seats
``a`` and ``b`` still have room for ``ca`` and ``cb`` cards (seat ``c``'s room is then
implied: the free cards left minus ``ca`` minus ``cb``). ``W[4, 0, 0] = 1``. Sampling walks
the suits in order: for suit ``s`` pick ``(ka, kb, kc)`` with probability
``multinomial · W[s+1, ca-ka, cb-kb] / W[s, ca, cb]`` (an exact integer draw below
``W[s, ca, cb]``), then give the suit's free cards to the chosen slots in a uniformly
random order. Each consistent deal has probability exactly ``1 / W[0, cap_a, cap_b]``.
Counts fit ``int64`` with room to spare (at most ``24! / 8!^3 ≈ 9.5e9``). The choices
of every state, in the order they are tried, and their cumulative weights are tabulated
once per set of constraints (:func:`completion_table`), so a draw only compares integers (the
auction filter of :mod:`.auction_filter` draws millions of deals).

Random numbers
--------------
Deal ``i`` of the run keyed ``run_key`` uses the counter-based stream
``donne_key(run_key, i)`` at counter ``STREAM_DEAL`` (:mod:`.rng`), so sample ``i`` of a
seed is the same whatever the batch it is drawn in.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange, uint64

from simcoinche._kernels.layout import (
    PC_ANNOUNCE,
    PC_BELOTE,
    PC_CARD_POINTS,
    PC_TAKER_TRICKS,
    PC_TRICKS,
)
from simcoinche._kernels.rng import (
    RNG_STATE_LEN,
    STREAM_DEAL,
    bounded,
    donne_key,
    lowest_bit,
    next32,
    popcount32,
    rng_seed,
)
from simcoinche._kernels.scoring import SCORE_LEN, score_donne

MAX_CAP = 8          # a seat holds at most 8 cards
W_SHAPE = (5, MAX_CAP + 1, MAX_CAP + 1)
MAX_CHOICES = 45     # splits (ka, kb, kc) of at most 8 cards: ka + kb <= 8
CUM_SHAPE = (4, MAX_CAP + 1, MAX_CAP + 1, MAX_CHOICES)
PICK_SHAPE = (4, MAX_CAP + 1, MAX_CAP + 1, MAX_CHOICES, 2)


class DealPool(NamedTuple):
    """What a deal is drawn from (:func:`sample_one`): the constraints and the tables of
    :func:`completion_table`, as one argument of the kernels that draw many deals.

    ``known`` uint32[4] (cards already placed per seat), ``free`` uint32[4] (free cards
    per suit), ``seats`` int64[3] (the free seats ``a, b, c``), ``caps`` int64[3] (their
    room), ``w`` int64[W_SHAPE], ``cum`` int64[CUM_SHAPE], ``pick`` int8..int64[PICK_SHAPE]
    (the tables; dtypes as :func:`completion_table` fills them).
    """

    known: np.ndarray
    free: np.ndarray
    seats: np.ndarray
    caps: np.ndarray
    w: np.ndarray
    cum: np.ndarray
    pick: np.ndarray


# n! for n = 0..8 (a seat holds at most 8 cards).
_FACTORIALS = np.array([1, 1, 2, 6, 24, 120, 720, 5040, 40320], dtype=np.int64)


@njit(cache=True, inline="always")
def _fact(n):
    """``n!`` as ``int64`` for ``0 <= n <= 8`` (table lookup: the auction filter of
    :mod:`.auction_filter` draws millions of deals and the sampler computes several
    multinomials per suit)."""
    return _FACTORIALS[n]


@njit(cache=True, inline="always")
def _multinomial(n, ka, kb, kc):
    """Ways to split ``n`` distinct cards into groups of ``ka``, ``kb``, ``kc``."""
    return _fact(n) // (_fact(ka) * _fact(kb) * _fact(kc))


@njit(cache=True)
def completion_table(counts, allow, caps, w, cum, pick):
    """Fill the completion-count table ``w`` and the choice tables; return the number of
    consistent deals.

    Parameters
    ----------
    counts : int64[4]
        Free (unplaced) cards per suit ``S H D C``.
    allow : uint8[4, 3]
        ``allow[s, j] = 1`` when free seat ``j`` (0..2 = seats ``a, b, c``) may receive
        cards of suit ``s`` (0: known void).
    caps : int64[3]
        Room left in seats ``a, b, c`` (8 minus their pinned cards); must add up to
        ``counts.sum()``.
    w : int64[5, 9, 9]
        Output: ``w[s, ca, cb]`` = number of ways to deal the free cards of suits
        ``s..3`` when seats ``a``/``b`` have room ``ca``/``cb`` (seat ``c``: the rest).
    cum : int64[4, 9, 9, MAX_CHOICES]
        Output: ``cum[s, ca, cb, k]`` = total weight of the first ``k + 1`` choices of
        state ``(s, ca, cb)`` — the splits ``(ka, kb, kc)`` of suit ``s`` that leave a
        completable deal, in the order ``ka`` ascending then ``kb`` ascending, each
        weighted ``multinomial(n_s; ka, kb, kc) * w[s + 1, ca - ka, cb - kb]``; the last
        one equals ``w[s, ca, cb]`` (:func:`sample_one` draws from them).
    pick : int8[4, 9, 9, MAX_CHOICES, 2]
        Output: ``(ka, kb)`` of each choice.

    Returns
    -------
    int64
        ``w[0, caps[0], caps[1]]``: the number of consistent deals (0 = impossible).
    """
    for s in range(5):
        for i in range(MAX_CAP + 1):
            for j in range(MAX_CAP + 1):
                w[s, i, j] = 0
    # No suit left: exactly one way, with every seat full.
    w[4, 0, 0] = 1
    rest = 0
    for s in range(3, -1, -1):
        n = counts[s]
        rest += n
        for ca in range(MAX_CAP + 1):
            for cb in range(MAX_CAP + 1):
                cc = rest - ca - cb
                if cc < 0 or cc > MAX_CAP:
                    continue
                total = np.int64(0)
                k = 0
                for ka in range(min(n, ca) + 1):
                    # A seat void in the suit receives none of it.
                    if ka > 0 and allow[s, 0] == 0:
                        break
                    for kb in range(min(n - ka, cb) + 1):
                        if kb > 0 and allow[s, 1] == 0:
                            break
                        kc = n - ka - kb
                        if kc > cc or (kc > 0 and allow[s, 2] == 0):
                            continue
                        sub = w[s + 1, ca - ka, cb - kb]
                        if sub != 0:
                            total += _multinomial(n, ka, kb, kc) * sub
                            cum[s, ca, cb, k] = total
                            pick[s, ca, cb, k, 0] = ka
                            pick[s, ca, cb, k, 1] = kb
                            k += 1
                w[s, ca, cb] = total
    return w[0, caps[0], caps[1]]


@njit(cache=True)
def uniform_below(st, n):
    """Uniform integer in ``0..n-1`` for ``1 <= n < 2**63`` (64-bit draw with rejection)."""
    nn = uint64(n)
    # Reject the top 2**64 mod n values so that every residue is equally likely.
    while True:
        r = (next32(st) << uint64(32)) | next32(st)
        if r < uint64(0) - nn:
            # Below 2**64 - n, hence below 2**64 - (2**64 mod n): accepted, without the
            # division that computes the remainder (the other case has odds n / 2**64).
            return np.int64(r % nn)
        rem = (uint64(0) - nn) % nn
        if rem == uint64(0) or r < uint64(0) - rem:
            return np.int64(r % nn)


@njit(cache=True)
def sample_one(st, known, free, seats, caps, w, cum, pick, perm, hands):
    """Draw one consistent deal into ``hands`` with the generator state ``st``.

    Parameters
    ----------
    st : uint64[RNG_STATE_LEN]
        Generator state, already pointed at the deal's stream.
    known : uint32[4]
        Cards already placed per seat (the known hand, cards pinned by ``--give``).
    free : uint32[4]
        Free cards per suit (bitboards; suit ``s`` only has bits in byte ``s``).
    seats : int64[3]
        Seat numbers of the free seats ``a, b, c``.
    caps : int64[3]
        As for :func:`completion_table`.
    w, cum, pick
        The tables of :func:`completion_table`.
    perm : int64[8]
        Scratch.
    hands : uint32[4]
        Output: the four hands.
    """
    for s in range(4):
        hands[s] = known[s]
    ca = caps[0]
    cb = caps[1]
    for s in range(4):
        m = free[s]
        n = popcount32(m)
        # Choose how many of the suit's free cards each seat gets, weighted by the
        # number of deals each choice leaves: the first choice whose cumulative weight
        # exceeds a uniform draw below the state's total.
        r = uniform_below(st, w[s, ca, cb])
        k = 0
        while r >= cum[s, ca, cb, k]:
            k += 1
        pa = np.int64(pick[s, ca, cb, k, 0])
        pb = np.int64(pick[s, ca, cb, k, 1])
        # Uniform order of the suit's free cards (Fisher–Yates from ascending order),
        # then slots a, b, c.
        rest_m = np.uint64(m)
        for k in range(n):
            perm[k] = lowest_bit(rest_m)
            rest_m &= rest_m - np.uint64(1)
        for k in range(n - 1, 0, -1):
            j = bounded(st, k + 1)
            t = perm[k]
            perm[k] = perm[j]
            perm[j] = t
        for k in range(n):
            if k < pa:
                seat = seats[0]
            elif k < pa + pb:
                seat = seats[1]
            else:
                seat = seats[2]
            hands[seat] |= np.uint32(1) << np.uint32(perm[k])
        ca -= pa
        cb -= pb


@njit(cache=True, parallel=True, nogil=True)
def sample_deals(run_key, start, n, known, free, seats, caps, w, cum, pick, out):
    """Draw deals ``start .. start+n-1`` of the run ``run_key`` into ``out[0..n-1]``.

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the seed.
    start : int64
        Index of the first deal (its stream: ``donne_key(run_key, start + i)``).
    n : int64
        Number of deals.
    known, free, seats, caps, w, cum, pick
        As for :func:`sample_one`.
    out : uint32[n, 4]
        Output hands, one row per deal (bitboards, bit ``suit * 8 + rank``).
    """
    block = 1024
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        perm = np.zeros(8, dtype=np.int64)
        hands = np.zeros(4, dtype=np.uint32)
        lo = b * block
        hi = min(n, lo + block)
        for i in range(lo, hi):
            rng_seed(st, donne_key(run_key, start + i), STREAM_DEAL)
            sample_one(st, known, free, seats, caps, w, cum, pick, perm, hands)
            for s in range(4):
                out[i, s] = hands[s]


# --------------------------------------------------------------------------------------
# Every bid level from one play
# --------------------------------------------------------------------------------------


@njit(cache=True, parallel=True, nogil=True)
def made_at_levels(pc, taker_team, kind, levels, prof, made):
    """Apply the profile's success test for every level to rows already played.

    The odds engine plays each sampled deal once per contract kind
    (:func:`.batch.play_contracts`) and asks here whether that play makes each bid
    level: :func:`.scoring.score_donne` — the one success test of the code base — is
    called with the row's tricks, card points, announcements and belote, uncoinched.
    Exact because the players' card play does not read the bid level (see
    :mod:`simcoinche.analysis.hand_odds`). The announcements in ``pc`` are after the capot transfer;
    ``score_donne`` transfers again only when the takers won all 8 tricks, and then the
    defence's share is already 0, so re-applying it changes nothing.

    Parameters
    ----------
    pc : int32[PC_LEN, n]
        Output of :func:`.batch.play_contracts` (rows ``PC_*``).
    taker_team : int
        Team of the taker (0 or 1), the same on every row.
    kind : int
        Contract kind played (0..5).
    levels : int64[m]
        Ladder levels to test (``n_values`` = capot, ``n_values + 1`` = générale, decided
        by the bidder's own tricks ``PC_TAKER_TRICKS``).
    prof : int32[PROFILE_LEN]
        Packed profile.
    made : uint8[m, n]
        Output: ``made[i, j] = 1`` when row ``j`` makes level ``levels[i]``.
    """
    n = pc.shape[1]
    block = 4096
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        cpts = np.zeros(2, dtype=np.int32)
        tricks = np.zeros(2, dtype=np.int32)
        ann = np.zeros(2, dtype=np.int32)
        bel = np.zeros(2, dtype=np.int32)
        score = np.zeros(SCORE_LEN, dtype=np.int32)
        lo = b * block
        hi = min(n, lo + block)
        for j in range(lo, hi):
            for i in range(levels.shape[0]):
                made[i, j] = score_played(pc, j, taker_team, levels[i], kind, 1, prof,
                                          cpts, tricks, ann, bel, score)


@njit(cache=True, inline="always")
def score_played(pc, j, taker_team, level, kind, coinche, prof, cpts, tricks, ann, bel,
                 score):
    """Score column ``j`` of a :func:`.batch.play_contracts` output at a given contract.

    Calls :func:`.scoring.score_donne` with the column's tricks, card points,
    announcements, belote and the bidder's own tricks (which decide a générale), for the
    contract ``(taker_team, level, kind, coinche)``. Exact for any level and coinche of
    the kind and taker that were played, because card play reads neither (see
    :func:`made_at_levels`). ``cpts, tricks, ann, bel`` (``int32[2]``) are scratch;
    ``score`` (``int32[SCORE_LEN]``) receives the marks and totals. Returns whether the
    contract is made.
    """
    for q in range(2):
        cpts[q] = pc[PC_CARD_POINTS + q, j]
        tricks[q] = pc[PC_TRICKS + q, j]
        ann[q] = pc[PC_ANNOUNCE + q, j]
        bel[q] = pc[PC_BELOTE + q, j]
    # The bidder's own tricks decide a générale (one player takes all 8).
    return score_donne(taker_team, level, kind, coinche, cpts, tricks, ann, bel, prof,
                       score, pc[PC_TAKER_TRICKS, j])
