"""``simcoinche odds --hand "JH 9H AH TH KS 7C 8D AD"``: how often does this hand make each bid?

Deals the unseen cards uniformly among the deals consistent with the constraints
(``--give``, ``--void``), plays every candidate contract with the hand's seat as taker and
prints P(made) per trump and bid level with Wilson 95 % intervals (``--json`` for the
machine-readable form, ``--level`` for a one-line answer). See :mod:`simcoinche.analysis.hand_odds`.
"""

from __future__ import annotations

import argparse
import json
import sys

from simcoinche.commands import add_auction_arguments, add_deal_arguments, integer


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``odds`` command to the CLI."""
    p = sub.add_parser(
        "odds",
        help="odds of a hand: P(made) per trump and bid level, by exact dealing",
        description="Deal the 24 unseen cards uniformly among all deals consistent with "
        "the constraints, play every candidate contract (each trump; each bid level and "
        "capot) with the hand's seat as taker, and print the takers' total and P(made) "
        "with Wilson 95 % intervals. The hand's seat leads the first trick unless "
        "--dealer says otherwise.",
    )
    p.add_argument("--hand", required=True, metavar="CARDS",
                   help='the taker\'s 8 cards, e.g. "JH 9H AH TH KS 7C 8D AD"')
    add_auction_arguments(p, default=None)
    p.add_argument("--trump", action="append", default=None, metavar="KINDS",
                   help="contract kinds to play: S H D C (SA TA where the profile has "
                   "them), comma-separated or repeated (default: all)")
    p.add_argument("--samples", type=integer, default=None, metavar="N",
                   help="deals drawn (default 10,000: interval half-width at most 1 point; "
                   "2,000 with --play dd)")
    p.add_argument("--level", default=None, metavar="VALUE",
                   help="print only the one-line answer for this bid value (e.g. 100 or "
                   "capot) per contract kind played")
    add_deal_arguments(p)
    p.add_argument("--play", choices=("players", "dd"), default="players",
                   help="players: each deal played by --players (default); dd: each deal "
                   "solved double-dummy (all hands visible, perfect play), slow")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compute the odds and print the table, the one-line answers or the JSON."""
    from simcoinche.analysis.hand_odds import check_level, odds

    if args.level is not None:
        check_level(args.level, args.profile)
    play = getattr(args, "play", "players")
    result = odds(args.hand, seat=args.seat, dealer=args.dealer, trump=args.trump,
                  samples=args.samples, play=play,
                  seed=args.seed, give=args.give, void=args.void, profile=args.profile,
                  players=args.players, threads=args.threads,
                  progress=False if args.no_progress else None, auction=args.auction,
                  max_draws=args.max_draws)
    if args.level is not None:
        lines = [result.line(ko.kind, args.level) for ko in result.kinds]
        if args.json:
            out = result.to_dict()
            out["answer"] = lines
            sys.stdout.write(json.dumps(out) + "\n")
        else:
            sys.stdout.write("\n".join(lines) + "\n")
        return 0
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0

