"""Solve the match-equity tables and write them into the package (issue 22).

For each profile: simulate ``--donnes`` donnes of the ``heuristic`` players (seed
``--seed``, in chunks of a million), take the distribution of their outcomes seen from
the dealing team, solve the partie's chain by backward induction
(:func:`simcoinche.players.equity.solve`) and write
``simcoinche/players/data/equity-<profile>.npz``; then play ``--check`` fresh parties
(seed ``--seed + 1000``, the same players with ``score_aware=0``: the chain is the
score-blind players') and compare the table with them on every cell visited by at
least 1,000 parties (:func:`simcoinche.analysis.equity_check.compare_with_parties`),
writing ``analysis/output/equity_check.md`` and ``.json`` (entries of profiles not redone
are kept)::

    python analysis/fit_equity.py --donnes 4000000 --seed 22 --check 300000

``--out DIR`` writes the tables elsewhere; ``--profile`` (repeat) limits the profiles.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import simcoinche
from simcoinche.analysis.equity_check import compare_with_parties
from simcoinche.players.equity import (
    DATA_DIR,
    EquityTable,
    donne_outcomes,
    merge_outcomes,
    solve,
    table_name,
)
from simcoinche.players.registry import parse_player_spec
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import PROFILES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DATA = ROOT / "simcoinche" / "players" / DATA_DIR
OUTPUT = ROOT / "analysis" / "output"
CHUNK = 1_000_000


def score_blind(players: str) -> str:
    """The player spec with ``score_aware=0`` where the kind reads the score: the table is
    the chain of score-blind players, so it is checked against their parties."""
    kind, over = parse_player_spec(players)
    if "score_aware" not in {p.name for p in kind.params}:
        return players
    over = {**over, "score_aware": 0}
    return kind.name + ":" + ",".join(f"{k}={v:g}" for k, v in over.items())


def fit(profile: str, donnes: int, seed: int, players: str, out: Path) -> dict:
    """Simulate, solve and write one profile's table; returns what the JSON records."""
    t0 = time.perf_counter()
    parts = []
    for start in range(0, donnes, CHUNK):
        n = min(CHUNK, donnes - start)
        # Chunk c of the run is its own seed (seed * 1000 + c): donnes never repeat.
        rows = simcoinche.simulate(n, seed=seed * 1000 + start // CHUNK, profile=profile,
                                   players=players, progress=False)
        outcomes, _, counts = donne_outcomes(rows)
        parts.append((outcomes, counts))
    outcomes, probs, counts = merge_outcomes(parts)
    t1 = time.perf_counter()
    info = {"players": players, "donnes": donnes, "seed": seed, "outcomes": len(outcomes),
            "passed_out": float(probs[outcomes[:, 4] < 0].sum()),
            "simcoinche": simcoinche.__version__}
    table = solve(outcomes, probs, profile, info=info)
    t2 = time.perf_counter()
    table.save(out / table_name(profile))
    size = (out / table_name(profile)).stat().st_size
    print(f"{profile}: {donnes:,} donnes ({len(outcomes):,} distinct outcomes) in "
          f"{t1 - t0:.0f} s, solved in {t2 - t1:.0f} s ({table.main.shape[0]:,}^2 cells), "
          f"{size / 1e6:.2f} MB; P(win | 0-0, we deal) = {table.value(0, 0, 'us'):.4f}",
          flush=True)
    return {**info, "simulate_seconds": round(t1 - t0, 1), "solve_seconds": round(t2 - t1, 1),
            "cells": int(table.main.size), "bytes": size,
            "p_0_0_we_deal": table.value(0, 0, "us")}


