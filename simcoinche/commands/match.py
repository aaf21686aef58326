"""``simcoinche match A B --deals N`` (or ``--parties N``): a duplicate match between two
players.

Every deal is played at two tables with the same cards and dealer, A at seats 0/2 at one
and at seats 1/3 at the other (:mod:`simcoinche.runs.duplicate`); with ``--parties``,
every whole partie, with the same deal stream (:mod:`simcoinche.runs.partie_match`).
"""

from __future__ import annotations

import argparse
import json
import sys

from simcoinche.commands import integer


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``match`` command to the CLI."""
    p = sub.add_parser(
        "match",
        help="duplicate match between two players (same deals, both seat pairs)",
        description="Play N deals at two tables each (same cards, same dealer; A at seats "
        "0/2 at one table and 1/3 at the other) and report A's marks minus B's per deal "
        "with a 95 % interval, the share of deals won, and per player its contracts made "
        "and coinches won. A player is KIND or KIND:name=value,... (e.g. "
        "heuristic:bid_margin=5; kinds and parameters in simcoinche.players.registry), or one of "
        "colver's bots: colver-ismcts[:time=SECONDS] (default 0.05 s per card) or "
        "colver-isdd[:worlds=N] (default 8), federal only, pip install "
        "'simcoinche[peers]' (simcoinche.players.peers). With --parties N, whole parties "
        "to the profile's target instead of deals: partie p played at both tables with the "
        "same deal stream, and A's parties won minus B's per pair reported with a 95 % "
        "interval (kernel players only).",
    )
    p.add_argument("a", metavar="A", help="player A: KIND or KIND:name=value,...")
    p.add_argument("b", metavar="B", help="player B: KIND or KIND:name=value,...")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--deals", type=integer, metavar="N",
                      help="number of deals (each played at two tables)")
    size.add_argument("--parties", type=integer, metavar="N",
                      help="number of whole parties instead (each played at two tables)")
    p.add_argument("--max-donnes", type=integer, default=None, metavar="M",
                   help="with --parties: donnes after which a partie stops without a "
                   "winner (counted for neither, reported; default 1000)")
    p.add_argument("--seed", type=integer, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--profile", default="federal", help="rule profile (default federal)")
    p.add_argument("--threads", type=integer, default=None, metavar="T",
                   help="worker threads (default: all cores; with a colver bot, worker "
                   "processes); results do not depend on it (colver-ismcts stops on a clock)")
    p.add_argument("--dd", action="store_true",
                   help="also solve every contract double dummy (about 10-20 ms each) and "
                   "report the card points the takers' play lost against it")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="also write two Parquet rows per deal or partie (one per table)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the match and print its summary (text, or JSON with ``--json``)."""
    from simcoinche.runs.match import match

    result = match(args.a, args.b, args.deals, seed=args.seed, profile=args.profile,
                   parties=args.parties, max_donnes=args.max_donnes, threads=args.threads,
                   dd=args.dd, out=args.out, overwrite=args.overwrite,
                   progress=False if args.no_progress else None,
                   rows=False)  # only the summary is printed
    if args.json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        sys.stdout.write(result.text() + "\n")
    return 0
