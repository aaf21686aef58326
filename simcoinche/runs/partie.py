"""Whole parties, and the chances of winning a partie from any score (``simcoinche parties``).

The module is ``simcoinche.runs.partie``: ``simcoinche.parties`` is the function.

``parties(n, seed=0, profile="federal", players="heuristic", out=None)`` plays the parties
``0 .. n-1`` of the run keyed by ``seed`` to the profile's target with its end rules
(:func:`simcoinche._kernels.scoring.partie_step`), the dealer moving one seat after every
donne. Partie ``p`` draws only from its own streams (``(seed, p, k)`` for its donne ``k``,
:mod:`simcoinche._kernels.partie`), so it is the same whatever the thread count, the
chunking or the engine (``engine="dask"`` runs tasks of contiguous parties on a Dask
cluster into a dataset directory, :mod:`simcoinche.runs.distributed`).

Output: one row per partie (:data:`~simcoinche.runs.results.PARTIE_COLUMNS`): ``partie``,
``winner``, the final totals, ``n_donnes``, and per-donne list columns — one element per
donne, in order: the score before the donne (``score_t0``, ``score_t1``), its contract
and its result. Read it
with :func:`simcoinche.read_results` (a file, or a Dask dataset directory);
:func:`simcoinche.analysis.win_probability.partie_donnes` flattens the lists into one row per donne.

A partie that has no winner after ``max_donnes`` donnes (default 1,000; a real partie
lasts about a dozen) stops with winner ``-1``; the summary counts them and every table
here leaves them out.

:func:`win_probability` answers "what are our chances from 640 to 910?": P(a team wins
the partie | its total, the other team's total before a donne), binned, with Wilson
intervals; :func:`simcoinche.analysis.plots.plot_win_probability` draws it, and ``simcoinche
report`` on a parties run writes it as CSV, PNG and Markdown.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pyarrow as pa

from simcoinche._kernels import donne as D
from simcoinche._kernels.kinds import kinds_of
from simcoinche._kernels.partie import (
    BLOCK,
    PartieOutputs,
    run_parties,
)
from simcoinche._kernels.partie_layout import (
    PD_LEN,
    PT_LEN,
    PT_N_DONNES,
    PT_WINNER,
)
from simcoinche._kernels.score_bid import FB_SCORE_AWARE
from simcoinche.players.faults import check_faults
from simcoinche.players.registry import FITTED_BIDDERS
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, shipped_rules
from simcoinche.runs.arguments import check_overwrite, counted, refuse_unknown_keywords
from simcoinche.runs.blocks import share_blocks
from simcoinche.runs.results import (
    PARTIE_COLUMNS,
    PARTIES_KIND,
    _as_numpy,
    arrow_array,
    schema,
)
from simcoinche.runs.simulation import (
    RunInfo,
    _check_out,
    _run,
    _run_plan,
    _RunPlan,
    positive_int,
    team_players,
)

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_CHUNK = 1 << 14
DEFAULT_MAX_DONNES = 1000
MAX_MAX_DONNES = 30_000          # n_donnes is stored as int16
# Donne rows reserved per partie in the kernel's output (a federal heuristic partie
# lasts 12 donnes on average, 17 at most in 20,000); a block that needs more is played
# again with four times the room.
ROWS_PER_PARTIE = 24


def parties_schema(metadata: dict[str, Any] | None = None) -> pa.Schema:
    """Arrow schema of a parties run, with the run's metadata as JSON under ``simcoinche``."""
    return schema(False, metadata, PARTIE_COLUMNS)


# --- summary ----------------------------------------------------------------------------


