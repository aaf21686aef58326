"""Announcement kernels: a seat's declaration, the comparison key, team comparison, belote.

Bit layout (see :mod:`simcoinche.rules.cards`): a hand is a ``uint32``, bit ``suit*8 + rank``,
ranks ``7 8 9 T J Q K A`` = ``0..7`` — the rank index is the sequence order, so a suite
is a run of consecutive set bits inside one suit byte, and a carré of rank ``r`` is bit
``r`` set in all four suit bytes.

Announcement rows are ``(kind, rank, suit, length, points)`` (``int32``): kind ``0``
carré (``suit = -1``, ``length = 4``), kind ``1`` suite (``rank`` = its top card,
``length`` 3, 4 or 5 — a longer run counts as its top five cards).

Every rule value (carré and suite points, belote value, whether announcements exist,
whether a card may serve twice) is read from the packed profile ``prof``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels import layout as L
from simcoinche._kernels.tables import PLAIN_STRENGTH

MAX_DECL = 8

# Key offset that puts every carré above every suite (RULES.md "a carré beats any suite").
CARRE_KEY_BASE = 1_000_000


def _run_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Maximal runs of >= 3 consecutive bits of every byte value (at most 2 per byte).

    Returns ``(count, top, length)``: ``count[b]`` runs in byte ``b``, ``top[b, k]`` the
    highest bit (rank) of run ``k``, ``length[b, k]`` its full length.
    """
    count = np.zeros(256, dtype=np.int64)
    top = np.zeros((256, 2), dtype=np.int64)
    length = np.zeros((256, 2), dtype=np.int64)
    for b in range(256):
        r = 0
        while r < 8:
            if (b >> r) & 1:
                start = r
                while r < 8 and (b >> r) & 1:
                    r += 1
                if r - start >= 3:
                    k = count[b]
                    top[b, k] = r - 1
                    length[b, k] = r - start
                    count[b] += 1
            else:
                r += 1
    return count, top, length


# Constant lookup tables (pure bit geometry, common to all profiles).
RUN_COUNT, RUN_TOP, RUN_LEN = _run_tables()
_PLAIN_STR = PLAIN_STRENGTH.astype(np.int64)


@njit(cache=True)
def announcement_key(kind, rank, suit, length, points, trump):
    """Comparison key of one announcement; higher is better, 0 for "no announcement".

    Carré: ``1_000_000 + points * 16 + PLAIN_STRENGTH[rank]`` ("carrés rank by value,
    then height A > T > K > Q"). Suite: ``points * 32 + rank * 2 + is_trump`` ("suites
    rank by length category, then top card in sequence order, then a trump suite beats a
    plain one"), ``is_trump = suit == trump or trump == 5``. ``length`` is implied by the
    points and not used. Two equal keys are the complete tie that cancels both teams.

    Returns
    -------
    int64
    """
    if points <= 0:
        # Nothing declared.
        return np.int64(0)
    if kind == 0:
        # A carré beats any suite.
        return np.int64(CARRE_KEY_BASE) + np.int64(points) * 16 + _PLAIN_STR[rank]
    is_trump = 1 if (suit == trump or trump == 5) else 0
    return np.int64(points) * 32 + np.int64(rank) * 2 + is_trump


@njit(cache=True)
def comparison_key(kind, rank, suit, length, points, trump, prof):
    """Comparison key of one announcement under the profile's comparison rule.

    ``P_ANN_COMPARE`` 0 (federal): :func:`announcement_key`. 1 (stephanoise: "equal best
    announcements: the one in trumps wins, equal plain ones cancel"): announcements of
    equal value are equal whatever their height — carré ``1_000_000 + points * 16`` (a
    carré is never "in trumps", so equal carrés cancel); suite ``points * 32`` when plain,
    ``points * 32 + 16 + rank`` in trumps (two trump suites of equal value: the higher
    top card wins). Higher is better; 0 for "no announcement"; equal keys cancel.

    Returns
    -------
    int64
    """
    if prof[L.P_ANN_COMPARE] == 0:
        # federal: category, top card, then a trump suite.
        return announcement_key(kind, rank, suit, length, points, trump)
    if points <= 0:
        # Nothing declared.
        return np.int64(0)
    if kind == 0:
        # "Les carrés priment sur les autres annonces": above any suite; equal values tie.
        return np.int64(CARRE_KEY_BASE) + np.int64(points) * 16
    if suit == trump or trump == 5:
        # "c'est celle du camp qui possède l'atout qui compte".
        return np.int64(points) * 32 + 16 + np.int64(rank)
    # "Les annonces de même valeur (hors atout) s'annulent".
    return np.int64(points) * 32


