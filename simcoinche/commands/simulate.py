"""``simcoinche simulate``: simulate complete donnes at scale and stream them to Parquet.

``--engine local`` (default) writes one Parquet file from this process; ``--engine dask``
runs tasks of ``--task-size`` donnes on a Dask cluster (``--scheduler ADDRESS``, or a local
cluster sized to the machine) into a resumable dataset directory
(:mod:`simcoinche.distributed`). Both give the same rows for the same arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator

from simcoinche.commands import integer
from simcoinche.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` command to the CLI."""
    p = sub.add_parser(
        "simulate",
        help="simulate complete donnes and write them to Parquet",
        description="Simulate N complete donnes (deal, auction, announcements, play, "
        "scoring) and stream them to a Parquet file, one row per donne. Donne i of a seed "
        "is the same whatever the thread count.",
    )
    p.add_argument("-n", type=integer, required=True, metavar="N", help="number of donnes")
    p.add_argument("--seed", type=integer, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--profile", default="federal", help="rule profile (default federal)")
    p.add_argument("--players", default="heuristic", metavar="KIND|TEAM0,TEAM1",
                   help="player kind for both teams, or one per team: heuristic, random "
                   "(default heuristic)")
    p.add_argument("--threads", type=integer, default=None, metavar="T",
                   help="worker threads (default: all cores; with --engine dask: numba "
                   "threads per task, default the worker's thread count)")
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
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: this process, one Parquet file (default); dask: tasks on "
                   "a Dask cluster, one part per task in a dataset directory, resumable "
                   "by rerunning the same command")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --engine dask: address of a running Dask scheduler "
                   "(tcp://host:8786; default: a local cluster sized to this machine)")
    p.add_argument("--task-size", type=integer, default=None, metavar="K",
                   help="with --engine dask: donnes per task and part (default about N/64, "
                   "within 32768..1048576)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print where the output went and a short summary."""
    if args.n is None:
        raise InputError("-n is required")
    if getattr(args, "engine", "local") == "dask":
        return _run_dask(args)
    for flag, value in (("--scheduler", getattr(args, "scheduler", None)),
                        ("--task-size", getattr(args, "task_size", None))):
        if value is not None:
            raise InputError(f"{flag} needs --engine dask")
    from simcoinche.simulation import simulate_to_file

    summary = simulate_to_file(
        args.n, seed=args.seed, profile=args.profile, players=args.players, out=args.out,
        threads=args.threads, record_play=args.record_play, overwrite=args.overwrite,
        chunk_size=args.chunk_size, dealer=args.dealer,
        progress=False if args.no_progress else None, dd=getattr(args, "dd", False),
    )
    sys.stdout.write(summary.text() + "\n")
    return 0


def _run_dask(args: argparse.Namespace) -> int:
    from simcoinche.distributed import simulate_dask

    with _terminate_as_interrupt():
        summary = simulate_dask(
            args.n, seed=args.seed, profile=args.profile, players=args.players,
            out=args.out, scheduler=args.scheduler, task_size=args.task_size,
            threads=args.threads, record_play=args.record_play, overwrite=args.overwrite,
            chunk_size=args.chunk_size, dealer=args.dealer,
            progress=False if args.no_progress else None, dd=getattr(args, "dd", False),
        )
    sys.stdout.write(summary.text() + "\n")
    return 0


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a batch system stopping the job) stops the run like Ctrl-C does: the
    manifest records every part completed so far, and the same command resumes it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
