"""The commands layer, the top of the house: one module per ``simcoinche`` command, each
defining ``register(subparsers)``; :mod:`.cli` builds the parser and is the console
script's entry point.

Shared argument types and argument groups live here (this package module is not a
command).

May import: every layer below (:mod:`simcoinche.analysis`, :mod:`simcoinche.runs`,
:mod:`simcoinche.players`, :mod:`simcoinche.rules`, :mod:`simcoinche._kernels`).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator

from simcoinche.rules.errors import InputError


def integer(text: str) -> int:
    """argparse type: an integer, ``_`` allowed as a digit separator (``1_000_000``)."""
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid integer {text!r}") from None


def add_run_options(p: argparse.ArgumentParser, rows: str) -> None:
    """``-n`` (number of ``rows``), ``--seed``, ``--profile``, ``--players``, ``--threads``:
    what every simulating command asks first."""
    p.add_argument("-n", type=integer, required=True, metavar="N", help=f"number of {rows}")
    p.add_argument("--seed", type=integer, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--profile", default="federal", help="rule profile (default federal)")
    p.add_argument("--players", default="heuristic", metavar="KIND|TEAM0,TEAM1",
                   help="player for both teams, or one per team: heuristic, random, pimc "
                   "(default heuristic); parameters as KIND:name=value "
                   "(e.g. pimc:worlds=16,heuristic)")
    p.add_argument("--threads", type=integer, default=None, metavar="T",
                   help="worker threads (default: all cores; with --engine dask: numba "
                   "threads per task, default the worker's thread count)")


def add_engine_options(p: argparse.ArgumentParser, rows: str) -> None:
    """``--no-progress`` and the engine options (``--engine``, ``--scheduler``,
    ``--task-size``) of a command that writes ``rows`` (donnes, parties) to Parquet."""
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: this process, one Parquet file (default); dask: tasks on "
                   "a Dask cluster, one part per task in a dataset directory, resumable "
                   "by rerunning the same command")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --engine dask: address of a running Dask scheduler "
                   "(tcp://host:8786; default: a local cluster sized to this machine)")
    p.add_argument("--task-size", type=integer, default=None, metavar="K",
                   help=f"with --engine dask: {rows} per task and part (default about N/64, "
                   "within 32768..1048576)")


def check_engine_options(args: argparse.Namespace) -> str:
    """The engine asked for; the Dask-only options without ``--engine dask`` are an
    InputError."""
    engine = getattr(args, "engine", "local")
    if engine != "dask":
        for flag, value in (("--scheduler", getattr(args, "scheduler", None)),
                            ("--task-size", getattr(args, "task_size", None))):
            if value is not None:
                raise InputError(f"{flag} needs --engine dask")
    return engine


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a batch system stopping the job) stops the run like Ctrl-C does: the
    manifest records every part completed so far, and the same command resumes it.

    The console (:func:`simcoinche.commands.cli.console`) already answers SIGTERM so for
    every command, deferring it where an interrupt would be lost or do harm; this is for
    :func:`simcoinche.commands.cli.main` called from Python, where SIGTERM would
    otherwise end the process at once."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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
    from simcoinche.analysis import MAX_DRAWS

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


#: The most characters a donne or position record may have: a record is a few hundred;
#: a device or a runaway file (``/dev/zero``) would otherwise fill the memory.
MAX_INPUT_CHARS = 16 * 1024 * 1024


def read_input(path: str) -> str:
    """The text of ``path`` (``-``: stdin); InputError (one line) when it cannot be read
    or passes :data:`MAX_INPUT_CHARS`."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_INPUT_CHARS + 1)
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read(MAX_INPUT_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"cannot read {path}: {reason}") from None
    if path == "-" and not text:
        raise InputError("standard input is empty: give the record there, or a file")
    if len(text) > MAX_INPUT_CHARS:
        raise InputError(f"{path} is longer than {MAX_INPUT_CHARS:,} characters: not a "
                         "record")
    return text
