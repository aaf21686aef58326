"""read_results / read_metadata on a dataset directory (simulate --engine dask): one table
in donne order from the parts the manifest lists, only the requested columns read, and
one-line errors for a missing, malformed or incomplete manifest."""

from __future__ import annotations

import json
import logging
import re
import shutil

import pandas as pd
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from distributed import Client, LocalCluster

import simcoinche
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError
from simcoinche.runs.distributed import simulate_dask
from simcoinche.runs.results import MANIFEST_NAME, read_metadata, read_results
from simcoinche.runs.simulation import simulate

N = 3000


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """A 12-part dataset (task size 250) and the single-file run with the same arguments;
    in-process workers keep this fast."""
    tmp = tmp_path_factory.mktemp("dataset")
    simulate(N, seed=13, players="heuristic", out=tmp / "run.parquet", progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=":0", silence_logs=logging.ERROR) as lc, \
            Client(lc) as client:
        simulate_dask(N, seed=13, players="heuristic", out=tmp / "ds", client=client,
                      task_size=250, progress=False)
    return tmp / "run.parquet", tmp / "ds"


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def test_a_dataset_directory_reads_as_the_single_file_of_the_same_run(dataset):
    file, ds = dataset
    assert len(list(ds.glob("part-*.parquet"))) == 12
    whole = read_results(ds)
    pd.testing.assert_frame_equal(whole, read_results(file))
    assert (whole["donne"].to_numpy() == range(N)).all()  # part-000010 after part-000009
    assert isinstance(whole["trump"].dtype, pd.CategoricalDtype)
    # Also through the public API.
    pd.testing.assert_frame_equal(simcoinche.read_results(ds, columns=["donne", "made"]),
                                  read_results(file, columns=["donne", "made"]))


def test_a_dataset_read_asks_pyarrow_only_for_the_requested_columns(dataset, monkeypatch):
    _, ds = dataset
    asked = []
    real = pads.dataset  # read_results imports pyarrow.dataset when it reads a directory

    class Proxy:
        def __init__(self, d):
            self.d = d

        def to_table(self, columns=None):
            asked.append(columns)
            return self.d.to_table(columns=columns)

    monkeypatch.setattr(pads, "dataset", lambda files, **kw: Proxy(real(files, **kw)))
    df = read_results(ds, columns=["marks_t0", "trump"])
    assert asked == [["marks_t0", "trump"]]
    assert list(df.columns) == ["marks_t0", "trump"]
    assert df["trump"].cat.categories.tolist() == ["S", "H", "D", "C", "SA", "TA"]


def test_read_metadata_of_a_dataset_directory(dataset):
    file, ds = dataset
    md, single = read_metadata(ds), read_metadata(file)
    assert md["engine"] == "dask" and md["task_size"] == 250
    for key in ("seed", "n", "profile", "players", "params", "version", "rules_version",
                "generator", "dealer", "record_play"):
        assert md[key] == single[key]
    # Every part carries the run metadata in its Parquet schema, like a single file.
    assert read_metadata(ds / "part-000007.parquet") == md


def test_part_files_the_manifest_does_not_list_are_not_read(dataset, tmp_path):
    ds = _copy(dataset[1], tmp_path / "ds")
    shutil.copy(ds / "part-000003.parquet", ds / "part-000012.parquet")
    assert len(read_results(ds, columns=["donne"])) == N


def test_an_incomplete_dataset_is_refused_with_its_progress(dataset, tmp_path):
    ds = _copy(dataset[1], tmp_path / "ds")
    manifest = json.loads((ds / MANIFEST_NAME).read_text())
    del manifest["parts"]["4"]
    manifest["complete"] = False
    (ds / MANIFEST_NAME).write_text(json.dumps(manifest))
    with pytest.raises(InputError, match=r"is incomplete \(11 of 12 parts\); rerun the same "
                       "simulate command"):
        read_results(ds)


def test_a_listed_part_that_is_missing_is_a_read_error(dataset, tmp_path):
    ds = _copy(dataset[1], tmp_path / "ds")
    (ds / "part-000005.parquet").unlink()
    with pytest.raises(InputError, match=re.escape(
            "part 5 (part-000005.parquet) cannot be read (No such file or directory); "
            "rerun the same simulate command to write it again")):
        read_results(ds)


def test_a_manifest_part_naming_a_path_is_refused(dataset, tmp_path):
    """A part's file is one of the dataset's own: "../x" read a file from outside it, and
    a null character was a ValueError traceback."""
    for name in ("../run.parquet", "a\0b"):
        ds = _copy(dataset[1], tmp_path / f"ds{len(name)}")
        manifest = json.loads((ds / MANIFEST_NAME).read_text())
        manifest["parts"]["3"]["file"] = name
        (ds / MANIFEST_NAME).write_text(json.dumps(manifest))
        with pytest.raises(InputError, match=re.escape(
                f"the manifest's part 3 names {name!r}, not a file of the dataset")):
            read_results(ds)


def _forge(ds, t, table, metadata):
    """Part ``t`` rewritten as ``table`` with ``metadata``, the manifest told its new
    size: what a copy from another run of the same size would look like."""
    name = f"part-{t:06d}.parquet"
    pq.write_table(table.replace_schema_metadata(metadata), ds / name)
    manifest = json.loads((ds / MANIFEST_NAME).read_text())
    manifest["parts"][str(t)]["bytes"] = (ds / name).stat().st_size
    (ds / MANIFEST_NAME).write_text(json.dumps(manifest))


