"""Plots of results tables: bid curves, a success heatmap, the distribution of marks, and
the chances of winning a partie from a score (a parties run).

Every function takes a results DataFrame in the Parquet schema (``docs/ARCHITECTURE.md``)
— raw simulator output is fine: the taker's hand features it needs
(``taker_trump_len``, ``taker_top_trumps``…) are computed with
:func:`simcoinche.analysis.features.hand_features` when the column is not already there, and
used as they are when it is (so a table featurised once can be plotted many times).
Each writes one PNG into ``out_dir`` (created if missing) and returns its path.

Rendering uses matplotlib's Agg canvas directly (``matplotlib.figure.Figure``), never
``pyplot``: no interactive backend, no global state, safe in servers and tests.
Passed-out donnes are left out, as in :mod:`simcoinche.analysis.stats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

try:
    from matplotlib import colormaps
    from matplotlib.figure import Figure
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError("simcoinche.analysis.plots needs matplotlib: pip install 'simcoinche[plots]'"
                      ) from exc
except ValueError as exc:
    # matplotlib refuses a setting of its environment (MPLBACKEND=bogus) at import.
    from simcoinche.rules.errors import InputError

    raise InputError(f"matplotlib refused its settings: {str(exc).splitlines()[0]}"
                     ) from None

from simcoinche.analysis.features import FEATURES, hand_features
from simcoinche.analysis.frames import require_columns
from simcoinche.analysis.stats import bid_curve, played, success_rates, taker_team
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

DPI = 120
_LABELS = {
    "trump_len": "trumps held by the taker",
    "top_trumps": "top trumps (J, 9, A) held by the taker",
    "majors": "majors held by the taker",
}


def _out_dir(out_dir: str | Path) -> Path:
    p = Path(out_dir)
    if p.exists() and not p.is_dir():
        raise InputError(f"output directory {str(p)!r} is a file")
    p.mkdir(parents=True, exist_ok=True)
    return p


def with_taker_features(
    df: pd.DataFrame, names: Sequence[str], profile: str | Profile | None = None
) -> pd.DataFrame:
    """``df`` with the columns ``taker_<name>`` for each feature name, computed if missing.

    Parameters
    ----------
    df : DataFrame
        Results table (Parquet schema), possibly already featurised.
    names : sequence of str
        Feature names of :data:`simcoinche.analysis.features.FEATURES`.
    profile : str or Profile, optional
        Point tables for the features (default ``federal``).

    Returns
    -------
    DataFrame
        ``df`` itself when every column is there, else a copy with them joined.
    """
    for n in names:
        if n not in FEATURES:
            raise InputError(f"unknown feature {n!r}: expected one of " + ", ".join(FEATURES))
    missing = [n for n in names if f"taker_{n}" not in df.columns]
    if not missing:
        return df
    f = hand_features(df, "taker", profile=profile)[missing].add_prefix("taker_")
    return df.join(f)


def _level_label(level: int, capot_value: int) -> str:
    return "capot" if level == capot_value else str(level)


def plot_bid_curves(
    df: pd.DataFrame,
    out_dir: str | Path,
    by: str = "trump_len",
    levels: Sequence[int] | None = None,
    min_count: int = 100,
    profile: str | Profile | None = None,
    filename: str | None = None,
) -> Path:
    """Success rate against bid level, one line per value of a taker's hand feature.

    For each value of ``taker_<by>`` (e.g. trump length, or top trumps among J, 9, A),
    plots :func:`simcoinche.analysis.stats.bid_curve` — the share of donnes whose takers'
    play would have made each bid level — with its Wilson 95 % interval as a band.
    Groups with fewer than ``min_count`` played donnes, or whose feature is undefined
    (``<NA>``, e.g. trump length at sans-atout), are not drawn.

    Parameters
    ----------
    df : DataFrame
        Results, raw or featurised (module docstring).
    out_dir : str or Path
        Directory for the PNG.
    by : str
        A feature name (``trump_len``, ``top_trumps``, ``majors``…).
    levels : sequence of int, optional
        Bid values on the x axis; default the profile's ladder and capot (labelled
        "capot").
    min_count : int
        Smallest group drawn.
    profile : str or Profile, optional
        Rule profile (default ``federal``).
    filename : str, optional
        Default ``bid_curve_by_<by>.png``.

    Returns
    -------
    Path of the PNG written.

    Raises
    ------
    InputError
        Unknown feature, missing columns, or no group with ``min_count`` donnes.
    """
    prof = get_profile(profile)
    d = with_taker_features(df, [by], prof)
    key = f"taker_{by}"
    curve = bid_curve(d, by=key, levels=levels, min_count=min_count, profile=prof)
    curve = curve[curve[key].notna()]
    if curve.empty:
        raise InputError(f"nothing to plot: no value of {key} has at least {min_count} "
                         f"played donnes (table has {len(played(df))})")
    lv = list(dict.fromkeys(curve["level"].tolist()))
    x = np.arange(len(lv))
    fig = Figure(figsize=(8, 5), dpi=DPI)
    ax = fig.add_subplot()
    groups = list(curve.groupby(key, sort=True))
    cmap = colormaps["viridis"]
    for i, (value, g) in enumerate(groups):
        colour = cmap(i / max(len(groups) - 1, 1))
        g = g.set_index("level").loc[lv]
        ax.plot(x, 100 * g["p"], marker="o", color=colour,
                label=f"{value} (n={int(g['n'].iloc[0]):,})")
        ax.fill_between(x, 100 * g["low"], 100 * g["high"], color=colour, alpha=0.2,
                        linewidth=0)
    ax.set_xticks(x, [_level_label(v, prof.capot_value) for v in lv])
    ax.set_ylim(0, 100)
    ax.set_xlabel("bid level")
    ax.set_ylabel("takers would have made it (%)")
    ax.set_title(f"Success rate by bid level and {_LABELS.get(by, by)}\n"
                 "lines: estimate; bands: Wilson 95 % interval", fontsize=11)
    ax.grid(True, alpha=0.3)
    ax.legend(title=_LABELS.get(by, by), fontsize=8, title_fontsize=8, loc="upper right")
    fig.tight_layout()
    path = _out_dir(out_dir) / (filename or f"bid_curve_by_{by}.png")
    fig.savefig(path, dpi=DPI)
    return path


def plot_success_heatmap(
    df: pd.DataFrame,
    out_dir: str | Path,
    min_count: int = 30,
    profile: str | Profile | None = None,
    filename: str = "success_heatmap.png",
) -> Path:
    """Heatmap of P(contract made) over taker's trump length × top trumps (J, 9, A).

    Each cell is :func:`simcoinche.analysis.stats.success_rates` of the donnes whose taker held
    that many trumps and that many of J, 9, A of trump (suit contracts only: both
    features are undefined at SA/TA); it shows the rate and the count. Cells with
    fewer than ``min_count`` donnes are grey and show only the count.

    Parameters
    ----------
    df : DataFrame
        Results, raw or featurised (module docstring).
    out_dir : str or Path
        Directory for the PNG.
    min_count : int
        Smallest cell coloured.
    profile : str or Profile, optional
        Rule profile for the features (default ``federal``).
    filename : str
        Name of the PNG.

    Returns
    -------
    Path of the PNG written.

    Raises
    ------
    InputError
        Missing columns, or no cell with ``min_count`` donnes.
    """
    d = with_taker_features(df, ["trump_len", "top_trumps"], profile)
    keys = ["taker_trump_len", "taker_top_trumps"]
    t = success_rates(d, by=keys, min_count=1)
    t = t.dropna(subset=keys)
    if not (t["n"] >= max(min_count, 1)).any():
        raise InputError(f"nothing to plot: no (trump length, top trumps) cell has at "
                         f"least {min_count} played donnes (table has {len(played(df))})")
    lengths = np.arange(int(t[keys[0]].min()), int(t[keys[0]].max()) + 1)
    tops = np.arange(4)
    rate = np.full((len(tops), len(lengths)), np.nan)
    count = np.zeros((len(tops), len(lengths)), dtype=np.int64)
    for row in t.itertuples(index=False):
        i, j = int(row[1]), int(row[0]) - lengths[0]
        count[i, j] = row.n
        if row.n >= min_count:
            rate[i, j] = row.rate
    fig = Figure(figsize=(max(6, 1.1 * len(lengths) + 2), 4.5), dpi=DPI)
    ax = fig.add_subplot()
    cmap = colormaps["RdYlGn"].with_extremes(bad="lightgrey")
    im = ax.imshow(np.ma.masked_invalid(100 * rate), cmap=cmap, vmin=0, vmax=100,
                   origin="lower", aspect="auto")
    for i in range(len(tops)):
        for j in range(len(lengths)):
            if count[i, j] == 0:
                continue
            text = f"n={count[i, j]:,}"
            if not np.isnan(rate[i, j]):
                text = f"{100 * rate[i, j]:.0f}%\n" + text
            ax.text(j, i, text, ha="center", va="center", fontsize=7)
    ax.set_xticks(np.arange(len(lengths)), [str(v) for v in lengths])
    ax.set_yticks(np.arange(len(tops)), [str(v) for v in tops])
    ax.set_xlabel("trumps held by the taker")
    ax.set_ylabel("top trumps held (J, 9, A)")
    ax.set_title(f"Contracts made (%) by the taker's trump length and top trumps\n"
                 f"suit contracts; grey: fewer than {min_count} donnes", fontsize=11)
    fig.colorbar(im, ax=ax, label="made (%)")
    fig.tight_layout()
    path = _out_dir(out_dir) / filename
    fig.savefig(path, dpi=DPI)
    return path


def plot_marks(
    df: pd.DataFrame,
    out_dir: str | Path,
    bin_width: int = 10,
    filename: str = "marks_distribution.png",
) -> Path:
    """Histograms of the marks of each donne: takers' team and defence.

    Parameters
    ----------
    df : DataFrame
        Results (needs ``taker``, ``marks_t0``, ``marks_t1``; ``passed_out``).
    out_dir : str or Path
        Directory for the PNG.
    bin_width : int
        Width of a bin in marks; bins are centred on multiples of it.
    filename : str
        Name of the PNG.

    Returns
    -------
    Path of the PNG written.

    Raises
    ------
    InputError
        Missing columns, no played donne, or a bad ``bin_width``.
    """
    if isinstance(bin_width, bool) or not isinstance(bin_width, (int, np.integer)) \
            or bin_width <= 0:
        raise InputError(f"bin_width must be a positive integer, got {bin_width!r}")
    require_columns(df, ["taker", "marks_t0", "marks_t1"])
    d = played(df)
    if d.empty:
        raise InputError("nothing to plot: the table has no played donne")
    team = taker_team(d)
    m0 = d["marks_t0"].to_numpy(dtype=np.int64)
    m1 = d["marks_t1"].to_numpy(dtype=np.int64)
    takers = np.where(team == 0, m0, m1)
    defence = np.where(team == 0, m1, m0)
    lo = min(takers.min(), defence.min())
    hi = max(takers.max(), defence.max())
    edges = np.arange(lo - bin_width / 2, hi + bin_width, bin_width)
    fig = Figure(figsize=(8, 6), dpi=DPI)
    axes = fig.subplots(2, 1, sharex=True)
    for ax, values, name, colour in ((axes[0], takers, "takers", "tab:blue"),
                                     (axes[1], defence, "defence", "tab:orange")):
        ax.hist(values, bins=edges, color=colour)
        mean = values.mean()
        ax.axvline(mean, color="black", linestyle="--", linewidth=1,
                   label=f"mean {mean:.1f}")
        ax.set_ylabel("donnes")
        ax.set_title(f"marks of the {name} (n={len(values):,})", fontsize=10)
        # A fixed place: matplotlib's "best" searches the plotted data for one, which is
        # slow on large runs (it warns when that search takes over a second).
        ax.legend(fontsize=8, loc="upper right")
        ax.grid(True, alpha=0.3)
    axes[1].set_xlabel("marks of the donne")
    fig.suptitle("Distribution of marks per donne", fontsize=11)
    fig.tight_layout()
    path = _out_dir(out_dir) / filename
    fig.savefig(path, dpi=DPI)
    return path


def plot_win_probability(
    table: pd.DataFrame,
    out_dir: str | Path,
    min_count: int = 100,
    filename: str = "win_probability.png",
    title: str | None = None,
) -> Path:
    """Heatmap of P(a team wins the partie | its total, the other team's total).

    Parameters
    ----------
    table : DataFrame
        :func:`simcoinche.runs.partie.win_probability` (columns ``own_min``, ``other_min``,
        ``own``, ``other``, ``n``, ``p``).
    out_dir : str or Path
        Directory for the PNG.
    min_count : int
        Cells observed fewer times are grey.
    filename : str
        Name of the PNG.
    title : str, optional
        First line of the title (default: the question answered).

    Returns
    -------
    Path of the PNG written.

    Raises
    ------
    InputError
        Missing columns, or no cell with ``min_count`` observations.
    """
    for c in ("own_min", "other_min", "own", "other", "n", "p"):
        if c not in table.columns:
            raise InputError(f"win-probability table has no column {c!r}")
    if not (table["n"] >= max(min_count, 1)).any():
        raise InputError(f"nothing to plot: no cell has at least {min_count} observations")
    rows = table.drop_duplicates("own_min").sort_values("own_min")
    cols = table.drop_duplicates("other_min").sort_values("other_min")
    labels = sorted(set(rows["own_min"]) | set(cols["other_min"]))
    names = dict(zip(rows["own_min"], rows["own"], strict=True))
    names.update(zip(cols["other_min"], cols["other"], strict=True))
    pos = {v: i for i, v in enumerate(labels)}
    k = len(labels)
    rate = np.full((k, k), np.nan)
    for r in table.itertuples(index=False):
        if r.n >= min_count:
            rate[pos[r.own_min], pos[r.other_min]] = r.p
    size = max(6.0, 0.42 * k + 2.5)
    fig = Figure(figsize=(size + 1.2, size), dpi=DPI)
    ax = fig.add_subplot()
    cmap = colormaps["RdYlGn"].with_extremes(bad="lightgrey")
    im = ax.imshow(np.ma.masked_invalid(100 * rate), cmap=cmap, vmin=0, vmax=100,
                   origin="lower", aspect="equal")
    for i in range(k):
        for j in range(k):
            if not np.isnan(rate[i, j]):
                ax.text(j, i, f"{100 * rate[i, j]:.0f}", ha="center", va="center",
                        fontsize=6 if k > 14 else 8)
    ticks = [names[v] for v in labels]
    ax.set_xticks(np.arange(k), ticks, rotation=90, fontsize=7)
    ax.set_yticks(np.arange(k), ticks, fontsize=7)
    ax.set_xlabel("the other team's total")
    ax.set_ylabel("our total")
    head = title or "Chances of winning the partie from the score before a donne (%)"
    ax.set_title(f"{head}\ngrey: fewer than {min_count:,} parties observed", fontsize=10)
    fig.colorbar(im, ax=ax, label="P(win) (%)", shrink=0.8)
    fig.tight_layout()
    path = _out_dir(out_dir) / filename
    fig.savefig(path, dpi=DPI)
    return path


def plot_all(
    df: pd.DataFrame,
    out_dir: str | Path,
    min_count: int = 100,
    profile: str | Profile | None = None,
) -> list[Path]:
    """Every standard plot: bid curves by trump length and by top trumps, the success
    heatmap and the marks histograms. Features are computed once.

    Returns
    -------
    list of Path
        The PNGs written, in that order.
    """
    d = with_taker_features(df, ["trump_len", "top_trumps"], profile)
    return [
        plot_bid_curves(d, out_dir, by="trump_len", min_count=min_count, profile=profile),
        plot_bid_curves(d, out_dir, by="top_trumps", min_count=min_count, profile=profile),
        plot_success_heatmap(d, out_dir, min_count=min_count, profile=profile),
        plot_marks(d, out_dir),
    ]
