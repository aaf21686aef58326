"""Double-dummy solver: team 0's card points under perfect play with all hands visible.

RULES.md, "Rulings on points the sources leave open": the double-dummy (DD) value is the
card points a team reaches when all four hands are visible and both sides play perfectly;
252 to a team that wins every trick. The search here maximises team 0's card points
``C0`` (team 0 = seats 0 and 2 maximise, seats 1 and 3 minimise); the facade derives team
1's value from it (``simcoinche.analysis.dd``), except at strict's tout-atout, where the
teams share 258 points without a capot: there team 1's value is its own solve, seats
turned by one.

Bit layout: a hand or card set is a bitboard (bit ``suit * 8 + rank``, ranks
``7 8 9 T J Q K A`` = 0..7, suits S H D C); ``trump`` is the contract kind (0..3 a
suit, 4 sans-atout, 5 tout-atout). The card rules are the play kernels' own
(:func:`.play.legal_mask_win`, :data:`.play.WIN_KEY`, :func:`.play.card_points`), read
from the packed profile, so every legal-card variant of every profile is searched.

Search (all numbers measured in ``benchmarks/dd.py``):

- fail-soft alpha-beta over single cards (one recursive call per card, the position in
  registers), values relative to the position ("future" points: what team 0 collects
  from the cards still to be played, the trick in progress included), so a table entry
  is valid whatever happened before;
- a transposition table probed and stored at trick boundaries only. Within one solve
  the deal is fixed, so the set of cards still in the hands, the leader and one flag
  ("team 0 has won every trick so far": a capot is still possible) identify a position
  exactly; the key also carries a solve stamp so the table is never cleared between
  solves. Entries (one key word, one data word) hold a lower and an upper bound and the
  best card; two slots per bucket (deeper kept, newest always written);
- equivalent cards searched once: two cards of one hand and one suit, adjacent in the
  suit's order among the cards still in play (the trick in progress included) and worth
  the same points, lead to the same values;
- move ordering: the table's card, killers of the leads, and a static order (a leader cashes
  its masters that no opponent can trump, richest first, else leads cheap, first under a
  partner's master or into a partner's ruff; a follower wins the trick cheaply, gives
  points to a partner who wins, or discards its cheapest card);
- bounds from the points still in play: team 0 cannot get more than the points left
  plus the last trick (or, while a capot is possible, the capot's last-trick bonus if it
  is larger, ``W_OPEN``); at a trick
  boundary, minus the points sure to team 1 and at least the points sure to team 0: the
  trumps a team holds above the other team's best trump (each falls in a trick its team
  wins), and the master of a suit no opponent can trump that the leader's side can lead
  (a sure trick of team 1 also rules out team 0's capot);
- enhanced transposition cut-offs: the last card of a trick first looks up the
  positions each of its cards leads to;
- the last three tricks by a flat alpha-beta over the 6th trick's cards (at most 81
  lines, no ordering; each line's last two tricks bounded by their points, then looked
  up in the table), the last two by plain minimax (at most 16 lines), the last one
  directly (with the table at 8 cards, about 0.76× the time of a solve by the general
  node there, measured step by step in benchmarks/README.md);
- exact values by null-window probes ("can team 0 reach T?") that halve the interval of
  possible values (163..251 never occur where the cards are worth 152), the table's
  bounds kept from one probe to the next.

No allocation per node: the scratch (:func:`new_scratch`) is made once per thread. Every
array index in this module's search goes through :func:`_ix` (unsigned), so numba emits
no negative-index check at each access: 0.83× the time of signed indices (the play
kernels' :func:`.play.legal_mask_win` keeps its own, signed, measured as no gain). The
recursive :func:`_search` and :func:`_two_tricks` take the work array's data pointer, not
the array: numba passes an array argument as seven values (owner, parent, sizes, data,
shape, strides), so each call passed some twenty; with the pointer, about 0.95× the time
(benchmarks/README.md, "Double dummy: the work array passed as a pointer").
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from simcoinche._kernels.dd_scratch import (
    DD_CAPOT,
    MAX_PLY,
    TT_LOG2,
    W_ABOVE_EQ,
    W_CAPOT,
    W_CARD_CLASS,
    W_CHILD,
    W_CLASS_MARK,
    W_DD_TOTAL,
    W_EQ_CARDS,
    W_HANDS,
    W_KILLER,
    W_MODE,
    W_MOVES,
    W_NODES,
    W_OPEN,
    W_POINTS,
    W_REP_VALUES,
    W_REPS,
    W_SCORES,
    W_SHIFT,
    W_STAMP,
    W_TABLE,
    W_TARGET,
    W_TRUMP,
    W_TRUMP_PTS,
    Scratch,
    new_scratch,
)
from simcoinche._kernels.layout import P_LAST_TRICK_BONUS, PROFILE_LEN
from simcoinche._kernels.play import WIN_KEY, card_points, card_total, legal_mask_win
from simcoinche._kernels.tables import PLAIN_STRENGTH, TRUMP_STRENGTH


@intrinsic
def _ix(typingctx, i):
    """An index as an unsigned integer: numba then drops its negative-index wraparound (a
    compare and a select at every array access), which took a sixth of the search's time
    (benchmarks/README.md, "Double dummy: unsigned indices"). An intrinsic, not an
    inlined function: nothing for numba to type and inline at each of its call sites."""
    if not isinstance(i, (types.Integer, types.Boolean)):
        return None
    sig = types.uint64(i)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], types.uint64)

    return sig, codegen


@intrinsic
def _data(typingctx, arr):
    """The data pointer of an int64 array (the work array, passed so to :func:`_search`)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64):
        return None
    sig = types.CPointer(types.int64)(arr)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return ary.data

    return sig, codegen


# The length given to a view of the work array (:func:`_view`): more than any scratch holds.
# Nothing reads it: every index of the search is unsigned and unchecked (:func:`_ix`).
_VIEW_LEN = 1 << 40


@intrinsic
def _view(typingctx, ptr):
    """An int64[::1] over the memory at ``ptr``, with no owner and no allocation: how
    :func:`_search` turns its pointer argument back into the work array."""
    if not isinstance(ptr, types.CPointer):
        return None
    aty = types.Array(types.int64, 1, "C")
    sig = aty(ptr)

    def codegen(context, builder, signature, args):
        ary = context.make_array(aty)(context, builder)
        intp = context.get_value_type(types.intp)
        populate_array(ary, data=args[0], shape=[ir.Constant(intp, _VIEW_LEN)],
                       strides=[ir.Constant(intp, 8)], itemsize=ir.Constant(intp, 8),
                       meminfo=None)
        return ary._getvalue()

    return sig, codegen


@intrinsic
def _claim(typingctx, counter):
    """Atomically add 1 to ``counter[0]`` (int64[1]) and return its value before: the next
    row for the thread that asks, so that threads share rows as they free up."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64):
        return None
    sig = types.int64(counter)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        one = ir.Constant(ir.IntType(64), 1)
        return builder.atomic_rmw("add", ary.data, one, "monotonic")

    return sig, codegen


@njit(cache=True, inline="always")
def _strongest(trump, suit, byte):
    """The strongest card of ``suit`` among the ranks of ``byte`` (not empty), in the
    suit's order under contract kind ``trump``."""
    plain = 0 if (trump == 5 or suit == trump) else 1
    return ORDER[_ix(trump), _ix(suit), _ix(TOP_K[_ix(plain), _ix(byte)])]


@njit(cache=True, inline="always")
def _win_key(trump, led, card):
    """``WIN_KEY[trump, led, card]`` (:data:`.play.WIN_KEY`), indexed as :func:`_ix` does."""
    return WIN_KEY[_ix(trump), _ix(led), _ix(card)]


# Key: the cards still in the hands (bits 0..31; within one solve the deal is fixed, so
# this says who holds what), the seat to play in 32..33, in 34..36 the "capot still
# possible" flag (points search) or the sweeping seat (sweep searches), the search mode
# in 37..38, the solve stamp from bit 39.
_KEY_SEAT = 32
_KEY_FIELD = 34
_KEY_MODE = 37
_KEY_STAMP = 39
_STAMP_MAX = (1 << 24) - 1
# Data word: lower bound + 512 in bits 0..15, upper bound + 512 in 16..31, best card + 1
# in 32..39.
_BIAS = 512

