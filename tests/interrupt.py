"""Ctrl-C for the commands the tests start: ``preexec_fn=default_sigint`` gives the child
the default SIGINT disposition, so a SIGINT sent to it raises KeyboardInterrupt there
even when the suite itself was started in the background (a shell then ignores SIGINT in
its children, and an ignored signal stays ignored across exec)."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """In the child, before exec: SIGINT back to its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
