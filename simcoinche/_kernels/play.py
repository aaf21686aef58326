"""Play kernels: card points, trick winner, legal-card mask.

Bit layout (see :mod:`simcoinche.rules.cards`): card ``c`` in ``0..31`` is ``suit * 8 + rank``,
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


def _beat_masks() -> np.ndarray:
    """``BEAT[trump, card]``: the 32-bit mask of the cards that beat ``card`` when it wins.

    Suit contract: ``card`` a trump → the higher trumps; ``card`` not a trump → every
    trump. TA: the higher cards of ``card``'s suit in trump order. SA: the higher cards
    of its suit in plain order. (``card`` is the card winning the trick, so it is of the
    led suit or a trump.)
    """
    beat = np.zeros((6, 32), dtype=np.int64)
    for trump in range(6):
        for c in range(32):
            suit, rank = c >> 3, c & 7
            if trump < 4 and suit != trump:
                beat[trump, c] = 0xFF << (8 * trump)
            elif trump == 4:
                beat[trump, c] = PLAIN_HIGHER[rank] << (8 * suit)
            else:
                beat[trump, c] = TRUMP_HIGHER[rank] << (8 * suit)
    return beat


BEAT = _beat_masks()

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


@njit(cache=True, inline="always")
def card_total(trump, prof):
    """Points of the 32 cards under contract kind ``trump``, without the last trick (152
    at a suit and at classic's SA and TA; 120 at stephanoise's and strict's SA, 248 at
    strict's TA), read from the packed profile."""
    if trump < 4:
        t = np.int64(0)
        for r in range(8):
            t += 3 * prof[L.P_PLAIN_POINTS + r] + prof[L.P_TRUMP_POINTS + r]
        return t
    off = L.P_SA_POINTS if trump == 4 else L.P_TA_POINTS
    t = np.int64(0)
    for r in range(8):
        t += 4 * prof[off + r]
    return t


@njit(cache=True, inline="always")
def points_total(trump, prof):
    """Both teams' points together when neither wins every trick: the 32 cards' points
    under contract kind ``trump`` (:func:`card_total`) plus the last trick (162 at 152
    card points, 130 at 120, 258 at strict's tout-atout)."""
    return card_total(trump, prof) + np.int64(prof[L.P_LAST_TRICK_BONUS])


def _win_keys() -> np.ndarray:
    """Ordering key of every card in every trick: ``WIN_KEY[trump, led, card]``.

    Suit contract: a trump ``8 + trump strength`` ("A trick is won by the highest trump
    in it"), a card of the led suit its plain strength ("else by the highest card of the
    led suit"), any other card -1 (a discard never wins). SA: the led suit in plain order;
    TA: the led suit in trump order; other suits -1.
    """
    key = np.full((6, 4, 32), -1, dtype=np.int8)
    for trump in range(6):
        for led in range(4):
            for c in range(32):
                suit, rank = c >> 3, c & 7
                if trump < 4 and suit == trump:
                    key[trump, led, c] = 8 + TRUMP_STRENGTH[rank]
                elif suit == led:
                    strength = TRUMP_STRENGTH if trump == 5 else PLAIN_STRENGTH
                    key[trump, led, c] = strength[rank]
    return key


# WIN_KEY[trump, led, card]: strength of a card in a trick (768 bytes, one lookup per card).
WIN_KEY = _win_keys()


@njit(cache=True, inline="always")
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
    led = np.int64(trick[0]) >> 3
    best = 0
    best_k = WIN_KEY[trump, led, np.int64(trick[0])]
    for p in range(1, n):
        k = WIN_KEY[trump, led, np.int64(trick[p])]
        if k > best_k:
            best_k = k
            best = p
    return best


@njit(cache=True, inline="always")
def beats(a, b, led, trump):
    """True when card ``a`` ranks above card ``b`` in a trick led in suit ``led``.

    Parameters
    ----------
    a, b : int
        Cards ``0..31``.
    led : int
        Suit ``0..3`` of the card that led the trick.
    trump : int
        Contract kind ``0..5``.

    Returns
    -------
    bool
        The simulation can keep the trick's winner up to date with this one lookup per
        card instead of calling :func:`trick_winner` again.
    """
    return WIN_KEY[trump, led, a] > WIN_KEY[trump, led, b]


@njit(cache=True, inline="always")
def legal_mask_win(hand, led, win_card, partner_wins, trump, prof):
    """Legal cards from scalars: the same rules as :func:`legal_mask`, no array.

    Parameters
    ----------
    hand : uint32
        The player's cards (bitboard, bit ``suit*8 + rank``).
    led : int
        Suit ``0..3`` of the led card (the trick holds at least one card).
    win_card : int
        The card currently winning the trick.
    partner_wins : bool
        Whether that card was played by the player's partner.
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
    led_cards = h & (SUIT_BYTE << (8 * led))
    if led_cards != 0 and led != trump and trump != 5:
        # 1. "Holding L: must play L" (plain suit, or SA: no need to go higher).
        return np.uint32(led_cards)
    if led_cards == 0 and trump >= 4:
        # SA / TA, void in the led suit: any card.
        return np.uint32(h)
    # The cards of the hand that would beat the card now winning (suit contract: trumps
    # only, every trump when no trump is in the trick yet).
    beat = h & BEAT[trump, win_card]
    if led_cards != 0:
        # 1. Trump led: "must play a trump higher than the highest trump in the trick
        # when holding one (even over the partner), else any trump"; TA: "follow and go
        # higher in the led suit if able".
        if beat != 0:
            return np.uint32(beat)
        return np.uint32(led_cards)
    trumps = h & (SUIT_BYTE << (8 * trump))
    if trumps == 0:
        # 2. "no trumps → any card"; 3. "L = T and void in trumps → any card".
        return np.uint32(h)
    if partner_wins and prof[L.P_MUST_TRUMP_OVER_PARTNER] == 0:
        # 2. "partner currently wins the trick → any card".
        return np.uint32(h)
    if beat != 0:
        # 2. "holding trumps and no trump in the trick yet → any trump";
        # "an opponent's trump wins the trick → a higher trump if holding one".
        return np.uint32(beat)
    if partner_wins or prof[L.P_MUST_UNDERTRUMP] != 0:
        # Profiles that force a trump even when it cannot win (undertrump).
        return np.uint32(trumps)
    # federal: "si l'atout adverse est imbattable, vous pouvez défausser au lieu de
    # sous-couper" → any card.
    return np.uint32(h)


@njit(cache=True, inline="always")
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
        Legal cards (bitboard). Never empty when ``hand`` is not. RULES.md "Legal cards";
        see :func:`legal_mask_win` for each branch.
    """
    if n == 0:
        # Leading: any card.
        return np.uint32(hand)
    led = np.int64(trick[0]) >> 3
    if led != trump and trump != 5:
        led_cards = np.int64(hand) & (SUIT_BYTE << (8 * led))
        if led_cards != 0:
            # 1. "Holding L: must play L" (fast path, the winner does not matter).
            return np.uint32(led_cards)
    w = trick_winner(trick, n, trump, prof)
    return legal_mask_win(hand, led, np.int64(trick[w]), w == n - 2, trump, prof)