_NO_CARD = -1
INF = 10_000

# Search modes: team 0's points; whether a team (capot) or a seat (générale) can win
# every trick left.
MODE_POINTS = 0
MODE_TEAM_SWEEP = 1
MODE_SEAT_SWEEP = 2


def _suit_orders() -> np.ndarray:
    """``ORDER[trump, suit, k]``: the suit's cards from strongest (k = 0) to weakest.

    A trump suit (and every suit at tout-atout) in trump order J 9 A T K Q 8 7; a plain
    suit (and every suit at sans-atout) in plain order A T K Q J 9 8 7.
    """
    order = np.zeros((6, 4, 8), dtype=np.int64)
    for trump in range(6):
        for suit in range(4):
            strength = TRUMP_STRENGTH if (suit == trump or trump == 5) else PLAIN_STRENGTH
            ranks = sorted(range(8), key=lambda r: -strength[r])
            for k, r in enumerate(ranks):
                order[trump, suit, k] = suit * 8 + r
    return order


ORDER = _suit_orders()


def _stronger_same_suit() -> np.ndarray:
    """``STRONGER[trump, card]``: the cards of ``card``'s suit that rank above it."""
    out = np.zeros((6, 32), dtype=np.int64)
    for trump in range(6):
        for suit in range(4):
            for k in range(8):
                c = ORDER[trump, suit, k]
                for j in range(k):
                    out[trump, c] |= np.int64(1) << ORDER[trump, suit, j]
    return out


# STRONGER[trump, card]: the cards of its suit that beat it (a card is a master of its
# suit when no other seat holds one of them).
STRONGER = _stronger_same_suit()


def _top_keys() -> np.ndarray:
    """``TOP_KEY[trump, led, byte]``: the highest trick key (``WIN_KEY``) among the cards
    of suit ``led`` whose ranks are the bits of ``byte`` (-1 for none)."""
    out = np.full((6, 4, 256), -1, dtype=np.int64)
    for trump in range(6):
        for led in range(4):
            for byte in range(256):
                for r in range(8):
                    if (byte >> r) & 1:
                        out[trump, led, byte] = max(out[trump, led, byte],
                                                    WIN_KEY[trump, led, 8 * led + r])
    return out


TOP_KEY = _top_keys()


def _strength_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Byte tables for a suit's cards (a byte, bit = rank).

    ``BY_STRENGTH[byte]``: the same cards in trump strength order (bit 7 = J, 6 = 9,
    5 = A, 4 = T, 3 = K, 2 = Q, 1 = 8, 0 = 7); ``ABOVE[byte]``: the bits above the highest
    set bit of ``byte`` (all eight for 0); ``TOP_K[plain, byte]``: the strength index (0 =
    strongest) of the strongest card of ``byte`` in trump order (``plain`` 0) or plain
    order (1), 8 for no card.
    """
    by_strength = np.zeros(256, dtype=np.int64)
    above = np.zeros(256, dtype=np.int64)
    top_k = np.full((2, 256), 8, dtype=np.int64)
    for b in range(256):
        for k in range(8):
            if (b >> (ORDER[0, 0, k] & 7)) & 1:
                by_strength[b] |= 1 << (7 - k)
        above[b] = 0xFF & ~((1 << b.bit_length()) - 1)
        for plain in range(2):
            for k in range(8):
                # Kind 0, suit 0: trump order; kind 4 (sans-atout): plain order.
                if (b >> (ORDER[4 * plain, 0, k] & 7)) & 1:
                    top_k[plain, b] = k
                    break
    return by_strength, above, top_k


BY_STRENGTH, ABOVE, TOP_K = _strength_tables()


@njit(cache=True)
def begin_solve(S, hands, trump, prof):
    """Load a position's hands, the profile and the contract's card points.

    ``hands`` uint32/int64[4] the cards each seat holds; ``prof`` the packed profile.
    A new solve stamp makes every entry of an earlier solve invisible (the table is
    cleared only when the stamp wraps); the killers start afresh.
    """
    W = S.work
    for s in range(4):
        W[_ix(W_HANDS + s)] = np.int64(hands[s])
    for i in range(PROFILE_LEN):
        W[_ix(i)] = prof[i]
    for c in range(32):
        W[_ix(W_POINTS + c)] = card_points(c, trump, prof)
    # Equal-point neighbours in each suit's order (equivalent cards when adjacent in play).
    eq = np.int64(0)
    for suit in range(4):
        W[W_ABOVE_EQ + ORDER[_ix(trump), _ix(suit), _ix(0)]] = -1
        for r in range(1, 8):
            c = ORDER[_ix(trump), _ix(suit), _ix(r)]
            up = ORDER[_ix(trump), _ix(suit), _ix(r - 1)]
            if W[_ix(W_POINTS + c)] == W[_ix(W_POINTS + up)]:
                W[_ix(W_ABOVE_EQ + c)] = up
                eq |= np.int64(1) << c
            else:
                W[_ix(W_ABOVE_EQ + c)] = -1
    W[_ix(W_EQ_CARDS)] = eq
    # RULES.md: the last trick adds its 10 ("dix de der"), and a team that wins every
    # trick has 252 in all, so its last trick then adds 252 minus the card points (100 at
    # 152, 132 at a sans-atout of 120, 4 at a tout-atout of 248). Without a capot the
    # teams' points add up to the card points plus the last trick.
    cards = card_total(trump, prof)
    der = W[_ix(P_LAST_TRICK_BONUS)]
    W[_ix(W_CAPOT)] = DD_CAPOT - cards
    W[_ix(W_OPEN)] = max(DD_CAPOT - cards, der)
    W[_ix(W_DD_TOTAL)] = cards + der
    # Points of each set of trumps, given as a byte in strength order (BY_STRENGTH).
    if trump < 4:
        W[_ix(W_TRUMP_PTS)] = 0
        for b in range(1, 256):
            # The byte without its lowest bit, plus that trump (bit i: strength 7 - i).
            low = _lowest_card(b)
            W[_ix(W_TRUMP_PTS + b)] = (W[_ix(W_TRUMP_PTS + (b & (b - 1)))]
                                  + W[W_POINTS + ORDER[_ix(trump), _ix(trump), _ix(7 - low)]])
    stamp = W[_ix(W_STAMP)] + 1
    if stamp > _STAMP_MAX:
        W[W_TABLE:] = 0
        stamp = 1
    W[_ix(W_STAMP)] = stamp
    for i in range(W_KILLER, W_KILLER + 2 * MAX_PLY):
        W[_ix(i)] = -1


@intrinsic
def _ctpop(typingctx, x):
    """Number of set bits of an int64 (one machine instruction)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (one machine instruction)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    """Count of leading zero bits of an int64 (LLVM ctlz; ``x`` not 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@njit(cache=True, inline="always")
def _highest_card(x):
    """Index of the highest set bit of a non-empty bitboard."""
    return 63 - _ctlz(np.int64(x))


@njit(cache=True, inline="always")
def _popcount(x):
    return _ctpop(np.int64(x))


@njit(cache=True, inline="always")
def _lowest_card(x):
    """Index of the lowest set bit of a non-empty bitboard."""
    return _cttz(np.int64(x))


@njit(cache=True, inline="always")
def _ruffs(h, trump):
    """Suit contract: the suits (bit mask, bit = suit) in which hand ``h`` is void while
    holding a trump (it would trump a lead of them); 0 at sans-atout and tout-atout."""
    if trump >= 4:
        return 0
    # Bit 8 * s of x: the hand holds a card of suit s.
    x = h | (h >> 4)
    x |= x >> 2
    x |= x >> 1
    x &= 0x01010101
    suits = (x | (x >> 7) | (x >> 14) | (x >> 21)) & 0xF
    if (suits >> trump) & 1:
        return ~suits & 0xF
    return 0


@njit(cache=True, inline="always")
def _slot(W, key):
    """First slot of the key's bucket (buckets are two adjacent slots)."""
    h = key * np.int64(-7046029254386353131)
    h ^= (h >> 29) & np.int64(0x7FFFFFFFF)
    h *= np.int64(-4658895280553007687)
    return ((h >> W[_ix(W_SHIFT)]) & ((np.int64(1) << (64 - W[_ix(W_SHIFT)])) - 1)) & ~np.int64(1)


