"""Timed work (the results' own ``seconds``, compile excluded) of ``advise`` and ``odds
--auction`` with heuristic models, 2 threads, three repetitions each:
``PYTHONPATH=TREE python filter_speed.py``."""

from simcoinche import odds
from simcoinche.analysis.advisor import advise

HAND = "AH TH KH AS 7C AD KD 8D"


def main() -> None:
    advise(HAND, auction="80H 90S", seat=2, samples=50, seed=1, threads=2, progress=False)
    odds(HAND, samples=50, auction="pass 80H", seat=2, seed=1, threads=2, progress=False)
    adv = [advise(HAND, auction="80H 90S", seat=2, samples=16000, seed=7, threads=2,
                  progress=False).seconds for _ in range(3)]
    odd = [odds(HAND, samples=120000, auction="pass 80H", seat=2, seed=5, threads=2,
                progress=False).seconds for _ in range(3)]
    print("advise", " ".join(f"{s:.3f}" for s in adv), "odds --auction",
          " ".join(f"{s:.3f}" for s in odd))


if __name__ == "__main__":
    main()
