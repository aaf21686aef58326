"""``simcoinche score`` for the classic, stephanoise and strict profiles.

The complete donnes below were played and scored by hand (trick by trick in the
comments); the expected objects are that hand computation. The ``profile`` field of the
record selects the rules: tokens, legal cards and scoring.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simcoinche.commands.cli import main

SCRIPT = Path(sys.executable).with_name("simcoinche")
KEYS = ["legal", "error", "passed_out", "contract", "tricks", "tricks_won", "card_points",
        "announcements", "announcement_points", "belote", "made", "score", "to_move",
        "legal_next"]


def score(capsys, record: dict, tmp_path: Path) -> tuple[int, dict]:
    """Run ``simcoinche score FILE`` in-process; return (status, the JSON object)."""
    path = tmp_path / "donne.json"
    path.write_text(json.dumps(record))
    status = main(["score", str(path)])
    out, err = capsys.readouterr()
    assert err == ""
    assert out.endswith("\n") and out.count("\n") == 1
    return status, json.loads(out)


def error_line(capsys, record: dict, tmp_path: Path) -> str:
    """Run a malformed record; return its one stderr line (exit status 2)."""
    path = tmp_path / "donne.json"
    path.write_text(json.dumps(record))
    assert main(["score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("simcoinche: error: ")
    return err


def trick(leader: int, cards: str, winner: int | None) -> dict:
    return {"leader": leader, "cards": cards.split(), "winner": winner}


def suite(seat: int, top: str, suit: str, length: int, points: int) -> dict:
    return {"seat": seat, "kind": "suite", "rank": top, "suit": suit, "length": length,
            "points": points}


# One suit per seat: seat 0 spades, seat 1 hearts, seat 2 diamonds, seat 3 clubs. Dealer 3:
# seat 0 bids and leads; at tout-atout only spades are ever led and seat 0 takes every
# trick alone (the others, void, may play any card).
ONE_SUIT_EACH = [[f"{r}{s}" for r in "789TJQKA"] for s in "SHDC"]
SUIT_PLAY = [f"{r}{s}" for r in ("J", "9", "A", "T", "K", "Q", "8", "7") for s in "S"]
GENERALE_TA_PLAY = [c for k, lead in enumerate(SUIT_PLAY)
                    for c in (lead, *(f"{'789TJQKA'[k]}{s}" for s in "HDC"))]
GENERALE_TRICKS = [trick(0, " ".join(GENERALE_TA_PLAY[4 * k: 4 * k + 4]), 0)
                   for k in range(8)]


def generale_ta(profile: str) -> dict:
    return {"profile": profile, "dealer": 3, "hands": ONE_SUIT_EACH,
            "auction": ["generaleTA", "pass", "pass", "pass"], "play": GENERALE_TA_PLAY}


def test_classic_generale_at_tout_atout_500_and_500_plus_belotes(capsys, tmp_path):
    # All 162 points to seat 0 alone: a générale made, "500 and 500". TA: one belote per
    # suit whose K and Q one player holds — every seat has one, 40 per team.
    # Takers 500 + 500 + 40 = 1040; defence 0 + 40.
    status, obj = score(capsys, generale_ta("classic"), tmp_path)
    assert status == 0
    assert list(obj) == [*KEYS, "litige"]
    assert obj == {
        "legal": True, "error": None, "passed_out": False,
        "contract": {"taker": 0, "value": 500, "suit": "TA", "capot": False, "coinche": 1,
                     "generale": True},
        "tricks": GENERALE_TRICKS, "tricks_won": [8, 0], "card_points": [250, 0],
        "announcements": [[], []], "announcement_points": [0, 0], "belote": [40, 40],
        "made": True, "score": [1040, 40], "to_move": None, "legal_next": None,
        "litige": False,
    }


def test_strict_generale_at_tout_atout_400_cards_250(capsys, tmp_path):
    # strict: cards 250 (capot), belote 40 per team; takers 250 + 40 + 400 = 690,
    # defence its points: 0 + 40.
    status, obj = score(capsys, generale_ta("strict"), tmp_path)
    assert status == 0
    assert list(obj) == KEYS
    assert obj["contract"] == {"taker": 0, "value": 400, "suit": "TA", "capot": False,
                               "coinche": 1, "generale": True}
    assert (obj["card_points"], obj["belote"], obj["made"], obj["score"]) == (
        [250, 0], [40, 40], True, [690, 40])


# The stephanoise worked example as a complete donne: bid 155 hearts, seat 0 takes all
# eight tricks holding two tierces (7H 8H 9H, JH QH KH) and the belote (KH QH).
STEPHANOISE_470 = {
    "profile": "stephanoise",
    "dealer": 3,
    "hands": [["7H", "8H", "9H", "JH", "QH", "KH", "AS", "AD"],
              ["TH", "AH", "8S", "TS", "7C", "9C", "JC", "KC"],
              ["7S", "9S", "JS", "KS", "7D", "9D", "JD", "KD"],
              ["QS", "8D", "TD", "QD", "8C", "TC", "QC", "AC"]],
    "auction": ["155H", "pass", "pass", "pass"],
    "play": ["JH", "AH", "7S", "8D", "9H", "TH", "9S", "TD", "KH", "8S", "JS", "QS",
             "QH", "TS", "KS", "QD", "8H", "7C", "7D", "8C", "7H", "9C", "9D", "TC",
             "AS", "JC", "JD", "QC", "AD", "KC", "KD", "AC"],
}


def test_stephanoise_worked_example_bid_155_capot_two_tierces_belote_470(capsys, tmp_path):
    # Seat 1 must play its trumps on the two trump leads (AH under JH, TH under 9H); the
    # rest falls to seat 0. Capot: 250 replaces the 162; 250 + 40 + 20 = 310 + 155 = 465
    # → 470.
    status, obj = score(capsys, STEPHANOISE_470, tmp_path)
    assert status == 0
    assert list(obj) == KEYS
    assert obj == {
        "legal": True, "error": None, "passed_out": False,
        "contract": {"taker": 0, "value": 155, "suit": "H", "capot": False, "coinche": 1},
        "tricks": [trick(0, " ".join(STEPHANOISE_470["play"][4 * k: 4 * k + 4]), 0)
                   for k in range(8)],
        "tricks_won": [8, 0], "card_points": [250, 0],
        "announcements": [[suite(0, "K", "H", 3, 20), suite(0, "9", "H", 3, 20)], []],
        "announcement_points": [40, 0], "belote": [20, 0], "made": True,
        "score": [470, 0], "to_move": None, "legal_next": None,
    }


# Classic undertrump: seat 0 leads AS, seat 1 (void) trumps with JH; seat 2 holds only the
# 7H in trumps and may not discard.
UNDERTRUMP = {
    "dealer": 3,
    "hands": [["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
              ["JH", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
              ["7H", "AC", "7D", "8D", "9D", "TD", "JD", "QD"],
              ["8H", "9H", "TH", "QH", "KH", "AH", "KD", "AD"]],
    "auction": ["80H", "pass", "pass", "pass"],
    "play": ["AS", "JH", "AC"],
}


def test_classic_must_undertrump_where_federal_may_discard(capsys, tmp_path):
    status, obj = score(capsys, {**UNDERTRUMP, "profile": "classic"}, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "play", "index": 2, "action": "AC",
                            "reason": "must trump: holds 7H"}
    assert (obj["to_move"], obj["legal_next"], obj["litige"]) == (2, ["7H"], None)
    status, obj = score(capsys, UNDERTRUMP, tmp_path)  # federal
    assert status == 0 and obj["legal"] and obj["to_move"] == 3


# Strict: seat 0's AS wins; seat 2, void in spades, must trump over its partner.
OVER_PARTNER = {
    "dealer": 3,
    "hands": [["AS", "KS", "QS", "JS", "TS", "9S", "8S", "8H"],
              ["7S", "7H", "9H", "TH", "JH", "QH", "KH", "AC"],
              ["AH", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
              ["AD", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]],
    "auction": ["90H", "pass", "pass", "pass"],
    "play": ["AS", "7S", "KD"],
}


@pytest.mark.parametrize(("profile", "legal"), [("strict", False), ("classic", True),
                                                ("stephanoise", True), ("federal", True)])
def test_trump_even_over_a_winning_partner_only_in_strict(capsys, tmp_path, profile, legal):
    status, obj = score(capsys, {**OVER_PARTNER, "profile": profile}, tmp_path)
    assert obj["legal"] is legal
    if not legal:
        assert status == 1
        assert obj["error"]["reason"] == "must trump: holds AH"
        assert obj["legal_next"] == ["AH"]


# ---------------------------------------------------------------------------------------
# Tokens: 90SA, 120TA, generale, the stephanoise values
# ---------------------------------------------------------------------------------------

SIMPLE = {"dealer": 0, "hands": ONE_SUIT_EACH, "play": []}


@pytest.mark.parametrize(("profile", "auction", "value", "suit", "generale"), [
    ("classic", ["90SA", "120TA", "pass", "pass", "pass"], 120, "TA", False),
    ("classic", ["180H", "capotSA", "généraleS", "pass", "pass", "pass"], 500, "S", True),
    ("strict", ["90SA", "GENERALEta", "pass", "pass", "pass"], 400, "TA", True),
    ("stephanoise", ["82H", "85SA", "95D", "pass", "pass", "pass"], 95, "D", None),
    ("federal", ["80H", "160S", "pass", "pass", "pass"], 160, "S", None),
])
def test_profile_tokens_fix_the_contract(capsys, tmp_path, profile, auction, value, suit,
                                         generale):
    status, obj = score(capsys, {**SIMPLE, "profile": profile, "auction": auction},
                        tmp_path)
    assert status == 0
    taker = (0 + len(auction) - 3) % 4  # dealer 0: seat 1 speaks first
    want = {"taker": taker, "value": value, "suit": suit, "capot": False, "coinche": 1}
    if generale is not None:
        want["generale"] = generale
    assert obj["contract"] == want
    assert obj["to_move"] == 1  # seat 1 leads the first trick


def test_generale_bidder_is_the_seat_that_bids_it(capsys, tmp_path):
    rec = {**SIMPLE, "profile": "strict", "auction": ["pass", "pass", "generaleH", "pass",
                                                      "pass", "pass"]}
    assert score(capsys, rec, tmp_path)[1]["contract"]["taker"] == 3


@pytest.mark.parametrize(("profile", "token", "why"), [
    ("stephanoise", "80H", "80 is not a bid value of profile stephanoise"),
    ("stephanoise", "100TA", "no TA contracts in profile stephanoise"),
    ("stephanoise", "generaleH", "no générale in profile stephanoise"),
    ("classic", "190H", "190 is not a bid value of profile classic"),
    ("federal", "90SA", "no SA contracts in profile federal"),
    ("strict", "85S", "85 is not a bid value of profile strict"),
])
def test_tokens_off_the_profile_exit_2_naming_them(capsys, tmp_path, profile, token, why):
    rec = {**SIMPLE, "profile": profile, "auction": ["pass", token]}
    err = error_line(capsys, rec, tmp_path)
    assert f"auction[1]: unknown auction token {token!r}" in err and why in err


def test_profile_names_are_case_insensitive_and_unknown_ones_list_all_four(capsys,
                                                                          tmp_path):
    rec = {**SIMPLE, "profile": "Stephanoise", "auction": ["82S"]}
    assert score(capsys, rec, tmp_path)[1]["to_move"] == 2
    err = error_line(capsys, {**rec, "profile": "belote"}, tmp_path)
    assert "unknown profile 'belote'; available: federal, classic, stephanoise, strict" in err


def test_classic_coinche_ends_the_auction_in_the_record(capsys, tmp_path):
    rec = {**SIMPLE, "profile": "classic", "auction": ["80H", "coinche", "surcoinche"]}
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "auction", "index": 2, "action": "surcoinche",
                            "reason": "the auction is over"}
    assert obj["contract"]["coinche"] == 2


def test_console_script_scores_a_stephanoise_donne_from_stdin():
    proc = subprocess.run([str(SCRIPT), "score", "-"], input=json.dumps(STEPHANOISE_470),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["score"] == [470, 0]
