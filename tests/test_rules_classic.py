"""Every difference of the ``classic`` profile (RULES.md, source 002) pinned with hand-picked
cards, on every engine of the ``engine`` fixture.

Sevens, eights and nines are spelled suit first (``H7`` the seven of hearts), as in
``test_rules_federal.py``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from simcoinche.rules import actions as act
from simcoinche.rules import cards as C
from simcoinche.rules.cards import (
    AC,
    AH,
    AS,
    C7,
    C8,
    C9,
    CLUBS,
    D7,
    D8,
    DIAMONDS,
    H7,
    H8,
    H9,
    HEARTS,
    JC,
    JD,
    JH,
    JS,
    KC,
    KD,
    KH,
    KS,
    QC,
    QD,
    QH,
    QS,
    S7,
    S8,
    S9,
    SANS_ATOUT,
    SPADES,
    TOUT_ATOUT,
    TS,
)
from simcoinche.rules.profiles import CLASSIC, FEDERAL

SA, TA = SANS_ATOUT, TOUT_ATOUT
CAPOT = len(CLASSIC.bid_values)
GENERALE = CAPOT + 1


def level(value: int) -> int:
    """Ladder level of a numeric classic bid (80 → 0, …, 180 → 10)."""
    return CLASSIC.bid_values.index(value)


def codes(tokens: str, profile=CLASSIC) -> list[int]:
    return [act.parse_action(t, profile) for t in tokens.split()]


@pytest.fixture
def eng(engine):
    """The engine of the ``engine`` fixture, bound to the classic profile."""
    return type(engine)("classic")


# ---------------------------------------------------------------------------------------
# Deal — "Deal rounds 3-2-3 (3-3-2, 2-3-3 and 4-4 as options). No cut constraint beyond ≥1."
# ---------------------------------------------------------------------------------------


def test_deal_rounds_3_2_3_and_cut_of_at_least_one_card():
    assert (CLASSIC.deal_rounds, CLASSIC.cut_min, CLASSIC.auction_cards) == ((3, 2, 3), 1, 8)


def test_auction_held_on_the_whole_hand_dealt_3_2_3_from_the_seat_after_the_dealer(eng):
    deck = list(range(32))
    # cut 1: the top card is deck[1]; dealer 3, so seat 0 receives cards 1-3, 13-14, 21-23
    hands = eng.auction_hands(deck, 1, 3)
    assert hands[0] == {1, 2, 3, 13, 14, 21, 22, 23}
    assert hands[3] == {10, 11, 12, 19, 20, 30, 31, 0}


def test_deal_option_4_4(engine):
    e = type(engine)(replace(CLASSIC, deal_rounds=(4, 4, 0)))
    hands = e.auction_hands(list(range(32)), 0, 0)
    assert hands[1] == {0, 1, 2, 3, 16, 17, 18, 19}


# ---------------------------------------------------------------------------------------
# Contracts: TA and SA with their own point tables
# ---------------------------------------------------------------------------------------


def test_tout_atout_points_j14_9_9_a6_t4_k3_q2(eng):
    # "TA: every suit uses the trump order with points J 14, 9 9, A 6, T 4, K 3, Q 2, 8 0, 7 0"
    for suit in (SPADES, CLUBS):
        got = [eng.card_points(C.card(r, suit), TA) for r in range(8)]
        assert got == [0, 0, 9, 4, 14, 2, 3, 6]  # 7 8 9 T J Q K A


def test_sans_atout_points_a19_t10_k4_q3_j2(eng):
    # "SA: every suit uses the plain order with points A 19, T 10, K 4, Q 3, J 2, 9 8 7 0"
    got = [eng.card_points(C.card(r, DIAMONDS), SA) for r in range(8)]
    assert got == [0, 0, 0, 10, 2, 3, 4, 19]


@pytest.mark.parametrize("kind", [SA, TA, HEARTS])
def test_ta_and_sa_both_total_152(eng, kind):
    assert sum(eng.card_points(c, kind) for c in range(32)) == 152


def test_tout_atout_trick_won_in_the_led_suit_in_trump_order(eng):
    # J > 9 > A in the led suit; a jack of another suit does not cut
    assert eng.trick_winner([KS, S9, AS, JH], TA) == 1
    assert eng.trick_winner([AS, S9, JS, S7], TA) == 2


def test_sans_atout_trick_won_in_the_led_suit_in_plain_order(eng):
    assert eng.trick_winner([KS, TS, AH, JS], SA) == 1
    assert eng.trick_winner([S9, JS], SA) == 1


# ---------------------------------------------------------------------------------------
# Legal cards
# ---------------------------------------------------------------------------------------


def test_must_undertrump_over_an_unbeatable_opponent_trump(eng, engine):
    # "when an opponent's trump cannot be beaten, a player holding trumps must still play
    # a trump (undertrump)": partner led AS, the opponent trumped with JH
    assert eng.legal_cards([H7, KD, AC], [AS, JH], HEARTS) == {H7}
    # federal may discard instead
    assert engine.legal_cards([H7, KD, AC], [AS, JH], HEARTS) == {H7, KD, AC}


def test_partner_winning_void_may_discard(eng):
    assert eng.legal_cards([H7, KD], [AS, S7], HEARTS) == {H7, KD}


def test_void_opponent_trump_must_overtrump_if_able(eng):
    assert eng.legal_cards([H7, JH, KD], [AS, H9], HEARTS) == {JH}


def test_tout_atout_follow_and_go_higher_in_the_led_suit(eng):
    # "In TA the led suit is trump: follow and go higher in it if possible"
    assert eng.legal_cards([S7, S9, JS, KD], [AS], TA) == {S9, JS}
    assert eng.legal_cards([S7, S8, KD], [JS], TA) == {S7, S8}


def test_tout_atout_void_any_card(eng):
    assert eng.legal_cards([KD, H7, C8], [AS], TA) == {KD, H7, C8}


def test_sans_atout_follow_no_need_to_go_higher_void_any_card(eng):
    assert eng.legal_cards([S7, AS, KD], [KS], SA) == {S7, AS}
    assert eng.legal_cards([KD, C7], [KS], SA) == {KD, C7}


# ---------------------------------------------------------------------------------------
# Announcements: "No carrés or suites. Belote: K+Q of the trump suit, 20; in TA one belote
# per suit whose K+Q one player holds; none in SA."
# ---------------------------------------------------------------------------------------


def test_no_carres_or_suites(eng):
    assert eng.declaration([JS, JH, JD, JC, TS, QS, KS, AS], HEARTS) == []
    hands = [[JS, JH, JD, JC], [S7, S8, S9, TS, JS], [], []]
    assert eng.team_announcements(hands, HEARTS) == (0, 0)


def test_belote_king_and_queen_of_trumps_20(eng):
    assert eng.belote([[KH, QH], [KS, QS], [], []], HEARTS) == (20, 0)


def test_tout_atout_one_belote_per_suit(eng):
    hands = [[KS, QS, KH, QH], [KD, QD], [KC], [QC]]
    assert eng.belote(hands, TA) == (40, 20)


def test_no_belote_at_sans_atout(eng):
    assert eng.belote([[KS, QS, KH, QH], [KD, QD], [], []], SA) == (0, 0)


# ---------------------------------------------------------------------------------------
# Hand annulment — "a player with ≤ 10 points (plain values) and no jack may annul"
# ---------------------------------------------------------------------------------------


def test_hand_of_10_points_without_jack_may_annul(eng):
    # TS (10) + 7s, 8s, 9s: exactly 10 points at plain values
    assert eng.annulment_allowed([TS, S7, H8, H9, D7, D8, C7, C9])


def test_hand_of_11_points_may_not_annul(eng):
    # KS QD QC: 4 + 3 + 3 = 10; + AS would be 21; KS KD QC = 11
    assert not eng.annulment_allowed([KS, KD, QC, S7, H8, H9, D7, C9])
    assert eng.annulment_allowed([KS, QD, QC, S7, H8, H9, D7, C9])


def test_hand_with_a_jack_may_not_annul(eng):
    # JS is 2 points only, but "no jack"
    assert not eng.annulment_allowed([JS, S7, H8, H9, D7, D8, C7, C9])


def test_annulment_is_a_classic_option_off_elsewhere(engine):
    poor = [S7, S8, H7, H8, D7, D8, C7, C8]
    assert not engine.annulment_allowed(poor)  # federal
    off = type(engine)(replace(CLASSIC, annul_max_points=-1))
    assert not off.annulment_allowed(poor)
    assert type(engine)("classic").annulment_allowed(poor)


# ---------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------


def test_ladder_80_to_180_then_capot_then_generale(eng):
    r = eng.auction(0, codes("170H 180S capotH generaleS pass pass pass"))
    assert (r["status"], r["taker"], r["level"], r["kind"]) == ("contract", 0, GENERALE,
                                                                 SPADES)
    assert CLASSIC.level_value(GENERALE) == 500


def test_generale_beats_capot_and_nothing_beats_generale(eng):
    r = eng.auction(0, codes("generaleH generaleS"))
    assert (r["index"], r["reason"]) == (1, act.R_BID_NOT_HIGHER)
    r = eng.auction(0, codes("generaleH capotS"))
    assert (r["index"], r["reason"]) == (1, act.R_BID_NOT_HIGHER)


def test_sans_atout_and_tout_atout_contracts(eng):
    r = eng.auction(1, codes("90SA 100TA pass pass pass"))
    assert (r["status"], r["taker"], r["level"], r["kind"]) == ("contract", 3, level(100), TA)


def test_three_passes_after_a_bid_end_the_auction(eng):
    assert eng.auction(0, codes("80H pass pass"))["status"] == "running"
    assert eng.auction(0, codes("80H pass pass pass"))["status"] == "contract"


def test_coinche_ends_the_auction_at_once(eng):
    r = eng.auction(0, codes("80H coinche"))
    assert (r["status"], r["coinche"], r["taker"]) == ("contract", 2, 1)


def test_no_surcoinche(eng):
    r = eng.auction(0, codes("80H coinche surcoinche"))
    assert (r["status"], r["index"], r["reason"]) == ("illegal", 2, act.R_AUCTION_OVER)
    r = eng.auction(0, codes("80H surcoinche"))
    assert (r["index"], r["reason"]) == (1, act.R_NOT_IN_PROFILE)


def test_option_nobody_coinches_an_80(engine):
    # "Option (off by default): nobody coinches an 80."
    assert type(engine)("classic").auction(0, codes("80H coinche"))["status"] == "contract"
    e = type(engine)(replace(CLASSIC, no_coinche_80=True))
    r = e.auction(0, codes("80H coinche"))
    assert (r["index"], r["reason"]) == (1, act.R_NOT_IN_PROFILE)
    assert e.auction(0, codes("90H coinche"))["status"] == "contract"


# ---------------------------------------------------------------------------------------
# Success and scoring — score(taker_team, level, kind, coinche, C, tricks, A, B)
# ---------------------------------------------------------------------------------------


def test_made_iff_points_reach_the_bid_whatever_the_defence(eng, engine):
    # 90 ≥ 90 while the defence has 72 + belote 20 = 92: made in classic, failed federal
    made, marks, _ = eng.score(0, level(90), HEARTS, 1, (90, 72), (5, 3), (0, 0), (0, 20))
    assert (made, marks) == (True, (180, 92))
    assert not engine.score(0, 1, HEARTS, 1, (90, 72), (5, 3), (0, 0), (0, 20))[0]


def test_belote_counts_toward_the_contract(eng):
    # 90 cards + 20 belote = 110 ≥ 110
    made, marks, _ = eng.score(1, level(110), SPADES, 1, (72, 90), (3, 5), (0, 0), (0, 20))
    assert (made, marks) == (True, (72, 220))


def test_made_takers_points_plus_bid_defence_points_plus_belote_no_rounding(eng):
    made, marks, _ = eng.score(0, level(100), HEARTS, 1, (107, 55), (6, 2), (0, 0), (0, 20))
    assert (made, marks) == (True, (207, 75))


def test_at_80_the_takers_need_82(eng):
    # 61 cards + 20 belote = 81 ≥ 80, but "At 80 the takers need 82"
    made, marks, _ = eng.score(0, level(80), HEARTS, 1, (61, 101), (3, 5), (0, 0), (20, 0))
    assert (made, marks) == (False, (20, 240))
    made, marks, _ = eng.score(0, level(80), HEARTS, 1, (82, 80), (4, 4), (0, 0), (0, 0))
    assert (made, marks) == (True, (162, 80))


def test_litige_at_80_81_81_nobody_scores(eng):
    # "when both teams have exactly 81 (cards + last trick + belote) it is a litige:
    # nobody scores this donne"
    r = eng.score_full(0, level(80), HEARTS, 1, (81, 81), (4, 4), (0, 0), (0, 0))
    assert (r["made"], r["marks"], r["litige"]) == (False, (0, 0), True)
    r = eng.score_full(1, level(80), TA, 2, (81, 81), (5, 3), (0, 0), (0, 0))
    assert (r["made"], r["marks"], r["litige"]) == (False, (0, 0), True)


def test_81_81_above_80_is_a_plain_failure_not_a_litige(eng):
    r = eng.score_full(0, level(90), HEARTS, 1, (81, 81), (4, 4), (0, 0), (0, 0))
    assert (r["made"], r["marks"], r["litige"]) == (False, (0, 250), False)


def test_failed_takers_belote_defence_160_plus_bid_plus_belote(eng):
    made, marks, _ = eng.score(0, level(100), HEARTS, 1, (70, 92), (3, 5), (0, 0), (20, 20))
    assert (made, marks) == (False, (20, 280))


def test_capot_not_bid_counts_250_points(eng):
    made, marks, _ = eng.score(0, level(80), SPADES, 1, (250, 0), (8, 0), (0, 0), (0, 0))
    assert (made, marks) == (True, (330, 0))


def test_capot_bid_made_bid_250_and_points_250(eng):
    made, marks, _ = eng.score(0, CAPOT, SPADES, 1, (250, 0), (8, 0), (0, 0), (20, 0))
    assert (made, marks) == (True, (520, 0))


def test_capot_bid_fails_when_a_trick_is_lost(eng):
    made, marks, _ = eng.score(0, CAPOT, SPADES, 1, (150, 12), (7, 1), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 410))


def test_generale_bid_made_by_the_bidder_alone_500_and_500(eng):
    # "Générale bid: 500 and 500": 500 points + 500 bid + belote 20
    made, marks, _ = eng.score(0, GENERALE, HEARTS, 1, (250, 0), (8, 0), (0, 0), (20, 0),
                               taker_tricks=8)
    assert (made, marks) == (True, (1020, 0))


def test_generale_fails_when_the_partner_takes_a_trick(eng):
    # the team has all 8 tricks, the bidder only 7: "one player takes all 8 tricks"
    made, marks, _ = eng.score(0, GENERALE, HEARTS, 1, (250, 0), (8, 0), (0, 0), (20, 20),
                               taker_tricks=7)
    assert (made, marks) == (False, (20, 160 + 500 + 20))


def test_coinche_doubles_every_mark_of_the_donne(eng):
    made, marks, _ = eng.score(0, level(80), HEARTS, 2, (110, 52), (6, 2), (0, 0), (0, 20))
    assert (made, marks) == (True, (2 * 190, 2 * 72))
    made, marks, _ = eng.score(0, level(120), HEARTS, 2, (90, 72), (4, 4), (0, 0), (20, 0))
    assert (made, marks) == (False, (40, 2 * 280))


def test_sans_atout_contract_counts_the_bid_once(eng):
    made, marks, _ = eng.score(1, level(100), SA, 1, (52, 110), (2, 6), (0, 0), (0, 0))
    assert (made, marks) == (True, (52, 210))


# ---------------------------------------------------------------------------------------
# Partie — classic keeps the federal end of partie (target 2000)
# ---------------------------------------------------------------------------------------


def test_partie_won_at_2000(eng):
    assert eng.partie_step((1950, 900), (False, False), (52, 110), (2, 6), 1, True) == (
        0, (2002, 1010), (False, False))
    assert CLASSIC.target == FEDERAL.target == 2000
