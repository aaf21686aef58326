"""The results schema (one row per donne), Arrow tables of simulated chunks, and reading.

:data:`COLUMNS` is the single source of truth for the Parquet schema: name, Arrow type
and a one-line description per column (:func:`schema_markdown` renders the README table).
The run's metadata is stored as JSON under the ``simcoinche`` key of the Parquet
key-value metadata (:func:`read_metadata`).

A run of the distributed engine (:mod:`simcoinche.runs.distributed`) is a **dataset directory**:
``part-000000.parquet``, ``part-000001.parquet``, … (one per task, contiguous donne
ranges in task order) and ``manifest.json`` (the run's fingerprint and metadata, the task
list, and per completed part its row count and sha256). :func:`read_results` and
:func:`read_metadata` accept such a directory: the parts the manifest lists are read as
one table (a :mod:`pyarrow.dataset`, reading only the requested columns), in donne order.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simcoinche._kernels import donne_layout as D
from simcoinche._kernels import partie_layout as P
from simcoinche.rules.cards import CONTRACT_KIND_NAMES
from simcoinche.rules.errors import InputError, RunError
from simcoinche.rules.profiles import profile_of_run
from simcoinche.runs.arguments import check_flag, check_utf8_path

if TYPE_CHECKING:
    import pandas as pd

METADATA_KEY = b"simcoinche"
#: The SHA-256 of the metadata's JSON, beside it: Parquet's page checksums cover the data
#: only, so a byte changed in the footer could rename a key without a word.
METADATA_DIGEST_KEY = b"simcoinche.sha256"
MANIFEST_NAME = "manifest.json"
DATASET_FORMAT = "simcoinche-dataset/1"
TRUMP_CATEGORIES = list(CONTRACT_KIND_NAMES)


@dataclass(frozen=True)
class Column:
    """One column of the results: name, Arrow type, kernel output row, description."""

    name: str
    type: pa.DataType
    source: int          # row of the kernel output (``O_*``), -1 for computed/record ones
    description: str
    record_only: bool = False
    dd_kind: int = -1    # contract kind of a ``--dd`` column (team 0's DD card points)


def _c(name: str, typ: pa.DataType, source: int, text: str, record: bool = False) -> Column:
    return Column(name, typ, source, text, record)


def _dd(kind: int) -> Column:
    name = CONTRACT_KIND_NAMES[kind]
    where = "" if kind < 4 else " (profiles with " + name + " contracts)"
    span = "0..252" if kind < 5 else "0..252; to 258 at strict's TA"
    return Column(f"dd_{name}", pa.int16(), -1,
                  f"with --dd{where}: team 0's double-dummy card points ({span}) at {name}, "
                  "opening lead by seat dealer+1", dd_kind=kind)


COLUMNS: tuple[Column, ...] = (
    _c("donne", pa.int64(), -1, "index i of the donne in the run (key of its random stream)"),
    _c("dealer", pa.int8(), D.O_DEALER, "dealer seat 0..3 (seat dealer+1 speaks and leads first)"),
    _c("hand_0", pa.uint32(), D.O_HAND, "cards dealt to seat 0 (bitboard, bit suit*8+rank)"),
    _c("hand_1", pa.uint32(), D.O_HAND + 1, "cards dealt to seat 1 (bitboard)"),
    _c("hand_2", pa.uint32(), D.O_HAND + 2, "cards dealt to seat 2 (bitboard)"),
    _c("hand_3", pa.uint32(), D.O_HAND + 3, "cards dealt to seat 3 (bitboard)"),
    _c("passed_out", pa.bool_(), D.O_PASSED, "four passes: nothing played, all zero"),
    _c("taker", pa.int8(), D.O_TAKER, "seat of the final bidder, -1 if passed out"),
    _c("bid_level", pa.int8(), D.O_LEVEL, "ladder level of the contract, -1 if passed out"),
    _c("bid_value", pa.int16(), D.O_VALUE, "contract value (250 capot), 0 if passed out"),
    _c("trump", pa.int8(), D.O_TRUMP,
       "contract kind 0..3 = S H D C, 4 SA, 5 TA; -1 if passed out"),
    _c("capot_bid", pa.bool_(), D.O_CAPOT, "the contract is a capot"),
    _c("coinche", pa.int8(), D.O_COINCHE, "1, 2 (coinched) or 4 (surcoinched); 0 if passed out"),
    _c("n_bids", pa.int8(), D.O_N_BIDS, "number of bids in the auction"),
    _c("tricks_t0", pa.int8(), D.O_TRICKS, "tricks won by team 0 (seats 0, 2)"),
    _c("tricks_t1", pa.int8(), D.O_TRICKS + 1, "tricks won by team 1 (seats 1, 3)"),
    _c("card_points_t0", pa.int16(), D.O_CARD_POINTS,
       "team 0 card points incl. last trick (252 on a capot)"),
    _c("card_points_t1", pa.int16(), D.O_CARD_POINTS + 1, "team 1 card points incl. last trick"),
    _c("announce_t0", pa.int16(), D.O_ANNOUNCE,
       "team 0 valid ordinary announcements (after comparison and capot transfer)"),
    _c("announce_t1", pa.int16(), D.O_ANNOUNCE + 1, "team 1 valid ordinary announcements"),
    _c("belote_t0", pa.int16(), D.O_BELOTE, "team 0 belote points"),
    _c("belote_t1", pa.int16(), D.O_BELOTE + 1, "team 1 belote points"),
    _c("made", pa.bool_(), D.O_MADE, "contract made (False if passed out)"),
    _c("marks_t0", pa.int16(), D.O_MARKS, "marks of team 0 for the donne (rounded)"),
    _c("marks_t1", pa.int16(), D.O_MARKS + 1, "marks of team 1 for the donne (rounded)"),
    *(_dd(k) for k in range(6)),
    _c("auction", pa.binary(), -1,
       "with --record-play: the auction action codes in order (simcoinche.rules.actions)", True),
    _c("play", pa.binary(32), -1,
       "with --record-play: the 32 cards (0..31) in play order; all 255 if passed out", True),
)

#: Every column of a run with ``--record-play`` and without ``--dd``, in order.
COLUMN_NAMES = tuple(c.name for c in COLUMNS if c.dd_kind < 0)
#: The ``--dd`` columns, kind order (a run has those of its profile's contract kinds).
DD_COLUMN_NAMES = tuple(c.name for c in COLUMNS if c.dd_kind >= 0)


def schema(record_play: bool, metadata: dict[str, Any] | None = None,
           columns: tuple[Column, ...] = COLUMNS,
           dd_kinds: tuple[int, ...] = ()) -> pa.Schema:
    """Arrow schema of a run, with the run's metadata as JSON under ``simcoinche``
    (``columns``: :data:`COLUMNS`, or another row kind's, e.g. the parties');
    ``dd_kinds``: the contract kinds of the ``dd_*`` columns (``--dd``)."""
    fields = [pa.field(c.name, c.type, nullable=False)
              for c in columns if (record_play or not c.record_only)
              and (c.dd_kind < 0 or c.dd_kind in dd_kinds)]
    md = None
    if metadata is not None:
        text = json.dumps(metadata, sort_keys=True).encode()
        md = {METADATA_KEY: text,
              METADATA_DIGEST_KEY: hashlib.sha256(text).hexdigest().encode()}
    return pa.schema(fields, metadata=md)


def chunk_table(start: int, out: np.ndarray, auc: np.ndarray | None,
                auc_len: np.ndarray | None, play: np.ndarray | None,
                sch: pa.Schema, dd: np.ndarray | None = None) -> pa.Table:
    """Arrow table of one simulated chunk.

    Parameters
    ----------
    start : int
        Index of the chunk's first donne.
    out : int32[N_OUT, n]
        Kernel output columns.
    auc, auc_len, play
        Record arrays (``uint8[n, MAX_ACTIONS]``, ``int16[n]``, ``uint8[n, 32]``) or
        ``None`` without ``--record-play``.
    sch : pyarrow.Schema
        The run's schema (:func:`schema`).
    dd : int16[6, n], optional
        With ``--dd``: team 0's DD card points, row = contract kind (only the rows of the
        schema's ``dd_*`` columns are read).
    """
    n = out.shape[1]
    arrays: list[pa.Array] = []
    for f in sch:
        col = _COLUMN_BY_NAME[f.name]
        if col.dd_kind >= 0:
            arrays.append(arrow_array(np.ascontiguousarray(dd[col.dd_kind, :n],
                                                           dtype=np.int16)))
        elif col.name == "donne":
            arrays.append(arrow_array(np.arange(start, start + n, dtype=np.int64)))
        elif col.name == "auction":
            lens = auc_len[:n].astype(np.int32)
            offsets = np.zeros(n + 1, dtype=np.int32)
            np.cumsum(lens, out=offsets[1:])
            keep = np.arange(auc.shape[1], dtype=np.int32)[None, :] < lens[:, None]
            data = np.ascontiguousarray(auc[:n][keep])
            arrays.append(pa.BinaryArray.from_buffers(
                pa.binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)]))
        elif col.name == "play":
            data = np.ascontiguousarray(play[:n])
            arrays.append(pa.FixedSizeBinaryArray.from_buffers(
                pa.binary(32), n, [None, pa.py_buffer(data)]))
        else:
            arrays.append(arrow_array(_as_numpy(out[col.source], col.type, col.name)))
    return pa.Table.from_arrays(arrays, schema=sch)


def arrow_array(values: np.ndarray) -> pa.Array:
    """A one-dimensional numpy column as an Arrow array (zero-copy but for booleans, which
    Arrow packs into bits). ``pa.array`` gives the same array but imports pandas to look
    at its argument, a third of a short run's start (issue 24)."""
    values = np.ascontiguousarray(values)
    if values.ndim != 1 or not values.dtype.isnative:
        # from_buffers would misread these (pa.array refuses them).
        raise ValueError(f"arrow_array takes a 1-d array in native byte order, got "
                         f"{values.dtype.str}{list(values.shape)}")
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def _as_numpy(values: np.ndarray, typ: pa.DataType, name: str) -> np.ndarray:
    """Cast one int32 kernel column ``name`` to the numpy dtype of its Arrow type.

    A value that the narrower type cannot hold (an int16 mark beyond 32,767) is a
    :class:`RunError` naming the column, never a number wrapped round silently.
    """
    if typ == pa.uint32():
        return values.view(np.uint32)
    if typ == pa.bool_():
        return values != 0
    dtype = np.dtype(typ.to_pandas_dtype())
    if dtype.itemsize < values.dtype.itemsize and values.size:
        lo, hi = int(values.min()), int(values.max())
        limits = np.iinfo(dtype)
        if lo < limits.min or hi > limits.max:
            bad = lo if lo < limits.min else hi
            raise RunError(f"column {name!r} got {bad}, beyond what its {dtype} holds "
                           f"({limits.min}..{limits.max})")
    return values.astype(dtype)


