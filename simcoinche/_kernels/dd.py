"""Double-dummy solver: team 0's card points under perfect play with all hands visible.

RULES.md, "Rulings on points the sources leave open": the double-dummy (DD) value is the
card points a team reaches when all four hands are visible and both sides play perfectly;
252 to a team that wins every trick. The search here maximises team 0's card points
``C0`` (team 0 = seats 0 and 2 maximise, seats 1 and 3 minimise); the facade derives team
1's value from it (see :func:`team1_value`).

Bit layout: a hand or card set is a bitboard (bit ``suit * 8 + rank``, ranks
``7 8 9 T J Q K A`` = 0..7, suits S H D C); ``trump`` is the contract kind (0..3 a
suit, 4 sans-atout, 5 tout-atout). The card rules are the play kernels' own
(:func:`.play.legal_mask_win`, :data:`.play.WIN_KEY`, :func:`.play.card_points`), read
from the packed profile, so every legal-card variant of every profile is searched.

Search (all numbers measured in ``benchmarks/dd.py``):

- fail-soft alpha-beta over single cards, values relative to the position ("future"
  points: what team 0 collects from the cards still to be played, the trick in progress
  included), so a table entry is valid whatever happened before;
- a transposition table probed and stored at trick boundaries only. Within one solve
  the deal is fixed, so the set of cards still in the hands, the leader and one flag
  ("team 0 has won every trick so far": a capot is still possible) identify a position
  exactly; the key also carries a solve stamp so the table is never cleared between
  solves. Entries hold a lower and an upper bound and the best card; two slots per
  bucket (deeper kept, newest always written);
- equivalent cards searched once: two cards of one hand and one suit, adjacent in the
  suit's order among the cards still in play (the trick in progress included) and worth
  the same points, lead to the same values;
- move ordering: the table's card, killers per ply, a history of cut-off cards, and a
  static order (win the trick cheaply, give points to a partner who wins, discard
  cheap cards);
- bounds from the points still in play: team 0 cannot get more than the points left
  plus the last trick (plus the capot bonus while a capot is possible);
- exact values by a null-window search driver (MTD(f)) seeded with a guess; null-window
  probes answer "can team 0 reach T?" directly.

No allocation per node: the scratch (:func:`new_scratch`) is made once per thread.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from simcoinche._kernels.play import WIN_KEY, card_points, legal_mask_win
from simcoinche._kernels.tables import PLAIN_STRENGTH, TRUMP_STRENGTH

# Transposition table: 2 ** TT_LOG2 slots (buckets of two), 16 bytes a slot.
TT_LOG2 = 19
# Position key, two uint64 words. Word 0: the cards still in the hands (bits 0..31) and
# the cards of the trick in progress (32..63); within one solve the deal is fixed, so
# these say who holds what and who played what. Word 1: the seat to play (bits 0..1), in
# 2..4 the "capot still possible" flag (points search) or the sweeping seat (sweep
# searches), the search mode in 5..6, the solve stamp from bit 7.
_KEY_FIELD = 2
_KEY_TAG = 5
_KEY_STAMP = 7
_STAMP_MAX = (1 << 40) - 1

# Entry data (int64): lower bound in bits 0..15, upper bound 16..31, best card + 1 in 32..39.
_NO_CARD = -1
INF = 10_000


def _suit_orders() -> np.ndarray:
    """``ORDER[trump, suit, k]``: the suit's cards from strongest (k = 0) to weakest.

    A trump suit (and every suit at tout-atout) in trump order J 9 A T K Q 8 7; a plain
    suit (and every suit at sans-atout) in plain order A T K Q J 9 8 7.
    """
    order = np.zeros((6, 4, 8), dtype=np.int64)
    for trump in range(6):
        for suit in range(4):
            strength = TRUMP_STRENGTH if (suit == trump or trump == 5) else PLAIN_STRENGTH
            ranks = sorted(range(8), key=lambda r: -strength[r])
            for k, r in enumerate(ranks):
                order[trump, suit, k] = suit * 8 + r
    return order


ORDER = _suit_orders()


class Scratch(NamedTuple):
    """Per-thread working memory of the solver (allocated once, see :func:`new_scratch`).

    ``hands`` int64[4] the cards each seat still holds (bitboards); ``points`` int64[32]
    card points under the current contract kind; ``above_eq`` int64[32] the next
    stronger card of the same suit when it is worth the same points, else -1;
    ``tt_key0``, ``tt_key1`` uint64[2**TT_LOG2] and ``tt_data`` int64[2**TT_LOG2] the
    transposition table;
    ``moves`` int64[40, 8] the ordered candidates per ply; ``scores`` int64[40, 8]
    their ordering scores;
    ``killer`` int64[40, 2] killer cards per ply; ``history`` int64[4, 32] cut-off
    history per seat and card; ``frames`` int64[MAX_PLY, F_COLS] the search stack;
    ``state`` int64[8]: [0] solve stamp, [1] nodes searched, [6] 64 - log2 of the table
    size, [7] the cards that have an equal-point neighbour (see ``above_eq``).
    """

    hands: np.ndarray
    points: np.ndarray
    above_eq: np.ndarray
    tt_key0: np.ndarray
    tt_key1: np.ndarray
    tt_data: np.ndarray
    moves: np.ndarray
    scores: np.ndarray
    killer: np.ndarray
    history: np.ndarray
    frames: np.ndarray
    state: np.ndarray


@njit(cache=True)
def new_scratch(tt_log2=TT_LOG2):
    """A fresh :class:`Scratch` (about 16 MiB, most of it the transposition table)."""
    size = 1 << tt_log2
    S = Scratch(np.zeros(4, np.int64), np.zeros(32, np.int64), np.zeros(32, np.int64),
                   np.zeros(size, np.uint64), np.zeros(size, np.uint64),
                   np.zeros(size, np.int64),
                   np.zeros((40, 8), np.int64), np.zeros((40, 8), np.int64),
                   np.full((40, 2), -1, np.int64), np.zeros((4, 32), np.int64),
                   np.zeros((MAX_PLY, F_COLS), np.int64), np.zeros(8, np.int64))
    S.state[6] = 64 - tt_log2
    return S


@njit(cache=True)
def begin_solve(S, hands, trump, prof):
    """Load a position's hands and the contract's card points; new stamp, fresh history.

    ``hands`` uint32/int64[4] the cards each seat holds. Returns nothing; a new stamp
    makes every entry of an earlier solve invisible (the table is cleared only when the
    stamp wraps).
    """
    for s in range(4):
        S.hands[s] = np.int64(hands[s])
    for c in range(32):
        S.points[c] = card_points(c, trump, prof)
    # Equal-point neighbours in each suit's order (equivalent cards when adjacent in play).
    eq = np.int64(0)
    for suit in range(4):
        S.above_eq[ORDER[trump, suit, 0]] = -1
        for r in range(1, 8):
            c = ORDER[trump, suit, r]
            up = ORDER[trump, suit, r - 1]
            if S.points[c] == S.points[up]:
                S.above_eq[c] = up
                eq |= np.int64(1) << c
            else:
                S.above_eq[c] = -1
    S.state[7] = eq
    stamp = S.state[0] + 1
    if stamp > _STAMP_MAX:
        S.tt_key1[:] = 0
        stamp = 1
    S.state[0] = stamp
    S.history[:, :] = 0
    S.killer[:, :] = -1


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, inline="always")
def _lowest_card(x):
    """Index of the lowest set bit of a non-empty bitboard."""
    return _popcount((x & -x) - 1)


@njit(cache=True, inline="always")
def _slot(S, k0, k1):
    """First slot of the key's bucket (buckets are two adjacent slots)."""
    h = k0 * np.uint64(0x9E3779B97F4A7C15) ^ k1 * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    return np.int64(h >> np.uint64(S.state[6])) & ~np.int64(1)


