"""Scoring kernels: marks of one donne, end-of-partie decision.

RULES.md "Scoring of a donne" and "Partie" (federal) and each profile's differences
(classic, stephanoise, strict), selected by ``P_SCORING_RULE``, ``P_SUCCESS_RULE`` and
``P_PARTIE_RULE``. Every value (ladder, capot value,
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
S_LITIGE = 7   # 1 for a classic litige (81–81 at 80: nobody scores)
SCORE_LEN = 8


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
                belote, prof, out, taker_tricks=-1):
    """Score one donne with the profile's success test, formulas, multipliers, rounding.

    Parameters
    ----------
    taker_team : int
        Team of the final bidder, 0 or 1.
    level : int
        Ladder level of the contract (``level == n_values`` is capot, ``n_values + 1``
        générale).
    kind : int
        Contract kind ``0..5`` (sans-atout ``4`` multiplies the bid by ``P_SA_MULTIPLIER``).
    coinche : int
        Multiplier 1, 2 (coinched) or 4 (surcoinched).
    card_points : integer[2]
        Card points per team including the last-trick bonus (``P_CAPOT_CARD_POINTS``/0
        when one team wins all 8 tricks).
    tricks_won : integer[2]
        Tricks per team.
    ann_points : integer[2]
        Valid ordinary announcements per team after the comparison, before the capot
        transfer.
    belote : integer[2]
        Belote points per team.
    prof : int32[PROFILE_LEN]
        Packed profile: ladder, ``P_CAPOT_VALUE``, ``P_GENERALE_VALUE``,
        ``P_GENERALE_CARD_POINTS``, ``P_CAPOT_CARD_POINTS``, ``P_FAILED_BASE``,
        ``P_CAPOT_TRANSFERS_ANNOUNCEMENTS``, ``P_SUCCESS_RULE``, ``P_FIRST_BID_NEEDS``,
        ``P_LITIGE_POINTS``, ``P_SCORING_RULE``, ``P_SA_MULTIPLIER``, ``P_ROUNDING``.
    out : int32[SCORE_LEN]
        Receives ``S_MADE``, the rounded marks ``S_MARK*``, the announcements after the
        transfer ``S_ANN*``, the totals before rounding ``S_TOTAL*`` (per team) and
        ``S_LITIGE``.
    taker_tricks : int, optional
        Tricks won by the bidder himself (not his team). Needed only to decide a générale
        ("one player takes all 8 tricks"); ``-1`` (default) uses the team's count, which
        is exact for every other contract.

    Returns
    -------
    int
        1 if the contract is made, else 0 (a litige is 0 with ``out[S_LITIGE] = 1``).
    """
    t = taker_team
    d = 1 - t
    bid = bid_value(level, prof)
    nv = prof[L.P_N_BID_VALUES]
    capot_bid = level >= nv
    generale_bid = level == nv + 1
    all8 = tricks_won[t] == 8
    own = tricks_won[t] if taker_tricks < 0 else taker_tricks
    generale_won = generale_bid and own == 8
    c_t = card_points[t]
    c_d = card_points[d]
    if generale_won and prof[L.P_GENERALE_CARD_POINTS] > 0:
        # classic: "Générale bid: 500 and 500" — the points made are 500.
        c_t = prof[L.P_GENERALE_CARD_POINTS]
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
    if prof[L.P_SUCCESS_RULE] == L.SUCCESS_FEDERAL:
        # "Made iff T_t ≥ bid and T_t > T_d, before any rounding; a capot bid also
        # requires all 8 tricks. A tie fails."
        made = tot_t >= bid and tot_t > tot_d
    else:
        # classic / stephanoise / strict: "Made iff [the takers' points] ≥ bid" for a
        # number; a capot or générale is made by its tricks (strict's générale is worth
        # 400 while its takers' points top out at 250 + belote).
        need = bid
        if level == 0 and prof[L.P_FIRST_BID_NEEDS] > 0:
            # classic: "At 80 the takers need 82".
            need = prof[L.P_FIRST_BID_NEEDS]
        made = tot_t >= need or capot_bid
    if capot_bid and not all8:
        made = False
    if generale_bid and not generale_won:
        # "générale (one player takes all 8 tricks)": the bidder himself.
        made = False
    litige = (prof[L.P_LITIGE_POINTS] > 0 and level == 0
              and tot_t == prof[L.P_LITIGE_POINTS] and tot_d == prof[L.P_LITIGE_POINTS])
    if litige:
        # classic: "when both teams have exactly 81 ... it is a litige: nobody scores".
        made = False
    failed_base = prof[L.P_FAILED_BASE]
    rule = prof[L.P_SCORING_RULE]
    m = coinche
    # stephanoise: "s = 2 for SA, else 1" (the contract counts double at sans-atout).
    bid_s = bid * prof[L.P_SA_MULTIPLIER] if kind == 4 else bid
    if litige:
        mark_t = 0
        mark_d = 0
    elif rule == L.SCORING_CLASSIC:
        if made:
            # "Made: takers points + bid + belote; defence points + belote"; "Coinche:
            # every mark of the donne × 2".
            mark_t = m * (tot_t + bid_s)
            mark_d = m * tot_d
        else:
            # "Failed: takers belote; defence 160 + bid + belote."
            mark_t = m * b_t
            mark_d = m * (failed_base + bid_s + b_d)
    elif rule == L.SCORING_STRICT:
        if made:
            # "Made: takers points + bid; defence its points"; "× 2, × 4 on both marks".
            mark_t = m * (tot_t + bid_s)
            mark_d = m * tot_d
        else:
            # "Failed: takers 0; defence 160 + bid."
            mark_t = 0
            mark_d = m * (failed_base + bid_s)
    elif rule == L.SCORING_STEPHANOISE:
        if made:
            # "Made: takers bid × s + T_t; defence its cards + its valid announcements +
            # its belote"; coinched: "on the mark of whichever team was right (the other
            # marks 0)".
            mark_t = m * (bid_s + tot_t)
            mark_d = tot_d if m == 1 else 0
        else:
            # "Failed: takers 0; defence 162 + bid × s + A_t + A_d + B_t + B_d";
            # "Capot: 250 replaces the 162".
            base = prof[L.P_CAPOT_CARD_POINTS] if tricks_won[d] == 8 else failed_base
            mark_t = 0
            mark_d = m * (base + bid_s + a_t + a_d + b_t + b_d)
    elif m <= 1:
        if made:
            # "Not coinched, made: takers T_t + bid; defence T_d."
            mark_t = tot_t + bid_s
            mark_d = tot_d
        else:
            # "Not coinched, failed: takers B_t; defence 160 + A_t + A_d + B_d + bid."
            mark_t = b_t
            mark_d = failed_base + a_t + a_d + b_d + bid_s
    else:
        if made:
            # "takers m × (K + A_t + A_d + B_t + bid) with K = 250 if the takers won all
            # 8 tricks else 160; defence B_d."
            k = prof[L.P_CAPOT_VALUE] if all8 else failed_base
            mark_t = m * (k + a_t + a_d + b_t + bid_s)
            mark_d = b_d
        else:
            # "takers B_t (not multiplied); defence m × (160 + A_t + A_d + B_d + bid)."
            mark_t = b_t
            mark_d = m * (failed_base + a_t + a_d + b_d + bid_s)
    out[S_MADE] = 1 if made else 0
    out[S_MARK0 + t] = round_mark(mark_t, prof)
    out[S_MARK0 + d] = round_mark(mark_d, prof)
    out[S_ANN0 + t] = a_t
    out[S_ANN0 + d] = a_d
    out[S_TOTAL0 + t] = tot_t
    out[S_TOTAL0 + d] = tot_d
    out[S_LITIGE] = 1 if litige else 0
    return 1 if made else 0


@njit(cache=True, inline="always")
def team_step(before, pending, mark, tricks, failed_taker, target, rule):
    """One team's side of :func:`partie_step`: ``(after, pending', eligible)``.

    ``before`` its total, ``pending`` its flag (0/1), ``mark`` its rounded mark of the donne,
    ``tricks`` its tricks, ``failed_taker`` whether it took and failed, ``target`` and
    ``rule`` the profile's ``P_TARGET`` and ``P_PARTIE_RULE``. A team's eligibility depends
    on its own donne only; :func:`settle` then decides between the two teams.
    """
    after = before + mark
    if rule == L.PARTIE_STEPHANOISE:
        if pending != 0:
            # "... does not win yet: play another donne" — that donne is played.
            return after, 0, after >= target
        if after >= target:
            if before < target and tricks == 0:
                # stephanoise: "a team that crosses 2000 only thanks to its
                # announcements while being capot does not win yet" (a team with
                # no trick scores only announcements and belote).
                return after, 1, False
            return after, 0, True
        return after, 0, False
    if pending != 0:
        if tricks >= 1:
            # "becomes eligible at the end of a later donne in which it wins at
            # least one trick".
            return after, 0, after >= target
        return after, 1, False
    if after >= target:
        if before < target and (failed_taker or tricks == 0):
            # "crossed 2000 with a mark made only of its belote while failing as
            # takers or being capot (winning no trick)": its mark is then only its
            # belote (a failed taker keeps only B_t; a team with no trick has no
            # cards and no announcements left after the transfer).
            return after, 1, False
        # "a team at or over 2000 is eligible".
        return after, 0, True
    return after, 0, False


@njit(cache=True, inline="always")
def settle(eligible0, eligible1, total0, total1):
    """The winning team from both teams' eligibility and totals, or -1 to play on."""
    if eligible0 and eligible1:
        # "Both eligible: the higher total wins; equal totals: play on."
        if total0 > total1:
            return 0
        if total1 > total0:
            return 1
        return -1
    if eligible0:
        # "One eligible team: it wins."
        return 0
    if eligible1:
        return 1
    return -1


