"""The data-fitted bidder of the heuristic and PIMC players (issue 21).

For every candidate action the seat asks one question: *what does our team expect to
score, in marks, if this becomes the final contract?* and takes the action with the best
answer. The answers come from tables fitted offline on the simulator's own donnes
(:mod:`simcoinche.players.bid_fit`), not from thresholds picked by hand:

- **own contracts** — for each contract kind the seat computes a linear score ``mu`` of
  what it knows (:func:`own_features`: its hand's features in that kind, its position,
  the partner's and the opponents' bids so far); ``mu`` falls in one of ``NB`` buckets
  (quantiles of the fitting data); each bucket holds the mean marks difference (our
  team's marks minus the opponents') of the contract at every ladder level and
  multiplier (x1, x2, x4), measured by playing the contract out with this seat as the
  taker and scoring it with the profile's exact rules (failed contracts, coinche and
  surcoinche multipliers, capot, belote, announcements, rounding);
- **defence** — when the opponents hold the contract, a second score
  (:func:`def_features`: the seat's hand against their trump and their bid) picks a
  bucket holding the takers' mean marks difference at x1, x2 and x4: passing is worth
  minus the current multiplier's entry, coinching minus the x2 entry.

Decisions (each margin a searched parameter, ``FB_*``):

- no contract yet: a bid is worth its table entry, passing ``pass_ev`` (the auction may
  be passed out and redealt);
- the partner holds the contract: passing is worth the contract as it stands (read from
  this seat's view), a higher bid its own entry minus ``raise_margin``;
- the opponents hold it: passing is worth minus their expected marks, coinching minus
  their expected marks at x2 minus ``coinche_margin``, an overcall its entry minus
  ``compete_margin``;
- our contract is coinched: surcoinching is worth the x4 entry minus
  ``surcoinche_margin``.

A capot bid pays ``capot_margin`` more. Kinds of exactly equal value are chosen among
uniformly from the player's stream (no favourite suit).

Parameter row layout (``float64[PARAM_LEN]``, :mod:`.players`): the named parameters,
then from ``BT_OFFSET`` the tables of the run's profile: ``BT_KEY`` (the profile's
fingerprint, :func:`table_key`) and one block of ``CLASS_LEN`` floats per contract class
(``0`` suits, ``1`` sans-atout, ``2`` tout-atout)::

    own weights  [NF]            own bucket edges [NB - 1]
    own values   [NB, NLEV, 3]   (bucket, ladder level incl. capot, multiplier 1/2/4)
    def weights  [NFD]           def bucket edges [NB - 1]
    def values   [NB, 3]

then from ``BT_BEST`` a block derived from the tables when the row is built
(:func:`simcoinche.players.bid_tables.best_levels`): for each class, own bucket and
lowest biddable level, the best level below capot (``float64[N_CLASSES, NB, NLEV]``,
``-1`` where none), so that a call reads one entry per kind instead of walking the
ladder; from ``BT_SUIT_PREFIX`` the first ten terms of a suit's own score for each pattern
of its trump cards (:func:`fill_suit_prefixes`, ``float64[256]``).

The bidder reads nothing else: no global, no allocation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcoinche._kernels.auction import (
    A_BIDDER,
    A_COINCHE,
    A_KIND,
    A_LEVEL,
    A_STATUS,
    A_TO_SPEAK,
    auction_check,
)
from simcoinche._kernels.bid_layout import (
    BT_BEST,
    BT_CLASSES,
    BT_KEY,
    BT_SUIT_PREFIX,
    CLASS_LEN,
    DEF_EDGES,
    DEF_EV,
    DEF_W,
    N_MULT,
    N_SUIT_PATTERNS,
    NB,
    NF,
    NFD,
    NLEV,
    OWN_EDGES,
    OWN_EV,
    OWN_W,
)
from simcoinche._kernels.heuristic import (
    R_ACE,
    R_JACK,
    R_KING,
    R_NINE,
    R_QUEEN,
    R_TEN,
    _suit,
    _value_of_level,
)
from simcoinche._kernels.layout import (
    P_ALLOW_SA,
    P_ALLOW_SURCOINCHE,
    P_ALLOW_TA,
    P_AUCTION_CARDS,
    P_BID_VALUES,
    P_N_BID_VALUES,
    P_SCORING_RULE,
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

# --- named parameters (offsets in the parameter row; names in players.registry) ----------
FB_PASS_EV = 41            # value of passing when nobody has bid (marks)
FB_BID_MARGIN = 42         # an opening must beat passing by this much
FB_RAISE_MARGIN = 43       # a bid over the partner's contract must beat it by this much
FB_COMPETE_MARGIN = 44     # an overcall must beat defending by this much
FB_COINCHE_MARGIN = 45     # a coinche must beat defending undoubled by this much
FB_SURCOINCHE_MARGIN = 46  # a surcoinche must beat playing coinched by this much
FB_CAPOT_MARGIN = 47       # a capot bid must beat the best other action by this much

if (NF, NFD, NB) != (24, 16, 24):  # the scores and the bucket search are written out
    raise ImportError(f"bidder scores are written for 24 and 16 features and 24 buckets, "
                      f"not {NF}, {NFD}, {NB}")

@njit(cache=True, inline="always")
def _bit(m, r):
    return np.float64((m >> r) & 1)


@njit(cache=True, inline="always")
def kind_class(kd):
    """Table class of contract kind ``kd``: 0 a suit, 1 sans-atout, 2 tout-atout."""
    if kd < 4:
        return 0
    return 1 if kd == 4 else 2


@njit(cache=True, inline="always")
def mult_index(m):
    """Table index of multiplier ``m`` (1, 2, 4)."""
    if m == 1:
        return 0
    return 1 if m == 2 else 2


@njit(cache=True, inline="always")
def table_key(prof):
    """The profile fingerprint the tables carry (``BT_KEY``): scoring rule, ladder,
    auction cards and kinds. Tables fitted for another profile are refused."""
    k = np.int64(prof[P_SCORING_RULE])
    k = k * 64 + prof[P_N_BID_VALUES]
    k = k * 256 + prof[P_BID_VALUES]
    k = k * 16 + prof[P_AUCTION_CARDS]
    k = k * 4 + prof[P_ALLOW_SA] * 2 + prof[P_ALLOW_TA]
    return np.float64(k)


@njit(cache=True, inline="always")
def suit_summary(hand):
    """What every suit kind's features share, counted once per decision over all four
    suits of ``hand`` (``uint32``): ``(aces, ace-ten pairs, tens without their ace,
    voids, singletons)`` as ``int64``. A kind's outside counts are these minus its trump
    suit's own."""
    h = np.int64(hand)
    aces = 0
    at = 0
    bare_t = 0
    voids = 0
    singles = 0
    for s in range(4):
        m = _suit(h, s)
        c = popcount32(m)
        a = (m >> R_ACE) & 1
        ten = (m >> R_TEN) & 1
        aces += a
        at += a & ten
        bare_t += ten & (1 - a)
        voids += c == 0
        singles += c == 1
    return (np.int64(aces), np.int64(at), np.int64(bare_t), np.int64(voids),
            np.int64(singles))


