"""Random playouts from one dealt position with the contract set (Monte Carlo rollouts).

``rollout_batch(run_key, hands, leader, kind, prof, out, rec)`` plays ``n = out.shape[0]``
independent playouts of the cards in ``hands`` (uint32[4], the four hands by seat, equal
sizes ``1..8``): seat ``leader`` leads the first trick, every card is drawn uniformly
among the player's legal cards (:func:`.play.legal_mask_win`, the profile's rules), and
``out[i]`` (int16) receives team 0's card points of playout ``i``: the points of its
tricks, plus the last-trick bonus when it wins the last trick; with all 8 tricks of a
full deal the profile's capot value (252 federal), with none of them 0. With
``rec.shape[0] == n`` (else ``rec`` is ``uint8[0, 32]``) the cards of playout ``i`` are
also written into ``rec[i]`` in play order (for tests).

Random stream: playout ``i`` uses the SplitMix64 sequence started at
``donne_key(run_key, i)`` (:mod:`.rng`): draw ``j`` is ``mix64(key_i + (j+1)*GOLDEN)``.
Playout ``i`` is therefore the same whatever the thread count. Each 64-bit draw serves up
to four card choices: a choice among ``k`` legal cards takes the next 16-bit chunk ``u``
and returns ``(u*k) >> 16``, rejecting the ``65536 mod k`` values of ``(u*k) & 0xFFFF``
that would bias it (Lemire's method on 16 bits: exactly uniform). A player with one legal
card draws nothing.

Inner loop: the remaining cards are one ``uint32`` (``rem``) and each seat's hand is
``hands[seat] & rem``; the trick's winner is kept card by card (:data:`.play.WIN_KEY`
for the kind, copied into a 128-entry table), points come from a per-kind 32-entry
table, and team 0's points are summed per trick. Nothing is allocated per playout.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint64

from simcoinche._kernels.layout import P_CAPOT_CARD_POINTS, P_LAST_TRICK_BONUS
from simcoinche._kernels.play import WIN_KEY, card_points, legal_mask_win
from simcoinche._kernels.rng import GOLDEN, donne_key, lowest_bit, mix64, nth_bit, popcount32

BLOCK = 4096
_M16 = uint64(0xFFFF)


@njit(cache=True, parallel=True, nogil=True)
def rollout_batch(run_key, hands, leader, kind, prof, out, rec):
    """Random legal playouts from one position (module docstring).

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the caller's seed.
    hands : uint32[4]
        The cards of each seat (bitboards, disjoint, equal sizes 1..8).
    leader : int
        Seat leading the first trick (the dealer's left).
    kind : int
        Contract kind 0..5.
    prof : int32[PROFILE_LEN]
        Packed profile.
    out : int16[n]
        Team 0's card points per playout.
    rec : uint8[n, 32] or uint8[0, 32]
        Play order per playout (recorded only when ``rec.shape[0] == n``).
    """
    n = out.shape[0]
    record = rec.shape[0] == n
    # Per-call tables: points of each card, strength of each card in a trick per led suit.
    pts = np.zeros(32, dtype=np.int64)
    wkey = np.zeros((4, 32), dtype=np.int64)
    for c in range(32):
        pts[c] = card_points(c, kind, prof)
        for led in range(4):
            wkey[led, c] = WIN_KEY[kind, led, c]
    allc = np.uint32(hands[0] | hands[1] | hands[2] | hands[3])
    n_tricks = popcount32(hands[0])
    bonus = prof[P_LAST_TRICK_BONUS]
    capot = prof[P_CAPOT_CARD_POINTS]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        lo = b * BLOCK
        hi = min(n, lo + BLOCK)
        for i in range(lo, hi):
            state = donne_key(run_key, i)
            bits = uint64(0)
            left = 0  # 16-bit chunks left in `bits`
            rem = np.int64(allc)
            lead = leader
            p0 = 0
            t0 = 0
            pos = 0
            last0 = False
            for _tr in range(n_tricks):
                led = 0
                win_card = 0
                win_pos = 0
                tp = 0
                for p in range(4):
                    seat = (lead + p) & 3
                    hand = np.int64(hands[seat]) & rem
                    if p == 0:
                        # Leading: any card.
                        legal = hand
                    else:
                        legal = np.int64(legal_mask_win(np.uint32(hand), led, win_card,
                                                        win_pos == p - 2, kind, prof))
                    k = popcount32(legal)
                    if k == 1:
                        # One legal card: no draw.
                        c = lowest_bit(legal)
                    else:
                        kk = uint64(k)
                        while True:
                            if left == 0:
                                # Next 64-bit draw of the playout's SplitMix64 sequence.
                                state = state + GOLDEN
                                bits = mix64(state)
                                left = 4
                            m = (bits & _M16) * kk
                            bits = bits >> uint64(16)
                            left -= 1
                            low = m & _M16
                            # Reject the few values that would favour small indices
                            # (the modulo is only computed when low < k, rarely).
                            if low >= kk or low >= uint64(65536) % kk:
                                break
                        c = nth_bit(legal, np.int64(m >> uint64(16)))
                    rem &= ~(np.int64(1) << c)
                    tp += pts[c]
                    if record:
                        rec[i, pos] = c
                    pos += 1
                    if p == 0:
                        led = c >> 3
                        win_card = c
                    elif wkey[led, c] > wkey[led, win_card]:
                        win_card = c
                        win_pos = p
                # "A trick is won by the highest trump in it, else by the highest card of
                # the led suit".
                lead = (lead + win_pos) & 3
                last0 = (lead & 1) == 0
                if last0:
                    p0 += tp
                    t0 += 1
            if n_tricks == 8 and t0 == 8:
                # Capot: all 8 tricks give the capot value.
                p0 = capot
            elif n_tricks == 8 and t0 == 0:
                p0 = 0
            elif last0:
                # "+10 for the last trick ("dix de der")".
                p0 += bonus
            out[i] = p0
