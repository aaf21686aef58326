"""Three of numba's compile passes without their repeated work: same code, less time
(issue 24).

The three grow worse than linearly with the size of a function, and our dispatchers
are large: every helper marked ``inline="always"`` is copied into each caller, so
``choose_card`` holds the whole heuristic player and ``choose_action`` the random player
with its three auction checks. :func:`install` changes no pass's result.

**The inliner** (``InlineWorker`` in ``numba.core.inline_closurecall``):

* ``inline_ir`` deep-copies the callee's IR twice, one block at a time. Every variable
  refers to the function's scope, so each block's copy copies the whole scope again
  (every variable of the function): blocks × variables per copy. Here the copies of one
  ``inline_ir`` call share one deep-copy memo (:class:`_SharedMemoCopy`): the scope is
  copied once per copy, and the copied blocks share it, as the blocks copied from do.
* ``inline_ir`` then copies its copy again, only to return it as "the callee's IR,
  unchanged"; numba's inlining passes, its only callers, discard it. Here that copy is
  not made: the wrapper returns None in its place.
* ``inline_function`` runs the untyped pipeline on the callee's bytecode at every call
  site, and that pipeline inlines the callee's own helpers again, recursively. Here the
  untyped IR of one of *our* kernels (a function of ``simcoinche._kernels``) is built
  once per process, per kind of typing and target context and per compile option the
  pipeline reads (:data:`UNTYPED_IR`); each call site gets a copy of its blocks under a
  fresh function identity. ``inline_ir`` deep-copies it before changing anything, so the
  stored IR is never modified. Other functions are built at every site, as numba does
  (the stored IR holds the globals a kernel saw at its first build; our kernels' globals
  are constants).

**SSA reconstruction** (``numba.core.ssa``): for each variable assigned more than once,
``_run_ssa`` rewrites every block of the function twice (fresh names for its
definitions, then each use tied to its reaching definition), statement by statement.
A block that never mentions the variable comes out of both rewrites with the same
statements (the handlers return them unchanged; numba may still prepend phi nodes to it
afterwards, placed from the uses found in other blocks), so here such blocks are copied
as they are; the blocks that mention it are rewritten by
numba's own code, in the same order.

**Type inference** (``numba.core.typeinfer``): numba propagates types in rounds until
nothing changes, and every round resolves *every* call of the function again (an
operator is a call), though most calls' inputs have not changed since the round before
(its ``ConstraintNetwork`` says so in a to-do). A call of a function on itself inside its
own compile (``RecursiveCall``, the DD solver's ``_search``) is worse: each resolution
types a copy of the whole function again, to learn its return type. Here a call
constraint is not resolved again while everything its resolution reads is as it was right
after its last successful resolution (:data:`CALLS_NOT_RESOLVED_AGAIN` counts them): the
function type (precise), the argument types (precise), the target variable's type (numba
gives an imprecise return type the target's), and for a call of a function on itself
(only where its return type is locked by its signature) the types of the values the
function returns, from which that copy takes its return type. Its signature and the
target's type are then those numba would find again. Not for a dispatcher's call, whose
typing compiles the callee (which may be in progress).

The IR is equivalent, statement for statement: only label numbers and the counters in
the names of inlined variables can differ (a stored IR does not advance numba's label and
identity counters again). The types inferred are the same, variable for variable and
call for call (``tests/test_faster_compile.py``). The kernels compute the same: the row
hashes, the parties hashes and the Parquet file of a cold ``simulate`` are unchanged
(``benchmarks/README.md``, "Compile time, fifth cut" and "twelfth cut").

Every patched step runs inside numba's compiles, which hold its global compiler lock;
the inliner's and SSA's wrappers take that (re-entrant) lock themselves too, so their
process-wide state is never touched by two threads at once.

They are written for numba 0.68 (:data:`NUMBA_SERIES`). On any other numba, or if these
internals are missing, :func:`install` leaves numba as it is and :data:`NOT_INSTALLED`
says why; the first-run message of a command that compiles prints it (the compile then
takes longer, the results are the same), and ``tests/test_faster_compile.py`` fails on
the numba the tests run with.
"""

from __future__ import annotations

import copy
import itertools
from collections import defaultdict

#: The numba release series these patches were written and checked for.
NUMBA_SERIES = "0.68."

#: Why the faster compile passes are not installed ("" when they are).
NOT_INSTALLED = ""

#: The untyped IR of every inlined kernel built so far in this process, keyed by
#: (function, SSA, the kinds of typing and target context, the compile options the
#: untyped pipeline reads, the caller's locals).
UNTYPED_IR: dict = {}

#: Call constraints left as they were because their inputs had not changed (for tests).
CALLS_NOT_RESOLVED_AGAIN = 0

#: numba's own functions that :func:`install` wrapped or replaced, by name (for tests).
NUMBA_ORIGINALS: dict = {}


