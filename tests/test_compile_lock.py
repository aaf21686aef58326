"""One process at a time compiles a cached kernel (:mod:`simcoinche._kernels.compile_lock`,
issue 24).

Each test runs fresh interpreters on a kernel module of its own (in ``tmp_path``, with its
own numba cache), and a holder process that takes a lock first: the processes started
next must wait for it (still running while it is held), then one compiles and the others
load what it cached.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from kernel_module import child_env, write_kernel_module

import simcoinche._kernels  # noqa: F401  (installs the lock)
from simcoinche._kernels import compile_lock

# Takes the lock the argument names (``compile`` for plus_one's int64 signature,
# ``save`` for its cache index), says so, and keeps it until a line comes on stdin.
_HOLDER = '''
import fcntl, os, sys
import simcoinche._kernels
from numba import types
from simcoinche._kernels import compile_lock
import kernel_mod
path = compile_lock.lock_path(kernel_mod.plus_one, (types.int64,))
if sys.argv[1] == "save":
    path = compile_lock._index_path(kernel_mod.plus_one._cache) + ".lock"
fd = compile_lock._open_lock(path)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
'''

# Calls plus_one on the argument's type; prints "ready" first, then its cache hits and
# misses and the time it was done, as JSON.
_USER = '''
import json, sys, time
import simcoinche._kernels
import kernel_mod
print("ready", flush=True)
kernel_mod.plus_one(1.5 if sys.argv[1] == "float" else 1)
stats = kernel_mod.plus_one.stats
print(json.dumps([sum(stats.cache_hits.values()), sum(stats.cache_misses.values()),
                  time.time()]))
'''


def _start(code: str, arg: str, tmp_path: Path) -> subprocess.Popen:
    env = child_env(tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.Popen([sys.executable, "-c", code, arg], cwd=tmp_path, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_held_then_release(lock: str, users: list[str], tmp_path: Path) -> list[list[int]]:
    """Hold ``lock``, start one user per entry of ``users`` (its argument), check that
    each waits while the lock is held, release it; each user's [cache hits, misses]."""
    write_kernel_module(tmp_path)
    holder = _start(_HOLDER, lock, tmp_path)
    procs: list[subprocess.Popen] = []
    try:
        assert holder.stdout.readline().strip() == "held", holder.stderr.read()
        procs = [_start(_USER, arg, tmp_path) for arg in users]
        for p in procs:
            assert p.stdout.readline().strip() == "ready", p.stderr.read()
        time.sleep(2.0)
        # A compile of a few tenths of a second: still running two seconds later means
        # waiting for the lock, and done only after it is released.
        assert all(p.poll() is None for p in procs)
        released = time.time()
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=60) == 0, holder.stderr.read()
        results = []
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0, err
            hits, misses, done = json.loads(out.strip().splitlines()[-1])
            assert done > released
            results.append([hits, misses])
        return results
    finally:
        for p in [holder, *procs]:
            if p.poll() is None:
                p.kill()
                p.wait()


def test_the_lock_is_installed_on_this_numba():
    assert compile_lock.NOT_INSTALLED == ""


def test_two_processes_needing_one_kernel_on_a_cold_cache_compile_it_once(tmp_path):
    # Both wait while the signature's lock is held; then one compiles, the other loads.
    results = _wait_held_then_release("compile", ["int", "int"], tmp_path)
    assert sorted(results) == [[0, 1], [1, 0]]


def test_two_signatures_written_at_once_both_stay_in_the_cache_index(tmp_path):
    # Two processes compile two signatures and write the one index one after the other
    # (both wait while the index's lock is held): a third process loads both.
    results = _wait_held_then_release("save", ["int", "float"], tmp_path)
    assert results == [[0, 1], [0, 1]]
    for arg in ("int", "float"):
        p = _start(_USER, arg, tmp_path)
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])[:2] == [1, 0]


_MUTUAL = '''
from numba import njit


@njit(cache=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@njit(cache=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)
'''


def test_kernels_that_call_each_other_compile_under_the_lock_without_waiting_on_themselves(
        tmp_path):
    # Each compile holds its lock while its callee compiles, and the callee calls it back.
    (tmp_path / "mutual.py").write_text(_MUTUAL)
    p = _start("import simcoinche._kernels, mutual; print(mutual.is_even(10))", "",
               tmp_path)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert out.strip() == "True"


# Holds a lock, forks a child that sleeps (once it is up), leaves the lock, and reports
# whether another open of the lock file can take it while the child still lives.
_FORK = '''
import fcntl, os, time
from simcoinche._kernels import compile_lock
path = os.path.join(os.getcwd(), "forked.lock")
r, w = os.pipe()
with compile_lock._flocked(path):
    assert path in compile_lock._HELD
    child = os.fork()
    if child == 0:
        os.write(w, b"up")  # (the fork handlers have run)
        time.sleep(3)
        os._exit(0 if not compile_lock._HELD else 1)
    assert os.read(r, 2) == b"up"
fd = os.open(path, os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("free")
except BlockingIOError:
    print("kept by the child")
_, status = os.waitpid(child, 0)
print(os.waitstatus_to_exitcode(status))
'''


def test_a_child_forked_while_a_lock_is_held_does_not_keep_it(tmp_path):
    p = _start(_FORK, "", tmp_path)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert out.split() == ["free", "0"]
