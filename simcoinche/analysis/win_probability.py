"""The chances of winning a partie from a score, read off a ``simcoinche parties`` run.

:func:`partie_donnes` flattens a parties run to one row per donne; :func:`win_probability`
turns those rows into P(a team wins | its total, the other's total), counted on parties
with intervals on parties (:func:`clustered_wilson`); :func:`win_probability_pivot` lays
it out as a grid.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simcoinche.analysis.frames import check_min_count
from simcoinche.analysis.intervals import wilson_interval
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import MAX_TARGET, profile_of_run
from simcoinche.runs.results import PARTIES_KIND, PER_DONNE, read_metadata, read_table

#: Width in points of a score bin of the table.
DEFAULT_BIN_WIDTH = 100


def source_metadata(source: pd.DataFrame | str | os.PathLike[str]) -> dict[str, Any] | None:
    """The run metadata of a source of parties: a frame's (``attrs``, which pandas drops
    from a frame concatenated from several runs: None) or a file's or dataset's."""
    meta = (source.attrs.get("simcoinche") if isinstance(source, pd.DataFrame)
            else read_metadata(source))
    return meta if isinstance(meta, dict) else None


def partie_target(meta: Mapping[str, Any]) -> int:
    """The target a parties run played to: the one it records, else its profile's."""
    return int(meta.get("target") or profile_of_run(meta).target)


def check_parties_run(meta: Mapping[str, Any], where: str) -> None:
    if meta.get("kind") != PARTIES_KIND:
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