@njit(cache=True, inline="always")
def _probe(W, i, key):
    """Slot of bucket ``i`` holding ``key``, or -1."""
    e = W_TABLE + 2 * i
    if W[_ix(e)] == key:
        return i
    if W[_ix(e + 2)] == key:
        return i + 1
    return -1


@njit(cache=True, inline="always")
def _entry_bounds(W, j):
    """The lower and upper bounds on the value that slot ``j`` holds."""
    d = W[_ix(W_TABLE + 2 * j + 1)]
    return (d & 0xFFFF) - _BIAS, ((d >> 16) & 0xFFFF) - _BIAS


@njit(cache=True, inline="always")
def _store(W, i, key, lo, hi, card, n_cards):
    """Merge bounds ``[lo, hi]`` and the best card into the entry of ``key`` of bucket
    ``i``.

    Replacement: the first slot of a bucket keeps the position with more cards left
    (a larger subtree) of the current solve; the second takes every other write.
    """
    j = _probe(W, i, key)
    if j >= 0:
        old_lo, old_hi = _entry_bounds(W, j)
        if old_lo > lo:
            lo = old_lo
        if old_hi < hi:
            hi = old_hi
        if card < 0:
            card = ((W[_ix(W_TABLE + 2 * j + 1)] >> 32) & 0xFF) - 1
    else:
        old = W[_ix(W_TABLE + 2 * i)]
        stale = (old >> _KEY_STAMP) != (key >> _KEY_STAMP)
        if stale or _popcount(old & 0xFFFFFFFF) <= n_cards:
            j = i
        else:
            j = i + 1
    e = W_TABLE + 2 * j
    W[_ix(e)] = key
    W[_ix(e + 1)] = (lo + _BIAS) | ((hi + _BIAS) << 16) | ((card + 1) << 32)


@njit(cache=True, inline="always")
def _store_result(W, i, key, v, alpha, beta, card, n_cards):
    """Store what a fail-soft search in ``(alpha, beta)`` returned, ``v``, as the bounds it
    proves (:func:`_store`): at most ``v`` after a fail low, where no card is known to be
    best (the entry keeps its earlier card, if any); at least ``v`` after a fail high;
    exactly ``v`` inside the window."""
    low = v <= alpha
    _store(W, i, key, np.int64(0) if low else v, v if v < beta else np.int64(INF),
           np.int64(-1) if low else card, n_cards)


@njit(cache=True, inline="always")
def _candidates(W, base, legal, in_play):
    """Equivalence-reduced candidates of ``legal``, written to ``W[base:base + k]``.

    ``in_play``: every card still held by a seat or lying in the trick in progress. A
    legal card whose next stronger card in play (same suit) is also legal for this seat
    and worth the same points is equivalent to it and skipped (``W_ABOVE_EQ`` links each
    card to the next stronger card of equal points). Returns the number ``k`` of
    candidates, in ascending card index; :func:`_order` sorts them.
    """
    cand = legal
    m = legal & W[_ix(W_EQ_CARDS)]
    while m:
        c = _lowest_card(m)
        m ^= np.int64(1) << c
        x = W[_ix(W_ABOVE_EQ + c)]
        while x >= 0 and not (in_play >> x) & 1:
            x = W[_ix(W_ABOVE_EQ + x)]
        if x >= 0 and (legal >> x) & 1:
            cand ^= np.int64(1) << c
    k = 0
    while cand:
        c = _lowest_card(cand)
        cand ^= np.int64(1) << c
        W[_ix(base + k)] = c
        k += 1
    return k


@njit(cache=True, inline="always")
def _order(W, base, ply, k, seat, at, trump, hint, others, ruffs):
    """Sort the ``k`` candidates at ``W[base:]`` best-first for ``seat``.

    ``at`` is the trick so far, ``(n, led, win_card, win_seat)``: cards already played
    in it, suit led, the winning card and its seat; ``ruffs`` is ``(ruff, ruff4)``
    (integer bit masks of suits, below). Tuples of integers: inlined, they cost nothing.

    Score: the table's card first, then (for a leader) the killers of this ply, then a
    static guess. A leader cashes its masters (no other seat holds a stronger card of the
    suit) that no opponent can trump, richest first, then leads its cheapest cards: first
    under a partner's master the 4th hand cannot trump, then in a suit the partner would
    trump. A follower who can take the trick from the opponents does it with its cheapest
    winning card, one the next opponent cannot beat first; one whose partner wins gives it
    points if the next opponent cannot take the trick, else beats that opponent's best
    card if it can, else plays its cheapest card; otherwise it throws the cheapest card.
    ``others``: the cards the other seats hold; ``ruff`` / ``ruff4``: the suits the
    leader's opponents / the 4th hand would trump (leads only). (Measured in
    ``benchmarks/dd.py``: masters first cut the nodes by a quarter; a history of cut-offs
    did not pay for itself, and killers at followers' nodes cost a third of the time.)
    """
    n, led, win_card, win_seat = at
    ruff, ruff4 = ruffs
    sbase = base + (W_SCORES - W_MOVES)
    omax = -1
    if n == 1 or n == 2:
        # The strongest card the next opponent could put on this trick: its best card of
        # the led suit, else (void, suit contract) its best trump.
        opp = W[_ix(W_HANDS + ((seat + 1) & 3))]
        follow = (opp >> (8 * led)) & 0xFF
        if follow:
            omax = TOP_KEY[_ix(trump), _ix(led), _ix(follow)]
        elif trump < 4:
            trumps = (opp >> (8 * trump)) & 0xFF
            if trumps:
                omax = TOP_KEY[_ix(trump), _ix(trump), _ix(trumps)]
    part = W[_ix(W_HANDS + (seat ^ 2))]
    ruff2 = 0
    if n == 0:
        # The suits the partner would trump.
        ruff2 = _ruffs(part, trump)
    k0 = W[_ix(W_KILLER + 2 * ply)]
    k1 = W[_ix(W_KILLER + 2 * ply + 1)]
    for i in range(k):
        c = W[_ix(base + i)]
        p = W[_ix(W_POINTS + c)]
        if c == hint:
            sc = np.int64(1) << 40
        elif n == 0 and (c == k0 or c == k1):
            sc = np.int64(1) << 36
        elif n == 0:
            su = c >> 3
            if (STRONGER[_ix(trump), _ix(c)] & others) == 0 and not (ruff >> su) & 1:
                # A master no opponent can trump: cash it, the richest first.
                sc = (np.int64(1) << 16) + p * 64
            else:
                # Otherwise lead cheap, first under a partner's master that the 4th hand
                # cannot trump, then in a suit the partner would trump.
                sc = -p * 64
                b = (others >> (8 * su)) & 0xFF
                # (b == 0: nobody else holds the suit, so the partner has no master in it)
                if b != 0 and (part >> _strongest(trump, su, b)) & 1 and \
                        not (ruff4 >> su) & 1:
                    sc += 1 << 12
                elif (ruff2 >> su) & 1:
                    sc += 1 << 11
        else:
            wins = _win_key(trump, led, c) > _win_key(trump, led, win_card)
            if win_seat == (seat ^ 2):
                # The partner holds the trick: add points, do not overtake it.
                if _win_key(trump, led, win_card) < omax:
                    # ... unless the next opponent can still take it: then beat that
                    # opponent's best card cheaply if possible, else keep the points.
                    if _win_key(trump, led, c) > omax:
                        sc = (1 << 30) - _win_key(trump, led, c) * 64 + p
                    else:
                        sc = -p * 64 - ((1 << 20) if wins else 0)
                else:
                    sc = p * 64 - ((1 << 20) if wins else 0)
            elif wins:
                # Take the trick from the opponents, with the cheapest winner.
                sc = (1 << 30) - _win_key(trump, led, c) * 64 - p
                if _win_key(trump, led, c) > omax:
                    # A card the next opponent cannot beat first.
                    sc += 1 << 25
            else:
                # Cannot win: throw the cheapest card.
                sc = -p * 64
        W[_ix(sbase + i)] = sc
    # Insertion sort, descending (at most 8 candidates).
    for i in range(1, k):
        c = W[_ix(base + i)]
        sc = W[_ix(sbase + i)]
        j = i - 1
        while j >= 0 and W[_ix(sbase + j)] < sc:
            W[_ix(base + j + 1)] = W[_ix(base + j)]
            W[_ix(sbase + j + 1)] = W[_ix(sbase + j)]
            j -= 1
        W[_ix(base + j + 1)] = c
        W[_ix(sbase + j + 1)] = sc


