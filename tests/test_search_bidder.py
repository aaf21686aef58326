"""analysis/search_bidder.py: the optuna search of the data-fitted bidder's margins runs,
starts from the shipped defaults, and records every trial and the replay of the best."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from simcoinche.players.registry import FITTED_BIDDER_MARGINS

ROOT = Path(__file__).resolve().parent.parent


def test_search_records_trials_from_the_defaults_and_replays_the_best(tmp_path):
    sys.path.insert(0, str(ROOT / "analysis"))
    try:
        import search_bidder
    finally:
        sys.path.pop(0)
    out = tmp_path / "search.json"
    assert search_bidder.main(["--trials", "3", "--deals", "300", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [t["number"] for t in doc["trials"]] == [0, 1, 2]
    # Trial 0 is the shipped defaults; its objective is the worse of its two matches,
    # and against itself (the defaults) a duplicate match is exactly even.
    first = doc["trials"][0]
    assert first["values"] == {p.name: p.default for p in FITTED_BIDDER_MARGINS}
    assert first["defaults"]["mean"] == 0.0
    assert first["objective"] == min(first["club"]["mean"], first["defaults"]["mean"])
    best = max(doc["trials"], key=lambda t: t["objective"])
    assert doc["best"] == best["values"] and doc["best_trial"] == best["number"]
    assert set(doc["check"]) == {"club", "defaults", "objective"}
