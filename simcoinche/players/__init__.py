"""The players layer: who decides, and the table that asks them.

Holds the registry of kernel player kinds with their parameters (:mod:`.registry`:
``random``, ``heuristic``, ``pimc``), the Python donne sequencer that seats Python
players beside kernel ones (:mod:`.table`) and colver's bots as such players
(:mod:`.peers`).

May import: :mod:`simcoinche.rules`, :mod:`simcoinche._kernels`. Nothing above.
"""
