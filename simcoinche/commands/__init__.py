"""One module per command; each defines ``register(subparsers)``.

Shared argument types live here (this package module is not a command).
"""

from __future__ import annotations

import argparse
import sys

from simcoinche.errors import InputError


def integer(text: str) -> int:
    """argparse type: an integer, ``_`` allowed as a digit separator (``1_000_000``)."""
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid integer {text!r}") from None


def read_input(path: str) -> str:
    """The text of ``path`` (``-``: stdin); InputError (one line) when it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"cannot read {path}: {reason}") from None
