"""Every difference of the ``stephanoise`` profile (RULES.md, source 003) pinned with
hand-picked cards, on every engine of the ``engine`` fixture (the plain ``engine`` is the
federal profile, used for contrast).

Sevens, eights and nines are spelled suit first (``H7`` the seven of hearts).
"""

from __future__ import annotations

import pytest

from simcoinche.rules import actions as act
from simcoinche.rules import cards as C
from simcoinche.rules.cards import (
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
    KD,
    KH,
    KING,
    KS,
    QH,
    QS,
    S7,
    S8,
    S9,
    SANS_ATOUT,
    SPADES,
    TEN,
    TOUT_ATOUT,
    TS,
)
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import STEPHANOISE

SA = SANS_ATOUT
CAPOT = len(STEPHANOISE.bid_values)


def level(value: int) -> int:
    """Ladder level of a stephanoise bid value (82 → 0, 85 → 1, 90 → 2, …)."""
    return STEPHANOISE.bid_values.index(value)


def codes(tokens: str) -> list[int]:
    return [act.parse_action(t, STEPHANOISE) for t in tokens.split()]


@pytest.fixture
def eng(engine):
    """The engine of the ``engine`` fixture, bound to the stephanoise profile."""
    return type(engine)("stephanoise")


# ---------------------------------------------------------------------------------------
# Deal — "Cut ≥ 2 cards each side. Deal 3 then 3 to each player; the auction is held on
# those 6 cards; afterwards each player gets 2 more (the last 8 cards, same order)."
# ---------------------------------------------------------------------------------------


def test_cut_leaves_at_least_2_cards_and_rounds_are_3_3_2():
    assert (STEPHANOISE.cut_min, STEPHANOISE.deal_rounds, STEPHANOISE.auction_cards) == (
        2, (3, 3, 2), 6)


def test_auction_held_on_the_first_6_cards_the_last_8_dealt_after(eng):
    deck = list(range(32))
    # cut 2: the top card is deck[2]; dealer 0, so seat 1 is served first
    hands = eng.auction_hands(deck, 2, 0)
    assert hands[1] == {2, 3, 4, 14, 15, 16}
    assert hands[0] == {11, 12, 13, 23, 24, 25}
    # the 8 cards left after the two rounds of 3 (26..31, 0, 1) are not held at the auction
    assert not set().union(*hands) & {26, 27, 28, 29, 30, 31, 0, 1}


# ---------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------


def test_ladder_82_85_then_steps_of_5_to_160_then_capot(eng):
    assert STEPHANOISE.bid_values[:4] == (82, 85, 90, 95)
    assert STEPHANOISE.bid_values[-1] == 160 and len(STEPHANOISE.bid_values) == 17
    r = eng.auction(3, codes("82H 85S 90D 95SA 155C capotS pass pass pass"))
    assert (r["status"], r["taker"], r["level"], r["kind"]) == ("contract", 1, CAPOT, SPADES)


def test_values_off_the_ladder_are_not_tokens():
    for token in ("80H", "100TA", "generaleH", "87S"):
        with pytest.raises(InputError, match=repr(token)):
            act.parse_action(token, STEPHANOISE)


def test_no_tout_atout_and_no_generale(eng):
    r = eng.auction(0, [act.bid_code(level(90), TOUT_ATOUT)])
    assert r["reason"] == act.R_NOT_IN_PROFILE
    assert eng.auction(0, [act.bid_code(CAPOT + 1, HEARTS)])["reason"] == act.R_NOT_IN_PROFILE


def test_surcoinche_ends_the_auction(eng):
    r = eng.auction(3, codes("90H coinche surcoinche"))
    assert (r["status"], r["coinche"], r["taker"]) == ("contract", 4, 0)


def test_partner_of_the_coinched_bidder_may_decoincher_by_bidding_higher(eng, engine):
    # seat 0 bids, seat 1 coinches, seat 2 (seat 0's partner) outbids: a new contract and
    # "the coinche is cancelled (the auction goes on as usual)"
    r = eng.auction(3, codes("90H coinche 100H"))
    assert (r["status"], r["taker"], r["level"], r["coinche"]) == ("running", 2, level(100), 1)
    r = eng.auction(3, codes("90H coinche 100S pass pass pass"))
    assert (r["status"], r["taker"], r["level"], r["kind"], r["coinche"]) == (
        "contract", 2, level(100), SPADES, 1)
    # federal: "It freezes the contract: no more bids by anyone"
    fed = [act.parse_action(t, "federal") for t in "90H coinche 100S".split()]
    assert engine.auction(3, fed)["reason"] == act.R_BID_AFTER_COINCHE


