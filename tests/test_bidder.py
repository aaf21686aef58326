"""The data-fitted bidder of the heuristic and PIMC players (issue 21): the tables it
ships, its calls on named hands, their legality in every profile, the fitting script
reproduced bit for bit, and the wheel carrying the tables."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from simcoinche._kernels import bid_layout as BL
from simcoinche._kernels.auction import AUCTION_STATE_LEN, auction_apply, auction_start
from simcoinche._kernels.bidder import (
    _bucket,
    _suit_features,
    fitted_action,
    own_bucket,
    own_features_of,
    own_score,
    own_score_tail,
    own_values_row,
    suit_bucket,
    suit_summary,
    table_key,
)
from simcoinche.players.bid_tables import bid_tables, check_tables, outcomes_name, table_name
from simcoinche.players.registry import param_array
from simcoinche.rules.actions import format_action, parse_action
from simcoinche.rules.cards import parse_hand
from simcoinche.rules.errors import IllegalDecisionError, InputError
from simcoinche.rules.profiles import PROFILES, get_profile

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def _state(tokens, profile, dealer):
    prof = get_profile(profile)
    st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    auction_start(st, dealer)
    acts = np.zeros(128, dtype=np.uint8)
    for j, t in enumerate(tokens):
        a = parse_action(t, prof)
        assert auction_apply(st, a, prof.packed) == 0
        acts[j] = a
    return st, acts, len(tokens)


def _call(hand: str, tokens=(), profile="federal", dealer=3, over=None, rng=None) -> str:
    """The heuristic (data-fitted) bidder's call with ``hand`` after ``tokens``."""
    prof = get_profile(profile)
    st, acts, n = _state(tokens, prof, dealer)
    row = param_array("heuristic", over, profile=prof)[None, :]
    rng = np.zeros(4, dtype=np.uint64) if rng is None else rng
    a = fitted_action(np.uint32(parse_hand(hand)), st, acts, n, row, 0, prof.packed, rng)
    return format_action(a, prof)


# --- the tables ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_tables_ship_for_every_profile_with_its_fingerprint(profile):
    t = bid_tables(profile)
    assert t.shape == (BL.BT_LEN,) and np.isfinite(t).all()
    assert t[0] == table_key(get_profile(profile).packed)
    # Every class the profile bids has fitted edges in increasing order.
    prof = get_profile(profile)
    for c, allowed in ((0, True), (1, prof.allow_sa), (2, prof.allow_ta)):
        base = 1 + c * BL.CLASS_LEN
        edges = t[base + BL.OWN_EDGES: base + BL.OWN_EDGES + BL.NB - 1]
        assert (np.diff(edges) >= 0).all()
        assert (edges.max() > edges.min()) == allowed


