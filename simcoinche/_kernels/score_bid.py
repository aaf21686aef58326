"""The score-aware bidder (issue 22): the data-fitted bidder's calls weighed by the chance
of winning the partie instead of by marks.

Inside a partie (``astate[A_PARTIE] == 1``, the totals and pending flags in
``A_TOTAL``/``A_PENDING``, set by :mod:`.partie`) a heuristic or PIMC seat whose
``score_aware`` parameter is 1 calls :func:`score_action` instead of
:func:`.bidder.fitted_action`. It weighs the same calls with the same tables, but values
each one by **P(our team wins the partie)**:

- a call that may become the final contract (a bid, passing over a contract, coinche,
  surcoinche) is the contract's cell in the fitted tables: made with the cell's share
  ``p``, scoring each team its mean mark when made, else each team its mean mark when
  failed (``BT_OUTCOMES``, fitted with the tables). Each of the two outcomes goes
  through the partie kernel's own end rules (:func:`.scoring.team_step` for each team,
  :func:`.scoring.settle`): a win is 1, a loss 0, else the equity of the score it
  leaves, with the next donne dealt by this auction's first speaker (the table at
  ``BT_EQUITY``, bilinear between grid totals);
- passing when nobody has bid keeps the score: its equity now, plus the fitted worth
  of a pass (``pass_ev`` marks) converted at the local slope;
- the searched margins (``bid_margin``, ``coinche_margin``, ...) stay in marks and are
  converted at the **local slope** of equity per mark of difference (the equity of
  scoring ``SLOPE_MARKS`` against conceding them, over twice ``SLOPE_MARKS``), so that
  at a score where a mark is worth what it is worth at 0-0 the calls are the fitted
  bidder's;
- equal equities (a decided partie: every call wins, or none does) are told apart by
  marks (``TIE_PER_MARK``), then, between kinds of equal value, uniformly from the
  player's stream as the fitted bidder does.

Candidates weighed: pass, coinche and surcoinche where legal; for the kind worth most in
marks (its best level or capot; any kind tied with it too), its lowest legal level, its
best level in marks (``BT_BEST``) and, where the marks rank it first in the kind, capot.
The other kinds and capots are not weighed: on 200,000 auction positions of random
partie scores, weighing the second kind and every capot changed 12 calls, and cost a
third of the weighing. Two outcomes per candidate, so the model knows the spread of a
contract (how often it fails), not the whole distribution of marks: a made contract's
tricks are taken as won by both teams unless it is a capot, a failed contract's by both.

Where the weighing cannot change the call it is not done: if the equity is a straight
line over a donne's swing (its **bend**, the second difference over the first, below the
seat's ``score_gate``), every candidate is worth ``now + slope x marks`` and the calls
are the marks' calls, so :func:`.bidder.fitted_action` is called instead. The slope, the
equity now and the bend depend on the score alone: each team computes them once per
auction and keeps them in the auction state (``A_MEMO``). With ``score_gate=0`` every
call is weighed. Measured (benchmarks/README.md, "The score-aware bidder's cost, third
look"): the default gate weighs about a quarter of the teams' auctions and the
score-aware players win as many parties as weighing every call.

Everything is read from the parameter row (:mod:`.bid_layout`); nothing is allocated. A
row without the equity grid or the spread of this profile makes the call illegal, so the
run fails with the fault counted rather than bid score-blind in silence.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from simcoinche._kernels.auction import (
    A_BIDDER,
    A_COINCHE,
    A_KIND,
    A_LEVEL,
    A_MEMO,
    A_PARTIE,
    A_PENDING,
    A_STATUS,
    A_TO_SPEAK,
    A_TOTAL,
    MEMO_LEN,
    auction_check,
)
from simcoinche._kernels.bid_layout import (
    BO_DEF,
    BO_KEY,
    BO_OWN,
    BT_BEST,
    BT_CLASSES,
    BT_KEY,
    CLASS_LEN,
    DEF_EV,
    EQ_BOTH,
    EQ_EQUAL,
    EQ_MAIN,
    EQ_N,
    EQ_ND,
    EQ_PEND_COL,
    EQ_PEND_ROW,
    EQ_STEP,
    N_MULT,
    N_STATS,
    NB,
    NLEV,
    ST_DEFENCE_FAILED,
    ST_DEFENCE_MADE,
    ST_MADE,
    ST_TAKERS_FAILED,
    ST_TAKERS_MADE,
)
from simcoinche._kernels.bidder import (
    FB_BID_MARGIN,
    FB_CAPOT_MARGIN,
    FB_COINCHE_MARGIN,
    FB_COMPETE_MARGIN,
    FB_PASS_EV,
    FB_RAISE_MARGIN,
    FB_SURCOINCHE_MARGIN,
    auction_context,
    contract_features,
    def_values_row_of,
    fitted_action,
    kind_buckets,
    kind_class,
    mult_index,
    own_bucket_of,
    own_values_row,
    suit_summary,
    table_key,
)
from simcoinche._kernels.heuristic import _value_of_level
from simcoinche._kernels.layout import (
    P_ALLOW_SURCOINCHE,
    P_N_BID_VALUES,
    P_PARTIE_RULE,
    P_TARGET,
)
from simcoinche._kernels.players import (
    ACT_BID_BASE,
    ACT_COINCHE,
    ACT_PASS,
    ACT_SURCOINCHE,
    N_KINDS,
    illegal_action,
)
from simcoinche._kernels.rng import lowest_bit, popcount32, random_bit
from simcoinche._kernels.scoring import settle, team_step

# --- named parameter (offset in the parameter row; name in players.registry) ------------
FB_SCORE_AWARE = 53  # 1: weigh calls by match equity inside a partie; 0: by marks
FB_SCORE_GATE = 54   # weigh by equity only where its bend (:func:`_local`) reaches this

SLOPE_MARKS = 100.0   # marks scored vs conceded to measure equity per mark (about a donne)
TIE_PER_MARK = 1e-9   # equity per mark that tells equal equities apart (|marks| < 10^4)


@njit(cache=True, inline="always")
def _lerp_row(params, row, base, x):
    """Linear interpolation of ``params[row, base + i]`` (``i = 0 .. EQ_N - 1``) at ``x``
    grid steps, clamped to the grid."""
    x = min(max(x, 0.0), EQ_N - 1.0)
    i = min(np.int64(x), EQ_N - 2)
    f = x - i
    return params[row, base + i] * (1.0 - f) + params[row, base + i + 1] * f


@njit(cache=True, inline="always")
def equity_at(params, row, a, b, pa, pb, target):
    """P(the team at total ``a`` wins | it deals next) for a live state (pending flags
    ``pa``, ``pb``), from the grid at ``BT_EQUITY`` (module docstring)."""
    g = params[row, EQ_STEP]
    if pa != 0 and pb != 0:
        # Both pending: only the difference matters (clipped as the table clips it).
        return _lerp_row(params, row, EQ_BOTH, min(max((a - b) / g, -EQ_ND), EQ_ND) + EQ_ND)
    if pa != 0:
        # We are pending at or over the target, they are below it.
        return _lerp_row(params, row, EQ_PEND_ROW, b / g)
    if pb != 0:
        return _lerp_row(params, row, EQ_PEND_COL, a / g)
    if a >= target:
        # Both over the target with equal totals (the only such live state): play on.
        return params[row, EQ_EQUAL]
    # Both below the target: bilinear between the four grid totals around (a, b).
    return _bilinear(params, row, a, b)


@njit(cache=True, inline="always")
def _bilinear(params, row, a, b):
    """V(a, b), both totals below the target: bilinear between the four grid totals
    around them (a total above the top grid total counts as it)."""
    g = params[row, EQ_STEP]
    x = min(a / g, EQ_N - 1.0)
    y = min(b / g, EQ_N - 1.0)
    i = min(np.int64(x), EQ_N - 2)
    j = min(np.int64(y), EQ_N - 2)
    fx = x - i
    fy = y - j
    at = EQ_MAIN + i * EQ_N + j
    return ((params[row, at] * (1.0 - fy) + params[row, at + 1] * fy) * (1.0 - fx)
            + (params[row, at + EQ_N] * (1.0 - fy) + params[row, at + EQ_N + 1] * fy) * fx)


@njit(cache=True)
def _after(params, row, score, us_mark, them_mark, us_tricks, them_tricks, us_failed,
           them_failed):
    """P(we win the partie) after a donne scoring ``us_mark``/``them_mark`` (rounded to
    whole marks) from ``score`` = ``(our total, theirs, our pending flag, theirs, target,
    partie rule, we deal next)``: the end rules of the partie kernel, then the grid.
    A compiled function of its own, called by :func:`_local` and :func:`_cell_equity`
    with the same types (``float64`` marks, ``int64`` tricks, ``bool`` failed flags): one
    compile instead of a copy in each (about 7 s of a cold ``parties``)."""
    tot_us, tot_them, pend_us, pend_them, target, rule, we_deal = score
    mu = np.int64(np.floor(us_mark + 0.5))
    mt = np.int64(np.floor(them_mark + 0.5))
    if pend_us == 0 and pend_them == 0 and tot_us + mu < target and tot_them + mt < target:
        # Both stay below the target and nobody was pending: no end rule applies.
        if we_deal:
            return _bilinear(params, row, np.float64(tot_us + mu), np.float64(tot_them + mt))
        return 1.0 - _bilinear(params, row, np.float64(tot_them + mt), np.float64(tot_us + mu))
    au, qu, eu = team_step(tot_us, pend_us, mu, us_tricks, us_failed, target, rule)
    at, qt, et = team_step(tot_them, pend_them, mt, them_tricks, them_failed, target, rule)
    w = settle(eu, et, au, at)
    if w == 0:
        return 1.0
    if w == 1:
        return 0.0
    if we_deal:
        return equity_at(params, row, np.float64(au), np.float64(at), qu, qt, target)
    return 1.0 - equity_at(params, row, np.float64(at), np.float64(au), qt, qu, target)


@njit(cache=True, inline="always")
def _cell_equity(params, row, cell, we_take, capot, score):
    """P(we win the partie) if the contract of outcome cell ``cell`` (offset of its
    ``N_STATS`` numbers, takers' side) is played, ``we_take`` whether our team holds it.
    Inlined at its two call sites in :func:`score_action` (the contract standing or
    doubled, the bids weighed): a call with the parameter array's fields as arguments
    cost more than the lookups it made. Its two outcomes call :func:`_after`, compiled
    once for them and :func:`_local` (the same argument types everywhere)."""
    p = params[row, cell + ST_MADE]
    eq = 0.0
    for failed in range(2):
        share = 1.0 - p if failed else p
        if share <= 0.0:
            continue
        if failed:
            # Failed: the takers are failed takers ("crossed ... while failing as takers").
            t = params[row, cell + ST_TAKERS_FAILED]
            d = params[row, cell + ST_DEFENCE_FAILED]
            dt = np.int64(1)
        else:
            # Made: the takers won a trick; the defence too unless the contract is a capot.
            t = params[row, cell + ST_TAKERS_MADE]
            d = params[row, cell + ST_DEFENCE_MADE]
            dt = np.int64(0 if capot else 1)
        lost = np.bool_(failed == 1)
        no = np.bool_(False)
        if we_take:
            um, tm, ut, tt, uf, tf = t, d, np.int64(1), dt, lost, no
        else:
            um, tm, ut, tt, uf, tf = d, t, dt, np.int64(1), no, lost
        eq += share * _after(params, row, score, um, tm, ut, tt, uf, tf)
    return eq


@njit(cache=True)
def _local(params, row, score):
    """``(slope, now, bend)`` at ``score``: the local slope of P(we win) per mark of
    difference (scoring ``SLOPE_MARKS`` against conceding them, over twice
    ``SLOPE_MARKS``), P(we win) if the score stays as it is, and how far the equity bends
    over that swing: ``|gain + loss - 2 now| / (gain - loss)``, the second difference over
    the first (0 where the equity is a straight line, or flat). Compiled once."""
    one = np.int64(1)
    no = np.bool_(False)
    gain = _after(params, row, score, SLOPE_MARKS, 0.0, one, one, no, no)
    loss = _after(params, row, score, 0.0, SLOPE_MARKS, one, one, no, no)
    if score[6]:
        a, b, pa, pb = score[0], score[1], score[2], score[3]
    else:
        a, b, pa, pb = score[1], score[0], score[3], score[2]
    e = equity_at(params, row, np.float64(a), np.float64(b), pa, pb, score[4])
    now = e if score[6] else 1.0 - e
    spread = gain - loss
    bend = abs(gain + loss - 2.0 * now) / spread if spread > 0.0 else 0.0
    return spread / (2.0 * SLOPE_MARKS), now, bend


@njit(cache=True, inline="always")
def _local_memo(astate, params, row, score, us):
    """:func:`_local` for team ``us``, computed once per auction: the score does not
    change while the seats speak, so the first call of a team stores ``(slope, now,
    bend)`` in its memo slots (``A_MEMO``), keyed by the totals, pending flags, who deals
    next and the parameter row, and its later calls read them (the same numbers)."""
    base = A_MEMO + MEMO_LEN * us
    # Flags: both pending flags, who deals next, and bit 3 so that a zeroed memo is no key.
    flags = 8 | np.int64(score[2]) | (np.int64(score[3]) << 1) | (np.int64(score[6]) << 2)
    # The three float64 sit on the six int32 after the key (A_MEMO, MEMO_LEN are even).
    memo = astate[base + 4:base + MEMO_LEN].view(np.float64)
    if astate[base] == score[0] and astate[base + 1] == score[1] and \
            astate[base + 2] == flags and astate[base + 3] == row:
        return memo[0], memo[1], memo[2]
    slope, now, bend = _local(params, row, score)
    astate[base] = score[0]
    astate[base + 1] = score[1]
    astate[base + 2] = flags
    astate[base + 3] = row
    memo[0] = slope
    memo[1] = now
    memo[2] = bend
    return slope, now, bend


@njit(cache=True, inline="always")
def own_cell(kd, bucket, level, mi):
    """Offset of the outcome cell of our contract ``kd`` (own ``bucket``) at ladder
    ``level``, multiplier index ``mi``."""
    return BO_OWN + (((kind_class(kd) * NB + bucket) * NLEV + level) * N_MULT + mi) * N_STATS


@njit(cache=True, inline="always")
def def_cell(def_off, kd, mi):
    """Offset of the outcome cell of the opponents' contract ``kd`` whose defence row
    (:func:`.bidder.def_values_row`) is at ``def_off``, multiplier index ``mi``."""
    c = kind_class(kd)
    b = (def_off - (BT_CLASSES + c * CLASS_LEN + DEF_EV)) // N_MULT
    return BO_DEF + ((c * NB + b) * N_MULT + mi) * N_STATS


@njit(cache=True, inline="always")
def _kind_marks(kd, b, lowest, params, row, nv):
    """Kind ``kd``'s worth in marks from level ``lowest`` (own bucket ``b``): its best
    level's x1 entry or its capot's less ``capot_margin``, the higher."""
    off = own_values_row(kd, b)
    k_lv = np.int64(params[row, BT_BEST + (kind_class(kd) * NB + b) * NLEV + lowest])
    capot = params[row, off + nv * N_MULT] - params[row, FB_CAPOT_MARGIN]
    if k_lv < 0:
        return capot
    return max(params[row, off + k_lv * N_MULT], capot)


@njit(cache=True, inline="always")
def _weigh_kind(kd, b, lowest, margin, slope, score, state, params, row, nv):
    """Weigh the bids in kind ``kd`` (own bucket ``b``): its lowest legal level, its best
    level in marks and capot, against ``state = (best, best_lv, tied, best_a)`` as in
    :func:`.bidder._bid_kind`, values in equity. Returns the updated state."""
    best, best_lv, tied, best_a = state
    us_take = np.bool_(True)
    off = own_values_row(kd, b)
    k_lv = np.int64(params[row, BT_BEST + (kind_class(kd) * NB + b) * NLEV + lowest])
    for q in range(3):
        if q == 0:
            lv = k_lv
        elif q == 1:
            lv = np.int64(lowest) if lowest < nv and lowest != k_lv else np.int64(-1)
        else:
            lv = np.int64(nv)
            if k_lv >= 0 and params[row, off + nv * N_MULT] - params[row, FB_CAPOT_MARGIN] \
                    < params[row, off + k_lv * N_MULT]:
                # Capot is weighed only where the marks rank it first in its kind.
                continue
        if lv < 0:
            continue
        m = margin + (params[row, FB_CAPOT_MARGIN] if lv == nv else 0.0)
        marks = params[row, off + lv * N_MULT] - m
        ev = _cell_equity(params, row, own_cell(kd, b, lv, 0), us_take, lv == nv, score) \
            - slope * m + TIE_PER_MARK * marks
        if ev > best:
            best = ev
            best_lv = lv
            tied = np.int64(1) << kd
            best_a = np.int64(-1)
        elif ev == best and best_a == -1 and best_lv == lv:
            # As good as the best kind so far at the same level: a tie.
            tied |= np.int64(1) << kd
    return best, best_lv, tied, best_a


@njit(cache=True)
def score_action(hand, astate, actions, n_actions, params, row, prof, st):
    """Auction decision of the score-aware bidder (``uint8`` action code, always legal);
    arguments as :func:`.bidder.fitted_action`, the score read from ``astate``
    (``A_TOTAL``, ``A_PENDING``)."""
    if astate[A_STATUS] != 0:
        return ACT_PASS
    key = table_key(prof)
    if params[row, BT_KEY] != key or params[row, BO_KEY] != key or \
            not params[row, EQ_STEP] > 0.0:
        # No tables, spread or equity grid for this profile: refuse (counted fault).
        return illegal_action(astate)
    seat = astate[A_TO_SPEAK]
    level = astate[A_LEVEL]
    bidder = astate[A_BIDDER]
    mult = astate[A_COINCHE]
    cur_kd = astate[A_KIND]
    nv = prof[P_N_BID_VALUES]
    leads = np.int64(n_actions % 4 == 0)
    ours = bidder >= 0 and (bidder & 1) == (seat & 1)
    us = seat & 1
    target = np.int64(prof[P_TARGET])
    # The next donne is dealt by this auction's first speaker (the dealer + 1).
    score = (np.int64(astate[A_TOTAL + us]), np.int64(astate[A_TOTAL + 1 - us]),
             np.int64(astate[A_PENDING + us]), np.int64(astate[A_PENDING + 1 - us]),
             target, prof[P_PARTIE_RULE], n_actions % 2 == 0)
    slope, now, bend = _local_memo(astate, params, row, score, us)
    if bend < params[row, FB_SCORE_GATE]:
        # The equity is a straight line over a donne's swing here: weighed by it, the
        # calls are the marks' calls (every value is now + slope x marks), so the
        # score-blind bidder's call is taken as it is, at a fraction of the cost.
        return fitted_action(hand, astate, actions, n_actions, params, row, prof, st)
    ctx = auction_context(actions, n_actions, seat, prof)
    summary = suit_summary(hand)

    # --- passing, coinche, surcoinche ---------------------------------------------------
    best_a = ACT_PASS
    def_off = np.int64(0)
    if bidder < 0:
        # Nobody has bid: the score stays as it is, plus the fitted worth of a pass.
        pe = params[row, FB_PASS_EV]
        best = now + slope * pe + TIE_PER_MARK * pe
        margin = params[row, FB_BID_MARGIN]
    else:
        # A contract stands: weigh it as it is and, where legal, doubled, both through
        # one _cell_equity (one inlined copy).
        dbl_cell = np.int64(-1)  # -1: doubling not weighed
        dbl_marks = 0.0
        dbl_margin = 0.0
        dbl_a = ACT_PASS
        # The hand's features in the contract's kind, once for either side (one copy of
        # the three kinds' features in the compiled code).
        hf = contract_features(hand, cur_kd, summary)
        if ours:
            # Our contract stands as it is.
            b = own_bucket_of(hf, cur_kd, ctx, leads, params, row)
            off = own_values_row(cur_kd, b)
            margin = params[row, FB_RAISE_MARGIN]
            stand_cell = own_cell(cur_kd, b, level, mult_index(mult))
            stand_marks = params[row, off + level * N_MULT + mult_index(mult)]
            if mult == 2 and prof[P_ALLOW_SURCOINCHE] != 0 and \
                    auction_check(astate, ACT_SURCOINCHE, prof) == 0:
                # "Surcoinche": our coinched contract at x4.
                dbl_margin = params[row, FB_SURCOINCHE_MARGIN]
                dbl_cell = own_cell(cur_kd, b, level, 2)
                dbl_marks = params[row, off + level * N_MULT + 2] - dbl_margin
                dbl_a = ACT_SURCOINCHE
        else:
            # The opponents' contract: they take it.
            def_off = def_values_row_of(hf, cur_kd, _value_of_level(level, prof), ctx, params,
                                        row)
            margin = params[row, FB_COMPETE_MARGIN]
            stand_cell = def_cell(def_off, cur_kd, mult_index(mult))
            stand_marks = -params[row, def_off + mult_index(mult)]
            if mult == 1 and auction_check(astate, ACT_COINCHE, prof) == 0:
                # "Coinche": their contract at x2.
                dbl_margin = params[row, FB_COINCHE_MARGIN]
                dbl_cell = def_cell(def_off, cur_kd, 1)
                dbl_marks = -params[row, def_off + 1] - dbl_margin
                dbl_a = ACT_COINCHE
        best = -np.inf
        for doubled in range(2 if dbl_cell >= 0 else 1):
            m = dbl_margin if doubled else 0.0
            ev = _cell_equity(params, row, dbl_cell if doubled else stand_cell, ours,
                              level == nv, score) - slope * m \
                + TIE_PER_MARK * (dbl_marks if doubled else stand_marks)
            if not doubled:
                best = ev
            elif ev > best:
                best = ev
                best_a = dbl_a

    # --- bids ---------------------------------------------------------------------------
    lowest = level + 1
    if lowest <= nv and auction_check(astate, ACT_BID_BASE + lowest * N_KINDS,
                                      prof) == 0:
        # Every kind's bucket, then its worth in marks (its best level or capot, margins
        # off); only the kind worth most in marks (and any tied with it) is weighed in
        # equity: the weighing costs two outcomes per level.
        b0, b1, b2, b3, b4, b5 = kind_buckets(hand, summary, ctx, leads, params, row, prof)
        w0 = _kind_marks(0, b0, lowest, params, row, nv)
        w1 = _kind_marks(1, b1, lowest, params, row, nv)
        w2 = _kind_marks(2, b2, lowest, params, row, nv)
        w3 = _kind_marks(3, b3, lowest, params, row, nv)
        w4 = _kind_marks(4, b4, lowest, params, row, nv) if b4 >= 0 else -np.inf
        w5 = _kind_marks(5, b5, lowest, params, row, nv) if b5 >= 0 else -np.inf
        top = max(max(max(w0, w1), max(w2, w3)), max(w4, w5))
        # One loop over the kinds (one copy of the weighing in the compiled code).
        buckets = (b0, b1, b2, b3, b4, b5)
        worths = (w0, w1, w2, w3, w4, w5)
        state = (best, np.int64(-1), np.int64(0), np.int64(best_a))
        for kd in range(6):
            if buckets[kd] >= 0 and worths[kd] >= top:
                state = _weigh_kind(kd, buckets[kd], lowest, margin, slope, score, state,
                                    params, row, nv)
        best, best_lv, tied, best_a = state
        if best_a == -1:
            # Kinds of equal value: one uniformly from the player's stream.
            if popcount32(tied) > 1:
                kd = random_bit(st, np.uint32(tied))
            else:
                kd = lowest_bit(tied)
            a = ACT_BID_BASE + best_lv * N_KINDS + kd
            if auction_check(astate, a, prof) == 0:
                return a
            return ACT_PASS
    return best_a


@njit(cache=True, inline="always")
def fitted_call(hand, astate, actions, n_actions, params, row, prof, st):
    """The data-fitted bidder's call: score-aware (:func:`score_action`) inside a partie
    when the seat's ``score_aware`` parameter is 1, else :func:`.bidder.fitted_action`
    (single donnes, or ``score_aware=0``). Arguments as :func:`.bidder.fitted_action`."""
    if astate[A_PARTIE] != 0 and params[row, FB_SCORE_AWARE] != 0.0:
        return np.int64(score_action(hand, astate, actions, n_actions, params, row, prof,
                                     st))
    return np.int64(fitted_action(hand, astate, actions, n_actions, params, row, prof, st))


def bid_call(in_partie, hand, astate, actions, n_actions, params, row, prof, st):
    """The data-fitted bidder's call as the donne kernels ask it: :func:`fitted_call`, or
    :func:`.bidder.fitted_action` when ``in_partie`` is None.

    ``in_partie`` is None where no donne is ever played inside a partie (``simulate``,
    the bid samples, the model bidders of the auction filter, the advice's continuations
    and the thinking bidder's worlds, whose auction states never carry a partie's
    score): chosen by the argument's *type* when numba compiles the caller, so
    those runs do not compile the score-aware bidder at all (about a sixth of a cold
    ``simulate``'s compile). Any other value (``np.int64(1)``): the auction state says
    (``A_PARTIE``), as :func:`fitted_call` reads it. The same call either way."""
    if in_partie is None:
        return np.int64(fitted_action(hand, astate, actions, n_actions, params, row, prof,
                                      st))
    return fitted_call(hand, astate, actions, n_actions, params, row, prof, st)


@overload(bid_call)
def _bid_call_nb(in_partie, hand, astate, actions, n_actions, params, row, prof, st):
    if isinstance(in_partie, (types.NoneType, types.Omitted)):
        def blind(in_partie, hand, astate, actions, n_actions, params, row, prof, st):
            return np.int64(fitted_action(hand, astate, actions, n_actions, params, row,
                                          prof, st))

        return blind

    def read_state(in_partie, hand, astate, actions, n_actions, params, row, prof, st):
        return fitted_call(hand, astate, actions, n_actions, params, row, prof, st)

    return read_state
