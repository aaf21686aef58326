"""The checks every run facade applies to its arguments: sizes, seeds, threads.

Kept apart from :mod:`.simulation` (pandas, pyarrow) so that a command needing only them
(``simcoinche dd``) starts without loading the simulation facade.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simcoinche.rules.errors import InputError

_MAX_SEED = (1 << 64) - 1


#: The largest count a run accepts (donnes, deals, parties, samples, threads…): row
#: numbers and counters are int64 in the kernels and the Parquet files.
MAX_COUNT = (1 << 62) - 1


def positive_int(value: Any, what: str) -> int:
    """``value`` as an ``int`` if it is a positive integer up to :data:`MAX_COUNT`, else
    InputError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{what} must be a positive integer, got {value!r}")
    if value <= 0:
        raise InputError(f"{what} must be a positive integer, got {value}")
    if value > MAX_COUNT:
        raise InputError(f"{what} must be at most 2**62 - 1, got {value}")
    return int(value)


def output_path(out: Any, what: str = "output", opened_by_pyarrow: bool = True) -> Path:
    """``out`` as a :class:`~pathlib.Path`, if it is a usable path: a ``str`` or
    ``os.PathLike`` (not bytes), not empty, without a null character, and valid UTF-8
    where pyarrow opens it (``opened_by_pyarrow``: a name with bytes that are not UTF-8,
    legal on Linux, fails inside pyarrow) (InputError naming ``what`` otherwise). What must or
    must not exist there is the caller's to check."""
    if isinstance(out, bytes) or not isinstance(out, (str, os.PathLike)):
        raise InputError(f"{what} must be a path (str or os.PathLike), got {out!r}")
    text = os.fspath(out)
    if text == "":
        raise InputError(f"{what} path is empty")
    if "\0" in text:
        raise InputError(f"{what} {text!r} contains a null character")
    if opened_by_pyarrow:
        check_utf8_path(text, what)
    return Path(out)


def check_utf8_path(text: str, what: str) -> None:
    """InputError when the path ``text`` holds bytes that are not UTF-8 (Python keeps them
    as surrogates, which pyarrow cannot encode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} {text!r} is not valid UTF-8, which pyarrow needs: "
                         "rename it") from None


def check_flag(value: Any, what: str) -> bool:
    """``value`` as a ``bool`` if it is True or False (numpy's too), else InputError naming
    ``what``: a string such as ``"no"`` is not taken for True (``overwrite="no"`` would
    replace a file)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError(f"{what} must be True or False, got {value!r}")
    return bool(value)


def check_overwrite(overwrite: Any, out: Any, name: str = "out") -> bool:
    """``overwrite`` as a flag (:func:`check_flag`); True without an output (``out`` None,
    the rows returned in memory) is refused: it would replace nothing, and most likely an
    output was forgotten. ``name`` is how the caller's users give the output."""
    if check_flag(overwrite, "overwrite") and out is None:
        raise InputError(f"overwrite is for an output file ({name})")
    return bool(overwrite)


def refuse_unknown_keywords(kwargs: Any, known: Any, function: str) -> None:
    """InputError naming the first keyword of ``kwargs`` that ``function`` does not take
    (``known``), and those it takes: a misspelt option is refused, not dropped."""
    unknown = sorted(set(kwargs) - set(known))
    if unknown:
        raise InputError(f"unknown argument {unknown[0]!r} of {function}; known: "
                         + ", ".join(sorted(known)))


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 (``"1 part"``, ``"1,000 parts"``)."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def check_optional_flag(value: Any, what: str) -> bool | None:
    """As :func:`check_flag`, None also allowed (an automatic choice)."""
    return None if value is None else check_flag(value, what)


def physical_memory() -> int | None:
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def check_fits_in_memory(n_bytes: int, what: str, hint: str) -> None:
    """InputError when keeping ``n_bytes`` in memory is more than the machine has: such a
    run could only fail, after hours, when memory runs out.

    Parameters
    ----------
    n_bytes : int
        The estimated size of what the run keeps.
    what : str
        What is kept, for the message (e.g. ``"1,000,000,000,000 donnes"``).
    hint : str
        How to do without (e.g. ``"write them to a file (out=...)"``).

    Raises
    ------
    InputError
        When ``n_bytes`` exceeds the physical memory.
    """
    total = physical_memory()
    if total is not None and n_bytes > total:
        raise InputError(f"{what} kept in memory need about {n_bytes / 2**30:,.0f} GiB, more "
                         f"than this machine's {total / 2**30:,.0f} GiB: {hint}")


def samples_within_draws(samples: int, max_draws: int) -> None:
    """Check that the deals asked for can be drawn: every sample is a drawn deal, so a
    run asking more could only fail, after drawing them all.

    Parameters
    ----------
    samples : int
        Deals to keep.
    max_draws : int
        The most deals the run may draw.

    Raises
    ------
    InputError
        When ``samples`` exceeds ``max_draws``.
    """
    if samples > max_draws:
        raise InputError(f"samples ({samples:,}) must be at most max_draws "
                         f"({max_draws:,}): every sample is a drawn deal")


def check_seed(seed: Any) -> int:
    """A run seed: an integer in ``0 .. 2**64-1`` (InputError otherwise)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= int(seed) <= _MAX_SEED:
        raise InputError(f"seed must be an integer in 0..2**64-1, got {seed!r}")
    return int(seed)


def check_threads(threads: Any) -> int:
    """Worker threads: all cores when ``None``, else 1 .. the cores numba may use."""
    max_threads = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return max_threads
    threads = positive_int(threads, "threads")
    if threads > max_threads:
        limit = ("NUMBA_NUM_THREADS" if os.environ.get("NUMBA_NUM_THREADS", "").strip()
                 else "this machine")
        raise InputError(f"threads must be at most {max_threads} ({limit}), got {threads}")
    return threads