_COLUMN_BY_NAME = {c.name: c for c in COLUMNS}

#: Columns of a parties run: the partie itself (``source`` a ``PT_*`` row of the kernel's
#: partie output), then per-donne lists (``source`` a row of its donne output), one
#: element per donne of the partie, in the order played.
PARTIE_COLUMNS: tuple[Column, ...] = (
    _c("partie", pa.int64(), -1, "index p of the partie in the run (key of its streams)"),
    _c("winner", pa.int8(), P.PT_WINNER,
        "winning team 0 (seats 0, 2) or 1 (seats 1, 3); -1 if stopped at max_donnes"),
    _c("total_t0", pa.int32(), P.PT_TOTAL, "team 0's final partie total"),
    _c("total_t1", pa.int32(), P.PT_TOTAL + 1, "team 1's final partie total"),
    _c("n_donnes", pa.int16(), P.PT_N_DONNES, "donnes played, passed-out ones included"),
    _c("score_t0", pa.list_(pa.int32()), P.PD_SCORE,
        "per donne: team 0's partie total before the donne"),
    _c("score_t1", pa.list_(pa.int32()), P.PD_SCORE + 1,
        "per donne: team 1's partie total before the donne"),
    _c("taker", pa.list_(pa.int8()), D.O_TAKER,
        "per donne: seat of the final bidder, -1 if passed out"),
    _c("bid_value", pa.list_(pa.int16()), D.O_VALUE,
        "per donne: contract value (250 capot), 0 if passed out"),
    _c("trump", pa.list_(pa.int8()), D.O_TRUMP,
        "per donne: contract kind 0..3 = S H D C, 4 SA, 5 TA; -1 if passed out"),
    _c("coinche", pa.list_(pa.int8()), D.O_COINCHE, "per donne: 1, 2 or 4; 0 if passed out"),
    _c("made", pa.list_(pa.bool_()), D.O_MADE, "per donne: contract made"),
    _c("tricks_t0", pa.list_(pa.int8()), D.O_TRICKS, "per donne: tricks won by team 0"),
    _c("tricks_t1", pa.list_(pa.int8()), D.O_TRICKS + 1, "per donne: tricks won by team 1"),
    _c("belote_t0", pa.list_(pa.int16()), D.O_BELOTE, "per donne: team 0 belote points"),
    _c("belote_t1", pa.list_(pa.int16()), D.O_BELOTE + 1, "per donne: team 1 belote points"),
    _c("marks_t0", pa.list_(pa.int16()), D.O_MARKS, "per donne: marks of team 0"),
    _c("marks_t1", pa.list_(pa.int16()), D.O_MARKS + 1, "per donne: marks of team 1"),
)

