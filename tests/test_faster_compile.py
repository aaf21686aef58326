"""numba's inliner, SSA reconstruction and type inference without their repeated work
(:mod:`simcoinche._kernels.faster_compile`, issue 24).

All three must be installed on the numba the tests run with. The inliner must inline code
as numba's own does (each call site its own variables, nested helpers too, the stored IR
never modified by an inlining); the SSA reconstruction must give numba's own result,
statement for statement; type inference must give numba's own types, variable for
variable and call for call, recursive calls included.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest
from numba import njit, types
from numba.core import inline_closurecall, ir, ssa, typeinfer
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
    assert typeinfer.CallConstraint.resolve is not faster_compile.NUMBA_ORIGINALS["resolve"]


def test_installing_twice_changes_nothing() -> None:
    before = (InlineWorker.inline_ir, InlineWorker.run_untyped_passes, ssa._run_ssa,
              ssa._run_block_rewrite, inline_closurecall.copy, typeinfer.CallConstraint.resolve)
    faster_compile.install()
    assert (InlineWorker.inline_ir, InlineWorker.run_untyped_passes, ssa._run_ssa,
            ssa._run_block_rewrite, inline_closurecall.copy,
            typeinfer.CallConstraint.resolve) == before


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


def _calls_twice_plus(x):
    return _twice_plus(x, 3) + 1


def test_inline_ir_copies_the_inlined_ir_once_and_returns_no_second_copy(monkeypatch) -> None:
    worker = InlineWorker(cpu_target.typing_context, cpu_target.target_context, {},
                          object(), Flags())
    callee_blocks = len(worker.run_untyped_passes(_twice_plus.py_func).blocks)
    caller = run_frontend(_calls_twice_plus)
    block, index = next(
        (block, k) for block in caller.blocks.values() for k, stmt in enumerate(block.body)
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr)
        and stmt.value.op == "call")
    copied = []
    real_deepcopy = copy.deepcopy

    def counting_deepcopy(x, memo=None, _nil=[]):  # noqa: B006  (copy.deepcopy's own)
        if isinstance(x, ir.Block):
            copied.append(x)
        return real_deepcopy(x, memo, _nil)

    monkeypatch.setattr(copy, "deepcopy", counting_deepcopy)
    unchanged, blocks, _, new_blocks = worker.inline_function(caller, block, index,
                                                             _twice_plus.py_func)
    monkeypatch.undo()
    # numba copies the callee's blocks twice, the second time only to return them.
    assert len(copied) == callee_blocks
    assert unchanged is None
    assert new_blocks and all(label in caller.blocks for label, _ in new_blocks)
    assert all(label in caller.blocks for label in blocks)


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


# Type inference. Each source below is compiled twice, as two functions of their own
# (a recursive call must name the dispatcher being compiled): once with the faster type
# inference, once with numba's own.

_RECURSIVE = """
def NAME(cards, points, alpha, beta):
    # A small alpha-beta on a bitboard, recursive as dd._search is.
    if cards == 0:
        return points
    best = -1000
    rest = cards
    while rest:
        low = rest & -rest
        rest ^= low
        card = 0
        while (low >> card) != 1:
            card += 1
        v = -NAME(cards ^ low, -points - (card & 3), -beta, -max(alpha, best))
        if v > best:
            best = v
        if best >= beta:
            break
    return best
"""

_WIDENING_RECURSION = """
def NAME(n, x):
    # Its return type is int64 on the first path and float64 on the second: a call on
    # itself is typed int64 in the first round, float64 once the second path is typed.
    if n <= 0:
        return 0
    v = NAME(n - 1, x)
    return v + x * 0.5
"""

_LIST_WIDENING = """
def NAME(n):
    # ``list()`` returns an imprecise type: numba types the call with its target's type,
    # List(int64) in one round, List(float64) once ``x`` is a float64.
    items = list()
    x = 1
    for i in range(n):
        items.append(x)
        x = x + 0.5
    return len(items), items[0]
