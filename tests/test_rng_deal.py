"""Counter-based RNG and the federal deal: the documented generator, unbiased bounded
integers, the shuffle/cut/3-2-3 deal from seat D+1, dealer rotation, uniform dealing."""

from __future__ import annotations

import math

import numpy as np

from simcoinche._kernels.deal import deal_hands, shuffle_deck
from simcoinche._kernels.rng import (
    STREAM_DEAL,
    bounded,
    donne_key,
    mix64,
    nth_bit,
    popcount32,
    rand64,
    random_bit,
    rng_seed,
    seed_key,
)
from simcoinche.rules.profiles import FEDERAL
from simcoinche.runs.simulation import simulate

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
GOLDEN2 = 0xD1B54A32D192ED03


def skey(seed: int) -> np.uint64:
    return np.uint64(seed_key(np.uint64(seed)))


def dkey(run: np.uint64, i: int) -> np.uint64:
    return np.uint64(donne_key(np.uint64(run), np.int64(i)))


def py_mix64(z: int) -> int:
    """SplitMix64 finaliser, written from its published definition."""
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def test_generator_matches_its_documented_definition():
    # rng.py docstring: seed_key, donne_key and rand64 formulas.
    for seed in (0, 1, 12345, M64):
        k = py_mix64(seed ^ 0x5851F42D4C957F2D)
        assert int(seed_key(np.uint64(seed))) == k
        for i in (0, 1, 7, 10**9):
            dk = py_mix64(k + (i + 1) * GOLDEN)
            assert int(donne_key(np.uint64(k), np.int64(i))) == dk
            for ctr in (0, 1, 1 << 40):
                assert int(rand64(np.uint64(dk), np.uint64(ctr))) == py_mix64(
                    dk ^ py_mix64((ctr + 1) * GOLDEN2))
    assert int(mix64(np.uint64(0))) == 0


def test_splitmix64_reference_vector():
    # First output of SplitMix64 seeded with 0 is the finaliser of GOLDEN (a published
    # test vector: 0xE220A8397B1DCDAF).
    assert py_mix64(GOLDEN) == 0xE220A8397B1DCDAF
    assert int(mix64(np.uint64(GOLDEN))) == 0xE220A8397B1DCDAF


def test_donne_keys_of_a_run_are_distinct():
    k = skey(3)
    keys = {int(dkey(k, i)) for i in range(20000)}
    assert len(keys) == 20000


def test_bounded_integers_stay_in_range_and_are_uniform():
    st = np.zeros(4, dtype=np.uint64)
    rng_seed(st, dkey(skey(9), 0), STREAM_DEAL)
    n = 7
    draws = np.array([bounded(st, n) for _ in range(70000)])
    assert draws.min() == 0 and draws.max() == n - 1
    counts = np.bincount(draws, minlength=n)
    expected = len(draws) / n
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # 6 degrees of freedom: the 0.999 quantile of chi-square(6) is 22.46.
    assert chi2 < 22.46


def test_bit_helpers():
    assert popcount32(np.uint32(0xFFFFFFFF)) == 32
    assert popcount32(np.uint32(0)) == 0
    assert nth_bit(np.uint32(0b10110), 0) == 1
    assert nth_bit(np.uint32(0b10110), 2) == 4
    st = np.zeros(4, dtype=np.uint64)
    rng_seed(st, np.uint64(5), STREAM_DEAL)
    mask = np.uint32((1 << 3) | (1 << 17) | (1 << 31))
    seen = {random_bit(st, mask) for _ in range(200)}
    assert seen == {3, 17, 31}


def _py_deal(key: int, dealer: int) -> tuple[list[int], int]:
    """Python replay of RULES.md "Deal" with the kernel's shuffle and cut draws."""
    st = np.zeros(4, dtype=np.uint64)
    rng_seed(st, np.uint64(key), STREAM_DEAL)
    deck = np.zeros(32, dtype=np.int8)
    shuffle_deck(st, deck)
    cut = 3 + bounded(st, 27)  # "cut point uniform in 3..29"
    order = list(deck[cut:]) + list(deck[:cut])  # the bottom packet goes on top
    hands = [0, 0, 0, 0]
    pos = 0
    for n in (3, 2, 3):  # "rounds of 3, 2, 3, starting with seat D+1"
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            for _ in range(n):
                hands[seat] |= 1 << int(order[pos])
                pos += 1
    return hands, cut


