"""Fitting data of the data-fitted bidder (:mod:`.bidder`): auctions, samples, labels.

The fitting (:mod:`simcoinche.players.bid_fit`) runs three kernels:

1. :func:`deal_auctions` deals ``n`` donnes of a run and holds their auctions with the
   given players (the simulator's own dispatch, :func:`.donne.choose_action`): full and
   auction-time hands, dealers, action codes.
2. The contracts are then played out with :func:`.batch.play_contracts`: for every donne,
   every seat as the taker of every kind the profile allows (level 0, x1; card play does
   not read the level or the multiplier), one column per ``play_index(i, seat, kd)``.
3. :func:`walk_samples` visits every decision of every auction: each one gives an
   *own* sample per kind (the seat's :func:`.bidder.own_features`, labelled by the play
   with this seat as taker of that kind) and, when the opponents hold the contract, a
   *defence* sample (:func:`.bidder.def_features`, labelled by the play of their
   contract). In mode 0 it accumulates the normal equations of the least-squares fit of
   the labels (takers' total minus defence's total) per class; in mode 1 it writes the
   fitted score of each sample; :func:`accumulate_values` then averages, per bucket of
   the score, the exact marks difference of every level and multiplier
   (:func:`.scoring.score_donne`), and the spread of the same cells: how often the
   contract is made, each team's mean mark when it is and when it is not (issue 22).

Everything here is sequential except the deals (rows are independent): sums are made in
one order, so a seed gives the same tables bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from simcoinche._kernels.annul import auction_hands
from simcoinche._kernels.auction import (
    A_BIDDER,
    A_KIND,
    A_LEVEL,
    A_STATUS,
    A_TO_SPEAK,
    AUCTION_STATE_LEN,
    auction_apply,
    auction_start,
)
from simcoinche._kernels.bid_layout import (
    N_STATS,
    ST_DEFENCE_FAILED,
    ST_DEFENCE_MADE,
    ST_MADE,
    ST_TAKERS_FAILED,
    ST_TAKERS_MADE,
)
from simcoinche._kernels.bidder import (
    N_MULT,
    NB,
    NF,
    NFD,
    NLEV,
    auction_context,
    def_features,
    kind_class,
    own_features,
    suit_summary,
)
from simcoinche._kernels.deal import deal_hands
from simcoinche._kernels.donne import MAX_ACTIONS, choose_action
from simcoinche._kernels.heuristic import _value_of_level
from simcoinche._kernels.kinds import ALL_KINDS
from simcoinche._kernels.layout import (
    F_CALL,
    F_ONE,
    P_ALLOW_SA,
    P_ALLOW_TA,
    P_AUCTION_CARDS,
    P_N_BID_VALUES,
    PC_ANNOUNCE,
    PC_BELOTE,
    PC_CARD_POINTS,
    PC_TAKER_TRICKS,
    PC_TOTAL_DEFENCE,
    PC_TOTAL_TAKERS,
    PC_TRICKS,
)
from simcoinche._kernels.rng import RNG_STATE_LEN, STREAM_PLAYERS, donne_key, rng_seed
from simcoinche._kernels.scoring import S_MADE, S_MARK0, SCORE_LEN, score_donne


@njit(cache=True, parallel=True)
def deal_auctions(run_key, start, n, players, prof, full, early, auc, auc_len, faults):
    """Deal donnes ``start .. start+n-1`` of ``run_key`` (dealer: the index mod 4) into rows
    ``0 .. n-1`` and hold their auctions.

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the seed.
    players : .donne.Players
        The bidders (``codes`` int32[2], ``params`` float64[2, PARAM_LEN]; ``kinds`` is
        not read: every player kind is compiled in, :data:`.kinds.NO_KINDS` will do).
    prof : int32[PROFILE_LEN]
        Packed profile.
    full, early : uint32[n, 4]
        Out: the 8-card hands, the cards held at the auction.
    auc : uint8[n, MAX_ACTIONS]; auc_len : int16[n]
        Out: the auctions.
    faults : int32[n]
        Out: the calls replaced by a pass (``F_*`` word; the facade refuses any).
    """
    n_blocks = (n + 511) // 512
    # (a parallel loop cannot take the None members of ``players.kinds``)
    codes = players.codes
    params = players.params
    for b in prange(n_blocks):
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        deck = np.zeros(32, dtype=np.int8)
        hands = np.zeros(4, dtype=np.uint32)
        ea = np.zeros(4, dtype=np.uint32)
        astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
        for i in range(b * 512, min(n, b * 512 + 512)):
            dealer = (start + i) & 3
            key = donne_key(run_key, start + i)
            cut = deal_hands(st, key, dealer, prof, deck, hands)
            if prof[P_AUCTION_CARDS] < 8:
                auction_hands(deck, cut, dealer, prof, ea)
            else:
                for s in range(4):
                    ea[s] = hands[s]
            for s in range(4):
                full[i, s] = hands[s]
                early[i, s] = ea[s]
            rng_seed(st, key, STREAM_PLAYERS)
            auction_start(astate, dealer)
            na = np.int64(0)
            fault = 0
            while astate[A_STATUS] == 0 and na < MAX_ACTIONS:
                seat = astate[A_TO_SPEAK]
                team = seat & 1
                a = choose_action(codes[team], ea[seat], astate, actions, na, params, team,
                                  prof, st, None, ALL_KINDS)
                if auction_apply(astate, a, prof) != 0:
                    # An illegal call is recorded (the facade refuses the data).
                    fault = (fault | (F_CALL << seat)) + F_ONE
                    a = 0
                    auction_apply(astate, a, prof)
                actions[na] = a
                auc[i, na] = a
                na += 1
            auc_len[i] = na
            faults[i] = fault


@njit(cache=True, inline="always")
def play_index(i, seat, kd):
    """Column of the play of donne ``i`` with ``seat`` the taker of kind ``kd``."""
    return (i * 4 + seat) * 6 + kd


class Auctions(NamedTuple):
    """The dealt auctions :func:`walk_samples` visits (``n`` donnes).

    ``early`` uint32[n, 4] (the cards held at the auction), ``dealers`` int8[n],
    ``teams`` int8[n] (only the decisions of that team are samples; ``-1`` every seat's),
    ``defend`` int8[n] (1: the defence decisions are samples too), ``auc`` uint8[n,
    MAX_ACTIONS] and ``auc_len`` int16[n] (the actions).
    """

    early: np.ndarray
    dealers: np.ndarray
    teams: np.ndarray
    defend: np.ndarray
    auc: np.ndarray
    auc_len: np.ndarray


class Normal(NamedTuple):
    """Normal equations per class: ``xtx_own`` float64[3, NF, NF], ``xty_own``
    float64[3, NF], ``xtx_def`` float64[3, NFD, NFD], ``xty_def`` float64[3, NFD]."""

    xtx_own: np.ndarray
    xty_own: np.ndarray
    xtx_def: np.ndarray
    xty_def: np.ndarray


class Scores(NamedTuple):
    """Fitted scores of the samples: ``mu_own`` / ``mu_def`` float64[m] and their play
    references ``ref_own`` / ``ref_def`` int64[m, 3] (play column, kind, level)."""

    mu_own: np.ndarray
    ref_own: np.ndarray
    mu_def: np.ndarray
    ref_def: np.ndarray


@njit(cache=True)
def walk_samples(mode, auctions, prof, pc, w_own, w_def, normal, scores):
    """Visit every decision of every auction (module docstring).

    ``auctions`` is an :class:`Auctions`; ``pc`` :func:`.batch.play_contracts`'s output
    (int32[PC_LEN, 4 * 6 * n]). ``mode`` 0 adds each sample to the :class:`Normal`
    equations; mode 1 writes each sample's score (weights ``w_own`` float64[3, NF],
    ``w_def`` float64[3, NFD]) and play reference into the :class:`Scores`. Returns the
    numbers of own and defence samples.
    """
    early, dealers, teams, defend, auc, auc_len = auctions
    xtx_own, xty_own, xtx_def, xty_def = normal
    mu_own, ref_own, mu_def, ref_def = scores
    n = early.shape[0]
    astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    n_kinds = 4 + prof[P_ALLOW_SA] + prof[P_ALLOW_TA]
    n_own = 0
    n_def = 0
    for i in range(n):
        auction_start(astate, dealers[i])
        for j in range(auc_len[i]):
            seat = astate[A_TO_SPEAK]
            if teams[i] >= 0 and (seat & 1) != teams[i]:
                auction_apply(astate, auc[i, j], prof)
                continue
            hand = early[i, seat]
            summary = suit_summary(hand)
            ctx = auction_context(auc[i], np.int64(j), seat, prof)
            leads = np.int64(j % 4 == 0)
            for q in range(n_kinds):
                kd = q
                if q == 4 and prof[P_ALLOW_SA] == 0:
                    kd = 5
                c = kind_class(kd)
                col = play_index(i, seat, kd)
                f = own_features(hand, summary, kd, ctx, leads)
                if mode == 0:
                    y = np.float64(pc[PC_TOTAL_TAKERS, col] - pc[PC_TOTAL_DEFENCE, col])
                    for a in range(NF):
                        xty_own[c, a] += f[a] * y
                        for b in range(NF):
                            xtx_own[c, a, b] += f[a] * f[b]
                else:
                    mu = 0.0
                    for a in range(NF):
                        mu += w_own[c, a] * f[a]
                    mu_own[n_own] = mu
                    ref_own[n_own, 0] = col
                    ref_own[n_own, 1] = kd
                    ref_own[n_own, 2] = -1
                n_own += 1
            bidder = astate[A_BIDDER]
            if defend[i] != 0 and bidder >= 0 and (bidder & 1) != (seat & 1):
                kd = astate[A_KIND]
                c = kind_class(kd)
                v = _value_of_level(astate[A_LEVEL], prof)
                col = play_index(i, bidder, kd)
                f = def_features(hand, summary, kd, v, ctx[1], ctx[3])
                if mode == 0:
                    y = np.float64(pc[PC_TOTAL_TAKERS, col] - pc[PC_TOTAL_DEFENCE, col])
                    for a in range(NFD):
                        xty_def[c, a] += f[a] * y
                        for b in range(NFD):
                            xtx_def[c, a, b] += f[a] * f[b]
                else:
                    mu = 0.0
                    for a in range(NFD):
                        mu += w_def[c, a] * f[a]
                    mu_def[n_def] = mu
                    ref_def[n_def, 0] = col
                    ref_def[n_def, 1] = kd
                    ref_def[n_def, 2] = astate[A_LEVEL]
                n_def += 1
            auction_apply(astate, auc[i, j], prof)
    return n_own, n_def


@njit(cache=True, inline="always")
def _marks_diff(pc, col, taker, level, kd, m, prof, sc, two):
    """Takers' marks minus the defence's of play ``col`` scored at ``level`` x ``m``."""
    t = taker & 1
    for q in range(2):
        two[0, q] = pc[PC_CARD_POINTS + q, col]
        two[1, q] = pc[PC_TRICKS + q, col]
        two[2, q] = pc[PC_ANNOUNCE + q, col]
        two[3, q] = pc[PC_BELOTE + q, col]
    score_donne(t, level, kd, m, two[0], two[1], two[2], two[3], prof, sc,
                pc[PC_TAKER_TRICKS, col])
    return np.float64(sc[S_MARK0 + t] - sc[S_MARK0 + 1 - t])


class Sums(NamedTuple):
    """What :func:`accumulate_values` adds up per bucket: ``own_sum`` float64[3, NB, NLEV,
    N_MULT] and ``own_n`` int64[3, NB] (own samples), ``def_sum`` float64[3, NB, N_MULT]
    and ``def_n`` int64[3, NB] (defence samples), and the outcome spread of the same
    cells, ``own_out`` float64[3, NB, NLEV, N_MULT, N_STATS] and ``def_out`` float64[3,
    NB, N_MULT, N_STATS]: contracts made, then the sums of the takers' and the defence's
    marks when made, the same when failed (:mod:`.bid_layout`, ``ST_*``)."""

    own_sum: np.ndarray
    own_n: np.ndarray
    def_sum: np.ndarray
    def_n: np.ndarray
    own_out: np.ndarray
    def_out: np.ndarray


@njit(cache=True, inline="always")
def _add_outcome(out, sc, t):
    """Add the scored donne ``sc`` (takers ``t``) to one cell's spread ``out[N_STATS]``."""
    if sc[S_MADE] != 0:
        out[ST_MADE] += 1.0
        out[ST_TAKERS_MADE] += sc[S_MARK0 + t]
        out[ST_DEFENCE_MADE] += sc[S_MARK0 + 1 - t]
    else:
        out[ST_TAKERS_FAILED] += sc[S_MARK0 + t]
        out[ST_DEFENCE_FAILED] += sc[S_MARK0 + 1 - t]


