"""The peer engine: PyPI ``colver`` (a Rust belote-contrée engine with Python bindings).

Optional: install with ``pip install -e '.[bench]'`` (``make bench`` does). When it is not
importable, every function here reports it as absent instead of failing.

What each measured loop does per donne (printed with the results, for a fair comparison):

- ``colver_rollout``: ``Env.rollout(n)`` from one dealt position whose contract was set
  with ``set_contract`` (no auction): per playout, colver copies the state and plays the
  32 cards uniformly at random among legal cards, then scores — no deal, no auction,
  no Parquet. One thread (the call runs on the calling thread).
- ``colver_heuristic_loop``: the Python-driven loop a user of the bindings writes:
  ``Env.deal(dealer, seed)`` (shuffle and deal), ``bid_improved()`` + ``step`` until the
  auction ends, then ``action_heuristic_play()`` + ``step`` for the 32 cards; passed-out
  deals count as donnes (they are rows in our output too). No output file.
"""

from __future__ import annotations

import time
from typing import Any

ROLLOUT_DESCRIPTION = ("colver Env.rollout(n): random legal play of the 32 cards from a fixed "
                       "dealt position with a contract set, scoring; no deal, no auction, "
                       "1 thread")
HEURISTIC_DESCRIPTION = ("colver Python loop: Env.deal + bid_improved/step + "
                         "action_heuristic_play/step per donne; 1 thread, no output")


def available() -> tuple[bool, str]:
    """Whether colver can be imported, and its version or the import error."""
    try:
        import colver
    except ImportError as exc:
        return False, f"colver not installed ({exc}); install the 'bench' extra"
    return True, str(getattr(colver, "__version__", "unknown"))


# colver's rank order inside a suit is 7 8 9 J Q K T A; ours 7 8 9 T J Q K A.
_COLVER_RANK_TO_OURS = (0, 1, 2, 4, 5, 6, 3, 7)
# The position both rollout figures play: colver's deal of seed 1, dealer 0, hearts.
ROLLOUT_DEALER = 0
ROLLOUT_KIND = 1


def colver_position(seed: int = 1) -> list[list[int]]:
    """The four hands of colver's ``Env.deal(dealer=0, seed)`` in our card indices."""
    import colver

    env = colver.Env.deal(dealer=ROLLOUT_DEALER, seed=seed)
    return [sorted(8 * (c // 8) + _COLVER_RANK_TO_OURS[c % 8] for c in hand)
            for hand in env.get_hands()]


def rollout_rate(n: int, seed: int = 1) -> float:
    """Random playouts per second of ``Env.rollout(n)`` (one thread)."""
    import colver

    env = colver.Env.deal(dealer=ROLLOUT_DEALER, seed=seed)
    env.set_contract(ROLLOUT_KIND, 80, 0, 0)  # hearts, 80, team 0, not coinched
    env.set_phase_playing()
    env.rollout(min(n, 1000))  # warm-up
    t0 = time.perf_counter()
    env.rollout(n)
    return n / (time.perf_counter() - t0)


def heuristic_loop_rate(n: int, seed: int = 1) -> dict[str, Any]:
    """Donnes per second of colver's Python-driven heuristic donne loop."""
    import colver

    passed_out = 0
    t0 = time.perf_counter()
    for i in range(n):
        env = colver.Env.deal(dealer=i % 4, seed=seed * 1_000_003 + i)
        while env.phase() == 0:
            env.step(env.bid_improved())
        if env.is_terminal():
            passed_out += 1
            continue
        while not env.is_terminal():
            env.step(env.action_heuristic_play())
    dt = time.perf_counter() - t0
    return {"rate": n / dt, "passed_out_share": passed_out / n}
