"""``python bench3.py NAME [REPS]``: value solves of 60 random deals in the six contract
kinds (classic, one thread), REPS times (5); prints the best and the median time and the
nodes of a round, and saves the 360 values to ``vals-NAME.npy`` (run by ``par2.sh``)."""

import sys
import time

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile


def main(name: str, reps: int = 5) -> None:
    prof = get_profile("classic").packed
    rng = np.random.default_rng(11)
    deals = []
    for _ in range(60):
        perm = rng.permutation(32)
        deals.append(np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8])
                               for s in range(4)], np.uint32))
    S = dd.new_scratch()
    dd.solve_deal(S, deals[0], 0, 0, prof, 81)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        n0 = S.work[dd.W_NODES]
        values = [dd.solve_deal(S, h, i % 4, kind, prof, 81)
                  for kind in range(6) for i, h in enumerate(deals)]
        times.append(time.perf_counter() - t0)
        nodes = S.work[dd.W_NODES] - n0
    times.sort()
    print(f"{name} min {times[0]:.3f} med {times[len(times) // 2]:.3f} nodes {nodes}")
    np.save(f"vals-{name}.npy", np.array(values))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
