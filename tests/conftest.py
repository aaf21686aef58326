"""Shared fixtures: the ``engine`` fixture runs each rule test on every engine.

Engines: the pure-Python reference (:mod:`engine_reference`) always, and the numba
kernels (:mod:`engine_kernels`) when that adapter can be imported. Which engines ran is
printed in pytest's header, so a missing kernel adapter is visible, never silent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from engine_reference import ReferenceEngine

ENGINES: list[type] = [ReferenceEngine]
_KERNEL_IMPORT_ERROR: str | None = None
try:
    from engine_kernels import KernelEngine
except ImportError as exc:  # adapter or kernels not written yet: reference engine only
    _KERNEL_IMPORT_ERROR = f"{type(exc).__name__}: {exc}"
else:
    ENGINES.append(KernelEngine)


def pytest_report_header(config: pytest.Config) -> list[str]:
    names = ", ".join(e.__name__ for e in ENGINES)
    lines = [f"rule-test engines: {names}"]
    if _KERNEL_IMPORT_ERROR:
        lines.append(f"kernel engine left out ({_KERNEL_IMPORT_ERROR})")
    return lines


@pytest.fixture(params=ENGINES, ids=lambda e: e.__name__)
def engine(request: pytest.FixtureRequest):
    """An engine adapter (methods of ARCHITECTURE.md "Rule tests run on both engines")."""
    return request.param()