@dataclass
class PartiesSummary(RunInfo):
    """What a parties run did: where, how fast, who won."""

    donnes: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    unfinished: int = 0
    #: Donnes of the parties that ended with a winner (the mean length leaves out the
    #: parties cut at ``max_donnes``, as the report's does).
    donnes_finished: int = 0

    @property
    def parties_per_second(self) -> float:
        """Throughput of the run, end to end."""
        return self.n / self.seconds if self.seconds > 0 else float("inf")

    def add_chunk(self, pout: np.ndarray) -> None:
        """Accumulate one chunk of kernel output (``int32[PT_LEN, k]``)."""
        n_donnes = pout[PT_N_DONNES].astype(np.int64)
        self.donnes += int(n_donnes.sum())
        winner = pout[PT_WINNER]
        self.donnes_finished += int(n_donnes[winner >= 0].sum())
        for t in range(2):
            self.wins[t] += int((winner == t).sum())
        self.unfinished += int((winner < 0).sum())

    def text(self) -> str:
        """Short human summary (a few lines)."""
        lines = []
        if self.path:
            lines.append(f"wrote {self.path}")
        rate = self.donnes / self.seconds if self.seconds > 0 else float("inf")
        lines.append(f"{counted(self.n, 'partie')} ({counted(self.donnes, 'donne')}) in "
                     f"{self.seconds:.2f} s: "
                     f"{self.parties_per_second:,.0f} parties/s, {rate:,.0f} donnes/s "
                     f"({self.threads_text}; profile {self.profile_label}; players "
                     f"{self.players[0]},{self.players[1]}; seed {self.seed})")
        finished = self.n - self.unfinished
        length = (f"{self.donnes_finished / finished:.2f} donnes per finished partie"
                  if finished else "no partie finished")
        lines.append(f"won by team 0: {100 * self.wins[0] / self.n:.1f} %, team 1: "
                     f"{100 * self.wins[1] / self.n:.1f} %; {length}")
        if self.unfinished:
            lines.append(f"warning: {self.unfinished:,} parties reached the cap of donnes "
                         "per partie without a winner (winner -1; raise --max-donnes)")
        return "\n".join(lines)


@dataclass
# --- plan and buffers -------------------------------------------------------------------


@dataclass
class _PartiesPlan(_RunPlan):
    max_donnes: int
    unit: ClassVar[str] = "parties"
    what: ClassVar[str] = "parties"
    summary_type: ClassVar[type] = PartiesSummary

    def buffers(self, size: int) -> _PartieBuffers:
        """Kernel output arrays for chunks of up to ``size`` parties."""
        return _PartieBuffers(size, self.max_donnes)

    def schema(self, meta: dict[str, Any]) -> pa.Schema:
        """Arrow schema of the run's rows, with ``meta`` as its metadata."""
        return parties_schema(meta)

    def kernels(self) -> list[Any]:
        """The top-level kernels a chunk calls (compiled before the timed work)."""
        return [run_parties]

    def metadata(self) -> dict[str, Any]:
        return {**self.base_metadata(), "kind": PARTIES_KIND, "target": self.profile.target,
                "dealer": "rotating: (partie + donne) mod 4",
                "max_donnes": self.max_donnes}


_NO_GIVEN = np.zeros((D.N_OUT, 0), dtype=np.int32)


