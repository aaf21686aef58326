"""``simcoinche warmup [--all]``: compile (or load) every command's kernels ahead of time.

numba compiles a kernel at its first call and keeps the machine code in the cache
(:mod:`simcoinche.runs.compiling`); on a fresh machine, or after an upgrade, each command
therefore pays its own compilation on its first use. ``warmup`` pays them all at once,
in parallel processes (one per core by default), each running one command's work on a
tiny input through the Python API — the same kernels with the same argument types as the
real command, so the real command finds them in the cache. A progress bar counts the
commands done; each one's time is printed. With ``--all`` the PIMC player's kernels are
included, minutes to compile: its card play (the default player), and its card play with
its thinking bidder (``bid_worlds`` > 0, compiled separately:
:mod:`simcoinche._kernels.thinking`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from simcoinche.commands import integer
from simcoinche.rules.errors import InputError, RunError
from simcoinche.runs.compiling import PIMC_CARD_PLAY

_HAND = "JH 9H AH TH KS 7C 8D AD"
_DEAL = ["JH 9H AH TH KS 7C 8D AD", "7H 8H QH KH 7S 8S 9C TC",
         "9S TS JS QS AS JC QC KC", "AC 7D 9D TD JD QD KD 8C"]


def _simulate(players: str = "heuristic") -> None:
    from simcoinche.runs.simulation import simulate_to_file

    with tempfile.TemporaryDirectory() as tmp:
        simulate_to_file(4, seed=0, players=players, out=Path(tmp) / "w.parquet",
                         threads=1, progress=False)


def _odds() -> None:
    from simcoinche.analysis.hand_odds import odds

    odds(_HAND, samples=64, threads=1, progress=False)
    odds(_HAND, samples=16, auction="pass 80H", threads=1, progress=False)


def _odds_sampling() -> None:
    from simcoinche.analysis.hand_odds import warm_sampling

    warm_sampling()


def _advise_continuations() -> None:
    from simcoinche.analysis.advisor import warm_continuations

    warm_continuations(_HAND, "80S")


def _pimc_card_play() -> None:
    from simcoinche.runs.simulation import warm_pimc_card

    # The PIMC decision first (the run compiles its auction meanwhile), then the plain
    # card play (odds' first), whose card players and scoring the run's card play links.
    warm_pimc_card()
    _odds()


def _parties_beside() -> None:
    from simcoinche.runs.partie import warm_equity

    warm_equity()
    _odds()


def _advise() -> None:
    from simcoinche.analysis.advisor import advise

    advise(_HAND, auction="80S", samples=16, threads=1, progress=False)
    # Club models: the auction filter's build with every player kind compiled in
    # (simcoinche._kernels.kinds), which odds --auction shares.
    advise(_HAND, auction="80S", samples=16, threads=1, progress=False, players="club")


def _parties() -> None:
    from simcoinche.runs.partie import parties_to_file

    with tempfile.TemporaryDirectory() as tmp:
        parties_to_file(2, seed=0, out=Path(tmp) / "w.parquet", threads=1, progress=False)


def _match() -> None:
    from simcoinche.runs.match import match

    match("heuristic", "club", 2, threads=1, progress=False, rows=False)


def _dd() -> None:
    from simcoinche.analysis.dd import table

    table(_DEAL, dealer=0, threads=1)


def _pimc() -> None:
    _simulate("pimc:worlds=2,heuristic")


def _pimc_thinking_at_the_auction() -> None:
    _simulate("pimc:worlds=2,bid_worlds=2,heuristic")


#: The commands warmed, in this order after ``--all``'s (:func:`warmup_order`): (name, job).
COMMANDS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("simulate", _simulate), ("odds", _odds), ("advise", _advise), ("parties", _parties),
    ("match", _match), ("dd", _dd),
)
#: What ``--all`` adds.
SLOW_COMMANDS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("simulate with pimc and its thinking bidder", _pimc_thinking_at_the_auction),
    ("simulate with pimc", _pimc),
)


def warmup_order(everything: bool) -> list[str]:
    """The jobs warmed, in the order they are started: with ``everything`` (``--all``) the
    PIMC player's first, the one with its thinking bidder before the other, since they
    are the longest by far (the PIMC player with its thinking bidder took 117 of the 228 s
    of a cold ``warmup --all`` on 2 cores, 2026-12-04,
    ``benchmarks/results/suite-compile-2026-12-04``, when it was the only PIMC job):
    started last, such a job ran alone while the other processes idled; started first,
    the other commands share the other processes meanwhile. (With two PIMC jobs and two
    processes, the second waits for the kernels both need, which the first compiles:
    :mod:`simcoinche._kernels.compile_lock`. Not timed again since.)"""
    return [n for n, _ in (SLOW_COMMANDS if everything else ()) + COMMANDS]


#: Jobs only a compile helper runs (:data:`BESIDE`): part of a command's kernels.
HELPER_JOBS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("odds sampling", _odds_sampling),
    ("advise continuations", _advise_continuations),
    ("parties' equity, then odds", _parties_beside),
    ("pimc card play", _pimc_card_play),
)


def _run_job(name: str) -> tuple[str, float]:
    """Run the job ``name`` in this (worker) process; its wall time. The command's own
    first-run messages are silenced: warmup prints one line per command instead."""
    jobs = dict(COMMANDS + SLOW_COMMANDS + HELPER_JOBS)
    t0 = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        jobs[name]()
    return name, time.perf_counter() - t0


#: The job a command's first run starts in a second process while it compiles, by the
#: ``what`` of its kernels (the ``helper`` of
#: :func:`simcoinche.runs.compiling.prepare_kernels`): a job that compiles kernels the
#: command reaches later, which the command then loads instead of compiling them
#: (:mod:`simcoinche._kernels.compile_lock`). The odds job compiles the card play first
#: (:func:`simcoinche.analysis.hand_odds.odds` warms it before the sampler): what
#: simulate, match and parties reach after their auction, and odds --auction after its
#: filter; odds itself compiles its card play first, beside its sampler and levels, and
#: advise its card play first, beside its filter, continuations and their scoring (the
#: card play is the longer part: cold advise 25.6 s against 29.0 s beside the odds job,
#: "fifteenth cut"); parties' helper first compiles the equity of a score, which
#: parties reaches right after dealing (cold parties, 2 alternating pairs: 34.4-34.6 s
#: against 37.1-37.6 s beside the odds job alone). Measured cold, one after the other on
#: 2 cores (2026-12-04, benchmarks/README.md "Compile time, tenth cut"): simulate -n 1000
#: 36.3 -> 28.2 s, advise 66.2 -> 44.7 s, parties 68.7 -> 42.3 s (beside simulate, whose
#: bidder the parties compiled too; since the bidders share their code, "eleventh cut",
#: beside odds: 38.2-38.8 s against 42.1-43.4 s); "fourteenth cut" for the orders. A run
#: whose PIMC players think at the card play only has the helper decide one PIMC card
#: first (the solver and the PIMC decision, which the run's card play reaches after its
#: heuristic card play), then run the odds job: cold simulate with a PIMC seat 25.6 and
#: 26.9 s against 29.7 and 29.8 s beside the odds job alone, 2 alternating pairs
#: ("sixteenth cut").
BESIDE = {"simulation": "odds", "advise": "advise continuations",
          "parties": "parties' equity, then odds",
          "odds": "odds sampling", "odds --auction": "odds",
          PIMC_CARD_PLAY: "pimc card play"}

#: Environment variable: "0" turns the compile helper off.
HELPER_ENV = "SIMCOINCHE_COMPILE_HELPER"


def _stop_with_parent(parent: int) -> None:
    """Linux: the kernel sends this process SIGTERM when its parent ends (even killed);
    and if the parent is already gone, stop now."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGTERM))
    if os.getppid() != parent:
        sys.exit(0)


