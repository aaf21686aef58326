"""numba's compile events of every pytest worker, one JSON file per process.

Usage (from the repository, an empty kernel cache, this directory on the path)::

    PYTHONPATH=benchmarks/results/suite-compile-2026-12-04 SUITE_COMPILES_DIR=out \\
        SIMCOINCHE_CACHE_DIR=$(mktemp -d) .venv/bin/python -m pytest -q \\
        -p suite_compiles_plugin -n auto --maxprocesses 4 --dist loadfile \\
        --no-loadscope-reorder --durations=0

Each entry: the compiled function, its argument types, the test running, the seconds
with and without the compiles nested in it. The commands the tests start in fresh
processes are not recorded. The listener sees the events tests raise themselves too
(test_first_run's fake kernels): on those it records the dispatcher's repr.
"""

import json
import os
import time

from numba.core import event


class _Compiles(event.Listener):
    def __init__(self) -> None:
        self.stack: list[dict] = []
        self.out: list[dict] = []

    def on_start(self, ev: event.Event) -> None:
        data = ev.data if isinstance(ev.data, dict) else {}
        d = data.get("dispatcher")
        f = getattr(d, "py_func", None)
        name = f"{f.__module__}.{f.__qualname__}" if f is not None else repr(d)
        self.stack.append({"function": name, "args": str(data.get("args")),
                           "t0": time.perf_counter(), "children": 0.0,
                           "test": os.environ.get("PYTEST_CURRENT_TEST", ""),
                           "depth": len(self.stack)})

    def on_end(self, ev: event.Event) -> None:
        if not self.stack:
            return
        e = self.stack.pop()
        e["incl"] = time.perf_counter() - e.pop("t0")
        e["excl"] = e["incl"] - e.pop("children")
        if self.stack:
            self.stack[-1]["children"] += e["incl"]
        self.out.append(e)


_LISTENER = _Compiles()


def pytest_configure(config: object) -> None:
    event.register("numba:compile", _LISTENER)


def pytest_unconfigure(config: object) -> None:
    out = os.environ.get("SUITE_COMPILES_DIR", ".")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{os.getpid()}.json"), "w") as f:
        json.dump(_LISTENER.out, f)
