"""A self-contained report of a simulation run: Markdown tables, CSV copies and PNG plots.

``write_report("runs/x.parquet", "report/")`` reads the run with
:func:`simcoinche.read_results` and :func:`simcoinche.read_metadata` and writes into the
output directory:

- ``report.md`` — the run's metadata, an overview and the headline tables below, with
  the plots embedded (relative links, so the directory can be moved or published whole);
- one CSV per table (``<name>.csv``, full precision, the columns of :data:`TABLES`);
- the PNGs of :mod:`simcoinche.analysis.plots` (bid curves by trump length and by top trumps,
  the success heatmap, the marks histograms).

Every table is computed from played donnes only (passed-out donnes have no contract).
Rates come with a Wilson 95 % interval (:func:`simcoinche.analysis.stats.wilson_interval`).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcoinche.analysis.frames import check_min_count
from simcoinche.analysis.stats import (
    bid_curve,
    dd_success_rates,
    played,
    success_rates,
    taker_team,
)
from simcoinche.analysis.win_probability import (
    DEFAULT_BIN_WIDTH,
    check_parties_run,
    win_probability,
    win_probability_pivot,
)
from simcoinche.rules.cards import CONTRACT_KIND_NAMES
from simcoinche.rules.errors import InputError, RunError
from simcoinche.rules.profiles import describe_profile, get_profile, profile_of_run
from simcoinche.runs.arguments import check_flag, output_path
from simcoinche.runs.results import (
    COLUMNS,
    PARTIES_KIND,
    read_metadata,
    read_results,
    read_table,
)

#: Tables of the report: name → (title, {column: meaning}). The CSV of each table has
#: exactly these columns, in this order; ``report.md`` shows them with the same names.
TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "overview": ("Overview", {
        "quantity": "what is counted",
        "value": "its value over the whole run",
    }),
    "success_by_level": ("Contract success by bid level", {
        "bid_value": "contract value (capot: the profile's capot value, 250)",
        "n": "contracts played at that value",
        "share": "share of all played contracts",
        "made": "contracts made",
        "rate": "made / n",
        "low": "Wilson 95 % interval, lower bound of rate",
        "high": "Wilson 95 % interval, upper bound of rate",
        "mean_marks_takers": "mean marks of the takers' team per donne",
        "mean_marks_defence": "mean marks of the defence per donne",
    }),
    "success_by_kind": ("Contract success by contract kind", {
        "trump": "contract kind: S H D C (trump suit), SA, TA",
        "n": "contracts played", "made": "contracts made", "rate": "made / n",
        "low": "Wilson 95 % lower bound", "high": "Wilson 95 % upper bound",
        "mean_marks_takers": "mean marks of the takers' team",
        "mean_marks_defence": "mean marks of the defence",
    }),
    "success_by_trumps": ("Contract success by the taker's trump length × top trumps", {
        "trump_len": "trumps held by the taker (suit contracts only)",
        "top_trumps": "how many of J, 9, A of trump the taker held",
        "n": "contracts played", "made": "contracts made", "rate": "made / n",
        "low": "Wilson 95 % lower bound", "high": "Wilson 95 % upper bound",
        "mean_marks_takers": "mean marks of the takers' team",
        "mean_marks_defence": "mean marks of the defence",
    }),
    "bid_curve_by_trump_len": ("Bid curve by the taker's trump length", {
        "trump_len": "trumps held by the taker (suit contracts only)",
        "level": "bid value L (capot: 250)",
        "n": "contracts played with that trump length",
        "made": "donnes whose takers' play would have made L (federal test: T_t >= L "
                "and T_t > T_d; capot: all 8 tricks)",
        "p": "made / n", "low": "Wilson 95 % lower bound", "high": "Wilson 95 % upper bound",
    }),
    "bid_curve_by_top_trumps": ("Bid curve by the taker's top trumps (J, 9, A)", {
        "top_trumps": "how many of J, 9, A of trump the taker held",
        "level": "bid value L (capot: 250)",
        "n": "contracts played with that many top trumps",
        "made": "donnes whose takers' play would have made L",
        "p": "made / n", "low": "Wilson 95 % lower bound", "high": "Wilson 95 % upper bound",
    }),
    "coinche_outcomes": ("Coinche outcomes", {
        "coinche": "1 not coinched, 2 coinched, 4 surcoinched",
        "n": "contracts played", "share": "share of all played contracts",
        "made": "contracts made (the takers were right)", "rate": "made / n",
        "low": "Wilson 95 % lower bound", "high": "Wilson 95 % upper bound",
        "mean_marks_takers": "mean marks of the takers' team",
        "mean_marks_defence": "mean marks of the defence",
    }),
    # Runs written with ``simulate --dd`` only.
    "dd_by_level": ("Double-dummy against the players' play, by bid level", {
        "bid_value": "contract value (capot: the profile's capot value, 250)",
        "n": "contracts played",
        "made": "made by the players' play", "rate": "made / n",
        "low": "Wilson 95 % lower bound of rate", "high": "Wilson 95 % upper bound of rate",
        "made_dd": "made under double-dummy play (the profile's success test on the "
                   "takers' DD card points)",
        "rate_dd": "made_dd / n", "low_dd": "Wilson 95 % lower bound of rate_dd",
        "high_dd": "Wilson 95 % upper bound of rate_dd",
        "mean_points_lost": "mean card points the takers' play lost to DD (DD card "
                            "points minus the card points made)",
    }),
    "dd_by_kind": ("Double-dummy against the players' play, by contract kind", {
        "trump": "contract kind: S H D C (trump suit), SA, TA",
        "n": "contracts played",
        "made": "made by the players' play", "rate": "made / n",
        "low": "Wilson 95 % lower bound of rate", "high": "Wilson 95 % upper bound of rate",
        "made_dd": "made under double-dummy play", "rate_dd": "made_dd / n",
        "low_dd": "Wilson 95 % lower bound of rate_dd",
        "high_dd": "Wilson 95 % upper bound of rate_dd",
        "mean_points_lost": "mean card points the takers' play lost to DD",
    }),
}
#: Tables computed only from a run written with ``simulate --dd``.
DD_TABLES = ("dd_by_level", "dd_by_kind")

PLOT_CAPTIONS = {
    "bid_curve_by_trump_len.png": "Bid curves by the taker's trump length",
    "bid_curve_by_top_trumps.png": "Bid curves by the taker's top trumps (J, 9, A)",
    "success_heatmap.png": "Contracts made by trump length × top trumps",
    "marks_distribution.png": "Distribution of the marks of each donne",
}


@dataclass
class Report:
    """What :func:`write_report` wrote."""

    out_dir: Path
    markdown: Path
    tables: dict[str, Path]
    plots: list[Path]
    notes: list[str]


def _check_out_dir(out_dir: str | os.PathLike[str], overwrite: bool) -> Path:
    """The output directory, checked but not created (:func:`_staged` creates it once
    the report is complete): not a file, empty unless ``overwrite``. Whether it can be
    written is :func:`_staged`'s first step."""
    p = output_path(out_dir, "output directory", opened_by_pyarrow=False)
    overwrite = check_flag(overwrite, "overwrite")
    if p.exists() and not p.is_dir():
        raise InputError(f"output {str(p)!r} is a file, not a directory")
    if p.is_dir() and any(p.iterdir()) and not overwrite:
        raise InputError(f"output directory {str(p)!r} is not empty; use --overwrite")
    return p


