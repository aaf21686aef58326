"""Kernels that read an auction: keep the deals the model bidders agree with, continue it.

Used by ``simcoinche odds --auction`` and ``simcoinche advise``
(:mod:`simcoinche.analysis.conditioned`, :mod:`simcoinche.analysis.advisor`).

Rejection filter (:func:`filter_deals`)
---------------------------------------
Deal ``i`` of the run is drawn exactly as
:meth:`simcoinche.analysis.hand_odds.Deals.sample` draws it (:func:`.sampler.sample_one`
on stream ``donne_key(run_key, start + i)`` at counter ``STREAM_DEAL``), so with an
empty auction the deals are those of ``odds``. Then the observed auction is replayed
from its first action: at every *modelled* seat the model bidder is asked for its action
with :func:`.donne.choose_action` — the function :func:`.donne.play_one` calls — seeing
what it sees in a simulation (its cards at the auction, the auction state and the
actions so far); an illegal answer counts as a pass, as in ``play_one``, and is recorded
in the deal's ``faults`` word (the facade fails the run on it). The deal is
kept only if every modelled action equals the observed one. Unmodelled seats (the
player's own) play the observed action. The kept deals are therefore distributed exactly
as the deals conditioned on the model producing the observed auction.

What a seat holds at the auction: its 8 cards, or (``P_AUCTION_CARDS`` 6, stephanoise) a
uniformly random 6 of them — under the uniform shuffle the first 6 cards a seat receives
are a uniform subset of its 8. The auction hands of all four seats are returned, so that
the continuation of the auction (:func:`continue_auctions`) uses the cards that passed
the filter.

Random numbers (counter ranges inside the stream ``donne_key(run_key, index)``, next to
:mod:`.rng`'s ``STREAM_DEAL`` 0 and ``STREAM_PLAYERS`` 2**40): ``STREAM_FILTER`` (2**41)
for the auction hands and the model bidders' decisions while filtering deal ``index``;
``STREAM_CONTINUE`` (3 * 2**40) for the continuation of kept deal ``index``, restarted
for every candidate action (common random numbers). The heuristic bidder draws none.
Every result is a pure function of (seed, index): it does not depend on the thread count
or the chunking.
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
from simcoinche._kernels.borrow import borrow, borrow_all
from simcoinche._kernels.donne import MAX_ACTIONS, choose_action
from simcoinche._kernels.layout import F_CALL, F_ONE, P_AUCTION_CARDS
from simcoinche._kernels.rng import (
    RNG_STATE_LEN,
    STREAM_DEAL,
    donne_key,
    random_bit,
    rng_seed,
)
from simcoinche._kernels.sampler import sample_one, score_played
from simcoinche._kernels.scoring import S_MARK0, SCORE_LEN

STREAM_FILTER = np.uint64(2 << 40)
STREAM_CONTINUE = np.uint64(3 << 40)

# --- rows of continue_auctions' output (int16[C_LEN, n_candidates, n]) ----------------
C_TAKER = 0      # seat of the final bidder, -1 when passed out
C_LEVEL = 1      # ladder level of the contract
C_KIND = 2       # contract kind 0..5
C_COINCHE = 3    # 1, 2 or 4
C_FAULTS = 4     # calls replaced (F_* word of .layout, count capped at 127; 0: none)
C_LEN = 5

BLOCK = 512


class FilterOutputs(NamedTuple):
    """What :func:`filter_deals` writes, one row per deal drawn: ``hands`` uint32[n, 4]
    (the deals, kept or not), ``early`` uint32[n, 4] (the cards each seat holds at the
    auction), ``keep`` uint8[n] (1 when the deal is kept), ``faults`` int32[n] (the
    model bidders' calls replaced while replaying it, ``F_*`` of :mod:`.layout`)."""

    hands: np.ndarray
    early: np.ndarray
    keep: np.ndarray
    faults: np.ndarray


@njit(cache=True, inline="always")
def auction_view(hand, n_cards, st):
    """The cards a seat holds at the auction: ``hand`` (``uint32``, 8 cards) when
    ``n_cards >= 8``, else a uniformly random ``n_cards`` of them (drawn from ``st``)."""
    h = np.uint32(hand)
    for _ in range(8 - n_cards):
        # Removing uniformly chosen cards one by one leaves a uniform subset.
        h &= ~(np.uint32(1) << np.uint32(random_bit(st, h)))
    return h


@njit(cache=True)
def model_action(players, team, hand, astate, actions, n_actions, prof, st, fault):
    """The model bidder's action, as :func:`.donne.play_one` takes it.

    :func:`.donne.choose_action` (the simulator's dispatch to the player kernels) for
    team ``team``'s player of ``players`` (a :class:`.donne.Players`: its code, its
    parameter row ``team``, and the optional kinds compiled in, ``players.kinds``)
    holding ``hand`` (``uint32``) with the public auction (``astate``, the first
    ``n_actions`` codes of ``actions``); an illegal answer is replaced by a pass, as
    ``play_one`` does, and recorded in ``fault[0]`` (``int32[1]``, the ``F_*`` word of
    :mod:`.layout`). Compiled once (not inlined) and shared by the filter and the
    continuation: their cost is the bidders' own evaluation.
    """
    # (in_partie None: no score-aware bidder compiled in. The auction states of the filter,
    # the continuations and the thinking bidder's worlds start from zeros and never carry
    # a partie's score (A_PARTIE stays 0), so the data-fitted bidder's call is the
    # score-blind one either way; compiling the score-aware one in cost 40 s of a cold
    # ``advise``. Only the optional kinds of ``players.kinds`` are compiled in, as in a
    # simulation: the facades give those of the model players, :func:`.kinds.kinds_of`.)
    a = choose_action(players.codes[team], hand, astate, actions, n_actions, players.params,
                      team, prof, st, None, players.kinds)
    if auction_check(astate, a, prof) != 0:
        # A player may only make legal calls: the fault is recorded (the facade fails the
        # run) and a pass, always allowed, stands in for it.
        fault[0] = (fault[0] | (F_CALL << astate[A_TO_SPEAK])) + F_ONE
        return 0
    return a


@njit(cache=True)
def finish_auction(hands, astate, actions, n_actions, players, prof, st, fault):
    """Let the model bidders speak until the auction is over; returns the action count.

    ``hands`` (``uint32[4]``): the cards each seat holds at the auction; ``astate`` and
    ``actions`` (``n_actions`` codes so far) are updated in place; ``fault`` (``int32[1]``)
    accumulates the calls replaced (:func:`model_action`).
    """
    na = n_actions
    while astate[A_STATUS] == 0 and na < MAX_ACTIONS:
        seat = astate[A_TO_SPEAK]
        team = seat & 1
        a = model_action(players, team, hands[seat], astate, actions, na, prof, st, fault)
        auction_apply(astate, a, prof)
        actions[na] = a
        na += 1
    return na


@njit(cache=True)
def replay_matches(early, dealer, observed, n_obs, modelled, players, prof, st, astate,
                   actions, fault):
    """Replay the observed auction; True when every modelled seat's bidder agrees.

    Parameters
    ----------
    early : uint32[4]
        Cards each seat holds at the auction.
    dealer : int
        Dealer seat (seat ``dealer + 1`` speaks first).
    observed : uint8[>= n_obs]
        The observed actions in order (legal: checked by the facade).
    n_obs : int
        Number of observed actions.
    modelled : int
        Bit ``s`` set when seat ``s``'s actions come from the model bidder.
    players : .donne.Players
        The model players (as for :func:`.donne.play_one`: ``codes`` int32[2],
        ``params`` float64[2, PARAM_LEN], ``kinds``, :func:`model_action`).
    prof : int32[PROFILE_LEN]
        Packed profile.
    st : uint64[RNG_STATE_LEN]
        RNG state of the model bidders (already seeded).
    astate : int32[AUCTION_STATE_LEN], actions : uint8[MAX_ACTIONS]
        Scratch; on return they hold the auction after the last action replayed.
    fault : int32[1]
        Accumulates the model bidders' calls replaced (:func:`model_action`).
    """
    auction_start(astate, dealer)
    for k in range(n_obs):
        seat = astate[A_TO_SPEAK]
        a = observed[k]
        if (modelled >> seat) & 1:
            team = seat & 1
            if model_action(players, team, early[seat], astate, actions, k, prof, st,
                            fault) != a:
                return False
        auction_apply(astate, a, prof)
        actions[k] = a
    return True


@njit(cache=True, nogil=True)
def filter_deals(run_key, start, n, blocks, pool, dealer, observed, n_obs, modelled, players,
                 prof, outs):
    """Draw the deals of the blocks ``blocks = (first, end)`` of deals ``start ..
    start+n-1`` (block ``b`` holds rows ``b*BLOCK .. min(n, (b+1)*BLOCK)-1``; blocks past
    row ``n-1`` are empty) and keep those the model bidders agree with, one block after
    the other, on the calling thread with the GIL released: the facade shares the blocks
    out to its threads (:func:`simcoinche.runs.blocks.share_blocks`). A row depends only
    on its index.

    (Not a ``prange`` kernel: numba's parallel loop wraps the block loop in more compiled
    levels, each of which links and optimises the model bidders' code again;
    ``benchmarks/README.md``, "Compile time, thirteenth cut".)

    Parameters
    ----------
    run_key : uint64
        :func:`.rng.seed_key` of the seed.
    start, n : int64
        First deal index and number of deals.
    blocks : (int64, int64)
        The blocks to draw, ``first .. end-1``.
    pool : .sampler.DealPool
        The sampler's arrays (:func:`.sampler.sample_one`): ``known``, ``free``,
        ``seats``, ``caps``, ``w``, ``cum``, ``pick``.
    dealer, observed, n_obs, modelled
        As for :func:`replay_matches`.
    players : .donne.Players
        The model players (as for :func:`replay_matches`; ``kinds``: those of their
        codes, :func:`.kinds.kinds_of`).
    prof : int32[PROFILE_LEN]
        Packed profile.
    outs : FilterOutputs
        ``hands`` uint32[n, 4] (the deals, every one, kept or not), ``early`` uint32[n, 4]
        (the cards each seat holds at the auction), ``keep`` uint8[n] (1 when deal
        ``start + i`` is kept), ``faults`` int32[n] (the calls replaced, ``F_*``).
    """
    # The arrays every thread shares, as borrowed views (:mod:`.borrow`: no reference
    # counting at each model call; safe, they are arguments of this call). A prange loop
    # passed them to its body without counts; without it, their counts bounced between
    # the cores and the filter ran 20-30 % slower.
    players = borrow_all(players)
    prof = borrow(prof)
    observed = borrow(observed)
    pool = borrow_all(pool)
    outs = borrow_all(outs)
    first, end = blocks
    n_auc = prof[P_AUCTION_CARDS]
    known, free, seats, caps, w, cum, pick = pool
    hands_out, early_out, keep, faults = outs
    for b in range(first, min(end, (n + BLOCK - 1) // BLOCK)):
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        perm = np.zeros(8, dtype=np.int64)
        hands = np.zeros(4, dtype=np.uint32)
        early = np.zeros(4, dtype=np.uint32)
        astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
        fault = np.zeros(1, dtype=np.int32)
        lo = b * BLOCK
        hi = min(n, lo + BLOCK)
        for i in range(lo, hi):
            key = donne_key(run_key, start + i)
            rng_seed(st, key, STREAM_DEAL)
            sample_one(st, known, free, seats, caps, w, cum, pick, perm, hands)
            rng_seed(st, key, STREAM_FILTER)
            for s in range(4):
                early[s] = auction_view(hands[s], n_auc, st)
            fault[0] = 0
            ok = replay_matches(early, dealer, observed, n_obs, modelled, players, prof, st,
                                astate, actions, fault)
            keep[i] = 1 if ok else 0
            faults[i] = fault[0]
            for s in range(4):
                hands_out[i, s] = hands[s]
                early_out[i, s] = early[s]


@njit(cache=True, nogil=True)
def continue_auctions(run_key, early, blocks, dealer, observed, n_obs, candidates, players,
                      prof, out):
    """For each kept deal of the blocks ``blocks = (first, end)`` (``BLOCK`` deals each;
    blocks past the last deal are empty) and each candidate action, finish the auction
    with the model; one block after the other, on the calling thread with the GIL
    released (the facade shares the blocks out, as for :func:`filter_deals`).

    Deal ``j`` replays the observed actions as given, plays ``candidates[c]`` for the
    seat to speak, then lets the model bidders (:func:`.donne.choose_action`, as in
    :func:`.donne.play_one`) speak at every seat until the auction is over. The bidders'
    stream is ``donne_key(run_key, j)`` at ``STREAM_CONTINUE``, the same for every
    candidate (common random numbers).

    Parameters
    ----------
    run_key : uint64
    early : uint32[n, 4]
        Cards each seat holds at the auction, per deal.
    blocks : (int64, int64)
        The blocks to continue, ``first .. end-1``.
    dealer : int
    observed : uint8[>= n_obs], n_obs : int
        The auction so far (legal).
    candidates : uint8[m]
        Legal actions of the seat to speak.
    players : .donne.Players
        The model players (as for :func:`replay_matches`).
    prof : int32[PROFILE_LEN]
        Packed profile.
    out : int16[C_LEN, m, n]
        Final contract per candidate and deal (rows ``C_*``; ``C_TAKER`` -1 when passed
        out; ``C_FAULTS`` the calls replaced, 0 when every call was legal).
    """
    # Borrowed views of the arrays every thread shares, as in :func:`filter_deals`.
    players = borrow_all(players)
    prof = borrow(prof)
    observed = borrow(observed)
    early = borrow(early)
    candidates = borrow(candidates)
    out = borrow(out)
    n = early.shape[0]
    m = candidates.shape[0]
    first, end = blocks
    for b in range(first, min(end, (n + BLOCK - 1) // BLOCK)):
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        base = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
        hand4 = np.zeros(4, dtype=np.uint32)
        fault = np.zeros(1, dtype=np.int32)
        lo = b * BLOCK
        hi = min(n, lo + BLOCK)
        for j in range(lo, hi):
            for s in range(4):
                hand4[s] = early[j, s]
            auction_start(base, dealer)
            for k in range(n_obs):
                auction_apply(base, observed[k], prof)
                actions[k] = observed[k]
            key = donne_key(run_key, j)
            for c in range(m):
                rng_seed(st, key, STREAM_CONTINUE)
                for q in range(AUCTION_STATE_LEN):
                    astate[q] = base[q]
                auction_apply(astate, candidates[c], prof)
                actions[n_obs] = candidates[c]
                fault[0] = 0
                finish_auction(hand4, astate, actions, n_obs + 1, players, prof, st, fault)
                # The calls replaced: seat bits and the count (capped to fit int16).
                out[C_FAULTS, c, j] = (fault[0] & 0xFF) | (min(fault[0] >> 8, 127) << 8)
                if astate[A_STATUS] == 1:
                    out[C_TAKER, c, j] = astate[A_BIDDER]
                    out[C_LEVEL, c, j] = astate[A_LEVEL]
                    out[C_KIND, c, j] = astate[A_KIND]
                    out[C_COINCHE, c, j] = astate[A_COINCHE]
                else:
                    # Four passes: the donne is passed out, nobody scores.
                    out[C_TAKER, c, j] = -1
                    out[C_LEVEL, c, j] = -1
                    out[C_KIND, c, j] = -1
                    out[C_COINCHE, c, j] = 0


@njit(cache=True, nogil=True)
def score_outcomes(pc, play_col, contracts, team, prof, diff, made, marks):
    """Marks of every (candidate, deal) from the plays of its final contract.

    One thread: a scoring costs tens of nanoseconds, far less than the auctions and the
    plays before it, and a serial kernel compiles in a fraction of a parallel one's time.

    Parameters
    ----------
    pc : int32[PC_LEN, p]
        Plays (:func:`.batch.play_contracts` rows), one column per distinct (deal, taker,
        kind).
    play_col : int64[m, n]
        Column of ``pc`` holding the play of candidate ``c``'s contract on deal ``j``
        (-1 when passed out).
    contracts : int16[C_LEN, m, n]
        Output of :func:`continue_auctions`.
    team : int
        The player's team.
    prof : int32[PROFILE_LEN]
    diff : int32[m, n]
        Output: the team's marks minus the opponents' (0 when passed out).
    made : int8[m, n]
        Output: 1 made, 0 failed, -1 passed out.
    marks : int32[2, m, n]
        Output: the team's marks and the opponents' (0, 0 when passed out), for the
        partie's score (``advise --score``).
    """
    m = play_col.shape[0]
    n = play_col.shape[1]
    cpts = np.zeros(2, dtype=np.int32)
    tricks = np.zeros(2, dtype=np.int32)
    ann = np.zeros(2, dtype=np.int32)
    bel = np.zeros(2, dtype=np.int32)
    score = np.zeros(SCORE_LEN, dtype=np.int32)
    for j in range(n):
        for c in range(m):
            col = play_col[c, j]
            if col < 0:
                # Passed out: nobody scores.
                diff[c, j] = 0
                made[c, j] = -1
                marks[0, c, j] = 0
                marks[1, c, j] = 0
                continue
            taker = np.int64(contracts[C_TAKER, c, j])
            ok = score_played(pc, col, taker & 1, np.int64(contracts[C_LEVEL, c, j]),
                              np.int64(contracts[C_KIND, c, j]),
                              np.int64(contracts[C_COINCHE, c, j]), prof, cpts, tricks, ann,
                              bel, score)
            diff[c, j] = score[S_MARK0 + team] - score[S_MARK0 + 1 - team]
            marks[0, c, j] = score[S_MARK0 + team]
            marks[1, c, j] = score[S_MARK0 + 1 - team]
            made[c, j] = 1 if ok else 0
