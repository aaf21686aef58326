"""Each pytest worker's files in time order, from timeline_plugin.py's JSON files.

Usage: ``python analyze.py DIR`` (the directory the plugin wrote ``gw*.json`` to). Prints,
per (worker, file): start and end in seconds from the suite's first test, and the span.
"""

import glob
import json
import sys


def main(directory: str) -> None:
    rows = []
    for path in sorted(glob.glob(f"{directory}/gw*.json")):
        worker = path.rsplit("/", 1)[-1][:-5]
        started = {}
        for nodeid, kind, t in json.load(open(path)):
            if kind == "start":
                started[nodeid] = t
            else:
                rows.append((worker, nodeid, started[nodeid], t))
    t0 = min(r[2] for r in rows)
    spans: dict[tuple[str, str], list[float]] = {}
    for worker, nodeid, start, end in sorted(rows, key=lambda r: r[2]):
        key = (worker, nodeid.split("::")[0])
        span = spans.setdefault(key, [start, end])
        span[1] = max(span[1], end)
    for (worker, name), (start, end) in spans.items():
        print(f"{worker} {start - t0:7.1f} {end - t0:7.1f} {end - start:6.1f} {name}")
    for worker in sorted({r[0] for r in rows}):
        print(worker, "busy until", round(max(r[3] for r in rows if r[0] == worker) - t0, 1))


if __name__ == "__main__":
    main(sys.argv[1])
