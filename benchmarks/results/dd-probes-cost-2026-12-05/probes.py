"""Replay ``solve_value``'s null-window probes on the 360 classic solves of
``dd-depth-2026-12-04/three.py`` and print the nodes of each probe, by rank and by
distance from the value (issue 23; output: ``probes-502dff2.txt``)."""

from collections import defaultdict

import numpy as np

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile

NO_CAPOT_MAX = 162          # classic: 152 card points + the last trick
BUCKETS = (0, 2, 5, 10, 20)  # distance buckets: 0, 1-2, 3-5, 6-10, 11-20, > 20


def deals_of_three_py() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    out = []
    for _ in range(60):
        perm = rng.permutation(32)
        out.append(np.array([sum(1 << int(x) for x in perm[8 * s:8 * s + 8])
                             for s in range(4)], np.uint32))
    return out


def main() -> None:
    prof = get_profile("classic").packed
    S = dd.new_scratch()
    W = S.work
    trick = np.zeros(4, np.int64)
    rows = []
    for kind in range(6):
        for i, h in enumerate(deals_of_three_py()):
            dd.begin_solve(S, h, kind, prof)
            leader = (i % 4 + 1) & 3
            lower, upper, g = 0, 253, 81
            seq = []
            while lower < upper:
                n0 = W[dd.W_NODES]
                v = dd.search_window(S, kind, prof, leader, trick, 0, 1, g - 1, g)
                seq.append((g, v, W[dd.W_NODES] - n0))
                if v >= g:
                    lower = v
                else:
                    upper = v
                if lower < NO_CAPOT_MAX < upper:
                    g = (lower + NO_CAPOT_MAX + 2) // 2
                else:
                    g = (lower + upper + 1) // 2
            rows.append((kind, lower, seq))
    total = sum(x[2] for r in rows for x in r[2])
    print("solves", len(rows), "probes/solve", np.mean([len(r[2]) for r in rows]),
          "nodes", total)
    from_end: dict[int, int] = defaultdict(int)
    from_start: dict[int, int] = defaultdict(int)
    by_distance: dict[int, int] = defaultdict(int)
    for _, value, seq in rows:
        for k, (g, _, nodes) in enumerate(seq):
            from_end[k - len(seq)] += nodes
            from_start[k] += nodes
            by_distance[sum(abs(g - value) > b for b in BUCKETS)] += nodes

    def shares(d: dict[int, int]) -> dict[int, float]:
        return {k: round(100 * v / total, 1) for k, v in sorted(d.items())}

    tight = sum(v in (g, g - 1) for r in rows for g, v, _ in r[2])
    n_probes = sum(len(r[2]) for r in rows)
    print(f"probes returning g or g - 1: {tight} of {n_probes}")
    print("share of nodes by probe rank from the end", shares(from_end))
    print("share of nodes by probe rank from the start", shares(from_start))
    print("share of nodes by |g - value| in 0, 1-2, 3-5, 6-10, 11-20, > 20",
          shares(by_distance))
    for kind, value, seq in rows[:8]:
        print("kind", kind, "value", value, "(probe, returned, nodes):", seq)


if __name__ == "__main__":
    main()
