"""An honest first run: on an empty kernel cache the commands say once that they compile,
and the rates they print exclude the compilation (:mod:`simcoinche.runs.compiling`).

The end-to-end test runs the real commands in fresh processes whose compiled-kernel
cache is an empty directory under ``tmp_path`` (``SIMCOINCHE_CACHE_DIR``).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from simcoinche.runs.compiling import kernels_cached, prepare_kernels
from simcoinche.runs.results import arrow_array

REPO = Path(__file__).resolve().parent.parent
MESSAGE = "compiling the {} kernels (first run only, about"


def _env(cache: Path) -> dict[str, str]:
    """This process's environment with the kernel cache at ``cache`` (empty: cold)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["SIMCOINCHE_CACHE_DIR"] = str(cache)
    return env


def _cli(args: list[str], cache: Path, runner: tuple[str, ...] = ("-m", "simcoinche")
         ) -> tuple[float, subprocess.CompletedProcess]:
    env = _env(cache)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, *runner, *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    wall = time.perf_counter() - t0
    assert proc.returncode == 0, proc.stderr[-2000:]
    return wall, proc


# Runs the command line as ``python -m simcoinche`` does, with numba's compile events
# recorded and written, as benchmarks/compile_profile.py reads them (one entry per compiled
# function and argument types), to the JSON file named by argv[1].
_RECORDING = """
import json, sys
from numba.core.event import install_recorder
from benchmarks.compile_profile import compile_entries
from simcoinche.commands.cli import main
with install_recorder("numba:compile") as rec:
    status = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump(compile_entries(rec.buffer), f)
sys.exit(status)
"""


def _compiled_twice(log: Path) -> dict[str, list[str]]:
    """Our kernels compiled under more than one list of argument types in the run that
    wrote ``log``: function -> its argument types. Functions local to an ``@overload``
    (``<locals>``) are left out: numba picks one of them per argument type by design."""
    by_function: dict[str, set[str]] = {}
    for e in json.loads(log.read_text()):
        if e["function"].startswith("simcoinche.") and "<locals>" not in e["function"]:
            by_function.setdefault(e["function"], set()).add(e["args"])
    return {f: sorted(a) for f, a in by_function.items() if len(a) > 1}


def test_first_run_says_once_it_compiles_and_prints_compile_free_rates(tmp_path):
    cache = tmp_path / "cache"
    odds_args = ["odds", "--hand", "JH 9H AH TH KS 7C 8D AD", "--samples", "2000",
                 "--trump", "H", "--json", "--no-progress"]
    sim_args = ["simulate", "-n", "20000", "--out", str(tmp_path / "run.parquet"),
                "--overwrite", "--no-progress"]

    # odds on an empty cache: the message, once; the seconds it reports exclude it.
    wall, proc = _cli(odds_args, cache)
    assert proc.stderr.count(MESSAGE.format("odds")) == 1, proc.stderr
    assert any(cache.rglob("*.nbi"))  # the cache is the temporary directory
    compiled = float(re.search(r"kernels compiled in (\d+) s", proc.stderr).group(1))
    seconds = json.loads(proc.stdout)["seconds"]
    assert compiled >= 2 and seconds < wall - compiled + 1.0 and seconds < 0.5 * wall

    # simulate: its own kernel is not cached yet, so it says so too (run with numba's
    # compile events recorded).
    log = tmp_path / "compiles.json"
    wall, proc = _cli(sim_args, cache, runner=("-c", _RECORDING, str(log)))
    # Issue 24, item 2: no kernel compiled again under other argument types (an int32
    # where the other callers pass an int64, a literal 0): each copy is whole seconds.
    assert _compiled_twice(log) == {}
    # The card play odds compiled is the one simulate runs (play_contracts calls play_phase
    # with play_one's argument types): loaded from the cache, not compiled again.
    compiled_here = {e["function"] for e in json.loads(log.read_text())}
    assert "simcoinche._kernels.batch.run_batch" in compiled_here  # simulate's own
    assert "simcoinche._kernels.donne.play_phase" not in compiled_here
    # play_one is copied into run_batch (no compiled level of its own: fifteenth cut).
    assert "simcoinche._kernels.donne.play_one" not in compiled_here
    assert proc.stderr.count(MESSAGE.format("simulation")) == 1, proc.stderr
    compiled = float(re.search(r"kernels compiled in (\d+) s", proc.stderr).group(1))
    m = re.search(r"20,000 donnes in ([\d.]+) s: ([\d,]+) donnes/s", proc.stdout)
    seconds, rate = float(m.group(1)), int(m.group(2).replace(",", ""))
    assert compiled >= 2 and seconds < 0.5 * wall
    # The old behaviour timed the compilation too: 20,000 donnes over the whole wall time.
    assert rate > 2 * 20_000 / wall

    # Second runs: nothing to compile, nothing said.
    for args in (sim_args, odds_args):
        _, proc = _cli(args, cache)
        assert "compiling" not in proc.stderr, proc.stderr


