"""Value solves of 60 random deals in the six contract kinds (classic profile), one thread:
prints the seconds and nodes of the second round and a hash of the 360 values.

Run from a tree's root with ``PYTHONPATH=<tree>`` and a ``SIMCOINCHE_CACHE_DIR`` of its own.
"""

import hashlib
import sys
import time

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile


def main(seed: int) -> None:
    prof = get_profile("classic").packed
    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(60):
        perm = rng.permutation(32)
        deals.append(np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8])
                               for s in range(4)], np.uint32))
    scratch = dd.new_scratch()
    dd.solve_deal(scratch, deals[0], 0, 0, prof, 81)
    for _round in range(2):
        t0 = time.time()
        n0 = scratch.work[dd.W_NODES]
        values = [dd.solve_deal(scratch, h, i % 4, kind, prof, 81)
                  for kind in range(6) for i, h in enumerate(deals)]
        seconds = time.time() - t0
    digest = hashlib.md5(np.array(values).tobytes()).hexdigest()[:10]
    print(round(seconds, 3), scratch.work[dd.W_NODES] - n0, digest)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
