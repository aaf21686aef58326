"""The heuristic player: club conventions for the auction, public-information card play.

Auction (conventions of sources 002 and 003)
--------------------------------------------
Each suit is evaluated as trump into an estimate of the team's points (:func:`open_eval`):
the J, 9, A, 10 and small cards of trump, trump length, belote, outside aces and guarded
tens, voids and singletons, plus the partner's assumed share (``base``).

- Open only with the J or the 9 of trump ("n'annoncer quelque chose que quand on a le
  valet ou le 9 d'atout"; "ne rien annoncer si on a le 9 sec"), never above
  ``open_cap`` ("il ne sert à rien d'annoncer trop haut au début"), an odd value
  (90, 110) with both majors, an even one (80, 100) with one.
- Raise the partner's suit for outside aces, the other major and ruffs that can be
  used ("remontez pour vos as et coupes"; "ne pas remonter pour une coupe si on n'a
  pas d'atout"); belote adds to a raise but never makes one on its own ("ne pas
  remonter de 20 points sur un 80 pour la belote").
- Bid capot when the estimate reaches ``capot_est`` (all the tricks).
- No favourite suit: when several contract kinds share the best estimate, the player
  picks one uniformly from its own random stream (``symmetric_ties`` 0 restores the old
  first-in-order choice, for paired comparisons).
- Coinche when the defending hand says the contract fails; surcoinche when the takers'
  estimate exceeds the contract by ``surcoinche_margin``.
- Tout-atout / sans-atout, where the profile has them (:func:`nt_open_eval`): "80 pour
  2 majeurs (valet ou as), 90 pour 3 et 100 lorsque l'on possède les 4" — majors are the
  jacks at TA, the aces at SA; a 9 behind its jack (TA) or a ten behind its ace (SA) and,
  at SA, long suits under their ace add; bare majors do not open (``nt_base``). The value
  is scaled by the kind's card total against 162 (strict TA 258, SA 130), so strict's
  SA — dominated by its TA on the same ladder — is practically never bid. Raises: "les
  valets ou as que l'on possède ... puis ses 9 ou ses 10 seconds"
  (:func:`nt_support_eval`).
- Every profile's ladder is read from the packed profile; suit openings use the
  odd/even convention only on ladders of tens; an estimate worth opening below the
  first value opens at it (stephanoise 82). Stephanoise bids on its 6 auction cards,
  each card still to come valued ``unseen_card``. A coinched bidder only passes or
  surcoinches; in stephanoise his partner may décoincher with a better contract.
  Every action is checked with ``auction_check`` before it is returned.

Play (uses only the player's hand and the public ``info``; see :mod:`.players`)
-------------------------------------------------------------------------------
Leads: the taker draws trumps while the opponents may hold some (master trump first,
else a small one); cash master cards; lead a suit the partner can ruff; return the
partner's suit; avoid leading away from an unguarded ten (into a tenace) and into an
opponent's known ruff. Follows: put points on a partner who is sure to win; win as
cheaply as possible when the trick can be held; otherwise discard the cheapest card,
keeping trumps, masters and the guard of a ten; ruff and overtrump with the lowest
trump that wins.

Card play reads the contract's kind and taker, the cards and the public information,
never the bid level or the coinche (``simcoinche odds`` relies on this to read every
level off one play). All thresholds are entries of the ``float64`` parameter row
(:data:`PARAMS`); kernels take the ``[2, PARAM_LEN]`` array and the row to read.
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
from simcoinche._kernels.layout import (
    P_ALLOW_DECOINCHE,
    P_ALLOW_SA,
    P_ALLOW_TA,
    P_BID_VALUES,
    P_N_BID_VALUES,
)
from simcoinche._kernels.play import (
    PLAIN_HIGHER,
    TRUMP_HIGHER,
    card_points,
    points_total,
    trick_winner,
)
from simcoinche._kernels.players import (
    ACT_BID_BASE,
    ACT_COINCHE,
    ACT_PASS,
    ACT_SURCOINCHE,
    I_KIND,
    I_LED,
    I_PLAYED,
    I_SEAT,
    I_SHOWN,
    I_TAKER,
    I_VOID,
    N_KINDS,
)
from simcoinche._kernels.rng import lowest_bit, popcount32, random_bit
from simcoinche._kernels.scoring import bid_value
from simcoinche._kernels.tables import PLAIN_STRENGTH, TRUMP_STRENGTH

# --- parameters: (name, offset, default, meaning) ----------------------------------------
PARAMS = (
    ("base", 0, 20.0, "partner's assumed share of the team's points when evaluating a hand"),
    ("v_jack", 1, 30.0, "evaluation of the jack of trump"),
    ("v_nine", 2, 20.0, "evaluation of the 9 of trump with at least one other trump"),
    ("v_nine_sec", 3, 5.0, "evaluation of a bare 9 of trump"),
    ("v_trump_ace", 4, 12.0, "evaluation of the ace of trump"),
    ("v_trump_ten", 5, 8.0, "evaluation of the ten of trump"),
    ("v_small_trump", 6, 5.0, "evaluation of each other trump"),
    ("v_long_trump", 7, 10.0, "extra evaluation for each trump beyond the fourth"),
    ("v_belote", 8, 20.0, "evaluation of the belote (K+Q of trump)"),
    ("v_ace", 9, 15.0, "evaluation of an outside ace"),
    ("v_ten_ace", 10, 10.0, "evaluation of an outside ten with its ace"),
    ("v_ten_guarded", 11, 4.0, "evaluation of an outside ten with two guards, no ace"),
    ("v_void", 12, 10.0, "evaluation of a void (with at least three trumps)"),
    ("v_singleton", 13, 5.0, "evaluation of a singleton (with at least three trumps)"),
    ("open_min", 14, 80.0, "lowest estimate that opens the bidding"),
    ("open_cap", 15, 100.0, "highest opening bid (an odd opening may be 10 more)"),
    ("raise_ace", 16, 5.0, "raise of the partner's suit per outside ace"),
    ("raise_major", 17, 10.0, "raise of the partner's suit for its J or 9"),
    ("raise_ruff", 18, 10.0, "raise per usable void or singleton (never without trumps)"),
    ("raise_belote", 19, 10.0, "raise for the belote, only on top of another raise"),
    ("compete_margin", 20, 0.0, "outbid the opponents only with estimate >= bid + margin"),
    ("capot_est", 21, 185.0, "estimate from which the team bids capot"),
    ("def_base", 22, 0.0, "partner's assumed share of the defence's points"),
    ("coinche_margin", 23, 10.0, "coinche when defence estimate >= 162 - value + margin"),
    ("surcoinche_margin", 24, 30.0, "surcoinche when team estimate >= value + margin"),
    ("contest_points", 25, 10.0,
     "contest a trick with a card that may be beaten only if it holds this many points"),
    ("def_ace", 26, 5.0, "defence: evaluation of an outside ace (it may be ruffed)"),
    ("def_trump_honour", 27, 25.0, "defence: evaluation of the J, or of a guarded 9, of trump"),
    ("def_long_trump", 28, 25.0, "defence: evaluation of each trump beyond the second"),
    ("nt_base", 29, 55.0,
     "TA/SA: value with no major; each major adds nt_major (2 majors + a second master: 85)"),
    ("nt_major", 30, 10.0, "TA/SA: value of each major (a jack at TA, an ace at SA)"),
    ("nt_second", 31, 10.0,
     "TA/SA: a 9 with its jack (TA), a ten with its ace (SA): a second master"),
    ("sa_long", 32, 10.0, "SA: each card beyond the third of a suit headed by its ace"),
    ("nt_raise_major", 33, 10.0, "raise of the partner's TA/SA per jack (TA) or ace (SA)"),
    ("nt_raise_second", 34, 5.0,
     "raise of the partner's TA/SA per guarded 9 (TA) or guarded ten (SA)"),
    ("def_nt_major", 35, 25.0, "defence against TA/SA: each jack (TA) or ace (SA)"),
    ("def_nt_second", 36, 15.0,
     "defence against TA/SA: a guarded 9 (TA) or a guarded ten (SA)"),
    ("unseen_card", 37, 6.0,
     "evaluation of each card not yet held at the auction (stephanoise bids on 6)"),
    ("sa_margin", 38, 10.0,
     "SA: taken off the estimate (no trump to stop the opponents' long suits)"),
    ("symmetric_ties", 39, 1.0,
     "1: contract kinds of equal estimate are chosen among at random (no favourite "
     "suit); 0: the first in the order S H D C SA TA (the heuristic before 2026-11)"),
)
HP_BASE = 0
HP_V_JACK = 1
HP_V_NINE = 2
HP_V_NINE_SEC = 3
HP_V_TRUMP_ACE = 4
HP_V_TRUMP_TEN = 5
HP_V_SMALL_TRUMP = 6
HP_V_LONG_TRUMP = 7
HP_V_BELOTE = 8
HP_V_ACE = 9
HP_V_TEN_ACE = 10
HP_V_TEN_GUARDED = 11
HP_V_VOID = 12
HP_V_SINGLETON = 13
HP_OPEN_MIN = 14
HP_OPEN_CAP = 15
HP_RAISE_ACE = 16
HP_RAISE_MAJOR = 17
HP_RAISE_RUFF = 18
HP_RAISE_BELOTE = 19
HP_COMPETE_MARGIN = 20
HP_CAPOT_EST = 21
HP_DEF_BASE = 22
HP_COINCHE_MARGIN = 23
HP_SURCOINCHE_MARGIN = 24
HP_CONTEST_POINTS = 25
HP_DEF_ACE = 26
HP_DEF_TRUMP_HONOUR = 27
HP_DEF_LONG_TRUMP = 28
HP_NT_BASE = 29
HP_NT_MAJOR = 30
HP_NT_SECOND = 31
HP_SA_LONG = 32
HP_NT_RAISE_MAJOR = 33
HP_NT_RAISE_SECOND = 34
HP_DEF_NT_MAJOR = 35
HP_DEF_NT_SECOND = 36
HP_UNSEEN_CARD = 37
HP_SA_MARGIN = 38
HP_SYMMETRIC_TIES = 39
N_PARAMS = 40

# scoring.bid_value compiled again from its own source with numba-level inlining (the
# auction evaluates it for every bid it reads; same code, no cache of its own).
_bid_value_inline = njit(inline="always")(bid_value.py_func)

# Rank indices (7 8 9 T J Q K A).
R_NINE = 2
R_TEN = 3
R_JACK = 4
R_QUEEN = 5
R_KING = 6
R_ACE = 7

_TRUMP_STR = TRUMP_STRENGTH.astype(np.int64)
_PLAIN_STR = PLAIN_STRENGTH.astype(np.int64)

# play.card_points compiled again from its own source with numba-level inlining (card
# play evaluates it for every candidate card; same code, no cache of its own).
_card_points = njit(inline="always")(card_points.py_func)


def _top_rank_tables() -> np.ndarray:
    """``TOP_RANK[order, byte]``: the rank of the strongest card among the ranks set in
    ``byte`` (order 0 plain A T K Q J 9 8 7, order 1 trump J 9 A T K Q 8 7); -1 for 0."""
    out = np.full((2, 256), -1, dtype=np.int64)
    for order, strength in enumerate((PLAIN_STRENGTH, TRUMP_STRENGTH)):
        for byte in range(1, 256):
            ranks = [r for r in range(8) if (byte >> r) & 1]
            out[order, byte] = max(ranks, key=lambda r: strength[r])
    return out


TOP_RANK = _top_rank_tables()


# =========================================================================================
# Auction
# =========================================================================================
@njit(cache=True, inline="always")
def _suit(h, s):
    """The 8-bit rank mask of suit ``s`` in hand ``h``."""
    return (np.int64(h) >> (8 * s)) & 0xFF


@njit(cache=True, inline="always")
def open_eval(hand, k, params, row):
    """Estimate of the team's points with suit ``k`` as trump, from ``hand`` alone.

    Returns the estimate (``float64``) including the partner's assumed share ``base``.
    """
    t = _suit(hand, k)
    nt = popcount32(t)
    e = params[row, HP_BASE]
    if (t >> R_JACK) & 1:
        e += params[row, HP_V_JACK]
    if (t >> R_NINE) & 1:
        e += params[row, HP_V_NINE] if nt >= 2 else params[row, HP_V_NINE_SEC]
    if (t >> R_ACE) & 1:
        e += params[row, HP_V_TRUMP_ACE]
    if (t >> R_TEN) & 1:
        e += params[row, HP_V_TRUMP_TEN]
    honours = ((t >> R_JACK) & 1) + ((t >> R_NINE) & 1) + ((t >> R_ACE) & 1) + ((t >> R_TEN) & 1)
    e += params[row, HP_V_SMALL_TRUMP] * (nt - honours)
    if nt > 4:
        e += params[row, HP_V_LONG_TRUMP] * (nt - 4)
    if (t >> R_KING) & 1 and (t >> R_QUEEN) & 1:
        e += params[row, HP_V_BELOTE]
    for s in range(4):
        if s == k:
            continue
        m = _suit(hand, s)
        n = popcount32(m)
        if (m >> R_ACE) & 1:
            e += params[row, HP_V_ACE]
            if (m >> R_TEN) & 1:
                e += params[row, HP_V_TEN_ACE]
        elif (m >> R_TEN) & 1 and n >= 3:
            e += params[row, HP_V_TEN_GUARDED]
        if nt >= 3:
            if n == 0:
                e += params[row, HP_V_VOID]
            elif n == 1:
                e += params[row, HP_V_SINGLETON]
    return e


@njit(cache=True, inline="always")
def support_eval(hand, k, params, row):
    """Raise owed to a partner who bid suit ``k``: aces, the other major, ruffs, belote."""
    t = _suit(hand, k)
    nt = popcount32(t)
    r = 0.0
    for s in range(4):
        if s == k:
            continue
        m = _suit(hand, s)
        n = popcount32(m)
        if (m >> R_ACE) & 1:
            # "remontez pour vos as".
            r += params[row, HP_RAISE_ACE]
        # "... et coupes si elles sont exploitables"; "ne pas remonter pour une coupe si
        # on n'a pas d'atout".
        if (n == 0 and nt >= 1) or (n == 1 and nt >= 2):
            r += params[row, HP_RAISE_RUFF]
    if (t >> R_JACK) & 1 or ((t >> R_NINE) & 1 and nt >= 2):
        # The partner's missing major (a bare 9 does not count: "ne pas remonter pour un 9
        # sec").
        r += params[row, HP_RAISE_MAJOR]
    if r > 0.0 and (t >> R_KING) & 1 and (t >> R_QUEEN) & 1:
        # Belote adds to a raise, never makes one alone ("ne pas remonter de 20 points sur
        # un 80 pour la belote").
        r += params[row, HP_RAISE_BELOTE]
    return r


@njit(cache=True)
def defence_eval(hand, k, params, row):
    """Estimate of the defence's points against trump ``k``, from ``hand`` and ``def_base``."""
    t = _suit(hand, k)
    nt = popcount32(t)
    d = params[row, HP_DEF_BASE]
    if (t >> R_JACK) & 1:
        d += params[row, HP_DEF_TRUMP_HONOUR]
    if (t >> R_NINE) & 1 and nt >= 2:
        d += params[row, HP_DEF_TRUMP_HONOUR]
    if nt >= 3:
        # Length in trumps shortens the takers' trumps and protects the honours.
        d += params[row, HP_DEF_LONG_TRUMP] * (nt - 2)
    for s in range(4):
        if s == k:
            continue
        m = _suit(hand, s)
        if (m >> R_ACE) & 1:
            d += params[row, HP_DEF_ACE]
            if (m >> R_TEN) & 1:
                d += params[row, HP_DEF_ACE]
    return d


