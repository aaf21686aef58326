"""Compile (or load from the cache) the kernels before timed work, and say so on a first run.

numba compiles a kernel at its first call; with ``cache=True`` the machine code is kept in
the compiled-kernel cache (:mod:`simcoinche._kernels`: ``$SIMCOINCHE_CACHE_DIR`` or
``~/.cache/simcoinche``, then ``numba/<hash of the kernel sources>``) and later processes
load it in a fraction of a second. On a fresh machine, or after any kernel source changed,
the first command therefore spends tens of seconds compiling. Every command that times
its work calls :func:`prepare_kernels` first, so that

- the user is told once, on stderr, that the kernels are being compiled (first run only,
  about how long), instead of facing a silent pause;
- the rates it prints (donnes/s, samples/s) measure the work alone, not the compilation.

Usage (any command; ``warm`` runs each kernel once on tiny inputs of the *same* types as
the real call, so that the real call finds its compiled signature)::

    prepare_kernels("simulation", [run_batch], lambda: buf.run(plan, key, 0, 1),
                    estimate_s=SIMULATE_COMPILE_S)
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

# Cold compile times measured on the project's 2-core machine (rounded up): what the
# first-run message announces. simulate: 54-56 s of compiling on 2026-12-03 with the
# faster compile passes (:mod:`simcoinche._kernels.faster_compile`) and no prange level
# above the donne kernels, against 84-85 s for the commit before them, side by side;
# 41-57 s on 2026-12-04 once a run compiles only the player kinds it seats
# (:mod:`simcoinche._kernels.kinds`), against 54-78 s without, side by side; on
# 2026-12-05, 40.6 s with the compile helper off (one core) and 22-24 s with it
# (benchmarks/README.md, "Compile time, fourteenth cut"); then 34.4 s helper off and
# 18.8 s with it ("fifteenth cut").
SIMULATE_COMPILE_S = 35
ODDS_COMPILE_S = 30
# odds and advise with an auction also compile the auction filter (the model players'
# bidders) and, for advise, the continuations. Measured 2026-12-04 on an empty cache: advise
# 68-79 s; after a simulate (the card play is shared) odds --auction 23.5 s and advise
# 10 s. odds --auction alone was not measured: odds' 30 s plus the filter's 20-30 s.
# 2026-12-05, the filter on threads compiling only the model players' kinds: advise
# 47-59 s on an empty cache (benchmarks/README.md, "Compile time, thirteenth cut"); then
# 40.5 s with the compile helper off, 20.6-21.0 s with it ("fifteenth cut"). odds
# --auction was not measured again.
ODDS_AUCTION_COMPILE_S = 60
ADVISE_COMPILE_S = 45
# A run with a PIMC seat also compiles the double-dummy solver and the PIMC player's card
# decision: simulate with a PIMC seat compiled in 59.9 s with the compile helper off and
# started in 52.6-54.6 s with it on 2026-12-05 ("fifteenth cut"; it announced
# simulate's 35 s until "sixteenth cut").
PIMC_COMPILE_S = 60
# With a thinking bidder (a PIMC player's bid_worlds > 0) the auction compiles that bidder
# and its own card play as well: 39 s of compile against 26 s for a PIMC seat alone, helper
# off, at the machine's fast hour of 2026-12-05 (1.5x; "sixteenth cut").
THINK_BID_COMPILE_S = 90

#: What the compile helper is told by a simulation whose PIMC players think at the card
#: play only (:attr:`simcoinche.runs.simulation._RunPlan.compile_helper`): the helper
#: decides a PIMC card first (:data:`simcoinche.commands.warmup.BESIDE`).
PIMC_CARD_PLAY = "simulation with pimc players"


#: What runs beside a cold compile (:func:`set_compile_helper`; none by default).
_HELPER: list[Callable[[str], contextlib.AbstractContextManager[object]]] = []


def set_compile_helper(
        helper: Callable[[str], contextlib.AbstractContextManager[object]] | None) -> None:
    """Set (or, with None, remove) what :func:`prepare_kernels` runs while it compiles on
    a cold cache: ``helper(what)`` returns a context manager entered around the compile.

    The command line sets :func:`simcoinche.commands.warmup.compile_beside`, which
    compiles kernels the command needs later in a second process meanwhile; a library
    call spawns no process.
    """
    _HELPER.clear()
    if helper is not None:
        _HELPER.append(helper)


def cache_dir() -> str | None:
    """The directory numba caches compiled kernels in (None: beside the sources)."""
    import numba

    import simcoinche._kernels  # noqa: F401  (configures the cache location)

    return numba.config.CACHE_DIR or None


def kernels_cached(kernels: Iterable[Any]) -> bool:
    """Whether every kernel is compiled in this process or has machine code in the cache.

    ``kernels`` are numba dispatchers (``@njit(cache=True)`` functions). A kernel compiled
    in this process needs nothing; otherwise its cache index (``*.nbi``) must list at
    least one compiled signature for the current source (numba's index is keyed by the
    source file's timestamp and size, so an edited kernel counts as not cached).
    """
    for k in kernels:
        if getattr(k, "signatures", None):
            continue  # compiled (or loaded) in this process already
        cache = getattr(k, "_cache", None)
        cache_file = getattr(cache, "_cache_file", None)
        if cache_file is None:
            return False  # no cache at all: it will be compiled
        try:
            if not cache_file._load_index():
                return False
        except Exception:
            return False  # unreadable index: numba will recompile
    return True


@contextlib.contextmanager
def _compile_watch(kernels: list[Any], announce: Callable[[], None]) -> Iterator[None]:
    """While inside, ``announce()`` when numba starts compiling one of ``kernels`` (its
    ``numba:compile`` event; loading machine code from the cache raises none)."""
    from numba.core import event

    ids = {id(k) for k in kernels}

    class CompileStart(event.Listener):
        def on_start(self, ev: Any) -> None:
            data = ev.data if isinstance(ev.data, dict) else {}
            if id(data.get("dispatcher")) in ids:
                announce()

        def on_end(self, ev: Any) -> None:
            pass

    listener = CompileStart()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)


def prepare_kernels(what: str, kernels: Iterable[Any], warm: Callable[[], object],
                    estimate_s: float, stream: TextIO | None = None,
                    helper: str | None = None) -> float:
    """Compile or load ``kernels`` by calling ``warm`` now, before the timed work.

    When the cache holds none of their machine code (a first run), say so once on
    ``stream`` (stderr) before compiling — ``simcoinche: compiling the <what> kernels
    (first run only, about <estimate_s> s; cached in <dir>)`` — and how long it took
    after. The cache may hold a kernel for other argument types only (each set of player
    kinds, a PIMC seat or not, compiles its own machine code): the same is then said when
    numba starts compiling one of ``kernels`` (its ``numba:compile`` event, which a load
    from the cache does not raise). On a first run, the compile helper set by
    :func:`set_compile_helper` (the command line's) runs beside ``warm``, told ``helper``
    (default ``what``): what the command compiles, so that the helper compiles what the
    command reaches last.

    Parameters
    ----------
    what : str
        What the kernels do, for the message (``"simulation"``, ``"odds"``).
    kernels : iterable of numba dispatchers
        The top-level kernels ``warm`` calls (their cache state decides the message).
    warm : callable
        Calls every kernel once on tiny inputs with the argument types of the real run.
    estimate_s : float
        Announced compile time on an empty cache (seconds).
    stream : text file, optional
        Where to write (default ``sys.stderr``).
    helper : str, optional
        What the compile helper is told (default ``what``): the commands that share a
        ``what`` but compile in another order (``odds`` with and without an auction, a
        simulation with PIMC players, :data:`PIMC_CARD_PLAY`) say which.

    Returns
    -------
    float
        Seconds spent in ``warm`` (compiling or loading the kernels).
    """
    kernels = list(kernels)
    out = sys.stderr if stream is None else stream
    said = [False]

    def announce() -> None:
        if said[0]:
            return
        said[0] = True
        where = cache_dir()
        out.write(f"simcoinche: compiling the {what} kernels (first run only, about "
                  f"{estimate_s:.0f} s{'; cached in ' + where if where else ''}); "
                  "'simcoinche warmup --all' compiles every command's kernels ahead of "
                  "time, in parallel\n")
        from simcoinche._kernels.faster_compile import NOT_INSTALLED

        if NOT_INSTALLED:
            out.write("simcoinche: the faster compile passes are not installed: "
                      f"{NOT_INSTALLED}; compiling takes longer (same kernels)\n")
        out.flush()

    beside: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    if not kernels_cached(kernels):
        announce()
        if _HELPER:
            beside = _HELPER[0](what if helper is None else helper)
    t0 = time.perf_counter()
    with beside, _compile_watch(kernels, announce):
        warm()
    seconds = time.perf_counter() - t0
    if said[0]:
        out.write(f"simcoinche: kernels compiled in {seconds:.0f} s; the rates printed "
                  "exclude it\n")
        out.flush()
    return seconds
