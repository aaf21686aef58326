"""Dispatch from the donne kernels to the thinking players, compiled only where one may sit.

The donne kernels (:mod:`.donne`, :mod:`.batch`, :mod:`.partie`) take a ``think``
argument: ``None`` in runs without a PIMC player, or the log2 (``int64``) of the slots of
the double-dummy table each thread's PIMC player gets. The functions below are chosen by
the argument's *type* when numba compiles the caller: with ``None`` they compile to
nothing, so the usual runs neither compile nor carry the solver (:mod:`.pimc`, imported
only when a thinking player is compiled in); otherwise they make the per-block scratch
— the pair ``(Think, BidThink)`` — and ask :func:`.pimc.pimc_card` for a card, or the
thinking bidder (:func:`.think_bid.think_action`) for the call of a PIMC player that
thinks at the auction (``bid_worlds`` > 0).

The thinking bidder plays donnes out with :mod:`.donne`, which dispatches through this
module: importing it here would close a circle. It registers its two entry points
instead (:func:`register_bid_thinker`, called when :mod:`.think_bid` is imported, as
:mod:`simcoinche.players.registry` does); compiling a thinking player without it is an
error that says so.
"""

from __future__ import annotations

from collections.abc import Callable

from numba import types
from numba.extending import overload

from simcoinche._kernels.players import PM_BID_WORLDS

#: The thinking bidder's ``new_bid_think`` and ``think_action`` (:mod:`.think_bid`).
_BID_THINKER: dict[str, Callable] = {}


def register_bid_thinker(new_scratch: Callable, action: Callable) -> None:
    """Register the thinking bidder's scratch maker and decision kernel."""
    _BID_THINKER["new"] = new_scratch
    _BID_THINKER["action"] = action


def _bid_thinker(name: str) -> Callable:
    if name not in _BID_THINKER:
        raise RuntimeError("the thinking bidder is not registered: import "
                           "simcoinche._kernels.think_bid before compiling a PIMC player")
    return _BID_THINKER[name]


def think_scratch(spec):
    """Per-block scratch of the thinking players: ``None`` for ``spec`` None, else the
    pair of a :class:`.pimc.Think` with ``2**spec`` table slots and a
    :class:`.think_bid.BidThink`."""
    if spec is None:
        return None
    from simcoinche._kernels.pimc import new_think

    return new_think(spec), _bid_thinker("new")()


@overload(think_scratch)
def _think_scratch_nb(spec):
    if isinstance(spec, (types.NoneType, types.Omitted)):
        return lambda spec: None
    from simcoinche._kernels.pimc import new_think

    new_bid = _bid_thinker("new")
    return lambda spec: (new_think(spec), new_bid())


def think_card(T, hand, legal, trick, n, info, params, row, prof, st):
    """:func:`.pimc.pimc_card`, or ``-1`` when there is no thinking scratch (``T`` None)."""
    if T is None:
        return -1
    from simcoinche._kernels.pimc import pimc_card

    return pimc_card(T[0], hand, legal, trick, n, info, params, row, prof, st)


@overload(think_card)
def _think_card_nb(T, hand, legal, trick, n, info, params, row, prof, st):
    if isinstance(T, types.NoneType):
        return lambda T, hand, legal, trick, n, info, params, row, prof, st: -1
    from simcoinche._kernels.pimc import pimc_card

    return lambda T, hand, legal, trick, n, info, params, row, prof, st: pimc_card(
        T[0], hand, legal, trick, n, info, params, row, prof, st)


def think_bid(T, hand, astate, actions, n_actions, dealer, params, row, prof, st,
              in_partie):
    """The thinking bidder's call (:func:`.think_bid.think_action`) when there is a
    thinking scratch (``T`` not None) and the player's ``bid_worlds`` (offset
    ``PM_BID_WORLDS``) is positive; else ``-1``: the caller asks the player's own bidder.
    ``in_partie`` as :func:`.score_bid.bid_call` (None: the thinker's own fitted call is
    never score-aware, and the score-aware bidder is not compiled in)."""
    if T is None or params[row, PM_BID_WORLDS] <= 0:
        return -1
    return _bid_thinker("action")(T[1], hand, astate, actions, n_actions, dealer, params,
                                  row, prof, st, in_partie)


@overload(think_bid)
def _think_bid_nb(T, hand, astate, actions, n_actions, dealer, params, row, prof, st,
                  in_partie):
    if isinstance(T, types.NoneType):
        return (lambda T, hand, astate, actions, n_actions, dealer, params, row, prof, st,
                in_partie: -1)
    action = _bid_thinker("action")

    def impl(T, hand, astate, actions, n_actions, dealer, params, row, prof, st,
             in_partie):
        if params[row, PM_BID_WORLDS] <= 0:
            return -1
        return action(T[1], hand, astate, actions, n_actions, dealer, params, row, prof, st,
                      in_partie)

    return impl


def think_block(spec, block):
    """Donnes per parallel block: ``block`` without thinking players, 1 with them (a PIMC
    donne takes a fraction of a second: small blocks keep every thread busy)."""
    return block if spec is None else 1


@overload(think_block)
def _think_block_nb(spec, block):
    if isinstance(spec, (types.NoneType, types.Omitted)):
        return lambda spec, block: block
    return lambda spec, block: 1