@contextlib.contextmanager
def _staged(out: Path) -> Iterator[Path]:
    """A fresh hidden directory to write the report in, on the file system of ``out``
    (in ``out``'s nearest existing ancestor), moved into place only when the report is
    complete: renamed to ``out`` when it does not exist, else its files renamed into
    ``out`` one by one, ``report.md`` last (renames within one file system: nothing is
    copied, so a full disk fails while writing, before ``out`` is touched). A report
    that fails leaves ``out`` as it was: no half-written report, no empty directory.
    Every file it would replace is checked first (a directory or a read-only file of
    the same name is an InputError naming it); a failed write is a RunError of one
    line. Where ``out`` holds an earlier report (its ``report.md``), that report's files
    which this one does not write (a plot not drawn this time, the tables of a report of
    the other kind) are removed once this one is in place, so that no file of another
    run passes for this one's (a read-only one is refused first); other files are left
    alone."""
    anchor = out
    while not anchor.exists() and anchor != anchor.parent:
        anchor = anchor.parent
    stage = anchor / f".simcoinche-report-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        stage.mkdir()  # (the mode a plain mkdir gives: it may become ``out`` itself)
    except OSError as exc:
        raise InputError(f"cannot write into {str(anchor)!r}: {exc.strerror}") from None
    try:
        try:
            yield stage
        except OSError as exc:
            raise RunError(f"cannot write the report: {exc.strerror or exc}") from None
        names = sorted((q.name for q in stage.iterdir()), key=lambda n: n == "report.md")
        # An earlier report's files (only where one was written: its report.md is there).
        earlier = (out / "report.md").is_file()
        stale = [out / name for name in sorted(_report_files() - set(names)) if earlier
                 and (out / name).is_file() and not (out / name).is_symlink()]
        for name in names:
            dest = out / name
            if dest.is_symlink() or (dest.exists() and not dest.is_file()):
                raise InputError(f"cannot write {str(dest)!r}: not a regular file")
            if dest.exists() and not os.access(dest, os.W_OK):
                raise InputError(f"cannot write {str(dest)!r}: permission denied")
        for path in stale:
            if not os.access(path, os.W_OK):
                raise InputError(f"cannot remove {str(path)!r} (an earlier report's file "
                                 "this one does not write): permission denied")
        try:
            if not out.exists():
                out.parent.mkdir(parents=True, exist_ok=True)
                os.rename(stage, out)
            else:
                for name in names:
                    os.replace(stage / name, out / name)
                for path in stale:
                    path.unlink()
        except OSError as exc:
            raise RunError(f"cannot write the report into {str(out)!r}: "
                           f"{exc.strerror or exc}") from None
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _report_files() -> frozenset[str]:
    """Every file name a report writes: of donnes (its tables, plots and ``report.md``)
    or of parties (overview, win probability)."""
    return frozenset({"report.md", *(f"{name}.csv" for name in TABLES), *PLOT_CAPTIONS,
                      "overview.csv", f"{TABLE_NAME}.csv", f"{TABLE_NAME}.png"})


