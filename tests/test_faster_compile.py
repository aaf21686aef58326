"""numba's inliner and SSA reconstruction without their repeated work
(:mod:`simcoinche._kernels.faster_compile`, issue 24).

Both must be installed on the numba the tests run with. The inliner must inline code as
numba's own does (each call site its own variables, nested helpers too, the stored IR
never modified by an inlining); the SSA reconstruction must give numba's own result,
statement for statement.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall, ssa
from numba.core.compiler import Flags, run_frontend
from numba.core.inline_closurecall import InlineWorker
from numba.core.registry import cpu_target

import simcoinche._kernels  # noqa: F401  (installs the faster passes)
from simcoinche._kernels import faster_compile
from simcoinche._kernels.bidder import fitted_action
from simcoinche._kernels.heuristic import heuristic_card
from simcoinche._kernels.rng import popcount32


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


def test_the_faster_passes_are_installed_on_the_numba_the_tests_run_with() -> None:
    import numba

    assert numba.__version__.startswith(faster_compile.NUMBA_SERIES)
    assert faster_compile.NOT_INSTALLED == ""
    assert getattr(InlineWorker, "_simcoinche_faster_compile", False)
    assert isinstance(inline_closurecall.copy, faster_compile._SharedMemoCopy)
    assert ssa._run_ssa is not faster_compile.NUMBA_ORIGINALS["run_ssa"]
    assert ssa._run_block_rewrite is not faster_compile.NUMBA_ORIGINALS["run_block_rewrite"]


def test_installing_twice_changes_nothing() -> None:
    before = (InlineWorker.inline_ir, InlineWorker.run_untyped_passes, ssa._run_ssa,
              ssa._run_block_rewrite, inline_closurecall.copy)
    faster_compile.install()
    assert (InlineWorker.inline_ir, InlineWorker.run_untyped_passes, ssa._run_ssa,
            ssa._run_block_rewrite, inline_closurecall.copy) == before


def test_each_inlined_site_computes_with_its_own_variables() -> None:
    xs = np.arange(-3, 12, dtype=np.int64)
    expected = []
    for x in xs.tolist():
        expected.append(_reference(x))
        y = x * 2
        twice = (y - 5 if y > 10 else y) + 5
        expected.append(_reference(x + 7) - twice)
    assert _four_sites(xs).tolist() == expected


@njit
def _two_popcounts(a, b):
    return popcount32(a) * 100 + popcount32(b)


@njit
def _three_popcounts(a):
    return popcount32(a) + popcount32(a >> 1) + popcount32(a >> 2)


def _stored(func) -> list:
    return [key for key in faster_compile.UNTYPED_IR if key[0] is func.py_func]


def test_a_kernel_inlined_at_several_sites_is_built_once_and_never_modified() -> None:
    assert _two_popcounts(0b1011, 0xFF) == 308
    built = _stored(popcount32)
    assert built
    stored = faster_compile.UNTYPED_IR[built[0]]
    snapshot = stored.copy()
    snapshot.blocks = copy.deepcopy(stored.blocks)
    # Three more sites in a new caller: no new build, and the stored IR is unchanged.
    assert _three_popcounts(0b1111) == 4 + 3 + 2
    assert _stored(popcount32) == built
    assert stored.equal_ir(snapshot)


def test_a_stored_kernel_ir_equals_numbas_own_build() -> None:
    _two_popcounts(1, 2)
    stored = faster_compile.UNTYPED_IR[_stored(popcount32)[0]]
    worker = InlineWorker(cpu_target.typing_context, cpu_target.target_context, {},
                          object(), Flags())
    numbas = faster_compile.NUMBA_ORIGINALS["run_untyped_passes"](worker,
                                                                   popcount32.py_func)
    assert stored.equal_ir(numbas)


def test_functions_outside_the_kernels_are_built_at_every_site_as_numba_does() -> None:
    _four_sites(np.arange(3, dtype=np.int64))
    assert _stored(_twice_plus) == [] and _stored(_nested) == []


def _loops_and_branches(xs, k):
    # Variables assigned in several blocks: SSA violators with phi nodes.
    total = 0
    best = -1
    for x in xs:
        y = x
        if x > k:
            y = x - k
            best = max(best, y)
        elif x < 0:
            y = -x
        total += y
    if best < 0:
        total = -total
    return total, best


def _statements(blocks) -> list[tuple[int, list[str]]]:
    return [(label, [str(stmt) for stmt in blocks[label].body]) for label in sorted(blocks)]


@pytest.mark.parametrize("function", [_loops_and_branches, heuristic_card.py_func,
                                      fitted_action.py_func],
                         ids=["loops_and_branches", "heuristic_card", "fitted_action"])
def test_ssa_reconstruction_gives_numbas_own_statements(function) -> None:
    blocks = run_frontend(function).blocks
    ours = ssa._run_ssa(copy.deepcopy(blocks))
    # numba's own: its _run_ssa with no block index in progress rewrites every block.
    numbas = faster_compile.NUMBA_ORIGINALS["run_ssa"](copy.deepcopy(blocks))
    assert _statements(ours) == _statements(numbas)
    # Something was renamed (a phi node at least), so the comparison is not vacuous.
    assert any("phi" in stmt for _, body in _statements(numbas) for stmt in body)