def test_decoinche_must_be_higher(eng):
    r = eng.auction(3, codes("90H coinche 90S"))
    assert (r["index"], r["reason"]) == (2, act.R_BID_NOT_HIGHER)


def test_the_new_contract_may_be_coinched_again(eng):
    r = eng.auction(3, codes("90H coinche 100S coinche pass pass pass"))
    assert (r["status"], r["taker"], r["coinche"]) == ("contract", 2, 2)


def test_coinched_bidder_may_only_pass_or_surcoinche(eng):
    r = eng.auction(3, codes("90H coinche pass pass 100H"))
    assert (r["index"], r["reason"]) == (4, act.R_BID_AFTER_COINCHE)
    r = eng.auction(3, codes("90H coinche pass pass surcoinche"))
    assert (r["status"], r["coinche"]) == ("contract", 4)


def test_coinching_team_may_only_pass(eng):
    r = eng.auction(3, codes("90H coinche pass 100S"))
    assert (r["index"], r["reason"]) == (3, act.R_BID_AFTER_COINCHE)
    r = eng.auction(3, codes("90H coinche pass surcoinche"))
    assert (r["index"], r["reason"]) == (3, act.R_SURCOINCHE_NOT_TAKERS)


def test_three_passes_after_a_coinche_end_it_doubled(eng):
    r = eng.auction(3, codes("90H coinche pass pass pass"))
    assert (r["status"], r["taker"], r["coinche"]) == ("contract", 0, 2)


# ---------------------------------------------------------------------------------------
# Legal cards
# ---------------------------------------------------------------------------------------


def test_follow_suit_without_going_higher(eng):
    assert eng.legal_cards([S7, KS, H7], [AS], HEARTS) == {S7, KS}


def test_void_must_trump_unless_the_partner_wins(eng):
    assert eng.legal_cards([H7, KD], [KS, AS], HEARTS) == {H7}
    assert eng.legal_cards([H7, KD], [AS, S7], HEARTS) == {H7, KD}


def test_void_must_overtrump_an_opponent_trump_if_able(eng):
    assert eng.legal_cards([H7, JH, KD], [AS, H9], HEARTS) == {JH}


def test_void_unbeatable_opponent_trump_any_trump_no_discard(eng, engine):
    # "overtrumping an opponent's trump if able, else any trump"
    assert eng.legal_cards([H7, H8, KD], [AS, JH], HEARTS) == {H7, H8}
    assert engine.legal_cards([H7, H8, KD], [AS, JH], HEARTS) == {H7, H8, KD}  # federal


def test_trump_lead_go_higher_even_over_the_partner(eng):
    assert eng.legal_cards([JH, H7, AS], [H9, H8], HEARTS) == {JH}


def test_sans_atout_follow_void_any_card(eng):
    assert eng.legal_cards([S7, AS, KD], [KS], SA) == {S7, AS}
    assert eng.legal_cards([KD, C7], [KS], SA) == {KD, C7}


def test_sans_atout_plain_order_and_plain_points_in_every_suit(eng):
    assert eng.trick_winner([S9, JS, TS, AH], SA) == 2
    got = [eng.card_points(C.card(r, HEARTS), SA) for r in range(8)]
    assert got == [0, 0, 0, 10, 2, 3, 4, 11]
    assert sum(eng.card_points(c, SA) for c in range(32)) == 120


def test_no_belote_at_sans_atout(eng):
    assert eng.belote([[KH, QH], [KS, QS], [], []], SA) == (0, 0)
    assert eng.belote([[KH, QH], [KS, QS], [], []], HEARTS) == (20, 0)


# ---------------------------------------------------------------------------------------
# Announcements
# ---------------------------------------------------------------------------------------


def test_a_card_may_serve_in_a_carre_and_a_suite(eng, engine):
    hand = [JS, JH, JD, JC, QS, KS, D7, C8]
    assert eng.declaration(hand, HEARTS) == [(0, JACK, -1, 4, 200), (1, KING, SPADES, 3, 20)]
    # federal: "A card serves in at most one ordinary announcement"
    assert engine.declaration(hand, HEARTS) == [(0, JACK, -1, 4, 200)]


def test_the_nine_of_a_carre_also_serves_in_a_suite_of_four(eng, engine):
    # carré of 9s (150) and 9S TS JS QS (50) share 9S: 200
    hand = [S9, H9, D9, C9, TS, JS, QS, D7]
    assert eng.declaration(hand, SPADES) == [(0, 2, -1, 4, 150), (1, 5, SPADES, 4, 50)]
    # federal: the carré, and the tierce TS JS QS left by it (170)
    assert engine.declaration(hand, SPADES) == [(0, 2, -1, 4, 150), (1, 5, SPADES, 3, 20)]


