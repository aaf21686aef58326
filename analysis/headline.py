"""The project's headline tables, from the documented default run.

Default run: 1,000,000 donnes, seed 1, profile federal, heuristic players for both teams,
rotating dealer — exactly what ``make run`` (``simcoinche simulate -n 1000000 --seed 1``)
writes to ``runs/simcoinche-federal-s1-n1000000.parquet``. The script reuses that file
when its metadata matches, else simulates it (about 20 s on 2 cores), then writes
``analysis/output/headline.md``::

    .venv/bin/python analysis/headline.py                 # the default run
    .venv/bin/python analysis/headline.py -n 20000 --out /tmp/h.md   # a quick look

Tables (columns documented in :data:`simcoinche.analysis.report.TABLES`): overview, contract
success by bid level, by the taker's trump length × top trumps (as a rate matrix), the
bid curve by the taker's trump length (P(made) at each level), coinche outcomes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

import simcoinche
from simcoinche.analysis.report import bid_curve_pivot, headline_tables, markdown_table
from simcoinche.players.registry import spec_metadata
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import profile_of_run
from simcoinche.runs.simulation import default_out, simulate_to_file

HERE = Path(__file__).resolve().parent
DEFAULT_N = 1_000_000
DEFAULT_SEED = 1
PROFILE = "federal"
PLAYERS = "heuristic"


def ensure_run(n: int, seed: int, path: Path | None) -> Path:
    """Path of the run (n, seed, federal, heuristic): reused if it matches, else simulated."""
    path = path or default_out(PROFILE, seed, n)
    if path.exists():
        try:
            meta = simcoinche.read_metadata(path)
        except InputError:
            meta = {}
        # The players' kind names and every parameter value (simcoinche.players.registry
        # .spec_metadata): a run of the same kind with other parameters is not this one.
        name, params = spec_metadata(PLAYERS, PROFILE)
        if (meta.get("n"), meta.get("seed"), meta.get("profile"), meta.get("players"),
                meta.get("params"), meta.get("rules_version")) == (
                n, seed, PROFILE, [name] * 2, [params] * 2, simcoinche.RULES_VERSION):
            return path
    path.parent.mkdir(parents=True, exist_ok=True)
    summary = simulate_to_file(n, seed=seed, profile=PROFILE, players=PLAYERS, out=path,
                               overwrite=True, progress=None)
    sys.stderr.write(summary.text() + "\n")
    return path


def rate_matrix(t: pd.DataFrame) -> pd.DataFrame:
    """Success by trump length (rows) × top trumps (columns): ``rate % (n)``."""
    cells = {(int(r.trump_len), int(r.top_trumps)): f"{100 * r.rate:.1f} ({int(r.n):,})"
             for r in t.itertuples(index=False)}
    lengths = sorted({k[0] for k in cells})
    rows = []
    for tl in lengths:
        row = {"trump_len": tl}
        for top in range(4):
            row[f"{top} of J/9/A"] = cells.get((tl, top), "")
        rows.append(row)
    return pd.DataFrame(rows)


def _md(t: pd.DataFrame) -> str:
    cols = list(t.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" for _ in cols) + "|"]
    lines += ["| " + " | ".join(str(v) for v in row) + " |"
              for row in t.itertuples(index=False)]
    return "\n".join(lines)


def headline_markdown(results: Path, min_count: int = 100) -> str:
    """The headline tables of a run as Markdown."""
    meta = simcoinche.read_metadata(results)
    df = simcoinche.read_results(results)
    tables, notes = headline_tables(df, profile_of_run(meta), min_count=min_count)
    out = [
        "# simcoinche headline tables",
        "",
        f"Run: {meta['n']:,} donnes, seed {meta['seed']}, profile {meta['profile']}, "
        f"players {', '.join(meta['players'])}, simcoinche {meta['version']} (rules "
        f"version {meta['rules_version']}), generator {meta['generator']}. Produced by "
        "`analysis/headline.py`. Played donnes only; intervals are Wilson 95 %. Groups "
        f"with fewer than {min_count:,} donnes are left out.",
        "",
        "## Overview", "", markdown_table(tables["overview"]), "",
        "## Contract success by bid level", "",
        "`n` contracts at that value, `share` of all contracts, `rate` made, `low`/`high` "
        "its interval, mean marks of the takers' team and of the defence.", "",
        markdown_table(tables["success_by_level"]), "",
        "## Contracts made by the taker's trump length × top trumps", "",
        "Suit contracts; cell: % made (contracts). Top trumps = how many of J, 9, A of "
        "trump the taker held.", "",
        _md(rate_matrix(tables["success_by_trumps"])), "",
    ]
    if "bid_curve_by_trump_len" in tables:
        out += ["## Bid curve by the taker's trump length", "",
                "P(made) in % [Wilson 95 %] if the takers' play had been scored at each "
                "level (federal test: T_t ≥ L and T_t > T_d; capot: all 8 tricks). Players "
                "aimed at the contract actually bid, so levels far from it are an "
                "approximation; `simcoinche odds` plays each level exactly for one hand.", "",
                _pivot(tables["bid_curve_by_trump_len"]), ""]
    out += ["## Coinche outcomes", "", markdown_table(tables["coinche_outcomes"]), ""]
    if notes:
        out += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    return "\n".join(out)


def _pivot(curve: pd.DataFrame) -> str:
    return _md(bid_curve_pivot(curve, "trump_len"))


def main(argv: list[str] | None = None) -> int:
    """Command line of the script (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=DEFAULT_N, help="donnes (default 1,000,000)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed (default 1)")
    p.add_argument("--results", type=Path, default=None,
                   help="results file to use or create (default runs/...)")
    p.add_argument("--out", type=Path, default=HERE / "output" / "headline.md",
                   help="Markdown output (default analysis/output/headline.md)")
    p.add_argument("--min-count", type=int, default=100)
    args = p.parse_args(argv)
    try:
        path = ensure_run(args.n, args.seed, args.results)
        text = headline_markdown(path, args.min_count)
    except InputError as exc:
        sys.stderr.write(f"headline: error: {exc}\n")
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {args.out} from {path}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
