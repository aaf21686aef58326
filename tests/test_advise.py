"""``simcoinche advise``: the best action now, from deals conditioned on the auction."""

from __future__ import annotations

import json
import subprocess
import sys

import numba
import numpy as np
import pytest
from dd_deals import ABOVE_252_AT_STRICT_TA, GENERALE_OFF_THE_LINE_STRICT_TA

from simcoinche import advise
from simcoinche._kernels.auction import (
    A_BIDDER,
    A_COINCHE,
    A_KIND,
    A_LEVEL,
    A_STATUS,
    A_TO_SPEAK,
    AUCTION_STATE_LEN,
    auction_apply,
    auction_start,
)
from simcoinche._kernels.auction_filter import C_COINCHE, C_KIND, C_LEVEL, C_TAKER, STREAM_CONTINUE
from simcoinche._kernels.batch import Contracts, play_contracts
from simcoinche._kernels.bidder import fitted_action
from simcoinche._kernels.donne import MAX_ACTIONS, Players
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import PC_LEN, PC_MADE, PC_MARKS, PC_TRICKS
from simcoinche._kernels.rng import RNG_STATE_LEN, donne_key, rng_seed, seed_key
from simcoinche.analysis.advisor import candidate_actions, evaluate
from simcoinche.analysis.conditioned import draw_kept, parse_auction
from simcoinche.analysis.hand_odds import deals, odds
from simcoinche.commands.cli import main
from simcoinche.rules.actions import COINCHE, PASS, is_bid
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import team_players

MONSTER = "JH 9H AH TH KH QH AS AD"
WORTHLESS = "7S 8S 7H 8H 7D 8D 7C 8C"
# Opponent (seat 1, dealer 0) opens 80 hearts; the hand holds JH AH TH over its 9H.
DEFENDER = "JH AH TH 8H 7S 8S 7D 8D"


def _clearly_best(r, token):
    """``token`` is the best action, and the runner-up is worse with a paired 95 %
    interval entirely below zero."""
    assert r.best.action == token, [(a.action, a.ev) for a in r.actions[:4]]
    second = r.actions[1]
    assert second.vs_best_high < 0
    assert r.best.low <= r.best.ev <= r.best.high


def test_monster_hand_recommends_a_bid():
    r = advise(MONSTER, samples=400, seed=1, progress=False)
    assert is_bid(r.best.code)
    assert r.action("pass").vs_best_high < 0
    assert r.best.low <= r.best.ev <= r.best.high


def test_worthless_hand_recommends_pass():
    r = advise(WORTHLESS, samples=400, seed=1, progress=False)
    _clearly_best(r, "pass")
    for kind in "SHDC":
        assert r.action(f"80{kind}").vs_best_high < 0


def test_coinche_after_an_opponents_bid_the_hand_defeats():
    r = advise(DEFENDER, auction="80H", dealer=0, samples=400, seed=1, progress=False)
    assert r.auction.seat == 2 and 0 < r.acceptance < 0.1
    _clearly_best(r, "coinche")
    assert r.best.p_ours == 0 and r.best.p_made < 0.5


def _continue_in_python(early, observed, action, prof, codes, rows, key, j):
    """The rest of the auction, seat by seat, with the heuristic (data-fitted) bidder's
    entry point ``fitted_action`` and
    the bidders' random stream of kept deal ``j`` (its ties are broken from it)."""
    st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    rng_seed(st, np.uint64(donne_key(key, np.int64(j))), STREAM_CONTINUE)
    state = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
    auction_start(state, observed.dealer)
    for k, code in enumerate([*observed.codes, action]):
        assert auction_apply(state, code, prof.packed) == 0
        actions[k] = code
    na = len(observed.codes) + 1
    while state[A_STATUS] == 0:
        seat = state[A_TO_SPEAK]
        a = fitted_action(np.uint32(early[seat]), state, actions, na, rows, seat & 1,
                          prof.packed, st)
        if auction_apply(state, a, prof.packed) != 0:
            a = PASS
            auction_apply(state, a, prof.packed)
        actions[na] = a
        na += 1
    if state[A_STATUS] != 1:
        return (-1, -1, -1, 0)
    return (state[A_BIDDER], state[A_LEVEL], state[A_KIND], state[A_COINCHE])


