"""Value solves, 60 deals x 6 kinds (classic), second round timed; prints s, nodes, values hash."""
import sys, time, hashlib
import numpy as np
from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile
prof = get_profile("classic").packed
rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
deals = []
for _ in range(60):
    perm = rng.permutation(32)
    deals.append(np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8]) for s in range(4)], np.uint32))
S = dd.new_scratch()
dd.solve_deal(S, deals[0], 0, 0, prof, 81)
for rep in range(2):
    t0 = time.time(); n0 = S.work[dd.W_NODES]
    values = [dd.solve_deal(S, h, i % 4, kind, prof, 81) for kind in range(6) for i, h in enumerate(deals)]
    dt = time.time() - t0
print(round(dt, 3), S.work[dd.W_NODES] - n0, hashlib.md5(np.array(values).tobytes()).hexdigest()[:10])
