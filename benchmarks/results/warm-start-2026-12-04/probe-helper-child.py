"""Probe (not part of the product): compile the data-fitted bidder in a second process.

Started by ``probe-helper-main.py``; see ``benchmarks/README.md``, "Warm starts, fourth
cut". Calls ``fitted_action`` (or, with ``score``, ``score_action``) once with the argument
types ``play_one`` passes, so the main process loads it from the cache.
"""

import sys
import time

import numpy as np

from simcoinche._kernels.auction import AUCTION_STATE_LEN
from simcoinche._kernels.bidder import fitted_action
from simcoinche._kernels.donne import MAX_ACTIONS
from simcoinche._kernels.score_bid import score_action
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players

t0 = time.perf_counter()
prof = get_profile("federal")
_, codes, rows = team_players("heuristic", None, prof)
bidder = score_action if sys.argv[1:2] == ["score"] else fitted_action
bidder(np.uint32(0xFF), np.zeros(AUCTION_STATE_LEN, np.int32), np.zeros(MAX_ACTIONS, np.uint8),
       0, rows, 0, prof.packed, np.zeros(4, np.uint64))
print(f"child done {time.perf_counter() - t0:.1f} s", file=sys.stderr)
