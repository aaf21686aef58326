"""Match equity (issue 22): the backward induction against hand-worked chains and a
plain value iteration over the reference engine's partie step, the shipped tables, the
check against simulated parties."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import simcoinche
from simcoinche.analysis.equity_check import compare_with_parties
from simcoinche.players import equity as EQ
from simcoinche.rules import reference as ref
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import PROFILES, get_profile

# Outcome rows: (marks dealing team, marks other, tricks dealing, tricks other,
# taker side -1/0/1, made).
DEALER_10 = (10, 0, 1, 1, 0, 1)
OTHER_10 = (0, 10, 1, 1, 1, 1)
PASSED = (0, 0, 0, 0, -1, 0)


def _table(rows, probs, target, profile="federal"):
    return EQ.solve(np.array(rows, dtype=np.int32), np.array(probs, dtype=np.float64),
                    profile, target=target)


def test_equity_two_outcomes_to_twenty_worked_by_hand():
    # Target 20: each donne gives 10 to the dealing team (a) or to the other (1 - a).
    a = 0.3
    t = _table([DEALER_10, OTHER_10], [a, 1 - a], 20)
    v = t.solved
    v1010 = a                                     # the dealer reaches 20 first or loses
    v100 = a + (1 - a) * (1 - v1010)              # else 10-10, the other team dealing
    v010 = a * (1 - v1010)                        # else the other team reaches 20
    v00 = a * (1 - v010) + (1 - a) * (1 - v100)
    assert v[1, 1] == pytest.approx(v1010, abs=1e-12)
    assert v[1, 0] == pytest.approx(v100, abs=1e-12)
    assert v[0, 1] == pytest.approx(v010, abs=1e-12)
    assert v[0, 0] == pytest.approx(v00, abs=1e-12)
    assert t.value(10, 0, deal="us") == pytest.approx(v100, abs=1 / EQ.QUANT)
    assert t.value(0, 10, deal="them") == pytest.approx(1 - v100, abs=1 / EQ.QUANT)


def test_equity_passed_out_donne_hands_the_deal_over_worked_by_hand():
    # A passed-out donne keeps the score and the other team deals: V = a + c (1 - V) at
    # 10-10, where the mirror state is the same score.
    a, b, c = 0.5, 0.3, 0.2
    t = _table([DEALER_10, OTHER_10, PASSED], [a, b, c], 20)
    assert t.solved[1, 1] == pytest.approx((a + c) / (1 + c), abs=1e-12)


def test_equity_pending_team_wins_only_with_a_trick_worked_by_hand():
    # federal "Partie": a team that crossed on its belote alone "becomes eligible at the
    # end of a later donne in which it wins at least one trick". Target 20; we stand at 30
    # pending against 10 and deal. With a, we score 10 (tricks both sides): eligible, we
    # win. Otherwise the others take every trick for 10 marks: we stay pending at 30, they
    # reach 20 and win. So V = a (it would be 1 if 30 were enough).
    a = 0.35
    capot_10 = (0, 10, 0, 1, 1, 1)
    t = _table([DEALER_10, capot_10], [a, 1 - a], 20)
    assert t.solved[3, 1] == pytest.approx(a, abs=1e-12)
    assert t.value(30, 10, deal="us", pending=(True, False)) == pytest.approx(
        a, abs=1 / EQ.QUANT)
    # Not pending, 30 against 10 is a partie already won.
    assert t.value(30, 10, deal="us") == 1.0
    # Equal totals over the target, neither pending, we deal: our 10 wins it; their capot
    # for 10 wins it for them. V = a.
    assert t.equal[0] == pytest.approx(a, abs=1e-12)


def _reference_values(rows, probs, profile, target):
    """V(x, y) for every grid cell below the target, by plain value iteration over the
    states reachable from them, stepping with the reference engine's partie_step."""
    prof = dataclasses.replace(get_profile(profile), target=target)
    step = 10 if prof.rounding else 1
    start = [(x, y, False, False) for x in range(0, target, step)
             for y in range(0, target, step)]
    trans: dict = {}
    todo = list(start)
    while todo:
        s = todo.pop()
        if s in trans:
            continue
        x, y, px, py = s
        out = []
        for (mx, my, tx, ty, side, made), p in zip(rows, probs, strict=True):
            w, (x2, y2), (qx, qy) = ref.partie_step((x, y), (px, py), (mx, my), (tx, ty),
                                                    side, bool(made), prof)
            if w >= 0:
                out.append((p, float(w == 0), None))
            else:
                nxt = (y2, x2, qy, qx)              # the other team deals next
                out.append((p, 0.0, nxt))
                if nxt not in trans and max(x2, y2) < target + 40 * step:
                    todo.append(nxt)
        trans[s] = out
    v = dict.fromkeys(trans, 0.5)
    for _ in range(400):
        for s, out in trans.items():
            v[s] = sum(p * (w if nxt is None else 1.0 - v.get(nxt, 0.5))
                       for p, w, nxt in out)
    return {s[:2]: v[s] for s in start}


