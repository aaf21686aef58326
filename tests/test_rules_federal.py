"""Every rule of the ``federal`` profile (RULES.md, source 000) pinned with hand-picked cards.

Each test runs on every engine of the ``engine`` fixture (reference, and the numba kernels
when their adapter is importable). Cards are named constants of :mod:`simcoinche.rules.cards`
(``JH``, ``TS``…); Python names cannot start with a digit, so sevens, eights and nines are
spelled suit first here: ``S7`` is the seven of spades, ``H9`` the nine of hearts.
"""

from __future__ import annotations

import pytest

from simcoinche.rules import actions as act
from simcoinche.rules import cards as C
from simcoinche.rules.cards import (
    AC,
    ACE,
    AD,
    AH,
    AS,
    C7,
    C8,
    C9,
    CLUBS,
    D7,
    D8,
    D9,
    DIAMONDS,
    H7,
    H8,
    H9,
    HEARTS,
    JACK,
    JC,
    JD,
    JH,
    JS,
    KC,
    KD,
    KH,
    KING,
    KS,
    NINE,
    QC,
    QD,
    QH,
    QS,
    QUEEN,
    S7,
    S8,
    S9,
    SPADES,
    TC,
    TD,
    TEN,
    TH,
    TS,
)
from simcoinche.rules.profiles import FEDERAL

CAPOT = len(FEDERAL.bid_values)  # ladder level of a capot bid


def level(value: int) -> int:
    """Ladder level of a numeric bid value (80 → 0, 90 → 1, …)."""
    return FEDERAL.bid_values.index(value)


def codes(tokens: str) -> list[int]:
    """Auction codes of a space-separated token list."""
    return [act.parse_action(t, FEDERAL) for t in tokens.split()]


# ---------------------------------------------------------------------------------------
# Legal cards — RULES.md "Legal cards (T = trump suit, L = led suit)"
# ---------------------------------------------------------------------------------------


def test_leader_may_play_any_card(engine):
    hand = [S7, KS, JH, AD]
    assert engine.legal_cards(hand, [], HEARTS) == set(hand)


def test_holding_led_suit_must_follow(engine):
    # "Holding L: must play L." (no need to go higher in a plain suit)
    assert engine.legal_cards([S7, KS, JH, AD], [AS], HEARTS) == {S7, KS}


def test_trump_led_must_play_higher_trump_even_over_partner(engine):
    # "If L = T, must play a trump higher than the highest trump in the trick when holding
    # one (even over the partner)": the partner led 9H and wins; only JH beats it.
    assert engine.legal_cards([JH, AH, H7, AS], [H9, H8], HEARTS) == {JH}


def test_trump_led_without_higher_trump_any_trump(engine):
    # "... else any trump."
    assert engine.legal_cards([H7, AH, AS], [JH], HEARTS) == {H7, AH}


def test_trump_led_and_void_in_trumps_any_card(engine):
    # "L = T and void in trumps → any card."
    assert engine.legal_cards([AS, D7, KC], [JH], HEARTS) == {AS, D7, KC}


def test_void_and_partner_wins_any_card(engine):
    # "Void in L, L ≠ T: partner currently wins the trick → any card"
    assert engine.legal_cards([H7, AD, KC], [AS, S7], HEARTS) == {H7, AD, KC}


def test_void_and_partner_wins_with_a_trump_any_card(engine):
    # partner (position 1) trumped, the opponent at position 2 discarded
    assert engine.legal_cards([H7, AH, AD], [AS, H8, S7], HEARTS) == {H7, AH, AD}


def test_void_no_trump_in_trick_must_trump_any_trump(engine):
    # "holding trumps and no trump in the trick yet → any trump" (even a low one)
    assert engine.legal_cards([H7, JH, AD], [AS], HEARTS) == {H7, JH}


def test_void_opponent_wins_without_trump_must_trump(engine):
    # the partner's KS is beaten by the opponent's AS: must trump, any trump
    assert engine.legal_cards([H7, JH, AD], [KS, AS], HEARTS) == {H7, JH}


def test_void_opponent_trump_wins_must_overtrump(engine):
    # "an opponent's trump wins the trick → a higher trump if holding one"
    assert engine.legal_cards([H7, AH, H9, KD], [AS, TH], HEARTS) == {AH, H9}


