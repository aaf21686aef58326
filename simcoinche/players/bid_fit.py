"""Fitting the data-fitted bidder's tables on the simulator's own donnes.

``fit_tables(profile, deals, seed, bidders)`` deals ``deals`` donnes of ``seed``, holds
their auctions with ``bidders`` (``"club"``, or ``"heuristic"`` with given tables: a
second round fits the bidder on the auctions it makes itself), plays every contract a
decision could lead to with the heuristic card play (every seat as the taker of every
kind), and fits (kernels and order of work: :mod:`simcoinche._kernels.bid_samples`):

1. per contract class, the least-squares weights of the own and defence features
   against the takers' total minus the defence's (normal equations solved here, in
   a fixed order: same seed, same tables);
2. the bucket edges: quantiles of the fitted scores, finer in the tails;
3. per bucket, the mean exact marks difference of every ladder level and multiplier.

The result is the ``float64[BT_LEN]`` block of :mod:`simcoinche._kernels.bid_layout`
(first entry the profile's fingerprint). ``analysis/fit_bidder.py`` writes the shipped
files; a test regenerates a small configuration bit for bit.
"""

from __future__ import annotations

import numpy as np

from simcoinche._kernels import bid_layout as BL
from simcoinche._kernels.batch import Contracts, play_contracts
from simcoinche._kernels.bid_samples import (
    Auctions,
    Normal,
    Scores,
    Sums,
    accumulate_values,
    deal_auctions,
    walk_samples,
)
from simcoinche._kernels.bidder import table_key
from simcoinche._kernels.donne import MAX_ACTIONS, Players
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.layout import PC_FAULTS, PC_LEN
from simcoinche._kernels.rng import seed_key
from simcoinche.players.registry import CLUB, HEURISTIC, param_array
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

#: Small ridge added to the normal equations (features that never vary in a class).
RIDGE = 1e-6
#: The shares of the samples below each bucket edge: finer in the tails, where the
#: decisions that cost most are taken (a coinche on the weakest contracts, a slam-like
#: bid on the strongest hands).
EDGE_QUANTILES = np.array([0.005, 0.01, 0.02, 0.03, 0.05, 0.07, 0.10, 0.15, 0.20, 0.30,
                           0.40, 0.50, 0.60, 0.70, 0.80, 0.85, 0.90, 0.93, 0.95, 0.97,
                           0.98, 0.99, 0.995])


def _solve(xtx: np.ndarray, xty: np.ndarray) -> np.ndarray:
    """Least-squares weights from the normal equations, by Gaussian elimination with
    partial pivoting in a fixed order (no LAPACK, no BLAS: the same bits on every machine
    and with every OpenBLAS kernel)."""
    n = xty.shape[0]
    a = xtx.astype(np.float64).copy() + RIDGE * np.eye(n)
    b = xty.astype(np.float64).copy()
    for col in range(n):
        piv = col + int(np.argmax(np.abs(a[col:, col])))
        if piv != col:
            a[[col, piv]] = a[[piv, col]]
            b[[col, piv]] = b[[piv, col]]
        for r in range(col + 1, n):
            f = a[r, col] / a[col, col]
            a[r, col:] -= f * a[col, col:]
            b[r] -= f * b[col]
    w = np.zeros(n)
    for r in range(n - 1, -1, -1):
        # Term by term, left to right: a dot product (``@``, BLAS) adds in an order that
        # depends on the processor's vector kernel, and so did the fitted bits.
        s = b[r]
        for k in range(r + 1, n):
            s -= a[r, k] * w[k]
        w[r] = s / a[r, r]
    return w


def _edges(mu: np.ndarray) -> np.ndarray:
    """``NB - 1`` bucket edges: the :data:`EDGE_QUANTILES` of the scores (zeros without
    samples)."""
    if mu.size == 0:
        return np.zeros(BL.NB - 1)
    s = np.sort(mu)
    idx = (EDGE_QUANTILES * s.size).astype(np.int64)
    return s[idx]