@njit(cache=True, inline="always")
def hand_features(hand, kd, summary):
    """Fourteen features of ``hand`` (``uint32``) for contract kind ``kd`` (``float64``);
    ``summary`` is :func:`suit_summary` of the hand.

    Suit ``kd``: trump J, 9, A, T, belote (K and Q), K or Q alone, trump count, trumps
    beyond three, J and 9 together; outside: aces, ace-ten pairs, tens without their
    ace, voids, singletons. Sans-atout: aces, tens, ace-ten pairs, kings, A-T-K suits,
    length of the longest suit headed by its ace, longest suit, voids, singletons,
    queens, jacks, tens without their ace, suits with neither A nor T, nines.
    Tout-atout: jacks, nines, J-9 pairs, aces, tens, K-Q pairs, longest suit, jacks with
    two more cards, voids, nines without their jack, kings, queens, singletons, small
    cards (7 and 8).
    """
    h = np.int64(hand)
    if kd < 4:
        return _suit_features(h, kd, summary)
    if kd == 4:
        return _sans_atout_features(h, summary)
    return _tout_atout_features(h, summary)


@njit(cache=True, inline="always")
def _suit_features(h, kd, summary):
    """:func:`hand_features` in suit ``kd`` (0-3)."""
    t = _suit(h, kd)
    n = popcount32(t)
    kq = ((t >> R_KING) & 1) + ((t >> R_QUEEN) & 1)
    a = (t >> R_ACE) & 1
    ten = (t >> R_TEN) & 1
    # Outside the trump suit: the whole hand's counts minus the trump suit's.
    aces = summary[0] - a
    at = summary[1] - (a & ten)
    bare_t = summary[2] - (ten & (1 - a))
    voids = summary[3] - (n == 0)
    singles = summary[4] - (n == 1)
    return (_bit(t, R_JACK), _bit(t, R_NINE), np.float64(a), np.float64(ten),
            np.float64(kq == 2), np.float64(kq == 1), np.float64(n),
            np.float64(max(n - 3, 0)), _bit(t, R_JACK) * _bit(t, R_NINE),
            np.float64(aces), np.float64(at), np.float64(bare_t), np.float64(voids),
            np.float64(singles))


