"""Success-rate tables, Wilson intervals and bid curves on hand-built results tables."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from simcoinche.analysis.features import hand_features
from simcoinche.analysis.stats import (
    DEFAULT_LEVELS,
    bid_curve,
    dd_success_rates,
    made_at,
    played,
    success_rates,
    taker_team,
    wilson_interval,
)
from simcoinche.rules.errors import InputError

# Parquet schema dtypes (docs/ARCHITECTURE.md "Parquet schema").
SCHEMA = {
    "donne": np.int64, "dealer": np.int8,
    "hand_0": np.uint32, "hand_1": np.uint32, "hand_2": np.uint32, "hand_3": np.uint32,
    "passed_out": np.bool_, "taker": np.int8, "bid_level": np.int8, "bid_value": np.int16,
    "trump": np.int8, "capot_bid": np.bool_, "coinche": np.int8, "n_bids": np.int8,
    "tricks_t0": np.int8, "tricks_t1": np.int8,
    "card_points_t0": np.int16, "card_points_t1": np.int16,
    "announce_t0": np.int16, "announce_t1": np.int16,
    "belote_t0": np.int16, "belote_t1": np.int16,
    "made": np.bool_, "marks_t0": np.int16, "marks_t1": np.int16,
}
# One fixed deal: seat s holds suit s entirely (features are then easy to read).
DEAL = [0xFF << (8 * s) for s in range(4)]


def donne(taker: int, *, made: bool = False, ct: int = 81, at: int = 0, bt: int = 0,
          ad: int = 0, bd: int = 0, tricks: int = 4, marks: tuple[int, int] = (0, 0),
          trump: int = 0, bid: int = 80, **extra) -> dict:
    """One played donne seen from the takers: ``ct`` takers' card points (the defence
    gets the rest of 162, or 0 on a capot), ``at``/``ad`` announcements, ``bt``/``bd``
    belote, ``tricks`` won by the takers, ``marks`` = (takers, defence)."""
    team = taker & 1
    cd = 0 if tricks == 8 else (252 if tricks == 0 else 162 - ct)
    ct = 252 if tricks == 8 else (0 if tricks == 0 else ct)
    per = {"card_points": (ct, cd), "announce": (at, ad), "belote": (bt, bd),
           "tricks": (tricks, 8 - tricks), "marks": marks}
    row = {"dealer": (taker + 3) & 3, "passed_out": False, "taker": taker,
           "bid_level": (bid - 80) // 10 if bid < 250 else 9, "bid_value": bid,
           "trump": trump, "capot_bid": bid == 250, "coinche": 1, "n_bids": 1,
           "made": made}
    for stem, (mine, theirs) in per.items():
        row[f"{stem}_t{team}"] = mine
        row[f"{stem}_t{1 - team}"] = theirs
    row.update(extra)
    return row


def passed_out(**extra) -> dict:
    row = {"dealer": 0, "passed_out": True, "taker": -1, "bid_level": -1, "bid_value": 0,
           "trump": -1, "capot_bid": False, "coinche": 0, "n_bids": 0, "made": False}
    for stem in ("tricks", "card_points", "announce", "belote", "marks"):
        row[f"{stem}_t0"] = row[f"{stem}_t1"] = 0
    row["card_points_t0"] = 162        # played out for nothing: must not count anywhere
    row.update(extra)
    return row


def frame(rows: list[dict]) -> pd.DataFrame:
    """Results table with the schema's dtypes; extra keys become extra columns."""
    cols: dict[str, list] = {}
    for i, r in enumerate(rows):
        r = {"donne": i, **{f"hand_{s}": DEAL[s] for s in range(4)}, **r}
        for k, v in r.items():
            cols.setdefault(k, []).append(v)
    df = pd.DataFrame(cols)
    return df.astype({k: v for k, v in SCHEMA.items() if k in df.columns})


# ---------------------------------------------------------------- wilson_interval


def test_wilson_zero_successes_of_ten():
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(1.96**2 / (10 + 1.96**2), abs=1e-12)   # 0.27754


def test_wilson_all_successes_of_ten():
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(10 / (10 + 1.96**2), abs=1e-12)        # 0.72246
    assert high == 1.0


