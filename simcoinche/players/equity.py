"""Match equity: P(win the partie | the score, who deals next), per profile (issue 22).

A partie played by players who do not read the score is a Markov chain on its score: each
donne draws its outcome from one distribution (seen from the dealing team) and the end
rules decide. :func:`solve` takes that distribution (:func:`donne_outcomes` reads it off
simulated donnes) and solves the chain exactly by backward induction
(:func:`simcoinche._kernels.equity.solve_equity`, which applies the profile's end rules
through the partie kernel's own step). The tables of the ``heuristic`` players ship with
the package (``data/equity-<profile>.npz``, made by ``analysis/fit_equity.py``);
:func:`equity` reads them.

Values are kept as ``uint16`` (``q / 65535``: within 0.00001 of the solved value) so that
the profiles without rounding — one point per step of the grid, some eleven million
cells — travel in the wheel.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from simcoinche._kernels import layout as L
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile, rules_changed, shipped_rules

DATA_DIR = "data"
QUANT = 65535
#: Columns of :func:`donne_outcomes`' ``outcomes``, from the dealing team's side.
OUTCOME_COLUMNS = ("marks_dealing", "marks_other", "tricks_dealing", "tricks_other",
                   "taker_side", "made")


def table_name(profile: Profile | str) -> str:
    """File name of a profile's equity table inside the package data."""
    return f"equity-{get_profile(profile).name}.npz"


def grid_step(profile: Profile | str) -> int:
    """The step of a profile's totals: 10 where marks are rounded, else 1."""
    return 10 if get_profile(profile).rounding else 1