@njit(cache=True, inline="always")
def kind_total(kd, prof):
    """Card points of a donne at contract kind ``kd`` with the last trick
    (:func:`.play.points_total`), as a float for the heuristic's estimates."""
    return np.float64(points_total(kd, prof))


@njit(cache=True, inline="always")
def _nt_ranks(kd):
    """(major rank, second-master rank) at TA (J, 9) or SA (A, T)."""
    if kd == 5:
        return R_JACK, R_NINE
    return R_ACE, R_TEN


@njit(cache=True)
def nt_open_eval(hand, kd, params, row, prof):
    """Opening value of a tout-atout (``kd`` 5) or sans-atout (4) contract, or -1.

    Source 002: "A tout at'/sans at', la convention veut qu'on annonce 80 pour 2 majeurs
    (valet ou as), 90 pour 3 et 100 lorsque l'on possède les 4 ... en fonction des autres
    cartes maîtres que l'on possède, il est possible de monter plus haut." The majors are
    the jacks at TA, the aces at SA; a 9 behind its jack (TA) or a ten behind its ace
    (SA) is a second master; at SA long suits headed by their ace add. The value is
    scaled by the kind's card total against 162 (strict TA 258, SA 130). Fewer than two
    majors: -1 (no opening).
    """
    h = np.int64(hand)
    major, second = _nt_ranks(kd)
    n_major = 0
    e = params[row, HP_NT_BASE]
    for s in range(4):
        m = _suit(h, s)
        if (m >> major) & 1:
            n_major += 1
            e += params[row, HP_NT_MAJOR]
            if (m >> second) & 1:
                e += params[row, HP_NT_SECOND]
            n = popcount32(m)
            if kd == 4 and n > 3:
                # SA: a long suit under its ace runs once the ace and ten fall.
                e += params[row, HP_SA_LONG] * (n - 3)
    if n_major < 2:
        return -1.0
    if kd == 4:
        # No trump to stop a long suit of the opponents once they get the lead.
        e -= params[row, HP_SA_MARGIN]
    return e * kind_total(kd, prof) / 162.0


