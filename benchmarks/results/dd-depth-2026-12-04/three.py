"""The last three tricks played by a flat alpha-beta (issue 23): run against a copy of the
tree with ``three-tricks.patch`` applied (``PYTHONPATH=<copy>``), with ``DD3=1`` (the
routine on) or ``DD3=0`` (main's search), each with its own ``SIMCOINCHE_CACHE_DIR`` (the
flag is read when the kernels compile).

``python three.py NAME``: value solves of 60 random deals in the six contract kinds under
the classic profile, twice; prints the seconds and nodes of the second round and saves
the 360 values to ``vals-NAME.npy`` for comparison.
"""

import sys
import time

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile


def main(name: str) -> None:
    prof = get_profile("classic").packed
    rng = np.random.default_rng(11)
    deals = []
    for _ in range(60):
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
              S.work[dd.W_NODES] - n0)
    np.save(f"vals-{name}.npy", np.array(values))


if __name__ == "__main__":
    main(sys.argv[1])