@njit(cache=True, inline="always")
def _sans_atout_features(h, summary):
    """:func:`hand_features` at sans-atout."""
    tens = 0
    kings = 0
    atk = 0
    long_ace = 0
    longest = 0
    queens = 0
    jacks = 0
    empty = 0
    nines = 0
    for s in range(4):
        m = _suit(h, s)
        c = popcount32(m)
        a = (m >> R_ACE) & 1
        ten = (m >> R_TEN) & 1
        k = (m >> R_KING) & 1
        tens += ten
        kings += k
        atk += a & ten & k
        if a and c > long_ace:
            long_ace = c
        longest = max(longest, c)
        queens += (m >> R_QUEEN) & 1
        jacks += (m >> R_JACK) & 1
        empty += (1 - a) & (1 - ten)
        nines += (m >> R_NINE) & 1
    return (np.float64(summary[0]), np.float64(tens), np.float64(summary[1]),
            np.float64(kings), np.float64(atk), np.float64(long_ace), np.float64(longest),
            np.float64(summary[3]), np.float64(summary[4]), np.float64(queens),
            np.float64(jacks), np.float64(summary[2]), np.float64(empty),
            np.float64(nines))


@njit(cache=True, inline="always")
def _tout_atout_features(h, summary):
    """:func:`hand_features` at tout-atout."""
    tens = 0
    longest = 0
    queens = 0
    jacks = 0
    nines = 0
    j9 = 0
    kq = 0
    long_j = 0
    bare9 = 0
    kings = 0
    small = 0
    for s in range(4):
        m = _suit(h, s)
        c = popcount32(m)
        k = (m >> R_KING) & 1
        q = (m >> R_QUEEN) & 1
        j = (m >> R_JACK) & 1
        nine = (m >> R_NINE) & 1
        tens += (m >> R_TEN) & 1
        kings += k
        longest = max(longest, c)
        queens += q
        jacks += j
        nines += nine
        j9 += j & nine
        kq += k & q
        long_j += j & (c >= 3)
        bare9 += nine & (1 - j)
        small += (m & 1) + ((m >> 1) & 1)
    return (np.float64(jacks), np.float64(nines), np.float64(j9), np.float64(summary[0]),
            np.float64(tens), np.float64(kq), np.float64(longest), np.float64(long_j),
            np.float64(summary[3]), np.float64(bare9), np.float64(kings),
            np.float64(queens), np.float64(summary[4]), np.float64(small))


