"""``simcoinche simulate``: simulate complete donnes at scale and stream them to Parquet."""

from __future__ import annotations

import argparse
import sys

from simcoinche.errors import InputError


def _int(text: str) -> int:
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid integer {text!r}") from None


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` command to the CLI."""
    p = sub.add_parser(
        "simulate",
        help="simulate complete donnes and write them to Parquet",
        description="Simulate N complete donnes (deal, auction, announcements, play, "
        "scoring) and stream them to a Parquet file, one row per donne. Donne i of a seed "
        "is the same whatever the thread count.",
    )
    p.add_argument("-n", type=_int, required=True, metavar="N", help="number of donnes")
    p.add_argument("--seed", type=_int, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--profile", default="federal", help="rule profile (default federal)")
    p.add_argument("--players", default="heuristic", metavar="KIND|TEAM0,TEAM1",
                   help="player kind for both teams, or one per team: heuristic, random "
                   "(default heuristic)")
    p.add_argument("--threads", type=_int, default=None, metavar="T",
                   help="worker threads (default: all cores)")
    p.add_argument("--out", default=None, metavar="PATH",
                   help="output file (default runs/simcoinche-<profile>-s<seed>-n<n>.parquet)")
    p.add_argument("--record-play", action="store_true",
                   help="also store the auction actions and the 32 cards in play order")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output")
    p.add_argument("--dealer", type=_int, default=None, metavar="SEAT",
                   help="fixed dealer seat 0..3 (default: rotates, donne i → i mod 4)")
    p.add_argument("--chunk-size", type=_int, default=None, metavar="K",
                   help="donnes per row group (default 262144); results do not depend on it")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print where the file went and a short summary."""
    from simcoinche.simulate import simulate_to_file

    if args.n is None:
        raise InputError("-n is required")
    summary = simulate_to_file(
        args.n, seed=args.seed, profile=args.profile, players=args.players, out=args.out,
        threads=args.threads, record_play=args.record_play, overwrite=args.overwrite,
        chunk_size=args.chunk_size, dealer=args.dealer,
        progress=False if args.no_progress else None,
    )
    sys.stdout.write(summary.text() + "\n")
    return 0
