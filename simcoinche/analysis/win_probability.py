"""The chances of winning a partie from a score, read off a ``simcoinche parties`` run.

:func:`partie_donnes` flattens a parties run to one row per donne; :func:`win_probability`
turns those rows into P(a team wins | its total, the other's total) with Wilson
intervals; :func:`win_probability_pivot` lays it out as a grid.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcoinche.analysis.stats import wilson_interval
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.partie import KIND, PER_DONNE
from simcoinche.runs.results import read_metadata, read_table

#: Width in points of a score bin of the table.
DEFAULT_BIN_WIDTH = 100


def check_parties_run(meta: Mapping[str, Any], where: str) -> None:
    if meta.get("kind") != KIND:
        raise InputError(f"{where!r} is not a parties run (written by simcoinche simulate, "
                         "not simcoinche parties)")


def partie_donnes(source: pd.DataFrame | str | os.PathLike[str],
                  columns: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per donne of every partie: the per-donne lists flattened.

    Parameters
    ----------
    source : DataFrame or path-like
        The rows of :func:`simcoinche.parties` (``out=None``, or read with
        :func:`simcoinche.read_results`), or a parties run on disk (file or dataset
        directory).
    columns : sequence of str, optional
        Per-donne columns to keep (:data:`PER_DONNE`; default all).

    Returns
    -------
    DataFrame
        ``partie``, ``donne`` (its index ``k`` in the partie: the key of its streams with
        the partie, dealer ``(partie + k) mod 4``), ``winner`` of the partie, then the
        per-donne columns; in partie then donne order.
    """
    cols = list(PER_DONNE if columns is None else columns)
    for c in cols:
        if c not in PER_DONNE:
            raise InputError(f"unknown per-donne column {c!r}; expected one of "
                             + ", ".join(PER_DONNE))
    if isinstance(source, pd.DataFrame):
        for c in ("partie", "winner", "n_donnes", *cols):
            if c not in source.columns:
                raise InputError(f"parties table has no column {c!r}")
        parts = source["partie"].to_numpy(dtype=np.int64)
        winner = source["winner"].to_numpy(dtype=np.int8)
        lengths = source["n_donnes"].to_numpy(dtype=np.int64)
        empty = np.zeros(0, dtype=np.int32)
        values = {c: np.concatenate([np.asarray(v) for v in source[c].to_numpy()] or [empty])
                  for c in cols}
    else:
        where = os.fspath(source)
        check_parties_run(read_metadata(source), where)
        table = read_table(source, ["partie", "winner", "n_donnes", *cols])
        parts = table["partie"].to_numpy()
        winner = table["winner"].to_numpy()
        lengths = table["n_donnes"].to_numpy().astype(np.int64)
        values = {c: table[c].combine_chunks().flatten().to_numpy(zero_copy_only=False)
                  for c in cols}
    total = int(lengths.sum())
    starts = np.cumsum(lengths) - lengths
    out = pd.DataFrame({
        "partie": np.repeat(parts, lengths),
        "donne": (np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
                  ).astype(np.int16),
        "winner": np.repeat(winner, lengths),
    })
    for c in cols:
        if len(values[c]) != total:
            raise InputError(f"per-donne column {c!r} has {len(values[c])} values for "
                             f"{total} donnes")
        out[c] = values[c]
    return out


