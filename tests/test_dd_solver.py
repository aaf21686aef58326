"""Double-dummy solver kernel against the readable exhaustive minimax, and named endings.

RULES.md, "Rulings on points the sources leave open": the double-dummy value is the card
points a team reaches when all four hands are visible and both sides play perfectly;
252 to a team that wins every trick. The kernel (:mod:`simcoinche._kernels.dd`) must
give the same value as an exhaustive minimax (no pruning, no table) on every position, for
every profile and contract kind, and the same value for every legal card: the readable
one (:mod:`simcoinche.rules.reference_dd`), or on thousands of positions the same search
compiled on the rule kernels (``tests/exhaustive_dd.py``), itself checked against the
readable one on a sample of them.
"""

from __future__ import annotations

import random

import exhaustive_dd as ex
import numpy as np
import pytest

from simcoinche._kernels import dd
from simcoinche.rules import reference as ref
from simcoinche.rules import reference_dd as rdd
from simcoinche.rules.cards import parse_card
from simcoinche.rules.profiles import CLASSIC, FEDERAL, STEPHANOISE, STRICT, Profile

PROFILES = [FEDERAL, CLASSIC, STEPHANOISE, STRICT]
N_POSITIONS = 20_000
# The compiled oracle's card values checked against the readable minimax's on every
# READABLE_EVERY-th ending.
READABLE_EVERY = 50


