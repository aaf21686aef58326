"""A command's first run compiles beside itself (:func:`simcoinche.commands.warmup.
compile_beside`, issue 24): a second process compiles kernels the command needs later,
into the same cache, and is stopped when the command's own compile is done; off on one
core, for kinds of work without a job, and with ``SIMCOINCHE_COMPILE_HELPER=0``; a helper
that fails says so in one line.

The suite turns the helper off (conftest.py); these tests turn it on.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interrupt import default_sigint

from simcoinche.commands import warmup as W
from simcoinche.runs import blocks, compiling
from simcoinche.runs.simulation import _plan

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def helper_on(monkeypatch, tmp_path):
    """The helper on, every process's kernel cache in ``tmp_path / 'cache'`` (cold)."""
    monkeypatch.delenv(W.HELPER_ENV, raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("SIMCOINCHE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(blocks, "usable_cores", lambda: 2)
    return tmp_path / "cache"


def _helpers() -> list[multiprocessing.Process]:
    return [p for p in multiprocessing.active_children()
            if p.name.startswith("simcoinche compile helper")]


def test_the_first_runs_that_gain_have_a_helper_job_and_it_is_another_commands():
    jobs = dict(W.COMMANDS + W.HELPER_JOBS)
    assert W.BESIDE == {"simulation": "odds", "advise": "advise continuations",
                        "parties": "parties' equity, then odds",
                        "odds": "odds sampling", "odds --auction": "odds",
                        compiling.PIMC_CARD_PLAY: "pimc card play"}
    assert all(job in jobs for job in W.BESIDE.values())
    # A job only a helper runs is not a command warmup lists.
    assert "odds sampling" not in W.warmup_order(True)
    assert "advise continuations" not in W.warmup_order(True)
    assert "pimc card play" not in W.warmup_order(True)


@pytest.mark.parametrize(("run", "players", "helper", "estimate_s"), [
    ("simulate", "heuristic", None, compiling.SIMULATE_COMPILE_S),
    ("simulate", "pimc,heuristic", compiling.PIMC_CARD_PLAY, compiling.PIMC_COMPILE_S),
    ("simulate", "heuristic,pimc:worlds=4", compiling.PIMC_CARD_PLAY,
     compiling.PIMC_COMPILE_S),
    # The thinking bidder's card play is typed with its own scratch: no job compiles it.
    ("simulate", "pimc:bid_worlds=2,heuristic", None, compiling.THINK_BID_COMPILE_S),
    # parties keeps its own job (the equity first, which it reaches right after dealing).
    ("parties", "pimc,heuristic", None, compiling.PIMC_COMPILE_S),
])
def test_a_simulation_whose_pimc_players_think_at_the_card_play_has_the_helper_decide_a_card(
        run, players, helper, estimate_s):
    from simcoinche.runs import partie

    if run == "simulate":
        plan = _plan(8, 1, "federal", players, 1, None, None, False, None)
    else:
        plan = partie._plan(8, 1, "federal", players, 1, None, None, None)
    assert plan.compile_helper == helper and plan.compile_estimate_s == estimate_s
    assert helper is None or W.BESIDE[helper] == "pimc card play"


def test_a_helper_compiles_into_the_cache_beside_and_is_stopped_after(helper_on):
    with W.compile_beside("advise"):
        (helper,) = _helpers()
        assert helper.name == "simcoinche compile helper (advise continuations)"
        # It compiles into the cache: a kernel's index appears once its machine code is
        # saved.
        deadline = time.monotonic() + 120
        while not list(helper_on.rglob("*.nbi")) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert list(helper_on.rglob("*.nbi")), "the helper compiled nothing"
        assert helper.is_alive()
    assert not helper.is_alive() and helper.exitcode == -signal.SIGTERM
    assert _helpers() == []


@pytest.mark.parametrize("case", ["off", "one core", "no job"])
def test_no_helper_when_turned_off_on_one_core_or_without_a_job(helper_on, monkeypatch,
                                                                 case):
    what = "advise"
    if case == "off":
        monkeypatch.setenv(W.HELPER_ENV, "0")
    elif case == "one core":
        monkeypatch.setattr(blocks, "usable_cores", lambda: 1)
    else:
        what = "match"  # (matches against colver's bots: no job)
    with W.compile_beside(what):
        assert _helpers() == []


def test_a_failing_helper_says_so_in_one_line(helper_on, monkeypatch, capfd):
    monkeypatch.setitem(W.BESIDE, "advise", "no such job")
    with W.compile_beside("advise"):
        (helper,) = _helpers()
        helper.join(timeout=120)
    assert helper.exitcode == 1
    err = capfd.readouterr().err
    assert err == ("simcoinche: the compile helper (no such job kernels) failed: "
                   "KeyError: 'no such job'; this command compiled its own\n")


def test_prepare_kernels_runs_the_helper_only_around_a_cold_compile():
    entered: list[str] = []

    @contextlib.contextmanager
    def helper(what):
        entered.append(what)
        yield

    class Kernel:  # a numba dispatcher as far as kernels_cached looks at one
        def __init__(self, signatures):
            self.signatures = signatures

    compiling.set_compile_helper(helper)
    try:
        out = io.StringIO()
        compiling.prepare_kernels("advise", [Kernel(["compiled"])], lambda: None, 5, out)
        assert entered == []
        compiling.prepare_kernels("advise", [Kernel([])], lambda: None, 5, out)
        assert entered == ["advise"]
        # A command that says which helper it wants (odds with an auction) gets that one.
        compiling.prepare_kernels("odds", [Kernel([])], lambda: None, 5, out,
                                  helper="odds --auction")
        assert entered == ["advise", "odds --auction"]
    finally:
        compiling.set_compile_helper(None)
    compiling.prepare_kernels("advise", [Kernel([])], lambda: None, 5, io.StringIO())
    assert entered == ["advise", "odds --auction"]


def _processes_with(marker: str) -> list[int]:
    """Processes whose environment contains ``marker`` (Linux /proc)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != os.getpid():
            with contextlib.suppress(OSError):
                if marker.encode() in (d / "environ").read_bytes():
                    pids.append(int(d.name))
    return pids


def test_ctrl_c_during_a_first_run_stops_the_command_and_its_helper(helper_on, tmp_path):
    # A cold simulate from the command line: the helper starts beside its compile; Ctrl-C
    # (to the whole process group, as a terminal sends it) stops both, no traceback.
    env = {**os.environ, "SIMCOINCHE_CACHE_DIR": str(helper_on)}
    out = tmp_path / "run.parquet"
    proc = subprocess.Popen(
        [sys.executable, "-m", "simcoinche", "simulate", "-n", "1000", "--out", str(out),
         "--no-progress"], cwd=REPO, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        # The command, multiprocessing's resource tracker and the helper.
        while len(_processes_with(str(helper_on))) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_processes_with(str(helper_on))) == 3, "no helper beside the command"
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "simcoinche: interrupted" and "Traceback" not in err
    assert not out.exists()
    deadline = time.monotonic() + 30
    while _processes_with(str(helper_on)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_with(str(helper_on)) == []


_STOPPED_AFTER_A_BAR = '''
import sys
import time
from pathlib import Path

from simcoinche.commands import warmup as W
from simcoinche.runs import blocks

MARK = Path(sys.argv[1])


def bar_then_wait():
    """A job that makes a progress bar, says so, and waits to be stopped."""
    from tqdm import tqdm

    tqdm(total=1, disable=True)
    MARK.write_text("bar")
    time.sleep(120)


# Module level: run again by the spawned helper, so that it knows the job too.
W.COMMANDS = W.COMMANDS + (("bar", bar_then_wait),)
W.BESIDE["advise"] = "bar"
blocks.usable_cores = lambda: 2

if __name__ == "__main__":
    with W.compile_beside("advise"):
        deadline = time.monotonic() + 120
        while not MARK.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    print("stopped after the bar" if MARK.exists() else "no bar")
'''


def test_a_helper_stopped_after_its_job_made_a_progress_bar_leaks_no_semaphore(tmp_path):
    # tqdm makes a lock across processes (a named semaphore) for every bar, even a
    # disabled one; a helper stopped with SIGTERM never unlinked it, and Python's resource
    # tracker warned of a leaked semaphore when the command ended (a cold `match`).
    script = tmp_path / "stopped_after_a_bar.py"
    script.write_text(_STOPPED_AFTER_A_BAR)
    env = {k: v for k, v in os.environ.items() if k != W.HELPER_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "mark")], env=env,
                          capture_output=True, text=True, timeout=300,
                          preexec_fn=default_sigint)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "stopped after the bar\n"
    assert "leaked semaphore" not in done.stderr
    assert done.stderr == ""


def _ctrl_c_here(seen: list[str]) -> None:
    """A Ctrl-C arriving in the caller's frame: note whether the console's handler
    deferred it or raised it."""
    from simcoinche.commands import cli

    try:
        cli._on_interrupt(signal.SIGINT, sys._getframe())
        seen.append("deferred")
    except KeyboardInterrupt:
        seen.append("raised")


def test_a_ctrl_c_where_python_would_drop_it_comes_again_instead_of_being_lost(
        monkeypatch):
    # LLVM calls Python back while it compiles (llvmlite's object cache hooks); a
    # KeyboardInterrupt raised there is printed as "Exception ignored on calling ctypes
    # callback function" and lost: a cold simulate went on after a Ctrl-C and ran in full.
    import ctypes
    import weakref
    from types import SimpleNamespace

    from llvmlite.binding.executionengine import ExecutionEngine

    from simcoinche.commands import cli

    later: list[str] = []
    monkeypatch.setattr(cli, "_send_interrupt_later",
                        lambda signum: later.append("again" if signum == signal.SIGINT
                                                    else signum))
    seen: list[str] = []

    class Engine:
        """What llvmlite's notify hook reads of its engine."""

        def _find_module_ptr(self, ptr):
            return "module"

        def _object_cache_notify(self, module, buf):
            # Python code LLVM's callback runs: a Ctrl-C arrives here.
            _ctrl_c_here(seen)

    buf = ctypes.create_string_buffer(b"object code")
    data = SimpleNamespace(contents=SimpleNamespace(
        module_ptr=1, buf_ptr=ctypes.addressof(buf), buf_len=len(buf.value)))
    ExecutionEngine._raw_object_cache_notify(Engine(), data)
    assert seen == ["deferred"] and later == ["again"]

    # Inside a finalizer (the collector runs __del__ at any allocation; Python prints
    # "Exception ignored in ... __del__" and drops what it raises): deferred too.
    class Finalized:
        def __del__(self):
            _ctrl_c_here(seen)

    Finalized()
    assert seen == ["deferred"] * 2 and later == ["again"] * 2
    # ... and inside a weakref.finalize callback (numba's cleanups are some).
    weakref.finalize(Engine(), _ctrl_c_here, seen)
    assert seen == ["deferred"] * 3 and later == ["again"] * 3
    # Anywhere else: a KeyboardInterrupt at once, as Python's own handler raises.
    _ctrl_c_here(seen)
    assert seen[-1] == "raised" and later == ["again"] * 3


def test_a_ctrl_c_in_llvmlites_binding_layer_comes_again_outside_it(monkeypatch):
    # llvmlite's wrappers take over an LLVM object right after the C call that hands it
    # over (ModuleRef.link_in): a KeyboardInterrupt in between left a wrapper that freed
    # the module again when collected, and a Ctrl-C during a cold simulate ended in a
    # segmentation fault after "simcoinche: interrupted" (seen 1 time in 10 under load).
    import llvmlite.binding.module

    from simcoinche.commands import cli

    later: list[str] = []
    monkeypatch.setattr(cli, "_send_interrupt_later",
                        lambda signum: later.append("again" if signum == signal.SIGINT
                                                    else signum))
    seen: list[str] = []
    # Code that runs as a function of llvmlite's binding layer (its file is the frame's).
    in_binding = compile("def link_in(seen):\n    ctrl_c_here(seen)\n",
                         llvmlite.binding.module.__file__, "exec")
    namespace: dict = {"ctrl_c_here": _ctrl_c_here}
    exec(in_binding, namespace)
    namespace["link_in"](seen)
    assert seen == ["deferred"] and later == ["again"]
    _ctrl_c_here(seen)
    assert seen == ["deferred", "raised"] and later == ["again"]


def test_a_ctrl_c_as_llvmlite_links_two_modules_leaves_its_wrappers_right(monkeypatch):
    # link_modules: LLVM frees the source module in the C call, then the wrapper marks it
    # as no longer its own. A KeyboardInterrupt in between left a wrapper that freed the
    # module again when collected (a segmentation fault at exit).
    import llvmlite.binding as llvm
    from llvmlite.binding import ffi

    from simcoinche.commands import cli

    later: list[str] = []
    monkeypatch.setattr(cli, "_send_interrupt_later",
                        lambda signum: later.append("again" if signum == signal.SIGINT
                                                    else signum))
    dst = llvm.parse_assembly("define i32 @f() {\n  ret i32 1\n}\n")
    src = llvm.parse_assembly("define i32 @g() {\n  ret i32 2\n}\n")
    link = ffi.lib.LLVMPY_LinkModules

    def link_then_ctrl_c(*args):
        err = link(*args)
        # A Ctrl-C arriving as the C call returns: the console's handler runs here.
        cli._on_interrupt(signal.SIGINT, sys._getframe())
        return err

    monkeypatch.setitem(ffi.lib._fntab, "LLVMPY_LinkModules", link_then_ctrl_c)
    try:
        dst.link_in(src)
    except KeyboardInterrupt:
        src.detach()  # (as link_modules would have: no second free in this process)
        raise AssertionError("the interrupt was raised between LLVM's free and the "
                             "wrapper's detach") from None
    assert src.closed and later == ["again"]
    assert dst.get_function("g").name == "g"


def test_after_the_command_a_ctrl_c_is_ignored():
    # An interrupt sent again by a timer that woke as the command ended, or a Ctrl-C
    # during the exit, would only print a traceback.
    code = ("import os, signal\n"
            "from simcoinche.commands import cli\n"
            "cli.main = lambda argv=None: 0\n"
            "status = cli.console([])\n"
            "os.kill(os.getpid(), signal.SIGINT)\n"
            "print('after', status, repr(signal.getsignal(signal.SIGINT)))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, preexec_fn=default_sigint)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout == "after 0 <Handlers.SIG_IGN: 1>\n"


def test_the_console_handles_ctrl_c_unless_it_is_ignored():
    # A process started with SIGINT ignored (a background job) keeps ignoring it.
    code = ("import signal, sys\n"
            "from simcoinche.commands import cli\n"
            "cli.main = lambda argv=None: print(repr(signal.getsignal(signal.SIGINT))) or 0\n"
            "cli.console([])\n")
    for preexec, expected in ((default_sigint, "_on_interrupt"),
                              (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
                               "Handlers.SIG_IGN")):
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                              text=True, timeout=120, preexec_fn=preexec)
        assert done.returncode == 0, done.stderr
        assert expected in done.stdout


def test_a_ctrl_c_sent_again_waits_while_the_main_thread_holds_it_back():
    # The main thread holds SIGINT back while numba writes a cache index (compile_lock):
    # the interrupt sent again must wait for it there, not reach another thread (the
    # timer thread, made before the main thread held it back, does not).
    code = ("import signal, time\n"
            "from simcoinche.commands import cli\n"
            "got = []\n"
            "signal.signal(signal.SIGINT, lambda s, f: got.append(s))\n"
            "cli._send_interrupt_later()\n"
            "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})\n"
            "time.sleep(0.5)\n"
            "print('held', len(got))\n"
            "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\n"
            "time.sleep(0.1)\n"
            "print('released', len(got))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, preexec_fn=default_sigint)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "held 0\nreleased 1\n"