@njit(cache=True, inline="always")
def _sure_bounds(W, trump, seat, rem, rem_pts, capot_open, ruff):
    """Bounds ``(lower, upper)`` on team 0's future points at a trick boundary, from
    points one team is sure to take.

    ``seat`` leads, ``rem`` / ``rem_pts`` the cards still held and their points,
    ``ruff`` the suits the leader's opponents would trump (:func:`_ruffs`).
    """
    # sure0 / sure1: points sure to team 0 / team 1; who1: team 1 surely wins a trick (no
    # capot for team 0).
    sure0 = 0
    sure1 = 0
    who1 = False
    if trump < 4:
        # The top trumps still out, all held by one team (in either hand): each falls in
        # a trick that team wins (only its partner's trumps beat it).
        r = BY_STRENGTH[_ix((rem >> (8 * trump)) & 0xFF)]
        t0 = BY_STRENGTH[_ix(((W[_ix(W_HANDS)] | W[_ix(W_HANDS + 2)]) >> (8 * trump)) & 0xFF)] & r
        t1 = r ^ t0
        if t0 > t1:
            sure0 = W[_ix(W_TRUMP_PTS + (t0 & ABOVE[_ix(t1)]))]
        elif t1:
            sure1 = W[_ix(W_TRUMP_PTS + (t1 & ABOVE[_ix(t0)]))]
            who1 = True
    # The masters of the leader's side in the suits no opponent can trump: leading the
    # suit wins this trick (a trump master is counted above).
    hand = W[_ix(W_HANDS + seat)]
    part = W[_ix(W_HANDS + (seat ^ 2))]
    cash = -1
    for su in range(4):
        b = (rem >> (8 * su)) & 0xFF
        if su == trump or b == 0 or (ruff >> su) & 1:
            continue
        c = _strongest(trump, su, b)
        # The leader's master, or its partner's when the leader can lead the suit.
        if ((hand >> c) & 1 or ((part >> c) & 1 and (hand >> (8 * su)) & 0xFF)) and (
                W[_ix(W_POINTS + c)] > cash):
            cash = W[_ix(W_POINTS + c)]
    if cash >= 0:
        if seat & 1:
            sure1 += cash
            who1 = True
        else:
            sure0 += cash
    return sure0, rem_pts - sure1 + (W[_ix(W_OPEN)] if capot_open and not who1
                                     else W[_ix(P_LAST_TRICK_BONUS)])


@njit(cache=True, inline="always")
def _last_trick(W, trump, mode, target, leader, capot_open):
    """Value of the last trick when each seat holds one card (see :func:`_search`)."""
    win = _lowest_card(W[_ix(W_HANDS + leader)])
    led = win >> 3
    ws = leader
    pts = W[_ix(W_POINTS + win)]
    for p in range(1, 4):
        seat = (leader + p) & 3
        c = _lowest_card(W[_ix(W_HANDS + seat)])
        pts += W[_ix(W_POINTS + c)]
        if _win_key(trump, led, c) > _win_key(trump, led, win):
            win = c
            ws = seat
    if mode == MODE_POINTS:
        # 10 for the last trick ("dix de der"); 252 in all if team 0 took every trick.
        if (ws & 1) != 0:
            return 0
        return pts + (W[_ix(W_CAPOT)] if capot_open else W[_ix(P_LAST_TRICK_BONUS)])
    if mode == MODE_SEAT_SWEEP:
        return 1 if ws == target else 0
    return 1 if (ws & 1) == (target & 1) else 0


@njit(cache=True, inline="always")
def _took(mode, target, seat):
    """Sweep searches: whether the trick won by ``seat`` goes to the sweeper."""
    if mode == MODE_SEAT_SWEEP:
        return seat == target
    return (seat & 1) == (target & 1)


@njit(cache=True, inline="always")
def _improve(maximizing, v, best, a, b):
    """A line worth ``v`` at a seat that maximises (or minimises): its new best value and
    window ``(a, b)``."""
    if maximizing:
        if v > best:
            return v, max(a, v), b
    elif v < best:
        return v, a, min(b, v)
    return best, a, b


@njit(cache=True, _nrt=False)
def _two_tricks(P, trump, mode, target, leader, capot_open, alpha, beta):
    """Value of the last two tricks (each seat holds two cards), fail-soft in
    ``(alpha, beta)``; ``P`` the work array's data, as for :func:`_search`.

    Alpha-beta over the 7th trick's legal cards (at most 16 lines), the 8th trick forced.
    Same value as :func:`_search` (``mode``, ``target``, ``capot_open`` as there), without
    its per-node work.
    """
    W = _view(P)
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    h0 = W[_ix(W_HANDS + leader)]
    h1 = W[_ix(W_HANDS + s1)]
    h2 = W[_ix(W_HANDS + s2)]
    h3 = W[_ix(W_HANDS + s3)]
    max_team = 0 if mode == MODE_POINTS else (target & 1)
    max0 = (leader & 1) == max_team
    max1 = not max0
    # Each seat keeps the value that is best for its own side, within its window.
    best0 = -INF if max0 else INF
    a0, b0 = alpha, beta
    m0 = h0
    while m0 and a0 < b0:
        c0 = _lowest_card(m0)
        m0 ^= np.int64(1) << c0
        led = c0 >> 3
        best1 = -INF if max1 else INF
        a1, b1 = a0, b0
        m1 = np.int64(legal_mask_win(h1, led, c0, False, trump, W))
        while m1 and a1 < b1:
            c1 = _lowest_card(m1)
            m1 ^= np.int64(1) << c1
            win1, ws1 = c0, leader
            if _win_key(trump, led, c1) > _win_key(trump, led, win1):
                win1, ws1 = c1, s1
            best2 = -INF if max0 else INF
            a2, b2 = a1, b1
            m2 = np.int64(legal_mask_win(h2, led, win1, ws1 == leader, trump, W))
            while m2 and a2 < b2:
                c2 = _lowest_card(m2)
                m2 ^= np.int64(1) << c2
                win2, ws2 = win1, ws1
                if _win_key(trump, led, c2) > _win_key(trump, led, win2):
                    win2, ws2 = c2, s2
                best3 = -INF if max1 else INF
                a3, b3 = a2, b2
                m3 = np.int64(legal_mask_win(h3, led, win2, ws2 == s1, trump, W))
                while m3 and a3 < b3:
                    c3 = _lowest_card(m3)
                    m3 ^= np.int64(1) << c3
                    ws7 = ws2
                    if _win_key(trump, led, c3) > _win_key(trump, led, win2):
                        ws7 = s3
                    pts7 = (W[_ix(W_POINTS + c0)] + W[_ix(W_POINTS + c1)] + W[_ix(W_POINTS + c2)]
                            + W[_ix(W_POINTS + c3)])
                    # The 8th trick: every seat plays its last card, seat ws7 leads.
                    l0 = _lowest_card(h0 ^ (np.int64(1) << c0))
                    l1 = _lowest_card(h1 ^ (np.int64(1) << c1))
                    l2 = _lowest_card(h2 ^ (np.int64(1) << c2))
                    l3 = _lowest_card(h3 ^ (np.int64(1) << c3))
                    pts8 = (W[_ix(W_POINTS + l0)] + W[_ix(W_POINTS + l1)]
                            + W[_ix(W_POINTS + l2)] + W[_ix(W_POINTS + l3)])
                    first = ws7 - leader & 3
                    lead8 = l0 if first == 0 else (l1 if first == 1 else (l2 if first == 2 else l3))
                    led8 = lead8 >> 3
                    win8 = lead8
                    ws8 = ws7
                    for p in range(1, 4):
                        q = (first + p) & 3
                        c = l0 if q == 0 else (l1 if q == 1 else (l2 if q == 2 else l3))
                        if _win_key(trump, led8, c) > _win_key(trump, led8, win8):
                            win8 = c
                            ws8 = (leader + q) & 3
                    if mode == MODE_POINTS:
                        v = pts7 if (ws7 & 1) == 0 else 0
                        if (ws8 & 1) == 0:
                            # 10 for the last trick; 252 in all if team 0 took every
                            # trick.
                            both = capot_open and (ws7 & 1) == 0
                            v += pts8 + (W[_ix(W_CAPOT)] if both else W[_ix(P_LAST_TRICK_BONUS)])
                    else:
                        v = 1 if (_took(mode, target, ws7) and _took(mode, target, ws8)) else 0
                    best3, a3, b3 = _improve(max1, v, best3, a3, b3)
                best2, a2, b2 = _improve(max0, best3, best2, a2, b2)
            best1, a1, b1 = _improve(max1, best2, best1, a1, b1)
        best0, a0, b0 = _improve(max0, best1, best0, a0, b0)
    return best0