@njit(cache=True)
def nt_support_eval(hand, kd, params, row):
    """Raise owed to a partner who bid TA (``kd`` 5) or SA (4).

    Source 002: "on peut remonter sur son partenaire d'abord pour lui indiquer les valets
    ou as que l'on possède. Une fois ces majeurs annoncés, ... remonter encore pour ses 9
    ou ses 10 seconds. Ne pas remonter pour ses 9 à sans at ni pour ses 10 à tout at."
    """
    h = np.int64(hand)
    major, second = _nt_ranks(kd)
    r = 0.0
    for s in range(4):
        m = _suit(h, s)
        if (m >> major) & 1:
            r += params[row, HP_NT_RAISE_MAJOR]
        elif (m >> second) & 1 and popcount32(m) >= 2:
            # A guarded 9 at TA, a guarded ten at SA (never a 9 at SA, a ten at TA).
            r += params[row, HP_NT_RAISE_SECOND]
    return r


@njit(cache=True)
def nt_defence_eval(hand, kd, params, row):
    """Defence estimate against a TA (``kd`` 5) or SA (4) contract: its majors and
    guarded second masters, plus ``def_base``."""
    h = np.int64(hand)
    major, second = _nt_ranks(kd)
    d = params[row, HP_DEF_BASE]
    for s in range(4):
        m = _suit(h, s)
        if (m >> major) & 1:
            d += params[row, HP_DEF_NT_MAJOR]
        elif (m >> second) & 1 and popcount32(m) >= 2:
            d += params[row, HP_DEF_NT_SECOND]
    return d


