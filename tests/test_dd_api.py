"""``simcoinche.analysis.dd`` (the double-dummy facade) and the ``simcoinche dd`` command.

RULES.md, "Rulings on points the sources leave open": the double-dummy value is the card
points a team reaches when all four hands are visible and both sides play perfectly,
from the opening lead of seat dealer+1; 252 to a team that wins every trick. A générale
under double-dummy play: can the bidder alone win all eight tricks.

The endings below are worked by hand. Each is reached by a fixed opening (see
:func:`skeleton`): the leader cashes the six top hearts (trump) in tricks 1-6 while the
others discard, so the leader's team takes every point but the ending's, and the last
two tricks are the hand-made ending.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from dd_deals import ABOVE_252_AT_STRICT_TA, HONOURS_TO_TEAM_0

from simcoinche._kernels import dd as kdd
from simcoinche.analysis import dd
from simcoinche.commands.cli import main
from simcoinche.rules import reference as ref
from simcoinche.rules import reference_dd as rdd
from simcoinche.rules.cards import CONTRACT_KIND_NAMES, format_card, parse_card, parse_hand
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile

DATA = Path(__file__).parent / "data"
HEARTS = 1
TOP_HEARTS = ["JH", "9H", "AH", "TH", "KH", "QH"]


def skeleton(ending: list[str], leader: int) -> tuple[list[list[str]], list[str]]:
    """The deal and the first 24 cards of a donne ending in ``ending`` (two cards per
    seat, no heart; ``ending[s]`` is seat ``s``'s, "AS KS").

    Seat ``leader`` holds the six top hearts and leads them; the next seat holds 8H and 7H
    (played on the first two tricks) and four other cards; the other two seats six each.
    Every discard is legal (nobody else has a heart after trick 2), and the leader wins
    tricks 1-6 and leads trick 7.
    """
    end = [e.split() for e in ending]
    used = set(TOP_HEARTS + ["8H", "7H"] + [c for e in end for c in e])
    filler = [format_card(c) for c in range(32) if format_card(c) not in used]
    assert len(filler) == 16
    hands: list[list[str]] = [[] for _ in range(4)]
    second, third, fourth = ((leader + k) & 3 for k in (1, 2, 3))
    hands[leader] = TOP_HEARTS + end[leader]
    hands[second] = ["7H", "8H", *filler[:4], *end[second]]
    hands[third] = [*filler[4:10], *end[third]]
    hands[fourth] = [*filler[10:16], *end[fourth]]
    second_cards = ["7H", "8H", *filler[:4]]
    play = []
    for t in range(6):
        play += [TOP_HEARTS[t], second_cards[t], filler[4 + t], filler[10 + t]]
    return hands, play


def record(ending: list[str], leader: int, last8: list[str]) -> dict:
    hands, play = skeleton(ending, leader)
    # The leader (seat dealer + 1) speaks first and takes 80 hearts.
    return {"profile": "federal", "dealer": (leader - 1) & 3, "hands": hands,
            "auction": ["80H", "pass", "pass", "pass"], "play": play + last8}


# Ending 1 (seat 0 leads trick 7, hearts trump, none left):
#   seat 0: AS KS   seat 1: TS 7S   seat 2: 8D 7D   seat 3: 8C 7C
# Team 0 took every point of tricks 1-6: 152 - (AS 11 + KS 4 + TS 10) = 127.
# - 0 leads AS: seat 1 keeps its guarded ten (7S); KS then loses to TS (14 + 10 last):
#   team 0 ends with 127 + 11 = 138. (TS on the ace would give team 0 all 8 tricks: 252.)
# - 0 leads KS: seat 1 takes it with TS (14), then AS wins 7S (11 + 10): 127 + 21 = 148
#   (ducking with 7S would give team 0 the capot, 252).
# So AS costs 10. The recorded play leads AS, and seat 1 correctly keeps TS (team 1: 24).
ENDING_1 = ["AS KS", "TS 7S", "8D 7D", "8C 7C"]
PLAY_1 = ["AS", "7S", "8D", "8C", "KS", "TS", "7D", "7C"]
EXPECTED_1 = [  # index, seat, card, value, best, best value, cost
    (24, 0, "AS", 138, ["KS"], 148, 10),
    (25, 1, "7S", 24, ["7S"], 24, 0),
    (26, 2, "8D", 138, ["7D", "8D"], 138, 0),
    (27, 3, "8C", 24, ["7C", "8C"], 24, 0),
    (28, 0, "KS", 138, ["KS"], 138, 0),
    (29, 1, "TS", 24, ["TS"], 24, 0),
    (30, 2, "7D", 138, ["7D"], 138, 0),
    (31, 3, "7C", 24, ["7C"], 24, 0),
]


def write(tmp_path: Path, rec: dict | str) -> str:
    path = tmp_path / "donne.json"
    path.write_text(rec if isinstance(rec, str) else json.dumps(rec))
    return str(path)


def run_dd(capsys, tmp_path, rec, *flags) -> tuple[int, str, str]:
    status = main(["dd", *flags, "--no-progress", write(tmp_path, rec)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def donne_1(tmp_path_factory) -> dict:
    """ENDING_1's complete donne and the command's JSON and text output on it (run once:
    the opening positions of this deal take seconds to solve)."""
    rec = record(ENDING_1, 0, PLAY_1)
    path = write(tmp_path_factory.mktemp("dd"), rec)
    outputs = {}
    for flags in (["--json"], []):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            status = main(["dd", *flags, "--no-progress", path])
        outputs["json" if flags else "text"] = (status, buf.getvalue())
    return {"record": rec, **outputs}


def test_command_per_card_analysis_of_a_hand_worked_ending(donne_1):
    """The last two tricks of a complete donne, worked by hand (ENDING_1): leading the
    ace instead of the king costs 10 card points; every value is the player's team's."""
    status, out = donne_1["json"]
    assert status == 0
    obj = json.loads(out)
    assert list(obj) == ["table", "contract", "play", "error"]
    assert obj["error"] is None
    assert obj["contract"] == {"taker": 0, "value": 80, "suit": "H", "capot": False,
                               "coinche": 1}
    assert [p["index"] for p in obj["play"]] == list(range(32))
    got = [(p["index"], p["seat"], p["card"], p["value"], p["best"], p["best_value"],
            p["cost"]) for p in obj["play"][24:]]
    assert got == EXPECTED_1


def test_command_agrees_with_card_values_on_every_card(donne_1):
    """Each card's value, best cards and best value are card_values at that position
    (the player's team's view); the first lead's best value is the table's."""
    rec = donne_1["record"]
    obj = json.loads(donne_1["json"][1])
    for p in obj["play"]:
        values = dd.card_values(rec["hands"], rec["dealer"], "H", rec["play"][:p["index"]])
        assert p["value"] == values[p["card"]]
        assert p["best_value"] == max(values.values())
        assert p["best"] == [c for c, v in values.items() if v == p["best_value"]]
        assert p["cost"] == p["best_value"] - p["value"] >= 0
    assert obj["play"][0]["best_value"] == obj["table"]["H"][0]
    tab = dd.table(rec["hands"], rec["dealer"])
    assert obj["table"] == {k: list(v) for k, v in tab.items()}
    assert tab["H"] == (137, 25)  # team 0's capot is not on: 137 + 25 = 162


def test_command_text_report_has_the_table_the_cards_and_the_total_cost(donne_1):
    obj = json.loads(donne_1["json"][1])
    costs = [0, 0]
    for p in obj["play"]:
        costs[p["seat"] & 1] += p["cost"]
    status, out = donne_1["text"]
    assert status == 0
    lines = out.splitlines()
    for kind, (t0, t1) in obj["table"].items():
        assert any(line.split() == [kind, str(t0), str(t1)] for line in lines)
    assert "Contract: 80 H by seat 0 (team 0)" in out
    assert " 24     7    0  AS     138  KS" in out
    assert lines[-1] == (f"Total cost: team 0 {costs[0]} card points, team 1 {costs[1]} "
                         "card points")
    assert costs[0] >= 10


# Ending 2 (seat 1 leads trick 7 after team 1 took tricks 1-6; hearts trump, none left):
#   seat 1: 7S AC   seat 2: 8S 7C   seat 3: 7D 8C   seat 0: 8D 9C
# - 1 leads 7S: seat 2's 8S wins a trick of four cards worth 0; seat 2 leads 7C and AC
#   takes the last trick (11 + 10). Team 0 ends with 0 card points, but it won a trick,
#   so team 1 has 162, not 252.
# - 1 leads AC (11): then 7S loses to 8S, which takes the last trick: team 0 has 10,
#   team 1 152.
# Team 1 cannot take every trick (seat 2's 8S beats 7S whenever it is led).
ENDING_2 = ["8D 9C", "7S AC", "8S 7C", "7D 8C"]
# Ending 3: the same, but seat 1 holds 8S and seat 2 7S: team 1 takes every trick (252)
# whatever it leads.
ENDING_3 = ["8D 9C", "8S AC", "7S 7C", "7D 8C"]


def test_card_values_team1_reaches_162_when_team0_wins_only_a_pointless_trick():
    hands, play = skeleton(ENDING_2, 1)
    assert dd.card_values(hands, 0, "H", play) == {"7S": 162, "AC": 152}
    # Seat 2, after 7S: 8S wins the trick (team 0 ends with 0 card points), 7C cannot.
    assert dd.card_values(hands, 0, "H", [*play, "7S"]) == {"8S": 0}
    # The table of a whole deal uses the same rule (team 0's DD value 0, no capot).
    hands3, play3 = skeleton(ENDING_3, 1)
    assert dd.card_values(hands3, 0, "H", play3) == {"8S": 252, "AC": 252}
    assert dd.card_values(hands3, 0, "H", [*play3, "8S"]) == {"7S": 0}


def test_table_is_252_to_the_team_that_takes_every_trick():
    """'252 to a team that wins every trick': seat 1 holds the eight hearts and leads."""
    hands = ["AS TS KS QS JS 9S 8S 7S", "JH 9H AH TH KH QH 8H 7H",
             "AD TD KD QD JD 9D 8D 7D", "AC TC KC QC JC 9C 8C 7C"]
    tab = dd.table(hands, 0)
    assert tab["H"] == (0, 252) and tab["H"].team1 == 252
    assert set(tab) == {"S", "H", "D", "C"}
    # Every kind adds up to 162 unless one side takes everything.
    for t0, t1 in tab.values():
        assert t0 + t1 == 162 or {t0, t1} == {0, 252}
    assert dd.generale(hands, 0, "H", 1)
    assert not dd.generale(hands, 0, "H", 3)
    classic = dd.table(hands, 0, "classic")
    assert list(classic) == ["S", "H", "D", "C", "SA", "TA"]
    assert dd.generales(hands, 0, "classic")["H"] == [1]


@pytest.mark.parametrize("profile", ["classic", "stephanoise", "strict"])
def test_a_sans_atout_capot_is_252_whatever_the_card_points_of_the_kind(profile):
    """'252 to a team that wins every trick' (RULES.md, double-dummy values, every
    profile): team 0 takes every trick at sans-atout. Stephanoise's and strict's
    sans-atout cards are worth 120 (classic's 152), so the capot's last trick brings
    team 0 to 252 there too, and team 1 has 0 (not 220 and -58)."""
    assert dd.table(HONOURS_TO_TEAM_0, 3, profile)["SA"] == (252, 0)


def test_strict_tout_atout_values_run_to_258_without_a_capot():
    """Strict's tout-atout scores every card as a trump (248 card points, 258 with the
    last trick): a team's points without a capot can pass the capot's 252. Each team's
    value is its own solve: team 0 takes 254 by leaving team 1 a trick of 4, and holds
    team 1 to 0 by taking every trick, which it can force."""
    assert dd.table(ABOVE_252_AT_STRICT_TA, 1, "strict")["TA"] == (254, 0)
    # Team 0 can take every trick.
    prof = get_profile("strict").packed
    S = kdd.new_scratch()
    kdd.begin_solve(S, np.array(dd.parse_deal(ABOVE_252_AT_STRICT_TA), np.int64), 5, prof)
    assert kdd.sweep_possible(S, 5, prof, 2, np.zeros(4, np.int64), 0, 0, 0) == 1


# Strict's tout-atout, seat 0 leads trick 7 after taking tricks 1-6 (see skeleton): team
# 0 holds everything but the ending's 40 points, 218 of its 258.
#   seat 0: 7C TC   seat 1: QC KC   seat 2: JS QS   seat 3: 8S 8D
# Seat 0 leads 7C; seat 1 must go higher. On QC nobody else has a club: team 1 takes
# trick 7 with QC and team 0's cheaper discard QS (3 + 3 = 6), TC then beats KC. Team 0
# ends with 252 without a capot, and team 1 with 6. On KC (4) team 1 has 7.
ENDING_STRICT_TA = ["7C TC", "QC KC", "JS QS", "8S 8D"]


def test_card_values_of_team_1_at_strict_tout_atout_are_its_own_perfect_play():
    """Strict's tout-atout shares 258 points without a capot, so team 0's 252 is not
    always its capot and team 1's points do not follow from team 0's: at seat 1, each
    card's value is team 1's own perfect play (the readable minimax with the seats
    turned by one), 6 and 7, and team 0's 252 after QC leaves team 1 those 6."""
    hands, play = skeleton(ENDING_STRICT_TA, 0)
    play = [*play, "7C"]
    got = dd.card_values(hands, 3, "TA", play, "strict")
    assert got == {"QC": 6, "KC": 7}
    ending = [{parse_card(c) for c in h.split()} for h in ENDING_STRICT_TA]
    ending[0].discard(parse_card("7C"))
    turned = ending[1:] + ending[:1]
    assert got == {c: rdd.value_after(turned, 3, [parse_card("7C")], 5, parse_card(c),
                                      "strict", capot_open=False) for c in got}
    assert dd.card_values(hands, 3, "TA", [*play, "QC"], "strict") == {"JS": 235,
                                                                     "QS": 252}


@pytest.mark.parametrize("profile", ["stephanoise", "strict"])
def test_without_a_capot_both_teams_share_the_kinds_card_points_plus_the_last_trick(
        profile):
    """Random deals: per kind, both teams' DD points add up to the kind's card points
    plus the last trick (162 at a suit, 130 at a sans-atout of 120) unless one team wins
    every trick (252 and 0), and team 1's value equals its own solve, the seats turned
    by one. At strict's tout-atout (258 without a capot, more than a capot's 252) each
    team's value is its own solve, and they add up to at most 258."""
    rng = random.Random(f"dd-totals-{profile}")
    for _ in range(5):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s:8 * s + 8]) for s in range(4)]
        dealer = rng.randrange(4)
        tab = dd.table(hands, dealer, profile)
        turned = dd.table(hands[1:] + hands[:1], (dealer - 1) % 4, profile)
        for kind, (t0, t1) in tab.items():
            total = rdd.dd_total(CONTRACT_KIND_NAMES.index(kind), profile)
            assert t1 == turned[kind].team0, (kind, hands, dealer)
            if total <= 252:
                assert t0 + t1 == total or {t0, t1} == {0, 252}, (kind, t0, t1)
            else:
                assert t0 + t1 <= total, (kind, t0, t1)