#: The ``kind`` of a parties run's metadata (a run of donnes has none).
PARTIES_KIND = "parties"
#: A parties run's per-donne list columns.
PER_DONNE = tuple(c.name for c in PARTIE_COLUMNS if pa.types.is_list(c.type))


def schema_markdown() -> str:
    """The schema as a Markdown table (for the README)."""
    lines = ["| column | type | meaning |", "|---|---|---|"]
    for c in COLUMNS:
        lines.append(f"| `{c.name}` | {c.type} | {c.description} |")
    return "\n".join(lines)


def _results_path(path: Any) -> Path:
    """``path`` checked as a results path that exists (InputError naming it otherwise)."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        shown = repr(path)
        if "\n" in shown or len(shown) > 80:
            shown = f"a {type(path).__name__}"  # (a DataFrame's repr is a whole table)
        raise InputError(f"results must be a path (str or os.PathLike), got {shown}")
    p = Path(path)
    check_utf8_path(os.fspath(path), "results")
    try:
        found = p.exists()
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read results {os.fspath(path)!r}: {exc}") from None
    if not found:
        raise InputError(f"results {os.fspath(path)!r} not found")
    if not (p.is_file() or p.is_dir()):
        # A pipe or a device: pyarrow would block on a pipe without a writer, beyond
        # the reach of Ctrl-C.
        raise InputError(f"results {os.fspath(path)!r} is not a file or a dataset directory")
    return p


def _column_names(columns: Any) -> list[str] | None:
    """``columns`` as a list of names (None: every column)."""
    if columns is None:
        return None
    if isinstance(columns, str) or not isinstance(columns, (list, tuple)) \
            or not all(isinstance(c, str) for c in columns):
        raise InputError(f"columns must be a list of column names, got {columns!r}")
    return list(columns)


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The run's metadata (seed, n, profile, players, params, versions) of a results file
    or of a dataset directory written by ``simcoinche simulate --engine dask``.

    Raises
    ------
    InputError
        When the file is missing, not Parquet, or not written by ``simcoinche simulate``
        (no simcoinche metadata, or metadata that is not a JSON object); for a directory,
        when its manifest is missing or unreadable.
    """
    if _results_path(path).is_dir():
        meta = dict(load_manifest(path)["metadata"])
        _check_profile_fields(meta, f"dataset {os.fspath(path)!r}")
        return meta
    try:
        md = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read results {os.fspath(path)!r}: "
                         f"{str(exc).splitlines()[0]}") from None
    if METADATA_KEY not in md:
        raise InputError(f"{os.fspath(path)!r} has no simcoinche metadata")
    return _file_metadata(md, path)