@njit(cache=True, _nrt=False)
def _three_tricks(P, trump, mode, target, leader, capot_open, rem_pts, alpha, beta,
                  hint):
    """Value of the last three tricks (each seat holds three cards), fail-soft in
    ``(alpha, beta)``, and the leader's best card (-1 after a fail low).

    Alpha-beta over the 6th trick's legal cards (at most 81 lines), each line's last two
    tricks by :func:`_two_tricks`: the same value as :func:`_search` (``mode``,
    ``target``, ``capot_open`` as there; ``rem_pts`` the points of the 12 cards) without
    its per-node work. The leader tries ``hint`` first (the table's card, or -1), then
    every seat its cards from the highest bit down (in each suit, the stronger plain
    cards first). In a points search a line's last two tricks are first bounded by their
    points, then looked up in the table, and searched only when neither settles them;
    what the search finds is stored there as :func:`_search` stores an 8-card position.
    """
    W = _view(P)
    zero = np.int64(0)
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    h0 = W[_ix(W_HANDS + leader)]
    h1 = W[_ix(W_HANDS + s1)]
    h2 = W[_ix(W_HANDS + s2)]
    h3 = W[_ix(W_HANDS + s3)]
    max_team = 0 if mode == MODE_POINTS else (target & 1)
    max0 = (leader & 1) == max_team
    max1 = not max0
    # Each seat keeps the value that is best for its own side, within its window.
    best0 = -INF if max0 else INF
    best_card = np.int64(_NO_CARD)
    a0, b0 = alpha, beta
    rem12 = h0 | h1 | h2 | h3  # the 12 cards left
    m0 = h0
    first = hint if hint >= 0 and (h0 >> hint) & 1 else -1
    while m0 and a0 < b0:
        if first >= 0:
            c0 = first
            first = -1
        else:
            c0 = _highest_card(m0)
        m0 ^= np.int64(1) << c0
        led = c0 >> 3
        best1 = -INF if max1 else INF
        a1, b1 = a0, b0
        m1 = np.int64(legal_mask_win(h1, led, c0, False, trump, W))
        while m1 and a1 < b1:
            c1 = _highest_card(m1)
            m1 ^= np.int64(1) << c1
            win1, ws1 = c0, leader
            if _win_key(trump, led, c1) > _win_key(trump, led, win1):
                win1, ws1 = c1, s1
            best2 = -INF if max0 else INF
            a2, b2 = a1, b1
            m2 = np.int64(legal_mask_win(h2, led, win1, ws1 == leader, trump, W))
            while m2 and a2 < b2:
                c2 = _highest_card(m2)
                m2 ^= np.int64(1) << c2
                win2, ws2 = win1, ws1
                if _win_key(trump, led, c2) > _win_key(trump, led, win2):
                    win2, ws2 = c2, s2
                best3 = -INF if max1 else INF
                a3, b3 = a2, b2
                m3 = np.int64(legal_mask_win(h3, led, win2, ws2 == s1, trump, W))
                while m3 and a3 < b3:
                    c3 = _highest_card(m3)
                    m3 ^= np.int64(1) << c3
                    ws6 = ws2
                    if _win_key(trump, led, c3) > _win_key(trump, led, win2):
                        ws6 = s3
                    # The last two tricks from the hands left; seat ws6 leads them.
                    W[_ix(W_HANDS + leader)] = h0 ^ (np.int64(1) << c0)
                    W[_ix(W_HANDS + s1)] = h1 ^ (np.int64(1) << c1)
                    W[_ix(W_HANDS + s2)] = h2 ^ (np.int64(1) << c2)
                    W[_ix(W_HANDS + s3)] = h3 ^ (np.int64(1) << c3)
                    v = zero
                    if mode == MODE_POINTS:
                        t6 = (W[_ix(W_POINTS + c0)] + W[_ix(W_POINTS + c1)]
                              + W[_ix(W_POINTS + c2)] + W[_ix(W_POINTS + c3)])
                        if (ws6 & 1) == 0:
                            # Team 0 takes the 6th trick's points; its capot stays open.
                            g = t6
                            nc = capot_open
                            top = g + rem_pts - t6 + (W[_ix(W_OPEN)] if capot_open
                                                      else W[_ix(P_LAST_TRICK_BONUS)])
                        else:
                            # Team 1 takes it: no capot for team 0 any more.
                            g = zero
                            nc = zero
                            top = rem_pts - t6 + W[_ix(P_LAST_TRICK_BONUS)]
                        # The last two tricks add between nothing and all their points
                        # plus the last trick's: a window those bounds settle needs no
                        # search.
                        if g >= b3:
                            v = g
                        elif top <= a3:
                            v = top
                        else:
                            # The 8-card position in the table, as the search keys it:
                            # across the probes of a solve the same endings come back.
                            r8 = rem12 ^ ((np.int64(1) << c0) | (np.int64(1) << c1)
                                          | (np.int64(1) << c2) | (np.int64(1) << c3))
                            key8 = (r8 | (ws6 << _KEY_SEAT) | (nc << _KEY_FIELD)
                                    | (W[_ix(W_STAMP)] << _KEY_STAMP))
                            bk8 = _slot(W, key8)
                            j8 = _probe(W, bk8, key8)
                            aa = a3 - g
                            bb = b3 - g
                            done = False
                            if j8 >= 0:
                                lo8, hi8 = _entry_bounds(W, j8)
                                if lo8 >= bb or lo8 == hi8:
                                    v = g + lo8
                                    done = True
                                elif hi8 <= aa:
                                    v = g + hi8
                                    done = True
                                else:
                                    aa = max(aa, lo8)
                                    bb = min(bb, hi8)
                            if not done:
                                v8 = _two_tricks(P, trump, mode, target, ws6, nc, aa, bb)
                                _store_result(W, bk8, key8, v8, aa, bb, -1, 8)
                                v = g + v8
                    elif _took(mode, target, ws6):
                        # The sweeper took the 6th trick: it must take the last two too.
                        v = _two_tricks(P, trump, mode, target, ws6, zero, a3, b3)
                    # (Otherwise the sweep failed: 0.)
                    best3, a3, b3 = _improve(max1, v, best3, a3, b3)
                best2, a2, b2 = _improve(max0, best3, best2, a2, b2)
            best1, a1, b1 = _improve(max1, best2, best1, a1, b1)
        if (best1 > best0) if max0 else (best1 < best0):
            best_card = c0
        best0, a0, b0 = _improve(max0, best1, best0, a0, b0)
    W[_ix(W_HANDS + leader)] = h0
    W[_ix(W_HANDS + s1)] = h1
    W[_ix(W_HANDS + s2)] = h2
    W[_ix(W_HANDS + s3)] = h3
    return best0, best_card