def _moved(rep: Report, out: Path) -> Report:
    """``rep`` (written in a staging directory) with its paths in ``out``."""
    return Report(out, out / rep.markdown.name,
                  {k: out / p.name for k, p in rep.tables.items()},
                  [out / p.name for p in rep.plots], rep.notes)


def _with_features(df: pd.DataFrame, profile: Any) -> pd.DataFrame:
    from simcoinche.analysis.plots import with_taker_features

    return with_taker_features(df, ["trump_len", "top_trumps"], profile)


def headline_tables(df: pd.DataFrame, profile: Any = None, min_count: int = 1
                    ) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Compute every table of :data:`TABLES` from a results DataFrame.

    Parameters
    ----------
    df : DataFrame
        Results in the Parquet schema (raw or with ``taker_*`` feature columns).
    profile : str or Profile, optional
        The run's profile (default ``federal``): ladder, capot value, point tables.
    min_count : int
        Groups with fewer played donnes are left out of the grouped tables.

    Returns
    -------
    tables : dict of DataFrame
        Keyed by the names of :data:`TABLES`, columns as documented there.
    notes : list of str
        Why a table is missing (e.g. bid curves need the federal success test).
    """
    prof = get_profile(profile)
    d = played(df)
    notes: list[str] = []
    tables: dict[str, pd.DataFrame] = {}
    n_all = len(df)
    n_played = len(d)
    if n_played == 0:
        raise InputError("the results have no played donne (all passed out)")
    team = taker_team(d)
    m0 = d["marks_t0"].to_numpy(dtype=np.int64)
    m1 = d["marks_t1"].to_numpy(dtype=np.int64)
    mt = np.where(team == 0, m0, m1)
    md = np.where(team == 0, m1, m0)
    made = d["made"].to_numpy(dtype=bool)
    coinched = d["coinche"].to_numpy(dtype=np.int64) > 1
    all_m0 = df["marks_t0"].to_numpy(dtype=np.int64)
    all_m1 = df["marks_t1"].to_numpy(dtype=np.int64)
    tables["overview"] = pd.DataFrame({"quantity": [
        "donnes", "passed out (share)", "contracts played", "contracts made (share)",
        "coinched or surcoinched (share of contracts)", "capot bids",
        "mean marks per donne, team 0", "mean marks per donne, team 1",
        "mean marks per contract, takers", "mean marks per contract, defence",
    ], "value": [
        f"{n_all:,}", _pct((n_all - n_played) / n_all), f"{n_played:,}",
        _pct(made.mean()), _pct(coinched.mean()),
        f"{int(d['capot_bid'].to_numpy(dtype=bool).sum()):,}",
        f"{all_m0.mean():.1f}", f"{all_m1.mean():.1f}", f"{mt.mean():.1f}",
        f"{md.mean():.1f}",
    ]})

    t = success_rates(d, by="bid_value", min_count=min_count)
    t.insert(2, "share", t["n"] / n_played)
    tables["success_by_level"] = t

    k = d
    if not isinstance(k["trump"].dtype, pd.CategoricalDtype):
        k = d.copy()
        k["trump"] = pd.Categorical.from_codes(k["trump"].to_numpy().astype(np.int8),
                                               categories=list(CONTRACT_KIND_NAMES))
    # Rows in the order S H D C SA TA (the category order).
    t = success_rates(k, by="trump", min_count=min_count)
    t["trump"] = t["trump"].astype(str)
    tables["success_by_kind"] = t

    f = _with_features(d, prof)
    keys = ["taker_trump_len", "taker_top_trumps"]
    t = success_rates(f, by=keys, min_count=min_count).dropna(subset=keys)
    t = t.rename(columns={"taker_trump_len": "trump_len", "taker_top_trumps": "top_trumps"})
    tables["success_by_trumps"] = t.reset_index(drop=True)

    for feat in ("trump_len", "top_trumps"):
        name = f"bid_curve_by_{feat}"
        try:
            c = bid_curve(f, by=f"taker_{feat}", min_count=min_count, profile=prof)
        except InputError as exc:
            notes.append(f"{TABLES[name][0]}: not computed ({exc})")
            continue
        c = c.dropna(subset=[f"taker_{feat}"]).rename(columns={f"taker_{feat}": feat})
        tables[name] = c.reset_index(drop=True)

    t = success_rates(d, by="coinche", min_count=min_count)
    t.insert(2, "share", t["n"] / n_played)
    tables["coinche_outcomes"] = t

    if any(c.startswith("dd_") for c in d.columns):
        # simulate --dd: made rates under double-dummy play against the players' play.
        dd = d
        if "dd_made" not in dd.columns:
            from simcoinche.runs.dd_columns import dd_view

            dd = dd.join(dd_view(dd, prof))
        tables["dd_by_level"] = dd_success_rates(dd, by="bid_value", min_count=min_count)
        dd = dd.copy()
        dd["trump"] = k["trump"]  # categorical: rows in the order S H D C SA TA
        t = dd_success_rates(dd, by="trump", min_count=min_count)
        t["trump"] = t["trump"].astype(str)
        tables["dd_by_kind"] = t
    for name, t in tables.items():
        tables[name] = t[list(TABLES[name][1])]
    return tables, notes


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _fmt(value: Any, column: str) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)) or value is pd.NA:
        return ""
    if column in ("rate", "low", "high", "p", "share", "rate_dd", "low_dd", "high_dd"):
        return f"{100 * float(value):.1f} %"
    if column.startswith("mean_"):
        return f"{float(value):.1f}"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}" if column in ("n", "made", "made_dd") else str(int(value))
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def markdown_table(t: pd.DataFrame) -> str:
    """A DataFrame as a GitHub Markdown table (rates as percentages)."""
    cols = list(t.columns)
    lines = ["| " + " | ".join(cols) + " |",
             "|" + "|".join("---:" if t[c].dtype.kind in "iuf" or c in ("n",) else "---"
                            for c in cols) + "|"]
    for row in t.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v, c) for v, c in zip(row, cols, strict=True))
                     + " |")
    return "\n".join(lines)


def bid_curve_pivot(curve: pd.DataFrame, key: str, capot_value: int = 250) -> pd.DataFrame:
    """A tidy bid curve as one row per group, one column per level: ``p`` with its
    Wilson interval (``"78.1 % [77.2, 79.0]"``) and the group's ``n``."""
    rows = []
    for value, g in curve.groupby(key, sort=True):
        row: dict[str, Any] = {key: int(value), "n": f"{int(g['n'].iloc[0]):,}"}
        for r in g.itertuples(index=False):
            label = "capot" if r.level == capot_value else str(int(r.level))
            row[label] = f"{100 * r.p:.1f} [{100 * r.low:.1f}, {100 * r.high:.1f}]"
        rows.append(row)
    return pd.DataFrame(rows)


