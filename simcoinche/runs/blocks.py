"""Blocks of rows shared out to threads: the facade's side of the batch kernels.

``batch.run_batch``, ``partie.run_parties``, ``auction_filter.filter_deals`` and
``auction_filter.continue_auctions`` run the blocks they are given, one after the other,
on the calling thread with the GIL released. :func:`share_blocks` hands a chunk's blocks
to ``numba.get_num_threads()`` threads, :data:`BLOCKS_PER_TASK` at a time and
dynamically, so that a thread slowed down (by the Parquet writer sharing its core,
another process, a long PIMC donne) does not leave the others idle at the end of every
chunk. A row depends only on its index, never on the block, the task or the thread.

The kernels are not ``prange`` loops: numba's parallel loop wraps the block kernel in
four more compiled levels, and each of them links and optimises the whole donne code
again (``benchmarks/README.md``, "Compile time, sixth cut").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba

#: Blocks a thread takes at a time (one call of the kernel).
BLOCKS_PER_TASK = 4


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (no affinity on this system)
        return os.cpu_count() or 1


def share_blocks(n_blocks: int, run: Callable[[int, int], object],
                 per_task: int = BLOCKS_PER_TASK) -> None:
    """Call ``run(first, end)`` for the blocks ``first .. end-1`` of ``0 .. n_blocks-1``,
    ``per_task`` (default :data:`BLOCKS_PER_TASK`) at a time, on
    ``numba.get_num_threads()`` threads (the calling thread alone when one is enough).
    Returns when every block is done; an exception in any call is raised here."""
    tasks = [(first, min(first + per_task, n_blocks))
             for first in range(0, n_blocks, per_task)]
    threads = min(numba.get_num_threads(), len(tasks))
    if threads <= 1:
        for first, end in tasks:
            run(first, end)
        return
    with ThreadPoolExecutor(threads) as pool:
        for _ in pool.map(run, *zip(*tasks, strict=True)):
            pass
