"""Rows of the parties kernel's outputs (:mod:`.partie`): a partie's own rows, and the
two rows a donne of a partie adds to the donne kernel's (:data:`.donne_layout.N_OUT`). Apart
from that kernel, so that the results layer (``runs/results.py``) names a parties run's
columns from the rows alone, as it names a run of donnes'."""

from __future__ import annotations

from simcoinche._kernels.donne_layout import N_OUT

# --- partie output rows (int32[PT_LEN, n]) ----------------------------------------------
PT_WINNER = 0       # winning team, -1 if the partie stopped at max_donnes
PT_TOTAL = 1        # 2 rows: final totals per team
PT_N_DONNES = 3     # donnes played
PT_LEN = 4

# --- donne rows (int32[PD_LEN, rows]): play_one's O_* rows, then ---------------------
PD_SCORE = N_OUT    # 2 rows: partie totals per team before the donne
PD_LEN = N_OUT + 2
