import collections
import sys

import numpy as np

sys.path.insert(0, ".")
from benchmarks.dd import make_deals
from simcoinche._kernels import dd as kdd
from simcoinche.rules.profiles import FEDERAL

deals = make_deals(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
S = kdd.new_scratch()
prof = FEDERAL.packed
trick = np.zeros(4, np.int64)
W = S.work
allp = []
nodes_tot = 0
firstnodes = []
pernode = []
vals = []
for d in deals:
    for kind in range(4):
        kdd.begin_solve(S, d.hands, kind, prof)
        leader = (d.dealer + 1) & 3
        lower, upper = 0, 253
        g = 81
        probes = []
        while lower < upper:
            n0 = W[kdd.W_NODES]
            v = kdd.search_window(S, kind, prof, leader, trick, 0, 1, g - 1, g)
            probes.append((g, int(v), int(W[kdd.W_NODES] - n0)))
            if v >= g:
                lower = v
            else:
                upper = v
            g = (lower + 162 + 2) // 2 if lower < 162 < upper else (lower + upper + 1) // 2
        allp.append(probes)
        vals.append(lower)
np_ = [len(p) for p in allp]
nn = [sum(x[2] for x in p) for p in allp]
print("solves", len(allp), "mean probes", np.mean(np_), "mean nodes", np.mean(nn))
# nodes share by probe index

by = collections.defaultdict(list)
for p in allp:
    for i, (_g, _v, n) in enumerate(p):
        by[i].append(n)
for i in sorted(by):
    print(i, len(by[i]), int(np.mean(by[i])))
# nodes of the final two probes (bracketing)
last = [p[-1][2] + (p[-2][2] if len(p) > 1 else 0) for p in allp]
print("last two probes share", sum(last) / sum(nn))
print("values", np.percentile(vals, [10, 50, 90]))
for p in allp[:6]:
    print(p)