class _PartieBuffers:
    """Kernel output arrays for one chunk of parties."""

    def __init__(self, size: int, max_donnes: int) -> None:
        # One spare column, as simulation._Buffers: full and partial chunks then share one
        # (strided) kernel signature.
        self.pout = np.empty((PT_LEN, size + 1), dtype=np.int32)
        self.n_blocks = -(-size // BLOCK)
        self.used = np.empty(self.n_blocks, dtype=np.int64)
        self.max_rows = BLOCK * max_donnes
        self.max_donnes = max_donnes
        self._alloc(min(BLOCK * ROWS_PER_PARTIE, self.max_rows))

    def _alloc(self, block_rows: int) -> None:
        self.block_rows = block_rows
        rows = self.n_blocks * block_rows
        # A strided view (one spare column), the layout run_batch gets from simulate: the
        # donne kernel compiled for it serves both.
        self.dout = np.empty((PD_LEN, rows + 1), dtype=np.int32)[:, :rows]
        # The decisions replaced per donne row of dout (checked, never written).
        self.faults = np.zeros(rows, dtype=np.int32)

    def run(self, plan: _PartiesPlan, key: np.uint64, start: int, k: int,
            progress: Any = None) -> None:
        """Play parties ``start .. start+k-1``; ``progress(k)`` is called when done.

        Raises
        ------
        IllegalDecisionError
            When a player's call or card had to be replaced in one of the donnes.
        """
        nb = -(-k // BLOCK)
        players = D.Players(plan.codes, plan.params, kinds_of(plan.codes))
        while True:
            outs = PartieOutputs(self.pout[:, :k], self.dout, self.used, self.faults)
            share_blocks(nb, lambda first, end, outs=outs: run_parties(
                key, np.int64(start), np.int64(k), (np.int64(first), np.int64(end)),
                np.int64(plan.max_donnes), np.int64(self.block_rows), _NO_GIVEN, players,
                plan.profile.packed, outs, plan.think))
            if (self.used[:nb] >= 0).all():
                self._check(plan, start, k)
                if progress is not None:
                    progress(k)
                return
            # A block ran out of donne rows: play the chunk again with more room (kept
            # for the next chunks). Rows depend only on the partie, never on the room.
            self._alloc(min(4 * self.block_rows, self.max_rows))

    def _rows(self, k: int) -> np.ndarray:
        """Columns of ``dout`` holding the last run's donnes, in partie then donne order
        (block ``b``'s rows are ``b*block_rows .. + used[b]``)."""
        nb = -(-k // BLOCK)
        lengths = self.used[:nb]
        ends = np.cumsum(lengths)
        shift = np.arange(nb, dtype=np.int64) * self.block_rows - (ends - lengths)
        return np.arange(int(ends[-1]), dtype=np.int64) + np.repeat(shift, lengths)

    def _check(self, plan: _PartiesPlan, start: int, k: int) -> None:
        """Raise :class:`IllegalDecisionError` when a decision of the last run of ``k``
        parties was replaced, naming the partie and its donne."""
        offsets = np.zeros(k + 1, dtype=np.int64)
        np.cumsum(self.pout[PT_N_DONNES, :k], out=offsets[1:])

        def where(i: int) -> str:
            p = int(np.searchsorted(offsets, i, side="right")) - 1
            return f"partie {start + p}, donne {i - int(offsets[p])}"

        check_faults(self.faults[self._rows(k)], plan.players, plan.profile, where)

    def stats(self, k: int) -> np.ndarray:
        """What :meth:`PartiesSummary.add_chunk` takes for the last run of ``k`` parties."""
        return self.pout[:, :k]

    def table(self, plan: _PartiesPlan, start: int, k: int, sch: pa.Schema) -> pa.Table:
        """Arrow table of the last run: one row per partie, per-donne lists."""
        idx = self._rows(k)
        total = idx.size
        d = self.dout[:, idx]
        n_donnes = self.pout[PT_N_DONNES, :k]
        offsets = np.zeros(k + 1, dtype=np.int32)
        np.cumsum(n_donnes, out=offsets[1:])
        assert offsets[-1] == total
        offsets_arr = arrow_array(offsets)
        arrays: list[pa.Array] = []
        for col in PARTIE_COLUMNS:
            if col.name == "partie":
                arrays.append(arrow_array(np.arange(start, start + k, dtype=np.int64)))
            elif pa.types.is_list(col.type):
                values = arrow_array(_as_numpy(d[col.source], col.type.value_type, col.name))
                arrays.append(pa.ListArray.from_arrays(offsets_arr, values))
            else:
                arrays.append(arrow_array(_as_numpy(self.pout[col.source, :k], col.type,
                                                      col.name)))
        return pa.Table.from_arrays(arrays, schema=sch)


# --- facade -----------------------------------------------------------------------------


def warm_equity() -> None:
    """Compile (or load) the score-aware bidder's equity of a score
    (:func:`simcoinche._kernels.score_bid._local`, and :func:`~simcoinche._kernels.
    score_bid._after` with it) with the argument types of a partie's donnes: what a cold
    ``parties`` reaches first after dealing, which its compile helper compiles meanwhile
    (:mod:`simcoinche.commands.warmup`): the default players' rows, at 0 to 0."""
    from simcoinche._kernels.layout import P_PARTIE_RULE
    from simcoinche._kernels.score_bid import _local
    from simcoinche.rules.profiles import get_profile

    prof = get_profile("federal")
    _, _, rows = team_players("heuristic", None, prof)
    # (our total, theirs, our pending flag, theirs, target, partie rule, we deal next):
    # int64 but the rule, read from the packed int32 profile.
    zero = np.int64(0)
    _local(rows, zero, (zero, zero, zero, zero, np.int64(prof.target),
                        np.int32(prof.packed[P_PARTIE_RULE]), True))


def default_parties_out(profile: str, seed: int, n: int) -> Path:
    """Default output ``runs/simcoinche-parties-<profile>-s<seed>-n<n>.parquet`` (a
    dataset directory of the same name without ``.parquet`` for the Dask engine)."""
    return Path("runs") / f"simcoinche-parties-{profile}-s{seed}-n{n}.parquet"


def _check_max_donnes(max_donnes: Any) -> int:
    if max_donnes is None:
        return DEFAULT_MAX_DONNES
    m = positive_int(max_donnes, "max_donnes")
    if m > MAX_MAX_DONNES:
        raise InputError(f"max_donnes must be at most {MAX_MAX_DONNES:,}, got {m}")
    return m


def check_partie_equity(fields: Mapping[str, Any]) -> None:
    """Refuse a partie whose score-aware bidders would read a match equity fitted for
    other rules: players heuristic and pimc weigh their calls by the shipped profile's
    equity table (its target, its end rules), which a profile built by hand that changes
    any rule does not have. ``fields``: a run plan's (:func:`.simulation._run_plan`)."""
    if any(code in FITTED_BIDDERS and row[FB_SCORE_AWARE] != 0
           for code, row in zip(fields["codes"].tolist(), fields["params"], strict=True)):
        shipped_rules(fields["profile"], "the match equity tables that the score-aware "
                      "bidder of players heuristic and pimc reads in a partie",
                      "give them score_aware=0 (e.g. heuristic:score_aware=0)", partie=True)


def _plan(n: Any, seed: Any, profile: Any, players: Any, threads: Any, chunk_size: Any,
          max_donnes: Any, params: Sequence[Mapping[str, float] | None] | None
          ) -> _PartiesPlan:
    fields = _run_plan(n, seed, profile, players, threads, chunk_size, params,
                       DEFAULT_CHUNK)
    check_partie_equity(fields)
    return _PartiesPlan(**fields, max_donnes=_check_max_donnes(max_donnes))


def parties(n: int, seed: int = 0, profile: str | Profile | None = "federal",
            players: str | Sequence[str] | None = "heuristic",
            out: str | os.PathLike[str] | None = None, *, threads: int | None = None,
            overwrite: bool = False, chunk_size: int | None = None,
            max_donnes: int | None = None,
            params: Sequence[Mapping[str, float] | None] | None = None,
            progress: bool | None = None, engine: str = "local",
            scheduler: str | None = None, client: Any = None, task_size: int | None = None,
            timeout: float | None = None, cluster_shape: tuple[int, int] | None = None,
            ) -> pd.DataFrame | PartiesSummary:
    """Play ``n`` complete parties to the profile's target, with its end rules.

    Parameters
    ----------
    n : int
        Number of parties (> 0): parties ``0 .. n-1`` of the run.
    seed : int
        Run seed (``0 .. 2**64-1``); partie ``p`` of a seed is always the same.
    profile : str or Profile
        Rule profile (``federal``): target and end-of-partie rules.
    players : str or pair of str
        ``"heuristic"``, ``"random"`` or ``"TEAM0,TEAM1"`` / a pair, as :func:`simulate`.
    out : path-like, optional
        Parquet file to write (a dataset directory with ``engine="dask"``); ``None``
        returns the rows as a DataFrame (local engine only).
    threads : int, optional
        Worker threads (default: all cores; Dask: numba threads per task). Results do not
        depend on it.
    overwrite : bool
        Replace an existing ``out``.
    chunk_size : int, optional
        Parties per kernel call and Parquet row group (default 16,384); results do not
        depend on it.
    max_donnes : int, optional
        Donnes after which a partie stops without a winner (default 1,000, at most
        30,000); such parties have ``winner == -1`` and the summary counts them.
    params : pair of mappings, optional
        Parameter overrides per team, by name (:mod:`simcoinche.players.registry`).
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    engine : {"local", "dask"}
        ``"dask"``: tasks of contiguous parties on a Dask cluster, one Parquet part each,
        in a resumable dataset directory (default :func:`default_parties_out` without
        ``.parquet``); same rows as the local engine.
    scheduler, client, task_size, timeout, cluster_shape
        Dask engine only, as :func:`simcoinche.runs.distributed.simulate_dask`.

    Returns
    -------
    pandas.DataFrame or PartiesSummary
        The rows (``out=None``; metadata in ``df.attrs["simcoinche"]``, summary in
        ``df.attrs["summary"]``), else the summary of the written run.

    Raises
    ------
    InputError
        For any bad argument, an existing output without ``overwrite`` or an unwritable
        path; nothing is written then.
    """
    t0 = time.perf_counter()
    if _check_engine(engine) == "dask":
        from simcoinche.runs.distributed import run_dask

        plan = _plan(n, seed, profile, players, None, chunk_size, max_donnes, params)
        default = default_parties_out(plan.profile.name, plan.seed, plan.n).with_suffix("")
        return run_dask(plan, out, default, scheduler=scheduler, client=client,
                        task_size=task_size, threads=threads, overwrite=overwrite,
                        progress=progress, timeout=timeout, cluster_shape=cluster_shape,
                        t0=t0)
    _refuse_dask_options(scheduler=scheduler, client=client, task_size=task_size,
                         timeout=timeout, cluster_shape=cluster_shape)
    check_overwrite(overwrite, out)
    plan = _plan(n, seed, profile, players, threads, chunk_size, max_donnes, params)
    path = None if out is None else _check_out(out, overwrite, default=False)
    return _run(plan, path, progress)


#: The options of :func:`parties` that only the Dask engine reads.
_DASK_OPTIONS = ("scheduler", "client", "task_size", "timeout", "cluster_shape")
#: The keyword arguments :func:`parties_to_file` passes on (those of :func:`parties`).
_TO_FILE_OPTIONS = frozenset({"threads", "overwrite", "chunk_size", "max_donnes", "params",
                              "progress", "engine", *_DASK_OPTIONS})


def _check_engine(engine: Any) -> str:
    """``"local"`` or ``"dask"``, else InputError."""
    if engine not in ("local", "dask"):
        raise InputError(f"engine must be 'local' or 'dask', got {engine!r}")
    return engine


def _refuse_dask_options(**options: Any) -> None:
    """A Dask-only option given to a local run: refused, not ignored."""
    for name, value in options.items():
        if value is not None:
            raise InputError(f"{name} needs engine='dask'")


def parties_to_file(n: int, seed: int = 0, profile: str | Profile | None = "federal",
                    players: str | Sequence[str] | None = "heuristic",
                    out: str | os.PathLike[str] | None = None,
                    **kwargs: Any) -> PartiesSummary:
    """As :func:`parties` but always writes (default path :func:`default_parties_out`,
    its directory created if missing).

    Raises
    ------
    InputError
        As :func:`parties`, and for a keyword :func:`parties` does not take.
    """
    refuse_unknown_keywords(kwargs, _TO_FILE_OPTIONS, "parties_to_file")
    if _check_engine(kwargs.pop("engine", "local")) == "dask":
        result = parties(n, seed, profile, players, out, engine="dask", **kwargs)
        assert isinstance(result, PartiesSummary)
        return result
    _refuse_dask_options(**{k: kwargs.get(k) for k in _DASK_OPTIONS})
    plan = _plan(n, seed, profile, players, kwargs.get("threads"), kwargs.get("chunk_size"),
                 kwargs.get("max_donnes"), kwargs.get("params"))
    default = out is None
    if default:
        out = default_parties_out(plan.profile.name, plan.seed, plan.n)
    path = _check_out(out, kwargs.get("overwrite", False), default=default)
    result = _run(plan, path, kwargs.get("progress"))
    assert isinstance(result, PartiesSummary)
    return result
