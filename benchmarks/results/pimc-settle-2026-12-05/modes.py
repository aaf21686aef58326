"""PIMC decisions: where class_sums' nodes go, and variants of it (issue 23, criterion 2).

Usage (from this directory, the tree on PYTHONPATH): ``python modes.py N [MODE ...]``
(default 300 positions, modes 4 and 6; ``L0=8`` in the environment for mode 6). Each
mode is described in ``timings.txt``; each runs on benchmarks.pimc_cards' positions and
streams after the tree's own ``pimc_card`` (the reference), and prints its time per card,
how many cards and streams equal the reference's, and its nodes by phase.
"""
import os
import random
import sys
import time

import numpy as np
from numba import njit

from simcoinche._kernels import dd
from simcoinche._kernels import pimc as P
from simcoinche._kernels.dd_scratch import (
    DD_CAPOT,
    W_CAPOT,
    W_CHILD,
    W_DD_TOTAL,
    W_HANDS,
    W_NODES,
    W_POINTS,
)
from simcoinche._kernels.layout import P_LAST_TRICK_BONUS
from simcoinche._kernels.play import legal_mask
from simcoinche._kernels.players import I_KIND, PARAM_LEN
from simcoinche.rules.profiles import FEDERAL

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
from benchmarks.pimc_cards import SEED, _stream, decisions, position

BIG = 1000
L0 = int(os.environ.get("L0", "8"))


@njit(cache=False)
def near_between(S, trump, prof, leader, trick, n, capot_open, guess, lower, upper):
    no_capot_max = S.work[W_DD_TOTAL]
    top = max(DD_CAPOT, no_capot_max)
    if upper > top + 1:
        upper = top + 1
    if lower < 0:
        lower = 0
    g = min(max(guess, lower + 1), upper)
    step = 1
    while lower < upper:
        v = dd.search_window(S, trump, prof, leader, trick, n, capot_open, g - 1, g)
        if v >= g:
            lower = v
            g = min(lower + step, upper) if step else dd._midpoint(lower, upper, no_capot_max)
        else:
            upper = v
            g = (max(upper - step + 1, lower + 1) if step
                 else dd._midpoint(lower, upper, no_capot_max))
        if step:
            step *= 2
            if step > 8:
                step = 0
        if g <= lower or g > upper:
            g = dd._midpoint(lower, upper, no_capot_max)
    return lower

@njit(cache=False)
def card_exact(S, trump, prof, leader, trick, n, capot_open, card, guess, lower, upper):
    W = S.work
    led, win, ws, cards = dd._trick_state(trick, n, leader, trump)
    seat = (leader + n) & 3
    hand = W[W_HANDS + seat]
    child = W[W_CHILD:W_CHILD + 4]
    for p in range(n):
        child[p] = trick[p]
    if n < 3:
        child[n] = card
        g = 0
        nl, nn, nc = leader, n + 1, capot_open
    else:
        rem = W[W_HANDS] | W[W_HANDS + 1] | W[W_HANDS + 2] | W[W_HANDS + 3]
        nws = seat if dd._win_key(trump, led, card) > dd._win_key(trump, led, win) else ws
        team0 = (nws & 1) == 0
        tp = 0
        for c in range(32):
            if (cards >> c) & 1:
                tp += W[W_POINTS + c]
        g = (tp + W[W_POINTS + card]) if team0 else 0
        nl, nn, nc = nws, 0, (1 if (capot_open and team0) else 0)
        if (rem ^ (np.int64(1) << card)) == 0:
            if team0:
                g += W[W_CAPOT] if nc else W[P_LAST_TRICK_BONUS]
            return g
    W[W_HANDS + seat] = hand ^ (np.int64(1) << card)
    if guess < 0:
        guess = 81 + g
    v = near_between(S, trump, prof, nl, child, nn, nc, guess - g, lower - g, upper - g)
    W[W_HANDS + seat] = hand
    return g + v

