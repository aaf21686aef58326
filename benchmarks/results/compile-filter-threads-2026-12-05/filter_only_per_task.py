# ruff: noqa  (an ad hoc variant of filter_only.py, kept as it was run: argv[2] = blocks per task)
import functools, sys, time
import numba
import simcoinche.runs.blocks as RB
if sys.argv[2] != "4":
    RB.share_blocks = functools.partial(RB.share_blocks, per_task=int(sys.argv[2]))
from simcoinche.analysis.conditioned import draw_kept, parse_auction
from simcoinche.analysis.hand_odds import deals
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players
prof = get_profile("federal")
_, codes, rows = team_players("heuristic", None, prof)
obs = parse_auction("pass 80H", prof, seat=2)
d = deals("AH TH KH AS 7C AD KD 8D", seat=2)
numba.set_num_threads(int(sys.argv[1]))
draw_kept(d, obs, 10, 1, prof, codes, rows, progress=False)
ts = []
for _ in range(4):
    t = time.perf_counter(); k = draw_kept(d, obs, 60000, 5, prof, codes, rows, progress=False); ts.append(time.perf_counter() - t)
print(sys.argv[1:], " ".join(f"{x:.3f}" for x in ts), "draws", k.draws)