@pytest.mark.parametrize("profile, hand, auction, seat", [
    ("federal", "AH TH KH AS 7C AD KD 8D", "80H 90S", 2),
    ("classic", "JS 9S AS TD AH KC 7C 8D", "", 1),
])
def test_each_action_is_scored_as_its_own_auction_and_play(profile, hand, auction, seat):
    # The advisor continues every candidate with the model and reuses one play per
    # (deal, taker, kind); here each (deal, action) is continued seat by seat in Python
    # and its own contract (level, coinche) played in full: same contracts, same marks.
    prof = get_profile(profile)
    observed = parse_auction(auction, prof, seat=seat)
    d = deals(hand, seat=observed.seat)
    _, codes, rows = team_players("heuristic", None, prof)
    kept = draw_kept(d, observed, 40, 6, prof, codes, rows, progress=False)
    cands = candidate_actions(observed, len(prof.bid_values))
    key = np.uint64(seed_key(np.uint64(6)))
    res = evaluate(key, kept, observed, cands, codes, rows, prof)
    contracts, diff, made = res.contracts, res.diff, res.made
    team = observed.seat & 1
    reached = set()
    for c, action in enumerate(cands):
        rows_c = []
        for j in range(kept.n):
            got = tuple(int(x) for x in contracts[[C_TAKER, C_LEVEL, C_KIND, C_COINCHE], c, j])
            assert got == _continue_in_python(kept.early[j], observed, action, prof, codes,
                                              rows, key, j)
            rows_c.append(got)
            reached.add(got[3])
        live = np.array([r[0] >= 0 for r in rows_c])
        assert (made[c][~live] == -1).all() and (diff[c][~live] == 0).all()
        assert (res.marks[:, c][:, ~live] == 0).all() and (res.tricks[:, c][:, ~live] == 0).all()
        if not live.any():
            continue
        t, lv, k, co = (np.array([r[i] for r in rows_c])[live] for i in range(4))
        out = np.empty((PC_LEN, int(live.sum())), dtype=np.int32)
        play_contracts(key, np.int64(0), np.ascontiguousarray(kept.hands[live]),
                       Contracts(np.full(live.sum(), observed.dealer, np.int8),
                                 t.astype(np.int8), lv.astype(np.int8), k.astype(np.int8),
                                 co.astype(np.int8)),
                       Players(codes, rows, NO_KINDS), prof.packed, out, None)
        assert np.array_equal(diff[c][live], out[PC_MARKS + team] - out[PC_MARKS + 1 - team])
        assert np.array_equal(made[c][live], out[PC_MADE])
        # The partie's view of the same donnes (advise --score): each team's marks, tricks.
        for side, tm in enumerate((team, 1 - team)):
            assert np.array_equal(res.marks[side, c][live], out[PC_MARKS + tm])
            assert np.array_equal(res.tricks[side, c][live], out[PC_TRICKS + tm])
    # The continuations do reach coinched contracts (the scoring of m = 2 is exercised).
    assert 2 in reached or 4 in reached


def test_candidates_are_the_legal_actions_up_to_the_ceiling():
    prof = get_profile("federal")
    opening = candidate_actions(parse_auction("", prof), len(prof.bid_values))
    assert opening[0] == PASS and COINCHE not in opening and len(opening) == 1 + 10 * 4
    after = candidate_actions(parse_auction("80H", prof, dealer=0), 2)   # up to 100
    from simcoinche.rules.actions import format_action

    assert [format_action(c, prof) for c in after] == [
        "pass", "90S", "90H", "90D", "90C", "100S", "100H", "100D", "100C", "coinche"]
    coinched = candidate_actions(parse_auction("80H coinche", prof, dealer=0), 9)
    assert [format_action(c, prof) for c in coinched] == ["pass", "surcoinche"]


