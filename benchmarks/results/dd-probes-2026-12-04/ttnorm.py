import numpy as np

from benchmarks.dd import make_deals
from simcoinche._kernels import dd as kdd
from simcoinche.rules.profiles import FEDERAL

deals = make_deals(20)
S = kdd.new_scratch()
prof = FEDERAL.packed
trick = np.zeros(4, np.int64)
W = S.work
tot = 0
totn = 0
for d in deals[:20]:
    for k in (0, 4):
        kdd.begin_solve(S, d.hands, k, prof)
        kdd.solve_value(S, k, prof, (d.dealer + 1) & 3, trick, 0, 1, 81)
        stamp = W[kdd.W_STAMP]
        T = W[kdd.W_TABLE :].reshape(-1, 2)
        keys = T[:, 0][(T[:, 0] >> 39) == stamp]
        pts = [int(W[kdd.W_POINTS + c]) for c in range(32)]
        holder = {}
        for s in range(4):
            for c in range(32):
                if (int(d.hands[s]) >> c) & 1:
                    holder[c] = s
        order = kdd.ORDER[k]
        canon = set()
        for key in keys:
            key = int(key)
            rem = key & 0xFFFFFFFF
            sig = []
            for su in range(4):
                sig.append(tuple((holder[c], pts[c]) for c in order[su] if (rem >> int(c)) & 1))
            canon.add((key >> 32, tuple(sig)))
        tot += len(keys)
        totn += len(canon)
print("entries", tot, "canonical", totn, totn / tot)
