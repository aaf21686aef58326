"""One process at a time compiles a cached kernel; the others wait and load its machine code.

numba has no lock across processes: two processes that need the same kernel on a cold
cache (the two workers of the test suite, ``warmup --all``'s processes, the worker
processes of a match or of Dask) each compile it, at the same moment, for tens of seconds,
and each then writes the kernel's cache index (read, add its own entry, write back: the
last writer can drop the other's signature, which a third process then compiles again).

:func:`install` wraps two of numba's methods:

- ``Dispatcher.compile``: before it loads or compiles a signature of a function that has a
  disk cache (``cache=True``), it takes an exclusive ``flock`` on a lock file of that
  function and signature beside the function's cache index (``<index>.<signature
  hash>.lock``). A process that finds the lock taken waits until the holder is done, then
  finds the machine code in the cache and loads it (numba reads the index from disk at
  every load) instead of compiling it again. Other signatures of the same function are
  not held up (a compile holds its lock while it compiles its callees: a lock per
  function would make a process wait for a whole tree of another signature).
- ``Cache.save_overload``: the index is read, extended and written back under a lock of
  the function (``<index>.lock``), held for that write only.

Nothing changes in what is compiled or how: only who does it.

Rules that keep it free of deadlocks:

- the lock is taken while holding numba's global compiler lock (re-entrant), so within a
  process one thread at a time is in this code, and no thread can hold a file lock while
  waiting for the compiler lock;
- a process never waits for a lock it holds itself (a kernel compiling its callees, a
  recursive kernel): :data:`_HELD` records the locks the process holds;
- a kernel's compile takes its callees' locks inside its own. Two processes could each
  hold what the other waits for only if a callee's compile needed its caller's signature
  again through another function (a cycle across functions); no kernel here does, and
  numba compiles a function's own recursion inside one compile;
- ``flock`` locks belong to the open file: they are released when the process ends, even
  killed, so a crashed compile leaves no lock behind; a child forked while a lock is held
  closes its copy at once;
- a cache index and its data file are written with SIGTERM and SIGINT held back, so a
  helper process stopped meanwhile (:mod:`simcoinche.commands.warmup`) leaves no index
  entry without its data.

A signature already compiled or loaded in the process (numba's own fast path) takes no
lock. Functions without a disk cache (numba's own overloads, ``cache=False``) are left
as numba compiles them. On a system without ``fcntl`` (Windows), when the lock file
cannot be created (a lock folder that cannot be written: an unusable cache folder is
refused earlier, by :mod:`.cache_guard`) or its file system refuses locks, the compile goes
on without the lock, as numba alone would.

Written for numba 0.68's ``Dispatcher.compile(self, sig)`` and
``Cache.save_overload(self, sig, data)``: when numba lacks either, :func:`install` leaves
numba as it is and says why in :data:`NOT_INSTALLED`; when a cache no longer keeps its
index path where :func:`lock_path` reads it, no lock is taken. ``tests/test_compile_lock.py``
fails in both cases.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

#: Why the lock is not installed ("" when it is).
NOT_INSTALLED = ""

#: Lock files this process holds now: path -> open descriptor.
_HELD: dict[str, int] = {}

def _index_path(cache: Any) -> str | None:
    """The index file of a numba cache, or None (no disk cache)."""
    return getattr(getattr(cache, "_cache_file", None), "_index_path", None)


def lock_path(dispatcher: Any, args: tuple) -> str | None:
    """The lock file of one signature (``args``: numba types) of a dispatcher's disk
    cache, ``<its index file>.<hash of the signature>.lock``, or None when the function
    has no disk cache or a type of the signature names an object by its address (a
    function or class passed as an argument: another process would name it otherwise)."""
    index = _index_path(getattr(dispatcher, "_cache", None))
    if index is None:
        return None
    name = repr(tuple(args))
    if "0x" in name:
        return None
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    return f"{index}.{digest}.lock"


def _open_lock(path: str) -> int | None:
    """An open descriptor of the lock file (created with its directory), or None when
    it cannot be created."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        return None


@contextmanager
def _flocked(path: str) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (waiting for it) while inside; go on
    without it when the file cannot be created or the file system has no locks.

    The descriptor is closed (the lock released) whatever happens, an interrupt while
    waiting included; while held it is listed in :data:`_HELD`, so a child forked
    meanwhile closes its copy (:func:`_forget_in_child`) instead of keeping the lock.
    """
    import fcntl

    fd = _open_lock(path)
    if fd is None:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            locked = True
        except OSError:
            locked = False  # no locks on this file system: as numba alone would
        if locked:
            _HELD[path] = fd
        try:
            yield
        finally:
            _HELD.pop(path, None)
    finally:
        os.close(fd)  # (closing releases the flock)


def _forget_in_child() -> None:
    """After a fork: close the child's copies of the lock descriptors (the locks stay
    with the parent, which releases them when its compile ends)."""
    for fd in _HELD.values():
        with suppress(OSError):
            os.close(fd)
    _HELD.clear()


@contextmanager
def _no_termination() -> Iterator[None]:
    """SIGTERM and SIGINT held back while inside (delivered on the way out), so that a
    cache index and its data file are written together."""
    import signal

    held = {signal.SIGTERM, signal.SIGINT}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def install() -> None:
    """Wrap numba's ``Dispatcher.compile`` and ``Cache.save_overload`` with the locks.
    Idempotent."""
    global NOT_INSTALLED
    try:
        import fcntl  # noqa: F401  (POSIX only)

        from numba.core import caching, dispatcher, sigutils
        from numba.core.compiler_lock import global_compiler_lock

        original = dispatcher.Dispatcher.compile
        original_save = caching.Cache.save_overload
        normalize = sigutils.normalize_signature
    except (ImportError, AttributeError) as exc:
        NOT_INSTALLED = f"no cross-process compile lock here ({exc})"
        return
    if getattr(original, "_simcoinche_compile_lock", False):
        return

    def compile(self: Any, sig: Any) -> Any:
        with global_compiler_lock:
            args, _ = normalize(sig)
            path = lock_path(self, args)
            if path is None or tuple(args) in self.overloads or path in _HELD:
                # No disk cache, no name every process agrees on, compiled or loaded in
                # this process already, or its lock is ours already.
                return original(self, sig)
            # Waits while another process compiles this signature.
            with _flocked(path):
                return original(self, sig)

    def save_overload(self: Any, sig: Any, data: Any) -> Any:
        index = _index_path(self)
        if index is None:
            return original_save(self, sig, data)
        with _flocked(index + ".lock"), _no_termination():
            return original_save(self, sig, data)

    compile._simcoinche_compile_lock = True  # type: ignore[attr-defined]
    compile.__doc__ = original.__doc__
    save_overload.__doc__ = original_save.__doc__
    dispatcher.Dispatcher.compile = compile
    caching.Cache.save_overload = save_overload
    os.register_at_fork(after_in_child=_forget_in_child)
