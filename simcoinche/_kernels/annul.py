"""Rules between the deal and the play: hand annulment, and the cards held at the auction.

- classic: "Optional hand annulment: a player with ≤ 10 points (plain values) and no jack
  may annul the deal before the auction (profile option, on by default)."
- stephanoise: "Deal 3 then 3 to each player; the auction is held on those 6 cards;
  afterwards each player gets 2 more (the last 8 cards, dealt in the same order)."

Bit layout (see :mod:`simcoinche.rules.cards`): a hand is a ``uint32``, bit ``suit*8 + rank``,
ranks ``7 8 9 T J Q K A`` = ``0..7``. Every rule value is read from the packed profile.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels import layout as L

# The four jacks (rank 4 in every suit byte).
JACKS = np.int64(0x10101010)


@njit(cache=True, inline="always")
def annulment_allowed(hand, prof):
    """Whether the holder of ``hand`` may annul the deal before the auction.

    Parameters
    ----------
    hand : uint32
        The player's 8 cards (bitboard, bit ``suit*8 + rank``).
    prof : int32[PROFILE_LEN]
        Packed profile: ``P_ANNUL_MAX_POINTS`` (``-1`` = no annulment) and
        ``P_PLAIN_POINTS`` (8 entries by rank).

    Returns
    -------
    bool
        True when the profile allows annulment, the hand holds no jack and its points at
        plain values are at most ``P_ANNUL_MAX_POINTS``.
    """
    limit = prof[L.P_ANNUL_MAX_POINTS]
    if limit < 0:
        # Annulment is not a rule of this profile (or the option is off).
        return False
    h = np.int64(hand)
    if h & JACKS:
        # "... and no jack".
        return False
    # "≤ 10 points (plain values)".
    pts = 0
    for r in range(8):
        byte_r = (h >> r) & np.int64(0x01010101)
        n = ((byte_r & 1) + ((byte_r >> 8) & 1) + ((byte_r >> 16) & 1)
             + ((byte_r >> 24) & 1))
        pts += n * prof[L.P_PLAIN_POINTS + r]
    return pts <= limit


@njit(cache=True)
def auction_hands(deck, cut, dealer, prof, out):
    """The cards each seat holds during the auction, from the shuffled deck and the cut.

    Mirrors the deal of :func:`simcoinche._kernels.deal.deal_hands`: after the cut the
    top card is ``deck[cut]``; rounds of ``P_DEAL_ROUND_1..3`` cards, each to seats
    ``dealer + 1, dealer + 2, …`` in turn. A seat holds at the auction the first
    ``P_AUCTION_CARDS`` cards it receives (8: its whole hand; stephanoise 6: the two
    rounds of 3).

    Parameters
    ----------
    deck : integer[32]
        The shuffled deck (card indices), as ``deal_hands`` left it.
    cut : int
        The cut point ``deal_hands`` returned.
    dealer : int
        Dealer seat ``0..3``.
    prof : int32[PROFILE_LEN]
        Packed profile: ``P_DEAL_ROUND_1..3``, ``P_AUCTION_CARDS``.
    out : uint32[4]
        Receives, by seat, the bitboard of the cards held during the auction.
    """
    n_auction = prof[L.P_AUCTION_CARDS]
    for s in range(4):
        out[s] = np.uint32(0)
    pos = cut
    before = 0  # cards each seat received in the previous rounds
    for r in range(3):
        n = prof[L.P_DEAL_ROUND_1 + r]
        for k in range(4):
            seat = (dealer + 1 + k) & 3
            for j in range(n):
                c = deck[pos & 31]
                pos += 1
                if before + j < n_auction:
                    # "the auction is held on those 6 cards" (the first ones received).
                    out[seat] |= np.uint32(1) << np.uint32(c)
        before += n