def _file_metadata(md: dict[bytes, bytes], path: str | os.PathLike[str]) -> dict[str, Any]:
    """A results file's run metadata (:func:`_metadata_from`), its recorded profile
    checked (a dataset's parts are compared with their manifest's, checked once)."""
    where = repr(os.fspath(path))
    meta = _metadata_from(md, where)
    _check_profile_fields(meta, where)
    return meta


def _metadata_from(md: dict[bytes, bytes], where: str) -> dict[str, Any]:
    """The run metadata of a Parquet schema's key-value metadata ``md`` (which holds
    :data:`METADATA_KEY`): a JSON object, matching its digest where it has one (files
    written before the digest have none). InputError naming ``where`` otherwise."""
    try:
        meta = json.loads(md[METADATA_KEY])
    except (UnicodeDecodeError, ValueError, RecursionError):
        meta = None
    if not isinstance(meta, dict):
        raise InputError(f"{where} has malformed simcoinche metadata (not a JSON object)")
    digest = md.get(METADATA_DIGEST_KEY)
    if digest is not None and digest != hashlib.sha256(md[METADATA_KEY]).hexdigest().encode():
        raise InputError(f"{where}: its simcoinche metadata do not match their checksum: "
                         "the file was changed since its run wrote it")
    return meta


def _check_profile_fields(meta: dict[str, Any], where: str) -> None:
    """A hand-built profile's rules recorded in a run's metadata, which every reader
    applies: checked once where the metadata are read, InputError naming ``where``."""
    if "profile_fields" in meta:
        try:
            profile_of_run(meta)
        except InputError as exc:
            raise InputError(f"{where}: the profile its metadata record: {exc}") from None


