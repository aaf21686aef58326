"""``simcoinche.runs.rollout``: random legal playouts from one dealt position.

Every recorded playout is replayed under the reference engine's rules (legal cards, trick
winner, card points, capot); playouts do not depend on the thread count; on a small
ending the distribution of team 0's points matches the exact distribution of uniformly
random legal play computed by the reference engine (chi-square).
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from chisq import chi_square

import simcoinche
from simcoinche.rules import reference as ref
from simcoinche.rules.cards import format_cards, from_mask
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.rollout import check_hands


def _dealt(seed: int) -> list[list[int]]:
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    return [sorted(deck[8 * s:8 * s + 8]) for s in range(4)]


def _replay(hands: list[list[int]], dealer: int, kind: int, cards: np.ndarray,
            profile: str) -> tuple[int, int]:
    """Replay one recorded playout under the reference rules; card points per team."""
    prof = get_profile(profile)
    held = [set(h) for h in hands]
    leader = (dealer + 1) & 3
    tricks = []
    it = iter(int(c) for c in cards)
    for _ in range(len(hands[0])):
        trick = ref.Trick(leader)
        for p in range(4):
            seat = (leader + p) & 3
            c = next(it)
            assert c in ref.legal_cards(held[seat], trick.cards, kind, prof), (
                f"seat {seat} played {c} illegally on {trick.cards}")
            held[seat].remove(c)
            trick.cards.append(c)
        trick.winner = (leader + ref.trick_winner(trick.cards, kind, prof)) & 3
        tricks.append(trick)
        leader = trick.winner
    return ref.count_card_points(tricks, kind, prof)


@pytest.mark.parametrize(("profile", "kind"), [("federal", 1), ("federal", 3),
                                               ("strict", 5), ("classic", 4),
                                               ("stephanoise", 0)])
def test_rollout_plays_only_legal_cards_and_scores_as_the_reference(profile, kind):
    hands = _dealt(7 + kind)
    dealer = kind & 3
    points, cards = simcoinche.rollout(hands, dealer, kind, 300, seed=3, profile=profile,
                                       record=True)
    assert points.dtype == np.int16 and cards.shape == (300, 32)
    prof = get_profile(profile)
    total = sum(ref.card_points(c, kind, prof) for c in range(32)) + prof.last_trick_bonus
    for i in range(300):
        p0, p1 = _replay(hands, dealer, kind, cards[i], profile)
        assert points[i] == p0
        # Per playout the two teams share the kind's total (162 federal), or a capot.
        assert p0 + p1 == total or {p0, p1} == {0, prof.capot_card_points}
    # A capot is scored as the reference scores it: seat 0 holds a whole suit (the trump
    # suit, or spades at SA/TA) and leads, so it wins every trick of every playout.
    suit = kind if kind < 4 else 0
    full = list(range(8 * suit, 8 * suit + 8))
    rest = [c for c in range(32) if c not in full]
    random.Random(kind).shuffle(rest)
    capot_hands = [full] + [sorted(rest[8 * s:8 * s + 8]) for s in range(3)]
    cpoints, ccards = simcoinche.rollout(capot_hands, 3, kind, 50, seed=4,
                                         profile=profile, record=True)
    assert (cpoints == prof.capot_card_points).all()
    for i in range(50):
        assert _replay(capot_hands, 3, kind, ccards[i], profile) == (
            prof.capot_card_points, 0)
    assert len({tuple(c) for c in cards.tolist()}) > 250  # the playouts differ


def test_rollout_is_the_same_whatever_the_thread_count():
    hands = _dealt(11)
    a = simcoinche.rollout(hands, 2, "H", 20_000, seed=5, threads=1)
    b = simcoinche.rollout(hands, 2, "H", 20_000, seed=5, threads=2)
    c = simcoinche.rollout(hands, 2, "H", 20_000, seed=6, threads=2)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_rollout_accepts_bitboards_and_card_texts_alike():
    hands = _dealt(12)
    masks = [sum(1 << c for c in h) for h in hands]
    texts = [" ".join(format_cards(h)) for h in hands]
    a = simcoinche.rollout(masks, 0, 0, 500, seed=1)
    assert np.array_equal(a, simcoinche.rollout(texts, 0, "S", 500, seed=1))


def _exact(hands: list[set[int]], leader: int, kind: int, prof) -> dict[int, Fraction]:
    """Exact distribution of team 0's points under uniformly random legal play."""
    dist: dict[int, Fraction] = {}

    def walk(held, leader, trick, seat, pts0, won_last, prob):
        if not any(held):
            p = pts0 + (prof.last_trick_bonus if won_last else 0)
            dist[p] = dist.get(p, Fraction(0)) + prob
            return
        legal = sorted(ref.legal_cards(held[seat], trick, kind, prof))
        for c in legal:
            nh = [set(h) for h in held]
            nh[seat].remove(c)
            t = [*trick, c]
            q = prob / len(legal)
            if len(t) == 4:
                w = (leader + ref.trick_winner(t, kind, prof)) & 3
                gain = sum(ref.card_points(x, kind, prof) for x in t) if w % 2 == 0 else 0
                walk(nh, w, [], w, pts0 + gain, w % 2 == 0, q)
            else:
                walk(nh, leader, t, (seat + 1) & 3, pts0, won_last, q)

    walk(hands, leader, [], leader, 0, False, Fraction(1))
    return dist


