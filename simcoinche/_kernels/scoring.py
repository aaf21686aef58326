"""Scoring kernels: marks of one donne, end-of-partie decision.

RULES.md "Scoring of a donne" and "Partie" (federal). Every value (ladder, capot value,
failed base, announcement transfer, rounding, target) is read from the packed profile.
Teams are ``0`` (seats 0, 2) and ``1`` (seats 1, 3).
"""

from __future__ import annotations

from numba import njit

from simcoinche._kernels import layout as L

# Offsets into the ``out`` array of :func:`score_donne` (``int32[SCORE_LEN]``).
S_MADE = 0     # 1 if the contract is made
S_MARK0 = 1    # rounded mark of team 0
S_MARK1 = 2    # rounded mark of team 1
S_ANN0 = 3     # team 0 ordinary announcements after the capot transfer
S_ANN1 = 4     # team 1 ordinary announcements after the capot transfer
S_TOTAL0 = 5   # team 0 total C + A + B (before rounding)
S_TOTAL1 = 6   # team 1 total C + A + B (before rounding)
SCORE_LEN = 7


@njit(cache=True)
def bid_value(level, prof):
    """Point value of ladder ``level``: the numeric ladder, then capot, then générale."""
    nv = prof[L.P_N_BID_VALUES]
    if level < nv:
        return prof[L.P_BID_VALUES + level]
    if level == nv:
        # "`bid` = the value, 250 for capot".
        return prof[L.P_CAPOT_VALUE]
    return prof[L.P_GENERALE_VALUE]


