"""The auction filter alone (``draw_kept``: 60,000 deals kept after ``pass 80H``, heuristic
models), four times, on ``sys.argv[1]`` threads: ``PYTHONPATH=TREE python filter_only.py 2``.
"""

import sys
import time

import numba

from simcoinche.analysis.conditioned import draw_kept, parse_auction
from simcoinche.analysis.hand_odds import deals
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players


def main() -> None:
    prof = get_profile("federal")
    _, codes, rows = team_players("heuristic", None, prof)
    obs = parse_auction("pass 80H", prof, seat=2)
    d = deals("AH TH KH AS 7C AD KD 8D", seat=2)
    numba.set_num_threads(int(sys.argv[1]))
    draw_kept(d, obs, 10, 1, prof, codes, rows, progress=False)
    times = []
    for _ in range(4):
        t = time.perf_counter()
        kept = draw_kept(d, obs, 60000, 5, prof, codes, rows, progress=False)
        times.append(time.perf_counter() - t)
    print(sys.argv[1], "thr", " ".join(f"{x:.3f}" for x in times), "draws", kept.draws)


if __name__ == "__main__":
    main()
