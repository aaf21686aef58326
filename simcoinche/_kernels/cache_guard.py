"""The compiled-kernel cache, checked: a folder that cannot be used is an error, a damaged
file is compiled again, and both are said.

Numba, left to itself, treats both silently or with a traceback:

- a cache folder it cannot write (a read-only home, ``SIMCOINCHE_CACHE_DIR`` naming a
  file) sends the kernels to ``__pycache__`` beside the sources or to ``~/.cache/numba``,
  out of the folder keyed by the sources' hash (:mod:`simcoinche._kernels`), or, where
  none of those is writable, fails with "no locator available";
- a truncated or damaged index (``.nbi``) or machine-code file (``.nbc``), left by a
  full disk or a copy cut short, fails every later run with a pickle traceback.

Here a kernel whose cache folder cannot be used is refused at its first compile (or
load) with :class:`KernelCacheError`, whose one-line message names the folder, the
reason and the variable to set; and a file that cannot be read back (truncated, or not
unpickling) is treated as missing (the kernel is compiled again and the file rewritten),
with one line on stderr naming it. (A machine-code file that unpickles but whose code is
damaged is beyond these wrappers: numba's rebuild of it is not guarded.)
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any


class KernelCacheError(OSError):
    """The compiled-kernel cache folder cannot be used."""


#: The damaged cache files met in this process (each said once).
DAMAGED: set[str] = set()


def folder_problem(path: str) -> str:
    """"" when ``path`` is a folder this process can create files in (made if missing),
    else the reason, as the system gives it."""
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".write-test-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return exc.strerror or str(exc)
    return ""


class _RefusingCache:
    """A kernel's cache where its folder cannot be used: loading or saving a compiled
    signature (the first compile) raises :class:`KernelCacheError` with ``problem``."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        self.cache_path = ""

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        raise KernelCacheError(self.problem)

    def save_overload(self, sig: Any, data: Any) -> None:
        raise KernelCacheError(self.problem)

    def flush(self) -> None:
        pass


def _damaged(path: str, exc: BaseException) -> None:
    """Say once that the cache file ``path`` could not be read."""
    if path in DAMAGED:
        return
    DAMAGED.add(path)
    if sys.stderr is not None:
        sys.stderr.write(f"simcoinche: the compiled-kernel cache file {path!r} was "
                         f"damaged ({type(exc).__name__}): compiling that kernel again\n")


def install(problem: str) -> None:
    """Wrap numba's ``Dispatcher.enable_caching`` (the folder check) and its cache files'
    ``_load_index`` / ``_load_data`` (damaged files read as missing). Idempotent.

    ``problem``: why this process's cache folder cannot be used ("" when it can, as
    :func:`simcoinche._kernels._configure_cache` found it), raised at every cached
    kernel's first compile."""
    from numba.core import caching, dispatcher

    original_enable = dispatcher.Dispatcher.enable_caching
    if getattr(original_enable, "_simcoinche_cache_guard", False):
        return
    load_index = caching.IndexDataCacheFile._load_index
    load_data = caching.IndexDataCacheFile._load_data

    def enable_caching(self: Any) -> Any:
        # Where the folder cannot be used, numba would pick another one, or raise "no
        # locator available" here, where the kernel is defined, when none is writable.
        # Instead the kernel's first compile (or load) says which folder and why.
        if problem:
            self._cache = _RefusingCache(problem)
            return None
        return original_enable(self)

    def _load_index(self: Any) -> Any:
        try:
            return load_index(self)
        except OSError:
            raise
        except Exception as exc:  # any unpickling failure: the file is damaged
            _damaged(self._index_path, exc)
            return {}

    def _load_data(self: Any, name: str) -> Any:
        try:
            return load_data(self, name)
        except OSError:
            raise
        except Exception as exc:  # numba's load() reads an OSError as "no entry"
            path = self._data_path(name)
            _damaged(path, exc)
            raise FileNotFoundError(path) from None

    enable_caching._simcoinche_cache_guard = True  # type: ignore[attr-defined]
    enable_caching.__doc__ = original_enable.__doc__
    dispatcher.Dispatcher.enable_caching = enable_caching
    caching.IndexDataCacheFile._load_index = _load_index
    caching.IndexDataCacheFile._load_data = _load_data