@njit(cache=True, inline="always")
def _row_order(kind, rank, suit, length, points, trump, prof):
    """Display order of a declaration row: comparison key, then the federal key."""
    # int64 like the declaration search's keys: comparison_key compiles once, not twice.
    kind, rank, suit = np.int64(kind), np.int64(rank), np.int64(suit)
    length, points = np.int64(length), np.int64(points)
    return (comparison_key(kind, rank, suit, length, points, trump, prof) * (1 << 21)
            + announcement_key(kind, rank, suit, length, points, trump))


@njit(cache=True)
def _choose(h, trump, prof):
    """Best declaration of hand ``h`` (``int64`` mask) without writing rows.

    Returns ``(keep, total, best_key, n_carres)``: ``keep`` the 8-bit mask of carré
    ranks kept (``-1`` when the profile has no announcements), the total points, the
    best single key, and the number of carrés kept.
    """
    mode = prof[L.P_ANNOUNCEMENTS]
    if mode == 0:
        # No carrés or suites in this profile.
        return np.int64(-1), np.int64(0), np.int64(0), np.int64(0)
    coff = L.P_CARRE_POINTS_SA if trump == 4 else L.P_CARRE_POINTS
    # Ranks held in all four suits whose carré is worth something ("7s and 8s nothing").
    quad = h & (h >> 8) & (h >> 16) & (h >> 24) & 0xFF
    avail = np.int64(0)
    for r in range(8):
        if (quad >> r) & 1 and prof[coff + r] > 0:
            avail |= np.int64(1) << r
    best_keep = np.int64(0)
    best_total = np.int64(-1)
    best_key = np.int64(0)
    best_nc = np.int64(0)
    # "Carrés are chosen first by enumerating which of the available carrés to keep".
    sub = avail
    while True:
        total = np.int64(0)
        key = np.int64(0)
        nc = np.int64(0)
        rem = h
        for r in range(8):
            if (sub >> r) & 1:
                pts = np.int64(prof[coff + r])
                total += pts
                nc += 1
                # Typed, not literals: comparison_key compiles once, not twice.
                k = comparison_key(np.int64(0), r, np.int64(-1), np.int64(4), pts, trump, prof)
                if k > key:
                    key = k
                if mode == 1:
                    # "A card serves in at most one ordinary announcement".
                    rem &= ~(np.int64(0x01010101) << r)
        # "suites are then read off the remaining cards of each suit" (maximal runs).
        for s in range(4):
            b = (rem >> (8 * s)) & 0xFF
            for j in range(RUN_COUNT[b]):
                ln = RUN_LEN[b, j]
                pts = np.int64(prof[L.P_SUITE_POINTS + min(ln, 8)])
                if pts > 0:
                    total += pts
                    k = comparison_key(np.int64(1), RUN_TOP[b, j], s, min(ln, 5), pts, trump,
                                       prof)
                    if k > key:
                        key = k
        # "the set with the largest total (ties: the set with the best single
        # announcement)"; project ruling: still tied → keep more carrés.
        if (total > best_total or (total == best_total and key > best_key)
                or (total == best_total and key == best_key and nc > best_nc)):
            best_total = total
            best_key = key
            best_keep = sub
            best_nc = nc
        if sub == 0:
            break
        sub = (sub - 1) & avail
    return best_keep, best_total, best_key, best_nc