@njit(cache=True)
def partie_step(totals, pending, marks, tricks_won, taker_team, made, prof):
    """Add one donne's marks to the partie and decide whether it is over.

    Parameters
    ----------
    totals : int32[2]
        Running partie totals per team, updated in place.
    pending : int32[2]
        1 for a team whose crossing of the target does not count yet, updated in place.
        federal (``P_PARTIE_RULE`` 0): it crossed with a belote-only mark while failing
        as takers or winning no trick, and must still win a trick in a later donne.
        stephanoise (1): it crossed while winning no trick, and must play one more donne.
    marks : integer[2]
        Rounded marks of this donne per team.
    tricks_won : integer[2]
        Tricks per team in this donne (0, 0 for a passed-out donne).
    taker_team : int
        Team of the takers, -1 for a passed-out donne.
    made : int or bool
        Whether the contract was made.
    prof : int32[PROFILE_LEN]
        Packed profile (``P_TARGET``, ``P_PARTIE_RULE``).

    Returns
    -------
    int
        The winning team, or -1 to play on.
    """
    target = prof[L.P_TARGET]
    rule = prof[L.P_PARTIE_RULE]
    a0, p0, e0 = team_step(totals[0], pending[0], marks[0], tricks_won[0],
                           taker_team == 0 and not made, target, rule)
    a1, p1, e1 = team_step(totals[1], pending[1], marks[1], tricks_won[1],
                           taker_team == 1 and not made, target, rule)
    totals[0] = a0
    totals[1] = a1
    pending[0] = p0
    pending[1] = p1
    return settle(e0, e1, a0, a1)
