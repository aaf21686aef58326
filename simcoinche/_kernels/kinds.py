"""Which player kinds a kernel compiles: the random and club players only where they sit.

A donne kernel dispatches on each team's player code at run time (:mod:`.players`), so
every kind's code used to be compiled into every run. Two of them are large and rarely
seated: the club player's auction (:func:`.heuristic.heuristic_action`, about a fifth of a
cold ``simulate``'s compile) and the random player's (:func:`.players.random_action`,
whose legality checks are inlined several times). :class:`Kinds` says, by the *type* of
each field, whether a kind is compiled in: ``np.int64(1)`` yes, ``None`` no. numba
compiles the kernels once per such type, like the ``think`` and ``in_partie`` arguments
(:mod:`.thinking`, :func:`.score_bid.bid_call`). :func:`kinds_of` gives a run that seats
neither of them neither, and a run that seats either both: two builds of each kernel, not
four, so that one warm-up (``simcoinche warmup``: heuristic players, and a match and an
``advise`` with club players) covers every run.

A kind that is not compiled in cannot decide: :func:`random_call` and :func:`club_call`
then return a call the rules forbid (:func:`.players.illegal_action`), which the donne
kernels record as a replaced decision and every facade refuses (no silent fallback).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from simcoinche._kernels.heuristic import heuristic_action
from simcoinche._kernels.players import (
    PLAYER_CLUB,
    PLAYER_RANDOM,
    illegal_action,
    random_action,
)


class Kinds(NamedTuple):
    """The optional player kinds a kernel compiles (``np.int64(1)``: yes; ``None``: no).

    ``club`` : None or int64
        The club player's auction (:func:`.heuristic.heuristic_action`).
    ``random`` : None or int64
        The random player's auction (:func:`.players.random_action`).
    """

    club: Any
    random: Any


#: Every kind compiled in: the runs that seat a club or random player (:func:`kinds_of`),
#: the model bidders of :mod:`.auction_filter` when a model player is one.
ALL_KINDS = Kinds(np.int64(1), np.int64(1))
#: No optional kind compiled in: the runs of heuristic and PIMC players, and the thinking
#: bidder's models (:mod:`.think_bid`: heuristic). Also what the facades give the parallel
#: kernels, which do not read ``Players.kinds`` (numba's parallel loops cannot take a None
#: member): the cards alone (:func:`.batch.play_contracts`), and the fitting data's
#: auctions (:func:`.bid_samples.deal_auctions`, whose bidders compile every kind).
NO_KINDS = Kinds(None, None)


def kinds_of(codes: Any) -> Kinds:
    """The :class:`Kinds` of a run whose teams have the player codes ``codes``:
    :data:`NO_KINDS` when no team is a club or random player, else :data:`ALL_KINDS`."""
    present = {int(c) for c in np.asarray(codes).ravel()}
    return ALL_KINDS if present & {PLAYER_CLUB, PLAYER_RANDOM} else NO_KINDS


def _optional_call(kernel: Any, doc: str) -> Callable[..., Any]:
    """The call of an optional player kind whose auction kernel is ``kernel``:
    ``kernel``'s call when ``flag`` is not None, else a call the rules forbid (the kind is
    not compiled in). Chosen by the type of ``flag`` when numba compiles the caller."""

    def kind_call(flag, hand, astate, actions, n_actions, params, row, prof, st):
        if flag is None:
            return np.int64(illegal_action(astate))
        return np.int64(kernel(hand, astate, actions, n_actions, params, row, prof, st))

    kind_call.__doc__ = doc

    @overload(kind_call)
    def _kind_call_nb(flag, hand, astate, actions, n_actions, params, row, prof, st):
        if isinstance(flag, (types.NoneType, types.Omitted)):
            def refused(flag, hand, astate, actions, n_actions, params, row, prof, st):
                return np.int64(illegal_action(astate))

            return refused

        def compiled(flag, hand, astate, actions, n_actions, params, row, prof, st):
            return np.int64(kernel(hand, astate, actions, n_actions, params, row, prof,
                                   st))

        return compiled

    return kind_call


#: The random player's call (:func:`.players.random_action`), when compiled in.
random_call = _optional_call(random_action, "The random player's call when ``flag`` is "
                             "not None; else a call the rules forbid.")
#: The club player's call (:func:`.heuristic.heuristic_action`), when compiled in.
club_call = _optional_call(heuristic_action, "The club player's call when ``flag`` is "
                           "not None; else a call the rules forbid.")
