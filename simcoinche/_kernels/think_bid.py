"""The PIMC player's thinking bidder: each candidate call tried on worlds that fit the auction.

At each of its calls the player (kind ``pimc`` with ``bid_worlds`` > 0) does what
``simcoinche advise`` does for a person, inside the kernel:

1. **Candidates** — pass, the data-fitted bidder's own call (:func:`.bidder.fitted_action`),
   coinche and surcoinche when the rules allow them, and the ``bid_candidates`` bids
   whose x1 entry in the fitted tables, less the fitted bidder's margin, is highest (each
   kind's own bucket, every legal level up to capot).
2. **Worlds** — deals drawn uniformly among those holding the seat's auction cards
   (stephanoise: its 6; the rest of its hand is dealt in the world too), each other seat
   seeing at the auction what it would (a uniform 6 of its 8 in stephanoise). A world
   fits when the model bidders — the fitted bidder at every other seat, asked as
   :func:`.auction_filter.replay_matches` asks it — make the calls that were made, a bid
   counting as made when the model bids the same kind at most ``bid_slack`` ladder
   levels away (the ``odds --auction`` filter, with that tolerance: the exact level of a
   real bidder's overcall is rarely the model's). Up to ``bid_tries`` × ``bid_worlds``
   deals are drawn until ``bid_worlds`` fit. When fewer than a quarter of them fit (a
   long auction the model would rarely make), the quarter is completed with the drawn
   deals whose replay agreed with the longest prefix of the auction.
3. **Values** — on every world, every candidate is played: the model bidders finish the
   auction (:func:`.auction_filter.finish_auction`), the final contract is played out by
   the heuristic card play (:func:`.donne.play_phase`) and scored by the profile's exact
   rules; the value is the team's marks minus the opponents' (0 when passed out). The
   same worlds and the same random numbers serve every candidate (common random
   numbers), so differences between candidates are not noise of the draw.
4. **Choice** — the fitted bidder's call stands unless another candidate's mean gain
   over it, world by world, exceeds ``bid_z`` standard errors: the tables are the prior,
   and the maximum of several noisy means would otherwise favour the calls whose value
   varies most (coinches and high bids). Among those that pass, the highest lower bound
   wins.

A fault of the model (an illegal call or card of our own kernels while thinking) is
never replaced: the player answers an illegal call, so the run fails with the fault
counted (:mod:`.donne`); so does a fitted bidder that refuses its tables.

Random numbers: the worlds and the per-world keys of the continuations come from the
player's stream ``st`` (the donne's players' stream), so runs stay deterministic whatever
the thread count.

Parameters (offsets ``PM_BID_*`` of :mod:`.players`, names in
:mod:`simcoinche.players.registry`): ``bid_worlds`` (0: bid with the tables alone),
``bid_candidates``, ``bid_tries``, ``bid_slack``, ``bid_z``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcoinche._kernels.auction import (
    A_BIDDER,
    A_COINCHE,
    A_KIND,
    A_LEVEL,
    A_STATUS,
    A_TO_SPEAK,
    AUCTION_STATE_LEN,
    auction_apply,
    auction_check,
    auction_start,
)
from simcoinche._kernels.auction_filter import auction_view, finish_auction, model_action
from simcoinche._kernels.batch import donne_scratch
from simcoinche._kernels.bid_layout import N_MULT
from simcoinche._kernels.bidder import (
    FB_BID_MARGIN,
    FB_COMPETE_MARGIN,
    FB_RAISE_MARGIN,
    auction_context,
    own_bucket,
    own_values_row,
    suit_summary,
)
from simcoinche._kernels.donne import Players, Scratch, play_phase
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import (
    P_ALLOW_SA,
    P_ALLOW_SURCOINCHE,
    P_ALLOW_TA,
    P_AUCTION_CARDS,
    P_N_BID_VALUES,
)
from simcoinche._kernels.players import (
    ACT_BID_BASE,
    ACT_COINCHE,
    ACT_PASS,
    ACT_SURCOINCHE,
    N_KINDS,
    PARAM_LEN,
    PLAYER_HEURISTIC,
    PM_BID_CANDIDATES,
    PM_BID_SLACK,
    PM_BID_TRIES,
    PM_BID_WORLDS,
    PM_BID_Z,
    illegal_action,
)
from simcoinche._kernels.rng import RNG_STATE_LEN, bounded, next32, rng_seed
from simcoinche._kernels.score_bid import bid_call
from simcoinche._kernels.scoring import S_MARK0
from simcoinche._kernels.thinking import register_bid_thinker

MAX_BID_WORLDS = 256
MAX_CANDIDATES = 16


class BidThink(NamedTuple):
    """Scratch of the thinking bidder (one per thread: the second of the thinking pair,
    :func:`.thinking.think_scratch`).

    ``worlds`` uint32[MAX_BID_WORLDS, 4] the deals kept (8-card hands by seat);
    ``views`` uint32[MAX_BID_WORLDS, 4] what each seat held at the auction in them;
    ``agree`` int64[MAX_BID_WORLDS] how many calls each one's replay matched;
    ``base`` int32[MAX_BID_WORLDS, AUCTION_STATE_LEN] the auction state after the calls
    made, per world; ``cards`` int64[32] the unseen cards; ``cand`` int64[MAX_CANDIDATES]
    the candidate calls, ``sums`` int64[MAX_CANDIDATES] and ``sq``
    float64[MAX_CANDIDATES] the sums and sums of squares over the worlds of their marks
    minus the fitted bidder's call's, ``vals`` int64[MAX_CANDIDATES] one world's marks;
    ``astate`` int32[AUCTION_STATE_LEN]; ``fault`` int32[1]; ``st`` uint64[RNG_STATE_LEN]
    the model bidders' stream; ``model`` the model players (:class:`.donne.Players`: the
    heuristic kind for both teams, the thinking player's row for both);
    ``donne`` the playouts' :class:`.donne.Scratch`; ``play_rec`` uint8[1, 32] (unused:
    no recording).
    """

    worlds: np.ndarray
    views: np.ndarray
    agree: np.ndarray
    base: np.ndarray
    cards: np.ndarray
    cand: np.ndarray
    sums: np.ndarray
    sq: np.ndarray
    vals: np.ndarray
    astate: np.ndarray
    fault: np.ndarray
    st: np.ndarray
    model: Players
    donne: Scratch
    play_rec: np.ndarray


@njit(cache=True)
def new_bid_think():
    """A fresh :class:`BidThink`."""
    return BidThink(np.zeros((MAX_BID_WORLDS, 4), np.uint32),
                    np.zeros((MAX_BID_WORLDS, 4), np.uint32),
                    np.zeros(MAX_BID_WORLDS, np.int64),
                    np.zeros((MAX_BID_WORLDS, AUCTION_STATE_LEN), np.int32),
                    np.zeros(32, np.int64), np.zeros(MAX_CANDIDATES, np.int64),
                    np.zeros(MAX_CANDIDATES, np.int64), np.zeros(MAX_CANDIDATES, np.float64),
                    np.zeros(MAX_CANDIDATES, np.int64),
                    np.zeros(AUCTION_STATE_LEN, np.int32), np.zeros(1, np.int32),
                    np.zeros(RNG_STATE_LEN, np.uint64),
                    Players(np.full(2, PLAYER_HEURISTIC, np.int32),
                            np.zeros((2, PARAM_LEN), np.float64), NO_KINDS),
                    donne_scratch(), np.zeros((1, 32), np.uint8))


@njit(cache=True)
def _key(st):
    """A 64-bit key drawn from ``st``."""
    return (np.uint64(next32(st)) << np.uint64(32)) | np.uint64(next32(st))


@njit(cache=True)
def _add(B, n, a):
    """Append call ``a`` to the first ``n`` candidates unless it is there; the new count."""
    for i in range(n):
        if B.cand[i] == a:
            return n
    B.cand[n] = a
    return n + 1


@njit(cache=True)
def candidates(B, hand, astate, actions, n_actions, fitted, params, row, prof):
    """Fill ``B.cand`` with the calls to try (module docstring, step 1); their count."""
    n = _add(B, 0, ACT_PASS)
    n = _add(B, n, fitted)
    seat = astate[A_TO_SPEAK]
    bidder = astate[A_BIDDER]
    ours = bidder >= 0 and (bidder & 1) == (seat & 1)
    if auction_check(astate, ACT_COINCHE, prof) == 0:
        # The opponents' contract may be coinched.
        n = _add(B, n, ACT_COINCHE)
    if prof[P_ALLOW_SURCOINCHE] != 0 and auction_check(astate, ACT_SURCOINCHE, prof) == 0:
        # Our coinched contract may be surcoinched.
        n = _add(B, n, ACT_SURCOINCHE)
    lowest = astate[A_LEVEL] + 1
    nv = prof[P_N_BID_VALUES]
    if lowest > nv or auction_check(astate, ACT_BID_BASE + lowest * N_KINDS, prof) != 0:
        # No bid is open (a coinche closed the bidding, or the ladder is spent).
        return n
    # The margin the fitted bidder asks of a bid in this situation: ranks bids only.
    if bidder < 0:
        margin = params[row, FB_BID_MARGIN]
    elif ours:
        margin = params[row, FB_RAISE_MARGIN]
    else:
        margin = params[row, FB_COMPETE_MARGIN]
    leads = np.int64(n_actions % 4 == 0)
    ctx = auction_context(actions, n_actions, seat, prof)
    summary = suit_summary(hand)
    want = min(int(params[row, PM_BID_CANDIDATES]), MAX_CANDIDATES - n)
    for _ in range(want):
        # The best bid not yet a candidate, by the tables' x1 entries.
        best = -np.inf
        best_a = -1
        for kd in range(N_KINDS):
            if (kd == 4 and prof[P_ALLOW_SA] == 0) or (kd == 5 and prof[P_ALLOW_TA] == 0):
                continue
            off = own_values_row(kd, own_bucket(hand, summary, kd, ctx, leads, params, row))
            for lv in range(lowest, nv + 1):
                a = ACT_BID_BASE + lv * N_KINDS + kd
                taken = False
                for i in range(n):
                    taken = taken or B.cand[i] == a
                if taken:
                    continue
                ev = params[row, off + lv * N_MULT] - margin
                if ev > best:
                    best = ev
                    best_a = a
        if best_a < 0:
            break
        n = _add(B, n, best_a)
    return n


@njit(cache=True)
def _deal_world(B, hand, seat, n_auc, st, w):
    """World ``w``: the unseen cards dealt uniformly (the seat's own missing cards
    included), then each other seat's auction view; the seat's view is ``hand``."""
    k = 0
    for c in range(32):
        if not (np.int64(hand) >> c) & 1:
            B.cards[k] = c
            k += 1
    # Fisher-Yates over the unseen cards, handed out seat by seat.
    pos = 0
    for s in range(4):
        h = np.uint32(hand) if s == seat else np.uint32(0)
        need = 8 - n_auc if s == seat else 8
        for _ in range(need):
            j = pos + bounded(st, k - pos)
            c = B.cards[j]
            B.cards[j] = B.cards[pos]
            B.cards[pos] = c
            pos += 1
            h |= np.uint32(1) << np.uint32(c)
        B.worlds[w, s] = h
    for s in range(4):
        B.views[w, s] = hand if s == seat else auction_view(B.worlds[w, s], n_auc, st)


@njit(cache=True, inline="always")
def agrees(model, made, slack):
    """Whether the model's call ``model`` tells what the call ``made`` told: the same
    call, or a bid in the same kind at most ``slack`` ladder levels away (the model
    bidders' exact level depends on margins a real bidder need not share)."""
    if model == made:
        return True
    if model < ACT_BID_BASE or made < ACT_BID_BASE:
        return False
    if (model - ACT_BID_BASE) % N_KINDS != (made - ACT_BID_BASE) % N_KINDS:
        return False
    return abs((model - ACT_BID_BASE) // N_KINDS - (made - ACT_BID_BASE) // N_KINDS) <= slack


@njit(cache=True)
def _replay(B, w, dealer, seat, actions, n_actions, slack, prof):
    """Replay the calls made on world ``w`` with the model at every other seat; the
    number of calls matched (``n_actions``: all). Leaves the auction state in
    ``B.base[w]``."""
    a_st = B.base[w]
    auction_start(a_st, dealer)
    for k in range(n_actions):
        s = a_st[A_TO_SPEAK]
        a = actions[k]
        if s != seat:
            m = model_action(B.model, s & 1, B.views[w, s], a_st, actions, k, prof, B.st,
                             B.fault)
            if not agrees(m, a, slack):
                return k
        auction_apply(a_st, a, prof)
    return n_actions


@njit(cache=True)
def draw_worlds(B, hand, seat, dealer, actions, n_actions, want, tries, slack, prof, st):
    """Fill ``B.worlds`` and ``B.base`` (module docstring, step 2; ``want`` at most
    ``MAX_BID_WORLDS // 2``): the worlds that fit the whole auction, or when fewer than
    ``want // 4`` (at least 1) do, those completed by the closest spares up to that
    count. ``actions`` holds the calls made (``n_actions``). Returns how many worlds fit
    the whole auction."""
    n_auc = prof[P_AUCTION_CARDS]
    # The world's row, an int64 from the start (numba would type a first 0 as a literal
    # and compile both helpers a second time for it).
    kept = np.int64(0)
    n_spare = 0  # deals that did not fit, kept at rows want .. want + n_spare - 1
    for _ in range(tries):
        if kept == want:
            break
        _deal_world(B, hand, seat, n_auc, st, kept)
        m = _replay(B, kept, dealer, seat, actions, n_actions, slack, prof)
        if m == n_actions:
            kept += 1
            continue
        # Not a fit: set aside when it agrees longer than the worst spare.
        r = -1
        if n_spare < want:
            r = want + n_spare
            n_spare += 1
        else:
            low = m
            for i in range(want, want + n_spare):
                if B.agree[i] < low:
                    low = B.agree[i]
                    r = i
        if r >= 0:
            B.agree[r] = m
            for s in range(4):
                B.worlds[r, s] = B.worlds[kept, s]
                B.views[r, s] = B.views[kept, s]
    exact = kept
    # Fewer exact fits than wanted: a quarter of the set at least, completed by spares.
    while kept < max(1, want // 4):
        # The spares that agreed longest complete the set, the calls made applied as made.
        best = want
        for i in range(want, want + n_spare):
            if B.agree[i] > B.agree[best]:
                best = i
        for s in range(4):
            B.worlds[kept, s] = B.worlds[best, s]
            B.views[kept, s] = B.views[best, s]
        B.agree[best] = -1
        a_st = B.base[kept]
        auction_start(a_st, dealer)
        for k in range(n_actions):
            auction_apply(a_st, actions[k], prof)
        kept += 1
    return exact


@njit(cache=True)
def _value(B, w, a, dealer, team, n_actions, prof, key):
    """Marks of our team minus theirs when call ``a`` is made on world ``w`` and the model
    finishes the auction and plays it out; ``-1 << 40`` on a fault of the model."""
    scr = B.donne
    a_st = B.astate
    for q in range(AUCTION_STATE_LEN):
        a_st[q] = B.base[w, q]
    # The streams of the continuation, the same for every candidate on this world.
    rng_seed(B.st, key, np.uint64(0))
    rng_seed(scr.st, key, np.uint64(1) << np.uint64(40))
    auction_apply(a_st, a, prof)
    scr.actions[n_actions] = a
    B.fault[0] = 0
    na = finish_auction(B.views[w], a_st, scr.actions, n_actions + 1, B.model, prof, B.st,
                        B.fault)
    if B.fault[0] != 0:
        return np.int64(-1) << np.int64(40)
    if a_st[A_STATUS] != 1:
        # Passed out: nobody scores.
        return np.int64(0)
    for s in range(4):
        scr.hands[s] = B.worlds[w, s]
    # The contract as play_one passes it (int32 fields): the same compiled play_phase.
    contract = (a_st[A_BIDDER], a_st[A_LEVEL], a_st[A_KIND], a_st[A_COINCHE])
    _, _, card_fault = play_phase(dealer, contract, B.model, prof, na, np.bool_(False),
                                  B.play_rec, np.int64(0), scr, None)
    if card_fault != 0:
        return np.int64(-1) << np.int64(40)
    return np.int64(scr.score[S_MARK0 + team] - scr.score[S_MARK0 + 1 - team])


@njit(cache=True, nogil=True)
def think_action(B, hand, astate, actions, n_actions, dealer, params, row, prof, st,
                 in_partie):
    """The thinking bidder's call (``int64`` action code, legal, or an illegal one when the
    model faulted).

    Parameters
    ----------
    B : BidThink
        Per-thread scratch (:func:`new_bid_think`).
    hand : uint32
        The cards the seat holds at the auction.
    astate : int32[AUCTION_STATE_LEN], actions : uint8[MAX_ACTIONS], n_actions : int
        The auction so far.
    dealer : int
        Dealer seat.
    params : float64[2, PARAM_LEN]
        Parameter rows; row ``row`` is the player's (``PM_BID_*``, the fitted bidder's
        margins and tables, the card play's parameters).
    prof : int32[PROFILE_LEN]
        Packed profile.
    st : uint64[RNG_STATE_LEN]
        The player's random stream.
    in_partie : None or int64
        As :func:`.score_bid.bid_call`: None where no donne is played inside a partie
        (the fitted call is then the score-blind bidder's, and the score-aware bidder is
        not compiled in: about 18 s of a cold ``simulate`` with a ``pimc`` seat), else
        the auction state says.
    """
    if astate[A_STATUS] != 0:
        return np.int64(ACT_PASS)
    seat = astate[A_TO_SPEAK]
    team = seat & 1
    # The data-fitted call (score-aware inside a partie, :mod:`.score_bid`).
    fitted = bid_call(in_partie, hand, astate, actions, n_actions, params, row, prof, st)
    if auction_check(astate, fitted, prof) != 0:
        # The fitted bidder refused (tables of another profile): so does its thinker.
        return fitted
    for j in range(PARAM_LEN):
        B.model.params[0, j] = params[row, j]
        B.model.params[1, j] = params[row, j]
    n = candidates(B, hand, astate, actions, n_actions, fitted, params, row, prof)
    if n == 1:
        return fitted
    want = min(int(params[row, PM_BID_WORLDS]), MAX_BID_WORLDS // 2)
    tries = want * max(1, int(params[row, PM_BID_TRIES]))
    rng_seed(B.st, _key(st), np.uint64(0))
    slack = int(params[row, PM_BID_SLACK])
    # The seat as an int64, as the tests and every caller of draw_worlds pass it: one
    # compile of the world drawing (the auction state holds it as an int32).
    exact = draw_worlds(B, hand, np.int64(seat), dealer, actions, n_actions, want, tries,
                        slack, prof, st)
    got = max(exact, max(1, want // 4))
    for k in range(n_actions):
        B.donne.actions[k] = actions[k]
    # The fitted bidder's call is the reference: a candidate replaces it only when its
    # mean gain over it, world by world, stands z standard errors above zero.
    ref = 0 if fitted == ACT_PASS else 1
    for i in range(n):
        B.sums[i] = 0
        B.sq[i] = 0.0
    for w in range(got):
        key = _key(st)
        for i in range(n):
            v = _value(B, w, B.cand[i], dealer, team, n_actions, prof, key)
            if v == np.int64(-1) << np.int64(40):
                # The model made an illegal call or card: never replaced, the run fails.
                return np.int64(illegal_action(astate))
            B.vals[i] = v
        for i in range(n):
            d = B.vals[i] - B.vals[ref]
            B.sums[i] += d
            B.sq[i] += np.float64(d) * np.float64(d)
    z = params[row, PM_BID_Z]
    best = ref
    best_lb = 0.0
    for i in range(n):
        if i == ref:
            continue
        mean = B.sums[i] / got
        var = max(B.sq[i] / got - mean * mean, 0.0)
        lb = mean - z * np.sqrt(var / got)
        if lb > best_lb:
            best_lb = lb
            best = i
    return B.cand[best]


# The donne kernels reach the thinking bidder through .thinking (which cannot import this
# module: it plays donnes out with .donne, which imports .thinking).
register_bid_thinker(new_bid_think, think_action)
