"""The progress bars of every long command: one look, on standard error."""

from __future__ import annotations

import sys
from typing import Any

#: From this total on, counts are written in SI units (1.20M/2.00M); below it as whole
#: numbers (64/300), where tqdm's SI units wrote 64.0/300.
SI_FROM = 10_000


def progress_bar(total: int, enabled: bool | None, unit: str, *, desc: str | None = None,
                 initial: int = 0, smoothing: float = 0.3, leave: bool = True) -> Any:
    """A tqdm bar on stderr counting ``unit`` (``"donnes"``, ``"plays"``…) up to ``total``.

    ``enabled`` None: only when stderr is a terminal. ``initial``: the count already done
    (a resumed run); ``smoothing``: tqdm's weight of the latest rate (0.1 for the runs,
    whose chunks take about as long as each other); ``leave``: keep the finished bar.
    """
    from tqdm import tqdm

    if enabled is None:
        enabled = sys.stderr.isatty()
    return tqdm(total=total, initial=initial, unit=f" {unit}", unit_scale=total >= SI_FROM,
                disable=not enabled, file=sys.stderr, dynamic_ncols=True, desc=desc,
                smoothing=smoothing, leave=leave)