def _spread(out: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Cells' sums (``ST_*`` on the last axis) to the share made and the mean marks when
    made and when failed (0 where a cell saw no such donne); ``n`` the samples per cell,
    broadcast over the last axis but one."""
    made = out[..., BL.ST_MADE]
    failed = n - made
    res = np.zeros_like(out)
    res[..., BL.ST_MADE] = made / np.maximum(n, 1)
    for k in (BL.ST_TAKERS_MADE, BL.ST_DEFENCE_MADE):
        res[..., k] = out[..., k] / np.maximum(made, 1)
    for k in (BL.ST_TAKERS_FAILED, BL.ST_DEFENCE_FAILED):
        res[..., k] = out[..., k] / np.maximum(failed, 1)
    return res


def fit_tables(profile: Profile | str, deals: int, seed: int, bidders: str = "club",
               tables: np.ndarray | None = None,
               outcomes: np.ndarray | None = None,
               fixed: np.ndarray | None = None) -> np.ndarray:
    """Fit the bidder's tables of ``profile`` (module docstring).

    Parameters
    ----------
    profile : Profile or str
        The rules the tables are fitted for.
    deals : int
        Donnes dealt (each gives about six decisions).
    seed : int
        Seed of the deals, the auctions and the plays.
    bidders : str
        ``"club"`` or ``"heuristic"`` (then ``tables`` are the heuristic's tables).
    outcomes : numpy.ndarray, optional
        ``float64[BO_LEN]`` filled with the outcome spread of the same cells (layout:
        :mod:`simcoinche._kernels.bid_layout`, ``BO_*``): the profile's fingerprint, then
        per cell the share made and each team's mean mark when made and when failed.
    fixed : numpy.ndarray, optional
        Tables (``float64[BT_LEN]`` of ``profile``) whose weights and bucket edges are
        kept instead of fitted: the samples are only sorted into their cells, so that
        ``outcomes`` describes those tables' cells (the returned tables then hold these
        weights and edges with the cells' means measured afresh).

    Returns
    -------
    numpy.ndarray
        ``float64[BT_LEN]``.
    """
    prof = get_profile(profile)
    packed = prof.packed
    if deals < 200:
        raise InputError(f"deals must be at least 200 to fill {BL.NB} buckets, got {deals}")
    club_row = param_array(CLUB)
    run_key = np.uint64(seed_key(np.uint64(seed)))
    full = np.zeros((deals, 4), dtype=np.uint32)
    early = np.zeros((deals, 4), dtype=np.uint32)
    auc = np.zeros((deals, MAX_ACTIONS), dtype=np.uint8)
    auc_len = np.zeros(deals, dtype=np.int16)
    faults = np.zeros(deals, dtype=np.int32)
    dealers = (np.arange(deals) & 3).astype(np.int8)
    teams = np.full(deals, -1, dtype=np.int8)
    if bidders == "club":
        # Club bidders at both teams: every seat's decisions are samples.
        codes = np.array([CLUB.code, CLUB.code], dtype=np.int32)
        parts = [(0, deals, codes, np.stack([club_row, club_row]), -1, 1)]
    elif bidders == "heuristic":
        if tables is None:
            raise InputError("bidders 'heuristic' needs the tables it bids with")
        # The heuristic bidder (partner alike) against club opponents at either team in
        # turn, then against itself: its own decisions are the samples, so its partner's
        # bids mean what it means by them. It learns to defend only the club's contracts
        # (sound ones: J or 9 of trump): defending its own loose contracts taught it to
        # coinche everything, which sound bidders punish.
        row = param_array(HEURISTIC, profile=prof, tables=tables)
        third = deals // 3
        h, c = HEURISTIC.code, CLUB.code
        parts = [(0, third, np.array([h, c], dtype=np.int32), np.stack([row, club_row]), 0, 1),
                 (third, 2 * third, np.array([c, h], dtype=np.int32),
                  np.stack([club_row, row]), 1, 1),
                 (2 * third, deals, np.array([h, h], dtype=np.int32), np.stack([row, row]),
                  -1, 0)]
    else:
        raise InputError(f"bidders must be 'club' or 'heuristic', got {bidders!r}")
    defend = np.zeros(deals, dtype=np.int8)
    for lo, hi, codes, params, team, dfd in parts:
        deal_auctions(run_key, np.int64(lo), np.int64(hi - lo),
                      Players(codes, np.ascontiguousarray(params), NO_KINDS), packed, full[lo:hi],
                      early[lo:hi], auc[lo:hi], auc_len[lo:hi], faults[lo:hi])
        teams[lo:hi] = team
        defend[lo:hi] = dfd
    if faults.any():
        raise InputError(f"the {bidders} bidders made {int((faults != 0).sum())} illegal "
                         "calls while the fitting data was dealt")

    # Every seat as the taker of every kind the profile allows, level 0, x1.
    kinds = [0, 1, 2, 3] + ([4] if prof.allow_sa else []) + ([5] if prof.allow_ta else [])
    i, seat, kd = np.meshgrid(np.arange(deals), np.arange(4), np.array(kinds),
                              indexing="ij")
    i, seat, kd = i.ravel(), seat.ravel(), kd.ravel()
    cols = (i * 4 + seat) * 6 + kd
    m = cols.size
    play = np.zeros((PC_LEN, m), dtype=np.int32)
    card_codes = np.array([CLUB.code, CLUB.code], dtype=np.int32)
    card_rows = np.ascontiguousarray(np.stack([param_array(CLUB), param_array(CLUB)]))
    play_contracts(run_key, np.int64(0), np.ascontiguousarray(full[i]),
                   Contracts(dealers[i], seat.astype(np.int8),
                             np.zeros(m, dtype=np.int8), kd.astype(np.int8),
                             np.ones(m, dtype=np.int8)),
                   Players(card_codes, card_rows, NO_KINDS), packed, play, None)
    if play[PC_FAULTS].any():
        raise InputError("the card play made illegal plays while the fitting data was "
                         "played")
    pc = np.zeros((PC_LEN, deals * 24), dtype=np.int32)
    pc[:, cols] = play

    nc = BL.N_CLASSES
    xtx_own = np.zeros((nc, BL.NF, BL.NF))
    xty_own = np.zeros((nc, BL.NF))
    xtx_def = np.zeros((nc, BL.NFD, BL.NFD))
    xty_def = np.zeros((nc, BL.NFD))
    w_own = np.zeros((nc, BL.NF))
    w_def = np.zeros((nc, BL.NFD))
    empty_f = np.zeros(0)
    empty_r = np.zeros((0, 3), dtype=np.int64)
    auctions = Auctions(early, dealers, teams, defend, auc, auc_len)
    normal = Normal(xtx_own, xty_own, xtx_def, xty_def)
    n_own, n_def = walk_samples(0, auctions, packed, pc, w_own, w_def, normal,
                                Scores(empty_f, empty_r, empty_f, empty_r))
    for c in range(nc):
        if fixed is not None:
            # The given tables' scores bucket the samples (outcomes of their cells).
            base = 1 + c * BL.CLASS_LEN
            w_own[c] = fixed[base + BL.OWN_W: base + BL.OWN_W + BL.NF]
            w_def[c] = fixed[base + BL.DEF_W: base + BL.DEF_W + BL.NFD]
            continue
        if xtx_own[c, 0, 0] > 0:
            w_own[c] = _solve(xtx_own[c], xty_own[c])
        if xtx_def[c, 0, 0] > 0:
            w_def[c] = _solve(xtx_def[c], xty_def[c])
    mu_own = np.zeros(n_own)
    ref_own = np.zeros((n_own, 3), dtype=np.int64)
    mu_def = np.zeros(n_def)
    ref_def = np.zeros((n_def, 3), dtype=np.int64)
    walk_samples(1, auctions, packed, pc, w_own, w_def, normal,
                 Scores(mu_own, ref_own, mu_def, ref_def))
    cls_own = np.where(ref_own[:, 1] < 4, 0, np.where(ref_own[:, 1] == 4, 1, 2))
    cls_def = np.where(ref_def[:, 1] < 4, 0, np.where(ref_def[:, 1] == 4, 1, 2))
    if fixed is None:
        e_own = np.stack([_edges(mu_own[cls_own == c]) for c in range(nc)])
        e_def = np.stack([_edges(mu_def[cls_def == c]) for c in range(nc)])
    else:
        e_own = np.stack([fixed[1 + c * BL.CLASS_LEN + BL.OWN_EDGES:][:BL.NB - 1]
                          for c in range(nc)])
        e_def = np.stack([fixed[1 + c * BL.CLASS_LEN + BL.DEF_EDGES:][:BL.NB - 1]
                          for c in range(nc)])
    b_own = np.zeros(n_own, dtype=np.int64)
    b_def = np.zeros(n_def, dtype=np.int64)
    for c in range(nc):
        sel = cls_own == c
        b_own[sel] = np.searchsorted(e_own[c], mu_own[sel], side="right")
        sel = cls_def == c
        b_def[sel] = np.searchsorted(e_def[c], mu_def[sel], side="right")
    own_sum = np.zeros((nc, BL.NB, BL.NLEV, BL.N_MULT))
    own_n = np.zeros((nc, BL.NB), dtype=np.int64)
    def_sum = np.zeros((nc, BL.NB, BL.N_MULT))
    def_n = np.zeros((nc, BL.NB), dtype=np.int64)
    own_out = np.zeros((nc, BL.NB, BL.NLEV, BL.N_MULT, BL.N_STATS))
    def_out = np.zeros((nc, BL.NB, BL.N_MULT, BL.N_STATS))
    accumulate_values(packed, pc, cls_own.astype(np.int64), b_own, ref_own,
                      cls_def.astype(np.int64), b_def, ref_def,
                      Sums(own_sum, own_n, def_sum, def_n, own_out, def_out))
    own_ev = own_sum / np.maximum(own_n, 1)[:, :, None, None]
    def_ev = def_sum / np.maximum(def_n, 1)[:, :, None]
    if outcomes is not None:
        if outcomes.shape != (BL.BO_LEN,):
            raise InputError(f"outcomes must be float64[{BL.BO_LEN}], got "
                             f"{list(outcomes.shape)}")
        outcomes[0] = table_key(packed)
        outcomes[1:1 + BL.BO_OWN_LEN] = _spread(own_out, own_n[:, :, None, None]).ravel()
        outcomes[1 + BL.BO_OWN_LEN:] = _spread(def_out, def_n[:, :, None]).ravel()

    out = np.zeros(BL.BT_LEN)
    out[0] = table_key(packed)
    for c in range(nc):
        base = 1 + c * BL.CLASS_LEN
        out[base + BL.OWN_W: base + BL.OWN_W + BL.NF] = w_own[c]
        out[base + BL.OWN_EDGES: base + BL.OWN_EDGES + BL.NB - 1] = e_own[c]
        out[base + BL.OWN_EV: base + BL.DEF_W] = own_ev[c].ravel()
        out[base + BL.DEF_W: base + BL.DEF_W + BL.NFD] = w_def[c]
        out[base + BL.DEF_EDGES: base + BL.DEF_EDGES + BL.NB - 1] = e_def[c]
        out[base + BL.DEF_EV: base + BL.CLASS_LEN] = def_ev[c].ravel()
    return out