@dataclass(frozen=True)
class EquityTable:
    """The solved chain of one profile (layout: :mod:`simcoinche._kernels.equity`).

    ``main`` ``uint16[N, N]`` (V(x, y) = P(the team at ``x`` wins | it deals next),
    quantised), ``both_pending`` ``float64[2K + 1]``, ``equal`` ``float64[1]``; ``step``
    the grid step, ``clip_steps`` K; ``info`` how it was made (players, donnes, seed, ...).
    """

    profile: str
    step: int
    clip_steps: int
    main: np.ndarray
    both_pending: np.ndarray
    equal: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)
    #: The solved ``float64`` values before quantisation (only on a table just solved).
    solved: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def target(self) -> int:
        return int(self.packed[L.P_TARGET])

    @property
    def packed(self) -> np.ndarray:
        target = self.info.get("target")
        packed = get_profile(self.profile).packed
        if target is None or target == packed[L.P_TARGET]:
            return packed
        packed = packed.copy()
        packed[L.P_TARGET] = target
        return packed

    def _raw(self, a: int, b: int, pa: bool, pb: bool) -> float:
        from simcoinche._kernels.equity import equity_value

        return float(equity_value(self.main, self.both_pending, self.equal, np.int64(a),
                                  np.int64(b), np.int64(pa), np.int64(pb), self.packed,
                                  np.int64(self.step), np.int64(self.clip_steps)))

    def value(self, us: int, them: int, deal: str | None = None,
              pending: Sequence[bool] = (False, False)) -> float:
        """P(our team wins the partie) from the score ``us``–``them``.

        Parameters
        ----------
        us, them : int
            The totals (multiples of :attr:`step`, not negative).
        deal : {"us", "them", None}
            Which team deals the next donne; ``None`` the mean of both.
        pending : pair of bool
            Whether our team, their team crossed the target without being eligible yet
            (only for a total at or over the target).

        Returns
        -------
        float
            1.0 or 0.0 when the score has already decided the partie.

        Raises
        ------
        InputError
            A total off the grid or negative, an unknown ``deal``, a pending flag below
            the target.
        """
        us = _total(us, "us", self.step, self.profile)
        them = _total(them, "them", self.step, self.profile)
        if deal not in ("us", "them", None):
            raise InputError(f"deal must be 'us', 'them' or None, not {deal!r}")
        if not isinstance(pending, (list, tuple)) or len(pending) != 2 \
                or not all(isinstance(p, (bool, np.bool_)) for p in pending):
            raise InputError(f"pending must be a pair of flags (us, them), True or False, "
                             f"got {pending!r}")
        pu, pt = bool(pending[0]), bool(pending[1])
        target = self.target
        for flag, total, who in ((pu, us, "our"), (pt, them, "their")):
            if flag and total < target:
                raise InputError(f"{who} team cannot be pending below the target "
                                 f"({total} < {target})")
        # A team at or over the target and not pending is eligible (RULES.md, "Partie");
        # the partie kernel's own settle says whether that decides it.
        from simcoinche._kernels.scoring import settle

        won = settle(us >= target and not pu, them >= target and not pt, us, them)
        if won >= 0:
            return 1.0 if won == 0 else 0.0
        ours = self._raw(us, them, pu, pt)
        theirs = 1.0 - self._raw(them, us, pt, pu)
        if deal == "us":
            return ours
        if deal == "them":
            return theirs
        return 0.5 * (ours + theirs)

    def after(self, start: Sequence[int], donnes: np.ndarray, we_deal_next: bool
              ) -> np.ndarray:
        """P(our team wins) after each of several possible donnes from one score.

        ``start`` (our total, theirs, our pending flag, theirs); ``donnes``
        ``int64[6, n]`` (our marks, theirs, our tricks, theirs, taker side -1/0 us/1 them,
        made); ``we_deal_next`` whether our team deals the next donne. Returns
        ``float64[n]``; raises RuntimeError if a donne leaves a score that is not a live
        state of the table (never silently replaced).
        """
        from simcoinche._kernels.equity import equity_after

        donnes = np.ascontiguousarray(donnes, dtype=np.int64)
        out = np.empty(donnes.shape[1], dtype=np.float64)
        equity_after(self.main, self.both_pending, self.equal, self.packed,
                     np.int64(self.step), np.int64(self.clip_steps),
                     np.asarray(start, dtype=np.int64), donnes, bool(we_deal_next), out)
        bad = np.flatnonzero(np.isnan(out))
        if bad.size:
            raise RuntimeError(f"{bad.size} donnes leave a score outside the equity table "
                               f"of {self.profile} (first: donne {int(bad[0])})")
        return out

    # --- storage --------------------------------------------------------------------

    def coarse_block(self) -> np.ndarray:
        """The table on the grid the score-aware bidder reads (``float64[BT_END -
        BT_EQUITY]``, layout: :mod:`simcoinche._kernels.bid_layout`, ``EQ_*``): step
        ``G = target / EQ_N`` (a multiple of :attr:`step`), ``V`` at every pair of grid
        totals below the target, with a pending team at the target, and both pending by
        their difference (clipped as the table clips it).

        Raises
        ------
        InputError
            When the target is not ``EQ_N`` grid steps of a multiple of the table's step.
        """
        from simcoinche._kernels import bid_layout as BL

        target = self.target
        big = target // BL.EQ_N
        if big * BL.EQ_N != target or big % self.step != 0:
            raise InputError(f"{self.profile}: a target of {target} does not split into "
                             f"{BL.EQ_N} steps of a multiple of {self.step}")
        r = big // self.step
        main = self.main.astype(np.float64) / QUANT
        top = target // self.step  # a pending total at the target
        block = np.zeros(BL.BT_END - BL.BT_EQUITY)
        idx = np.arange(BL.EQ_N) * r
        block[0] = big
        at = BL.EQ_MAIN - BL.BT_EQUITY
        block[at:at + BL.EQ_N * BL.EQ_N] = main[np.ix_(idx, idx)].ravel()
        at = BL.EQ_PEND_ROW - BL.BT_EQUITY
        block[at:at + BL.EQ_N] = main[top, idx]
        at = BL.EQ_PEND_COL - BL.BT_EQUITY
        block[at:at + BL.EQ_N] = main[idx, top]
        k = np.clip(np.arange(-BL.EQ_ND, BL.EQ_ND + 1) * r, -self.clip_steps,
                    self.clip_steps)
        at = BL.EQ_BOTH - BL.BT_EQUITY
        block[at:at + 2 * BL.EQ_ND + 1] = self.both_pending[self.clip_steps + k]
        block[BL.EQ_EQUAL - BL.BT_EQUITY] = self.equal[0]
        return block

    def save(self, path: str | Path) -> None:
        """Write the table to ``path`` (``.npz``: rows of ``main`` delta-coded, so that
        zlib finds the smooth surface's runs)."""
        delta = np.diff(self.main, axis=1, prepend=np.uint16(0))  # uint16, wraps
        meta = {"profile": self.profile, "step": self.step, "clip_steps": self.clip_steps,
                "info": self.info}
        buf = io.BytesIO()
        np.savez_compressed(buf, main_delta=delta, both_pending=self.both_pending,
                            equal=self.equal, meta=np.array(json.dumps(meta)))
        Path(path).write_bytes(buf.getvalue())

    @classmethod
    def load(cls, source: Any, origin: str) -> EquityTable:
        """Read a table written by :meth:`save` (``source`` a path or binary file)."""
        try:
            with np.load(source, allow_pickle=False) as z:
                main = np.cumsum(z["main_delta"], axis=1, dtype=np.uint16)
                both = np.asarray(z["both_pending"], dtype=np.float64)
                equal = np.asarray(z["equal"], dtype=np.float64)
                meta = json.loads(str(z["meta"]))
            table = cls(meta["profile"], int(meta["step"]), int(meta["clip_steps"]),
                        main, both, equal, meta.get("info", {}))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{origin}: not an equity table ({exc})") from None
        table.check(origin)
        return table

    def check(self, origin: str) -> None:
        """Raise InputError unless the arrays fit the profile and each other."""
        prof = get_profile(self.profile)
        n = self.target // self.step + 2 * self.clip_steps + 1
        if self.step != grid_step(prof):
            raise InputError(f"{origin}: grid step {self.step}, profile {prof.name} needs "
                             f"{grid_step(prof)}")
        if (self.main.shape != (n, n) or self.both_pending.shape != (2 * self.clip_steps + 1,)
                or self.equal.shape != (1,)):
            raise InputError(f"{origin}: arrays of the wrong shape for target "
                             f"{self.target}, step {self.step}, clip {self.clip_steps}")
        for arr in (self.both_pending, self.equal):
            if not (np.isfinite(arr).all() and (arr >= 0).all() and (arr <= 1).all()):
                raise InputError(f"{origin}: probabilities outside [0, 1]")
        for arr in (self.main, self.both_pending, self.equal):
            arr.setflags(write=False)