def test_wilson_half_of_ten_hand_computed():
    low, high = wilson_interval(5, 10)
    z2 = 1.96**2
    half = 1.96 / (1 + z2 / 10) * math.sqrt(0.25 / 10 + z2 / 400)
    assert low == pytest.approx(0.5 - half, abs=1e-12)                  # 0.23659
    assert high == pytest.approx(0.5 + half, abs=1e-12)                 # 0.76341
    assert low == pytest.approx(0.236590, abs=1e-6)


def test_wilson_large_n_approaches_normal_interval():
    low, high = wilson_interval(300_000, 1_000_000)
    se = math.sqrt(0.3 * 0.7 / 1_000_000)
    assert low == pytest.approx(0.3 - 1.96 * se, abs=1e-6)
    assert high == pytest.approx(0.3 + 1.96 * se, abs=1e-6)


def test_wilson_vectorised_properties():
    rng = np.random.default_rng(5)
    n = rng.integers(1, 5000, size=2000)
    k = rng.integers(0, n + 1)
    low, high = wilson_interval(k, n)
    p = k / n
    assert low.shape == high.shape == (2000,)
    assert ((0 <= low) & (low <= p + 1e-12) & (p <= high + 1e-12) & (high <= 1)).all()
    # symmetry: the interval of n-k is the mirror of the interval of k
    low2, high2 = wilson_interval(n - k, n)
    np.testing.assert_allclose(high2, 1 - low, atol=1e-12)
    np.testing.assert_allclose(low2, 1 - high, atol=1e-12)
    # a wider z gives a wider interval
    lw, hw = wilson_interval(k, n, z=2.58)
    assert ((lw <= low + 1e-15) & (hw >= high - 1e-15)).all()
    # more trials at the same proportion: narrower
    l10, h10 = wilson_interval(30, 100)
    l1k, h1k = wilson_interval(300, 1000)
    assert h1k - l1k < h10 - l10


def test_wilson_empty_group_is_nan():
    low, high = wilson_interval([0, 3], [0, 4])
    assert np.isnan(low[0]) and np.isnan(high[0]) and not np.isnan(low[1])


@pytest.mark.parametrize("k,n,z,culprit", [
    (5, 4, 1.96, "exceed"), (-1, 4, 1.96, "non-negative"), (1, 4, 0.0, "z"),
    (0.5, 4, 1.96, "integer"),
])
def test_wilson_bad_counts_raise_input_error(k, n, z, culprit):
    with pytest.raises(InputError, match=culprit):
        wilson_interval(k, n, z)


# ---------------------------------------------------------------- success_rates


@pytest.fixture
def results() -> pd.DataFrame:
    rows = []
    # group "a": 10 donnes, takers on every seat, 7 made; takers' marks 100 when made,
    # 0 when failed; defence 60 when made, 160 when failed.
    for i in range(10):
        ok = i < 7
        rows.append(donne(i % 4, made=ok, marks=(100, 60) if ok else (0, 160), g="a"))
    # group "b": 4 donnes, none made, takers' marks 20 (belote), defence 180.
    for i in range(4):
        rows.append(donne(i % 4, made=False, marks=(20, 180), g="b"))
    # group "c": 1 donne, made.
    rows.append(donne(1, made=True, marks=(90, 70), g="c"))
    # passed-out donnes in group "a" and "b": excluded from everything.
    rows += [passed_out(g="a"), passed_out(g="b"), passed_out(g="a")]
    return frame(rows)


def test_success_rates_by_group_hand_computed(results):
    t = success_rates(results, by="g")
    assert list(t.columns) == ["g", "n", "made", "rate", "low", "high",
                               "mean_marks_takers", "mean_marks_defence"]
    assert t["g"].tolist() == ["a", "b", "c"]
    assert t["n"].tolist() == [10, 4, 1]
    assert t["made"].tolist() == [7, 0, 1]
    assert t["rate"].tolist() == pytest.approx([0.7, 0.0, 1.0])
    low, high = wilson_interval(7, 10)
    assert t.loc[0, "low"] == pytest.approx(low) and t.loc[0, "high"] == pytest.approx(high)
    assert t["mean_marks_takers"].tolist() == pytest.approx([70.0, 20.0, 90.0])
    assert t["mean_marks_defence"].tolist() == pytest.approx([0.7 * 60 + 0.3 * 160,
                                                              180.0, 70.0])