_SEARCH_SIGNATURE = types.int64(types.CPointer(types.int64), *([types.int64] * 11))


@njit(_SEARCH_SIGNATURE, cache=True, _nrt=False)
def _search(P, seat, led, win_card, win_seat, trick_pts, trick_cards, capot_open, rem,
            rem_pts, alpha, beta):
    """Fail-soft alpha-beta from a position (one call per card played).

    Parameters
    ----------
    P : int64*
        The data of the :class:`Scratch` work array ``W``, int64[W_TABLE + 2 * 2**log2]
        (it is also the packed profile; :func:`_view` makes it an array again);
        ``W[W_HANDS:W_HANDS + 4]`` holds the cards each seat still has (updated and
        restored in place).
        ``W[W_TRUMP]`` the contract kind 0..5, ``W[W_MODE]`` and ``W[W_TARGET]`` what is
        searched: ``MODE_POINTS``, team 0's future card points (trick in progress
        included, last-trick 10 or a capot's bonus included), team 0 maximising;
        ``MODE_TEAM_SWEEP`` / ``MODE_SEAT_SWEEP``, 1 if ``target``'s team / the seat
        ``target`` itself takes every trick left (the one in progress included), else 0,
        ``target``'s team maximising.
    seat : int
        Seat to play.
    led, win_card, win_seat : int
        Suit led, card winning the trick and its seat (ignored when ``n == 0``).
    trick_pts, trick_cards : int
        Points and bitboard of the cards already in the trick (0 to 3 of them).
    capot_open : int
        1 while team 0 has won every completed trick (its capot is still possible).
    rem, rem_pts : int
        Cards still in the hands (bitboard, not empty) and their points.
    alpha, beta : int
        Search window.

    Returns
    -------
    int
        The value: exact strictly inside the window, else a bound on the side it fails.
    """
    W = _view(P)
    W[_ix(W_NODES)] += 1
    trump = W[_ix(W_TRUMP)]
    mode = W[_ix(W_MODE)]
    target = W[_ix(W_TARGET)]
    n = _popcount(trick_cards)
    ply = 32 - _popcount(rem)
    zero = np.int64(0)  # (a typed zero: literal arguments would compile other versions)
    if mode == MODE_POINTS:
        # Bounds from the points still in play: at most everything left plus the last
        # trick (or the capot's bonus, if larger, while a capot is possible); at least
        # nothing.
        upper = trick_pts + rem_pts + (W[_ix(W_OPEN)] if capot_open else W[_ix(P_LAST_TRICK_BONUS)])
    else:
        upper = 1
    if upper <= alpha:
        return upper
    if beta <= 0:
        return 0
    if n == 0 and _popcount(rem) == 4:
        # Last trick: every seat has one card left, nothing to choose.
        return _last_trick(W, trump, mode, target, seat, capot_open)
    hint = _NO_CARD
    bucket = 0
    key = np.int64(0)
    ruff = 0
    ruff4 = 0
    if n == 0:
        field = capot_open if mode == MODE_POINTS else target
        key = (rem | (seat << _KEY_SEAT) | (field << _KEY_FIELD) | (mode << _KEY_MODE)
               | (W[_ix(W_STAMP)] << _KEY_STAMP))
        bucket = _slot(W, key)
        j = _probe(W, bucket, key)
        if j >= 0:
            lo, hi = _entry_bounds(W, j)
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            hint = ((W[_ix(W_TABLE + 2 * j + 1)] >> 32) & 0xFF) - 1
        # The suits the leader's opponents (ruff) and the 4th hand (ruff4) would trump.
        ruff4 = _ruffs(W[_ix(W_HANDS + ((seat + 3) & 3))], trump)
        ruff = ruff4 | _ruffs(W[_ix(W_HANDS + ((seat + 1) & 3))], trump)
        if mode == MODE_POINTS:
            lower, upper = _sure_bounds(W, trump, seat, rem, rem_pts, capot_open, ruff)
            if upper <= alpha:
                return upper
            if lower >= beta:
                return lower
        if _popcount(rem) == 12:
            # The last three tricks: a flat alpha-beta, cheaper than searching card by
            # card (nearly half of a solve's calls were in the 6th trick).
            v, card = _three_tricks(P, trump, mode, target, seat, capot_open, rem_pts,
                                    alpha, beta, hint)
            _store_result(W, bucket, key, v, alpha, beta, card, 12)
            return v
        if _popcount(rem) == 8:
            # The last two tricks: a flat alpha-beta, cheaper than searching card by card.
            v = _two_tricks(P, trump, mode, target, seat, capot_open, alpha, beta)
            _store_result(W, bucket, key, v, alpha, beta, _NO_CARD, 8)
            return v
    hand = W[_ix(W_HANDS + seat)]
    if n == 0:
        # Leading: any card.
        legal = hand
    else:
        legal = np.int64(legal_mask_win(hand, led, win_card, win_seat == (seat ^ 2), trump,
                                        W))
    base = W_MOVES + 8 * ply
    if legal & (legal - 1) == 0:
        k = 1
        W[_ix(base)] = _lowest_card(legal)
    else:
        k = _candidates(W, base, legal, rem | trick_cards)
        if k > 1:
            _order(W, base, ply, k, seat, (n, led, win_card, win_seat), trump, hint,
                   rem & ~hand, (ruff, ruff4))
    maximizing = (seat & 1) == (0 if mode == MODE_POINTS else (target & 1))
    if n == 3 and mode == MODE_POINTS and k > 1 and _popcount(rem) > 8:
        # Enhanced transposition cut-off: each card completes the trick, and the table
        # may already bound the position it leads to.
        for i in range(k):
            c = W[_ix(base + i)]
            nws = win_seat
            if _win_key(trump, led, c) > _win_key(trump, led, win_card):
                nws = seat
            team0 = (nws & 1) == 0
            g = trick_pts + W[_ix(W_POINTS + c)] if team0 else 0
            ckey = ((rem ^ (np.int64(1) << c)) | (nws << _KEY_SEAT)
                    | ((capot_open if team0 else 0) << _KEY_FIELD)
                    | (W[_ix(W_STAMP)] << _KEY_STAMP))
            j = _probe(W, _slot(W, ckey), ckey)
            if j >= 0:
                lo, hi = _entry_bounds(W, j)
                if maximizing and lo + g >= beta:
                    return lo + g
                if not maximizing and hi + g <= alpha:
                    return hi + g
    best = -INF if maximizing else INF
    best_card = W[_ix(base)]
    a = alpha
    b = beta
    for i in range(k):
        c = W[_ix(base + i)]
        bit = np.int64(1) << c
        W[_ix(W_HANDS + seat)] = hand ^ bit
        p = W[_ix(W_POINTS + c)]
        nled = led
        nwin = win_card
        nws = win_seat
        if n == 0:
            nled = c >> 3
            nwin = c
            nws = seat
        elif _win_key(trump, led, c) > _win_key(trump, led, win_card):
            nwin = c
            nws = seat
        tp = trick_pts + p
        nrem = rem ^ bit
        if n < 3:
            # The trick goes on: the next seat plays.
            v = _search(P, (seat + 1) & 3, nled, nwin, nws, tp, trick_cards | bit,
                        capot_open, nrem, rem_pts - p, a, b)
        elif nrem == 0:
            # The last trick is complete: 10 for it, 252 in all if team 0 took every
            # trick; a sweep succeeds if the sweeper took it.
            if mode == MODE_POINTS:
                v = (tp + (W[_ix(W_CAPOT)] if capot_open else W[_ix(P_LAST_TRICK_BONUS)])
                     if (nws & 1) == 0 else 0)
            elif mode == MODE_SEAT_SWEEP:
                v = 1 if nws == target else 0
            else:
                v = 1 if (nws & 1) == (target & 1) else 0
        else:
            # The trick is complete and seat ``nws`` leads the next one. One call site
            # for every case below: numba types a call on itself by typing a copy of
            # the whole function again, once per site.
            gain = zero
            next_capot = zero
            next_rem_pts = rem_pts - p
            recurse = True
            if mode == MODE_POINTS:
                # Its points go to team 0 if seat ``nws`` is of it (and a capot stays
                # possible only then).
                if (nws & 1) == 0:
                    gain = tp
                    next_capot = capot_open
            elif (nws == target) if mode == MODE_SEAT_SWEEP else (
                    (nws & 1) == (target & 1)):
                # The sweeper took this trick: it must take the rest too.
                next_rem_pts = zero
            else:
                # The sweep failed.
                recurse = False
            v = zero
            if recurse:
                v = gain + _search(P, nws, zero, zero, nws, zero, zero, next_capot, nrem,
                                   next_rem_pts, a - gain, b - gain)
        W[_ix(W_HANDS + seat)] = hand
        if maximizing:
            if v > best:
                best = v
                best_card = c
                if v > a:
                    a = v
        elif v < best:
            best = v
            best_card = c
            if v < b:
                b = v
        if a >= b:
            # Cut-off: remember the card for this ply (killer; only leads use them).
            if n == 0 and W[_ix(W_KILLER + 2 * ply)] != c:
                W[_ix(W_KILLER + 2 * ply + 1)] = W[_ix(W_KILLER + 2 * ply)]
                W[_ix(W_KILLER + 2 * ply)] = c
            break
    if n == 0:
        _store_result(W, bucket, key, best, alpha, beta, best_card, _popcount(rem))
    return best


