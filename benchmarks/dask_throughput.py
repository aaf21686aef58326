"""Throughput of the Dask engine against the single-process engine (prints JSON).

Usage: ``python -m benchmarks.dask_throughput [--n N] [--task-size K] [--shapes 2x1,1x2]
[--modes end_to_end,warm]``

Both engines write Parquet to a temporary directory with the same seed and players:

- ``single_process``: :func:`simcoinche.runs.simulation.simulate` to one file with all cores;
- per local-cluster shape ``WxT`` (W worker processes of T threads):
  ``end_to_end`` starts the cluster and runs, as ``simcoinche simulate --engine dask``
  does; ``warm`` runs on a cluster already started whose workers have loaded the kernels
  (what a long run on a standing cluster sees). ``ratio`` = dask / single-process donnes/s.

A warm-up run first fills the compiled-kernel cache so no figure includes compilation.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _shape(text: str) -> tuple[int, int]:
    w, t = text.lower().split("x")
    return int(w), int(t)


def _single(n: int, seed: int, players: str, tmp: Path) -> dict[str, Any]:
    from simcoinche.runs.simulation import simulate

    t0 = time.perf_counter()
    simulate(n, seed=seed, players=players, out=tmp / "single.parquet", progress=False)
    seconds = time.perf_counter() - t0
    return {"seconds": round(seconds, 3), "donnes_per_s": round(n / seconds)}


def _dask(n: int, seed: int, players: str, tmp: Path, shape: tuple[int, int],
          task_size: int, modes: set[str]) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    from simcoinche.runs.distributed import simulate_dask

    out: dict[str, Any] = {"workers": shape[0], "threads_per_worker": shape[1]}
    if "end_to_end" in modes:
        t0 = time.perf_counter()
        simulate_dask(n, seed=seed, players=players,
                      out=tmp / f"e2e-{shape[0]}x{shape[1]}", task_size=task_size,
                      cluster_shape=shape, progress=False)
        seconds = time.perf_counter() - t0
        out["end_to_end"] = {"seconds": round(seconds, 3),
                             "donnes_per_s": round(n / seconds)}
    if "warm" not in modes:
        return out
    with LocalCluster(n_workers=shape[0], threads_per_worker=shape[1], processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR,
                      env={"NUMBA_NUM_THREADS": str(shape[1])}) as cluster, \
            Client(cluster) as client:
        # Warm the workers: import simcoinche and load the kernels from the cache.
        simulate_dask(2000, seed=seed + 1, players=players, out=tmp / f"w-{shape[0]}",
                      task_size=1000, client=client, progress=False)
        t0 = time.perf_counter()
        simulate_dask(n, seed=seed, players=players, out=tmp / f"warm-{shape[0]}x{shape[1]}",
                      task_size=task_size, client=client, progress=False)
        seconds = time.perf_counter() - t0
    out["warm"] = {"seconds": round(seconds, 3), "donnes_per_s": round(n / seconds)}
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print one JSON document on stdout."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000, help="donnes per run")
    ap.add_argument("--task-size", type=int, default=None,
                    help="donnes per task (default: the engine's default)")
    ap.add_argument("--shapes", default="2x1,1x2",
                    help="local cluster shapes WxT, comma separated")
    ap.add_argument("--modes", default="end_to_end,warm",
                    help="dask figures to take: end_to_end, warm (comma separated)")
    ap.add_argument("--players", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    from simcoinche.runs.distributed import default_task_size
    from simcoinche.runs.simulation import simulate

    task_size = args.task_size or default_task_size(args.n)
    simulate(5000, seed=0, players=args.players, progress=False)  # compile / load cache
    result: dict[str, Any] = {
        "n": args.n, "players": args.players, "task_size": task_size,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "python": platform.python_version(),
    }
    with tempfile.TemporaryDirectory(prefix="simcoinche-dask-bench-") as d:
        tmp = Path(d)
        result["single_process"] = _single(args.n, args.seed, args.players, tmp)
        base = result["single_process"]["donnes_per_s"]
        runs = []
        for text in args.shapes.split(","):
            r = _dask(args.n, args.seed, args.players, tmp, _shape(text), task_size,
                      set(args.modes.split(",")))
            for k in ("end_to_end", "warm"):
                if k in r:
                    r[k]["ratio"] = round(r[k]["donnes_per_s"] / base, 3)
            runs.append(r)
        result["dask_local_cluster"] = runs
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
