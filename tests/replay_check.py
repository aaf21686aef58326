"""Reference replay of recorded donnes, in worker processes (tests/test_bulk_legality.py).

A worker receives compact rows (:func:`compact_rows`) and replays each with the reference
engine (:func:`simcoinche.rules.reference.replay_donne`, what ``simcoinche score``
reports on): every call through :class:`~simcoinche.rules.reference.Auction`, every card
through ``illegal_card_reason``, then the scoring. It returns the rows that disagree,
as text, so that the parent's assertion names them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

Row = tuple[Any, ...]


def compact_rows(df: pd.DataFrame) -> list[Row]:
    """The fields the replay needs, per row of a ``record_play`` run: donne, hands (4
    bitboards), dealer, auction codes, play (32 cards, or empty when passed out), passed
    out, taker, level, kind, coinche, marks of both teams."""
    from simcoinche.rules.cards import CONTRACT_KIND_NAMES

    hands = np.stack([df[f"hand_{s}"].to_numpy(np.int64) for s in range(4)], axis=1)
    passed = df["passed_out"].to_numpy(bool)
    # The contract kind by name (a category column, missing when passed out).
    kinds = df["trump"].astype(object).map(
        {n: k for k, n in enumerate(CONTRACT_KIND_NAMES)}).fillna(-1).to_numpy(np.int64)
    cols = [df[c].to_numpy(np.int64) for c in ("donne", "dealer", "taker", "bid_level")]
    cols += [kinds] + [df[c].to_numpy(np.int64) for c in ("coinche", "marks_t0", "marks_t1")]
    rows = []
    for i, (auction, play) in enumerate(zip(df["auction"], df["play"], strict=True)):
        donne, dealer, taker, level, kind, coinche, m0, m1 = (int(c[i]) for c in cols)
        rows.append((donne, hands[i].tolist(), dealer, bytes(auction),
                     b"" if passed[i] else bytes(play), bool(passed[i]), taker, level, kind,
                     coinche, m0, m1))
    return rows


def replay_rows(args: tuple[str, list[Row]]) -> list[str]:
    """Replay ``rows`` under the profile named ``args[0]``; the disagreements as text
    (empty: every call and card legal, the contract and the marks the same)."""
    from simcoinche.rules.cards import from_mask
    from simcoinche.rules.profiles import get_profile
    from simcoinche.rules.reference import PASSED_OUT, replay_donne

    name, rows = args
    prof = get_profile(name)
    bad = []
    for (donne, hands, dealer, auction, play, passed, taker, level, kind, coinche, m0,
         m1) in rows:
        rep = replay_donne([from_mask(h) for h in hands], dealer, list(auction), list(play),
                           profile=prof)
        auc = rep.auction
        if rep.error is not None:
            bad.append(f"donne {donne}: {rep.error}")
        elif passed != (auc.status == PASSED_OUT):
            bad.append(f"donne {donne}: passed out {passed}, reference {auc.status}")
        elif passed:
            continue
        elif not rep.complete:
            bad.append(f"donne {donne}: the 32 cards do not finish the donne")
        elif (auc.bidder, auc.level, auc.kind, auc.coinche) != (taker, level, kind, coinche):
            bad.append(f"donne {donne}: contract {(taker, level, kind, coinche)}, reference "
                       f"{(auc.bidder, auc.level, auc.kind, auc.coinche)}")
        elif tuple(rep.score.marks) != (m0, m1):
            bad.append(f"donne {donne}: marks {(m0, m1)}, reference {rep.score.marks}")
    return bad
