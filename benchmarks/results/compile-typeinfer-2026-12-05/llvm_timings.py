"""LLVM's share of a cold ``simulate -n 1000``: ``python llvm_timings.py OUT.parquet`` with
an empty ``SIMCOINCHE_CACHE_DIR`` and ``SIMCOINCHE_COMPILE_HELPER=0``.

Times, summed over every code library numba finalizes: its "cheap" module passes, the
full module passes (both in ``_optimize_final_module``, re-done at each level for the
callees' code linked in), the function passes, and the machine code
(``_finalize_specific``). Prints them on stderr after the command.
"""

import sys
import time

from numba.core import codegen, config

TIMES = {"cheap": 0.0, "full": 0.0, "function passes": 0.0, "machine code": 0.0}


def _optimize_final_module(self) -> None:
    # numba 0.68's CPUCodeLibrary._optimize_final_module, timed.
    cheap, cheap_builder = self._codegen._module_pass_manager(
        loop_vectorize=self._codegen._loopvect, slp_vectorize=False,
        opt=self._codegen._opt_level, cost="cheap")
    full, full_builder = self._codegen._module_pass_manager()
    t0 = time.perf_counter()
    cheap.run(self._final_module, cheap_builder)
    t1 = time.perf_counter()
    if not config.LLVM_REFPRUNE_PASS:
        self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)
    t2 = time.perf_counter()
    full.run(self._final_module, full_builder)
    TIMES["cheap"] += t1 - t0
    TIMES["full"] += time.perf_counter() - t2


def _timed(name: str, method):
    def wrapper(*args):
        t0 = time.perf_counter()
        try:
            return method(*args)
        finally:
            TIMES[name] += time.perf_counter() - t0
    return wrapper


def main(out: str) -> None:
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
    codegen.CPUCodeLibrary._optimize_functions = _timed(
        "function passes", codegen.CPUCodeLibrary._optimize_functions)
    codegen.JITCodeLibrary._finalize_specific = _timed(
        "machine code", codegen.JITCodeLibrary._finalize_specific)
    t0 = time.time()
    from simcoinche.commands.cli import main as cli

    cli(["simulate", "-n", "1000", "--no-progress", "--seed", "3", "--out", out])
    print("wall", round(time.time() - t0, 1), "s;",
          {name: round(seconds, 2) for name, seconds in TIMES.items()}, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
