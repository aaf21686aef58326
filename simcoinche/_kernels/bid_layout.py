"""Layout of the data-fitted bidder's tables in a player's parameter row.

A parameter row (``float64[PARAM_LEN]``, :mod:`.players`) holds the named parameters at
offsets ``0 .. BT_OFFSET - 1``, then the tables of :mod:`.bidder` for the run's profile:
``BT_KEY`` (the profile's fingerprint) and one block of ``CLASS_LEN`` floats per contract
class (``0`` suits, ``1`` sans-atout, ``2`` tout-atout), offsets inside a block::

    OWN_W      own-contract weights            [NF]
    OWN_EDGES  own score bucket edges          [NB - 1]
    OWN_EV     own marks difference            [NB, NLEV, N_MULT]
    DEF_W      defence weights                 [NFD]
    DEF_EDGES  defence score bucket edges      [NB - 1]
    DEF_EV     takers' marks difference        [NB, N_MULT]

then from ``BT_BEST`` a block derived from the tables when the row is made (not
stored in the files, :func:`simcoinche.players.bid_tables.best_levels`): for each class,
own bucket and lowest level ``L``, the ladder level below capot with the highest x1
entry among ``L ..`` the profile's last value (the lowest of equal ones; ``-1`` when
none is left)::

    BT_BEST    best level from L                [N_CLASSES, NB, NLEV]

and from ``BT_SUIT_PREFIX`` a second derived block
(:func:`simcoinche._kernels.bidder.suit_prefixes`): for each of the 256 patterns of a
trump suit's cards (the uint8 of its ranks), the own score of a suit contract summed up
to its last trump feature (the constant and features 1-9), left to right as the full
score sums it, so that the bidder continues from it and gets the same double::

    BT_SUIT_PREFIX  own score prefix of a suit   [256]

From ``BT_OUTCOMES`` the spread of the same cells, fitted with the tables (issue 22,
:func:`simcoinche.players.bid_fit.fit_tables`, file ``bidder-outcomes-<profile>.npy``):
``BO_KEY`` (the profile's fingerprint), then for every own cell and every defence cell
``N_STATS`` numbers seen from the takers' side — the share of contracts made, the
takers' and the defence's mean mark when made, the same when failed::

    BO_OWN     own cells                        [N_CLASSES, NB, NLEV, N_MULT, N_STATS]
    BO_DEF     defence cells                    [N_CLASSES, NB, N_MULT, N_STATS]

and from ``BT_EQUITY`` the profile's match equity on a coarse grid
(:mod:`simcoinche.players.equity`, read by :mod:`.score_bid`): ``EQ_STEP`` the grid
step ``G`` (marks; 0 when no table was given: a score-aware call then refuses), and
``V(x, y)`` = P(the team at ``x`` wins | it deals next)::

    EQ_MAIN      both below the target, x = i G, y = j G   [EQ_N, EQ_N]
    EQ_PEND_ROW  x pending (at the target), y = j G        [EQ_N]
    EQ_PEND_COL  x = i G, y pending (at the target)        [EQ_N]
    EQ_BOTH      both pending, x - y = k G, k = -EQ_ND ..  [2 EQ_ND + 1]
    EQ_EQUAL     both over the target, equal totals         [1]
"""

from __future__ import annotations

NF = 24        # own-contract features (:func:`.bidder.own_features`)
NFD = 16       # defence features (:func:`.bidder.def_features`)
NB = 24        # buckets of each score
NLEV = 18      # ladder levels 0..NLEV-1 (the longest ladder, stephanoise's 17, + capot)
N_MULT = 3     # multipliers x1, x2, x4
N_CLASSES = 3  # suits, sans-atout, tout-atout
OWN_W = 0
OWN_EDGES = OWN_W + NF
OWN_EV = OWN_EDGES + NB - 1
DEF_W = OWN_EV + NB * NLEV * N_MULT
DEF_EDGES = DEF_W + NFD
DEF_EV = DEF_EDGES + NB - 1
CLASS_LEN = DEF_EV + NB * N_MULT
BT_OFFSET = 56  # after the named parameters (the PIMC player's end at 52)
BT_KEY = BT_OFFSET
BT_CLASSES = BT_OFFSET + 1
BT_LEN = 1 + N_CLASSES * CLASS_LEN
BT_BEST = BT_OFFSET + BT_LEN
BT_BEST_LEN = N_CLASSES * NB * NLEV
BT_SUIT_PREFIX = BT_BEST + BT_BEST_LEN
N_SUIT_PATTERNS = 256  # a suit's eight cards, one bit each
N_SUIT_PREFIX_FEATURES = 10  # the constant and the nine trump features (own_features)

# --- outcome spread of the cells (issue 22) -----------------------------------------------
N_STATS = 5    # per cell: P(made), takers' / defence's mean mark made, the same failed
ST_MADE = 0
ST_TAKERS_MADE = 1
ST_DEFENCE_MADE = 2
ST_TAKERS_FAILED = 3
ST_DEFENCE_FAILED = 4
BO_OWN_LEN = N_CLASSES * NB * NLEV * N_MULT * N_STATS
BO_DEF_LEN = N_CLASSES * NB * N_MULT * N_STATS
BO_LEN = 1 + BO_OWN_LEN + BO_DEF_LEN  # the file: key, own cells, defence cells
BT_OUTCOMES = BT_SUIT_PREFIX + N_SUIT_PATTERNS
BO_KEY = BT_OUTCOMES
BO_OWN = BT_OUTCOMES + 1
BO_DEF = BO_OWN + BO_OWN_LEN

# --- match equity on a coarse grid (issue 22) ---------------------------------------------
EQ_N = 100     # grid points per axis below the target (target / step: 2000 / 20; a
               # coarse grid that stays in cache: the bidder reads it several times a call)
EQ_ND = 40     # both-pending differences kept: -EQ_ND .. EQ_ND steps
BT_EQUITY = BT_OUTCOMES + BO_LEN
EQ_STEP = BT_EQUITY
EQ_MAIN = EQ_STEP + 1
EQ_PEND_ROW = EQ_MAIN + EQ_N * EQ_N
EQ_PEND_COL = EQ_PEND_ROW + EQ_N
EQ_BOTH = EQ_PEND_COL + EQ_N
EQ_EQUAL = EQ_BOTH + 2 * EQ_ND + 1
BT_END = EQ_EQUAL + 1  # the parameter row's length

__all__ = ["BO_DEF", "BO_DEF_LEN", "BO_KEY", "BO_LEN", "BO_OWN", "BO_OWN_LEN", "BT_BEST",
           "BT_BEST_LEN", "BT_CLASSES", "BT_END", "BT_EQUITY", "BT_KEY", "BT_LEN",
           "BT_OFFSET", "BT_OUTCOMES", "BT_SUIT_PREFIX", "CLASS_LEN", "DEF_EDGES", "DEF_EV",
           "DEF_W", "EQ_BOTH", "EQ_EQUAL", "EQ_MAIN", "EQ_N", "EQ_ND", "EQ_PEND_COL",
           "EQ_PEND_ROW", "EQ_STEP", "NB", "NF", "NFD", "NLEV", "N_CLASSES", "N_MULT",
           "N_STATS", "N_SUIT_PATTERNS", "N_SUIT_PREFIX_FEATURES", "OWN_EDGES", "OWN_EV",
           "OWN_W", "ST_DEFENCE_FAILED", "ST_DEFENCE_MADE", "ST_MADE", "ST_TAKERS_FAILED",
           "ST_TAKERS_MADE"]
