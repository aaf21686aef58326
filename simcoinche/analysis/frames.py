"""What the analysis functions check of a results table before reading it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcoinche.rules.errors import InputError


def require_columns(df: Any, columns: Sequence[str]) -> None:
    """Check that ``df`` is a results table of one row per donne with ``columns``.

    Raises
    ------
    InputError
        ``df`` is not a DataFrame; a column of ``columns`` is missing; or one holds a
        list per row, as a run of ``simcoinche parties`` does (one row per partie, its
        donnes in lists): the donne tables read a ``simcoinche simulate`` run.
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
