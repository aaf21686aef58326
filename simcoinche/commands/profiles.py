"""``simcoinche profiles``: list the rule profiles, one line each."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``profiles`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "profiles",
        help="list the rule profiles",
        description="List the rule profiles (RULES.md), one line each: the name to give "
        "to --profile or to the JSON 'profile' field, and what characterises it.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print ``name  description`` for every profile; the default one is marked."""
    # Imported here: the profiles load the kernels' package (numba), which the command
    # line, registering every command, need not load for another command.
    from simcoinche.rules.profiles import DEFAULT_PROFILE, PROFILES

    width = max(len(n) for n in PROFILES)
    for name, prof in PROFILES.items():
        mark = " (default)" if name == DEFAULT_PROFILE else ""
        print(f"{name:<{width}}  {prof.description}{mark}")
    return 0