def report_lines(report: dict) -> list[str]:
    """The Markdown of ``equity_check.md`` from the JSON report (every profile in it)."""
    lines = ["# Match equity against simulated parties", "",
             "Each table: the donnes of its `players` (seed, count below) solved by backward "
             "induction (`python analysis/fit_equity.py`); the check plays fresh parties "
             "(seed + 1000). A cell is a score before a donne seen from the team dealing "
             "it (its total first), both totals below the target; cells visited by at least "
             "1,000 parties are compared with the 95 % Wilson interval of the share of them "
             "that team won (pass: all inside, or a chi-square over them not rejected at "
             "0.001).", ""]
    for name, e in report["profiles"].items():
        c = e.get("check")
        lines += [f"## {name}", "",
                  f"Table: {e['donnes']:,} donnes of `{e['players']}` (seed {e['seed']}, "
                  f"{e['outcomes']:,} distinct outcomes), solved in {e['solve_seconds']} s; "
                  f"P(win | 0-0, we deal next) = {100 * e['p_0_0_we_deal']:.2f} %.", ""]
        if not c:
            continue
        lines += [f"Check: {c['parties']:,} parties. {c['summary']}: "
                  f"**{'pass' if c['passed'] else 'FAIL'}**.", "",
                  "| dealing team | other team | parties | won % | 95 % interval | table % | "
                  "inside |", "|---:|---:|---:|---:|---|---:|:---:|"]
        for r in c["rows"][:12]:
            lines.append(
                f"| {r['us']} | {r['them']} | {r['parties']:,} | "
                f"{100 * r['p_parties']:.2f} | [{100 * r['low']:.2f}, {100 * r['high']:.2f}] | "
                f"{100 * r['p_table']:.2f} | "
                f"{'yes' if r['inside'] else '**no**'} |")
        lines += ["", f"(the {min(12, c['cells'])} cells most visited of {c['cells']}; all "
                  "in `equity_check.json`)", ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", action="append", choices=sorted(PROFILES),
                    help="profile to solve (repeat; default: all four)")
    ap.add_argument("--donnes", type=int, default=4_000_000, help="donnes simulated")
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--players", default="heuristic")
    ap.add_argument("--check", type=int, default=300_000,
                    help="parties played to check each table (0: no check)")
    ap.add_argument("--out", type=Path, default=PACKAGE_DATA, help="table directory")
    args = ap.parse_args(argv)
    if args.donnes < 1 or args.check < 0:
        print("error: --donnes must be positive and --check not negative", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    json_path = OUTPUT / "equity_check.json"
    # Profiles solved earlier keep their entries (one profile can be redone alone).
    report = (json.loads(json_path.read_text()) if json_path.exists()
              else {"profiles": {}})
    for name in args.profile or list(PROFILES):
        try:
            entry = fit(name, args.donnes, args.seed, args.players, args.out)
            if args.check:
                table = EquityTable.load(args.out / table_name(name), table_name(name))
                runs = simcoinche.parties(args.check, seed=args.seed + 1000, profile=name,
                                          players=score_blind(args.players),
                                          progress=False)
                check = compare_with_parties(table, runs)
                print(f"{name}: {check.summary()} -> {'pass' if check.passed else 'FAIL'}",
                      flush=True)
                entry["check"] = {"parties": args.check, "seed": args.seed + 1000,
                                  "cells": check.n_cells, "outside": check.n_outside,
                                  "chi2": check.chi2, "p_value": check.p_value,
                                  "passed": check.passed, "summary": check.summary(),
                                  "rows": check.cells.to_dict(orient="records")}
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        report["profiles"][name] = entry
        report["profiles"] = {k: report["profiles"][k] for k in PROFILES
                              if k in report["profiles"]}
        OUTPUT.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report, indent=1, default=_plain))
        (OUTPUT / "equity_check.md").write_text("\n".join(report_lines(report)) + "\n")
    print(f"wrote {OUTPUT / 'equity_check.md'}")
    return 0


def _plain(value: object) -> object:
    """numpy scalars in the JSON report as Python numbers."""
    return value.item() if hasattr(value, "item") else str(value)


if __name__ == "__main__":
    sys.exit(main())