def test_same_advice_whatever_the_threads():
    previous = numba.get_num_threads()
    # 1,100 deals: three blocks of the continuations and several tasks of the filter,
    # shared out to the threads (simcoinche.runs.blocks.share_blocks).
    a = advise(DEFENDER, auction="80H", dealer=0, samples=1100, seed=4, threads=1,
               max_bid=110, progress=False)
    b = advise(DEFENDER, auction="80H", dealer=0, samples=1100, seed=4,
               threads=min(2, numba.config.NUMBA_NUM_THREADS), max_bid=110, progress=False)
    assert numba.get_num_threads() == previous
    assert np.array_equal(a.diffs, b.diffs) and a.to_dict()["actions"] == \
        b.to_dict()["actions"]


def test_cli_json_and_table(capsys):
    argv = ["advise", "--hand", DEFENDER, "--auction", "80H", "--dealer", "0", "--samples",
            "300", "--max-bid", "100", "--no-progress"]
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["seat"], doc["dealer"], doc["deals"]) == (2, 0, 300)
    assert 0 < doc["acceptance"] < 1
    tokens = [a["action"] for a in doc["actions"]]
    assert sorted(tokens) == sorted(["pass", "90S", "90H", "90D", "90C", "100S", "100H",
                                     "100D", "100C", "coinche"])
    evs = [a["ev"] for a in doc["actions"]]
    assert evs == sorted(evs, reverse=True)
    for a in doc["actions"]:
        assert set(a) >= {"action", "ev", "ci95", "p_made"}
        assert a["ci95"][0] <= a["ev"] <= a["ci95"][1]
        assert a["p_made"] is None or 0 <= a["p_made"] <= 1
    assert main(argv) == 0
    table = capsys.readouterr().out
    lines = table.splitlines()
    assert "95 % interval" in table and "acceptance" in table
    first = next(i for i, line in enumerate(lines) if line.startswith("action"))
    assert lines[first + 1].split()[0] == tokens[0]


def test_play_dd_scores_each_contract_as_odds_play_dd():
    """``--play dd``: each row played double dummy gives, at every level, the same
    made/failed as ``odds --play dd`` (:func:`dd_levels`) on the same deals, and the
    takers' card points are the DD solver's."""
    from simcoinche._kernels.layout import PC_CARD_POINTS
    from simcoinche._kernels.sampler import made_at_levels
    from simcoinche.analysis.advisor import play_dd
    from simcoinche.analysis.dd import solve_many
    from simcoinche.runs.dd_columns import dd_levels

    for profile, hand, kind in [("federal", "JS 9S AS TD AH KC 7C 8D", 0),
                                ("classic", "JH 9H AH TH KH AS AD 7C", 1),
                                ("classic", "AS TS AH TH AD KD AC 7C", 4),
                                ("classic", "JS 9S JH 9H AD TD JC 8C", 5)]:
        prof = get_profile(profile)
        n = 24
        hands = deals(hand, 1).sample(n, 2, 0)
        dealer, seat = 0, 1
        levels = np.arange(prof.n_levels, dtype=np.int64)   # the ladder, capot, générale
        pc = play_dd(np.uint64(0), hands, dealer, np.full(n, seat, np.int8),
                     np.full(n, kind, np.int8), None, None, prof.packed)
        ok = np.empty((len(levels), n), dtype=np.uint8)
        made_at_levels(pc, seat & 1, kind, levels, prof.packed, ok)
        want, _, _ = dd_levels(hands, dealer, seat, kind, levels, prof.packed)
        assert np.array_equal(ok.sum(axis=1), want), profile
        c0 = np.asarray(solve_many(hands, dealer, kind, profile))   # team 0, 252: sweep
        assert np.array_equal(pc[PC_CARD_POINTS],
                              np.where(c0 == 252, prof.capot_card_points, c0))


