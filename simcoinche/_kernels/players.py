"""Simulated players: registry codes, what a player may see, and the random player.

A player is two kernels, one for the auction and one for the play, selected by a small
integer code (``PLAYER_RANDOM`` 0, ``PLAYER_HEURISTIC`` 1, ``PLAYER_PIMC`` 2: it bids like
the heuristic player and plays from sampled worlds solved double dummy, :mod:`.pimc`;
``PLAYER_CLUB`` 3: today's heuristic player, kept unchanged as the yardstick of the auction
work) chosen per team. Each team
also gets a ``float64[PARAM_LEN]`` parameter row (names and defaults:
:mod:`simcoinche.players.registry`); player kernels take the ``float64[2, PARAM_LEN]`` array and
the row to read (``params[row, X]``), so that no array view is made per decision.

What a player sees (and nothing else; never another hand):

- its own hand (``uint32`` bitboard of the cards it still holds);
- the auction so far: the public auction state (``int32[AUCTION_STATE_LEN]``, see
  :mod:`.auction`) and the actions in order (``uint8`` codes, ``n_actions`` of them);
- during the play, the public ``info`` array (``int64[INFO_LEN]``, offsets ``I_*``
  below): the contract, the cards already played, the current trick (``trick``, ``n``
  cards from the leader), tricks and card points won so far, the suits each seat has
  shown it lacks, and the cards shown in the announcements that count (from the second
  trick on, when they are shown) and the belote once announced.

Every player must return a legal action: the donne kernel passes auction actions
through ``auction_check`` and cards through ``legal_mask`` (see :mod:`.donne`).
"""

from __future__ import annotations

from numba import njit

from simcoinche._kernels.auction import (
    A_BIDDER,
    A_COINCHE,
    A_KIND,
    A_LEVEL,
    A_STATUS,
    auction_check,
)
from simcoinche._kernels.bid_layout import BT_END
from simcoinche._kernels.layout import P_ALLOW_SA, P_ALLOW_TA, P_GENERALE_VALUE, P_N_BID_VALUES
from simcoinche._kernels.rng import bounded, lowest_bit, random_bit, uniform01

PLAYER_RANDOM = 0
PLAYER_HEURISTIC = 1
PLAYER_PIMC = 2
# Today's heuristic player (its bidding and its card play) kept unchanged under its own
# code: the yardstick every change of the auction is measured against (issue 21).
PLAYER_CLUB = 3
N_PLAYER_KINDS = 4
# The named parameters (offsets 0 .. BT_OFFSET - 1), then the data-fitted bidder's tables
# of the run's profile and the blocks derived from them (:mod:`.bid_layout`; zeros for
# players that do not bid with them).
PARAM_LEN = BT_END
# Offset of ``worlds`` in the player's float64 parameter row: after the heuristic's
# parameters (the PIMC player bids with them). Here, not in :mod:`.pimc`, so that reading
# it does not import (and compile) the double-dummy solver.
PM_WORLDS = 40
# The PIMC player's thinking bidder (:mod:`.think_bid`), after the data-fitted bidder's
# margins (FB_* 41-47 of :mod:`.bidder`) and before its tables (BT_OFFSET).
PM_BID_WORLDS = 48      # worlds per call; 0: the data-fitted bidder alone
PM_BID_CANDIDATES = 49  # bids tried besides pass, coinche, surcoinche and the fitted call
PM_BID_TRIES = 50       # deals drawn per world wanted, at most
PM_BID_SLACK = 51       # ladder levels a modelled bid may differ from the one made
PM_BID_Z = 52           # standard errors a call must gain over the fitted bidder's

# Auction action codes (simcoinche.rules.actions).
ACT_PASS = 0
ACT_COINCHE = 1
ACT_SURCOINCHE = 2
ACT_BID_BASE = 8
N_KINDS = 6

# --- the public play information (int64[INFO_LEN]) -------------------------------------
I_SEAT = 0          # seat of the player to move
I_DEALER = 1        # dealer seat
I_TAKER = 2         # seat of the taker
I_KIND = 3          # contract kind 0..5
I_LEVEL = 4         # ladder level of the contract
I_VALUE = 5         # contract value (250 capot)
I_COINCHE = 6       # 1, 2 or 4
I_TRICK = 7         # index 0..7 of the current trick
I_LEADER = 8        # seat that led the current trick
I_PLAYED = 9        # bitboard of every card played so far (current trick included)
I_VOID = 10         # 4 entries: suits (bit s) each seat has shown it lacks
I_SHOWN = 14        # 4 entries: cards each seat has shown in counted announcements
I_TRICKS = 18       # 2 entries: tricks won per team so far
I_POINTS = 20       # 2 entries: card points won per team so far (no last-trick bonus)
I_BELOTE_SEAT = 22  # seat that announced belote (after its first K/Q of trump), or -1
I_ANN_TEAM = 23     # team whose announcements count (-1 none)
I_LED = 24          # 4 entries: suits (bit s) each seat has led so far
INFO_LEN = 28