def test_void_opponent_trump_wins_at_third_position_must_overtrump(engine):
    # positions 0 and 2 are opponents, the partner's AS was trumped by 9H
    assert engine.legal_cards([JH, H7, D7], [KS, AS, H9], HEARTS) == {JH}


def test_void_unbeatable_opponent_trump_may_discard_or_undertrump(engine):
    # "si l'atout adverse est imbattable, vous pouvez défausser au lieu de sous-couper"
    assert engine.legal_cards([H7, H9, KD], [AS, JH], HEARTS) == {H7, H9, KD}


def test_void_without_trumps_any_card(engine):
    # "no trumps → any card"
    assert engine.legal_cards([D7, KC, TD], [AS], HEARTS) == {D7, KC, TD}


# ---------------------------------------------------------------------------------------
# Trick winner — "won by the highest trump in it, else by the highest card of the led suit"
# ---------------------------------------------------------------------------------------


def test_highest_trump_wins_the_trick(engine):
    assert engine.trick_winner([AS, H7, KS, H8], HEARTS) == 3


def test_trump_order_jack_nine_ace_ten(engine):
    assert engine.trick_winner([H9, TH, AH, JH], HEARTS) == 3
    assert engine.trick_winner([AH, H9, TH], HEARTS) == 1
    assert engine.trick_winner([KH, TH, QH], HEARTS) == 1


def test_highest_card_of_led_suit_wins_without_trump(engine):
    assert engine.trick_winner([KS, AS, TS, QS], HEARTS) == 1


def test_plain_order_ten_above_king_and_jack_above_nine(engine):
    assert engine.trick_winner([KS, TS], HEARTS) == 1
    assert engine.trick_winner([S9, JS, S8], HEARTS) == 1


def test_off_suit_discard_never_wins(engine):
    assert engine.trick_winner([S7, AD, AC, S8], HEARTS) == 3
    assert engine.trick_winner([D7, AS, AC, TS], HEARTS) == 0


# ---------------------------------------------------------------------------------------
# Card points — "Orders and points"
# ---------------------------------------------------------------------------------------


def test_trump_card_points_j20_9_14_a11_t10_k4_q3(engine):
    got = [engine.card_points(C.card(r, HEARTS), HEARTS) for r in range(8)]
    assert got == [0, 0, 14, 10, 20, 3, 4, 11]  # 7 8 9 T J Q K A


def test_plain_card_points_a11_t10_k4_q3_j2(engine):
    got = [engine.card_points(C.card(r, SPADES), HEARTS) for r in range(8)]
    assert got == [0, 0, 0, 10, 2, 3, 4, 11]


