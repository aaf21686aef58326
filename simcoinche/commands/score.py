"""``simcoinche score FILE``: check and score one recorded donne (``-`` = stdin)."""

from __future__ import annotations

import argparse
import json
import sys

from simcoinche.commands import read_input


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``score`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "score",
        help="check a recorded donne and score it (JSON in, one JSON object out)",
        description="Replay one donne given as JSON (profile, dealer, hands, auction, play, "
        "declare), check every action against the rules and print one JSON object. "
        "Exit status: 0 all actions legal, 1 an illegal action (JSON still printed), "
        "2 malformed input.",
    )
    p.add_argument("file", metavar="FILE", help="the donne as a JSON file; '-' reads stdin")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the verdict of one donne; return 0 (legal), 1 (illegal action)."""
    # Imported here: the reference engine it loads is needed by this command alone, and
    # the command line imports every command module to register it.
    from simcoinche.rules.verify import verify_text

    out, status = verify_text(read_input(args.file))
    sys.stdout.write(json.dumps(out) + "\n")
    return status