def load_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a dataset directory (``manifest.json``), checked for shape.

    Parameters
    ----------
    directory : path-like
        A dataset directory written by :mod:`simcoinche.runs.distributed`.

    Returns
    -------
    dict
        ``format``, ``fingerprint``, ``metadata``, ``tasks`` (``[start, rows]`` per task),
        ``parts`` (task index as a string → ``file``, ``rows``, ``bytes``, ``sha256``,
        ``stats``) and ``complete``.

    Raises
    ------
    InputError
        No manifest, not JSON, or not a simcoinche dataset manifest.
    """
    where = os.fspath(directory)
    path = Path(directory) / MANIFEST_NAME
    if not path.is_file():
        raise InputError(f"{where!r} is a directory without a simcoinche {MANIFEST_NAME}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"cannot read the manifest of {where!r}: "
                         f"{str(exc).splitlines()[0]}") from None
    types = {"fingerprint": dict, "metadata": dict, "tasks": list, "parts": dict,
             "complete": bool}
    if not isinstance(manifest, dict) or manifest.get("format") != DATASET_FORMAT \
            or any(not isinstance(manifest.get(k), t) for k, t in types.items()):
        raise InputError(f"{str(path)!r} is not a simcoinche dataset manifest "
                         f"(format {DATASET_FORMAT})")
    return manifest


def dataset_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Paths of the parts of a complete dataset directory, in task (donne) order, each
    checked against the manifest (:func:`_check_part`: its size, rows and run metadata).

    Raises
    ------
    InputError
        When the manifest is missing, when the run is incomplete (some task has no part
        recorded): rerunning the same ``simcoinche simulate`` (or ``parties``) command
        completes it, when a part recorded has no file name or names a path, or when a
        part is not the file its run wrote.
    """
    manifest = load_manifest(directory)
    parts = manifest["parts"]
    n_tasks = len(manifest["tasks"])
    done = sum(1 for t in range(n_tasks) if str(t) in parts)
    command = "parties" if manifest["metadata"].get("kind") == PARTIES_KIND else "simulate"
    if done < n_tasks:
        raise InputError(f"dataset {os.fspath(directory)!r} is incomplete ({done} of "
                         f"{n_tasks} parts); rerun the same {command} command to finish it")
    files = []
    where = os.fspath(directory)
    for t in range(n_tasks):
        part = parts[str(t)]
        if not isinstance(part, dict) or not isinstance(part.get("file"), str):
            raise InputError(f"dataset {where!r}: the manifest's part {t} has no file name")
        name = part["file"]
        if name in ("", ".", "..") or "\0" in name or Path(name).name != name:
            # A part is a file of the dataset's own folder, never a path elsewhere.
            raise InputError(f"dataset {where!r}: the manifest's part {t} names "
                             f"{name!r}, not a file of the dataset")
        path = Path(directory) / part["file"]
        _check_part(where, t, path, part, manifest["metadata"], command)
        files.append(path)
    return files


def _check_part(where: str, t: int, path: Path, part: dict[str, Any],
                metadata: dict[str, Any], command: str) -> None:
    """Part ``t`` of a dataset is the file its run wrote: the recorded size and rows, and
    the run's metadata in its footer (a part of another run, or one rewritten, would
    change every table read from the dataset without a word). Reads the footer only."""
    redo = f"rerun the same {command} command to write it again"
    if not all(isinstance(part.get(k), int) for k in ("bytes", "rows")):
        raise InputError(f"dataset {where!r}: the manifest's part {t} records no size or "
                         f"rows (whole numbers); {redo}")
    try:
        size = path.stat().st_size
        if size != part.get("bytes"):
            raise InputError(f"dataset {where!r}: part {t} ({path.name}) is {size} bytes, "
                             f"the run wrote {part.get('bytes')}: it was changed since; "
                             f"{redo}")
        footer = pq.read_metadata(path)
    except (OSError, pa.ArrowException) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
            str(exc).splitlines()[0]
        raise InputError(f"dataset {where!r}: part {t} ({path.name}) cannot be read "
                         f"({reason}); {redo}") from None
    if footer.num_rows != part.get("rows"):
        raise InputError(f"dataset {where!r}: part {t} ({path.name}) holds "
                         f"{footer.num_rows} rows, the run wrote {part.get('rows')}; {redo}")
    md = footer.metadata or {}
    own = (_metadata_from(md, f"dataset {where!r}: part {t} ({path.name})")
           if METADATA_KEY in md else None)
    if own != metadata:
        raise InputError(f"dataset {where!r}: part {t} ({path.name}) was not written by "
                         f"this run (its metadata differ from the manifest's); {redo}")


def tidy(df: pd.DataFrame, source: str = "results") -> pd.DataFrame:
    """Readable categoricals: ``trump`` becomes ``S H D C SA TA`` (missing if passed out).

    The category codes equal the contract kinds (``df.trump.cat.codes``; -1 if passed out).
    ``source`` names the rows in the error raised (InputError) when a ``trump`` value is
    no contract kind.
    """
    if "trump" in df.columns and df["trump"].dtype.kind in "iu":
        import pandas as pd  # here, not at import: a run to a file needs no pandas

        raw = df["trump"].to_numpy()
        bad = (raw < -1) | (raw >= len(TRUMP_CATEGORIES))
        if bad.any():
            # A file edited or written by another program: its rows cannot be trusted.
            raise InputError(f"{source}: column 'trump' holds {raw[bad][0]} in row "
                             f"{int(np.flatnonzero(bad)[0])}: a contract kind is 0..5 "
                             "(-1 passed out)")
        codes = raw.astype(np.int8)
        df["trump"] = pd.Categorical.from_codes(codes, categories=TRUMP_CATEGORIES)
    return df