@njit(cache=True, inline="always")
def auction_context(actions, n_actions, seat, prof):
    """What the auction so far says, from ``seat``'s view, in one pass.

    Returns ``(pa_last, pa_any, my_kinds, op_kinds, op_top, pa_spoke)``: the partner's
    last value bid in each kind (10 bits per kind at ``10 * kd``, 0 none), a mask of the
    kinds the partner bid (bit ``kd``), of the kinds this seat bid, of the kinds the
    opponents bid, the opponents' highest value (0 none), and whether the partner has
    spoken (made any call) yet.
    """
    first_seat = (seat - n_actions) & 3
    pa_last = np.int64(0)
    pa_any = np.int64(0)
    my_kinds = np.int64(0)
    op_kinds = np.int64(0)
    op_top = np.int64(0)
    pa_spoke = np.int64(0)
    for j in range(n_actions):
        a = np.int64(actions[j])
        who = (first_seat + j) & 3
        if who == (seat ^ 2):
            pa_spoke = np.int64(1)
        if a < ACT_BID_BASE:
            continue
        kd = (a - ACT_BID_BASE) % N_KINDS
        lv = (a - ACT_BID_BASE) // N_KINDS
        v = np.int64(_value_of_level(lv, prof))
        if who == seat:
            my_kinds |= np.int64(1) << kd
        elif who == (seat ^ 2):
            pa_any |= np.int64(1) << kd
            vs = 10 * kd
            pa_last = (pa_last & ~(np.int64(0x3FF) << vs)) | (min(v, 1023) << vs)
        else:
            op_kinds |= np.int64(1) << kd
            op_top = max(op_top, v)
    return pa_last, pa_any, my_kinds, op_kinds, op_top, pa_spoke


@njit(cache=True, inline="always")
def own_features(hand, summary, kd, ctx, leads):
    """The ``NF`` features of an own contract in kind ``kd`` (``float64`` tuple): a
    constant, :func:`hand_features`, then the context: this seat leads the first trick,
    the partner bid ``kd`` (and its last value, in tens above 80), the partner bid
    another kind, the partner spoke without bidding, the opponents bid ``kd``, another
    kind, their highest value (tens above 80), this seat bid ``kd`` before.
    ``ctx`` is :func:`auction_context`'s tuple."""
    return own_features_of(hand_features(hand, kd, summary), kd, ctx, leads)


@njit(cache=True, inline="always")
def own_features_of(hf, kd, ctx, leads):
    """:func:`own_features` from the hand's features ``hf`` in kind ``kd``."""
    pa_last, pa_any, my_kinds, op_kinds, op_top, pa_spoke = ctx
    pa_v = (pa_last >> (10 * kd)) & 0x3FF
    pa_kd = (pa_any >> kd) & 1
    pa_other = np.int64((pa_any & ~(np.int64(1) << kd)) != 0)
    op_kd = (op_kinds >> kd) & 1
    op_other = np.int64((op_kinds & ~(np.int64(1) << kd)) != 0)
    return (1.0, hf[0], hf[1], hf[2], hf[3], hf[4], hf[5], hf[6], hf[7], hf[8], hf[9],
            hf[10], hf[11], hf[12], hf[13], np.float64(leads), np.float64(pa_kd),
            np.float64(pa_kd * (pa_v - 80)) / 10.0, np.float64(pa_other * (1 - pa_kd)),
            np.float64(pa_spoke * (pa_any == 0)), np.float64(op_kd),
            np.float64(op_other), np.float64(max(op_top - 80, 0)) / 10.0,
            np.float64((my_kinds >> kd) & 1))


@njit(cache=True, inline="always")
def def_features(hand, summary, kd, value, pa_any, op_kinds):
    """The ``NFD`` features of a defence against kind ``kd`` bid at ``value``: a constant,
    the value (tens above 80), a capot bid, the first twelve :func:`hand_features` of the
    defender's hand in ``kd``, and whether the partner has bid."""
    return def_features_of(hand_features(hand, kd, summary), value, pa_any)


@njit(cache=True, inline="always")
def def_features_of(hf, value, pa_any):
    """:func:`def_features` from the hand's features ``hf`` in the contract's kind."""
    return (1.0, np.float64(max(value - 80, 0)) / 10.0, np.float64(value >= 250),
            hf[0], hf[1], hf[2], hf[3], hf[4], hf[5], hf[6], hf[7], hf[8], hf[9], hf[10],
            hf[11], np.float64(pa_any != 0))


