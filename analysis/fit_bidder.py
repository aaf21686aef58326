"""Fit the data-fitted bidder's tables and write them into the package (issue 21).

Round 1 fits on auctions held by the club bidders; every further round fits on the
auctions the heuristic bidder holds with the tables of the round before (so that the
partner's and the opponents' bids mean what this bidder means by them). Each round deals
its own donnes (seed + round). The result goes to
``simcoinche/players/data/bidder-<profile>.npy``, with a JSON summary beside it, and the
spread of the last round's cells (share made, each team's mean mark made and failed:
what the score-aware bidder weighs against the match equity, issue 22) to
``bidder-outcomes-<profile>.npy``::

    python analysis/fit_bidder.py --profile federal --deals 100000 --rounds 2 --seed 21

``--out DIR`` writes elsewhere (the test regenerates a small configuration this way).
``--outcomes-only`` keeps the shipped tables and measures their cells' spread alone, on
``--deals`` fresh donnes (seed ``--seed``) bid by the heuristic players with those
tables: how the shipped spread was made (seed 23), the shipped tables predating it::

    python analysis/fit_bidder.py --outcomes-only --deals 100000 --seed 23
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from simcoinche._kernels.bid_layout import BO_LEN
from simcoinche.players.bid_fit import fit_tables
from simcoinche.players.bid_tables import TABLE_DIR, bid_tables, outcomes_name, table_name
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import PROFILES, get_profile

PACKAGE_DATA = Path(__file__).resolve().parent.parent / "simcoinche" / "players" / TABLE_DIR


def fit_rounds(profile: str, deals: int, rounds: int,
               seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The tables after ``rounds`` rounds and the outcome spread of the last round's
    cells (module docstring)."""
    outcomes = np.zeros(BO_LEN)
    tables = fit_tables(profile, deals, seed, "club",
                        outcomes=outcomes if rounds == 1 else None)
    for r in range(1, rounds):
        tables = fit_tables(profile, deals, seed + r, "heuristic", tables,
                            outcomes=outcomes if r == rounds - 1 else None)
    return tables, outcomes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", action="append", choices=sorted(PROFILES),
                    help="profile to fit (repeat; default: all four)")
    ap.add_argument("--deals", type=int, default=100_000, help="donnes dealt per round")
    ap.add_argument("--rounds", type=int, default=2, help="fitting rounds (default 2)")
    ap.add_argument("--seed", type=int, default=21, help="seed of round 1")
    ap.add_argument("--out", type=Path, default=PACKAGE_DATA, help="output directory")
    ap.add_argument("--outcomes-only", action="store_true",
                    help="measure the shipped tables' outcome spread only")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        print("error: --rounds must be at least 1", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.profile or list(PROFILES):
        t0 = time.perf_counter()
        try:
            if args.outcomes_only:
                outcomes = np.zeros(BO_LEN)
                shipped = bid_tables(name)
                fit_tables(name, args.deals, args.seed, "heuristic", shipped,
                           outcomes=outcomes, fixed=shipped)
                files = [(args.out / outcomes_name(name), outcomes)]
            else:
                tables, outcomes = fit_rounds(name, args.deals, args.rounds, args.seed)
                files = [(args.out / table_name(name), tables),
                         (args.out / outcomes_name(name), outcomes)]
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        path = files[0][0]
        for target, data in files:
            tmp = target.with_suffix(".tmp.npy")
            np.save(tmp, data)
            tmp.replace(target)
        summary = {"profile": get_profile(name).name, "deals": args.deals,
                   "rounds": 0 if args.outcomes_only else args.rounds, "seed": args.seed,
                   "seconds": round(time.perf_counter() - t0, 1)}
        path.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
        print(f"{name}: {path} ({summary['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
