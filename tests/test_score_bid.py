"""The score-aware bidder (issue 22, item 3): inside a partie the heuristic and PIMC
players weigh their calls by match equity (:mod:`simcoinche._kernels.score_bid`).

Layers: the equity grid it reads against the shipped table; a cell's two outcomes through
the end rules against the reference partie step; its calls at 0-0 against the
score-blind bidder's, and their direction when leading or trailing near the end; the
refusal of a row without its inputs; parties with ``score_aware=0`` as before."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from test_bidder import _state as bidder_state
from test_parties import replay

import simcoinche
import simcoinche.analysis.win_probability as W
from simcoinche._kernels import bid_layout as BL
from simcoinche._kernels.auction import (
    A_PARTIE,
    A_PENDING,
    A_TOTAL,
    AUCTION_STATE_LEN,
    auction_apply,
    auction_check,
)
from simcoinche._kernels.bidder import fitted_action
from simcoinche._kernels.layout import P_PARTIE_RULE
from simcoinche._kernels.score_bid import (
    FB_SCORE_GATE as SB_GATE,
)
from simcoinche._kernels.score_bid import (
    SLOPE_MARKS,
    _cell_equity,
    _local,
    _local_memo,
    bid_call,
    equity_at,
    fitted_call,
    own_cell,
    score_action,
)
from simcoinche.players.bid_tables import bid_outcomes, check_outcomes
from simcoinche.players.equity import shipped_table
from simcoinche.players.registry import param_array
from simcoinche.rules import reference
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import PROFILES, get_profile

FEDERAL = get_profile("federal")


@njit(cache=True)
def _equity_at(params, a, b, pa, pb, target):
    return equity_at(params, 0, a, b, pa, pb, target)


@njit(cache=True)
def _cell(params, cell, we_take, capot, score):
    return _cell_equity(params, 0, cell, we_take, capot, score)


def _row(profile="federal", **over):
    return param_array("heuristic", over, profile=get_profile(profile))[None, :]


def _state(tokens, dealer, score=None, pending=(0, 0)):
    """The federal auction after ``tokens`` (test_bidder's helper), with the partie's
    score in its slots when ``score`` is given."""
    st, acts, n = bidder_state(tokens, FEDERAL, dealer)
    if score is not None:
        st[A_PARTIE] = 1
        st[A_TOTAL:A_TOTAL + 2] = score
        st[A_PENDING:A_PENDING + 2] = pending
    return st, acts, n


# --- the inputs it reads ------------------------------------------------------------------


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_equity_grid_equals_the_shipped_table_on_grid_totals(profile):
    table = shipped_table(profile)
    row = _row(profile)
    g = int(row[0, BL.EQ_STEP])
    assert g * BL.EQ_N == table.target
    rng = np.random.default_rng(5)
    for _ in range(200):
        us, them = (int(v) * g for v in rng.integers(0, BL.EQ_N, 2))
        got = _equity_at(row, float(us), float(them), 0, 0, table.target)
        assert got == pytest.approx(table.value(us, them, deal="us"), abs=1e-12)
    # A pending team at the target, the other below it.
    for them in (0, 50 * g, (BL.EQ_N - 1) * g):
        got = _equity_at(row, float(table.target), float(them), 1, 0, table.target)
        want = table.value(table.target, them, deal="us", pending=(True, False))
        assert got == pytest.approx(want, abs=1e-12)


def test_equity_grid_interpolates_between_grid_totals():
    # Between two grid totals the grid gives the straight line between their values.
    table = shipped_table("classic")
    row = _row("classic")
    g = int(row[0, BL.EQ_STEP])
    lo, hi = table.value(1200, 700, deal="us"), table.value(1200 + g, 700, deal="us")
    got = _equity_at(row, 1200 + 0.3 * g, 700.0, 0, 0, table.target)
    assert got == pytest.approx(0.7 * lo + 0.3 * hi, abs=1e-12)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_shipped_outcome_spread_matches_the_marks_tables(profile):
    # The spread was measured on fresh donnes in the shipped tables' own cells
    # (analysis/fit_bidder.py --outcomes-only): the mean marks difference it implies,
    # p made * (takers - defence | made) + (1 - p) * (takers - defence | failed), follows
    # each cell's mean in the marks tables (sampling noise aside). A spread read from the
    # wrong cells would not.
    from simcoinche.players.bid_tables import bid_tables

    prof = get_profile(profile)
    nv = len(prof.bid_values)
    cells = bid_outcomes(prof)[1:1 + BL.BO_OWN_LEN].reshape(
        BL.N_CLASSES, BL.NB, BL.NLEV, BL.N_MULT, BL.N_STATS)
    tables = bid_tables(prof)
    implied, table = [], []
    for c in range(BL.N_CLASSES):
        base = 1 + c * BL.CLASS_LEN + BL.OWN_EV
        ev = tables[base:base + BL.NB * BL.NLEV * BL.N_MULT].reshape(BL.NB, BL.NLEV,
                                                                      BL.N_MULT)
        p, tm, dm, tf, df = np.moveaxis(cells[c], -1, 0)
        mean = p * (tm - dm) + (1 - p) * (tf - df)
        used = (ev != 0) | (mean != 0)
        used[:, nv + 1:] = False
        implied.append(mean[used])
        table.append(ev[used])
    implied, table = np.concatenate(implied), np.concatenate(table)
    assert len(table) >= 24 * (nv + 1) * 3
    assert np.corrcoef(implied, table)[0, 1] > 0.98
    assert np.median(np.abs(implied - table)) < 15
    # Shares made fall as the level rises (the same plays scored against higher bids).
    p1 = cells[0, :, :nv, 0, BL.ST_MADE]
    assert (np.diff(p1, axis=1) <= 1e-12).all()


def test_outcome_spread_of_another_profile_or_out_of_range_is_refused():
    out = np.array(bid_outcomes("federal"))
    with pytest.raises(InputError, match="another profile"):
        check_outcomes(out, "classic", "x.npy")
    out[1] = 1.5  # the first cell's share made
    with pytest.raises(InputError, match="outside"):
        check_outcomes(out, "federal", "x.npy")


# --- a contract's two outcomes through the end rules --------------------------------------


def _whole(mark):
    """A mean mark to whole marks, halves up (as the kernel rounds)."""
    return int(np.floor(mark + 0.5))


def _reference_after(score, marks, tricks, taker, made):
    """P(we win) after one donne, from the reference end rules and the shipped table."""
    table = shipped_table("federal")
    winner, totals, pending = reference.partie_step(score, (False, False), marks, tricks,
                                                    taker, made, FEDERAL)
    if winner >= 0:
        return 1.0 if winner == 0 else 0.0
    assert not any(pending)  # the scores of the test leave no team pending
    # Between grid totals (steps of 20): the bilinear blend of the four around them; a
    # total between the top grid total (1980) and the target counts as the top one.
    g = 2000 // BL.EQ_N
    top = (BL.EQ_N - 1) * g
    (x, fx), (y, fy) = ((t // g * g, (t % g) / g) if t < top else (top - g, 1.0)
                        for t in totals)
    v = [[table.value(x + i * g, y + j * g, deal="us") for j in (0, 1)] for i in (0, 1)]
    return ((v[0][0] * (1 - fy) + v[0][1] * fy) * (1 - fx)
            + (v[1][0] * (1 - fy) + v[1][1] * fy) * fx)


@pytest.mark.parametrize("score", [(0, 0), (1500, 1700), (1880, 400), (420, 1930)])
def test_cell_equity_is_two_outcomes_through_the_reference_end_rules(score):
    row = _row()
    rng = np.random.default_rng(sum(score))
    for _ in range(20):
        kd, b, lv, mi = (int(rng.integers(4)), int(rng.integers(BL.NB)),
                         int(rng.integers(9)), int(rng.integers(3)))
        cell = own_cell(kd, b, lv, mi)
        p, tm, dm, tf, df = row[0, cell:cell + BL.N_STATS]
        for we_take in (True, False):
            st = (np.int64(score[0]), np.int64(score[1]), np.int64(0), np.int64(0),
                  np.int64(2000), np.int64(FEDERAL.packed[P_PARTIE_RULE]), True)
            got = _cell(row, cell, we_take, False, st)
            side = 0 if we_take else 1
            made = [_whole(tm), _whole(dm)] if we_take else [_whole(dm), _whole(tm)]
            failed = [_whole(tf), _whole(df)] if we_take else [_whole(df), _whole(tf)]
            want = (p * _reference_after(score, made, (1, 1), side, True)
                    + (1 - p) * _reference_after(score, failed, (1, 1), side, False))
            assert got == pytest.approx(want, abs=1e-9), (kd, b, lv, mi, we_take)


# --- its calls -----------------------------------------------------------------------------


def _random_auctions(n, seed, score, over=None):
    """``n`` random auction positions (deal, 0-5 calls by score-blind bidders), each
    seat's call by the score-aware bidder at ``score`` and by the score-blind one."""
    row = _row(**(over or {}))
    rng = np.random.default_rng(seed)
    st_rng = np.zeros(4, dtype=np.uint64)
    pairs = []
    for _ in range(n):
        deck = rng.permutation(32)
        hands = [np.uint32(sum(1 << int(c) for c in deck[8 * s:8 * s + 8])) for s in range(4)]
        st, acts, k = _state((), int(rng.integers(4)), score)
        for _ in range(int(rng.integers(6))):
            if st[8] != 0:
                break
            a = fitted_action(hands[st[0]], st, acts, k, row, 0, FEDERAL.packed, st_rng)
            auction_apply(st, a, FEDERAL.packed)
            acts[k] = a
            k += 1
        if st[8] != 0:
            continue
        aware = int(fitted_call(hands[st[0]], st, acts, k, row, 0, FEDERAL.packed,
                                st_rng.copy()))
        blind = int(fitted_action(hands[st[0]], st, acts, k, row, 0, FEDERAL.packed,
                                  st_rng.copy()))
        assert auction_check(st, aware, FEDERAL.packed) == 0
        pairs.append((aware, blind))
    return pairs


def test_at_the_start_of_a_partie_the_calls_are_mostly_the_score_blind_ones():
    # At 0-0 a mark is worth about what it is worth anywhere: the margins converted at
    # the local slope keep the score-blind bidder's calls in most positions.
    pairs = _random_auctions(1500, 1, (0, 0), {"score_gate": 0})
    same = np.mean([a == b for a, b in pairs])
    assert same >= 0.85, same


def test_outside_a_partie_the_call_is_the_score_blind_one():
    row = _row()
    rng = np.random.default_rng(2)
    st_rng = np.zeros(4, dtype=np.uint64)
    for _ in range(300):
        hand = np.uint32(sum(1 << int(c) for c in rng.permutation(32)[:8]))
        st, acts, k = _state((), int(rng.integers(4)))
        st[A_TOTAL:A_TOTAL + 2] = (1950, 500)  # a score without the partie flag: unread
        assert fitted_call(hand, st, acts, k, row, 0, FEDERAL.packed, st_rng.copy()) == \
            fitted_action(hand, st, acts, k, row, 0, FEDERAL.packed, st_rng.copy())
    # score_aware=0 inside a partie: score-blind too.
    row0 = _row(score_aware=0)
    st, acts, k = _state((), 0, (1950, 500))
    hand = np.uint32(0xFF00)
    assert fitted_call(hand, st, acts, k, row0, 0, FEDERAL.packed, st_rng.copy()) == \
        fitted_action(hand, st, acts, k, row0, 0, FEDERAL.packed, st_rng.copy())


def _level(a):
    return (a - 8) // 6 if a >= 8 else -1


def test_runs_of_single_donnes_do_not_compile_the_score_aware_bidder():
    # bid_call(None, ...) (simulate, the bid samples) is the score-blind call and its
    # machine code does not contain the score-aware bidder; with a typed flag (parties)
    # it reads the partie flag of the auction state, as fitted_call does.
    @njit(cache=False)
    def single(hand, st, acts, k, row, prof, rng):
        return bid_call(None, hand, st, acts, k, row, 0, prof, rng)

    @njit(cache=False)
    def in_partie(hand, st, acts, k, row, prof, rng):
        return bid_call(np.int64(1), hand, st, acts, k, row, 0, prof, rng)

    row = _row()
    rng = np.random.default_rng(9)
    differ = 0
    for _ in range(200):
        hand = np.uint32(sum(1 << int(c) for c in rng.permutation(32)[:8]))
        st, acts, k = _state((), int(rng.integers(4)), (1950, 500))
        st_rng = np.zeros(4, dtype=np.uint64)
        blind = fitted_action(hand, st, acts, k, row, 0, FEDERAL.packed, st_rng.copy())
        aware = fitted_call(hand, st, acts, k, row, 0, FEDERAL.packed, st_rng.copy())
        assert single(hand, st, acts, k, row, FEDERAL.packed, st_rng.copy()) == blind
        assert in_partie(hand, st, acts, k, row, FEDERAL.packed, st_rng.copy()) == aware
        differ += int(blind != aware)
    assert differ > 0  # at 1950-500 the two bidders do part
    assert "score_action" not in "".join(single.inspect_llvm().values())
    assert "score_action" in "".join(in_partie.inspect_llvm().values())


def test_leading_near_the_end_bids_no_higher_and_trailing_coinches_more():
    # Leading 1950-500 a made contract of any level wins the partie: the seat bids
    # lower than the score-blind bidder, never higher. Trailing 500-1950 any contract
    # the opponents make loses it: the seat coinches more often.
    lead = _random_auctions(1500, 3, (1950, 500))
    bids = [(_level(a), _level(b)) for a, b in lead if a >= 8 and b >= 8]
    assert len(bids) > 100
    assert np.mean([a <= b for a, b in bids]) >= 0.95
    assert np.mean([a < b for a, b in bids]) >= 0.2
    trail = _random_auctions(1500, 3, (500, 1950))
    coinche_aware = sum(a == 1 for a, _ in trail)
    coinche_blind = sum(b == 1 for _, b in trail)
    assert coinche_aware > 2 * max(coinche_blind, 5), (coinche_aware, coinche_blind)


def test_where_the_equity_bends_less_than_the_gate_the_call_is_the_score_blind_one():
    # Below the seat's score_gate the equity is a straight line over a donne's swing and
    # the score-blind call is taken as it is; score_gate=0 weighs the same positions,
    # and its calls do part from the score-blind ones somewhere.
    gated = _row()
    weighed = _row(score_gate=0)
    gate = gated[0, SB_GATE]
    assert gate > 0
    rng = np.random.default_rng(8)
    st_rng = np.zeros(4, dtype=np.uint64)
    straight = weighed_differ = 0
    for _ in range(1500):
        totals = (int(rng.integers(0, 150)) * 10, int(rng.integers(0, 150)) * 10)
        hand = np.uint32(sum(1 << int(c) for c in rng.permutation(32)[:8]))
        st, acts, k = _state((), int(rng.integers(4)), totals)
        for _ in range(int(rng.integers(3))):  # a call or two of the score-blind bidder
            a = fitted_action(np.uint32(0xF0F0), st, acts, k, gated, 0, FEDERAL.packed,
                              st_rng)
            auction_apply(st, a, FEDERAL.packed)
            acts[k] = a
            k += 1
        if st[8] != 0:
            continue
        us = int(st[0]) & 1
        score = (np.int64(totals[us]), np.int64(totals[1 - us]), np.int64(0), np.int64(0),
                 np.int64(FEDERAL.target), np.int64(FEDERAL.packed[P_PARTIE_RULE]),
                 k % 2 == 0)
        if _local(gated, 0, score)[2] >= gate:
            continue
        straight += 1
        blind = fitted_action(hand, st, acts, k, gated, 0, FEDERAL.packed, st_rng.copy())
        assert score_action(hand, st.copy(), acts, k, gated, 0, FEDERAL.packed,
                            st_rng.copy()) == blind
        weighed_differ += int(score_action(hand, st.copy(), acts, k, weighed, 0,
                                           FEDERAL.packed, st_rng.copy()) != blind)
    assert straight > 300
    assert weighed_differ > 0


def test_the_score_memo_gives_the_slope_and_equity_of_the_score_it_is_asked():
    # (slope, now) is computed once per team and auction and kept in the auction state,
    # keyed by the score: a repeated call reads the same numbers, and a memo left by
    # another score, pending flag, dealer or parameter row is never read.
    params = np.concatenate([_row(), _row(profile="classic")])
    rng = np.random.default_rng(5)
    st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    for _ in range(400):
        us = int(rng.integers(2))
        row = int(rng.integers(2))
        score = (np.int64(rng.integers(0, 200) * 10), np.int64(rng.integers(0, 200) * 10),
                 np.int64(rng.integers(2) * (rng.random() < 0.2)), np.int64(0),
                 np.int64(2000), np.int64(0), bool(rng.integers(2)))
        want = _local(params, row, score)
        assert _local_memo(st, params, row, score, us) == want  # fresh, or a stale key
        assert _local_memo(st, params, row, score, us) == want  # read back


def test_a_call_after_another_score_is_the_call_of_its_own_score():
    # The same auction state reused for a new score (as the partie kernel reuses it from
    # donne to donne) calls as a fresh state at that score.
    row = _row()
    rng = np.random.default_rng(6)
    st_rng = np.zeros(4, dtype=np.uint64)
    differ = 0
    for _ in range(300):
        hand = np.uint32(sum(1 << int(c) for c in rng.permutation(32)[:8]))
        dealer = int(rng.integers(4))
        first = (int(rng.integers(0, 200)) * 10, int(rng.integers(0, 200)) * 10)
        then = (int(rng.integers(150, 200)) * 10, int(rng.integers(0, 200)) * 10)
        used, acts, k = _state((), dealer, first)
        a_first = score_action(hand, used, acts, k, row, 0, FEDERAL.packed, st_rng.copy())
        used[A_TOTAL:A_TOTAL + 2] = then
        fresh, _, _ = _state((), dealer, then)
        a_then = score_action(hand, used, acts, k, row, 0, FEDERAL.packed, st_rng.copy())
        assert a_then == score_action(hand, fresh, acts, k, row, 0, FEDERAL.packed,
                                      st_rng.copy())
        differ += int(a_first != a_then)
    assert differ > 0  # the two scores do call differently somewhere


def test_slope_conversion_scale_is_about_a_donne():
    # The margins are converted over a donne-sized swing (documented constant).
    assert 50 <= SLOPE_MARKS <= 200


def test_a_row_without_its_equity_grid_refuses_to_bid_in_a_partie():
    row = _row().copy()
    row[0, BL.EQ_STEP] = 0.0
    st, acts, k = _state((), 0, (0, 0))
    a = score_action(np.uint32(0xFF00), st, acts, k, row, 0, FEDERAL.packed,
                     np.zeros(4, dtype=np.uint64))
    assert auction_check(st, a, FEDERAL.packed) != 0
    row = _row().copy()
    row[0, BL.BO_KEY] += 1
    a = score_action(np.uint32(0xFF00), st, acts, k, row, 0, FEDERAL.packed,
                     np.zeros(4, dtype=np.uint64))
    assert auction_check(st, a, FEDERAL.packed) != 0


@pytest.mark.parametrize("value", ["2", "0.5", "-1"])
def test_score_aware_takes_only_0_or_1(value):
    with pytest.raises(InputError, match="score_aware"):
        param_array("heuristic", {"score_aware": value}, profile=FEDERAL)


# --- parties -------------------------------------------------------------------------------


def test_parties_pass_the_score_to_the_bidder_and_score_aware_0_ignores_it():
    # Same seed, same deals: the first donne of every partie is played at 0-0, where
    # most score-aware calls are the score-blind ones (a donne holds several calls, any
    # of which may differ); later donnes part as the score makes the calls differ.
    # Every partie still ends by the rules.
    blind = simcoinche.parties(400, seed=7, players="heuristic:score_aware=0",
                               progress=False)
    aware = simcoinche.parties(400, seed=7, players="heuristic", progress=False)
    db, da = W.partie_donnes(blind), W.partie_donnes(aware)
    first_b = db[db["donne"] == 0].reset_index(drop=True)
    first_a = da[da["donne"] == 0].reset_index(drop=True)
    same = np.ones(len(first_b), dtype=bool)
    for col in ("taker", "trump", "bid_value", "coinche"):
        same &= (first_b[col] == first_a[col]).to_numpy()
    assert same.mean() >= 0.7, same.mean()
    assert not blind["winner"].equals(aware["winner"])
    for runs, name in ((blind, "blind"), (aware, "aware")):
        assert (runs["winner"] >= 0).all(), name
        assert replay(runs, "federal") == int(runs["n_donnes"].sum())
