"""Every legal card's exact double-dummy value in each of the 32 worlds of the PIMC
player's decisions on ``benchmarks.pimc_cards``' positions (its seed, the same worlds as
the player draws), saved as ``values.npy`` (int64[N, 32 worlds, 32 cards], -1 for a card
that is not legal; not kept in the repository: 35 s to make again).

Usage (from the repository root)::

    PYTHONPATH=. python benchmarks/results/pimc-sequential-2026-12-05/values.py 300
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from benchmarks.pimc_cards import SEED, decisions, position
from simcoinche._kernels import dd
from simcoinche._kernels import pimc as P
from simcoinche._kernels.players import PARAM_LEN
from simcoinche.rules.profiles import FEDERAL

WORLDS = 32


def main(n: int) -> None:
    prof = FEDERAL.packed
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = WORLDS
    think = P.new_think(np.int64(P.PIMC_TT_LOG2))
    r = random.Random(SEED)
    position(r)  # the warm-up position benchmarks.pimc_cards.run draws first
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    out = np.full((n, WORLDS, 32), -1, np.int64)
    for i, (hand, _legal, trick, k, info, st) in enumerate(decisions(r)):
        if i == n:
            break
        kind, team, _worlds, leader, capot = P._decision(think, hand, trick, k, info,
                                                         params, 0)
        for w in range(WORLDS):
            P.draw_world(think, st)
            for s in range(4):
                think.hands[0, (s - team) & 3] = think.world[s]
            dd.begin_solve(think.solver, think.hands[0], kind, prof)
            m = dd.root_values(think.solver, kind, prof, leader, think.trick, k, capot,
                               cards, values)
            out[i, w, cards[:m]] = values[:m]
    np.save(Path(__file__).with_name("values.npy"), out)
    print(f"{n} decisions saved")


if __name__ == "__main__":
    main(int(sys.argv[1]))