def test_generale_needs_the_bidder_alone_to_take_all_eight_tricks():
    """Seat 0 holds seven trumps and the ace of spades: it wins everything alone. With
    the king of spades instead of the ace, seat 1's ace takes a trick: no générale."""
    alone = ["JH 9H AH TH KH QH 8H AS", "7H KS QS JS 9S 8S 7S TS",
             "AD TD KD QD JD 9D 8D 7D", "AC TC KC QC JC 9C 8C 7C"]
    assert dd.generale(alone, 3, "H", 0, "classic")
    swapped = ["JH 9H AH TH KH QH 8H KS", "7H AS QS JS 9S 8S 7S TS",
               "AD TD KD QD JD 9D 8D 7D", "AC TC KC QC JC 9C 8C 7C"]
    assert not dd.generale(swapped, 3, "H", 0, "classic")


def test_hands_as_lists_strings_or_bitboards_give_the_same_table():
    rec = json.loads((DATA / "donne_failed_90S.json").read_text())
    as_lists = dd.table(rec["hands"], 0)
    as_text = dd.table([" ".join(h) for h in rec["hands"]], 0)
    masks = [parse_hand(h) for h in rec["hands"]]
    as_ints = dd.table(masks, 0)
    as_array = dd.table(np.array(masks, dtype=np.uint32), 0)
    assert as_lists == as_text == as_ints == as_array
    assert json.dumps(as_lists) == ('{"S": [96, 66], "H": [88, 74], "D": [252, 0], '
                                    '"C": [252, 0]}')


