"""benchmarks/compile_profile.py: compile events turned into per-function times (issue 24).

The profile of a cold command rests on :func:`compile_entries`: nested compiles (a
function compiling its callee) must each count once, so that the exclusive times add up
to the outer compile's whole time. Checked on two fresh functions compiled here (never
cached: ``cache=False``), the outer one calling the inner one.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from numba import njit
from numba.core.event import install_recorder

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "compile_profile.py"


@pytest.fixture(scope="module")
def compile_profile():
    spec = importlib.util.spec_from_file_location("compile_profile", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_nested_compiles_count_once_and_add_up_to_the_outer_compile(compile_profile):
    @njit(cache=False)
    def inner(x):
        return x * 2 + 1

    @njit(cache=False)
    def outer(x):
        return inner(x) - 3

    with install_recorder("numba:compile") as rec:
        assert outer(5) == 8
    entries = compile_profile.compile_entries(rec.buffer)
    by_name = {e["function"].rsplit(".", 1)[-1]: e for e in entries}
    assert set(by_name) == {"inner", "outer"}
    out, inn = by_name["outer"], by_name["inner"]
    # inner compiled inside outer's compile: outer's exclusive time leaves it out.
    assert 0 < inn["inclusive_s"] < out["inclusive_s"]
    assert out["exclusive_s"] == pytest.approx(out["inclusive_s"] - inn["inclusive_s"])
    assert sum(e["exclusive_s"] for e in entries) == pytest.approx(out["inclusive_s"])
    assert "int64" in out["args"]