@njit(cache=True, inline="always")
def _bucket(mu, params, row, base):
    """Bucket of score ``mu``: how many of the ``NB - 1`` (23) ascending edges at ``base``
    it reaches (``numpy.searchsorted(edges, mu, side="right")``, the fitting code's
    definition). A binary search without branches (five dependent steps instead of 23
    comparisons; a search with branches would make every step a coin flip for the branch
    predictor); the edges are ascending (:func:`.bid_tables.check_tables`)."""
    # Edges 0..15 or 16..22: the upper half when mu reaches edge 15.
    b = 16 * np.int64(mu >= params[row, base + 15])
    # Edges 0..7 or 8..15 (the upper half has only 7 edges left: no step of 8 there).
    b += 8 * np.int64((b == 0) & (mu >= params[row, base + 7]))
    # Then halves of 4, 2 and 1 edges (b + 3 <= 19, b + 1 <= 21, b <= 22: in range).
    b += 4 * np.int64(mu >= params[row, base + b + 3])
    b += 2 * np.int64(mu >= params[row, base + b + 1])
    b += np.int64(mu >= params[row, base + b])
    return b


@njit(cache=True, inline="always")
def own_score(params, row, b, f):
    """``sum(params[row, b + i] * f[i])`` over the ``NF`` own features, written out so
    that every ``f[i]`` is a constant index (a loop index into a tuple compiles to a
    switch); summed left to right, like the loop of the fitting code: the first ten terms
    (:func:`own_score_head`), then the rest (:func:`own_score_tail`)."""
    return own_score_tail(params, row, b, own_score_head(params, row, b, f), f)


@njit(cache=True, inline="always")
def own_score_head(params, row, b, f):
    """The first ``N_SUIT_PREFIX_FEATURES`` (10) terms of :func:`own_score`, left to right:
    in a suit they depend on the trump suit's cards alone (:func:`fill_suit_prefixes`)."""
    p = params
    return (p[row, b] * f[0] + p[row, b + 1] * f[1] + p[row, b + 2] * f[2]
            + p[row, b + 3] * f[3] + p[row, b + 4] * f[4] + p[row, b + 5] * f[5]
            + p[row, b + 6] * f[6] + p[row, b + 7] * f[7] + p[row, b + 8] * f[8]
            + p[row, b + 9] * f[9])


@njit(cache=True, inline="always")
def own_score_tail(params, row, b, acc, f):
    """:func:`own_score` from ``acc``, the sum of its first ten terms: the other fourteen
    added to it left to right (the same double as the whole sum)."""
    p = params
    return (acc + p[row, b + 10] * f[10] + p[row, b + 11] * f[11]
            + p[row, b + 12] * f[12] + p[row, b + 13] * f[13] + p[row, b + 14] * f[14]
            + p[row, b + 15] * f[15] + p[row, b + 16] * f[16] + p[row, b + 17] * f[17]
            + p[row, b + 18] * f[18] + p[row, b + 19] * f[19] + p[row, b + 20] * f[20]
            + p[row, b + 21] * f[21] + p[row, b + 22] * f[22] + p[row, b + 23] * f[23])


@njit(cache=True)
def fill_suit_prefixes(params, row):
    """Write the ``BT_SUIT_PREFIX`` block of parameter row ``row`` (``params``
    ``float64[n, PARAM_LEN]``, its suit tables already in place): for every pattern ``t``
    (0-255) of a trump suit's cards, :func:`own_score_head` of a suit contract whose trump
    suit holds ``t`` (the constant and the nine trump features; the outside and context
    features do not enter it)."""
    none = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    no_ctx = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0),
              np.int64(0))
    b = BT_CLASSES + OWN_W
    for t in range(N_SUIT_PATTERNS):
        # Suit 0 holds the pattern (bits 0-7); any suit gives the same trump features.
        f = own_features_of(_suit_features(np.int64(t), 0, none), 0, no_ctx, 0)
        params[row, BT_SUIT_PREFIX + t] = own_score_head(params, row, b, f)


