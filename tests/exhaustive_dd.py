"""Exhaustive double-dummy minimax, compiled: the oracle for thousands of positions.

:mod:`simcoinche.rules.reference_dd` is the readable exhaustive minimax, in Python: about
0.35 s of CPU per position with four tricks left, too slow for the issue's 5,000 positions
per profile (issue 20, item 7). This module is the same search — every legal card of
every seat, no pruning, no transposition table, no move ordering, no bound — compiled
with numba on the rule kernels of :mod:`simcoinche._kernels.play` (legal cards, trick
winner, card points: themselves tested against the reference engine on random states).
It shares nothing with the solver under test (:mod:`simcoinche._kernels.dd`): no window,
no table, no quick tricks, no ordering. ``tests/test_dd_solver.py`` first checks it
against :mod:`~simcoinche.rules.reference_dd` on positions of every profile and kind,
then uses it on the thousands.

Values are team 0's *future* card points, as in the reference: the cards of the trick in
progress included, 10 for the last trick, instead what brings team 0's points to 252
when it wins every trick (``capot_open``: team 0 has won every completed trick so far).
That bonus is the reference's (:func:`~simcoinche.rules.reference_dd.last_trick_bonus`),
passed in as ``capot_bonus``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels.layout import P_LAST_TRICK_BONUS
from simcoinche._kernels.play import card_points, legal_mask, trick_winner

# Compiled on each run, never cached: numba's cache of a recursive function segfaults when
# loaded back (seen here with numba's on-disk cache on the second run); the two functions
# compile in a few seconds.
NO_CACHE = njit(cache=False)



@NO_CACHE
def value_after(hands, leader, tricks, depth, n, kind, prof, capot_open, card,
                capot_bonus):
    """Team 0's future points when the seat to play plays ``card``, then perfect play
    (exhaustive: every legal card of every seat, no pruning).

    ``hands`` int64[4] (the cards each seat holds, bit ``suit*8 + rank``; modified during
    the search, restored on return), ``tricks`` int64[9, 4] (row ``depth`` is the trick in
    progress, its first ``n`` cards from ``leader``; deeper rows are scratch), ``kind``
    the contract kind 0..5, ``prof`` the packed profile, ``capot_open`` 1 while team 0
    has won every completed trick, ``capot_bonus`` what the last trick adds on a capot
    (``prof``'s own 10 otherwise). One function recursing into itself (numba infers its
    type from the last trick's return).
    """
    seat = (leader + n) & 3
    trick = tricks[depth]
    hands[seat] &= ~(np.int64(1) << card)
    trick[n] = card
    gained = np.int64(0)
    if n == 3:
        # The trick is complete: it goes to the seat of its winning card.
        winner = (leader + trick_winner(trick, 4, kind, prof)) & 3
        points = np.int64(0)
        for k in range(4):
            points += card_points(trick[k], kind, prof)
        team0_wins = winner % 2 == 0
        if hands[0] | hands[1] | hands[2] | hands[3] == 0:
            # Last trick: 10 for it, or 252 in all when team 0 won every trick.
            last = np.int64(0)
            if team0_wins:
                last = points + (capot_bonus if capot_open != 0
                                 else np.int64(prof[P_LAST_TRICK_BONUS]))
            hands[seat] |= np.int64(1) << card
            return last
        if team0_wins:
            gained = points
        nl, nd, nn = winner, depth + 1, 0
        nc = 1 if capot_open != 0 and team0_wins else 0
    else:
        # The trick goes on: the next seat plays.
        nl, nd, nn, nc = leader, depth, n + 1, capot_open
    nseat = (nl + nn) & 3
    legal = np.int64(legal_mask(np.uint32(hands[nseat]), tricks[nd], nn, kind, prof))
    best = np.int64(-1)
    for c in range(32):
        if (legal >> c) & 1:
            v = value_after(hands, nl, tricks, nd, nn, kind, prof, nc, c, capot_bonus)
            # Team 0 maximises its points, team 1 minimises them.
            if best < 0 or (nseat % 2 == 0 and v > best) or (nseat % 2 == 1 and v < best):
                best = v
    hands[seat] |= np.int64(1) << card
    return gained + best


@NO_CACHE
def card_values(hands, leader, trick, n, kind, prof, capot_open, capot_bonus, out_cards,
                out_values):
    """Team 0's future points after each legal card of the seat to play (ascending card
    index into ``out_cards`` / ``out_values``, int64[8]); returns how many."""
    tricks = np.zeros((9, 4), dtype=np.int64)
    for k in range(n):
        tricks[0, k] = trick[k]
    h = hands.copy()
    seat = (leader + n) & 3
    legal = np.int64(legal_mask(np.uint32(h[seat]), tricks[0], n, kind, prof))
    m = 0
    for card in range(32):
        if (legal >> card) & 1:
            out_cards[m] = card
            out_values[m] = value_after(h, leader, tricks, 0, n, kind, prof, capot_open,
                                        card, capot_bonus)
            m += 1
    return m