def read_results(path: str | os.PathLike[str], columns: list[str] | None = None,
                 dd: bool = False) -> pd.DataFrame:
    """Read a results file written by :func:`simcoinche.runs.simulation.simulate`, or a dataset
    directory written by ``simcoinche simulate --engine dask``, as one table.

    A run of ``simcoinche parties`` (:mod:`simcoinche.runs.partie`) reads the same way: one
    row per partie, in partie order (columns :data:`simcoinche.runs.results.PARTIE_COLUMNS`).

    Parameters
    ----------
    path : path-like
        The Parquet file, or the dataset directory (its ``manifest.json`` lists the parts).
    columns : list of str, optional
        Columns to read (all by default); names from :data:`COLUMNS` (or the parties
        columns for a parties run). Only these columns are read from disk.
    dd : bool
        Add the double-dummy view of each played contract of a ``simulate --dd`` run
        (:func:`simcoinche.runs.dd_columns.dd_view`, with the run's profile):
        ``dd_points_takers`` (the takers' DD card points for the contract's kind),
        ``dd_made`` (made under DD play by the profile's success test) and
        ``dd_points_lost`` (DD card points minus the card points the takers made).

    Returns
    -------
    pandas.DataFrame
        One row per donne, in donne order; ``trump`` as a categorical (``S H D C SA TA``).

    Raises
    ------
    InputError
        Unknown column, a file that cannot be read (a page whose checksum fails), or an
        incomplete dataset directory or one whose parts changed since the run; rows that
        are not the run's (:func:`_check_rows`: their count, order, types, missing values
        and ranges), or a column every run writes missing (:func:`_check_columns`); a
        Parquet file without simcoinche metadata and with none of the results columns
        (another program's; a run filtered and saved by pandas reads as it is); ``dd`` on
        a run written without ``--dd``; a ``dd`` that is not True or False.
    """
    dd = check_flag(dd, "dd")
    columns = _column_names(columns)
    if dd:
        import pandas as pd

        from simcoinche.runs.dd_columns import VIEW_COLUMNS, dd_columns, dd_view

        meta = read_metadata(path)
        if not meta.get("dd"):
            raise InputError(f"{os.fspath(path)!r} was written without --dd: no "
                             "double-dummy columns")
        profile = profile_of_run(meta)
        need = None
        if columns is not None:
            need = list(dict.fromkeys([
                *columns, "passed_out", "taker", "dealer", "bid_level", "trump",
                "card_points_t0", "card_points_t1", "hand_0", "hand_1", "hand_2",
                "hand_3", *dd_columns(profile)]))
        df = read_results(path, need)
        view = dd_view(df, profile)
        if columns is not None:
            df = df[list(columns)]
        return pd.concat([df, view[list(VIEW_COLUMNS)]], axis=1)
    return tidy(read_table(path, columns).to_pandas(), f"results {os.fspath(path)!r}")


#: Values a column of a run may hold (inclusive ranges; for a parties run, its per-donne
#: lists' elements): a value outside would put rows on the wrong team or in a wrong
#: table without a word.
_VALUE_RANGES = {"dealer": (0, 3), "taker": (-1, 3), "winner": (-1, 1), "trump": (-1, 5),
                 "tricks_t0": (0, 8), "tricks_t1": (0, 8)}
#: Columns whose values are a few, not a range: the contract's multiplier (RULES.md: 1,
#: coinched 2, surcoinched 4; 0 on a passed-out donne).
_VALUE_SETS = {"coinche": (0, 1, 2, 4)}


def _row_columns(kind: Any) -> tuple[Column, ...] | None:
    """The columns a run of ``kind`` writes (None: a kind of its own, checked by its own
    reader)."""
    if kind is None:
        return COLUMNS
    if kind == PARTIES_KIND:
        return PARTIE_COLUMNS
    return None