def test_play_dd_a_capot_is_made_only_when_the_takers_dd_value_is_their_sweep():
    """RULES.md: a contract is made under double-dummy play "exactly when its success
    test holds with those card points". On a deal where the takers could force every
    trick but their DD value is 254 without a sweep (strict's tout-atout), the capot is
    not made, flagged for the générale or not, as ``odds --play dd`` counts it; the same
    deal turned by one seat gives team 1 those cards."""
    from simcoinche._kernels.layout import PC_CARD_POINTS
    from simcoinche._kernels.sampler import made_at_levels
    from simcoinche.analysis.advisor import play_dd
    from simcoinche.analysis.dd import parse_deal
    from simcoinche.runs.dd_columns import dd_levels

    prof = get_profile("strict")
    kind, nv = 5, len(prof.bid_values)
    levels = np.arange(prof.n_levels, dtype=np.int64)
    deal = parse_deal(ABOVE_252_AT_STRICT_TA)
    for turn in (0, 1):
        # Seat s holds what seat s - turn holds in the named deal; the dealer turns too.
        hands = np.array([[deal[(s - turn) % 4] for s in range(4)]] * 2, dtype=np.uint32)
        dealer, team = 1 + turn, turn
        for seat in (team, team + 2):
            taker = np.full(2, seat, np.int8)
            pc = play_dd(np.uint64(0), hands, dealer, taker, np.full(2, kind, np.int8),
                         None, None, prof.packed, for_sweep=np.array([False, True]))
            for row in range(2):    # no seat alone can sweep: the flag changes nothing
                points = pc[[PC_CARD_POINTS + team, PC_CARD_POINTS + 1 - team], row]
                tricks = pc[[PC_TRICKS + team, PC_TRICKS + 1 - team], row]
                assert points.tolist() == [254, 0] and tricks.tolist() == [4, 4]
            ok = np.empty((len(levels), 2), dtype=np.uint8)
            made_at_levels(pc, team, kind, levels, prof.packed, ok)
            assert ok[nv].tolist() == [0, 0]                  # the capot
            want, _, _ = dd_levels(hands[:1], dealer, seat, kind, levels, prof.packed)
            assert np.array_equal(ok[:, 0], want) and want[nv - 1] == 1 and want[nv] == 0


def test_play_dd_a_generale_is_made_when_the_bidder_alone_can_win_every_trick():
    """RULES.md: "a générale under double-dummy play is a separate yes/no question: can
    the bidder alone win all eight tricks". Seat 0 can, though team 0's points' DD line
    takes 254 without a sweep (strict's tout-atout): the row played for the générale is
    his sweep (capot card points, 8 tricks to 0, all 8 his) and makes it, as ``odds --play
    dd`` counts it, while the capot, read off the DD line, is not made; his partner's
    générale is not made."""
    from simcoinche._kernels.layout import PC_CARD_POINTS, PC_TAKER_TRICKS
    from simcoinche._kernels.sampler import made_at_levels
    from simcoinche.analysis.advisor import play_dd
    from simcoinche.analysis.dd import parse_deal
    from simcoinche.runs.dd_columns import dd_levels

    prof = get_profile("strict")
    kind, nv = 5, len(prof.bid_values)
    levels = np.arange(prof.n_levels, dtype=np.int64)
    hands = np.array([parse_deal(GENERALE_OFF_THE_LINE_STRICT_TA)] * 2, dtype=np.uint32)
    dealer = 3                                           # seat 0 leads
    for seat, alone in ((0, True), (2, False)):
        pc = play_dd(np.uint64(0), hands, dealer, np.full(2, seat, np.int8),
                     np.full(2, kind, np.int8), None, None, prof.packed,
                     for_sweep=np.array([False, True]))
        assert pc[[PC_CARD_POINTS, PC_CARD_POINTS + 1], 0].tolist() == [254, 0]
        assert pc[[PC_TRICKS, PC_TRICKS + 1, PC_TAKER_TRICKS], 0].tolist() == [4, 4, 4]
        if alone:
            assert pc[[PC_CARD_POINTS, PC_CARD_POINTS + 1], 1].tolist() == \
                [prof.capot_card_points, 0]
            assert pc[[PC_TRICKS, PC_TRICKS + 1, PC_TAKER_TRICKS], 1].tolist() == [8, 0, 8]
        else:
            assert np.array_equal(pc[:, 1], pc[:, 0])
        ok = np.empty((len(levels), 2), dtype=np.uint8)
        made_at_levels(pc, 0, kind, levels, prof.packed, ok)
        assert ok[nv + 1].tolist() == [0, alone]             # the générale
        # Each level as odds --play dd reads it: up to the capot off the points' line,
        # the générale off the row played for it.
        want, _, _ = dd_levels(hands[:1], dealer, seat, kind, levels, prof.packed)
        assert np.array_equal(np.where(levels <= nv, ok[:, 0], ok[:, 1]), want)
        assert want[nv] == 0 and want[nv + 1] == alone