@njit(cache=True, inline="always")
def _probe(S, k0, k1):
    """Slot holding the key ``(k0, k1)``, or -1."""
    i = _slot(S, k0, k1)
    if S.tt_key0[i] == k0 and S.tt_key1[i] == k1:
        return i
    if S.tt_key0[i + 1] == k0 and S.tt_key1[i + 1] == k1:
        return i + 1
    return -1


@njit(cache=True, inline="always")
def _store(S, k0, k1, lo, hi, card, n_cards):
    """Merge bounds ``[lo, hi]`` and the best card into the entry of key ``(k0, k1)``.

    Replacement: the first slot of a bucket keeps the position with more cards left
    (a larger subtree) of the current solve; the second takes every other write.
    """
    i = _slot(S, k0, k1)
    j = -1
    if S.tt_key0[i] == k0 and S.tt_key1[i] == k1:
        j = i
    elif S.tt_key0[i + 1] == k0 and S.tt_key1[i + 1] == k1:
        j = i + 1
    if j >= 0:
        d = S.tt_data[j]
        old_lo = (d & 0xFFFF) - 512
        old_hi = ((d >> 16) & 0xFFFF) - 512
        if old_lo > lo:
            lo = old_lo
        if old_hi < hi:
            hi = old_hi
        if card < 0:
            card = ((d >> 32) & 0xFF) - 1
    else:
        stale = (S.tt_key1[i] >> np.uint64(_KEY_STAMP)) != (k1 >> np.uint64(_KEY_STAMP))
        if stale or _popcount(np.int64(S.tt_key0[i] & np.uint64(0xFFFFFFFF))) <= n_cards:
            j = i
        else:
            j = i + 1
    S.tt_key0[j] = k0
    S.tt_key1[j] = k1
    S.tt_data[j] = (lo + 512) | ((hi + 512) << 16) | ((card + 1) << 32)


