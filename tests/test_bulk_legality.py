"""Legality in bulk (issue 20, item 2): every profile × every kernel player kind.

For each profile and each kernel player kind (``random`` and ``heuristic``: 20,000
donnes; ``pimc`` with 1 world: 300), a recorded run must have **zero replaced
decisions** — the kernels' per-row fault words are all 0 (the facade would raise
:class:`~simcoinche.rules.errors.IllegalDecisionError` on any other) — and every donne's
calls and cards are replayed by the reference engine
(:func:`simcoinche.rules.reference.replay_donne`: each call through its ``Auction``,
each card through ``illegal_card_reason``, then the scoring), which must find no illegal
action, the same contract and the same marks.

The replay runs in two worker processes (``tests/replay_check.py``): about 0.5 ms a
donne in the reference engine, so the 160,000 donnes of the two fast kinds take about
40 s on two cores instead of 80 s in one.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator

import numpy as np
import pytest
from replay_check import compact_rows, replay_rows

from simcoinche._kernels.rng import seed_key
from simcoinche.rules.profiles import PROFILES
from simcoinche.runs.simulation import _plan

N_FAST = 20_000
N_PIMC = 300
WORKERS = 2


@pytest.fixture(scope="module")
def pool() -> Iterator[multiprocessing.pool.Pool]:
    """Two replay processes (spawned: they import only the reference engine's modules)."""
    with multiprocessing.get_context("spawn").Pool(WORKERS) as p:
        yield p


def _run(profile: str, players: str, n: int, seed: int):
    """The recorded rows of ``n`` donnes and their fault words (the facade's buffers, so
    the words are those the commands check)."""
    import pyarrow as pa

    from simcoinche.runs.results import tidy

    plan = _plan(n, seed, profile, players, 2, None, None, True, None)
    key = np.uint64(seed_key(np.uint64(seed)))
    sch = plan.schema(plan.metadata())
    tables, faults = [], []
    for start in range(0, n, plan.chunk):
        k = min(plan.chunk, n - start)
        buf = plan.buffers(k)
        # buf.run raises IllegalDecisionError on a replaced decision; the words are
        # kept and counted below as well.
        buf.run(plan, key, start, k)
        faults.append(buf.faults[:k].copy())
        tables.append(buf.table(plan, start, k, sch))
    return tidy(pa.concat_tables(tables).to_pandas()), np.concatenate(faults)


def _replay(pool, profile: str, df) -> list[str]:
    rows = compact_rows(df)
    size = -(-len(rows) // (4 * WORKERS))
    parts = [(profile, rows[i:i + size]) for i in range(0, len(rows), size)]
    return [line for bad in pool.map(replay_rows, parts) for line in bad]


@pytest.mark.slow
@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("players,n", [("random", N_FAST), ("heuristic", N_FAST),
                                       ("pimc:worlds=1", N_PIMC)])
def test_every_decision_is_legal_and_replays_in_the_reference_engine(pool, profile,
                                                                     players, n):
    seed = 2000 + sorted(PROFILES).index(profile)
    df, faults = _run(profile, players, n, seed)
    assert len(df) == n == faults.size
    # Zero replaced decisions: not one call or card was changed by a kernel.
    assert int(np.count_nonzero(faults)) == 0
    # The sample is a real one: contracts are played (and some donnes passed out).
    played = int((~df["passed_out"]).sum())
    assert played > n // 3
    bad = _replay(pool, profile, df)
    assert not bad, f"{len(bad)} donnes disagree with the reference engine: {bad[:5]}"


def test_the_replay_finds_an_illegal_card_and_a_changed_call():
    """The check can fail: a recorded donne with two of its cards swapped (a later card
    played early: not legal, or not the same tricks) or its last call changed is
    reported, in a process of its own as in the bulk test."""
    df, _ = _run("federal", "heuristic", 200, 7)
    rows = compact_rows(df)
    assert replay_rows(("federal", rows)) == []
    i = next(k for k, r in enumerate(rows) if not r[5])
    donne, hands, dealer, auction, play, *rest = rows[i]
    swapped = bytes([play[0], play[31], *play[2:31], play[1]])
    assert len(replay_rows(("federal", [(donne, hands, dealer, auction, swapped,
                                         *rest)]))) == 1
    # A coinche in place of the final pass: the auction no longer ends there.
    changed = auction[:-1] + bytes([1])
    assert len(replay_rows(("federal", [(donne, hands, dealer, changed, play,
                                         *rest)]))) == 1
