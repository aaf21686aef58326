"""The faster numba-level inliner (:mod:`simcoinche._kernels.inliner`, issue 24).

It must be installed on the numba the project pins, and inline code exactly as numba's own
inliner does: each call site its own variables, nested helpers too, the stored IR never
modified by an inlining.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.inline_closurecall import InlineWorker

import simcoinche._kernels  # noqa: F401  (installs the inliner)
from simcoinche._kernels import inliner


@njit(inline="always")
def _twice_plus(x, k):
    y = x * 2
    if y > 10:
        y -= k
    return y + k


@njit(inline="always")
def _nested(x):
    # Two sites of the same helper inside a helper that is itself inlined twice.
    a = _twice_plus(x, 1)
    b = _twice_plus(a, 3)
    return a * 100 + b


def _reference(x: int) -> int:
    def twice_plus(v: int, k: int) -> int:
        y = v * 2
        if y > 10:
            y -= k
        return y + k

    a = twice_plus(x, 1)
    return a * 100 + twice_plus(a, 3)


@njit
def _four_sites(xs):
    out = np.empty(xs.shape[0] * 2, dtype=np.int64)
    for i in range(xs.shape[0]):
        out[2 * i] = _nested(xs[i])
        out[2 * i + 1] = _nested(xs[i] + 7) - _twice_plus(xs[i], 5)
    return out


def test_the_faster_inliner_is_installed_on_the_pinned_numba() -> None:
    assert inliner.NOT_INSTALLED == ""
    assert getattr(InlineWorker, "_simcoinche_inliner", False)
    assert isinstance(__import__("numba.core.inline_closurecall",
                                 fromlist=["copy"]).copy, inliner._SharedMemoCopy)


def test_installing_twice_changes_nothing() -> None:
    before = (InlineWorker.inline_ir, InlineWorker.run_untyped_passes)
    inliner.install()
    assert (InlineWorker.inline_ir, InlineWorker.run_untyped_passes) == before


def test_each_inlined_site_computes_with_its_own_variables() -> None:
    xs = np.arange(-3, 12, dtype=np.int64)
    expected = []
    for x in xs.tolist():
        expected.append(_reference(x))
        y = x * 2
        twice = (y - 5 if y > 10 else y) + 5
        expected.append(_reference(x + 7) - twice)
    assert _four_sites(xs).tolist() == expected


def test_a_helper_inlined_at_several_sites_is_built_once() -> None:
    _four_sites(np.arange(3, dtype=np.int64))
    built = [key for key in inliner.UNTYPED_IR if key[0] is _twice_plus.py_func]
    # One build serves the three sites in _nested's IR and the one in _four_sites.
    assert len(built) == 1
    # The stored IR is never the one inlined: its blocks still end in a return.
    stored = inliner.UNTYPED_IR[built[0]]
    assert any(type(b.terminator).__name__ == "Return" for b in stored.blocks.values())