def win_probability(source: pd.DataFrame | str | os.PathLike[str],
                    bin_width: int = DEFAULT_BIN_WIDTH, target: int | None = None,
                    min_count: int = 1, z: float = 1.96) -> pd.DataFrame:
    """P(a team wins the partie | its total, the other team's total), binned.

    Every donne of every finished partie gives two observations, one per team, of the
    score before the donne: (this team's total, the other's total) → did this team win
    the partie. A partie counts once per team and cell: the first time its score enters
    the cell (so the observations of a cell are independent parties and the Wilson
    interval holds). Parties stopped at ``max_donnes`` (winner -1) are left out.
    Both teams are pooled: the dealer moves every donne and the first dealer turns with
    the partie index, so a cell mixes every seat to deal.

    Parameters
    ----------
    source : DataFrame or path-like
        A parties run (see :func:`partie_donnes`).
    bin_width : int
        Width of a bin in points; bins ``0 .. width-1``, … up to the target, then one
        bin "target and over".
    target : int, optional
        The partie target (default: the run's profile's, else 2000).
    min_count : int
        Cells observed fewer times are left out.
    z : float
        Normal quantile of the interval (1.96 → 95 %).

    Returns
    -------
    DataFrame
        One row per cell, sorted: ``own_min``, ``own_max`` (bin of the team's total;
        ``own_max`` missing for the last, open bin), ``other_min``, ``other_max``,
        ``own``, ``other`` (bin labels), ``n`` (parties observed in the cell), ``wins``
        (of them, won by the team), ``p`` = wins / n, ``low``, ``high`` (Wilson).
    """
    if isinstance(bin_width, bool) or not isinstance(bin_width, (int, np.integer)) \
            or bin_width < 10:
        raise InputError(f"bin_width must be an integer >= 10, got {bin_width!r}")
    if isinstance(min_count, bool) or not isinstance(min_count, (int, np.integer)) \
            or min_count < 1:
        raise InputError(f"min_count must be a positive integer, got {min_count!r}")
    if target is None:
        meta = (source.attrs.get("simcoinche", {}) if isinstance(source, pd.DataFrame)
                else read_metadata(source))
        target = int(meta.get("target") or get_profile(meta.get("profile")).target)
    d = partie_donnes(source, ["score_t0", "score_t1"])
    d = d[d["winner"].to_numpy() >= 0]
    # Bins [b*w, (b+1)*w - 1] below the target (the last one cut at target - 1), then
    # one bin "target and over".
    last = -(-target // bin_width)
    n_bins = last + 1
    lows = np.minimum(np.arange(n_bins, dtype=np.int64) * bin_width, target)
    highs = np.minimum(lows + bin_width, target) - 1
    labels = [f"{lo}–{hi}" for lo, hi in zip(lows[:-1], highs[:-1], strict=True)]
    labels.append(f"{target}+")
    partie = d["partie"].to_numpy(dtype=np.int64)
    winner = d["winner"].to_numpy(dtype=np.int64)
    s = (d["score_t0"].to_numpy(dtype=np.int64), d["score_t1"].to_numpy(dtype=np.int64))

    def bin_of(x: np.ndarray) -> np.ndarray:
        return np.where(x >= target, last, np.minimum(x // bin_width, last - 1))

    cells, wins = [], []
    for t in range(2):
        own = bin_of(s[t])
        other = bin_of(s[1 - t])
        # Once per partie, team and cell.
        key = (partie * n_bins + own) * n_bins + other
        first = np.unique(key, return_index=True)[1]
        cells.append((own * n_bins + other)[first])
        wins.append((winner == t)[first])
    cell = np.concatenate(cells)
    won = np.concatenate(wins)
    n = np.bincount(cell, minlength=n_bins * n_bins)
    w = np.bincount(cell, weights=won, minlength=n_bins * n_bins).astype(np.int64)
    keep = np.flatnonzero(n >= min_count)
    own_b, other_b = keep // n_bins, keep % n_bins
    low, high = wilson_interval(w[keep], n[keep], z)

    def upper(b: np.ndarray) -> pd.Series:
        return pd.Series(highs[b], dtype="Int64").where(b != last)

    return pd.DataFrame({
        "own_min": lows[own_b], "own_max": upper(own_b),
        "other_min": lows[other_b], "other_max": upper(other_b),
        "own": [labels[b] for b in own_b], "other": [labels[b] for b in other_b],
        "n": n[keep], "wins": w[keep], "p": w[keep] / n[keep], "low": low, "high": high,
    })


def win_probability_pivot(table: pd.DataFrame, min_count: int = 1) -> pd.DataFrame:
    """The table of :func:`win_probability` as rows = the team's total, columns = the
    other's, cells ``"p %"`` (empty below ``min_count`` observations)."""
    rows = list(dict.fromkeys(table.sort_values("own_min")["own"]))
    cols = list(dict.fromkeys(table.sort_values("other_min")["other"]))
    grid = pd.DataFrame("", index=rows, columns=cols)
    for r in table.itertuples(index=False):
        if r.n >= min_count:
            grid.loc[r.own, r.other] = f"{100 * r.p:.0f}"
    grid.index.name = "us \\ them"
    return grid.reset_index()


