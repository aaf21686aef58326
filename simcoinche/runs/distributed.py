"""Distributed simulation on Dask: one Parquet part per task, a manifest, resumable runs.

``simulate_dask(n, seed, …, out=DIR)`` splits the donnes ``0 .. n-1`` into tasks of
``task_size`` contiguous indexes. The counter-based generator makes each task independent:
donne ``i`` is the same whatever the task, worker, thread count or chunk size, so the
dataset equals a single-process run (:func:`simcoinche.runs.simulation.simulate`) row for row.

Dataset directory ``DIR``:

- ``part-000000.parquet``, ``part-000001.parquet``, … — task ``t`` holds the donnes
  ``t * task_size ..`` in order (row groups of ``chunk_size`` donnes), with the run's
  metadata in the Parquet schema like a single-file run;
- ``manifest.json`` — format, the run **fingerprint** (everything that determines the rows:
  seed, n, profile and its packed rules, players and their parameters, record_play, dd,
  dealer, simcoinche, rules and kernel versions, generator, task size), the run metadata,
  the task list ``[start, rows]`` and, per completed task, its part's file name, row count,
  size, sha256 and summary statistics;
- ``.simcoinche-run`` — the run id; the client holds an exclusive lock on it while running.

Protocol. Workers write ``part-XXXXXX.parquet.<random>.partial``, fsync it, hash it, and
rename it to ``part-XXXXXX.parquet`` (atomic; two attempts of one task write identical
bytes). The client is the only writer of the manifest (atomically: temporary file, fsync,
rename) and records a part only after its task returned and the file is visible from the
client with the returned size. A rerun of the same command verifies every recorded part
(present, same size and sha256) and submits only the missing tasks; a directory holding a
manifest with another fingerprint is refused (or wiped of its simcoinche files with
``overwrite``), so two runs never mix. A worker killed mid-task is retried by Dask; its
partial file is never renamed, so no donne is lost or duplicated.

Workers need simcoinche (same version and kernels: checked per task) and the output
directory on storage shared with the client. A task holds one chunk of kernel output and
its Arrow table at a time, so worker memory does not grow with the task size.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import math
import os
import re
import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simcoinche._kernels import kernel_source_digest
from simcoinche._kernels.rng import seed_key
from simcoinche.rules.errors import IllegalDecisionError, InputError, RunError
from simcoinche.rules.profiles import Profile
from simcoinche.runs.arguments import check_flag, check_optional_flag, counted, output_path
from simcoinche.runs.blocks import usable_cores
from simcoinche.runs.progress import progress_bar
from simcoinche.runs.results import DATASET_FORMAT, MANIFEST_NAME, load_manifest
from simcoinche.runs.simulation import (
    RunSummary,
    _plan,
    new_summary,
    positive_int,
    writer_options,
)

try:  # POSIX advisory lock on the run file; without fcntl the lock is skipped
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# Default task size: about 64 tasks (load balance on a few dozen cores), at least 32,768
# and at most 1,048,576 donnes per part. It depends on n only, so a rerun on another
# cluster resumes the same task list.
DEFAULT_TASK_SIZE = 1 << 20
MIN_DEFAULT_TASK_SIZE = 1 << 15
DEFAULT_TASKS = 64
# A scheduler handles a few hundred thousand tasks; beyond that, larger tasks are better.
MAX_TASKS = 200_000
CONNECT_TIMEOUT = 10.0
RUN_FILE = ".simcoinche-run"
MANIFEST_INTERVAL = 1.0  # seconds between two manifest writes while parts complete
# Seconds a refused run keeps wiping the partials that tasks still in flight create before
# it gives up removing the output directory it made.
IN_FLIGHT_WAIT = 10.0
_PART_RE = re.compile(r"part-\d{6,}\.parquet(\.[0-9a-f]+\.partial)?")
_MANIFEST_TMP_RE = re.compile(re.escape(MANIFEST_NAME) + r"\.[0-9a-f]+\.tmp")
# Summary fields that describe the run, not accumulated statistics of its donnes.
_RUN_FIELDS = frozenset({"n", "seconds", "threads", "players", "profile", "profile_text",
                         "seed", "path"})
# Kernel calls of the tasks running in one worker process go one at a time, each with all
# of the worker's threads; Parquet encoding of one task overlaps the kernel of another.
_KERNEL_LOCK = threading.Lock()
# Digest of the kernel sources as imported by this process (a worker started before the
# sources changed keeps running the old code: it must not pass for the new one).
_KERNELS = kernel_source_digest()


def _is_data_file(name: str) -> bool:
    """A run's data file: a part, a partial part, the manifest or its temporary."""
    return bool(name == MANIFEST_NAME or _PART_RE.fullmatch(name)
                or _MANIFEST_TMP_RE.fullmatch(name))


