import sys

import numpy as np

sys.path.insert(0, ".")
from benchmarks.dd import make_deals
from simcoinche._kernels import dd as kdd
from simcoinche.rules.profiles import FEDERAL

deals = make_deals(50)
S = kdd.new_scratch()
prof = FEDERAL.packed
trick = np.zeros(4, np.int64)
W = S.work


def mid(lower, upper):
    return (lower + 162 + 2) // 2 if lower < 162 < upper else (lower + upper + 1) // 2


def solve(d, kind, g0, near=False):
    kdd.begin_solve(S, d.hands, kind, prof)
    leader = (d.dealer + 1) & 3
    n0 = W[kdd.W_NODES]
    if near:
        v = kdd.solve_near(S, kind, prof, leader, trick, 0, 1, g0)
    else:
        v = kdd.solve_value(S, kind, prof, leader, trick, 0, 1, g0)
    return v, W[kdd.W_NODES] - n0


true = []
base = 0
for d in deals:
    for k in range(4):
        v, n = solve(d, k, 81)
        true.append(v)
        base += n
print("base", base)
i = 0
tot = 0
totn = 0
tot5 = 0
for d in deals:
    for k in range(4):
        v, n = solve(d, k, true[i])
        tot += n
        v2, n2 = solve(d, k, true[i], near=True)
        totn += n2
        assert v2 == true[i]
        v3, n3 = solve(d, k, max(1, true[i] + 5), near=True)
        tot5 += n3
        i += 1
print("oracle guess bisect", tot / base, "oracle near", totn / base, "near +5", tot5 / base)
