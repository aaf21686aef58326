"""Card text and bitboards (``simcoinche.rules.cards``), auction tokens
(``simcoinche.rules.actions``)."""

from __future__ import annotations

import pytest

from simcoinche.rules import actions as act
from simcoinche.rules import cards as C
from simcoinche.rules.cards import AS, HEARTS, JACK, JH, KC, SPADES, TEN, TS
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import FEDERAL

# ---------------------------------------------------------------------------------------
# Cards: "Text notation is rank then suit: JH jack of hearts, TS ten of spades (10S is
# accepted on input)."
# ---------------------------------------------------------------------------------------


def test_card_index_is_suit_times_8_plus_rank():
    assert C.card(JACK, HEARTS) == JH == 1 * 8 + 4
    assert C.card(TEN, SPADES) == TS == 3
    assert C.suit_of(KC) == C.CLUBS and C.rank_of(KC) == C.KING


@pytest.mark.parametrize(("text", "card"), [
    ("JH", JH), ("jh", JH), (" Jh ", JH), ("TS", TS), ("10S", TS), ("10s", TS), ("ts", TS),
    ("AS", AS), ("7S", 0), ("AC", 31),
])
def test_parse_card_accepts_ten_as_t_or_10_case_insensitive(text, card):
    assert C.parse_card(text) == card


@pytest.mark.parametrize("text", ["ZZ", "1S", "J", "JHX", "", "11S", "JX", "HJ"])
def test_parse_card_rejects_non_cards_naming_the_text(text):
    with pytest.raises(InputError) as info:
        C.parse_card(text)
    assert repr(text) in str(info.value)
    assert "\n" not in str(info.value)


def test_parse_card_rejects_non_text():
    with pytest.raises(InputError):
        C.parse_card(12)  # type: ignore[arg-type]


def test_format_card_is_canonical_rank_then_suit():
    assert C.format_card(JH) == "JH" and C.format_card(TS) == "TS"
    assert [C.parse_card(C.format_card(c)) for c in range(32)] == list(range(32))
    assert len({C.format_card(c) for c in range(32)}) == 32


def test_format_card_out_of_range():
    with pytest.raises(InputError):
        C.format_card(32)


@pytest.mark.parametrize("call, culprit", [
    (lambda: C.format_card(1.5), "card index must be a whole number 0..31, got 1.5"),
    (lambda: C.format_card(-1), "card index must be a whole number 0..31, got -1"),
    (lambda: C.format_card(True), "card index must be a whole number 0..31, got True"),
    (lambda: C.format_card("JH"), "card index must be a whole number 0..31, got 'JH'"),
    (lambda: C.to_mask([32]), "card index must be a whole number 0..31, got 32"),
    (lambda: C.to_mask([-1]), "card index must be a whole number 0..31, got -1"),
    (lambda: C.to_mask(5), "cards must be card indices (0..31), got 5"),
    (lambda: C.to_mask("JH"), "cards must be card indices (0..31), got 'JH'"),
    (lambda: C.from_mask(1 << 32), "card mask must be a whole number 0..4294967295"),
    (lambda: C.from_mask(-1), "card mask must be a whole number 0..4294967295, got -1"),
    (lambda: C.format_mask(2.0), "card mask must be a whole number 0..4294967295, got 2.0"),
    (lambda: C.popcount(None), "card mask must be a whole number 0..4294967295, got None"),
    (lambda: C.card(8, 0), "rank must be a whole number 0..7, got 8"),
    (lambda: C.card(0, 4), "suit must be a whole number 0..3, got 4"),
    (lambda: C.parse_cards(5), "cards must be text or a list of card texts, got 5"),
])
def test_card_helpers_refuse_what_is_no_card_in_one_line(call, culprit):
    """A float floored, a negative index shifted, a 33rd bit kept: the helpers gave a
    wrong card or a TypeError; each now names what it was given."""
    with pytest.raises(InputError) as exc:
        call()
    assert culprit in str(exc.value) and "\n" not in str(exc.value)


def test_card_helpers_take_numpy_integers():
    import numpy as np

    assert C.to_mask(np.array([0, 31])) == (1 << 31) | 1
    assert C.from_mask(np.uint32(5)) == [0, 2] and C.popcount(np.uint32(7)) == 3
    assert C.format_card(np.int64(JH)) == "JH"


