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
