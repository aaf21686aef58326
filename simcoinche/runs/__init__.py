"""The runs layer: many donnes played and written down.

Holds ``simulate`` (:mod:`.simulation`) and its results files (:mod:`.results`), the
Dask engine (:mod:`.distributed`), whole parties (:mod:`.partie`), duplicate matches
(:mod:`.duplicate`, with colver's bots :mod:`.peer_match`), random playouts
(:mod:`.rollout`), double-dummy columns of a run (:mod:`.dd_columns`) and the kernel
warm-up every timed command calls (:mod:`.compiling`).

May import: :mod:`simcoinche.players`, :mod:`simcoinche.rules`,
:mod:`simcoinche._kernels`. Nothing above (no analysis, no command).
"""
