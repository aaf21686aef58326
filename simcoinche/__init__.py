"""simcoinche: high-throughput simulation of Coinche (belote coinchée).

Public API:

- :func:`simulate` — simulate donnes to a DataFrame or a Parquet file;
- :func:`match` — a duplicate match of two players on the same deals
  (:mod:`simcoinche.runs.duplicate`);
- :func:`parties` — play whole parties to the target (:mod:`simcoinche.runs.partie`: the
  chances of winning from any score);
- :func:`rollout` — random legal playouts from one dealt position (team 0's card points);
- :func:`read_results`, :func:`read_metadata` — read a run back;
- :func:`odds` — P(made) of a hand per contract, optionally given the auction so far;
- :func:`advise` — expected marks of every legal action now, given the auction (and,
  with a score, its chance of winning the partie);
- :func:`equity` — P(winning the partie | the score, who deals next), from the shipped
  match-equity tables (:mod:`simcoinche.players.equity`);
- :mod:`dd` — double-dummy values (``simcoinche.dd.table``, ``simcoinche.dd.solve_many``,
  ``simcoinche.dd.card_values``, ``simcoinche.dd.generale``);
- the modules :mod:`profiles` (rule profiles), :mod:`cards` (card encoding),
  :mod:`reference` (the readable rules engine), :mod:`verify`, :mod:`features` and
  :mod:`stats` (analysis), also reachable as ``simcoinche.profiles`` and so on.

The package is built in layers, each a subpackage that imports only the ones below it
(``docs/ARCHITECTURE.md``; the contracts in ``pyproject.toml`` enforce it):

``commands`` → ``analysis`` → ``runs`` → ``players`` → ``rules`` → ``_kernels``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from simcoinche._version import RULES_VERSION, __version__

if TYPE_CHECKING:
    from simcoinche.analysis import dd, features, stats
    from simcoinche.analysis.advisor import advise
    from simcoinche.analysis.hand_odds import odds
    from simcoinche.players.equity import equity
    from simcoinche.rules import cards, profiles, reference, verify
    from simcoinche.runs.match import match
    from simcoinche.runs.partie import parties
    from simcoinche.runs.results import read_metadata, read_results
    from simcoinche.runs.rollout import rollout
    from simcoinche.runs.simulation import simulate, simulate_to_file

#: Where each public name lives: imported on first use (PEP 562), so that a command
#: loads only what it needs (``simcoinche dd`` neither pandas nor the simulation
#: facade): the warm start of every command (issue 24).
_PUBLIC = {
    "dd": ("simcoinche.analysis.dd", None),
    "equity": ("simcoinche.players.equity", "equity"),
    "features": ("simcoinche.analysis.features", None),
    "stats": ("simcoinche.analysis.stats", None),
    "advise": ("simcoinche.analysis.advisor", "advise"),
    "odds": ("simcoinche.analysis.hand_odds", "odds"),
    "cards": ("simcoinche.rules.cards", None),
    "profiles": ("simcoinche.rules.profiles", None),
    "reference": ("simcoinche.rules.reference", None),
    "verify": ("simcoinche.rules.verify", None),
    "match": ("simcoinche.runs.match", "match"),
    "parties": ("simcoinche.runs.partie", "parties"),
    "read_metadata": ("simcoinche.runs.results", "read_metadata"),
    "read_results": ("simcoinche.runs.results", "read_results"),
    "rollout": ("simcoinche.runs.rollout", "rollout"),
    "simulate": ("simcoinche.runs.simulation", "simulate"),
    "simulate_to_file": ("simcoinche.runs.simulation", "simulate_to_file"),
}

__all__ = ["RULES_VERSION", "__version__", "advise", "cards", "dd", "equity", "features", "match",
           "odds", "parties", "profiles", "read_metadata", "read_results", "reference",
           "rollout", "simulate", "simulate_to_file", "stats", "verify"]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    try:
        module, attr = _PUBLIC[name]
    except KeyError:
        raise AttributeError(f"module 'simcoinche' has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


if sorted(__all__[2:]) != sorted(_PUBLIC):  # one list of the public names, kept in step
    raise ImportError("simcoinche.__all__ and its lazy imports disagree")
