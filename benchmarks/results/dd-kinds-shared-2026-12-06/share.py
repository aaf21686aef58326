"""Nodes and time of solving each deal under its four suit contracts, deal by deal.

``python share.py SEED N``: N random deals (numpy's generator, seed SEED), each solved
under spades, hearts, diamonds and clubs in that order (federal, one thread, a 2**17-slot
table), two rounds; prints the nodes, the seconds, and the sum and hash of the 4 N values.
Run on main and on a copy with ``kinds-shared.patch`` (``DD_SHARE=1``: the four solves of
a deal share one stamp, and a position with no trump left is keyed without its kind).
"""

import sys
import time

import numpy as np

from simcoinche._kernels.dd import new_scratch, solve_deal
from simcoinche._kernels.dd_scratch import W_NODES
from simcoinche.rules.profiles import get_profile

prof = get_profile("federal").packed
rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100
hands = np.zeros((N, 4), np.uint32)
for i in range(N):
    p = rng.permutation(32)
    for s in range(4):
        hands[i, s] = sum(1 << int(c) for c in p[8 * s:8 * s + 8])
S = new_scratch(17)
solve_deal(S, hands[0], 0, 0, prof, 81)
for _round in range(2):
    t = time.perf_counter()
    n0 = S.work[W_NODES]
    vals = []
    for i in range(N):
        for k in range(4):
            vals.append(solve_deal(S, hands[i], i & 3, k, prof, 81))
    print(f"nodes {S.work[W_NODES] - n0:,} s {time.perf_counter() - t:.2f} "
          f"sum {sum(vals)} h {hash(tuple(vals))}")
