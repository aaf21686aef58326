"""Record colver's double-dummy answers for the seeded deals of ``test_dd_colver.py``.

``python tests/colver_dd_record.py`` (colver installed: the ``test`` extra) deals the
deals with ``colver.Env.deal(dealer, seed)`` and writes, for each, the four hands colver
dealt and its ``solve_all_suits`` values ``[[ns, ew] x 4]`` (suits S H D C) to
:data:`RECORD`, with the colver version that answered. The test compares our solver with
this record on every deal and asks the installed colver again on a sample of them, so a
colver that deals or solves differently fails the test instead of going unnoticed; record
again then. Run in two processes, one per half of the deals (colver solves on one thread).
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

RECORD = Path(__file__).parent / "data" / "colver_dd_500.json"
N_DEALS = 500
SEED0 = 20_261_130

# Prints one JSON list of [hands, [[ns, ew] x 4]] per (dealer, seed) of argv[1].
COLVER_CHILD = """
import json, sys
import colver
out = []
for dealer, seed in json.loads(sys.argv[1]):
    env = colver.Env.deal(dealer=dealer, seed=seed)
    out.append([env.get_initial_hands(), env.solve_all_suits()["suits"]])
print(json.dumps(out))
"""


def seeded_deals() -> list[tuple[int, int]]:
    """The recorded deals' ``(dealer, seed)``: dealer ``i % 4``, seed ``SEED0 + i``."""
    return [(i % 4, SEED0 + i) for i in range(N_DEALS)]


def colver_answers(deals: list[tuple[int, int]], processes: int = 2) -> list[list]:
    """colver's ``[hands, suits]`` for each deal, in order, from ``processes`` children."""
    parts = [deals[p::processes] for p in range(processes)]
    procs = [subprocess.Popen([sys.executable, "-c", COLVER_CHILD, json.dumps(part)],
                              stdout=subprocess.PIPE, text=True) for part in parts]
    outputs = [p.communicate()[0] for p in procs]
    if any(p.returncode != 0 for p in procs):
        raise RuntimeError("a colver child process failed (its error is above)")
    results = [json.loads(out) for out in outputs]
    return [results[i % processes][i // processes] for i in range(len(deals))]


def main() -> int:
    deals = seeded_deals()
    answers = colver_answers(deals)
    record = {"colver": version("colver"),
              "deals": [{"dealer": d, "seed": s, "hands": hands, "suits": suits}
                        for (d, s), (hands, suits) in zip(deals, answers, strict=True)]}
    # One deal a line: a new record shows in a diff deal by deal.
    lines = ",\n".join(json.dumps(d, separators=(",", ":")) for d in record["deals"])
    RECORD.write_text(f'{{"colver": "{record["colver"]}", "deals": [\n{lines}\n]}}\n')
    print(f"{len(deals)} deals recorded in {RECORD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
