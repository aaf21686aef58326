"""Every difference of the ``strict`` profile (RULES.md, source 004) pinned with hand-picked
cards, on every engine of the ``engine`` fixture (the plain ``engine`` is the federal
profile, used for contrast).

Sevens, eights and nines are spelled suit first (``H7`` the seven of hearts).
"""

from __future__ import annotations

import pytest

from simcoinche.rules import actions as act
from simcoinche.rules import cards as C
from simcoinche.rules.cards import (
    AS,
    C7,
    CLUBS,
    H7,
    H8,
    H9,
    HEARTS,
    JC,
    JH,
    JS,
    KD,
    KH,
    KS,
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
from simcoinche.rules.profiles import FEDERAL, STRICT

SA, TA = SANS_ATOUT, TOUT_ATOUT
CAPOT = len(STRICT.bid_values)
GENERALE = CAPOT + 1


def level(value: int) -> int:
    return STRICT.bid_values.index(value)


def codes(tokens: str) -> list[int]:
    return [act.parse_action(t, STRICT) for t in tokens.split()]


@pytest.fixture
def eng(engine):
    """The engine of the ``engine`` fixture, bound to the strict profile."""
    return type(engine)("strict")


# ---------------------------------------------------------------------------------------
# Deal and contracts
# ---------------------------------------------------------------------------------------


def test_deal_all_32_cards_in_3_2_3():
    assert (STRICT.deal_rounds, STRICT.auction_cards) == ((3, 2, 3), 8)


def test_sans_atout_plain_points_in_every_suit_total_120(eng):
    got = [eng.card_points(C.card(r, CLUBS), SA) for r in range(8)]
    assert got == [0, 0, 0, 10, 2, 3, 4, 11]
    assert sum(eng.card_points(c, SA) for c in range(32)) == 120


def test_tout_atout_trump_points_in_every_suit_total_248(eng):
    got = [eng.card_points(C.card(r, SPADES), TA) for r in range(8)]
    assert got == [0, 0, 14, 10, 20, 3, 4, 11]
    assert sum(eng.card_points(c, TA) for c in range(32)) == 248


def test_tout_atout_trump_order_in_the_led_suit(eng):
    assert eng.trick_winner([AS, S9, JH, TS], TA) == 1


def test_sans_atout_plain_order_in_the_led_suit(eng):
    assert eng.trick_winner([S9, JS, KH, S8], SA) == 1


# ---------------------------------------------------------------------------------------
# Auction — "Bids 80, 90, …, 160, capot (250), générale (400, one player wins all tricks)."
# ---------------------------------------------------------------------------------------


def test_ladder_to_160_capot_250_generale_400(eng):
    r = eng.auction(0, codes("160SA capotTA generaleH pass pass pass"))
    assert (r["status"], r["taker"], r["level"], r["kind"]) == ("contract", 3, GENERALE,
                                                                 HEARTS)
    assert (STRICT.level_value(CAPOT), STRICT.level_value(GENERALE)) == (250, 400)


def test_coinche_and_surcoinche_as_federal(eng):
    r = eng.auction(0, codes("100TA coinche pass pass pass"))
    assert (r["status"], r["coinche"]) == ("contract", 2)
    r = eng.auction(0, codes("100TA coinche surcoinche"))
    assert (r["status"], r["coinche"]) == ("contract", 4)


# ---------------------------------------------------------------------------------------
# Legal cards
# ---------------------------------------------------------------------------------------


def test_void_must_trump_even_when_the_partner_wins(eng, engine):
    # the partner's AS wins; "void → must trump even when the partner wins the trick"
    assert eng.legal_cards([H7, KD], [AS, S7], HEARTS) == {H7}
    assert engine.legal_cards([H7, KD], [AS, S7], HEARTS) == {H7, KD}  # federal


def test_void_must_overtrump_the_partners_trump_if_able(eng):
    # partner (position 1) trumped with 9H: "overtrumping any trump already in the trick"
    assert eng.legal_cards([H7, JH, KD], [AS, H9, S7], HEARTS) == {JH}


def test_void_cannot_overtrump_any_trump_no_discard(eng):
    # partner's JH cannot be beaten: still a trump ("else any trump")
    assert eng.legal_cards([H7, H8, KD], [AS, JH, S7], HEARTS) == {H7, H8}
    # an opponent's unbeatable trump: the same
    assert eng.legal_cards([H7, H8, KD], [AS, JH], HEARTS) == {H7, H8}


def test_discard_only_with_neither_the_led_suit_nor_a_trump(eng):
    assert eng.legal_cards([KD, C7], [AS, S7], HEARTS) == {KD, C7}


def test_follow_suit_without_going_higher(eng):
    assert eng.legal_cards([S7, KS, H7], [AS], HEARTS) == {S7, KS}


def test_trump_lead_go_higher_if_able(eng):
    assert eng.legal_cards([JH, H7, AS], [H9, H8], HEARTS) == {JH}


def test_tout_atout_follow_and_go_higher_void_any_card(eng):
    assert eng.legal_cards([S7, S9, JS, KD], [AS], TA) == {S9, JS}
    assert eng.legal_cards([KD, H7], [AS], TA) == {KD, H7}


def test_sans_atout_follow_void_any_card(eng):
    assert eng.legal_cards([S7, AS, KD], [KS], SA) == {S7, AS}
    assert eng.legal_cards([KD, C7], [KS], SA) == {KD, C7}


# ---------------------------------------------------------------------------------------
# Announcements — "No carrés or suites. Belote 20 (TA: one per suit whose K+Q one player
# holds)."
# ---------------------------------------------------------------------------------------


def test_no_carres_or_suites(eng):
    assert eng.declaration([JS, JH, C.JD, JC, S7, S8, S9, TS], HEARTS) == []


def test_belote_20_and_one_per_suit_at_tout_atout(eng):
    hands = [[KS, QS, KH, QH], [C.KD, C.QD], [], []]
    assert eng.belote(hands, HEARTS) == (20, 0)
    assert eng.belote(hands, TA) == (40, 20)
    assert eng.belote(hands, SA) == (0, 0)


# ---------------------------------------------------------------------------------------
# Success and scoring — score(taker_team, level, kind, coinche, C, tricks, A, B)
# ---------------------------------------------------------------------------------------


def test_made_iff_takers_points_reach_the_bid(eng, engine):
    # 90 + 20 = 110 ≥ 110 while the defence has 72 + 20 + 20 (TA, two belotes) = 112
    made, marks, _ = eng.score(0, level(110), TA, 1, (90, 72), (5, 3), (0, 0), (20, 40))
    assert (made, marks) == (True, (220, 112))
    fed = FEDERAL.bid_values.index(110)
    assert not engine.score(0, fed, HEARTS, 1, (90, 72), (5, 3), (0, 0), (20, 40))[0]


def test_made_takers_points_plus_bid_no_rounding(eng):
    made, marks, _ = eng.score(1, level(80), SPADES, 1, (77, 85), (4, 4), (0, 0), (0, 0))
    assert (made, marks) == (True, (77, 165))


def test_failed_takers_0_defence_160_plus_bid(eng):
    # the takers lose their belote; the defence's belote is not added either
    made, marks, _ = eng.score(0, level(120), HEARTS, 1, (80, 82), (4, 4), (0, 0), (20, 20))
    assert (made, marks) == (False, (0, 280))


def test_capot_not_bid_cards_count_250(eng):
    made, marks, _ = eng.score(0, level(80), HEARTS, 1, (250, 0), (8, 0), (0, 0), (0, 0))
    assert (made, marks) == (True, (330, 0))


def test_capot_bid_250(eng):
    made, marks, _ = eng.score(0, CAPOT, HEARTS, 1, (250, 0), (8, 0), (0, 0), (20, 0))
    assert (made, marks) == (True, (520, 0))
    made, marks, _ = eng.score(0, CAPOT, HEARTS, 1, (150, 12), (7, 1), (0, 0), (20, 0))
    assert (made, marks) == (False, (0, 410))


def test_generale_400_made_when_one_player_wins_all_tricks(eng):
    made, marks, _ = eng.score(1, GENERALE, SA, 1, (0, 250), (0, 8), (0, 0), (0, 0),
                               taker_tricks=8)
    assert (made, marks) == (True, (0, 650))


def test_generale_fails_when_the_partner_wins_a_trick(eng):
    made, marks, _ = eng.score(1, GENERALE, SA, 1, (0, 250), (0, 8), (0, 0), (0, 0),
                               taker_tricks=6)
    assert (made, marks) == (False, (560, 0))


def test_coinche_doubles_and_surcoinche_quadruples_both_marks(eng):
    made, marks, _ = eng.score(0, level(100), HEARTS, 2, (105, 57), (5, 3), (0, 0), (0, 0))
    assert (made, marks) == (True, (410, 114))
    made, marks, _ = eng.score(0, level(100), HEARTS, 4, (95, 67), (5, 3), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 1040))
