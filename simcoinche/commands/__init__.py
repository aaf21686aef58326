"""One module per command; each defines ``register(subparsers)``.

Shared argument types live here (this package module is not a command).
"""

from __future__ import annotations

import argparse


def integer(text: str) -> int:
    """argparse type: an integer, ``_`` allowed as a digit separator (``1_000_000``)."""
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid integer {text!r}") from None