def test_play_keys_one_play_per_contract_and_generales_apart_under_double_dummy():
    """Card play reads neither the level nor the coinche: the actions ending in one
    (deal, taker, kind) share a play. Under double dummy (``sweep_level``, the
    générale's) the générales of that contract share a second play, flagged
    ``for_sweep``."""
    from simcoinche._kernels.auction_filter import C_LEN
    from simcoinche.analysis.advisor import play_keys

    nv = len(get_profile("classic").bid_values)
    contracts = np.zeros((C_LEN, 3, 2), dtype=np.int16)
    # (taker, kind, level) per action (rows) and deal (columns); -1: passed out.
    table = [[(1, 2, 3), (-1, -1, -1)],
             [(1, 2, nv), (0, 5, 0)],
             [(1, 2, nv + 1), (0, 5, nv + 1)]]
    for a, row in enumerate(table):
        for d, (taker, kind, level) in enumerate(row):
            contracts[C_TAKER, a, d] = taker
            contracts[C_KIND, a, d] = kind
            contracts[C_LEVEL, a, d] = level
    shared = play_keys(contracts, None)
    assert shared.column.tolist() == [[0, -1], [0, 1], [0, 1]]
    assert shared.deal.tolist() == [0, 1] and shared.taker.tolist() == [1, 0]
    assert shared.kind.tolist() == [2, 5] and not shared.for_sweep.any()
    apart = play_keys(contracts, nv + 1)
    assert apart.column.tolist() == [[0, -1], [0, 2], [1, 3]]
    assert apart.deal.tolist() == [0, 0, 1, 1] and apart.taker.tolist() == [1, 1, 0, 0]
    assert apart.kind.tolist() == [2, 2, 5, 5]
    assert apart.for_sweep.tolist() == [False, True, False, True]


def test_advise_play_dd_a_capot_off_the_dd_line_a_generale_the_bidder_alone_forces():
    """``advise --play dd`` on the one deal left by the given cards (strict's
    tout-atout): seat 0 alone can win every trick, but team 0's DD value is 254 without
    a sweep. RULES.md: the capot is read off that value (never made), the générale is
    the separate question (made on every sample: played as the lower contracts of its
    kind, it would fail)."""
    deal = GENERALE_OFF_THE_LINE_STRICT_TA
    result = advise(deal[0], auction="", seat=0, dealer=3,
                    give={s: deal[s].split() for s in (1, 2, 3)}, profile="strict",
                    play="dd", samples=20, max_bid="generale", progress=False)
    by_action = {a.action: a for a in result.actions}
    assert by_action["capotTA"].p_ours == by_action["generaleTA"].p_ours == 1.0
    assert by_action["capotTA"].p_made == 0.0
    assert by_action["generaleTA"].p_made == 1.0
    assert by_action["generaleTA"].ev > by_action["160TA"].ev > by_action["capotTA"].ev


def test_advise_play_dd_and_pimc_api_and_cli(capsys):
    kw = {"samples": 40, "seed": 2, "max_bid": 90, "progress": False}
    dd_r = advise(MONSTER, play="dd", **kw)
    heur = advise(MONSTER, **kw)
    assert dd_r.play == "dd" and dd_r.samples == heur.samples == 40
    # Same deals and auctions: the same actions, other values (perfect play).
    assert [a.action for a in sorted(dd_r.actions, key=lambda a: a.code)] == \
        [a.action for a in sorted(heur.actions, key=lambda a: a.code)]
    assert not np.array_equal(dd_r.diffs, heur.diffs)
    for play in ("dd", "pimc:worlds=4"):
        argv = ["advise", "--hand", MONSTER, "--play", play, "--samples", "20",
                "--max-bid", "80", "--no-progress", "--json"]
        assert main(argv) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["play"] == play and doc["deals"] == 20
        assert set(doc) == set(heur.to_dict())
        assert [set(a) for a in doc["actions"]] == [set(heur.to_dict()["actions"][0])] * \
            len(doc["actions"])