@njit(cache=False)
def _exact(T, w, j, kind, prof, leader, n, capot_open, guess, acc, a, lower=-1, upper=100000):
    S = T.solver
    b0 = S.work[W_NODES]
    if lower < 0 and upper >= 100000:
        v = dd.card_value(S, kind, prof, leader, T.trick, n, capot_open, T.reps[j], guess, 0)
    else:
        v = card_exact(S, kind, prof, leader, T.trick, n, capot_open, T.reps[j], guess,
                       lower, upper)
    acc[a] += S.work[W_NODES] - b0
    T.sum_lo[j] += v - T.lo[w, j]
    T.sum_hi[j] += v - T.hi[w, j]
    T.lo[w, j] = v
    T.hi[w, j] = v
    T.guess[j] = v
    return v

@njit(cache=False)
def _probe(T, j, kind, prof, leader, n, capot_open, t, acc, a):
    S = T.solver
    b0 = S.work[W_NODES]
    r = dd.card_value(S, kind, prof, leader, T.trick, n, capot_open, T.reps[j], -1, t)
    acc[a] += S.work[W_NODES] - b0
    return r

@njit(cache=False)
def class_sums(T, worlds, kind, prof, leader, n, capot_open, mode, acc):
    S = T.solver
    dd.begin_solve(S, T.hands[0], kind, prof)
    k = dd.root_classes(S, kind, leader, T.trick, n, T.reps, T.card_class)
    for j in range(k):
        T.sum_lo[j] = 0
        T.sum_hi[j] = 0
    if k == 1:
        return k
    for w in range(worlds):
        for j in range(k):
            T.lo[w, j] = 0
            T.hi[w, j] = 0
    guess = np.int64(-1)
    for j in range(k):
        guess = _exact(T, 0, j, kind, prof, leader, n, capot_open, guess, acc, 0)
    for w in range(1, worlds):
        dd.begin_solve(S, T.hands[w], kind, prof)
        best = 0
        for j in range(1, k):
            if T.sum_lo[j] > T.sum_lo[best]:
                best = j
        if mode == 0 or mode == 2 or mode == 4 or mode == 5:
            v_best = _exact(T, w, best, kind, prof, leader, n, capot_open, T.guess[best], acc, 1)
            t0 = max(v_best, np.int64(1))
            for j in range(k):
                if j == best:
                    continue
                t = t0
                if mode >= 4:
                    lead = T.sum_lo[best] - v_best - T.sum_hi[j]
                    if lead > 0:
                        t = t0 + lead // (2 * w)
                r = _probe(T, j, kind, prof, leader, n, capot_open, t, acc, 2)
                if r >= t:
                    if mode == 5:
                        _exact(T, w, j, kind, prof, leader, n, capot_open, r + 1, acc, 3, r,
                               100000 - 1)
                    else:
                        _exact(T, w, j, kind, prof, leader, n, capot_open, r, acc, 3)
                else:
                    T.hi[w, j] = r
                    T.sum_hi[j] += r
        elif mode == 6:
            lead_min = np.int64(1 << 40)
            for j in range(k):
                if j != best:
                    lead_min = min(lead_min, T.sum_lo[best] - T.sum_hi[j])
            per = lead_min // w
            if per < L0:
                v_best = _exact(T, w, best, kind, prof, leader, n, capot_open, T.guess[best],
                                acc, 1)
                t0 = max(v_best, np.int64(1))
                for j in range(k):
                    if j == best:
                        continue
                    lead = T.sum_lo[best] - v_best - T.sum_hi[j]
                    t = t0 + (lead // (2 * w) if lead > 0 else 0)
                    r = _probe(T, j, kind, prof, leader, n, capot_open, t, acc, 2)
                    if r >= t:
                        _exact(T, w, j, kind, prof, leader, n, capot_open, r, acc, 3)
                    else:
                        T.hi[w, j] = r
                        T.sum_hi[j] += r
            else:
                gb = T.sum_lo[best] // w
                tb = max(gb - per // 4, np.int64(1))
                r = _probe(T, best, kind, prof, leader, n, capot_open, tb, acc, 1)
                if r >= tb:
                    T.lo[w, best] = r
                    T.hi[w, best] = BIG
                    T.sum_lo[best] += r
                    T.sum_hi[best] += BIG
                else:
                    _exact(T, w, best, kind, prof, leader, n, capot_open, r, acc, 1)
                for j in range(k):
                    if j == best:
                        continue
                    lead = T.sum_lo[best] - T.lo[w, best] - T.sum_hi[j]
                    t = max(gb + lead // (4 * w), np.int64(1))
                    r = _probe(T, j, kind, prof, leader, n, capot_open, t, acc, 2)
                    if r >= t:
                        _exact(T, w, j, kind, prof, leader, n, capot_open, r, acc, 3)
                    else:
                        T.hi[w, j] = r
                        T.sum_hi[j] += r
        elif mode == 3:
            g = max(T.guess[best], np.int64(1))
            r = _probe(T, best, kind, prof, leader, n, capot_open, g, acc, 1)
            if r >= g:
                T.lo[w, best] = r
                T.hi[w, best] = BIG
                T.sum_lo[best] += r
                T.sum_hi[best] += BIG
                t = r
            else:
                vb = _exact(T, w, best, kind, prof, leader, n, capot_open, r, acc, 1)
                t = max(vb, np.int64(1))
            for j in range(k):
                if j == best:
                    continue
                r = _probe(T, j, kind, prof, leader, n, capot_open, t, acc, 2)
                if r >= t:
                    _exact(T, w, j, kind, prof, leader, n, capot_open, r, acc, 3)
                else:
                    T.hi[w, j] = r
                    T.sum_hi[j] += r
        else:
            # others first at the best's guess; then the best at what separates.
            g = max(T.guess[best], np.int64(1))
            top_other = np.int64(-1)
            for j in range(k):
                if j == best:
                    continue
                r = _probe(T, j, kind, prof, leader, n, capot_open, g, acc, 2)
                if r >= g:
                    v = _exact(T, w, j, kind, prof, leader, n, capot_open, r, acc, 3)
                    top_other = max(top_other, v)
                else:
                    T.hi[w, j] = r
                    T.sum_hi[j] += r
                    top_other = max(top_other, r)
            tb = top_other + 1
            if tb < 1:
                tb = 1
            r = _probe(T, best, kind, prof, leader, n, capot_open, tb, acc, 1)
            if r >= tb:
                T.lo[w, best] = r
                T.hi[w, best] = BIG
                T.sum_lo[best] += r
                T.sum_hi[best] += BIG
            else:
                _exact(T, w, best, kind, prof, leader, n, capot_open, r, acc, 1)
    if mode >= 2:
        _settle_inc(T, worlds, k, kind, prof, leader, n, capot_open, acc, mode)
    else:
        _settle(T, worlds, k, kind, prof, leader, n, capot_open, acc)
    return k

@njit(cache=False)
def _settle_inc(T, worlds, k, kind, prof, leader, n, capot_open, acc, mode):
    S = T.solver
    while True:
        top = T.sum_lo[0]
        for j in range(1, k):
            top = max(top, T.sum_lo[j])
        open_ = 0
        contenders = 0
        for j in range(k):
            if T.sum_hi[j] >= top:
                contenders += 1
                if T.sum_lo[j] != T.sum_hi[j]:
                    open_ |= 1 << j
        if open_ == 0 or contenders == 1:
            return
        # the world where the open classes are least known
        bw = -1
        bgap = np.int64(-1)
        for w in range(worlds):
            gap = np.int64(0)
            for j in range(k):
                if (open_ >> j) & 1:
                    gap += T.hi[w, j] - T.lo[w, j]
            if gap > bgap:
                bgap = gap
                bw = w
        dd.begin_solve(S, T.hands[bw], kind, prof)
        for j in range(k):
            if (open_ >> j) & 1 and T.lo[bw, j] != T.hi[bw, j]:
                g = np.int64(T.hi[bw, j]) if T.hi[bw, j] < BIG else np.int64(T.lo[bw, j])
                if mode == 5:
                    _exact(T, bw, j, kind, prof, leader, n, capot_open, g, acc, 4,
                           np.int64(T.lo[bw, j]), np.int64(T.hi[bw, j]))
                else:
                    _exact(T, bw, j, kind, prof, leader, n, capot_open, g, acc, 4)

@njit(cache=False)
def _settle(T, worlds, k, kind, prof, leader, n, capot_open, acc):
    S = T.solver
    while True:
        top = T.sum_lo[0]
        for j in range(1, k):
            top = max(top, T.sum_lo[j])
        open_ = 0
        contenders = 0
        for j in range(k):
            if T.sum_hi[j] >= top:
                contenders += 1
                if T.sum_lo[j] != T.sum_hi[j]:
                    open_ |= 1 << j
        if open_ == 0 or contenders == 1:
            return
        for w in range(worlds):
            loaded = False
            for j in range(k):
                if (open_ >> j) & 1 and T.lo[w, j] != T.hi[w, j]:
                    if not loaded:
                        dd.begin_solve(S, T.hands[w], kind, prof)
                        loaded = True
                    g = np.int64(T.hi[w, j]) if T.hi[w, j] < BIG else np.int64(T.lo[w, j])
                    _exact(T, w, j, kind, prof, leader, n, capot_open, g, acc, 4)

@njit(cache=False)
def card(T, hand, legal, trick, n, info, params, row, prof, st, mode, acc):
    if P._no_choice(legal, trick, n, info, prof):
        return P.lowest_bit(legal)
    kind, team, worlds, leader, capot_open = P._decision(T, hand, trick, n, info, params, row)
    for w in range(worlds):
        P.draw_world(T, st)
        for s in range(4):
            T.hands[w, (s - team) & 3] = T.world[s]
    k = class_sums(T, worlds, kind, prof, leader, n, capot_open, mode, acc)
    top = T.sum_lo[0]
    for j in range(1, k):
        top = max(top, T.sum_lo[j])
    m = np.int64(legal)
    while m:
        c = P.lowest_bit(np.uint32(m))
        m &= m - 1
        j = T.card_class[c]
        if T.sum_lo[j] == T.sum_hi[j]:
            T.sums[c] = T.sum_lo[j]
        elif T.sum_hi[j] >= top:
            T.sums[c] = top   # the unique contender
        else:
            T.sums[c] = -1
    return P._best_card(T.sums, legal, st)


def main(n=300, modes=(4, 6)):
    prof = FEDERAL.packed
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = 32
    Ts = {m: P.new_think(np.int64(P.PIMC_TT_LOG2)) for m in modes}
    Tref = P.new_think(np.int64(P.PIMC_TT_LOG2))
    r = random.Random(SEED)
    acc = {m: np.zeros(5, np.int64) for m in modes}
    tm = {m: 0.0 for m in modes}
    tref = 0.0
    same = {m: 0 for m in modes}
    hand, trick, k, info = position(r)
    legal = np.uint32(legal_mask(hand, trick, k, int(info[I_KIND]), prof))
    # Compile (or load) the reference and every mode before timing.
    P.pimc_card(Tref, hand, legal, trick, k, info, params, 0, prof, _stream(0))
    for m in modes:
        card(Ts[m], hand, legal, trick, k, info, params, 0, prof, _stream(0), m,
             np.zeros(5, np.int64))
    done = 0
    for hand, legal, trick, k, info, start in decisions(r):
        st0 = start.copy()
        t0 = time.perf_counter()
        a = P.pimc_card(Tref, hand, legal, trick, k, info, params, 0, prof, st0)
        tref += time.perf_counter() - t0
        for m in modes:
            st = start.copy()
            t0 = time.perf_counter()
            b = card(Ts[m], hand, legal, trick, k, info, params, 0, prof, st, m, acc[m])
            tm[m] += time.perf_counter() - t0
            same[m] += int(a == b and (st == st0).all())
        done += 1
        if done == n:
            break
    print(f"ref(main pimc_card) {tref/n:.4f} s/card")
    for m in modes:
        print(f"mode {m}: {tm[m]/n:.4f} s/card ({tm[m]/tref:.3f}x main) same {same[m]}/{n}"
              f" nodes w0 {acc[m][0]:,} best {acc[m][1]:,} probes {acc[m][2]:,}"
              f" reach {acc[m][3]:,} settle {acc[m][4]:,} total {acc[m].sum():,}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300,
         tuple(int(a) for a in sys.argv[2:]) or (4, 6))