@njit(cache=True, inline="always")
def suit_bucket(h, kd, summary, ctx, leads, params, row):
    """:func:`own_bucket` of suit ``kd`` (0-3), its score's first ten terms read from the
    ``BT_SUIT_PREFIX`` block (one load instead of the trump features and ten products;
    the same score, bit for bit)."""
    f = own_features_of(_suit_features(h, kd, summary), kd, ctx, leads)
    b = BT_CLASSES + OWN_W
    mu = own_score_tail(params, row, b, params[row, BT_SUIT_PREFIX + _suit(h, kd)], f)
    return _bucket(mu, params, row, BT_CLASSES + OWN_EDGES)


@njit(cache=True, inline="always")
def def_score(params, row, b, f):
    """:func:`own_score` over the ``NFD`` defence features."""
    p = params
    return (p[row, b] * f[0] + p[row, b + 1] * f[1] + p[row, b + 2] * f[2]
            + p[row, b + 3] * f[3] + p[row, b + 4] * f[4] + p[row, b + 5] * f[5]
            + p[row, b + 6] * f[6] + p[row, b + 7] * f[7] + p[row, b + 8] * f[8]
            + p[row, b + 9] * f[9] + p[row, b + 10] * f[10] + p[row, b + 11] * f[11]
            + p[row, b + 12] * f[12] + p[row, b + 13] * f[13] + p[row, b + 14] * f[14]
            + p[row, b + 15] * f[15])


@njit(cache=True, inline="always")
def own_bucket(hand, summary, kd, ctx, leads, params, row):
    """The own-score bucket of kind ``kd`` (``0 .. NB - 1``)."""
    return own_bucket_of(hand_features(hand, kd, summary), kd, ctx, leads, params, row)


@njit(cache=True, inline="always")
def own_bucket_of(hf, kd, ctx, leads, params, row):
    """:func:`own_bucket` from the hand's features ``hf`` in kind ``kd``."""
    base = BT_CLASSES + kind_class(kd) * CLASS_LEN
    mu = own_score(params, row, base + OWN_W, own_features_of(hf, kd, ctx, leads))
    return _bucket(mu, params, row, base + OWN_EDGES)


@njit(cache=True, inline="always")
def own_values_row(kd, bucket):
    """The table offset of the own-value row ``[NLEV, N_MULT]`` of kind ``kd`` in
    ``bucket`` (one entry for every level and multiplier)."""
    return BT_CLASSES + kind_class(kd) * CLASS_LEN + OWN_EV + bucket * NLEV * N_MULT


@njit(cache=True, inline="always")
def def_values_row(hand, summary, kd, value, ctx, params, row):
    """The table offset of the defence row ``[N_MULT]`` (the takers' expected marks
    difference at x1, x2, x4) of the opponents' contract ``kd`` bid at ``value``, from
    the defending seat's view."""
    return def_values_row_of(hand_features(hand, kd, summary), kd, value, ctx, params, row)


@njit(cache=True, inline="always")
def def_values_row_of(hf, kd, value, ctx, params, row):
    """:func:`def_values_row` from the hand's features ``hf`` in kind ``kd``."""
    base = BT_CLASSES + kind_class(kd) * CLASS_LEN
    mu = def_score(params, row, base + DEF_W, def_features_of(hf, value, ctx[1]))
    b = _bucket(mu, params, row, base + DEF_EDGES)
    return base + DEF_EV + b * N_MULT


