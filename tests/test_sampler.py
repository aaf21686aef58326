"""Exact constrained dealing (``simcoinche._kernels.sampler`` through ``odds.deals``).

Counts are checked against brute-force enumeration; uniformity with seeded chi-square
tests against the exact distribution. No scipy here: the critical values come from the
Wilson–Hilferty approximation of the chi-square quantile,
``k (1 - 2/(9k) + z sqrt(2/(9k)))^3`` with ``z = 3.0902`` (the normal 0.999 quantile),
which is within 2.5 % of the exact quantile at ``k = 2`` and 1 % from ``k = 10`` — far
less than the margin between a correct sampler and a biased one at these sample sizes.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from simcoinche.analysis.hand_odds import deals
from simcoinche.rules.cards import from_mask, parse_hand
from simcoinche.rules.errors import InputError

HAND = "JH 9H AH TH KS 7C 8D AD"
Z999 = 3.0902


def chi2_critical(df: int, z: float = Z999) -> float:
    """Wilson–Hilferty approximation of the chi-square quantile (upper tail 0.001)."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def chi2(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def test_wilson_hilferty_matches_known_quantiles():
    # Tabulated chi-square 0.999 quantiles: df 2 → 13.816, 10 → 29.588, 100 → 149.449.
    assert chi2_critical(2) == pytest.approx(13.816, rel=0.025)
    assert chi2_critical(10) == pytest.approx(29.588, rel=0.01)
    assert chi2_critical(100) == pytest.approx(149.449, rel=0.002)


def brute_force_deals(d) -> list[tuple[int, int, int, int]]:
    """Every consistent deal, by enumerating which free cards each free seat gets."""
    free = [c for c in range(32) if not any((g >> c) & 1 for g in d.given)]
    seats = [int(s) for s in d.seats]
    caps = [8 - bin(d.given[s]).count("1") for s in seats]
    out = []
    for a in itertools.combinations(free, caps[0]):
        rest = [c for c in free if c not in a]
        for b in itertools.combinations(rest, caps[1]):
            c_cards = [c for c in rest if c not in b]
            hands = list(d.given)
            ok = True
            for s, cards in zip(seats, (a, b, c_cards), strict=True):
                for c in cards:
                    if (d.voids[s] >> (c >> 3)) & 1:
                        ok = False
                    hands[s] |= 1 << c
            if ok:
                out.append(tuple(hands))
    return out


def _random_constraints(rng: random.Random):
    """A random hand, seat, four or five given cards per other seat, random voids."""
    cards = list(range(32))
    rng.shuffle(cards)
    seat = rng.randrange(4)
    hand = cards[:8]
    give = {}
    pos = 8
    for s in range(4):
        if s == seat:
            continue
        k = rng.choice((4, 5))
        give[s] = [f"{'789TJQKA'[c & 7]}{'SHDC'[c >> 3]}" for c in cards[pos:pos + k]]
        pos += k
    void = {}
    for s in range(4):
        if rng.random() < 0.7:
            void[s] = "".join(rng.sample("SHDC", rng.choice((1, 2, 3))))
    hand_text = " ".join(f"{'789TJQKA'[c & 7]}{'SHDC'[c >> 3]}" for c in hand)
    return hand_text, seat, give, void


def test_unconstrained_count_is_the_multinomial():
    # 24 unseen cards into three hands of 8: 24! / (8!)^3.
    d = deals(HAND)
    assert d.n_deals == math.factorial(24) // math.factorial(8) ** 3 == 9_465_511_770


def test_counts_equal_brute_force_enumeration_on_random_constraints():
    rng = random.Random(7)
    checked = zero = 0
    while checked < 40:
        hand, seat, give, void = _random_constraints(rng)
        try:
            d = deals(hand, seat=seat, give=give, void=void)
        except InputError as exc:
            msg = str(exc)
            if "no deal is consistent" in msg:
                d0 = deals(hand, seat=seat, give=give)
                # Same constraints without raising: enumerate and find none.
                d0 = d0.__class__(d0.seat, d0.hand, d0.given, _voids(void, seat), 0,
                                  d0.known, d0.free, d0.seats, d0.allow, d0.caps, d0.table)
                assert brute_force_deals(d0) == []
                zero += 1
                continue
            assert "cannot be void" in msg  # a void contradicting a known card
            continue
        assert d.n_deals == len(brute_force_deals(d))
        checked += 1
    assert zero > 0  # the random constraints did include impossible ones


