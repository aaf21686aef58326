"""``analysis/strength.py``: reruns the strength table from duplicate matches, keeps each
match's raw JSON and rebuilds the table from the kept files alone."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

import simcoinche

SCRIPT = Path(__file__).resolve().parent.parent / "analysis" / "strength.py"


def _load():
    spec = importlib.util.spec_from_file_location("analysis_strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_strength_script_keeps_raw_json_and_rebuilds_the_table(tmp_path, capsys):
    strength = _load()
    out = tmp_path / "o"
    argv = ["--row", "heuristic", "random", "200", "7",
            "--row", "random", "heuristic", "150", "8", "--out-dir", str(out)]
    assert strength.main(argv) == 0
    kept = sorted((out / "strength").glob("*.json"))
    assert [p.name for p in kept] == ["heuristic_vs_random-n200-s7.json",
                                      "random_vs_heuristic-n150-s8.json"]
    doc = json.loads(kept[0].read_text())
    assert (doc["a"], doc["b"], doc["deals"], doc["seed"]) == ("heuristic", "random", 200, 7)
    # The kept JSON is the match itself: the API gives the same figures for that seed.
    res = simcoinche.match("heuristic", "random", 200, seed=7, threads=1, progress=False)
    assert doc["mean_diff"] == pytest.approx(res.mean_diff)
    assert doc["ci95"] == pytest.approx(list(res.ci95))
    assert doc["won"] == pytest.approx(res.won)
    table = (out / "strength.md").read_text()
    ci = doc["ci95"]
    row = next(line for line in table.splitlines() if line.startswith("| `heuristic` vs"))
    assert f"**{doc['mean_diff']:+.1f}**".replace("-", "−") in row
    assert f"[{ci[0]:+.1f}, {ci[1]:+.1f}]".replace("-", "−") in row
    assert "200 (rough)" in row and row.endswith("| 7 |")
    assert f"{100 * doc['won']:.1f} / {100 * doc['tied']:.1f} / {100 * doc['lost']:.1f} %" in row
    assert "strength/heuristic_vs_random-n200-s7.json" in table
    assert "Not run" not in table
    # --table-only rebuilds the same table from the kept files, playing nothing.
    (out / "strength.md").unlink()
    assert strength.main([*argv, "--table-only"]) == 0
    assert (out / "strength.md").read_text() == table
    # A kept file for another match is refused, and nothing is written.
    capsys.readouterr()
    kept[1].write_text(kept[0].read_text())
    (out / "strength.md").unlink()
    assert strength.main([*argv, "--table-only"]) == 1
    err = capsys.readouterr().err
    assert "match JSON is for" in err and err.count("\n") == 1
    assert not (out / "strength.md").exists()


def test_strength_rows_without_output_are_listed_not_run(tmp_path, capsys):
    strength = _load()
    out = tmp_path / "o"
    assert strength.main(["--row", "heuristic", "random", "100", "3", "--out-dir",
                          str(out)]) == 0
    argv = ["--row", "heuristic", "random", "100", "3", "--row", "pimc", "random",
            "50", "4", "--out-dir", str(out), "--table-only"]
    assert strength.main(argv) == 0
    table = (out / "strength.md").read_text()
    assert "Not run yet" in table and "- `pimc` vs `random`, 50 deals, seed 4" in table
    assert "| `pimc` vs" not in table
    # Nothing kept at all, or a failing match: one-line error, exit 1.
    assert strength.main(["--row", "a", "b", "5", "1", "--out-dir", str(tmp_path / "e"),
                          "--table-only"]) == 1
    assert strength.main(["--row", "nosuchplayer", "random", "5", "1", "--out-dir",
                          str(tmp_path / "f")]) == 1
    errors = [e for e in capsys.readouterr().err.splitlines() if "error" in e]
    assert len(errors) == 2
    assert errors[0].startswith("strength: error: no row has a kept output")
    assert errors[1].startswith("strength: error: match nosuchplayer vs random exited 2: ")
    assert not (tmp_path / "f" / "strength").exists()
