"""``simcoinche.analysis.dd.table`` against the peer engine colver's double-dummy solver.

RULES.md, "Rulings on points the sources leave open": the double-dummy value is the card
points a team reaches when all four hands are visible and both sides play perfectly,
from the opening lead of seat dealer+1; 252 to a team that wins every trick. colver
(PyPI, Rust; part of the ``test`` extra) solves the same question for the four trump
suits (``Env.solve_all_suits``), and its card-play rules and points are federal's, so
on every (deal, suit) team 0's value must be the same.

Team 1's value: colver reports ``EW = 252 - NS`` whenever ``NS`` is 0 or 252; when team
0 takes only pointless tricks (not the last), team 0 has 0 card points but team 1 is not
capot, so the exact value is 162 (``simcoinche.analysis.dd``'s), not colver's 252. That is the only
difference allowed, and it is counted.
"""

from __future__ import annotations

import json
import subprocess
import sys

import colver  # noqa: F401  (the peer must be installed: part of the test extra)
import numpy as np
import pytest

from simcoinche.analysis import dd

N_DEALS = 500
SEED0 = 20_261_130
# colver's rank order within a suit is 7 8 9 J Q K T A; ours 7 8 9 T J Q K A.
COLVER_RANK_TO_OURS = (0, 1, 2, 4, 5, 6, 3, 7)

# Run in two child processes (one deal list each) so that colver's one-thread solves use
# both cores, as our solver does; prints one JSON list of [[ns, ew] x 4] per deal.
COLVER_CHILD = """
import json, sys
import colver
out = []
for dealer, seed in json.loads(sys.argv[1]):
    env = colver.Env.deal(dealer=dealer, seed=seed)
    out.append([env.get_initial_hands(), env.solve_all_suits()["suits"]])
print(json.dumps(out))
"""


def colver_card_to_ours(c: int) -> int:
    return (c // 8) * 8 + COLVER_RANK_TO_OURS[c % 8]


def colver_solve(deals: list[tuple[int, int]]) -> list[tuple[list[list[int]], list]]:
    halves = [deals[0::2], deals[1::2]]
    procs = [subprocess.Popen([sys.executable, "-c", COLVER_CHILD, json.dumps(h)],
                              stdout=subprocess.PIPE, text=True) for h in halves]
    results = [json.loads(p.communicate()[0]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    merged = []
    for i in range(len(deals)):
        merged.append(results[i % 2][i // 2])
    return merged


@pytest.mark.slow
def test_table_equals_colver_solve_all_suits_on_500_seeded_federal_deals():
    deals = [(i % 4, SEED0 + i) for i in range(N_DEALS)]
    peer = colver_solve(deals)
    mismatches = []
    pointless = 0
    for (dealer, seed), (colver_hands, suits) in zip(deals, peer, strict=True):
        hands = np.array([sum(1 << colver_card_to_ours(c) for c in h) for h in colver_hands],
                         dtype=np.uint32)
        table = dd.table(hands, dealer, threads=2)
        for k, kind in enumerate("SHDC"):
            (t0, t1), (ns, ew) = table[kind], suits[k]
            if t0 == ns and t1 == ew:
                continue
            if t0 == ns == 0 and (t1, ew) == (162, 252):
                pointless += 1  # team 0 took only pointless tricks: not a capot
                continue
            mismatches.append((dealer, seed, kind, (t0, t1), (ns, ew)))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:5]}"
    # The documented exception is rare; it must not hide a systematic difference.
    assert pointless <= N_DEALS * 4 // 100