def test_deal_is_shuffle_then_cut_then_3_2_3_from_seat_after_dealer():
    run = skey(11)
    st = np.zeros(4, dtype=np.uint64)
    deck = np.zeros(32, dtype=np.int8)
    hands = np.zeros(4, dtype=np.uint32)
    for i in range(200):
        key = dkey(run, i)
        dealer = i % 4
        cut = deal_hands(st, key, dealer, FEDERAL.packed, deck, hands)
        expect, expect_cut = _py_deal(int(key), dealer)
        assert cut == expect_cut
        assert 3 <= cut <= 29
        assert [int(h) for h in hands] == expect


def test_shuffle_is_a_permutation():
    st = np.zeros(4, dtype=np.uint64)
    deck = np.zeros(32, dtype=np.int8)
    rng_seed(st, np.uint64(77), STREAM_DEAL)
    for _ in range(100):
        shuffle_deck(st, deck)
        assert sorted(deck.tolist()) == list(range(32))


def test_hands_partition_the_deck_and_dealer_rotates():
    df = simulate(4000, seed=5, players="random", progress=False)
    h = df[["hand_0", "hand_1", "hand_2", "hand_3"]].to_numpy(dtype=np.uint64)
    assert ((h[:, 0] | h[:, 1] | h[:, 2] | h[:, 3]) == 0xFFFFFFFF).all()
    for a in range(4):
        assert all(bin(int(x)).count("1") == 8 for x in h[:50, a])
        for b in range(a + 1, 4):
            assert ((h[:, a] & h[:, b]) == 0).all()
    # "The dealer moves to D+1 after every donne": donne i has dealer i mod 4.
    assert (df["dealer"].to_numpy() == np.arange(4000) % 4).all()


def test_fixed_dealer():
    df = simulate(100, seed=5, players="random", dealer=2, progress=False)
    assert (df["dealer"] == 2).all()


def test_deal_does_not_depend_on_the_players():
    a = simulate(500, seed=8, players="random", progress=False)
    b = simulate(500, seed=8, players="heuristic", progress=False)
    for s in range(4):
        assert (a[f"hand_{s}"] == b[f"hand_{s}"]).all()


def _hypergeom(total: int, good: int, draws: int, k: int) -> float:
    return math.comb(good, k) * math.comb(total - good, draws - k) / math.comb(total, draws)


def _chi2(observed: np.ndarray, probs: np.ndarray) -> float:
    n = observed.sum()
    expected = probs * n
    return float(((observed - expected) ** 2 / expected).sum())


def test_dealing_is_uniform_chi_square_trumps_and_jacks_per_hand():
    """Counts of spades (8 in the deck) and of jacks (4) in a hand follow the
    hypergeometric law of 8 cards drawn from 32.

    Critical values: the 0.999 quantiles of chi-square with 4 and 5 degrees of freedom,
    18.47 and 20.52 (standard tables). With a fixed seed the test is deterministic; a
    correct deal fails it with probability 0.001 per statistic for a random seed.
    """
    n = 40000
    df = simulate(n, seed=2024, players="random", progress=False)
    for seat in range(4):
        hands = df[f"hand_{seat}"].to_numpy(dtype=np.uint64)
        spades = np.array([bin(int(h) & 0xFF).count("1") for h in hands])
        jacks = np.array([bin(int(h) & 0x10101010).count("1") for h in hands])
        # Spades: bins 0, 1, 2, 3, 4, 5+ (5 degrees of freedom).
        p = np.array([_hypergeom(32, 8, 8, k) for k in range(9)])
        probs = np.append(p[:5], p[5:].sum())
        obs = np.bincount(np.minimum(spades, 5), minlength=6)
        assert _chi2(obs, probs) < 20.52
        # Jacks: bins 0..4 (4 degrees of freedom).
        pj = np.array([_hypergeom(32, 4, 8, k) for k in range(5)])
        obs = np.bincount(jacks, minlength=5)
        assert _chi2(obs, pj) < 18.47