def test_a_part_changed_since_the_run_is_refused_not_read(dataset, tmp_path):
    """A part of another run, or one rewritten, changed every table read from the dataset
    without a word (the report said seed 13 and counted other donnes). The recorded size,
    the rows and the run's metadata in each part's footer are checked."""
    ds = _copy(dataset[1], tmp_path / "ds")
    with open(ds / "part-000003.parquet", "ab") as f:
        f.write(b"junk")
    size = (ds / "part-000003.parquet").stat().st_size
    with pytest.raises(InputError, match=re.escape(
            f"part 3 (part-000003.parquet) is {size} bytes, the run wrote {size - 4}: it "
            "was changed since")):
        read_results(ds, columns=["donne"])
    assert main(["report", str(ds), "--out", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r").exists()

    ds = _copy(dataset[1], tmp_path / "ds2")
    part = pq.read_table(ds / "part-000002.parquet")
    meta = part.schema.metadata
    _forge(ds, 2, part.slice(0, 100), meta)
    with pytest.raises(InputError, match=re.escape(
            "part 2 (part-000002.parquet) holds 100 rows, the run wrote 250")):
        read_results(ds)
    other = json.loads(meta[b"simcoinche"])
    other["seed"] = 8
    _forge(ds, 2, part, {b"simcoinche": json.dumps(other).encode()})
    with pytest.raises(InputError, match=re.escape(
            "part 2 (part-000002.parquet) was not written by this run (its metadata differ "
            "from the manifest's)")):
        read_results(ds)


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (None, "is a directory without a simcoinche manifest.json"),
        ("{not json", "cannot read the manifest of"),
        ('{"format": "other/1"}', "is not a simcoinche dataset manifest"),
        ('{"format": "simcoinche-dataset/1", "fingerprint": [], "metadata": {}, '
         '"tasks": [], "parts": {}, "complete": true}', "is not a simcoinche dataset manifest"),
        ("[1, 2]", "is not a simcoinche dataset manifest"),
    ],
)
def test_bad_or_missing_manifest_is_one_line_input_error(dataset, tmp_path, manifest,
                                                         message):
    ds = _copy(dataset[1], tmp_path / "ds")
    if manifest is None:
        (ds / MANIFEST_NAME).unlink()
    else:
        (ds / MANIFEST_NAME).write_text(manifest)
    for reader in (read_results, read_metadata):
        with pytest.raises(InputError, match=message) as exc:
            reader(ds)
        assert "\n" not in str(exc.value)


def test_a_manifest_part_without_a_file_name_is_one_line_input_error(dataset, tmp_path):
    ds = _copy(dataset[1], tmp_path / "ds")
    m = json.loads((ds / MANIFEST_NAME).read_text())
    m["parts"]["0"] = None
    (ds / MANIFEST_NAME).write_text(json.dumps(m))
    with pytest.raises(InputError, match="the manifest's part 0 has no file name") as exc:
        read_results(ds)
    assert "\n" not in str(exc.value)


def test_columns_unknown_or_absent_from_the_dataset(dataset):
    _, ds = dataset
    with pytest.raises(InputError, match="unknown column 'nope'"):
        read_results(ds, columns=["nope"])
    with pytest.raises(InputError, match=r"column 'play' is not in .* without --record-play"):
        read_results(ds, columns=["donne", "play"])


def test_simcoinche_report_reads_a_dataset_directory(dataset, tmp_path, capsys):
    _, ds = dataset
    assert main(["report", str(ds), "--out", str(tmp_path / "rep")]) == 0
    text = (tmp_path / "rep" / "report.md").read_text()
    assert f"| donnes | {N:,} |" in text
    assert "wrote" in capsys.readouterr().out


@pytest.mark.parametrize("path, message", [
    (None, "results must be a path (str or os.PathLike), got None"),
    (123, "results must be a path"),
    (b"x.parquet", "results must be a path"),
    ("a" * 300, "cannot read results"),
    ("no-such-run.parquet", "results 'no-such-run.parquet' not found"),
])
def test_a_results_path_that_is_not_one_is_named(path, message):
    for reader in (read_results, read_metadata):
        with pytest.raises(InputError, match=re.escape(message)) as exc:
            reader(path)
        assert "\n" not in str(exc.value)


@pytest.mark.parametrize("columns", ["made", 5, ["made", 5]])
def test_columns_must_be_a_list_of_names(dataset, columns):
    with pytest.raises(InputError, match="columns must be a list of column names"):
        read_results(dataset[1], columns=columns)


def test_a_dataset_recording_a_profile_that_is_no_profile_is_refused_naming_it(dataset,
                                                                               tmp_path):
    """The manifest's metadata are checked as a file's: profile_fields that make no
    profile are refused by read_metadata, naming the dataset."""
    ds = _copy(dataset[1], tmp_path / "ds")
    manifest = json.loads((ds / MANIFEST_NAME).read_text())
    manifest["metadata"]["profile_fields"] = {"name": "federal"}
    (ds / MANIFEST_NAME).write_text(json.dumps(manifest))
    with pytest.raises(InputError, match=re.escape(
            f"dataset {str(ds)!r}: the profile its metadata record: the run's "
            "profile_fields do not describe a profile (missing description, source)")):
        read_metadata(ds)