class _FakeCacheFile:
    def __init__(self, index: dict) -> None:
        self.index = index

    def _load_index(self) -> dict:
        return self.index


class _FakeKernel:
    """A numba dispatcher as far as prepare_kernels looks at one."""

    def __init__(self, index: dict | None, signatures: list | None = None) -> None:
        self.signatures = signatures or []
        if index is not None:
            self._cache = type("Cache", (), {"_cache_file": _FakeCacheFile(index)})()


def test_kernels_count_as_cached_only_when_compiled_or_indexed():
    assert kernels_cached([_FakeKernel({"sig": 1}), _FakeKernel(None, ["int64()"])])
    assert not kernels_cached([_FakeKernel({"sig": 1}), _FakeKernel({})])
    assert not kernels_cached([_FakeKernel(None)])  # no cache at all: compiled every time


def test_prepare_kernels_warms_first_and_speaks_only_when_compiling():
    calls = []
    out = io.StringIO()
    prepare_kernels("test", [_FakeKernel({"sig": 1})], lambda: calls.append(1), 5, out)
    assert calls == [1] and out.getvalue() == ""
    prepare_kernels("test", [_FakeKernel({})], lambda: calls.append(2), 5, out)
    lines = out.getvalue().splitlines()
    assert calls == [1, 2] and len(lines) == 2
    assert lines[0].startswith("simcoinche: compiling the test kernels (first run only, "
                               "about 5 s")
    # ... and points to the command that compiles every command's kernels at once.
    assert "'simcoinche warmup --all'" in lines[0]
    assert "exclude" in lines[1]


# Every command's run modules, the players and the analysis the commands use, except the
# double-dummy ones (`dd`, `simulate --dd`, the PIMC player), which need the solver.
_SOLVER_FREE = ("simcoinche.runs.simulation", "simcoinche.runs.partie",
                "simcoinche.runs.match", "simcoinche.runs.duplicate",
                "simcoinche.runs.partie_match", "simcoinche.runs.peer_match",
                "simcoinche.runs.rollout", "simcoinche.players.registry",
                "simcoinche.players.table", "simcoinche.analysis.conditioned",
                "simcoinche.analysis.advisor", "simcoinche.commands.cli")


def _fresh_python(code: str, cache: Path) -> object:
    """What ``code`` prints as JSON, run in a fresh interpreter (kernel cache ``cache``)."""
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=_env(cache),
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_only_double_dummy_work_imports_the_solver(tmp_path):
    # Importing _kernels.dd compiles its search (it has a signature): 31 s of every cold
    # simulate until the constants PM_WORLDS and PIMC_TT_LOG2 stopped pulling it in.
    code = ("import importlib, json, sys\n"
            f"for m in {_SOLVER_FREE!r}:\n"
            "    importlib.import_module(m)\n"
            "print(json.dumps([m for m in sys.modules if m.startswith('simcoinche._kernels.')]))\n")
    loaded = set(_fresh_python(code, tmp_path))
    assert "simcoinche._kernels.bidder" in loaded     # the check sees the kernels it loads
    prefix = "simcoinche._kernels."
    assert not loaded & {prefix + "dd", prefix + "pimc", prefix + "dd_batch"}


def test_a_run_with_pimc_seats_plans_its_compile_without_importing_the_solver(tmp_path):
    # What a simulation with PIMC players asks before its compile (its think spec, the
    # kernels whose cache state decides the first-run message and helper, the helper's job,
    # the estimate) imports no solver: importing _kernels.dd compiles its search, which a
    # first run leaves to its compile helper (warm_pimc_card) while it compiles its
    # auction (benchmarks/README.md, "Compile time, sixteenth cut").
    code = ("import json, sys\n"
            "from simcoinche.runs.compiling import kernels_cached\n"
            "from simcoinche.runs.simulation import _plan\n"
            "plan = _plan(8, 1, 'federal', 'pimc,heuristic', 1, None, None, False, None)\n"
            "plan.schema(plan.metadata())\n"
            "facts = [str(plan.think), kernels_cached(plan.kernels()), plan.compile_helper,\n"
            "         plan.compile_estimate_s]\n"
            "loaded = [m for m in sys.modules if m.startswith('simcoinche._kernels.')]\n"
            "print(json.dumps([facts, loaded]))\n")
    facts, loaded = _fresh_python(code, tmp_path)
    # (an empty cache: the first run's message and helper follow)
    assert facts[1] is False and facts[2] is not None
    prefix = "simcoinche._kernels."
    assert prefix + "pimc_scratch" in loaded  # the check sees the kernels it loads
    assert not set(loaded) & {prefix + "dd", prefix + "pimc", prefix + "dd_batch"}


