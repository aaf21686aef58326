"""simcoinche simulate: determinism, invariants of every simulated donne, Parquet output,
metadata, the CLI main job and its input errors."""

from __future__ import annotations

import importlib
import json
import os
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import simcoinche
from simcoinche._kernels.announce import team_announcements
from simcoinche._kernels.bid_layout import BT_OFFSET
from simcoinche._kernels.players import PARAM_LEN
from simcoinche._kernels.scoring import S_MARK0, S_MARK1, SCORE_LEN, score_donne
from simcoinche.commands.cli import main
from simcoinche.rules import reference as ref
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import FEDERAL
from simcoinche.runs.results import COLUMN_NAMES, read_metadata, read_results, schema_markdown
from simcoinche.runs.simulation import RunSummary, simulate

HANDS = ["hand_0", "hand_1", "hand_2", "hand_3"]


def _frame(df: pd.DataFrame) -> pd.DataFrame:
    return df.reset_index(drop=True)


@pytest.mark.parametrize("players", ["random", "heuristic,random"])
def test_same_seed_same_rows_with_1_and_2_threads_and_any_chunk_size(players):
    base = simulate(3000, seed=42, players=players, threads=1, record_play=True,
                    progress=False)
    other = [
        simulate(3000, seed=42, players=players, threads=2, record_play=True,
                 progress=False),
        simulate(3000, seed=42, players=players, threads=2, chunk_size=777,
                 record_play=True, progress=False),
        simulate(3000, seed=42, players=players, threads=1, chunk_size=1000,
                 record_play=True, progress=False),
    ]
    for df in other:
        pd.testing.assert_frame_equal(_frame(base), _frame(df))


def test_donne_i_does_not_depend_on_n():
    a = simulate(500, seed=3, players="heuristic", progress=False)
    b = simulate(1200, seed=3, players="heuristic", progress=False)
    pd.testing.assert_frame_equal(_frame(a), _frame(b.iloc[:500]))


def test_different_seeds_give_different_deals():
    a = simulate(50, seed=1, players="random", progress=False)
    b = simulate(50, seed=2, players="random", progress=False)
    assert (a["hand_0"] != b["hand_0"]).mean() > 0.9


def test_parquet_file_equals_in_memory_rows_and_carries_metadata(tmp_path):
    path = tmp_path / "run.parquet"
    summary = simulate(2500, seed=9, players="heuristic,random", out=path, chunk_size=1000,
                       record_play=True, progress=False)
    assert isinstance(summary, RunSummary)
    assert path.exists() and not (tmp_path / "run.parquet.partial").exists()
    assert pq.ParquetFile(path).metadata.num_row_groups == 3
    disk = read_results(path)
    mem = simulate(2500, seed=9, players="heuristic,random", record_play=True,
                   progress=False)
    pd.testing.assert_frame_equal(_frame(disk), _frame(mem))
    assert list(disk.columns) == list(COLUMN_NAMES)
    md = read_metadata(path)
    assert md["seed"] == 9 and md["n"] == 2500 and md["profile"] == "federal"
    assert md["players"] == ["heuristic", "random"]
    assert md["version"] == simcoinche.__version__
    assert md["rules_version"] == simcoinche.RULES_VERSION
    assert md["params"][0]["bid_margin"] == -11.2 and "p_open" in md["params"][1]
    # The named parameters only: the bidder's tables are package data, not metadata.
    assert len(md["param_arrays"][0]) == BT_OFFSET < PARAM_LEN


def test_read_results_columns_and_trump_categorical(tmp_path):
    path = tmp_path / "run.parquet"
    simulate(300, seed=1, out=path, progress=False)
    df = read_results(path, columns=["donne", "trump", "passed_out"])
    assert list(df.columns) == ["donne", "trump", "passed_out"]
    assert isinstance(df["trump"].dtype, pd.CategoricalDtype)
    assert list(df["trump"].cat.categories) == ["S", "H", "D", "C", "SA", "TA"]
    assert df.loc[df.passed_out, "trump"].isna().all()
    assert df.loc[~df.passed_out, "trump"].notna().all()
    with pytest.raises(InputError, match="unknown column 'nope'"):
        read_results(path, columns=["nope"])
    with pytest.raises(InputError, match=r"results '.*missing\.parquet' not found"):
        read_results(tmp_path / "missing.parquet")


