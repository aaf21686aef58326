"""When each test of each pytest-xdist worker started and ended (wall clock).

Usage: ``PYTHONPATH=<this directory> PYTEST_ADDOPTS="-p timeline_plugin"`` around the
suite's command; each worker writes ``/tmp/w/tl/<worker>.json``: [nodeid, "start" or
"end", time.time()] per event. analyze.py reads them.
"""

import json
import os
import time

_EVENTS: list[list] = []


def pytest_runtest_logstart(nodeid: str, location: tuple) -> None:
    _EVENTS.append([nodeid, "start", time.time()])


def pytest_runtest_logfinish(nodeid: str, location: tuple) -> None:
    _EVENTS.append([nodeid, "end", time.time()])


def pytest_unconfigure(config: object) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        with open(f"/tmp/w/tl/{worker}.json", "w") as f:
            json.dump(_EVENTS, f)
