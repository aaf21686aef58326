"""Probe (not part of the product): a cold ``simulate -n 1000`` split over two processes.

This process compiles the card play (``batch._play_block``, ``play_phase`` with
``play_one``'s argument types) while ``probe-helper-child.py`` compiles the bidder, waits
for it, then runs the command, which loads both from the cache. Run with an empty
``NUMBA_CACHE_DIR``; see ``benchmarks/README.md``, "Warm starts, fourth cut".
"""

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

t0 = time.perf_counter()
child = subprocess.Popen([sys.executable, str(Path(__file__).with_name("probe-helper-child.py")),
                          *sys.argv[1:2]])

from simcoinche._kernels.batch import Contracts, _play_block, donne_scratch  # noqa: E402
from simcoinche._kernels.donne import Players  # noqa: E402
from simcoinche._kernels.kinds import kinds_of  # noqa: E402
from simcoinche._kernels.layout import PC_LEN  # noqa: E402
from simcoinche._kernels.thinking import think_scratch  # noqa: E402
from simcoinche.commands.cli import main  # noqa: E402
from simcoinche.rules.profiles import get_profile  # noqa: E402
from simcoinche.runs.simulation import team_players, think_arg  # noqa: E402

prof = get_profile("federal")
_, codes, rows = team_players("heuristic", None, prof)
n = 1
hands = np.array([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], dtype=np.uint32)
zeros = np.zeros(n, np.int8)
contracts = Contracts(zeros, zeros, zeros, zeros, np.ones(n, np.int8))
_play_block(np.uint64(1), np.int64(0), 0, n, hands, contracts,
            Players(codes, rows, kinds_of(codes)), prof.packed, np.zeros((PC_LEN, n), np.int32),
            np.zeros((0, 32), np.uint8), donne_scratch(), think_scratch(think_arg(codes)))
t1 = time.perf_counter()
child.wait()
t2 = time.perf_counter()
print(f"main card play {t1 - t0:.1f} s, waited {t2 - t1:.1f} s", file=sys.stderr)
main(["simulate", "-n", "1000", "--seed", "1", "--out", "/tmp/probe-helper.parquet",
      "--overwrite", "--no-progress"])
print(f"total {time.perf_counter() - t0:.1f} s", file=sys.stderr)