def test_carre_values_follow_the_suit_contract_order(eng):
    assert eng.declaration([JS, JH, JD, JC, S7], HEARTS) == [(0, JACK, -1, 4, 200)]
    assert eng.declaration([S9, H9, D9, C9, S7], HEARTS) == [(0, 2, -1, 4, 150)]
    assert eng.declaration([AS, AH, AD, C.AC, S7], HEARTS) == [(0, ACE, -1, 4, 100)]


def test_carre_values_at_sans_atout_a200_t150_kqj100_nines_nothing(eng):
    # "SA: A 200, T 150, K Q J 100, 9 nothing"
    four = lambda r: [C.card(r, s) for s in range(4)]  # noqa: E731
    assert eng.declaration(four(ACE), SA) == [(0, ACE, -1, 4, 200)]
    assert eng.declaration(four(TEN), SA) == [(0, TEN, -1, 4, 150)]
    assert eng.declaration(four(JACK), SA) == [(0, JACK, -1, 4, 100)]
    assert eng.declaration(four(2), SA) == []


def test_equal_value_the_announcement_in_trumps_wins(eng, engine):
    # a tierce 7-8-9 of trumps beats a plain tierce to the ace
    hands = [[QS, KS, AS], [H7, H8, H9], [], []]
    assert eng.team_announcements(hands, HEARTS) == (0, 20)
    assert engine.team_announcements(hands, HEARTS) == (20, 0)  # federal: top card first


def test_equal_value_plain_announcements_cancel(eng, engine):
    # "equal plain ones cancel", whatever their height
    hands = [[QS, KS, AS], [D7, D8, D9], [], []]
    assert eng.team_announcements(hands, HEARTS) == (0, 0)
    assert engine.team_announcements(hands, HEARTS) == (20, 0)


def test_equal_value_carres_cancel(eng):
    # two carrés of 100: neither is "in trumps"
    hands = [[AS, AH, AD, C.AC], [KS, KH, KD, C.KC], [], []]
    assert eng.team_announcements(hands, HEARTS) == (0, 0)


def test_higher_value_wins_over_a_trump_announcement(eng):
    hands = [[H7, H8, H9], [S8, S9, TS, JS], [], []]
    assert eng.team_announcements(hands, HEARTS) == (0, 50)
    # a carré beats any suite
    hands = [[QS, QH, C.QD, C.QC], [S7, S8, S9, TS, JS], [], []]
    assert eng.team_announcements(hands, HEARTS) == (100, 0)


def test_project_ruling_two_trump_suites_of_equal_value_the_higher_wins(eng):
    # not said by the source; RULES.md leaves it to the engines: the higher top card
    hands = [[H7, H8, H9], [JH, QH, KH], [], []]
    assert eng.team_announcements(hands, HEARTS) == (0, 20)


def test_announcements_shown_after_the_9th_card_at_sans_atout():
    # "À sans atout, elles se montrent après la neuvième carte" (else after the 5th)
    assert (STEPHANOISE.show_after_card, STEPHANOISE.show_after_card_sa) == (5, 9)


# ---------------------------------------------------------------------------------------
# Success and scoring — score(taker_team, level, kind, coinche, C, tricks, A, B)
# ---------------------------------------------------------------------------------------


def test_made_iff_takers_total_reaches_the_bid_whatever_the_defence(eng, engine):
    # T_t = 82 ≥ 82 while T_d = 80 + 50 = 130: made
    made, marks, _ = eng.score(0, level(82), HEARTS, 1, (82, 80), (4, 4), (0, 50), (0, 0))
    assert (made, marks) == (True, (160, 130))  # 82 + 82 = 164 → 160


def test_announcements_and_belote_count_toward_the_contract(eng):
    # 70 + 20 + 20 = 110 ≥ 110
    made, marks, _ = eng.score(1, level(110), SPADES, 1, (92, 70), (4, 4), (0, 20), (0, 20))
    assert (made, marks) == (True, (90, 220))


def test_failed_takers_0_defence_162_plus_bid_plus_everything(eng):
    # "Failed: takers 0; defence 162 + bid × s + A_t + A_d + B_t + B_d" (the takers lose
    # even their belote): 162 + 120 + 20 + 20 + 20 = 342 → 340
    made, marks, _ = eng.score(0, level(120), HEARTS, 1, (70, 92), (3, 5), (20, 0), (20, 20))
    assert (made, marks) == (False, (0, 340))