def test_success_rates_marks_follow_takers_team(results):
    # swap which team is the takers' by hand: marks per team must be read via taker & 1
    r = results[results["g"] == "c"]
    assert r["taker"].iloc[0] == 1
    assert (r["marks_t1"].iloc[0], r["marks_t0"].iloc[0]) == (90, 70)
    t = success_rates(r)
    assert t.loc[0, "mean_marks_takers"] == 90 and t.loc[0, "mean_marks_defence"] == 70


def test_success_rates_excludes_passed_out_donnes(results):
    overall = success_rates(results)
    assert len(overall) == 1
    assert overall.loc[0, "n"] == 15 and overall.loc[0, "made"] == 8
    assert len(played(results)) == 15


def test_success_rates_min_count_filters_small_groups(results):
    t = success_rates(results, by=["g"], min_count=4)
    assert t["g"].tolist() == ["a", "b"]
    assert success_rates(results, by="g", min_count=11).empty


def test_success_rates_sorted_by_several_keys(results):
    results["seat"] = results["taker"]
    t = success_rates(results, by=["seat", "g"])
    keys = list(zip(t["seat"], t["g"], strict=True))
    assert keys == sorted(keys)
    assert t["n"].sum() == 15


def test_success_rates_on_joined_hand_features(results):
    # Seat s holds suit s: the taker's trump length is 8 when trump == taker's suit, else 0.
    rows = [donne(0, trump=0, made=True, marks=(100, 60)),
            donne(2, trump=2, made=False, marks=(0, 160)),
            donne(1, trump=3, made=False, marks=(0, 160)),
            donne(3, trump=0, made=True, marks=(90, 70)),
            passed_out()]
    df = frame(rows)
    df = df.join(hand_features(df, "taker").add_prefix("taker_"))
    t = success_rates(df, by="taker_trump_len")
    assert t["taker_trump_len"].tolist() == [0, 8]
    assert t["n"].tolist() == [2, 2] and t["made"].tolist() == [1, 1]


@pytest.mark.parametrize("kwargs,culprit", [
    ({"by": "nope"}, "nope"), ({"min_count": -1}, "min_count"),
    ({"min_count": 2.5}, "min_count"),
])
def test_success_rates_bad_input(results, kwargs, culprit):
    with pytest.raises(InputError, match=culprit):
        success_rates(results, **kwargs)


def test_success_rates_missing_column(results):
    with pytest.raises(InputError, match="marks_t1"):
        success_rates(results.drop(columns="marks_t1"))


# ---------------------------------------------------------------- bid_curve


@pytest.fixture
def curve_results() -> pd.DataFrame:
    """Takers' totals chosen so each level's outcome is known by hand (federal test:
    T_t >= L and T_t > T_d; capot: 8 tricks)."""
    rows = [
        # group x
        donne(0, ct=95, g="x"),                       # T_t 95, T_d 67 → 80, 90
        donne(1, ct=81, g="x"),                       # 81 vs 81: tie fails everything
        donne(2, ct=100, at=20, bt=20, g="x"),        # 140 vs 62 → 80..140
        donne(3, ct=70, bt=20, ad=50, g="x"),         # 90 vs 142 → nothing
        donne(0, tricks=8, at=50, ad=20, g="x"),      # capot: 252+50 vs 20 → all + 250
        # group y
        donne(1, ct=152, ad=100, g="y"),              # 152 vs 110 → 80..150
        donne(2, ct=40, g="y"),                       # 40 vs 122 → nothing
        passed_out(g="x"), passed_out(g="y"),
    ]
    return frame(rows)


EXPECTED_X = {80: 3, 90: 3, 100: 2, 110: 2, 120: 2, 130: 2, 140: 2, 150: 1, 160: 1, 250: 1}
EXPECTED_Y = {80: 1, 90: 1, 100: 1, 110: 1, 120: 1, 130: 1, 140: 1, 150: 1, 160: 0, 250: 0}


def test_bid_curve_hand_computed_levels(curve_results):
    c = bid_curve(curve_results, by="g")
    assert list(c.columns) == ["g", "level", "n", "made", "p", "low", "high"]
    assert len(c) == 20
    x = c[c["g"] == "x"].set_index("level")
    y = c[c["g"] == "y"].set_index("level")
    assert x["made"].to_dict() == EXPECTED_X
    assert y["made"].to_dict() == EXPECTED_Y
    assert (x["n"] == 5).all() and (y["n"] == 2).all()
    assert x.loc[100, "p"] == pytest.approx(0.4)
    low, high = wilson_interval(2, 5)
    assert x.loc[100, "low"] == pytest.approx(low) and x.loc[100, "high"] == pytest.approx(high)


