"""Kernel-only donnes/s of one checkout (issue 19 bisect): ``_Buffers.run`` of N donnes.

Usage (from the checkout's root, ``PYTHONPATH`` at it)::

    python kbench.py PLAYERS THREADS N REPEATS    # prints: best rate, median rate
"""

import sys
import time

import numba
import numpy as np

from simcoinche._kernels.rng import seed_key

try:
    from simcoinche.runs.simulation import _Buffers, _plan
except ImportError:  # a checkout from before the layer move
    from simcoinche.simulation import _Buffers, _plan

players, threads, n, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
plan = _plan(n, 1, "federal", players, threads, n, None, False, None)
buf = _Buffers(n, False)
key = seed_key(np.uint64(plan.seed))
numba.set_num_threads(threads)
buf.run(plan, key, 0, min(n, 1000))  # load or compile
rates = []
for _ in range(reps):
    t0 = time.perf_counter()
    buf.run(plan, key, 0, n)
    rates.append(n / (time.perf_counter() - t0))
print(max(rates), sorted(rates)[len(rates) // 2])