@njit(cache=True, inline="always")
def _position_key1(S, seat, field, tag):
    """Second key word: seat to play, capot flag or sweeping seat, search tag, stamp."""
    return (np.uint64(seat) | (np.uint64(field) << np.uint64(_KEY_FIELD))
            | (np.uint64(tag) << np.uint64(_KEY_TAG))
            | (np.uint64(S.state[0]) << np.uint64(_KEY_STAMP)))


@njit(cache=True, inline="always")
def _candidates(S, ply, legal, in_play):
    """Equivalence-reduced candidates of ``legal``, written to ``S.moves[ply]``.

    ``in_play``: every card still held by a seat or lying in the trick in progress. A
    legal card whose next stronger card in play (same suit) is also legal for this seat
    and worth the same points is equivalent to it and skipped (``S.above_eq`` links each
    card to the next stronger card of equal points). Returns the number of candidates;
    their order is fixed later.
    """
    cand = legal
    m = legal & S.state[7]
    while m:
        c = _lowest_card(m)
        m ^= np.int64(1) << c
        x = S.above_eq[c]
        while x >= 0 and not (in_play >> x) & 1:
            x = S.above_eq[x]
        if x >= 0 and (legal >> x) & 1:
            cand ^= np.int64(1) << c
    k = 0
    while cand:
        c = _lowest_card(cand)
        cand ^= np.int64(1) << c
        S.moves[ply, k] = c
        k += 1
    return k


@njit(cache=True, inline="always")
def _order(S, ply, k, seat, n, led, win_card, win_seat, trump, hint):
    """Sort the ``k`` candidates of ``S.moves[ply]`` best-first for ``seat``.

    Score: the table's card first, then killers, then a static guess (a follower who can
    take the trick from the opponents does it with its cheapest winning card; one whose
    partner wins gives it points; otherwise the cheapest discard), plus the history of
    cut-offs.
    """
    for i in range(k):
        c = S.moves[ply, i]
        p = S.points[c]
        if c == hint:
            sc = 1 << 40
        elif c == S.killer[ply, 0] or c == S.killer[ply, 1]:
            sc = 1 << 36
        else:
            sc = S.history[seat, c] >> 4
            if n == 0:
                # Leading: strong cards first (they keep the lead or draw trumps).
                sc += WIN_KEY[trump, c >> 3, c] * 64
            else:
                wins = WIN_KEY[trump, led, c] > WIN_KEY[trump, led, win_card]
                partner = win_seat == (seat ^ 2)
                if partner:
                    # The partner holds the trick: add points unless a higher card follows.
                    sc += p * 64 - (1 << 20 if wins else 0)
                elif wins:
                    # Take the trick from the opponents, with the cheapest winner.
                    sc += (1 << 30) - WIN_KEY[trump, led, c] * 64 - p
                else:
                    # Cannot win: throw the cheapest card.
                    sc -= p * 64
        S.scores[ply, i] = sc
    # Insertion sort, descending (at most 8 candidates).
    for i in range(1, k):
        c = S.moves[ply, i]
        sc = S.scores[ply, i]
        j = i - 1
        while j >= 0 and S.scores[ply, j] < sc:
            S.moves[ply, j + 1] = S.moves[ply, j]
            S.scores[ply, j + 1] = S.scores[ply, j]
            j -= 1
        S.moves[ply, j + 1] = c
        S.scores[ply, j + 1] = sc


