"""The package's version and the rules' version, written into every output's metadata.

A leaf module: it imports nothing, so every layer may read it.
"""

__version__ = "0.1.0"
# Bumped whenever a rule implementation changes what a donne scores (stored in outputs).
RULES_VERSION = "2"
