"""Shared fixtures: the ``engine`` fixture runs each rule test on every engine.

The suite runs on every core (``make test``: pytest-xdist, one test file per worker at a
time, ``--dist loadfile``); the files that take longest start first (:data:`FIRST`), so
that the last minutes are not one worker finishing a long file while the others idle, and
the guide's examples and the quick benchmark, which run every command, start last
(:data:`LAST`).

Engines: the pure-Python reference (:mod:`engine_reference`) and the numba kernels
(:mod:`engine_kernels`), both always: if the kernel adapter cannot be imported the test
run stops with that ImportError. Which engines ran is printed in pytest's header.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# Both engines, always: an ImportError of the kernel adapter is an error of the run
# (collection fails), never a silent fallback to the reference engine alone.
from engine_kernels import KernelEngine
from engine_reference import ReferenceEngine

# The commands' compile helper (a second process compiling beside a cold first run,
# simcoinche.commands.warmup.compile_beside) stays off in the suite: the two workers
# already use both cores. tests/test_compile_helper.py turns it on where it tests it.
os.environ["SIMCOINCHE_COMPILE_HELPER"] = "0"

ENGINES: list[type] = [ReferenceEngine, KernelEngine]


#: Test files started first, longest first (minutes each on a 2-core machine: cold
#: commands in fresh processes, the PIMC donnes); the others follow in file order.
FIRST = ("test_first_run.py", "test_pimc.py", "test_table.py", "test_bidder.py",
         "test_dd_simulation.py")
#: Test files started last: the guide's examples and the quick benchmark run every
#: command in fresh processes, so they find the kernels the other files compiled in the
#: shared cache instead of compiling them while those files do too (the examples took
#: 36 s on a warm cache, 170-400 s started third on an empty one).
LAST = ("test_docs_examples.py", "test_bench_quick.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of :data:`FIRST` first, in that order, those of :data:`LAST` last; every
    other test keeps its place."""
    rank = {name: i for i, name in enumerate(FIRST)}
    rank.update({name: len(FIRST) + 1 + i for i, name in enumerate(LAST)})
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))


def pytest_report_header(config: pytest.Config) -> list[str]:
    return ["rule-test engines: " + ", ".join(e.__name__ for e in ENGINES)]


@pytest.fixture(params=ENGINES, ids=lambda e: e.__name__)
def engine(request: pytest.FixtureRequest):
    """An engine adapter (methods of ARCHITECTURE.md "Rule tests run on both engines")."""
    return request.param()