def _random_rows(rng, step, n_rows):
    """Outcome rows covering the end rules' cases: passed out, failed takers (some winning
    every trick), a defence winning no trick but scoring its belote, equal marks."""
    rows = set()
    while len(rows) < n_rows:
        kind = int(rng.integers(8))
        if kind == 0:
            rows.add((0, 0, 0, 0, -1, 0))                       # passed out
            continue
        side = int(rng.integers(2))
        mt, md = int(rng.integers(0, 5)) * step, int(rng.integers(0, 5)) * step
        made = int(kind not in (1, 5))
        tt, td = 1, 1
        if kind == 1:
            mt = 2 * step * int(rng.integers(0, 2))             # failed: belote or 0
        elif kind == 2:
            td = 0                                              # defence capot
        elif kind == 3:
            md = mt                                             # equal marks
        elif kind == 5:
            # A failed taker team winning every trick (a failed générale): its belote
            # against the defence's marks; both may cross without being eligible.
            mt, td = 2 * step * int(rng.integers(0, 2)), 0
        elif kind == 6:
            td, md = 0, 2 * step                                # no trick, belote only
        m = (mt, md) if side == 0 else (md, mt)
        t = (tt, td) if side == 0 else (td, tt)
        rows.add((m[0], m[1], t[0], t[1], side, made))
    rows = sorted(rows)
    p = rng.random(len(rows)) + 0.2
    return rows, p / p.sum()


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_equity_induction_equals_value_iteration_over_reference_partie_step(profile):
    rng = np.random.default_rng(22)
    step = EQ.grid_step(profile)
    target = 6 * step
    for _ in range(6):
        rows, probs = _random_rows(rng, step, 12)
        t = _table(rows, probs, target, profile)
        expect = _reference_values(rows, probs, profile, target)
        for (x, y), val in expect.items():
            assert t.solved[x // step, y // step] == pytest.approx(val, abs=1e-9), (x, y)


def test_equity_after_a_donne_applies_the_end_rules():
    t = _table([DEALER_10, OTHER_10], [0.4, 0.6], 20)
    donnes = np.array([[10, 0, 1, 1, 0, 1],     # we reach 20: won
                       [0, 10, 1, 1, 1, 1],     # they reach 20: lost
                       [0, 0, 0, 0, -1, 0]], dtype=np.int64).T
    got = t.after((10, 10, 0, 0), donnes, we_deal_next=True)
    assert got[0] == 1.0 and got[1] == 0.0
    # Passed out at 10-10: the score stays, we deal next.
    assert got[2] == pytest.approx(t.value(10, 10, deal="us"))
    # From 0-10 with the others dealing next: our 10 leaves 10-10 with them dealing.
    got = t.after((0, 10, 0, 0), donnes, we_deal_next=False)
    assert got[0] == pytest.approx(1 - t.solved[1, 1], abs=1 / EQ.QUANT)
    assert got[1] == 0.0
    assert got[2] == pytest.approx(1 - t.solved[1, 0], abs=1 / EQ.QUANT)
    # The dealing team matters: 0.4 / 0.6 is not symmetric.
    assert t.solved[1, 1] != pytest.approx(1 - t.solved[1, 1])
    # A failing taker crossing on its belote is pending (federal "Partie"): from 10-0 our
    # failed contract with 20 of belote leaves 30 (pending) to 10, the others dealing.
    # Their capot for 10 (probability b) then wins it for them: we stay without a trick.
    b = 0.25
    dealer_capot = (10, 0, 1, 0, 0, 1)
    t2 = _table([DEALER_10, dealer_capot, OTHER_10], [0.35, b, 0.4], 20)
    pend = np.array([[20, 10, 1, 1, 0, 0]], dtype=np.int64).T
    got = t2.after((10, 0, 0, 0), pend, we_deal_next=False)
    assert got[0] == pytest.approx(1 - b, abs=1 / EQ.QUANT)
    assert got[0] == pytest.approx(t2.value(30, 10, deal="them", pending=(True, False)),
                                   abs=1e-12)


def test_shipped_equity_tables_answer_per_profile():
    for name in PROFILES:
        table = EQ.shipped_table(name)
        assert table.info["players"] == "heuristic" and table.info["donnes"] >= 1_000_000
        us_deal = simcoinche.equity(0, 0, profile=name, deal="us")
        assert 0.45 < us_deal < 0.55
        assert simcoinche.equity(1500, 500, profile=name) > 0.9
        assert simcoinche.equity(500, 1500, profile=name) < 0.1
        # A team at the target and eligible has won; pending it has not yet.
        assert simcoinche.equity(2000, 1500, profile=name) == 1.0
        assert 0 < simcoinche.equity(2000, 1500, profile=name, pending=(True, False)) < 1
    # Closer to the target is better, whoever deals.
    assert simcoinche.equity(1800, 1700, deal="them") > simcoinche.equity(1700, 1800,
                                                                           deal="us")


@pytest.mark.parametrize(("args", "message"), [
    ((645, 910), "not a score of profile federal"),
    ((-10, 910), "must not be negative"),
    ((1.5, 910), "must be an integer"),
    ((600, 900, "federal", "north"), "deal must be"),
    ((600, 900, "federal", None, (True, False)), "cannot be pending below the target"),
    ((600, 900, "belote"), "unknown profile"),
    ((2000, 1990, "federal", None, None), "pending must be a pair of flags"),
    ((2000, 1990, "federal", None, True), "pending must be a pair of flags"),
    ((2000, 1990, "federal", None, ("x", False)), "pending must be a pair of flags"),
    ((2000, 1990, "federal", None, (2, 0)), "pending must be a pair of flags"),
])
def test_equity_refuses_bad_scores_in_one_line(args, message):
    with pytest.raises(InputError, match=message):
        simcoinche.equity(*args)


def test_equity_table_round_trips_and_refuses_a_damaged_file(tmp_path):
    t = _table([DEALER_10, OTHER_10, PASSED], [0.5, 0.3, 0.2], 40)
    path = tmp_path / "eq.npz"
    t.save(path)
    back = EQ.EquityTable.load(path, "eq.npz")
    assert np.array_equal(back.main, t.main) and back.info == t.info
    assert back.value(10, 30, deal="us") == t.value(10, 30, deal="us")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a table")
    with pytest.raises(InputError, match=r"bad\.npz: not an equity table"):
        EQ.EquityTable.load(bad, "bad.npz")


def test_donne_outcomes_are_seen_from_the_dealing_team():
    import pandas as pd

    rows = pd.DataFrame({"dealer": [0, 1, 3], "taker": [1, 2, -1], "made": [1, 0, 0],
                         "marks_t0": [0, 250, 0], "marks_t1": [120, 0, 0],
                         "tricks_t0": [0, 5, 0], "tricks_t1": [8, 3, 0]})
    out, probs, counts = EQ.donne_outcomes(rows)
    got = {tuple(r) for r in out.tolist()}
    # Dealer 0 (team 0): team 1 took (side 1) and made, capot: dealing team 0 tricks.
    assert (0, 120, 0, 1, 1, 1) in got
    # Dealer 1 (team 1): seat 2 (team 0, the other side) took and failed.
    assert (0, 250, 1, 1, 1, 0) in got
    assert (0, 0, 0, 0, -1, 0) in got
    assert counts.sum() == 3 and probs.sum() == pytest.approx(1)


def test_equity_table_agrees_with_simulated_parties():
    # The shipped federal table against 3,000 fresh parties of the score-blind players
    # (the chain it solves): the start cell of each dealing side is visited by every
    # partie.
    runs = simcoinche.parties(3000, seed=2205, players="heuristic:score_aware=0",
                              progress=False)
    check = compare_with_parties(EQ.shipped_table("federal"), runs, min_parties=1000)
    assert check.n_cells >= 1 and check.cells["parties"].iloc[0] == 3000
    assert check.passed, check.summary()
    # A table that is off by a few points in every cell is caught.
    skewed = EQ.EquityTable("federal", 10, check_table_clip(), *skewed_arrays())
    assert not compare_with_parties(skewed, runs, min_parties=1000).passed


def check_table_clip():
    return EQ.shipped_table("federal").clip_steps


def skewed_arrays():
    t = EQ.shipped_table("federal")
    main = np.clip(t.main.astype(np.int64) + 8000, 0, EQ.QUANT).astype(np.uint16)
    return main, t.both_pending, t.equal


@pytest.mark.parametrize(("rows", "message"), [
    ([(10, 0, 2, 1, 0, 1)], "tricks and made must be 0 or 1"),
    ([(10, 0, 1, 1, 3, 1)], "taker side must be"),
    ([(10, 0, 0, 0, -1, 0)], "passed-out outcome has no marks"),
    ([(0, 0, 0, 0, -1, 0)], "would never end"),
    ([(15, 0, 1, 1, 0, 1)], "multiples of 10"),
])
def test_solve_refuses_impossible_outcomes(rows, message):
    with pytest.raises(InputError, match=message):
        _table(rows, [1.0], 20)


def test_fit_script_solves_and_writes_a_loadable_table(tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "analysis"))
    try:
        import fit_equity
    finally:
        sys.path.pop(0)
    monkeypatch.setattr(fit_equity, "OUTPUT", tmp_path / "output")
    assert fit_equity.main(["--profile", "federal", "--donnes", "20000", "--seed", "3",
                            "--check", "1200", "--out", str(tmp_path)]) == 0
    table = EQ.EquityTable.load(tmp_path / EQ.table_name("federal"), "fit")
    assert table.info["donnes"] == 20000 and table.info["players"] == "heuristic"
    # The same donnes through the library give the same table.
    rows = simcoinche.simulate(20000, seed=3000, profile="federal", progress=False)
    outcomes, probs, _ = EQ.donne_outcomes(rows)
    again = EQ.solve(outcomes, probs, "federal")
    assert np.array_equal(again.main, table.main)
    report = (tmp_path / "output" / "equity_check.md").read_text()
    assert "## federal" in report and "cells with at least 1,000 parties" in report


def test_parties_under_other_rules_than_the_tables_are_refused():
    """The comparison had run on parties to 500 points against the 2000-point table, and
    reported cells that mean nothing."""
    import dataclasses

    from simcoinche.rules.errors import InputError
    from simcoinche.rules.profiles import FEDERAL

    runs = simcoinche.parties(20, seed=1, players="random", progress=False,
                              profile=dataclasses.replace(FEDERAL, target=500))
    with pytest.raises(InputError, match=re.escape(
            "the parties were played under other rules than the equity table's (profile "
            "'federal'): target (500, the table's 2000)")):
        compare_with_parties(EQ.shipped_table("federal"), runs, min_parties=1)