# Columns of the search stack ``S.frames`` (one row per ply, int64).
F_SEAT = 0       # seat to play
F_N = 1          # cards already in the trick
F_LED = 2        # suit led
F_WIN = 3        # card winning the trick
F_WS = 4         # seat of that card
F_TP = 5         # points already in the trick
F_TC = 6         # cards already in the trick (bitboard)
F_CAPOT = 7      # 1 while team 0 won every completed trick (points search)
F_REM = 8        # cards still in the hands
F_REM_PTS = 9    # their points
F_ALPHA = 10     # window, narrowed as children return
F_BETA = 11
F_ALPHA0 = 12    # window at entry (after the table's bounds), to classify the result
F_BETA0 = 13
F_BEST = 14      # best value so far
F_BEST_CARD = 15
F_I = 16         # index of the candidate being searched
F_K = 17         # number of candidates
F_KEY = 18       # table key (n == 0)
F_GAIN = 19      # points team 0 took with the trick the current card completed
F_HAND = 20      # the hand of the seat to play, before its card
F_COLS = 21
MAX_PLY = 34

# Search modes: team 0's points; whether a team (capot) or a seat (générale) can win
# every trick left.
MODE_POINTS = 0
MODE_TEAM_SWEEP = 1
MODE_SEAT_SWEEP = 2

# What the search loop does next.
_ENTER = 0
_NEXT = 1
_RETURN = 2


@njit(cache=True, inline="always")
def _last_trick(S, trump, mode, target, leader, capot_open):
    """Value of the last trick when each seat holds one card (see :func:`_search`)."""
    win = _lowest_card(S.hands[leader])
    led = win >> 3
    ws = leader
    pts = S.points[win]
    for p in range(1, 4):
        seat = (leader + p) & 3
        c = _lowest_card(S.hands[seat])
        pts += S.points[c]
        if WIN_KEY[trump, led, c] > WIN_KEY[trump, led, win]:
            win = c
            ws = seat
    if mode == MODE_POINTS:
        # 10 for the last trick ("dix de der"), 100 if team 0 took every trick.
        if (ws & 1) != 0:
            return 0
        return pts + (100 if capot_open else 10)
    if mode == MODE_SEAT_SWEEP:
        return 1 if ws == target else 0
    return 1 if (ws & 1) == (target & 1) else 0


