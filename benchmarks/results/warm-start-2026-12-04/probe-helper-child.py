# Probe (not part of the product): compile the data-fitted bidder in this second process while
# probe-helper-main.py compiles the card play; see benchmarks/README.md, warm starts fourth cut.
import time, sys
t0 = time.perf_counter()
import numpy as np
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players
from simcoinche._kernels.bidder import fitted_action
from simcoinche._kernels.score_bid import score_action
from simcoinche._kernels.auction import AUCTION_STATE_LEN
from simcoinche._kernels.donne import MAX_ACTIONS
prof = get_profile("federal")
pk, codes, rows = team_players("heuristic", None, prof)
f = score_action if (len(sys.argv) > 1 and sys.argv[1] == "score") else fitted_action
f(np.uint32(0xFF), np.zeros(AUCTION_STATE_LEN, np.int32), np.zeros(MAX_ACTIONS, np.uint8), 0, rows, 0, prof.packed, np.zeros(4, np.uint64))
print(f"child done {time.perf_counter()-t0:.1f} s", file=sys.stderr)