@njit(cache=True, inline="always")
def _value_of_level(level, prof):
    """Contract value of a ladder level (:func:`.scoring.bid_value`, inlined)."""
    return _bid_value_inline(level, prof)


@njit(cache=True, inline="always")
def _level_for_value(v, prof):
    """Highest numeric ladder level whose value is <= ``v`` (-1 if none)."""
    best = -1
    nv = prof[P_N_BID_VALUES]
    for lv in range(nv):
        if prof[P_BID_VALUES + lv] <= v:
            best = lv
    return best


@njit(cache=True, inline="always")
def _bids_by_kind(actions, n_actions, first_seat, seat, prof):
    """One pass over the auction: the bids of ``seat`` and of its partner in every kind.

    Returns four ``int64`` with one field per contract kind ``kd`` (0..5):
    ``(my_last, partner_last)`` the last values bid in the kind (0 if none), 10 bits at
    ``10 * kd``; ``(my_first, partner_first)`` the positions of the first such bids in the
    auction (255 if none), 8 bits at ``8 * kd``.
    """
    my_last = np.int64(0)
    pa_last = np.int64(0)
    my_first = np.int64(0xFFFFFFFFFFFF)
    pa_first = np.int64(0xFFFFFFFFFFFF)
    for j in range(n_actions):
        a = np.int64(actions[j])
        if a < ACT_BID_BASE:
            continue
        who = (first_seat + j) & 3
        if who != seat and who != (seat ^ 2):
            continue
        kd = (a - ACT_BID_BASE) % N_KINDS
        v = np.int64(_value_of_level((a - ACT_BID_BASE) // N_KINDS, prof))
        vs = 10 * kd
        fs = 8 * kd
        if who == seat:
            my_last = (my_last & ~(np.int64(0x3FF) << vs)) | (v << vs)
            if (my_first >> fs) & 0xFF == 0xFF:
                my_first = (my_first & ~(np.int64(0xFF) << fs)) | (np.int64(j) << fs)
        else:
            pa_last = (pa_last & ~(np.int64(0x3FF) << vs)) | (v << vs)
            if (pa_first >> fs) & 0xFF == 0xFF:
                pa_first = (pa_first & ~(np.int64(0xFF) << fs)) | (np.int64(j) << fs)
    return my_last, pa_last, my_first, pa_first


@njit(cache=True, inline="always")
def _cannot_open(hand, kd, bids):
    """True when :func:`_team_estimate` would return ``-1`` without evaluating: the
    partner has not bid kind ``kd`` and the hand may not open it (a suit without its J
    or a guarded 9; TA/SA with fewer than two majors). Checked in the auction loop
    before the call, which most kinds of most hands never need."""
    if (bids[1] >> (10 * kd)) & 0x3FF != 0:
        return False
    h = np.int64(hand)
    if kd < 4:
        t = _suit(h, kd)
        return not ((t >> R_JACK) & 1 or ((t >> R_NINE) & 1 and popcount32(t) >= 2))
    major = R_JACK if kd == 5 else R_ACE
    n_major = 0
    for s in range(4):
        n_major += (_suit(h, s) >> major) & 1
    return n_major < 2


@njit(cache=True)
def _team_estimate(hand, kd, bids, params, row, prof):
    """The team's estimated points with suit ``kd`` as trump, from this seat's view.

    Combines the own hand with what the partner's bids showed. Returns
    ``(estimate, fresh)``; ``fresh`` when neither partner has bid the suit yet;
    estimate ``-1`` when the suit may not be opened (no J, no guarded 9).
    """
    # This kind's fields of :func:`_bids_by_kind` (``bids`` is its 4-tuple).
    my_l = (bids[0] >> (10 * kd)) & 0x3FF
    pa_l = (bids[1] >> (10 * kd)) & 0x3FF
    my_f = (bids[2] >> (8 * kd)) & 0xFF
    pa_f = (bids[3] >> (8 * kd)) & 0xFF
    # Cards still to come (stephanoise: the auction is held on 6 cards of 8).
    unseen = params[row, HP_UNSEEN_CARD] * (8 - popcount32(hand))
    if kd >= 4:
        # Tout-atout / sans-atout: majors are the jacks / the aces (source 002).
        if pa_l > 0:
            if my_l == 0:
                return pa_l + nt_support_eval(hand, kd, params, row), False
            if my_f < pa_f:
                return pa_l + max(0.0, nt_open_eval(hand, kd, params, row, prof) + unseen
                                  - my_l), False
            return np.float64(pa_l), False
        e = nt_open_eval(hand, kd, params, row, prof)
        if e < 0.0:
            return -1.0, my_l == 0
        return e + unseen, my_l == 0
    t = _suit(hand, kd)
    nt = popcount32(t)
    if pa_l > 0:
        if my_l == 0:
            # Partner bid this suit: raise for aces, the other major and ruffs.
            return pa_l + support_eval(hand, kd, params, row), False
        if my_f < pa_f:
            # I opened it, partner raised: add what my capped opening did not show.
            return pa_l + max(0.0, open_eval(hand, kd, params, row) + unseen - my_l), False
        # I already raised the partner: nothing more to show.
        return np.float64(pa_l), False
    if not ((t >> R_JACK) & 1 or ((t >> R_NINE) & 1 and nt >= 2)):
        # "n'annoncer quelque chose que quand on a le valet ou le 9 d'atout"; "ne rien
        # annoncer si on a le 9 sec".
        return -1.0, my_l == 0
    return open_eval(hand, kd, params, row) + unseen, my_l == 0


@njit(cache=True)
def heuristic_action(hand, astate, actions, n_actions, params, row, prof, st):
    """Auction decision of the heuristic player (``uint8`` action code, always legal).

    Parameters
    ----------
    hand : uint32
        The player's cards.
    astate : int32[AUCTION_STATE_LEN]
        Public auction state.
    actions : uint8[MAX_ACTIONS]
        The actions so far (``n_actions`` of them); action ``j`` was made by seat
        ``(to_speak - n_actions + j) & 3``.
    params : float64[PARAM_LEN]
        Parameter row (:data:`PARAMS`).
    prof : int32[PROFILE_LEN]
        Packed profile.
    st : uint64[4]
        RNG state of the players' stream: drawn from only to choose among contract kinds
        of equal estimate (``symmetric_ties``).
    """
    if astate[A_STATUS] != 0:
        return ACT_PASS
    seat = astate[A_TO_SPEAK]
    level = astate[A_LEVEL]
    bidder = astate[A_BIDDER]
    first_seat = (seat - n_actions) & 3
    if bidder >= 0 and (bidder & 1) != (seat & 1):
        # Opponents hold the contract: coinche when the defending hand says it fails.
        if astate[A_COINCHE] == 1 and auction_check(astate, ACT_COINCHE, prof) == 0:
            v = _value_of_level(level, prof)
            kd = astate[A_KIND]
            if kd < 4:
                d = defence_eval(hand, kd, params, row)
                if d >= 162.0 - v + params[row, HP_COINCHE_MARGIN]:
                    return ACT_COINCHE
            else:
                # TA/SA: the defence's jacks or aces against the kind's card total.
                d = nt_defence_eval(hand, kd, params, row)
                if d >= kind_total(kd, prof) - v + params[row, HP_COINCHE_MARGIN]:
                    return ACT_COINCHE
    if bidder >= 0 and astate[A_COINCHE] == 2:
        # Our contract is coinched: surcoinche when the takers' hands say it makes.
        if auction_check(astate, ACT_SURCOINCHE, prof) == 0:
            # int64 like the bidding loop's kinds: one compiled _team_estimate, not two.
            kd = np.int64(astate[A_KIND])
            v = _value_of_level(level, prof)
            bids = _bids_by_kind(actions, n_actions, first_seat, seat, prof)
            e, _ = _team_estimate(hand, kd, bids, params, row, prof)
            if e >= v + params[row, HP_SURCOINCHE_MARGIN]:
                return ACT_SURCOINCHE
        if not (prof[P_ALLOW_DECOINCHE] != 0 and seat == (bidder ^ 2)):
            return ACT_PASS
        # stephanoise: the coinched bidder's partner may "décoincher" by bidding higher
        # (a new contract); the bidding below decides whether the hand is worth it.

    # Team estimate for each contract kind the profile allows (suits, then SA, TA).
    best_e = -1.0
    best_k = -1
    best_fresh = True
    tied = np.int64(0)    # kinds (bit kd) whose estimate equals best_e
    fresh_k = np.int64(0)  # kinds (bit kd) neither partner has bid yet
    n_kinds = 4 + prof[P_ALLOW_SA] + prof[P_ALLOW_TA]
    bids = _bids_by_kind(actions, n_actions, first_seat, seat, prof)
    for j in range(n_kinds):
        kd = j
        if j == 4 and prof[P_ALLOW_SA] == 0:
            kd = 5
        if _cannot_open(hand, kd, bids):
            # What _team_estimate returns for a kind this hand may not open.
            e = -1.0
            fresh = (bids[0] >> (10 * kd)) & 0x3FF == 0
        else:
            e, fresh = _team_estimate(hand, kd, bids, params, row, prof)
        if fresh:
            fresh_k |= np.int64(1) << kd
        if e > best_e:
            best_e = e
            best_k = kd
            best_fresh = fresh
            tied = np.int64(1) << kd
        elif e == best_e:
            tied |= np.int64(1) << kd
    if best_k < 0:
        return ACT_PASS
    if popcount32(tied) > 1 and \
            best_e >= min(params[row, HP_OPEN_MIN], params[row, HP_CAPOT_EST]) and \
            params[row, HP_SYMMETRIC_TIES] != 0.0:
        # Kinds of equal estimate: one of them uniformly (the player's own stream), so
        # that no suit is favoured (drawn only when the choice can matter: a bid).
        best_k = random_bit(st, np.uint32(tied))
        best_fresh = ((fresh_k >> best_k) & 1) != 0
    nv = prof[P_N_BID_VALUES]
    if best_e >= params[row, HP_CAPOT_EST]:
        # The estimate says all the tricks: capot.
        a = ACT_BID_BASE + nv * N_KINDS + best_k
        if auction_check(astate, a, prof) == 0:
            return a
        return ACT_PASS
    if best_e < params[row, HP_OPEN_MIN]:
        return ACT_PASS
    target = best_e
    if best_fresh:
        target = min(target, params[row, HP_OPEN_CAP])
        lv = _level_for_value(target, prof)
        step = prof[P_BID_VALUES + 1] - prof[P_BID_VALUES] if nv > 1 else 0
        if lv >= 0 and best_k < 4 and step == 10:
            # Parity of a suit opening on a ladder of tens (source 002).
            t = _suit(hand, best_k)
            both = (t >> R_JACK) & 1 and (t >> R_NINE) & 1
            odd = ((prof[P_BID_VALUES + lv] - prof[P_BID_VALUES]) // step) & 1
            if both and odd == 0:
                # Both majors: an odd bid (90, 110) — one step up from an even value
                # when the estimate is short of the next odd one only by the cap.
                lv = lv + 1 if lv == 0 else lv - 1
            elif not both and odd == 1:
                # One major only: an even bid (80, 100).
                lv -= 1
            target = prof[P_BID_VALUES + max(lv, 0)]
    lv = _level_for_value(target, prof)
    if lv < 0:
        # An estimate worth opening but below the ladder's first value (stephanoise 82):
        # the first value.
        lv = 0
    if bidder >= 0 and (bidder & 1) != (seat & 1):
        # Competing with the opponents: only with a margin.
        if _value_of_level(level, prof) + params[row, HP_COMPETE_MARGIN] >= best_e:
            return ACT_PASS
    if lv <= level:
        return ACT_PASS
    a = ACT_BID_BASE + lv * N_KINDS + best_k
    if auction_check(astate, a, prof) != 0:
        return ACT_PASS
    return a


# =========================================================================================
# Play
# =========================================================================================
@njit(cache=True, inline="always")
def _strength(card, kind):
    """Strength of a card inside its own suit under contract ``kind`` (higher wins)."""
    s = card >> 3
    r = card & 7
    if kind == 5 or (kind < 4 and s == kind):
        return _TRUMP_STR[r]
    return _PLAIN_STR[r]


@njit(cache=True, inline="always")
def _higher_in_suit(card, kind):
    """Bitboard of the cards of ``card``'s suit that beat it in that suit."""
    s = card >> 3
    r = card & 7
    if kind == 5 or (kind < 4 and s == kind):
        return TRUMP_HIGHER[r] << (8 * s)
    return PLAIN_HIGHER[r] << (8 * s)


@njit(cache=True, inline="always")
def _is_master(card, kind, unknown):
    """No card still unseen (``unknown``) beats ``card`` in its suit."""
    return (_higher_in_suit(card, kind) & unknown) == 0


@njit(cache=True, inline="always")
def _lowest(cards, kind, prof):
    """The weakest card of ``cards`` (fewest points, then lowest strength)."""
    best = -1
    best_v = 1 << 30
    m = np.int64(cards)
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = _card_points(c, kind, prof) * 16 + _strength(c, kind)
        if v < best_v:
            best_v = v
            best = c
    return best


@njit(cache=True, inline="always")
def _highest(cards, kind):
    """The strongest card of ``cards`` (non-empty, all of one suit): one table lookup."""
    m = np.int64(cards)
    s = lowest_bit(m) >> 3
    trump_order = 1 if kind == 5 or (kind < 4 and s == kind) else 0
    return 8 * s + TOP_RANK[trump_order, (m >> (8 * s)) & 0xFF]


@njit(cache=True, inline="always")
def _discard_cost(c, hand, kind, unknown, prof):
    """Cost of giving up card ``c``: its points, and more for trumps, masters and guards."""
    s = c >> 3
    cost = _card_points(c, kind, prof) * 4 + _strength(c, kind)
    if kind < 4 and s == kind:
        # Keep trumps.
        cost += 200
    if _is_master(c, kind, unknown):
        # Keep master cards: they are tricks later.
        cost += 60
    suit_cards = _suit(hand, s)
    ten = np.int64(1) << R_TEN
    if (suit_cards & ten) != 0 and (c & 7) != R_TEN and popcount32(suit_cards) == 2:
        # "Ne pas se défausser d'une carte qui empêche un 10 d'être sec".
        if (unknown >> (8 * s + R_ACE)) & 1:
            cost += 40
    return cost


@njit(cache=True)
def _cheapest_discard(cands, hand, kind, unknown, prof):
    """The legal card whose loss costs least (:func:`_discard_cost`)."""
    best = -1
    best_v = 1 << 30
    m = np.int64(cands)
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = _discard_cost(c, hand, kind, unknown, prof)
        if v < best_v:
            best_v = v
            best = c
    return best


@njit(cache=True)
def _best_points(cands, hand, kind, unknown, prof):
    """Card to put on a partner's sure trick: most points, sparing trumps and masters."""
    best = -1
    best_v = -(1 << 30)
    m = np.int64(cands)
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = _card_points(c, kind, prof) * 4 - _strength(c, kind)
        if kind < 4 and (c >> 3) == kind:
            v -= 200
        if _is_master(c, kind, unknown) and _card_points(c, kind, prof) >= 10:
            # A master ace or ten wins its own trick later: a smaller gift is as good.
            v -= 30
        if v > best_v:
            best_v = v
            best = c
    return best


@njit(cache=True, inline="always")
def heuristic_card(hand, legal, trick, n, info, actions, n_actions, params, row, prof, st):
    """Card play of the heuristic player; returns a card of ``legal``.

    Parameters
    ----------
    hand : uint32
        The player's remaining cards.
    legal : uint32
        Its legal cards (``legal_mask``).
    trick : int32[4]
        The current trick from its leader, ``n`` cards played.
    info : int64[INFO_LEN]
        Public information (:mod:`.players` ``I_*``).
    actions : uint8[MAX_ACTIONS]
        The auction (``n_actions`` codes).
    params : float64[PARAM_LEN]
        Parameter row (:data:`PARAMS`).
    prof : int32[PROFILE_LEN]
        Packed profile.
    st : uint64[4]
        RNG state (unused: the heuristic is deterministic).
    """
    lg = np.int64(legal)
    if popcount32(lg) == 1:
        return lowest_bit(lg)
    h = np.int64(hand)
    kind = info[I_KIND]
    seat = info[I_SEAT]
    partner = seat ^ 2
    taker = info[I_TAKER]
    we_take = (taker & 1) == (seat & 1)
    played = info[I_PLAYED]
    # Cards in other hands, as far as this player knows.
    unknown = np.int64(0xFFFFFFFF) & ~(played | h)
    trump_mask = np.int64(0)
    if kind < 4:
        trump_mask = np.int64(0xFF) << (8 * kind)
    opp_trumps = unknown & trump_mask
    # Cards shown in the partner's announcements are with the partner.
    partner_known = info[I_SHOWN + partner] & unknown
    opp1 = (seat + 1) & 3
    opp2 = (seat + 3) & 3
    opp_void_trump = ((info[I_VOID + opp1] >> kind) & 1) != 0 and \
        ((info[I_VOID + opp2] >> kind) & 1) != 0 if kind < 4 else True
    opp_may_trump = kind < 4 and opp_trumps != 0 and not opp_void_trump and \
        (opp_trumps & ~partner_known) != 0

    if n == 0:
        return _lead(h, lg, kind, seat, partner, taker, we_take, unknown, opp_may_trump,
                     info, prof)

    # --- following ----------------------------------------------------------------------
    w = trick_winner(trick, n, kind, prof)
    led = trick[0] >> 3
    pts = 0
    for p in range(n):
        pts += _card_points(trick[p], kind, prof)
    partner_wins = w == n - 2
    last = n == 3
    if partner_wins:
        wcard = np.int64(trick[w])
        sure = last
        if not sure:
            # Partner is sure to win when no unseen card can beat his card and the
            # remaining opponent cannot ruff (trump led, or known to hold the led suit
            # — approximated by: not known void in it — or known void in trumps).
            beat_in_suit = _higher_in_suit(wcard, kind) & unknown
            if (wcard >> 3) == led:
                ok = beat_in_suit == 0
                if ok and kind < 4 and led != kind and opp_trumps != 0:
                    nxt = (seat + 1) & 3
                    if (info[I_VOID + nxt] >> led) & 1 and not (info[I_VOID + nxt] >> kind) & 1:
                        ok = False
                sure = ok
            else:
                # Partner ruffed: only a higher trump could beat it.
                sure = beat_in_suit == 0
        if sure:
            # Put points on a partner who is winning.
            return _best_points(lg, h, kind, unknown, prof)
        return _cheapest_discard(lg, h, kind, unknown, prof)

    # Opponent winning: the legal cards that would take the lead. The winning card is
    # of the led suit or a trump; it is beaten by the higher cards of its suit (in the
    # kind's order) and, when it is not a trump at a suit contract, by every trump.
    wcard = np.int64(trick[w])
    beat = _higher_in_suit(wcard, kind)
    if kind < 4 and (wcard >> 3) != kind:
        beat |= trump_mask
    winners = lg & beat
    if winners == 0:
        # Cannot win: discard the cheapest card, keeping guards, trumps and masters.
        return _cheapest_discard(lg, h, kind, unknown, prof)
    # Cheapest winning card (lowest strength among winners; trumps only if needed).
    non_trump_win = winners & ~trump_mask
    pool = non_trump_win if non_trump_win != 0 else winners
    best = -1
    best_v = 1 << 30
    m = pool
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = _strength(c, kind)
        if v < best_v:
            best_v = v
            best = c
    if last:
        # Last to play: win as cheaply as possible.
        return best
    # Not last: will the winning card hold?
    holds = _is_master(best, kind, unknown)
    if (best >> 3) != kind and kind < 4 and opp_may_trump:
        nxt = (seat + 1) & 3
        if (info[I_VOID + nxt] >> led) & 1 and not (info[I_VOID + nxt] >> kind) & 1:
            holds = False
    if not holds:
        # A master among the winners holds the trick: take with the cheapest master.
        m = pool
        mb = -1
        mv = 1 << 30
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            if _is_master(c, kind, unknown):
                v = _strength(c, kind)
                if v < mv:
                    mv = v
                    mb = c
        if mb >= 0:
            return mb
    if holds or (best >> 3) == kind or pts >= params[row, HP_CONTEST_POINTS]:
        # Ruff with the lowest winning trump, or contest a trick worth it.
        return best
    return _cheapest_discard(lg, h, kind, unknown, prof)


@njit(cache=True)
def _lead(h, lg, kind, seat, partner, taker, we_take, unknown, opp_may_trump, info, prof):
    """Choose a lead (``n == 0``) among the legal cards ``lg`` (the whole hand)."""
    trump_mask = np.int64(0)
    if kind < 4:
        trump_mask = np.int64(0xFF) << (8 * kind)
    my_trumps = h & trump_mask
    if kind < 4 and my_trumps != 0 and opp_may_trump:
        if seat == taker:
            # The taker draws trumps while the opponents may still hold some:
            # the master trump first, else a small one.
            top = _highest(my_trumps, kind)
            if _is_master(top, kind, unknown):
                return top
            if popcount32(my_trumps) >= 2:
                return _lowest(my_trumps, kind, prof)
        elif partner == taker and popcount32(my_trumps) >= 2 and info[I_LED + partner] == 0:
            # The taker's partner plays one small trump back (aller-retour).
            top = _highest(my_trumps, kind)
            if _is_master(top, kind, unknown):
                return top
    opp1 = (seat + 1) & 3
    opp2 = (seat + 3) & 3
    opp_voids = info[I_VOID + opp1] | info[I_VOID + opp2]
    best = -1
    best_score = -(1 << 30)
    for s in range(4):
        cards = (h >> (8 * s)) & 0xFF
        if cards == 0:
            continue
        mask = cards << (8 * s)
        is_trump = kind < 4 and s == kind
        top = _highest(mask, kind)
        low = _lowest(mask, kind, prof)
        opp_ruff = (not is_trump) and opp_may_trump and ((opp_voids >> s) & 1) != 0
        pvoid = ((info[I_VOID + partner] >> s) & 1) != 0
        partner_ruffs = (not is_trump) and kind < 4 and pvoid and \
            ((info[I_VOID + partner] >> kind) & 1) == 0 and (unknown & trump_mask) != 0
        score = 0
        card = low
        if _is_master(top, kind, unknown) and (unknown & (np.int64(0xFF) << (8 * s))) != 0:
            # Cash a master card (unless an opponent is known to ruff it).
            score = 100 + _card_points(top, kind, prof)
            card = top
            if opp_ruff:
                score = -50
        elif partner_ruffs:
            # Lead a suit the partner can ruff.
            score = 80
        elif (info[I_LED + partner] >> s) & 1 and not is_trump:
            # Return the partner's suit.
            score = 60
        else:
            score = 20 - _card_points(low, kind, prof)
            if (cards >> R_TEN) & 1 and not _is_master(
                np.int64(8 * s + R_TEN), kind, unknown
            ):
                # Do not lead away from a ten that is not master (into the ace-ten tenace).
                score -= 30
            if opp_ruff:
                score -= 40
        if is_trump:
            # Defenders and the taker's side without a trump plan keep their trumps.
            if not (we_take and seat == taker):
                score -= 60
            else:
                score -= 10
        if score > best_score:
            best_score = score
            best = card
    if best < 0:
        return lowest_bit(lg)
    return best
