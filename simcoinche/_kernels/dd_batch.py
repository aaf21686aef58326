"""Contracts scored on double-dummy card points: the takers' DD points and the success test.

RULES.md, "Rulings on points the sources leave open": the double-dummy (DD) value is the
card points the takers' team reaches when all four hands are visible and both sides play
perfectly, from the opening lead of seat dealer+1, 252 to a team that wins every trick;
announcements and belote do not depend on the play, so a contract is made under DD play
exactly when its success test holds with those card points (a capot: the takers' DD
value is their sweep, 252). A générale is a separate yes/no question: can the bidder
alone win all eight tricks.

:func:`.dd.solve_many` gives team 0's value ``C0`` per deal and contract kind. Where a
capot is the most a team can take, team 1's value follows from it (``docs`` of
:mod:`.dd`): ``C0 == 252`` → ``C1 = 0``; ``C0 == 0`` and team 1 can force every trick
(:func:`.dd.sweep_possible`) → ``C1 = 252``; otherwise ``C1 = D - C0``, ``D`` the kind's
card points plus the last trick (:func:`.play.points_total`: 162 at a suit, 130 at a
sans-atout of 120). At strict's tout-atout ``D`` is 258, more than a capot: team 1's
value is its own solve (the seats turned by one), and 252 is a capot only for a team
that can force every trick. :func:`dd_outcomes` turns those into what :func:`.scoring.score_donne`
— the one success test of the code base — needs: card points per team (a capot counted
as the profile counts it, ``P_CAPOT_CARD_POINTS``), the announcements every seat declares
and the belote (:func:`.announce.team_announcements`, :func:`.announce.belote_points`, as
the simulated donne computes them), and "all 8 tricks" flags. The exact trick counts of a
DD play are not needed: only "a team won all 8 tricks" (capot) and "the bidder won all 8
tricks" (générale) enter the success test.

Bit layout: hands are bitboards (bit ``suit * 8 + rank``); kinds 0..3 a trump suit, 4
sans-atout, 5 tout-atout.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcoinche._kernels import layout as L
from simcoinche._kernels.announce import belote_points, team_announcements
from simcoinche._kernels.dd import (
    DD_CAPOT,
    begin_solve,
    new_scratch,
    solve_deal,
    sweep_possible,
)
from simcoinche._kernels.donne import has_declarable
from simcoinche._kernels.play import points_total
from simcoinche._kernels.scoring import S_TOTAL0, SCORE_LEN, score_donne

# Transposition table of dd_outcomes' scratch (2 ** 16 slots, 1 MiB): its sweep checks
# stop at the first trick lost, so they visit few positions; strict's tout-atout also
# solves team 1's points in it (2 ** 16 slots search about 4 % more nodes than 2 ** 17).
SWEEP_TT_LOG2 = 16


@njit(cache=True, parallel=True)
def dd_outcomes(hands, dealer, taker, kind, c0, levels, prof, n_threads, points, swept,
                total, made):
    """Score contracts on DD card points: each row's takers' DD points, total and success.

    Parameters
    ----------
    hands : uint32[n, 4]
        The four 8-card hands by seat (bitboards).
    dealer, taker, kind : int[n]
        Dealer seat (seat ``dealer + 1`` leads), the bidder's seat and the contract kind
        0..5 per row.
    c0 : int16[n]
        Team 0's DD card points of the row's deal under ``kind`` (:func:`.dd.solve_many`,
        0..252; up to 258 at strict's tout-atout).
    levels : int[m, n]
        Ladder levels to test per row (``n_values`` capot, ``n_values + 1`` générale);
        a negative level is not tested (``made`` 0).
    prof : int32[PROFILE_LEN]
        Packed profile (success test, capot card points, announcements, belote).
    n_threads : int
        Number of blocks; block ``b`` scores rows ``b, b + n_threads, …`` with its own
        scratch. Every value is exact: nothing depends on the blocks.
    points : int16[n, 2]
        Output: DD card points per team (team 0, team 1), a capot counted as the profile
        counts it (``P_CAPOT_CARD_POINTS``; 252 in federal).
    swept : uint8[n, 2]
        Output: 1 when that team wins every trick under DD play (its capot). Not read
        off ``points``: at strict's tout-atout a value without a capot can equal the
        capot's card points.
    total : int32[n]
        Output: the takers' total ``T_t`` (DD card points + announcements after the
        capot transfer + belote), the same at every level below the générale; 0 where
        ``levels[0]`` is negative.
    made : uint8[m, n]
        Output: 1 when the row's contract at ``levels[i]`` is made under DD play.
    """
    n = hands.shape[0]
    m = levels.shape[0]
    n_blocks = max(1, min(n, n_threads))
    nv = prof[L.P_N_BID_VALUES]
    for b in prange(n_blocks):
        S = new_scratch(SWEEP_TT_LOG2)
        h = np.zeros(4, dtype=np.uint32)
        declare = np.ones(4, dtype=np.uint8)
        ann = np.zeros(2, dtype=np.int32)
        bel = np.zeros(2, dtype=np.int32)
        cpts = np.zeros(2, dtype=np.int32)
        tricks = np.zeros(2, dtype=np.int32)
        score = np.zeros(SCORE_LEN, dtype=np.int32)
        trick = np.zeros(4, dtype=np.int64)
        turned = np.zeros(4, dtype=np.uint32)
        capot_pts = np.zeros(2, dtype=np.int32)
        capot_tricks = np.zeros(2, dtype=np.int32)
        for j in range(b, n, n_blocks):
            total[j] = 0
            for s in range(4):
                h[s] = hands[j, s]
            k = kind[j]
            t = taker[j] & 1
            leader = (dealer[j] + 1) & 3
            v0 = np.int64(c0[j])
            # Both teams' points without a capot: the card points plus the last trick.
            dd_total = points_total(k, prof)
            loaded = False
            constant_sum = dd_total <= DD_CAPOT
            if constant_sum:
                # A capot (252) is the most a team can take, so both teams' points follow
                # from team 0's: a team 0 capot leaves team 1 nothing; with C0 == 0 team 1
                # has the capot exactly when it can force every trick.
                capot0 = v0 == DD_CAPOT
                capot1 = False
                if capot0:
                    v1 = np.int64(0)
                elif v0 == 0:
                    begin_solve(S, h, k, prof)
                    loaded = True
                    capot1 = sweep_possible(S, k, prof, leader, trick, 0, 1, 0) == 1
                    v1 = np.int64(DD_CAPOT) if capot1 else np.int64(dd_total)
                else:
                    v1 = dd_total - v0
            else:
                # Strict's tout-atout: 258 points are shared without a capot, more than a
                # capot's 252, so team 1's points are its own solve (the seats turned by
                # one), and 252 is a capot only for a team that can force every trick.
                for s in range(4):
                    turned[s] = h[(s + 1) & 3]
                # (Team 1's points are close to what team 0 leaves: the first guess.)
                v1 = np.int64(solve_deal(S, turned, (dealer[j] - 1) & 3, k, prof,
                                         dd_total - v0))
                begin_solve(S, h, k, prof)
                loaded = True
                capot0 = v0 == DD_CAPOT and sweep_possible(S, k, prof, leader, trick, 0, 0,
                                                           0) == 1
                capot1 = v1 == DD_CAPOT and sweep_possible(S, k, prof, leader, trick, 0, 1,
                                                           0) == 1
            # "All 8 tricks" is what the success test reads of the tricks (capot).
            tricks[0] = 8 if capot0 else 0
            tricks[1] = 8 if capot1 else 0
            if tricks[0] == 0 and tricks[1] == 0:
                # Neither team sweeps: each wins at least one trick.
                tricks[0] = 4
                tricks[1] = 4
            cpts[0] = prof[L.P_CAPOT_CARD_POINTS] if capot0 else v0
            cpts[1] = prof[L.P_CAPOT_CARD_POINTS] if capot1 else v1
            swept[j, 0] = 1 if capot0 else 0
            swept[j, 1] = 1 if capot1 else 0
            points[j, 0] = cpts[0]
            points[j, 1] = cpts[1]
            # Announcements: every seat declares, as in a simulated donne.
            if has_declarable(h):
                team_announcements(h, k, declare, prof, ann)
            else:
                ann[0] = 0
                ann[1] = 0
            belote_points(h, k, prof, bel)
            if m > 0 and levels[0, j] >= 0:
                # The takers' total is the same at every level below the générale.
                score_donne(t, 0, k, 1, cpts, tricks, ann, bel, prof, score, tricks[t])
                total[j] = score[S_TOTAL0 + t]
            # A générale is scored as the bidder's sweep when he alone can force it.
            capot_pts[t] = prof[L.P_CAPOT_CARD_POINTS]
            capot_pts[1 - t] = 0
            capot_tricks[t] = 8
            capot_tricks[1 - t] = 0
            # The bidder alone cannot force every trick where his team's DD value is below
            # a capot's 252 (RULES.md: "252 to a team that wins every trick", so a team
            # that can sweep has at least that). Elsewhere the générale is asked of him,
            # once, when a level needs it.
            v_t = v1 if t == 1 else v0
            bidder_sweeps = 0 if v_t < DD_CAPOT else -1
            for i in range(m):
                lv = levels[i, j]
                if lv < 0:
                    made[i, j] = 0
                elif lv <= nv:
                    # RULES.md: made under DD "exactly when its success test holds with
                    # those card points": a capot when the takers' DD value is their
                    # sweep (252), not where they take more without one (strict's
                    # tout-atout).
                    made[i, j] = score_donne(t, lv, k, 1, cpts, tricks, ann, bel, prof,
                                             score, tricks[t])
                else:
                    # RULES.md: "a générale under double-dummy play is a separate yes/no
                    # question: can the bidder alone win all eight tricks".
                    if bidder_sweeps < 0:
                        if not loaded:
                            begin_solve(S, h, k, prof)
                            loaded = True
                        bidder_sweeps = sweep_possible(S, k, prof, leader, trick, 0,
                                                       taker[j], 1)
                    made[i, j] = score_donne(t, lv, k, 1, capot_pts, capot_tricks, ann, bel,
                                             prof, score, 8) if bidder_sweeps == 1 else 0
