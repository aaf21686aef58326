"""What the analysis functions check of a results table before reading it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcoinche.rules.errors import InputError

#: Columns the tables read as flags: bool (numpy's, pandas' nullable "boolean", or Python
#: bools in an object column, as a concat may leave them).
_FLAGS = ("made", "passed_out")
#: Columns that index seats, and their values (a missing taker reads as passed out).
_SEATS = {"taker": (-1, 3), "dealer": (0, 3)}
#: Columns missing on a passed-out donne (no taker, no contract kind).
_MAY_BE_MISSING = ("taker", "trump")
#: Hand columns: bitboards of 8 cards.
_HANDS = ("hand_0", "hand_1", "hand_2", "hand_3")


def require_columns(df: Any, columns: Sequence[str], keys: Sequence[str] = ()) -> None:
    """Check that ``df`` is a results table of one row per donne with ``columns`` (the
    values a table computes with) and ``keys`` (group keys: present, any values).

    Raises
    ------
    InputError
        ``df`` is not a DataFrame; a column of ``columns`` is missing; one holds a list
        per row, as a run of ``simcoinche parties`` does (one row per partie, its donnes
        in lists): the donne tables read a ``simcoinche simulate`` run; a flag that is
        not true/false; a missing value (but a passed-out donne's taker and kind); a seat
        out of its range; a hand that is not 8 cards.
    """
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"results must be a pandas DataFrame (read_results), got "
                         f"{type(df).__name__}")
    for c in keys:
        # Group keys (features, the user's own columns): present; their values are the
        # groups, missing ones included.
        if c not in df.columns:
            raise InputError(f"results table has no column {c!r}")
    for c in columns:
        if c not in df.columns:
            raise InputError(f"results table has no column {c!r}")
        col = df[c]
        if col.dtype == object and len(col):
            first = col.iloc[0]
            if isinstance(first, (list, tuple, np.ndarray)):
                raise InputError(f"results column {c!r} holds a list per row (a parties "
                                 "run?); this reads one row per donne (simcoinche simulate)")
        if c in _FLAGS and not pd.api.types.is_bool_dtype(col.dtype) and not (
                col.dtype == object and pd.api.types.infer_dtype(col, skipna=True)
                in ("boolean", "empty")):
            raise InputError(f"results column {c!r} is {col.dtype}, not true/false")
        if c not in _MAY_BE_MISSING and col.isna().any():
            # (Anything else missing would be cast to garbage or make pandas raise deep
            # inside a table.)
            raise InputError(f"results column {c!r} has {int(col.isna().sum())} missing "
                             "values")
        if c in _SEATS and len(col):
            _check_seats(col, c, *_SEATS[c])
        if c in _HANDS and len(col):
            _check_hands(col, c)


def _check_hands(col: pd.Series, name: str) -> None:
    """Bitboards of 8 of the 32 cards (a negative or wider value would be cast to another
    hand without a word)."""
    if col.dtype.kind not in "iu":
        raise InputError(f"results column {name!r} is {col.dtype}, not card bitboards")
    if col.min() < 0 or col.max() > 0xFFFFFFFF:
        raise InputError(f"results column {name!r} holds a value outside 0..2**32-1: not "
                         "a hand")
    counts = _cards_in(col.to_numpy().astype(np.uint32))
    if (counts != 8).any():
        bad = int(counts[counts != 8][0])
        raise InputError(f"results column {name!r} holds a hand of {bad} cards; a hand "
                         "has 8")


def _cards_in(hands: np.ndarray) -> np.ndarray:
    """Set bits of each ``uint32`` (numpy 1.26 has no ``bitwise_count``): the SWAR sum."""
    m1, m2, m4 = np.uint32(0x55555555), np.uint32(0x33333333), np.uint32(0x0F0F0F0F)
    x = hands - ((hands >> np.uint32(1)) & m1)
    x = (x & m2) + ((x >> np.uint32(2)) & m2)
    x = (x + (x >> np.uint32(4))) & m4
    return (x * np.uint32(0x01010101)) >> np.uint32(24)


def _check_seats(col: pd.Series, name: str, low: int, high: int) -> None:
    """Seat numbers ``low..high`` (missing values allowed); integers are checked by their
    least and greatest value, without a copy of the column."""
    if col.dtype.kind in "iu":
        least, most = col.min(), col.max()
        if least < low or most > high:
            raise InputError(f"results column {name!r} holds "
                             f"{least if least < low else most}; a seat is {low}..{high}")
        return
    try:
        seats = col.to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        raise InputError(f"results column {name!r} is {col.dtype}, not seat numbers"
                         ) from None
    bad = ~np.isnan(seats) & ((seats < low) | (seats > high) | ((seats % 1) != 0))
    if bad.any():
        raise InputError(f"results column {name!r} holds {seats[bad][0]:g}; a seat is "
                         f"{low}..{high}")


def check_min_count(min_count: object) -> int:
    """``min_count`` (groups with fewer played donnes are left out) as an ``int`` if it
    is a non-negative integer, else InputError: the one check of every table and the
    report."""
    if isinstance(min_count, bool) or not isinstance(min_count, (int, np.integer)) \
            or min_count < 0:
        raise InputError(f"min_count must be a non-negative integer, got {min_count!r}")
    return int(min_count)
