"""``simcoinche odds``: one play per deal serves every level, sanity of the odds, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from simcoinche._kernels.batch import Contracts, play_contracts
from simcoinche._kernels.donne import Players
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import (
    PC_ANNOUNCE,
    PC_BELOTE,
    PC_CARD_POINTS,
    PC_LEN,
    PC_MADE,
    PC_TOTAL_TAKERS,
    PC_TRICKS,
)
from simcoinche._kernels.rng import seed_key
from simcoinche._kernels.sampler import made_at_levels
from simcoinche.analysis.hand_odds import deals, odds, plain_deal
from simcoinche.commands.cli import main
from simcoinche.players.registry import param_array
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile

HAND = "JH 9H AH TH KS 7C 8D AD"
STRONG = "JH 9H AH TH KH AS AD AC"
# No spades, no points; the opponents are known to hold the top spades and the aces.
WEAK = "7H 8H 7D 8D 7C 8C 9D 9C"
WEAK_GIVE = ["1:JS,9S,AS,AH,TC,QS", "3:TS,KS,AD,AC,TH,TD"]


def _play(hands, level, kind, prof, taker=0, dealer=3, start=0):
    n = hands.shape[0]
    out = np.empty((PC_LEN, n), dtype=np.int32)
    codes = np.array([1, 1], dtype=np.int32)
    params = np.stack([param_array("heuristic", profile="federal")] * 2)
    play_contracts(np.uint64(seed_key(np.uint64(9))), np.int64(start), hands,
                   Contracts(np.full(n, dealer, np.int8), np.full(n, taker, np.int8),
                             np.full(n, level, np.int8), np.full(n, kind, np.int8),
                             np.ones(n, np.int8)),
                   Players(codes, params, NO_KINDS), prof.packed, out, None)
    return out


@pytest.mark.parametrize("profile", ["federal", "classic", "stephanoise", "strict"])
def test_one_play_serves_every_level_exactly(profile):
    # The card play does not read the bid level: playing the same deals at every level
    # gives the same tricks, points, announcements and belote, and the success test read
    # off the level-0 play (made_at_levels) equals the contract actually played at each
    # level. Classic covers "82 at 80" and the 81-81 litige; stephanoise its own ladder.
    prof = get_profile(profile)
    d = deals(HAND, seat=1)
    hands = d.sample(3000, seed=4)
    nv = len(prof.bid_values)
    # the ladder, capot, and générale where the profile has it (decided by the bidder's
    # own tricks, read off the same play)
    levels = np.arange(nv + 1 + (1 if prof.generale_value else 0), dtype=np.int64)
    for kind in prof.contract_kinds:
        base = _play(hands, 0, kind, prof, taker=1, dealer=0)
        made = np.empty((len(levels), hands.shape[0]), dtype=np.uint8)
        made_at_levels(base, 1, kind, levels, prof.packed, made)
        for level in levels:
            other = _play(hands, level, kind, prof, taker=1, dealer=0)
            for row in (PC_TRICKS, PC_CARD_POINTS, PC_ANNOUNCE, PC_BELOTE):
                assert (other[row:row + 2] == base[row:row + 2]).all()
            assert (made[level] == other[PC_MADE]).all()
        # Levels are not all alike: the test would see a wrong level mapping.
        assert made[0].sum() > made[nv - 1].sum() >= made[nv].sum()


def test_overwhelming_hand_makes_80_almost_surely():
    r = odds(STRONG, trump="H", samples=2000, seed=1)
    lv = r.level("H", 80)
    assert lv.p > 0.99
    assert r.level("H", 100).p > 0.99


def test_worthless_hand_almost_never_makes_80():
    r = odds(WEAK, trump="S", samples=2000, seed=1, give=WEAK_GIVE)
    assert r.level("S", 80).p < 0.01
    assert r.level("S", "capot").made == 0


def test_two_seeds_agree_within_their_intervals():
    a = odds(HAND, trump="H,S", samples=3000, seed=1)
    b = odds(HAND, trump="H,S", samples=3000, seed=2)
    for ka, kb in zip(a.kinds, b.kinds, strict=True):
        for la, lb in zip(ka.levels, kb.levels, strict=True):
            # The two Wilson intervals overlap, and the difference is small against its
            # standard error (|z| < 3.9: two-sided 1e-4 per comparison, 20 comparisons).
            assert la.low <= lb.high and lb.low <= la.high
            p = (la.made + lb.made) / (la.n + lb.n)
            se = np.sqrt(max(p * (1 - p), 1e-12) * (1 / la.n + 1 / lb.n))
            assert abs(la.p - lb.p) <= max(3.9 * se, 1e-12)
    # Different seeds really are different deals.
    assert not np.array_equal(a.kinds[0].totals, b.kinds[0].totals)


def test_same_seed_same_result_whatever_the_threads():
    a = odds(HAND, trump="D", samples=1500, seed=5, threads=1)
    b = odds(HAND, trump="D", samples=1500, seed=5, threads=2)
    assert np.array_equal(a.kinds[0].totals, b.kinds[0].totals)
    assert [lv.made for lv in a.kinds[0].levels] == [lv.made for lv in b.kinds[0].levels]


def test_the_jack_of_trump_with_the_partner_beats_it_with_an_opponent():
    hand = "9H AH TH KS 7C 8D AD 7H"
    partner = odds(hand, trump="H", samples=2000, seed=3, give=["2:JH"])
    opponent = odds(hand, trump="H", samples=2000, seed=3, give=["1:JH"])
    assert partner.level("H", 120).p > opponent.level("H", 120).p + 0.1


def test_takers_total_distribution_and_levels_are_consistent():
    r = odds(HAND, samples=2000, seed=7)
    assert [ko.name for ko in r.kinds] == ["S", "H", "D", "C"]
    for ko in r.kinds:
        summary = ko.total_summary()
        assert sum(summary["histogram"]["counts"]) == 2000
        assert summary["mean"] == pytest.approx(ko.totals.mean())
        made = [lv.made for lv in ko.levels]
        # Numeric levels: a play that makes L makes every lower level.
        assert made[:-1] == sorted(made[:-1], reverse=True)
        # Federal success at L needs T_t >= L: never more than the deals reaching L.
        for lv in ko.levels[:-1]:
            assert lv.made <= int((ko.totals >= lv.value).sum())
        assert ko.levels[-1].label == "capot"
        assert ko.levels[-1].made == ko.all_tricks


def test_defaults_seat_dealer_and_levels_per_profile():
    r = odds(HAND, trump="C", samples=200)
    assert (r.deals.seat, r.dealer) == (0, 3)
    r = odds(HAND, seat=2, trump="C", samples=200)
    assert (r.deals.seat, r.dealer) == (2, 1)
    r = odds(HAND, trump="SA", samples=200, profile="classic")
    # classic: ladder 80..180, capot, générale.
    assert [lv.label for lv in r.kinds[0].levels] == [str(v) for v in range(80, 181, 10)] \
        + ["capot", "generale"]
    assert [lv.value for lv in r.kinds[0].levels][-2:] == [250, 500]


@pytest.mark.parametrize("profile", ["classic", "strict"])
def test_generale_is_made_only_within_the_teams_capots(profile):
    # A générale needs the bidder himself to take all 8 tricks: never more often than
    # the team's capot, and with the strong hand it does happen.
    r = odds(STRONG, trump="H", samples=1500, seed=2, profile=profile)
    ko = r.kind("H")
    gen = r.level("H", "generale")
    capot = r.level("H", "capot")
    assert gen.made <= capot.made == ko.all_tricks
    assert gen.made > 0
    assert r.level("H", "générale") is gen


def test_takers_totals_are_the_played_totals():
    # The result's T_t of deal i is play_contracts' T_t on sample i of the seed.
    r = odds(HAND, trump="S", samples=500, seed=12)
    hands = deals(HAND).sample(500, seed=12)
    n = hands.shape[0]
    out = np.empty((PC_LEN, n), dtype=np.int32)
    params = np.stack([param_array("heuristic", profile="federal")] * 2)
    play_contracts(np.uint64(seed_key(np.uint64(12))), np.int64(0), hands,
                   Contracts(np.full(n, 3, np.int8), np.zeros(n, np.int8),
                             np.zeros(n, np.int8), np.zeros(n, np.int8), np.ones(n, np.int8)),
                   Players(np.array([1, 1], dtype=np.int32), params, NO_KINDS),
                   get_profile("federal").packed, out, None)
    assert np.array_equal(r.kinds[0].totals, out[PC_TOTAL_TAKERS])


def test_cli_json_output(capsys):
    status = main(["odds", "--hand", HAND, "--trump", "H", "--trump", "S", "--samples",
                   "500", "--seed", "3", "--give", "1:QH", "--void", "2:C", "--json",
                   "--no-progress"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert out["samples"] == 500 and out["seed"] == 3 and out["seat"] == 0
    assert out["dealer"] == 3 and out["profile"] == "federal"
    assert out["constraints"] == {"give": {"1": "QH"}, "void": {"2": "C"}}
    assert out["consistent_deals"] == deals(HAND, give=["1:QH"], void=["2:C"]).n_deals
    assert [c["trump"] for c in out["contracts"]] == ["H", "S"]
    c = out["contracts"][0]
    assert set(c["takers_total"]) == {"mean", "sd", "quantiles", "histogram"}
    assert [lv["bid"] for lv in c["levels"]] == [f"{v}H" for v in range(80, 161, 10)] \
        + ["capotH"]
    for lv in c["levels"]:
        assert lv["low"] <= lv["p"] <= lv["high"] and lv["n"] == 500
        assert lv["p"] == lv["made"] / 500


def test_cli_table_and_one_line_answer(capsys):
    assert main(["odds", "--hand", HAND, "--samples", "400", "--no-progress"]) == 0
    table = capsys.readouterr().out
    assert "P(made)" in table and "capot" in table
    for name in ("S", "H", "D", "C"):
        assert f" {name}" in table
    assert main(["odds", "--hand", HAND, "--trump", "H", "--level", "100", "--samples",
                 "400", "--no-progress"]) == 0
    line = capsys.readouterr().out.strip()
    assert "\n" not in line and line.startswith("100H with ") and "of 400 deals" in line


@pytest.mark.parametrize("argv, fragment", [
    (["--hand", "JH 9H AH TH KS 7C 8D"], "a hand has 8 cards; got 7"),
    (["--hand", "JH 9H AH TH KS 7C 8D JH"], "card JH given twice"),
    (["--hand", HAND, "--give", "2:JH"], "card JH is in the hand"),
    (["--hand", HAND, "--void", "0:H"], "seat 0 cannot be void in hearts"),
    (["--hand", HAND, "--void", "1:hearts"],
     "--void 1: 'hearts' is not suit letters S H D C (e.g. 1:HD)"),
    (["--hand", HAND, "--void", "1:SHD", "--void", "2:SHD"],
     "no deal is consistent with the constraints"),
    (["--hand", HAND, "--give", "1:7S,8S,9S,TS,JS,QS,AS,7H,8H"], "seat 1 is given 9 cards"),
    (["--hand", HAND, "--trump", "SA"], "no SA contracts in profile federal"),
    (["--hand", HAND, "--trump", "X"], "unknown contract kind 'X'"),
    (["--hand", HAND, "--samples", "0"], "samples must be a positive integer"),
    (["--hand", HAND, "--samples", "99999999999999999999"],
     "samples must be at most 2**62 - 1"),
    (["--hand", HAND, "--samples", "9999999999", "--auction", "pass"],
     "samples (9,999,999,999) must be at most max_draws (50,000,000)"),
    (["--hand", HAND, "--samples", "4611686018427387903"],
     "samples 4,611,686,018,427,387,903: not enough memory"),
    (["--hand", HAND, "--seat", "4"], "seat must be a seat 0..3"),
    (["--hand", HAND, "--level", "105"], "bid value '105' is not a level"),
    (["--hand", HAND, "--profile", "nope"], "unknown profile"),
    (["--hand", HAND, "--samples", "ten"], "invalid integer 'ten'"),
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, fragment, capsys):
    try:
        status = main(["odds", *argv, "--no-progress"])
    except SystemExit as exc:  # argparse usage errors exit from the parser
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("simcoinche: error: ") and fragment in err
    assert err.count("\n") == 1


def test_api_rejects_bad_seed_and_players():
    with pytest.raises(InputError, match="seed"):
        odds(HAND, samples=10, seed=-1)
    with pytest.raises(InputError, match="unknown player"):
        odds(HAND, samples=10, players="nobody")


def test_the_warm_up_deal_gives_the_known_hand_and_every_other_card_once():
    # odds compiles its card play on this deal, before its sampler (issue 24).
    d = deals(HAND, 2)
    plain = plain_deal(d)
    assert plain.shape == (1, 4) and plain.dtype == np.uint32
    assert plain.flags.c_contiguous
    hands = [int(h) for h in plain[0]]
    assert hands[2] == d.hand
    assert [bin(h).count("1") for h in hands] == [8, 8, 8, 8]
    assert hands[0] | hands[1] | hands[2] | hands[3] == 0xFFFFFFFF


# In a fresh interpreter (this one has run odds many times, so its kernels hold every
# signature already): the sampling job, then odds; the signatures of the sampler and of
# the levels' scoring (compiled or loaded from the cache) after each.
_JOB_THEN_ODDS = """
import json
from simcoinche._kernels.sampler import made_at_levels, sample_deals
from simcoinche.analysis.hand_odds import odds, warm_sampling
def signatures():
    return [sorted(str(s) for s in k.signatures) for k in (sample_deals, made_at_levels)]
