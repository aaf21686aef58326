"""Shared fixtures: the ``engine`` fixture runs each rule test on every engine.

Engines: the pure-Python reference (:mod:`engine_reference`) and the numba kernels
(:mod:`engine_kernels`), both always: if the kernel adapter cannot be imported the test
run stops with that ImportError. Which engines ran is printed in pytest's header.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# Both engines, always: an ImportError of the kernel adapter is an error of the run
# (collection fails), never a silent fallback to the reference engine alone.
from engine_kernels import KernelEngine
from engine_reference import ReferenceEngine

ENGINES: list[type] = [ReferenceEngine, KernelEngine]


def pytest_report_header(config: pytest.Config) -> list[str]:
    return ["rule-test engines: " + ", ".join(e.__name__ for e in ENGINES)]


@pytest.fixture(params=ENGINES, ids=lambda e: e.__name__)
def engine(request: pytest.FixtureRequest):
    """An engine adapter (methods of ARCHITECTURE.md "Rule tests run on both engines")."""
    return request.param()
