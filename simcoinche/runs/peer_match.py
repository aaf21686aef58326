"""Duplicate matches with a colver bot: both tables played by the Python sequencer.

:func:`simcoinche.runs.match.match` hands a match here when ``a`` or ``b`` is a colver
bot (:mod:`simcoinche.players.peers`). Everything else is the ordinary match: the same deals
(donne ``i`` of the seed, dealer ``i mod 4``), the same two tables (``a`` at seats 0/2,
then at 1/3), the same statistics, Parquet rows and ``--dd`` values. Only the playing of
the tables changes: a :class:`~simcoinche.players.table.Table` per table plays each donne
exactly as the batch kernel would (the kernel player at the other team draws the same
numbers), asking the colver seats through :class:`~simcoinche.players.peers.ColverPlayer`.

colver's calls hold the GIL, so the deals are shared among worker *processes*
(``threads`` of them, default all cores; ``spawn`` context), in tasks of
:data:`TASK_DEALS` deals; each worker builds its own tables and colver players once.
A deal's rows depend only on (seed, donne, players), never on the worker or the task
(colver's generators are seeded per decision; colver-ismcts's clock aside).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from simcoinche._kernels.donne import N_OUT, choose_card, declared_cards, seat_action
from simcoinche._kernels.kinds import ALL_KINDS
from simcoinche._kernels.players import PLAYER_CLUB, PLAYER_RANDOM
from simcoinche._kernels.scoring import score_donne
from simcoinche.players.peers import (
    ColverPlayer,
    PeerSpec,
    check_profile,
    is_peer,
    parse_peer_spec,
    require_colver,
)
from simcoinche.players.registry import param_array, parse_player_spec, spec_name
from simcoinche.players.table import Table, Timing
from simcoinche.runs.duplicate import DD_CHUNK, _MatchBuffers, _MatchPlan
from simcoinche.runs.simulation import _run_plan

#: Deals per chunk (one Parquet row group) of a match with a colver bot.
PEER_CHUNK = 256
#: Deals per worker task (the progress bar moves by this much).
TASK_DEALS = 2


def peer_plan(a: str, b: str, deals: int, seed: Any, profile: Any, threads: Any,
              chunk_size: Any, dd: bool) -> _PeerMatchPlan:
    """The validated plan of a match where ``a`` or ``b`` is a colver bot.

    Raises
    ------
    InputError
        Without colver installed (saying ``pip install 'simcoinche[peers]'``), for a
        profile whose rules are not federal's, or a bad spec or argument.
    """
    peers: list[PeerSpec | None] = []
    kinds, overrides, names = [], [], []
    for spec in (a, b):
        if is_peer(spec):
            ps = parse_peer_spec(spec)
            peers.append(ps)
            # The kernel slot of a colver team is never read (the Table asks colver).
            kinds.append("random")
            overrides.append({})
            names.append(ps.name)
        else:
            kind, over = parse_player_spec(spec)
            peers.append(None)
            kinds.append(kind.name)
            overrides.append(over)
            names.append(spec_name(kind, over))
    require_colver()
    check_profile(profile)
    fields = _run_plan(deals, seed, profile, tuple(kinds), threads, chunk_size,
                       tuple(overrides), DD_CHUNK if dd else PEER_CHUNK)
    fields["players"] = tuple(names)
    return _PeerMatchPlan(**fields, overrides=tuple(overrides), dd=dd, peers=tuple(peers))


@dataclass
class _PeerMatchPlan(_MatchPlan):
    peers: tuple[PeerSpec | None, PeerSpec | None] = (None, None)
    what: ClassVar[str] = "match"
    _pool: ProcessPoolExecutor | None = field(default=None, init=False, repr=False)

    def kernels(self) -> list[Any]:
        """What the sequencer calls (compiled from Python entry points)."""
        kernels = [seat_action, choose_card, declared_cards, score_donne]
        if self.think is not None:
            from simcoinche._kernels.pimc import pimc_card

            kernels.append(pimc_card)
        return kernels

    def state(self, key: np.uint64) -> dict[str, Any]:
        """What a worker needs to play the tables (picklable)."""
        return {"key": int(key), "prof": self.profile.packed.copy(),
                "codes": self.table_codes.copy(), "params": self.table_params.copy(),
                "peers": self.peers, "think": self.think}

    def warm(self, key: np.uint64) -> None:
        """Load the sequencer's kernels here, then start the workers (which load theirs
        and build their tables): called by the run before its timed work."""
        _init(self.state(key))
        if self.threads > 1:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.threads, mp_context=ctx, initializer=_init,
                                             initargs=(self.state(key),))
            # Wait for every worker to be up (imports, kernels, colver) before timing.
            list(self._pool.map(_ready, range(self.threads)))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def buffers(self, size: int) -> _PeerMatchBuffers:
        return _PeerMatchBuffers(size, self.dd)

    def params_meta(self, t: int) -> dict[str, float]:
        peer = self.peers[t]
        if peer is not None:
            return peer.values
        return super().params_meta(t)

    def play(self, start: int, k: int, progress: Any) -> tuple[list[np.ndarray],
                                                                dict[str, Timing]]:
        """Deals ``start .. start+k-1`` at both tables, in tasks (worker processes when
        there are several); ``progress(deals)`` as tasks complete."""
        outs = [np.zeros((N_OUT, k), dtype=np.int32) for _ in range(2)]
        timing: dict[str, Timing] = {}
        tasks = [(s, min(TASK_DEALS, start + k - s)) for s in range(start, start + k,
                                                                    TASK_DEALS)]

        def collect(s: int, m: int, result: tuple[np.ndarray, np.ndarray, dict]) -> None:
            o0, o1, tm = result
            outs[0][:, s - start:s - start + m] = o0
            outs[1][:, s - start:s - start + m] = o1
            for role, t in tm.items():
                timing.setdefault(role, Timing()).add(t)
            if progress is not None:
                progress(m)

        if self._pool is None:
            for s, m in tasks:
                collect(s, m, _play(s, m))
        else:
            futures: list[tuple[int, int, Future]] = [
                (s, m, self._pool.submit(_play, s, m)) for s, m in tasks]
            for s, m, fut in futures:
                collect(s, m, fut.result())
        return outs, timing


class _PeerMatchBuffers(_MatchBuffers):
    """Both tables' rows of a chunk, played by the sequencer, and colver's time."""

    timing: dict[str, Timing]

    def run(self, plan: _PeerMatchPlan, key: np.uint64, start: int, k: int,
            progress: Any = None) -> None:
        outs, self.timing = plan.play(start, k, progress)
        for t in range(2):
            self.out[t][:, :k] = outs[t]
        self._solve_dd(plan, k)

    def stats(self, k: int) -> tuple[Any, ...]:
        return (*super().stats(k), self.timing)


# --- the workers (module level: spawned processes import them) ---------------------------

_STATE: dict[str, Any] = {}


def _init(state: dict[str, Any]) -> None:
    """Build the two tables (and their colver players) of this process."""
    require_colver()
    key = np.uint64(state["key"])
    prof, codes, params, peers = state["prof"], state["codes"], state["params"], state["peers"]
    # Load (or compile) the sequencer's kernels once, on a kernel-only donne, with the
    # run's think argument (its type decides what choose_card compiles) and the same
    # player kinds compiled in as the tables below (every kind: the warm-up seats a club
    # and a random player).
    h = np.array([PLAYER_CLUB, PLAYER_RANDOM], dtype=np.int32)
    warm = Table(prof, h, np.stack([param_array("club"), param_array("random")]),
                 think=state["think"], kinds=ALL_KINDS)
    warm.play(key, 0, 0, np.zeros((N_OUT, 1), dtype=np.int32), 0)
    tables = []
    for t in range(2):
        python: list[ColverPlayer | None] = [None, None]
        for team in range(2):
            spec = peers[0 if team == t else 1]
            if spec is not None:
                python[team] = ColverPlayer(spec, int(key))
        tables.append(Table(prof, codes[t], params[t], tuple(python), state["think"],
                            ALL_KINDS))
    _STATE.clear()
    _STATE.update(key=key, tables=tables)


def _ready(_: int) -> bool:
    return bool(_STATE)


def _play(start: int, k: int) -> tuple[np.ndarray, np.ndarray, dict[str, Timing]]:
    """Deals ``start .. start+k-1`` at both tables of this process: the two tables' rows
    and the time colver's decisions took per role."""
    key, tables = _STATE["key"], _STATE["tables"]
    for table in tables:
        table.timing = [Timing(), Timing()]
        for p in table.python:
            if p is not None:
                p.timing = Timing()
    outs = []
    for table in tables:
        out = np.zeros((N_OUT, k), dtype=np.int32)
        for j in range(k):
            index = start + j
            table.play(key, index, index & 3, out, j)
        outs.append(out)
    # Time per role: at table t, player a is team t (a colver bot's own clock, or the
    # kernel player's calls).
    timing = {"a": Timing(), "b": Timing()}
    for t, table in enumerate(tables):
        for team in range(2):
            p = table.python[team]
            timing["a" if team == t else "b"].add(table.timing[team] if p is None
                                                   else p.timing)
    return outs[0], outs[1], timing

