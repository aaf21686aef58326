"""Rows of the donne kernel's output (:mod:`.donne`): one column per donne, one row per
field of the results' schema. Apart from that kernel, so that the results layer
(``runs/results.py``) names a run's columns, and reads a run back, without importing any
compiled code (a machine whose kernel cache cannot be written still reads results).
Offsets ``O_*`` into ``int32[N_OUT, n]``; hands are stored as their ``uint32`` bit
pattern."""

from __future__ import annotations

# --- output columns (int32[N_OUT, n]) --------------------------------------------------
O_DEALER = 0
O_HAND = 1          # 4 columns: hand_0..hand_3 (uint32 bit pattern)
O_PASSED = 5
O_TAKER = 6
O_LEVEL = 7
O_VALUE = 8
O_TRUMP = 9
O_CAPOT = 10
O_COINCHE = 11
O_N_BIDS = 12
O_TRICKS = 13       # 2 columns
O_CARD_POINTS = 15  # 2 columns
O_ANNOUNCE = 17     # 2 columns
O_BELOTE = 19       # 2 columns
O_MADE = 21
O_MARKS = 22        # 2 columns
N_OUT = 24

MAX_ACTIONS = 128
NO_CARD = 255