def test_advise_takes_no_auction_as_odds_does():
    # odds(auction=None) was accepted, advise(auction=None) refused ("expected tokens").
    kw = {"samples": 30, "seed": 3, "max_bid": 90, "progress": False}
    none = advise("AH TH KH AS 7C AD KD 8D", auction=None, **kw)
    empty = advise("AH TH KH AS 7C AD KD 8D", auction="", **kw)
    assert np.array_equal(none.diffs, empty.diffs) and none.auction.codes == ()


@pytest.mark.parametrize("play", ["dd", "pimc:worlds=2"])
def test_a_slow_play_mode_plays_in_chunks_with_a_bar_and_the_outcomes_of_one_call(
        monkeypatch, capsys, play):
    # advise --play dd / pimc: minutes of card play, shown by a bar between chunks of
    # plays; each chunk draws the streams it would in one call, so nothing changes.
    from simcoinche.analysis import advisor

    prof = get_profile("federal")
    observed = parse_auction("80H 90S", prof, seat=2)
    _, codes, rows = team_players("heuristic", None, prof)
    kept = draw_kept(deals("AH TH KH AS 7C AD KD 8D", seat=2), observed, 10, 4, prof, codes,
                     rows, progress=False)
    cands = candidate_actions(observed, 3)
    key = np.uint64(seed_key(np.uint64(4)))
    _, play_fn = advisor.get_play_mode(play)
    monkeypatch.setattr(advisor, "PLAY_CHUNK", 10**9)
    whole = evaluate(key, kept, observed, cands, codes, rows, prof, play_fn)
    monkeypatch.setattr(advisor, "PLAY_CHUNK", 1)  # (a chunk: one play per thread)
    capsys.readouterr()
    chunked = evaluate(key, kept, observed, cands, codes, rows, prof, play_fn,
                       progress=True)
    for name in ("contracts", "diff", "made", "marks", "tricks"):
        assert np.array_equal(getattr(whole, name), getattr(chunked, name)), name
    # Every kept deal has a contract after some action: more plays than one chunk.
    assert ((whole.made >= 0).any(axis=0)).sum() > numba.get_num_threads()
    err = capsys.readouterr().err
    assert "card play" in err and " plays" in err


@pytest.mark.parametrize("play, fragment", [
    ("nope", "unknown --play 'nope': expected heuristic, dd, pimc"),
    ("dd:worlds=3", "--play 'dd:worlds=3': the dd play takes no parameters"),
    ("heuristic:open_min=90", "the heuristic play takes no parameters"),
    ("pimc:worlds=0", "--play 'pimc:worlds=0': "),
    ("pimc:depth=2", "--play 'pimc:depth=2': "),
    ("pimc:worlds=2,bid_worlds=2", "--play 'pimc:worlds=2,bid_worlds=2': bid_worlds is a "
     "bidding parameter; the play seats only play the cards (parameters: worlds, "
     "contest_points)"),
    ("pimc:bid_margin=5", "bid_margin is a bidding parameter"),
])
def test_bad_play_modes_are_one_line_exit_2(play, fragment, capsys):
    status = main(["advise", "--hand", MONSTER, "--play", play, "--samples", "10",
                   "--no-progress"])
    assert status == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1
    with pytest.raises(InputError, match="--play"):
        advise(MONSTER, play=play, samples=10, progress=False)


