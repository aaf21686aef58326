"""Features, tables and plots on a real small simulation, and the analysis scripts end to end."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

import simcoinche
from simcoinche.analysis.features import hand_features
from simcoinche.analysis.plots import plot_all
from simcoinche.analysis.stats import bid_curve, made_at, played, success_rates

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"analysis_{name}",
                                                  ROOT / "analysis" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def df():
    return simcoinche.simulate(6000, seed=4, progress=False)


def test_taker_features_match_the_hands_of_real_donnes(df):
    d = played(df)
    f = hand_features(d, "taker")
    kinds = d["trump"].cat.codes.to_numpy()
    hands = d[["hand_0", "hand_1", "hand_2", "hand_3"]].to_numpy(dtype=np.uint32)
    taker = d["taker"].to_numpy().astype(np.int64)
    own = hands[np.arange(len(d)), taker]
    suit = kinds < 4
    trump_bytes = (own[suit] >> (8 * kinds[suit]).astype(np.uint32)) & np.uint32(0xFF)
    assert (f["n_cards"] == 8).all()
    assert np.array_equal(f["trump_len"].to_numpy()[suit].astype(int),
                          np.bitwise_count(trump_bytes).astype(int))
    # J (bit 4), 9 (bit 2), A (bit 7) of trump.
    top = sum(((trump_bytes >> np.uint32(b)) & np.uint32(1)).astype(int) for b in (4, 2, 7))
    assert np.array_equal(f["top_trumps"].to_numpy()[suit].astype(int), top)
    # Card points of the four hands add up to the deck's 152 under every contract.
    total = sum(hand_features(d, role)["points"].to_numpy().astype(int)
                for role in ("taker", "left", "partner", "right"))
    assert (total == 152).all()
    team = hand_features(d, "team")
    partner = hand_features(d, "partner")
    assert np.array_equal(team["trump_len"].to_numpy()[suit].astype(int),
                          f["trump_len"].to_numpy()[suit].astype(int)
                          + partner["trump_len"].to_numpy()[suit].astype(int))


def test_success_tables_agree_with_the_run_summary(df):
    summary = df.attrs["summary"]
    t = success_rates(df, by="bid_value")
    got = {int(r.bid_value): [int(r.n), int(r.made)] for r in t.itertuples(index=False)}
    assert got == {int(k): v for k, v in summary.by_value.items()}
    assert t["n"].sum() == 6000 - summary.passed_out


def test_bid_curve_at_the_contract_bid_is_the_made_column(df):
    # The federal test applied at each donne's own bid value gives back its `made`.
    d = played(df)
    values = d["bid_value"].to_numpy()
    for v in np.unique(values):
        rows = d[values == v]
        assert np.array_equal(made_at(rows, int(v)), rows["made"].to_numpy(dtype=bool))
    curve = bid_curve(df)
    assert curve["n"].iloc[0] == len(d)


def test_plots_of_a_real_run_are_valid_pngs(df, tmp_path):
    paths = plot_all(df, tmp_path, min_count=50)
    assert len(paths) == 4
    for p in paths:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert imread(p).shape[0] > 200


def test_headline_script_simulates_then_reuses_the_run(tmp_path, capsys):
    headline = _load("headline")
    results = tmp_path / "run.parquet"
    out = tmp_path / "headline.md"
    argv = ["-n", "3000", "--seed", "2", "--results", str(results), "--out", str(out),
            "--min-count", "20"]
    assert headline.main(argv) == 0
    text = out.read_text()
    for title in ("## Overview", "## Contract success by bid level",
                  "## Contracts made by the taker's trump length × top trumps",
                  "## Bid curve by the taker's trump length", "## Coinche outcomes"):
        assert title in text
    assert "Run: 3,000 donnes, seed 2, profile federal" in text
    stamp = results.stat().st_mtime_ns
    assert headline.main(argv) == 0
    assert results.stat().st_mtime_ns == stamp     # the matching run was reused
    assert out.read_text() == text
    capsys.readouterr()


def test_odds_answer_script_prints_the_command_and_one_line(capsys):
    script = _load("odds_answer")
    assert script.main(["--samples", "800", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("$ simcoinche odds --hand 'JH 9H AH TH KS 7C 8D AD' --trump H")
    assert lines[1].startswith("100H with ") and "of 800 deals" in lines[1]
