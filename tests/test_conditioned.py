"""``odds --auction``: deals conditioned on what the model bidders said.

Exactness is checked as in ``test_sampler``: on a constrained case small enough to
enumerate every consistent deal, the model-conditioned distribution is uniform over the
deals on which the model bidders make the observed actions (the heuristic bidder is
deterministic), found here by asking the bidder about every enumerated deal; the kept
deals must match it (chi-square at 0.999), and a filter that forgets one seat must not.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_sampler import brute_force_deals, chi2, chi2_critical

from simcoinche import odds
from simcoinche._kernels.auction import AUCTION_STATE_LEN, auction_apply, auction_start
from simcoinche._kernels.auction_filter import (
    STREAM_FILTER,
    FilterOutputs,
    auction_view,
    filter_deals,
)
from simcoinche._kernels.donne import MAX_ACTIONS, Players
from simcoinche._kernels.heuristic import heuristic_action
from simcoinche._kernels.kinds import NO_KINDS, kinds_of
from simcoinche._kernels.layout import F_CALL
from simcoinche._kernels.rng import RNG_STATE_LEN, donne_key, rng_seed, seed_key
from simcoinche._kernels.sampler import DealPool
from simcoinche.analysis.conditioned import draw_kept, parse_auction
from simcoinche.analysis.hand_odds import deals
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players

HAND = "AH TH KH AS 7C AD KD 8D"
# Seat 2 holds HAND; 7 unseen cards are free (KC KS 7H JC 8C 9C 8S), 210 deals.
SMALL_GIVE = {0: "9D 8H TS JD 9H", 1: "JS QH JH 7D AC TC", 3: "QD QS 7S TD QC 9S"}


# The model bidder here is the club player's (its entry point ``heuristic_action`` is
# called from Python below; the filter treats every bidder alike). It breaks ties
# between equally good contract kinds from its random stream (no favourite suit). The
# enumeration test needs P(auction | deal) to be 0 or 1, so it models the deterministic
# variant (symmetric_ties 0: ties in suit order); the filter treats both alike, and the
# replay test below reproduces the bidder's streams draw for draw.
DETERMINISTIC = [{"symmetric_ties": 0}] * 2


def _model(players="club", params=None):
    _, codes, rows = team_players(players, params, get_profile("federal"))
    return codes, rows


def bidder_stream(seed, index, hands, n_auc):
    """The bidders' random state of drawn deal ``index`` as the filter kernel sets it:
    keyed by (seed, index), after each seat's auction cards were drawn."""
    st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    key = np.uint64(donne_key(np.uint64(seed_key(np.uint64(seed))), np.int64(index)))
    rng_seed(st, key, STREAM_FILTER)
    for s in range(4):
        auction_view(np.uint32(hands[s]), n_auc, st)
    return st


def model_says(early, auction, profile="federal", skip=(), params=None, st=None):
    """Replay ``auction`` seat by seat, asking the club bidder (its entry point
    ``heuristic_action``, called from Python, with random state ``st``) at every seat
    but the player's and ``skip``: True when each of them makes the observed action."""
    prof = get_profile(profile)
    _, rows = _model(params=params)
    state = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
    if st is None:
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    auction_start(state, auction.dealer)
    for k, code in enumerate(auction.codes):
        seat = auction.speaker(k)
        if seat != auction.seat and seat not in skip:
            said = heuristic_action(np.uint32(early[seat]), state, actions, k, rows,
                                    seat & 1, prof.packed, st)
            if said != code:
                return False
        assert auction_apply(state, code, prof.packed) == 0
        actions[k] = code
    return True


def _kept_index(rows: np.ndarray, universe: list[tuple[int, int, int, int]]) -> np.ndarray:
    index = {u: i for i, u in enumerate(universe)}
    return np.array([index[tuple(int(x) for x in r)] for r in rows])


