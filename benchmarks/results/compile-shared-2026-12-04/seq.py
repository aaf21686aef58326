"""warmup's simulate, odds and advise jobs in one process, numba's compile events recorded:
each job's seconds, then every compile over 1.5 s (inclusive, exclusive, function).
Run with PYTHONPATH at the tree measured and SIMCOINCHE_CACHE_DIR at an empty directory."""

import time

from numba.core.event import install_recorder

from benchmarks.compile_profile import compile_entries
from simcoinche.commands import warmup

with install_recorder("numba:compile") as rec:
    for name, job in warmup.COMMANDS[:3]:
        t0 = time.perf_counter()
        job()
        print(name, round(time.perf_counter() - t0, 1), flush=True)
for e in compile_entries(rec.buffer):
    if e["inclusive_s"] > 1.5:
        print(round(e["inclusive_s"], 1), round(e["exclusive_s"], 1), e["function"],
              e["args"][:60])