@pytest.mark.parametrize("trump", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_152_points_in_the_cards(engine, trump):
    assert sum(engine.card_points(c, trump) for c in range(32)) == 152


# ---------------------------------------------------------------------------------------
# Announcements — declaration of one seat
# ---------------------------------------------------------------------------------------


def test_carre_of_jacks_200(engine):
    assert engine.declaration([JS, JH, JD, JC, S7, D9, QC, AH], HEARTS) == [
        (0, JACK, -1, 4, 200)]


def test_carre_of_nines_150(engine):
    assert engine.declaration([S9, H9, D9, C9, S7, JD, QC, AH], HEARTS) == [
        (0, NINE, -1, 4, 150)]


@pytest.mark.parametrize("rank", [ACE, TEN, KING, QUEEN])
def test_carre_of_aces_tens_kings_queens_100(engine, rank):
    four = [C.card(rank, s) for s in range(4)]
    others = [S7, D9, C8]
    assert engine.declaration(four + others, CLUBS) == [(0, rank, -1, 4, 100)]


def test_no_carre_of_sevens_or_eights(engine):
    assert engine.declaration([S7, H7, D7, C7, S8, H8, D8, C8], HEARTS) == []


def test_tierce_20(engine):
    assert engine.declaration([TS, JS, QS, H7, D9, AC], HEARTS) == [(1, QUEEN, SPADES, 3, 20)]


def test_suite_of_four_50(engine):
    assert engine.declaration([H9, TH, JH, QH, S7, AC], SPADES) == [(1, QUEEN, HEARTS, 4, 50)]


def test_suite_of_five_100(engine):
    assert engine.declaration([TD, JD, QD, KD, AD, S7, H8], SPADES) == [
        (1, ACE, DIAMONDS, 5, 100)]


def test_run_of_eight_counts_one_100_of_its_top_five(engine):
    spades = [C.card(r, SPADES) for r in range(8)]
    assert engine.declaration(spades, HEARTS) == [(1, ACE, SPADES, 5, 100)]


def test_run_of_six_counts_one_100_and_its_lowest_card_nothing(engine):
    # 8S..KS: 100 made of 9S..KS; no tierce from the 8S
    assert engine.declaration([S8, S9, TS, JS, QS, KS, AH, D7], HEARTS) == [
        (1, KING, SPADES, 5, 100)]


def test_two_suites_in_one_hand_best_first(engine):
    assert engine.declaration([S7, S8, S9, TH, JH, QH, KH, AC], CLUBS) == [
        (1, KING, HEARTS, 4, 50), (1, NINE, SPADES, 3, 20)]


def test_a_card_serves_once_carre_kept_and_tierce_from_the_rest(engine):
    # carré of queens + 9S TS JS: 100 + 20 = 120, better than the 100 of 9S..KS
    hand = [S9, TS, JS, QS, KS, QH, QD, QC]
    assert engine.declaration(hand, HEARTS) == [
        (0, QUEEN, -1, 4, 100), (1, JACK, SPADES, 3, 20)]


def test_overlap_tie_keeps_the_best_single_announcement(engine):
    # carré of queens (100, TS JS KS AS left: no run) or TS..AS (100, three queens left):
    # equal totals, the carré is the better single announcement
    hand = [TS, JS, QS, KS, AS, QH, QD, QC]
    assert engine.declaration(hand, HEARTS) == [(0, QUEEN, -1, 4, 100)]


def test_two_carres_declared_best_first(engine):
    hand = [JS, JH, JD, JC, S9, H9, D9, C9]
    assert engine.declaration(hand, HEARTS) == [(0, JACK, -1, 4, 200), (0, NINE, -1, 4, 150)]


# ---------------------------------------------------------------------------------------
# Announcements — the comparison between teams
# ---------------------------------------------------------------------------------------


def test_carre_beats_any_suite(engine):
    # carré of queens (100) against 7S..JS (100)
    hands = [[QS, QH, QD, QC], [S7, S8, S9, TS, JS], [], []]
    assert engine.team_announcements(hands, HEARTS) == (100, 0)


def test_carres_rank_by_value_nines_over_aces(engine):
    hands = [[S9, H9, D9, C9], [AS, AH, AD, AC], [], []]
    assert engine.team_announcements(hands, HEARTS) == (150, 0)


def test_carres_of_100_rank_by_height_ace_over_king(engine):
    hands = [[KS, KH, KD, KC], [AS, AH, AD, AC], [], []]
    assert engine.team_announcements(hands, HEARTS) == (0, 100)


def test_carre_of_tens_beats_carre_of_kings_and_queens(engine):
    hands = [[QS, QH, QD, QC], [], [], [TS, TH, TD, TC]]
    assert engine.team_announcements(hands, HEARTS) == (0, 100)


def test_suites_rank_by_length_category_first(engine):
    # team 0: two tierces to the ace; team 1: a 50 to the jack — the 50 wins
    hands = [[QS, KS, AS], [S8, S9, TS, JS], [QD, KD, AD], []]
    assert engine.team_announcements(hands, HEARTS) == (0, 50)


def test_suites_rank_by_top_card_then(engine):
    hands = [[JD, QD, KD], [QC, KC, AC], [], []]
    assert engine.team_announcements(hands, HEARTS) == (0, 20)


def test_trump_suite_beats_equal_plain_suite(engine):
    hands = [[QS, KS, AS], [QH, KH, AH], [], []]
    assert engine.team_announcements(hands, HEARTS) == (0, 20)
    assert engine.team_announcements(hands, SPADES) == (20, 0)


def test_complete_tie_cancels_both_teams(engine):
    # same category, same top card, both plain: nobody scores, not even the other tierce
    hands = [[QS, KS, AS], [QD, KD, AD], [S7, S8, S9], []]
    assert engine.team_announcements(hands, HEARTS) == (0, 0)


def test_better_team_scores_all_its_announcements(engine):
    # team 0 best is the 50; its partner's tierce (lower than team 1's) counts too
    hands = [[H8, H9, TH, JH], [QD, KD, AD], [S7, S8, S9], []]
    assert engine.team_announcements(hands, CLUBS) == (70, 0)


def test_team_with_no_announcement_loses(engine):
    hands = [[AS, AH, KD], [S7, S8, S9], [], []]
    assert engine.team_announcements(hands, HEARTS) == (0, 20)


def test_no_announcement_at_all_scores_nothing(engine):
    hands = [[AS, AH, KD], [S7, S9], [TC], [JD]]
    assert engine.team_announcements(hands, HEARTS) == (0, 0)


def test_seat_not_declaring_announces_nothing(engine):
    hands = [[JS, JH, JD, JC], [S7, S8, S9], [], []]
    assert engine.team_announcements(hands, HEARTS, (False, True, True, True)) == (0, 20)


# ---------------------------------------------------------------------------------------
# Belote — "the player holding K and Q of trumps scores 20 for the team"
# ---------------------------------------------------------------------------------------


def test_belote_20_to_the_team_of_the_holder(engine):
    hands = [[AS], [KD], [TS], [KH, QH, H7]]
    assert engine.belote(hands, HEARTS) == (0, 20)


def test_belote_split_between_partners_counts_nothing(engine):
    assert engine.belote([[KH], [S7], [QH], [S8]], HEARTS) == (0, 0)


def test_belote_only_in_trumps(engine):
    assert engine.belote([[KS, QS], [S7], [S8], [S9]], HEARTS) == (0, 0)


def test_belote_counted_outside_the_comparison(engine):
    # team 0 wins the comparison; team 1 still has its belote
    hands = [[S7, S8, S9], [KH, QH], [], []]
    assert engine.team_announcements(hands, HEARTS) == (20, 0)
    assert engine.belote(hands, HEARTS) == (0, 20)


def test_belote_may_also_sit_in_a_suite(engine):
    hands = [[QH, KH, AH], [], [], []]
    assert engine.team_announcements(hands, HEARTS) == (20, 0)
    assert engine.belote(hands, HEARTS) == (20, 0)


# ---------------------------------------------------------------------------------------
# Scoring of a donne — engine.score(taker_team, level, kind, coinche, C, tricks, A, B)
# ---------------------------------------------------------------------------------------


def test_not_coinched_made_takers_total_plus_bid_defence_total(engine):
    made, marks, ann = engine.score(0, level(80), HEARTS, 1, (100, 62), (5, 3), (20, 0),
                                    (0, 20))
    # takers 100 + 20 + 80 = 200; defence 62 + 20 = 82 → 80
    assert (made, marks, ann) == (True, (200, 80), (20, 0))


def test_not_coinched_made_by_team_one(engine):
    made, marks, _ = engine.score(1, level(100), SPADES, 1, (52, 110), (2, 6), (0, 0), (0, 0))
    assert (made, marks) == (True, (50, 210))


def test_not_coinched_failed_takers_belote_defence_160_plus_all(engine):
    # T_t = 90 + 0 + 20 = 110 < 120: failed; defence 160 + 0 + 20 + 0 + 120 = 300
    made, marks, ann = engine.score(0, level(120), HEARTS, 1, (90, 72), (4, 4), (0, 20),
                                    (20, 0))
    assert (made, marks, ann) == (False, (20, 300), (0, 20))


def test_coinched_made_takers_double_160_plus_bid(engine):
    # 2 × (160 + 20 + 0 + 0 + 80) = 520; defence its belote only
    made, marks, _ = engine.score(0, level(80), HEARTS, 2, (100, 62), (5, 3), (20, 0),
                                  (0, 20))
    assert (made, marks) == (True, (520, 20))


def test_surcoinched_made_takers_quadruple(engine):
    made, marks, _ = engine.score(0, level(80), HEARTS, 4, (100, 62), (5, 3), (20, 0),
                                  (0, 20))
    assert (made, marks) == (True, (1040, 20))


def test_coinched_failed_takers_belote_not_multiplied(engine):
    # T_t = 80 + 0 + 20 = 100 ≥ 100 but T_d = 82 + 50 = 132: failed
    made, marks, _ = engine.score(0, level(100), HEARTS, 2, (80, 82), (3, 5), (0, 50),
                                  (20, 0))
    assert (made, marks) == (False, (20, 2 * (160 + 50 + 100)))


def test_surcoinched_failed_defence_quadruple(engine):
    made, marks, _ = engine.score(0, level(100), HEARTS, 4, (80, 82), (3, 5), (0, 50),
                                  (20, 0))
    assert (made, marks) == (False, (20, 4 * (160 + 50 + 100)))


def test_capot_made_without_capot_bid_cards_252(engine):
    # 252 + 80 = 332 → 330
    made, marks, _ = engine.score(0, level(80), HEARTS, 1, (252, 0), (8, 0), (0, 0), (0, 0))
    assert (made, marks) == (True, (330, 0))


def test_capot_made_coinched_counts_250_instead_of_160(engine):
    made, marks, _ = engine.score(1, level(80), HEARTS, 2, (0, 252), (0, 8), (0, 0), (0, 0))
    assert (made, marks) == (True, (0, 2 * (250 + 80)))


def test_capot_bid_made(engine):
    # 252 + 250 = 502 → 500
    made, marks, _ = engine.score(0, CAPOT, SPADES, 1, (252, 0), (8, 0), (0, 0), (0, 0))
    assert (made, marks) == (True, (500, 0))


def test_capot_bid_fails_when_a_trick_is_lost(engine):
    # T_t = 150 + 200 = 350 ≥ 250 and > T_d, but 7 tricks: "a capot bid also requires
    # all 8 tricks"
    made, marks, _ = engine.score(0, CAPOT, SPADES, 1, (150, 12), (7, 1), (200, 0), (0, 0))
    assert (made, marks) == (False, (0, 160 + 200 + 250))


def test_capot_transfers_defence_announcements_but_not_belote(engine):
    # "If the takers win all 8 tricks, A_t += A_d and A_d = 0 (belote is not transferred)."
    made, marks, ann = engine.score(0, level(80), HEARTS, 1, (252, 0), (8, 0), (0, 50),
                                    (0, 20))
    # takers 252 + 50 + 80 = 382 → 380; defence its belote 20
    assert (made, marks, ann) == (True, (380, 20), (50, 0))


def test_no_transfer_when_the_defence_wins_every_trick(engine):
    made, marks, ann = engine.score(0, level(80), HEARTS, 1, (0, 252), (0, 8), (50, 0),
                                    (0, 0))
    assert (made, marks, ann) == (False, (0, 160 + 50 + 80), (50, 0))


def test_tie_fails(engine):
    made, marks, _ = engine.score(0, level(80), HEARTS, 1, (81, 81), (4, 4), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 240))