def _total(value: Any, name: str, step: int, profile: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise InputError(f"{name} total must be an integer, not {value!r}")
    value = int(value)
    if value < 0:
        raise InputError(f"{name} total must not be negative, not {value}")
    if value % step:
        raise InputError(f"{name} total {value} is not a score of profile {profile} "
                         f"(its totals are multiples of {step})")
    return value


def donne_outcomes(rows: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distribution of donne outcomes, from the dealing team's side.

    Parameters
    ----------
    rows : DataFrame
        Donne rows of :func:`simcoinche.simulate` (``dealer``, ``taker``, ``made``,
        ``marks_t0/1``, ``tricks_t0/1``).

    Returns
    -------
    outcomes : int32[n, 6]
        Distinct outcomes (:data:`OUTCOME_COLUMNS`; tricks reduced to 0 or 1: the end
        rules ask only whether a team won a trick).
    probs : float64[n]
        Their shares.
    counts : int64[n]
        Their counts.
    """
    for c in ("dealer", "taker", "made", "marks_t0", "marks_t1", "tricks_t0", "tricks_t1"):
        if c not in rows.columns:
            raise InputError(f"donne rows have no column {c!r}")
    if len(rows) == 0:
        raise InputError("no donne rows to take outcomes from")
    dealing = rows["dealer"].to_numpy().astype(np.int64) & 1
    m = np.stack([rows["marks_t0"].to_numpy(), rows["marks_t1"].to_numpy()]).astype(np.int64)
    t = np.stack([rows["tricks_t0"].to_numpy(), rows["tricks_t1"].to_numpy()]).astype(
        np.int64)
    taker = rows["taker"].to_numpy().astype(np.int64)
    made = rows["made"].to_numpy().astype(np.int64)
    cols = np.arange(len(rows))
    other = 1 - dealing
    side = np.where(taker < 0, -1, ((taker & 1) != dealing).astype(np.int64))
    key = np.stack([m[dealing, cols], m[other, cols], np.minimum(t[dealing, cols], 1),
                    np.minimum(t[other, cols], 1), side, np.where(side < 0, 0, made)], 1)
    outcomes, counts = np.unique(key, axis=0, return_counts=True)
    return outcomes.astype(np.int32), counts / counts.sum(), counts.astype(np.int64)


def merge_outcomes(parts: Sequence[tuple[np.ndarray, np.ndarray]]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pool several ``(outcomes, counts)`` of :func:`donne_outcomes` (chunks of one run):
    ``(outcomes, probs, counts)`` as it returns them."""
    rows = np.concatenate([o for o, _ in parts])
    counts = np.concatenate([c for _, c in parts]).astype(np.int64)
    outcomes, inverse = np.unique(rows, axis=0, return_inverse=True)
    total = np.bincount(inverse.ravel(), weights=counts).astype(np.int64)
    return outcomes.astype(np.int32), total / total.sum(), total


def solve(outcomes: np.ndarray, probs: np.ndarray, profile: Profile | str | None = None,
          target: int | None = None, info: dict[str, Any] | None = None) -> EquityTable:
    """Solve the partie's chain for one donne-outcome distribution.

    Parameters
    ----------
    outcomes : int32[n, 6]
        As :func:`donne_outcomes` returns them.
    probs : float64[n]
        Their probabilities (sum 1).
    profile : str or Profile
        Whose end rules and grid (default federal): a shipped profile's rules, or a copy
        that changes only its target (a table names its profile and keeps its target).
    target : int, optional
        Another target than the profile's (tests use small ones).
    info : dict, optional
        Provenance kept with the table.

    Returns
    -------
    EquityTable

    Raises
    ------
    InputError
        Negative or off-grid marks, probabilities not summing to 1, a bad target; a
        profile built by hand that changes more than the target.
    RuntimeError
        The induction met a state it could not place (a fault of the solver, refused).
    """
    from simcoinche._kernels.equity import solve_equity

    given = get_profile(profile)
    # A table names its profile and keeps only its target: the rest of the rules must be
    # a shipped profile's, which the table finds again by name.
    prof = shipped_rules(given, "equity tables", "a table keeps a shipped profile's rules "
                         "and a target of its own only", partie=False)
    if [f for f in rules_changed(given, prof) if f != "target"]:
        raise InputError("equity tables keep a shipped profile's rules and a target of "
                         "their own only; this one changes partie_rule")
    if target is None and given.target != prof.target:
        target = given.target
    step = grid_step(prof)
    outcomes = np.ascontiguousarray(outcomes, dtype=np.int32)
    probs = np.ascontiguousarray(probs, dtype=np.float64)
    if outcomes.ndim != 2 or outcomes.shape[1] != 6 or probs.shape != (outcomes.shape[0],):
        raise InputError("outcomes must be int32[n, 6] with n probabilities")
    if outcomes.shape[0] == 0 or (probs < 0).any() or abs(probs.sum() - 1.0) > 1e-9:
        raise InputError("the outcome probabilities must be non-negative and sum to 1")
    marks = outcomes[:, :2]
    if (marks < 0).any() or (marks % step).any():
        raise InputError(f"marks must be non-negative multiples of {step} under "
                         f"{prof.name}")
    side = outcomes[:, 4]
    if (~np.isin(outcomes[:, 2:4], (0, 1))).any() or (~np.isin(outcomes[:, 5], (0, 1))).any():
        raise InputError("outcome tricks and made must be 0 or 1 (tricks: won any)")
    if (~np.isin(side, (-1, 0, 1))).any():
        raise InputError("outcome taker side must be -1 (passed out), 0 or 1")
    if ((side < 0) & ((outcomes[:, 5] != 0) | (marks.sum(axis=1) != 0))).any():
        raise InputError("a passed-out outcome has no marks and is not made")
    if probs[marks.sum(axis=1) > 0].sum() <= 0:
        raise InputError("no outcome scores any marks: the partie would never end")
    packed = prof.packed.copy()
    if target is not None:
        if target <= 0 or target % step:
            raise InputError(f"target must be a positive multiple of {step}, not {target}")
        packed[L.P_TARGET] = target
    t = int(packed[L.P_TARGET])
    # K steps exceed every mark (module docstring of the kernel: the clip is exact).
    clip_steps = int(marks.max()) // step + 1
    n = t // step + 2 * clip_steps + 1
    vmain = np.empty((n, n), dtype=np.float64)
    dvals = np.empty(2 * clip_steps + 1, dtype=np.float64)
    evals = np.empty(1, dtype=np.float64)
    faults = np.zeros(2, dtype=np.int64)
    solve_equity(outcomes, probs, packed, np.int64(step), np.int64(clip_steps), vmain,
                 dvals, evals, faults)
    if faults.any():
        raise RuntimeError(f"equity induction for {prof.name}: {int(faults[0])} successor "
                           f"states unsolved, {int(faults[1])} not live")
    info = dict(info or {})
    if target is not None:
        info["target"] = t
    # Each value is a convex combination of others: outside [0, 1] only by rounding.
    live = vmain[~np.isnan(vmain)]
    over = max(-live.min(), live.max() - 1, -dvals.min(), dvals.max() - 1, -evals[0],
               evals[0] - 1, 0.0)
    if not over <= 1e-9:
        raise RuntimeError(f"equity induction for {prof.name}: a value leaves [0, 1] by "
                           f"{over:.3g}")
    dvals = np.clip(dvals, 0.0, 1.0)
    evals = np.clip(evals, 0.0, 1.0)
    main = np.where(np.isnan(vmain), 0.0, np.rint(np.clip(vmain, 0, 1) * QUANT))
    table = EquityTable(prof.name, step, clip_steps, main.astype(np.uint16), dvals, evals,
                        info, vmain)
    table.check("solved table")
    return table


@cache
def shipped_table(profile: str) -> EquityTable:
    """The table shipped for ``profile`` (the ``heuristic`` players, score-blind)."""
    prof = get_profile(profile)
    res = resources.files("simcoinche.players").joinpath(DATA_DIR, table_name(prof))
    try:
        with res.open("rb") as f:
            return EquityTable.load(io.BytesIO(f.read()), table_name(prof))
    except FileNotFoundError:
        raise InputError(f"the equity table of profile {prof.name!r} is missing from the "
                         f"package ({DATA_DIR}/{table_name(prof)}); make it with "
                         "analysis/fit_equity.py") from None


def equity(us: int, them: int, profile: str | Profile | None = None,
           deal: str | None = None, pending: Sequence[bool] = (False, False)) -> float:
    """P(our team wins the partie | the score), from the shipped equity tables.

    The chances of winning from ``us`` against ``them`` when both teams play the
    ``heuristic`` players (score-blind), solved exactly from the distribution of their
    donnes (``analysis/fit_equity.py``).

    Parameters
    ----------
    us, them : int
        The partie totals (multiples of 10 where the profile rounds marks).
    profile : str or Profile, optional
        Default federal.
    deal : {"us", "them", None}
        Which team deals the next donne; ``None`` (default) the mean of both.
    pending : pair of bool
        A team at or over the target that crossed without being eligible yet (RULES.md,
        "Partie").

    Returns
    -------
    float

    Examples
    --------
    >>> round(simcoinche.equity(0, 0), 2)  # doctest: +SKIP
    0.5
    """
    prof = shipped_rules(profile, "the equity tables", "equity answers for their rules only",
                         partie=True)
    return shipped_table(prof.name).value(us, them, deal=deal, pending=pending)
