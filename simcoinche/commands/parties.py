"""``simcoinche parties``: whole parties to the profile's target, one Parquet row each.

``--engine local`` (default) writes one Parquet file from this process; ``--engine dask``
runs tasks of ``--task-size`` parties on a Dask cluster into a resumable dataset directory
(:mod:`simcoinche.runs.distributed`). Both give the same rows for the same arguments.
``simcoinche report`` on the output writes the win-probability table (CSV, PNG, Markdown).
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


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``parties`` command to the CLI."""
    p = sub.add_parser(
        "parties",
        help="play whole parties to the target and write them to Parquet",
        description="Play N complete parties to the profile's target with its end rules, "
        "the dealer moving one seat after every donne, and write one Parquet row per "
        "partie (winner, final totals, number of donnes, and per donne the score before "
        "it, its contract and its marks). Partie p of a seed is the same whatever the "
        "thread count or engine. `simcoinche report` on the output writes the chances of "
        "winning from any score.",
    )
    add_run_options(p, "parties")
    p.add_argument("--out", default=None, metavar="PATH",
                   help="output file (default runs/simcoinche-parties-<profile>-s<seed>-"
                   "n<n>.parquet); with --engine dask a dataset directory (default the same "
                   "without .parquet)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output")
    p.add_argument("--max-donnes", type=integer, default=None, metavar="M",
                   help="donnes after which a partie stops without a winner (winner -1, "
                   "reported; default 1000)")
    p.add_argument("--chunk-size", type=integer, default=None, metavar="K",
                   help="parties per row group (default 16384); results do not depend on it")
    add_engine_options(p, "parties")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the parties and print where the output went and a short summary."""
    from simcoinche.runs.partie import parties_to_file

    dask = check_engine_options(args) == "dask"
    extra = {"scheduler": args.scheduler, "task_size": args.task_size} if dask else {}
    with terminate_as_interrupt():
        summary = parties_to_file(
            args.n, seed=args.seed, profile=args.profile, players=args.players,
            out=args.out, threads=args.threads, overwrite=args.overwrite,
            chunk_size=args.chunk_size, max_donnes=args.max_donnes, engine=args.engine,
            progress=False if args.no_progress else None, **extra,
        )
    sys.stdout.write(summary.text() + "\n")
    if summary.path:
        sys.stdout.write(f"chances of winning from any score: simcoinche report "
                         f"{summary.path} --out DIR\n")
    return 0
