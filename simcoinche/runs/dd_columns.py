"""Double-dummy play in simulations and odds: the ``dd_*`` columns and the DD view.

RULES.md, "Rulings on points the sources leave open": the double-dummy (DD) value of a
deal and contract kind is the card points the takers' team reaches when all four hands
are visible and both sides play perfectly, from the opening lead of seat dealer+1; 252
to a team that wins every trick. A contract is made under DD play exactly when its
success test holds with those card points (announcements and belote do not depend on
the play); a générale asks whether the bidder alone can win all eight tricks.

Three uses:

- ``simulate --dd`` (:func:`solve_kinds`): after the donnes of a chunk are simulated,
  every deal is solved for every contract kind of the profile with
  :func:`simcoinche._kernels.dd.solve_many` (team 0's value ``C0``, stored as the int16
  columns ``dd_S dd_H dd_D dd_C`` and ``dd_SA dd_TA`` where the profile has them). The
  values depend only on the deal and the kind — never on the auction or the play — and
  are exact, so they do not depend on the thread count either.
- The DD view of a run (:func:`dd_view`, used by ``read_results(..., dd=True)``,
  :func:`simcoinche.analysis.stats.dd_success_rates` and the report): per played contract, the
  takers' DD card points, whether the contract is made under DD (the profile's own test,
  :func:`simcoinche._kernels.scoring.score_donne`, through
  :func:`simcoinche._kernels.dd_batch.dd_outcomes`) and the card points the takers' play
  lost to DD.
- ``odds --play dd`` (:func:`dd_levels`): each sampled deal solved per contract kind, every
  level read off the DD value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd

from simcoinche.rules.cards import CONTRACT_KIND_NAMES
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

#: Solves per thread in one kernel call: under a second of work, so that the progress bar
#: moves and Ctrl-C (handled between calls) is answered promptly. When each thread took
#: an equal share of a call's rows, a call ended with one thread waiting for the other
#: (solves differ in length by ten times and more): 16 per thread ran simulate --dd at
#: 64-68 donnes/s on 2 threads, 128 at 75-81 (benchmarks/README.md, "simulate --dd on
#: both cores"). A thread now takes the next row as it frees up
#: (:func:`simcoinche._kernels.dd.solve_many`): 32 and 128 per thread ran within the
#: noise of each other (123-133 and 130-135 donnes/s, 2026-12-06).
SOLVES_PER_CALL = 128
#: Columns added to a results table by :func:`dd_view`.
VIEW_COLUMNS = ("dd_points_takers", "dd_made", "dd_points_lost")
_HANDS = ["hand_0", "hand_1", "hand_2", "hand_3"]


def dd_column(kind: int) -> str:
    """Name of the ``--dd`` column of a contract kind: ``dd_S`` … ``dd_TA``."""
    return f"dd_{CONTRACT_KIND_NAMES[kind]}"


def dd_columns(profile: str | Profile | None) -> list[str]:
    """The ``--dd`` columns of a profile's runs (its contract kinds, in kind order)."""
    return [dd_column(k) for k in get_profile(profile).contract_kinds]