class _SharedMemoCopy:
    """Stands for the ``copy`` module inside ``numba.core.inline_closurecall``.

    While :attr:`memo` is a dict (during one ``inline_ir`` call), ``deepcopy`` without a
    memo of its own uses it: the blocks copied one by one then share the copy of the
    scope, as one ``copy.deepcopy`` of all the blocks would. Outside such a call it is
    ``copy.deepcopy``.
    """

    def __init__(self) -> None:
        self.memo: dict | None = None
        # Blocks ``inline_ir`` still copies for the IR it inlines; then None again.
        self.blocks_to_copy: int | None = None

    def deepcopy(self, x, memo=None):
        if self.blocks_to_copy is not None:
            if self.blocks_to_copy == 0:
                # ``inline_ir``'s second copy, of the IR it has just copied, made only to
                # be returned: the block itself (the wrapper returns None for that IR).
                return x
            self.blocks_to_copy -= 1
        if memo is None:
            memo = self.memo
        return copy.deepcopy(x, memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


def _flags_key(flags) -> tuple:
    """The compile options the untyped pipeline reads (its passes and theirs): the
    rewrites switch, every parallel option (closure inlining reads several), loop
    lifting."""
    parallel = getattr(flags, "auto_parallel", None)
    values = getattr(parallel, "_get_values", None)
    return (bool(getattr(flags, "no_rewrites", False)),
            tuple(sorted(values().items())) if values is not None else repr(parallel),
            bool(getattr(flags, "enable_looplift", False)))


def _is_kernel(func) -> bool:
    """Whether ``func`` is one of our kernels (the only functions whose IR is stored)."""
    return (getattr(func, "__module__", None) or "").startswith("simcoinche._kernels")


def _names_by_label(blocks) -> dict:
    """Each block label's set of the variable names its statements mention."""
    return {label: {var.name for stmt in block.body for var in stmt.list_vars()}
            for label, block in blocks.items()}


def install() -> None:
    """Install the faster inliner, SSA reconstruction and type inference into numba.

    Idempotent. Sets :data:`NOT_INSTALLED` instead of raising when numba's internals
    are not those this module was written for (then nothing is changed).
    """
    global NOT_INSTALLED
    import numba

    if not numba.__version__.startswith(NUMBA_SERIES):
        NOT_INSTALLED = (f"written for numba {NUMBA_SERIES}x, this is numba "
                         f"{numba.__version__}")
        return
    try:
        from numba.core import inline_closurecall as icc
        from numba.core import ssa
        from numba.core.compiler_lock import global_compiler_lock

        worker = icc.InlineWorker
        if getattr(worker, "_simcoinche_faster_compile", False):
            return
        original_inline_ir = worker.inline_ir
        original_untyped = worker.run_untyped_passes
        if icc.copy is not copy:
            raise AttributeError("inline_closurecall.copy is not the copy module")
        original_run_ssa = ssa._run_ssa
        original_rewrite = ssa._run_block_rewrite
        from numba.core import ir, typeinfer, types

        original_resolve = typeinfer.CallConstraint.resolve
        fold_arg_vars = typeinfer.fold_arg_vars
        types.RecursiveCall  # noqa: B018  (read below)
    except (ImportError, AttributeError) as exc:
        NOT_INSTALLED = f"numba {numba.__version__} changed its compiler ({exc})"
        return
    NUMBA_ORIGINALS.update(inline_ir=original_inline_ir, run_untyped_passes=original_untyped,
                           run_ssa=original_run_ssa, run_block_rewrite=original_rewrite,
                           resolve=original_resolve)
    shared_copy = _SharedMemoCopy()

    def inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
        with global_compiler_lock:
            outer = (shared_copy.memo, shared_copy.blocks_to_copy)
            shared_copy.memo = {}
            shared_copy.blocks_to_copy = len(callee_ir.blocks)
            try:
                _, blocks, var_dict, new_blocks = original_inline_ir(
                    self, caller_ir, block, i, callee_ir, callee_freevars,
                    arg_typs=arg_typs)
            finally:
                shared_copy.memo, shared_copy.blocks_to_copy = outer
        # numba's first result is an unchanged copy of the callee's IR, which its callers
        # (the inlining passes) discard: not made (None).
        return None, blocks, var_dict, new_blocks

    def run_untyped_passes(self, func, enable_ssa=False):
        if not _is_kernel(func):
            return original_untyped(self, func, enable_ssa)
        key = (func, bool(enable_ssa), type(self.typingctx), type(self.targetctx),
               _flags_key(self.flags), frozenset((self.locals or {}).items()))
        with global_compiler_lock:
            built = UNTYPED_IR.get(key)
            if built is None:
                built = UNTYPED_IR[key] = original_untyped(self, func, enable_ssa)
            else:
                # The pipeline run sets the shared flags' SSA switch to its argument.
                self.flags.enable_ssa = enable_ssa
        fresh = built.copy()
        fresh._definitions = defaultdict(
            list, {name: list(defs) for name, defs in built._definitions.items()})
        fresh.func_id = built.func_id.derive()
        return fresh

    # Each block label's variable names, for the _run_ssa call in progress (innermost last).
    in_progress: list = []

    def run_block_rewrite(blocks, states, handler):
        varname = states.get("varname")
        if not in_progress or varname is None:
            return original_rewrite(blocks, states, handler)
        names_by_label = in_progress[-1]
        rewritten = {}
        for label, block in blocks.items():
            names = names_by_label.get(label)
            if names is None or varname in names:
                rewritten.update(original_rewrite({label: block}, states, handler))
            else:
                # Both handlers would return each statement as it is.
                unchanged = type(block)(scope=block.scope, loc=block.loc)
                unchanged.body = list(block.body)
                rewritten[label] = unchanged
        return rewritten

    def run_ssa(blocks):
        with global_compiler_lock:
            in_progress.append(_names_by_label(blocks))
            try:
                return original_run_ssa(blocks)
            finally:
                in_progress.pop()

    def returned(typeinfer_) -> tuple | None:
        """``(return variable, the variable cast to it)`` for each ``return`` of the
        function being typed, or None if one has no such cast. Found once per function:
        its blocks do not change while it is typed."""
        found = typeinfer_.__dict__.get("_simcoinche_returned", ())
        if found == ():
            pairs = []
            for block in typeinfer_.blocks.values():
                term = block.terminator
                if not isinstance(term, ir.Return):
                    continue
                source = next((stmt.value.value.name for stmt in block.body
                               if isinstance(stmt, ir.Assign)
                               and stmt.target.name == term.value.name
                               and isinstance(stmt.value, ir.Expr)
                               and stmt.value.op == "cast"), None)
                if source is None:
                    pairs = None
                    break
                pairs.append((term.value.name, source))
            found = typeinfer_._simcoinche_returned = tuple(pairs) if pairs else None
        return found

    def call_inputs(constraint, typeinfer_, typevars, fnty):
        """What a call constraint's resolution depends on, as it stands, or None if that
        is not known (then it is resolved as numba does)."""
        if isinstance(fnty, types.Dispatcher) or (isinstance(fnty, types.Type)
                                                  and not fnty.is_precise()):
            # Typing a dispatcher's call compiles the callee, which may be in progress;
            # an imprecise function type can still change with its key unchanged.
            return None
        folded = fold_arg_vars(typevars, constraint.args, constraint.vararg,
                               constraint.kws)
        if folded is None:
            return None
        pos_args, kw_args = folded
        if not all(a.is_precise() for a in itertools.chain(pos_args, kw_args.values())):
            return None
        # An imprecise return type is replaced by the target's own type.
        inputs = (fnty, tuple(pos_args), tuple(sorted(kw_args.items())),
                  typevars[constraint.target].type)
        if isinstance(fnty, types.RecursiveCall):
            # Typed from a copy of the function in progress, propagated without its calls
            # on itself: its return type is that of the values the function returns,
            # which grow from one round to the next. Only for a function calling itself
            # with its return type locked by its signature.
            if typeinfer_.func_id.func is not fnty.dispatcher_type.dispatcher.py_func:
                return None
            pairs = returned(typeinfer_)
            if pairs is None or not all(typevars[ret].locked for ret, _ in pairs):
                return None
            inputs += tuple(typevars[source].type for _, source in pairs)
        return inputs

    def resolve_call_constraint(self, typeinfer_, typevars, fnty):
        inputs = call_inputs(self, typeinfer_, typevars, fnty)
        if inputs is not None and self.__dict__.get("_simcoinche_inputs") == inputs:
            # Resolved with these very inputs in an earlier round: the same signature,
            # and its types are already in the target's type variable.
            global CALLS_NOT_RESOLVED_AGAIN
            CALLS_NOT_RESOLVED_AGAIN += 1
            return
        self.__dict__.pop("_simcoinche_inputs", None)
        original_resolve(self, typeinfer_, typevars, fnty)
        if inputs is not None:
            # What the next round will compare, read again: the resolution has typed the
            # target, and may have refined other variables (an array's dtype).
            self._simcoinche_inputs = call_inputs(self, typeinfer_, typevars, fnty)

    icc.copy = shared_copy
    worker.inline_ir = inline_ir
    worker.run_untyped_passes = run_untyped_passes
    ssa._run_ssa = run_ssa
    ssa._run_block_rewrite = run_block_rewrite
    typeinfer.CallConstraint.resolve = resolve_call_constraint
    worker._simcoinche_faster_compile = True
