"""Plots: valid PNG files from results tables, clear errors on empty or small groups."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

from simcoinche.analysis.features import features_for
from simcoinche.analysis.plots import (
    plot_all,
    plot_bid_curves,
    plot_marks,
    plot_success_heatmap,
    with_taker_features,
)
from simcoinche.rules.errors import InputError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def synthetic_results(n: int, seed: int) -> pd.DataFrame:
    """Results table in the Parquet schema dtypes: random whole deals; the taker plays
    their longest suit; takers' card points grow with trump length and top trumps
    (plus noise); federal success test and uncoinched federal marks."""
    rng = np.random.default_rng(seed)
    perm = np.argsort(rng.random((n, 32)), axis=1).astype(np.uint32)
    deals = (np.uint32(1) << perm).reshape(n, 4, 8).sum(axis=2, dtype=np.uint32)
    passed = rng.random(n) < 0.1
    taker = np.where(passed, -1, rng.integers(0, 4, size=n))
    rows = np.arange(n)
    hand = deals[rows, np.where(passed, 0, taker)]
    lens = np.stack([features_for(hand, s)["trump_len"] for s in range(4)], axis=1)
    trump = lens.argmax(axis=1)
    top = features_for(hand, trump)["top_trumps"].astype(np.int64)
    tl = lens.max(axis=1).astype(np.int64)
    ct = np.clip(20 + 12 * tl + 15 * top + rng.normal(0, 20, n).round(), 0, 162)
    ct = ct.astype(np.int64)
    capot = ct >= 160
    ct = np.where(capot, 252, ct)
    cd = np.where(capot, 0, 162 - ct)
    tricks = np.where(capot, 8, np.clip(ct // 20, 0, 7))
    bid = rng.choice(np.arange(80, 161, 10), size=n)
    made = (ct >= bid) & (ct > cd) & ~passed
    mark_t = np.where(made, np.round((ct + bid) / 10 + 1e-9) * 10, 0)
    mark_d = np.where(made, np.round(cd / 10 + 1e-9) * 10, 160 + bid)
    team = np.where(passed, 0, taker) & 1

    def per_team(mine, theirs):
        a = np.where(team == 0, mine, theirs)
        b = np.where(team == 0, theirs, mine)
        return np.where(passed, 0, a), np.where(passed, 0, b)

    df = pd.DataFrame({
        "donne": rows.astype(np.int64),
        "dealer": (rows % 4).astype(np.int8),
        **{f"hand_{s}": deals[:, s] for s in range(4)},
        "passed_out": passed,
        "taker": taker.astype(np.int8),
        "bid_level": np.where(passed, -1, (bid - 80) // 10).astype(np.int8),
        "bid_value": np.where(passed, 0, bid).astype(np.int16),
        "trump": np.where(passed, -1, trump).astype(np.int8),
        "capot_bid": np.zeros(n, dtype=bool),
        "coinche": np.where(passed, 0, 1).astype(np.int8),
        "n_bids": np.where(passed, 0, 1).astype(np.int8),
        "made": made,
    })
    for stem, mine, theirs, dtype in (("tricks", tricks, 8 - tricks, np.int8),
                                      ("card_points", ct, cd, np.int16),
                                      ("announce", 0 * ct, 0 * ct, np.int16),
                                      ("belote", 0 * ct, 0 * ct, np.int16),
                                      ("marks", mark_t, mark_d, np.int16)):
        a, b = per_team(mine, theirs)
        df[f"{stem}_t0"] = a.astype(dtype)
        df[f"{stem}_t1"] = b.astype(dtype)
    return df


@pytest.fixture(scope="module")
def results() -> pd.DataFrame:
    return synthetic_results(6000, 1)


def assert_png(path, min_side: int = 200) -> None:
    assert path.exists() and path.suffix == ".png"
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    img = imread(path)
    assert img.ndim == 3 and img.shape[2] in (3, 4)
    assert img.shape[0] >= min_side and img.shape[1] >= min_side
    # not a blank canvas: some pixels differ from the background
    assert img[..., :3].std() > 0.01


@pytest.mark.parametrize("by", ["trump_len", "top_trumps", "majors"])
def test_bid_curve_plot_is_a_valid_png(results, tmp_path, by):
    path = plot_bid_curves(results, tmp_path, by=by, min_count=50)
    assert path == tmp_path / f"bid_curve_by_{by}.png"
    assert_png(path)


def test_heatmap_is_a_valid_png(results, tmp_path):
    path = plot_success_heatmap(results, tmp_path, min_count=30)
    assert_png(path)


def test_marks_histogram_is_a_valid_png(results, tmp_path):
    path = plot_marks(results, tmp_path)
    assert_png(path)


def test_plot_all_writes_every_file_into_a_new_directory(results, tmp_path):
    out = tmp_path / "nested" / "plots"
    paths = plot_all(results, out, min_count=50)
    assert [p.name for p in paths] == ["bid_curve_by_trump_len.png",
                                       "bid_curve_by_top_trumps.png",
                                       "success_heatmap.png", "marks_distribution.png"]
    for p in paths:
        assert p.parent == out
        assert_png(p)


def test_featurised_table_is_used_as_is(results):
    featurised = with_taker_features(results, ["trump_len"])
    assert "taker_trump_len" in featurised.columns
    assert "taker_trump_len" not in results.columns
    assert with_taker_features(featurised, ["trump_len"]) is featurised


def test_empty_table_gives_input_error(results, tmp_path):
    empty = results.iloc[:0]
    for call in (lambda: plot_bid_curves(empty, tmp_path),
                 lambda: plot_success_heatmap(empty, tmp_path),
                 lambda: plot_marks(empty, tmp_path)):
        with pytest.raises(InputError, match="nothing to plot"):
            call()


def test_only_passed_out_donnes_gives_input_error(results, tmp_path):
    with pytest.raises(InputError, match="no played donne"):
        plot_marks(results[results["passed_out"]], tmp_path)


def test_groups_too_small_give_input_error(results, tmp_path):
    small = results.iloc[:40]
    with pytest.raises(InputError, match="at least 100"):
        plot_bid_curves(small, tmp_path, min_count=100)
    with pytest.raises(InputError, match="at least 1000"):
        plot_success_heatmap(small, tmp_path, min_count=1000)
    assert not list(tmp_path.iterdir())


def test_bad_arguments_give_input_error(results, tmp_path):
    with pytest.raises(InputError, match="nope"):
        plot_bid_curves(results, tmp_path, by="nope")
    with pytest.raises(InputError, match="bin_width"):
        plot_marks(results, tmp_path, bin_width=0)
    a_file = tmp_path / "file.png"
    a_file.write_bytes(b"x")
    with pytest.raises(InputError, match="is a file"):
        plot_marks(results, a_file)
    with pytest.raises(InputError, match="marks_t1"):
        plot_marks(results.drop(columns="marks_t1"), tmp_path)


def test_a_matplotlib_setting_it_refuses_is_one_line():
    """MPLBACKEND=bogus: matplotlib's ValueError at import was a traceback of the report."""
    import os
    import subprocess
    import sys

    code = ("from simcoinche.rules.errors import InputError\n"
            "try:\n    import simcoinche.analysis.plots\n"
            "except InputError as exc:\n    print(exc)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "MPLBACKEND": "bogus"}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("matplotlib refused its settings: Key backend: 'bogus' is "
                                  "not a valid value for backend")
