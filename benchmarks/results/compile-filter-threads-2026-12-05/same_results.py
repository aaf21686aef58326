"""The results of ``advise`` and ``odds --auction`` (heuristic and club models), printed
in full, to compare two trees: ``PYTHONPATH=TREE python same_results.py > out.txt``."""

import dataclasses

import numpy as np
import pandas as pd

from simcoinche import odds
from simcoinche.analysis.advisor import advise

HAND = "AH TH KH AS 7C AD KD 8D"


def dump(obj: object) -> str:
    """Every field of a result, arrays and frames in full."""
    if dataclasses.is_dataclass(obj):
        # Every field but the wall times.
        return "{" + ", ".join(f"{f.name}: {dump(getattr(obj, f.name))}"
                               for f in dataclasses.fields(obj) if f.name != "seconds") + "}"
    if isinstance(obj, np.ndarray):
        return repr(obj.tolist())
    if isinstance(obj, (pd.DataFrame, pd.Series)):
        return obj.to_csv()
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(dump(x) for x in obj) + "]"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{k!r}: {dump(v)}" for k, v in obj.items()) + "}"
    return repr(obj)


def main() -> None:
    for players in ("heuristic", "club"):
        res = advise(HAND, auction="80H 90S", seat=2, samples=400, seed=7, threads=2,
                     progress=False, players=players)
        print(players, "advise", dump(res))
        table = odds(HAND, samples=3000, auction="pass 80H", seat=2, seed=5, threads=2,
                     progress=False, players=players)
        print(players, "odds", dump(table))


if __name__ == "__main__":
    main()