warm_sampling()
after_job = signatures()
odds("JH 9H AH TH KS 7C 8D AD", samples=64, threads=1, progress=False)
print(json.dumps([after_job, signatures()]))
"""


def test_the_helpers_sampling_job_compiles_what_odds_runs_beside_its_card_play():
    # The compile helper of a cold odds runs warm_sampling while odds compiles its card
    # play: odds must then find the sampler and the levels' scoring compiled for its own
    # argument types, not compile them again.
    proc = subprocess.run([sys.executable, "-c", _JOB_THEN_ODDS], capture_output=True,
                          text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    after_job, after_odds = json.loads(proc.stdout)
    assert all(after_job), after_job
    assert after_odds == after_job


@pytest.mark.parametrize("kwargs, culprit", [
    ({"hand": None}, "hand must be card texts"),
    ({"hand": 255.0}, "hand must be card texts"),
    ({"hand": True}, "hand must be card texts"),
    ({"give": 5}, "--give: expected SEAT:VALUE items"),
    ({"give": {1: None}}, "--give 1: None is not cards"),
    ({"give": {1: [1.5]}}, "--give 1: 1.5 is not a card"),
    ({"void": {1: 7}}, "--void 1: 7 is not suit letters"),
    ({"auction": 123}, "auction: expected tokens such as '80H' or 'pass'"),
    ({"trump": 1.5}, "--trump: 1.5 is not a contract kind"),
    ({"trump": True}, "--trump: True is not a contract kind"),
])
def test_api_arguments_of_the_wrong_type_are_one_line_input_errors(kwargs, culprit):
    """The Python API names the argument of the wrong type, as the command line does,
    instead of a TypeError from deep inside."""
    args = {"hand": HAND, "samples": 10, "threads": 1, "progress": False, **kwargs}
    with pytest.raises(InputError) as exc:
        odds(args.pop("hand"), **args)
    assert culprit in str(exc.value) and "\n" not in str(exc.value)


def test_odds_in_python_default_to_the_commands_sample_for_double_dummy(monkeypatch,
                                                                        capsys):
    # simcoinche.odds(hand, play="dd") drew 10,000 deals where `odds --play dd` draws
    # 2,000: five times the time for the same question. Both now take DEFAULT_SAMPLES_DD.
    from simcoinche.analysis import hand_odds

    monkeypatch.setattr(hand_odds, "DEFAULT_SAMPLES_DD", 3)
    monkeypatch.setattr(hand_odds, "DEFAULT_SAMPLES", 5)
    hand = "JH 9H AH TH KS 7C 8D AD"
    assert odds(hand, trump="H", play="dd", progress=False).samples == 3
    assert odds(hand, trump="H", progress=False).samples == 5
    capsys.readouterr()
    assert main(["odds", "--hand", hand, "--trump", "H", "--play", "dd", "--json",
                 "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["samples"] == 3
