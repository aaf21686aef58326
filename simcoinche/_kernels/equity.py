"""Match equity by backward induction: P(win the partie | the score, who deals next).

The partie is a Markov chain on its state (the two totals, the two pending flags of
``partie_step``, the team dealing next) when the players do not read the score: every
donne draws its outcome from one distribution, seen from the dealing team. The kernel
solves that chain exactly for a given outcome distribution, applying the end rules
through the two halves of :func:`.scoring.partie_step` itself (:func:`.scoring.team_step`
for each team, :func:`.scoring.settle` between them: belote-only crossing, stephanoise's
capot crossing, equal totals over the target playing on).

Value stored: ``V(x, y)`` = probability that the team whose total is ``x`` wins the
partie when **it deals the next donne**. The other orientation follows by symmetry of
the teams (both play the same players, the distribution is per dealing team):
P(x wins | the other team deals next) ``= 1 - V(y, x)``.

Live states and where they are kept (``T`` the target, ``g`` the grid step, ``K`` the
clip in steps, ``cap = T + K g``):

- ``vmain[i, j]`` (``float64[N, N]``, ``N = cap / g + 1``, ``cap = T + 2 K g``): totals
  ``x = i g``, ``y = j g``. Below the target a team is never pending; a team at or over
  it in a live state must be pending (else it would have won), so the flags follow from
  the totals. A pending total above ``cap`` is kept at ``cap``: with the other team
  below the target and no donne worth ``K g`` marks, a pending total of at least
  ``T + K g`` exceeds the other's whatever the donne (so comparisons do not see the
  clip), and one of at least ``T + 2 K g`` still leads by ``K g`` or more after any
  donne that leaves both teams pending (so the clip of ``dvals`` below does not see it
  either).
- ``dvals[K + k]`` (``float64[2K + 1]``): both teams pending, ``x - y = k g`` (clipped to
  ``±K`` steps for the same reason; both already over the target, only the difference
  matters).
- ``evals[0]``: both teams over the target, neither pending, equal totals (play on).

Order. Marks are never negative, so a donne leads to totals at least as high: cells are
solved by decreasing ``i + j`` (an anti-diagonal at a time, pairs ``(i, j)``/``(j, i)`` in
parallel). A donne with no marks (passed out, a classic litige) keeps the totals and hands
the deal over, i.e. leads to the mirror cell ``(j, i)``: each pair is solved as a 2 x 2
linear system. ``E`` and ``D`` are solved first (they lead only to themselves, their mirror
and the end). Unsolved cells hold NaN: a successor that is neither solved nor the mirror
is counted in ``faults[0]``; a successor state that cannot be live (a team over the
target without being pending, beside a team below it) in ``faults[1]``; the facade
refuses any fault.

``solve_equity(outcomes, probs, prof, step, clip_steps, vmain, dvals, evals, faults)``

========= ===================== ======================================================
argument  shape, dtype          meaning
========= ===================== ======================================================
outcomes  int32[n, 6]           one donne outcome per row, from the dealing team's side:
                                marks of the dealing team, of the other team, tricks
                                of each (only 0 or not matters), taker side (``-1``
                                passed out, ``0`` dealing team, ``1`` the other), made
probs     float64[n]            probability of each row (sum 1)
prof      int32[PROFILE_LEN]    packed profile (``P_TARGET``, ``P_PARTIE_RULE``)
step      int64                 grid step ``g`` (divides the target and every mark)
clip_steps int64                ``K``: ``K g`` exceeds every mark of ``outcomes``
vmain     float64[N, N]         out, ``N = T / g + 2 K + 1``
dvals     float64[2K + 1]       out
evals     float64[1]            out
faults    int64[2]              out (see above)
========= ===================== ======================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcoinche._kernels import layout as L
from simcoinche._kernels.scoring import settle, team_step

# Where a state's value is kept (first value of _locate).
LOC_MAIN = 1    # vmain[i, j]
LOC_BOTH = 2    # dvals[i]
LOC_EQUAL = 3   # evals[0]
LOC_BAD = 4     # not a live state (counted in faults[1])


@njit(cache=True, inline="always")
def _locate(a, b, pa, pb, target, step, clip_steps):
    """Where V(a, b) (team ``a`` deals next, flags ``pa``, ``pb``) is kept: ``(LOC_*, i, j)``."""
    if pa != 0 and pb != 0:
        # Both pending: only the difference of the totals matters.
        k = (a - b) // step
        if k > clip_steps:
            k = clip_steps
        if k < -clip_steps:
            k = -clip_steps
        return LOC_BOTH, k + clip_steps, 0
    if a >= target and b >= target:
        # Both over the target and neither pending: live only with equal totals.
        if pa == 0 and pb == 0 and a == b:
            return LOC_EQUAL, 0, 0
        return LOC_BAD, 0, 0
    # One team at most over the target: it must be the pending one.
    if (a >= target) != (pa != 0) or (b >= target) != (pb != 0):
        return LOC_BAD, 0, 0
    cap = target + 2 * clip_steps * step
    return LOC_MAIN, min(a, cap) // step, min(b, cap) // step


@njit(cache=True)
def _state_sum(x, y, px, py, outcomes, probs, prof, tabs, geometry, mirror, faults_local):
    """``(a, p)`` with V(x, y) = a + p (1 - V(mirror)) for the state ``(x, y, px, py)``,
    team x dealing: ``a`` sums the outcomes whose successor is the end or a solved state,
    ``p`` the probability of landing on the state ``mirror = (LOC_*, i, j)`` (not solved
    yet). Faults are added to ``faults_local`` (see the module docstring).
    """
    vmain, dvals, evals = tabs
    target, step, clip_steps = geometry
    rule = prof[L.P_PARTIE_RULE]
    a = 0.0
    p = 0.0
    for o in range(outcomes.shape[0]):
        q = probs[o]
        taker = outcomes[o, 4]
        failed = outcomes[o, 5] == 0
        ax, qx, ex = team_step(x, px, outcomes[o, 0], outcomes[o, 2], taker == 0 and failed,
                               target, rule)
        ay, qy, ey = team_step(y, py, outcomes[o, 1], outcomes[o, 3], taker == 1 and failed,
                               target, rule)
        w = settle(ex, ey, ax, ay)
        if w == 0:
            a += q
            continue
        if w == 1:
            continue
        # Play on, the other team dealing: V for x is 1 - V(y', x') from y's side.
        kind, i, j = _locate(ay, ax, qy, qx, target, step, clip_steps)
        if kind == mirror[0] and i == mirror[1] and j == mirror[2]:
            p += q
            continue
        if kind == LOC_MAIN:
            v = vmain[i, j]
        elif kind == LOC_BOTH:
            v = dvals[i]
        elif kind == LOC_EQUAL:
            v = evals[0]
        else:
            faults_local[1] += 1
            continue
        if v != v:
            faults_local[0] += 1
            continue
        a += q * (1.0 - v)
    return a, p


@njit(cache=True, inline="always")
def _solve_pair(a1, p1, a2, p2):
    """Solve V1 = a1 + p1 (1 - V2), V2 = a2 + p2 (1 - V1)."""
    v1 = (a1 + p1 - p1 * a2 - p1 * p2) / (1.0 - p1 * p2)
    v2 = a2 + p2 * (1.0 - v1)
    return v1, v2


@njit(cache=True, parallel=True)
def solve_equity(outcomes, probs, prof, step, clip_steps, vmain, dvals, evals, faults):
    """Fill ``vmain``, ``dvals``, ``evals`` (shapes and meaning in the module docstring)."""
    target = np.int64(prof[L.P_TARGET])
    geometry = (target, np.int64(step), np.int64(clip_steps))
    n = vmain.shape[0]
    t_steps = target // step
    vmain[:, :] = np.nan
    dvals[:] = np.nan
    evals[0] = np.nan
    tabs = (vmain, dvals, evals)
    local = np.zeros(2, dtype=np.int64)
    # Equal totals over the target, neither pending, x dealing: its mirror (same totals,
    # the other team dealing) is the same state seen from the other side.
    a, p = _state_sum(target, target, 0, 0, outcomes, probs, prof, tabs, geometry,
                      (LOC_EQUAL, 0, 0), local)
    evals[0] = (a + p) / (1.0 + p)
    # Both pending, x - y = k steps: pairs k, -k.
    for k in range(clip_steps + 1):
        x1 = target + k * step
        a1, p1 = _state_sum(x1, target, 1, 1, outcomes, probs, prof, tabs, geometry,
                            (LOC_BOTH, clip_steps - k, 0), local)
        if k == 0:
            dvals[clip_steps] = (a1 + p1) / (1.0 + p1)
            continue
        a2, p2 = _state_sum(target, x1, 1, 1, outcomes, probs, prof, tabs, geometry,
                            (LOC_BOTH, clip_steps + k, 0), local)
        v1, v2 = _solve_pair(a1, p1, a2, p2)
        dvals[clip_steps + k] = v1
        dvals[clip_steps - k] = v2
    faults[0] += local[0]
    faults[1] += local[1]
    # The main grid by decreasing i + j; a cell with both totals over the target is not
    # live there (dvals / evals) and stays NaN.
    for s in range(2 * (n - 1), -1, -1):
        lo = max(0, s - (n - 1))
        hi = s // 2
        counts = np.zeros((hi - lo + 1, 2), dtype=np.int64)
        for q in prange(hi - lo + 1):
            i = lo + q
            j = s - i
            if i >= t_steps and j >= t_steps:
                continue
            x = i * step
            y = j * step
            px = 1 if i >= t_steps else 0
            py = 1 if j >= t_steps else 0
            a1, p1 = _state_sum(x, y, px, py, outcomes, probs, prof, tabs, geometry,
                                (LOC_MAIN, j, i), counts[q])
            if i == j:
                vmain[i, i] = (a1 + p1) / (1.0 + p1)
                continue
            a2, p2 = _state_sum(y, x, py, px, outcomes, probs, prof, tabs, geometry,
                                (LOC_MAIN, i, j), counts[q])
            v1, v2 = _solve_pair(a1, p1, a2, p2)
            vmain[i, j] = v1
            vmain[j, i] = v2
        faults[0] += counts[:, 0].sum()
        faults[1] += counts[:, 1].sum()


@njit(cache=True)
def equity_value(qmain, dvals, evals, a, b, pa, pb, prof, step, clip_steps):
    """V(a, b) from the shipped form of the tables: P(team ``a`` wins | it deals next).

    ``qmain`` is ``vmain`` quantised to ``uint16`` (value ``q / 65535``), ``dvals`` and
    ``evals`` as :func:`solve_equity` fills them; ``pa``, ``pb`` the pending flags. NaN
    when ``(a, b, pa, pb)`` is not a live state (the partie is over, or the flags do not
    fit the totals).
    """
    target = np.int64(prof[L.P_TARGET])
    kind, i, j = _locate(a, b, pa, pb, target, step, clip_steps)
    if kind == LOC_MAIN:
        return qmain[i, j] / 65535.0
    if kind == LOC_BOTH:
        return dvals[i]
    if kind == LOC_EQUAL:
        return evals[0]
    return np.nan


@njit(cache=True)
def equity_after(qmain, dvals, evals, prof, step, clip_steps, start, donnes, we_deal_next,
                 out):
    """P(our team wins the partie) after each of ``n`` possible donnes from one score.

    ``start`` int64[4]: our total, theirs, our pending flag, theirs (a live state);
    ``donnes`` int64[6, n]: per donne our marks, theirs, our tricks, theirs, the taker's
    side (``-1`` passed out, ``0`` us, ``1`` them), made (0/1); ``we_deal_next`` whether
    our team deals the donne after it; ``out`` float64[n] receives 1 where the donne wins
    us the partie, 0 where it loses it, the table's value of the score it leaves
    otherwise (NaN if that score is not live: a fault the caller refuses).
    """
    target = np.int64(prof[L.P_TARGET])
    rule = prof[L.P_PARTIE_RULE]
    for k in range(donnes.shape[1]):
        failed = donnes[5, k] == 0
        taker = donnes[4, k]
        au, qu, eu = team_step(start[0], start[2], donnes[0, k], donnes[2, k],
                               taker == 0 and failed, target, rule)
        at, qt, et = team_step(start[1], start[3], donnes[1, k], donnes[3, k],
                               taker == 1 and failed, target, rule)
        w = settle(eu, et, au, at)
        if w == 0:
            out[k] = 1.0
        elif w == 1:
            out[k] = 0.0
        elif we_deal_next:
            out[k] = equity_value(qmain, dvals, evals, au, at, qu, qt, prof, step,
                                  clip_steps)
        else:
            out[k] = 1.0 - equity_value(qmain, dvals, evals, at, au, qt, qu, prof, step,
                                        clip_steps)
