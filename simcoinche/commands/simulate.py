"""``simcoinche simulate``: simulate complete donnes at scale and stream them to Parquet.

``--engine local`` (default) writes one Parquet file from this process; ``--engine dask``
runs tasks of ``--task-size`` donnes on a Dask cluster (``--scheduler ADDRESS``, or a local
cluster sized to the machine) into a resumable dataset directory
(:mod:`simcoinche.runs.distributed`). Both give the same rows for the same arguments.
"""

from __future__ import annotations

import argparse
import sys

from simcoinche.commands import (
    add_engine_options,
    add_run_options,
    check_engine_options,
    integer,
    terminate_as_interrupt,
)
from simcoinche.rules.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` command to the CLI."""
    p = sub.add_parser(
        "simulate",
        help="simulate complete donnes and write them to Parquet",
        description="Simulate N complete donnes (deal, auction, announcements, play, "
        "scoring) and stream them to a Parquet file, one row per donne. Donne i of a seed "
        "is the same whatever the thread count.",
    )
    add_run_options(p, "donnes")
    p.add_argument("--out", default=None, metavar="PATH",
                   help="output file (default runs/simcoinche-<profile>-s<seed>-n<n>.parquet);"
                   " with --engine dask a dataset directory (default the same without "
                   ".parquet)")
    p.add_argument("--record-play", action="store_true",
                   help="also store the auction actions and the 32 cards in play order")
    p.add_argument("--dd", action="store_true",
                   help="also store team 0's double-dummy card points of each deal for every "
                   "contract kind of the profile (dd_S, dd_H, dd_D, dd_C, dd_SA, dd_TA); "
                   "slow: 4 to 6 solves per donne")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output")
    p.add_argument("--dealer", type=integer, default=None, metavar="SEAT",
                   help="fixed dealer seat 0..3 (default: rotates, donne i → i mod 4)")
    p.add_argument("--chunk-size", type=integer, default=None, metavar="K",
                   help="donnes per row group (default 262144); results do not depend on it")
    add_engine_options(p, "donnes")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print where the output went and a short summary."""
    if args.n is None:
        raise InputError("-n is required")
    if check_engine_options(args) == "dask":
        return _run_dask(args)
    from simcoinche.runs.simulation import simulate_to_file

    summary = simulate_to_file(
        args.n, seed=args.seed, profile=args.profile, players=args.players, out=args.out,
        threads=args.threads, record_play=args.record_play, overwrite=args.overwrite,
        chunk_size=args.chunk_size, dealer=args.dealer,
        progress=False if args.no_progress else None, dd=getattr(args, "dd", False),
    )
    sys.stdout.write(summary.text() + "\n")
    return 0


def _run_dask(args: argparse.Namespace) -> int:
    from simcoinche.runs.distributed import simulate_dask

    with terminate_as_interrupt():
        summary = simulate_dask(
            args.n, seed=args.seed, profile=args.profile, players=args.players,
            out=args.out, scheduler=args.scheduler, task_size=args.task_size,
            threads=args.threads, record_play=args.record_play, overwrite=args.overwrite,
            chunk_size=args.chunk_size, dealer=args.dealer,
            progress=False if args.no_progress else None, dd=getattr(args, "dd", False),
        )
    sys.stdout.write(summary.text() + "\n")
    return 0