def clustered_wilson(cluster_cell: np.ndarray, m: np.ndarray, y: np.ndarray,
                     n_cells: int, z: float = 1.96
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Proportions per cell with a cluster-robust Wilson interval (clusters: parties).

    Each cluster ``i`` (one partie in one cell) supplies ``m[i]`` observations of which
    ``y[i]`` are successes. Per cell, with ``G`` clusters, ``M = sum m`` and
    ``p = sum y / M`` (the ratio estimator), the cluster-robust variance of ``p`` is
    ``V = sum (y_i - p m_i)^2 / M^2`` (the sandwich, CR0). The interval is Wilson's at the
    effective number of independent observations ``n_eff = p (1 - p) / V``, capped at
    ``G``: exactly Wilson on ``G`` parties when no partie supplies two observations to
    the cell (then ``V = p (1 - p) / G``), and never narrower than one independent
    observation per partie. When ``V = 0`` with ``0 < p < 1`` (every partie supplies
    opposite outcomes that cancel, as on the diagonal of the win-probability table) the
    data say nothing about ``p``: ``low``/``high`` are NaN.

    Parameters
    ----------
    cluster_cell : int64[k]
        Cell of each cluster (``0 .. n_cells-1``).
    m, y : int64[k]
        Observations and successes of each cluster (``0 <= y <= m``, ``m >= 1``).
    n_cells : int
    z : float
        Normal quantile (1.96 → 95 %).

    Returns
    -------
    clusters, observations, successes : int64[n_cells]
    low, high : float64[n_cells]
        The interval (NaN for an empty cell or one without information).
    """
    g = np.bincount(cluster_cell, minlength=n_cells).astype(np.int64)
    big_m = np.bincount(cluster_cell, weights=m, minlength=n_cells).astype(np.int64)
    w = np.bincount(cluster_cell, weights=y, minlength=n_cells).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = w / big_m
        r = y - p[cluster_cell] * m
        v = np.bincount(cluster_cell, weights=r * r, minlength=n_cells) / big_m.astype(
            np.float64) ** 2
        n_eff = np.where(v > 0, np.minimum(p * (1 - p) / v, g), g).astype(np.float64)
    # V = 0 in a cell where some partie gives several observations: the outcomes are
    # the same proportion p in every partie (here: each partie's two orientations, one
    # win and one loss), so the cell carries no information on p — no interval.
    low = np.full(n_cells, np.nan)
    high = np.full(n_cells, np.nan)
    # One observation per partie: the plain Wilson interval on the parties.
    single = np.flatnonzero((g > 0) & (big_m == g))
    if single.size:
        low[single], high[single] = wilson_interval(w[single], g[single], z)
    # Several observations from some partie: Wilson at the effective count.
    k = np.flatnonzero((g > 0) & (big_m > g) & (v > 0))
    if k.size:
        pk, nk = p[k], n_eff[k]
        z2 = z * z
        centre = (pk + z2 / (2 * nk)) / (1 + z2 / nk)
        half = z * np.sqrt(pk * (1 - pk) / nk + z2 / (4 * nk * nk)) / (1 + z2 / nk)
        low[k] = np.clip(centre - half, 0.0, 1.0)
        high[k] = np.clip(centre + half, 0.0, 1.0)
    return g, big_m, w, low, high


def win_probability(source: pd.DataFrame | str | os.PathLike[str],
                    bin_width: int = DEFAULT_BIN_WIDTH, target: int | None = None,
                    min_count: int = 1, z: float = 1.96) -> pd.DataFrame:
    """P(a team wins the partie | its total, the other team's total), binned.

    What is counted. Before every donne of every finished partie the score is seen from
    both team *orientations*: (team 0's total, team 1's) → did team 0 win, and (team 1's,
    team 0's) → did team 1 win. Each orientation of a partie counts once per cell it
    visits (the first time). So a partie supplies one observation to an off-diagonal
    cell per orientation that visits it — and since a team's total never decreases, one
    orientation at most: off the diagonal, observations are parties, independent, with
    a Wilson interval. On the diagonal (both totals in the same bin) every visit is seen
    from both orientations at once, with opposite outcomes: such a cell's 50 % is true
    *by construction* (both teams pooled), not a measurement, so it is flagged
    ``symmetric`` and gets no interval. Intervals are computed on parties whatever the
    input (:func:`clustered_wilson`, clusters = parties): a cell where one partie
    supplies several observations gets a cluster-robust interval. ``n`` counts parties.
    Parties stopped at ``max_donnes`` (winner -1) are left out. The dealer moves every
    donne and the first dealer turns with the partie index, so a cell mixes every seat
    to deal.

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
        Cells visited by fewer parties are left out.
    z : float
        Normal quantile of the interval (1.96 → 95 %).

    Returns
    -------
    DataFrame
        One row per cell, sorted: ``own_min``, ``own_max`` (bin of the team's total;
        ``own_max`` missing for the last, open bin), ``other_min``, ``other_max``,
        ``own``, ``other`` (bin labels), ``n`` (parties that visited the cell),
        ``observations`` (partie orientations that visited it: ``n`` off the diagonal,
        ``2 n`` on it), ``wins`` (observations won by the team whose total is ``own``),
        ``p`` = wins / observations, ``low``, ``high`` (the interval on parties; NaN on
        the diagonal), ``symmetric`` (True on the diagonal: ``p`` = 50 % by
        construction).
    """
    if isinstance(bin_width, bool) or not isinstance(bin_width, (int, np.integer)) \
            or bin_width < 10:
        raise InputError(f"bin_width must be an integer >= 10, got {bin_width!r}")
    min_count = check_min_count(min_count)
    if target is None:
        target = partie_target(source_metadata(source) or {})
    elif isinstance(target, bool) or not isinstance(target, (int, np.integer)) \
            or not 1 <= target <= MAX_TARGET:
        raise InputError(f"target must be a whole number of points in 1..{MAX_TARGET} (a "
                         f"partie's), got {target!r}")
    d = partie_donnes(source, ["score_t0", "score_t1"])
    d = d[d["winner"].to_numpy() >= 0]
    # Bins [b*w, (b+1)*w - 1] below the target (the last one cut at target - 1), then
    # one bin "target and over".
    last = -(-target // bin_width)
    n_bins = last + 1
    n_cells = n_bins * n_bins
    lows = np.minimum(np.arange(n_bins, dtype=np.int64) * bin_width, target)
    highs = np.minimum(lows + bin_width, target) - 1
    labels = [f"{lo}–{hi}" for lo, hi in zip(lows[:-1], highs[:-1], strict=True)]
    labels.append(f"{target}+")
    partie = d["partie"].to_numpy(dtype=np.int64)
    winner = d["winner"].to_numpy(dtype=np.int64)
    s = (d["score_t0"].to_numpy(dtype=np.int64), d["score_t1"].to_numpy(dtype=np.int64))

    def bin_of(x: np.ndarray) -> np.ndarray:
        return np.where(x >= target, last, np.minimum(x // bin_width, last - 1))

    parts, cells, wins = [], [], []
    for t in range(2):
        own = bin_of(s[t])
        other = bin_of(s[1 - t])
        # Once per partie, orientation and cell.
        first = np.unique((partie * n_bins + own) * n_bins + other, return_index=True)[1]
        parts.append(partie[first])
        cells.append((own * n_bins + other)[first])
        wins.append((winner == t)[first].astype(np.int64))
    part = np.concatenate(parts)
    cell = np.concatenate(cells)
    won = np.concatenate(wins)
    # Clusters: one per (partie, cell), holding that partie's observations there.
    cluster, inverse = np.unique(part * n_cells + cell, return_inverse=True)
    inverse = inverse.ravel()
    m = np.bincount(inverse).astype(np.int64)
    y = np.bincount(inverse, weights=won).astype(np.int64)
    n, obs, w, low, high = clustered_wilson(cluster % n_cells, m, y, n_cells, z)
    # (A cell no partie reached has nothing to say, whatever min_count: 0 keeps as 1 does.)
    keep = np.flatnonzero(n >= max(min_count, 1))
    own_b, other_b = keep // n_bins, keep % n_bins

    def upper(b: np.ndarray) -> pd.Series:
        return pd.Series(highs[b], dtype="Int64").where(b != last)

    return pd.DataFrame({
        "own_min": lows[own_b], "own_max": upper(own_b),
        "other_min": lows[other_b], "other_max": upper(other_b),
        "own": [labels[b] for b in own_b], "other": [labels[b] for b in other_b],
        "n": n[keep], "observations": obs[keep], "wins": w[keep],
        "p": w[keep] / obs[keep], "low": low[keep], "high": high[keep],
        "symmetric": own_b == other_b,
    })


def win_probability_pivot(table: pd.DataFrame, min_count: int = 1) -> pd.DataFrame:
    """The table of :func:`win_probability` as rows = the team's total, columns = the
    other's, cells ``"p %"`` (empty below ``min_count`` parties; a ``symmetric`` cell, the
    diagonal, reads ``"(50)"``: 50 % by construction, not measured)."""
    rows = list(dict.fromkeys(table.sort_values("own_min")["own"]))
    cols = list(dict.fromkeys(table.sort_values("other_min")["other"]))
    grid = pd.DataFrame("", index=rows, columns=cols)
    for r in table.itertuples(index=False):
        if r.n >= min_count:
            sym = bool(getattr(r, "symmetric", False))
            grid.loc[r.own, r.other] = f"({100 * r.p:.0f})" if sym else f"{100 * r.p:.0f}"
    grid.index.name = "us \\ them"
    return grid.reset_index()


