"""Borrowed array views: the same array without a reference count, for the hot loops.

Numba counts references to every array a compiled function binds to a variable: each
call of a (non-inlined) kernel, and each numba-level inlined helper whose branches the
reference-count pruning cannot see through, increments and decrements the count of every
array argument. Those are atomic operations on the array's ``MemInfo``; arrays shared by
all threads (the profile, the players' parameters) bounce its cache line between cores.
Measured on the heuristic donne kernel: about half of the CPU time went to
``NRT_incref``/``NRT_decref`` (perf, one thread), mostly the players' array arguments at
every decision.

:func:`borrow` returns a view of an array (same data, shape, strides and type) whose
``MemInfo`` pointer is NULL: numba's reference counting skips it (``NRT_incref`` and
``NRT_decref`` return at once on NULL). Only for arrays that outlive every use of the
view, which in practice means: borrow only the *arguments* of the function that borrows
(its caller holds them until the call returns). A local array may be borrowed only with
:func:`keep_alive` of it after the view's last use: numba frees an array right after its
last use, which for a local would be the ``borrow`` call itself, and the view would then
read memory handed out again (``a = np.zeros(1000); v = borrow(a); b = np.ones(1000)``
leaves ``v[0] == 1.0``). ``run_batch`` borrows each block's scratch that way, and
``run_parties`` the scratch it passes to the inlined ``_parties_block``;
``play_contracts`` (a ``prange``) allocates it in the body of its loop over blocks, where
the inlined ``_play_block`` borrows it, and keeps it alive after the block (numba 0.68
did not free such a local early inside a ``prange`` body, dropped or not, when tried:
``keep_alive`` there keeps the scratch safe whatever a later numba does).
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic


def _view(context, builder, arr, value):
    """LLVM value of a view of the array ``value`` (numba type ``arr``) with a NULL
    ``MemInfo`` and no parent object."""
    src = context.make_array(arr)(context, builder, value=value)
    dst = context.make_array(arr)(context, builder)
    for name in ("nitems", "itemsize", "data", "shape", "strides"):
        setattr(dst, name, getattr(src, name))
    dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
    dst.parent = cgutils.get_null_value(dst.parent.type)
    return dst._getvalue()


@intrinsic
def borrow(typingctx, arr):
    """A view of ``arr`` (any numba array) without reference counting (NULL ``MemInfo``).

    The caller keeps ``arr`` alive while the view is in use; the view never frees it.
    """
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        return _view(context, builder, arr, args[0])

    return arr(arr), codegen


def _holds_array(t: types.Type) -> bool:
    """Whether the numba type ``t`` is an array or a tuple holding one."""
    if isinstance(t, types.Array):
        return True
    return isinstance(t, types.BaseTuple) and any(_holds_array(m) for m in t.types)


@intrinsic
def borrow_all(typingctx, arrays):
    """:func:`borrow` of every array of the tuple ``arrays``, as a tuple of the same
    types: ``a, b, c = borrow_all((a, b, c))``. A NamedTuple of arrays (such as
    :class:`.donne.Scratch`) gives the same NamedTuple of views: ``scr =
    borrow_all(scr)``. Members that hold no array (scalars, None, tuples of them, such as
    :class:`.donne.Players`' ``kinds``) are passed as they are; a tuple member that holds
    an array is refused (no implementation)."""
    if not isinstance(arrays, types.BaseTuple) or any(
            not isinstance(t, types.Array) and _holds_array(t) for t in arrays.types):
        return None

    def codegen(context, builder, signature, args):
        values = cgutils.unpack_tuple(builder, args[0], len(arrays.types))
        views = [_view(context, builder, t, v) if isinstance(t, types.Array) else v
                 for t, v in zip(arrays.types, values, strict=True)]
        return context.make_tuple(builder, arrays, views)

    return arrays(arrays), codegen


@intrinsic
def keep_alive(typingctx, value):
    """A use of ``value`` that does nothing: written after the last use of a view
    borrowed from the local ``value``, it keeps numba from freeing ``value`` before
    (numba frees a local right after its last use)."""

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(value), codegen
