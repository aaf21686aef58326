"""``simcoinche profiles``: list the rule profiles."""

from __future__ import annotations

import argparse

from simcoinche.profiles import DEFAULT_PROFILE, PROFILES


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("profiles", help="list the rule profiles")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    width = max(len(n) for n in PROFILES)
    for name, prof in PROFILES.items():
        mark = " (default)" if name == DEFAULT_PROFILE else ""
        print(f"{name:<{width}}  {prof.description}{mark}")
    return 0