# The modules a run to a file goes through, and the counting commands' (odds, advise).
_PANDAS_FREE = ("simcoinche.runs.simulation", "simcoinche.runs.partie",
                "simcoinche.runs.match", "simcoinche.runs.duplicate",
                "simcoinche.runs.partie_match", "simcoinche.analysis.hand_odds",
                "simcoinche.analysis.advisor", "simcoinche.commands.cli")


def test_a_run_to_a_file_and_the_counting_commands_import_no_pandas(tmp_path):
    # pandas took a third of a warm `simulate -n 1000` (0.35 of 1.9 s): imported by the run
    # modules for annotations, by pyarrow.dataset, and by pa.array, which looks for pandas
    # objects in its argument. A run writes its Parquet without it.
    code = ("import importlib, json, sys\n"
            "import numpy as np\n"
            f"for m in {_PANDAS_FREE!r}:\n"
            "    importlib.import_module(m)\n"
            "from simcoinche._kernels.donne import N_OUT\n"
            "from simcoinche.runs.results import chunk_table, schema\n"
            "t = chunk_table(0, np.ones((N_OUT, 10), np.int32), None, None, None,\n"
            "                schema(False))\n"
            "print(json.dumps([t.num_rows, 'pandas' in sys.modules]))\n")
    assert _fresh_python(code, tmp_path) == [10, False]


def test_the_command_line_registers_every_command_without_numba_or_the_reference_engine(
        tmp_path):
    # Every command imports what it runs when it runs: registering them all (which every
    # start does, and all a refused argument needs) loaded numba through `profiles` and
    # the pure-Python reference engine through `score`, about 0.1 s of each warm start.
    code = ("import argparse, json, sys\n"
            "from simcoinche.commands.cli import build_parser\n"
            "p = build_parser()\n"
            "sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))\n"
            "names = sorted(sub.choices)\n"
            "print(json.dumps([names, sorted(m for m in ('numba', 'simcoinche.rules.reference',"
            " 'simcoinche._kernels', 'pyarrow') if m in sys.modules)]))\n")
    names, loaded = _fresh_python(code, tmp_path)
    assert {"simulate", "score", "profiles", "dd", "odds"} <= set(names)
    assert loaded == []


def test_the_console_entry_tunes_the_collector_for_its_process_and_main_does_not(
        tmp_path):
    # The interpreter's exit scanned every object numba and the loaded kernels leave: about
    # 0.25 s of a 1 s warm start, and the default threshold about 0.1 s more on the way in.
    # The console script (and python -m simcoinche) raises the first threshold and freezes
    # what is left at the end; main() called from Python leaves the collector alone.
    code = ("import contextlib, gc, io, json\n"
            "from importlib.metadata import entry_points\n"
            "from simcoinche.commands.cli import console, main\n"
            "default = gc.get_threshold()[0]\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    by_main = [main(['profiles']), gc.get_threshold()[0], gc.get_freeze_count()]\n"
            "    by_console = [console(['profiles']), gc.get_threshold()[0],\n"
            "                  gc.get_freeze_count() > 0]\n"
            "script = entry_points(group='console_scripts', name='simcoinche')\n"
            "print(json.dumps([default, by_main, by_console, [e.value for e in script]]))\n")
    default, by_main, by_console, script = _fresh_python(code, tmp_path)
    assert by_main == [0, default, 0]
    assert by_console == [0, 10_000, True]
    assert script == ["simcoinche.commands.cli:console"]
    # python -m simcoinche goes through console() too.
    code = ("import contextlib, gc, io, json, runpy, sys\n"
            "sys.argv = ['simcoinche', 'profiles']\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            "        runpy.run_module('simcoinche', run_name='__main__')\n"
            "    except SystemExit as exc:\n"
            "        status = exc.code\n"
            "print(json.dumps([status, gc.get_threshold()[0], gc.get_freeze_count() > 0]))\n")
    assert _fresh_python(code, tmp_path) == [0, 10_000, True]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "uint32", "int64"])
