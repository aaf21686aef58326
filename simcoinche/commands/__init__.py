"""One module per command; each defines ``register(subparsers)``.

Shared argument types and argument groups live here (this package module is not a
command).
"""

from __future__ import annotations

import argparse


def integer(text: str) -> int:
    """argparse type: an integer, ``_`` allowed as a digit separator (``1_000_000``)."""
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid integer {text!r}") from None


def add_auction_arguments(p: argparse.ArgumentParser, default: str | None) -> None:
    """``--auction`` (``default``: its value when absent), ``--seat``, ``--dealer``."""
    p.add_argument("--auction", default=default, metavar="TOKENS",
                   help='the auction so far, tokens as in "simcoinche score", e.g. '
                   '"pass 80H 90S" ("" before any action); deals are kept only when the '
                   "model players at the other seats would have bid exactly this")
    p.add_argument("--seat", type=integer, default=None, metavar="SEAT",
                   help="the hand's seat 0..3 (default 0; with --auction and --dealer: the "
                   "next speaker)")
    p.add_argument("--dealer", type=integer, default=None, metavar="SEAT",
                   help="dealer seat (default: the seat that makes --seat the next speaker, "
                   "so without an auction the hand speaks and leads first)")


def add_deal_arguments(p: argparse.ArgumentParser) -> None:
    """Seed, constraints, profile, players, draw limit, threads, progress (odds, advise)."""
    from simcoinche.conditioned import MAX_DRAWS

    p.add_argument("--seed", type=integer, default=0, metavar="S", help="seed (default 0)")
    p.add_argument("--give", action="append", default=None, metavar="SEAT:CARDS",
                   help="cards known to be in a seat, e.g. --give 1:AS,KS (repeatable)")
    p.add_argument("--void", action="append", default=None, metavar="SEAT:SUITS",
                   help="suits a seat is known to lack, e.g. --void 2:H (repeatable)")
    p.add_argument("--profile", default="federal", help="rule profile (default federal)")
    p.add_argument("--players", default="heuristic", metavar="KIND|TEAM0,TEAM1",
                   help="model players (default heuristic): they explain the auction and "
                   "play the cards")
    p.add_argument("--max-draws", type=integer, default=MAX_DRAWS, metavar="N",
                   help=f"with --auction: most deals drawn to keep the samples (default "
                   f"{MAX_DRAWS:,}); beyond it, stop and suggest fewer samples")
    p.add_argument("--threads", type=integer, default=None, metavar="T",
                   help="worker threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
