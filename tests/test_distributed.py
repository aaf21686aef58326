"""simcoinche simulate --engine dask: the dataset equals the single-process run row for row,
resumes after an interrupted client or a killed worker without a lost or duplicated donne,
refuses to mix two runs in one directory, and reports bad input in one line (exit 2)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster
from interrupt import stop_when

import simcoinche.runs.distributed as dist
from simcoinche._kernels.rng import seed_key
from simcoinche.commands.cli import main
from simcoinche.rules.errors import InputError
from simcoinche.runs.results import MANIFEST_NAME, read_metadata, read_results
from simcoinche.runs.simulation import _plan, simulate


def _frame(df: pd.DataFrame) -> pd.DataFrame:
    return df.reset_index(drop=True)


def _manifest(path: Path) -> dict:
    return json.loads((path / MANIFEST_NAME).read_text())


def _parts(path: Path) -> list[str]:
    return sorted(p.name for p in path.glob("part-*"))


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    """Single-process rows of the run used below (also compiles or loads the kernels
    before any worker starts, so the workers load them from the cache)."""
    return simulate(12000, seed=21, players="heuristic,random", record_play=True,
                    progress=False)


@pytest.fixture(scope="module")
def cluster(reference):
    """A local cluster of 2 single-threaded worker processes (as in CI)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR,
                      env={"NUMBA_NUM_THREADS": "1"}) as lc, Client(lc) as client:
        yield client


def _run(client, out, n=12000, task_size=1500, **kw):
    args = dict(seed=21, players="heuristic,random", record_play=True, progress=False)
    args.update(kw)
    return dist.simulate_dask(n, out=out, client=client, task_size=task_size, **args)


