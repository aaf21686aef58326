"""Where a value solve's nodes are, by trick (issue 23): run against a copy of the tree
with ``count-by-trick.patch`` applied (``PYTHONPATH=<copy>``).

The patched ``_search`` counts its calls by cards already played // 4 (the trick index
0..7; the last two tricks are ``_two_tricks``'s, whose inner lines are not counted).
Prints, per contract kind, the mean nodes per solve of 30 random federal deals and the
share of the nodes in each trick.
"""

import time

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile


def main() -> None:
    prof = get_profile("federal").packed
    rng = np.random.default_rng(7)
    S = dd.new_scratch()
    t0 = time.time()
    for kind in (0, 1, 4, 5):
        by_trick = np.zeros(8)
        nodes = 0
        for i in range(30):
            perm = rng.permutation(32)
            hands = np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8])
                              for s in range(4)], np.uint32)
            S.work[dd.W_DEPTH:dd.W_DEPTH + 8] = 0
            before = S.work[dd.W_NODES]
            dd.solve_deal(S, hands, i % 4, kind, prof, 81)
            nodes += S.work[dd.W_NODES] - before
            by_trick += S.work[dd.W_DEPTH:dd.W_DEPTH + 8]
        print("kind", kind, "nodes/solve", int(nodes / 30), "share by trick",
              " ".join(f"{x:.3f}" for x in by_trick / by_trick.sum()))
    print("s", round(time.time() - t0, 1))


if __name__ == "__main__":
    main()