@pytest.mark.parametrize("command", ["advise", "odds"])
def test_a_model_player_thinking_at_the_auction_is_refused_not_modelled_by_its_table_bidder(
        command, capsys):
    # The model players explain the auction with their own bidders; a pimc player that
    # thinks at the auction (bid_worlds > 0) cannot be one, and is refused in one line
    # rather than replaced by its data-fitted bidder without a word.
    argv = [command, "--hand", MONSTER, "--auction", "80S", "--samples", "10",
            "--players", "heuristic,pimc:bid_worlds=2", "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == ("simcoinche: error: players: team 1's pimc thinks at the auction "
                   "(bid_worlds=2); the model players that explain the auction bid with "
                   "their own bidder, never a thinking one: drop bid_worlds here\n")
    with pytest.raises(InputError, match="team 0's pimc thinks at the auction"):
        advise(MONSTER, auction="80S", players="pimc:bid_worlds=4,heuristic", samples=10,
               progress=False)
    with pytest.raises(InputError, match="team 0's pimc thinks at the auction"):
        odds(MONSTER, auction="80S", players="pimc:bid_worlds=4", samples=10,
             progress=False)
    # An empty auction models no call (every deal is kept): nothing to refuse there. (Played
    # double dummy: the model players only explain the auction here.)
    r = odds(MONSTER, auction="", players="pimc:bid_worlds=4", play="dd", samples=2,
             threads=1, progress=False)
    assert r.samples == 2 and r.draws == 2


def test_bad_advise_options():
    with pytest.raises(InputError, match="bid value 105 is not a level"):
        advise(MONSTER, max_bid=105, samples=10, progress=False)
    with pytest.raises(InputError, match="samples must be a positive integer"):
        advise(MONSTER, samples=0, progress=False)
    # Every sample is a drawn deal: refused before drawing any.
    with pytest.raises(InputError, match=r"samples \(60,000,000\) must be at most max_draws"):
        advise(MONSTER, samples=60_000_000, progress=False)
    r = advise(MONSTER, samples=50, max_bid=90, progress=False)
    with pytest.raises(InputError, match="was not evaluated"):
        r.action("100H")


# --- advise --score: the chance of winning the partie (issue 22, criterion 3) -----------

SCORE_HAND = "JH 9H AH TH AS KS AD 7C"


@pytest.fixture(scope="module")
def scored():
    """The same deals (seed 3) advised at three scores."""
    return {score: advise(SCORE_HAND, samples=2000, seed=3, score=score, progress=False)
            for score in ((1950, 500), (500, 1950), (0, 0))}


def _ranking_turns(r, by_marks, by_win):
    """``by_marks`` scores more than ``by_win`` (paired marks difference above 0, and
    ranked above it by marks) while ``by_win`` wins the partie more often (paired
    difference of the chances above 0, and ranked above it in the advice)."""
    ev, ev_lo, _ = r.paired(by_marks, by_win)
    win, win_lo, _ = r.paired(by_win, by_marks, "p_win")
    assert ev > 0 and win_lo > 0, (ev, win)
    order = [a.action for a in r.actions]
    assert order.index(by_win) < order.index(by_marks)
    marks_order = [a.action for a in sorted(r.actions, key=lambda a: -a.ev)]
    assert marks_order.index(by_marks) < marks_order.index(by_win)
    return ev_lo


def test_score_leading_1950_to_500_ranks_a_safe_call_higher_than_by_marks(scored):
    # By marks 140H beats 100H; leading, 100H wins the partie more often (a failed 140H
    # hands the opponents 300 marks).
    assert _ranking_turns(scored[(1950, 500)], "140H", "100H") > 0


def test_score_trailing_500_to_1950_ranks_a_riskier_call_higher_than_by_marks(scored):
    # By marks 110H beats 140H; trailing, the bigger contract wins the partie more often.
    _ranking_turns(scored[(500, 1950)], "110H", "140H")


def test_score_0_0_agrees_with_the_marks_within_intervals(scored):
    r = scored[(0, 0)]
    best_win = r.actions[0]
    best_marks = max(r.actions, key=lambda a: a.ev)
    # The best chance of winning is the best in marks, or not significantly worse.
    assert best_win.action == best_marks.action or best_win.vs_best_high >= 0
    assert best_marks.p_win_vs_best_high >= 0
    # Same deals, same marks: the score changes only the ranking's measure.
    assert np.array_equal(r.diffs, scored[(1950, 500)].diffs)