def _voids(void: dict, seat: int) -> tuple[int, int, int, int]:
    v = [0, 0, 0, 0]
    for s, suits in void.items():
        for letter in suits:
            v[s] |= 1 << "SHDC".index(letter)
    return tuple(v)


def _deal_index(rows: np.ndarray, universe: list[tuple[int, int, int, int]]) -> np.ndarray:
    index = {u: i for i, u in enumerate(universe)}
    return np.array([index[tuple(int(x) for x in r)] for r in rows])


def test_constrained_deals_are_uniform_among_consistent_deals():
    # A small space we can enumerate: every consistent deal equally likely (chi-square
    # over all of them), and no inconsistent deal ever drawn (the lookup would fail).
    d = deals(HAND, seat=1, give={0: "AS QS 7H 8S 9S", 2: "JS TS QH 8H", 3: "AC KC QC"},
              void={0: "D", 2: "C", 3: "H"})
    universe = brute_force_deals(d)
    assert len(universe) == d.n_deals
    assert 100 <= d.n_deals <= 2000
    n = 40 * d.n_deals
    idx = _deal_index(d.sample(n, seed=11), universe)
    observed = np.bincount(idx, minlength=d.n_deals).astype(float)
    expected = np.full(d.n_deals, n / d.n_deals)
    assert chi2(observed, expected) < chi2_critical(d.n_deals - 1)


def test_given_unseen_cards_land_per_the_exact_conditional_law():
    # Large constrained space: the joint landing seats of three unseen cards, against
    # probabilities counted exactly by pinning them (deals(... give=...).n_deals).
    give = {1: "QH 8H", 3: "7S"}
    void = {2: "H", 3: "D"}
    d = deals(HAND, give=give, void=void)
    tracked = [parse_hand(c).bit_length() - 1 for c in ("7H", "QD", "JC")]
    n = 30_000
    rows = d.sample(n, seed=3)
    seats = np.zeros((n, 3), dtype=np.int64)
    for j, c in enumerate(tracked):
        for s in range(4):
            seats[(rows[:, s] >> np.uint32(c)) & np.uint32(1) == 1, j] = s
    cells = seats[:, 0] * 16 + seats[:, 1] * 4 + seats[:, 2]
    observed = np.bincount(cells, minlength=64).astype(float)
    expected = np.zeros(64)
    names = ("7H", "QD", "JC")
    for combo in itertools.product((1, 2, 3), repeat=3):
        g = {k: list(v.split()) for k, v in give.items()}
        for s, name in zip(combo, names, strict=True):
            g.setdefault(s, []).append(name)
        try:
            count = deals(HAND, give=g, void=void).n_deals
        except InputError:
            count = 0
        expected[combo[0] * 16 + combo[1] * 4 + combo[2]] = n * count / d.n_deals
    assert expected.sum() == pytest.approx(n)
    # Impossible cells (a void seat, a full seat) are never hit.
    assert observed[expected == 0].sum() == 0
    live = expected > 0
    assert live.sum() >= 8
    assert chi2(observed[live], expected[live]) < chi2_critical(int(live.sum()) - 1)


def test_every_sampled_deal_is_consistent():
    give = {2: "AS 9C", 1: "TD"}
    void = {1: "H", 3: "C"}
    d = deals(HAND, seat=0, give=give, void=void)
    rows = d.sample(20_000, seed=5)
    hand = parse_hand(HAND)
    assert (rows[:, 0] == hand).all()
    for s in range(4):
        assert (np.bitwise_count(rows[:, s]) == 8).all()
    union = rows[:, 0] | rows[:, 1] | rows[:, 2] | rows[:, 3]
    assert (union == np.uint32(0xFFFFFFFF)).all()
    assert ((rows[:, 2] & np.uint32(parse_hand("AS 9C"))) == parse_hand("AS 9C")).all()
    assert ((rows[:, 1] & np.uint32(parse_hand("TD"))) != 0).all()
    assert (rows[:, 1] & np.uint32(0xFF << 8) == 0).all()     # seat 1 void in hearts
    assert (rows[:, 3] & np.uint32(0xFF << 24) == 0).all()    # seat 3 void in clubs


