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


def require_columns(df: Any, columns: Sequence[str]) -> None:
    """Check that ``df`` is a results table of one row per donne with ``columns``.

    Raises
    ------
    InputError
        ``df`` is not a DataFrame; a column of ``columns`` is missing; one holds a list
        per row, as a run of ``simcoinche parties`` does (one row per partie, its donnes
        in lists): the donne tables read a ``simcoinche simulate`` run; a flag that is
        not true/false; a seat out of its range (a missing one reads as passed out).
    """
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"results must be a pandas DataFrame (read_results), got "
                         f"{type(df).__name__}")
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
        if c in _SEATS and len(col):
            _check_seats(col, c, *_SEATS[c])


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