def test_kept_deals_follow_the_model_conditioned_distribution_exactly():
    prof = get_profile("federal")
    d = deals(HAND, seat=2, give=SMALL_GIVE)
    auction = parse_auction("pass 80S", prof, seat=2)
    universe = brute_force_deals(d)
    assert len(universe) == d.n_deals == 210
    agree = np.array([model_says(h, auction, params=DETERMINISTIC) for h in universe])
    # The auction is informative here: it rules out a good share of the deals.
    assert 50 <= agree.sum() <= 150
    codes, rows = _model(params=DETERMINISTIC)
    n = 60 * int(agree.sum())
    expected = np.where(agree, n / agree.sum(), 0.0)

    def statistic(modelled=None):
        kept = draw_kept(d, auction, n, 17, prof, codes, rows, modelled=modelled,
                         progress=False)
        observed = np.bincount(_kept_index(kept.hands, universe), minlength=len(universe))
        outside = int(observed[~agree].sum())
        return outside, chi2(observed[agree].astype(float), expected[agree]), kept

    outside, stat, kept = statistic()
    assert outside == 0
    assert stat < chi2_critical(int(agree.sum()) - 1)
    assert kept.acceptance == pytest.approx(agree.mean(), abs=0.03)
    # A deliberately wrong filter (it forgets seat 0's pass: only seat 1 is modelled)
    # keeps deals the model excludes, and the test sees it.
    wrong_agree = np.array([model_says(h, auction, skip=(0,), params=DETERMINISTIC)
                            for h in universe])
    assert (wrong_agree & ~agree).any()
    outside, stat, _ = statistic(modelled=0b0010)
    assert outside > 0 or stat >= chi2_critical(int(agree.sum()) - 1)


def test_empty_auction_gives_todays_odds_for_the_same_seed(capsys):
    a = odds(HAND, samples=1500, seed=9, progress=False)
    b = odds(HAND, samples=1500, seed=9, auction="", progress=False)
    assert (b.auction.codes, b.draws, b.acceptance) == ((), 1500, 1.0)
    for ka, kb in zip(a.kinds, b.kinds, strict=True):
        assert np.array_equal(ka.totals, kb.totals)
        assert [lv.made for lv in ka.levels] == [lv.made for lv in kb.levels]
    # The same through the command line: only the auction fields differ.
    argv = ["odds", "--hand", HAND, "--samples", "800", "--seed", "4", "--json",
            "--no-progress"]
    assert main(argv) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*argv, "--auction", ""]) == 0
    read = json.loads(capsys.readouterr().out)
    assert plain.pop("auction") is None and read.pop("auction") == []
    for doc in (plain, read):
        doc.pop("seconds")
    assert plain == read


@pytest.mark.parametrize("profile, hand, auction, seat", [
    ("federal", HAND, "80H 90S", 2),
    ("federal", "JS 9D 7H 8H AC TC 7C 8S", "pass pass 80H", 3),
    # stephanoise: the bidders hold 6 of their 8 cards at the auction.
    ("stephanoise", HAND, "pass 82S", 2),
])
def test_every_kept_deal_replayed_through_the_model_bidders_reproduces_the_auction(
        profile, hand, auction, seat):
    prof = get_profile(profile)
    observed = parse_auction(auction, prof, seat=seat)
    d = deals(hand, seat=seat)
    codes, rows = _model()
    kept = draw_kept(d, observed, 300, 3, prof, codes, rows, progress=False)
    assert kept.n == 300 and kept.draws > 300
    n_auc = 8 if profile != "stephanoise" else 6
    for h, e, i in zip(kept.hands, kept.early, kept.index, strict=True):
        assert model_says(e, observed, profile, st=bidder_stream(3, i, h, n_auc))
        # The auction cards are the seat's own: all 8, or 6 of them.
        assert ((e & ~h) == 0).all() and (np.bitwise_count(e) == n_auc).all()
        assert h[seat] == d.hand
    # And the rejected deals are really rejected: the deals drawn before the first kept
    # one (same seed, same indices) all fail the replay.
    first = draw_kept(d, observed, 1, 3, prof, codes, rows, progress=False)
    assert np.array_equal(first.hands[0], kept.hands[0])
    if first.draws > 1:
        drawn = d.sample(first.draws - 1, seed=3)
        if n_auc == 8:
            assert not any(model_says(h, observed, profile, st=bidder_stream(3, i, h, 8))
                           for i, h in enumerate(drawn))


