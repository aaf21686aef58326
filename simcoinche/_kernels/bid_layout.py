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

__all__ = ["BT_BEST", "BT_BEST_LEN", "BT_CLASSES", "BT_KEY", "BT_LEN", "BT_OFFSET",
           "BT_SUIT_PREFIX", "CLASS_LEN", "DEF_EDGES", "DEF_EV", "DEF_W", "NB", "NF", "NFD",
           "NLEV", "N_CLASSES", "N_MULT", "N_SUIT_PATTERNS", "N_SUIT_PREFIX_FEATURES",
           "OWN_EDGES", "OWN_EV", "OWN_W"]
