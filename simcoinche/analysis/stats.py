"""Success-rate tables with Wilson intervals, and bid curves, from results DataFrames.

Input tables follow the Parquet schema of ``docs/ARCHITECTURE.md`` (one row per donne),
optionally with feature columns joined to them::

    from simcoinche.analysis.features import hand_features
    df = df.join(hand_features(df, "taker").add_prefix("taker_"))
    success_rates(df, by=["taker_trump_len", "taker_majors"], min_count=100)

Passed-out donnes (``passed_out`` true, or ``taker == -1``) have no contract: every
function here leaves them out of the counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcoinche.analysis.frames import check_min_count, require_columns

# chi2_sf is re-exported: it lived here before intervals.py.
from simcoinche.analysis.intervals import chi2_sf as chi2_sf
from simcoinche.analysis.intervals import wilson_interval
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

#: Default bid levels of :func:`bid_curve`: the federal ladder, then capot.
DEFAULT_LEVELS: tuple[int, ...] = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)


def _keys(by: str | Sequence[str] | None) -> list[str]:
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    keys = list(by)
    if not all(isinstance(k, str) for k in keys):
        raise InputError(f"group keys must be column names, got {by!r}")
    return keys


def _check_z(z: object) -> float:
    """The interval's z (1.96 for 95 %): a positive finite number."""
    if isinstance(z, bool) or not isinstance(z, (int, float, np.integer, np.floating)) \
            or not 0 < float(z) < float("inf"):
        raise InputError(f"z must be a positive number (1.96 for a 95 % interval), got {z!r}")
    return float(z)


def played(df: pd.DataFrame) -> pd.DataFrame:
    """Rows with a contract (passed-out donnes removed).

    A donne is passed out when ``passed_out`` is true or ``taker`` is negative.
    """
    require_columns(df, ["taker"])
    keep = df["taker"].to_numpy(dtype=np.int64, na_value=-1) >= 0
    if "passed_out" in df.columns:
        require_columns(df, ["passed_out"])
        keep &= ~df["passed_out"].to_numpy(dtype=bool, na_value=True)
    return df.loc[keep]


def taker_team(df: pd.DataFrame) -> np.ndarray:
    """Team of the takers (``taker & 1``) per row, ``int64``; rows must have a taker."""
    require_columns(df, ["taker"])
    return df["taker"].to_numpy(dtype=np.int64) & 1


