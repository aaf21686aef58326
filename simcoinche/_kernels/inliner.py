"""A faster numba-level inliner: the same inlined code, built in less time (issue 24).

Every kernel helper marked ``inline="always"`` is copied into each caller by numba's
``InlineWorker`` (``numba.core.inline_closurecall``) before typing. Two costs of that
worker grow with the size of what is inlined, and our dispatchers inline large trees
(``choose_card`` holds the whole heuristic player, ``choose_action`` the random player
and its three auction checks):

* **the copies.** ``inline_ir`` deep-copies the callee's IR twice, one block at a time.
  Every variable refers to the function's scope, so each block's copy copies the whole
  scope again (every variable of the function): blocks × variables per copy. A cold
  ``simulate -n 1000`` spent about 12 s there.
* **the untyped passes.** ``inline_function`` runs the untyped pipeline on the callee's
  bytecode at every call site, and that pipeline inlines the callee's own inlinable
  helpers again, recursively: a helper deep in the tree is rebuilt once per path to it.

:func:`install` changes neither result:

* the copies of one ``inline_ir`` call share one deep-copy memo, so the scope is copied
  once per copy (:class:`_SharedMemoCopy`). The blocks of the copy then share one scope
  object, as the blocks of the IR they are copied from do;
* the untyped IR of a callee is built once per process and per compile option that the
  untyped pipeline reads (:func:`_untyped_ir`), and each call site gets it under a fresh
  function identity, as if it had been built again. ``inline_ir`` copies it before it
  changes anything, so the stored IR is never modified.

The kernels compute the same: the row hashes, the parties hashes and the Parquet file of
a cold ``simulate`` are unchanged (``benchmarks/README.md``, "Compile time, fifth cut").

If a numba release changes these internals, :func:`install` leaves numba as it is and
:data:`NOT_INSTALLED` says why; the first-run message of a command that compiles prints
it (the compile then takes longer, the results are the same), and
``tests/test_inliner.py`` fails on the numba the tests run with.
"""

from __future__ import annotations

import copy
from collections import defaultdict

#: Why the faster inliner is not installed ("" when it is).
NOT_INSTALLED = ""

#: The untyped IR of every inlined function built so far in this process, keyed by
#: (function, SSA, the compile options the untyped pipeline reads, the caller's locals).
UNTYPED_IR: dict = {}


class _SharedMemoCopy:
    """Stands for the ``copy`` module inside ``numba.core.inline_closurecall``.

    While :attr:`memo` is a dict (during one ``inline_ir`` call), ``deepcopy`` without a
    memo of its own uses it: the blocks copied one by one then share the copy of the
    scope, as one ``copy.deepcopy`` of all the blocks would. Outside such a call it is
    ``copy.deepcopy``.
    """

    def __init__(self) -> None:
        self.memo: dict | None = None

    def deepcopy(self, x, memo=None):
        if memo is None:
            memo = self.memo
        return copy.deepcopy(x, memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


def _flags_key(flags) -> tuple:
    """The compile options the untyped pipeline reads (its passes and theirs)."""
    parallel = getattr(flags, "auto_parallel", None)
    return (bool(getattr(flags, "no_rewrites", False)),
            getattr(parallel, "enabled", parallel) is True,
            bool(getattr(flags, "enable_looplift", False)))


def install() -> None:
    """Install the shared copy memo and the untyped-IR store into numba's inliner.

    Idempotent. Sets :data:`NOT_INSTALLED` instead of raising when numba's internals
    are not those this module was written for.
    """
    global NOT_INSTALLED
    try:
        from numba.core import bytecode
        from numba.core import inline_closurecall as icc

        worker = icc.InlineWorker
        original_inline_ir = worker.inline_ir
        original_untyped = worker.run_untyped_passes
        unique_ids = bytecode.FunctionIdentity._unique_ids
        if icc.copy is not copy and not isinstance(icc.copy, _SharedMemoCopy):
            raise AttributeError("inline_closurecall.copy is not the copy module")
    except (ImportError, AttributeError) as exc:
        import numba

        NOT_INSTALLED = f"numba {numba.__version__} changed its inliner ({exc})"
        return
    if getattr(worker, "_simcoinche_inliner", False):
        return
    shared_copy = _SharedMemoCopy()
    icc.copy = shared_copy
    def inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
        outer = shared_copy.memo
        shared_copy.memo = {}
        try:
            return original_inline_ir(self, caller_ir, block, i, callee_ir,
                                      callee_freevars, arg_typs=arg_typs)
        finally:
            shared_copy.memo = outer

    def run_untyped_passes(self, func, enable_ssa=False):
        key = (func, bool(enable_ssa), _flags_key(self.flags),
               frozenset((self.locals or {}).items()))
        built = UNTYPED_IR.get(key)
        if built is None:
            built = UNTYPED_IR[key] = original_untyped(self, func, enable_ssa)
        else:
            # What the pipeline run would have left on the shared flags.
            self.flags.enable_ssa = enable_ssa
        fresh = built.copy()
        fresh._definitions = defaultdict(
            list, {name: list(defs) for name, defs in built._definitions.items()})
        identity = copy.copy(built.func_id)
        identity.unique_id = next(unique_ids)
        identity.unique_name = f"{identity.func_qualname}${identity.unique_id}"
        fresh.func_id = identity
        return fresh

    worker.inline_ir = inline_ir
    worker.run_untyped_passes = run_untyped_passes
    worker._simcoinche_inliner = True
