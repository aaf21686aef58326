"""Ctrl-C for the commands the tests start: ``preexec_fn=default_sigint`` gives the child
the default SIGINT disposition, so a SIGINT sent to it raises KeyboardInterrupt there
even when the suite itself was started in the background (a shell then ignores SIGINT in
its children, and an ignored signal stays ignored across exec)."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable


def default_sigint() -> None:
    """In the child, before exec: SIGINT back to its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_when(proc: subprocess.Popen, ready: Callable[[], bool], signum: int,
              wait_s: float = 240.0, settle_s: float = 0.0) -> str:
    """Send ``signum`` to the command ``proc`` (started with stderr piped, text mode)
    once ``ready()`` holds, ``settle_s`` later, and return its stderr when it ends.

    Fails if ``proc`` ends, or ``ready()`` still does not hold, within ``wait_s``
    seconds; the process is killed whatever fails, so that it never outlives the test."""
    try:
        deadline = time.monotonic() + wait_s
        while not ready():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the command did not get there in time"
            time.sleep(0.01)
        time.sleep(settle_s)
        proc.send_signal(signum)
        return proc.communicate(timeout=120)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
