"""Count ``_search``'s calls by card of the trick and by how they return, on the 360
classic solves of ``dd-depth-2026-12-04/three.py``. Run against a copy of the tree with
``count-calls.patch`` applied (``PYTHONPATH=<copy>``; output:
``count-calls-502dff2.txt``)."""

from probes import deals_of_three_py  # (this script's folder is on sys.path)

from simcoinche._kernels import dd
from simcoinche.rules.profiles import get_profile

NAMES = ["upper<=alpha", "beta<=0", "last trick", "table", "sure points", "two tricks",
         "enhanced cut-off", "searched"]


def main() -> None:
    prof = get_profile("classic").packed
    deals = deals_of_three_py()
    S = dd.new_scratch()
    W = S.work
    W[dd.W_CLASS_MARK:dd.W_CLASS_MARK + 32] = 0
    for kind in range(6):
        for i, h in enumerate(deals):
            dd.solve_deal(S, h, i % 4, kind, prof, 81)
    counts = W[dd.W_CLASS_MARK:dd.W_CLASS_MARK + 32].reshape(4, 8)
    total = counts.sum()
    print("calls", total, "nodes", W[dd.W_NODES])
    for n in range(4):
        print(f"card {n + 1} of the trick:",
              " ".join(f"{NAMES[k]}={counts[n, k] / total * 100:.1f}%" for k in range(8)))


if __name__ == "__main__":
    main()