def test_rollout_distribution_on_an_ending_matches_exact_random_play():
    # A 3-card ending at hearts: every card is chosen among the legal ones uniformly.
    hands = [["JH", "AS", "7C"], ["9H", "TS", "KD"], ["8H", "AD", "QS"], ["TC", "7S", "AH"]]
    prof = get_profile("federal")
    masks = check_hands(hands)
    exact = _exact([set(from_mask(int(m))) for m in masks], 1, 1, prof)
    n = 40_000
    points = simcoinche.rollout(hands, 0, "H", n, seed=9)
    values = sorted(exact)
    assert set(np.unique(points).tolist()) <= set(values)
    observed = np.array([(points == v).sum() for v in values], dtype=float)
    expected = np.array([float(exact[v]) * n for v in values])
    assert abs(sum(exact.values()) - 1) == 0
    stat, p = chi_square(observed, expected)
    assert p > 0.001, (stat, dict(zip(values, observed, strict=True)))


@pytest.mark.parametrize(("hands", "dealer", "kind", "n", "match"), [
    ([[0], [1], [2]], 0, 0, 10, "4 hands"),
    (None, 0, 0, 10, "4 hands"),
    (np.array([1.0, 2, 3, 4]), 0, 0, 10, "hand of seat 0: expected cards or a bitboard"),
    ([["JH"], ["JH"], ["9H"], ["8H"]], 0, 0, 10, "repeats"),
    ([["JH", "9H"], ["7S"], ["8S"], ["9S"]], 0, 0, 10, "same number"),
    ([["ZZ"], ["7S"], ["8S"], ["9S"]], 0, 0, 10, "ZZ"),
    ([["JH"], ["7S"], ["8S"], ["9S"]], 4, 0, 10, "dealer"),
    ([["JH"], ["7S"], ["8S"], ["9S"]], 0, "SA", 10, "no SA contracts"),
    ([["JH"], ["7S"], ["8S"], ["9S"]], 0, "X", 10, "contract kind"),
    ([["JH"], ["7S"], ["8S"], ["9S"]], 0, 0, 0, "n must be"),
])
def test_rollout_rejects_bad_input_in_one_line(hands, dealer, kind, n, match):
    with pytest.raises(InputError, match=match):
        simcoinche.rollout(hands, dealer, kind, n)


def test_rollout_record_is_true_or_false_and_its_totals_must_fit_in_memory():
    hands = _dealt(11)
    with pytest.raises(InputError, match="record must be True or False, got 'no'"):
        simcoinche.rollout(hands, 2, "H", 10, record="no")
    with pytest.raises(InputError, match=r"100,000,000,000 rollouts kept in memory need "
                       r"about .* GiB, more than this machine's"):
        simcoinche.rollout(hands, 2, "H", 10**11, threads=1)
