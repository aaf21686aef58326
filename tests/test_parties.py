"""simcoinche parties: whole parties to the target with the profile's end rules.

The partie loop (``_kernels/partie.run_parties``) is checked on constructed sequences of
donnes (its test hook plays given donnes) for each special end rule of RULES.md, and
every simulated partie is replayed with the reference engine's ``Partie`` from its own
per-donne rows. Same seed ⇒ same parties whatever the threads, chunks or engine.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import simcoinche
import simcoinche.analysis.win_probability as W
import simcoinche.runs.partie as P
from simcoinche._kernels.batch import run_batch
from simcoinche._kernels.donne import (
    N_OUT,
    O_BELOTE,
    O_MADE,
    O_MARKS,
    O_PASSED,
    O_TAKER,
    O_TRICKS,
    Outputs,
    Players,
)
from simcoinche._kernels.kinds import kinds_of
from simcoinche._kernels.partie import (
    PartieOutputs,
    partie_key,
    run_parties,
)
from simcoinche._kernels.partie_layout import (
    PD_LEN,
    PD_SCORE,
    PT_LEN,
    PT_N_DONNES,
    PT_TOTAL,
    PT_WINNER,
)
from simcoinche._kernels.rng import seed_key
from simcoinche.analysis.stats import wilson_interval
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import get_profile
from simcoinche.rules.reference import Partie
from simcoinche.runs.results import read_metadata, read_results
from simcoinche.runs.simulation import team_players

# --- the partie loop on constructed sequences of donnes -----------------------------------


def donne(marks, tricks, taker, made=True, belote=(0, 0)):
    """One donne's row (the kernel's O_* layout) with what partie_step reads."""
    col = np.zeros(N_OUT, dtype=np.int32)
    col[O_MARKS:O_MARKS + 2] = marks
    col[O_TRICKS:O_TRICKS + 2] = tricks
    col[O_BELOTE:O_BELOTE + 2] = belote
    col[O_TAKER] = taker
    col[O_MADE] = int(made)
    col[O_PASSED] = int(taker < 0)
    return col


PASSED = donne((0, 0), (0, 0), -1, False)


def play_given(donnes, profile="federal", max_donnes=100):
    """Run the partie kernel on one partie whose donne k is ``donnes[k]``.

    Returns (winner, totals, n_donnes, scores before each donne)."""
    given = np.stack(donnes, axis=1)
    _, codes, params = team_players("heuristic", None, get_profile(profile))
    pout = np.zeros((PT_LEN, 1), dtype=np.int32)
    dout = np.zeros((PD_LEN, 4 * max_donnes), dtype=np.int32)
    used = np.zeros(1, dtype=np.int64)
    run_parties(np.uint64(1), np.int64(0), np.int64(1), (np.int64(0), np.int64(1)),
                np.int64(max_donnes),
                np.int64(4 * max_donnes), given, Players(codes, params, kinds_of(codes)),
                get_profile(profile).packed,
                PartieOutputs(pout, dout, used, np.zeros(4 * max_donnes, np.int32)), None)
    n = int(pout[PT_N_DONNES, 0])
    assert used[0] == n
    before = [tuple(int(x) for x in dout[PD_SCORE:PD_SCORE + 2, k]) for k in range(n)]
    # The reference engine's Partie agrees donne by donne.
    ref = Partie(profile=profile)
    for k in range(n):
        assert ref.totals == before[k]
        c = dout[:, k]
        taker = int(c[O_TAKER])
        ref.record(tuple(c[O_MARKS:O_MARKS + 2]), tuple(c[O_TRICKS:O_TRICKS + 2]),
                   -1 if taker < 0 else taker & 1, bool(c[O_MADE]))
    totals = (int(pout[PT_TOTAL, 0]), int(pout[PT_TOTAL + 1, 0]))
    assert (ref.winner, ref.totals, ref.n_donnes) == (int(pout[PT_WINNER, 0]), totals, n)
    return int(pout[PT_WINNER, 0]), totals, n, before


def test_partie_loop_belote_only_crossing_waits_for_a_later_trick():
    # "a team at or over 2000 is eligible, unless in this donne it crossed 2000 with a mark
    # made only of its belote while failing as takers or being capot — such a team becomes
    # eligible at the end of a later donne in which it wins at least one trick."
    seq = [
        donne((990, 0), (6, 2), 0),
        donne((990, 0), (6, 2), 2),
        donne((20, 250), (3, 5), 0, made=False, belote=(20, 0)),  # 2000 on its belote
        donne((0, 500), (0, 8), 1),                               # capot: still waiting
        donne((0, 160), (1, 7), 1),                               # one trick: eligible
        donne((500, 0), (8, 0), 0),                               # never played
    ]
    winner, totals, n, before = play_given(seq)
    assert (winner, totals, n) == (0, (2000, 910), 5)
    assert before == [(0, 0), (990, 0), (1980, 0), (2000, 250), (2000, 750)]


def test_partie_loop_equal_totals_over_the_target_play_on():
    # "Both eligible: the higher total wins; equal totals: play on."
    seq = [
        donne((1000, 1000), (4, 4), 0),
        donne((1000, 1000), (4, 4), 1),    # 2000 - 2000: play on
        donne((80, 90), (3, 5), 1),        # 2080 - 2090: team 1
    ]
    winner, totals, n, before = play_given(seq)
    assert (winner, totals, n) == (1, (2080, 2090), 3)
    assert before[2] == (2000, 2000)


def test_partie_loop_both_over_the_target_higher_total_wins():
    seq = [donne((1950, 1900), (4, 4), 0), donne((100, 160), (3, 5), 1)]
    assert play_given(seq)[:3] == (1, (2050, 2060), 2)


def test_partie_loop_stephanoise_capot_crossing_on_announcements_waits_one_donne():
    # stephanoise: "a team that crosses 2000 only thanks to its announcements while being
    # capot does not win yet: play another donne" (RULES.md ruling: eligible after it).
    seq = [
        donne((1000, 900), (4, 4), 0),
        donne((600, 1100), (8, 0), 0),     # team 1 reaches 2000 with no trick: waits
        donne((100, 0), (8, 0), 2),        # the extra donne: team 1 wins at 2000
    ]
    winner, totals, n, before = play_given(seq, profile="stephanoise")
    assert (winner, totals, n) == (1, (1700, 2000), 3)
    assert before == [(0, 0), (1000, 900), (1600, 2000)]
    # The same sequence under federal: a team without a trick waits for one, and team 0's
    # capots keep it waiting: team 0 gets there first.
    winner, totals, n, _ = play_given([*seq, donne((400, 0), (8, 0), 0)])
    assert (winner, totals, n) == (0, (2100, 2000), 4)


def test_partie_loop_stops_at_max_donnes_without_a_winner():
    # A partie can in principle go on (here: every donne passed out); the cap stops it
    # with winner -1, never a silent winner.
    winner, totals, n, before = play_given([PASSED], max_donnes=7)
    assert (winner, totals, n) == (-1, (0, 0), 7)
    assert before == [(0, 0)] * 7


# --- simulated parties ------------------------------------------------------------------


@pytest.fixture(scope="module")
def federal() -> pd.DataFrame:
    return simcoinche.parties(600, seed=9, progress=False)


def replay(df: pd.DataFrame, profile: str) -> int:
    """Replay every partie with the reference Partie from its per-donne rows; returns the
    number of donnes checked."""
    checked = 0
    for row in df.itertuples(index=False):
        ref = Partie(dealer=row.partie & 3, profile=profile)
        n = int(row.n_donnes)
        assert len(row.marks_t0) == n and len(row.score_t1) == n
        for k in range(n):
            assert ref.winner == -1
            assert ref.totals == (row.score_t0[k], row.score_t1[k])
            # "The dealer moves to D+1 after every donne, a passed-out one included."
            assert ref.dealer == (row.partie + k) & 3
            taker = int(row.taker[k])
            if taker < 0:
                assert row.marks_t0[k] == row.marks_t1[k] == row.tricks_t0[k] == 0
            ref.record((int(row.marks_t0[k]), int(row.marks_t1[k])),
                       (int(row.tricks_t0[k]), int(row.tricks_t1[k])),
                       -1 if taker < 0 else taker & 1, bool(row.made[k]))
            checked += 1
        assert (ref.winner, ref.totals) == (row.winner, (row.total_t0, row.total_t1))
        assert row.winner in (0, 1)
    return checked


def test_every_partie_totals_rederived_from_its_donnes_marks(federal):
    # Totals are the sums of the donnes' marks, and the reference engine's Partie, fed
    # each donne's marks, tricks, takers and result, ends every partie at the same donne
    # with the same winner, passing through every stored score.
    d = W.partie_donnes(federal)
    sums = d.groupby("partie")[["marks_t0", "marks_t1"]].sum()
    assert (sums["marks_t0"].to_numpy() == federal["total_t0"].to_numpy()).all()
    assert (sums["marks_t1"].to_numpy() == federal["total_t1"].to_numpy()).all()
    assert replay(federal, "federal") == len(d) == int(federal["n_donnes"].sum())
    assert federal["partie"].tolist() == list(range(600))
    target = get_profile("federal").target
    assert (federal[["total_t0", "total_t1"]].max(axis=1) >= target).all()


@pytest.mark.parametrize("profile,players", [("classic", "heuristic"),
                                             ("stephanoise", "heuristic"),
                                             ("strict", "heuristic"),
                                             ("federal", "random,heuristic")])
def test_every_partie_of_each_profile_replays_with_the_reference_partie(profile, players):
    df = simcoinche.parties(150, seed=3, profile=profile, players=players, progress=False)
    assert replay(df, profile) == int(df["n_donnes"].sum())


def test_donne_k_of_partie_p_is_the_donne_of_its_own_stream():
    # Partie p's donne k is play_one keyed (partie_key(seed, p), k) with dealer (p + k) % 4:
    # for p % 4 == 0 that is run_batch over the partie's key with the rotating dealer.
    # Score-blind players: a score-aware bidder calls by the partie's score, which a
    # single donne does not have.
    blind = "heuristic:score_aware=0"
    rows = simcoinche.parties(405, seed=9, players=blind, progress=False)
    _, codes, params = team_players(blind, None, get_profile("federal"))
    prof = get_profile("federal").packed
    run_key = seed_key(np.uint64(9))
    for p in (0, 4, 404):
        row = rows.iloc[p]
        n = int(row.n_donnes)
        out = np.zeros((N_OUT, n + 1), dtype=np.int32)[:, :n]
        empty = (np.zeros((0, 128), np.uint8), np.zeros(0, np.int16), np.zeros((0, 32), np.uint8))
        # (uint64 key, as simulate passes it: run_batch keeps one compiled signature)
        run_batch(np.uint64(partie_key(run_key, p)), np.int64(0), np.int64(n), np.int64(0),
                  np.int64(n), -1,
                  Players(codes, params, kinds_of(codes)), prof, False,
                  Outputs(out, *empty, np.zeros(n, np.int32)), None)
        assert out[O_MARKS].tolist() == list(row.marks_t0)
        assert out[O_MARKS + 1].tolist() == list(row.marks_t1)
        assert out[O_TAKER].tolist() == list(row.taker)


def test_same_seed_same_parties_whatever_threads_chunks_or_room(federal, monkeypatch):
    one = simcoinche.parties(600, seed=9, threads=1, chunk_size=600, progress=False)
    pd.testing.assert_frame_equal(one, federal)
    monkeypatch.setattr(P, "ROWS_PER_PARTIE", 1)  # every block runs out of rows: retried
    small = simcoinche.parties(600, seed=9, threads=2, chunk_size=77, progress=False)
    pd.testing.assert_frame_equal(small, federal)
    # Partie p does not depend on how many parties the run has.
    pd.testing.assert_frame_equal(simcoinche.parties(100, seed=9, progress=False),
                                  federal.iloc[:100])
    other = simcoinche.parties(100, seed=10, progress=False)
    assert not other["total_t0"].equals(federal["total_t0"].iloc[:100])


def test_file_equals_in_memory_rows_and_reads_back(federal, tmp_path):
    out = tmp_path / "p.parquet"
    s = simcoinche.parties(600, seed=9, out=out, progress=False)
    assert s.n == 600 and s.donnes == int(federal["n_donnes"].sum()) and s.path == str(out)
    assert s.wins == [int((federal.winner == 0).sum()), int((federal.winner == 1).sum())]
    assert s.unfinished == 0 and "parties/s" in s.text()
    back = read_results(out)
    pd.testing.assert_frame_equal(back, federal)
    md = read_metadata(out)
    assert md["kind"] == "parties" and md["n"] == 600 and md["max_donnes"] == 1000
    assert list(read_results(out, columns=["partie", "winner"]).columns) == ["partie",
                                                                           "winner"]
    with pytest.raises(InputError, match="unknown column 'nope'"):
        read_results(out, columns=["nope"])
    flat = W.partie_donnes(out, ["score_t0", "marks_t0"])
    pd.testing.assert_frame_equal(flat, W.partie_donnes(federal, ["score_t0", "marks_t0"]))
    assert list(flat.columns) == ["partie", "donne", "winner", "score_t0", "marks_t0"]


def test_capped_parties_are_flagged_and_left_out_of_the_table(federal):
    df = simcoinche.parties(600, seed=9, max_donnes=10, progress=False)
    capped = df["winner"] == -1
    long = federal["n_donnes"] > 10
    assert capped.tolist() == long.tolist() and capped.any()
    assert (df.loc[capped, "n_donnes"] == 10).all()
    assert df.attrs["summary"].unfinished == int(capped.sum())
    assert "reached the cap" in df.attrs["summary"].text()
    pd.testing.assert_frame_equal(df[~capped], federal[~long])
    t = W.win_probability(df)
    start = t[(t.own_min == 0) & (t.other_min == 0)].iloc[0]
    assert start.n == int((~capped).sum()) and start.observations == 2 * start.n


# --- the win-probability table ------------------------------------------------------------


@pytest.mark.parametrize("target", [-1, 0, 1.5, True, 10**12])
def test_win_probability_target_is_a_partie_target(target):
    df = pd.DataFrame({"partie": [0], "winner": [0], "n_donnes": [1],
                       "score_t0": [np.array([0])], "score_t1": [np.array([0])]})
    with pytest.raises(InputError, match="target must be a whole number of points in "
                       r"1\.\.10000"):
        W.win_probability(df, bin_width=100, target=target)


def test_win_probability_counts_parties_once_per_cell_and_orientation():
    df = pd.DataFrame({
        "partie": [0, 1, 2], "winner": [0, 1, 0], "n_donnes": [3, 1, 2],
        "score_t0": [np.array([0, 50, 650]), np.array([0]), np.array([0, 620])],
        "score_t1": [np.array([0, 60, 910]), np.array([0]), np.array([0, 930])],
    })
    t = W.win_probability(df, bin_width=100, target=1000).set_index(["own", "other"])
    # Cell 0-99 × 0-99: three parties (partie 0's two donnes there counted once), each
    # seen from both orientations with opposite outcomes: 50 % by construction, no
    # interval, n counts parties.
    start = t.loc[("0–99", "0–99")]
    assert (start.n, start.observations, start.wins, start.p) == (3, 6, 3, 0.5)
    assert bool(start.symmetric) and np.isnan(start.low) and np.isnan(start.high)
    # Off the diagonal: one observation per partie, Wilson on the parties.
    behind = t.loc[("600–699", "900–999")]
    assert (behind.n, behind.observations, behind.wins) == (2, 2, 2)
    assert not behind.symmetric
    low, high = wilson_interval(2, 2)
    assert (behind.low, behind.high) == (low, high) and behind.high == 1
    ahead = t.loc[("900–999", "600–699")]
    assert (ahead.n, ahead.observations, ahead.wins) == (2, 2, 0)
    assert len(t) == 3
    pivot = W.win_probability_pivot(t.reset_index())
    assert pivot.set_index("us \\ them").loc["0–99", "0–99"] == "(50)"


def test_a_partie_observed_twice_in_a_cell_gets_a_cluster_robust_interval():
    # Cells 0, 1: cell 0 has four parties with one observation each (plain Wilson on
    # 4); cell 1 has partie 10 with two observations (one win, one loss) and parties 11,
    # 12 with one win each: p = 3/4 over 4 observations from 3 parties.
    cell = np.array([0, 0, 0, 0, 1, 1, 1])
    m = np.array([1, 1, 1, 1, 2, 1, 1])
    y = np.array([1, 1, 0, 1, 1, 1, 1])
    g, obs, w, low, high = W.clustered_wilson(cell, m, y, 2)
    assert g.tolist() == [4, 3] and obs.tolist() == [4, 4] and w.tolist() == [3, 3]
    lo4, hi4 = wilson_interval(3, 4)
    assert (low[0], high[0]) == (lo4, hi4)
    # CR0 variance: residuals y - p m = 1 - 1.5, 0.25, 0.25 → V = (0.25 + 0.0625 * 2)
    # / 16; n_eff = p (1 - p) / V = 0.1875 / 0.0234375 = 8, capped at the 3 parties.
    lo3, hi3 = _wilson_float(0.75, 3.0)
    assert np.isclose(low[1], lo3) and np.isclose(high[1], hi3)
    # Only mirrored pairs (the diagonal): no information, no interval.
    g, obs, w, low, high = W.clustered_wilson(np.array([0, 0]), np.array([2, 2]),
                                              np.array([1, 1]), 1)
    assert (g[0], obs[0], w[0]) == (2, 4, 2) and np.isnan(low[0]) and np.isnan(high[0])


def _wilson_float(p, n, z=1.96):
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_win_probability_on_a_run(federal):
    t = W.win_probability(federal)
    # min_count 0 keeps every cell, as 1 does (it was refused here alone).
    pd.testing.assert_frame_equal(W.win_probability(federal, min_count=0), t)
    start = t[(t.own_min == 0) & (t.other_min == 0)].iloc[0]
    # Every partie starts at 0-0: 600 parties, two observations each (one per team), one
    # win each: the diagonal is symmetric by construction, without an interval.
    assert (start.n, start.observations, start.wins) == (600, 1200, 600)
    assert (t.symmetric == (t.own_min == t.other_min)).all()
    assert t[t.symmetric].low.isna().all() and (t[t.symmetric].p == 0.5).all()
    off = t[~t.symmetric]
    assert (off.observations == off.n).all()
    assert ((off.low <= off.p) & (off.p <= off.high)).all()
    # Pooling both teams makes the table complementary: P(a, b) + P(b, a) = 1.
    m = t.set_index(["own_min", "other_min"])
    for (a, b), r in m.iterrows():
        assert m.loc[(b, a), "n"] == r.n
        assert m.loc[(b, a), "wins"] + r.wins == r.observations
    # Far ahead wins more often than far behind: the leader's 95 % interval lies above
    # one half and the trailer's below (15 observations each in this run).
    assert m.loc[(1500, 500), "low"] > 0.5 > m.loc[(500, 1500), "high"]
    # Bins of 100 points, the last one open ("2000+") when a team stood there.
    top = t.own_min >= 2000
    assert (t.own[top] == "2000+").all() and t.own_max[top].isna().all()
    assert (t.own_max[~top] == t.own_min[~top] + 99).all()
    pivot = W.win_probability_pivot(W.win_probability(federal, bin_width=500))
    cols = ["us \\ them", "0–499", "500–999", "1000–1499", "1500–1999", "2000+"]
    assert list(pivot.columns) == cols[:len(pivot.columns)] and len(pivot.columns) >= 5
    assert pivot.iloc[0, 1] == "(50)"
    with pytest.raises(InputError, match="bin_width"):
        W.win_probability(federal, bin_width=0)


def test_report_of_a_parties_run_shows_the_table(federal, tmp_path, capsys):
    run = tmp_path / "p.parquet"
    simcoinche.parties(600, seed=9, out=run, progress=False)
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    rep = tmp_path / "rep"
    text = (rep / "report.md").read_text()
    assert "Chances of winning the partie from a score" in text
    assert "| 0–199 | (50) |" in text and "![win_probability](win_probability.png)" in text
    assert (rep / "win_probability.png").stat().st_size > 10_000
    csv = pd.read_csv(rep / "win_probability.csv")
    assert list(csv.columns) == ["own_min", "own_max", "other_min", "other_max", "own",
                                 "other", "n", "observations", "wins", "p", "low", "high",
                                 "symmetric"]
    assert csv["n"].sum() == W.win_probability(federal)["n"].sum()
    with pytest.raises(InputError, match="not a parties run"):
        W.partie_donnes(_simulated(tmp_path))


def _simulated(tmp_path):
    path = tmp_path / "donnes.parquet"
    simcoinche.simulate(100, seed=1, out=path, progress=False)
    return path


# --- command line -----------------------------------------------------------------------


def test_cli_writes_the_default_path_and_prints_a_summary(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["parties", "-n", "200", "--seed", "9", "--no-progress"]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "runs" / "simcoinche-parties-federal-s9-n200.parquet"
    assert f"wrote {path.relative_to(tmp_path)}" in out and "parties/s" in out
    assert "simcoinche report" in out
    assert read_results(path)["partie"].tolist() == list(range(200))


@pytest.mark.parametrize("args,culprit", [
    (["-n", "0"], "n must be a positive integer"),
    (["-n", "10", "--seed", "-1"], "seed"),
    (["-n", "10", "--profile", "nope"], "nope"),
    (["-n", "10", "--players", "bogus"], "bogus"),
    (["-n", "10", "--max-donnes", "0"], "max_donnes"),
    (["-n", "10", "--max-donnes", "40000"], "max_donnes must be at most"),
    (["-n", "10", "--threads", "99"], "threads"),
    (["-n", "10", "--chunk-size", "0"], "chunk_size"),
    (["-n", "10", "--task-size", "5"], "--task-size needs --engine dask"),
    (["-n", "10", "--scheduler", "tcp://x:1"], "--scheduler needs --engine dask"),
    (["-n", "ten"], "invalid integer"),
])
def test_cli_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, args,
                                                               culprit):
    out = tmp_path / "p.parquet"
    try:
        status = main(["parties", *args, "--out", str(out), "--no-progress"])
    except SystemExit as exc:  # argparse's own errors (one line too, cli._Parser)
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert culprit in err and err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,culprit", [
    (["--scheduler", "foo::bar"], "invalid Dask scheduler address 'foo::bar'"),
    (["--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
    (["--task-size", "0"], "task_size must be a positive integer"),
    (["--max-donnes", "0"], "max_donnes must be a positive integer"),
    (["--out", "{tmp}/file"], "is a file; --engine dask writes a dataset directory"),
    (["--out", "{tmp}/no/such/ds"], "does not exist"),
])
def test_cli_dask_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys,
                                                                    monkeypatch, args,
                                                                    culprit):
    import simcoinche.runs.distributed as dist

    monkeypatch.setattr(dist, "CONNECT_TIMEOUT", 1.0)
    (tmp_path / "file").write_text("x")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "ds")]
    assert main(["parties", "-n", "100", "--engine", "dask", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("simcoinche: error:") and culprit in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_cli_refuses_an_existing_output_or_a_missing_directory(tmp_path, capsys):
    out = tmp_path / "p.parquet"
    out.write_bytes(b"keep")
    assert main(["parties", "-n", "10", "--out", str(out), "--no-progress"]) == 2
    assert "exists; use --overwrite" in capsys.readouterr().err
    assert out.read_bytes() == b"keep"
    assert main(["parties", "-n", "10", "--out", str(tmp_path / "no" / "p.parquet")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.parquet"]


def test_interrupted_run_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "p.parquet"
    real = P._PartieBuffers.table
    calls = []

    def table(self, *a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, *a, **k)

    monkeypatch.setattr(P._PartieBuffers, "table", table)
    with pytest.raises(KeyboardInterrupt):
        simcoinche.parties(300, seed=1, out=out, chunk_size=100, progress=False)
    assert list(tmp_path.iterdir()) == []


# --- Dask -------------------------------------------------------------------------------


def test_dask_engine_gives_the_same_parties_as_the_local_engine(federal, tmp_path, capsys):
    import logging

    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR,
                      env={"NUMBA_NUM_THREADS": "1"}) as lc, Client(lc) as client:
        out = tmp_path / "ds"
        s = simcoinche.parties(600, seed=9, out=out, engine="dask", client=client,
                               task_size=150, progress=False)
        assert (s.parts, s.workers, s.parts_reused) == (4, 2, 0)
        assert s.donnes == int(federal["n_donnes"].sum()) and "engine dask" in s.text()
        pd.testing.assert_frame_equal(read_results(out), federal)
        assert read_metadata(out)["kind"] == "parties"
        again = simcoinche.parties(600, seed=9, out=out, engine="dask", client=client,
                                   task_size=150, progress=False)
        assert (again.parts_reused, again.computed) == (4, 0)
        assert again.wins == s.wins
        # Another run in the same directory is refused.
        with pytest.raises(InputError, match="holds another run"):
            simcoinche.parties(600, seed=8, out=out, engine="dask", client=client,
                               task_size=150, progress=False)
        t = W.win_probability(out)
        pd.testing.assert_frame_equal(t, W.win_probability(federal))
        # The command line, on the same cluster by its address, other task size.
        cli = tmp_path / "cli"
        assert main(["parties", "-n", "600", "--seed", "9", "--engine", "dask",
                     "--scheduler", lc.scheduler_address, "--task-size", "250",
                     "--out", str(cli), "--no-progress"]) == 0
        pd.testing.assert_frame_equal(read_results(cli), federal)


# --- the analysis script ------------------------------------------------------------------


def test_win_probability_script_runs_then_reuses_each_profile(tmp_path, monkeypatch,
                                                              capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "analysis" / "win_probability.py"
    spec = importlib.util.spec_from_file_location("analysis_win_probability", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.chdir(tmp_path)
    argv = ["--profiles", "federal,strict", "-n", "400", "--out", str(tmp_path / "o")]
    assert script.main(argv) == 0
    text = (tmp_path / "o" / "win_probability.md").read_text()
    assert "## federal" in text and "## strict" in text and "parties/s" in text
    assert "640 against 910 (cell 600–699 against 900–999)" in text
    assert "| 0–199 | (50) |" in text
    assert (tmp_path / "o" / "win_probability_federal.png").stat().st_size > 10_000
    csv = pd.read_csv(tmp_path / "o" / "win_probability_strict.csv")
    assert (csv["n"].iloc[0], csv["observations"].iloc[0]) == (400, 800)
    run = tmp_path / "runs" / "simcoinche-parties-federal-s1-n400.parquet"
    stamp = run.stat().st_mtime_ns
    assert script.main(argv) == 0
    assert run.stat().st_mtime_ns == stamp      # the matching run was reused
    assert "reused" in (tmp_path / "o" / "win_probability.md").read_text()
    # A run of the same kinds with other parameters (score-aware) is played again.
    P.parties_to_file(400, seed=1, profile="federal", players="heuristic", out=run,
                      overwrite=True, progress=False)
    stamp = run.stat().st_mtime_ns
    assert script.main(argv) == 0
    assert run.stat().st_mtime_ns != stamp
    assert simcoinche.read_metadata(run)["params"][0]["score_aware"] == 0
    capsys.readouterr()


def test_the_helpers_equity_job_compiles_the_score_aware_bidders_own_signature():
    # A cold parties' compile helper compiles the equity of a score (score_bid._local,
    # and _after with it) while parties deals: parties must then find it cached for its
    # own argument types. On a cold cache (CI) a second signature would appear in the
    # kernel cache's index of _local beside the helper's.
    from simcoinche._kernels.score_bid import _local

    P.warm_equity()
    P.parties(4, seed=3, threads=1)
    assert len(_local._cache._cache_file._load_index()) == 1


@pytest.mark.parametrize("options, culprit", [
    ({"timeout": float("nan")}, "timeout must be a positive number of seconds, got nan"),
    ({"timeout": -1}, "timeout must be a positive number of seconds, got -1"),
    ({"timeout": "x"}, "timeout must be a positive number of seconds, got 'x'"),
    ({"cluster_shape": (1, 1, 1)}, "cluster_shape must be (workers, threads per worker)"),
    ({"cluster_shape": "ab"}, "cluster_shape must be (workers, threads per worker)"),
    ({"cluster_shape": (0, 1)}, "cluster_shape must be (workers, threads per worker)"),
    ({"client": 5}, "client must be a connected distributed.Client, got 5"),
    ({"overwrite": "no"}, "overwrite must be True or False, got 'no'"),
    ({"progress": "x"}, "progress must be True or False, got 'x'"),
])
def test_dask_options_of_the_wrong_kind_are_refused_before_any_connection(tmp_path,
                                                                          options,
                                                                          culprit):
    with pytest.raises(InputError) as exc:
        simcoinche.parties(10, out=tmp_path / "ds", engine="dask", **options)
    assert culprit in str(exc.value) and "\n" not in str(exc.value)
    assert list(tmp_path.iterdir()) == []


def test_a_dask_timeout_without_the_dask_engine_is_refused():
    with pytest.raises(InputError, match="timeout needs engine='dask'"):
        simcoinche.parties(3, timeout=5, threads=1)


@pytest.mark.parametrize("options, culprit", [
    ({"thread": 1}, "unknown argument 'thread' of parties_to_file"),
    ({"dd": True}, "unknown argument 'dd' of parties_to_file"),
    ({"task_size": 2, "threads": 1}, "task_size needs engine='dask'"),
    ({"engine": "spark", "threads": 1}, "engine must be 'local' or 'dask', got 'spark'"),
])
def test_parties_to_file_refuses_what_parties_would_not_read(tmp_path, options, culprit):
    """A misspelt keyword, or a Dask option on a local run, was dropped silently."""
    from simcoinche.runs.partie import parties_to_file

    with pytest.raises(InputError, match=re.escape(culprit)):
        parties_to_file(3, out=tmp_path / "p.parquet", **options)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("out, culprit", [
    (5, "output must be a path (str or os.PathLike), got 5"),
    (b"ds", "output must be a path"),
    ("", "output path is empty"),
])
def test_a_dask_output_that_is_not_a_path_is_refused(out, culprit):
    with pytest.raises(InputError, match=re.escape(culprit)):
        simcoinche.parties(10, out=out, engine="dask")


@pytest.mark.parametrize("change, culprit", [
    (lambda t: t.set_column(t.schema.get_field_index("winner"), "winner",
                            pa.array([7] * t.num_rows, pa.int8())),
     "column 'winner' holds 7, outside -1..1"),
    (lambda t: t.set_column(t.schema.get_field_index("winner"), "winner",
                            pa.array(["0"] * t.num_rows, pa.string())),
     "column 'winner' is string, a simcoinche run writes int8"),
    # (A dropped column every parties run writes was called an unknown column.)
    (lambda t: t.drop_columns(["winner"]),
     "column 'winner' is missing from"),
])
def test_a_parties_file_rewritten_by_another_program_is_refused(tmp_path, change, culprit):
    """A winner 7 gave a report of 0 % wins for both teams, exit 0; a winner as text a
    TypeError traceback in the win-probability table."""
    path = tmp_path / "p.parquet"
    simcoinche.parties(30, seed=1, out=path, threads=1, progress=False)
    table = pq.read_table(path)
    edited = tmp_path / "edited.parquet"
    pq.write_table(change(table).replace_schema_metadata(table.schema.metadata), edited)
    with pytest.raises(InputError, match=re.escape(culprit)):
        simcoinche.read_results(edited)
    assert main(["report", str(edited), "--out", str(tmp_path / "rep")]) == 2
    assert not (tmp_path / "rep").exists()


def test_a_contract_value_the_profile_lacks_in_a_parties_list_is_refused(tmp_path):
    """The per-donne lists are checked against the run's profile as a run of donnes is:
    a bid value of 999 (federal's are 80..160 and 250) is refused where it is read."""
    path = tmp_path / "p.parquet"
    simcoinche.parties(10, seed=1, out=path, threads=1, progress=False)
    table = pq.read_table(path)
    values = [[999 if v else v for v in vs] for vs in table["bid_value"].to_pylist()]
    edited = tmp_path / "edited.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("bid_value"), "bid_value",
                                    pa.array(values, pa.list_(pa.int16())))
                   .replace_schema_metadata(table.schema.metadata), edited)
    with pytest.raises(InputError, match="column 'bid_value' holds 999, not a contract "
                                         "value of profile 'federal'"):
        simcoinche.read_results(edited)