@pytest.fixture(scope="module")
def scratch() -> dd.Scratch:
    return dd.new_scratch(16)


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _random_position(rng: random.Random, profile: Profile, kind: int, tricks_left: int):
    """Random legal play from a random deal down to ``tricks_left`` tricks, plus 0-3 cards
    of the next trick. Returns (hands, leader, trick, capot_open)."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [set(deck[8 * i:8 * i + 8]) for i in range(4)]
    leader = rng.randrange(4)
    capot_open = True
    for _ in range(8 - tricks_left):
        trick: list[int] = []
        for p in range(4):
            seat = (leader + p) % 4
            card = rng.choice(sorted(ref.legal_cards(hands[seat], trick, kind, profile)))
            hands[seat].remove(card)
            trick.append(card)
        winner = (leader + ref.trick_winner(trick, kind, profile)) % 4
        capot_open = capot_open and winner % 2 == 0
        leader = winner
    trick = []
    for p in range(rng.randrange(4)):
        seat = (leader + p) % 4
        card = rng.choice(sorted(ref.legal_cards(hands[seat], trick, kind, profile)))
        hands[seat].remove(card)
        trick.append(card)
    return hands, leader, trick, capot_open


def _kernel(S, hands, leader, trick, kind, profile, capot_open):
    """(value, {card: value}, trick array) from the kernel for one position."""
    dd.begin_solve(S, np.array([_mask(h) for h in hands], np.int64), kind, profile.packed)
    tr = np.zeros(4, np.int64)
    tr[:len(trick)] = trick
    value = dd.solve_value(S, kind, profile.packed, leader, tr, len(trick), int(capot_open),
                           81)
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    k = dd.root_values(S, kind, profile.packed, leader, tr, len(trick), int(capot_open),
                       cards, values)
    return int(value), {int(cards[j]): int(values[j]) for j in range(k)}, tr


def _oracle_cards(hands, leader, trick, kind, profile, capot_open) -> dict[int, int]:
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    tr = np.zeros(4, np.int64)
    tr[:len(trick)] = trick
    k = ex.card_values(np.array([_mask(h) for h in hands], np.int64), leader, tr,
                       len(trick), kind, profile.packed, int(capot_open),
                       rdd.last_trick_bonus(kind, profile, capot=True), cards, values)
    return {int(cards[j]): int(values[j]) for j in range(k)}


def test_dd_values_equal_exhaustive_minimax_on_endings(scratch):
    """20,000 random positions with 1 to 3 tricks left (a trick possibly in progress),
    every profile and contract kind: the value, the value of every legal card, and the
    capot and générale sweeps equal the exhaustive minimax; and the position's value is
    the value after its best card.

    The card values come from the compiled exhaustive minimax (tests/exhaustive_dd.py),
    checked against the readable one (reference_dd) on every ``READABLE_EVERY``-th
    position, a sample reaching every profile, kind and number of tricks left (the
    readable one on all of them took 35 of this test's 45 s). The compiled one plays by
    the rule kernels the solver uses too, so a bug there is caught on that sample (and by
    the rule kernels' own differential tests). The sweeps are the readable minimax's."""
    rng = random.Random(20261130)
    mismatches = []
    reached = set()
    read = set()
    for i in range(N_POSITIONS):
        profile = rng.choice(PROFILES)
        kind = rng.choice(profile.contract_kinds)
        tricks_left = rng.choice((1, 2, 3))
        hands, leader, trick, capot_open = _random_position(rng, profile, kind, tricks_left)
        # The value of a position is its best card's, team 0 maximising (rdd.dd_value's own
        # rule, applied here to the card values so the exhaustive search runs once).
        seat = (leader + len(trick)) % 4
        best_of = max if seat % 2 == 0 else min
        want_cards = _oracle_cards(hands, leader, trick, kind, profile, capot_open)
        if i % READABLE_EVERY == 0:
            readable = rdd.card_values(hands, leader, trick, kind, profile, capot_open)
            assert want_cards == readable, (profile.name, kind, hands, leader, trick)
            read.add((profile.name, kind, tricks_left))
        want = best_of(want_cards.values())
        target = rng.randrange(4)
        by_seat = rng.random() < 0.5
        want_sweep = rdd.can_sweep(hands, leader, trick, kind, target, by_seat, profile)
        got, got_cards, tr = _kernel(scratch, hands, leader, trick, kind, profile, capot_open)
        got_sweep = dd.sweep_possible(scratch, kind, profile.packed, leader, tr, len(trick),
                                      target, int(by_seat))
        best = best_of(got_cards.values())
        if (got, got_cards, bool(got_sweep), best) != (want, want_cards, want_sweep, want):
            mismatches.append((profile.name, kind, hands, leader, trick, capot_open, want,
                               got, want_cards, got_cards, want_sweep, got_sweep))
        reached.add((profile.name, kind))
        if capot_open and want >= 100:
            reached.add("capot")
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:2]}"
    expected = {(p.name, k) for p in PROFILES for k in p.contract_kinds} | {"capot"}
    assert reached == expected
    assert read == {(p.name, k, t) for p in PROFILES for k in p.contract_kinds
                    for t in (1, 2, 3)}


def _named(spec: list[str]) -> list[set[int]]:
    return [{parse_card(c) for c in hand.split()} for hand in spec]


def _value(S, spec, leader, kind, profile=FEDERAL, capot_open=False) -> int:
    hands = _named(spec)
    value, _, _ = _kernel(S, hands, leader, [], kind, profile, capot_open)
    assert value == rdd.dd_value(hands, leader, [], kind, profile, capot_open)
    return value


def test_all_masters_in_one_hand_is_a_capot_252(scratch):
    """'252 to a team that wins every trick': seat 0 holds all eight trumps and leads."""
    spec = ["JH 9H AH TH KH QH 8H 7H", "AS TS KS QS JS 9S 8S 7S",
            "AD TD KD QD JD 9D 8D 7D", "AC TC KC QC JC 9C 8C 7C"]
    hands = np.array([_mask(h) for h in _named(spec)], np.int64)
    assert dd.solve_deal(scratch, hands, 3, 1, FEDERAL.packed, 81) == 252
    # The same cards for the other side: team 0 takes nothing.
    assert dd.solve_deal(scratch, hands[[1, 0, 3, 2]], 0, 1, FEDERAL.packed, 81) == 0


def test_guarded_ten_is_kept_against_the_ace_but_falls_when_bare(scratch):
    """Plain suit, no trump left: seat 1's ten guarded by the 7 wins the king (team 0
    leads the king first and then the ace: 21); a bare ten falls under the ace (35)."""
    guarded = ["AS KS", "TS 7S", "8D 7D", "8C 7C"]
    assert _value(scratch, guarded, 0, 1) == 21
    bare = ["AS KS", "TS 7C", "8D 7D", "8C 9C"]
    assert _value(scratch, bare, 0, 1) == 35


def test_federal_may_discard_instead_of_undertrumping_classic_must_not(scratch):
    """RULES.md federal: 'si l'atout adverse est imbattable, vous pouvez défausser au
    lieu de sous-couper'. Seat 2 keeps its 8 of trumps to ruff the club and take the
    ace of diamonds with the last trick (21); under classic's obligation to undertrump it
    loses that trump, and the best is 14."""
    spec = ["KS AD", "9H 7C", "8H 8D", "8S 7S"]
    assert _value(scratch, spec, 0, 1, FEDERAL) == 21
    assert _value(scratch, spec, 0, 1, CLASSIC) == 14
    assert _value(scratch, spec, 0, 1, STRICT) == 14


def test_stephanoise_and_sans_atout_tables_are_used(scratch):
    """Sans-atout (stephanoise: plain order and plain points in every suit, 120 card
    points): two aces to team 0 when it leads them, and on its capot the last trick
    brings its points to 252 (132, not 100: "252 to a team that wins every trick");
    tout-atout in classic uses its own table (J 14, A 6) and the trump order in every
    suit."""
    spec = ["AS AH", "7S 7H", "8S 8H", "9S 9H"]
    assert _value(scratch, spec, 0, 4, STEPHANOISE, capot_open=True) == 11 + 11 + 132
    assert _value(scratch, spec, 0, 4, STEPHANOISE, capot_open=False) == 11 + 11 + 10
    jacks = ["JS JH", "7S 7H", "8S 8H", "AS AH"]
    assert _value(scratch, jacks, 0, 5, CLASSIC) == 14 + 6 + 14 + 6 + 10


def test_sure_points_bounds_trumps_split_between_partners_and_partners_master(scratch):
    """The search's sure-points bounds at a trick boundary: trumps a team holds above the
    other team's best trump fall in tricks that team wins even when split between the
    partners (team 1's JH and 9H: team 0 keeps 25 of 94), and a suit's master held by the
    leader's partner is sure when the leader can lead the suit and nobody can trump
    (seat 0 leads the 7C to seat 2's AC: 35, at hearts and at sans-atout). Values equal
    the exhaustive minimax with the capot still open or not."""
    split = ["AH AS TS", "JH 7S 7D", "KS QS 8D", "9H 8S AD"]
    assert _value(scratch, split, 0, 1, capot_open=True) == 25
    assert _value(scratch, split, 0, 1, capot_open=False) == 25
    partner = ["7C 8S 7D", "9C 9S 8D", "AC TS 9D", "8C KS TD"]
    assert _value(scratch, partner, 0, 1, capot_open=True) == 35
    assert _value(scratch, partner, 0, 4, capot_open=True) == 35


# Four tricks left, outside federal (issue 20, item 7). The readable minimax
# (reference_dd) visits about 17,000 nodes per position at 4 tricks, about 0.35 s of CPU:
# 5,000 positions per profile would take 90 min. The same exhaustive search compiled
# (tests/exhaustive_dd.py: no pruning, no table, on the rule kernels) takes about a
# millisecond: it is first checked against reference_dd on a few positions of every
# kind, then the solver against it on 5,000 positions per profile.
N_PER_KIND_READABLE = 2
N_PER_PROFILE_4 = 5_000


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_compiled_exhaustive_minimax_equals_the_readable_one(profile):
    """The oracle of the thousands (tests/exhaustive_dd.py) gives reference_dd's value for
    every legal card, in every contract kind, from positions with 4 tricks left."""
    rng = random.Random(f"oracle-{profile.name}")
    for kind in profile.contract_kinds:
        for _ in range(N_PER_KIND_READABLE):
            hands, leader, trick, capot_open = _random_position(rng, profile, kind, 4)
            want = rdd.card_values(hands, leader, trick, kind, profile, capot_open)
            assert _oracle_cards(hands, leader, trick, kind, profile, capot_open) == want


@pytest.mark.parametrize("profile", [CLASSIC, STEPHANOISE, STRICT], ids=lambda p: p.name)
def test_dd_values_equal_exhaustive_minimax_with_four_tricks_left(scratch, profile):
    """Every contract kind of classic, stephanoise and strict (suits, SA, TA), 5,000
    random positions per profile with 4 tricks left (a trick possibly in progress): the
    solver's value and the value of every legal card equal the exhaustive minimax's."""
    rng = random.Random(f"four-{profile.name}")
    kinds = list(profile.contract_kinds)
    mismatches = []
    for i in range(N_PER_PROFILE_4):
        kind = kinds[i % len(kinds)]
        hands, leader, trick, capot_open = _random_position(rng, profile, kind, 4)
        want_cards = _oracle_cards(hands, leader, trick, kind, profile, capot_open)
        seat = (leader + len(trick)) % 4
        # The position's value is the best card's for the seat to play.
        want = (max if seat % 2 == 0 else min)(want_cards.values())
        got, got_cards, _ = _kernel(scratch, hands, leader, trick, kind, profile,
                                    capot_open)
        if (got, got_cards) != (want, want_cards):
            mismatches.append((kind, hands, leader, trick, capot_open, want, got))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:2]}"


# --- one root card at a time: exact values and one-probe bounds (the PIMC player's) -------


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_one_probe_bounds_the_card_value_on_the_side_it_fails(scratch, profile):
    """``card_value`` with a probe ``t`` answers "do team 0's points reach t after this
    card?" by one null-window search: its result is a lower bound of the exact value
    when it is ``>= t``, an upper bound when it is ``< t``; without a probe it is the
    exact value (the exhaustive minimax's), from any guess. Every legal card's class
    (``root_classes``) holds one searched card of the same value."""
    rng = random.Random(f"probe-{profile.name}")
    kinds = list(profile.contract_kinds)
    prof = profile.packed
    reps = np.zeros(8, np.int64)
    card_class = np.zeros(32, np.int64)
    for i in range(300):
        kind = kinds[i % len(kinds)]
        hands, leader, trick, capot_open = _random_position(rng, profile, kind, 4)
        want = _oracle_cards(hands, leader, trick, kind, profile, capot_open)
        dd.begin_solve(scratch, np.array([_mask(h) for h in hands], np.int64), kind, prof)
        tr = np.zeros(4, np.int64)
        tr[:len(trick)] = trick
        n, co = len(trick), int(capot_open)
        k = dd.root_classes(scratch, kind, leader, tr, n, reps, card_class)
        assert sorted(c for c in range(32) if card_class[c] >= 0) == sorted(want)
        assert {int(card_class[c]) for c in want} == set(range(k))
        for c, v in want.items():
            assert want[int(reps[card_class[c]])] == v
        for j in range(k):
            c = int(reps[j])
            guess = rng.choice([-1, 0, want[c], want[c] + rng.randrange(-30, 30)])
            assert dd.card_value(scratch, kind, prof, leader, tr, n, co, c, guess, 0) == want[c]
            for t in {1, max(1, want[c]), want[c] + 1, rng.randrange(1, 200)}:
                r = dd.card_value(scratch, kind, prof, leader, tr, n, co, c, -1, t)
                if r >= t:
                    assert want[c] >= r, (c, t, r, want[c])
                else:
                    assert want[c] <= r, (c, t, r, want[c])
        assert list(tr[:n]) == trick  # the trick is left as it was


def test_card_value_is_one_compiled_kernel_whatever_integers_the_caller_passes(scratch):
    """The PIMC player, the root solve and Python pass the card, guess and probe as other
    integer types (literals, int32, uint8): each is converted to the one int64
    signature, with the same value, instead of compiling a version of its own."""
    profile = PROFILES[0]
    rng = random.Random("one-card-value")
    kind = profile.contract_kinds[0]
    hands, leader, trick, capot_open = _random_position(rng, profile, kind, 4)
    want = _oracle_cards(hands, leader, trick, kind, profile, capot_open)
    dd.begin_solve(scratch, np.array([_mask(h) for h in hands], np.int64), kind,
                   profile.packed)
    tr = np.zeros(4, np.int64)
    tr[:len(trick)] = trick
    c = min(want)
    as_ints = dd.card_value(scratch, kind, profile.packed, leader, tr, len(trick),
                            int(capot_open), c, -1, 0)
    as_small = dd.card_value(scratch, np.int32(kind), profile.packed, np.uint8(leader), tr,
                             np.int32(len(trick)), np.uint8(capot_open), np.uint8(c),
                             np.int32(-1), np.int8(0))
    assert as_ints == as_small == want[c]
    assert len(dd.card_value.signatures) == 1


def test_a_lead_in_a_suit_no_other_seat_holds_is_ordered_within_the_order_table():
    """The static order of a lead the opponents can trump looks for the partner's master
    of the suit among the other seats' cards of it: when no other seat holds the suit
    there is none (it used to read one entry past the suit's order). Compiled with
    bounds checking, the order of such a lead must not index outside its tables."""
    from numba import njit

    @njit(boundscheck=True, cache=False)
    def order_checked(W, k, seat, trump):
        base = dd.W_MOVES + 8 * (dd.MAX_PLY - 1)
        others = 0
        for s in range(4):
            if s != seat:
                others |= W[dd.W_HANDS + s]
        ruff4 = dd._ruffs(W[dd.W_HANDS + ((seat + 3) & 3)], trump)
        ruff = ruff4 | dd._ruffs(W[dd.W_HANDS + ((seat + 1) & 3)], trump)
        dd._order(W, base, dd.MAX_PLY - 1, k, seat, (0, 0, 0, seat), trump, -1, others,
                  (ruff, ruff4))
        return W[base]

    # Spades trump; only seat 0 holds clubs, and seat 1 (void in clubs) can trump them.
    hands = [{"7C", "8H"}, {"7S", "9H"}, {"TH", "JH"}, {"KH", "QH"}]
    S = dd.new_scratch(10)
    dd.begin_solve(S, np.array([_mask(parse_card(c) for c in h) for h in hands], np.int64),
                   0, FEDERAL.packed)
    base = dd.W_MOVES + 8 * (dd.MAX_PLY - 1)
    S.work[base] = parse_card("7C")
    S.work[base + 1] = parse_card("8H")
    # 8H first: a cheap lead under the partner's master (TH), which the 4th hand cannot
    # trump; the lone 7C has no partner's master above it.
    assert order_checked(S.work, 2, 0, 0) == parse_card("8H")
