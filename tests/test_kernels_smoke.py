"""Kernel-only checks of the federal rule kernels.

Hand-picked cases named after the RULES.md rule they pin, plus randomized agreement of
every kernel with the pure-Python reference engine (``simcoinche.rules.reference``).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from engine_kernels import KernelEngine

from simcoinche._kernels import announce, auction, play
from simcoinche._kernels import layout as L
from simcoinche.rules import reference as ref
from simcoinche.rules.actions import (
    COINCHE,
    PASS,
    R_ALREADY_COINCHED,
    R_AUCTION_OVER,
    R_BID_AFTER_COINCHE,
    R_BID_NOT_HIGHER,
    R_COINCHE_NO_BID,
    R_COINCHE_OWN_TEAM,
    R_NOT_IN_PROFILE,
    R_SURCOINCHE_NO_COINCHE,
    R_SURCOINCHE_NOT_TAKERS,
    SURCOINCHE,
    bid_code,
)
from simcoinche.rules.cards import HEARTS, SPADES, from_mask, parse_cards, to_mask
from simcoinche.rules.profiles import FEDERAL

PROF = FEDERAL.packed
E = KernelEngine()


def C(text: str) -> list[int]:
    """Cards from text, e.g. ``C("JH 9H")``."""
    return parse_cards(text)


def legal(hand: str, trick: str, trump: int) -> set[int]:
    return E.legal_cards(C(hand), C(trick), trump)


# --- play ------------------------------------------------------------------------------


def test_card_points_total_152_in_every_suit_contract():
    for trump in range(4):
        assert sum(E.card_points(c, trump) for c in range(32)) == 152


def test_card_points_trump_jack_20_plain_jack_2():
    assert E.card_points(C("JH")[0], HEARTS) == 20
    assert E.card_points(C("JS")[0], HEARTS) == 2
    assert E.card_points(C("9H")[0], HEARTS) == 14


def test_trick_winner_highest_trump_wins():
    assert E.trick_winner(C("AS 7H TS JH"), HEARTS) == 3
    assert E.trick_winner(C("AS 9H TS JH"), HEARTS) == 3
    assert E.trick_winner(C("AS 9H TS 8H"), HEARTS) == 1


def test_trick_winner_else_highest_of_led_suit_discards_never_win():
    assert E.trick_winner(C("KS AD TS 7S"), HEARTS) == 2
    assert E.trick_winner(C("7S AC AD AH"), SPADES) == 0


def test_follow_suit_when_holding_led_suit_no_need_to_go_higher():
    assert legal("7S AS JH", "KS", HEARTS) == set(C("7S AS"))


def test_trump_led_must_overtrump_even_over_partner():
    # the partner (position 0) leads 9H; I hold JH and 7H: must play JH
    assert legal("JH 7H AS", "9H 8H", HEARTS) == set(C("JH"))


def test_trump_led_cannot_overtrump_any_trump():
    assert legal("7H 8H AS", "JH", HEARTS) == set(C("7H 8H"))


def test_trump_led_void_in_trumps_any_card():
    assert legal("AS KD", "JH", HEARTS) == set(C("AS KD"))


def test_void_partner_wins_any_card():
    assert legal("7H AD", "AS KS", HEARTS) == set(C("7H AD"))


def test_void_no_trump_in_trick_must_trump():
    assert legal("7H AD", "KS", HEARTS) == set(C("7H"))


def test_void_opponent_trump_must_overtrump_if_able():
    assert legal("JH 7H AD", "AS 9H", HEARTS) == set(C("JH"))


def test_void_opponent_trump_unbeatable_may_discard_instead_of_undertrumping():
    # "si l'atout adverse est imbattable, vous pouvez défausser au lieu de sous-couper"
    assert legal("7H AD", "AS 9H", HEARTS) == set(C("7H AD"))


def test_void_no_trumps_any_card():
    assert legal("AD KC", "AS 9H", HEARTS) == set(C("AD KC"))


def test_void_opponent_overtrumped_partner_unbeatable_may_discard():
    # I play at position 3; my partner (position 1) trumped 9H, the opponent at position
    # 2 overtrumped with JH: I cannot beat it, an opponent wins → any card.
    assert legal("7H AD", "AS 9H JH", HEARTS) == set(C("7H AD"))
    # my partner (position 1) wins with JH: any card.
    assert legal("7H AD", "AS JH 8S", HEARTS) == set(C("7H AD"))


def test_must_undertrump_flag_forces_a_trump():
    prof = FEDERAL.pack()
    prof.setflags(write=True)
    prof[L.P_MUST_UNDERTRUMP] = 1
    hand = np.uint32(to_mask(C("7H AD")))
    trick = np.array([*C("AS 9H"), 0, 0], dtype=np.int64)
    assert set(from_mask(int(play.legal_mask(hand, trick, 2, HEARTS, prof)))) == set(C("7H"))


def test_must_trump_over_partner_flag():
    prof = FEDERAL.pack()
    prof.setflags(write=True)
    prof[L.P_MUST_TRUMP_OVER_PARTNER] = 1
    hand = np.uint32(to_mask(C("7H AD")))
    trick = np.array([*C("AS KS"), 0, 0], dtype=np.int64)
    assert set(from_mask(int(play.legal_mask(hand, trick, 2, HEARTS, prof)))) == set(C("7H"))


def test_sans_atout_follow_else_any_and_tout_atout_go_higher():
    assert legal("7S AS KD", "KS", 4) == set(C("7S AS"))
    assert legal("KD 7C", "KS", 4) == set(C("KD 7C"))
    # TA: led suit in trump order, must go higher: 9S beats KS, JS beats 9S.
    assert legal("7S 9S JS KD", "KS", 5) == set(C("9S JS"))
    assert legal("7S 8S KD", "JS", 5) == set(C("7S 8S"))


def test_legal_mask_dtype_is_uint32():
    # clubs trump, AC led, a hand holding every other card: only JC and 9C beat the ace
    hand = np.uint32(0xFFFFFFFF & ~(1 << 31))
    m = play.legal_mask(hand, np.array([31, 0, 0, 0]), 1, 3, PROF)
    assert int(m) == (1 << 28) | (1 << 26)
    assert all(sig.return_type == numba.uint32 for sig in play.legal_mask.nopython_signatures)


# --- announcements ---------------------------------------------------------------------


def test_carres_jacks_200_nines_150_sorted_best_first():
    assert E.declaration(C("JS JH JD JC 9S 9H 9D 9C"), SPADES) == [
        (0, 4, -1, 4, 200), (0, 2, -1, 4, 150)]


def test_carres_of_sevens_and_eights_count_nothing():
    assert E.declaration(C("7S 7H 7D 7C 8S 8H 8D 8C"), SPADES) == []


def test_run_longer_than_5_is_one_100_of_its_top_five():
    assert E.declaration(C("7S 8S 9S TS JS QS KS AS"), HEARTS) == [(1, 7, 0, 5, 100)]


def test_card_serves_once_carre_kept_over_suite():
    # carré of queens (100) beats the spade J-Q-K-A (50) they share QS
    assert E.declaration(C("QS QH QD QC JS KS AS 7D"), HEARTS) == [(0, 5, -1, 4, 100)]


def test_card_serves_once_suites_from_cards_left_by_the_carre():
    # carré of kings; 9H TH JH remain as a tierce
    assert E.declaration(C("KS KH KD KC 9H TH JH 7C"), SPADES) == [
        (0, 6, -1, 4, 100), (1, 4, 1, 3, 20)]


def test_declaration_largest_total_carre_rather_than_the_suite_it_breaks():
    # keep the carré of tens (100; 9S JS QS left make no run) or drop it for 9S-QS (50)
    assert E.declaration(C("9S TS JS QS TH TD TC 8H"), HEARTS) == [(0, 3, -1, 4, 100)]


def test_announcement_key_orders_carre_suite_trump():
    k = announce.announcement_key
    assert k(0, 5, -1, 4, 100, 0) > k(1, 7, 0, 5, 100, 0)          # carré > any suite
    assert k(0, 7, -1, 4, 100, 0) > k(0, 3, -1, 4, 100, 0)         # A > T at equal value
    assert k(1, 5, 1, 4, 50, 0) > k(1, 7, 1, 3, 20, 0)             # 50 > 20
    assert k(1, 5, 0, 3, 20, 0) > k(1, 5, 1, 3, 20, 0)             # trump suite wins
    assert k(1, 5, 2, 3, 20, 0) == k(1, 5, 1, 3, 20, 0)            # complete tie
    assert k(1, 5, 2, 3, 0, 0) == 0


def test_team_comparison_complete_tie_cancels_both():
    hands = [C("7S 8S 9S"), C("7H 8H 9H"), [], []]
    assert E.team_announcements(hands, 2) == (0, 0)


def test_team_comparison_trump_suite_beats_plain_equal_suite():
    hands = [C("7S 8S 9S"), C("7H 8H 9H"), [], []]
    assert E.team_announcements(hands, HEARTS) == (0, 20)


def test_team_winner_scores_all_its_declared_announcements():
    hands = [C("JS QS KS"), C("8D 9D TD"), C("7C 8C 9C"), []]
    assert E.team_announcements(hands, HEARTS) == (40, 0)


def test_team_with_no_announcement_loses_and_silent_seat_declares_nothing():
    hands = [C("7S 8S 9S"), C("JD QD KD AD"), [], []]
    assert E.team_announcements(hands, HEARTS) == (0, 50)
    assert E.team_announcements(hands, HEARTS, declare=(True, False, True, True)) == (20, 0)


def test_belote_king_and_queen_of_trumps_in_one_hand():
    assert E.belote([C("KH QH"), [], [], []], HEARTS) == (20, 0)
    assert E.belote([C("KH"), [], C("QH"), []], HEARTS) == (0, 0)
    assert E.belote([[], C("KH QH JH 9H"), [], []], HEARTS) == (0, 20)
    assert E.belote([C("KH QH"), [], [], []], SPADES) == (0, 0)


# --- auction ---------------------------------------------------------------------------


def B(value: int, kind: int) -> int:
    return bid_code(FEDERAL.bid_values.index(value), kind)


CAPOT = len(FEDERAL.bid_values)


def test_auction_four_passes_pass_out():
    r = E.auction(0, [PASS] * 4)
    assert r["status"] == "passed_out"


def test_auction_three_passes_after_a_bid_fix_the_contract():
    r = E.auction(3, [PASS, B(80, 1), PASS, PASS, PASS])
    assert (r["status"], r["taker"], r["level"], r["kind"], r["coinche"]) == (
        "contract", 1, 0, 1, 1)


def test_auction_bid_must_be_strictly_higher_nothing_outbids_capot():
    assert E.auction(0, [B(90, 1), B(90, 2)])["reason"] == R_BID_NOT_HIGHER
    assert E.auction(0, [bid_code(CAPOT, 0), bid_code(CAPOT, 1)])["reason"] == R_BID_NOT_HIGHER


def test_auction_generale_and_sans_atout_not_in_federal():
    assert E.auction(0, [bid_code(CAPOT + 1, 0)])["reason"] == R_NOT_IN_PROFILE
    assert E.auction(0, [B(80, 4)])["reason"] == R_NOT_IN_PROFILE
    assert E.auction(0, [B(80, 5)])["reason"] == R_NOT_IN_PROFILE


def test_auction_coinche_only_against_the_other_team_once():
    assert E.auction(0, [COINCHE])["reason"] == R_COINCHE_NO_BID
    assert E.auction(0, [B(80, 1), PASS, COINCHE])["reason"] == R_COINCHE_OWN_TEAM
    assert E.auction(0, [B(80, 1), COINCHE, PASS, COINCHE])["reason"] == R_ALREADY_COINCHED


def test_auction_coinche_freezes_the_contract_then_three_passes_end_it():
    r = E.auction(0, [B(80, 1), COINCHE, B(90, 1)])
    assert r["reason"] == R_BID_AFTER_COINCHE
    r = E.auction(0, [B(80, 1), COINCHE, PASS, PASS, PASS])
    assert (r["status"], r["coinche"]) == ("contract", 2)


def test_auction_surcoinche_by_the_bidding_team_ends_it_at_once():
    assert E.auction(0, [B(80, 1), SURCOINCHE])["reason"] == R_SURCOINCHE_NO_COINCHE
    assert E.auction(0, [B(80, 1), COINCHE, PASS, SURCOINCHE])["reason"] == (
        R_SURCOINCHE_NOT_TAKERS)
    r = E.auction(0, [B(80, 1), COINCHE, SURCOINCHE])
    assert (r["status"], r["coinche"], r["taker"]) == ("contract", 4, 1)
    assert E.auction(0, [B(80, 1), COINCHE, SURCOINCHE, PASS])["reason"] == R_AUCTION_OVER


def test_auction_passing_does_not_stop_a_later_bid():
    # seat 1 passes first, then outbids seat 2's 80 with a 90
    r = E.auction(0, [PASS, B(80, 0), PASS, PASS, B(90, 0), PASS, PASS, PASS])
    assert (r["status"], r["taker"], r["level"]) == ("contract", 1, 1)


def test_auction_state_counts_bids_and_actions():
    state = np.zeros(auction.AUCTION_STATE_LEN, dtype=np.int32)
    auction.auction_start(state, 2)
    assert state[auction.A_TO_SPEAK] == 3
    for a in (B(80, 0), B(90, 1), COINCHE):
        assert auction.auction_apply(state, a, PROF) == 0
    assert (state[auction.A_N_BIDS], state[auction.A_N_ACTIONS], state[auction.A_COINCHER]) == (
        2, 3, 1)


@numba.njit
def _coinche_literal_then_read(state, actions, prof):
    # A literal code, then a uint8 read from an action array: the players' two shapes.
    return auction.auction_check(state, 1, prof), auction.auction_apply(state, actions[0],
                                                                         prof)


def test_the_auction_check_is_one_compiled_kernel_whatever_integer_the_caller_passes():
    # "Coinche ... only against the current highest bid ... when it belongs to the other
    # team": after seat 3's 80, seat 0 may coinche. Every caller's integer type (a literal,
    # uint8 from an action array, a Python int) is converted to the one int64 signature,
    # not compiled again (each version is inlined into its callers: issue 24).
    state = np.zeros(auction.AUCTION_STATE_LEN, dtype=np.int32)
    auction.auction_start(state, 2)
    assert auction.auction_apply(state, np.uint8(B(80, 0)), PROF) == 0
    assert _coinche_literal_then_read(state, np.array([COINCHE], dtype=np.uint8),
                                      PROF) == (0, 0)
    assert state[auction.A_COINCHE] == 2
    assert len(auction.auction_check.signatures) == 1
    assert len(auction.auction_apply.signatures) == 1


# --- scoring ---------------------------------------------------------------------------


def test_score_worked_example_90_hearts_89_fails_250_to_defence():
    assert E.score(0, 1, HEARTS, 1, (89, 73), (4, 4), (0, 0), (0, 0)) == (
        False, (0, 250), (0, 0))


def test_score_made_not_coinched_takers_total_plus_bid_rounded_halves_up():
    # 95 + 80 = 175 → 180; defence 67 → 70
    assert E.score(0, 0, HEARTS, 1, (95, 67), (5, 3), (0, 0), (0, 0)) == (
        True, (180, 70), (0, 0))


def test_score_tie_fails_and_failed_takers_keep_only_belote():
    # T_t = 61 + 20 = 81 = T_d → fails
    assert E.score(1, 0, HEARTS, 1, (81, 61), (4, 4), (0, 0), (0, 20)) == (
        False, (240, 20), (0, 0))


def test_score_coinched_made_k_160_defence_keeps_belote():
    made, marks, _ = E.score(0, 0, HEARTS, 2, (100, 62), (5, 3), (20, 0), (0, 20))
    assert made and marks == (2 * (160 + 20 + 0 + 80), 20)


def test_score_surcoinched_failed_takers_belote_not_multiplied():
    made, marks, _ = E.score(0, 2, HEARTS, 4, (70, 92), (3, 5), (0, 0), (20, 0))
    assert not made and marks == (20, 4 * (160 + 100))


def test_score_capot_transfers_announcements_not_belote_and_k_250():
    made, marks, ann = E.score(1, 0, HEARTS, 2, (0, 252), (0, 8), (50, 0), (20, 0))
    assert made and ann == (0, 50) and marks == (20, 2 * (250 + 50 + 80))


def test_score_capot_bid_needs_all_eight_tricks():
    made, marks, _ = E.score(0, CAPOT, HEARTS, 1, (152, 10), (7, 1), (0, 0), (0, 0))
    assert not made and marks == (0, 160 + 250)
    made, marks, _ = E.score(0, CAPOT, HEARTS, 1, (252, 0), (8, 0), (0, 0), (0, 0))
    # 252 + 250 = 502 → 500
    assert made and marks == (500, 0)


# --- partie ----------------------------------------------------------------------------


def test_partie_one_eligible_team_wins():
    assert E.partie_step((1900, 1000), (False, False), (180, 70), (5, 3), 0, True) == (
        0, (2080, 1070), (False, False))


def test_partie_both_eligible_higher_total_wins_equal_plays_on():
    assert E.partie_step((1950, 1950), (False, False), (180, 70), (5, 3), 0, True)[0] == 0
    assert E.partie_step((1950, 2060), (False, False), (180, 70), (5, 3), 0, True)[0] == -1


def test_partie_belote_only_crossing_while_failing_is_pending_until_a_trick():
    w, tot, pend = E.partie_step((1990, 1000), (False, False), (20, 250), (2, 6), 0, False)
    assert (w, tot, pend) == (-1, (2010, 1250), (True, False))
    # a later donne without a trick: still pending
    assert E.partie_step(tot, pend, (0, 0), (0, 0), -1, False) == (
        -1, (2010, 1250), (True, False))
    # a later donne with a trick: eligible, wins
    assert E.partie_step(tot, pend, (20, 250), (1, 7), 1, True) == (
        0, (2030, 1500), (False, False))


def test_partie_belote_only_crossing_while_capot_defence_is_pending():
    w, _, pend = E.partie_step((1990, 1000), (False, False), (20, 500), (0, 8), 1, True)
    assert w == -1 and pend == (True, False)


# --- agreement with the reference engine on random positions ---------------------------


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(20240607)


def _deal(rng) -> list[list[int]]:
    deck = rng.permutation(32)
    return [sorted(int(c) for c in deck[8 * s: 8 * s + 8]) for s in range(4)]


def test_play_kernels_agree_with_reference_on_random_positions(rng):
    for _ in range(3000):
        hands = _deal(rng)
        trump = int(rng.integers(0, 6))
        n = int(rng.integers(0, 4))
        trick = [hands[(1 + p) % 4][int(rng.integers(0, 8))] for p in range(n)]
        hand = hands[0]
        assert E.legal_cards(hand, trick, trump) == ref.legal_cards(hand, trick, trump)
        full = [*trick, hand[int(rng.integers(0, 8))]]
        assert E.trick_winner(full, trump) == ref.trick_winner(full, trump)
        # the incremental form the simulation may use: beats() one card at a time
        best = 0
        for p in range(1, len(full)):
            if play.beats(full[p], full[best], full[0] >> 3, trump):
                best = p
        assert best == ref.trick_winner(full, trump)


def _biased_hand(rng) -> list[int]:
    """A random 8-card hand rich in carrés and runs (to exercise declarations)."""
    cards: set[int] = set()
    for r in rng.choice(8, size=int(rng.integers(0, 3)), replace=False):
        cards |= {s * 8 + int(r) for s in range(4)}
    while len(cards) < 8:
        s = int(rng.integers(0, 4))
        top = int(rng.integers(2, 8))
        for r in range(top, max(-1, top - int(rng.integers(1, 6))), -1):
            if len(cards) < 8:
                cards.add(s * 8 + r)
    return sorted(cards)[:8]


def test_announcement_kernels_agree_with_reference(rng):
    for _ in range(1500):
        trump = int(rng.integers(0, 6))
        hand = _biased_hand(rng)
        want = [a.as_row() for a in ref.declaration(hand, trump)]
        assert E.declaration(hand, trump) == want, hand
        hands = [_biased_hand(rng) for _ in range(4)]
        declare = tuple(bool(x) for x in rng.integers(0, 2, size=4))
        got = E.team_announcements(hands, trump, declare)
        assert got == ref.team_announcements(hands, trump, declare).points
        assert E.belote(hands, trump) == ref.belote(hands, trump)


def test_auction_kernel_agrees_with_reference_on_random_sequences(rng):
    codes = [PASS, PASS, PASS, COINCHE, SURCOINCHE, 3] + [
        bid_code(lv, k) for lv in range(CAPOT + 2) for k in range(6)]
    for _ in range(2000):
        dealer = int(rng.integers(0, 4))
        seq = [codes[int(i)] for i in rng.integers(0, len(codes), size=int(rng.integers(1, 9)))]
        got = E.auction(dealer, seq)
        a = ref.Auction(dealer)
        index = reason = None
        for i, c in enumerate(seq):
            r = a.check(c)
            if r:
                index, reason = i, r
                break
            a.apply(c)
        assert (got["index"], got["reason"]) == (index, reason), seq
        if got["taker"] is not None:
            assert (got["taker"], got["level"], got["kind"], got["coinche"]) == (
                a.bidder, a.level, a.kind, a.coinche)


def test_scoring_kernels_agree_with_reference(rng):
    for _ in range(3000):
        t = int(rng.integers(0, 2))
        level = int(rng.integers(0, CAPOT + 1))
        coinche = int(rng.choice([1, 2, 4]))
        tricks_t = int(rng.integers(0, 9))
        if tricks_t == 8:
            cp_t = 252
        elif tricks_t == 0:
            cp_t = 0
        else:
            cp_t = int(rng.integers(0, 163))
        cp = [0, 0]
        cp[t], cp[1 - t] = cp_t, (162 - cp_t if 0 < tricks_t < 8 else 252 - cp_t)
        tw = [0, 0]
        tw[t], tw[1 - t] = tricks_t, 8 - tricks_t
        ann = [0, 0]
        ann[int(rng.integers(0, 2))] = int(rng.choice([0, 20, 50, 100, 150, 270]))
        bel = [int(rng.choice([0, 20])), 0]
        if rng.integers(0, 2):
            bel.reverse()
        d = ref.score_donne(t, level, 1, coinche, cp, tw, ann, bel)
        assert E.score(t, level, 1, coinche, tuple(cp), tuple(tw), tuple(ann), tuple(bel)) == (
            d.made, d.marks, d.announcements)
        totals = (int(rng.integers(1500, 2100)), int(rng.integers(1500, 2100)))
        pending = (bool(rng.integers(0, 2)) and totals[0] >= 2000,
                   bool(rng.integers(0, 2)) and totals[1] >= 2000)
        assert E.partie_step(totals, pending, d.marks, tw, t, d.made) == ref.partie_step(
            totals, pending, d.marks, tw, t, d.made)