def _per_team(df: pd.DataFrame, stem: str, team: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(takers', defence's) values of the per-team columns ``{stem}_t0`` / ``{stem}_t1``."""
    a = df[f"{stem}_t0"].to_numpy(dtype=np.int64)
    b = df[f"{stem}_t1"].to_numpy(dtype=np.int64)
    return np.where(team == 0, a, b), np.where(team == 0, b, a)


def _grouped_sums(frame: pd.DataFrame, keys: list[str], values: list[str]) -> pd.DataFrame:
    """Count and sums of ``values`` per group of ``keys`` (all rows if no key), keys as
    columns, sorted by the keys (missing keys last)."""
    if keys:
        g = frame.groupby(keys, dropna=False, sort=True, observed=True)
        out = g[values].sum()
        out.insert(0, "n", g.size())
        return out.reset_index()
    out = pd.DataFrame({v: [frame[v].sum()] for v in values})
    out.insert(0, "n", [len(frame)])
    return out


def success_rates(
    df: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    min_count: int = 1,
    z: float = 1.96,
) -> pd.DataFrame:
    """Contract success rate per group, with a Wilson interval and mean marks.

    Parameters
    ----------
    df : DataFrame
        Results (Parquet schema; columns ``taker``, ``made``, ``marks_t0``,
        ``marks_t1``, ``passed_out`` if present) with any extra columns to group by,
        e.g. ``df.join(hand_features(df, "taker").add_prefix("taker_"))``.
    by : str or list of str, optional
        Group keys; none → one row for the whole table.
    min_count : int
        Groups with fewer donnes are dropped.
    z : float
        Normal quantile of the interval (1.96 → 95 %).

    Returns
    -------
    DataFrame
        One row per group, sorted by the keys (a missing key value — e.g. a trump
        feature at SA — forms its own group, last), columns: the keys, ``n`` (donnes
        played), ``made`` (contracts made), ``rate`` = made / n, ``low``/``high`` (Wilson
        interval), ``mean_marks_takers`` and ``mean_marks_defence`` (marks of the
        donne, ``marks_t*`` of the takers' team ``taker & 1`` and of the other).
        Passed-out donnes are excluded.

    Raises
    ------
    InputError
        Missing columns or a bad ``min_count``.
    """
    keys = _keys(by)
    min_count = check_min_count(min_count)
    z = _check_z(z)
    require_columns(df, ["taker", "made", "marks_t0", "marks_t1"], keys)
    d = played(df)
    team = taker_team(d)
    mt, md = _per_team(d, "marks", team)
    frame = d[keys].copy()
    frame["made"] = d["made"].to_numpy(dtype=np.int64)
    frame["_mt"] = mt
    frame["_md"] = md
    out = _grouped_sums(frame, keys, ["made", "_mt", "_md"])
    out = out[out["n"] >= max(min_count, 1)].reset_index(drop=True)
    n = out["n"].to_numpy(dtype=np.int64)
    made = out["made"].to_numpy(dtype=np.int64)
    low, high = wilson_interval(made, n, z)
    out["n"] = n
    out["made"] = made
    out["rate"] = made / np.where(n > 0, n, 1)
    out["low"] = low
    out["high"] = high
    out["mean_marks_takers"] = out.pop("_mt") / np.where(n > 0, n, 1)
    out["mean_marks_defence"] = out.pop("_md") / np.where(n > 0, n, 1)
    return out[[*keys, "n", "made", "rate", "low", "high",
                "mean_marks_takers", "mean_marks_defence"]]


def made_at(
    df: pd.DataFrame, level: int, profile: str | Profile | None = None
) -> np.ndarray:
    """Whether the takers' play of each donne would have made a bid of ``level``.

    Federal success test (RULES.md "Scoring of a donne"): with takers' total
    ``T_t = card_points + announce + belote`` of the takers' team and ``T_d`` likewise
    for the defence, a bid ``L`` is made iff ``T_t >= L`` and ``T_t > T_d``; a capot
    (``level == profile.capot_value``, 250) iff the takers won all 8 tricks.

    Parameters
    ----------
    df : DataFrame
        Played donnes only (see :func:`played`), with ``taker``, ``card_points_t*``,
        ``announce_t*``, ``belote_t*``, ``tricks_t*``.
    level : int
        Bid value.
    profile : str or Profile, optional
        Rule profile (default ``federal``); its success rule must be the federal one.

    Returns
    -------
    ndarray of bool, shape (len(df),)
    """
    prof = get_profile(profile)
    if prof.success_rule != 0:
        raise InputError(f"bid curves support the federal success rule only; profile "
                         f"{prof.name!r} has success_rule {prof.success_rule}")
    if level not in (*prof.bid_values, prof.capot_value):
        raise InputError(f"{level!r} is not a bid value of profile {prof.name!r} "
                         f"({', '.join(str(v) for v in prof.bid_values)}, "
                         f"{prof.capot_value})")
    stems = ("tricks",) if level == prof.capot_value else ("card_points", "announce",
                                                            "belote")
    require_columns(df, [f"{stem}_t{t}" for stem in stems for t in (0, 1)])
    team = taker_team(df)
    if level == prof.capot_value:
        tricks, _ = _per_team(df, "tricks", team)
        return tricks == 8
    ct, cd = _per_team(df, "card_points", team)
    at, ad = _per_team(df, "announce", team)
    bt, bd = _per_team(df, "belote", team)
    total_t = ct + at + bt
    total_d = cd + ad + bd
    return (total_t >= level) & (total_t > total_d)


def bid_curve(
    df: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    levels: Sequence[int] | None = None,
    min_count: int = 1,
    z: float = 1.96,
    profile: str | Profile | None = None,
) -> pd.DataFrame:
    """Probability, per group and bid level, that the takers would have made that bid.

    For each played donne and each level ``L`` this applies the federal success test
    to what the takers actually scored (:func:`made_at`: ``T_t >= L`` and
    ``T_t > T_d``; for the capot value, all 8 tricks). It estimates *what the
    contract's play would have made*: the hands were played toward the contract
    actually bid (its trump, and the takers' and defenders' play aimed at that bid),
    so a level far from the bid is an approximation — players aiming at a higher bid,
    or defenders against it, might have played differently.

    Parameters
    ----------
    df : DataFrame
        Results (Parquet schema) with any extra group columns. Passed-out donnes are
        excluded.
    by : str or list of str, optional
        Group keys; none → one curve for the whole table.
    levels : sequence of int, optional
        Bid values; default the profile's ladder then its capot value (federal:
        :data:`DEFAULT_LEVELS`, 80..160 and 250).
    min_count : int
        Groups with fewer played donnes are dropped.
    z : float
        Normal quantile of the Wilson interval.
    profile : str or Profile, optional
        Rule profile (default ``federal``): gives the capot value.

    Returns
    -------
    DataFrame
        Tidy: the keys, ``level``, ``n``, ``made``, ``p``, ``low``, ``high``; sorted by
        keys then level.

    Raises
    ------
    InputError
        Missing columns, empty or non-integer ``levels``, bad ``min_count``.
    """
    keys = _keys(by)
    min_count = check_min_count(min_count)
    z = _check_z(z)
    prof = get_profile(profile)
    if levels is None:
        levels = (*prof.bid_values, prof.capot_value)
    if isinstance(levels, str) or not isinstance(levels, (list, tuple, np.ndarray)) \
            or not len(levels) or not all(isinstance(x, (int, np.integer))
                                          and not isinstance(x, bool) and x > 0
                                          for x in levels):
        raise InputError(f"levels must be positive integer bid values, got {levels!r}")
    # (each one a bid value of the profile: :func:`made_at`)
    lv = [int(x) for x in levels]
    cols = [f"{s}_t{t}" for s in ("card_points", "announce", "belote", "tricks")
            for t in (0, 1)]
    require_columns(df, ["taker", *cols], keys)
    d = played(df)
    frame = d[keys].copy()
    names = [f"_L{i}" for i in range(len(lv))]
    for name, level in zip(names, lv, strict=True):
        frame[name] = made_at(d, level, prof).astype(np.int64)
    sums = _grouped_sums(frame, keys, names)
    sums = sums[sums["n"] >= max(min_count, 1)]
    tidy = sums.melt(id_vars=[*keys, "n"], value_vars=names, var_name="level",
                     value_name="made")
    tidy["level"] = tidy["level"].map(dict(zip(names, lv, strict=True))).astype(np.int64)
    tidy = tidy.sort_values([*keys, "level"], kind="stable", na_position="last")
    tidy = tidy.reset_index(drop=True)
    n = tidy["n"].to_numpy(dtype=np.int64)
    made = tidy["made"].to_numpy(dtype=np.int64)
    low, high = wilson_interval(made, n, z)
    tidy["n"] = n
    tidy["made"] = made
    tidy["p"] = made / np.where(n > 0, n, 1)
    tidy["low"] = low
    tidy["high"] = high
    return tidy[[*keys, "level", "n", "made", "p", "low", "high"]]


def dd_success_rates(
    df: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    min_count: int = 1,
    z: float = 1.96,
    profile: str | Profile | None = None,
) -> pd.DataFrame:
    """Made rate under double-dummy play against under the players' play, per group.

    A contract is made under double-dummy (DD) play when the profile's success test holds
    with the takers' DD card points (RULES.md, "Rulings on points the sources leave
    open"); see :func:`simcoinche.runs.dd_columns.dd_view`.

    Parameters
    ----------
    df : DataFrame
        Results of a ``simulate --dd`` run: either with the DD view columns
        (``read_results(path, dd=True)``) or with the ``dd_*`` columns, the hands and the
        dealer (the view is then computed here, with ``profile``).
    by : str or list of str, optional
        Group keys (``"bid_value"``, ``"trump"``…); none → one row for the whole table.
    min_count : int
        Groups with fewer played donnes are dropped.
    z : float
        Normal quantile of the Wilson intervals.
    profile : str or Profile, optional
        The run's profile (default ``federal``), used when the view is computed here.

    Returns
    -------
    DataFrame
        One row per group, sorted by the keys: the keys, ``n`` (contracts played),
        ``made``, ``rate``, ``low``, ``high`` (the players' play, Wilson interval),
        ``made_dd``, ``rate_dd``, ``low_dd``, ``high_dd`` (the same contracts under DD
        play), ``mean_points_lost`` (mean of the takers' DD card points minus the card
        points they made). Passed-out donnes are excluded.

    Raises
    ------
    InputError
        Missing columns (e.g. a run written without ``--dd``) or a bad ``min_count``.
    """
    keys = _keys(by)
    min_count = check_min_count(min_count)
    z = _check_z(z)
    require_columns(df, ["taker", "made"], keys)
    d = played(df)
    if not {"dd_made", "dd_points_lost"} <= set(d.columns):
        from simcoinche.runs.dd_columns import dd_view

        d = d.join(dd_view(d, profile))
    frame = d[keys].copy()
    frame["made"] = d["made"].to_numpy(dtype=np.int64)
    frame["made_dd"] = d["dd_made"].to_numpy(dtype=np.int64)
    frame["_lost"] = d["dd_points_lost"].to_numpy(dtype=np.int64)
    out = _grouped_sums(frame, keys, ["made", "made_dd", "_lost"])
    out = out[out["n"] >= max(min_count, 1)].reset_index(drop=True)
    n = out["n"].to_numpy(dtype=np.int64)
    safe = np.where(n > 0, n, 1)
    for suffix in ("", "_dd"):
        made = out[f"made{suffix}"].to_numpy(dtype=np.int64)
        low, high = wilson_interval(made, n, z)
        out[f"made{suffix}"] = made
        out[f"rate{suffix}"] = made / safe
        out[f"low{suffix}"] = low
        out[f"high{suffix}"] = high
    out["n"] = n
    out["mean_points_lost"] = out.pop("_lost") / safe
    return out[[*keys, "n", "made", "rate", "low", "high", "made_dd", "rate_dd", "low_dd",
                "high_dd", "mean_points_lost"]]