def test_made_is_decided_before_any_rounding(engine):
    # 79 would round to 80, but "T_t ≥ bid ... before any rounding": failed
    made, marks, _ = engine.score(0, level(80), HEARTS, 1, (79, 83), (4, 4), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 240))


def test_rounding_half_up_85_to_90(engine):
    # takers 77 + belote 20 = 97 > 85: made; 177 → 180, defence 85 → 90
    made, marks, _ = engine.score(0, level(80), HEARTS, 1, (77, 85), (4, 4), (0, 0), (20, 0))
    assert (made, marks) == (True, (180, 90))


def test_rounding_84_down_to_80(engine):
    made, marks, _ = engine.score(0, level(80), HEARTS, 1, (78, 84), (4, 4), (0, 0), (20, 0))
    assert (made, marks) == (True, (180, 80))


def test_worked_example_90_hearts_takers_89_fail_0_and_250(engine):
    # "90 hearts, takers total 89, nothing else: failed; takers 0, defence 160 + 90 = 250."
    made, marks, _ = engine.score(0, level(90), HEARTS, 1, (89, 73), (4, 4), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 250))


def test_belote_protected_when_failing(engine):
    made, marks, _ = engine.score(1, level(160), HEARTS, 1, (60, 102), (3, 5), (0, 0),
                                  (20, 20))
    assert (made, marks) == (False, (160 + 0 + 20 + 160, 20))


