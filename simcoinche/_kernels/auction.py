"""Auction state machine (RULES.md "Auction").

The state is an ``int32[AUCTION_STATE_LEN]`` array with the named offsets below. Actions
are the ``uint8`` codes of :mod:`simcoinche.rules.actions`: ``0`` pass, ``1`` coinche,
``2`` surcoinche, a bid ``8 + level * 6 + kind`` (``level`` on the profile ladder, then
capot at ``level == n_values``, générale at ``n_values + 1`` when the profile has it).
Illegal actions are reported with the ``R_*`` reason codes defined below (plain ints; the
texts users read are in :mod:`simcoinche.rules.actions`).
"""

from __future__ import annotations

from numba import njit, types

from simcoinche._kernels import layout as L

__all__ = [
    "AUCTION_STATE_LEN",
    "A_BIDDER",
    "A_COINCHE",
    "A_COINCHER",
    "A_KIND",
    "A_LEVEL",
    "A_N_ACTIONS",
    "A_N_BIDS",
    "A_PARTIE",
    "A_PASSES",
    "A_PENDING",
    "A_STATUS",
    "A_TOTAL",
    "A_TO_SPEAK",
    "R_ALREADY_COINCHED",
    "R_ALREADY_SURCOINCHED",
    "R_AUCTION_OVER",
    "R_BID_AFTER_COINCHE",
    "R_BID_NOT_HIGHER",
    "R_COINCHE_NO_BID",
    "R_COINCHE_OWN_TEAM",
    "R_NOT_IN_PROFILE",
    "R_OK",
    "R_SURCOINCHE_NOT_TAKERS",
    "R_SURCOINCHE_NO_COINCHE",
    "STATUS_CONTRACT",
    "STATUS_PASSED_OUT",
    "STATUS_RUNNING",
    "auction_apply",
    "auction_check",
    "auction_start",
]

# --- state offsets ------------------------------------------------------------------
A_TO_SPEAK = 0    # seat whose turn it is
A_LEVEL = 1       # ladder level of the highest bid, -1 none
A_KIND = 2        # contract kind of the highest bid, -1 none
A_BIDDER = 3      # seat of the highest bid, -1 none
A_COINCHE = 4     # multiplier: 1, 2 (coinched) or 4 (surcoinched)
A_PASSES = 5      # consecutive passes
A_N_BIDS = 6      # bids made so far
A_N_ACTIONS = 7   # actions applied so far
A_STATUS = 8      # 0 running, 1 contract fixed, 2 passed out
A_COINCHER = 9    # seat that coinched, -1 none
# The score of the partie the donne belongs to (issue 22), set by the partie kernel
# before the auction and left alone by auction_start; all 0 outside a partie.
A_PARTIE = 10     # 1 when the donne is played inside a partie (the slots below are set)
A_TOTAL = 11      # 2 entries: each team's total before the donne
A_PENDING = 13    # 2 entries: each team's pending flag (scoring.team_step)
# The score-aware bidder's memo of what the score alone decides (:func:`.score_bid._local`),
# MEMO_LEN entries per team from A_MEMO (even: its three float64 sit on 8-byte bounds);
# keyed by the score it was computed for, so a stale entry is never read.
A_MEMO = 16
MEMO_LEN = 10
AUCTION_STATE_LEN = A_MEMO + 2 * MEMO_LEN

STATUS_RUNNING = 0
STATUS_CONTRACT = 1
STATUS_PASSED_OUT = 2

# --- why an action is illegal: reason codes returned by auction_check (texts in
# simcoinche.rules.actions.AUCTION_REASONS, raised likewise by the reference engine) ---
R_OK = 0
R_AUCTION_OVER = 1
R_BID_NOT_HIGHER = 2
R_BID_AFTER_COINCHE = 3
R_COINCHE_NO_BID = 4
R_COINCHE_OWN_TEAM = 5
R_ALREADY_COINCHED = 6
R_SURCOINCHE_NO_COINCHE = 7
R_SURCOINCHE_NOT_TAKERS = 8
R_ALREADY_SURCOINCHED = 9
R_NOT_IN_PROFILE = 10

