"""The README's one-line answer: "how often does this hand make 100 hearts?".

Runs the same computation as::

    simcoinche odds --hand "JH 9H AH TH KS 7C 8D AD" --trump H --level 100 \\
        --samples 100000 --seed 1

and prints the command and its answer (plus the whole hearts column with ``--table``)::

    .venv/bin/python analysis/odds_answer.py
    .venv/bin/python analysis/odds_answer.py --hand "JS 9S 7S AH TH AD 8C 7C" --trump S
"""

from __future__ import annotations

import argparse
import shlex
import sys

from simcoinche.analysis.hand_odds import check_level, odds
from simcoinche.rules.errors import InputError

DEFAULT_HAND = "JH 9H AH TH KS 7C 8D AD"


def main(argv: list[str] | None = None) -> int:
    """Command line of the script (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hand", default=DEFAULT_HAND)
    p.add_argument("--trump", default="H")
    p.add_argument("--level", default="100")
    p.add_argument("--samples", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--table", action="store_true", help="also print the full odds table")
    args = p.parse_args(argv)
    cmd = (f"simcoinche odds --hand {shlex.quote(args.hand)} --trump {args.trump} "
           f"--level {args.level} --samples {args.samples} --seed {args.seed}")
    try:
        check_level(args.level)
        result = odds(args.hand, trump=args.trump, samples=args.samples, seed=args.seed,
                      progress=False)
    except InputError as exc:
        sys.stderr.write(f"odds_answer: error: {exc}\n")
        return 2
    sys.stdout.write(f"$ {cmd}\n")
    for ko in result.kinds:
        sys.stdout.write(result.line(ko.kind, args.level) + "\n")
    if args.table:
        sys.stdout.write("\n" + result.table() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