@njit(cache=True)
def _trick_state(trick, n, leader, trump):
    """``(led, win_card, win_seat, cards)`` of the trick in progress (cards: bitboard)."""
    led = np.int64(0)
    win = np.int64(0)
    ws = np.int64(leader)
    cards = np.int64(0)
    if n == 0:
        return led, win, ws, cards
    led = np.int64(trick[0]) >> 3
    win = np.int64(trick[0])
    for p in range(n):
        c = np.int64(trick[p])
        cards |= np.int64(1) << c
        if _win_key(trump, led, c) > _win_key(trump, led, win):
            win = c
            ws = (leader + p) & 3
    return led, win, ws, cards


@njit(cache=True)
def _root(S, trump, mode, target, leader, trick, n, capot_open, alpha, beta):
    """Search the position loaded by :func:`begin_solve` with a trick in progress."""
    W = S.work
    led, win, ws, cards = _trick_state(trick, n, leader, trump)
    rem = W[_ix(W_HANDS)] | W[_ix(W_HANDS + 1)] | W[_ix(W_HANDS + 2)] | W[_ix(W_HANDS + 3)]
    if rem == 0:
        return 0
    rem_pts = 0
    tp = 0
    for c in range(32):
        if (rem >> c) & 1:
            rem_pts += W[_ix(W_POINTS + c)]
        if (cards >> c) & 1:
            tp += W[_ix(W_POINTS + c)]
    W[_ix(W_TRUMP)] = trump
    W[_ix(W_MODE)] = mode
    W[_ix(W_TARGET)] = target
    return _search(_data(W), np.int64((leader + n) & 3), led, win, ws, np.int64(tp), cards,
                   np.int64(capot_open), rem, np.int64(rem_pts), np.int64(alpha),
                   np.int64(beta))


@njit(cache=True)
def search_window(S, trump, prof, leader, trick, n, capot_open, alpha, beta):
    """One fail-soft search of team 0's points from the position loaded by
    :func:`begin_solve` (``prof`` is the one given there).

    ``trick`` int[>= n] the cards of the trick in progress from its leader ``leader``
    (``n`` = 0..3 of them); ``capot_open`` 1 while team 0 has won every completed trick.
    Returns team 0's future points (see :func:`_search`), exact when strictly inside
    ``(alpha, beta)``.
    """
    return _root(S, trump, MODE_POINTS, 0, leader, trick, n, capot_open, alpha, beta)


@njit(cache=True, inline="always")
def _midpoint(lower, upper, no_capot_max):
    """The next probe in ``(lower, upper]``: the middle, but never beyond
    ``no_capot_max + 1`` while a smaller value is still possible. Without a capot a
    team's points are at most the card points plus the last trick (162 at 152 card
    points, 130 at 120), so values between that and 252 never occur and a probe there
    only asks "capot?". (Where that total passes 252, 258 at strict's tout-atout, the
    values run to it and there is no such gap.)"""
    if lower < no_capot_max < upper:
        return (lower + no_capot_max + 2) // 2
    return (lower + upper + 1) // 2


@njit(cache=True)
def solve_value(S, trump, prof, leader, trick, n, capot_open, guess):
    """Exact future points of team 0 from the position loaded by :func:`begin_solve`.

    Null-window probes: a probe at ``g`` answers "can team 0 reach ``g``?" and returns a
    bound beyond ``g``; the next probe halves the interval still possible (the first one
    at ``guess``). The table keeps the bounds of every probe for the next.
    """
    # The values run from 0 to 252 (a capot), or to the card points plus the last trick
    # where those exceed 252 (258 at a tout-atout of 248).
    no_capot_max = S.work[W_DD_TOTAL]
    top = max(DD_CAPOT, no_capot_max)
    lower = 0
    upper = top + 1
    g = min(max(guess, 1), top)
    while lower < upper:
        v = search_window(S, trump, prof, leader, trick, n, capot_open, g - 1, g)
        if v >= g:
            lower = v
        else:
            upper = v
        g = _midpoint(lower, upper, no_capot_max)
    return lower


@njit(cache=True)
def solve_near(S, trump, prof, leader, trick, n, capot_open, guess):
    """Exact future points of team 0, for a value expected close to ``guess``.

    Probes at ``guess``, then at steps of 1, 2, 4… in the direction it failed until the
    value is bracketed, then halves the interval: two probes when the guess is right
    (the values of a position's cards are often equal or close).
    """
    no_capot_max = S.work[W_DD_TOTAL]
    top = max(DD_CAPOT, no_capot_max)
    lower = 0
    upper = top + 1
    g = min(max(guess, 1), top)
    step = 1
    while lower < upper:
        v = search_window(S, trump, prof, leader, trick, n, capot_open, g - 1, g)
        if v >= g:
            lower = v
            g = min(lower + step, upper) if step else _midpoint(lower, upper, no_capot_max)
        else:
            upper = v
            g = (max(upper - step + 1, lower + 1) if step
                 else _midpoint(lower, upper, no_capot_max))
        if step:
            step *= 2
            if step > 8:
                step = 0
        if g <= lower or g > upper:
            g = _midpoint(lower, upper, no_capot_max)
    return lower


@njit(cache=True)
def sweep_possible(S, trump, prof, leader, trick, n, target, by_seat):
    """Whether ``target``'s team (``by_seat`` 0) or the seat itself (1) can win every
    trick left, the trick in progress included. Returns 1 or 0."""
    mode = MODE_SEAT_SWEEP if by_seat else MODE_TEAM_SWEEP
    return _root(S, trump, mode, target, leader, trick, n, 0, 0, 1)


