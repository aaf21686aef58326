# Probe (not part of the product): a cold simulate -n 1000 whose card play is compiled here
# while probe-helper-child.py compiles the bidder in a second process, then the run itself.
import time, sys, subprocess
t0 = time.perf_counter()
child = subprocess.Popen([sys.executable, "/tmp/w/wc/child2.py"] + sys.argv[1:2])
import numpy as np
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players, think_arg
from simcoinche._kernels.batch import _play_block, Contracts, donne_scratch
from simcoinche._kernels.donne import Players
from simcoinche._kernels.kinds import kinds_of
from simcoinche._kernels.thinking import think_scratch
from simcoinche._kernels.layout import PC_LEN
prof = get_profile("federal")
pk, codes, rows = team_players("heuristic", None, prof)
n = 1
hands = np.array([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], dtype=np.uint32)
c = Contracts(np.zeros(n, np.int8), np.zeros(n, np.int8), np.zeros(n, np.int8), np.zeros(n, np.int8), np.ones(n, np.int8))
out = np.zeros((PC_LEN, n), np.int32)
_play_block(np.uint64(1), np.int64(0), 0, n, hands, c, Players(codes, rows, kinds_of(codes)), prof.packed, out,
            np.zeros((0, 32), np.uint8), donne_scratch(), think_scratch(think_arg(codes)))
t1 = time.perf_counter()
child.wait()
t2 = time.perf_counter()
print(f"main card play {t1-t0:.1f} s, waited {t2-t1:.1f} s", file=sys.stderr)
from simcoinche.commands.cli import main
main(["simulate", "-n", "1000", "--seed", "1", "--out", "/tmp/w/wc/d.parquet", "--overwrite", "--no-progress"])
print(f"total {time.perf_counter()-t0:.1f} s", file=sys.stderr)
