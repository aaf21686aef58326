"""Play kernels: card points, trick winner, legal-card mask.

Bit layout (see :mod:`simcoinche.cards`): card ``c`` in ``0..31`` is ``suit * 8 + rank``,
ranks ``7 8 9 T J Q K A`` = ``0..7``; a hand is a ``uint32`` with bit ``c`` set per card,
suit ``s`` in bits ``8*s .. 8*s+7``. Contract kind ``trump``: ``0..3`` a trump suit,
``4`` sans-atout (SA), ``5`` tout-atout (TA).

Tricks are integer arrays (any integer dtype) holding the cards in the order played from
the leader; ``n`` is the number of cards already played. Every kernel here is a few table
lookups and mask operations (no loop over cards of a hand, no allocation), so the
simulation can call them in its inner loop.

Internally the masks are handled as ``int64`` (a 32-bit mask fits, and numba would
promote ``uint32`` op ``int64`` to ``int64`` anyway); the legal mask is returned as
``uint32``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels import layout as L
from simcoinche._kernels.tables import PLAIN_STRENGTH, TRUMP_STRENGTH


def _higher_masks(strength: np.ndarray) -> np.ndarray:
    """8-bit rank masks: entry ``r`` holds the ranks strictly stronger than ``r``."""
    out = np.zeros(8, dtype=np.int64)
    for r in range(8):
        m = 0
        for q in range(8):
            if strength[q] > strength[r]:
                m |= 1 << q
        out[r] = m
    return out


# Constant tables derived from tables.py (common to every profile, frozen at compile time).
# TRUMP_HIGHER[r]: ranks of the trump order above rank r (J 9 A T K Q 8 7).
TRUMP_HIGHER = _higher_masks(TRUMP_STRENGTH)
# PLAIN_HIGHER[r]: ranks of the plain order above rank r (A T K Q J 9 8 7).
PLAIN_HIGHER = _higher_masks(PLAIN_STRENGTH)
_TRUMP_STR = TRUMP_STRENGTH.astype(np.int64)
_PLAIN_STR = PLAIN_STRENGTH.astype(np.int64)

SUIT_BYTE = np.int64(0xFF)


@njit(cache=True)
def card_points(card, trump, prof):
    """Points of one card under contract kind ``trump``.

    Parameters
    ----------
    card : int
        Card index ``0..31``.
    trump : int
        Contract kind: ``0..3`` trump suit, ``4`` SA, ``5`` TA.
    prof : int32[PROFILE_LEN]
        Packed profile; reads ``P_TRUMP_POINTS``/``P_PLAIN_POINTS`` (suit contract),
        ``P_SA_POINTS`` (SA) or ``P_TA_POINTS`` (TA), 8 entries by rank.

    Returns
    -------
    int
        The card's points (``int64``).
    """
    rank = card & 7
    if trump < 4:
        # Suit contract: trump table for the trump suit, plain table otherwise.
        if (card >> 3) == trump:
            return np.int64(prof[L.P_TRUMP_POINTS + rank])
        return np.int64(prof[L.P_PLAIN_POINTS + rank])
    if trump == 4:
        # Sans-atout: every card scored with the SA table.
        return np.int64(prof[L.P_SA_POINTS + rank])
    # Tout-atout: every card scored with the TA table.
    return np.int64(prof[L.P_TA_POINTS + rank])


@njit(cache=True)
def _strength(card, led, trump):
    """Ordering key of ``card`` in a trick led in suit ``led`` (-1: cannot win).

    Suit contract: trumps ``8 + trump strength``, led suit ``plain strength``.
    SA: led suit in plain order. TA: led suit in trump order. Other cards -1.
    """
    suit = card >> 3
    rank = card & 7
    if trump < 4:
        if suit == trump:
            # "A trick is won by the highest trump in it"
            return 8 + _TRUMP_STR[rank]
        if suit == led:
            # "... else by the highest card of the led suit"
            return _PLAIN_STR[rank]
        return np.int64(-1)
    if suit != led:
        # SA / TA: only the led suit can win.
        return np.int64(-1)
    if trump == 5:
        # TA: every suit uses the trump order.
        return _TRUMP_STR[rank]
    # SA: every suit uses the plain order.
    return _PLAIN_STR[rank]


@njit(cache=True)
def trick_winner(trick, n, trump, prof):
    """Position (from the leader) of the card currently winning the trick.

    Parameters
    ----------
    trick : integer array, shape (>= n,)
        Cards ``0..31`` in playing order from the leader.
    n : int
        Number of cards already played, ``1..4``.
    trump : int
        Contract kind ``0..5``.
    prof : int32[PROFILE_LEN]
        Packed profile (unused by the federal ordering; kept for the common signature).

    Returns
    -------
    int
        Position ``0..n-1`` of the winning card.
    """
    lead = np.int64(trick[0])
    led = lead >> 3
    best = 0
    best_s = _strength(lead, led, trump)
    for p in range(1, n):
        s = _strength(np.int64(trick[p]), led, trump)
        if s > best_s:
            best_s = s
            best = p
    return best


@njit(cache=True)
def legal_mask(hand, trick, n, trump, prof):
    """Subset of ``hand`` that the player at position ``n`` of the trick may play.

    Parameters
    ----------
    hand : uint32
        The player's cards (bitboard, bit ``suit*8 + rank``).
    trick : integer array, shape (>= n,)
        Cards already played, from the leader.
    n : int
        Cards already in the trick, ``0..3`` (``0``: the player leads, whole hand).
    trump : int
        Contract kind ``0..5``.
    prof : int32[PROFILE_LEN]
        Packed profile; reads ``P_MUST_UNDERTRUMP`` and ``P_MUST_TRUMP_OVER_PARTNER``.

    Returns
    -------
    uint32
        Legal cards (bitboard). Never empty when ``hand`` is not.
    """
    h = np.int64(hand)
    if n == 0:
        # Leading: any card.
        return np.uint32(h)
    lead = np.int64(trick[0])
    led = lead >> 3
    led_cards = h & (SUIT_BYTE << (8 * led))
    if trump >= 4:
        if led_cards == 0:
            # SA / TA, void in the led suit: any card.
            return np.uint32(h)
        if trump == 4:
            # SA: follow suit, no need to go higher.
            return np.uint32(led_cards)
        # TA: "follow and go higher in the led suit if able".
        w = trick_winner(trick, n, trump, prof)
        higher = led_cards & (TRUMP_HIGHER[np.int64(trick[w]) & 7] << (8 * led))
        if higher != 0:
            return np.uint32(higher)
        return np.uint32(led_cards)
    if led == trump:
        if led_cards == 0:
            # 3. "L = T and void in trumps → any card."
            return np.uint32(h)
        # 1. Trump led: "must play a trump higher than the highest trump in the trick
        # when holding one (even over the partner), else any trump".
        w = trick_winner(trick, n, trump, prof)
        higher = led_cards & (TRUMP_HIGHER[np.int64(trick[w]) & 7] << (8 * led))
        if higher != 0:
            return np.uint32(higher)
        return np.uint32(led_cards)
    if led_cards != 0:
        # 1. "Holding L: must play L" (plain suit: no need to go higher).
        return np.uint32(led_cards)
    trumps = h & (SUIT_BYTE << (8 * trump))
    if trumps == 0:
        # 2. "no trumps → any card".
        return np.uint32(h)
    w = trick_winner(trick, n, trump, prof)
    partner_wins = w == n - 2
    if partner_wins and prof[L.P_MUST_TRUMP_OVER_PARTNER] == 0:
        # 2. "partner currently wins the trick → any card".
        return np.uint32(h)
    wcard = np.int64(trick[w])
    if (wcard >> 3) != trump:
        # 2. "holding trumps and no trump in the trick yet → any trump".
        return np.uint32(trumps)
    # 2. A trump wins the trick: "a higher trump if holding one".
    higher = trumps & (TRUMP_HIGHER[wcard & 7] << (8 * trump))
    if higher != 0:
        return np.uint32(higher)
    if partner_wins or prof[L.P_MUST_UNDERTRUMP] != 0:
        # Profiles that force a trump even when it cannot win (undertrump).
        return np.uint32(trumps)
    # federal: "si l'atout adverse est imbattable, vous pouvez défausser au lieu de
    # sous-couper" → any card.
    return np.uint32(h)