def test_sans_atout_counts_the_contract_double_made(eng):
    made, marks, _ = eng.score(0, level(100), SA, 1, (100, 30), (6, 2), (0, 0), (0, 0))
    assert (made, marks) == (True, (300, 30))


def test_sans_atout_counts_the_contract_double_failed(eng):
    made, marks, _ = eng.score(0, level(100), SA, 1, (60, 70), (3, 5), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 360))  # 162 + 200 = 362 → 360


def test_worked_example_bid_155_capot_two_tierces_belote_470(eng):
    # "bid 155, capot, two tierces, belote → 250 + 40 + 20 + 155 = 465 → 470"
    made, marks, ann = eng.score(0, level(155), HEARTS, 1, (250, 0), (8, 0), (40, 0),
                                 (20, 0))
    assert (made, marks, ann) == (True, (470, 0), (40, 0))


def test_capot_not_bid_250_replaces_the_162(eng):
    made, marks, _ = eng.score(1, level(82), CLUBS, 1, (0, 250), (0, 8), (0, 0), (0, 0))
    assert (made, marks) == (True, (0, 330))  # 250 + 82 = 332 → 330


def test_takers_capot_defence_gets_250_instead_of_162(eng):
    made, marks, _ = eng.score(0, level(100), HEARTS, 1, (0, 250), (0, 8), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 350))


def test_capot_bid_adds_its_value(eng):
    made, marks, _ = eng.score(0, CAPOT, DIAMONDS, 1, (250, 0), (8, 0), (0, 0), (0, 0))
    assert (made, marks) == (True, (500, 0))


def test_a_capot_team_keeps_its_announcements(eng, engine):
    # stephanoise lists no transfer (its partie rule needs a capot team's announcements)
    made, marks, ann = eng.score(0, level(100), HEARTS, 1, (250, 0), (8, 0), (0, 50),
                                 (0, 0))
    assert (made, marks, ann) == (True, (350, 50), (0, 50))
    assert engine.score(0, 2, HEARTS, 1, (252, 0), (8, 0), (0, 50), (0, 0))[2] == (50, 0)


def test_coinche_doubles_the_mark_of_the_team_that_was_right_other_marks_0(eng):
    # made: 2 × (100 + 110 + 0) = 420; the defence keeps nothing, not even its belote
    made, marks, _ = eng.score(0, level(100), HEARTS, 2, (110, 52), (6, 2), (0, 0), (0, 20))
    assert (made, marks) == (True, (420, 0))


def test_surcoinche_quadruples_the_defence_mark_on_failure(eng):
    made, marks, _ = eng.score(0, level(100), HEARTS, 4, (70, 92), (3, 5), (0, 0), (0, 0))
    assert (made, marks) == (False, (0, 1050))  # 4 × 262 = 1048 → 1050


def test_coinche_cumulates_with_the_sans_atout_factor(eng):
    # "un sans-atout coinché compte ×4": 2 × (100 × 2 + 110) = 620
    made, marks, _ = eng.score(0, level(100), SA, 2, (110, 20), (6, 2), (0, 0), (0, 0))
    assert (made, marks) == (True, (620, 0))


def test_marks_rounded_to_the_nearest_ten_halves_up(eng):
    made, marks, _ = eng.score(0, level(85), HEARTS, 1, (90, 72), (5, 3), (0, 0), (0, 0))
    assert (made, marks) == (True, (180, 70))  # 175 → 180, 72 → 70


# ---------------------------------------------------------------------------------------
# Partie — "a team that crosses 2000 only thanks to its announcements while being capot
# does not win yet: play another donne"
# ---------------------------------------------------------------------------------------


def test_crossing_2000_while_capot_does_not_win_yet(eng):
    winner, totals, pending = eng.partie_step((1500, 1990), (False, False), (350, 50),
                                              (8, 0), 0, True)
    assert (winner, totals, pending) == (-1, (1850, 2040), (False, True))


def test_after_the_extra_donne_the_team_wins_even_without_a_trick(eng, engine):
    after = eng.partie_step((1850, 2040), (False, True), (120, 0), (8, 0), 0, True)
    assert after == (1, (1970, 2040), (False, False))
    # federal waits for a donne in which that team wins a trick
    assert engine.partie_step((1850, 2040), (False, True), (120, 0), (8, 0), 0, True)[0] == -1


def test_crossing_2000_with_a_trick_wins_at_once(eng):
    assert eng.partie_step((1500, 1990), (False, False), (100, 70), (6, 2), 0, True)[0] == 1
