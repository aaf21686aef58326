"""Warm ``simcoinche odds`` with 100,000 samples: seconds, as one JSON object.

Two figures, both warm (the kernels are compiled or loaded from the cache first):

- ``seconds``: the :func:`simcoinche.analysis.hand_odds.odds` call in process — 100,000 exact
  constrained deals, each played once per contract kind (4 kinds federal: 400,000 plays)
  and scored at every bid level;
- ``cli_seconds``: the whole command ``simcoinche odds --hand … --samples 100000`` in a
  fresh process (interpreter start, imports, cached kernels, output), the figure a user
  waits for.

Usage::

    python -m benchmarks.odds [--samples 100000] [--threads 2] [--no-cli]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HAND = "JH 9H AH TH KS 7C 8D AD"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON object on stdout."""
    p = argparse.ArgumentParser(description="warm simcoinche odds benchmark")
    p.add_argument("--samples", type=int, default=100_000)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--no-cli", action="store_true", help="skip the subprocess figure")
    args = p.parse_args(argv)

    import numba

    from simcoinche.analysis.hand_odds import odds

    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    odds(HAND, samples=2000, seed=0, threads=threads, progress=False)   # warm-up
    t0 = time.perf_counter()
    r = odds(HAND, samples=args.samples, seed=1, threads=threads, progress=False)
    seconds = time.perf_counter() - t0
    result = {
        "benchmark": "odds",
        "hand": HAND,
        "samples": args.samples,
        "contract_kinds": len(r.kinds),
        "plays": args.samples * len(r.kinds),
        "threads": threads,
        "seconds": round(seconds, 3),
        "plays_per_s": round(args.samples * len(r.kinds) / seconds),
    }
    if not args.no_cli:
        exe = os.path.join(os.path.dirname(sys.executable), "simcoinche")
        cmd = [exe, "odds", "--hand", HAND, "--samples", str(args.samples), "--seed", "1",
               "--threads", str(threads), "--no-progress", "--json"]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        result["cli_seconds"] = round(time.perf_counter() - t0, 3)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
