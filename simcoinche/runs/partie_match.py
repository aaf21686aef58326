"""Duplicate parties: two players on the same deal streams, each in both seat pairs.

``match(a, b, parties=N)`` (:mod:`.match`) plays every partie ``p`` at two tables:

- table 0: player ``a`` holds seats 0/2 (team 0), ``b`` seats 1/3 (team 1);
- table 1: ``b`` at seats 0/2 and ``a`` at seats 1/3.

Why the two tables are dealt the same cards: donne ``k`` of partie ``p`` draws its deal
from the stream ``(seed, p, k)`` and its dealer is ``(p + k) mod 4``
(:mod:`simcoinche._kernels.partie`), whoever sits where; so the two tables are two runs
of the parties kernel with the same seed and the team codes and parameter rows swapped,
paired by partie index — what ``simcoinche parties`` plays with the players in either
order. The two parties of a pair see the same donnes as long as both last; as their
scores differ, one may end before the other, whose last donnes then have no twin.

Statistics (in parties won):

- **difference of a pair** ``d`` = the parties ``a`` won (0, 1 or 2 of the two) minus
  those ``b`` won: ``+2`` a won both, ``0`` one each, ``-2`` b won both (``±1`` only when
  a partie stopped unfinished at ``max_donnes``: it counts for neither);
- **mean difference** over the pairs with a 95 % interval ``mean ± 1.96 s / √n`` (normal
  approximation on the paired differences, as deal matches);
- **won / tied / lost**: shares of pairs with ``d > 0``, ``= 0``, ``< 0``;
- per player: the parties it won out of the ``2n`` played and their share, and the
  donnes its parties lasted.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pyarrow as pa

from simcoinche._kernels.partie_layout import PT_N_DONNES, PT_WINNER
from simcoinche._version import RULES_VERSION, __version__
from simcoinche.players.registry import params_dict
from simcoinche.rules.profiles import profile_metadata
from simcoinche.runs.duplicate import (
    PairedDifferences,
    interleave_tables,
    table_columns,
    with_table_columns,
)
from simcoinche.runs.partie import (
    _PartieBuffers,
    _PartiesPlan,
    parties_schema,
)
from simcoinche.runs.simulation import GENERATOR, RunInfo

if TYPE_CHECKING:
    import pandas as pd

PARTIES_DIFFERENCE = ("parties won by A minus parties won by B over the pair: table 0 (A at "
                      "seats 0/2) and table 1 (A at seats 1/3), the same deal stream")

def partie_match_schema(metadata: dict[str, Any] | None = None) -> pa.Schema:
    """Arrow schema of a duplicate parties match: the parties columns
    (:data:`~simcoinche.runs.results.PARTIE_COLUMNS`), then the table and the players."""
    return with_table_columns(parties_schema(metadata))


@dataclass(eq=False)
class PartieMatchResult(RunInfo, PairedDifferences):
    """A duplicate parties match: the per-pair differences, their summary and per-player
    parties won.

    ``n`` is the number of parties (each played at two tables), ``players`` the two specs
    (a, b). ``diffs`` (``int8[n]``) holds each pair's difference (module docstring);
    ``rows`` the two tables' rows (two per partie, in (partie, table) order) when no
    output file was asked for and ``rows=True`` (the default), else None.
    """

    diffs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8),
                              repr=False)
    wins: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    donnes: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    unfinished: int = 0
    rows: pd.DataFrame | None = field(default=None, repr=False)
    _parts: list[np.ndarray] = field(default_factory=list, repr=False)

    def add_chunk(self, chunk: tuple[np.ndarray, np.ndarray]) -> None:
        """Accumulate one chunk: the two tables' partie outputs (``int32[PT_LEN, k]``)."""
        w0 = chunk[0][PT_WINNER].astype(np.int64)
        w1 = chunk[1][PT_WINNER].astype(np.int64)
        # Player a is team 0 at table 0 and team 1 at table 1; -1 (unfinished) is nobody's.
        a_won = (w0 == 0).astype(np.int8) + (w1 == 1)
        b_won = (w0 == 1).astype(np.int8) + (w1 == 0)
        self._parts.append((a_won - b_won).astype(np.int8))
        self.wins["a"] += int(a_won.sum())
        self.wins["b"] += int(b_won.sum())
        self.unfinished += int((w0 < 0).sum() + (w1 < 0).sum())
        n0 = chunk[0][PT_N_DONNES].astype(np.int64).sum()
        n1 = chunk[1][PT_N_DONNES].astype(np.int64).sum()
        # Both players sit at both tables: each played every donne of the pair.
        self.donnes["a"] += int(n0 + n1)
        self.donnes["b"] += int(n0 + n1)

    @property
    def none_finished(self) -> bool:
        """No partie of the match ended with a winner: there is no pair to compare."""
        return self.n > 0 and self.unfinished == 2 * self.n

    def share(self, role: str) -> float:
        """Share of the ``2n`` parties won by ``role`` (``"a"`` or ``"b"``)."""
        return self.wins[role] / (2 * self.n)

    def to_json(self) -> dict[str, Any]:
        """The match as a JSON-ready dict: the keys of a deal match (``a``, ``b``,
        ``mean_diff``, ``ci95``, ``won``, ``players``, ``tied``, ``lost``, ``sd``, …) with
        ``parties`` instead of ``deals``."""
        # No partie finished: no pair to compare, not a certain tie (no interval).
        ci = None if self.none_finished else self.ci95
        return {
            "a": self.a, "b": self.b, "parties": self.n,
            "mean_diff": self.mean_diff,
            "ci95": None if ci is None else [ci[0], ci[1]],
            "won": self.won,
            "players": {r: {"name": self.players[i], "parties_won": self.wins[r],
                            "share_won": self.share(r), "donnes": self.donnes[r]}
                        for i, r in enumerate(("a", "b"))},
            "tied": self.tied, "lost": self.lost, "sd": self.sd,
            "unfinished": self.unfinished,
            "difference": PARTIES_DIFFERENCE,
            "interval": "normal approximation on the paired differences",
            "profile": self.profile, "seed": self.seed, "seconds": self.seconds,
            "threads": self.threads,
        }

    def text(self) -> str:
        """A short human summary."""
        lines = self.head_lines("parties", "parties won per pair", 3)
        if self.none_finished:
            # Every pair "split" with a zero-width interval: no partie ended at all.
            return "\n".join([*(ln for ln in lines if not ln.startswith(("a - b", "note:"))),
                              f"no partie finished: all {2 * self.n:,} reached the cap "
                              "of donnes per partie, so there is nothing to compare "
                              "(raise max_donnes)"])
        lines.append(f"pairs won by a: {100 * self.won:.1f} %, split {100 * self.tied:.1f} %,"
                     f" lost {100 * self.lost:.1f} %")
        for i, role in enumerate(("a", "b")):
            lines.append(f"{role} {self.players[i]}: won {self.wins[role]:,} of "
                         f"{2 * self.n:,} parties ({100 * self.share(role):.1f} %)")
        if self.unfinished:
            lines.append(f"warning: {self.unfinished:,} parties reached the cap of donnes "
                         "per partie without a winner (counted for neither; raise "
                         "max_donnes)")
        return "\n".join(lines)


