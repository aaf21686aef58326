"""Dealing one donne: uniform shuffle, the cut, and the deal in rounds (RULES.md "Deal").

The random numbers come from the donne's own counter-based stream (:mod:`.rng`), counter
range ``STREAM_DEAL``, so the deal of donne ``i`` of seed ``s`` is the same whatever the
players, the thread count or the chunk size.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from simcoinche._kernels.layout import (
    P_CUT_MIN,
    P_DEAL_ROUND_1,
    P_DEAL_ROUND_2,
    P_DEAL_ROUND_3,
)
from simcoinche._kernels.rng import STREAM_DEAL, bounded, rand64, rng_seed

_M32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def shuffle_deck(st, deck):
    """Fill ``deck`` (``int8[32]``) with a uniform permutation of the 32 cards.

    Fisher-Yates from the top: position ``k`` receives a uniform choice among the
    positions ``k..31`` not yet fixed. ``st`` is the ``uint64[4]`` RNG state.

    The draws are exactly :func:`.rng.bounded`'s (32-bit halves, low half first, Lemire
    multiply-shift with rejection), with the generator state kept in local variables
    for the 31 draws and written back to ``st`` at the end.
    """
    for k in range(32):
        deck[k] = k
    key = st[0]
    ctr = st[1]
    spare = st[2]
    has_spare = st[3] != uint64(0)
    for k in range(31):
        nn = uint64(32 - k)
        while True:
            # next32: the buffered upper half if any, else a fresh 64-bit draw.
            if has_spare:
                r = spare
                has_spare = False
            else:
                x = rand64(key, ctr)
                ctr += uint64(1)
                spare = x >> uint64(32)
                has_spare = True
                r = x & _M32
            m = r * nn
            low = m & _M32
            # Lemire: reject the few low products that would bias small results.
            if low >= nn or low >= ((_M32 + uint64(1)) - nn) % nn:
                break
        j = k + np.int64(m >> uint64(32))
        t = deck[k]
        deck[k] = deck[j]
        deck[j] = t
    st[1] = ctr
    st[2] = spare
    st[3] = uint64(1) if has_spare else uint64(0)


@njit(cache=True)
def deal_hands(st, key, dealer, prof, deck, hands):
    """Deal donne ``key`` (``uint64``) with ``dealer`` (seat 0..3) into ``hands``.

    Parameters
    ----------
    st : uint64[4]
        Scratch RNG state; reseeded here at the deal stream of ``key``.
    key : uint64
        The donne key (:func:`.rng.donne_key`).
    dealer : int
        Seat of the dealer; seat ``dealer + 1`` receives the first cards.
    prof : int32[PROFILE_LEN]
        Packed profile: ``P_CUT_MIN`` and ``P_DEAL_ROUND_1..3``.
    deck : int8[32]
        Scratch: the shuffled deck.
    hands : uint32[4]
        Output: each seat's 8 cards as a bitboard (bit ``card``).

    Returns
    -------
    int
        The cut point (cards in the top packet moved under the bottom one).
    """
    rng_seed(st, key, STREAM_DEAL)
    shuffle_deck(st, deck)
    # "Cut: ... leaving at least 3 cards in each packet (cut point uniform in 3..29)."
    cut_min = prof[P_CUT_MIN]
    cut = cut_min + bounded(st, 33 - 2 * cut_min)
    for s in range(4):
        hands[s] = np.uint32(0)
    # After the cut the top card is deck[cut]; cards are taken from the top.
    pos = cut
    for r in range(3):
        # "Deal 8 cards each in rounds of 3, 2, 3, starting with seat D+1."
        if r == 0:
            n = prof[P_DEAL_ROUND_1]
        elif r == 1:
            n = prof[P_DEAL_ROUND_2]
        else:
            n = prof[P_DEAL_ROUND_3]
        for k in range(4):
            seat = (dealer + 1 + k) & 3
            for _ in range(n):
                c = deck[pos & 31]
                pos += 1
                hands[seat] |= np.uint32(1) << np.uint32(c)
    return cut