@njit(cache=True)
def _search(S, trump, prof, mode, target, seat, n, led, win_card, win_seat, trick_pts,
            trick_cards, capot_open, rem, rem_pts, alpha, beta):
    """Fail-soft alpha-beta from a position, iterative (the stack is ``S.frames``).

    Parameters
    ----------
    S : Scratch
        ``S.hands`` holds the cards each seat still has (updated and restored in place).
    trump : int
        Contract kind 0..5.
    prof : int32[PROFILE_LEN]
        Packed profile (legal-card variant).
    mode, target : int
        ``MODE_POINTS``: the value is team 0's future card points (trick in progress
        included, last-trick 10 or the capot's 100 included), team 0 maximising.
        ``MODE_TEAM_SWEEP`` / ``MODE_SEAT_SWEEP``: 1 if ``target``'s team / the seat
        ``target`` itself takes every trick left (the one in progress included), else 0,
        ``target``'s team maximising.
    seat, n : int
        Seat to play; cards already in the trick in progress (0..3).
    led, win_card, win_seat : int
        Suit led, card winning the trick and its seat (ignored when ``n == 0``).
    trick_pts, trick_cards : int64
        Points and bitboard of the cards already in the trick.
    capot_open : int
        1 while team 0 has won every completed trick (its capot is still possible).
    rem, rem_pts : int64
        Cards still in the hands (bitboard, not empty) and their points.
    alpha, beta : int
        Search window.

    Returns
    -------
    int
        The value: exact strictly inside the window, else a bound on the side it fails.
    """
    F = S.frames
    max_team = 0 if mode == MODE_POINTS else (target & 1)
    F[0, F_SEAT] = seat
    F[0, F_N] = n
    F[0, F_LED] = led
    F[0, F_WIN] = win_card
    F[0, F_WS] = win_seat
    F[0, F_TP] = trick_pts
    F[0, F_TC] = trick_cards
    F[0, F_CAPOT] = capot_open
    F[0, F_REM] = rem
    F[0, F_REM_PTS] = rem_pts
    F[0, F_ALPHA] = alpha
    F[0, F_BETA] = beta
    ply = 0
    ret = 0
    action = _ENTER
    while True:
        if action == _ENTER:
            # ---- a new node: bounds, table, candidates ----
            S.state[1] += 1
            seat = F[ply, F_SEAT]
            n = F[ply, F_N]
            rem = F[ply, F_REM]
            a = F[ply, F_ALPHA]
            b = F[ply, F_BETA]
            if mode == MODE_POINTS:
                # Bounds from the points still in play: at most everything left plus the
                # last trick (the capot's 100 while a capot is possible); at least nothing.
                upper = F[ply, F_TP] + F[ply, F_REM_PTS] + (100 if F[ply, F_CAPOT] else 10)
            else:
                upper = 1
            if upper <= a:
                ret = upper
                action = _RETURN
                continue
            if b <= 0:
                ret = 0
                action = _RETURN
                continue
            if n == 0 and _popcount(rem) == 4:
                # Last trick: every seat has one card left, nothing to choose.
                ret = _last_trick(S, trump, mode, target, seat, F[ply, F_CAPOT])
                action = _RETURN
                continue
            hint = _NO_CARD
            field = F[ply, F_CAPOT] if mode == MODE_POINTS else target
            k0 = np.uint64(rem) | (np.uint64(F[ply, F_TC]) << np.uint64(32))
            k1 = _position_key1(S, seat, field, mode)
            F[ply, F_KEY] = np.int64(k1)
            slot = _probe(S, k0, k1) if n == 0 else -1
            if slot >= 0:
                d = S.tt_data[slot]
                lo = (d & 0xFFFF) - 512
                hi = ((d >> 16) & 0xFFFF) - 512
                if lo >= b or lo == hi:
                    ret = lo
                    action = _RETURN
                    continue
                if hi <= a:
                    ret = hi
                    action = _RETURN
                    continue
                if lo > a:
                    a = lo
                if hi < b:
                    b = hi
                hint = ((d >> 32) & 0xFF) - 1
            hand = S.hands[seat]
            F[ply, F_HAND] = hand
            if n == 0:
                legal = hand
            else:
                legal = np.int64(legal_mask_win(hand, F[ply, F_LED], F[ply, F_WIN],
                                                F[ply, F_WS] == (seat ^ 2), trump, prof))
            if legal & (legal - 1) == 0:
                k = 1
                S.moves[ply, 0] = _lowest_card(legal)
            else:
                k = _candidates(S, ply, legal, rem | F[ply, F_TC])
                if k > 1:
                    _order(S, ply, k, seat, n, F[ply, F_LED], F[ply, F_WIN], F[ply, F_WS],
                           trump, hint)
            F[ply, F_K] = k
            F[ply, F_I] = 0
            F[ply, F_ALPHA] = a
            F[ply, F_BETA] = b
            F[ply, F_ALPHA0] = a
            F[ply, F_BETA0] = b
            F[ply, F_BEST] = -INF if (seat & 1) == max_team else INF
            F[ply, F_BEST_CARD] = S.moves[ply, 0]
            action = _NEXT
        elif action == _NEXT:
            # ---- play the next candidate of the node at ``ply``, or close the node ----
            i = F[ply, F_I]
            if i >= F[ply, F_K]:
                ret = F[ply, F_BEST]
                # A fail-low result is an upper bound, a fail-high one a lower bound.
                if ret <= F[ply, F_ALPHA0]:
                    lo, hi = 0, ret
                elif ret >= F[ply, F_BETA0]:
                    lo, hi = ret, INF
                else:
                    lo, hi = ret, ret
                k0 = np.uint64(F[ply, F_REM]) | (np.uint64(F[ply, F_TC]) << np.uint64(32))
                if F[ply, F_N] == 0 or S.state[5] > F[ply, F_N]:
                    _store(S, k0, np.uint64(F[ply, F_KEY]), lo, hi, F[ply, F_BEST_CARD],
                       _popcount(F[ply, F_REM]))
                action = _RETURN
                continue
            seat = F[ply, F_SEAT]
            n = F[ply, F_N]
            c = S.moves[ply, i]
            bit = np.int64(1) << c
            S.hands[seat] = F[ply, F_HAND] ^ bit
            p = S.points[c]
            led = F[ply, F_LED]
            win = F[ply, F_WIN]
            ws = F[ply, F_WS]
            if n == 0:
                led = c >> 3
                win = c
                ws = seat
            elif WIN_KEY[trump, led, c] > WIN_KEY[trump, led, win]:
                win = c
                ws = seat
            tp = F[ply, F_TP] + p
            nrem = F[ply, F_REM] ^ bit
            q = ply + 1
            if n < 3:
                # The trick goes on: the next seat plays.
                F[ply, F_GAIN] = 0
                F[q, F_SEAT] = (seat + 1) & 3
                F[q, F_N] = n + 1
                F[q, F_LED] = led
                F[q, F_WIN] = win
                F[q, F_WS] = ws
                F[q, F_TP] = tp
                F[q, F_TC] = F[ply, F_TC] | bit
                F[q, F_CAPOT] = F[ply, F_CAPOT]
                F[q, F_REM] = nrem
                F[q, F_REM_PTS] = F[ply, F_REM_PTS] - p
                F[q, F_ALPHA] = F[ply, F_ALPHA]
                F[q, F_BETA] = F[ply, F_BETA]
                ply = q
                action = _ENTER
                continue
            # The trick is complete: it goes to seat ``ws``.
            leaf = False
            g = 0
            if mode == MODE_POINTS:
                team0 = (ws & 1) == 0
                if nrem == 0:
                    # Last trick: 10 for it ("dix de der"), 100 if team 0 took them all.
                    ret = (tp + (100 if F[ply, F_CAPOT] else 10)) if team0 else 0
                    leaf = True
                elif team0:
                    g = tp
            else:
                took = (ws == target) if mode == MODE_SEAT_SWEEP else ((ws & 1) == (target & 1))
                if not took:
                    ret = 0
                    leaf = True
                elif nrem == 0:
                    ret = 1
                    leaf = True
            F[ply, F_GAIN] = g
            if leaf:
                # Hand the value back as if a child had returned it.
                ply = q
                action = _RETURN
                continue
            F[q, F_SEAT] = ws
            F[q, F_N] = 0
            F[q, F_LED] = 0
            F[q, F_WIN] = 0
            F[q, F_WS] = ws
            F[q, F_TP] = 0
            F[q, F_TC] = 0
            F[q, F_CAPOT] = 1 if (F[ply, F_CAPOT] and (ws & 1) == 0) else 0
            F[q, F_REM] = nrem
            F[q, F_REM_PTS] = F[ply, F_REM_PTS] - p
            F[q, F_ALPHA] = F[ply, F_ALPHA] - g
            F[q, F_BETA] = F[ply, F_BETA] - g
            ply = q
            action = _ENTER
        else:
            # ---- ``ret`` is the value of the node at ``ply``: give it to its parent ----
            if ply == 0:
                return ret
            ply -= 1
            seat = F[ply, F_SEAT]
            v = ret + F[ply, F_GAIN]
            i = F[ply, F_I]
            c = S.moves[ply, i]
            S.hands[seat] = F[ply, F_HAND]
            a = F[ply, F_ALPHA]
            b = F[ply, F_BETA]
            if (seat & 1) == max_team:
                if v > F[ply, F_BEST]:
                    F[ply, F_BEST] = v
                    F[ply, F_BEST_CARD] = c
                    if v > a:
                        F[ply, F_ALPHA] = v
                        a = v
            elif v < F[ply, F_BEST]:
                F[ply, F_BEST] = v
                F[ply, F_BEST_CARD] = c
                if v < b:
                    F[ply, F_BETA] = v
                    b = v
            if a >= b:
                # Cut-off: remember the card for this ply and this seat; close the node.
                if S.killer[ply, 0] != c:
                    S.killer[ply, 1] = S.killer[ply, 0]
                    S.killer[ply, 0] = c
                S.history[seat, c] += 1 + _popcount(F[ply, F_REM])
                F[ply, F_I] = F[ply, F_K]
            else:
                F[ply, F_I] = i + 1
            action = _NEXT