# --- plan and buffers -------------------------------------------------------------------


@dataclass
class _PartieMatchPlan(_PartiesPlan):
    #: ``[t]``: the parties plan of table ``t`` (a is team ``t``).
    tables: tuple[_PartiesPlan, _PartiesPlan] = field(init=False)
    unit: ClassVar[str] = "parties"
    summary_type: ClassVar[type] = PartieMatchResult

    def __post_init__(self) -> None:
        plain = {f.name: getattr(self, f.name) for f in dataclasses.fields(_PartiesPlan)}
        swapped = {**plain, "codes": np.ascontiguousarray(self.codes[::-1]),
                   "params": np.ascontiguousarray(self.params[::-1]),
                   "players": (self.players[1], self.players[0])}
        self.tables = (_PartiesPlan(**plain), _PartiesPlan(**swapped))

    def buffers(self, size: int) -> _PartieMatchBuffers:
        return _PartieMatchBuffers(size, self.max_donnes)

    def schema(self, meta: dict[str, Any]) -> pa.Schema:
        return partie_match_schema(meta)

    def metadata(self) -> dict[str, Any]:
        return {
            "kind": "partie_match",
            "seed": self.seed,
            "parties": self.n,
            **profile_metadata(self.profile),
            "target": self.profile.target,
            "a": self.players[0],
            "b": self.players[1],
            "params": [params_dict(self.players[t].partition(":")[0], self.params[t])
                       for t in range(2)],
            "difference": PARTIES_DIFFERENCE,
            "dealer": "rotating: (partie + donne) mod 4",
            "max_donnes": self.max_donnes,
            "version": __version__,
            "rules_version": RULES_VERSION,
            "generator": GENERATOR,
            "chunk_size": self.chunk,
        }


class _PartieMatchBuffers:
    """The parties kernel's outputs of both tables for one chunk of parties."""

    def __init__(self, size: int, max_donnes: int) -> None:
        self.tables = (_PartieBuffers(size, max_donnes), _PartieBuffers(size, max_donnes))

    def run(self, plan: _PartieMatchPlan, key: np.uint64, start: int, k: int,
            progress: Any = None) -> None:
        """Play parties ``start .. start+k-1`` at both tables; ``progress(k)`` is called
        when done.

        Raises
        ------
        IllegalDecisionError
            When a player's call or card had to be replaced at either table.
        """
        for t in range(2):
            self.tables[t].run(plan.tables[t], key, start, k)
        if progress is not None:
            progress(k)

    def stats(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        return self.tables[0].stats(k), self.tables[1].stats(k)

    def table(self, plan: _PartieMatchPlan, start: int, k: int, sch: pa.Schema) -> pa.Table:
        """Both tables' rows, interleaved: (partie, table 0), (partie, table 1), …"""
        base = parties_schema()
        tables = []
        for t in range(2):
            tab = self.tables[t].table(plan.tables[t], start, k, base)
            cols = list(tab.columns) + table_columns(t, k, plan.players)
            tables.append(pa.Table.from_arrays(cols, schema=sch))
        return interleave_tables(tables, k)