def test_a_results_file_whose_trump_is_no_contract_kind_is_refused_in_one_line(tmp_path):
    """A file edited by another program (trump 9) gave pandas' ValueError from deep in
    the categorical conversion; the error now names the file, the value and its row."""
    path = tmp_path / "run.parquet"
    simulate(40, seed=1, out=path, progress=False, threads=1)
    table = pq.read_table(path)
    trump = table.column("trump").to_numpy().copy()
    trump[7] = 9
    i = table.schema.get_field_index("trump")
    edited = tmp_path / "edited.parquet"
    pq.write_table(table.set_column(i, table.schema.field(i),
                                    pa.array(trump, type=table.schema.field(i).type)),
                   edited)
    with pytest.raises(InputError) as exc:
        read_results(edited)
    assert str(exc.value) == f"results {str(edited)!r}: column 'trump' holds 9, outside -1..5"
    from simcoinche.runs.results import tidy

    with pytest.raises(InputError, match=r"^rows: column 'trump' holds 9 in row 7: a contract "
                                         r"kind is 0\.\.5 \(-1 passed out\)$"):
        tidy(pq.read_table(edited).to_pandas(), "rows")


def _rewritten(tmp_path, name, change):
    """A 40-donne run whose table went through ``change`` (pyarrow Table -> Table), as
    another program would rewrite it, keeping its metadata."""
    path = tmp_path / "run.parquet"
    if not path.exists():
        simulate(40, seed=1, out=path, progress=False, threads=1)
    table = pq.read_table(path)
    out = tmp_path / name
    pq.write_table(change(table).replace_schema_metadata(table.schema.metadata), out)
    return out


def _with(table, name, values):
    i = table.schema.get_field_index(name)
    return table.set_column(i, name, values)


def _on_a_played_donne(table, name, value):
    """``table`` with ``name`` set to ``value`` on its first played donne only."""
    values = table[name].to_pylist()
    values[table["passed_out"].to_pylist().index(False)] = value
    return _with(table, name, pa.array(values, table.schema.field(name).type))


@pytest.mark.parametrize("name, change, culprit", [
    ("made-as-text.parquet",
     lambda t: _with(t, "made", pc.cast(t["made"], pa.string())),
     "column 'made' is string, a simcoinche run writes bool"),
    ("taker-7.parquet",
     lambda t: _with(t, "taker", pa.array([7] * t.num_rows, pa.int8())),
     "column 'taker' holds 7, outside -1..3"),
    ("dealer-minus-1.parquet",
     lambda t: _with(t, "dealer", pa.array([-1] * t.num_rows, pa.int8())),
     "column 'dealer' holds -1, outside 0..3"),
    ("doubled.parquet", lambda t: pa.concat_tables([t, t]),
     "holds 80 rows; its run wrote 40: the file was changed since"),
    ("first-rows-twice.parquet", lambda t: pa.concat_tables([t.slice(0, 20), t.slice(0, 20)]),
     "column 'donne' is not donne 0, 1, … 39 in order: rows were moved, repeated or "
     "replaced since the run"),
    ("coinche-9.parquet",
     lambda t: _with(t, "coinche", pa.array([9] * t.num_rows, pa.int8())),
     "column 'coinche' holds 9, not one of 0, 1, 2, 4"),
    ("coinche-3.parquet",
     lambda t: _with(t, "coinche", pa.array([3] * t.num_rows, pa.int8())),
     "column 'coinche' holds 3, not one of 0, 1, 2, 4"),
    ("value-999.parquet", lambda t: _on_a_played_donne(t, "bid_value", 999),
     "column 'bid_value' holds 999, not its level's value in profile 'federal'"),
    ("level-12.parquet", lambda t: _on_a_played_donne(t, "bid_level", 12),
     "column 'bid_level' holds 12, outside -1..9 (the levels of profile 'federal')"),
    ("trump-sa.parquet", lambda t: _on_a_played_donne(t, "trump", 4),
     "column 'trump' holds 4, not a contract kind of profile 'federal'"),
    ("passed-out-with-a-taker.parquet", lambda t: _on_a_played_donne(t, "passed_out", True),
     "column 'passed_out' holds True on a donne whose taker says otherwise"),
    ("no-trump-with-a-taker.parquet", lambda t: _on_a_played_donne(t, "trump", -1),
     "column 'trump' holds -1 on a donne whose taker says otherwise"),
    ("no-coinche-with-a-taker.parquet", lambda t: _on_a_played_donne(t, "coinche", 0),
     "column 'coinche' holds 0 on a donne whose taker says otherwise"),
])
def test_a_results_file_rewritten_by_another_program_is_refused_before_any_table(
        tmp_path, name, change, culprit):
    """Text where a bool belongs gave a traceback in the report; a taker 7 put rows on
    the wrong team and rows read twice counted twice, both without a word; a contract
    value or kind the profile does not have, or a passed-out flag the taker contradicts,
    entered the tables as read."""
    path = _rewritten(tmp_path, name, change)
    with pytest.raises(InputError) as exc:
        read_results(path)
    assert str(exc.value).startswith(f"results {str(path)!r}")
    assert culprit in str(exc.value)
    assert main(["report", str(path), "--out", str(tmp_path / "rep")]) == 2
    assert not (tmp_path / "rep").exists()