# --- random player parameters (float64 row; names in simcoinche.players.registry) ---------------
RP_OPEN = 0         # probability of bidding when nobody has bid yet
RP_OVERBID = 1      # probability of outbidding an existing bid
RP_MAX_JUMP = 2     # a bid goes 0..max_jump levels above the lowest legal one
RP_COINCHE = 3      # probability of coinching an opponent's bid when allowed
RP_SURCOINCHE = 4   # probability of surcoinching when allowed
# Test plants (issue 20): random players given, in the tests only, a probability per
# decision of an illegal call or card, showing that every facade refuses a run where a
# kernel had to replace a decision. 0 for every registered player: no draw, the same rows.
RP_ILLEGAL_CALL = 5  # probability of an illegal call per auction decision
RP_ILLEGAL_CARD = 6  # probability of an illegal card (or none) per card played


@njit(cache=True, inline="always")
def n_kinds_allowed(prof):
    """Number of contract kinds biddable in the profile (4, 5 or 6)."""
    return 4 + prof[P_ALLOW_SA] + prof[P_ALLOW_TA]


@njit(cache=True, inline="always")
def kind_of_index(k, prof):
    """The ``k``-th biddable contract kind (suits 0..3, then SA 4 if allowed, then TA 5)."""
    if k < 4:
        return k
    if k == 4 and prof[P_ALLOW_SA] != 0:
        return 4
    return 5


@njit(cache=True, inline="always")
def top_level(prof):
    """Highest bid level of the profile (capot, or générale when it exists)."""
    n = prof[P_N_BID_VALUES]
    if prof[P_GENERALE_VALUE] != 0:
        return n + 1
    return n


@njit(cache=True, inline="always")
def random_action(hand, astate, actions, n_actions, params, row, prof, st):
    """Auction decision of the random player.

    ``hand`` is ignored on purpose. With the configured probabilities it surcoinches,
    coinches, or bids ``0..max_jump`` levels above the lowest legal level (capped at
    capot/générale) in a uniformly chosen kind; otherwise it passes. Returns a ``uint8``
    action code that ``auction_check`` accepts (pass is the fallback).
    """
    if astate[A_STATUS] != 0:
        return ACT_PASS
    p_illegal = params[row, RP_ILLEGAL_CALL]
    if p_illegal > 0.0 and uniform01(st) < p_illegal:
        # Test plants only (never a registered player): an illegal call.
        return illegal_action(astate)
    if astate[A_BIDDER] >= 0:
        # Surcoinche, when this seat's team is coinched and the profile allows it.
        if astate[A_COINCHE] == 2 and auction_check(astate, ACT_SURCOINCHE, prof) == 0:
            if uniform01(st) < params[row, RP_SURCOINCHE]:
                return ACT_SURCOINCHE
            return ACT_PASS
        if auction_check(astate, ACT_COINCHE, prof) == 0:
            if uniform01(st) < params[row, RP_COINCHE]:
                return ACT_COINCHE
        p = params[row, RP_OVERBID]
        lowest = astate[A_LEVEL] + 1
    else:
        p = params[row, RP_OPEN]
        lowest = 0
    top = top_level(prof)
    if lowest > top or uniform01(st) >= p:
        return ACT_PASS
    jump = bounded(st, int(params[row, RP_MAX_JUMP]) + 1)
    level = min(lowest + jump, top)
    kind = kind_of_index(bounded(st, n_kinds_allowed(prof)), prof)
    a = ACT_BID_BASE + level * N_KINDS + kind
    if auction_check(astate, a, prof) != 0:
        return ACT_PASS
    return a


@njit(cache=True, inline="always")
def random_card(hand, legal, trick, n, info, actions, n_actions, params, row, prof, st):
    """Play of the random player: a card drawn uniformly from ``legal`` (``uint32``)."""
    p_illegal = params[row, RP_ILLEGAL_CARD]
    if p_illegal > 0.0 and uniform01(st) < p_illegal:
        # Test plants only (never a registered player): an illegal card, or none.
        return illegal_card(legal, n)
    return random_bit(st, legal)


@njit(cache=True, inline="always")
def illegal_action(astate):
    """Test plants (``RP_ILLEGAL_CALL``): a call the rules always forbid."""
    if astate[A_BIDDER] < 0:
        # Coinche with no bid to coinche: illegal.
        return ACT_COINCHE
    # The current bid again (a bid must be higher): illegal.
    return ACT_BID_BASE + astate[A_LEVEL] * N_KINDS + astate[A_KIND]


@njit(cache=True, inline="always")
def illegal_card(legal, n):
    """Test plants (``RP_ILLEGAL_CARD``): no card (-1) when leading, else the lowest
    card outside ``legal`` (``uint32``; never all 32 cards)."""
    if n == 0:
        # No card at all.
        return -1
    # A card not in the legal set (not held, or not allowed).
    return lowest_bit(~legal)