def test_kept_deals_do_not_depend_on_threads_or_chunks():
    prof = get_profile("federal")
    observed = parse_auction("pass 80H", prof, seat=2)
    d = deals(HAND, seat=2)
    codes, rows = _model()
    import numba

    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = draw_kept(d, observed, 400, 5, prof, codes, rows, progress=False)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = draw_kept(d, observed, 400, 5, prof, codes, rows, progress=False)
    finally:
        numba.set_num_threads(previous)
    few = draw_kept(d, observed, 150, 5, prof, codes, rows, progress=False)
    assert np.array_equal(one.hands, two.hands) and one.draws == two.draws
    assert np.array_equal(few.hands, one.hands[:150])


def test_a_model_kind_left_out_of_the_filter_is_a_fault_on_every_deal_not_replaced():
    # The filter compiles only the optional kinds its Players carry (the facade gives
    # kinds_of(codes)). Club models under NO_KINDS (a facade bug) cannot bid: every
    # deal records their calls as replaced, which the facade refuses; with their kinds,
    # none is.
    prof = get_profile("federal")
    observed = parse_auction("pass 80H", prof, seat=2)
    d = deals(HAND, seat=2)
    codes, rows = _model()
    n = 64
    for kinds, refused in ((NO_KINDS, True), (kinds_of(codes), False)):
        outs = FilterOutputs(np.zeros((n, 4), np.uint32), np.zeros((n, 4), np.uint32),
                             np.zeros(n, np.uint8), np.full(n, -1, np.int32))
        filter_deals(np.uint64(seed_key(np.uint64(3))), np.int64(0), np.int64(n),
                     (np.int64(0), np.int64(1)),
                     DealPool(d.known, d.free, d.seats, d.caps, d.table, d.cum, d.pick),
                     np.int64(observed.dealer), observed.array(),
                     np.int64(len(observed.codes)), np.int64(0xF & ~(1 << 2)),
                     Players(codes, rows, kinds), prof.packed, outs)
        # The first speaker is modelled (not the player's seat 2): asked on every deal.
        if refused:
            assert np.all((outs.faults & (F_CALL << observed.speaker(0))) != 0)
        else:
            assert np.all(outs.faults == 0)
            assert outs.keep.any()


def test_auction_changes_the_odds_the_expected_way():
    # Partner opened 80 hearts: the hand's hearts contracts become more likely to make;
    # an opponent's 90 spades over it makes the spades less likely.
    plain = odds(HAND, seat=2, trump="H,S", samples=1500, seed=2, progress=False)
    partner = odds(HAND, seat=2, trump="H,S", samples=1500, seed=2, auction="80H pass",
                   progress=False)
    over = odds(HAND, seat=2, trump="H,S", samples=1500, seed=2, auction="80H 90S",
                progress=False)
    assert partner.dealer == over.dealer == 3
    assert partner.level("H", 120).p > plain.level("H", 120).p + 0.1
    assert over.level("S", 100).p < plain.level("S", 100).p - 0.1
    assert 0 < over.acceptance < partner.acceptance < 1


def test_odds_mark_the_bids_the_auction_no_longer_allows():
    # After 80H 90S, seat 2 cannot bid 80H or 90H: odds gave them unmarked, as if
    # biddable ("80H ... made in 92.0 %"), in the table, the one-line answer and --json.
    over = odds(HAND, seat=2, trump="H", samples=40, seed=2, auction="80H 90S",
                progress=False)
    assert [over.legal_now(1, lv.level) for lv in over.kind("H").levels][:3] == \
        [False, False, True]
    assert over.line("H", 80).endswith("; no longer a legal bid after this auction")
    assert "no longer" not in over.line("H", 100)
    rows = over.table().splitlines()
    assert rows[-1].startswith("* no longer a legal bid after this auction")
    assert [r.split()[0] for r in rows if r.endswith("*")] == ["80", "90"]
    levels = over.to_dict()["contracts"][0]["levels"]
    assert [lv["legal_now"] for lv in levels[:3]] == [False, False, True]
    # Without an auction every bid is open: no mark, no key.
    plain = odds(HAND, seat=2, trump="H", samples=40, seed=2, progress=False)
    assert plain.legal_now(1, 0) is None and "*" not in plain.table()
    assert "legal_now" not in plain.to_dict()["contracts"][0]["levels"][0]