def _pivot_markdown(t: pd.DataFrame) -> str:
    cols = list(t.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" for _ in cols) + "|"]
    for row in t.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return "\n".join(lines)


def _metadata_lines(meta: dict[str, Any], source: str, rows: str = "donnes") -> list[str]:
    players = meta.get("players")
    fields = [
        ("results", f"`{source}`"),
        (rows, f"{meta['n']:,}" if isinstance(meta.get("n"), int) else meta.get("n")),
        ("seed", meta.get("seed")),
        ("profile", describe_profile(profile_of_run(meta))),
        ("players (team 0, team 1)", ", ".join(players) if isinstance(players, list)
         else players),
        ("dealer", meta.get("dealer")),
        ("simcoinche version", meta.get("version")),
        ("rules version", meta.get("rules_version")),
        ("generator", meta.get("generator")),
    ]
    lines = ["| field | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in fields if v is not None]
    return lines


REPORT_COLUMNS = tuple(c.name for c in COLUMNS if not c.record_only and c.dd_kind < 0)


def write_report(results: str | os.PathLike[str], out_dir: str | os.PathLike[str],
                 overwrite: bool = False, min_count: int = 100) -> Report:
    """Write the report of a run into ``out_dir``.

    Parameters
    ----------
    results : path-like
        A run written by ``simcoinche simulate`` (anything
        :func:`simcoinche.read_results` reads).
    out_dir : path-like
        Output directory; created if missing. Must be empty unless ``overwrite``.
    overwrite : bool
        Write into a non-empty directory: files of the same names are replaced, and the
        files of an earlier report that this one does not write are removed (other files
        are kept).
    min_count : int
        Groups (and plot lines/cells) with fewer played donnes are left out.

    Returns
    -------
    Report
        Paths written and notes on what could not be computed.

    Raises
    ------
    InputError
        Missing or unreadable results, a file that is not a simcoinche run, a
        non-empty ``out_dir`` without ``overwrite``, a bad ``min_count``, a file of the
        report's that cannot be replaced in ``out_dir``; nothing is written then.
    RunError
        A write that failed (a full disk); nothing is written then either.
    """
    min_count = check_min_count(min_count)
    meta = read_metadata(results)  # (a results path that is not one: InputError)
    kind = meta.get("kind")
    if kind not in (None, PARTIES_KIND):
        # A match's rows are deals at two tables: read as donnes of one run, they would
        # pool both players into "team 0" and "team 1".
        raise InputError(f"{os.fspath(results)!r} is a {kind} run; the report reads the "
                         "runs of simulate and parties (a match prints its own result)")
    out = _check_out_dir(out_dir, overwrite)
    with _staged(out) as stage:
        if kind == PARTIES_KIND:
            # A `simcoinche parties` run: its own overview and the win-probability table.
            rep = write_parties_report(results, stage, meta, min_count)
        else:
            rep = _write_run_report(results, stage, meta, min_count)
    return _moved(rep, out)


def _write_run_report(results: str | os.PathLike[str], out: Path, meta: Mapping[str, Any],
                      min_count: int) -> Report:
    """The report of a simulate run into ``out`` (:func:`write_report`)."""
    from simcoinche.analysis import plots

    src = os.fspath(results)
    profile = profile_of_run(meta)
    # every per-donne column, but never the --record-play ones (the largest by far)
    columns = list(REPORT_COLUMNS)
    if meta.get("dd"):
        from simcoinche.runs.dd_columns import dd_columns

        columns += dd_columns(profile)
    df = read_results(results, columns=columns)
    tables, notes = headline_tables(df, profile, min_count=min_count)
    f = _with_features(df, profile)

    written: dict[str, Path] = {}
    for name, t in tables.items():
        path = out / f"{name}.csv"
        t.to_csv(path, index=False)
        written[name] = path

    pngs: list[Path] = []
    makers = (
        ("bid_curve_by_trump_len.png",
         lambda: plots.plot_bid_curves(f, out, by="trump_len", min_count=min_count,
                                       profile=profile)),
        ("bid_curve_by_top_trumps.png",
         lambda: plots.plot_bid_curves(f, out, by="top_trumps", min_count=min_count,
                                       profile=profile)),
        ("success_heatmap.png",
         lambda: plots.plot_success_heatmap(f, out, min_count=min_count, profile=profile)),
        ("marks_distribution.png", lambda: plots.plot_marks(f, out)),
    )
    for name, make in makers:
        try:
            pngs.append(make())
        except InputError as exc:
            notes.append(f"plot {name}: not drawn ({exc})")

    md = [f"# simcoinche report: {Path(src).name}", "",
          "Generated by `simcoinche report`. Every table counts played donnes only "
          "(passed-out donnes have no contract); rates are shown as percentages with "
          "Wilson 95 % intervals (`low`, `high`). "
          f"Groups with fewer than {min_count:,} played donnes are left out. "
          "Each table is also written as a CSV file of the same name (full precision).",
          "", "## Run", "", *_metadata_lines(meta, src), ""]
    bid_curve_names = ("bid_curve_by_trump_len", "bid_curve_by_top_trumps")
    for name, (title, cols) in TABLES.items():
        if name in DD_TABLES and name not in tables:
            continue  # a run written without --dd
        md += [f"## {title}", ""]
        if name not in tables:
            md += ["Not computed: see the notes at the end.", ""]
            continue
        if name == DD_TABLES[0]:
            md += ["The same contracts played double-dummy: all four hands visible, both "
                   "sides perfect, from the opening lead (RULES.md). A contract is made "
                   "under DD play when the profile's success test holds with the takers' "
                   "DD card points (announcements and belote as dealt).", ""]
        t = tables[name]
        if t.empty:
            md += [f"No group has {min_count:,} played donnes or more.", ""]
        elif name in bid_curve_names:
            key = cols and next(iter(cols))
            md += ["P(made) in % at each bid level with its Wilson 95 % interval; `n` = "
                   f"contracts in the group. The full tidy table is `{name}.csv`. It "
                   "applies the success test to what the takers actually scored: a level "
                   "far from the contract bid is an approximation (players aim at the "
                   "contract bid).", "",
                   _pivot_markdown(bid_curve_pivot(t, key, profile.capot_value)), ""]
        else:
            md += [markdown_table(t), ""]
        if name != "overview":
            md += ["Columns: " + "; ".join(f"`{c}` {text}" for c, text in cols.items())
                   + ".", ""]
    md += ["## Plots", ""]
    for p in pngs:
        md += [f"### {PLOT_CAPTIONS.get(p.name, p.stem)}", "", f"![{p.stem}]({p.name})", ""]
    if notes:
        md += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    md += ["<details><summary>Run metadata (JSON)</summary>", "", "```json",
           json.dumps(meta, indent=2, sort_keys=True), "```", "", "</details>", ""]
    md_path = out / "report.md"
    md_path.write_text("\n".join(md), encoding="utf-8")
    return Report(out, md_path, written, pngs, notes)


# --- the report of a parties run ----------------------------------------------------------

OVERVIEW_CAPTION = "Overview"
TABLE_NAME = "win_probability"


def write_parties_report(results: str | os.PathLike[str], out: Path,
                         meta: Mapping[str, Any], min_count: int,
                         bin_width: int = DEFAULT_BIN_WIDTH) -> Any:
    """The report of a parties run (called by :func:`write_report`):
    overview, the win-probability table (``win_probability.csv``, tidy, ``bin_width``
    wide bins), its heatmap (``win_probability.png``) and ``report.md`` with the table
    as a grid of twice-wider bins."""
    from simcoinche.analysis.plots import plot_win_probability

    src = os.fspath(results)
    check_parties_run(meta, src)
    t = read_table(results, ["winner", "n_donnes"])
    winner = t["winner"].to_numpy().astype(np.int64)
    lengths = t["n_donnes"].to_numpy().astype(np.int64)
    n = len(winner)
    finished = lengths[winner >= 0]
    overview = pd.DataFrame({"quantity": [
        "parties", "donnes", "won by team 0 (seats 0, 2)", "won by team 1 (seats 1, 3)",
        "unfinished at max_donnes", "donnes per finished partie: mean",
        "donnes per finished partie: median, 99th percentile, max",
    ], "value": [
        f"{n:,}", f"{int(lengths.sum()):,}", f"{100 * (winner == 0).mean():.1f} %",
        f"{100 * (winner == 1).mean():.1f} %", f"{int((winner < 0).sum()):,}",
        f"{finished.mean():.2f}" if len(finished) else "",
        (f"{np.median(finished):.0f}, {np.percentile(finished, 99):.0f}, "
         f"{finished.max()}") if len(finished) else "",
    ]})
    table = win_probability(results, bin_width=bin_width)
    csv = out / f"{TABLE_NAME}.csv"
    table.to_csv(csv, index=False)
    overview_csv = out / "overview.csv"
    overview.to_csv(overview_csv, index=False)
    notes: list[str] = []
    pngs = []
    try:
        pngs.append(plot_win_probability(table, out, min_count=min_count))
    except InputError as exc:
        notes.append(f"plot {TABLE_NAME}.png: not drawn ({exc})")
    coarse = win_probability(results, bin_width=2 * bin_width)
    md = [f"# simcoinche report: {Path(src).name}", "",
          "Generated by `simcoinche report` from a `simcoinche parties` run.", "",
          "## Run", "", *_metadata_lines(dict(meta), src, rows="parties"), "",
          f"## {OVERVIEW_CAPTION}", "", markdown_table(overview), "",
          "## Chances of winning the partie from a score", "",
          "P(a team wins the partie | its total, the other team's total), in %, from the "
          "score before every donne of every finished partie, seen from both teams: a "
          "partie counts once per cell it visits for each team orientation. Rows: the "
          "team's total; columns: the other team's. Off the diagonal each partie gives a "
          "cell one observation; on the diagonal, shown `(50)`, it gives both "
          "orientations with opposite outcomes, so 50 % holds by construction and is not "
          f"a measurement. Cells visited by fewer than {min_count:,} parties are empty. "
          f"The full table in {bin_width}-point bins, with counts of parties and 95 % "
          f"intervals computed on parties (Wilson; none on the diagonal), is "
          f"`{TABLE_NAME}.csv`.", "",
          _pivot_markdown(win_probability_pivot(coarse, min_count)), ""]
    for p in pngs:
        md += ["## Heatmap", "", f"![{p.stem}]({p.name})", ""]
    if notes:
        md += ["## Notes", ""] + [f"- {x}" for x in notes] + [""]
    md_path = out / "report.md"
    md_path.write_text("\n".join(md), encoding="utf-8")
    return Report(out, md_path, {"overview": overview_csv, TABLE_NAME: csv}, pngs, notes)
