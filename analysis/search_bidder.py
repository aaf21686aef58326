"""Search the data-fitted bidder's margins in duplicate matches with optuna (issue 21).

The tables come from ``analysis/fit_bidder.py``; what remains are the margins of
:mod:`simcoinche._kernels.bidder` (``pass_ev``, ``bid_margin``, ``raise_margin``,
``compete_margin``, ``coinche_margin``, ``surcoinche_margin``,
``capot_margin``). Each trial plays the candidate in duplicate against ``club`` and
against ``heuristic`` with its shipped defaults (so that the search cannot just exploit
the club player's passive auction), ``--deals`` deals each on the same seed (common
random numbers), and scores the worse of the two mean differences (a bidder good against
both styles: a mean would reward exploiting the loose defaults by passing and lose to the
club's sound bids). The best trial is then replayed on a fresh seed and everything is
written as JSON::

    python analysis/search_bidder.py --profile federal --trials 60 --deals 20000 \
        --out analysis/output/bidder-search/federal.json

Needs ``pip install 'simcoinche[tune]'`` (optuna).

What a duplicate match cannot see: two copies of one bidder always score 0 against each
other, however they bid. The search's best (``compete_margin`` 59.4) turned self-play into
a bidding war (half the federal contracts at 160, 22 % of those made), which every table
made from simulated donnes would inherit. ``--scan NAME=V1,V2,…`` measures, for each
value of one margin, the self-play auction (share of contracts at the ladder's top value,
made rate; 20,000 donnes of seed 1) and the duplicate results against ``club`` and
against the bidder with ``NAME`` at ``--base`` (``--deals`` deals, ``--seed``)::

    python analysis/search_bidder.py --scan compete_margin=100,120,135,150,250 \
        --base 59.4 --out analysis/output/bidder-search/compete-scan.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from simcoinche.players.registry import FITTED_BIDDER_MARGINS
from simcoinche.runs.match import match

#: Search ranges (marks) of the margins.
RANGES = {
    "pass_ev": (-40.0, 40.0),
    "bid_margin": (-30.0, 60.0),
    "raise_margin": (-30.0, 60.0),
    "compete_margin": (-30.0, 200.0),
    "coinche_margin": (-30.0, 120.0),
    "surcoinche_margin": (-30.0, 120.0),
    "capot_margin": (0.0, 200.0),
}


def spec(values: dict[str, float]) -> str:
    """The heuristic player spec with these margins."""
    return "heuristic:" + ",".join(f"{k}={v:.3f}" for k, v in values.items())


def score(values: dict[str, float], profile: str, deals: int, seed: int) -> dict:
    """Mean differences of the candidate against club and against the defaults."""
    out = {}
    for name, other in (("club", "club"), ("defaults", "heuristic")):
        r = match(spec(values), other, deals, seed, profile, progress=False, rows=False)
        lo, hi = r.ci95
        out[name] = {"mean": r.mean_diff, "ci95": [lo, hi]}
    out["objective"] = min(out["club"]["mean"], out["defaults"]["mean"])
    return out


def scan(name: str, values: list[float], base: float, profile: str, deals: int,
         seed: int) -> list[dict]:
    """Self-play auction and duplicate results of the bidder for each ``name`` value."""
    from simcoinche.rules.profiles import get_profile
    from simcoinche.runs.simulation import simulate

    top = max(get_profile(profile).bid_values)
    rows = []
    for v in values:
        over = {name: v}
        d = simulate(20_000, seed=1, profile=profile, params=(over, over), progress=False)
        played = d[~d.passed_out]
        row = {"value": v, "self_play": {
            "top_value_share": float((played.bid_value == top).mean()),
            "made": float(played.made.mean()),
            "passed_out": float(d.passed_out.mean())}}
        for label, other in (("club", "club"), ("base", f"heuristic:{name}={base:g}")):
            r = match(f"heuristic:{name}={v:g}", other, deals, seed, profile, progress=False,
                      rows=False)
            row[label] = {"mean": r.mean_diff, "ci95": list(r.ci95)}
        print(f"{name}={v:g}: top {row['self_play']['top_value_share']:.3f}, made "
              f"{row['self_play']['made']:.3f}; club {row['club']['mean']:+.1f}, base "
              f"{row['base']['mean']:+.1f}", flush=True)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="federal")
    ap.add_argument("--trials", type=int, default=60)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2101, help="seed of the trials' deals")
    ap.add_argument("--check-seed", type=int, default=2102, help="seed of the replay")
    ap.add_argument("--sampler-seed", type=int, default=21)
    ap.add_argument("--out", type=Path, required=True, help="JSON result file")
    ap.add_argument("--scan", metavar="NAME=V1,V2,...",
                    help="scan one margin instead of searching (module docstring)")
    ap.add_argument("--base", type=float, default=0.0, help="the scan's reference value")
    args = ap.parse_args(argv)
    if args.scan:
        name, _, text = args.scan.partition("=")
        if name not in RANGES or not text:
            print(f"error: --scan wants NAME=V1,V2,... with NAME one of {', '.join(RANGES)}",
                  file=sys.stderr)
            return 2
        values = [float(x) for x in text.split(",")]
        rows = scan(name, values, args.base, args.profile, args.deals, args.seed)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"profile": args.profile, "scan": name,
                                        "base": args.base, "deals": args.deals,
                                        "seed": args.seed, "rows": rows}, indent=1) + "\n")
        return 0
    try:
        import optuna
    except ImportError:
        print("error: optuna is missing: pip install 'simcoinche[tune]'", file=sys.stderr)
        return 2
    names = [p.name for p in FITTED_BIDDER_MARGINS]
    assert set(names) == set(RANGES), "every margin of the bidder has a search range"
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    trials = []

    def objective(trial: optuna.Trial) -> float:
        values = {k: trial.suggest_float(k, *RANGES[k]) for k in names}
        s = score(values, args.profile, args.deals, args.seed)
        trials.append({"number": trial.number, "values": values, **s})
        print(f"trial {trial.number}: {s['objective']:+.1f} (club {s['club']['mean']:+.1f},"
              f" defaults {s['defaults']['mean']:+.1f})", flush=True)
        return s["objective"]

    t0 = time.perf_counter()
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=args.sampler_seed))
    # The shipped defaults are the first trial: the search must beat them.
    study.enqueue_trial({p.name: p.default for p in FITTED_BIDDER_MARGINS})
    study.optimize(objective, n_trials=args.trials)
    best = study.best_params
    check = score(best, args.profile, args.deals, args.check_seed)
    result = {"profile": args.profile, "deals": args.deals, "seed": args.seed,
              "check_seed": args.check_seed, "trials": trials, "best": best,
              "best_trial": study.best_trial.number, "check": check,
              "seconds": round(time.perf_counter() - t0, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"best {spec(best)}: replay on seed {args.check_seed}: club "
          f"{check['club']['mean']:+.1f}, defaults {check['defaults']['mean']:+.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
