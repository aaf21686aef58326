# ruff: noqa  (an ad hoc profiling script, kept as it was run: python passes_exclusive.py parties -n 20 --no-progress --out F --overwrite)
import os, sys, time, tempfile, collections
os.environ["SIMCOINCHE_CACHE_DIR"] = tempfile.mkdtemp(prefix="passprof")
os.environ["SIMCOINCHE_COMPILE_HELPER"] = "0"
from numba.core import compiler_machinery as cm
T = collections.defaultdict(float); N = collections.Counter()
orig = cm.PassManager._runPass
STACK=[]
def _runPass(self, index, pss, internal_state):
    t = time.perf_counter()
    STACK.append(0.0)
    try:
        return orig(self, index, pss, internal_state)
    finally:
        dt = time.perf_counter() - t
        nested = STACK.pop()
        if STACK: STACK[-1] += dt
        T[pss.name()] += dt - nested; N[pss.name()] += 1
cm.PassManager._runPass = _runPass
t0 = time.perf_counter()
from simcoinche.commands.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(f"total {time.perf_counter()-t0:.1f}")
for k, v in sorted(T.items(), key=lambda x: -x[1])[:25]:
    print(f"{k:45s} {v:7.2f} s  n={N[k]}")
