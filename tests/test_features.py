"""Hand features: vectorised code against a slow per-hand reference written with cards."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcoinche.analysis.features import (
    FEATURES,
    POP8,
    features_for,
    hand_features,
    popcount,
    role_hands,
    suit_bytes,
)
from simcoinche.rules import cards as C
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import FEDERAL

N_HANDS = 10_000


def reference_features(hand: int, trump: int, profile=FEDERAL) -> dict[str, int]:
    """Obviously-correct features of one hand: loop over its cards (-1 = undefined)."""
    held = C.from_mask(hand)
    by_suit = {s: [C.rank_of(c) for c in held if C.suit_of(c) == s] for s in range(4)}
    lengths = [len(by_suit[s]) for s in range(4)]
    suit_contract = trump < 4
    f: dict[str, int] = {"n_cards": len(held)}
    if suit_contract:
        trumps = by_suit[trump]
        f["trump_len"] = len(trumps)
        f["trump_J"] = int(C.JACK in trumps)
        f["trump_9"] = int(C.NINE in trumps)
        f["trump_A"] = int(C.ACE in trumps)
        f["trump_T"] = int(C.TEN in trumps)
        f["top_trumps"] = f["trump_J"] + f["trump_9"] + f["trump_A"]
        f["belote"] = int(C.KING in trumps and C.QUEEN in trumps)
        f["majors"] = f["trump_J"] + f["trump_9"]
        outside = [s for s in range(4) if s != trump]
    else:
        for name in ("trump_len", "trump_J", "trump_9", "trump_A", "trump_T", "top_trumps"):
            f[name] = -1
        if trump == C.TOUT_ATOUT:
            f["belote"] = sum(C.KING in by_suit[s] and C.QUEEN in by_suit[s] for s in range(4))
            f["majors"] = sum(C.JACK in by_suit[s] for s in range(4))
            outside = None
        else:
            f["belote"] = 0
            f["majors"] = sum(C.ACE in by_suit[s] for s in range(4))
            outside = [0, 1, 2, 3]
    if outside is None:
        for name in ("outside_aces", "outside_tens_guarded", "outside_tens_bare",
                     "voids_outside", "singletons_outside"):
            f[name] = -1
    else:
        f["outside_aces"] = sum(C.ACE in by_suit[s] for s in outside)
        f["outside_tens_guarded"] = sum(C.TEN in by_suit[s] and lengths[s] >= 2
                                        for s in outside)
        f["outside_tens_bare"] = sum(by_suit[s] == [C.TEN] for s in outside)
        f["voids_outside"] = sum(lengths[s] == 0 for s in outside)
        f["singletons_outside"] = sum(lengths[s] == 1 for s in outside)
    f["voids"] = lengths.count(0)
    f["singletons"] = lengths.count(1)
    f["longest"] = max(lengths)
    points = 0
    for c in held:
        s, r = C.suit_of(c), C.rank_of(c)
        if trump == C.SANS_ATOUT:
            points += profile.sa_points[r]
        elif trump == C.TOUT_ATOUT:
            points += profile.ta_points[r]
        elif s == trump:
            points += profile.trump_points[r]
        else:
            points += profile.plain_points[r]
    f["points"] = points
    return f


def random_hands(n: int, seed: int) -> np.ndarray:
    """``n`` random 8-card subsets of the deck as bitboards."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 32))
    picks = np.argsort(keys, axis=1)[:, :8]
    return (np.uint32(1) << picks.astype(np.uint32)).sum(axis=1, dtype=np.uint32)


def random_deals(n: int, seed: int) -> np.ndarray:
    """``n`` whole deals: 4 hands of 8 that partition the deck, shape (n, 4) uint32."""
    rng = np.random.default_rng(seed)
    perm = np.argsort(rng.random((n, 32)), axis=1).astype(np.uint32)
    bits = np.uint32(1) << perm
    return bits.reshape(n, 4, 8).sum(axis=2, dtype=np.uint32)


def reference_table(hands: np.ndarray, trumps: np.ndarray) -> dict[str, np.ndarray]:
    rows = [reference_features(int(h), int(t)) for h, t in zip(hands, trumps, strict=True)]
    return {k: np.array([r[k] for r in rows]) for k in FEATURES}


def test_random_hands_are_8_card_subsets():
    hands = random_hands(1000, 1)
    assert all(C.popcount(int(h)) == 8 for h in hands)
    deals = random_deals(100, 2)
    for d in deals:
        assert int(d[0] | d[1] | d[2] | d[3]) == 0xFFFFFFFF
        assert sum(C.popcount(int(h)) for h in d) == 32


def test_popcount_matches_python_bit_count_and_byte_table():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2**32, size=5000, dtype=np.uint64).astype(np.uint32)
    expected = np.array([int(v).bit_count() for v in x])
    np.testing.assert_array_equal(popcount(x), expected)
    assert [int(POP8[b]) for b in range(256)] == [b.bit_count() for b in range(256)]


