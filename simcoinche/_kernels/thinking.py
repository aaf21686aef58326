"""Dispatch from the donne kernels to the thinking players, compiled only where one may sit.

The donne kernels (:mod:`.donne`, :mod:`.batch`, :mod:`.partie`) take a ``think``
argument, the *think spec*, whose type decides what they compile:

- ``None``: no PIMC player sits; the functions below compile to nothing, so the usual
  runs neither compile nor carry the solver (:mod:`.pimc`, imported only when a thinking
  player is compiled in);
- an ``int64`` ``L``: PIMC players sit, none thinks at the auction (every ``bid_worlds``
  is 0, the default): the per-block scratch is the pair ``(Think, None)``, a
  :class:`.pimc_scratch.Think` with ``2**L`` table slots, and the thinking bidder is not
  compiled (it was about a third of a PIMC seat's cold compile: benchmarks/README.md,
  "Compile time, thirteenth cut");
- the pair ``(L, True)`` (``Tuple(int64, bool)``): a PIMC player thinks at the auction
  (``bid_worlds`` > 0): the scratch is ``(Think, BidThink)`` and the thinking bidder
  (:func:`.think_bid.think_action`) gives such a player's calls.

:func:`simcoinche.runs.simulation.think_arg` makes the spec from the seated players.

The thinking bidder plays donnes out with :mod:`.donne`, which dispatches through this
module: importing it here would close a circle. It registers its two entry points
instead (:func:`register_bid_thinker`, called when :mod:`.think_bid` is imported, as
:mod:`simcoinche.players.registry` does); compiling a thinking player without it is an
error that says so.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import types
from numba.extending import overload

from simcoinche._kernels.players import PM_BID_WORLDS, illegal_action

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
    """Per-block scratch of the thinking players for the think spec ``spec`` (module
    docstring): ``None`` for None; else the pair of a :class:`.pimc_scratch.Think` with
    ``2**L`` table slots and, when a PIMC player thinks at the auction, a
    :class:`.think_bid.BidThink` (else None)."""
    if spec is None:
        return None
    from simcoinche._kernels.pimc_scratch import new_think

    if isinstance(spec, tuple):
        # (L, True): a PIMC player thinks at the auction.
        return new_think(np.int64(spec[0])), _bid_thinker("new")()
    return new_think(np.int64(spec)), None


@overload(think_scratch)
def _think_scratch_nb(spec):
    if isinstance(spec, (types.NoneType, types.Omitted)):
        return lambda spec: None
    from simcoinche._kernels.pimc_scratch import new_think

    if isinstance(spec, types.BaseTuple):
        # A PIMC player thinks at the auction: the thinking bidder's scratch too.
        new_bid = _bid_thinker("new")
        return lambda spec: (new_think(spec[0]), new_bid())
    # Card play only: the thinking bidder is neither made nor compiled.
    return lambda spec: (new_think(spec), None)


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
    A player with ``bid_worlds`` > 0 under a scratch made without the thinking bidder
    (think spec ``L``, not ``(L, True)``) gets an illegal call, which the run counts as a
    fault: it never bids with the tables instead. ``in_partie`` as
    :func:`.score_bid.bid_call` (None: the thinker's own fitted call is never
    score-aware, and the score-aware bidder is not compiled in)."""
    if T is None or params[row, PM_BID_WORLDS] <= 0:
        return -1
    if T[1] is None:
        return illegal_action(astate)
    return _bid_thinker("action")(T[1], hand, astate, actions, n_actions, dealer, params,
                                  row, prof, st, in_partie)


@overload(think_bid)
def _think_bid_nb(T, hand, astate, actions, n_actions, dealer, params, row, prof, st,
                  in_partie):
    if isinstance(T, types.NoneType):
        return (lambda T, hand, astate, actions, n_actions, dealer, params, row, prof, st,
                in_partie: -1)
    if isinstance(T[1], types.NoneType):
        # Scratch without the thinking bidder (it is not compiled in).
        def card_play_only(T, hand, astate, actions, n_actions, dealer, params, row, prof,
                           st, in_partie):
            if params[row, PM_BID_WORLDS] <= 0:
                return -1
            # A player that should think at the auction, in a run that did not compile
            # the thinker in: an illegal call, counted as a fault.
            return illegal_action(astate)

        return card_play_only
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
