"""Double-dummy solver: ours against the peer colver, one thread each, same deals.

The deals are colver's own seeded deals (``colver.Env.deal(dealer=i % 4, seed=SEED0 + i)``),
converted to our card encoding (colver's rank order in a suit is ``7 8 9 J Q K T A``,
ours ``7 8 9 T J Q K A``; suits, seats and the opening lead are the same). Three tasks:

- **value-only**: team 0's card points of a whole deal, for each of the 4 trump suits
  (ours: :func:`simcoinche.analysis.dd.solve_many` with ``threads=1``, one call for all rows;
  colver: ``Env.solve_all_suits()``, four solves per call). Unit: solves/s (a solve is
  one (deal, suit)). Our search reports its node count (nodes/s); colver's bindings do
  not expose one.
- **root**: every legal card of the opening leader scored (ours:
  ``_kernels.dd.root_values``; colver: ``set_contract`` + ``set_phase_playing`` +
  ``solve_scores``). Unit: positions/s (all legal cards of one position). The contract
  kind of deal ``i`` is suit ``i % 4``.
- **mid**: the same after two tricks (8 cards played by seeded random legal play, the
  same cards stepped into colver's env with ``Env.step``): every legal card of the seat
  to play scored.

Timing: the deals are split into blocks; for each block ours and colver run one after
the other (interleaved, so machine noise hits both alike); a figure's samples are the
blocks' rates. Every value both engines give is compared (team 0's final card points):
any mismatch is a bug and is reported.

Usage::

    python -m benchmarks.dd [-n 200] [--blocks 5]      # prints one JSON object
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

SEED0 = 20_261_201
# colver's rank order within a suit is 7 8 9 J Q K T A; ours 7 8 9 T J Q K A.
COLVER_RANK_TO_OURS = (0, 1, 2, 4, 5, 6, 3, 7)
OURS_RANK_TO_COLVER = tuple(COLVER_RANK_TO_OURS.index(r) for r in range(8))
MID_CARDS = 8  # two tricks

VALUE_DESCRIPTION = ("team 0's DD card points of a whole deal per trump suit; ours "
                     "simcoinche.analysis.dd.solve_many(threads=1), colver Env.solve_all_suits()")
ROOT_DESCRIPTION = ("every legal card of the opening leader scored (one position = all its "
                    "cards); ours _kernels.dd.root_values, colver solve_scores()")
MID_DESCRIPTION = ("every legal card scored after 2 tricks of seeded random legal play; ours "
                   "root_values, colver solve_scores() after Env.step of the 8 cards")


def to_ours(c: int) -> int:
    """colver card index → ours."""
    return (c // 8) * 8 + COLVER_RANK_TO_OURS[c % 8]


def to_colver(c: int) -> int:
    """Our card index → colver's."""
    return (c // 8) * 8 + OURS_RANK_TO_COLVER[c % 8]


@dataclass
class Deal:
    """One benchmark deal: colver's seeded deal in both encodings, and its mid position."""

    dealer: int
    seed: int
    kind: int  # the suit of the root and mid tasks
    colver_hands: list[list[int]]
    hands: np.ndarray  # uint32[4], ours
    mid_hands: np.ndarray  # int64[4], what each seat holds after MID_CARDS cards
    mid_leader: int
    mid_points0: int  # card points team 0 took in the two tricks
    mid_capot_open: int  # 1 when team 0 won both tricks
    mid_played: list[int]  # our card indices, in order


def _mid_position(hands: np.ndarray, dealer: int, kind: int, seed: int):
    """Seeded random legal play of MID_CARDS cards (the reference engine's rules)."""
    from simcoinche.rules import reference as ref
    from simcoinche.rules.cards import from_mask

    rng = random.Random(seed)
    held = [set(from_mask(int(h))) for h in hands]
    leader = (dealer + 1) & 3
    points0 = 0
    capot_open = 1
    played = []
    for _ in range(MID_CARDS // 4):
        trick: list[int] = []
        for p in range(4):
            seat = (leader + p) & 3
            card = rng.choice(sorted(ref.legal_cards(held[seat], trick, kind)))
            held[seat].discard(card)
            trick.append(card)
            played.append(card)
        winner = (leader + ref.trick_winner(trick, kind)) & 3
        if winner & 1 == 0:
            points0 += sum(ref.card_points(c, kind) for c in trick)
        else:
            capot_open = 0
        leader = winner
    mid = np.array([sum(1 << c for c in h) for h in held], dtype=np.int64)
    return mid, leader, points0, capot_open, played


def make_deals(n: int) -> list[Deal]:
    """colver's deals ``Env.deal(dealer=i % 4, seed=SEED0 + i)``, ``i < n``."""
    import colver

    deals = []
    for i in range(n):
        dealer, seed, kind = i % 4, SEED0 + i, i % 4
        ch = colver.Env.deal(dealer=dealer, seed=seed).get_initial_hands()
        hands = np.array([sum(1 << to_ours(c) for c in h) for h in ch], dtype=np.uint32)
        mid = _mid_position(hands, dealer, kind, seed)
        deals.append(Deal(dealer, seed, kind, ch, hands, *mid))
    return deals


# --- ours ------------------------------------------------------------------------------


def ours_values(deals: list[Deal]) -> tuple[np.ndarray, float, int]:
    """(values int[n, 4], seconds, nodes) of the value-only solves, one thread."""
    from simcoinche.analysis import dd

    n = len(deals)
    hands = np.repeat(np.stack([d.hands for d in deals]), 4, axis=0)
    dealer = np.repeat(np.array([d.dealer for d in deals]), 4)
    kind = np.tile(np.arange(4), n)
    t0 = time.perf_counter()
    values, nodes = dd.solve_many(hands, dealer, kind, "federal", threads=1, return_nodes=True)
    seconds = time.perf_counter() - t0
    return values.reshape(n, 4).astype(np.int64), seconds, int(nodes.sum())


def ours_roots(deals: list[Deal], mid: bool) -> tuple[list[dict[int, int]], float, int]:
    """Team 0's final card points after each legal card of the seat to play (colver's
    card indices), at the opening lead or after two tricks; seconds; nodes."""
    from simcoinche._kernels import dd as kdd
    from simcoinche.rules.profiles import FEDERAL

    S = _SCRATCH.get("S")
    if S is None:
        S = _SCRATCH["S"] = kdd.new_scratch()
    prof = FEDERAL.packed
    trick = np.zeros(4, dtype=np.int64)
    cards = np.zeros(8, dtype=np.int64)
    values = np.zeros(8, dtype=np.int64)
    out = []
    nodes0 = int(S.work[kdd.W_NODES])
    t0 = time.perf_counter()
    for d in deals:
        if mid:
            hands, leader, base, capot_open = d.mid_hands, d.mid_leader, d.mid_points0, \
                d.mid_capot_open
        else:
            hands, leader, base, capot_open = d.hands.astype(np.int64), (d.dealer + 1) & 3, \
                0, 1
        kdd.begin_solve(S, hands, d.kind, prof)
        k = kdd.root_values(S, d.kind, prof, leader, trick, 0, capot_open, cards, values)
        out.append({int(cards[j]): base + int(values[j]) for j in range(k)})
    seconds = time.perf_counter() - t0
    out = [{to_colver(c): v for c, v in o.items()} for o in out]
    return out, seconds, int(S.work[kdd.W_NODES]) - nodes0


_SCRATCH: dict[str, Any] = {}


# --- colver ----------------------------------------------------------------------------


def colver_values(deals: list[Deal]) -> tuple[np.ndarray, float]:
    """(NS values int[n, 4], seconds) from ``solve_all_suits`` (envs made before timing)."""
    import colver

    envs = [colver.Env.deal(dealer=d.dealer, seed=d.seed) for d in deals]
    t0 = time.perf_counter()
    suits = [env.solve_all_suits()["suits"] for env in envs]
    seconds = time.perf_counter() - t0
    return np.array([[s[0] for s in row] for row in suits], dtype=np.int64), seconds


def colver_roots(deals: list[Deal], mid: bool) -> tuple[list[dict[int, int]], float]:
    """NS final card points per legal card (colver's indices) from ``solve_scores``."""
    import colver

    envs = []
    for d in deals:
        env = colver.Env.deal(dealer=d.dealer, seed=d.seed)
        env.set_contract(d.kind, 80, 0, 0)  # the suit; value and taker do not change points
        env.set_phase_playing()
        if mid:
            for c in d.mid_played:
                env.step(to_colver(c))
        envs.append(env)
    t0 = time.perf_counter()
    scores = [env.solve_scores()["scores"] for env in envs]
    seconds = time.perf_counter() - t0
    return [{int(c): int(v) for c, v in s} for s in scores], seconds


# --- the comparison --------------------------------------------------------------------


def run(n: int, blocks: int, progress: bool = True) -> dict[str, Any]:
    """Every task on ``n`` deals in ``blocks`` blocks; rates per block and mismatches."""
    deals = make_deals(n)
    # Warm up (compile or load the kernels) on one deal, outside the timings.
    ours_values(deals[:1])
    ours_roots(deals[:1], False)
    bounds = np.linspace(0, n, blocks + 1).astype(int)
    rates: dict[str, list[float]] = {k: [] for k in (
        "ours.value", "ours.value_nodes", "colver.value", "ours.root", "ours.root_nodes",
        "colver.root", "ours.mid", "ours.mid_nodes", "colver.mid")}
    mismatch = {"value": [], "root": [], "mid": []}
    counts = {"value": 0, "root": 0, "mid": 0}
    for b in range(blocks):
        part = deals[bounds[b]:bounds[b + 1]]
        if not part:
            continue
        if progress:
            print(f"[bench] dd block {b + 1}/{blocks}: deals {bounds[b]}..{bounds[b + 1] - 1}",
                  file=sys.stderr, flush=True)
        ov, os_, on = ours_values(part)
        cv, cs = colver_values(part)
        rates["ours.value"].append(ov.size / os_)
        rates["ours.value_nodes"].append(on / os_)
        rates["colver.value"].append(cv.size / cs)
        counts["value"] += ov.size
        for i, d in enumerate(part):
            for k in range(4):
                if ov[i, k] != cv[i, k]:
                    mismatch["value"].append({"seed": d.seed, "dealer": d.dealer,
                                              "suit": "SHDC"[k], "ours": int(ov[i, k]),
                                              "colver": int(cv[i, k])})
        for task, mid in (("root", False), ("mid", True)):
            orr, ors, orn = ours_roots(part, mid)
            crr, crs = colver_roots(part, mid)
            rates[f"ours.{task}"].append(len(part) / ors)
            rates[f"ours.{task}_nodes"].append(orn / ors)
            rates[f"colver.{task}"].append(len(part) / crs)
            for d, o, c in zip(part, orr, crr, strict=True):
                counts[task] += len(o)
                if o != c:
                    mismatch[task].append({"seed": d.seed, "dealer": d.dealer,
                                           "suit": "SHDC"[d.kind], "ours": o, "colver": c})
    return {"deals": n, "blocks": blocks, "rates": rates, "compared": counts,
            "mismatches": mismatch}


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print one JSON object on stdout."""
    p = argparse.ArgumentParser(description="double-dummy solver: ours vs colver")
    p.add_argument("-n", type=int, default=200, help="deals (default 200)")
    p.add_argument("--blocks", type=int, default=5, help="timing blocks (default 5)")
    args = p.parse_args(argv)
    out = run(args.n, args.blocks)
    med = {k: float(np.median(v)) for k, v in out["rates"].items()}
    out["medians"] = med
    out["ratios"] = {t: med[f"ours.{t}"] / med[f"colver.{t}"] for t in ("value", "root", "mid")}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