def test_too_low_acceptance_stops_with_one_line_suggesting_fewer_samples():
    with pytest.raises(InputError) as err:
        odds(HAND, seat=2, auction="80H 90S", samples=20_000, max_draws=200_000,
             progress=False)
    text = str(err.value)
    assert "\n" not in text and "acceptance too low" in text
    assert "over the limit of 200,000" in text and "ask for at most" in text
    # An auction the model never produces: no deal at all.
    with pytest.raises(InputError, match="no deal of"):
        odds("JH 9H AH TH KS 7C 8D AD", seat=2, auction="capotH pass", samples=10,
             max_draws=100_000, progress=False)


@pytest.mark.parametrize("kwargs, expect", [
    ({"auction": "", "seat": None, "dealer": None}, (0, 3)),
    ({"auction": "pass 80H", "seat": 2, "dealer": None}, (2, 3)),
    ({"auction": "pass 80H", "seat": None, "dealer": 1}, (0, 1)),
    ({"auction": ["pass", "80H"], "seat": 2, "dealer": 3}, (2, 3)),
    ({"auction": "pass,80h,90S", "seat": None, "dealer": None}, (0, 0)),
])
def test_seat_and_dealer_follow_from_the_auction(kwargs, expect):
    a = parse_auction(profile="federal", **kwargs)
    assert (a.seat, a.dealer) == expect
    assert a.speaker(len(a.codes)) == a.seat


@pytest.mark.parametrize("kwargs, fragment", [
    ({"auction": "80H 80S", "seat": 2}, "illegal auction '80H 80S': action 2 (80S) by seat "
                                        "1: bid must be above 80H"),
    ({"auction": "pass coinche", "dealer": 3}, "action 2 (coinche) by seat 1: no bid to "
                                               "coinche"),
    ({"auction": "80H pass coinche"}, "cannot coinche own team's bid"),
    ({"auction": "80H 85S"}, "auction action 2: unknown auction token '85S'"),
    ({"auction": "80H pass pass pass"}, "is over (the contract is fixed)"),
    ({"auction": "pass pass pass pass"}, "is over (it is passed out)"),
    ({"auction": "pass 80H", "seat": 1, "dealer": 3}, "seat 1 is not the next speaker: "
                                                     "with dealer 3, seat 2 speaks"),
    ({"auction": "", "seat": 5}, "seat must be a seat 0..3"),
])
def test_bad_auctions_are_one_line_input_errors(kwargs, fragment):
    with pytest.raises(InputError) as err:
        parse_auction(profile="federal", **kwargs)
    assert fragment in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("command", ["odds", "advise"])
@pytest.mark.parametrize("argv, fragment", [
    (["--hand", HAND, "--auction", "80H 70S"], "unknown auction token '70S'"),
    (["--hand", HAND, "--auction", "80H 80S", "--seat", "2"], "illegal auction"),
    (["--hand", HAND, "--auction", "pass 80H", "--seat", "1", "--dealer", "3"],
     "seat 1 is not the next speaker"),
    (["--hand", HAND, "--auction", "pass", "--seat", "1", "--give", "2:AH"],
     "card AH is in the hand (seat 1)"),
    (["--hand", HAND, "--auction", "pass", "--seat", "1", "--max-draws", "0"],
     "max_draws must be a positive integer"),
])
def test_cli_bad_input_is_one_line_and_exit_2(command, argv, fragment, capsys):
    status = main([command, *argv, "--samples", "50", "--no-progress"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("simcoinche: error: ") and fragment in err
    assert err.count("\n") == 1


def test_cli_reports_acceptance_and_effective_sample_size(capsys):
    argv = ["odds", "--hand", HAND, "--auction", "pass 80H", "--seat", "2", "--trump", "H",
            "--samples", "300", "--seed", "2", "--no-progress"]
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["auction"] == ["pass", "80H"] and (doc["seat"], doc["dealer"]) == (2, 3)
    assert doc["effective_samples"] == doc["samples"] == 300
    assert doc["draws"] > 300 and doc["acceptance"] == pytest.approx(300 / doc["draws"])
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "auction pass (seat 0), 80H (seat 1): kept 300 of" in table
    assert "effective sample size 300" in table
    assert main([*argv, "--level", "100"]) == 0
    line = capsys.readouterr().out
    assert "after pass (seat 0), 80H (seat 1)" in line and line.count("\n") == 1
