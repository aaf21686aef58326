"""simcoinche: high-throughput simulation of Coinche (belote coinchée).

Public API: see the README. Rule profiles: :mod:`simcoinche.profiles`; cards:
:mod:`simcoinche.cards`.
"""

__version__ = "0.1.0"
# Bumped whenever a rule implementation changes what a donne scores (stored in outputs).
RULES_VERSION = "1"
