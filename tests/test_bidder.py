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

from simcoinche._kernels import bid_layout as BL
from simcoinche._kernels.auction import AUCTION_STATE_LEN, auction_apply, auction_start
from simcoinche._kernels.bidder import fitted_action, own_value, suit_summary, table_key
from simcoinche.players.bid_tables import bid_tables, table_name
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
    weak = own_value(weak_hand, suit_summary(weak_hand), 1, ctx, 1, 0, 1, row, 0)
    strong = own_value(strong_hand, suit_summary(strong_hand), 1, ctx, 1, 0, 1, row, 0)
    assert strong > weak


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


@pytest.mark.slow
def test_a_wheel_built_from_the_repo_carries_the_tables_and_bids_with_them(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                    "-w", str(wheels)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("simcoinche-*.whl")
    with zipfile.ZipFile(wheel) as z:
        for p in PROFILES:
            member = f"simcoinche/players/data/{table_name(p)}"
            assert z.read(member) == (ROOT / "simcoinche/players/data" / table_name(p)).read_bytes()
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
        "    st = np.zeros(10, dtype=np.int32); auction_start(st, 3)\n"
        "    a = fitted_action(np.uint32(parse_hand('JH 9H AH TH KH AS AD 7C')), st,\n"
        "                      np.zeros(128, dtype=np.uint8), 0, row, 0, p.packed,\n"
        "                      np.zeros(4, dtype=np.uint64))\n"
        "    print(name, format_action(a, p))\n")
    env = {**os.environ, "PYTHONPATH": str(site),
           "SIMCOINCHE_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", script], check=True, cwd=tmp_path, env=env,
                         capture_output=True, text=True).stdout.splitlines()
    assert out[0].startswith(str(site))
    assert [line.split()[0] for line in out[1:]] == sorted(PROFILES, key=list(PROFILES).index)
    for line in out[1:]:
        assert line.split()[1].endswith("H"), line