@pytest.mark.parametrize("task_size", [1500, 5000])
def test_dataset_equals_the_single_process_run_row_for_row(cluster, reference, tmp_path,
                                                           task_size):
    out = tmp_path / "ds"
    summary = _run(cluster, out, task_size=task_size)
    n_parts = -(-12000 // task_size)
    assert _parts(out) == [f"part-{i:06d}.parquet" for i in range(n_parts)]
    pd.testing.assert_frame_equal(read_results(out), _frame(reference))
    manifest = _manifest(out)
    assert manifest["complete"] and len(manifest["parts"]) == n_parts
    assert manifest["tasks"][1] == [task_size, task_size]
    for t, part in manifest["parts"].items():
        data = (out / part["file"]).read_bytes()
        assert part["file"] == f"part-{int(t):06d}.parquet"
        assert part["sha256"] == hashlib.sha256(data).hexdigest()
        assert part["bytes"] == len(data)
    assert sum(p["rows"] for p in manifest["parts"].values()) == 12000
    # The summary adds up the parts' statistics: the same as the single-process run.
    single = reference.attrs["summary"]
    assert summary.passed_out == single.passed_out
    assert summary.by_value == single.by_value
    assert summary.marks_team == single.marks_team
    assert (summary.workers, summary.parts, summary.parts_reused) == (2, n_parts, 0)
    md = read_metadata(out)
    assert md["seed"] == 21 and md["n"] == 12000 and md["engine"] == "dask"
    assert md["task_size"] == task_size and md["players"] == ["heuristic", "random"]


def test_dd_dataset_equals_the_single_process_dd_run_and_dd_is_in_the_fingerprint(
        cluster, tmp_path):
    """simulate --dd on Dask: the double-dummy columns (a few deals: DD solves are slow)
    equal the single-process run row for row; a rerun without --dd is another run."""
    local = simulate(6, seed=21, dd=True, progress=False)
    out = tmp_path / "ds"
    _run(cluster, out, n=6, task_size=2, record_play=False, players="heuristic", dd=True)
    got = read_results(out)
    assert [c for c in got.columns if c.startswith("dd_")] == ["dd_S", "dd_H", "dd_D",
                                                                "dd_C"]
    pd.testing.assert_frame_equal(got, _frame(local))
    assert _manifest(out)["fingerprint"]["dd"] is True and read_metadata(out)["dd"] is True
    with pytest.raises(InputError, match=r"holds another run .*dd True there, False asked"):
        _run(cluster, out, n=6, task_size=2, record_play=False, players="heuristic")


def test_rerun_keeps_verified_parts_and_redoes_missing_or_corrupt_ones(cluster, reference,
                                                                       tmp_path):
    out = tmp_path / "ds"
    _run(cluster, out, n=6000, task_size=1000)
    again = _run(cluster, out, n=6000, task_size=1000)
    assert (again.parts_reused, again.computed) == (6, 0)
    assert "nothing to compute" in again.text()
    # One part removed, one corrupted (same size), one truncated: exactly those rerun.
    (out / "part-000001.parquet").unlink()
    p3 = out / "part-000003.parquet"
    data = bytearray(p3.read_bytes())
    data[len(data) // 2] ^= 0xFF
    p3.write_bytes(bytes(data))
    p5 = out / "part-000005.parquet"
    p5.write_bytes(p5.read_bytes()[:100])
    kept = {name: (out / name).stat().st_mtime_ns for name in
            ("part-000000.parquet", "part-000002.parquet", "part-000004.parquet")}
    fixed = _run(cluster, out, n=6000, task_size=1000, chunk_size=400)  # row groups only
    assert (fixed.parts_reused, fixed.computed) == (3, 3000)
    md = read_metadata(out)
    assert all(read_metadata(out / f"part-{t:06d}.parquet") == md for t in range(6))
    # Statistics of the kept parts come from the manifest: the summary is still whole.
    single = reference.iloc[:6000]
    assert fixed.passed_out == again.passed_out == int(single["passed_out"].sum())
    assert fixed.by_value == again.by_value
    assert fixed.marks_team == [int(single["marks_t0"].sum()), int(single["marks_t1"].sum())]
    assert {name: (out / name).stat().st_mtime_ns for name in kept} == kept
    pd.testing.assert_frame_equal(read_results(out), _frame(reference.iloc[:6000]))


def test_a_worker_killed_mid_run_is_retried_without_lost_or_duplicated_donnes(
        cluster, tmp_path):
    n, size = 300_000, 5000
    out = tmp_path / "ds"
    result: dict = {}

    def run() -> None:
        try:
            result["summary"] = dist.simulate_dask(n, seed=5, out=out, client=cluster,
                                                   task_size=size, progress=False)
        except BaseException as exc:  # reported by the assertion below
            result["error"] = exc

    pids = cluster.run(os.getpid)
    runner = threading.Thread(target=run)
    runner.start()
    deadline = time.monotonic() + 60
    while not list(out.glob("part-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.005)
    busy = [addr for addr, keys in cluster.processing().items() if keys]
    victim = busy[0] if busy else next(iter(pids))
    os.kill(pids[victim], signal.SIGKILL)
    killed_mid_run = runner.is_alive()
    runner.join(timeout=120)
    assert not runner.is_alive()
    assert "error" not in result, result.get("error")
    assert killed_mid_run and busy  # the worker died holding tasks, while tasks remained
    manifest = _manifest(out)
    assert manifest["complete"] and len(manifest["parts"]) == n // size
    assert not list(out.glob("*.partial"))
    df = read_results(out)
    assert (df["donne"].to_numpy() == np.arange(n)).all()
    pd.testing.assert_frame_equal(df, _frame(simulate(n, seed=5, progress=False)))
    cluster.wait_for_workers(2, timeout=60)  # the nanny restarted the worker


def test_cli_terminated_mid_run_then_rerun_completes_without_duplicates(cluster, tmp_path):
    n, size = 300_000, 5000
    out = tmp_path / "ds"
    address = cluster.scheduler.address
    cmd = [sys.executable, "-m", "simcoinche", "simulate", "-n", str(n), "--seed", "8",
           "--engine", "dask", "--scheduler", address,
           "--task-size", str(size), "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def first_part_recorded() -> bool:
        try:
            return bool(_manifest(out)["parts"])
        except (OSError, ValueError):
            return False

    err = stop_when(proc, first_part_recorded, signal.SIGTERM, wait_s=120)
    assert proc.returncode == 130, err
    assert err.strip().endswith("simcoinche: interrupted")
    first = _manifest(out)
    assert 1 <= len(first["parts"]) < n // size and not first["complete"]
    recorded = {first["parts"][t]["file"]: (out / first["parts"][t]["file"]).stat()
                .st_mtime_ns for t in first["parts"]}
    with pytest.raises(InputError, match="incomplete"):
        read_results(out)
    assert main(["simulate", "-n", str(n), "--seed", "8",
                 "--engine", "dask", "--scheduler", address, "--task-size", str(size),
                 "--out", str(out), "--no-progress"]) == 0
    manifest = _manifest(out)
    assert manifest["complete"] and manifest["run_id"] == first["run_id"]
    # Parts recorded by the interrupted run were verified and kept, not recomputed.
    assert {f: (out / f).stat().st_mtime_ns for f in recorded} == recorded
    df = read_results(out)
    assert len(df) == n and (df["donne"].to_numpy() == np.arange(n)).all()
    pd.testing.assert_frame_equal(df, _frame(simulate(n, seed=8, progress=False)))


def test_cli_without_scheduler_starts_a_local_cluster(tmp_path, monkeypatch, capsys,
                                                      reference):
    monkeypatch.setattr(dist, "local_cluster_shape", lambda cores=None: (1, 1))
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "-n", "3000", "--seed", "21", "--players", "heuristic,random",
                 "--record-play", "--engine", "dask", "--task-size", "1000"]) == 0
    out = capsys.readouterr().out
    path = Path("runs") / "simcoinche-federal-s21-n3000"
    assert f"wrote {path}" in out and "local cluster 1×1" in out and "3 parts" in out
    pd.testing.assert_frame_equal(read_results(path), _frame(reference.iloc[:3000]))


def test_directory_holding_another_run_is_refused_and_replaced_only_with_overwrite(
        cluster, tmp_path, capsys):
    out = tmp_path / "ds"
    address = cluster.scheduler.address
    base = ["simulate", "--engine", "dask", "--scheduler", address, "--out", str(out),
            "--task-size", "1000", "--no-progress", "--players", "random"]
    assert main([*base, "-n", "2000", "--seed", "1"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert main([*base, "-n", "3000", "--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("simcoinche: error:")
    assert f"{str(out)!r} holds another run" in err
    assert "seed 1 there, 2 asked" in err and "n 2000 there, 3000 asked" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert main([*base, "-n", "3000", "--seed", "2", "--overwrite"]) == 0
    assert read_metadata(out)["seed"] == 2 and _parts(out) == [
        "part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]
    pd.testing.assert_frame_equal(read_results(out),
                                  _frame(simulate(3000, seed=2, players="random",
                                                  progress=False)))
    # A different task size is another run too (other parts).
    assert main([*base[:-3], "-n", "3000", "--seed", "2", "--task-size", "1500"]) == 2
    assert "task_size 1000 there, 1500 asked" in capsys.readouterr().err


def test_unreachable_scheduler_is_one_line_exit_2_and_writes_nothing(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.setattr(dist, "CONNECT_TIMEOUT", 1.0)
    out = tmp_path / "ds"
    t0 = time.monotonic()
    assert main(["simulate", "-n", "100", "--engine", "dask", "--scheduler",
                 "tcp://127.0.0.1:9", "--out", str(out)]) == 2
    assert time.monotonic() - t0 < 15
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot reach the Dask scheduler 'tcp://127.0.0.1:9' within 1 s" in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--scheduler", "foo::bar"], "invalid Dask scheduler address 'foo::bar'"),
        (["--scheduler", "10.0.0.1"], "missing port number"),
        (["--scheduler", "xyz://h:1"], "unknown scheme 'xyz'"),
        (["--task-size", "0"], "task_size must be a positive integer"),
        (["--task-size", "1", "-n", "300000"], "use a larger --task-size"),
        (["--threads", "0"], "threads must be a positive integer"),
        (["--players", "genius"], "unknown player 'genius'"),
        (["--out", "{tmp}/no/such/ds"], "does not exist"),
        (["--out", "{tmp}/file"], "is a file; --engine dask writes a dataset directory"),
        (["--out", "{tmp}/foreign"], "is not empty and holds no simcoinche manifest"),
    ],
)
def test_cli_dask_bad_input_is_one_line_exit_2(tmp_path, capsys, args, culprit):
    (tmp_path / "file").write_text("x")
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "ds")]
    if "-n" not in args:
        args += ["-n", "100"]
    status = main(["simulate", "--engine", "dask", *args])
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("simcoinche: error:")
    assert culprit in err
    assert not (tmp_path / "ds").exists()
    assert (tmp_path / "foreign" / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "foreign").iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("flag", [["--scheduler", "tcp://h:1"], ["--task-size", "10"]])
def test_dask_options_need_the_dask_engine(tmp_path, capsys, flag):
    assert main(["simulate", "-n", "10", "--out", str(tmp_path / "x.parquet"), *flag]) == 2
    err = capsys.readouterr().err
    assert f"{flag[0]} needs --engine dask" in err and err.count("\n") == 1


def test_a_failing_task_is_one_line_and_the_run_resumes(tmp_path, monkeypatch, capsys,
                                                        reference):
    """In-process workers (threads) so that the failure can be injected."""
    real = dist.writer_options
    calls = {"n": 0}

    def flaky(sch):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full")
        return real(sch)

    monkeypatch.setattr(dist, "writer_options", flaky)
    out = tmp_path / "ds"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=":0", silence_logs=logging.ERROR) as lc, \
            Client(lc) as client:
        with pytest.raises(dist.DistributedRunError, match=r"task \d \(donnes \d+\.\.\d+\) "
                           r"failed on the cluster: OSError: cannot write .*disk full"):
            _run(client, out, n=6000, task_size=1000)
        first = _manifest(out)
        assert not first["complete"] and 1 <= len(first["parts"]) < 6
        assert "2" not in first["parts"]
        again = _run(client, out, n=6000, task_size=1000)
    assert again.parts_reused == len(first["parts"])
    assert not list(out.glob("*.partial"))
    pd.testing.assert_frame_equal(read_results(out), _frame(reference.iloc[:6000]))


def test_task_refuses_other_kernels_and_a_replaced_run(tmp_path):
    plan = _plan(100, 3, "federal", "random", None, None, None, False, None)
    key = int(seed_key(np.uint64(3)))
    (tmp_path / dist.RUN_FILE).write_text("run-a")
    with pytest.raises(RuntimeError, match=r"kernels .* differ from the client's"):
        dist.run_task(plan, key, 0, 0, 100, str(tmp_path), plan.metadata(), "run-a",
                      "0" * 16, threads=1)
    with pytest.raises(RuntimeError, match="changed; part 0 discarded"):
        dist.run_task(plan, key, 0, 0, 100, str(tmp_path), plan.metadata(), "run-b",
                      dist._KERNELS, threads=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == [dist.RUN_FILE]
    res = dist.run_task(plan, key, 0, 0, 100, str(tmp_path), plan.metadata(), "run-a",
                        dist._KERNELS, threads=1)
    assert res["rows"] == 100 and (tmp_path / "part-000000.parquet").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [dist.RUN_FILE,
                                                         "part-000000.parquet"]


def test_a_second_client_on_the_same_directory_is_refused(tmp_path):
    folder = dist._Directory(tmp_path)
    folder.lock()
    try:
        with pytest.raises(InputError, match="is in use by another simcoinche run"):
            dist._Directory(tmp_path).lock()
    finally:
        folder.unlock()
    other = dist._Directory(tmp_path)
    other.lock()  # released: free again
    other.unlock()


def test_default_task_size_depends_on_n_only():
    assert dist.default_task_size(10) == 32768
    assert dist.default_task_size(10_000_000) == 159744
    assert dist.default_task_size(10**9) == 1 << 20
    assert dist.default_task_size(10_000_000) % 4096 == 0


def test_a_scheduler_without_workers_is_one_line_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(dist, "CONNECT_TIMEOUT", 1.0)
    out = tmp_path / "ds"
    with LocalCluster(n_workers=0, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR) as lc:
        assert main(["simulate", "-n", "100", "--engine", "dask", "--scheduler",
                     lc.scheduler_address, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no workers (waited 1 s)" in err
    assert not out.exists()


def test_a_manifest_whose_task_list_contradicts_its_fingerprint_is_refused(
        cluster, tmp_path):
    out = tmp_path / "ds"
    _run(cluster, out, n=3000, task_size=1000)
    manifest = _manifest(out)
    manifest["tasks"] = [[0, 1500], [1500, 1500]]
    (out / MANIFEST_NAME).write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="inconsistent with its fingerprint"):
        _run(cluster, out, n=3000, task_size=1000)
    _run(cluster, out, n=3000, task_size=1000, overwrite=True)
    assert _manifest(out)["tasks"] == [[0, 1000], [1000, 1000], [2000, 1000]]


# --- a refused run's directory --------------------------------------------------------------


def test_a_refused_run_removes_its_directory_when_a_part_in_flight_wrote_after_the_wipe(
        tmp_path):
    # A cancelled task still running creates its partial after the wipe (the first rmdir
    # fails); the partial is the run's own, so it is wiped again and the directory goes.
    folder = dist._Directory(tmp_path / "ds")
    folder.path.mkdir()
    (folder.path / "part-000003.parquet.0123456789ab.partial").write_bytes(b"in flight")
    dist._remove_made_directory(folder, wait=5.0)
    assert not folder.path.exists()


@pytest.mark.parametrize("name", [dist.RUN_FILE, "notes.txt"])
def test_a_refused_run_leaves_a_directory_holding_what_is_not_its_own(tmp_path, name):
    # Another run's run file (it locked the directory meanwhile) or a user's file: the
    # directory stays with it at once, and the run's own files are not the loop's to keep
    # wiping.
    folder = dist._Directory(tmp_path / "ds")
    folder.path.mkdir()
    (folder.path / name).write_text("x")
    t0 = time.monotonic()
    dist._remove_made_directory(folder, wait=5.0)
    assert (folder.path / name).exists()
    assert time.monotonic() - t0 < 1.0


def test_a_part_whose_statistics_lack_a_field_is_refused_not_counted_as_zero():
    # A parties part written before 'donnes_finished' existed merged as 0 finished donnes:
    # the resumed run's "donnes per finished partie" came out too low, silently.
    from simcoinche.runs.distributed import (
        _check_stats,
        _merge_stats,
        _stats,
        dataset_summary_type,
    )
    from simcoinche.runs.partie import PartiesSummary

    part = PartiesSummary(10, 0.1, 1, ("heuristic", "heuristic"), "federal", 0,
                          donnes=107, wins=[6, 4], donnes_finished=107)
    stats = _stats(part)
    total = dataset_summary_type(PartiesSummary, "parties")(
        20, 0.0, 2, ("heuristic", "heuristic"), "federal", 0)
    _check_stats(stats, 0, PartiesSummary)
    _merge_stats(total, stats)
    assert (total.donnes_finished, total.wins) == (107, [6, 4])
    old = {k: v for k, v in stats.items() if k != "donnes_finished"}
    with pytest.raises(InputError, match="dataset part 3 records no 'donnes_finished' "
                                         "statistic: it was written by another version"):
        _check_stats(old, 3, PartiesSummary)
