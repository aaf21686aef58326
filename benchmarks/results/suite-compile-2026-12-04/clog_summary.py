"""Sum up the compile events suite_compiles_plugin.py wrote.

Usage: ``python clog_summary.py DIR [FUNCTION ...]``: the compiles, their exclusive
seconds, the distinct signatures of simcoinche's functions, the seconds spent compiling
a signature a second time (in another worker, or again in the same one), and for each
FUNCTION named its compiles and signatures.
"""

import collections
import glob
import json
import sys

directory = sys.argv[1]
entries = []
for path in glob.glob(f"{directory}/*.json"):
    pid = path.split("/")[-1][:-5]
    for e in json.load(open(path)):
        e["pid"] = pid
        entries.append(e)
ours = [e for e in entries if e["function"].startswith("simcoinche.")]
by_signature = collections.defaultdict(list)
for e in entries:
    by_signature[(e["function"], e["args"])].append(e)
again = sum(sum(x["excl"] for x in es) - max(x["excl"] for x in es)
            for es in by_signature.values() if len(es) > 1)
print(f"{directory}: {len(entries)} compiles, {sum(e['excl'] for e in entries):.1f} s "
      f"exclusive; simcoinche functions: {len(ours)} compiles, "
      f"{len({(e['function'], e['args']) for e in ours})} distinct signatures, "
      f"{sum(e['excl'] for e in ours):.1f} s; a signature compiled again: {again:.1f} s")
for name in sys.argv[2:]:
    es = [e for e in entries if e["function"] == name]
    print(f"  {name}: {len(es)} compiles, {len({e['args'] for e in es})} signatures, "
          f"{sum(e['excl'] for e in es):.1f} s")