def test_arrow_array_is_what_pa_array_gives(dtype):
    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 8, 13, 100):
        values = rng.integers(-3, 4, size=2 * n)[::2]  # not contiguous
        values = values != 0 if dtype == "bool" else values.astype(dtype)
        got = arrow_array(values)
        assert got.type == pa.from_numpy_dtype(np.dtype(dtype))
        assert got.equals(pa.array(values))


@pytest.mark.parametrize("values", [np.zeros((2, 3), np.int32), np.arange(4, dtype=">i4")])
def test_arrow_array_refuses_what_it_would_misread(values):
    # pa.array refuses both; from_buffers would read a 2-d array's first row, or the
    # swapped bytes of a big-endian one.
    with pytest.raises(ValueError, match="1-d array in native byte order"):
        arrow_array(values)



def test_prepare_kernels_speaks_when_a_kernel_cached_for_other_types_compiles():
    # A kernel whose cache holds machine code for other argument types only (a run with
    # other player kinds, or a PIMC seat) compiles again: numba's compile event says so,
    # and the message comes then; another function's compile says nothing.
    from numba.core import event

    cached = _FakeKernel({"sig": 1})
    other = _FakeKernel({"sig": 1})

    def compiles(kernel: _FakeKernel) -> Callable[[], None]:
        def warm() -> None:
            with event.trigger_event("numba:compile", data={"dispatcher": kernel}):
                pass
        return warm

    out = io.StringIO()
    prepare_kernels("test", [cached], compiles(other), 5, out)
    assert out.getvalue() == ""
    prepare_kernels("test", [cached], compiles(cached), 5, out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("simcoinche: compiling the test kernels")
    assert "exclude" in lines[1]
    # Outside prepare_kernels the listener is gone: nothing more is said.
    compiles(cached)()
    assert len(out.getvalue().splitlines()) == 2


# In a fresh interpreter (this process may hold other signatures of these kernels, and so
# would a command run before in the same one): the command argv[1] (advise, or odds with
# an auction) with prepare_kernels replaced by a recorder that runs warm(), then notes
# every signature each kernel holds (compiled or loaded from the cache); printed again
# when the command returns.
_WARM_THEN_RUN = """
import json, sys
from simcoinche._kernels.batch import play_contracts
from simcoinche.analysis import advisor, hand_odds
record = []
def signatures(kernels):
    return {k.py_func.__name__: sorted(str(s) for s in k.signatures) for k in kernels}
def prepare(what, kernels, warm, estimate_s, out=None, helper=None):
    # The compile helper each asks for: advise its own, odds with an auction the odds job.
    assert helper == {'advise': None, 'odds': 'odds --auction'}[sys.argv[1]], helper
    warm()
    # (the card play too, which warm() compiles first, on a deal of its own)
    record.extend([what, [k.py_func.__name__ for k in kernels], estimate_s,
                   signatures(list(kernels) + [play_contracts]), kernels])
advisor.prepare_kernels = hand_odds.prepare_kernels = prepare
if sys.argv[1] == "advise":
    advisor.advise("AH TH KH AS 7C AD KD 8D", auction="80S", samples=40, threads=1,
                   progress=False)
else:
    hand_odds.odds("JH 9H AH TH KS 7C 8D AD", samples=40, auction="pass 80H", threads=1,
                   progress=False)
record[4] = signatures(list(record[4]) + [play_contracts])
print(json.dumps(record))
"""


@pytest.mark.parametrize("command", ["advise", "odds"])
def test_advise_and_odds_with_an_auction_compile_their_filter_before_the_timed_work(command):
    # advise and odds --auction hand their auction-filter kernels to prepare_kernels, whose
    # warm() runs them with the timed calls' argument types: the timed work then needs no
    # signature that warm() did not already compile or load (one it needed would be
    # compiled inside the seconds reported, after the first-run message's check).
    from simcoinche.runs.compiling import ADVISE_COMPILE_S, ODDS_AUCTION_COMPILE_S

    proc = subprocess.run([sys.executable, "-c", _WARM_THEN_RUN, command], cwd=REPO,
                          capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    what, names, estimate_s, after_warm, after_run = json.loads(proc.stdout)
    assert (what, names, estimate_s) == {
        "advise": ("advise", ["filter_deals", "continue_auctions", "score_outcomes"],
                   ADVISE_COMPILE_S),
        "odds": ("odds", ["sample_deals", "play_contracts", "made_at_levels",
                          "filter_deals"], ODDS_AUCTION_COMPILE_S)}[command]
    assert all(after_warm.values()), after_warm  # warm() ran every kernel
    assert after_run == after_warm