@pytest.mark.parametrize("x, culprit", [
    (None, "got object"), ([1.5], "got float64"), (np.array([-1]), "got negative values"),
])
def test_popcount_refuses_what_has_no_bits_to_count(x, culprit):
    """None and floats gave numpy's TypeError; -1 counted 64 bits of a card mask."""
    with pytest.raises(InputError, match=f"popcount counts the bits of non-negative "
                                         f"integers, {culprit}"):
        popcount(x)


@pytest.mark.parametrize("hands, culprit", [
    ("x", "hands must be integer bitboards"), ([1.5], "hands must be integer bitboards"),
    ([1 << 32], "a value is outside 0..2**32-1"),
])
def test_suit_bytes_refuses_what_is_no_bitboard(hands, culprit):
    with pytest.raises(InputError) as exc:
        suit_bytes(hands)
    assert culprit in str(exc.value)
    assert suit_bytes([0x0100_00FF]).tolist() == [[0xFF, 0, 0, 1]]


@pytest.mark.parametrize("trump", [0, 1, 2, 3, 4, 5])
def test_features_match_reference_for_each_contract_kind(trump):
    hands = random_hands(N_HANDS // 4, 10 + trump)
    got = features_for(hands, trump)
    ref = reference_table(hands, np.full(len(hands), trump))
    for name in FEATURES:
        np.testing.assert_array_equal(got[name], ref[name], err_msg=name)


def test_features_match_reference_on_10000_hands_with_mixed_trumps():
    hands = random_hands(N_HANDS, 42)
    trumps = np.random.default_rng(43).integers(0, 6, size=N_HANDS).astype(np.int8)
    got = features_for(hands, trumps)
    ref = reference_table(hands, trumps)
    for name in FEATURES:
        np.testing.assert_array_equal(got[name], ref[name], err_msg=name)
        assert got[name].shape == (N_HANDS,)


def test_features_match_reference_on_whole_deals_every_seat():
    deals = random_deals(N_HANDS // 4, 7)
    trumps = np.random.default_rng(8).integers(0, 4, size=len(deals))
    for seat in range(4):
        got = features_for(deals[:, seat], trumps)
        ref = reference_table(deals[:, seat], trumps)
        for name in FEATURES:
            np.testing.assert_array_equal(got[name], ref[name], err_msg=f"{seat} {name}")


def test_card_points_of_a_whole_deal_sum_to_152_at_suit_contracts():
    # RULES.md: "152 points in the cards, +10 for the last trick".
    deals = random_deals(500, 9)
    for trump in range(4):
        total = sum(features_for(deals[:, s], trump)["points"].astype(int) for s in range(4))
        assert (total == 152).all()
    # SA / TA: every suit uses the profile's sa_points / ta_points table.
    for trump, table in ((4, FEDERAL.sa_points), (5, FEDERAL.ta_points)):
        total = sum(features_for(deals[:, s], trump)["points"].astype(int) for s in range(4))
        assert (total == 4 * sum(table)).all()


def test_named_hand_four_trumps_with_jack_and_nine():
    hand = np.array([C.parse_hand("JH 9H 7H 8H AS TC 7C KD")], dtype=np.uint32)
    f = features_for(hand, "H")
    assert f["trump_len"][0] == 4 and f["trump_J"][0] == 1 and f["trump_9"][0] == 1
    assert f["majors"][0] == 2 and f["top_trumps"][0] == 2 and f["belote"][0] == 0
    assert f["outside_aces"][0] == 1 and f["outside_tens_guarded"][0] == 1
    assert f["outside_tens_bare"][0] == 0 and f["singletons_outside"][0] == 2
    # J 20 + 9 14 + A 11 + T 10 + K 4 = 59
    assert f["points"][0] == 59


def test_profile_point_tables_are_used():
    from dataclasses import replace

    odd = replace(FEDERAL, name="odd", plain_points=(1, 1, 1, 1, 1, 1, 1, 1))
    hands = random_hands(200, 11)
    got = features_for(hands, 0, profile=odd)["points"]
    ref = [reference_features(int(h), 0, odd)["points"] for h in hands]
    np.testing.assert_array_equal(got, ref)


def make_results(deals: np.ndarray, takers: np.ndarray, trumps: np.ndarray) -> pd.DataFrame:
    """Minimal results table in the Parquet schema dtypes (hand columns, taker, trump)."""
    passed = takers < 0
    return pd.DataFrame({
        "donne": np.arange(len(deals), dtype=np.int64),
        "hand_0": deals[:, 0], "hand_1": deals[:, 1],
        "hand_2": deals[:, 2], "hand_3": deals[:, 3],
        "passed_out": passed,
        "taker": takers.astype(np.int8),
        "trump": np.where(passed, -1, trumps).astype(np.int8),
    })


@pytest.fixture(scope="module")
def results() -> pd.DataFrame:
    n = 4000
    deals = random_deals(n, 21)
    rng = np.random.default_rng(22)
    takers = rng.integers(-1, 4, size=n)          # -1: passed out (about 1 in 5)
    trumps = rng.integers(0, 6, size=n)
    return make_results(deals, takers, trumps)


@pytest.mark.parametrize("role,offset", [("taker", 0), ("left", 1), ("partner", 2),
                                         ("right", 3)])
def test_role_picks_seat_relative_to_taker(results, role, offset):
    f = hand_features(results, role)
    assert list(f.columns) == list(FEATURES)
    assert f.index.equals(results.index)
    for i in range(0, len(results), 7):
        row = results.iloc[i]
        if row["taker"] < 0:
            assert f.iloc[i].isna().all()
            continue
        seat = (int(row["taker"]) + offset) % 4
        ref = reference_features(int(row[f"hand_{seat}"]), int(row["trump"]))
        for name in FEATURES:
            value = f.iloc[i][name]
            assert (pd.isna(value) if ref[name] < 0 else value == ref[name]), (i, name)


def test_passed_out_rows_are_missing_and_dtypes_nullable(results):
    f = hand_features(results, "taker")
    passed = results["passed_out"].to_numpy()
    assert passed.any()
    assert f[passed].isna().all().all()
    assert f.dtypes["points"] == "Int16"
    assert all(f.dtypes[c] == "Int8" for c in FEATURES if c != "points")


def test_trump_features_missing_at_sa_and_ta(results):
    f = hand_features(results, "taker")
    kinds = results["trump"].to_numpy()
    assert f.loc[kinds == 4, "trump_len"].isna().all()
    assert f.loc[kinds == 5, "outside_aces"].isna().all()
    assert f.loc[kinds == 4, "outside_aces"].notna().all()
    assert f.loc[kinds == 5, "majors"].notna().all()


def test_team_lengths_and_points_add_up(results):
    team = hand_features(results, "team")
    taker = hand_features(results, "taker")
    partner = hand_features(results, "partner")
    for name in ("n_cards", "trump_len", "points", "outside_aces", "majors", "top_trumps",
                 "belote", "voids", "outside_tens_guarded", "singletons_outside"):
        pd.testing.assert_series_equal(team[name], taker[name] + partner[name],
                                       check_names=False, check_dtype=False)
    live = results["taker"].to_numpy() >= 0
    assert (team.loc[live, "n_cards"] == 16).all()


def test_team_longest_is_longest_combined_suit(results):
    team = hand_features(results, "team")
    for i in range(0, len(results), 13):
        row = results.iloc[i]
        if row["taker"] < 0:
            continue
        t = int(row["taker"])
        union = int(row[f"hand_{t}"]) | int(row[f"hand_{t ^ 2}"])
        assert team.iloc[i]["longest"] == reference_features(union, 0)["longest"]


def test_what_if_hearts_were_trump(results):
    f = hand_features(results, "left", trump="H")
    hands, valid = role_hands(results, "left")
    ref = features_for(hands[valid], 1)
    np.testing.assert_array_equal(f.loc[valid, "trump_len"].to_numpy(dtype=int),
                                  ref["trump_len"])


def test_join_with_prefix_keeps_rows(results):
    joined = results.join(hand_features(results, "taker").add_prefix("taker_"))
    assert len(joined) == len(results)
    assert "taker_trump_len" in joined.columns


@pytest.mark.parametrize("call,culprit", [
    (lambda df: hand_features(df, "dealer"), "dealer"),
    (lambda df: hand_features(df.drop(columns="hand_2")), "hand_2"),
    (lambda df: hand_features(df, trump=7), "7"),
    (lambda df: hand_features(df, trump="XX"), "XX"),
    (lambda df: features_for(np.array([-1]), 0), "outside"),
    (lambda df: features_for(np.array([1.5]), 0), "dtype"),
    (lambda df: features_for(np.array([1, 2], dtype=np.uint32), [0, 9]), "9"),
])
def test_bad_input_raises_input_error_naming_culprit(results, call, culprit):
    with pytest.raises(InputError, match=culprit):
        call(results)


def test_categorical_trump_names_as_read_from_parquet(results):
    # Results read back from Parquet carry trump as a categorical of S H D C SA TA whose
    # codes are the contract kinds (-1, missing, when passed out).
    codes = results["trump"].to_numpy()
    categorical = results.assign(trump=pd.Categorical.from_codes(
        codes, categories=list(C.CONTRACT_KIND_NAMES)))
    assert categorical["trump"].isna().sum() == (codes < 0).sum() > 0
    pd.testing.assert_frame_equal(hand_features(categorical, "taker"),
                                  hand_features(results, "taker"))
    as_text = results.assign(trump=categorical["trump"].astype("string"))
    pd.testing.assert_frame_equal(hand_features(as_text, "partner"),
                                  hand_features(results, "partner"))


def test_unknown_trump_name_in_column_raises(results):
    bad = results.assign(trump=np.where(results["taker"] >= 0, "XX", None))
    with pytest.raises(InputError, match="XX"):
        hand_features(bad)
