"""Parties donnes/s of score-aware specs over the score-blind heuristic, by alternating runs.

Many short runs, alternating the specs, are robust to the drift of a shared VM where one
long run of each is not. Usage::

    python pratio2.py PARTIES PAIRS SPEC [SPEC ...]

e.g. ``python pratio2.py 5000 30 heuristic "heuristic:score_gate=0"``. Prints, per spec, the
median of the pair ratios, the best rate over the best rate and the sum over the sum, and
writes every rate to ``pr2-<unix time>.json`` in the working directory.
"""

import json
import sys
import tempfile
import time
from pathlib import Path

from simcoinche.runs.partie import parties

BLIND = "heuristic:score_aware=0"


def rate(players: str, count: int, seed: int, out: Path) -> float:
    """Donnes per second of one parties run on one thread."""
    start = time.perf_counter()
    summary = parties(
        count, seed=seed, out=out, overwrite=True, threads=1, players=players, progress=False
    )
    return summary.donnes / (time.perf_counter() - start)


def main() -> None:
    count, pairs, specs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    every = [*specs, BLIND]
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "parties.parquet"
        for spec in every:  # compile and warm every spec first
            rate(spec, 1000, 1, out)
        rates: dict[str, list[float]] = {spec: [] for spec in every}
        for i in range(pairs):
            for spec in every:
                rates[spec].append(rate(spec, count, 100 + i, out))
    ratios = {}
    for spec in specs:
        pair = sorted(a / b for a, b in zip(rates[spec], rates[BLIND], strict=True))
        ratios[spec] = {
            "median_pair_ratio": round(pair[len(pair) // 2], 3),
            "best_rate_ratio": round(max(rates[spec]) / max(rates[BLIND]), 3),
            "mean_rate_ratio": round(sum(rates[spec]) / sum(rates[BLIND]), 3),
        }
        print(spec, ratios[spec], flush=True)
    record = {"n": count, "k": pairs, "rates": rates, "ratios": ratios}
    Path(f"pr2-{int(time.time())}.json").write_text(json.dumps(record))


if __name__ == "__main__":
    main()