_PASS = 0
_COINCHE = 1
_SURCOINCHE = 2
_BID_BASE = 8
_N_KINDS = 6


@njit(cache=True)
def auction_start(state, dealer):
    """Reset ``state`` (``int32[AUCTION_STATE_LEN]``) for a new auction.

    "The next seat, D+1 (mod 4), bids first."
    """
    state[A_TO_SPEAK] = (dealer + 1) & 3
    state[A_LEVEL] = -1
    state[A_KIND] = -1
    state[A_BIDDER] = -1
    state[A_COINCHE] = 1
    state[A_PASSES] = 0
    state[A_N_BIDS] = 0
    state[A_N_ACTIONS] = 0
    state[A_STATUS] = STATUS_RUNNING
    state[A_COINCHER] = -1


# The two kernels below are called for every action by the players and the auction loop,
# where a call would cost more than the check: compiled once each, and inlined into every
# caller by LLVM (``forceinline``). Their one signature takes the action as ``int64``:
# every caller's code (a literal ``ACT_COINCHE``, a ``uint8`` read from an action array)
# is converted to it, instead of compiling a version per type. As numba-level copies
# (``inline="always"``) each bidder typed and lowered them again at each call: 4-7 s of
# a cold ``parties`` (benchmarks/README.md, "Compile time, fifteenth cut").
_CHECK_SIGNATURE = types.int64(types.Array(types.int32, 1, "C"), types.int64,
                               types.Array(types.int32, 1, "C", readonly=True))


@njit(_CHECK_SIGNATURE, cache=True, forceinline=True)
def auction_check(state, action, prof):
    """Whether the seat ``state[A_TO_SPEAK]`` may play ``action``.

    Parameters
    ----------
    state : int32[AUCTION_STATE_LEN]
        Auction state (offsets ``A_*``), not modified.
    action : int
        Action code (``uint8`` range).
    prof : int32[PROFILE_LEN]
        Packed profile: ladder length, ``P_GENERALE_VALUE``, ``P_ALLOW_SA``/``TA``,
        ``P_ALLOW_SURCOINCHE``, ``P_ALLOW_DECOINCHE``, ``P_NO_COINCHE_80``.

    Returns
    -------
    int
        ``R_OK`` (0) when legal, else an ``R_*`` reason code.
    """
    if state[A_STATUS] != STATUS_RUNNING:
        # No action after the contract is fixed or the donne passed out.
        return R_AUCTION_OVER
    a = action
    if a == _PASS:
        # "Passing does not stop a player bidding later": always allowed.
        return R_OK
    seat = state[A_TO_SPEAK]
    level = state[A_LEVEL]
    bidder = state[A_BIDDER]
    coinche = state[A_COINCHE]
    if a == _COINCHE:
        if level < 0:
            # "only against the current highest bid": there must be one.
            return R_COINCHE_NO_BID
        if coinche > 1:
            # "at most once".
            return R_ALREADY_COINCHED
        if (bidder & 1) == (seat & 1):
            # "when it belongs to the other team".
            return R_COINCHE_OWN_TEAM
        if (prof[L.P_NO_COINCHE_80] != 0 and level < prof[L.P_N_BID_VALUES]
                and prof[L.P_BID_VALUES + level] == 80):
            # classic option: "nobody coinches an 80".
            return R_NOT_IN_PROFILE
        return R_OK
    if a == _SURCOINCHE:
        if prof[L.P_ALLOW_SURCOINCHE] == 0:
            # Profiles without surcoinche (classic: a coinche ends the auction).
            return R_NOT_IN_PROFILE
        if coinche == 1:
            # "After a coinche: a player of the bidding team may surcoinche".
            return R_SURCOINCHE_NO_COINCHE
        if coinche >= 4:
            # Only once.
            return R_ALREADY_SURCOINCHED
        if (bidder & 1) != (seat & 1):
            # "a player of the bidding team".
            return R_SURCOINCHE_NOT_TAKERS
        return R_OK
    if a < _BID_BASE:
        # Codes 3..7 are not actions.
        return R_NOT_IN_PROFILE
    blevel = (a - _BID_BASE) // _N_KINDS
    kind = (a - _BID_BASE) % _N_KINDS
    if (kind == 4 and prof[L.P_ALLOW_SA] == 0) or (kind == 5 and prof[L.P_ALLOW_TA] == 0):
        # Sans-atout / tout-atout only in profiles that have them.
        return R_NOT_IN_PROFILE
    nv = prof[L.P_N_BID_VALUES]
    if blevel > nv + 1 or (blevel == nv + 1 and prof[L.P_GENERALE_VALUE] == 0):
        # Beyond capot: générale only where the profile has it ("Nothing outbids capot").
        return R_NOT_IN_PROFILE
    if coinche > 1:
        if not (prof[L.P_ALLOW_DECOINCHE] != 0 and coinche == 2 and seat == (bidder ^ 2)):
            # "It freezes the contract: no more bids by anyone" (except a décoinche).
            return R_BID_AFTER_COINCHE
    if blevel <= level:
        # "A bid must be strictly above the current highest bid."
        return R_BID_NOT_HIGHER
    return R_OK


