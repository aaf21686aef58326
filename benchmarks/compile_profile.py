"""Where a cold command's compile time goes: numba's compile events, per function.

``python -m benchmarks.compile_profile [--command simulate] [--out FILE]`` runs one
command in this process with an empty kernel cache (a new temporary
``SIMCOINCHE_CACHE_DIR``, set before simcoinche is imported) and records numba's
``numba:compile`` events (:mod:`numba.core.event`): one START/END pair per compiled
(function, argument types). Compiles nest (a kernel compiles its callees inside its own
compile), so each entry gets its *inclusive* time (END − START) and its *exclusive* time
(inclusive minus the inclusive time of the compiles nested directly in it). The
exclusive times add up to the whole compile time of the run. Written as JSON (machine
readable) and printed as a table, heaviest first (issue 24, item 1).

Commands (the README's examples, small sizes): ``simulate`` (``simulate -n 1000``),
``odds``, ``advise``, ``parties``, ``match``, ``dd`` (the solver, through ``odds --play
dd``), ``pimc`` (``simulate`` with a ``pimc`` seat, as ``make bench``'s startup section).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

COMMANDS: dict[str, list[str]] = {
    "simulate": ["simulate", "-n", "1000", "--no-progress"],
    "odds": ["odds", "--hand", "JH 9H AH TH KS 7C 8D AD", "--trump", "H", "--samples",
             "2000", "--no-progress"],
    "advise": ["advise", "--hand", "AH TH KH AS 7C AD KD 8D", "--auction", "80H 90S",
               "--seat", "2", "--samples", "500", "--no-progress"],
    "parties": ["parties", "-n", "20", "--no-progress"],
    "match": ["match", "heuristic", "random", "--deals", "200", "--no-progress"],
    "dd": ["odds", "--hand", "JH 9H AH TH KS 7C 8D AD", "--trump", "H", "--play", "dd",
           "--samples", "20", "--no-progress"],
    "pimc": ["simulate", "-n", "8", "--seed", "1", "--players", "pimc,heuristic",
             "--no-progress"],
}


def compile_entries(buffer: list) -> list[dict]:
    """One entry per compile of a recorder's buffer (``(timestamp, Event)`` pairs of
    ``numba:compile``): ``function`` (module.qualname), ``args`` (argument types),
    ``inclusive_s`` (END − START) and ``exclusive_s`` (minus the compiles nested
    directly inside), in the order the compiles ended."""
    entries: list[dict] = []
    stack: list[dict] = []
    for ts, ev in buffer:
        if ev.is_start:
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            stack.append({"function": name, "args": str(ev.data["args"]),
                          "start": ts, "children": 0.0})
        else:
            e = stack.pop()
            e["inclusive_s"] = ts - e.pop("start")
            e["exclusive_s"] = e["inclusive_s"] - e.pop("children")
            if stack:
                # The parent's exclusive time leaves this nested compile out.
                stack[-1]["children"] += e["inclusive_s"]
            entries.append(e)
    return entries


def profile(command: str) -> dict:
    """Run ``command`` cold in this process and return its compile profile."""
    from numba.core.event import install_recorder

    from simcoinche.commands.cli import main

    argv = list(COMMANDS[command])
    with tempfile.TemporaryDirectory() as tmp:
        if command in ("simulate", "parties", "match", "pimc"):
            argv += ["--out", str(Path(tmp) / "out.parquet")]
        sink = io.StringIO()
        t0 = time.perf_counter()
        with install_recorder("numba:compile") as rec, contextlib.redirect_stdout(sink):
            status = main(argv)
        wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"compile_profile: {' '.join(argv)} exited {status}")
    entries = compile_entries(rec.buffer)
    entries.sort(key=lambda e: -e["exclusive_s"])
    return {"command": " ".join(argv), "wall_s": wall,
            "compile_s": sum(e["exclusive_s"] for e in entries),
            "compiles": len(entries), "entries": entries}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--command", choices=sorted(COMMANDS), default="simulate")
    p.add_argument("--out", type=Path, default=None, help="JSON file (default: none)")
    p.add_argument("--top", type=int, default=25, help="rows printed (default 25)")
    args = p.parse_args(argv)
    if "simcoinche" in sys.modules:
        raise SystemExit("compile_profile: simcoinche is already imported (the cache "
                         "directory must be set first)")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["SIMCOINCHE_CACHE_DIR"] = cache
        doc = profile(args.command)
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{doc['command']}: {doc['wall_s']:.1f} s wall, {doc['compile_s']:.1f} s "
          f"compiling, {doc['compiles']} compiles (function, argument types)")
    print(f"{'exclusive s':>11} {'inclusive s':>11}  function")
    for e in doc["entries"][:args.top]:
        print(f"{e['exclusive_s']:11.2f} {e['inclusive_s']:11.2f}  {e['function']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
