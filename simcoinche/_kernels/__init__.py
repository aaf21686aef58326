"""Private numba kernels: the bottom layer of the house.

May import: numba and numpy only, and nothing of simcoinche outside ``_kernels`` (the
contracts of ``pyproject.toml``); every other layer may import them.

Every kernel takes numpy arrays and scalars only, reads the rule profile from the packed
``int32`` array built by :meth:`simcoinche.rules.profiles.Profile.pack` (layout in
:mod:`simcoinche._kernels.layout`), never from module globals, and allocates nothing per
card played. Bit layout of hands: see :mod:`simcoinche.rules.cards`.

Compiled-code cache: numba's ``cache=True`` checks only the source file of the function
it compiled, so a kernel that inlines another module's kernel would keep running stale
machine code after that other module changed. Unless ``NUMBA_CACHE_DIR`` is set, the
cache therefore lives in a directory keyed by a hash of every kernel source file
(``$SIMCOINCHE_CACHE_DIR`` or ``~/.cache/simcoinche``, then ``numba/<hash>``): any change
to any kernel starts from a fresh cache. A folder that cannot be used is an error at the
first compile, and a damaged cache file is compiled again, said on stderr
(:mod:`.cache_guard`), never a silent fallback or a traceback.

Compile time: importing this package installs a faster numba inliner, SSA
reconstruction and type inference (:mod:`.faster_compile`: the same code, built without
numba's repeated copies, rewrites and call resolutions) before any kernel is compiled,
and a lock across processes (:mod:`.compile_lock`): two processes that need the same
kernel on a cold cache no longer both compile it; one does, the other waits and loads it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def kernel_source_digest() -> str:
    """Hash of every kernel source file (names and contents), 16 hex digits."""
    digest = hashlib.sha256()
    for src in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(src.name.encode())
        digest.update(src.read_bytes())
    return digest.hexdigest()[:16]


def _configure_cache() -> str:
    """Point numba at the cache folder; return why it cannot be used ("" when it can),
    which the first compile says (:mod:`.cache_guard`) instead of numba falling back to
    another folder."""
    if numba.config.CACHE_DIR:
        # The user chose a cache location (NUMBA_CACHE_DIR).
        path, variable = numba.config.CACHE_DIR, "NUMBA_CACHE_DIR"
    else:
        base = os.environ.get("SIMCOINCHE_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".cache"),
            "simcoinche")
        path, variable = (os.path.join(base, "numba", kernel_source_digest()),
                          "SIMCOINCHE_CACHE_DIR")
        numba.config.CACHE_DIR = path
    problem = cache_guard.folder_problem(path)
    if problem:
        return (f"cannot write compiled kernels to {path!r} ({problem}); set {variable} "
                "to a writable folder")
    return ""


from simcoinche._kernels import cache_guard, compile_lock, faster_compile  # noqa: E402

_cache_problem = _configure_cache()
faster_compile.install()  # (before any kernel compiles)
compile_lock.install()
cache_guard.install(_cache_problem)