@njit(_CHECK_SIGNATURE, cache=True, forceinline=True)
def auction_apply(state, action, prof):
    """Check ``action`` for the seat to speak and apply it when legal.

    Parameters
    ----------
    state : int32[AUCTION_STATE_LEN]
        Auction state, updated in place when the action is legal.
    action : int
        Action code.
    prof : int32[PROFILE_LEN]
        Packed profile (see :func:`auction_check`; also ``P_COINCHE_ENDS_AUCTION``).

    Returns
    -------
    int
        ``R_OK`` (0) when applied, else the ``R_*`` reason (state unchanged).
    """
    r = auction_check(state, action, prof)
    if r != R_OK:
        return r
    seat = state[A_TO_SPEAK]
    state[A_N_ACTIONS] += 1
    state[A_TO_SPEAK] = (seat + 1) & 3
    a = action
    if a == _PASS:
        state[A_PASSES] += 1
        if state[A_LEVEL] < 0:
            if state[A_PASSES] >= 4:
                # "Four passes before any bid: the donne is passed out".
                state[A_STATUS] = STATUS_PASSED_OUT
        elif state[A_PASSES] >= 3:
            # "After a bid, three consecutive passes end the auction" (also after a
            # coinche: "otherwise three consecutive passes end it").
            state[A_STATUS] = STATUS_CONTRACT
        return R_OK
    if a == _COINCHE:
        state[A_COINCHE] = 2
        state[A_COINCHER] = seat
        state[A_PASSES] = 0
        if prof[L.P_COINCHE_ENDS_AUCTION] != 0:
            # classic: "A coinche ends it at once".
            state[A_STATUS] = STATUS_CONTRACT
        return R_OK
    if a == _SURCOINCHE:
        # "may surcoinche in turn, which ends the auction at once (multiplier 4)".
        state[A_COINCHE] = 4
        state[A_PASSES] = 0
        state[A_STATUS] = STATUS_CONTRACT
        return R_OK
    # A bid: new highest bid (a décoinche also cancels the coinche).
    state[A_LEVEL] = (a - _BID_BASE) // _N_KINDS
    state[A_KIND] = (a - _BID_BASE) % _N_KINDS
    state[A_BIDDER] = seat
    state[A_COINCHE] = 1
    state[A_COINCHER] = -1
    state[A_PASSES] = 0
    state[A_N_BIDS] += 1
    return R_OK
