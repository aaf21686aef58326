"""The PIMC player's card play: sampled worlds, each solved double dummy.

Perfect-information Monte Carlo (PIMC): at each card it must play, the player draws ``W``
deals ("worlds") uniformly among those consistent with everything its seat has seen, solves
every world double dummy for each of its legal cards, and plays the card whose mean value
for its team over the worlds is highest. It bids with the
data-fitted bidder (:mod:`.bidder`, same parameter row as the heuristic player), or
thinks at the auction when its ``bid_worlds`` is positive (:mod:`.think_bid`); ``W`` is
the parameter ``worlds`` (offset ``PM_WORLDS`` of the row, default 32:
:mod:`simcoinche.players.registry`).

The worlds of one decision are solved together (:func:`class_sums`): only the cards that
can be best need their exact sums, and not even those when one card alone can be best.
In each world one class of equivalent cards is solved exactly and the others get one
null-window probe against it; more is solved, world by world, only while the choice is
not determined. The card played, and the draws, are those of solving every world exactly
for every card.

What the worlds respect (the public ``info`` array of :mod:`.players`, nothing else):

- the player's own hand, the cards already played (the trick in progress included) and
  how many cards each other seat still holds (8 minus the tricks completed, minus one for
  a seat that has played to the trick in progress);
- the voids shown: a seat that did not follow, or did not trump when it had to
  (``I_VOID``), holds no card of that suit;
- the cards shown by the announcements that count (``I_SHOWN``, from the second trick) and
  the belote: once a seat has said "belote", the other of the trump king and queen, if
  not yet played, is in its hand.

Sampling is exact: the sampler of the odds engine (:func:`.sampler.completion_table` and
:func:`.sampler.sample_one`: one suit at a time, each split of the suit between the seats
weighted by the number of deals it leaves) gives every consistent deal the same
probability. The draws come from the player's random stream ``st`` (the donne's players'
stream), so runs stay deterministic whatever the thread count.

Values: each world is solved from the player's side. Seats are renumbered so that the
player's team is the solver's team 0 (seat ``s`` becomes ``s - (seat & 1)``); a value is
then the card points the player's team collects from the cards not yet gathered (the
trick in progress included), with 10 for the last trick, or instead what brings it to
252 when it takes every trick of the donne (RULES.md: "252 to a team that wins every
trick"). Ties between cards of the same mean are broken uniformly from ``st`` (no
favourite suit).

Scratch: :class:`.pimc_scratch.Think` (made once per block by
:func:`.thinking.think_scratch`), so that a decision allocates nothing: the solver's table
is reused from world to world (its solve stamp hides earlier entries).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels import dd

# The PIMC player's scratch (pimc_scratch.py), re-exported for the solver's callers.
from simcoinche._kernels.pimc_scratch import (  # noqa: F401
    MAX_WORLDS,
    PIMC_TT_LOG2,
    Think,
    new_think,
)
from simcoinche._kernels.play import card_points
from simcoinche._kernels.players import (
    I_BELOTE_SEAT,
    I_KIND,
    I_LEADER,
    I_PLAYED,
    I_SEAT,
    I_SHOWN,
    I_TRICK,
    I_TRICKS,
    I_VOID,
    PM_WORLDS,
)
from simcoinche._kernels.rng import bounded, lowest_bit, popcount32
from simcoinche._kernels.sampler import (
    CUM_SHAPE,
    MAX_CHOICES,
    completion_table,
    sample_one,
)

_ALL_CARDS = np.int64(0xFFFFFFFF)
_KQ = np.int64(0x60)      # king and queen of a suit (ranks 5 and 6), suit byte 0

assert MAX_CHOICES == CUM_SHAPE[3]


@njit(cache=True)
def world_constraints(T, hand, n, info):
    """Set up the sampler for the seat to play: what it knows of the other hands.

    ``hand`` uint32 the player's cards; ``n`` cards of the trick in progress already
    played; ``info`` the public information (:mod:`.players`). Fills ``T.known`` (the
    player's hand, and the cards pinned to other seats by the shown announcements and the
    belote), ``T.free``, ``T.counts``, ``T.allow``, ``T.caps``, ``T.seats`` and the
    sampler's tables. Returns the number of consistent deals (at least 1: the real one).
    """
    seat = info[I_SEAT]
    leader = info[I_LEADER]
    kind = info[I_KIND]
    tricks_done = info[I_TRICK]
    unseen = _ALL_CARDS & ~info[I_PLAYED] & ~np.int64(hand)
    for s in range(4):
        T.known[s] = 0
    T.known[seat] = hand
    pinned = np.int64(0)
    for s in range(4):
        if s != seat:
            # Cards shown in an announcement that counts and not yet played.
            shown = info[I_SHOWN + s] & unseen & ~pinned
            T.known[s] |= np.uint32(shown)
            pinned |= shown
    bel = info[I_BELOTE_SEAT]
    if bel >= 0 and bel != seat and kind < 4:
        # "Belote" said: the other of the trump king and queen is in that hand.
        other = (_KQ << (8 * kind)) & unseen & ~pinned
        T.known[bel] |= np.uint32(other)
        pinned |= other
    free = unseen & ~pinned
    for suit in range(4):
        T.free[suit] = np.uint32((free >> (8 * suit)) & 0xFF) << np.uint32(8 * suit)
        T.counts[suit] = popcount32(T.free[suit])
    j = 0
    for s in range(4):
        if s == seat:
            continue
        # Cards still held: one per trick to come, one fewer after playing to this one.
        held = 8 - tricks_done - (1 if ((s - leader) & 3) < n else 0)
        T.seats[j] = s
        T.caps[j] = held - popcount32(T.known[s])
        for suit in range(4):
            # A seat that has shown a void in a suit gets none of its cards.
            T.allow[suit, j] = 0 if (info[I_VOID + s] >> suit) & 1 else 1
        j += 1
    return completion_table(T.counts, T.allow, T.caps, T.w, T.cum, T.pick)


@njit(cache=True)
def draw_world(T, st):
    """One consistent deal into ``T.world`` (after :func:`world_constraints`)."""
    sample_one(st, T.known, T.free, T.seats, T.caps, T.w, T.cum, T.pick, T.perm, T.world)


@njit(cache=True)
def one_class(legal, in_play, kind, prof):
    """Whether every card of ``legal`` is equivalent: one suit, equal points, and no card
    still in play (held, or in the trick in progress) ranking between two of them — then
    they win and lose the same tricks, so any of them is as good in every world."""
    suit = lowest_bit(legal) >> 3
    if legal >> np.uint32(8 * suit) >> np.uint32(8) != 0:
        return False
    prev_legal = False
    points = -1
    classes = 0
    for r in range(8):
        c = dd.ORDER[kind, suit, r]
        if not (np.int64(in_play) >> c) & 1:
            continue  # played: no longer separates the cards around it
        if (np.int64(legal) >> c) & 1:
            p = card_points(c, kind, prof)
            if not (prev_legal and p == points):
                classes += 1
            points = p
            prev_legal = True
        else:
            prev_legal = False
    return classes == 1


@njit(cache=True, inline="always")
def _exact(T, w, j, kind, prof, leader, n, capot_open, guess):
    """Class ``j``'s exact value in world ``w`` (the world loaded in the solver), searched
    from ``guess``; its bounds (0, 0 when not yet searched) and sums updated. Returns the
    value."""
    v = dd.card_value(T.solver, kind, prof, leader, T.trick, n, capot_open, T.reps[j],
                      guess, 0)
    T.sum_lo[j] += v - T.lo[w, j]
    T.sum_hi[j] += v - T.hi[w, j]
    T.lo[w, j] = v
    T.hi[w, j] = v
    T.guess[j] = v
    return v


@njit(cache=True, nogil=True)
def class_sums(T, worlds, kind, prof, leader, n, capot_open):
    """The worlds ``T.hands[:worlds]`` solved together: each class's value summed over the
    worlds, as far as the choice needs it.

    The classes of equivalent legal cards come from :func:`.dd.root_classes` (the seat's
    hand and the cards in play are the same in every world). The first world is solved
    exactly for every class. In each later world only the class whose sum is best so far
    is solved exactly; every other class gets one null-window search "does it reach the
    best class's value in this world?" (raised by half the lead per world the best class
    has taken over it so far: a class far behind needs only a loose bound), which leaves
    it an upper bound when it does not (most of the time) and is solved exactly when it
    does. Then :func:`_settle` solves more, world by world, until the choice is
    determined.

    Fills ``T.reps``, ``T.card_class``, ``T.sum_lo`` / ``T.sum_hi`` (equal for an exact
    class) and ``T.lo`` / ``T.hi``. Returns the number of classes. On return, either one
    class is the only one whose upper sum reaches the best lower sum (it alone can be
    best, whatever its exact sum), or every such class is exact, so the choice and its
    ties are those of solving every class exactly.
    """
    S = T.solver
    dd.begin_solve(S, T.hands[0], kind, prof)
    k = dd.root_classes(S, kind, leader, T.trick, n, T.reps, T.card_class)
    for j in range(k):
        T.sum_lo[j] = 0
        T.sum_hi[j] = 0
    if k == 1:
        # One class: every card is worth the same in every world.
        return k
    for w in range(worlds):
        for j in range(k):
            T.lo[w, j] = 0
            T.hi[w, j] = 0
    # The first world: every class exact, each class's value the guess for the next.
    guess = np.int64(-1)
    for j in range(k):
        guess = _exact(T, 0, j, kind, prof, leader, n, capot_open, guess)
    for w in range(1, worlds):
        dd.begin_solve(S, T.hands[w], kind, prof)
        # The class best so far, exact; every other class asked whether it reaches it.
        best = 0
        for j in range(1, k):
            if T.sum_lo[j] > T.sum_lo[best]:
                best = j
        v_best = _exact(T, w, best, kind, prof, leader, n, capot_open, T.guess[best])
        for j in range(k):
            if j == best:
                continue
            # The best class's lead over this one in the w worlds before: a class far
            # behind is asked about a higher value, which fails faster and still bounds
            # it (a bound only; :func:`_settle` solves whatever the choice needs).
            lead = T.sum_lo[best] - v_best - T.sum_hi[j]
            t = max(v_best, np.int64(1)) + (lead // (2 * w) if lead > 0 else 0)
            r = dd.card_value(S, kind, prof, leader, T.trick, n, capot_open, T.reps[j], -1, t)
            if r >= t:
                # It reaches that value here: solved exactly from its bound.
                _exact(T, w, j, kind, prof, leader, n, capot_open, r)
            else:
                # Below it here: at most r.
                T.hi[w, j] = r
                T.sum_hi[j] += r
    _settle(T, worlds, k, kind, prof, leader, n, capot_open)
    return k


@njit(cache=True, nogil=True)
def _settle(T, worlds, k, kind, prof, leader, n, capot_open):
    """Solve exactly until the choice is determined (:func:`class_sums`).

    The contenders are the classes whose upper sum reaches the best lower sum. While
    there are several and one of them is not exact, the world where the contenders not
    yet exact are least known (the largest sum of ``hi - lo``) is solved exactly for
    them, and the contenders are counted again: the choice is often settled after a few
    worlds, before every contender is exact.
    """
    S = T.solver
    while True:
        top = T.sum_lo[0]
        for j in range(1, k):
            top = max(top, T.sum_lo[j])
        open_ = 0
        contenders = 0
        for j in range(k):
            if T.sum_hi[j] >= top:
                contenders += 1
                if T.sum_lo[j] != T.sum_hi[j]:
                    open_ |= 1 << j
        if open_ == 0 or contenders == 1:
            return
        widest = 0
        gap = np.int64(-1)
        for w in range(worlds):
            g = np.int64(0)
            for j in range(k):
                if (open_ >> j) & 1:
                    g += T.hi[w, j] - T.lo[w, j]
            if g > gap:
                gap = g
                widest = w
        dd.begin_solve(S, T.hands[widest], kind, prof)
        for j in range(k):
            if (open_ >> j) & 1 and T.lo[widest, j] != T.hi[widest, j]:
                _exact(T, widest, j, kind, prof, leader, n, capot_open,
                       np.int64(T.hi[widest, j]))


@njit(cache=True, inline="always")
def _no_choice(legal, trick, n, info, prof):
    """Whether no world can tell the legal cards apart: a single legal card, or every
    one in one class of equivalent cards (:func:`one_class`)."""
    if legal & (legal - np.uint32(1)) == 0:
        # A single legal card: nothing to think about.
        return True
    kind = info[I_KIND]
    on_table = dd._trick_state(trick, n, info[I_LEADER], kind)[3]
    # Equivalent cards (e.g. the 7 and 8 of a plain suit): no world tells them apart.
    return one_class(legal, (_ALL_CARDS & ~info[I_PLAYED]) | on_table, kind, prof)


@njit(cache=True, inline="always")
def _decision(T, hand, trick, n, info, params, row):
    """What one card decision needs, the seat's view loaded into ``T`` (the constraints
    on the worlds, the trick in progress): ``(kind, team, worlds, leader, capot_open)``,
    the seats renumbered so that the player's team is the solver's team 0."""
    team = info[I_SEAT] & 1
    worlds = max(1, int(params[row, PM_WORLDS]))
    world_constraints(T, hand, n, info)
    for p in range(n):
        T.trick[p] = trick[p]
    leader = (info[I_LEADER] - team) & 3
    # A capot is still open to the player's team while the other team has no trick.
    capot_open = 1 if info[I_TRICKS + 1 - team] == 0 else 0
    return info[I_KIND], team, worlds, leader, capot_open


@njit(cache=True, inline="always")
def _best_card(sums, legal, st):
    """The legal card (``uint32`` mask ``legal``) of the best sum in ``sums`` int64[32]
    (equal sums: equal means), equal ones drawn uniformly from ``st``."""
    best = np.int64(-1)
    ties = np.uint32(0)
    m = np.int64(legal)
    while m:
        c = lowest_bit(np.uint32(m))
        m &= m - 1
        if sums[c] > best:
            best = sums[c]
            ties = np.uint32(1) << np.uint32(c)
        elif sums[c] == best:
            ties |= np.uint32(1) << np.uint32(c)
    if ties & (ties - np.uint32(1)) == 0:
        return lowest_bit(ties)
    k = bounded(st, popcount32(ties))
    while k > 0:
        ties &= ties - np.uint32(1)
        k -= 1
    return lowest_bit(ties)


@njit(cache=True, nogil=True)
def pimc_card(T, hand, legal, trick, n, info, params, row, prof, st):
    """Card of the PIMC player among ``legal`` (``uint32``); the seat is ``info[I_SEAT]``.

    Parameters
    ----------
    T : Think
        Per-thread scratch (:func:`new_think`).
    hand, legal : uint32
        The player's cards and its legal cards.
    trick : int32[4]
        Cards of the trick in progress from its leader ``info[I_LEADER]`` (``n`` of them).
    info : int64[INFO_LEN]
        Public information (:mod:`.players`).
    params : float64[2, PARAM_LEN]
        Parameter rows; ``params[row, PM_WORLDS]`` is the number of worlds ``W``.
    prof : int32[PROFILE_LEN]
        Packed profile.
    st : uint64[RNG_STATE_LEN]
        The players' random stream of the donne (worlds and ties are drawn from it).

    Returns
    -------
    int
        The card index (bit ``suit * 8 + rank``), one of ``legal``.
    """
    if _no_choice(legal, trick, n, info, prof):
        return lowest_bit(legal)
    kind, team, worlds, leader, capot_open = _decision(T, hand, trick, n, info, params, row)
    if worlds > MAX_WORLDS:
        # More worlds than the scratch holds (the registry never allows it): no card, so
        # the run fails with the fault counted.
        return -1
    # Every world drawn first (the draws are the stream's next ones, as when each world
    # was solved as soon as drawn), then solved together.
    for w in range(worlds):
        draw_world(T, st)
        for s in range(4):
            # Seats renumbered so that the player's team is the solver's team 0.
            T.hands[w, (s - team) & 3] = T.world[s]
    k = class_sums(T, worlds, kind, prof, leader, n, capot_open)
    top = T.sum_lo[0]
    for j in range(1, k):
        top = max(top, T.sum_lo[j])
    # A card's sum is its class's when exact; the best lower sum for the one class that
    # alone can be best without being exact; -1 for a class that cannot be best.
    m = np.int64(legal)
    while m:
        c = lowest_bit(np.uint32(m))
        m &= m - 1
        j = T.card_class[c]
        if T.sum_lo[j] == T.sum_hi[j]:
            T.sums[c] = T.sum_lo[j]
        elif T.sum_hi[j] >= top:
            T.sums[c] = top
        else:
            T.sums[c] = -1
    return _best_card(T.sums, legal, st)


@njit(cache=True)
def every_world_card(T, hand, legal, trick, n, info, params, row, prof, st):
    """The oracle of :func:`pimc_card`: the same decision made the plain way, each world
    solved as soon as drawn for every legal card (:func:`.dd.root_values`), the values
    summed by card, ties drawn from ``st``. Arguments and result as :func:`pimc_card`;
    not a player (it allocates its two small arrays per call): the tests and
    ``benchmarks/pimc_cards.py`` compare the two on the same positions."""
    if _no_choice(legal, trick, n, info, prof):
        return lowest_bit(legal)
    kind, team, worlds, leader, capot_open = _decision(T, hand, trick, n, info, params, row)
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    for c in range(32):
        T.sums[c] = 0
    for _ in range(worlds):
        draw_world(T, st)
        for s in range(4):
            T.hands[0, (s - team) & 3] = T.world[s]
        dd.begin_solve(T.solver, T.hands[0], kind, prof)
        k = dd.root_values(T.solver, kind, prof, leader, T.trick, n, capot_open, cards,
                           values)
        for i in range(k):
            T.sums[cards[i]] += values[i]
    return _best_card(T.sums, legal, st)