@njit(cache=True)
def _trick_state(trick, n, leader, trump):
    """``(led, win_card, win_seat, points-free card set)`` of the trick in progress."""
    if n == 0:
        return 0, 0, leader, np.int64(0)
    led = np.int64(trick[0]) >> 3
    win = np.int64(trick[0])
    ws = leader
    cards = np.int64(0)
    for p in range(n):
        c = np.int64(trick[p])
        cards |= np.int64(1) << c
        if WIN_KEY[trump, led, c] > WIN_KEY[trump, led, win]:
            win = c
            ws = (leader + p) & 3
    return led, win, ws, cards


@njit(cache=True)
def _root(S, trump, prof, mode, target, leader, trick, n, capot_open, alpha, beta):
    """Search the position loaded by :func:`begin_solve` with a trick in progress."""
    led, win, ws, cards = _trick_state(trick, n, leader, trump)
    rem = S.hands[0] | S.hands[1] | S.hands[2] | S.hands[3]
    if rem == 0:
        return 0
    rem_pts = 0
    tp = 0
    for c in range(32):
        if (rem >> c) & 1:
            rem_pts += S.points[c]
        if (cards >> c) & 1:
            tp += S.points[c]
    return _search(S, trump, prof, mode, target, (leader + n) & 3, n, led, win, ws, tp,
                   cards, capot_open, rem, rem_pts, alpha, beta)


