"""The equity tables against simulated parties (issue 22, criterion 1).

:func:`compare_with_parties` counts, in a ``simcoinche parties`` run, every score seen
before a donne from the side of the team dealing that donne — the table's cells V(its
total, the other's) — and whether that team went on to win; each cell visited by
enough parties gets the Wilson interval of its share won, and the table's value is
checked against it. Cells with a total at or over the target are left out (the run does
not record the pending flags that tell those states apart).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcoinche.analysis.intervals import chi2_sf, wilson_interval
from simcoinche.analysis.win_probability import partie_donnes, partie_target, source_metadata
from simcoinche.players.equity import EquityTable
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile, profile_of_run, rules_changed


@dataclass
class EquityCheck:
    """Cells compared (``cells``: one row each) and the summary over them."""

    cells: pd.DataFrame
    min_parties: int
    chi2: float
    p_value: float

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_outside(self) -> int:
        return int((~self.cells["inside"]).sum())

    @property
    def passed(self) -> bool:
        """Every cell inside its interval, or the chi-square not rejected at 0.001."""
        return self.n_cells > 0 and (self.n_outside == 0 or self.p_value > 0.001)

    def summary(self) -> str:
        return (f"{self.n_cells} cells with at least {self.min_parties:,} parties: "
                f"{self.n_cells - self.n_outside} inside the 95 % Wilson interval, "
                f"{self.n_outside} outside; chi-square {self.chi2:.1f} on {self.n_cells} "
                f"cells, p = {self.p_value:.3g}")


def _check_same_rules(table: EquityTable, source: pd.DataFrame | str | os.PathLike[str]
                      ) -> None:
    """Refuse parties played under other rules than the table's (another target, other
    end rules or donne rules): the comparison would mean nothing. A source that records
    no run (a frame made by hand, or one concatenated from several runs, which pandas
    leaves without the runs' attrs) is taken as it is."""
    meta = source_metadata(source)
    if meta is None:
        return
    target = partie_target(meta)
    # (The table keeps its own target; every other rule is its profile's.)
    changed = [f for f in rules_changed(profile_of_run(meta), get_profile(table.profile))
               if f != "target"]
    if target != table.target:
        changed.append(f"target ({target}, the table's {table.target})")
    if changed:
        raise InputError(f"the parties were played under other rules than the equity "
                         f"table's (profile {table.profile!r}): {', '.join(changed)}")


def compare_with_parties(table: EquityTable, source: pd.DataFrame | str | os.PathLike[str],
                         min_parties: int = 1000, z: float = 1.96) -> EquityCheck:
    """Compare ``table`` with the parties of ``source`` on every cell they visit enough.

    Parameters
    ----------
    table : EquityTable
    source : DataFrame or path-like
        A parties run (rows of :func:`simcoinche.parties` or its Parquet output).
    min_parties : int
        Cells visited by fewer parties are left out.
    z : float
        Normal quantile of the interval.

    Returns
    -------
    EquityCheck
        ``cells``: ``us`` (the dealing team's total), ``them``, ``we_deal`` (always
        True), ``parties``, ``wins``, ``p_parties``, ``low``, ``high``, ``p_table``,
        ``inside``; sorted by parties, most first.

    Raises
    ------
    InputError
        For a source that is not a parties run, or parties played under other rules than
        the table's (its target, end rules or donne rules), naming them.
    """
    d = partie_donnes(source, ["score_t0", "score_t1"])
    _check_same_rules(table, source)
    d = d[d["winner"] >= 0]
    target = table.target
    # Each score before a donne is seen once, from the dealing team (the other team's
    # view of it is the same event, won by the other side: counting both would count
    # every partie twice).
    dealing = ((d["partie"].to_numpy() + d["donne"].to_numpy()) & 1).astype(np.int64)
    s0 = d["score_t0"].to_numpy().astype(np.int64)
    s1 = d["score_t1"].to_numpy().astype(np.int64)
    obs = pd.DataFrame({
        "partie": d["partie"].to_numpy(), "us": np.where(dealing == 0, s0, s1),
        "them": np.where(dealing == 0, s1, s0), "won": d["winner"].to_numpy() == dealing})
    obs = obs[(obs["us"] < target) & (obs["them"] < target)]
    # A partie counts once per cell (a cell can come back after two passed-out donnes).
    obs = obs.drop_duplicates(["partie", "us", "them"])
    cells = (obs.groupby(["us", "them"], sort=False)["won"]
             .agg(parties="size", wins="sum").reset_index())
    cells["we_deal"] = True
    cells = cells[cells["parties"] >= min_parties].copy()
    cells["p_parties"] = cells["wins"] / cells["parties"]
    low, high = wilson_interval(cells["wins"].to_numpy(), cells["parties"].to_numpy(), z)
    cells["low"] = low
    cells["high"] = high
    cells["p_table"] = [table.value(int(u), int(t), deal="us" if w else "them")
                        for u, t, w in zip(cells["us"], cells["them"], cells["we_deal"],
                                           strict=True)]
    cells["inside"] = (cells["p_table"] >= cells["low"]) & (cells["p_table"] <= cells["high"])
    cells = cells.sort_values(["parties", "us", "them"], ascending=[False, True, True])
    n = cells["parties"].to_numpy(dtype=np.float64)
    p = cells["p_table"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = (cells["wins"].to_numpy() - n * p) ** 2 / (n * p * (1 - p))
    chi2 = float(np.nansum(terms))
    return EquityCheck(cells.reset_index(drop=True), min_parties, chi2,
                       chi2_sf(chi2, len(cells)))