def test_bid_curve_tie_fails_federal_success_test(curve_results):
    tie = curve_results.iloc[[1]]
    assert not made_at(tie, 80)[0]


def test_bid_curve_capot_needs_all_eight_tricks():
    # 162 points, 7 tricks: every number made, capot not.
    df = frame([donne(0, ct=162, tricks=7)])
    assert made_at(df, 160)[0] and not made_at(df, 250)[0]


def test_bid_curve_is_monotone_and_sorted(curve_results):
    c = bid_curve(curve_results, by="g", levels=(160, 80, 120))
    assert c["level"].tolist() == [80, 120, 160, 80, 120, 160]
    for _, g in c.groupby("g"):
        assert (np.diff(g["p"].to_numpy()) <= 0).all()


def test_bid_curve_without_groups_and_min_count(curve_results):
    c = bid_curve(curve_results)
    assert c["n"].unique().tolist() == [7]
    assert c.set_index("level").loc[80, "made"] == 4
    c = bid_curve(curve_results, by="g", min_count=3)
    assert c["g"].unique().tolist() == ["x"]


@pytest.mark.parametrize("kwargs,culprit", [
    ({"levels": ()}, "levels"), ({"levels": (80.5,)}, "levels"),
    ({"levels": "x"}, "levels must be positive integer bid values, got 'x'"),
    ({"levels": 5}, "levels must be positive integer bid values, got 5"),
    ({"levels": [75]}, "75 is not a bid value of profile 'federal'"),
    ({"by": "h"}, "'h'"), ({"min_count": -3}, "min_count"),
])
def test_bid_curve_bad_input(curve_results, kwargs, culprit):
    with pytest.raises(InputError, match=culprit):
        bid_curve(curve_results, **kwargs)


def test_missing_key_forms_its_own_group_last():
    # e.g. taker_trump_len is <NA> at sans-atout: those donnes are counted, not dropped.
    rows = [donne(0, made=True, marks=(100, 60), k=2), donne(1, made=False, k=None),
            donne(2, made=True, marks=(90, 70), k=None), donne(3, made=False, k=1)]
    df = frame(rows).astype({"k": "Int8"})
    t = success_rates(df, by="k")
    assert t["k"].iloc[:2].tolist() == [1, 2] and pd.isna(t["k"].iloc[2])
    assert t["n"].tolist() == [1, 1, 2] and t["made"].tolist() == [0, 1, 1]
    c = bid_curve(df, by="k", levels=(80,))
    assert pd.isna(c["k"].iloc[-1]) and c["n"].tolist() == [1, 1, 2]


def test_bid_curve_default_levels_are_the_profile_ladder_and_capot(curve_results):
    c = bid_curve(curve_results)
    assert c["level"].tolist() == [*range(80, 161, 10), 250] == list(DEFAULT_LEVELS)