@njit(cache=True)
def search_window(S, trump, prof, leader, trick, n, capot_open, alpha, beta):
    """One fail-soft search of team 0's points from the position loaded by
    :func:`begin_solve`.

    ``trick`` int[>= n] the cards of the trick in progress from its leader ``leader``
    (``n`` = 0..3 of them); ``capot_open`` 1 while team 0 has won every completed trick.
    Returns team 0's future points (see :func:`_search`), exact when strictly inside
    ``(alpha, beta)``.
    """
    return _root(S, trump, prof, MODE_POINTS, 0, leader, trick, n, capot_open, alpha, beta)


@njit(cache=True)
def solve_value(S, trump, prof, leader, trick, n, capot_open, guess):
    """Exact future points of team 0 by MTD(f): null-window probes around ``guess``.

    Each probe ``(g - 1, g)`` answers "can team 0 reach ``g``?"; the bounds it returns
    (kept in the table between probes) close in on the value. Returns the exact value.
    """
    lower = -INF
    upper = INF
    g = guess
    while lower < upper:
        beta = max(g, lower + 1)
        v = search_window(S, trump, prof, leader, trick, n, capot_open, beta - 1, beta)
        if v < beta:
            upper = v
        else:
            lower = v
        g = v
    return g


@njit(cache=True)
def solve_value_bisect(S, trump, prof, leader, trick, n, capot_open, guess):
    """Exact future points of team 0 by null-window probes that halve the interval."""
    lower = 0
    upper = 253
    g = guess
    while lower < upper:
        v = search_window(S, trump, prof, leader, trick, n, capot_open, g - 1, g)
        if v >= g:
            lower = v
        else:
            upper = v
        g = (lower + upper + 1) // 2
    return lower