def test_parse_cards_from_string_or_list():
    assert C.parse_cards("JH, TS 10C") == [JH, TS, C.card(TEN, C.CLUBS)]
    assert C.parse_cards(["as", "Jh"]) == [AS, JH]


def test_hand_mask_round_trip():
    cards = [JH, TS, AS, KC]
    mask = C.to_mask(cards)
    assert mask == (1 << JH) | (1 << TS) | (1 << AS) | (1 << KC)
    assert C.from_mask(mask) == sorted(cards)
    assert C.popcount(mask) == 4
    assert C.format_mask(mask) == "TS AS JH KC"


def test_parse_hand_rejects_a_card_given_twice():
    assert C.parse_hand("JH TS") == C.to_mask([JH, TS])
    with pytest.raises(InputError, match="JH"):
        C.parse_hand("JH 10S jh")


def test_suit_masks_hold_eight_cards_each_and_cover_the_deck():
    masks = [int(m) for m in C.SUIT_MASKS]
    assert all(C.popcount(m) == 8 for m in masks)
    assert sum(masks) == int(C.FULL_DECK) == (1 << 32) - 1
    assert C.from_mask(masks[HEARTS]) == list(range(8, 16))


# ---------------------------------------------------------------------------------------
# Auction tokens: pass, coinche, surcoinche, value+suit, capot+suit
# ---------------------------------------------------------------------------------------


def test_every_federal_token_round_trips():
    tokens = ["pass", "coinche", "surcoinche"]
    tokens += [f"{v}{s}" for v in FEDERAL.bid_values for s in "SHDC"]
    tokens += [f"capot{s}" for s in "SHDC"]
    codes = [act.parse_action(t, FEDERAL) for t in tokens]
    assert len(set(codes)) == len(tokens)
    assert all(0 <= c < 256 for c in codes)
    assert [act.format_action(c, FEDERAL) for c in codes] == tokens


def test_bid_code_carries_level_and_kind():
    code = act.parse_action("110H", FEDERAL)
    assert act.is_bid(code)
    assert act.bid_level(code) == FEDERAL.bid_values.index(110)
    assert act.bid_kind(code) == HEARTS
    capot = act.parse_action("capotD", FEDERAL)
    assert act.bid_level(capot) == len(FEDERAL.bid_values) and act.bid_kind(capot) == 2
    assert FEDERAL.level_value(act.bid_level(capot)) == 250


def test_codes_of_pass_coinche_surcoinche():
    assert act.parse_action("PASS", FEDERAL) == act.PASS == 0
    assert act.parse_action("Coinche", FEDERAL) == act.COINCHE == 1
    assert act.parse_action(" surcoinche ", FEDERAL) == act.SURCOINCHE == 2
    assert not act.is_bid(act.PASS)


def test_tokens_are_case_insensitive():
    assert act.parse_action("80h", FEDERAL) == act.parse_action("80H", FEDERAL)
    assert act.parse_action("CAPOTs", FEDERAL) == act.parse_action("capotS", FEDERAL)


@pytest.mark.parametrize("token", [
    "85H",      # off the federal ladder (80, 90, …, 160)
    "170S",     # above 160
    "80",       # no suit
    "80X",      # unknown suit
    "80SA",     # no sans-atout in federal
    "capot",    # capot without suit
    "bid",      # unknown word
    "",
    "generaleH",  # no générale in federal
])
def test_unknown_tokens_raise_input_error_naming_the_token(token):
    with pytest.raises(InputError) as info:
        act.parse_action(token, FEDERAL)
    assert repr(token) in str(info.value)


def test_non_text_token_is_an_input_error():
    with pytest.raises(InputError):
        act.parse_action(80, FEDERAL)  # type: ignore[arg-type]


def test_every_auction_reason_has_a_text():
    codes = [v for k, v in vars(act).items() if k.startswith("R_") and k != "R_OK"]
    assert sorted(codes) == sorted(act.AUCTION_REASONS)
    assert act.AUCTION_REASONS[act.R_BID_NOT_HIGHER].format(current="110H") == (
        "bid must be above 110H")


def test_sevens_eights_nines_also_have_suit_first_names():
    import simcoinche.rules.cards as cards

    for suit in "SHDC":
        for rank in "789":
            assert getattr(cards, suit + rank) == cards.parse_card(rank + suit)
