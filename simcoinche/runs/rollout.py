"""Random legal playouts from one dealt position: ``simcoinche.runs.rollout``.

The like-for-like counterpart of colver's ``Env.rollout(n)`` and the playout engine of
Monte Carlo players: the contract is set, nobody bids, the cards still in the four hands
are played ``n`` times, each card drawn uniformly among the legal cards of the player to
move (the profile's rules). Kernel and random stream: :mod:`simcoinche._kernels.rollout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from simcoinche._kernels.rng import seed_key
from simcoinche._kernels.rollout import rollout_batch
from simcoinche.rules.cards import CONTRACT_KIND_NAMES, format_mask, parse_card, popcount
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

_NO_RECORD = np.zeros((0, 32), dtype=np.uint8)


def _hand(h: Any, seat: int) -> int:
    """One seat's cards as a bitboard: an int bitboard, or a list of cards (text or index)."""
    if isinstance(h, (int, np.integer)) and not isinstance(h, bool):
        if not 0 <= int(h) < (1 << 32):
            raise InputError(f"hand of seat {seat}: bitboard {h!r} out of range")
        return int(h)
    if isinstance(h, str):
        h = h.replace(",", " ").split()
    if not isinstance(h, (list, tuple, np.ndarray)):
        raise InputError(f"hand of seat {seat}: expected cards or a bitboard, got {h!r}")
    mask = 0
    for c in h:
        if isinstance(c, str):
            idx = parse_card(c)
        elif isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < 32:
            idx = int(c)
        else:
            raise InputError(f"hand of seat {seat}: unknown card {c!r}")
        if mask >> idx & 1:
            raise InputError(f"hand of seat {seat}: card {c!r} given twice")
        mask |= 1 << idx
    return mask


def check_hands(hands: Sequence[Any]) -> np.ndarray:
    """The four hands as ``uint32[4]``: disjoint, the same number of cards (1..8) each."""
    if not isinstance(hands, (list, tuple, np.ndarray)) or len(hands) != 4:
        raise InputError("hands must be 4 hands (lists of cards or bitboards), one per seat")
    masks = [_hand(h, s) for s, h in enumerate(hands)]
    seen = 0
    for s, m in enumerate(masks):
        if m & seen:
            raise InputError(f"hand of seat {s} repeats {format_mask(m & seen)} held by "
                             "another seat")
        seen |= m
    sizes = [popcount(m) for m in masks]
    if len(set(sizes)) != 1 or not 1 <= sizes[0] <= 8:
        raise InputError(f"the four hands must hold the same number of cards (1..8), "
                         f"got {sizes}")
    return np.array(masks, dtype=np.uint32)


def _kind(kind: Any, prof: Profile) -> int:
    if isinstance(kind, str) and kind.strip().upper() in CONTRACT_KIND_NAMES:
        k = CONTRACT_KIND_NAMES.index(kind.strip().upper())
    elif isinstance(kind, (int, np.integer)) and not isinstance(kind, bool) and 0 <= kind <= 5:
        k = int(kind)
    else:
        raise InputError(f"unknown contract kind {kind!r}: expected S H D C SA TA or 0..5")
    if k not in prof.contract_kinds:
        raise InputError(f"no {CONTRACT_KIND_NAMES[k]} contracts in profile {prof.name}")
    return k


def rollout(hands: Sequence[Any], dealer: int, kind: int | str, n: int, seed: int = 0,
            profile: str | Profile | None = "federal", threads: int | None = None,
            record: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """``n`` random legal playouts of the cards in ``hands``; team 0's card points of each.

    Parameters
    ----------
    hands : sequence of 4
        The cards of seats 0..3: lists of cards (``"JH"`` or indices ``0..31``), card
        strings (``"JH 9H AH"``) or ``uint32`` bitboards; disjoint, the same number of
        cards each (8 for a dealt position; fewer for an ending).
    dealer : int
        Dealer seat 0..3; seat ``dealer + 1`` leads the first trick.
    kind : int or str
        Contract kind: ``0..3`` / ``"S" "H" "D" "C"`` a trump suit, ``4``/``"SA"``,
        ``5``/``"TA"`` (where the profile has them).
    n : int
        Number of playouts (> 0).
    seed : int
        Seed (``0 .. 2**64-1``); playout ``i`` of a seed is the same whatever ``threads``.
    profile : str or Profile
        Rule profile (legal cards, card points, last-trick bonus, capot value).
    threads : int, optional
        Worker threads (default: all cores).
    record : bool
        Also return the cards of every playout in play order (``uint8[n, 4 * size]``).

    Returns
    -------
    numpy.ndarray
        ``int16[n]``: team 0's card points per playout, last-trick bonus included (with
        all 8 tricks of a full deal the capot value, 252 federal). Team 1's are the
        kind's total minus these, except on a capot. With ``record`` a pair
        ``(points, cards)``.

    Raises
    ------
    InputError
        Bad hands (not 4, unknown or repeated card, unequal sizes), dealer, kind, n, seed
        or threads.
    """
    from simcoinche.runs.arguments import (
        check_fits_in_memory,
        check_flag,
        check_seed,
        check_threads,
        positive_int,
    )

    prof = get_profile(profile)
    hs = check_hands(hands)
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) \
            or not 0 <= dealer <= 3:
        raise InputError(f"dealer must be a seat 0..3, got {dealer!r}")
    k = _kind(kind, prof)
    n = positive_int(n, "n")
    seed = check_seed(seed)
    threads = check_threads(threads)
    record = check_flag(record, "record")
    # Each rollout keeps its total (2 bytes) and, recorded, its 32 cards.
    check_fits_in_memory(n * (34 if record else 2), f"{n:,} rollouts",
                         "run fewer at a time")
    out = np.empty(n, dtype=np.int16)
    rec = np.full((n, 32), 255, dtype=np.uint8) if record else _NO_RECORD
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        rollout_batch(np.uint64(seed_key(np.uint64(seed))), hs, (int(dealer) + 1) & 3, k,
                      prof.packed, out, rec)
    finally:
        numba.set_num_threads(previous)
    if record:
        return out, rec[:, :4 * popcount(int(hs[0]))]
    return out