def test_score_json_and_table(capsys):
    argv = ["advise", "--hand", SCORE_HAND, "--samples", "200", "--seed", "3", "--max-bid",
            "110", "--score", "1950,500", "--no-progress"]
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["score"] == [1950, 500]
    wins = [a["p_win"] for a in doc["actions"]]
    assert wins == sorted(wins, reverse=True)
    for a in doc["actions"]:
        lo, hi = a["p_win_ci95"]
        assert 0 <= lo <= a["p_win"] <= hi <= 1.0 + 1e-12
        assert a["p_win_vs_best_ci95"][0] <= a["p_win_vs_best"] <= 0 + 1e-12
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "score 1950-500" in table and "P(win)" in table
    # Without --score nothing changes: no p_win in the JSON.
    assert main(["advise", "--hand", SCORE_HAND, "--samples", "50", "--max-bid", "90",
                 "--no-progress", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "score" not in doc and all("p_win" not in a for a in doc["actions"])


@pytest.mark.parametrize(("score", "fragment"), [
    ("1950", "expected two totals US,THEM"),
    ("19a0,500", "expected two totals US,THEM"),
    ("1955,500", "is not a score of profile federal"),
    ("2000,500", "at or over the target 2000"),
])
def test_bad_scores_are_one_line_exit_2(score, fragment, capsys):
    try:
        status = main(["advise", "--hand", SCORE_HAND, "--samples", "10", "--score", score,
                       "--no-progress"])
    except SystemExit as exc:  # refused by the argument parser
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


# In a fresh interpreter (this one has run advise many times, so its kernels hold every
# signature already): the helper's job, then advise; the signatures of the filter, the
# continuations and the scoring (compiled or loaded from the cache) after each.
_JOB_THEN_ADVISE = """
import json
from simcoinche._kernels.auction_filter import continue_auctions, filter_deals, score_outcomes
from simcoinche._kernels.batch import play_contracts
from simcoinche.analysis.advisor import advise, warm_continuations
def signatures():
    return [sorted(str(s) for s in k.signatures)
            for k in (filter_deals, continue_auctions, score_outcomes)]
warm_continuations("JH 9H AH TH KS 7C 8D AD", "80S")
after_job = signatures()
card_play_in_job = len(play_contracts.signatures)
advise("AH TH KH AS 7C AD KD 8D", auction="80H 90S", seat=2, samples=40, threads=1,
       progress=False)
print(json.dumps([after_job, signatures(), card_play_in_job]))
"""


def test_the_helpers_continuations_job_compiles_what_advise_runs_beside_its_card_play():
    # The compile helper of a cold advise runs warm_continuations while advise compiles its
    # card play: advise must then find the filter, the continuations and their scoring
    # compiled for its own argument types (another hand, auction and seat than the job's),
    # not compile them again.
    proc = subprocess.run([sys.executable, "-c", _JOB_THEN_ADVISE], capture_output=True,
                          text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    after_job, after_advise, card_play_in_job = json.loads(proc.stdout)
    assert all(after_job), after_job
    assert after_advise == after_job
    # The job leaves the card play to advise itself (the longer part of its compile).
    assert card_play_in_job == 0


@pytest.mark.parametrize("top", ["-1", "-5"])
def test_cli_a_negative_top_is_refused_before_any_deal(top, capsys):
    """--top is 0 (every row) or a number of rows; a negative one used to drop rows from
    the end and miscount the rest."""
    status = main(["advise", "--hand", MONSTER, "--samples", "10", "--top", top,
                   "--no-progress"])
    cap = capsys.readouterr()
    assert status == 2 and cap.out == ""
    assert cap.err == ("simcoinche: error: --top must be 0 (every row) or a number of rows, "
                       f"got {top}\n")


def test_a_chance_of_winning_keeps_its_interval_within_0_and_100_percent():
    """A mean of win probabilities near 1 showed P(win) 99.00% [97.04, 100.96]."""
    from simcoinche.analysis.advisor import _mean_ci

    x = np.array([1.0] * 99 + [0.0])
    mean, lo, hi = _mean_ci(x, 0.0, 1.0)
    assert mean == 0.99 and 0.95 < lo < 0.99 and hi == 1.0
    assert _mean_ci(x)[2] > 1.0   # a difference of chances is not clipped
