# ruff: noqa  (an ad hoc script of the reverted attempt, kept as it was run)
import sys
import time

import numba
import numpy as np

from simcoinche._kernels import batch as B
from simcoinche._kernels.donne import Players
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import PC_LEN
from simcoinche.analysis.hand_odds import deals
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players

prof = get_profile("federal")
_, codes, rows = team_players("heuristic", None, prof)
d = deals("JH 9H AH TH KS 7C 8D AD", seat=0)
n = 1 << 16
hands = d.sample(n, 3, 0)
C = B.Contracts(np.full(n, 3, np.int8), np.zeros(n, np.int8), np.zeros(n, np.int8),
                np.full(n, 1, np.int8), np.ones(n, np.int8))
P = Players(codes, rows, NO_KINDS)
out = np.empty((PC_LEN, n), np.int32)
numba.set_num_threads(int(sys.argv[1]))
B.play_contracts(np.uint64(5), np.int64(0), hands[:10], B.Contracts(*(a[:10] for a in C)), P, prof.packed, out[:, :10].copy(), None)
ts = []
for _ in range(5):
    t = time.perf_counter()
    B.play_contracts(np.uint64(5), np.int64(0), hands, C, P, prof.packed, out, None)
    ts.append(time.perf_counter() - t)
print(sys.argv[1], "threads", " ".join(f"{x:.3f}" for x in ts), "checksum", int(out.sum()))
