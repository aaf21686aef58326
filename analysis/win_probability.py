"""The chances of winning a partie from any score, from whole simulated parties.

Runs (seed 1, heuristic players for both teams): 1,000,000 parties in ``federal`` and
100,000 in each other profile — ``simcoinche parties -n N --seed 1 --profile P``, written
to ``runs/simcoinche-parties-<profile>-s1-n<N>.parquet`` (reused when its metadata
matches). Writes into ``analysis/output/``:

- ``win_probability.md`` — per profile: the run's figures (parties/s on this machine,
  donnes per partie, who won) and P(a team wins | its total, the other's total) as a grid
  of 200-point bins; the answer for 640 against 910;
- ``win_probability_<profile>.csv`` — the tidy table in 100-point bins with counts of
  parties and Wilson 95 % intervals on parties, the diagonal flagged symmetric
  (:func:`simcoinche.analysis.win_probability.win_probability`);
- ``win_probability_federal.png`` — its heatmap.

::

    .venv/bin/python analysis/win_probability.py
    .venv/bin/python analysis/win_probability.py --profiles federal -n 20000 --out /tmp/w
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import simcoinche
from simcoinche.analysis.plots import plot_win_probability
from simcoinche.analysis.report import _pivot_markdown
from simcoinche.analysis.win_probability import win_probability, win_probability_pivot
from simcoinche.players.registry import spec_metadata
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import PROFILES
from simcoinche.runs.partie import default_parties_out, parties_to_file

HERE = Path(__file__).resolve().parent
SEED = 1
# Score-blind play: the table the docs show as such (the score-aware table, beside it,
# comes from analysis/score_aware.py); "heuristic" alone now reads the score.
PLAYERS = "heuristic:score_aware=0"
SIZES = {"federal": 1_000_000}
OTHER_SIZE = 100_000
MIN_COUNT = 100
QUESTION = (640, 910)


def ensure_run(profile: str, n: int) -> tuple[Path, str]:
    """The run's path, reused if its metadata matches, and a line on how it was made."""
    path = default_parties_out(profile, SEED, n)
    if path.exists():
        try:
            meta = simcoinche.read_metadata(path)
        except InputError:
            meta = {}
        # The players' kind names and every parameter value: a run of the same kind with
        # other parameters (the score-aware heuristic) is not this one.
        name, params = spec_metadata(PLAYERS, profile)
        if (meta.get("kind"), meta.get("n"), meta.get("seed"), meta.get("players"),
                meta.get("params"), meta.get("rules_version")) == (
                "parties", n, SEED, [name] * 2, [params] * 2, simcoinche.RULES_VERSION):
            return path, f"reused `{path}`"
    path.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    s = parties_to_file(n, seed=SEED, profile=profile, players=PLAYERS, out=path,
                        overwrite=True)
    seconds = time.perf_counter() - t0
    sys.stderr.write(s.text() + "\n")
    return path, (f"`simcoinche parties -n {n} --seed {SEED} --profile {profile} "
                  f"--players {PLAYERS}`: "
                  f"{n:,} parties ({s.donnes:,} donnes) in {seconds:.1f} s on {s.threads} "
                  f"threads = {n / seconds:,.0f} parties/s ({s.donnes / seconds:,.0f} "
                  "donnes/s), Parquet written")


def answer(table: pd.DataFrame, us: int, them: int) -> str:
    """The cell of ``us`` against ``them`` as one sentence."""
    cell = table[(table.own_min <= us) & ((table.own_max >= us) | table.own_max.isna())
                 & (table.other_min <= them)
                 & ((table.other_max >= them) | table.other_max.isna())]
    if cell.empty:
        return f"{us} against {them}: not observed"
    r = cell.iloc[0]
    if r.symmetric:
        return (f"{us} against {them} (cell {r.own} against {r.other}, the diagonal): 50 % "
                f"by construction ({int(r.n):,} parties visited it)")
    return (f"{us} against {them} (cell {r.own} against {r.other}): "
            f"**{100 * r.p:.1f} %** [{100 * r.low:.1f}, {100 * r.high:.1f}] "
            f"({int(r.n):,} parties observed)")


def profile_section(profile: str, n: int, out: Path) -> list[str]:
    path, how = ensure_run(profile, n)
    t = simcoinche.read_results(path, columns=["winner", "n_donnes"])
    winner = t["winner"].to_numpy()
    lengths = t["n_donnes"].to_numpy()
    fine = win_probability(path, bin_width=100)
    fine.to_csv(out / f"win_probability_{profile}.csv", index=False)
    if profile == "federal":
        plot_win_probability(fine, out, min_count=MIN_COUNT,
                             filename=f"win_probability_{profile}.png",
                             title=f"Chances of winning a {profile} partie from the score "
                                   "before a donne (%)")
    coarse = win_probability(path, bin_width=200)
    return [
        f"## {profile}", "", f"- run: {how}",
        f"- donnes per partie: mean {lengths.mean():.2f}, median {np.median(lengths):.0f}, "
        f"max {lengths.max()}; unfinished (cap {simcoinche.read_metadata(path)['max_donnes']}"
        f" donnes): {int((winner < 0).sum())}",
        f"- won by team 0 (seats 0, 2): {100 * (winner == 0).mean():.2f} %, team 1: "
        f"{100 * (winner == 1).mean():.2f} %",
        f"- {answer(fine, *QUESTION)}", "",
        f"P(win) in % by our total (rows) and theirs (columns), 200-point bins; `(50)`: "
        f"the diagonal, 50 % by construction; empty: fewer than {MIN_COUNT} parties "
        f"visited the cell. Full table (100-point bins, `n` parties, `observations`, "
        f"Wilson 95 % intervals on parties, `symmetric` on the diagonal): "
        f"`win_probability_{profile}.csv`.", "",
        _pivot_markdown(win_probability_pivot(coarse, MIN_COUNT)), "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profiles", default=",".join(PROFILES))
    parser.add_argument("-n", type=int, default=None, help="parties per profile")
    parser.add_argument("--out", type=Path, default=HERE / "output")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    md = ["# Chances of winning a partie from any score", "",
          "Generated by `analysis/win_probability.py` from whole simulated parties "
          f"(seed {SEED}, heuristic players for both teams, the dealer moving every donne, "
          "the profile's target and end rules). The score before each donne is seen from "
          "both teams (two orientations: us = team 0 or us = team 1); a finished partie "
          "counts once per cell it visits for each orientation, with whether that team "
          "went on to win. A team's total never decreases, so off the diagonal a partie "
          "gives a cell one observation: counts are parties and the Wilson 95 % intervals "
          "are on parties. On the diagonal (both totals in one bin) every partie gives "
          "both orientations with opposite outcomes: its 50 %, shown `(50)`, holds by "
          "construction, it is not a measurement and has no interval. Both teams pooled, "
          "P(a, b) + P(b, a) = 1. The heuristic players bid and play the same whatever "
          "the score: these are the chances under score-blind play.", ""]
    for profile in args.profiles.split(","):
        n = args.n or SIZES.get(profile, OTHER_SIZE)
        md += profile_section(profile, n, args.out)
    (args.out / "win_probability.md").write_text("\n".join(md), encoding="utf-8")
    print(f"wrote {args.out / 'win_probability.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
