"""simcoinche: high-throughput simulation of Coinche (belote coinchée).

Public API:

- :func:`simulate` — simulate donnes to a DataFrame or a Parquet file;
- :func:`rollout` — random legal playouts from one dealt position (team 0's card points);
- :func:`read_results`, :func:`read_metadata` — read a run back;
- :mod:`simcoinche.profiles` (rule profiles), :mod:`simcoinche.cards` (card encoding),
  :mod:`simcoinche.features`, :mod:`simcoinche.stats`, :mod:`simcoinche.plots` (analysis),
  :mod:`simcoinche.reference` (the readable rules engine), :mod:`simcoinche.verify`.
"""

__version__ = "0.1.0"
# Bumped whenever a rule implementation changes what a donne scores (stored in outputs).
RULES_VERSION = "2"

from simcoinche.results import read_metadata, read_results  # noqa: E402
from simcoinche.rollout import rollout  # noqa: E402
from simcoinche.simulation import simulate, simulate_to_file  # noqa: E402

__all__ = ["RULES_VERSION", "__version__", "read_metadata", "read_results", "rollout", "simulate",
           "simulate_to_file"]