def solve_kinds(hands: np.ndarray, dealer: np.ndarray, kinds: Sequence[int],
                prof: np.ndarray, out: np.ndarray,
                progress: Callable[[int], Any] | None = None) -> None:
    """Team 0's DD card points of every deal for every kind, in calls of a few solves.

    Parameters
    ----------
    hands : uint32[n, 4]
        The four hands of each deal.
    dealer : int[n]
        Dealer seat of each deal (seat ``dealer + 1`` leads).
    kinds : sequence of int
        Contract kinds to solve.
    prof : int32[PROFILE_LEN]
        Packed profile.
    out : int16[6, >= n]
        Output: ``out[kind, i]`` for each kind of ``kinds`` (other rows untouched).
    progress : callable, optional
        Called with the number of deals completed after each kernel call.

    Uses the numba thread count in force (:func:`numba.get_num_threads`); the values are
    exact, so they do not depend on it.
    """
    from simcoinche._kernels.dd import solve_many

    n = hands.shape[0]
    kinds = [int(k) for k in kinds]
    nk = len(kinds)
    if n == 0 or nk == 0:
        return
    threads = numba.get_num_threads()
    step = max(1, (SOLVES_PER_CALL * threads) // nk)
    kind_col = np.asarray(kinds, dtype=np.int64)
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        m = hi - lo
        # One call solves the m deals under every kind (kind-major rows).
        h = np.ascontiguousarray(np.tile(hands[lo:hi].astype(np.uint32), (nk, 1)))
        d = np.tile(np.asarray(dealer[lo:hi], dtype=np.int64), nk)
        k = np.repeat(kind_col, m)
        res = np.zeros(nk * m, dtype=np.int16)
        nodes = np.zeros(nk * m, dtype=np.int64)
        solve_many(h, d, k, prof, threads, res, nodes)
        for j, kind in enumerate(kinds):
            out[kind, lo:hi] = res[j * m:(j + 1) * m]
        if progress is not None:
            progress(m)


def _outcomes(hands: np.ndarray, dealer: np.ndarray, taker: np.ndarray, kind: np.ndarray,
              c0: np.ndarray, levels: np.ndarray, prof: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`simcoinche._kernels.dd_batch.dd_outcomes` on arrays: (points int16[n, 2],
    swept uint8[n, 2], total int32[n], made uint8[m, n])."""
    from simcoinche._kernels.dd_batch import dd_outcomes

    n = hands.shape[0]
    points = np.zeros((n, 2), dtype=np.int16)
    swept = np.zeros((n, 2), dtype=np.uint8)
    total = np.zeros(n, dtype=np.int32)
    made = np.zeros((levels.shape[0], n), dtype=np.uint8)
    if n:
        dd_outcomes(np.ascontiguousarray(hands, dtype=np.uint32),
                    np.ascontiguousarray(dealer, dtype=np.int64),
                    np.ascontiguousarray(taker, dtype=np.int64),
                    np.ascontiguousarray(kind, dtype=np.int64),
                    np.ascontiguousarray(c0, dtype=np.int16),
                    np.ascontiguousarray(levels, dtype=np.int64), prof,
                    numba.get_num_threads(), points, swept, total, made)
    return points, swept, total, made


def dd_view(df: pd.DataFrame, profile: str | Profile | None = None) -> pd.DataFrame:
    """The DD view of each played contract of a ``simulate --dd`` run.

    Parameters
    ----------
    df : DataFrame
        Results with ``hand_*``, ``dealer``, ``taker``, ``bid_level``, ``trump``,
        ``card_points_t*`` and the ``dd_*`` column of every kind played.
    profile : str or Profile, optional
        The run's profile (default ``federal``): its success test.

    Returns
    -------
    DataFrame
        Same index as ``df``, columns :data:`VIEW_COLUMNS`: ``dd_points_takers`` (Int16)
        the takers' DD card points for the contract's kind (team 1's derived from team
        0's value, a capot counted as the profile counts it), ``dd_made`` (bool) the
        contract made under DD play by the profile's success test (a générale: the
        bidder alone can force all 8 tricks), ``dd_points_lost`` (Int16) the takers' DD
        card points minus the card points they made. Passed-out donnes: ``<NA>``,
        ``False``, ``<NA>``.

    Raises
    ------
    InputError
        A missing column (e.g. a run written without ``--dd``).
    """
    prof = get_profile(profile)
    need = ["taker", "dealer", "bid_level", "trump", "card_points_t0", "card_points_t1",
            *_HANDS]
    for c in need:
        if c not in df.columns:
            raise InputError(f"results table has no column {c!r}")
    taker = df["taker"].to_numpy(dtype=np.int64, na_value=-1)
    played = taker >= 0
    if "passed_out" in df.columns:
        played &= ~df["passed_out"].to_numpy(dtype=bool, na_value=True)
    trump = df["trump"]
    kind = (trump.cat.codes.to_numpy() if isinstance(trump.dtype, pd.CategoricalDtype)
            else trump.to_numpy(dtype=np.int64, na_value=-1)).astype(np.int64)
    n = len(df)
    c0 = np.zeros(n, dtype=np.int16)
    for k in np.unique(kind[played]).tolist():
        col = dd_column(int(k))
        if col not in df.columns:
            raise InputError(f"results table has no column {col!r} (simulate --dd "
                             "writes the double-dummy columns)")
        rows = played & (kind == k)
        c0[rows] = df[col].to_numpy(dtype=np.int16)[rows]
    idx = np.flatnonzero(played)
    hands = df[_HANDS].to_numpy(dtype=np.uint32)[idx]
    levels = df["bid_level"].to_numpy(dtype=np.int64)[idx][None, :]
    points, _, _, made = _outcomes(hands, df["dealer"].to_numpy(dtype=np.int64)[idx],
                                taker[idx], kind[idx], c0[idx], levels, prof.packed)
    team = taker[idx] & 1
    takers = np.where(team == 0, points[:, 0], points[:, 1]).astype(np.int64)
    actual = np.where(team == 0, df["card_points_t0"].to_numpy(dtype=np.int64)[idx],
                      df["card_points_t1"].to_numpy(dtype=np.int64)[idx])
    pts = pd.array(np.zeros(n, dtype=np.int16), dtype="Int16")
    pts[:] = pd.NA
    lost = pts.copy()
    pts[idx] = takers.astype(np.int16)
    lost[idx] = (takers - actual).astype(np.int16)
    ok = np.zeros(n, dtype=bool)
    ok[idx] = made[0] != 0
    return pd.DataFrame({"dd_points_takers": pts, "dd_made": ok, "dd_points_lost": lost},
                        index=df.index)


def dd_levels(hands: np.ndarray, dealer: int, seat: int, kind: int, levels: np.ndarray,
              prof: np.ndarray, progress: Callable[[int], Any] | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``odds --play dd`` for one contract kind: every level of every sampled deal.

    Parameters
    ----------
    hands : uint32[n, 4]
        Sampled deals.
    dealer, seat, kind : int
        Dealer, the taker's seat, the contract kind.
    levels : int64[m]
        Ladder levels to read off each deal's DD value (capot, générale included).
    prof : int32[PROFILE_LEN]
        Packed profile.
    progress : callable, optional
        Called with the number of deals solved after each kernel call.

    Returns
    -------
    made : int64[m]
        Deals in which each level is made under DD play.
    totals : int32[n]
        The takers' total ``T_t`` per deal (DD card points + announcements + belote).
    all_tricks : int
        Deals in which the takers' team wins every trick under DD play (its capot).
    """
    n = hands.shape[0]
    c0 = np.zeros((6, n), dtype=np.int16)
    solve_kinds(hands, np.full(n, dealer, dtype=np.int64), [kind], prof, c0, progress)
    lv = np.ascontiguousarray(np.repeat(np.asarray(levels, dtype=np.int64)[:, None], n,
                                        axis=1))
    _, swept, total, made = _outcomes(hands, np.full(n, dealer), np.full(n, seat),
                                      np.full(n, kind), c0[kind], lv, prof)
    all_tricks = int(swept[:, seat & 1].sum())
    return made.sum(axis=1, dtype=np.int64), total, all_tricks