@njit(cache=True)
def _buckets(mus, row, base):
    out = np.empty(len(mus), dtype=np.int64)
    params = row[None, :]
    for i in range(len(mus)):
        out[i] = _bucket(mus[i], params, 0, base)
    return out


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_bucket_search_is_the_fitting_codes_searchsorted_right(profile):
    # The kernel's branch-free binary search must put every score in the bucket the
    # fitting code (numpy.searchsorted, side="right") put it: scores drawn over the edges'
    # range, each edge exactly (ties go up), and its neighbours one ulp away.
    row = param_array("heuristic", profile=profile)
    rng = np.random.default_rng(21)
    for c in range(BL.N_CLASSES):
        for part in (BL.OWN_EDGES, BL.DEF_EDGES):
            base = BL.BT_CLASSES + c * BL.CLASS_LEN + part
            edges = row[base:base + BL.NB - 1]
            lo, hi = edges.min() - 1.0, edges.max() + 1.0
            mus = np.concatenate([rng.uniform(lo, hi, 2000), edges,
                                  np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
            want = np.searchsorted(edges, mus, side="right")
            assert (_buckets(mus, row, base) == want).all()
    # Repeated edges (a class the profile does not bid has them all equal) too.
    flat = row.copy()
    flat[BL.BT_CLASSES:BL.BT_CLASSES + BL.NB - 1] = np.repeat([-1.0, 0.5, 2.0], [7, 9, 7])
    edges = flat[BL.BT_CLASSES:BL.BT_CLASSES + BL.NB - 1]
    mus = np.array([-2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0])
    assert (_buckets(mus, flat, BL.BT_CLASSES) ==
            np.searchsorted(edges, mus, side="right")).all()


@njit(cache=True)
def _suit_scores_both_ways(hands, ctxs, params):
    # For every hand, context and suit: the score summed whole (own_score) and from the
    # BT_SUIT_PREFIX block (own_score_tail), and the two buckets.
    n = len(hands)
    whole = np.empty((n, 4))
    split = np.empty((n, 4))
    buckets = np.empty((n, 4, 2), dtype=np.int64)
    b = BL.BT_CLASSES + BL.OWN_W
    for i in range(n):
        h = np.int64(hands[i])
        summary = suit_summary(hands[i])
        c = ctxs[i]
        ctx = (c[0], c[1], c[2], c[3], c[4], c[5])
        leads = i & 1
        for kd in range(4):
            f = own_features_of(_suit_features(h, kd, summary), kd, ctx, leads)
            whole[i, kd] = own_score(params, 0, b, f)
            split[i, kd] = own_score_tail(params, 0, b,
                                          params[0, BL.BT_SUIT_PREFIX + ((h >> 8 * kd) & 255)],
                                          f)
            buckets[i, kd, 0] = own_bucket(hands[i], summary, kd, ctx, leads, params, 0)
            buckets[i, kd, 1] = suit_bucket(h, kd, summary, ctx, leads, params, 0)
    return whole, split, buckets


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_suit_score_prefix_block_gives_the_same_score_bit_for_bit(profile):
    # The bidder reads a suit's first ten score terms from a block derived from the tables
    # when the row is made: on random hands and auction contexts (bids of the partner and
    # the opponents in every kind and value) the score must equal the whole sum exactly.
    row = param_array("heuristic", profile=profile)[None, :]
    rng = np.random.default_rng(2121)
    n = 3000
    hands = np.array([rng.choice(32, 8, replace=False) for _ in range(n)])
    hands = np.bitwise_or.reduce(np.left_shift(1, hands), axis=1).astype(np.uint32)
    pa_last = sum(rng.choice([0, 80, 110, 160], n) << (10 * k) for k in range(6))
    ctxs = np.stack([pa_last, rng.integers(0, 64, n), rng.integers(0, 64, n),
                     rng.integers(0, 64, n), rng.choice([0, 90, 140, 250], n),
                     rng.integers(0, 2, n)], axis=1).astype(np.int64)
    whole, split, buckets = _suit_scores_both_ways(hands, ctxs, row)
    assert (whole == split).all()
    assert (buckets[..., 0] == buckets[..., 1]).all()
    assert len(np.unique(buckets[..., 0])) > BL.NB // 2  # the hands spread over buckets


def test_tables_with_edges_out_of_order_are_refused():
    t = bid_tables("federal").copy()
    at = 1 + BL.CLASS_LEN + BL.DEF_EDGES + 4
    t[at], t[at + 1] = t[at + 1] + 1.0, t[at]
    with pytest.raises(InputError, match="defence bucket edges of contract class 1 are not"):
        check_tables(t, "federal", "bidder-federal.npy")


def test_tables_fitted_for_another_profile_are_refused():
    with pytest.raises(InputError, match="another profile than 'classic'"):
        param_array("heuristic", profile="classic", tables=bid_tables("federal"))


def test_a_row_without_tables_fails_the_run_instead_of_bidding_blind():
    # A parameter row made without a profile has no tables: the bidder answers with an
    # illegal call, which every facade refuses (never a quiet pass).
    from simcoinche.players.table import Table, play_donnes

    prof = get_profile("federal")
    codes = np.array([1, 1], dtype=np.int32)
    rows = np.stack([param_array("heuristic")] * 2)
    with pytest.raises(IllegalDecisionError, match="illegal call"):
        play_donnes(Table(prof.packed, codes, rows), np.uint64(1), 0, 4)


# --- calls on named hands (federal tables) -------------------------------------------------


def test_opens_a_hand_with_the_trump_jack_nine_and_aces():
    call = _call("JH 9H AH TH KH AS AD 7C")
    assert call.endswith("H") and call[:-1].isdigit() and int(call[:-1]) >= 100


def test_passes_a_worthless_hand_no_bluff():
    # advise's old recommendation (issue 21): 80 clubs on 9-8-7 of clubs and nothing else.
    assert _call("9C 8C 7C 7D 8D 7S 8S 9H") == "pass"


def test_expected_marks_grow_with_the_trump_honours():
    prof = get_profile("federal")
    row = param_array("heuristic", profile=prof)[None, :]
    ctx = (0, 0, 0, 0, 0, 0)
    weak_hand = np.uint32(parse_hand("JH 8H 7H 8C 9C 8D 9D 7S"))
    strong_hand = np.uint32(parse_hand("JH 9H AH 8H 9C 8D 9D 7S"))

    def own_x1_at_80(hand):
        # The bidder's lookup: the hand's bucket in hearts, then the first entry of its
        # value row (level 0, 80; multiplier x1).
        b = own_bucket(hand, suit_summary(hand), 1, ctx, 1, row, 0)
        return row[0, own_values_row(1, b)]

    assert own_x1_at_80(strong_hand) > own_x1_at_80(weak_hand)


def test_coinches_an_opponents_contract_in_its_own_trumps():
    # The opponent at seat 0 (dealer 3) opens 80 hearts; seat 1 holds J-9-A-T-8 of hearts.
    assert _call("JH 9H AH TH 8H AS AD AC", ["80H"]) == "coinche"


def test_surcoinches_its_coinched_contract_with_all_the_trumps():
    # Seat 0 opened 100 hearts, seat 1 coinched; seat 2 holds the partner's trumps.
    assert _call("JH 9H AH TH KH QH AS AD", ["100H", "coinche"]) == "surcoinche"


def test_breaks_exact_ties_between_kinds_uniformly():
    # The same holding in hearts and spades: the two are worth the same, and the bidder
    # picks either from its own stream (no favourite suit).
    hand = "JH 9H AH JS 9S AS 7D 8D"
    suits = []
    for k in range(200):
        rng = np.array([k + 1, 7, 0, 0], dtype=np.uint64)
        suits.append(_call(hand, rng=rng)[-1])
    assert set(suits) == {"H", "S"}
    assert 60 <= suits.count("H") <= 140


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_call_is_legal_in_every_profile(profile):
    # Random hands, whole auctions by four data-fitted bidders: every call passes
    # auction_check (auction_apply returns 0).
    prof = get_profile(profile)
    row = param_array("heuristic", profile=prof)[None, :]
    rng = np.random.default_rng(21)
    st_rng = np.zeros(4, dtype=np.uint64)
    kinds = set()
    for _ in range(300):
        deck = rng.permutation(32)
        hands = [int(sum(1 << int(c) for c in deck[8 * s:8 * s + 8])) for s in range(4)]
        st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        auction_start(st, int(rng.integers(4)))
        acts = np.zeros(128, dtype=np.uint8)
        n = 0
        while st[8] == 0:
            a = fitted_action(np.uint32(hands[st[0]]), st, acts, n, row, 0, prof.packed,
                              st_rng)
            assert auction_apply(st, a, prof.packed) == 0
            acts[n] = a
            n += 1
        if st[2] >= 0:
            kinds.add(int(st[2]))
    assert {0, 1, 2, 3} <= kinds


# --- the fitting script and the wheel -------------------------------------------------------


@pytest.mark.parametrize("profile", ["federal", "stephanoise"])
def test_fit_script_regenerates_a_small_configuration_exactly(profile, tmp_path):
    sys.path.insert(0, str(ROOT / "analysis"))
    try:
        import fit_bidder
    finally:
        sys.path.pop(0)
    assert fit_bidder.main(["--profile", profile, "--deals", "600", "--rounds", "2",
                            "--seed", "5", "--out", str(tmp_path)]) == 0
    got = np.load(tmp_path / table_name(profile))
    want = np.load(DATA / f"small-{table_name(profile)}")
    assert got.shape == want.shape
    assert np.array_equal(got, want)


def test_the_fit_gives_the_same_bits_with_another_blas_kernel(tmp_path):
    # The back substitution used a BLAS dot product, whose order of additions follows the
    # processor's vector kernel: under OpenBLAS's SSE3 kernel (Prescott) the small federal
    # fit differed from the stored one in 35 entries. Term by term, every kernel agrees.
    env = dict(os.environ, OPENBLAS_CORETYPE="Prescott")
    proc = subprocess.run([sys.executable, str(ROOT / "analysis" / "fit_bidder.py"),
                           "--profile", "federal", "--deals", "600", "--rounds", "2",
                           "--seed", "5", "--out", str(tmp_path)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = np.load(tmp_path / table_name("federal"))
    assert np.array_equal(got, np.load(DATA / f"small-{table_name('federal')}"))


@pytest.mark.slow
def test_a_wheel_built_from_the_repo_carries_the_tables_and_bids_with_them(tmp_path):
    # The bidder's tables and the match-equity tables (issue 22, criterion 5).
    from simcoinche import equity
    from simcoinche.players.equity import table_name as equity_name

    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                    "-w", str(wheels)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("simcoinche-*.whl")
    with zipfile.ZipFile(wheel) as z:
        for p in PROFILES:
            for name in (table_name(p), outcomes_name(p), equity_name(p)):
                member = f"simcoinche/players/data/{name}"
                assert z.read(member) == (ROOT / "simcoinche/players/data" / name).read_bytes()
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, cwd=tmp_path)
    # The installed package alone (not the repo) on the path, its own kernel cache (the
    # bidder compiles from the installed sources, ~30 s): it reads the wheel's tables and
    # bids with them in every profile.
    script = (
        "import numpy as np, simcoinche.players.bid_tables as b\n"
        "from simcoinche._kernels.auction import auction_start\n"
        "from simcoinche._kernels.bidder import fitted_action\n"
        "from simcoinche.players.registry import param_array\n"
        "from simcoinche.rules.actions import format_action\n"
        "from simcoinche.rules.cards import parse_hand\n"
        "from simcoinche.rules.profiles import get_profile\n"
        "print(b.__file__)\n"
        "for name in ('federal', 'classic', 'stephanoise', 'strict'):\n"
        "    p = get_profile(name)\n"
        "    row = param_array('heuristic', profile=p)[None, :]\n"
        f"    st = np.zeros({AUCTION_STATE_LEN}, dtype=np.int32); auction_start(st, 3)\n"
        "    a = fitted_action(np.uint32(parse_hand('JH 9H AH TH KH AS AD 7C')), st,\n"
        "                      np.zeros(128, dtype=np.uint8), 0, row, 0, p.packed,\n"
        "                      np.zeros(4, dtype=np.uint64))\n"
        "    print(name, format_action(a, p))\n"
        "import simcoinche\n"
        "for name in ('federal', 'classic', 'stephanoise', 'strict'):\n"
        "    print('equity', name, repr(simcoinche.equity(640, 910, profile=name)))\n")
    env = {**os.environ, "PYTHONPATH": str(site),
           "SIMCOINCHE_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", script], check=True, cwd=tmp_path, env=env,
                         capture_output=True, text=True).stdout.splitlines()
    assert out[0].startswith(str(site))
    bids, equities = out[1:5], out[5:]
    assert [line.split()[0] for line in bids] == sorted(PROFILES, key=list(PROFILES).index)
    for line in bids:
        assert line.split()[1].endswith("H"), line
    # simcoinche.equity answers from the wheel's tables, as from the repo's.
    assert [line.split()[1] for line in equities] == list(PROFILES)
    for line in equities:
        _, name, value = line.split()
        assert float(value) == equity(640, 910, profile=name)