def test_solve_many_is_the_table_and_the_same_for_any_thread_count():
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(4):
        deck = rng.permutation(32)
        rows.append([sum(1 << int(c) for c in deck[8 * s:8 * s + 8]) for s in range(4)])
    hands = np.array(rows, dtype=np.uint32)
    dealer = np.array([0, 1, 2, 3])
    kind = np.array([2, 3, 0, 1])
    one = dd.solve_many(hands, dealer, kind, threads=1)
    two, nodes = dd.solve_many(hands, dealer, kind, threads=2, return_nodes=True)
    assert one.dtype == np.int16 and one.shape == (4,)
    assert np.array_equal(one, two)
    assert (nodes > 0).all()
    for i in range(4):
        assert one[i] == dd.table(hands[i], int(dealer[i]))["SHDC"[kind[i]]].team0
    assert dd.solve_many(np.zeros((0, 4), np.uint32), [], []).shape == (0,)


@pytest.mark.parametrize(("call", "culprit"), [
    (lambda: dd.solve_many(np.zeros((2, 3), np.uint32), 0, 0), "shape (n, 4)"),
    (lambda: dd.solve_many([[0xFF, 0xFF00, 0xFF0000, 0x7F000000]], 0, 0),
     "hands[0, 3]: expected 8 cards, got 7"),
    (lambda: dd.solve_many([[0xFF, 0xFF, 0xFF0000, 0xFF000000]], 0, 0),
     "hands[0]: the four hands share a card"),
    (lambda: dd.solve_many([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], 4, 0),
     "dealer[0]: expected a seat 0..3, got 4"),
    (lambda: dd.solve_many([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], 0, "SA"),
     "kind: profile federal has no SA contract"),
    (lambda: dd.solve_many([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]] * 2, 0, [0, 5]),
     "kind[1]: profile federal has no TA contract"),
    (lambda: dd.solve_many([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], 0, [0, 1]),
     "kind: expected 1 contract kinds"),
    (lambda: dd.solve_many([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], 0, 0, threads=0),
     "threads must be a positive integer"),
    (lambda: dd.table([["JH"]] * 4, 0), "hands[0]: expected 8 cards, got 1"),
    (lambda: dd.table(["JH 9H AH TH KH QH 8H 7H"] * 4, 0),
     "hands[1][0]: duplicate card JH (also hands[0][0])"),
    (lambda: dd.table(["ZZ"] * 4, 0), "hands[0]: expected 8 cards"),
    (lambda: dd.table("JH", 0), "hands: expected 4 lists of cards or 4 bitboards"),
    (lambda: dd.table([0xFF, 0xFF00, 0xFF0000, 0xFF000000], 7), "dealer: expected a seat"),
    (lambda: dd.table([0xFF, 0xFF00, 0xFF0000, 0xFF000000], 0, "nope"), "unknown profile"),
    (lambda: dd.card_values([0xFF, 0xFF00, 0xFF0000, 0xFF000000], 0, "X"),
     "kind: unknown contract kind 'X'"),
    (lambda: dd.card_values([0xFF, 0xFF00, 0xFF0000, 0xFF000000], 0, 1, ["7H", "ZZ"]),
     "played[1]: unknown card 'ZZ'"),
    (lambda: dd.card_values([0xFF, 0xFF00, 0xFF0000, 0xFF000000], 0, 1, ["7S"]),
     "played[0]: 7S by seat 1: "),
    (lambda: dd.generale([0xFF, 0xFF00, 0xFF0000, 0xFF000000], 0, 1, 4), "seat: expected"),
])
def test_bad_input_is_one_line_naming_the_culprit(call, culprit):
    with pytest.raises(InputError) as exc:
        call()
    assert culprit in str(exc.value)
    assert "\n" not in str(exc.value)