# ---------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------


def test_four_passes_pass_the_donne_out(engine):
    r = engine.auction(0, codes("pass pass pass pass"))
    assert r["status"] == "passed_out" and r["index"] is None


def test_first_speaker_is_the_seat_after_the_dealer(engine):
    assert engine.auction(3, [])["to_speak"] == 0
    assert engine.auction(1, codes("pass"))["to_speak"] == 3


def test_three_passes_after_a_bid_end_the_auction(engine):
    r = engine.auction(0, codes("80H pass pass pass"))
    assert r["status"] == "contract"
    assert (r["taker"], r["level"], r["kind"], r["coinche"]) == (1, level(80), HEARTS, 1)


def test_two_passes_after_a_bid_do_not_end_it(engine):
    r = engine.auction(0, codes("80H pass pass"))
    assert r["status"] == "running" and r["to_speak"] == 0


def test_passing_does_not_stop_bidding_later(engine):
    # seat 1 passes, then outbids at its next turn
    r = engine.auction(0, codes("pass pass 80S pass 90H pass pass pass"))
    assert r["status"] == "contract"
    assert (r["taker"], r["level"], r["kind"]) == (1, level(90), HEARTS)


def test_capot_beats_every_number(engine):
    r = engine.auction(0, codes("160S capotH pass pass pass"))
    assert r["status"] == "contract" and (r["taker"], r["level"], r["kind"]) == (2, CAPOT,
                                                                                  HEARTS)


