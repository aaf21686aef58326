import numpy as np

from benchmarks.dd import make_deals
from simcoinche._kernels import dd as kdd
from simcoinche.rules.profiles import FEDERAL

deals = make_deals(50)
S = kdd.new_scratch()
prof = FEDERAL.packed
trick = np.zeros(4, np.int64)
W = S.work
for d in deals:
    for k in range(4):
        kdd.begin_solve(S, d.hands, k, prof)
        kdd.solve_value(S, k, prof, (d.dealer + 1) & 3, trick, 0, 1, 81)
st = W[kdd.W_STATS : kdd.W_STATS + 20]
print("nodes", W[kdd.W_NODES])
print("lead cut idx", st[0:9], "all", st[9])
print("follow cut idx", st[10:19], "all", st[19])
