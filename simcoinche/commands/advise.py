"""``simcoinche advise --hand … --auction "80H 90S"``: what should I say now?

For every legal action of the player (pass, each bid up to ``--max-bid``, coinche,
surcoinche), the expected marks of the donne for the player's team minus the opponents',
on deals conditioned on the auction under the model players, the rest of the auction and
the play continued by them; the same deals for every action. With ``--score US,THEM``,
also each action's chance of winning the partie, best first. See
:mod:`simcoinche.analysis.advisor`.
"""

from __future__ import annotations

import argparse
import json
import sys

from simcoinche.commands import add_auction_arguments, add_deal_arguments, integer
from simcoinche.rules.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``advise`` command to the CLI."""
    p = sub.add_parser(
        "advise",
        help="the best action now: expected marks of each legal action given the auction",
        description="Draw the unseen cards among the deals on which the model players "
        "would have bid as they did, then for each legal action now (pass, each bid up to "
        "--max-bid, coinche, surcoinche) let the model players finish the auction and "
        "play the donne. Prints the expected marks of the player's team minus the "
        "opponents' per action with 95 % intervals, best first (the same deals for "
        "every action).",
    )
    p.add_argument("--hand", required=True, metavar="CARDS",
                   help='the player\'s 8 cards, e.g. "AH TH KH AS 7C AD KD 8D"')
    add_auction_arguments(p, default="")
    p.add_argument("--samples", type=integer, default=None, metavar="N",
                   help="deals kept, each used for every action (default 10,000)")
    add_deal_arguments(p)
    p.add_argument("--play", default="heuristic", metavar="MODE",
                   help="card play of the final contracts: heuristic (the model players' own), "
                   "dd (double dummy; slow, use a few hundred samples) or pimc[:worlds=N] "
                   "(PIMC seats)")
    p.add_argument("--max-bid", default=None, metavar="VALUE",
                   help="highest bid value considered, e.g. 120 (default capot)")
    p.add_argument("--score", type=score_pair, default=None, metavar="US,THEM",
                   help="the partie's totals, the player's team first (below the target): "
                   "adds each action's chance of winning the partie and ranks by it")
    p.add_argument("--top", type=integer, default=20, metavar="K",
                   help="rows of the table (default 20; 0 for all)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def score_pair(text: str) -> tuple[int, int]:
    """``"1950,500"`` → ``(1950, 500)`` (argparse type; the grid is checked later)."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected two totals US,THEM, e.g. 1950,500, not "
                                         f"{text!r}")
    return int(parts[0]), int(parts[1])


def run(args: argparse.Namespace) -> int:
    """Evaluate every action and print the table or the JSON."""
    from simcoinche.analysis.advisor import DEFAULT_SAMPLES, advise

    if args.top < 0:
        raise InputError(f"--top must be 0 (every row) or a number of rows, got {args.top}")

    result = advise(args.hand, auction=args.auction, seat=args.seat, dealer=args.dealer,
                    samples=DEFAULT_SAMPLES if args.samples is None else args.samples,
                    seed=args.seed, give=args.give, void=args.void, profile=args.profile,
                    players=args.players, play=args.play, max_bid=args.max_bid,
                    max_draws=args.max_draws, threads=args.threads,
                    progress=False if args.no_progress else None, score=args.score)
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        sys.stdout.write(result.table(args.top) + "\n")
    return 0