def test_nothing_outbids_capot(engine):
    r = engine.auction(0, codes("capotH capotS"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 1, act.R_BID_NOT_HIGHER)


def test_bid_must_be_strictly_higher(engine):
    r = engine.auction(0, codes("80H 80S"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 1, act.R_BID_NOT_HIGHER)
    r = engine.auction(0, codes("pass 100D 90C"))
    assert (r["index"], r["reason"]) == (2, act.R_BID_NOT_HIGHER)


def test_coinche_against_the_other_team(engine):
    r = engine.auction(0, codes("80H coinche pass pass pass"))
    assert r["status"] == "contract" and r["coinche"] == 2 and r["taker"] == 1


def test_cannot_coinche_own_team_bid(engine):
    r = engine.auction(0, codes("80H pass coinche"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 2, act.R_COINCHE_OWN_TEAM)


def test_coinche_at_most_once(engine):
    r = engine.auction(0, codes("80H coinche pass coinche"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 3, act.R_ALREADY_COINCHED)


def test_no_coinche_without_a_bid(engine):
    r = engine.auction(0, codes("pass coinche"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 1, act.R_COINCHE_NO_BID)


def test_no_bid_after_a_coinche(engine):
    # "It freezes the contract: no more bids by anyone." — not even the bidder's partner
    r = engine.auction(0, codes("80H coinche 90S"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 2, act.R_BID_AFTER_COINCHE)


def test_surcoinche_by_the_bidding_team_ends_the_auction(engine):
    r = engine.auction(0, codes("80H coinche surcoinche"))
    assert r["status"] == "contract" and r["coinche"] == 4 and r["taker"] == 1


def test_surcoinche_by_the_bidder_after_two_passes(engine):
    r = engine.auction(0, codes("80H coinche pass pass surcoinche"))
    assert r["status"] == "contract" and r["coinche"] == 4


def test_surcoinche_only_by_the_bidding_team(engine):
    r = engine.auction(0, codes("80H coinche pass surcoinche"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 3,
                                                      act.R_SURCOINCHE_NOT_TAKERS)


def test_no_surcoinche_without_coinche(engine):
    r = engine.auction(0, codes("80H surcoinche"))
    assert (r["index"], r["reason"]) == (1, act.R_SURCOINCHE_NO_COINCHE)


def test_three_passes_after_a_coinche_end_it_doubled(engine):
    r = engine.auction(2, codes("pass 100C coinche pass pass"))
    assert r["status"] == "running"
    r = engine.auction(2, codes("pass 100C coinche pass pass pass"))
    assert r["status"] == "contract"
    assert (r["taker"], r["level"], r["kind"], r["coinche"]) == (0, level(100), CLUBS, 2)


def test_no_action_once_the_auction_is_over(engine):
    r = engine.auction(0, codes("80H pass pass pass pass"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 4, act.R_AUCTION_OVER)
    r = engine.auction(0, codes("80H coinche surcoinche pass"))
    assert (r["index"], r["reason"]) == (3, act.R_AUCTION_OVER)
    r = engine.auction(0, codes("pass pass pass pass 80H"))
    assert (r["index"], r["reason"]) == (4, act.R_AUCTION_OVER)


# ---------------------------------------------------------------------------------------
# Partie — target 2000
# ---------------------------------------------------------------------------------------


def test_one_eligible_team_wins(engine):
    assert engine.partie_step((1900, 1500), (False, False), (160, 0), (6, 2), 0, True) == (
        0, (2060, 1500), (False, False))


def test_reaching_exactly_2000_is_eligible(engine):
    assert engine.partie_step((1500, 1920), (False, False), (0, 80), (0, 8), 1, True)[0] == 1


def test_both_over_2000_the_higher_total_wins(engine):
    winner, totals, _ = engine.partie_step((1950, 1980), (False, False), (100, 60), (5, 3),
                                           0, True)
    assert (winner, totals) == (0, (2050, 2040))


def test_both_over_2000_with_equal_totals_play_on(engine):
    winner, totals, pending = engine.partie_step((1950, 1950), (False, False), (80, 80),
                                                 (4, 4), 0, True)
    assert (winner, totals, pending) == (-1, (2030, 2030), (False, False))
    # the next donne decides
    assert engine.partie_step(totals, pending, (0, 250), (3, 5), 0, False)[0] == 1


def test_nobody_at_2000_play_on(engine):
    assert engine.partie_step((0, 0), (False, False), (160, 80), (5, 3), 0, True)[0] == -1


def test_belote_only_crossing_of_failing_takers_is_deferred(engine):
    # team 0 fails as takers, scores its belote only and crosses 2000: not yet eligible
    winner, totals, pending = engine.partie_step((1990, 1500), (False, False), (20, 250),
                                                 (3, 5), 0, False)
    assert (winner, totals, pending) == (-1, (2010, 1750), (True, False))
    # a later donne without a trick for team 0: still waiting
    winner, totals, pending = engine.partie_step(totals, pending, (0, 160), (0, 8), 1, True)
    assert (winner, pending) == (-1, (True, False))
    # a later donne in which team 0 wins a trick: eligible, and alone at 2000 (1910)
    assert engine.partie_step((2010, 1750), (True, False), (0, 160), (1, 7), 1, True) == (
        0, (2010, 1910), (False, False))


def test_belote_only_crossing_of_a_capot_defence_is_deferred(engine):
    # team 1 defends, wins no trick, crosses with its belote; team 0 stays under 2000
    winner, totals, pending = engine.partie_step((1500, 1990), (False, False), (330, 20),
                                                 (8, 0), 0, True)
    assert (winner, totals, pending) == (-1, (1830, 2010), (False, True))


def test_belote_only_crossing_while_the_other_team_is_eligible(engine):
    # team 0 is eligible; team 1's belote-only crossing does not count yet: team 0 wins
    winner, _, pending = engine.partie_step((1950, 1990), (False, False), (250, 20), (6, 2),
                                            1, False)
    assert (winner, pending) == (0, (False, True))


def test_dealer_moves_after_every_donne_including_a_passed_out_one():
    # "The dealer moves to D+1 after every donne, a passed-out one included." (the Partie
    # bookkeeping is reference-only: the kernels handle the dealer in the simulation loop)
    from simcoinche.rules.reference import Partie

    partie = Partie(dealer=3)
    assert partie.record((0, 0), (0, 0), -1, False) == -1  # passed out
    assert partie.dealer == 0
    assert partie.record((1000, 0), (8, 0), 0, True) == -1
    assert partie.record((1000, 0), (8, 0), 0, True) == 0
    assert (partie.dealer, partie.totals, partie.n_donnes) == (2, (2000, 0), 3)
