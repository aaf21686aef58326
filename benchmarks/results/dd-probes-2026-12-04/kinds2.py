import json
import sys
import time

import numpy as np

from benchmarks.dd import make_deals
from simcoinche._kernels import dd as kdd
from simcoinche.rules.profiles import FEDERAL

N = int(sys.argv[1])
out = sys.argv[2]
deals = make_deals(N)
S = kdd.new_scratch()
prof = FEDERAL.packed
trick = np.zeros(4, np.int64)
W = S.work
kdd.begin_solve(S, deals[0].hands, 0, prof)
kdd.solve_value(S, 0, prof, 1, trick, 0, 1, 81)
res = {}
for k in range(6):
    n0 = W[kdd.W_NODES]
    t = time.perf_counter()
    vs = []
    for d in deals:
        kdd.begin_solve(S, d.hands, k, prof)
        vs.append(int(kdd.solve_value(S, k, prof, (d.dealer + 1) & 3, trick, 0, 1, 81)))
    res[k] = dict(nodes=int(W[kdd.W_NODES] - n0), s=time.perf_counter() - t, v=vs)
    print(k, "nodes/solve", res[k]["nodes"] // N, "ms/solve", round(res[k]["s"] / N * 1e3, 2))
json.dump(res, open(out, "w"))