def test_a_surcoinche_in_a_profile_without_one_is_refused(tmp_path):
    """classic plays no surcoinche (RULES.md): a multiplier of 4 read from a classic run
    is a changed file, not a contract."""
    path = tmp_path / "classic.parquet"
    simulate(40, seed=1, profile="classic", players="random", out=path, progress=False)
    table = pq.read_table(path)
    edited = tmp_path / "edited.parquet"
    pq.write_table(_on_a_played_donne(table, "coinche", 4)
                   .replace_schema_metadata(table.schema.metadata), edited)
    with pytest.raises(InputError, match=re.escape(
            "column 'coinche' holds 4 (surcoinched), which profile 'classic' does not "
            "play")):
        read_results(edited)


def test_schema_markdown_lists_every_column():
    md = schema_markdown()
    for name in COLUMN_NAMES:
        assert f"`{name}`" in md


def test_invariants_on_every_donne_of_a_50000_donne_run():
    """Partition, 162/252 card points, 8 tricks, zeros when passed out, and marks equal to
    the scoring kernel's on every donne; the reference engine's score_donne on a sample."""
    n = 50000
    df = simulate(n, seed=77, players=("heuristic", "random"), progress=False)
    df2 = simulate(n // 2, seed=78, players="heuristic", progress=False)
    df = pd.concat([df, df2], ignore_index=True)
    h = df[HANDS].to_numpy(dtype=np.uint64)
    assert ((h[:, 0] | h[:, 1] | h[:, 2] | h[:, 3]) == 0xFFFFFFFF).all()
    for a in range(4):
        for b in range(a + 1, 4):
            assert ((h[:, a] & h[:, b]) == 0).all()
    po = df["passed_out"].to_numpy()
    played = df[~po]
    cp = played["card_points_t0"].astype(int) + played["card_points_t1"]
    capot = (played["tricks_t0"] == 8) | (played["tricks_t1"] == 8)
    # "152 points in the cards, +10 for the last trick = 162"; "a team that wins all 8
    # tricks has C = 252 (152 + 100 instead of 10) and the other 0".
    assert (cp[~capot] == 162).all() and (cp[capot] == 252).all()
    assert ((played["tricks_t0"] + played["tricks_t1"]) == 8).all()
    passed = df[po]
    zero_cols = ["tricks_t0", "tricks_t1", "card_points_t0", "card_points_t1", "marks_t0",
                 "marks_t1", "bid_value", "coinche", "announce_t0", "announce_t1"]
    assert (passed[zero_cols] == 0).all().all()
    assert (passed["taker"] == -1).all() and not passed["made"].any()
    assert passed["trump"].isna().all()
    assert set(played["coinche"].unique()) <= {1, 2, 4}
    assert (played["marks_t0"] % 10 == 0).all() and (played["marks_t1"] % 10 == 0).all()

    prof = FEDERAL.packed
    out = np.zeros(SCORE_LEN, dtype=np.int32)
    ann = np.zeros(2, dtype=np.int32)
    declare = np.ones(4, dtype=np.uint8)
    rows = played.to_dict("records")
    rng = np.random.default_rng(0)
    sample = set(rng.choice(len(rows), size=3000, replace=False).tolist())
    for k, r in enumerate(rows):
        kind = FEDERAL_KINDS[r["trump"]]
        hands = np.array([r[c] for c in HANDS], dtype=np.uint32)
        team_announcements(hands, kind, declare, prof, ann)
        cpts = np.array([r["card_points_t0"], r["card_points_t1"]], dtype=np.int32)
        tw = np.array([r["tricks_t0"], r["tricks_t1"]], dtype=np.int32)
        bel = np.array([r["belote_t0"], r["belote_t1"]], dtype=np.int32)
        made = score_donne(r["taker"] & 1, r["bid_level"], kind, r["coinche"], cpts, tw, ann,
                           bel, prof, out)
        assert bool(made) == r["made"]
        assert (out[S_MARK0], out[S_MARK1]) == (r["marks_t0"], r["marks_t1"])
        if k in sample:
            sc = ref.score_donne(r["taker"] & 1, r["bid_level"], kind, r["coinche"],
                                 cpts.tolist(), tw.tolist(), ann.tolist(), bel.tolist())
            assert sc.made == r["made"]
            assert sc.marks == (r["marks_t0"], r["marks_t1"])
            assert sc.announcements == (r["announce_t0"], r["announce_t1"])


FEDERAL_KINDS = {"S": 0, "H": 1, "D": 2, "C": 3, "SA": 4, "TA": 5}


def test_summary_statistics_match_the_rows():
    df = simulate(4000, seed=4, players="heuristic", progress=False)
    s = df.attrs["summary"]
    assert s.n == 4000
    assert s.passed_out == int(df["passed_out"].sum())
    played = df[~df["passed_out"]]
    for v, (c, rate) in s.success_rate().items():
        sub = played[played["bid_value"] == v]
        assert c == len(sub)
        assert rate == pytest.approx(sub["made"].mean())
    assert s.marks_team == [int(df["marks_t0"].sum()), int(df["marks_t1"].sum())]
    assert "donnes/s" in s.text()


# --- CLI ------------------------------------------------------------------------------


def test_cli_main_job_writes_the_default_path_and_prints_a_summary(tmp_path, monkeypatch,
                                                                  capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "-n", "3000"]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "runs" / "simcoinche-federal-s0-n3000.parquet"
    assert path.exists()
    assert f"wrote {os.path.join('runs', path.name)}" in out
    assert "donnes/s" in out and "passed out" in out and "made" in out
    df = read_results(path)
    assert len(df) == 3000 and "auction" not in df.columns
    assert read_metadata(path)["players"] == ["heuristic", "heuristic"]


def test_cli_options_record_play_threads_players(tmp_path, capsys):
    path = tmp_path / "x.parquet"
    assert main(["simulate", "-n", "1500", "--seed", "12", "--players", "random,heuristic",
                 "--threads", "1", "--out", str(path), "--record-play",
                 "--no-progress"]) == 0
    df = read_results(path)
    assert {"auction", "play"} <= set(df.columns)
    same = simulate(1500, seed=12, players="random,heuristic", record_play=True,
                    progress=False)
    pd.testing.assert_frame_equal(_frame(df), _frame(same))
    # An existing output is replaced only with --overwrite.
    assert main(["simulate", "-n", "10", "--out", str(path), "--overwrite",
                 "--no-progress"]) == 0
    assert len(read_results(path)) == 10


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["-n", "0"], "n must be a positive integer"),
        (["-n", "-5"], "n must be a positive integer"),
        (["-n", "99999999999999999999999"], "n must be at most 2**62 - 1"),
        (["-n", "10", "--profile", "nope"], "unknown profile 'nope'"),
        (["-n", "10", "--players", "genius"], "unknown player 'genius'"),
        # colver's bots sit at match only: named as such, not as unknown players.
        (["-n", "10", "--players", "colver-isdd,heuristic"],
         "player 'colver-isdd' is one of colver's bots, which play only in `simcoinche "
         "match`"),
        (["-n", "10", "--players", "colver-isd"],
         "unknown player 'colver-isd'; colver's bots are colver-ismcts, colver-isdd"),
        (["-n", "10", "--players", "random,random,random"], "give one kind or two"),
        (["-n", "10", "--threads", "0"], "threads must be a positive integer"),
        (["-n", "10", "--dealer", "4"], "dealer must be a seat 0..3"),
        (["-n", "10", "--out", "{tmp}/no/such/dir/x.parquet"], "does not exist"),
        (["-n", "10", "--out", "{tmp}"], "is a directory"),
        (["-n", "10", "--out", "/dev/null/x.parquet"], "is not a directory"),
        # A folder meant: Path drops the slash, and a file "newdir" was written.
        (["-n", "10", "--out", "{tmp}/newdir/"], "ends with a slash: give a file name"),
        (["-n", "10", "--out", ""], "output path is empty"),
        (["-n", "ten"], "invalid"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, monkeypatch,
                                                              capsys, args, culprit):
    monkeypatch.chdir(tmp_path)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) if args[1] == "ten" else _nullcontext() as exc:
        status = main(["simulate", *args])
    if args[1] == "ten":
        status = exc.value.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("simcoinche: error:")
    assert culprit in err
    assert not list(tmp_path.rglob("*.parquet*"))


