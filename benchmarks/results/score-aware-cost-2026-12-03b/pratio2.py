"""Parties aware/blind donnes/s ratio by many short alternating runs (robust to VM drift)."""
import json, sys, time
from simcoinche.runs.partie import parties
n, k = int(sys.argv[1]), int(sys.argv[2])
specs = sys.argv[3:]
out = "/tmp/w/pr2.parquet"
def run(players, m, seed):
    t0 = time.perf_counter()
    s = parties(m, seed=seed, out=out, overwrite=True, threads=1, players=players, progress=False)
    return s.donnes / (time.perf_counter() - t0)
blind = "heuristic:score_aware=0"
for sp in specs + [blind]:
    run(sp, 1000, 1)
rates = {sp: [] for sp in specs + [blind]}
for i in range(k):
    for sp in specs + [blind]:
        rates[sp].append(run(sp, n, 100 + i))
res = {}
for sp in specs:
    pair = sorted(a / b for a, b in zip(rates[sp], rates[blind]))
    res[sp] = {"median_pair_ratio": round(pair[len(pair) // 2], 3),
               "best_rate_ratio": round(max(rates[sp]) / max(rates[blind]), 3),
               "mean_rate_ratio": round(sum(rates[sp]) / sum(rates[blind]), 3)}
    print(sp, res[sp], flush=True)
json.dump({"n": n, "k": k, "rates": rates, "ratios": res}, open(f"/tmp/w/pr2-{int(time.time())}.json", "w"))
