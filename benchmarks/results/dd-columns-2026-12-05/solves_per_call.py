"""``solves_per_call.py SPC N THREADS``: ``simulate_to_file(N, seed=7, dd=True)`` with
``dd_columns.SOLVES_PER_CALL`` set to ``SPC``; prints donnes/s (benchmarks/README.md,
"simulate --dd on both cores")."""

import sys

from simcoinche.runs import dd_columns
from simcoinche.runs.simulation import simulate_to_file

spc, n, threads = (int(a) for a in sys.argv[1:4])
dd_columns.SOLVES_PER_CALL = spc
summary = simulate_to_file(n, seed=7, out="/tmp/w/ddspc.parquet", threads=threads, dd=True,
                           overwrite=True, progress=False)
print(f"spc={spc} threads={threads}: {summary.donnes_per_second:.1f} donnes/s")
