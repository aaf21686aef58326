"""The benchmark harness's quick mode runs end to end, so ``make bench`` cannot rot.

No figure is asserted against a target here (performance targets live in benchmarks/,
not in timed tests); this checks that every section runs and writes complete results.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_quick_benchmark_writes_every_section_and_the_table(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.run", "--quick", "--repeats", "1",
         "--out", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=1200, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads((tmp_path / "latest-quick.json").read_text())
    assert doc["quick"] is True
    assert doc["machine"]["cores"] and doc["machine"]["versions"]["numba"]
    figures = doc["figures"]
    for prefix in ("kernel.legal_mask", "reference.legal_mask", "donnes.random.t1",
                   "donnes.heuristic.t1", "reference.donnes.random", "e2e.random.t1",
                   "e2e.heuristic.t1", "rss.heuristic", "start.cold.profiles",
                   "start.warm.profiles",
                   "odds.in_process", "odds.cli_warm", "advise.odds_auction", "advise.advise",
                   "dask.local_cluster", "parties.heuristic", "ddsim.simulate", "pimc.w16",
                   "pimc.w32", "pimc.w64", "pimc.cards.together", "pimc.cards.in_full",
                   "dd.ours.value", "dd.colver.value", "dd.ours.root", "dd.colver.root",
                   "dd.ours.mid", "dd.colver.mid"):
        assert any(name.startswith(prefix) for name in figures), prefix
    for fig in figures.values():
        assert fig["repeats"] >= 1 and fig["min"] <= fig["median"] <= fig["max"]
        assert fig["median"] > 0
    # every profile has its heuristic row, compared with federal
    assert sum(name.startswith("donnes.heuristic.t") for name in figures) >= 4
    ratios = doc["ratios"]
    assert ratios["kernel/reference legal_mask"]["value"] > 1
    # the peer is either measured or reported as absent, never silently missing
    assert "colver" in doc["notes"]
    # the invariants (2), the double-dummy values equal colver's (3 tasks) and the PIMC
    # player's cards equal those of every world solved in full (1)
    checks = [t for t in doc["targets"].values() if t.get("note") == "check"]
    assert len(checks) == 6 and all(t["met"] for t in checks), checks
    assert ratios["pimc cards/s: worlds together / every world in full"]["value"] > 0
    assert ratios["DD value: ours / colver (1 thread)"]["value"] > 0
    assert "| figure | median |" in proc.stdout
