"""Double-dummy (DD) values: what perfect play with all four hands visible yields.

RULES.md, "Rulings on points the sources leave open": the double-dummy value of a deal is
the card points a team reaches when all four hands are visible and both sides play
perfectly, from the opening lead of seat ``dealer + 1``; 252 to a team that wins every
trick. A générale under double-dummy play is a separate yes/no question: can the bidder
alone win all eight tricks.

Public functions (each validates its input and raises
:class:`~simcoinche.errors.InputError`, one line naming the culprit, on bad input):

- :func:`solve_many` — team 0's DD card points of many deals, in parallel (the engine of
  ``simulate --dd`` and ``odds --play dd``);
- :func:`table` — both teams' DD card points for every contract kind of a profile;
- :func:`card_values` — the DD value of each legal card at a position reached by a
  sequence of played cards;
- :func:`generale` — whether one seat alone can take all eight tricks.

Hands are given as 4 lists of card texts (``["JH", "9H", …]``, or one string
``"JH 9H …"`` per hand) or as 4 ``uint32`` bitboards (bit ``suit * 8 + rank``); seats
0..3, team of seat ``s`` is ``s & 1``, seat ``dealer + 1`` leads. A contract kind is an
index 0..5 or its name ``"S" "H" "D" "C" "SA" "TA"``.

Team 1's value from team 0's (one search, exact): team 0 maximises its card points
``C0``; team 1's card points are ``0`` when ``C0 = 252`` (team 0's capot), ``252`` when
team 1 can force winning every trick, else ``162 - C0``. (Both teams' points are
decreasing functions of each other once the capot of each side is settled, so the
minimax of ``C0`` plus one capot check gives both values.)
"""

from __future__ import annotations

import threading
from typing import Any

import numba
import numpy as np

from simcoinche._kernels import dd as _dd
from simcoinche.cards import CARDS_PER_HAND, CONTRACT_KIND_NAMES
from simcoinche.errors import InputError
from simcoinche.profiles import Profile, get_profile
from simcoinche.simulation import check_threads

__all__ = ["solve_many"]

# The 32 cards: four disjoint 8-card hands cover the deck exactly.
_FULL_DECK = 0xFFFFFFFF


def _kinds_array(kind: Any, n: int, profile: Profile) -> np.ndarray:
    """``kind`` (one kind or one per row; indices or names) as int64[n], checked against
    the profile's contract kinds."""
    if isinstance(kind, (str, int, np.integer)) and not isinstance(kind, bool):
        kind = [kind] * n
    out = np.empty(n, dtype=np.int64)
    items = list(kind) if not isinstance(kind, np.ndarray) else kind.tolist()
    if len(items) != n:
        raise InputError(f"kind: expected {n} contract kinds (one per row), got {len(items)}")
    for i, k in enumerate(items):
        out[i] = parse_kind(k, profile, where=f"kind[{i}]")
    return out


def parse_kind(kind: Any, profile: Profile | str | None = None, where: str = "kind") -> int:
    """A contract kind (``0..5`` or ``"S" "H" "D" "C" "SA" "TA"``) of ``profile``.

    Raises
    ------
    InputError
        When ``kind`` is not a contract kind, or not one the profile allows.
    """
    prof = get_profile(profile)
    allowed = ", ".join(CONTRACT_KIND_NAMES[k] for k in prof.contract_kinds)
    if isinstance(kind, str):
        name = kind.strip().upper()
        if name not in CONTRACT_KIND_NAMES:
            raise InputError(f"{where}: unknown contract kind {kind!r}; expected one of "
                             f"{allowed}")
        k = CONTRACT_KIND_NAMES.index(name)
    elif isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
        k = int(kind)
        if not 0 <= k < len(CONTRACT_KIND_NAMES):
            raise InputError(f"{where}: contract kind {k} out of range; expected one of "
                             f"{allowed} (0..5)")
    else:
        raise InputError(f"{where}: expected a contract kind ({allowed}), got {kind!r}")
    if k not in prof.contract_kinds:
        raise InputError(f"{where}: profile {prof.name} has no {CONTRACT_KIND_NAMES[k]} "
                         f"contract; expected one of {allowed}")
    return k


