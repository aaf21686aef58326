"""The compiled-kernel cache, checked (:mod:`simcoinche._kernels.cache_guard`): a folder
that cannot be used is a one-line error naming the variable to set, never a silent
fallback to another folder; a damaged cache file is compiled again and said, never a
traceback on every later run.

Each test runs fresh interpreters (the cache folder is chosen once per process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kernel_module import REPO, child_env, write_kernel_module

from simcoinche._kernels import cache_guard

# Calls plus_one; prints its result and its cache hits and misses as JSON.
_USER = '''
import json
import simcoinche._kernels
import kernel_mod
value = kernel_mod.plus_one(41)
stats = kernel_mod.plus_one.stats
print(json.dumps([value, sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]))
'''


def _run(code: str, tmp_path: Path, **env_vars: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                          env=child_env(tmp_path, **env_vars),
                          capture_output=True, text=True, timeout=300)


def test_folder_problem_names_the_reason_or_nothing(tmp_path):
    (tmp_path / "afile").write_text("")
    assert cache_guard.folder_problem(str(tmp_path / "new" / "folder")) == ""
    assert (tmp_path / "new" / "folder").is_dir()
    assert list((tmp_path / "new" / "folder").iterdir()) == []  # the probe is removed
    assert cache_guard.folder_problem(str(tmp_path / "afile" / "x")) == "Not a directory"


def test_a_cache_folder_that_cannot_be_used_is_one_line_naming_the_variable(tmp_path):
    """SIMCOINCHE_CACHE_DIR naming a file: the run stopped at its first kernel with the
    folder, the reason and the variable (numba had compiled into __pycache__ beside the
    sources, silently)."""
    (tmp_path / "afile").write_text("")
    before = set(REPO.rglob("*.nbi"))
    out = _run("import sys; from simcoinche.commands.cli import main; "
               "sys.exit(main(['simulate', '-n', '20', '--threads', '1', '--out', 'r.parquet']))",
               tmp_path, SIMCOINCHE_CACHE_DIR=str(tmp_path / "afile"),
               HOME=str(tmp_path / "home"))
    assert out.returncode == 1
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("simcoinche: error: cannot write compiled kernels to "
                               f"'{tmp_path / 'afile'}/numba/")
    assert lines[0].endswith("(Not a directory); set SIMCOINCHE_CACHE_DIR to a writable "
                             "folder")
    assert not (tmp_path / "r.parquet").exists()
    # Nothing compiled elsewhere instead: beside the sources, or numba's own user folder.
    assert set(REPO.rglob("*.nbi")) == before
    assert not list(tmp_path.rglob("*.nbi"))


def test_numba_cache_dir_that_cannot_be_used_is_named_as_such(tmp_path):
    (tmp_path / "afile").write_text("")
    write_kernel_module(tmp_path)
    out = _run(_USER, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "afile" / "c"))
    assert out.returncode == 1
    assert ("KernelCacheError: cannot write compiled kernels to "
            f"'{tmp_path / 'afile' / 'c'}' (Not a directory); set NUMBA_CACHE_DIR to a "
            "writable folder") in out.stderr


def test_a_damaged_cache_file_is_compiled_again_and_said_once(tmp_path):
    """A truncated index (a full disk, a copy cut short) failed every later run with a
    pickle traceback; now the kernel is compiled again, once, and the file rewritten."""
    write_kernel_module(tmp_path)
    cache = tmp_path / "cache"
    first = _run(_USER, tmp_path, NUMBA_CACHE_DIR=str(cache))
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == [42, 0, 1]
    (index,) = cache.rglob("kernel_mod.plus_one-*.nbi")
    index.write_bytes(index.read_bytes()[:-20])
    second = _run(_USER, tmp_path, NUMBA_CACHE_DIR=str(cache))
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout) == [42, 0, 1]
    assert second.stderr == (f"simcoinche: the compiled-kernel cache file '{index}' was "
                             "damaged (UnpicklingError): compiling that kernel again\n")
    third = _run(_USER, tmp_path, NUMBA_CACHE_DIR=str(cache))
    assert third.returncode == 0 and third.stderr == ""
    assert json.loads(third.stdout) == [42, 1, 0]      # healed: loaded from the cache


def test_a_damaged_machine_code_file_is_compiled_again(tmp_path):
    write_kernel_module(tmp_path)
    cache = tmp_path / "cache"
    assert _run(_USER, tmp_path, NUMBA_CACHE_DIR=str(cache)).returncode == 0
    (data,) = cache.rglob("kernel_mod.plus_one-*.nbc")
    data.write_bytes(data.read_bytes()[:50])
    again = _run(_USER, tmp_path, NUMBA_CACHE_DIR=str(cache))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == [42, 0, 1]
    assert f"cache file '{data}' was damaged" in again.stderr
