"""Hashes of simulated rows, to show that an optimisation keeps every decision.

``python -m benchmarks.row_hashes --write FILE`` records, for each (players, profile) case,
the SHA-256 of the complete kernel output of a run with recording on (every row column,
the auction action codes and the 32 cards in play order), so that any changed decision of
any player changes the hash. ``--check FILE`` recomputes them and compares (exit 1 on
any difference). Cases: heuristic, club and random players, 100,000 federal donnes and
30,000 per other profile (``--quick``: 10,000 and 3,000), seed 1, 2 threads (results do
not depend on the thread count). ``--param symmetric_ties=0`` hashes the club player with
the old first-in-order tie-break, which must reproduce ``row_hashes-main.json``'s heuristic
rows exactly. The club player is the heuristic player before the data-fitted auction
(issue 21): its hashes equal the heuristic ones of ``row_hashes-symmetric.json``; the
record with the data-fitted heuristic is ``row_hashes-auction.json``.

``--parties`` adds whole parties (``simcoinche.parties``, public API only): 3,000 parties
per profile and player kind (``--quick``: 300), seed 1, every column of the rows hashed
by value (the per-donne list columns cell by cell), recorded in
``parties_hashes.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numba
import numpy as np

PROFILE_NAMES = ("federal", "classic", "stephanoise", "strict")


def run_hash(players: str, profile: str, n: int, seed: int = 1,
             params: tuple | None = None) -> str:
    """SHA-256 (hex) of the kernel output of donnes ``0 .. n-1`` with recording on."""
    from simcoinche._kernels.rng import seed_key
    from simcoinche.runs.simulation import _Buffers, _plan

    plan = _plan(n, seed, profile, players, None, n, None, True, params)
    buf = _Buffers(n, True)
    key = seed_key(np.uint64(plan.seed))
    buf.run(plan, key, 0, n)
    h = hashlib.sha256()
    for arr in (buf.out[:, :n], buf.auc, buf.auc_len, buf.play):
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


def cases(quick: bool) -> list[tuple[str, str, int]]:
    """(players, profile, donnes) of every hashed run."""
    big, small = (10_000, 3_000) if quick else (100_000, 30_000)
    return [(players, name, big if name == "federal" else small)
            for players in ("heuristic", "club", "random") for name in PROFILE_NAMES]


def compute(quick: bool, overrides: dict[str, float] | None = None) -> dict[str, str]:
    """Every case's hash, keyed ``players/profile/n`` (club parameter overrides for the
    club cases, both teams)."""
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    out = {}
    for p, prof, n in cases(quick):
        params = (overrides, overrides) if overrides and p == "club" else None
        out[f"{p}/{prof}/{n}"] = run_hash(p, prof, n, params=params)
    return out


def parties_hash(players: str, profile: str, n: int, seed: int = 1) -> str:
    """SHA-256 (hex) of the rows of parties ``0 .. n-1`` (``simcoinche.parties``): every
    column by name, list cells by their values and lengths (never by object address)."""
    import simcoinche

    df = simcoinche.parties(n, seed=seed, profile=profile, players=players, threads=2,
                            progress=False)
    h = hashlib.sha256()
    for name in sorted(df.columns):
        h.update(name.encode())
        col = df[name].to_numpy()
        if col.dtype != object:
            h.update(np.ascontiguousarray(col).tobytes())
            continue
        for cell in col:
            a = np.asarray(cell)
            h.update(str(a.dtype).encode())
            h.update(np.int64(a.size).tobytes())
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def compute_parties(quick: bool) -> dict[str, str]:
    """Every parties case's hash, keyed ``parties/players/profile/n``."""
    n = 300 if quick else 3_000
    return {f"parties/{p}/{prof}/{n}": parties_hash(p, prof, n)
            for p in ("heuristic", "club", "random") for prof in PROFILE_NAMES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.row_hashes")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, metavar="FILE", help="record the hashes")
    group.add_argument("--check", type=Path, metavar="FILE", help="compare with a record")
    parser.add_argument("--quick", action="store_true", help="10,000 / 3,000 donnes")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="club parameter override (e.g. symmetric_ties=0)")
    parser.add_argument("--parties", action="store_true",
                        help="hash whole parties instead of donnes (parties_hashes.json)")
    args = parser.parse_args(argv)
    overrides = {k: float(v) for k, v in (p.split("=", 1) for p in args.param)}
    if args.parties:
        hashes = compute_parties(args.quick)
    else:
        hashes = compute(args.quick, overrides or None)
    if args.write:
        args.write.write_text(json.dumps(hashes, indent=1) + "\n")
        print(f"wrote {len(hashes)} hashes to {args.write}")
        return 0
    ref = json.loads(args.check.read_text())
    bad = 0
    for name, h in hashes.items():
        same = ref.get(name) == h
        bad += not same
        print(f"{'same' if same else 'DIFFERENT':9} {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