def test_command_illegal_card_exit_1_with_scores_error_object(capsys, tmp_path):
    """An illegal card: exit 1, the error object of 'simcoinche score', and the cards
    before it analysed."""
    rec = json.loads((DATA / "donne_failed_90S.json").read_text())
    # Trick 2: seat 1 leads 9S, seat 2 plays QS; seat 3 holds 8S and must follow.
    rec["play"] = [*rec["play"][:6], "KH"]
    status, out, _ = run_dd(capsys, tmp_path, rec, "--json")
    assert status == 1
    obj = json.loads(out)
    assert main(["score", write(tmp_path, rec)]) == 1
    score = json.loads(capsys.readouterr().out)
    assert obj["error"] == score["error"]
    assert obj["error"]["index"] == 6 and obj["error"]["action"] == "KH"
    assert [p["index"] for p in obj["play"]] == list(range(6))
    status, out, _ = run_dd(capsys, tmp_path, rec)
    assert status == 1 and out.splitlines()[-1].startswith("Illegal card: play[6] KH: ")
    # An illegal auction action: no contract, no card analysed, the table still printed.
    rec["auction"] = ["80S", "80H"]  # not above 80S
    status, out, _ = run_dd(capsys, tmp_path, rec, "--json")
    obj = json.loads(out)
    assert status == 1 and obj["contract"] is None and obj["play"] == []
    assert obj["error"]["phase"] == "auction" and obj["error"]["index"] == 1
    assert obj["table"]["S"] == [96, 66]


