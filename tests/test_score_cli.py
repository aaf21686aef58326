"""``simcoinche score``: replay, verdict and result of a recorded donne.

The two complete donnes in ``tests/data`` were played and scored by hand; the expected
objects below are that hand computation (trick by trick points in the comments).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError
from simcoinche.rules.verify import parse_record, verify_record, verify_text

DATA = Path(__file__).parent / "data"
SCRIPT = Path(sys.executable).with_name("simcoinche")

KEYS = ["legal", "error", "passed_out", "contract", "tricks", "tricks_won", "card_points",
        "announcements", "announcement_points", "belote", "made", "score", "to_move",
        "legal_next"]


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def run_cli(capsys, record: dict | str, tmp_path: Path) -> tuple[int, str, str]:
    """Run ``simcoinche score FILE`` in-process; return (status, stdout, stderr)."""
    path = tmp_path / "donne.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    status = main(["score", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def score(capsys, record: dict, tmp_path: Path) -> tuple[int, dict]:
    status, out, err = run_cli(capsys, record, tmp_path)
    assert err == ""
    assert out.endswith("\n") and out.count("\n") == 1  # one JSON object on one line
    obj = json.loads(out)
    assert list(obj) == KEYS
    return status, obj


def trick(leader: int, cards: str, winner: int | None) -> dict:
    return {"leader": leader, "cards": cards.split(), "winner": winner}


# Donne 1 (tests/data/donne_failed_90S.json): dealer 0, seat 3 takes 90 spades.
# Tricks (points): seat 1 wins JS TS 7S 9H (30), 9S QS 8S 9D (17), AS KS KC JD (21) = 68;
# seat 2 wins 7H AH JH 8C (13), AD KD 9C 7D (15), AC QD TC 7C (24), TH KH JC 8H (16),
# TD QH QC 8D (16 + 10 last trick) = 94. Seat 0's 8C..QC (100) beats seat 3's KH-QH-JH
# tierce; seat 2 holds KS QS: belote. Takers 68 < 90: failed; defence
# 160 + 100 + 20 + 90 = 370, takers their belote (0).
EXPECTED_FAILED_90S = {
    "legal": True, "error": None, "passed_out": False,
    "contract": {"taker": 3, "value": 90, "suit": "S", "capot": False, "coinche": 1},
    "tricks": [trick(1, "JS TS 7S 9H", 1), trick(1, "9S QS 8S 9D", 1),
               trick(1, "AS KS KC JD", 1), trick(1, "7H AH JH 8C", 2),
               trick(2, "AD KD 9C 7D", 2), trick(2, "AC QD TC 7C", 2),
               trick(2, "TH KH JC 8H", 2), trick(2, "TD QH QC 8D", 2)],
    "tricks_won": [5, 3], "card_points": [94, 68],
    "announcements": [[{"seat": 0, "kind": "suite", "rank": "Q", "suit": "C", "length": 5,
                        "points": 100}], []],
    "announcement_points": [100, 0], "belote": [20, 0], "made": False, "score": [370, 0],
    "to_move": None, "legal_next": None,
}

# Donne 2 (tests/data/donne_capot_surcoinche.json): seat 0 bids 80H, coinched by seat 3,
# surcoinched; seat 0 wins all eight tricks on its trumps and AS (capot: 252/0).
# Team 1 wins the comparison (seat 1's carré of queens beats seat 0's 7H..JH); it scores
# that carré and seat 3's 7C..JC (100) = 200, transferred to the capot takers with their
# seats. No belote (KH and QH are split). Made: 4 × (250 + 200 + 0 + 80) = 2120.
EXPECTED_CAPOT = {
    "legal": True, "error": None, "passed_out": False,
    "contract": {"taker": 0, "value": 80, "suit": "H", "capot": False, "coinche": 4},
    "tricks": [trick(0, "JH QH KD AD", 0), trick(0, "9H 7S KS AC", 0),
               trick(0, "AH 8S JD KC", 0), trick(0, "TH 7D TD JC", 0),
               trick(0, "KH 8D 9D TC", 0), trick(0, "8H QS JS 9C", 0),
               trick(0, "7H QD TS 8C", 0), trick(0, "AS QC 9S 7C", 0)],
    "tricks_won": [8, 0], "card_points": [252, 0],
    "announcements": [[
        {"seat": 1, "kind": "carre", "rank": "Q", "suit": None, "length": 4, "points": 100},
        {"seat": 3, "kind": "suite", "rank": "J", "suit": "C", "length": 5, "points": 100},
    ], []],
    "announcement_points": [200, 0], "belote": [0, 0], "made": True, "score": [2120, 0],
    "to_move": None, "legal_next": None,
}

PARTIAL_NULLS = ("tricks_won", "card_points", "announcements", "announcement_points",
                 "belote", "made", "score")

# Donne 3, for illegal plays: dealer 3, seat 0 bids 80H and leads.
DONNE3 = {
    "dealer": 3,
    "hands": [["8H", "AS", "KS", "7D", "8D", "7C", "8C", "9C"],
              ["JH", "7H", "9S", "8S", "7S", "AD", "KD", "QD"],
              ["9H", "QH", "TS", "JS", "QS", "9D", "TD", "JD"],
              ["TH", "KH", "AH", "TC", "JC", "QC", "KC", "AC"]],
    "auction": ["80H", "pass", "pass", "pass"],
    "play": [],
}


def with_(record: dict, **changes) -> dict:
    r = copy.deepcopy(record)
    r.update(changes)
    return r


# ---------------------------------------------------------------------------------------
# Complete donnes
# ---------------------------------------------------------------------------------------


def test_complete_failed_contract_every_field(capsys, tmp_path):
    status, obj = score(capsys, load("donne_failed_90S.json"), tmp_path)
    assert status == 0
    assert obj == EXPECTED_FAILED_90S
    assert sum(obj["card_points"]) == 162  # 152 in the cards + 10 for the last trick


def test_complete_capot_surcoinched_transfers_announcements_with_their_seats(capsys,
                                                                              tmp_path):
    status, obj = score(capsys, load("donne_capot_surcoinche.json"), tmp_path)
    assert status == 0
    assert obj == EXPECTED_CAPOT


def test_declare_false_drops_that_seats_announcements(capsys, tmp_path):
    # seat 0 does not declare: team 0 has no announcement, seat 3's tierce now wins
    rec = with_(load("donne_failed_90S.json"), declare=[False, True, True, True])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 0
    assert obj["announcements"] == [[], [{"seat": 3, "kind": "suite", "rank": "K",
                                          "suit": "H", "length": 3, "points": 20}]]
    # failed: defence 160 + A_t 20 + A_d 0 + B_d 20 + 90 = 290; takers 0
    assert obj["announcement_points"] == [0, 20] and obj["score"] == [290, 0]


def test_tokens_and_cards_are_case_insensitive(capsys, tmp_path):
    rec = load("donne_failed_90S.json")
    rec["auction"] = [t.upper() for t in rec["auction"]]
    rec["play"] = [c.lower() for c in rec["play"]]
    rec["hands"][0][5] = "10c"
    status, obj = score(capsys, rec, tmp_path)
    assert status == 0 and obj == EXPECTED_FAILED_90S


# ---------------------------------------------------------------------------------------
# Partial and passed-out donnes
# ---------------------------------------------------------------------------------------


def test_partial_in_auction(capsys, tmp_path):
    rec = with_(load("donne_failed_90S.json"), auction=["80S", "pass"], play=[])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 0
    assert obj["legal"] is True and obj["error"] is None and obj["passed_out"] is False
    assert obj["contract"] is None and obj["tricks"] == []
    assert all(obj[k] is None for k in PARTIAL_NULLS)
    assert obj["to_move"] == 3 and obj["legal_next"] is None


def test_partial_in_play_at_the_start_of_a_trick(capsys, tmp_path):
    rec = load("donne_failed_90S.json")
    rec["play"] = rec["play"][:4]
    status, obj = score(capsys, rec, tmp_path)
    assert status == 0
    assert obj["contract"] == EXPECTED_FAILED_90S["contract"]
    assert obj["tricks"] == [trick(1, "JS TS 7S 9H", 1)]
    assert all(obj[k] is None for k in PARTIAL_NULLS)
    # seat 1 won the trick and leads: its whole remaining hand, ascending card index
    assert obj["to_move"] == 1
    assert obj["legal_next"] == ["9S", "AS", "7H", "8H", "7D", "8D", "7C"]


def test_partial_in_play_inside_a_trick(capsys, tmp_path):
    rec = load("donne_failed_90S.json")
    rec["play"] = rec["play"][:6]
    status, obj = score(capsys, rec, tmp_path)
    assert status == 0
    assert obj["tricks"] == [trick(1, "JS TS 7S 9H", 1), trick(1, "9S QS", None)]
    # seat 3 holds only 8S in trumps (below 9S): must still play a trump
    assert obj["to_move"] == 3 and obj["legal_next"] == ["8S"]


def test_partial_after_the_auction_before_any_card(capsys, tmp_path):
    status, obj = score(capsys, DONNE3, tmp_path)
    assert status == 0
    assert obj["contract"] == {"taker": 0, "value": 80, "suit": "H", "capot": False,
                               "coinche": 1}
    assert obj["tricks"] == [] and obj["to_move"] == 0
    assert obj["legal_next"] == ["KS", "AS", "8H", "7D", "8D", "7C", "8C", "9C"]


def test_passed_out_donne(capsys, tmp_path):
    rec = with_(DONNE3, auction=["pass"] * 4)
    status, obj = score(capsys, rec, tmp_path)
    assert status == 0
    assert obj["passed_out"] is True and obj["contract"] is None and obj["tricks"] == []
    assert obj["score"] == [0, 0]
    assert all(obj[k] is None for k in PARTIAL_NULLS if k != "score")
    assert obj["to_move"] is None and obj["legal_next"] is None


# ---------------------------------------------------------------------------------------
# Illegal actions: the first one, its index, the rule in words; status 1
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("auction", "index", "reason", "to_move"), [
    (["80S", "80h"], 1, "bid must be above 80S", 2),
    (["80S", "pass", "110H", "pass", "100C"], 4, "bid must be above 110H", 1),
    (["capotS", "capotH"], 1, "bid must be above capotS", 2),
    (["80S", "pass", "coinche"], 2, "cannot coinche own team's bid", 3),
    (["coinche"], 0, "no bid to coinche", 1),
    (["80S", "coinche", "pass", "coinche"], 3, "the bid is already coinched", 0),
    (["80S", "coinche", "90S"], 2, "cannot bid after a coinche", 3),
    (["80S", "surcoinche"], 1, "no coinche to surcoinche", 2),
    (["80S", "coinche", "pass", "surcoinche"], 3, "only the bidding team may surcoinche", 0),
])
def test_illegal_auction_action(capsys, tmp_path, auction, index, reason, to_move):
    rec = with_(load("donne_failed_90S.json"), auction=auction, play=[])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["legal"] is False
    assert obj["error"] == {"phase": "auction", "index": index, "action": auction[index],
                            "reason": reason}
    # the donne as it stood just before: auction running, the offender to speak
    assert obj["contract"] is None and obj["to_move"] == to_move
    assert obj["legal_next"] is None and obj["score"] is None


def test_action_after_the_auction_is_over(capsys, tmp_path):
    rec = with_(DONNE3, auction=["80H", "pass", "pass", "pass", "pass"], play=["8H"])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "auction", "index": 4, "action": "pass",
                            "reason": "the auction is over"}
    assert obj["contract"]["taker"] == 0 and obj["tricks"] == []
    assert obj["to_move"] == 0  # the first leader: the play phase is what comes next


def test_card_before_the_auction_is_finished(capsys, tmp_path):
    rec = with_(DONNE3, auction=["80H", "pass"], play=["8H"])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "play", "index": 0, "action": "8H",
                            "reason": "the auction is not finished"}
    assert obj["contract"] is None and obj["to_move"] == 2


def test_card_on_a_passed_out_donne(capsys, tmp_path):
    rec = with_(DONNE3, auction=["pass"] * 4, play=["8H"])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "play", "index": 0, "action": "8H",
                            "reason": "the donne is passed out"}
    assert obj["passed_out"] is True and obj["score"] == [0, 0]


@pytest.mark.parametrize(("play", "reason", "to_move", "legal_next"), [
    # a card of another player
    (["QS"], "does not hold QS", 0, ["KS", "AS", "8H", "7D", "8D", "7C", "8C", "9C"]),
    # AS led: seat 1 holds 7S 8S 9S
    (["AS", "AD"], "must follow spades: holds 9S", 1, ["7S", "8S", "9S"]),
    # trump led with 8H: seat 1 holds JH above it
    (["8H", "7H"], "must play a higher trump: holds JH", 1, ["JH"]),
    # clubs led by an opponent, seat 1 void in clubs with trumps
    (["7C", "AD"], "must trump: holds JH", 1, ["7H", "JH"]),
    # seat 1 trumped 7H over the partner's 7C: seat 2 must overtrump with 9H or QH
    (["7C", "7H", "TS"], "must overtrump: holds 9H", 2, ["9H", "QH"]),
    # 7C, trumped 7H, overtrumped 9H: seat 3 holds clubs and must follow, not trump
    (["7C", "7H", "9H", "KH"], "must follow clubs: holds AC", 3,
     ["TC", "JC", "QC", "KC", "AC"]),
])
def test_illegal_card(capsys, tmp_path, play, reason, to_move, legal_next):
    rec = with_(DONNE3, play=play)
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "play", "index": len(play) - 1, "action": play[-1],
                            "reason": reason}
    assert obj["to_move"] == to_move and obj["legal_next"] == legal_next
    begun = play[:-1]
    assert obj["tricks"] == ([trick(0, " ".join(begun), None)] if begun else [])
    assert all(obj[k] is None for k in PARTIAL_NULLS)


def test_card_already_played_is_not_held(capsys, tmp_path):
    # 7D AD 9D TC: seat 1 wins with AD and leads; AD again
    rec = with_(DONNE3, play=["7D", "AD", "9D", "TC", "AD"])
    status, obj = score(capsys, rec, tmp_path)
    assert status == 1
    assert obj["error"] == {"phase": "play", "index": 4, "action": "AD",
                            "reason": "does not hold AD"}
    assert obj["tricks"] == [trick(0, "7D AD 9D TC", 1)] and obj["to_move"] == 1


def test_only_the_first_illegal_action_is_reported(capsys, tmp_path):
    rec = with_(DONNE3, play=["QS", "JS"])
    _, obj = score(capsys, rec, tmp_path)
    assert obj["error"]["index"] == 0


# ---------------------------------------------------------------------------------------
# Malformed input: exit 2, one line on stderr, nothing on stdout
# ---------------------------------------------------------------------------------------


def _bad_hands(i: int, j: int, value) -> dict:
    rec = load("donne_failed_90S.json")
    rec["hands"][i][j] = value
    return rec


MALFORMED = [
    ("{not json", "invalid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"dealer": ' + "9" * 5000 + "}", "invalid JSON: a number has more than 4,300 digits"),
    (with_(DONNE3, colour="red"), "unknown key 'colour'"),
    ({k: v for k, v in DONNE3.items() if k != "hands"}, "missing key 'hands'"),
    (_bad_hands(2, 5, "ZZ"), "hands[2][5]: unknown card 'ZZ'"),
    (_bad_hands(1, 0, "9H"), "hands[1][0]: duplicate card 9H"),
    (with_(DONNE3, hands=DONNE3["hands"][:3]), "hands: expected 4 hands"),
    (with_(DONNE3, hands=[h[:7] for h in DONNE3["hands"]]), "hands[0]: expected 8 cards"),
    (with_(DONNE3, dealer=4), "dealer"),
    (with_(DONNE3, dealer="1"), "dealer"),
    (with_(DONNE3, dealer=True), "dealer"),
    (with_(DONNE3, declare=[True, True]), "declare"),
    (with_(DONNE3, declare=["yes"] * 4), "declare"),
    (with_(DONNE3, auction=["80H", "85H"]), "auction[1]: unknown auction token '85H'"),
    (with_(DONNE3, auction=["pass", "bid"]), "auction[1]: unknown auction token 'bid'"),
    (with_(DONNE3, auction=["80SA"]), "auction[0]"),
    (with_(DONNE3, profile="nope"), "unknown profile 'nope'"),
    (with_(DONNE3, play=["8H"] * 33), "play: 33 cards"),
    (with_(DONNE3, play=["8H", "1H"]), "play[1]: unknown card '1H'"),
    (with_(DONNE3, play="8H"), "play: expected a list"),
]


@pytest.mark.parametrize(("record", "culprit"), MALFORMED)
def test_malformed_input_exit_2_one_line(capsys, tmp_path, record, culprit):
    status, out, err = run_cli(capsys, record, tmp_path)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("simcoinche: error: ")
    assert culprit in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("record", "culprit"), MALFORMED[3:])
def test_verify_record_raises_input_error(record, culprit):
    with pytest.raises(InputError) as info:
        verify_record(record)
    assert culprit in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("text, culprit", [
    (None, "the donne must be JSON text, got NoneType"),
    (42, "the donne must be JSON text, got int"),
    (b"\xff{}", "invalid JSON: not UTF-8 text (byte 0)"),
])
def test_parse_record_refuses_what_is_not_json_text_in_one_line(text, culprit):
    """verify_text(None) raised json's TypeError; bytes that are not UTF-8 were reported
    as a number of more than 4,300 digits."""
    with pytest.raises(InputError) as exc:
        verify_text(text)
    assert str(exc.value) == culprit


def test_parse_record_reads_utf8_bytes():
    assert parse_record(b'{"dealer": 0}') == {"dealer": 0}


def test_parse_record_rejects_non_objects():
    with pytest.raises(InputError):
        parse_record("42")
    assert parse_record('{"dealer": 0}') == {"dealer": 0}


def test_unreadable_file_exit_2(capsys, tmp_path):
    status = main(["score", str(tmp_path / "missing.json")])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "missing.json" in err


# ---------------------------------------------------------------------------------------
# The real console script, reading stdin
# ---------------------------------------------------------------------------------------


def test_console_script_reads_stdin():
    text = (DATA / "donne_failed_90S.json").read_text()
    proc = subprocess.run([str(SCRIPT), "score", "-"], input=text, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert json.loads(proc.stdout) == EXPECTED_FAILED_90S


def test_console_script_illegal_action_status_1():
    rec = with_(DONNE3, play=["AS", "AD"])
    proc = subprocess.run([str(SCRIPT), "score", "-"], input=json.dumps(rec),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["reason"] == "must follow spades: holds 9S"


def test_console_script_malformed_input_one_line_no_traceback():
    rec = _bad_hands(2, 5, "ZZ")
    proc = subprocess.run([str(SCRIPT), "score", "-"], input=json.dumps(rec),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("simcoinche: error: hands[2][5]: unknown card 'ZZ'")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