def _deal_rows(hands: Any) -> np.ndarray:
    """``hands`` as uint32[n, 4], each row four disjoint 8-card hands (the 32 cards)."""
    try:
        arr = np.asarray(hands)
    except (TypeError, ValueError) as exc:
        raise InputError(f"hands: expected an integer array of shape (n, 4): {exc}") from None
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise InputError(f"hands: expected an array of shape (n, 4), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"hands: expected integer bitboards, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > _FULL_DECK):
        raise InputError("hands: a bitboard is outside 0..2**32-1")
    rows = arr.astype(np.uint32)
    counts = np.bitwise_count(rows) if hasattr(np, "bitwise_count") else np.vectorize(
        lambda x: int(x).bit_count(), otypes=[np.int64])(rows)
    bad = np.argwhere(counts != CARDS_PER_HAND)
    if bad.size:
        i, s = (int(x) for x in bad[0])
        raise InputError(f"hands[{i}, {s}]: expected {CARDS_PER_HAND} cards, got "
                         f"{int(counts[i, s])}")
    union = rows[:, 0] | rows[:, 1] | rows[:, 2] | rows[:, 3]
    bad_rows = np.flatnonzero(union != np.uint32(_FULL_DECK))
    if bad_rows.size:
        raise InputError(f"hands[{int(bad_rows[0])}]: the four hands share a card (they must "
                         "hold the 32 cards between them)")
    return rows


def _dealers_array(dealer: Any, n: int) -> np.ndarray:
    arr = np.asarray(dealer)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,) or not (np.issubdtype(arr.dtype, np.integer) and arr.dtype != bool):
        raise InputError(f"dealer: expected {n} seats 0..3 (one per row), got "
                         f"{arr.dtype} array of shape {arr.shape}")
    bad = np.flatnonzero((arr < 0) | (arr > 3))
    if bad.size:
        raise InputError(f"dealer[{int(bad[0])}]: expected a seat 0..3, got {int(arr[bad[0]])}")
    return arr.astype(np.int64)


def solve_many(hands: Any, dealer: Any, kind: Any, profile: Profile | str | None = "federal",
               threads: int | None = None, return_nodes: bool = False
               ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Team 0's double-dummy card points of many whole deals, computed in parallel.

    Parameters
    ----------
    hands : array of shape (n, 4), integer bitboards (uint32)
        Row ``i``: the four 8-card hands of deal ``i`` by seat (the 32 cards between them).
    dealer : int or int[n]
        Dealer seat of each row (seat ``dealer + 1`` leads the first trick).
    kind : int, str, or a sequence of them (length n)
        Contract kind of each row: 0..3 a trump suit, 4 sans-atout, 5 tout-atout (or the
        names ``"S" "H" "D" "C" "SA" "TA"``); must be a kind of ``profile``.
    profile : profile name or :class:`~simcoinche.profiles.Profile`
        Card rules (legal cards, points). Default ``federal``.
    threads : int, optional
        Worker threads (default: every core numba may use). The values do not depend on it.
    return_nodes : bool
        Also return the number of search nodes per row (for benchmarks).

    Returns
    -------
    numpy.ndarray
        ``int16[n]``: team 0's DD card points of each row, ``0..252`` (252: team 0 wins
        every trick). Team 1's value follows as explained in the module docstring (see
        :func:`table`). With ``return_nodes``, ``(values, nodes)`` with ``nodes`` int64[n].

    Raises
    ------
    InputError
        Wrong shape, a hand without 8 cards, hands sharing a card, a bad seat or kind,
        an unknown profile, a bad thread count.
    """
    prof = get_profile(profile)
    rows = _deal_rows(hands)
    n = rows.shape[0]
    dealers = _dealers_array(dealer, n)
    kinds = _kinds_array(kind, n, prof)
    threads = check_threads(threads)
    out = np.zeros(n, dtype=np.int16)
    nodes = np.zeros(n, dtype=np.int64)
    if n:
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            _dd.solve_many(rows, dealers, kinds, prof.packed, threads, out, nodes)
        finally:
            numba.set_num_threads(previous)
    return (out, nodes) if return_nodes else out


# One solver scratch per Python thread (about 16 MiB), made on first use.
_LOCAL = threading.local()


def _scratch() -> _dd.Scratch:
    S = getattr(_LOCAL, "scratch", None)
    if S is None:
        S = _LOCAL.scratch = _dd.new_scratch()
    return S