def test_command_without_auction_or_play_prints_the_table_only(capsys, tmp_path):
    rec = json.loads((DATA / "donne_failed_90S.json").read_text())
    del rec["auction"], rec["play"]
    status, out, _ = run_dd(capsys, tmp_path, rec, "--json")
    assert status == 0
    assert json.loads(out) == {"table": {"S": [96, 66], "H": [88, 74], "D": [252, 0],
                                         "C": [252, 0]},
                               "contract": None, "play": [], "error": None}


def test_command_classic_profile_reports_generales(capsys, tmp_path):
    rec = {"profile": "classic", "dealer": 3,
           "hands": [h.split() for h in ["JH 9H AH TH KH QH 8H AS", "7H KS QS JS 9S 8S 7S TS",
                                         "AD TD KD QD JD 9D 8D 7D",
                                         "AC TC KC QC JC 9C 8C 7C"]],
           "auction": [], "play": []}
    status, out, _ = run_dd(capsys, tmp_path, rec, "--json")
    obj = json.loads(out)
    assert status == 0
    assert list(obj["table"]) == ["S", "H", "D", "C", "SA", "TA"]
    assert obj["generale"]["H"] == [0]
    assert obj["table"]["H"] == [252, 0]
    status, out, _ = run_dd(capsys, tmp_path, rec)
    assert any(line.split() == ["H", "252", "0", "seat", "0"] for line in out.splitlines())