def _check_rows(table: pa.Table, meta: dict[str, Any] | None, source: str) -> None:
    """What a table read from a run must be before any analysis trusts it: as many rows
    as the run wrote, in its order (a run of donnes: donne 0, 1, …), each column of its
    schema type and without missing values (nor missing lists), and the columns that
    index seats, teams, kinds and contracts within their values. A file rewritten by
    another program, rows duplicated or cut, would otherwise give wrong tables, or a
    traceback deep in pandas. ``meta``: the run's metadata; None for a Parquet file not
    written by a run (a run filtered and saved by pandas), read as it is."""
    import pyarrow.compute as pc  # here: a run to a file never reads its rows back

    if meta is None:
        # A Parquet file saved by another program (a run filtered and saved by pandas,
        # its kinds as categories): read as it is, as before these checks.
        return
    n = meta.get("n")
    if isinstance(n, int) and table.num_rows != n:
        raise InputError(f"{source} holds {table.num_rows} rows; its run wrote {n}: the "
                         "file was changed since")
    columns = _row_columns(meta.get("kind"))
    if columns is None:
        return
    by_name = {c.name: c for c in columns}
    for name in table.column_names:
        column = by_name.get(name)
        if column is None:
            continue
        typ = table.schema.field(name).type
        if typ != column.type:
            raise InputError(f"{source}: column {name!r} is {typ}, a simcoinche run writes "
                             f"{column.type}")
        values = table.column(name)
        if pa.types.is_list(typ):
            if values.null_count:
                raise InputError(f"{source}: column {name!r} has {values.null_count} "
                                 "missing lists; a simcoinche run writes none")
            values = pc.list_flatten(values)
        if values.null_count:
            raise InputError(f"{source}: column {name!r} has {values.null_count} missing "
                             "values; a simcoinche run writes none")
        if name in _VALUE_SETS and len(values):
            allowed = pa.array(_VALUE_SETS[name], values.type)
            other = pc.filter(values, pc.invert(pc.is_in(values, value_set=allowed)))
            if len(other):
                raise InputError(f"{source}: column {name!r} holds {other[0].as_py()}, not "
                                 f"one of {', '.join(map(str, _VALUE_SETS[name]))}")
        if name in _VALUE_RANGES and len(values):
            low, high = _VALUE_RANGES[name]
            bounds = pc.min_max(values)
            lo, hi = bounds["min"].as_py(), bounds["max"].as_py()
            if lo < low or hi > high:
                raise InputError(f"{source}: column {name!r} holds "
                                 f"{lo if lo < low else hi}, outside {low}..{high}")
    _check_contracts(table, meta, source)
    order = "partie" if meta.get("kind") == PARTIES_KIND else "donne"
    if order in table.column_names:
        start = 0
        for chunk in table.column(order).chunks:
            index = chunk.to_numpy()
            if len(index) and (index[0] != start or (np.diff(index) != 1).any()):
                raise InputError(f"{source}: column {order!r} is not {order} 0, 1, … "
                                 f"{table.num_rows - 1} in order: rows were moved, "
                                 "repeated or replaced since the run")
            start += len(index)


def _check_contracts(table: pa.Table, meta: dict[str, Any], source: str) -> None:
    """The contract columns that are read agree with each other and with the run's
    profile: a donne is passed out exactly when it has no taker, no trump, no level, no
    value and no multiplier (coinche 0); a played one's trump is a kind of the profile,
    its multiplier one the profile plays (4 only with surcoinche) and its value the value
    of its level
    (a bid value of 999 read from a changed file would otherwise enter every table by
    value). Parties' per-donne lists are checked element by element."""
    import pyarrow.compute as pc

    def flat(name: str) -> np.ndarray | None:
        if name not in table.column_names:
            return None
        values = table.column(name)
        if pa.types.is_list(values.type):
            values = pc.list_flatten(values)
        return np.asarray(values.to_numpy(zero_copy_only=False))

    def refuse(name: str, values: np.ndarray, bad: np.ndarray, why: str) -> None:
        if bad.any():
            raise InputError(f"{source}: column {name!r} holds {values[bad][0]}{why}")

    try:
        profile = profile_of_run(meta)
    except InputError:
        profile = None  # a profile this version does not know: its rules are not checked
    passed = flat("passed_out")
    taker = flat("taker")
    level = flat("bid_level")
    value = flat("bid_value")
    trump = flat("trump")
    coinche = flat("coinche")
    if taker is not None:
        no_taker = taker < 0
        if passed is not None:
            refuse("passed_out", passed, passed != no_taker,
                   " on a donne whose taker says otherwise (-1: passed out)")
        for name, col in (("bid_level", level), ("trump", trump)):
            if col is not None:
                refuse(name, col, (col < 0) != no_taker,
                       " on a donne whose taker says otherwise (-1 exactly when passed "
                       "out)")
        for name, col in (("bid_value", value), ("coinche", coinche)):
            if col is not None:
                refuse(name, col, (col == 0) != no_taker,
                       " on a donne whose taker says otherwise (0 exactly when passed out)")
    if profile is None:
        return
    # A run that names its profile without its fields: a profile built by hand before runs
    # recorded them reads as its shipped namesake, which the message says may be why.
    unsure = "" if "profile_fields" in meta else (
        f" (if the run was made under a profile built by hand before runs recorded its "
        f"fields, it reads as the shipped {profile.name!r})")
    ladder = np.array([0, *(profile.level_value(i) for i in range(profile.n_levels))])
    if level is not None:
        refuse("bid_level", level, (level < -1) | (level >= profile.n_levels),
               f", outside -1..{profile.n_levels - 1} (the levels of profile "
               f"{profile.name!r}){unsure}")
        if value is not None:
            refuse("bid_value", value, value != ladder[level + 1],
                   f", not its level's value in profile {profile.name!r}{unsure}")
    elif value is not None:
        # (No level read: a parties run, or bid_value asked alone.)
        refuse("bid_value", value, ~np.isin(value, ladder),
               f", not a contract value of profile {profile.name!r}{unsure}")
    if trump is not None:
        refuse("trump", trump, (trump >= 0) & ~np.isin(trump, profile.contract_kinds),
               f", not a contract kind of profile {profile.name!r}{unsure}")
    if coinche is not None and not profile.allow_surcoinche:
        refuse("coinche", coinche, coinche == 4,
               f" (surcoinched), which profile {profile.name!r} does not play{unsure}")


