"""End-to-end throughput of ``simcoinche simulate``: donnes/s and peak RSS, as JSON.

Each case runs in a fresh subprocess (so peak RSS is its own): a warm-up call loads or
compiles the kernels, then one timed run of ``N`` donnes writes a Parquet file (deal,
auction, announcements, play, scoring, Parquet written). Usage::

    python -m benchmarks.throughput [-n 2000000] [--players random heuristic] [--threads 1 2]
    python -m benchmarks.throughput --invariants -n 1000000 --players heuristic,random
    python -m benchmarks.throughput --phases -n 200000 [--profile classic]

``--phases`` times one thread of the donne kernel cut after each phase (deal; + auction;
+ announcements; full play and scoring), same seed and donnes, best of 3: the cost of
each phase is the difference between consecutive rows (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def _one(n: int, players: str, threads: int, record: bool) -> dict:
    from simcoinche.runs.simulation import simulate

    with tempfile.TemporaryDirectory() as tmp:
        simulate(1000, seed=1, players=players, threads=threads,
                 out=os.path.join(tmp, "warm.parquet"), record_play=record, progress=False)
        path = os.path.join(tmp, "run.parquet")
        t0 = time.perf_counter()
        summary = simulate(n, seed=1, players=players, threads=threads, out=path,
                           record_play=record, progress=False)
        dt = time.perf_counter() - t0
        size = os.path.getsize(path)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"players": players, "threads": threads, "record_play": record, "n": n,
            "seconds": round(dt, 3), "donnes_per_s": round(n / dt),
            "passed_out_share": round(summary.passed_out_share, 4),
            "file_bytes_per_donne": round(size / n, 2), "peak_rss_mib": round(rss / 2**20, 1)}


def check_invariants(n: int, players: str, seed: int = 1) -> dict:
    """Acceptance invariants over ``n`` simulated donnes written to Parquet and read back:
    hands partition the deck, card points sum to 162 (252 on a capot), 8 tricks, passed-out
    rows are all zero, and made/marks/announcements equal the scoring kernel's on every
    donne (announcements recomputed from the hands)."""
    import numpy as np
    from numba import njit

    from simcoinche._kernels.announce import team_announcements
    from simcoinche._kernels.scoring import (
        S_ANN0,
        S_ANN1,
        S_MARK0,
        S_MARK1,
        SCORE_LEN,
        score_donne,
    )
    from simcoinche.rules.profiles import FEDERAL
    from simcoinche.runs.results import read_results
    from simcoinche.runs.simulation import simulate

    @njit(cache=False)
    def rescore(h, taker, level, kind, coinche, cp, tw, bel, prof):
        out = np.zeros(SCORE_LEN, dtype=np.int32)
        ann = np.zeros(2, dtype=np.int32)
        dec = np.ones(4, dtype=np.uint8)
        res = np.zeros((len(taker), 5), dtype=np.int32)
        for i in range(len(taker)):
            if taker[i] < 0:
                continue
            team_announcements(h[i], kind[i], dec, prof, ann)
            made = score_donne(taker[i] & 1, level[i], kind[i], coinche[i], cp[i], tw[i], ann,
                               bel[i], prof, out)
            res[i, 0] = made
            res[i, 1] = out[S_MARK0]
            res[i, 2] = out[S_MARK1]
            res[i, 3] = out[S_ANN0]
            res[i, 4] = out[S_ANN1]
        return res

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "inv.parquet")
        simulate(n, seed=seed, players=players, out=path, progress=False)
        df = read_results(path)
    h = df[["hand_0", "hand_1", "hand_2", "hand_3"]].to_numpy(dtype=np.uint32)
    h64 = h.astype(np.uint64)
    partition = bool(((h64[:, 0] | h64[:, 1] | h64[:, 2] | h64[:, 3]) == 0xFFFFFFFF).all()
                     and all(((h64[:, a] & h64[:, b]) == 0).all()
                             for a in range(4) for b in range(a + 1, 4)))
    po = df["passed_out"].to_numpy()
    t0, t1 = df["tricks_t0"].to_numpy(), df["tricks_t1"].to_numpy()
    cp = df["card_points_t0"].to_numpy().astype(int) + df["card_points_t1"].to_numpy()
    capot = (t0 == 8) | (t1 == 8)
    points_ok = bool((cp[~po & ~capot] == 162).all() and (cp[~po & capot] == 252).all())
    tricks_ok = bool(((t0 + t1)[~po] == 8).all() and (cp[po] == 0).all())
    kind = df["trump"].cat.codes.to_numpy().astype(np.int64)
    res = rescore(
        h, df["taker"].to_numpy().astype(np.int64), df["bid_level"].to_numpy().astype(np.int64),
        kind, df["coinche"].to_numpy().astype(np.int64),
        df[["card_points_t0", "card_points_t1"]].to_numpy().astype(np.int32),
        df[["tricks_t0", "tricks_t1"]].to_numpy().astype(np.int32),
        df[["belote_t0", "belote_t1"]].to_numpy().astype(np.int32), FEDERAL.packed)
    pl = ~po
    marks_ok = bool(
        (res[pl, 0] == df["made"].to_numpy()[pl]).all()
        and (res[pl, 1] == df["marks_t0"].to_numpy()[pl]).all()
        and (res[pl, 2] == df["marks_t1"].to_numpy()[pl]).all()
        and (res[pl, 3] == df["announce_t0"].to_numpy()[pl]).all()
        and (res[pl, 4] == df["announce_t1"].to_numpy()[pl]).all()
        and (df.loc[po, ["marks_t0", "marks_t1"]].to_numpy() == 0).all())
    return {"check": "invariants", "players": players, "n": n, "partition": partition,
            "card_points_162_252": points_ok, "tricks_and_passed_out": tricks_ok,
            "marks_equal_scoring_kernel": marks_ok}


def phase_breakdown(n: int, players: str, profile: str = "federal") -> dict:
    """Nanoseconds per donne of the donne kernel stopped after each phase (1 thread)."""
    import numpy as np
    from numba import njit

    from simcoinche._kernels.announce import belote_points, team_announcements
    from simcoinche._kernels.annul import auction_hands
    from simcoinche._kernels.auction import (
        A_BIDDER,
        A_COINCHE,
        A_KIND,
        A_LEVEL,
        A_STATUS,
        A_TO_SPEAK,
        auction_apply,
        auction_start,
    )
    from simcoinche._kernels.batch import donne_scratch
    from simcoinche._kernels.deal import deal_hands
    from simcoinche._kernels.donne import MAX_ACTIONS, Players, choose_action, play_phase
    from simcoinche._kernels.kinds import kinds_of
    from simcoinche._kernels.layout import P_AUCTION_CARDS
    from simcoinche._kernels.rng import (
        STREAM_PLAYERS,
        donne_key,
        rng_seed,
        seed_key,
    )
    from simcoinche.runs.simulation import _plan

    @njit(cache=False)
    def run(run_key, n, codes, params, kinds, prof, stage):
        scr = donne_scratch()
        st, deck, hands, early, astate, actions = (scr.st, scr.deck, scr.hands, scr.early,
                                                   scr.astate, scr.actions)
        declare, ann, bel = scr.declare, scr.ann, scr.bel
        players = Players(codes, params, kinds)
        rec = np.zeros((0, 32), dtype=np.uint8)
        acc = 0
        for i in range(n):
            key = donne_key(run_key, i)
            dealer = i & 3
            cut = deal_hands(st, key, dealer, prof, deck, hands)
            acc += hands[0]
            if stage < 1:
                continue
            # As play_one: the auction, each seat in turn. This repeats play_one's stages on
            # purpose: moving them into shared deal/auction functions cost 5-15 % of random
            # donnes/s in an A/B (numba does not optimise across the call as well), so the
            # hot path keeps them inline and only this timer restates them.
            if prof[P_AUCTION_CARDS] < 8:
                auction_hands(deck, cut, dealer, prof, early)
            else:
                for s in range(4):
                    early[s] = hands[s]
            rng_seed(st, key, STREAM_PLAYERS)
            auction_start(astate, dealer)
            na = 0
            while astate[A_STATUS] == 0 and na < MAX_ACTIONS:
                seat = astate[A_TO_SPEAK]
                a = choose_action(codes[seat & 1], early[seat], astate, actions, na, params,
                                  seat & 1, prof, st, None, kinds)
                if auction_apply(astate, a, prof) != 0:
                    a = 0
                    auction_apply(astate, a, prof)
                actions[na] = a
                na += 1
            acc += na
            if stage < 2 or astate[A_STATUS] != 1:
                continue
            if stage == 2:
                acc += team_announcements(hands, astate[A_KIND], declare, prof, ann)
                belote_points(hands, astate[A_KIND], prof, bel)
                continue
            made, own, _ = play_phase(dealer, (astate[A_BIDDER], astate[A_LEVEL],
                                            astate[A_KIND], astate[A_COINCHE]),
                                   players, prof, na, False, rec, 0, scr, None)
            acc += made + own
        return acc

    plan = _plan(10, 1, profile, players, 1, 10, None, False, None)
    key = seed_key(np.uint64(1))
    kinds = kinds_of(plan.codes)
    rows = {}
    for stage, name in ((0, "deal"), (1, "+auction"), (2, "+announcements"),
                        (3, "+play and scoring (announcements included)")):
        run(key, 1000, plan.codes, plan.params, kinds, plan.profile.packed, stage)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            run(key, n, plan.codes, plan.params, kinds, plan.profile.packed, stage)
            best = min(best, time.perf_counter() - t0)
        rows[name] = round(best / n * 1e9)
    return {"check": "phases", "players": players, "profile": profile, "n": n,
            "ns_per_donne_after": rows}


def main(argv: list[str] | None = None) -> int:
    """Run every case in its own process and print one JSON document."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=2_000_000)
    p.add_argument("--players", nargs="+", default=["random", "heuristic"])
    p.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    p.add_argument("--record-play", action="store_true")
    p.add_argument("--invariants", action="store_true",
                   help="check the acceptance invariants on N donnes instead of timing")
    p.add_argument("--phases", action="store_true",
                   help="time the donne kernel phase by phase (1 thread) instead")
    p.add_argument("--profile", default="federal", help="profile of --phases")
    p.add_argument("--case", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.phases:
        print(json.dumps([phase_breakdown(args.n, players, args.profile)
                          for players in args.players], indent=2))
        return 0
    if args.invariants:
        res = [check_invariants(args.n, players) for players in args.players]
        print(json.dumps(res, indent=2))
        return 0 if all(all(v for v in r.values() if isinstance(v, bool)) for r in res) else 1
    if args.case:
        players, threads = args.case.split(":")
        print(json.dumps(_one(args.n, players, int(threads), args.record_play)))
        return 0
    results = []
    for players in args.players:
        for threads in args.threads:
            cmd = [sys.executable, "-m", "benchmarks.throughput", "-n", str(args.n),
                   "--case", f"{players}:{threads}"]
            if args.record_play:
                cmd.append("--record-play")
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            results.append(json.loads(out.strip().splitlines()[-1]))
    print(json.dumps({"benchmark": "simulate_throughput", "cpu_count": os.cpu_count(),
                      "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