@pytest.mark.parametrize(("text", "culprit"), [
    ("{", "invalid JSON"),
    ('{"dealer": ' + "9" * 5000 + "}", "invalid JSON: a number has more than 4,300 digits"),
    ("[]", "must be a JSON object"),
    ('{"dealer": 0}', "missing key 'hands'"),
    ('{"dealer": 0, "hands": [], "color": 1}', "unknown key 'color'"),
    ('{"dealer": 9, "hands": []}', "dealer: expected a seat 0..3"),
    ('{"dealer": 0, "hands": [["JH"], [], [], []]}', "hands[0]: expected 8 cards"),
    ('{"dealer": 0, "profile": "nope", "hands": []}', "unknown profile"),
])
def test_command_malformed_input_exit_2_one_line(capsys, tmp_path, text, culprit):
    status, out, err = run_dd(capsys, tmp_path, text)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and culprit in err


def test_card_values_before_the_first_card_is_the_table():
    rec = json.loads((DATA / "donne_failed_90S.json").read_text())
    values = dd.card_values(rec["hands"], 0, "S")
    first = ref.legal_cards({parse_card(c) for c in rec["hands"][1]}, [], 0)
    assert set(values) == {format_card(c) for c in first}
    # Seat 1 (team 1) leads: its best value is team 1's table entry.
    assert max(values.values()) == dd.table(rec["hands"], 0)["S"].team1
    assert dd.card_values(rec["hands"], 0, "S", rec["play"]) == {}


def test_dd_flags_are_true_or_false():
    rec = json.loads((DATA / "donne_failed_90S.json").read_text())
    with pytest.raises(InputError, match="progress must be True or False, got 'x'"):
        dd.table(rec["hands"], 0, progress="x")
    with pytest.raises(InputError, match="return_nodes must be True or False, got 'yes'"):
        dd.solve_many([dd.parse_deal(rec["hands"])], 0, "S", return_nodes="yes")