def _no_semaphores() -> None:
    """Give tqdm (the jobs' progress bars, even disabled ones) a thread lock instead of
    the lock across processes it would make: a named semaphore, which a helper stopped
    with SIGTERM never unlinks, so that Python's resource tracker warned of "1 leaked
    semaphore objects" when the command ended. The helper has no children of its own."""
    from tqdm import tqdm

    tqdm.set_lock(threading.RLock())


def _helper_job(name: str, parent: int) -> None:
    """Target of the helper process: run the job ``name`` silently, and never beyond the
    command (``parent``, its pid) that started it; a failure is one line on stderr.
    Ctrl-C is the command's to answer (SIGINT is ignored here from the start: the
    command stops the helper)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _stop_with_parent(parent)
    _no_semaphores()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            _run_job(name)
    except Exception as exc:  # the helper's own error, named, never a traceback
        sys.stderr.write(f"simcoinche: the compile helper ({name} kernels) failed: "
                         f"{type(exc).__name__}: {exc}; this command compiled its own\n")
        sys.exit(1)


@contextlib.contextmanager
def compile_beside(what: str) -> Iterator[None]:
    """While inside, compile the kernels of the job :data:`BESIDE` names for ``what`` in
    a second process (spawned; stopped on the way out, its finished kernels cached).

    Nothing is started for a ``what`` without a job, on a single core, or when the
    environment variable ``SIMCOINCHE_COMPILE_HELPER`` is ``0``. The command line sets it
    as :func:`simcoinche.runs.compiling.prepare_kernels`' helper (:func:`cli.console`).
    """
    import signal

    from simcoinche.runs import blocks

    name = BESIDE.get(what)
    if (name is None or os.environ.get(HELPER_ENV) == "0" or blocks.usable_cores() < 2
            or multiprocessing.current_process().daemon):  # (may not have children)
        yield
        return
    proc = multiprocessing.get_context("spawn").Process(
        target=_helper_job, args=(name, os.getpid()),
        name=f"simcoinche compile helper ({name})", daemon=True)
    # The helper starts with SIGINT ignored (kept across exec): a Ctrl-C while it starts
    # up prints nothing there; this process answers it. (Only the main thread may set a
    # handler; elsewhere the helper ignores SIGINT from its first line.)
    previous = signal.getsignal(signal.SIGINT)
    swap = previous is not None and threading.current_thread() is threading.main_thread()
    try:
        if swap:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            proc.start()
        finally:
            if swap:
                signal.signal(signal.SIGINT, previous)
        yield
    finally:
        if proc.is_alive():
            proc.terminate()
        if proc.pid is not None:
            proc.join()


def warmup(names: list[str], jobs: int, progress: bool = True) -> dict[str, float]:
    """Run the jobs ``names`` in ``jobs`` spawned processes; seconds per job.

    Raises
    ------
    RuntimeError
        If a job fails (the message names it and gives its error).
    """
    from tqdm import tqdm

    seconds: dict[str, float] = {}
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=ctx) as pool, \
            tqdm(total=len(names), unit=" command", disable=not progress,
                 desc="compiling") as bar:
        futures = {pool.submit(_run_job, n): n for n in names}
        for fut in as_completed(futures):
            name = futures[fut]
            try:
                _, s = fut.result()
            except Exception as exc:  # the job's own error, named
                raise RuntimeError(f"warming up {name} failed: "
                                   f"{type(exc).__name__}: {exc}") from None
            seconds[name] = s
            bar.write(f"  {name}: {s:.0f} s")
            bar.update(1)
    return seconds


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``warmup`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "warmup",
        help="compile every command's kernels ahead of time",
        description="Compile (or load from the cache) the kernels of every command "
        "(simulate, odds, advise, parties, match, dd) ahead of time, in parallel "
        "processes, so that each command's first run starts at once. --all adds the PIMC "
        "player (minutes to compile).",
    )
    p.add_argument("--all", action="store_true", help="also the PIMC player's kernels")
    p.add_argument("--jobs", type=integer, default=None, metavar="J",
                   help="parallel processes (default: the number of cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Warm every command up; print the time of each and the total."""
    from simcoinche.runs.compiling import cache_dir

    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    names = warmup_order(args.all)
    where = cache_dir()
    print(f"simcoinche warmup: compiling or loading the kernels of {len(names)} commands "
          f"in {min(jobs, len(names))} processes{' (cache: ' + where + ')' if where else ''}",
          file=sys.stderr)
    t0 = time.perf_counter()
    try:
        seconds = warmup(names, jobs, progress=not args.no_progress and sys.stderr.isatty())
    except RuntimeError as exc:
        raise RunError(str(exc)) from None
    print(f"warmed {len(seconds)} commands in {time.perf_counter() - t0:.0f} s: "
          + ", ".join(f"{n} {s:.0f} s" for n, s in seconds.items()))
    return 0