def test_chi2_survival_matches_closed_forms_and_table_quantiles():
    from simcoinche.analysis.stats import chi2_sf

    # Two degrees of freedom: P(X >= x) = exp(-x / 2) exactly.
    for x in (0.5, 3.0, 12.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
    # Table quantiles: 95 % at 10 df is 18.307, 99.9 % at 50 df is 86.661.
    assert chi2_sf(18.307, 10) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(86.661, 50) == pytest.approx(0.001, abs=1e-6)
    assert chi2_sf(0.0, 5) == 1.0


# One row per partie, its donnes in lists: what simcoinche.parties returns.
_PARTIES_ROWS = pd.DataFrame({
    "taker": [[0, 3], [1]], "made": [[True, False], [True]], "passed_out": [[False] * 2, [False]],
    "marks_t0": [[90, 0], [0]], "marks_t1": [[0, 160], [100]], "bid_level": [[80, 80], [90]],
    "trump": [[0, 4], [1]], "card_points_t0": [[100, 40], [50]],
    "card_points_t1": [[62, 122], [112]],
})


@pytest.mark.parametrize("call", [
    lambda df: played(df), lambda df: taker_team(df), lambda df: success_rates(df),
    lambda df: made_at(df, 80), lambda df: bid_curve(df), lambda df: dd_success_rates(df),
    lambda df: hand_features(df, "taker"),
])
def test_a_parties_table_is_refused_by_the_donne_tables_in_one_line(call):
    """A parties run's list columns gave numpy's "setting an array element with a
    sequence"; the error now says which column and what the tables read."""
    with pytest.raises(InputError) as exc:
        call(_PARTIES_ROWS)
    assert "holds a list per row (a parties run?)" in str(exc.value)


@pytest.mark.parametrize("call", [
    lambda: played(None), lambda: success_rates([1, 2]), lambda: hand_features({}, "taker"),
])
def test_the_donne_tables_refuse_what_is_not_a_dataframe(call):
    with pytest.raises(InputError, match="results must be a pandas DataFrame"):
        call()


def _donnes(**columns):
    base = {"taker": [0, 1, 2], "made": [True, False, True], "passed_out": [False] * 3,
            "marks_t0": [90, 0, 100], "marks_t1": [0, 160, 0]}
    base.update(columns)
    return pd.DataFrame(base)


@pytest.mark.parametrize("call, culprit", [
    (lambda: made_at(_donnes(), 80), "results table has no column 'card_points_t0'"),
    (lambda: success_rates(_donnes(), z="x"),
     "z must be a positive number (1.96 for a 95 % interval), got 'x'"),
    (lambda: success_rates(_donnes(), z=-1), "z must be a positive number"),
    (lambda: success_rates(_donnes(made=["true", "false", "true"])),
     "not true/false"),
    (lambda: success_rates(_donnes(taker=[0, 7, 2])),
     "results column 'taker' holds 7; a seat is -1..3"),
    (lambda: hand_features(_donnes(taker=[0, 1.5, 2], hand_0=[1] * 3, hand_1=[2] * 3,
                                   hand_2=[4] * 3, hand_3=[8] * 3), "taker"),
     "results column 'taker' holds 1.5; a seat is -1..3"),
])
def test_the_donne_tables_refuse_values_they_would_misread(call, culprit):
    """A missing column was a KeyError, z='x' a TypeError, 'made' as text a ValueError; a
    taker 7 put a row on a team of its own without a word."""
    with pytest.raises(InputError) as exc:
        call()
    assert culprit in str(exc.value) and "\n" not in str(exc.value)


def test_a_missing_taker_still_reads_as_passed_out():
    assert len(played(_donnes(taker=pd.array([0, None, 2], dtype="Int8")))) == 2


def test_flags_as_python_bools_and_nullable_seats_are_read():
    """After a pd.concat, 'made' may be an object column of bools: still true/false."""
    df = _donnes(made=pd.Series([True, False, True], dtype=object),
                 taker=pd.array([0, None, 2], dtype="Int8"))
    assert len(played(df)) == 2
    assert success_rates(df)["n"].sum() == 2


def test_a_passed_out_flag_that_is_text_is_refused_not_read_as_true():
    with pytest.raises(InputError, match=r"results column 'passed_out' is .*, not true/false"):
        played(_donnes(passed_out=["False"] * 3))


@pytest.mark.parametrize("column, values, culprit", [
    ("marks_t0", [90.0, np.nan, 100.0], "results column 'marks_t0' has 1 missing values"),
    ("made", pd.array([True, None, True], dtype="boolean"),
     "results column 'made' has 1 missing values"),
])
def test_a_missing_number_or_flag_is_refused_not_cast_to_garbage(column, values, culprit):
    """A NaN in marks_t0 gave a mean of -1.9e16 marks; a missing 'made' a pandas
    ValueError."""
    with pytest.raises(InputError, match=re.escape(culprit)):
        success_rates(_donnes(**{column: values}))


@pytest.mark.parametrize("hand, culprit", [
    (-1, "holds a value outside 0..2**32-1: not a hand"),
    (2**40, "holds a value outside 0..2**32-1: not a hand"),
    (0xFFFF, "holds a hand of 16 cards; a hand has 8"),
])
def test_a_hand_that_is_no_hand_is_refused(hand, culprit):
    """hand_3 = -1 read as 32 cards and 152 points, a 16-card mask as a hand."""
    df = _donnes(hand_0=[0xFF] * 3, hand_1=[0xFF << 8] * 3, hand_2=[0xFF << 16] * 3,
                 hand_3=[0xFF << 24, hand, 0xFF << 24])
    with pytest.raises(InputError, match=re.escape(f"results column 'hand_3' {culprit}")):
        hand_features(df, "right")
