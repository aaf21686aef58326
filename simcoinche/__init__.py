"""simcoinche: high-throughput simulation of Coinche (belote coinchée).

Public API:

- :func:`simulate` — simulate donnes to a DataFrame or a Parquet file;
- :func:`match` — a duplicate match of two players on the same deals
  (:mod:`simcoinche.duplicate`);
- :func:`parties` — play whole parties to the target (:mod:`simcoinche.partie`: the
  chances of winning from any score);
- :func:`rollout` — random legal playouts from one dealt position (team 0's card points);
- :func:`read_results`, :func:`read_metadata` — read a run back;
- :func:`odds` — P(made) of a hand per contract, optionally given the auction so far;
- :func:`advise` — expected marks of every legal action now, given the auction;
- :mod:`simcoinche.profiles` (rule profiles), :mod:`simcoinche.cards` (card encoding),
  :mod:`simcoinche.features`, :mod:`simcoinche.stats`, :mod:`simcoinche.plots` (analysis),
  :mod:`simcoinche.reference` (the readable rules engine), :mod:`simcoinche.verify`;
- :mod:`simcoinche.dd` — double-dummy values (``simcoinche.dd.table``,
  ``simcoinche.dd.solve_many``, ``simcoinche.dd.card_values``, ``simcoinche.dd.generale``).
"""

__version__ = "0.1.0"
# Bumped whenever a rule implementation changes what a donne scores (stored in outputs).
RULES_VERSION = "2"

from simcoinche import dd  # noqa: E402
from simcoinche.advisor import advise  # noqa: E402
from simcoinche.duplicate import match  # noqa: E402
from simcoinche.hand_odds import odds  # noqa: E402
from simcoinche.partie import parties  # noqa: E402
from simcoinche.results import read_metadata, read_results  # noqa: E402
from simcoinche.rollout import rollout  # noqa: E402
from simcoinche.simulation import simulate, simulate_to_file  # noqa: E402

__all__ = ["RULES_VERSION", "__version__", "advise", "dd", "match", "odds", "parties",
           "read_metadata", "read_results", "rollout", "simulate", "simulate_to_file"]