def test_a_parties_file_with_a_missing_list_is_refused(tmp_path):
    """A whole per-donne list missing passed: the null check looked at the elements."""
    path = tmp_path / "p.parquet"
    simcoinche.parties(10, seed=1, out=path, threads=1, progress=False)
    table = pq.read_table(path)
    made = table["made"].combine_chunks()
    mask = pa.array([i == 2 for i in range(len(made))])
    holed = pa.ListArray.from_arrays(made.offsets, made.values, mask=mask)
    edited = tmp_path / "edited.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("made"), "made", holed)
                   .replace_schema_metadata(table.schema.metadata), edited)
    with pytest.raises(InputError, match="column 'made' has 1 missing lists"):
        simcoinche.read_results(edited)


def test_a_parties_run_is_read_and_reported_where_the_kernel_cache_cannot_be_written(
        tmp_path):
    """As a run of donnes (tests/test_report.py): the parties report's win-probability
    table had imported the parties kernels through runs/partie.py."""
    from kernel_module import read_and_report_with_an_unwritable_cache

    path = tmp_path / "parties.parquet"
    simcoinche.parties(20, seed=3, out=path, progress=False)
    rows, loaded = read_and_report_with_an_unwritable_cache(path, tmp_path)
    assert rows == 20
    assert "simcoinche._kernels.partie_layout" in loaded
    assert "simcoinche._kernels.partie" not in loaded
    assert "simcoinche._kernels.donne" not in loaded


def test_the_summary_gives_the_mean_length_of_the_finished_parties_only(tmp_path):
    # With parties cut at max_donnes the summary's "donnes per partie" counted them (1.00
    # with --max-donnes 1) where the report's mean leaves them out.
    from simcoinche.runs.partie import parties_to_file

    cut = parties_to_file(20, out=tmp_path / "cut.parquet", seed=1, max_donnes=1,
                          progress=False)
    assert cut.unfinished == 20 and "no partie finished" in cut.text()
    summary = parties_to_file(40, out=tmp_path / "p.parquet", seed=1, max_donnes=12,
                              progress=False)
    df = simcoinche.read_results(tmp_path / "p.parquet")
    finished = df[df["winner"] >= 0]
    assert 0 < summary.unfinished < 40 and len(finished) == 40 - summary.unfinished
    mean = finished["n_donnes"].mean()
    assert f"{mean:.2f} donnes per finished partie" in summary.text()