class DistributedRunError(RunError):
    """A task failed on the cluster (unwritable or unshared storage, workers lost…).

    One line and exit status 1 on the command line; rerunning the same command resumes
    the run.
    """


def default_task_size(n: int) -> int:
    """Task size used without ``task_size``: ``ceil(n / 64)`` rounded up to a multiple of
    4,096, within 32,768 .. 1,048,576."""
    size = -(-math.ceil(n / DEFAULT_TASKS) // 4096) * 4096
    return max(MIN_DEFAULT_TASK_SIZE, min(DEFAULT_TASK_SIZE, size))


def part_name(index: int) -> str:
    """File name of the part of task ``index`` (``part-000123.parquet``)."""
    return f"part-{index:06d}.parquet"


def default_dataset(profile: str, seed: int, n: int) -> Path:
    """Default dataset directory ``runs/simcoinche-<profile>-s<seed>-n<n>``."""
    return Path("runs") / f"simcoinche-{profile}-s{seed}-n{n}"


@dataclass
class DatasetFields:
    """What a distributed run adds to the summary of its rows: the cluster and its parts.
    Put first among the bases (``class X(DatasetFields, RowSummary)``) so that these
    defaulted fields follow the row summary's own; ``unit`` names the rows."""

    workers: int = 0
    parts: int = 0
    parts_reused: int = 0
    computed: int = 0
    scheduler: str = ""
    unit: ClassVar[str] = "donnes"

    def text(self) -> str:
        """Short human summary (a few lines)."""
        line = (f"engine dask ({self.scheduler}): {counted(self.workers, 'worker')}, "
                f"{self.threads_text}; {counted(self.parts, 'part')}")  # type: ignore[attr-defined]
        if self.parts_reused == self.parts:
            line += ", all already complete (verified): nothing to compute"
        elif self.parts_reused:
            seconds = self.seconds  # type: ignore[attr-defined]
            rate = self.computed / seconds if seconds > 0 else float("inf")
            line += (f", {self.parts_reused} already complete (verified); computed "
                     f"{self.computed:,} {self.unit} ({rate:,.0f} {self.unit}/s)")
        return super().text() + "\n" + line  # type: ignore[misc]


@functools.cache
def dataset_summary_type(summary_type: type, unit: str) -> type:
    """The summary of a Dask run whose rows a ``summary_type`` sums up (statistics from
    every part, including parts kept from an earlier attempt), plus the cluster's fields
    (:class:`DatasetFields`); ``unit`` names the rows."""
    return dataclass(type(f"Dataset{summary_type.__name__}", (DatasetFields, summary_type),
                          {"unit": unit, "__doc__": dataset_summary_type.__doc__}))


#: What a distributed ``simulate`` did: the :class:`RunSummary` of all its donnes plus the
#: cluster.
DatasetSummary = dataset_summary_type(RunSummary, "donnes")


# --- fingerprint and manifest -----------------------------------------------------------


# Metadata that determines the rows (``kind`` and ``max_donnes``: parties runs only).
_FINGERPRINT_KEYS = ("seed", "n", "profile", "players", "param_arrays", "dealer",
                     "record_play", "dd", "version", "rules_version", "generator", "kind",
                     "max_donnes")


def _fingerprint(plan: Any, task_size: int) -> dict[str, Any]:
    md = plan.metadata()
    fp = {k: md[k] for k in _FINGERPRINT_KEYS if k in md}
    fp["profile_rules"] = plan.profile.packed.tolist()
    fp["kernels"] = _KERNELS
    fp["task_size"] = task_size
    return json.loads(json.dumps(fp))  # tuples → lists, as read back from the manifest


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if a == b:
            continue
        if isinstance(a, (list, dict)) or isinstance(b, (list, dict)) or k == "kernels":
            out.append(f"{k} differs")
        else:
            out.append(f"{k} {a!r} there, {b!r} asked")
    return "; ".join(out)


def _tasks(n: int, task_size: int) -> list[list[int]]:
    return [[s, min(task_size, n - s)] for s in range(0, n, task_size)]


def _write_json_atomic(path: Path, data: Mapping[str, Any]) -> None:
    tmp = path.with_name(f"{path.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _fsync_dir(path.parent)


def _sha256(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size


def _fsync_dir(directory: Path | str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not supported by every file system
    finally:
        os.close(fd)


def _remove(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass


# --- the task (runs on a worker) --------------------------------------------------------


def _task_threads(threads: int | None) -> int:
    if threads is None:
        try:
            from distributed import get_worker

            threads = int(get_worker().state.nthreads)
        except (ImportError, ValueError):
            threads = numba.config.NUMBA_NUM_THREADS  # called outside a worker
    return max(1, min(threads, numba.config.NUMBA_NUM_THREADS))


def _stats(summary: RunSummary) -> dict[str, Any]:
    return {f.name: getattr(summary, f.name) for f in fields(summary)
            if f.name not in _RUN_FIELDS}


def run_task(plan: Any, key: int, index: int, start: int, rows: int, directory: str,
             meta: Mapping[str, Any], run_id: str, kernels: str,
             threads: int | None = None) -> dict[str, Any]:
    """Simulate the donnes ``start .. start+rows-1`` into ``part-<index>.parquet``.

    Runs on a Dask worker (or anywhere): kernels in chunks of ``plan.chunk`` donnes with
    ``threads`` numba threads (default: the worker's thread count), one Parquet row group
    per chunk, written to a private ``.partial`` file, fsynced, hashed, then renamed.

    Parameters
    ----------
    plan : simcoinche.runs.simulation._Plan or simcoinche.runs.partie._PartiesPlan
        The validated run (profile, players, parameters, dealer, record_play, chunk);
        it gives the buffers (``plan.buffers``) and the summary type of its rows.
    key : int
        :func:`simcoinche._kernels.rng.seed_key` of the run's seed (uint64 as int).
    index, start, rows : int
        Task index (part number), first donne and number of donnes.
    directory : str
        The dataset directory (shared storage).
    meta : mapping
        Run metadata stored in the part's Parquet schema.
    run_id : str
        The run id the client wrote to ``.simcoinche-run``; a task of an abandoned run
        (the directory was overwritten by another run since) discards its part.
    kernels : str
        The client's :func:`simcoinche._kernels.kernel_source_digest`; a worker with other
        kernels refuses the task (its rows could differ).
    threads : int, optional
        Numba threads for the kernels.

    Returns
    -------
    dict
        ``index``, ``file``, ``rows``, ``bytes``, ``sha256``, ``stats`` (the part's
        :class:`RunSummary` statistics), ``seconds``.
    """
    t0 = time.perf_counter()
    if kernels != _KERNELS:
        raise RuntimeError(f"this worker's simcoinche kernels ({_KERNELS}) differ from "
                           f"the client's ({kernels}); run the same simcoinche on both "
                           "(restart workers after an upgrade)")
    nthreads = _task_threads(threads)
    folder = Path(directory)
    path = folder / part_name(index)
    tmp = folder / f"{path.name}.{uuid.uuid4().hex[:12]}.partial"
    sch = plan.schema(dict(meta))
    summary = new_summary(plan, rows, nthreads)
    chunk = min(plan.chunk, rows)
    buf = plan.buffers(chunk)
    run_key = np.uint64(key)
    try:
        try:
            writer = pq.ParquetWriter(tmp, sch, **writer_options(sch))
        except (OSError, pa.ArrowException) as exc:
            raise OSError(f"cannot write {str(tmp)!r} ({str(exc).splitlines()[0]}); the "
                          "output directory must be on storage shared by the client and "
                          "every worker") from None
        with writer:
            for s in range(start, start + rows, chunk):
                k = min(chunk, start + rows - s)
                with _KERNEL_LOCK:
                    previous = numba.get_num_threads()
                    numba.set_num_threads(nthreads)
                    try:
                        buf.run(plan, run_key, s, k)
                    finally:
                        numba.set_num_threads(previous)
                summary.add_chunk(buf.stats(k))
                writer.write_table(buf.table(plan, s, k, sch), row_group_size=k)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        digest, size = _sha256(tmp)
        try:
            current = (folder / RUN_FILE).read_text(encoding="utf-8").strip()
        except OSError:
            current = None
        if current != run_id:
            raise RuntimeError(f"the run in {directory!r} changed; part {index} discarded")
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _fsync_dir(folder)
    return {"index": index, "file": path.name, "rows": rows, "bytes": size,
            "sha256": digest, "stats": _stats(summary),
            "seconds": time.perf_counter() - t0}


# --- the client -------------------------------------------------------------------------


def local_cluster_shape(cores: int | None = None) -> tuple[int, int]:
    """Workers and threads per worker of the default local cluster: one single-threaded
    worker process per core (measured on 2 cores: 2×1 at least as fast as 1×2, see
    ``benchmarks/dask_throughput.py``)."""
    if cores is None:
        cores = usable_cores()
    cores = max(1, min(cores, numba.config.NUMBA_NUM_THREADS))
    return cores, 1


@contextlib.contextmanager
def _connect(scheduler: str | None, client: Any, timeout: float,
             shape: tuple[int, int] | None) -> Iterator[tuple[Any, str]]:
    """A connected ``distributed.Client`` and a name for it; closes what it opened."""
    if client is not None:
        yield client, str(client.scheduler.address)
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--engine dask needs dask.distributed: "
                         "pip install 'simcoinche[dask]'") from None
    cluster = None
    if scheduler is None:
        workers, per_worker = shape or local_cluster_shape()
        # Numba's thread pool sized to the worker: no idle OpenMP threads spinning
        # against the other worker processes.
        cluster = LocalCluster(n_workers=workers, threads_per_worker=per_worker,
                               processes=True, dashboard_address=":0",
                               silence_logs=logging.ERROR,
                               env={"NUMBA_NUM_THREADS": str(per_worker)})
        name = f"local cluster {workers}×{per_worker}"
        try:
            c = Client(cluster, timeout=timeout)
        except BaseException:
            cluster.close()
            raise
    else:
        from distributed.comm.addressing import get_address_host_port, parse_address
        from distributed.comm.registry import backends

        name = scheduler
        try:
            scheme = parse_address(scheduler, strict=False)[0]
            if scheme not in backends:
                raise ValueError(f"unknown scheme {scheme!r}")
            if scheme in ("tcp", "tls"):
                get_address_host_port(scheduler)
        except (ValueError, TypeError) as exc:
            raise InputError(f"invalid Dask scheduler address {scheduler!r} ({exc}); "
                             "expected tcp://HOST:PORT") from None
        try:
            c = Client(scheduler, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise InputError(f"cannot reach the Dask scheduler {scheduler!r} within "
                             f"{timeout:g} s ({type(exc).__name__}); is `dask scheduler` "
                             "running there?") from None
    try:
        if not c.scheduler_info().get("workers"):
            try:
                c.wait_for_workers(1, timeout=timeout)
            except (OSError, TimeoutError) as exc:
                raise InputError(f"the Dask scheduler {name!r} has no workers (waited "
                                 f"{timeout:g} s)") from exc
        yield c, name
    finally:
        c.close()
        if cluster is not None:
            cluster.close()


class _Directory:
    """The dataset directory: inspection, run lock, manifest."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_fd: int | None = None

    def entries(self) -> list[str]:
        try:
            return sorted(os.listdir(self.path))
        except FileNotFoundError:
            return []

    def inspect(self, fingerprint: Mapping[str, Any], overwrite: bool) -> dict | None:
        """The manifest to resume from (``None``: start afresh, always with
        ``overwrite``); refuses foreign content and, without ``overwrite``, another run's
        manifest."""
        where = str(self.path)
        if self.path.exists() and not self.path.is_dir():
            raise InputError(f"output {where!r} is a file; --engine dask writes a dataset "
                             "directory")
        names = self.entries()
        if MANIFEST_NAME not in names:
            foreign = [e for e in names if e != RUN_FILE and not _is_data_file(e)]
            if foreign:
                raise InputError(f"output directory {where!r} is not empty and holds no "
                                 f"simcoinche {MANIFEST_NAME} (found {foreign[0]!r})")
            return None
        if overwrite:
            return None  # replace whatever run is there (its simcoinche files only)
        manifest = load_manifest(self.path)
        diff = _differences(manifest["fingerprint"], fingerprint)
        if diff:
            raise InputError(f"output directory {where!r} holds another run ({diff}); "
                             "choose another --out, or --overwrite to replace it")
        return manifest

    def create(self, parents: bool) -> None:
        try:
            self.path.mkdir(parents=parents, exist_ok=True)
        except FileNotFoundError:
            raise InputError(f"cannot write {str(self.path)!r}: directory "
                             f"{str(self.path.parent)!r} does not exist") from None
        except OSError as exc:
            raise InputError(f"cannot create {str(self.path)!r}: {exc.strerror}") from None
        if not os.access(self.path, os.W_OK):
            raise InputError(f"cannot write {str(self.path)!r}: directory not writable")

    def lock(self) -> None:
        """Take the run file's exclusive lock (another client on this directory: error)."""
        fd = os.open(self.path / RUN_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError(f"output directory {str(self.path)!r} is in use by another "
                                 "simcoinche run") from None
        self._lock_fd = fd

    def set_run_id(self, run_id: str) -> None:
        assert self._lock_fd is not None
        os.ftruncate(self._lock_fd, 0)
        os.pwrite(self._lock_fd, run_id.encode(), 0)
        os.fsync(self._lock_fd)

    def unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    def wipe(self) -> None:
        """Remove this directory's simcoinche files (parts, partials, manifest); nothing
        else is touched."""
        for name in self.entries():
            if _is_data_file(name):
                _remove(self.path / name)

    def verified_parts(self, manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The recorded parts whose file is present with the recorded size and sha256."""
        ok: dict[str, dict[str, Any]] = {}
        tasks = manifest["tasks"]
        for key, part in manifest["parts"].items():
            try:
                t = int(key)
                entry = self.path / part["file"]
                if part["file"] != part_name(t) or part["rows"] != tasks[t][1]:
                    continue
                if entry.stat().st_size != part["bytes"]:
                    continue
                if _sha256(entry)[0] == part["sha256"]:
                    ok[key] = part
            except (OSError, KeyError, ValueError, IndexError, TypeError):
                continue  # missing or malformed: the task runs again
        return ok

    def clean_partials(self) -> None:
        for name in self.entries():
            if name.endswith(".partial") and _PART_RE.fullmatch(name):
                _remove(self.path / name)

    def write_manifest(self, manifest: Mapping[str, Any]) -> None:
        _write_json_atomic(self.path / MANIFEST_NAME, manifest)


def _check_stats(stats: Mapping[str, Any], part: int, part_type: type) -> None:
    """``part_type`` is the summary type each part wrote (the plan's): a part whose stored
    statistics lack one of its fields was written by another version of simcoinche, and
    is refused (InputError naming the part and the field), not counted as 0."""
    missing = sorted({f.name for f in fields(part_type)} - _RUN_FIELDS - set(stats))
    if missing:
        raise InputError(f"dataset part {part} records no {missing[0]!r} statistic: it was "
                         "written by another version of simcoinche; write the run to a new "
                         "folder")


def _merge_stats(summary: RunSummary, stats: Mapping[str, Any]) -> None:
    """Add one part's statistics (as stored in the manifest) to ``summary`` (a part kept
    from an earlier attempt was checked by :func:`_check_stats` before the run)."""
    for name, value in stats.items():
        if not hasattr(summary, name):
            continue
        mine = getattr(summary, name)
        if isinstance(mine, dict):
            for k, v in value.items():
                k = int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else k
                if k in mine and isinstance(v, list):
                    mine[k] = [a + b for a, b in zip(mine[k], v, strict=True)]
                else:
                    mine[k] = list(v) if isinstance(v, list) else v
        elif isinstance(mine, list):
            setattr(summary, name, [a + b for a, b in zip(mine, value, strict=True)])
        elif isinstance(mine, (int, float)) and not isinstance(mine, bool):
            setattr(summary, name, mine + value)


def simulate_dask(n: int, seed: int = 0, profile: str | Profile | None = "federal",
                  players: str | Sequence[str] | None = "heuristic",
                  out: str | os.PathLike[str] | None = None, *,
                  scheduler: str | None = None, client: Any = None,
                  task_size: int | None = None, threads: int | None = None,
                  record_play: bool = False, overwrite: bool = False,
                  chunk_size: int | None = None, dealer: int | None = None,
                  params: Sequence[Mapping[str, float] | None] | None = None,
                  progress: bool | None = None, timeout: float | None = None,
                  cluster_shape: tuple[int, int] | None = None,
                  dd: bool = False) -> DatasetSummary:
    """Simulate ``n`` donnes on a Dask cluster into a dataset directory (resumable).

    The rows are those of :func:`simcoinche.runs.simulation.simulate` with the same ``n``,
    ``seed``, ``profile``, ``players``, ``record_play``, ``dealer`` and ``params``, in the
    same order (read them with :func:`simcoinche.read_results` on the directory).

    Parameters
    ----------
    n, seed, profile, players, record_play, dealer, params, dd
        As :func:`simcoinche.runs.simulation.simulate` (``dd`` is part of the fingerprint).
    out : path-like, optional
        Dataset directory (default :func:`default_dataset`). Rerunning into a directory
        that holds this run's manifest resumes it: complete parts are verified and kept.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); default: a local
        cluster sized to this machine (:func:`local_cluster_shape`).
    client : distributed.Client, optional
        An already connected client to use instead (not closed at the end).
    task_size : int, optional
        Donnes per task and part (default :func:`default_task_size`: about 64 tasks);
        part of the run's fingerprint.
    threads : int, optional
        Numba threads per task (default: the worker's thread count).
    overwrite : bool
        Start afresh, replacing the run the directory holds (only its simcoinche files
        are removed); without it a directory holding this run's manifest is resumed.
    chunk_size : int, optional
        Donnes per kernel call and Parquet row group inside a part (default 262,144).
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    timeout : float, optional
        Seconds to reach the scheduler and find a worker (default 10).
    cluster_shape : (int, int), optional
        Workers and threads per worker of the local cluster.

    Returns
    -------
    DatasetSummary
        The summary of all ``n`` donnes, the cluster and how many parts were reused.

    Raises
    ------
    InputError
        Bad arguments, unreachable scheduler, a directory holding another run or foreign
        files, a directory in use by another client; :class:`DistributedRunError` when a
        task fails on the cluster (the parts done so far are kept for a rerun).
    """
    t0 = time.perf_counter()
    plan = _plan(n, seed, profile, players, None, chunk_size, dealer, record_play, params,
                 dd)
    return run_dask(plan, out, default_dataset(plan.profile.name, plan.seed, plan.n),
                    scheduler=scheduler, client=client, task_size=task_size,
                    threads=threads, overwrite=overwrite, progress=progress,
                    timeout=timeout, cluster_shape=cluster_shape, t0=t0)


def _check_timeout(timeout: Any) -> float:
    """Seconds to reach the scheduler: a positive finite number (default
    :data:`CONNECT_TIMEOUT`)."""
    if timeout is None:
        return float(CONNECT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.integer,
                                                              np.floating)) \
            or not math.isfinite(timeout) or timeout <= 0:
        raise InputError(f"timeout must be a positive number of seconds, got {timeout!r}")
    return float(timeout)


def _check_cluster_shape(shape: Any) -> tuple[int, int] | None:
    """A local cluster's ``(workers, threads per worker)``: two positive whole numbers."""
    if shape is None:
        return None
    if not isinstance(shape, (tuple, list)) or len(shape) != 2 \
            or not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x > 0
                       for x in shape):
        raise InputError(f"cluster_shape must be (workers, threads per worker), two "
                         f"positive whole numbers, got {shape!r}")
    return int(shape[0]), int(shape[1])


def run_dask(plan: Any, out: str | os.PathLike[str] | None, default_out: Path, *,
             scheduler: str | None, client: Any, task_size: int | None,
             threads: int | None, overwrite: bool, progress: bool | None,
             timeout: float | None, cluster_shape: tuple[int, int] | None,
             t0: float) -> Any:
    """Run a validated plan on a Dask cluster into a dataset directory (``out``, else
    ``default_out``): the engine of :func:`simulate_dask` and of
    :func:`simcoinche.runs.partie.parties` with ``engine="dask"``. ``plan`` gives the rows
    of a task (``buffers``, ``summary_type``, ``unit``,
    ``metadata``); the other arguments are those of :func:`simulate_dask`."""
    if threads is not None:
        threads = positive_int(threads, "threads")
    size = (default_task_size(plan.n) if task_size is None
            else positive_int(task_size, "task_size"))
    n_tasks = math.ceil(plan.n / size)
    if n_tasks > MAX_TASKS:
        raise InputError(f"task_size {size} makes {n_tasks:,} tasks (at most {MAX_TASKS:,}); "
                         "use a larger --task-size")
    timeout = _check_timeout(timeout)
    cluster_shape = _check_cluster_shape(cluster_shape)
    if client is not None and not hasattr(client, "scheduler"):
        raise InputError(f"client must be a connected distributed.Client, got {client!r}")
    overwrite = check_flag(overwrite, "overwrite")
    progress = check_optional_flag(progress, "progress")
    fingerprint = _fingerprint(plan, size)
    default = out is None
    folder = _Directory(default_out if default else output_path(out))
    folder.inspect(fingerprint, overwrite)  # refuse bad output before any connection
    if not default and not folder.path.parent.exists():
        raise InputError(f"cannot write {str(folder.path)!r}: directory "
                         f"{str(folder.path.parent)!r} does not exist")

    with _connect(scheduler, client, timeout, cluster_shape) as (c, name):
        existed = folder.path.exists()
        folder.create(parents=default)
        folder.lock()
        try:
            return _run(c, name, plan, size, fingerprint, folder, overwrite, threads,
                        progress, t0)
        except IllegalDecisionError:
            # A replaced decision invalidates the whole run: no part, no manifest, no
            # run file is kept (nor the directory, when this run made it).
            folder.wipe()
            _remove(folder.path / RUN_FILE)
            if not existed:
                _remove_made_directory(folder)
            raise
        finally:
            folder.unlock()


def _remove_made_directory(folder: _Directory, wait: float = IN_FLIGHT_WAIT) -> None:
    """Remove the output directory a refused run made (its files already wiped).

    A cancelled task that a worker already runs may create its ``.partial`` file after
    the wipe, which makes ``rmdir`` fail; the task then finds the run id changed and
    renames nothing. While the directory holds only such files of this run (parts,
    partials, a manifest) they are wiped again and ``rmdir`` retried, for ``wait``
    seconds at most. Anything else, such as another run's run file, stops it at once and
    stays, with the directory. Never raises: the caller is reporting the refusal."""
    deadline = time.monotonic() + wait
    while True:
        try:
            folder.path.rmdir()
            return
        except OSError:
            pass
        try:
            names = os.listdir(folder.path)
        except OSError:
            return
        if not all(_is_data_file(n) for n in names) or time.monotonic() > deadline:
            return  # something else is in it, or a part still being written: left alone
        time.sleep(0.02)
        try:
            folder.wipe()
        except OSError:
            return


def _run(c: Any, name: str, plan: Any, size: int, fingerprint: dict[str, Any],
         folder: _Directory, overwrite: bool, threads: int | None, progress: bool | None,
         t0: float) -> Any:
    from distributed import as_completed

    previous = folder.inspect(fingerprint, overwrite)  # again, under the lock
    meta = plan.metadata()
    meta.update(engine="dask", task_size=size, kernels=fingerprint["kernels"])
    if previous is None:
        folder.wipe()
        manifest = {"format": DATASET_FORMAT, "run_id": uuid.uuid4().hex,
                    "fingerprint": fingerprint, "metadata": meta,
                    "tasks": _tasks(plan.n, size), "parts": {}, "complete": False}
    else:
        manifest = previous
        if manifest["tasks"] != _tasks(plan.n, size) or not manifest.get("run_id"):
            raise InputError(f"the manifest of {str(folder.path)!r} is inconsistent with "
                             "its fingerprint; use --overwrite to start the run afresh")
        manifest["parts"] = folder.verified_parts(previous)
        manifest["complete"] = False
        meta = manifest["metadata"]  # every part of a run carries the same metadata
    folder.set_run_id(manifest["run_id"])
    folder.clean_partials()
    folder.write_manifest(manifest)

    tasks = manifest["tasks"]
    parts = manifest["parts"]
    todo = [t for t in range(len(tasks)) if str(t) not in parts]
    reused = len(tasks) - len(todo)
    for t in range(len(tasks)):
        if str(t) in parts:
            # (Before any work; the parts this run writes carry every statistic.)
            _check_stats(parts[str(t)].get("stats", {}), t, plan.summary_type)
    nthreads = c.nthreads()
    summary_type = dataset_summary_type(plan.summary_type, plan.unit)
    summary = new_summary(plan, plan.n, sum(nthreads.values()), str(folder.path),
                          summary_type, workers=len(nthreads), parts=len(tasks),
                          parts_reused=reused, scheduler=name)
    key = int(seed_key(np.uint64(plan.seed)))
    kernels = fingerprint["kernels"]
    window = 4 * max(1, summary.threads) + 4  # tasks in flight on the scheduler
    pending = iter(todo)
    running: dict[Any, int] = {}

    def submit_next() -> Any:
        t = next(pending, None)
        if t is None:
            return None
        start, rows = tasks[t]
        fut = c.submit(run_task, plan, key, t, start, rows, str(folder.path), meta,
                       manifest["run_id"], kernels, threads, pure=False,
                       key=f"simcoinche-part-{t}-{uuid.uuid4().hex[:8]}")
        running[fut] = t
        return fut

    done_rows = sum(p["rows"] for p in parts.values())
    last_write = -math.inf  # the first completed part is recorded at once
    failed = False
    try:
        with progress_bar(plan.n, progress, plan.unit, initial=done_rows,
                          smoothing=0.1) as bar:
            first = [f for f in (submit_next() for _ in range(window)) if f is not None]
            queue = as_completed(first, loop=c.loop)
            for fut in queue:
                t = running.pop(fut)
                start, rows = tasks[t]
                try:
                    res = fut.result()
                except IllegalDecisionError:
                    # A player's decision was replaced in this task: the run is refused
                    # (not resumable). Parts in flight find the run id changed and
                    # discard themselves; the caller wipes the dataset.
                    folder.set_run_id(uuid.uuid4().hex)
                    failed = True
                    raise
                except Exception as exc:
                    line = str(exc).splitlines()[0] if str(exc) else ""
                    raise DistributedRunError(
                        f"task {t} ({plan.unit} {start}..{start + rows - 1}) failed on the "
                        f"cluster: {type(exc).__name__}: {line}; fix the cause and rerun "
                        "the same command to resume") from None
                fut.release()
                _check_part(folder.path, t, rows, res)
                parts[str(t)] = {k: res[k] for k in ("file", "rows", "bytes", "sha256",
                                                     "stats")}
                summary.computed += rows
                bar.update(rows)
                nxt = submit_next()
                if nxt is not None:
                    queue.add(nxt)
                if time.monotonic() - last_write >= MANIFEST_INTERVAL:
                    folder.write_manifest(manifest)
                    last_write = time.monotonic()
        manifest["complete"] = len(parts) == len(tasks)
    finally:
        if running:
            c.cancel(list(running))
        if not failed:
            folder.write_manifest(manifest)
    folder.clean_partials()
    for t in range(len(tasks)):
        _merge_stats(summary, parts[str(t)]["stats"])
    summary.seconds = time.perf_counter() - t0
    return summary


def _check_part(folder: Path, t: int, rows: int, res: Mapping[str, Any]) -> None:
    """The client sees the part the worker wrote (shared storage), with its row count."""
    path = folder / part_name(t)
    if res.get("index") != t or res.get("rows") != rows or res.get("file") != path.name:
        raise DistributedRunError(f"task {t} returned a result for another part ({res!r})")
    try:
        seen = path.stat().st_size
    except OSError:
        seen = -1
    if seen != res["bytes"]:
        raise DistributedRunError(
            f"part {path.name} written by a worker is not visible from the client in "
            f"{str(folder)!r}: the output directory must be on storage shared by the "
            "client and every worker")
