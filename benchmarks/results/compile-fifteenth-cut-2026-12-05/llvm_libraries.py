# ruff: noqa  (an ad hoc profiling script, kept as it was run: python llvm_libraries.py parties -n 20 --no-progress --out F --overwrite)
import os, sys, time, tempfile, collections
os.environ["SIMCOINCHE_CACHE_DIR"] = tempfile.mkdtemp(prefix="llvmprof")
os.environ["SIMCOINCHE_COMPILE_HELPER"] = "0"
from numba.core import codegen as c
T = collections.defaultdict(float)
N = collections.Counter()
L = collections.defaultdict(float)
def wrap(cls, name, label):
    orig = getattr(cls, name)
    def f(self, *a, **k):
        t = time.perf_counter()
        try:
            return orig(self, *a, **k)
        finally:
            dt = time.perf_counter() - t
            T[label] += dt; N[label] += 1
            L[(label, self.name.split('$')[0][-60:])] += dt
    setattr(cls, name, f)
wrap(c.CPUCodeLibrary, "_optimize_final_module", "optimize_final_module")
wrap(c.CPUCodeLibrary, "_optimize_functions", "optimize_functions")
wrap(c.CPUCodeLibrary, "_finalize_final_module", "finalize_final_module(codegen)")
wrap(c.CPUCodeLibrary, "serialize_using_object_code", "serialize_object_code")
wrap(c.CPUCodeLibrary, "_get_compiled_object", "get_compiled_object")
import llvmlite.binding as ll
t0 = time.perf_counter()
from simcoinche.commands.cli import main
cmd = sys.argv[1:]
try:
    main(cmd)
except SystemExit:
    pass
tot = time.perf_counter() - t0
print(f"total {tot:.1f}")
for k, v in sorted(T.items(), key=lambda x: -x[1]):
    print(f"{k:40s} {v:7.2f} s  n={N[k]}")

for k, v in sorted(L.items(), key=lambda x: -x[1])[:30]:
    print(f"{v:6.2f}  {k[0]:32s} {k[1]}")
