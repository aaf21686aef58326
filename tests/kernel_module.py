"""A module of one cached kernel, for the tests that compile it in fresh interpreters of
their own (``kernel_mod.py`` in ``tmp_path``, with a numba cache of its own), and the
environment those interpreters run in."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

KERNEL = '''
from numba import njit


@njit(cache=True)
def plus_one(x):
    return x + 1
'''


def write_kernel_module(folder: Path) -> None:
    """``kernel_mod.py`` (:data:`KERNEL`) into ``folder``."""
    (folder / "kernel_mod.py").write_text(KERNEL)


def child_env(tmp_path: Path, **variables: str) -> dict[str, str]:
    """This process's environment without its cache folders, ``variables`` added, and
    ``tmp_path`` (the kernel module) and the repository on the path."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SIMCOINCHE_CACHE_DIR", "NUMBA_CACHE_DIR")}
    env.update(variables)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(REPO)])
    return env


#: Reads and reports the run ``sys.argv[1]`` (into ``sys.argv[2]``); prints its row count
#: first and the kernel modules loaded last.
READ_AND_REPORT = """
import sys
from simcoinche.commands.cli import main
from simcoinche.runs.results import read_results
print(len(read_results(sys.argv[1])))
assert main(['report', sys.argv[1], '--out', sys.argv[2]]) == 0
print(sorted(m for m in sys.modules if m.startswith('simcoinche._kernels.')))
"""


def read_and_report_with_an_unwritable_cache(run: Path, tmp_path: Path) -> tuple[int, list]:
    """Read and report ``run`` in a fresh interpreter whose kernel cache folder cannot be
    written (it names a file). Returns the rows read and the kernel modules loaded;
    asserts that it worked and wrote the report."""
    import ast
    import subprocess
    import sys

    (tmp_path / "afile").write_text("")
    out = subprocess.run([sys.executable, "-c", READ_AND_REPORT, str(run),
                          str(tmp_path / "report")], cwd=tmp_path,
                         env=child_env(tmp_path, SIMCOINCHE_CACHE_DIR=str(tmp_path / "afile"),
                                       HOME=str(tmp_path / "home")),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "report" / "report.md").stat().st_size > 0
    lines = out.stdout.splitlines()  # (the report's own line between the two)
    return int(lines[0]), ast.literal_eval(lines[-1])