@njit(cache=True)
def sweep_possible(S, trump, prof, leader, trick, n, target, by_seat):
    """Whether ``target``'s team (``by_seat`` 0) or the seat itself (1) can win every
    trick left, the trick in progress included. Returns 1 or 0."""
    mode = MODE_SEAT_SWEEP if by_seat else MODE_TEAM_SWEEP
    return _root(S, trump, prof, mode, target, leader, trick, n, 0, 0, 1)


@njit(cache=True)
def root_values(S, trump, prof, leader, trick, n, capot_open, out_cards, out_values):
    """Team 0's DD value (future points) after each legal card of the seat to play.

    Position as :func:`search_window` (``trick`` is not modified). Writes the legal cards
    in ascending index into ``out_cards`` int64[8] and, for each, team 0's future points
    from this position when that card is played and both sides then play perfectly (the
    trick in progress included) into ``out_values`` int64[8]. Returns the number of legal
    cards.
    """
    led, win, ws, cards = _trick_state(trick, n, leader, trump)
    seat = (leader + n) & 3
    hand = S.hands[seat]
    if n == 0:
        legal = hand
    else:
        legal = np.int64(legal_mask_win(hand, led, win, ws == (seat ^ 2), trump, prof))
    rem = S.hands[0] | S.hands[1] | S.hands[2] | S.hands[3]
    tp = 0
    for c in range(32):
        if (cards >> c) & 1:
            tp += S.points[c]
    child = np.zeros(4, np.int64)
    for p in range(n):
        child[p] = trick[p]
    k = 0
    m = legal
    while m:
        c = _lowest_card(m)
        m ^= np.int64(1) << c
        out_cards[k] = c
        S.hands[seat] = hand ^ (np.int64(1) << c)
        if n < 3:
            child[n] = c
            v = solve_value(S, trump, prof, leader, child, n + 1, capot_open, 81)
        else:
            # The card completes the trick: score it, then solve from the next lead.
            nws = seat if WIN_KEY[trump, led, c] > WIN_KEY[trump, led, win] else ws
            team0 = (nws & 1) == 0
            pts = tp + S.points[c]
            if (rem ^ (np.int64(1) << c)) == 0:
                v = (pts + (100 if capot_open else 10)) if team0 else 0
            else:
                g = pts if team0 else 0
                v = g + solve_value(S, trump, prof, nws, child, 0,
                                    1 if (capot_open and team0) else 0, 81)
        S.hands[seat] = hand
        out_values[k] = v
        k += 1
    return k


@njit(cache=True)
def solve_deal(S, hands, dealer, trump, prof, guess):
    """Team 0's DD card points of a whole deal (opening lead by seat ``dealer + 1``)."""
    begin_solve(S, hands, trump, prof)
    trick = np.zeros(4, np.int64)
    return solve_value(S, trump, prof, (dealer + 1) & 3, trick, 0, 1, guess)


@njit(cache=True, parallel=True)
def solve_many(hands, dealer, kind, prof, n_threads, out, nodes):
    """Team 0's DD card points of many whole deals, in parallel.

    Parameters
    ----------
    hands : uint32[n, 4]
        The four 8-card hands by seat.
    dealer, kind : int[n]
        Dealer seat (seat ``dealer + 1`` leads) and contract kind 0..5 per row.
    prof : int32[PROFILE_LEN]
        Packed profile.
    out : int16[n]
        Team 0's card points (0..252) per row, written in place.
    n_threads : int
        Number of blocks: block ``b`` solves rows ``b, b + n_threads, …`` with its own
        scratch.
    nodes : int64[n]
        Nodes searched per row (for benchmarks).

    A row's value is exact, so it depends on nothing but the row (not on the blocks).
    """
    n = hands.shape[0]
    n_blocks = max(1, min(n, n_threads))
    for b in prange(n_blocks):
        S = new_scratch()
        for i in range(b, n, n_blocks):
            before = S.state[1]
            out[i] = solve_deal(S, hands[i], dealer[i], kind[i], prof, 81)
            nodes[i] = S.state[1] - before