@njit(cache=True, inline="always")
def _bid_kind(kd, b, lowest, margin, state, params, row, nv):
    """Weigh the bids in kind ``kd`` (own bucket ``b``) from ladder level ``lowest`` up
    against ``state`` =
    ``(best, best_lv, tied, best_a)``: the best value so far, the level of the best bid
    (``-1`` none), the kinds (bit ``kd``) whose bid at that level is as good, and the
    best action so far (``-1``: a bid). Returns the updated state."""
    best, best_lv, tied, best_a = state
    off = own_values_row(kd, b)
    # The kind's best level below capot (the lowest of equal ones), read from the block
    # derived from the tables (BT_BEST) instead of a walk up the ladder.
    k_lv = np.int64(params[row, BT_BEST + (kind_class(kd) * NB + b) * NLEV + lowest])
    k_best = params[row, off + k_lv * N_MULT] - margin if k_lv >= 0 else -np.inf
    if k_best > best:
        best = k_best
        best_lv = k_lv
        tied = np.int64(1) << kd
        best_a = np.int64(-1)
    elif k_best == best and best_a == -1 and best_lv < nv and \
            params[row, off + best_lv * N_MULT] - margin == best:
        # ... or as good as the best kind so far at its level: a tie.
        tied |= np.int64(1) << kd
    # Capot: all eight tricks.
    ev = params[row, off + nv * N_MULT] - margin - params[row, FB_CAPOT_MARGIN]
    if ev > best:
        best = ev
        best_lv = np.int64(nv)
        tied = np.int64(1) << kd
        best_a = np.int64(-1)
    elif ev == best and best_a == -1 and best_lv == nv:
        tied |= np.int64(1) << kd
    return best, best_lv, tied, best_a


# The two functions below are what both bidders (this one and the score-aware bidder of
# :mod:`.score_bid`) compute from the hand. numba types, inlines and lowers each once (most
# of a bidder's compile time), then LLVM inlines the result into each caller
# (``forceinline``: no call at run time; as a plain call they cost about 5 % of the
# heuristic donnes' speed). As ``inline="always"`` helpers numba compiled them again
# inside each bidder (benchmarks/README.md, "Compile time, eleventh cut").


@njit(cache=True, forceinline=True)
def contract_features(hand, kd, summary):
    """:func:`hand_features` of ``hand`` (``uint32``) in kind ``kd`` (the standing
    contract's), compiled once for every bidder (one copy of the three kinds' features)."""
    return hand_features(hand, kd, summary)


@njit(cache=True, forceinline=True)
def kind_buckets(hand, summary, ctx, leads, params, row, prof):
    """The own-score bucket (:func:`own_bucket`) of every kind for ``hand`` (``uint32``):
    ``(b0, ..., b5)`` as ``int64``, ``-1`` for sans-atout or tout-atout where the profile
    ``prof`` does not allow it. Written out kind by kind: branch-free, independent chains
    of additions that the processor overlaps (a loop over the suits compiles one copy
    instead of four, but ran the heuristic donnes about 10 % slower: benchmarks/README.md,
    "Compile time, fourth cut")."""
    h = np.int64(hand)
    b0 = suit_bucket(h, 0, summary, ctx, leads, params, row)
    b1 = suit_bucket(h, 1, summary, ctx, leads, params, row)
    b2 = suit_bucket(h, 2, summary, ctx, leads, params, row)
    b3 = suit_bucket(h, 3, summary, ctx, leads, params, row)
    b4 = np.int64(-1)
    b5 = np.int64(-1)
    if prof[P_ALLOW_SA] != 0:
        b4 = own_bucket_of(_sans_atout_features(h, summary), 4, ctx, leads, params, row)
    if prof[P_ALLOW_TA] != 0:
        b5 = own_bucket_of(_tout_atout_features(h, summary), 5, ctx, leads, params, row)
    return b0, b1, b2, b3, b4, b5


