"""The data-fitted bidder's tables: package data, one file per profile.

``simcoinche/players/data/bidder-<profile>.npy`` holds the ``float64[BT_LEN]`` block that
:func:`simcoinche.players.registry.param_array` copies into the parameter row of every
player that bids with them (``heuristic``, ``pimc``), from offset ``BT_OFFSET`` (layout:
:mod:`simcoinche._kernels.bidder`). They are fitted by ``analysis/fit_bidder.py``
(:mod:`simcoinche.players.bid_fit`); the file's first entry is the fingerprint of the
profile it was fitted for, checked here and again by the kernel.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np

from simcoinche._kernels import bid_layout as BL
from simcoinche._kernels.bid_layout import BT_LEN
from simcoinche._kernels.bidder import table_key
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

TABLE_DIR = "data"


def table_name(profile: Profile | str) -> str:
    """File name of a profile's tables inside the package data."""
    return f"bidder-{get_profile(profile).name}.npy"


def outcomes_name(profile: Profile | str) -> str:
    """File name of a profile's outcome spread (the cells' share made and mean marks made
    and failed, ``float64[BO_LEN]``) inside the package data."""
    return f"bidder-outcomes-{get_profile(profile).name}.npy"


def _read(name: str, what: str) -> np.ndarray:
    """The array in the package data file ``name`` (``what`` it is, for the errors).

    Raises
    ------
    InputError
        When the file is missing or unreadable.
    """
    res = resources.files("simcoinche.players").joinpath(TABLE_DIR, name)
    try:
        with res.open("rb") as f:
            return np.load(f, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"{what}: {TABLE_DIR}/{name} is missing from the package; refit "
                         "with analysis/fit_bidder.py") from None
    except ValueError as exc:
        raise InputError(f"{what}: {name} is unreadable: {exc}") from None


@cache
def bid_outcomes(profile: Profile | str | None) -> np.ndarray:
    """The shipped outcome spread of ``profile``'s cells (read-only ``float64[BO_LEN]``,
    layout :mod:`simcoinche._kernels.bid_layout`, ``BO_*``), fitted with its tables.

    Raises
    ------
    InputError
        When the file is missing, unreadable, fitted for another profile, or holds
        shares outside [0, 1] or non-finite values.
    """
    prof = get_profile(profile)
    name = outcomes_name(prof)
    out = _read(name, f"the bidder's outcome spread for profile {prof.name!r}")
    check_outcomes(out, prof, name)
    out.setflags(write=False)
    return out


def check_outcomes(out: np.ndarray, profile: Profile | str, origin: str) -> None:
    """Raise InputError unless ``out`` is a finite ``float64[BO_LEN]`` spread fitted for
    ``profile`` with every share made in [0, 1]."""
    prof = get_profile(profile)
    if out.dtype != np.float64 or out.shape != (BL.BO_LEN,):
        raise InputError(f"{origin}: expected float64[{BL.BO_LEN}] outcome spread, got "
                         f"{out.dtype}{list(out.shape)}")
    if out[0] != table_key(prof.packed):
        raise InputError(f"{origin}: this outcome spread was fitted for another profile "
                         f"than {prof.name!r}")
    if not np.isfinite(out).all():
        raise InputError(f"{origin}: the outcome spread holds non-finite values")
    made = out[1:].reshape(-1, BL.N_STATS)[:, BL.ST_MADE]
    if ((made < 0) | (made > 1)).any():
        raise InputError(f"{origin}: a share of contracts made lies outside [0, 1]")


@cache
def _load(name: str) -> np.ndarray:
    prof = get_profile(name)
    tables = _read(table_name(prof), f"the bidder's tables for profile {prof.name!r}")
    check_tables(tables, prof, table_name(prof))
    tables.setflags(write=False)
    return tables


def check_tables(tables: np.ndarray, profile: Profile | str, origin: str) -> None:
    """Raise InputError unless ``tables`` is a ``float64[BT_LEN]`` block fitted for
    ``profile`` (its fingerprint) with finite entries and ascending bucket edges."""
    prof = get_profile(profile)
    if tables.dtype != np.float64 or tables.shape != (BT_LEN,):
        raise InputError(f"{origin}: expected float64[{BT_LEN}] bidder tables, got "
                         f"{tables.dtype}{list(tables.shape)}")
    if tables[0] != table_key(prof.packed):
        raise InputError(f"{origin}: these bidder tables were fitted for another profile "
                         f"than {prof.name!r}")
    if not np.isfinite(tables).all():
        raise InputError(f"{origin}: the bidder tables hold non-finite values")
    for c in range(BL.N_CLASSES):
        for part, name in ((BL.OWN_EDGES, "own"), (BL.DEF_EDGES, "defence")):
            # The bidder's bucket search (a binary search) needs ascending edges.
            base = 1 + c * BL.CLASS_LEN + part
            if (np.diff(tables[base:base + BL.NB - 1]) < 0).any():
                raise InputError(f"{origin}: the {name} bucket edges of contract class {c} "
                                 "are not in ascending order")


def bid_tables(profile: Profile | str | None) -> np.ndarray:
    """The shipped tables of ``profile`` (read-only ``float64[BT_LEN]``; default
    federal)."""
    return _load(get_profile(profile).name)


def best_levels(tables: np.ndarray, profile: Profile | str) -> np.ndarray:
    """The block the bidder reads from ``BT_BEST`` (``float64[BT_BEST_LEN]``): for each
    contract class, own bucket and lowest level ``L``, the level below capot (``L`` ..
    the profile's last value) whose x1 entry in ``tables`` is highest, the lowest of
    equal ones; ``-1`` from the capot level on. It spares the bidder a walk up the
    ladder for every kind at every call."""
    nv = len(get_profile(profile).bid_values)
    own = np.empty((BL.N_CLASSES, BL.NB, BL.NLEV))
    for c in range(BL.N_CLASSES):
        base = 1 + c * BL.CLASS_LEN + BL.OWN_EV
        own[c] = tables[base:base + BL.NB * BL.NLEV * BL.N_MULT].reshape(
            BL.NB, BL.NLEV, BL.N_MULT)[:, :, 0]
    best = np.full((BL.N_CLASSES, BL.NB, BL.NLEV), -1.0)
    for low in range(nv):
        # argmax returns the first of equal entries: the lowest level.
        best[:, :, low] = low + np.argmax(own[:, :, low:nv], axis=2)
    return best.ravel()
