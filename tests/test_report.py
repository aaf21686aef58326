"""``simcoinche report``: files, valid PNGs, documented columns, numbers that add up, errors."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matplotlib.image import imread

import simcoinche
import simcoinche.analysis.report as report_module
from simcoinche.analysis.report import DD_TABLES, PLOT_CAPTIONS, TABLES, write_report
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("run") / "small.parquet"
    simcoinche.simulate(4000, seed=3, out=path)
    return path


@pytest.fixture(scope="module")
def report(run, tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "report"
    return write_report(run, out, min_count=30)


def test_report_writes_markdown_csv_and_valid_pngs(report):
    assert report.markdown.name == "report.md" and report.markdown.exists()
    # A run without --dd has no double-dummy tables (tests/test_dd_simulation.py has them).
    assert set(report.tables) == set(TABLES) - set(DD_TABLES)
    assert sorted(p.name for p in report.plots) == sorted(PLOT_CAPTIONS)
    for p in report.plots:
        data = p.read_bytes()
        assert data[:8] == PNG_SIGNATURE
        img = imread(p)
        assert img.ndim == 3 and img.shape[0] > 200 and img.shape[1] > 200
        # Not a blank canvas.
        assert img[..., :3].std() > 0.05
    assert report.notes == []


def test_tables_carry_the_documented_columns(report):
    for name, path in report.tables.items():
        t = pd.read_csv(path)
        assert list(t.columns) == list(TABLES[name][1]), name
        assert len(t) > 0, name


def test_markdown_has_metadata_every_table_and_links_to_existing_plots(report, run):
    text = report.markdown.read_text()
    assert "| seed | 3 |" in text and "| donnes | 4,000 |" in text
    assert "| profile | federal |" in text
    for name, (title, _cols) in TABLES.items():
        assert (f"## {title}" in text) == (name not in DD_TABLES)
    for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        assert (report.out_dir / link).exists()
    assert len(re.findall(r"!\[", text)) == 4
    # The success-by-level table in Markdown has the documented header.
    header = "| " + " | ".join(TABLES["success_by_level"][1]) + " |"
    assert header in text


def test_numbers_add_up_to_the_results(report, run):
    df = simcoinche.read_results(run)
    played = df[~df["passed_out"]]
    by_level = pd.read_csv(report.tables["success_by_level"])
    counts = played["bid_value"].value_counts()
    kept = counts[counts >= 30]
    assert by_level["n"].sum() == kept.sum()
    for row in by_level.itertuples(index=False):
        rows = played[played["bid_value"] == row.bid_value]
        assert row.n == len(rows) and row.made == int(rows["made"].sum())
        assert row.low <= row.rate <= row.high
        team = rows["taker"].to_numpy() & 1
        takers = np.where(team == 0, rows["marks_t0"], rows["marks_t1"])
        assert row.mean_marks_takers == pytest.approx(takers.mean())
    coinche = pd.read_csv(report.tables["coinche_outcomes"])
    assert coinche["share"].sum() <= 1.0 + 1e-12
    assert coinche.loc[coinche["coinche"] == 1, "n"].item() == int(
        (played["coinche"] == 1).sum())
    kinds = pd.read_csv(report.tables["success_by_kind"])
    assert list(kinds["trump"]) == ["S", "H", "D", "C"]  # the heuristic bids suits only
    assert kinds["n"].sum() == len(played)
    curve = pd.read_csv(report.tables["bid_curve_by_trump_len"])
    assert set(curve["level"]) == {80, 90, 100, 110, 120, 130, 140, 150, 160, 250}
    # A bid curve never rises with the numeric level.
    for _, g in curve[curve["level"] < 250].groupby("trump_len"):
        assert (np.diff(g.sort_values("level")["p"].to_numpy()) <= 1e-12).all()


def test_refuses_a_non_empty_directory_without_overwrite(run, tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(InputError, match="is not empty; use --overwrite"):
        write_report(run, out)
    rep = write_report(run, out, overwrite=True, min_count=30)
    assert rep.markdown.exists() and (out / "keep.txt").read_text() == "mine"


def test_overwrite_removes_the_files_an_earlier_report_wrote_and_this_one_does_not(
        run, tmp_path, monkeypatch):
    # A report written over another left the other's plots (and, over a parties report,
    # its tables) beside a report.md that said "not drawn": files of another run.
    out = tmp_path / "r"
    first = write_report(run, out, min_count=30)
    drawn = {p.name for p in first.plots}
    (out / "keep.txt").write_text("mine")
    second = write_report(run, out, overwrite=True, min_count=10**9)
    assert {p.name for p in second.plots} < drawn
    on_disk = {p.name for p in out.iterdir()}
    assert on_disk == {"keep.txt", second.markdown.name,
                       *(p.name for p in second.tables.values()),
                       *(p.name for p in second.plots)}
    parties = tmp_path / "p.parquet"
    simcoinche.parties(40, seed=2, out=parties, progress=False)
    third = write_report(parties, out, overwrite=True)
    assert {p.name for p in out.iterdir()} == {"keep.txt", third.markdown.name,
                                               *(p.name for p in third.tables.values()),
                                               *(p.name for p in third.plots)}
    # A folder without an earlier report keeps a file that bears a report's name, and a
    # read-only file of an earlier report is refused, not removed.
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "success_heatmap.png").write_bytes(b"my own plot")
    write_report(parties, mine, overwrite=True)
    assert (mine / "success_heatmap.png").read_bytes() == b"my own plot"
    write_report(run, out, overwrite=True, min_count=30)
    import os

    from simcoinche.analysis import report as report_module

    # (A read-only file, as a user who is not root sees it: root may write any file.)
    real_access = os.access
    monkeypatch.setattr(report_module.os, "access", lambda p, mode: real_access(p, mode)
                        and os.path.basename(p) != "success_heatmap.png")
    with pytest.raises(InputError, match=r"cannot remove .*success_heatmap.png.*permission "
                                         r"denied"):
        write_report(run, out, overwrite=True, min_count=10**9)
    assert (out / "success_heatmap.png").exists() and (out / "report.md").exists()


def test_small_groups_are_left_out_with_notes_not_errors(run, tmp_path):
    rep = write_report(run, tmp_path / "r", min_count=10**9)
    # Nothing reaches the threshold: tables keep their columns but no plot can be drawn.
    assert rep.plots == [p for p in rep.plots if p.name == "marks_distribution.png"]
    assert any("not drawn" in n for n in rep.notes)
    t = pd.read_csv(rep.tables["success_by_level"])
    assert list(t.columns) == list(TABLES["success_by_level"][1]) and len(t) == 0
    text = rep.markdown.read_text()
    assert "## Notes" in text and "No group has 1,000,000,000 played donnes or more." in text


def test_non_federal_run_reports_without_bid_curves(tmp_path):
    path = tmp_path / "classic.parquet"
    simcoinche.simulate(1500, seed=2, profile="classic", out=path)
    rep = write_report(path, tmp_path / "r", min_count=20)
    assert "bid_curve_by_trump_len" not in rep.tables
    assert any("federal success rule only" in n for n in rep.notes)
    assert "success_by_level" in rep.tables
    kinds = pd.read_csv(rep.tables["success_by_kind"])
    assert set(kinds["trump"]) <= {"S", "H", "D", "C", "SA", "TA"}


def test_cli_writes_the_report(run, tmp_path, capsys):
    assert main(["report", str(run), "--out", str(tmp_path / "r"), "--min-count", "30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wrote ") and "report.md" in out
    assert (tmp_path / "r" / "report.md").exists()


def _status(argv):
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize("case", ["missing", "junk", "plain_parquet", "not_empty", "file_out"])
def test_cli_bad_input_is_one_line_and_exit_2(case, run, tmp_path, capsys):
    src = str(run)
    out = tmp_path / "out"
    fragment = {
        "missing": "not found",
        "junk": "cannot read results",
        "plain_parquet": "has no simcoinche metadata",
        "not_empty": "is not empty",
        "file_out": "is a file",
    }[case]
    if case == "missing":
        src = str(tmp_path / "nope.parquet")
    elif case == "junk":
        src = str(tmp_path / "junk.parquet")
        (tmp_path / "junk.parquet").write_bytes(b"not parquet at all")
    elif case == "plain_parquet":
        src = str(tmp_path / "plain.parquet")
        pq.write_table(pa.table({"x": [1, 2, 3]}), src)
    elif case == "not_empty":
        out.mkdir()
        (out / "f").write_text("x")
    elif case == "file_out":
        out.write_text("x")
    assert _status(["report", src, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simcoinche: error: ") and fragment in err
    assert err.count("\n") == 1


def test_report_never_loads_the_record_play_columns(tmp_path, monkeypatch):
    path = tmp_path / "rec.parquet"
    simcoinche.simulate(2000, seed=4, out=path, record_play=True, progress=False)
    asked = []
    real = simcoinche.read_results

    def spy(results, columns=None):
        asked.append(columns)
        return real(results, columns=columns)

    # the report reads through the runs layer's read_results (the name report.py holds)
    monkeypatch.setattr(report_module, "read_results", spy)
    write_report(path, tmp_path / "rep")
    assert asked and asked[0] is not None
    assert "play" not in asked[0] and "auction" not in asked[0]
    assert {"hand_0", "taker", "trump", "made", "marks_t0"} <= set(asked[0])


def _with_metadata(run, path, text: bytes):
    """A copy of ``run`` whose simcoinche metadata is ``text``."""
    t = pq.read_table(run)
    md = dict(t.schema.metadata)
    md[b"simcoinche"] = text
    pq.write_table(t.replace_schema_metadata(md), path)
    return path


@pytest.mark.parametrize("case", ["bad_json", "list", "all_passed_out", "report_md_is_a_dir"])
def test_a_report_that_fails_writes_nothing_and_says_why_in_one_line(case, run, tmp_path,
                                                                       capsys):
    """Malformed metadata, a run with nothing to report, or a file of the report that
    cannot be replaced: one line, exit 2, and the output directory as it was (not
    created, not half-filled)."""
    src = run
    out = tmp_path / "out"
    argv_extra = []
    if case == "bad_json":
        src = _with_metadata(run, tmp_path / "bad.parquet", b"{not json")
        fragment = "has malformed simcoinche metadata"
    elif case == "list":
        src = _with_metadata(run, tmp_path / "list.parquet", b"[1, 2]")
        fragment = "has malformed simcoinche metadata"
    elif case == "all_passed_out":
        src = tmp_path / "passed.parquet"
        simcoinche.simulate(50, seed=1, players="random:p_open=0", out=src)
        fragment = "no played donne (all passed out)"
    else:
        (out / "report.md").mkdir(parents=True)
        argv_extra = ["--overwrite"]
        fragment = "report.md': not a regular file"
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    capsys.readouterr()  # what making the run printed (its compile notice, on a cold cache)
    assert _status(["report", str(src), "--out", str(out), "--min-count", "30",
                    *argv_extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simcoinche: error: ") and fragment in err, err
    assert err.count("\n") == 1
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before



def test_a_write_that_fails_midway_leaves_no_report_and_no_staging_files(run, tmp_path,
                                                                         monkeypatch,
                                                                         capsys):
    """A full disk while the report is written: one line, exit 1, and neither the
    output directory nor the staging directory beside it is left behind."""
    real = report_module._write_run_report

    def full_disk(results, out, meta, min_count):
        real(results, out, meta, min_count)  # every file written, then the disk fills
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report_module, "_write_run_report", full_disk)
    assert _status(["report", str(run), "--out", str(tmp_path / "r"), "--min-count",
                    "30"]) == 1
    assert capsys.readouterr().err == ("simcoinche: error: cannot write the report: No "
                                       "space left on device\n")
    assert list(tmp_path.iterdir()) == []


def test_a_new_report_directory_is_renamed_into_place_with_the_usual_mode(run, tmp_path):
    import os
    import stat

    rep = write_report(run, tmp_path / "a" / "b" / "r", min_count=30)
    mode = stat.S_IMODE((tmp_path / "a" / "b" / "r").stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o777 & ~umask
    assert rep.markdown == tmp_path / "a" / "b" / "r" / "report.md" and rep.markdown.exists()
    assert sorted(p.name for p in (tmp_path / "a" / "b").iterdir()) == ["r"]


def test_read_results_dd_is_true_or_false(run):
    with pytest.raises(InputError, match="dd must be True or False, got 'no'"):
        simcoinche.read_results(run, dd="no")


def test_report_takes_the_min_count_the_tables_take(run, tmp_path):
    # stats.success_rates(min_count=0) was accepted, report --min-count 0 refused: one
    # check now, 0 keeping every group as 1 does.
    zero = write_report(run, tmp_path / "zero", min_count=0)
    one = write_report(run, tmp_path / "one", min_count=1)
    assert zero.tables["success_by_level"].read_text() == \
        one.tables["success_by_level"].read_text()
    with pytest.raises(InputError, match="min_count must be a non-negative integer, got -1"):
        write_report(run, tmp_path / "neg", min_count=-1)


def test_report_overwrite_is_true_or_false(run, tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(InputError, match="overwrite must be True or False, got 'no'"):
        write_report(run, out, overwrite="no")
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_a_match_run_is_refused_not_reported_as_donnes_of_one_run(tmp_path, capsys):
    """A match's file (deals at two tables) was reported as donnes of one run: both
    players pooled into "team 0" and "team 1", exit 0."""
    path = tmp_path / "match.parquet"
    simcoinche.match("heuristic", "random", 20, out=path, threads=1, progress=False)
    assert main(["report", str(path), "--out", str(tmp_path / "rep")]) == 2
    err = capsys.readouterr().err
    assert err == (f"simcoinche: error: {str(path)!r} is a match run; the report reads the "
                   "runs of simulate and parties (a match prints its own result)\n")
    assert not (tmp_path / "rep").exists()


def test_a_run_under_a_profile_built_by_hand_is_read_and_reported_under_its_own_rules(
        tmp_path, run):
    """A profile made with dataclasses.replace keeps its shipped name (here ``federal``
    with sans-atout and tout-atout): the run records every field, reads back under those
    rules, and the report says how they differ. Before, the run recorded ``federal`` only,
    so its --dd report looked for federal's double-dummy columns and failed naming a
    column the run had written."""
    from simcoinche.rules.profiles import FEDERAL, profile_of_run
    from simcoinche.runs.results import read_metadata, read_results

    custom = dataclasses.replace(FEDERAL, allow_sa=True, allow_ta=True)
    path = tmp_path / "custom.parquet"
    simcoinche.simulate(80, seed=2, profile=custom, players="random", dd=True, out=path,
                        progress=False)
    meta = read_metadata(path)
    assert meta["profile"] == "federal" and profile_of_run(meta) == custom
    assert {"dd_SA", "dd_TA"} <= set(read_results(path).columns)
    write_report(path, tmp_path / "rep", min_count=1)
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "| profile | federal, built by hand: allow_sa=True, allow_ta=True |" in text
    by_kind = pd.read_csv(tmp_path / "rep" / "dd_by_kind.csv")
    assert {"SA", "TA"} <= set(by_kind["trump"])
    # A shipped profile's run records its name only, as before.
    assert "profile_fields" not in read_metadata(run)
    assert profile_of_run(read_metadata(run)) == FEDERAL


@pytest.mark.parametrize("recorded, culprit", [
    ([1, 2], "not a JSON object"),
    ({"name": "x"}, r"missing description, source\)"),
    ("everything", "not a JSON object"),
])
def test_profile_fields_that_do_not_make_a_profile_are_one_line(recorded, culprit):
    from simcoinche.rules.profiles import FEDERAL, profile_metadata, profile_of_run

    with pytest.raises(InputError, match=culprit):
        profile_of_run({"profile": "federal", "profile_fields": recorded})
    fields = profile_metadata(dataclasses.replace(FEDERAL, target=1000))["profile_fields"]
    with pytest.raises(InputError, match="unknown bogus"):
        profile_of_run({"profile_fields": {**fields, "bogus": 1}})
    with pytest.raises(InputError, match=re.escape("target must be a whole number in 1..10000")):
        profile_of_run({"profile_fields": {**fields, "target": -5}})


def test_a_run_is_read_and_reported_where_the_kernel_cache_cannot_be_written(run, tmp_path):
    """Reading a run compiles nothing, so a machine whose kernel cache cannot be written (a
    read-only home, a cluster's login node) still reads and reports it. Before, the
    results layer imported the donne kernel (its explicit signatures load at import) and
    refused to read."""
    from kernel_module import read_and_report_with_an_unwritable_cache

    rows, loaded = read_and_report_with_an_unwritable_cache(run, tmp_path)
    assert rows == 4000
    # Layouts and the cache's own plumbing only: no compiled kernel module.
    assert "simcoinche._kernels.donne_layout" in loaded
    assert "simcoinche._kernels.donne" not in loaded