"""

_LOOPS = """
def NAME(xs, k):
    # ``acc`` is an int64 in the first round, a float64 from the second: ``acc // 2``
    # changes type between rounds.
    acc = 0
    best = -1.0
    count = np.int64(0)
    for i in range(xs.shape[0]):
        half = acc // 2
        acc = half + xs[i] * k
        if acc > best:
            best = acc / 3
        elif acc < 0:
            count += 1
    return acc, best, count
"""


def _compiled_typings(source: str, name: str, signature, numbas: bool) -> list:
    """Compile ``source`` as a new function ``name`` for ``signature``, with numba's own
    call resolution or the faster one; return what each type inference found (function,
    each variable's type, the return type, each call's signature), with the names and
    addresses of the functions themselves left out."""
    namespace: dict = {"np": np, "max": max, "min": min}
    exec(source.replace("NAME", name), namespace)
    dispatcher = njit(namespace[name])
    namespace[name] = dispatcher
    found = []
    original_unify = typeinfer.TypeInferer.unify

    def unify(self, raise_errors=True):
        typemap, return_type, calltypes = original_unify(self, raise_errors)
        if self.func_id.func_name == name:
            def plain(text: str) -> str:
                return re.sub(r"<function \S+ at 0x[0-9a-f]+>|" + name, "F", text)

            found.append((sorted((var, plain(str(ty))) for var, ty in typemap.items()),
                          str(return_type),
                          sorted((plain(str(call)), plain(str(sig)))
                                 for call, sig in calltypes.items())))
        return typemap, return_type, calltypes

    faster = typeinfer.CallConstraint.resolve
    original_partial = typeinfer.TypeInferer.return_types_from_partial

    def partial(self):
        # A copy of the function typed to type a call on itself.
        found.append("typed again for a call on itself")
        return original_partial(self)

    try:
        typeinfer.TypeInferer.unify = unify
        typeinfer.TypeInferer.return_types_from_partial = partial
        if numbas:
            typeinfer.CallConstraint.resolve = faster_compile.NUMBA_ORIGINALS["resolve"]
        dispatcher.compile(signature)
    finally:
        typeinfer.TypeInferer.unify = original_unify
        typeinfer.TypeInferer.return_types_from_partial = original_partial
        typeinfer.CallConstraint.resolve = faster
    return found


@pytest.mark.parametrize(("source", "signature"), [
    (_RECURSIVE, types.int64(types.int64, types.int64, types.int64, types.int64)),
    (_RECURSIVE, (types.int64, types.int64, types.int64, types.int64)),
    (_WIDENING_RECURSION, types.float64(types.int64, types.float64)),
    (_WIDENING_RECURSION, (types.int64, types.float64)),
    (_LIST_WIDENING, (types.int64,)),
    (_LOOPS, (types.float64[::1], types.int64)),
], ids=["recursive-return-type-given", "recursive-return-type-inferred",
        "recursive-widening-return-type-given", "recursive-widening-return-type-inferred",
        "imprecise-return-type-widening", "loops-types-widening"])
def test_type_inference_gives_numbas_own_types(source, signature) -> None:
    tag = abs(hash((source, str(signature))))
    before = faster_compile.CALLS_NOT_RESOLVED_AGAIN
    ours = _compiled_typings(source, f"ours_{tag}", signature, numbas=False)
    skipped = faster_compile.CALLS_NOT_RESOLVED_AGAIN - before
    numbas = _compiled_typings(source, f"numbas_{tag}", signature, numbas=True)
    assert faster_compile.CALLS_NOT_RESOLVED_AGAIN - before == skipped
    typings = [found for found in ours if not isinstance(found, str)]
    assert typings and typings == [found for found in numbas if not isinstance(found, str)]
    # Some calls were left as they were, so the comparison is not vacuous.
    assert skipped > 0


def test_a_call_on_itself_is_not_typed_again_while_the_returned_types_stay() -> None:
    signature = types.int64(types.int64, types.int64, types.int64, types.int64)
    ours = _compiled_typings(_RECURSIVE, "ours_again", signature, numbas=False)
    numbas = _compiled_typings(_RECURSIVE, "numbas_again", signature, numbas=True)
    again = "typed again for a call on itself"
    assert 0 < ours.count(again) < numbas.count(again)