def test_unconstrained_card_lands_in_each_other_seat_a_third_of_the_time():
    d = deals(HAND, seat=2)
    n = 30_000
    rows = d.sample(n, seed=8)
    observed = np.zeros((24, 3))
    free = [c for c in range(32) if not (parse_hand(HAND) >> c) & 1]
    for i, c in enumerate(free):
        for j, s in enumerate((0, 1, 3)):
            observed[i, j] = ((rows[:, s] >> np.uint32(c)) & np.uint32(1)).sum()
    assert (observed.sum(axis=1) == n).all()
    # One card at a time (2 df each), Bonferroni over the 24 cards.
    crit = chi2_critical(2, z=3.54)  # normal quantile of 1 - 0.001/24 ≈ 3.53
    for i in range(24):
        assert chi2(observed[i], np.full(3, n / 3)) < crit


def test_sample_i_of_a_seed_is_reproducible_whatever_the_batch():
    d = deals(HAND, give={3: "QH"}, void={1: "S"})
    whole = d.sample(3000, seed=42)
    part = d.sample(1000, seed=42, start=2000)
    assert (whole[2000:] == part).all()
    assert (d.sample(3000, seed=42) == whole).all()
    assert (d.sample(3000, seed=43) != whole).any()


def test_hand_from_list_or_bitboard_gives_the_same_deals():
    mask = parse_hand(HAND)
    a = deals(HAND).sample(100, seed=1)
    b = deals(HAND.split()).sample(100, seed=1)
    c = deals(mask).sample(100, seed=1)
    assert (a == b).all() and (a == c).all()
    assert from_mask(mask) == sorted(from_mask(mask))


def test_void_suit_letters_may_be_spaced():
    spaced = deals(HAND, void={1: "h d"}).sample(50, seed=2)
    joined = deals(HAND, void={1: "HD"}).sample(50, seed=2)
    assert (spaced == joined).all()


@pytest.mark.parametrize("kwargs, fragment", [
    ({"hand": "JH 9H AH TH KS 7C 8D"}, "a hand has 8 cards; got 7"),
    ({"hand": "JH 9H AH TH KS 7C 8D AD 7S"}, "a hand has 8 cards; got 9"),
    ({"hand": "JH 9H AH TH KS 7C 8D JH"}, "card JH given twice"),
    ({"hand": "JH 9H AH TH KS 7C 8D ZZ"}, "unknown card 'ZZ'"),
    ({"give": {1: "JH"}}, "card JH is in the hand (seat 0)"),
    ({"give": {0: "QS"}}, "card QS given to seat 0 is not in its hand"),
    ({"give": ["1:QS", "2:QS"]}, "card QS given twice (seats 1 and 2)"),
    ({"give": ["1:QS,QS"]}, "card QS given twice to seat 1"),
    ({"give": {1: "7S 8S 9S TS JS QS AS 7H 8H"}}, "seat 1 is given 9 cards"),
    ({"void": {0: "H"}}, "seat 0 cannot be void in hearts: the hand holds"),
    ({"give": {2: "QS"}, "void": {2: "S"}}, "seat 2 cannot be void in spades: --give 2"),
    ({"void": ["1:SHDC"]}, "no deal is consistent with the constraints"),
    ({"void": {1: "SH", 2: "SH", 3: "S"}}, "no deal is consistent with the constraints"),
    ({"void": ["1:X"]}, "--void 1: 'X' is not suit letters S H D C"),
    ({"void": ["1:H x"]}, "--void 1: 'H x' is not suit letters S H D C"),
    ({"void": ["H"]}, "--void 'H': expected SEAT:VALUE"),
    ({"give": ["4:QS"]}, "seat must be a seat 0..3"),
    ({"seat": 5}, "seat must be a seat 0..3"),
])
def test_bad_constraints_are_one_line_input_errors(kwargs, fragment):
    args = {"hand": HAND, **kwargs}
    with pytest.raises(InputError) as err:
        deals(args.pop("hand"), **args)
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)