@njit(cache=True)
def root_classes(S, trump, leader, trick, n, reps, card_class):
    """The classes of equivalent legal cards of the seat to play, one card each.

    Position as :func:`search_window` (``trick`` is not modified). Writes one card of each
    class into ``reps`` int64[8], the most promising first in the loaded deal, and for
    each legal card ``c`` the index of its class in ``reps`` into ``card_class[c]``
    (int64[32]; -1 for the other cards). Equivalent cards (same suit, adjacent among
    the cards still in play, equal points) take the same value in every deal that gives
    the other seats the same cards, so a class is searched once. Returns the number of
    classes.
    """
    W = S.work
    led, win, ws, cards = _trick_state(trick, n, leader, trump)
    seat = (leader + n) & 3
    hand = W[_ix(W_HANDS + seat)]
    if n == 0:
        legal = hand
    else:
        legal = np.int64(legal_mask_win(hand, led, win, ws == (seat ^ 2), trump, W))
    rem = W[_ix(W_HANDS)] | W[_ix(W_HANDS + 1)] | W[_ix(W_HANDS + 2)] | W[_ix(W_HANDS + 3)]
    base = W_MOVES + 8 * (MAX_PLY - 1)
    n_reps = _candidates(W, base, legal, rem | cards)
    ruff4 = _ruffs(W[_ix(W_HANDS + ((seat + 3) & 3))], trump)
    ruff = ruff4 | _ruffs(W[_ix(W_HANDS + ((seat + 1) & 3))], trump)
    _order(W, base, MAX_PLY - 1, n_reps, seat, (n, led, win, ws), trump, _NO_CARD,
           rem & ~hand, (ruff, ruff4))
    # A searched card marks its class; every legal card walks up to the next stronger
    # card in play of equal points until it meets the searched one (in the scratch: no
    # allocation per call).
    mark = W[W_CLASS_MARK:W_CLASS_MARK + 32]
    mark[:] = -1
    for i in range(n_reps):
        reps[i] = W[_ix(base + i)]
        mark[reps[i]] = i
    card_class[:] = -1
    m = legal
    while m:
        c = _lowest_card(m)
        m ^= np.int64(1) << c
        x = c
        while mark[x] < 0:
            x = W[_ix(W_ABOVE_EQ + x)]
            while not ((rem | cards) >> x) & 1:
                x = W[_ix(W_ABOVE_EQ + x)]
        card_class[c] = mark[x]
    return n_reps


# One signature, to which numba converts every caller's integers (a literal guess or
# probe compiled a version of its own: 0.9 s of a cold PIMC seat): the solver's scratch,
# the read-only packed profile, the trick in progress as int64, int64 scalars.
_CARD_VALUE_SIGNATURE = types.int64(
    types.NamedUniTuple(types.int64[::1], 1, Scratch), types.int64,
    types.Array(types.int32, 1, "C", readonly=True), types.int64, types.int64[::1],
    *([types.int64] * 5))


@njit(_CARD_VALUE_SIGNATURE, cache=True)
def card_value(S, trump, prof, leader, trick, n, capot_open, card, guess, probe):
    """Team 0's future points (the trick in progress included) once the seat to play
    plays ``card`` and both sides then play perfectly; position as :func:`search_window`.

    ``probe`` > 0 asks one question, "do team 0's points reach ``probe``?", by one
    null-window search, and returns a fail-soft bound: at least the value when it is
    ``>= probe``, at most the value when it is ``< probe``. Otherwise the value is exact,
    searched from ``guess`` (the value of a card expected to be close, by
    :func:`solve_near`) or, for ``guess < 0``, by :func:`solve_value` from 81. The scratch
    hands are restored; ``trick`` is not modified.
    """
    W = S.work
    led, win, ws, cards = _trick_state(trick, n, leader, trump)
    seat = (leader + n) & 3
    hand = W[_ix(W_HANDS + seat)]
    child = W[W_CHILD:W_CHILD + 4]
    for p in range(n):
        child[p] = trick[p]
    if n < 3:
        # The trick goes on with the card in it.
        child[n] = card
        g = 0
        nl, nn, nc = leader, n + 1, capot_open
    else:
        # The card completes the trick: score it, then search from the next lead.
        rem = W[_ix(W_HANDS)] | W[_ix(W_HANDS + 1)] | W[_ix(W_HANDS + 2)] | W[_ix(W_HANDS + 3)]
        nws = seat if _win_key(trump, led, card) > _win_key(trump, led, win) else ws
        team0 = (nws & 1) == 0
        tp = 0
        for c in range(32):
            if (cards >> c) & 1:
                tp += W[_ix(W_POINTS + c)]
        g = (tp + W[_ix(W_POINTS + card)]) if team0 else 0
        nl, nn, nc = nws, 0, (1 if (capot_open and team0) else 0)
        if (rem ^ (np.int64(1) << card)) == 0:
            # The last card of the donne: 10 for the last trick, 252 in all on a capot.
            if team0:
                g += W[_ix(W_CAPOT)] if nc else W[_ix(P_LAST_TRICK_BONUS)]
            return g
    W[_ix(W_HANDS + seat)] = hand ^ (np.int64(1) << card)
    if probe > 0:
        t = probe - g
        if t <= 0:
            # Reached by the trick just completed: its points are a lower bound.
            v = np.int64(0)
        else:
            v = search_window(S, trump, prof, nl, child, nn, nc, t - 1, t)
    elif guess < 0:
        v = solve_value(S, trump, prof, nl, child, nn, nc, 81)
    else:
        v = solve_near(S, trump, prof, nl, child, nn, nc, guess - g)
    W[_ix(W_HANDS + seat)] = hand
    return g + v


@njit(cache=True)
def root_values(S, trump, prof, leader, trick, n, capot_open, out_cards, out_values):
    """Team 0's DD value (future points) after each legal card of the seat to play.

    Position as :func:`search_window` (``trick`` is not modified). Writes the legal cards
    in ascending index into ``out_cards`` int64[8] and, for each, team 0's future points
    from this position when that card is played and both sides then play perfectly (the
    trick in progress included) into ``out_values`` int64[8]. Returns the number of legal
    cards.
    """
    W = S.work
    # One card of each class of equivalent cards (:func:`root_classes`), in the scratch
    # (no allocation per call): the classes at W_REPS, each legal card's class at
    # W_CARD_CLASS, each class's value at W_REP_VALUES.
    reps = W[W_REPS:W_REPS + 8]
    card_class = W[W_CARD_CLASS:W_CARD_CLASS + 32]
    n_reps = root_classes(S, trump, leader, trick, n, reps, card_class)
    # The most promising class first; its value is then the guess for the next ones.
    values = W[W_REP_VALUES:W_REP_VALUES + 8]
    guess = -1
    for i in range(n_reps):
        values[i] = card_value(S, trump, prof, leader, trick, n, capot_open, reps[i], guess,
                               0)
        guess = values[i]
    # Every legal card: an equivalent card has its class's value.
    k = 0
    for c in range(32):
        if card_class[c] >= 0:
            out_cards[k] = c
            out_values[k] = values[card_class[c]]
            k += 1
    return k


@njit(cache=True)
def solve_deal(S, hands, dealer, trump, prof, guess):
    """Team 0's DD card points of a whole deal (opening lead by seat ``dealer + 1``)."""
    begin_solve(S, hands, trump, prof)
    trick = S.work[W_CHILD:W_CHILD + 4]  # (not read: no card in the trick)
    return solve_value(S, trump, prof, (dealer + 1) & 3, trick, 0, 1, guess)


@njit(cache=True, parallel=True)
def solve_many(hands, dealer, kind, prof, n_threads, out, nodes):
    """Team 0's DD card points of many whole deals, in parallel.

    Parameters
    ----------
    hands : uint32[n, 4]
        The four 8-card hands by seat.
    dealer, kind : int[n]
        Dealer seat (seat ``dealer + 1`` leads) and contract kind 0..5 per row.
    prof : int32[PROFILE_LEN]
        Packed profile.
    n_threads : int
        Number of blocks, each with its own scratch; a block takes the next row not yet
        taken each time it is free (:func:`_claim`).
    out : int16[n]
        Team 0's card points (0..252; to 258 at strict's tout-atout) per row, written in
        place.
    nodes : int64[n]
        Nodes searched per row (for benchmarks).

    A row's value is exact, so it depends on nothing but the row, not on the block that
    solved it. Its node count does: the solve stamp enters the table's hash, so the
    collisions depend on how many solves the block made before (with one thread, the
    count is the same from run to run).
    """
    n = hands.shape[0]
    n_blocks = max(1, min(n, n_threads))
    # The next row to solve: each block takes one as it frees up (solves differ in
    # length by ten times and more; a fixed share of the rows left one thread waiting).
    claimed = np.zeros(1, np.int64)
    for _ in prange(n_blocks):
        S = new_scratch(TT_LOG2)
        i = _claim(claimed)
        while i < n:
            before = S.work[W_NODES]
            out[i] = solve_deal(S, hands[i], dealer[i], kind[i], prof, 81)
            nodes[i] = S.work[W_NODES] - before
            i = _claim(claimed)
