"""The cores this process may use (the commands' compile helper, the Dask engine).

The blocks of the batch kernels are shared out to threads by
:func:`simcoinche._kernels.threads.share_blocks`.
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (no affinity on this system)
        return os.cpu_count() or 1
