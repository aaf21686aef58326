"""Command line: ``simcoinche <command> …``.

Each command lives in its own module of :mod:`simcoinche.commands`, which defines
``register(subparsers)``; the parser it adds sets ``func(args) -> int`` (exit status).
User errors (:class:`~simcoinche.rules.errors.InputError`) become one line on stderr and exit 2;
failures of the work itself (:class:`~simcoinche.rules.errors.RunError`) one line and exit 1.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import pkgutil
import signal
import sys
import threading
from types import FrameType
from typing import Any

from simcoinche._version import __version__
from simcoinche.rules.errors import InputError, SimcoincheError


class _StreamWriteError(OSError):
    """A write to standard output that failed, said as such (:class:`_NamedStdout`)."""


class _NamedStdout:
    """Standard output whose failed writes say so: ``cannot write standard output: No
    space left on device`` (``simcoinche profiles > /dev/full``), where the bare error
    named nothing. Everything else goes to the stream itself."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _named(self, exc: OSError) -> OSError:
        return _StreamWriteError(exc.errno, f"cannot write standard output: {exc.strerror}")

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise  # (a reader that went away: said by nobody, as before)
        except OSError as exc:
            raise self._named(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._named(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line (no usage dump) and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"simcoinche: error: {message}\n")
        raise SystemExit(2)

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse drops a failed write of --help or --version (exit 0, nothing shown):
        # here it reaches main, which says so in one line.
        if message:
            stream = file or sys.stderr
            try:
                stream.write(message)
                stream.flush()
            except _StreamWriteError:
                raise  # (already says which stream)
            except OSError as exc:
                what = "standard output" if stream is sys.stdout else "standard error"
                raise OSError(exc.errno, f"cannot write {what}: {exc.strerror}") from None


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every command module found in :mod:`simcoinche.commands`."""
    parser = _Parser(prog="simcoinche", description="Coinche (belote coinchée) simulator")
    parser.add_argument("--version", action="version", version=f"simcoinche {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    import simcoinche.commands as commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name == "cli":  # this module: the parser, not a command
            continue
        module = importlib.import_module(f"simcoinche.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``) and return its exit status.

    The console script calls it through :func:`console`; called from Python, it leaves
    the garbage collector as it is.
    """
    try:
        check_numba_environment()
        parser = build_parser()
        args = parser.parse_args(argv)
        status = args.func(args)
    except SimcoincheError as exc:
        sys.stderr.write(f"simcoinche: error: {exc}\n")
        return exc.exit_status
    except KeyboardInterrupt:
        sys.stderr.write("simcoinche: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except OSError as exc:
        # An OSError no command turned into an error of its own (a write that failed on a
        # full disk, …): one line, never a traceback.
        return _write_failed(exc)
    return int(status or 0)


#: numba's threading layers (``NUMBA_THREADING_LAYER``).
_THREADING_LAYERS = ("default", "safe", "forksafe", "threadsafe", "tbb", "omp", "workqueue")


def check_numba_environment() -> None:
    """The numba settings of the environment, checked as numba reads them, before it does:
    numba answers a bad one with a traceback (``NUMBA_NUM_THREADS=0``, an unknown or
    missing threading layer) or a warning holding one (a value that is not a number),
    or runs the kernels as slow Python that the facade cannot call
    (``NUMBA_DISABLE_JIT``).

    Raises
    ------
    InputError
        Naming the variable and its value.
    """
    threads = os.environ.get("NUMBA_NUM_THREADS")
    if threads is not None and (_as_int(threads) or 0) < 1:
        raise InputError(f"NUMBA_NUM_THREADS must be a whole number of threads >= 1, got "
                         f"{threads!r}")
    layer = os.environ.get("NUMBA_THREADING_LAYER")
    if layer is not None:
        # (numba lower-cases it, and takes nothing else away.)
        if layer.lower() not in _THREADING_LAYERS:
            raise InputError(f"NUMBA_THREADING_LAYER {layer!r} is not one of numba's: "
                             + ", ".join(_THREADING_LAYERS))
        if layer.lower() != "default":
            # A layer numba knows may still be missing here (tbb not installed): its
            # threads are started now, so that this says so, not a traceback later.
            from numba.np.ufunc import parallel

            try:
                parallel._launch_threads()
            except ValueError as exc:
                why = " ".join(line.strip() for line in str(exc).splitlines() if line.strip())
                raise InputError(f"NUMBA_THREADING_LAYER {layer!r}: {why}") from None
    jit = os.environ.get("NUMBA_DISABLE_JIT")
    if jit is not None and _as_int(jit) != 0:
        raise InputError(f"simcoinche needs numba's compiler: unset NUMBA_DISABLE_JIT "
                         f"(it is {jit!r})")


def _as_int(text: str) -> int | None:
    """``int(text)`` as numba reads its integer settings, None where that fails."""
    try:
        return int(text)
    except ValueError:
        return None


def _write_failed(exc: OSError) -> int:
    """One line for a failed write (naming its file, or standard output through
    :class:`_NamedStdout`), exit status 1."""
    where = f": {exc.filename}" if exc.filename else ""
    sys.stderr.write(f"simcoinche: error: {exc.strerror or exc}{where}\n")
    return 1


def _flush_stdout() -> int:
    """Flush standard output; 1 with one line if that fails (``> /dev/full``), else 0.
    After a failure stdout goes to the null device, so that Python's own flush at exit
    does not print a second error."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = 1
    except OSError as exc:
        # (Said as standard output's: console wraps it in _NamedStdout first.)
        status = _write_failed(exc)
    else:
        return 0
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return status


def _not_interruptible(frame: FrameType | None) -> bool:
    """Whether a KeyboardInterrupt raised in ``frame`` would be lost or would do harm:

    - ``frame`` runs in llvmlite's binding layer, or a function it calls. LLVM calls
      Python back there while it compiles (the object cache hooks), and an exception
      raised in such a callback is printed ("Exception ignored on calling ctypes callback
      function") and lost. And a wrapper there takes over an LLVM object right after the
      C call that hands it over (``link_in`` marks the module LLVM has just freed as no
      longer its own): interrupted in between, the wrapper frees the object again when
      it is collected, and the process dies of a segmentation fault (seen on a Ctrl-C
      during a cold ``simulate``);
    - or inside a finalizer (``__del__`` or a ``weakref.finalize`` callback, which the
      collector runs at any allocation: "Exception ignored in: <function
      ObjectRef.__del__ ...>" while numba compiles), or a function it calls.
    """
    # llvmlite's binding layer (its ctypes wrappers of LLVM's objects), once imported.
    binding = sys.modules.get("llvmlite.binding")
    binding_dir = os.path.dirname(binding.__file__) + os.sep if binding else None
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (code.co_name == "__call__"
                                         and code.co_filename.endswith("weakref.py")):
            # A finalizer, or a weakref.finalize callback (numba's cleanups are some).
            return True
        if binding_dir is not None and code.co_filename.startswith(binding_dir):
            return True
        frame = frame.f_back
    return False


#: The interrupts :func:`_send_interrupt_later` has scheduled (cancelled when the
#: command ends).
_LATER: list[threading.Timer] = []


def _send_interrupt_later(signum: int = signal.SIGINT) -> None:
    """The signal (SIGINT or SIGTERM) to the main thread again in 50 ms, from a timer
    thread. To the main thread
    only: where the main thread holds SIGINT back (a cache index being written,
    :mod:`simcoinche._kernels.compile_lock`), it waits there until released, instead of
    going to another thread and interrupting the write."""
    timer = threading.Timer(0.05, signal.pthread_kill,
                            (threading.main_thread().ident, signum))
    timer.daemon = True
    _LATER.append(timer)
    timer.start()


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGINT handler of the console: a KeyboardInterrupt, as Python's own, except where
    Python would drop it or it would leave llvmlite's wrappers wrong
    (:func:`_not_interruptible`; a command went on compiling and ran in full after a
    Ctrl-C, or died of a segmentation fault): there the interrupt comes again 50 ms later."""
    if _not_interruptible(frame):
        _send_interrupt_later(signum)
        return
    raise KeyboardInterrupt


def console(argv: list[str] | None = None) -> int:
    """Entry point of the ``simcoinche`` console script and of ``python -m simcoinche``:
    :func:`main` in a process that exits as soon as it returns.

    On a first run (an empty kernel cache), the commands compile part of their kernels in
    a second process meanwhile (:func:`simcoinche.commands.warmup.compile_beside`); a
    call of :func:`main` from Python spawns no process.

    A Ctrl-C that arrives where Python would drop the KeyboardInterrupt or where it would
    do harm (in llvmlite's binding layer, in a finalizer: :func:`_on_interrupt`) is
    delivered again 50 ms later, unless the command has ended by then (once it has, a
    Ctrl-C is ignored: the process is about to exit). SIGTERM is handled the same way, so
    that a killed run removes its unfinished output too.

    Two settings of Python's cyclic garbage collector, for that process only (calling
    :func:`main` from Python leaves the collector alone):

    - its first threshold goes from 700 to 10,000 allocations: importing numba and loading
      the cached kernels create a few million long-lived objects, which the default
      scans over and over (about 0.1 s of a warm start);
    - when the command is done, the objects left are frozen out of it (``gc.freeze``), so
      the interpreter's exit does not scan them all once more (about 0.25 s). Outputs are
      closed by then: nothing waits on a collection to be written.
    """
    if sys.stderr is None:
        # Started with standard error closed: its notices and errors go nowhere (the exit
        # status still tells), instead of each failing on a missing stream.
        sys.stderr = open(os.devnull, "w")  # (open for the process's life)
    if sys.stdout is None:
        # What a command prints (where its output went, its summary) has nowhere to go:
        # refused before any work.
        sys.stderr.write("simcoinche: error: standard output is closed\n")
        return 2
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # ("-" then reads an empty input)
    for stream in (sys.stdout, sys.stderr):
        # A terminal or pipe that cannot encode é or – (PYTHONIOENCODING=ascii, LC_ALL=C
        # without UTF-8): escaped, not a traceback.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    # A command's output that cannot be written says it is standard output that failed.
    sys.stdout = _NamedStdout(sys.stdout)
    gc.set_threshold(10_000, *gc.get_threshold()[1:])
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        # (Left alone when SIGINT is ignored, as in a background job.)
        signal.signal(signal.SIGINT, _on_interrupt)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        # SIGTERM (kill, a batch system's time limit) stops a command as Ctrl-C does: its
        # output removed, not left half-written (.partial), or a Dask run's parts kept.
        signal.signal(signal.SIGTERM, _on_interrupt)
    # A first run compiles beside itself, in a second process, kernels it needs later.
    from simcoinche.commands.warmup import compile_beside
    from simcoinche.runs.compiling import set_compile_helper

    set_compile_helper(compile_beside)
    try:
        try:
            status = main(argv)
        except SystemExit as exc:
            # --help, --version and usage errors end in argparse: their text is flushed
            # (and a failed write said) as any command's.
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        status = _flush_stdout() or status
    finally:
        # The command has ended: an interrupt from now on, a deferred one sent again
        # included (a timer already awake cannot be cancelled), would only print a
        # traceback.
        if signal.getsignal(signal.SIGINT) is _on_interrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        if signal.getsignal(signal.SIGTERM) is _on_interrupt:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for timer in _LATER:
            timer.cancel()
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(console())