@pytest.mark.parametrize("what", ["symlink to a file", "broken symlink", "fifo",
                                  "partial symlink"])
def test_cli_output_that_a_rename_would_replace_unwritten_is_refused(tmp_path, capsys,
                                                                      what):
    """The run writes PATH.partial and renames it to PATH: that would replace a symbolic
    link (not its target) or a device or pipe (not write to it), so those are refused,
    even with --overwrite, and left as they were."""
    out = tmp_path / "out.parquet"
    target = tmp_path / "target.parquet"
    if what == "symlink to a file":
        target.write_bytes(b"precious")
        out.symlink_to(target)
    elif what == "broken symlink":
        out.symlink_to(tmp_path / "nowhere.parquet")
    elif what == "fifo":
        os.mkfifo(out)
    else:
        target.write_bytes(b"precious")
        (tmp_path / "out.parquet.partial").symlink_to(target)
    assert main(["simulate", "-n", "10", "--out", str(out), "--overwrite",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    if what == "partial symlink":
        assert "(where the run writes first) is not a regular file" in err
        assert not out.exists() and target.read_bytes() == b"precious"
        return
    assert ("is a symbolic link" if "symlink" in what else "is not a regular file") in err
    assert out.is_symlink() if "symlink" in what else out.is_fifo()
    if what == "symlink to a file":
        assert target.read_bytes() == b"precious"
    assert not (tmp_path / "out.parquet.partial").exists()


def test_cli_existing_output_without_overwrite_is_refused(tmp_path, capsys):
    path = tmp_path / "keep.parquet"
    path.write_bytes(b"precious")
    assert main(["simulate", "-n", "10", "--out", str(path)]) == 2
    err = capsys.readouterr().err
    assert "exists; use --overwrite" in err and err.count("\n") == 1
    assert path.read_bytes() == b"precious"
    assert not (tmp_path / "keep.parquet.partial").exists()


def test_cli_unwritable_directory(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):
            # Running as root: permissions do not bind; use a path under a file instead.
            target = tmp_path / "file"
            target.write_text("x")
            out = str(target / "x.parquet")
        else:
            out = str(ro / "x.parquet")
        assert main(["simulate", "-n", "10", "--out", out]) == 2
        err = capsys.readouterr().err
        assert err.startswith("simcoinche: error: cannot write") and err.count("\n") == 1
    finally:
        ro.chmod(0o700)
    assert not list(tmp_path.rglob("*.parquet*"))


def test_interrupted_run_leaves_no_file(tmp_path, monkeypatch):
    # The package exports the function `simulate`, which shadows the submodule's name.
    S = importlib.import_module("simcoinche.runs.simulation")

    calls = {"n": 0}
    real = S.chunk_table

    def boom(*a, **k):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(S, "chunk_table", boom)
    path = tmp_path / "r.parquet"
    with pytest.raises(KeyboardInterrupt):
        simulate(3000, seed=1, out=path, chunk_size=1000, progress=False)
    assert not path.exists()
    assert not (tmp_path / "r.parquet.partial").exists()


def test_a_value_beyond_its_column_type_fails_the_run_naming_the_column(tmp_path,
                                                                        monkeypatch):
    """Marks are int16 in the results: a mark the kernel computed beyond 32,767 (which
    Profile's bound rules out for every profile it accepts) fails the run naming the
    column, with no file left, instead of being written wrapped round to a negative."""
    from simcoinche._kernels.donne import O_MARKS
    from simcoinche.rules.errors import RunError

    S = importlib.import_module("simcoinche.runs.simulation")
    real = S.chunk_table

    def too_large(start, out, *a, **k):
        out[O_MARKS, 3] = 40_000
        return real(start, out, *a, **k)

    monkeypatch.setattr(S, "chunk_table", too_large)
    path = tmp_path / "r.parquet"
    with pytest.raises(RunError, match=r"column 'marks_t0' got 40000, beyond what its "
                       r"int16 holds \(-32768\.\.32767\)"):
        simulate(100, seed=1, out=path, progress=False)
    assert not list(tmp_path.iterdir())


def test_api_errors_name_the_culprit(tmp_path):
    with pytest.raises(InputError, match="seed must be an integer"):
        simulate(10, seed=-1)
    with pytest.raises(InputError, match="n must be a positive integer"):
        simulate(1.5)
    with pytest.raises(InputError, match="unknown parameter 'bogus'"):
        simulate(10, params=({"bogus": 1}, None))
    with pytest.raises(InputError, match="threads must be at most"):
        simulate(10, threads=10_000)


def test_metadata_is_json_under_the_simcoinche_key(tmp_path):
    path = tmp_path / "m.parquet"
    simulate(20, seed=5, players="random", out=path, progress=False)
    raw = pq.read_schema(path).metadata[b"simcoinche"]
    md = json.loads(raw)
    assert md["generator"].startswith("splitmix64")
    assert md["dealer"] == "rotating"


class _nullcontext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def test_full_and_partial_chunks_share_one_compiled_kernel():
    """A run whose last chunk is shorter than the others must not compile the batch
    kernel a second time mid-run (a contiguous full-chunk view and a strided partial one
    would be two numba signatures). Other tests of the process may have compiled other
    signatures (a PIMC player's, the table sequencer's): only what the run adds counts."""
    from simcoinche._kernels.batch import run_batch

    simulate(1000, seed=1, players="random", chunk_size=1000, progress=False)
    compiled = set(run_batch.signatures)
    simulate(2500, seed=1, players="random", chunk_size=1000, progress=False)
    assert set(run_batch.signatures) == compiled


@pytest.mark.parametrize("command", [
    ["simulate", "-n", "100000000", "--threads", "1"],
    ["match", "heuristic", "club", "--deals", "100000000", "--threads", "1"],
])
def test_sigterm_stops_a_run_like_ctrl_c_and_leaves_no_partial_file(tmp_path, command):
    """SIGTERM (kill, a batch system's limit) while the run writes: exit 130 with one
    line, and neither the output nor its .partial is left behind."""
    import signal
    import subprocess
    import sys

    from interrupt import stop_when

    out = tmp_path / "killed.parquet"
    proc = subprocess.Popen([sys.executable, "-m", "simcoinche", *command, "--out",
                             str(out), "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    partial = tmp_path / "killed.parquet.partial"
    err = stop_when(proc, partial.exists, signal.SIGTERM, settle_s=0.5)
    assert proc.returncode == 130, err
    # (A first run announces its compile before.)
    assert err.strip().splitlines()[-1] == "simcoinche: interrupted" and "Traceback" not in err
    assert not out.exists() and not partial.exists()


@pytest.mark.parametrize("kwargs, culprit", [
    ({"record_play": "no"}, "record_play must be True or False, got 'no'"),
    ({"dd": "yes"}, "dd must be True or False, got 'yes'"),
    ({"progress": "x"}, "progress must be True or False, got 'x'"),
    ({"out": 123}, "output must be a path (str or os.PathLike), got 123"),
    ({"out": b"x.parquet"}, "output must be a path"),
    ({"out": "x\0.parquet"}, "contains a null character"),
    ({"out": "a" * 300 + ".parquet"}, "output file name is too long (308 bytes"),
    ({"players": 5}, "players must be a spec such as 'heuristic'"),
    ({"players": ("heuristic", 5)}, "players must be a spec such as 'heuristic'"),
    ({"params": 5}, "params must be a pair (team 0, team 1) of name→value mappings"),
    ({"params": [["bid_margin"], None]}, "params must be a pair (team 0, team 1)"),
])
def test_api_flags_are_true_or_false_and_outputs_paths(kwargs, culprit, tmp_path,
                                                       monkeypatch):
    """A flag is True or False, not any value Python takes for true ("no" is); an output
    is a path; players and params of the wrong type are named. Refused before any work,
    nothing written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as exc:
        simulate(3, threads=1, **kwargs)
    assert culprit in str(exc.value) and "\n" not in str(exc.value)
    assert list(tmp_path.iterdir()) == []


def test_api_overwrite_no_does_not_replace_a_file(tmp_path):
    keep = tmp_path / "keep.parquet"
    keep.write_text("precious")
    for run in (lambda: simulate(3, out=keep, overwrite="no", threads=1),
                lambda: simcoinche.match("heuristic", "random", 3, out=keep,
                                         overwrite="False", threads=1),
                lambda: simcoinche.parties(3, out=keep, overwrite="no", threads=1)):
        with pytest.raises(InputError, match="overwrite must be True or False"):
            run()
    assert keep.read_text() == "precious"


def test_api_simulate_to_file_refuses_an_unknown_keyword(tmp_path):
    from simcoinche.runs.simulation import simulate_to_file

    with pytest.raises(InputError, match="unknown argument 'seeds' of simulate_to_file"):
        simulate_to_file(3, out=tmp_path / "f.parquet", seeds=5, threads=1)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("run", ["simulate", "parties"])
def test_api_overwrite_without_an_output_is_refused_not_ignored(run):
    """Rows returned in memory replace nothing: ``overwrite=True`` there is a mistake (an
    ``out`` forgotten), said at once, as match says it."""
    call = {"simulate": simulate, "parties": simcoinche.parties}[run]
    with pytest.raises(InputError, match=r"^overwrite is for an output file \(out\)$"):
        call(3, overwrite=True, threads=1)
    with pytest.raises(InputError, match="overwrite must be True or False, got 'yes'"):
        call(3, overwrite="yes", threads=1)


@pytest.mark.parametrize("run", ["simulate", "parties", "match"])
def test_api_rows_kept_in_memory_must_fit_in_it(run):
    """10**12 donnes (parties, deals) kept in memory could only fail when memory runs
    out, hours later: refused at once, with the way out."""
    call = {"simulate": lambda: simulate(10**12, threads=1),
            "parties": lambda: simcoinche.parties(10**12, threads=1),
            "match": lambda: simcoinche.match("heuristic", "random", 10**12, threads=1)}
    with pytest.raises(InputError, match=r"kept in memory need about .* GiB, more than "
                       r"this machine's .* GiB: write them to a file \(out=...\) instead"):
        call[run]()


def test_a_summary_counts_its_threads_in_good_english():
    """A one-thread run printed "(1 threads; ..."."""
    from simcoinche.runs.simulation import counted

    text = simulate(30, seed=1, threads=1, progress=False).attrs["summary"].text()
    assert "(1 thread; profile federal" in text
    assert [counted(n, "part") for n in (0, 1, 2)] == ["0 parts", "1 part", "2 parts"]


def test_results_that_are_a_pipe_or_not_utf8_are_refused_in_one_line(tmp_path):
    """A pipe without a writer blocked the report inside pyarrow, beyond Ctrl-C; a name
    that is not UTF-8 (legal on Linux) failed inside pyarrow with a traceback."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is not a file or a dataset directory"):
        read_results(fifo)
    bad = os.fsdecode(bytes(tmp_path) + b"/run\xff.parquet")
    with pytest.raises(InputError, match="is not valid UTF-8, which pyarrow needs: rename it"):
        read_results(bad)
    with pytest.raises(InputError, match="is not valid UTF-8, which pyarrow needs: rename it"):
        simulate(10, out=bad, threads=1)
    assert list(tmp_path.iterdir()) == [fifo]


def test_a_column_removed_from_a_run_is_said_missing_not_unknown(tmp_path):
    path = _rewritten(tmp_path, "no-hand-1.parquet", lambda t: t.drop_columns(["hand_1"]))
    with pytest.raises(InputError, match=r"column 'hand_1' is missing from .*no-hand-1\.parquet"
                                         r"': the file was changed since its run wrote it"):
        read_results(path, columns=["donne", "hand_1"])


def test_read_results_given_a_dataframe_says_so_in_one_line():
    with pytest.raises(InputError) as exc:
        read_results(pd.DataFrame({"a": range(100)}))
    assert str(exc.value) == ("results must be a path (str or os.PathLike), got a "
                              "DataFrame")


def test_a_one_donne_summary_says_donne():
    text = simulate(1, seed=1, threads=1, progress=False).attrs["summary"].text()
    assert text.startswith("1 donne in ")


def test_a_byte_changed_in_a_results_file_is_an_error_not_another_table(tmp_path):
    """Each page carries a checksum that every read verifies: a byte flipped on disk had
    changed the report's coinched share from 2.5 % to 4.5 % without a word."""
    path = tmp_path / "run.parquet"
    simulate(2000, seed=1, out=path, progress=False, threads=1)
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8
    caught = 0
    positions = range(200, len(data) - footer, (len(data) - footer - 200) // 25)
    for pos in positions:
        flipped = bytearray(data)
        flipped[pos] ^= 0x40
        (tmp_path / "flipped.parquet").write_bytes(flipped)
        try:
            read_results(tmp_path / "flipped.parquet")
        except InputError as exc:
            assert "\n" not in str(exc)
            caught += 1
    assert caught == len(positions) > 20


def test_a_file_without_checksums_or_run_metadata_still_reads(tmp_path):
    """Runs written before page checksums read as before; a Parquet file saved by another
    program (a filtered run, no simcoinche metadata) reads with the column checks only."""
    path = tmp_path / "run.parquet"
    simulate(60, seed=1, out=path, progress=False, threads=1)
    table = pq.read_table(path)
    old = tmp_path / "old.parquet"
    pq.write_table(table, old, write_page_checksum=False)
    pd.testing.assert_frame_equal(read_results(old), read_results(path))
    filtered = tmp_path / "filtered.parquet"
    pq.write_table(table.filter(pc.equal(table["dealer"], 1)).replace_schema_metadata(None),
                   filtered)
    assert len(read_results(filtered)) == pc.sum(pc.equal(table["dealer"], 1)).as_py()
    # A frame read back, filtered and saved by pandas (its trump a category) reads too.
    df = read_results(path)
    df[df.dealer == 1].to_parquet(tmp_path / "pandas.parquet")
    assert len(read_results(tmp_path / "pandas.parquet")) == (df.dealer == 1).sum()


def test_a_run_missing_a_column_every_run_writes_is_refused_when_read_whole(tmp_path):
    """A run with 'made' dropped (its metadata kept) read as a 24-column table, which the
    report then refused; reading it whole says it was changed, as asking for the column
    does."""
    path = _rewritten(tmp_path, "no-made.parquet", lambda t: t.drop_columns(["made"]))
    for columns in (None, ["made", "taker"]):
        with pytest.raises(InputError, match=r"column 'made' is missing from .*: the file "
                                             "was changed since its run wrote it"):
            read_results(path, columns)
    # A column the run was not asked to write is not missing.
    assert "play" not in read_results(_rewritten(tmp_path, "same.parquet", lambda t: t))


def test_a_parquet_file_of_another_program_is_refused_not_read(tmp_path):
    """A Parquet file with no simcoinche metadata and none of the results columns read
    as a DataFrame of its own columns; read_metadata and report refused it."""
    path = tmp_path / "other.parquet"
    pd.DataFrame({"a": [1, 2], "b": [3, 4]}).to_parquet(path)
    with pytest.raises(InputError, match="'.*other.parquet' is not a simcoinche run: it has "
                                         r"no simcoinche metadata and none of its columns "
                                         r"\(a, b\) is a results column"):
        read_results(path)


def test_missing_values_in_a_run_are_refused_in_one_line(tmp_path):
    """A missing donne index gave pyarrow's ArrowInvalid traceback, a taker column all
    missing a TypeError, and some missing takers read as passed-out donnes."""
    path = _rewritten(tmp_path, "null-taker.parquet", lambda t: _with(
        t, "taker", pa.array([None, *t["taker"].to_pylist()[1:]], pa.int8())))
    with pytest.raises(InputError, match="column 'taker' has 1 missing values; a simcoinche "
                                         "run writes none"):
        read_results(path)
    path = _rewritten(tmp_path, "null-donne.parquet", lambda t: _with(
        t, "donne", pa.array([None] * t.num_rows, pa.int64())))
    with pytest.raises(InputError, match="column 'donne' has 40 missing values"):
        read_results(path)


def test_run_metadata_changed_in_the_footer_is_refused(tmp_path):
    """Page checksums cover the data only: a byte of the footer's metadata could rename a
    key ("dealer" read "deeler") and the report dropped its line, exit 0."""
    path = tmp_path / "run.parquet"
    simulate(30, seed=1, out=path, progress=False, threads=1)
    table = pq.read_table(path)
    md = dict(table.schema.metadata)
    assert md[b"simcoinche.sha256"]
    md[b"simcoinche"] = md[b"simcoinche"].replace(b'"dealer"', b'"deeler"')
    edited = tmp_path / "edited.parquet"
    pq.write_table(table.replace_schema_metadata(md), edited)
    with pytest.raises(InputError, match="its simcoinche metadata do not match their "
                                         "checksum: the file was changed since"):
        read_results(edited)
    del md[b"simcoinche.sha256"]        # a run written before the digest: read as before
    pq.write_table(table.replace_schema_metadata(md), edited)
    assert read_metadata(edited)["deeler"] is not None
