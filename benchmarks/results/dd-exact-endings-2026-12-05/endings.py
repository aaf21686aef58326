"""Value solves of N random deals in the six contract kinds, twice; prints the seconds and
nodes of each round and saves the values to ``/tmp/w/vals-NAME.npy`` for comparison.

``python endings.py NAME N PROFILE`` (run from a tree with ``exact-endings.patch`` applied
and ``DDX`` set, or from main's; see README.md).
"""

import sys
import time

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile

name = sys.argv[1]
n_deals = int(sys.argv[2]) if len(sys.argv) > 2 else 40
prof = get_profile(sys.argv[3] if len(sys.argv) > 3 else "classic").packed
rng = np.random.default_rng(11)
deals = []
for _ in range(n_deals):
    perm = rng.permutation(32)
    deals.append(np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8])
                           for s in range(4)], np.uint32))
S = dd.new_scratch()
dd.solve_deal(S, deals[0], 0, 0, prof, 81)
for rep in range(2):
    t0 = time.time()
    n0 = S.work[dd.W_NODES]
    values = [dd.solve_deal(S, h, i % 4, kind, prof, 81)
              for kind in range(6) for i, h in enumerate(deals)]
    print(name, "rep", rep, "s", round(time.time() - t0, 2), "nodes",
          S.work[dd.W_NODES] - n0, flush=True)
np.save(f"/tmp/w/vals-{name}.npy", np.array(values))
