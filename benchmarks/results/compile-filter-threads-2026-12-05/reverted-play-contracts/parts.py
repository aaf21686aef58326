# ruff: noqa  (an ad hoc script of the reverted attempt, kept as it was run)
import time

import numba
import numpy as np

from simcoinche._kernels import batch as B
from simcoinche._kernels.donne import Players
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import PC_LEN
from simcoinche._kernels.sampler import made_at_levels
from simcoinche.analysis.hand_odds import deals
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players

prof = get_profile("federal")
_, codes, rows = team_players("heuristic", None, prof)
d = deals("JH 9H AH TH KS 7C 8D AD", seat=0)
n = 1 << 15
numba.set_num_threads(2)
P = Players(codes, rows, NO_KINDS)
levels = np.arange(12, dtype=np.int64)
T = {"sample": 0.0, "play": 0.0, "levels": 0.0}
for rep in range(13):
    t = time.perf_counter(); hands = d.sample(n, 3, rep * n); T["sample"] += time.perf_counter() - t
    out = np.empty((PC_LEN, n), np.int32); ok = np.empty((12, n), np.uint8)
    for kind in range(6):
        C = B.Contracts(np.full(n, 3, np.int8), np.zeros(n, np.int8), np.zeros(n, np.int8),
                        np.full(n, kind, np.int8), np.ones(n, np.int8))
        t = time.perf_counter(); B.play_contracts(np.uint64(5), np.int64(0), hands, C, P, prof.packed, out, None); T["play"] += time.perf_counter() - t
        t = time.perf_counter(); made_at_levels(out, 0, kind, levels, prof.packed, ok); T["levels"] += time.perf_counter() - t
print({k: round(v, 3) for k, v in T.items()})