@njit(cache=True)
def fitted_action(hand, astate, actions, n_actions, params, row, prof, st):
    """Auction decision of the data-fitted bidder (``uint8`` action code, always legal).

    Parameters
    ----------
    hand : uint32
        The cards the seat holds at the auction.
    astate : int32[AUCTION_STATE_LEN]
        Public auction state.
    actions : uint8[MAX_ACTIONS]
        The actions so far (``n_actions`` of them).
    params : float64[2, PARAM_LEN]
        Parameter rows; row ``row`` carries the ``FB_*`` margins and, from
        ``BT_OFFSET``, the tables of the profile (layout in the module docstring).
    prof : int32[PROFILE_LEN]
        Packed profile.
    st : uint64[4]
        The players' RNG state: drawn from only to break exact ties between kinds.
    """
    if astate[A_STATUS] != 0:
        return ACT_PASS
    if params[row, BT_KEY] != table_key(prof):
        # Tables fitted for another profile (or none): refuse to bid from them. The call
        # returned is illegal, so the run fails with the fault counted, never silently.
        return illegal_action(astate)
    seat = astate[A_TO_SPEAK]
    level = astate[A_LEVEL]
    bidder = astate[A_BIDDER]
    mult = astate[A_COINCHE]
    cur_kd = astate[A_KIND]
    nv = prof[P_N_BID_VALUES]
    leads = np.int64(n_actions % 4 == 0)  # seat dealer + 1 speaks first and leads
    ctx = auction_context(actions, n_actions, seat, prof)
    summary = suit_summary(hand)
    ours = bidder >= 0 and (bidder & 1) == (seat & 1)
    theirs = bidder >= 0 and not ours

    # --- the value of passing, and of coinche / surcoinche -----------------------------
    best_a = ACT_PASS
    def_off = np.int64(0)  # the defence row, when the opponents hold the contract
    own_b = np.int64(0)  # our contract's bucket, when we hold it
    if bidder < 0:
        # Nobody has bid: if all pass the donne is dealt again.
        ev_pass = params[row, FB_PASS_EV]
        margin = params[row, FB_BID_MARGIN]
    else:
        # The hand's features in the contract's kind, computed once for either side (one
        # copy of the three kinds' features in the compiled code, not one per side).
        hf = contract_features(hand, cur_kd, summary)
        if ours:
            # Our contract stands as it is (read from this seat's view).
            own_b = own_bucket_of(hf, cur_kd, ctx, leads, params, row)
            ev_pass = params[row, own_values_row(cur_kd, own_b) + level * N_MULT
                             + mult_index(mult)]
            margin = params[row, FB_RAISE_MARGIN]
        else:
            # The opponents' contract: minus what they expect.
            def_off = def_values_row_of(hf, cur_kd, _value_of_level(level, prof), ctx,
                                        params, row)
            ev_pass = -params[row, def_off + mult_index(mult)]
            margin = params[row, FB_COMPETE_MARGIN]
    best = ev_pass
    if theirs and mult == 1 and auction_check(astate, ACT_COINCHE, prof) == 0:
        # "Coinche": their contract at x2, against defending it at x1.
        ev = -params[row, def_off + mult_index(2)] - params[row, FB_COINCHE_MARGIN]
        if ev > best:
            best = ev
            best_a = ACT_COINCHE
    if ours and mult == 2 and prof[P_ALLOW_SURCOINCHE] != 0 and \
            auction_check(astate, ACT_SURCOINCHE, prof) == 0:
        # "Surcoinche": our coinched contract at x4 (the bucket of the contract standing).
        ev = params[row, own_values_row(cur_kd, own_b) + level * N_MULT + mult_index(4)] \
            - params[row, FB_SURCOINCHE_MARGIN]
        if ev > best:
            best = ev
            best_a = ACT_SURCOINCHE

    # --- bids: every kind the profile allows, every level above the current one --------
    lowest = level + 1
    if lowest <= nv and auction_check(astate, ACT_BID_BASE + lowest * N_KINDS,
                                      prof) == 0:
        # Every kind's bucket first (kind_buckets), then the comparisons.
        b0, b1, b2, b3, b4, b5 = kind_buckets(hand, summary, ctx, leads, params, row, prof)
        state = (best, np.int64(-1), np.int64(0), np.int64(best_a))
        state = _bid_kind(0, b0, lowest, margin, state, params, row, nv)
        state = _bid_kind(1, b1, lowest, margin, state, params, row, nv)
        state = _bid_kind(2, b2, lowest, margin, state, params, row, nv)
        state = _bid_kind(3, b3, lowest, margin, state, params, row, nv)
        if b4 >= 0:
            state = _bid_kind(4, b4, lowest, margin, state, params, row, nv)
        if b5 >= 0:
            state = _bid_kind(5, b5, lowest, margin, state, params, row, nv)
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