@njit(cache=True)
def accumulate_values(prof, pc, cls_own, b_own, ref_own, cls_def, b_def, ref_def, sums):
    """Sum the exact marks differences per bucket (module docstring) into ``sums``, a
    :class:`Sums`.

    Own sample ``s`` (class ``cls_own[s]``, bucket ``b_own[s]``) adds, for every level
    ``0 .. n_values`` (capot last) and multiplier, the marks difference of its play into
    ``own_sum`` and its outcome into ``own_out``, and 1 into ``own_n``; defence sample
    ``s`` adds the takers' marks difference at the contract's own level into
    ``def_sum`` and its outcome into ``def_out``, counted in ``def_n``.
    """
    own_sum, own_n, def_sum, def_n, own_out, def_out = sums
    sc = np.zeros(SCORE_LEN, dtype=np.int32)
    two = np.zeros((4, 2), dtype=np.int32)
    nv = prof[P_N_BID_VALUES]
    mults = (1, 2, 4)
    for s in range(cls_own.shape[0]):
        c = cls_own[s]
        b = b_own[s]
        col = ref_own[s, 0]
        kd = ref_own[s, 1]
        taker = (col // 6) & 3
        own_n[c, b] += 1
        for lv in range(min(nv + 1, NLEV)):
            for mi in range(N_MULT):
                own_sum[c, b, lv, mi] += _marks_diff(pc, col, taker, lv, kd, mults[mi],
                                                     prof, sc, two)
                _add_outcome(own_out[c, b, lv, mi], sc, taker & 1)
    for s in range(cls_def.shape[0]):
        c = cls_def[s]
        b = b_def[s]
        col = ref_def[s, 0]
        kd = ref_def[s, 1]
        lv = ref_def[s, 2]
        taker = (col // 6) & 3
        def_n[c, b] += 1
        for mi in range(N_MULT):
            def_sum[c, b, mi] += _marks_diff(pc, col, taker, lv, kd, mults[mi], prof, sc,
                                             two)
            _add_outcome(def_out[c, b, mi], sc, taker & 1)


# Shapes the facade allocates (exported for it).
SHAPES = (NF, NFD, NB, NLEV, N_MULT, N_STATS)
