"""Duplicate comparison of two heuristic variants: is the new one at least as strong?

``python -m benchmarks.paired_heuristics -n 20000 --param symmetric_ties --new 1 --old 0``

Every deal is played at two tables with the same cards (donne ``i`` of one seed deals the
same hands whoever plays): at table A the new variant holds seats 0/2 and the old one
seats 1/3, at table B the other way round. Per deal the new variant's gain is

    d_i = ((A.marks_t0 - A.marks_t1) + (B.marks_t1 - B.marks_t0)) / 2

(marks per donne, passed-out donnes count 0). The script prints the mean of ``d`` with its
95 % interval (normal approximation, ``1.96 * sd / sqrt(n)``), the share of deals played
differently, and a JSON line. The variants differ by one heuristic parameter (``--param``,
``--new``, ``--old``), so old and new run in one binary from the same kernel.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from simcoinche.runs.simulation import simulate


def paired(n: int, param: str, new: float, old: float, seed: int = 1,
           profile: str = "federal", threads: int | None = None) -> dict[str, float]:
    """Mean marks gained per deal by the ``new`` value of ``param`` over the ``old`` one."""
    p_new = {param: new}
    p_old = {param: old}
    cols = ["marks_t0", "marks_t1", "taker", "trump", "bid_level"]
    a = simulate(n, seed=seed, profile=profile, params=(p_new, p_old), threads=threads,
                 progress=False)[cols]
    b = simulate(n, seed=seed, profile=profile, params=(p_old, p_new), threads=threads,
                 progress=False)[cols]
    a0 = a["marks_t0"].to_numpy(np.int64)
    a1 = a["marks_t1"].to_numpy(np.int64)
    b0 = b["marks_t0"].to_numpy(np.int64)
    b1 = b["marks_t1"].to_numpy(np.int64)
    d = ((a0 - a1) + (b1 - b0)) / 2.0
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(n)
    # Deals whose contract differs between the tables: where the variants disagreed.
    diff = ((a["taker"].to_numpy() != b["taker"].to_numpy())
            | (a["trump"].to_numpy() != b["trump"].to_numpy())
            | (a["bid_level"].to_numpy() != b["bid_level"].to_numpy()))
    return {"n": n, "param": param, "new": new, "old": old, "seed": seed, "profile": profile,
            "mean_marks": mean, "ci_low": mean - half, "ci_high": mean + half,
            "share_contract_differs": float(diff.mean()),
            "share_result_differs": float((d != 0).mean())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired_heuristics",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20_000, help="deals (default 20,000)")
    parser.add_argument("--param", default="symmetric_ties", help="heuristic parameter")
    parser.add_argument("--new", type=float, default=1.0, help="its new value")
    parser.add_argument("--old", type=float, default=0.0, help="its old value")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="federal")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    r = paired(args.n, args.param, args.new, args.old, args.seed, args.profile, args.threads)
    print(f"{r['n']:,} deals, {r['profile']}, {r['param']} {r['new']:g} (new) vs "
          f"{r['old']:g} (old): new gains {r['mean_marks']:+.3f} marks per deal, 95 % "
          f"interval [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]; contract differs on "
          f"{100 * r['share_contract_differs']:.1f} % of deals")
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