def _run_metadata(path: str | os.PathLike[str]
                  ) -> tuple[dict[str, Any] | None, set[str] | None]:
    """The run metadata of a results file or dataset (:func:`read_metadata`), or None for
    a Parquet file without any (written by another program); and a file's column names,
    from the same footer (None for a dataset, whose parts are checked first)."""
    if Path(path).is_dir():
        return read_metadata(path), None
    try:
        schema = pq.read_schema(path)
    except (OSError, pa.ArrowException):
        return read_metadata(path), None  # (which says why, in one line)
    md = schema.metadata or {}
    return (_file_metadata(md, path) if METADATA_KEY in md else None), set(schema.names)


def _written_by_every_run(meta: dict[str, Any] | None) -> set[str]:
    """The columns every run of the metadata's kind writes (``--record-play``'s and
    ``--dd``'s aside); none for a file without run metadata or a kind of its own."""
    columns = None if meta is None else _row_columns(meta.get("kind"))
    return set() if columns is None else {c.name for c in columns
                                          if not c.record_only and c.dd_kind < 0}


def _check_columns(where: str, meta: dict[str, Any] | None, available: set[str],
                   columns: list[str] | None) -> None:
    """The columns asked (``columns``; None: all) can be read from a file holding
    ``available``: a column every run of its kind writes is there (else the file was
    changed since its run), a column asked is one of the file's (else it says why it is
    not), and a file without run metadata holds at least one results column (else it is
    another program's file, not a run read as it is)."""
    always = _written_by_every_run(meta)
    results_columns = set(_COLUMN_BY_NAME) | {c.name for c in PARTIE_COLUMNS}
    if meta is None and not available & results_columns:
        shown = ", ".join(sorted(available)[:5]) + (", …" if len(available) > 5 else "")
        raise InputError(f"{where!r} is not a simcoinche run: it has no simcoinche metadata "
                         f"and none of its columns ({shown}) is a results column")
    missing = sorted((always if columns is None else always & set(columns)) - available)
    if missing:
        raise InputError(f"column {missing[0]!r} is missing from {where!r}: the file was "
                         "changed since its run wrote it")
    for name in columns or ():
        if name in available:
            continue
        if name in _COLUMN_BY_NAME and _COLUMN_BY_NAME[name].record_only:
            raise InputError(f"column {name!r} is not in {where!r} (written without "
                             "--record-play)")
        if name in DD_COLUMN_NAMES:
            raise InputError(f"column {name!r} is not in {where!r} (written without --dd)")
        raise InputError(f"unknown column {name!r} in {where!r}; see "
                         "simcoinche.runs.results.COLUMNS (donnes) or "
                         "simcoinche.runs.results.PARTIE_COLUMNS (parties)")


def read_table(path: str | os.PathLike[str], columns: list[str] | None = None
               ) -> pa.Table:
    """:func:`read_results` as an Arrow table (no pandas conversion, nothing tidied):
    the parties layer flattens its per-donne list columns from it. The rows are checked
    against their run (:func:`_check_rows`)."""
    _results_path(path)
    columns = _column_names(columns)
    meta, available = _run_metadata(path)
    try:
        files = ([os.fspath(f) for f in dataset_files(path)] if Path(path).is_dir()
                 else [os.fspath(path)])
        if available is None:
            available = set(pq.read_schema(files[0]).names)
        _check_columns(os.fspath(path), meta, available, columns)
        if Path(path).is_dir():
            import pyarrow.dataset as pads  # here: it imports pandas, which a run does not need

            # Every page's checksum verified (writer_options writes them): a changed
            # byte is an error, not another table. Files without checksums read as before.
            verified = pads.ParquetFileFormat(
                default_fragment_scan_options=pads.ParquetFragmentScanOptions(
                    page_checksum_verification=True))
            table = pads.dataset(files, format=verified).to_table(columns=columns)
        else:
            table = pq.read_table(path, columns=columns, page_checksum_verification=True)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read results {os.fspath(path)!r}: "
                         f"{str(exc).splitlines()[0]}") from None
    _check_rows(table, meta, f"results {os.fspath(path)!r}")
    return table
