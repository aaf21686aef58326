"""The PIMC player's nodes and time on the positions of ``benchmarks.pimc_cards``.

``PYTHONPATH=<tree> python nodes.py NAME N`` (from this directory, each tree with its own
``SIMCOINCHE_CACHE_DIR``): the first ``N`` positions, 32 worlds, one thread, the player
only. Prints seconds per card and nodes by trick, and saves the cards played to
``cards-NAME.json`` so that two trees can be compared card for card.
"""

from __future__ import annotations

import json
import random
import sys
import time

import numpy as np

from benchmarks.pimc_cards import SEED, _stream, decisions, position
from simcoinche._kernels import dd
from simcoinche._kernels import pimc as P
from simcoinche._kernels.play import legal_mask
from simcoinche._kernels.players import I_KIND, I_TRICK, PARAM_LEN
from simcoinche.rules.profiles import FEDERAL


def main(name: str, n: int) -> None:
    prof = FEDERAL.packed
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = 32
    T = P.new_think(np.int64(P.PIMC_TT_LOG2))
    r = random.Random(SEED)
    # The first position compiles (or loads) the player, as in benchmarks.pimc_cards.
    hand, trick, k, info = position(r)
    legal = np.uint32(legal_mask(hand, trick, k, int(info[I_KIND]), prof))
    P.pimc_card(T, hand, legal, trick, k, info, params, 0, prof, _stream(0))
    cards: list[int] = []
    seconds = 0.0
    start = int(T.solver.work[dd.W_NODES])
    by_trick: dict[int, int] = {}
    for hand, legal, trick, k, info, st in decisions(r):
        before = int(T.solver.work[dd.W_NODES])
        t0 = time.perf_counter()
        card = P.pimc_card(T, hand, legal, trick, k, info, params, 0, prof, st)
        seconds += time.perf_counter() - t0
        t = int(info[I_TRICK])
        by_trick[t] = by_trick.get(t, 0) + int(T.solver.work[dd.W_NODES]) - before
        cards.append(int(card))
        if len(cards) == n:
            break
    nodes = int(T.solver.work[dd.W_NODES]) - start
    print(f"{name} s/card {seconds / n:.4f} nodes {nodes:,} by trick "
          f"{dict(sorted(by_trick.items()))}")
    with open(f"cards-{name}.json", "w") as f:
        json.dump(cards, f)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