@njit(cache=True)
def best_declaration(hand, trump, prof, out):
    """Fill ``out`` with the seat's declaration, best announcement first.

    Parameters
    ----------
    hand : uint32
        The seat's cards (bitboard).
    trump : int
        Contract kind ``0..5``.
    prof : int32[PROFILE_LEN]
        Packed profile: ``P_ANNOUNCEMENTS`` (0 none, 1 a card serves once, 2 shared
        cards), ``P_CARRE_POINTS`` / ``P_CARRE_POINTS_SA`` (8 by rank),
        ``P_SUITE_POINTS`` (9 by run length).
    out : int32[MAX_DECL, 5]
        Receives rows ``(kind, rank, suit, length, points)``, best first by
        :func:`comparison_key` then :func:`announcement_key` (the same order for
        federal); rows past the returned count are left untouched.

    Returns
    -------
    int
        Number of rows written.
    """
    h = np.int64(hand)
    keep, total, _key, _nc = _choose(h, trump, prof)
    if keep < 0 or total <= 0:
        # Nothing to declare.
        return 0
    mode = prof[L.P_ANNOUNCEMENTS]
    coff = L.P_CARRE_POINTS_SA if trump == 4 else L.P_CARRE_POINTS
    n = 0
    rem = h
    for r in range(8):
        if (keep >> r) & 1:
            out[n, 0] = 0
            out[n, 1] = r
            out[n, 2] = -1
            out[n, 3] = 4
            out[n, 4] = prof[coff + r]
            n += 1
            if mode == 1:
                rem &= ~(np.int64(0x01010101) << r)
    for s in range(4):
        b = (rem >> (8 * s)) & 0xFF
        for j in range(RUN_COUNT[b]):
            ln = RUN_LEN[b, j]
            pts = prof[L.P_SUITE_POINTS + min(ln, 8)]
            if pts > 0 and n < MAX_DECL:
                out[n, 0] = 1
                out[n, 1] = RUN_TOP[b, j]
                out[n, 2] = s
                # "A run longer than 5 counts as one 100 made of its top five cards".
                out[n, 3] = min(ln, 5)
                out[n, 4] = pts
                n += 1
    # Insertion sort, best first: comparison key, then the federal key (at most a
    # handful of rows; for federal both keys are the same).
    for i in range(1, n):
        j = i
        while j > 0:
            ka = _row_order(out[j - 1, 0], out[j - 1, 1], out[j - 1, 2],
                            out[j - 1, 3], out[j - 1, 4], trump, prof)
            kb = _row_order(out[j, 0], out[j, 1], out[j, 2], out[j, 3], out[j, 4],
                            trump, prof)
            if kb <= ka:
                break
            for c in range(5):
                tmp = out[j - 1, c]
                out[j - 1, c] = out[j, c]
                out[j, c] = tmp
            j -= 1
    return n


@njit(cache=True)
def team_announcements(hands, trump, declare, prof, out_points):
    """Compare the teams' ordinary announcements and write the points each scores.

    Parameters
    ----------
    hands : uint32[4]
        The four hands (bitboards), by seat.
    trump : int
        Contract kind ``0..5``.
    declare : uint8[4]
        ``0``: that seat declares nothing.
    prof : int32[PROFILE_LEN]
        Packed profile (announcement tables).
    out_points : int32[2]
        Receives the valid announcement points per team (after the comparison, before
        any capot transfer).

    Returns
    -------
    int
        The winning team, or ``-1`` when nobody scores (no announcement, complete tie).
        Each team's best announcement is compared with :func:`comparison_key` (the
        profile's rule: federal, or stephanoise's value-then-trump).
    """
    t0 = np.int64(0)
    t1 = np.int64(0)
    k0 = np.int64(0)
    k1 = np.int64(0)
    for s in range(4):
        if declare[s] == 0:
            # A seat that does not declare counts for nothing.
            continue
        keep, total, key, _nc = _choose(np.int64(hands[s]), trump, prof)
        if keep < 0 or total <= 0:
            continue
        if s & 1:
            t1 += total
            if key > k1:
                k1 = key
        else:
            t0 += total
            if key > k0:
                k0 = key
    out_points[0] = 0
    out_points[1] = 0
    if k0 == k1:
        # No announcement at all, or "a complete tie ... cancels both teams".
        return -1
    if k0 > k1:
        # "the better team scores all its declared announcements, the other team none";
        # "A team with no announcement loses the comparison to one with any".
        out_points[0] = t0
        return 0
    out_points[1] = t1
    return 1


@njit(cache=True)
def belote_points(hands, trump, prof, out_points):
    """Belote per team: K and Q of trumps in one hand score ``P_BELOTE_POINTS``.

    Parameters
    ----------
    hands : uint32[4]
        The four hands (bitboards), by seat.
    trump : int
        Contract kind ``0..5``: a suit contract has one belote (K+Q of trumps); SA none;
        TA one per suit whose K and Q one player holds.
    prof : int32[PROFILE_LEN]
        Packed profile (``P_BELOTE_POINTS``; 0 = no belote).
    out_points : int32[2]
        Receives the belote points per team.
    """
    out_points[0] = 0
    out_points[1] = 0
    value = prof[L.P_BELOTE_POINTS]
    if value == 0 or trump == 4:
        # No belote in this profile, or at sans-atout.
        return
    kq = np.int64(0x60)  # Q (rank 5) and K (rank 6) of one suit
    for s in range(4):
        h = np.int64(hands[s])
        if trump < 4:
            # "the player holding K and Q of trumps scores 20 for the team".
            if ((h >> (8 * trump)) & kq) == kq:
                out_points[s & 1] += value
        else:
            # TA: "one belote per suit whose K+Q one player holds".
            for suit in range(4):
                if ((h >> (8 * suit)) & kq) == kq:
                    out_points[s & 1] += value
