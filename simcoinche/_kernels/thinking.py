"""Dispatch from the donne kernels to the thinking players, compiled only where one may sit.

The donne kernels (:mod:`.donne`, :mod:`.batch`, :mod:`.partie`) take a ``think``
argument: ``None`` in runs without a PIMC player, or the log2 (``int64``) of the slots of
the double-dummy table each thread's PIMC player gets. The functions below are chosen by
the argument's *type* when numba compiles the caller: with ``None`` they compile to
nothing, so the usual runs neither compile nor carry the solver (:mod:`.pimc`, imported
only when a thinking player is compiled in); otherwise they make the per-thread scratch
and ask :func:`.pimc.pimc_card` for the card.
"""

from __future__ import annotations

from numba import types
from numba.extending import overload


def think_scratch(spec):
    """Per-thread scratch of the thinking players: ``None`` for ``spec`` None, else a
    :class:`.pimc.Think` with ``2**spec`` table slots."""
    if spec is None:
        return None
    from simcoinche._kernels.pimc import new_think

    return new_think(spec)


@overload(think_scratch)
def _think_scratch_nb(spec):
    if isinstance(spec, (types.NoneType, types.Omitted)):
        return lambda spec: None
    from simcoinche._kernels.pimc import new_think

    return lambda spec: new_think(spec)


def think_card(T, hand, legal, trick, n, info, params, row, prof, st):
    """:func:`.pimc.pimc_card`, or ``-1`` when there is no thinking scratch (``T`` None)."""
    if T is None:
        return -1
    from simcoinche._kernels.pimc import pimc_card

    return pimc_card(T, hand, legal, trick, n, info, params, row, prof, st)


@overload(think_card)
def _think_card_nb(T, hand, legal, trick, n, info, params, row, prof, st):
    if isinstance(T, types.NoneType):
        return lambda T, hand, legal, trick, n, info, params, row, prof, st: -1
    from simcoinche._kernels.pimc import pimc_card

    return lambda T, hand, legal, trick, n, info, params, row, prof, st: pimc_card(
        T, hand, legal, trick, n, info, params, row, prof, st)


def think_block(spec, block):
    """Donnes per parallel block: ``block`` without thinking players, 1 with them (a PIMC
    donne takes a fraction of a second: small blocks keep every thread busy)."""
    return block if spec is None else 1


@overload(think_block)
def _think_block_nb(spec, block):
    if isinstance(spec, (types.NoneType, types.Omitted)):
        return lambda spec, block: block
    return lambda spec, block: 1