@njit(cache=True)
def round_mark(x, prof):
    """Round a (non-negative) mark to the nearest ten, halves up, if the profile rounds."""
    if prof[L.P_ROUNDING] == 0:
        return x
    # "round each team's mark to the nearest ten, halves up (85 → 90, 84 → 80)".
    return ((x + 5) // 10) * 10


@njit(cache=True)
def score_donne(taker_team, level, kind, coinche, card_points, tricks_won, ann_points,
                belote, prof, out):
    """Score one donne (federal formulas).

    Parameters
    ----------
    taker_team : int
        Team of the final bidder, 0 or 1.
    level : int
        Ladder level of the contract (``level == n_values`` is capot).
    kind : int
        Contract kind ``0..5`` (unused by the federal formulas).
    coinche : int
        Multiplier 1, 2 (coinched) or 4 (surcoinched).
    card_points : integer[2]
        Card points per team including the last-trick bonus (252/0 on a capot).
    tricks_won : integer[2]
        Tricks per team.
    ann_points : integer[2]
        Valid ordinary announcements per team after the comparison, before the capot
        transfer.
    belote : integer[2]
        Belote points per team.
    prof : int32[PROFILE_LEN]
        Packed profile: ladder, ``P_CAPOT_VALUE``, ``P_FAILED_BASE``,
        ``P_CAPOT_TRANSFERS_ANNOUNCEMENTS``, ``P_ROUNDING``.
    out : int32[SCORE_LEN]
        Receives ``S_MADE``, the rounded marks ``S_MARK*``, the announcements after the
        transfer ``S_ANN*`` and the totals before rounding ``S_TOTAL*`` (per team).

    Returns
    -------
    int
        1 if the contract is made, else 0.
    """
    t = taker_team
    d = 1 - t
    bid = bid_value(level, prof)
    capot_bid = level >= prof[L.P_N_BID_VALUES]
    all8 = tricks_won[t] == 8
    c_t = card_points[t]
    c_d = card_points[d]
    a_t = ann_points[t]
    a_d = ann_points[d]
    b_t = belote[t]
    b_d = belote[d]
    if all8 and prof[L.P_CAPOT_TRANSFERS_ANNOUNCEMENTS] != 0:
        # "If the takers win all 8 tricks, A_t += A_d and A_d = 0 (belote is not
        # transferred)".
        a_t += a_d
        a_d = 0
    tot_t = c_t + a_t + b_t
    tot_d = c_d + a_d + b_d
    # "Made iff T_t ≥ bid and T_t > T_d, before any rounding; a capot bid also requires
    # all 8 tricks. A tie fails."
    made = tot_t >= bid and tot_t > tot_d
    if capot_bid and not all8:
        made = False
    failed_base = prof[L.P_FAILED_BASE]
    if coinche <= 1:
        if made:
            # "Not coinched, made: takers T_t + bid; defence T_d."
            mark_t = tot_t + bid
            mark_d = tot_d
        else:
            # "Not coinched, failed: takers B_t; defence 160 + A_t + A_d + B_d + bid."
            mark_t = b_t
            mark_d = failed_base + a_t + a_d + b_d + bid
    else:
        if made:
            # "takers m × (K + A_t + A_d + B_t + bid) with K = 250 if the takers won all
            # 8 tricks else 160; defence B_d."
            k = prof[L.P_CAPOT_VALUE] if all8 else failed_base
            mark_t = coinche * (k + a_t + a_d + b_t + bid)
            mark_d = b_d
        else:
            # "takers B_t (not multiplied); defence m × (160 + A_t + A_d + B_d + bid)."
            mark_t = b_t
            mark_d = coinche * (failed_base + a_t + a_d + b_d + bid)
    out[S_MADE] = 1 if made else 0
    out[S_MARK0 + t] = round_mark(mark_t, prof)
    out[S_MARK0 + d] = round_mark(mark_d, prof)
    out[S_ANN0 + t] = a_t
    out[S_ANN0 + d] = a_d
    out[S_TOTAL0 + t] = tot_t
    out[S_TOTAL0 + d] = tot_d
    return 1 if made else 0


@njit(cache=True)
def partie_step(totals, pending, marks, tricks_won, taker_team, made, prof):
    """Add one donne's marks to the partie and decide whether it is over.

    Parameters
    ----------
    totals : int32[2]
        Running partie totals per team, updated in place.
    pending : int32[2]
        1 for a team that crossed the target with a belote-only mark while failing as
        takers or winning no trick (it must still win a trick in a later donne);
        updated in place.
    marks : integer[2]
        Rounded marks of this donne per team.
    tricks_won : integer[2]
        Tricks per team in this donne (0, 0 for a passed-out donne).
    taker_team : int
        Team of the takers, -1 for a passed-out donne.
    made : int or bool
        Whether the contract was made.
    prof : int32[PROFILE_LEN]
        Packed profile (``P_TARGET``).

    Returns
    -------
    int
        The winning team, or -1 to play on.
    """
    target = prof[L.P_TARGET]
    e0 = False
    e1 = False
    for i in range(2):
        before = totals[i]
        after = before + marks[i]
        totals[i] = after
        eligible = False
        if pending[i] != 0:
            if tricks_won[i] >= 1:
                # "becomes eligible at the end of a later donne in which it wins at
                # least one trick".
                pending[i] = 0
                eligible = after >= target
        elif after >= target:
            failed_taker = taker_team == i and not made
            if before < target and (failed_taker or tricks_won[i] == 0):
                # "crossed 2000 with a mark made only of its belote while failing as
                # takers or being capot (winning no trick)": its mark is then only its
                # belote (a failed taker keeps only B_t; a team with no trick has no
                # cards and no announcements left after the transfer).
                pending[i] = 1
            else:
                # "a team at or over 2000 is eligible".
                eligible = True
        if i == 0:
            e0 = eligible
        else:
            e1 = eligible
    if e0 and e1:
        # "Both eligible: the higher total wins; equal totals: play on."
        if totals[0] > totals[1]:
            return 0
        if totals[1] > totals[0]:
            return 1
        return -1
    if e0:
        # "One eligible team: it wins."
        return 0
    if e1:
        return 1
    return -1
