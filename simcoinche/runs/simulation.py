"""Batch simulation facade: validate, seed, run the kernels in chunks, stream to Parquet.

``simulate(n, seed=0, profile="federal", players="heuristic", out=None)`` simulates the
donnes ``0 .. n-1`` of the run keyed by ``seed`` (see :mod:`simcoinche._kernels.rng`):
donne ``i`` is the same whatever the thread count or chunk size. With ``out=None`` it
returns a DataFrame; with a path it streams one Parquet row group per chunk into
``PATH.partial``, renames it to ``PATH`` on success (removes it on any error or
interrupt) and returns a :class:`RunSummary`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simcoinche._kernels.batch import BLOCK, run_batch
from simcoinche._kernels.donne import (
    MAX_ACTIONS,
    N_OUT,
    O_DEALER,
    O_HAND,
    O_MADE,
    O_MARKS,
    O_PASSED,
    O_TAKER,
    O_VALUE,
    Outputs,
    Players,
)
from simcoinche._kernels.kinds import kinds_of
from simcoinche._kernels.players import PLAYER_PIMC, PM_BID_WORLDS
from simcoinche._kernels.rng import seed_key
from simcoinche._kernels.thinking import think_block
from simcoinche._version import RULES_VERSION, __version__
from simcoinche.players.faults import check_faults
from simcoinche.players.registry import (
    PlayerKind,
    named_params,
    param_array,
    params_dict,
    parse_team_specs,
)
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, describe_profile, get_profile, profile_metadata
from simcoinche.runs.arguments import (
    check_fits_in_memory,
    check_flag,
    check_optional_flag,
    check_overwrite,
    check_seed,
    check_threads,
    counted,
    output_path,
    positive_int,
    refuse_unknown_keywords,
)
from simcoinche.runs.blocks import share_blocks
from simcoinche.runs.compiling import (
    PIMC_CARD_PLAY,
    PIMC_COMPILE_S,
    SIMULATE_COMPILE_S,
    THINK_BID_COMPILE_S,
    prepare_kernels,
)
from simcoinche.runs.progress import progress_bar
from simcoinche.runs.results import chunk_table, schema, tidy

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_CHUNK = 1 << 18
#: Donnes per chunk by default when a team is a PIMC player.
THINK_CHUNK = 64
GENERATOR = "splitmix64-counter/1"
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 1


@dataclass
class RunInfo:
    """What every run's summary starts with: its size, time, threads, players, profile,
    seed and output path (the statistics follow in the subclass)."""

    n: int
    seconds: float
    threads: int
    players: tuple[str, str]
    profile: str
    seed: int
    path: str | None = None
    #: The profile as the summary's text says it (:func:`.profiles.describe_profile`: a
    #: hand-built one with what it changes); ``profile`` stays its name.
    profile_text: str = ""

    @property
    def profile_label(self) -> str:
        """The profile for the summary's text."""
        return self.profile_text or self.profile

    @property
    def threads_text(self) -> str:
        """``"1 thread"``, ``"2 threads"``: the summaries' wording."""
        return counted(self.threads, "thread")


@dataclass
class RunSummary(RunInfo):
    """What a run did: where, how fast, and the headline statistics."""

    passed_out: int = 0
    # bid value → [contracts, made]
    by_value: dict[int, list[int]] = field(default_factory=dict)
    marks_team: list[int] = field(default_factory=lambda: [0, 0])
    marks_takers: int = 0
    marks_defence: int = 0

    @property
    def donnes_per_second(self) -> float:
        """Throughput of the run, end to end."""
        return self.n / self.seconds if self.seconds > 0 else float("inf")

    @property
    def passed_out_share(self) -> float:
        """Share of passed-out donnes."""
        return self.passed_out / self.n

    def success_rate(self) -> dict[int, tuple[int, float]]:
        """Contract value → (contracts, share made)."""
        return {v: (c, m / c) for v, (c, m) in sorted(self.by_value.items()) if c}

    def add_chunk(self, out: np.ndarray) -> None:
        """Accumulate the statistics of one chunk of kernel output (``int32[N_OUT, k]``)."""
        passed = out[O_PASSED] != 0
        self.passed_out += int(np.count_nonzero(passed))
        played = ~passed
        # Contract values are small non-negative integers: counted with bincount (a
        # passed-out row has value 0 and is left out by its weight).
        values = out[O_VALUE]
        counts = np.bincount(values, weights=played, minlength=1)
        made_counts = np.bincount(values, weights=played & (out[O_MADE] != 0), minlength=1)
        for v in np.flatnonzero(counts).tolist():
            slot = self.by_value.setdefault(int(v), [0, 0])
            slot[0] += int(counts[v])
            slot[1] += int(made_counts[v])
        m0 = out[O_MARKS]
        m1 = out[O_MARKS + 1]
        s0 = int(m0.sum(dtype=np.int64))
        s1 = int(m1.sum(dtype=np.int64))
        self.marks_team[0] += s0
        self.marks_team[1] += s1
        # Passed-out rows score 0 for both teams: the takers' marks are team 1's where the
        # taker is in team 1 (odd seat), else team 0's.
        taker_team1 = (out[O_TAKER] & 1) == 1
        t1 = int(m1.sum(where=taker_team1 & played, dtype=np.int64))
        t0 = int(m0.sum(where=~taker_team1 & played, dtype=np.int64))
        self.marks_takers += t0 + t1
        self.marks_defence += s0 + s1 - t0 - t1

    def text(self) -> str:
        """Short human summary (a few lines)."""
        lines = []
        if self.path:
            lines.append(f"wrote {self.path}")
        lines.append(f"{counted(self.n, 'donne')} in {self.seconds:.2f} s: "
                     f"{self.donnes_per_second:,.0f} donnes/s ({self.threads_text}; "
                     f"profile {self.profile_label}; players {self.players[0]},"
                     f"{self.players[1]}; "
                     f"seed {self.seed})")
        lines.append(f"passed out: {100 * self.passed_out_share:.1f} %")
        parts = [f"{v}: {c:,} ({100 * r:.1f} % made)" for v, (c, r) in
                 self.success_rate().items()]
        if parts:
            lines.append("contracts by value: " + "; ".join(parts))
        lines.append(f"average marks per donne: team 0 {self.marks_team[0] / self.n:.1f}, "
                     f"team 1 {self.marks_team[1] / self.n:.1f}; takers "
                     f"{self.marks_takers / self.n:.1f}, defence "
                     f"{self.marks_defence / self.n:.1f}")
        return "\n".join(lines)


def new_summary(plan: Any, n: int, threads: int, path: str | None = None,
                summary_type: type | None = None, **fields: Any) -> Any:
    """The empty summary of a run of ``plan`` (its ``summary_type`` unless one is given):
    ``n`` donnes or parties on ``threads`` threads, written to ``path``; the players, the
    profile's name and text (:func:`.profiles.describe_profile`) and the seed from the
    plan, any further field from ``fields``."""
    return (summary_type or plan.summary_type)(
        n, 0.0, threads, plan.players, plan.profile.name, plan.seed, path,
        profile_text=describe_profile(plan.profile), **fields)


def default_out(profile: str, seed: int, n: int) -> Path:
    """Default results path ``runs/simcoinche-<profile>-s<seed>-n<n>.parquet``."""
    return Path("runs") / f"simcoinche-{profile}-s{seed}-n{n}.parquet"


def team_players(players: Any, params: Sequence[Mapping[str, float] | None] | None,
                 profile: Profile
                 ) -> tuple[tuple[PlayerKind, PlayerKind], np.ndarray, np.ndarray]:
    """Player kinds per team, their codes (``int32[2]``) and parameter rows
    (``float64[2, PARAM_LEN]``): the parameters a spec carries (``"pimc:worlds=16"``), then
    the ``params`` overrides (a pair of mappings); the data-fitted bidders' rows carry
    ``profile``'s tables."""
    specs = parse_team_specs(players)
    kinds = (specs[0][0], specs[1][0])
    if params is None:
        params = (None, None)
    if isinstance(params, (Mapping, str)) or not isinstance(params, Sequence) \
            or len(params) != 2 or any(p is not None and not isinstance(p, Mapping)
                                       for p in params):
        raise InputError("params must be a pair (team 0, team 1) of name→value mappings "
                         f"(or None), got {params!r}")
    for t in range(2):
        twice = sorted(set(specs[t][1]) & set(params[t] or {}))
        if twice:
            raise InputError(f"team {t}: parameter {twice[0]!r} given both in the player "
                             "spec and in params")
    rows = np.stack([param_array(kinds[t], {**specs[t][1], **(params[t] or {})},
                                 profile=profile) for t in range(2)])
    return kinds, np.array([kinds[0].code, kinds[1].code], dtype=np.int32), rows


def thinking_teams(codes: np.ndarray, rows: np.ndarray) -> list[int]:
    """The teams (0, 1) whose player thinks at the auction: a PIMC player (``codes``,
    ``int32[2]``) whose ``bid_worlds`` (in its parameter row of ``rows``) is positive."""
    return [team for team, code in enumerate(np.asarray(codes).tolist())
            if code == PLAYER_PIMC and rows[team, PM_BID_WORLDS] > 0]


def think_arg(codes: np.ndarray,
              bid_params: np.ndarray | None = None) -> np.int64 | tuple[np.int64, bool] | None:
    """The donne kernels' ``think`` argument, the think spec of
    :mod:`simcoinche._kernels.thinking`, for the team codes ``codes``.

    None unless a team is a PIMC player; then the log2 ``L`` of its per-thread solver
    table, or the pair ``(L, True)`` when such a team thinks at the auction (its
    ``bid_worlds``, read in ``bid_params``, the teams' parameter rows, is positive): only
    then are the thinking bidder's kernels compiled in. ``bid_params`` None: a run that
    plays given contracts, with no auction (``odds``, ``advise``).
    """
    team_codes = np.asarray(codes).tolist()
    if PLAYER_PIMC not in team_codes:
        return None
    # Not from .pimc: importing the solver compiles its search (it has a signature),
    # which a first run leaves to its compile helper (pimc_scratch's docstring).
    from simcoinche._kernels.pimc_scratch import PIMC_TT_LOG2

    log2 = np.int64(PIMC_TT_LOG2)
    if bid_params is not None and thinking_teams(team_codes, bid_params):
        return log2, True
    return log2


def warm_pimc_card(profile: str = "federal") -> None:
    """Compile (or load) the PIMC player's card decision, :func:`simcoinche._kernels.pimc.
    pimc_card` (the double-dummy solver within), with the argument types the card play
    of a run passes it: one decision, :func:`pimc_lead_arguments`.

    A cold ``simulate`` whose PIMC players think at the card play only has its compile
    helper call this (:data:`simcoinche.commands.warmup.BESIDE`) while it compiles its
    auction, so that its card play finds the decision in the cache.

    Parameters
    ----------
    profile : str
        The rule profile of the decision (its packed array is an argument; its values
        are not part of the compiled types).
    """
    from simcoinche._kernels.pimc import pimc_card

    pimc_card(*pimc_lead_arguments(profile))


def pimc_lead_arguments(profile: str = "federal") -> tuple[Any, ...]:
    """The arguments of :func:`simcoinche._kernels.pimc.pimc_card` for one decision, with
    the types a run's card play passes: the opening lead of an 80 hearts contract by a
    PIMC player with 2 worlds (seat 0, dealer 3), holding ``JH 9H AH TH KS 7C 8D AD``.

    Parameters
    ----------
    profile : str
        The rule profile (its packed array is the ``prof`` argument).

    Returns
    -------
    tuple
        ``(think, hand, legal, trick, n, info, params, row, prof, st)`` as ``pimc_card``
        takes them.
    """
    from simcoinche._kernels.donne import start_play_info
    from simcoinche._kernels.pimc_scratch import PIMC_TT_LOG2, new_think
    from simcoinche._kernels.players import I_LEADER, I_SEAT, INFO_LEN
    from simcoinche._kernels.rng import RNG_STATE_LEN, STREAM_PLAYERS, rng_seed
    from simcoinche.rules.cards import CONTRACT_KIND_NAMES, parse_hand

    prof = get_profile(profile)
    _, _, params = team_players("pimc:worlds=2,heuristic", None, prof)
    hand = np.uint32(parse_hand("JH 9H AH TH KS 7C 8D AD"))
    # Seat 0 leads the first trick of its own 80 hearts (ladder level 0), not coinched, no
    # announcement, as play_phase fills the public information then.
    info = np.zeros(INFO_LEN, dtype=np.int64)
    start_play_info(info, np.int64(3), np.int64(0), np.int64(CONTRACT_KIND_NAMES.index("H")),
                    np.int64(0), np.int64(1), np.int64(-1), prof.packed)
    info[I_SEAT] = 0
    info[I_LEADER] = 0
    st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    rng_seed(st, np.uint64(seed_key(np.uint64(0))), STREAM_PLAYERS)
    # Every card of the hand may lead the first trick: legal = hand.
    return (new_think(np.int64(PIMC_TT_LOG2)), hand, hand, np.zeros(4, dtype=np.int32),
            np.int64(0), info, params, np.int64(0), prof.packed, st)


def _check_out(out: str | os.PathLike[str], overwrite: bool, default: bool) -> Path:
    """The output file ``out``, checked before any work: not a directory, not something
    the final rename would replace without writing to it (a symbolic link, even a broken
    one, a device, a pipe), not a name ending in a slash (a folder meant: ``Path`` drops
    the slash and a file of that name was written), not an existing file unless
    ``overwrite``, in a writable directory (created when ``default``: the default
    output's folder)."""
    overwrite = check_flag(overwrite, "overwrite")
    path = output_path(out)
    if os.fspath(out).endswith(("/", os.sep)):
        raise InputError(f"output {os.fspath(out)!r} ends with a slash: give a file name "
                         "(the output is one Parquet file)")
    if len(path.name.encode()) > 250:
        raise InputError(f"output file name is too long ({len(path.name.encode())} bytes; "
                         "at most 250 with its .partial)")
    if path.is_symlink():
        raise InputError(f"output {str(path)!r} is a symbolic link; give the file it "
                         "points to")
    if path.is_dir():
        raise InputError(f"output {str(path)!r} is a directory")
    if path.exists() and not path.is_file():
        raise InputError(f"output {str(path)!r} is not a regular file")
    partial = path.with_name(path.name + ".partial")
    if partial.is_symlink() or (partial.exists() and not partial.is_file()):
        # (The run writes there first: through a link, into another file.)
        raise InputError(f"{str(partial)!r} (where the run writes first) is not a regular "
                         "file")
    if path.exists() and not overwrite:
        raise InputError(f"output {str(path)!r} exists; use --overwrite to replace it")
    parent = path.parent
    if parent.exists() and not parent.is_dir():
        raise InputError(f"cannot write {str(path)!r}: {str(parent)!r} is not a directory")
    if not parent.exists():
        if not default:
            raise InputError(f"cannot write {str(path)!r}: directory {str(parent)!r} "
                             "does not exist")
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create {str(parent)!r}: {exc.strerror}") from None
    if not os.access(parent, os.W_OK):
        raise InputError(f"cannot write {str(path)!r}: directory not writable")
    return path


@dataclass
class _RunPlan:
    """What every run validates first: size, seed, profile, players (kinds, codes,
    parameter rows), threads and chunk (:func:`_run_plan`)."""

    n: int
    seed: int
    profile: Profile
    players: tuple[str, str]
    codes: np.ndarray
    params: np.ndarray
    threads: int
    chunk: int
    #: The kernels' name in the first-run message (see :func:`kernels`).
    what: ClassVar[str] = "simulation"

    def kernels(self) -> list[Any]:
        """The kernels whose cache state tells a first run (:func:`prepare_kernels`): the
        top-level kernel a chunk calls and, with PIMC players, their scratch allocation,
        which stands for their kernels (compiled only with them) and is importable
        without compiling the solver (:mod:`simcoinche._kernels.pimc_scratch`), which
        the compile helper of a first run then compiles while this process compiles its
        auction."""
        if self.think is not None:
            # (A first run stopped between the scratch's compile and the end leaves it
            # cached: the next run, if run_batch is cached for other players, compiles
            # the rest without a helper, announced when run_batch compiles.)
            from simcoinche._kernels.pimc_scratch import new_think

            return [run_batch, new_think]
        return [run_batch]

    @property
    def think(self) -> np.int64 | tuple[np.int64, bool] | None:
        """The kernels' ``think`` argument (:func:`think_arg`)."""
        return think_arg(self.codes, self.params)

    @property
    def compile_estimate_s(self) -> float:
        """The first run's announced compile time: with a PIMC seat, the card play
        compiles the double-dummy solver and the PIMC player too, and with a thinking
        bidder the auction compiles that bidder and a card play of its own."""
        think = self.think
        if think is None:
            return SIMULATE_COMPILE_S
        return THINK_BID_COMPILE_S if isinstance(think, tuple) else PIMC_COMPILE_S

    @property
    def compile_helper(self) -> str | None:
        """What the compile helper is told (:func:`prepare_kernels`; None: :attr:`what`).

        A simulation (``simulate``, ``match`` between our players) whose PIMC players
        think at the card play only has the helper decide a PIMC card (the solver and
        the PIMC decision, a third of its compile) while it compiles its auction. Other
        runs keep the job of their :attr:`what` (parties: the equity first); with a
        thinking bidder, whose scratch types the card play, the same as without PIMC
        players."""
        if self.what == "simulation" and isinstance(self.think, np.integer):
            return PIMC_CARD_PLAY
        return None

    def base_metadata(self) -> dict[str, Any]:
        """The metadata every run stores (the subclass adds its own)."""
        return {
            "seed": self.seed,
            "n": self.n,
            **profile_metadata(self.profile),
            "players": list(self.players),
            "params": [params_dict(self.players[t], self.params[t]) for t in range(2)],
            "param_arrays": [named_params(self.params[t]).tolist() for t in range(2)],
            "version": __version__,
            "rules_version": RULES_VERSION,
            "generator": GENERATOR,
            "chunk_size": self.chunk,
        }


def _run_plan(n: Any, seed: Any, profile: Any, players: Any, threads: Any,
              chunk_size: Any, params: Sequence[Mapping[str, float] | None] | None,
              default_chunk: int = DEFAULT_CHUNK) -> dict[str, Any]:
    """The validated fields of a :class:`_RunPlan` (InputError naming any bad one)."""
    n = positive_int(n, "n")
    seed = check_seed(seed)
    prof = get_profile(profile)
    kinds, codes, rows = team_players(players, params, prof)
    threads = check_threads(threads)
    if PLAYER_PIMC in codes.tolist() and chunk_size is None:
        # A PIMC donne takes a fraction of a second: small chunks keep the progress moving.
        default_chunk = THINK_CHUNK
    chunk = positive_int(default_chunk if chunk_size is None else chunk_size, "chunk_size")
    return {"n": n, "seed": seed, "profile": prof,
            "players": (kinds[0].name, kinds[1].name), "codes": codes, "params": rows,
            "threads": threads, "chunk": min(chunk, n)}


@dataclass
class _Plan(_RunPlan):
    dealer: int
    record: bool
    dd: bool = False
    #: What one row is (progress bars, messages); the summary type of a run.
    unit: ClassVar[str] = "donnes"
    summary_type: ClassVar[type] = RunSummary

    @property
    def dd_kinds(self) -> tuple[int, ...]:
        """Contract kinds of the ``dd_*`` columns (none without ``--dd``)."""
        return self.profile.contract_kinds if self.dd else ()

    def buffers(self, size: int) -> _Buffers:
        """Kernel output arrays for chunks of up to ``size`` rows."""
        return _Buffers(size, self.record, self.dd)

    def kernels(self) -> list[Any]:
        """The top-level kernels a chunk calls (with ``--dd``, the DD solver too)."""
        if self.dd:
            from simcoinche._kernels.dd import solve_many

            return [run_batch, solve_many]
        return super().kernels()

    def schema(self, meta: dict[str, Any]) -> pa.Schema:
        """Arrow schema of the run's rows, with ``meta`` as its metadata."""
        return schema(self.record, meta, dd_kinds=self.dd_kinds)

    def metadata(self) -> dict[str, Any]:
        return {**self.base_metadata(),
                "dealer": "rotating" if self.dealer < 0 else self.dealer,
                "record_play": self.record,
                "dd": self.dd}


def _plan(n: Any, seed: Any, profile: Any, players: Any, threads: Any, chunk_size: Any,
          dealer: Any, record_play: bool,
          params: Sequence[Mapping[str, float] | None] | None, dd: bool = False) -> _Plan:
    fields = _run_plan(n, seed, profile, players, threads, chunk_size, params)
    if dealer is None:
        dealer = -1
    elif isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) \
            or not 0 <= dealer <= 3:
        raise InputError(f"dealer must be a seat 0..3, got {dealer!r}")
    return _Plan(**fields, dealer=int(dealer), record=check_flag(record_play, "record_play"),
                 dd=check_flag(dd, "dd"))


def run_donnes(key: np.uint64, start: int, k: int, dealer: int, codes: np.ndarray,
               params: np.ndarray, prof: np.ndarray, record: bool, out: np.ndarray,
               auc: np.ndarray, auc_len: np.ndarray, play: np.ndarray, think: Any,
               faults: np.ndarray) -> None:
    """:func:`.batch.run_batch` of donnes ``start .. start+k-1`` into ``out`` (and the
    record arrays), its blocks shared out to the threads (:func:`.blocks.share_blocks`).

    ``faults`` (``int32[k]``) receives each donne's replaced decisions (``F_*`` of
    :mod:`simcoinche._kernels.layout`); :func:`check_faults` turns them into an error.
    """
    players = Players(codes, params, kinds_of(codes))
    outs = Outputs(out, auc, auc_len, play, faults)

    def run(first: int, end: int) -> None:
        run_batch(key, np.int64(start), np.int64(k), np.int64(first), np.int64(end), dealer,
                  players, prof, record, outs, think)

    share_blocks(-(-k // think_block(think, BLOCK)), run)


class _Buffers:
    """Kernel output arrays for one chunk."""

    def __init__(self, size: int, record: bool, dd: bool = False) -> None:
        # One spare column: every chunk's view ``out[:, :k]`` is then non-contiguous, so
        # full and partial chunks share one compiled kernel signature (a contiguous full
        # chunk would otherwise compile run_batch a second time, about 15 s, mid-run).
        self.out = np.empty((N_OUT, size + 1), dtype=np.int32)
        if record:
            self.auc = np.zeros((size, MAX_ACTIONS), dtype=np.uint8)
            self.auc_len = np.zeros(size, dtype=np.int16)
            self.play = np.zeros((size, 32), dtype=np.uint8)
        else:
            self.auc = np.zeros((0, MAX_ACTIONS), dtype=np.uint8)
            self.auc_len = np.zeros(0, dtype=np.int16)
            self.play = np.zeros((0, 32), dtype=np.uint8)
        # --dd: team 0's DD card points per contract kind (row = kind).
        self.dd = np.zeros((6, size if dd else 0), dtype=np.int16)
        # The decisions replaced per donne (checked after every chunk, not written).
        self.faults = np.zeros(size, dtype=np.int32)

    def run(self, plan: _Plan, key: np.uint64, start: int, k: int,
            progress: Any = None) -> None:
        """Simulate donnes ``start .. start+k-1`` (then, with ``--dd``, solve their deals);
        ``progress(donnes)`` is called as the work advances.

        Raises
        ------
        IllegalDecisionError
            When a player's call or card had to be replaced in one of the donnes.
        """
        out = self.out[:, :k]
        faults = self.faults[:k]
        run_donnes(key, start, k, plan.dealer, plan.codes, plan.params, plan.profile.packed,
                   plan.record, out, self.auc, self.auc_len, self.play, plan.think, faults)
        check_faults(faults, plan.players, plan.profile, lambda j: f"donne {start + j}")
        if plan.dd:
            from simcoinche.runs.dd_columns import solve_kinds

            # The DD values depend only on the deal and the kind: solved after the donnes.
            hands = np.ascontiguousarray(out[O_HAND:O_HAND + 4].T).view(np.uint32)
            solve_kinds(hands, out[O_DEALER], plan.dd_kinds, plan.profile.packed,
                        self.dd[:, :k], progress)
        elif progress is not None:
            progress(k)

    def stats(self, k: int) -> np.ndarray:
        """What :meth:`RunSummary.add_chunk` takes for the last run of ``k`` rows."""
        return self.out[:, :k]

    def table(self, plan: _Plan, start: int, k: int, sch: pa.Schema) -> pa.Table:
        rec = plan.record
        return chunk_table(start, self.out[:, :k], self.auc if rec else None,
                           self.auc_len if rec else None, self.play if rec else None, sch,
                           self.dd[:, :k] if plan.dd else None)


def simulate(n: int, seed: int = 0, profile: str | Profile | None = "federal",
             players: str | Sequence[str] | None = "heuristic",
             out: str | os.PathLike[str] | None = None, *, threads: int | None = None,
             record_play: bool = False, overwrite: bool = False,
             chunk_size: int | None = None, dealer: int | None = None,
             params: Sequence[Mapping[str, float] | None] | None = None,
             progress: bool | None = None, dd: bool = False) -> pd.DataFrame | RunSummary:
    """Simulate ``n`` complete donnes (deal, auction, announcements, play, scoring).

    Parameters
    ----------
    n : int
        Number of donnes (> 0): donnes ``0 .. n-1`` of the run.
    seed : int
        Run seed (``0 .. 2**64-1``); donne ``i`` of a seed is always the same.
    profile : str or Profile
        Rule profile (``federal``).
    players : str or pair of str
        ``"heuristic"``, ``"random"`` (both teams) or ``"TEAM0,TEAM1"`` / a pair.
    out : path-like, optional
        Parquet file to write; ``None`` returns the rows as a DataFrame instead.
    threads : int, optional
        Worker threads (default: all cores). Results do not depend on it.
    record_play : bool
        Add the ``auction`` and ``play`` columns.
    overwrite : bool
        Replace an existing ``out``.
    chunk_size : int, optional
        Donnes per kernel call and Parquet row group (default 262,144); results do not
        depend on it.
    dealer : int, optional
        Fixed dealer seat; by default the dealer of donne ``i`` is ``i mod 4``.
    params : pair of mappings, optional
        Parameter overrides per team, by name (:mod:`simcoinche.players.registry`).
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    dd : bool
        Add team 0's double-dummy card points of each deal for every contract kind of the
        profile (``dd_S`` … ``dd_TA``, :mod:`simcoinche.runs.dd_columns`). Slow: each deal is
        solved once per kind (tens to hundreds of milliseconds a solve).

    Returns
    -------
    pandas.DataFrame or RunSummary
        The rows (``out=None``; the run metadata in ``df.attrs["simcoinche"]`` and the
        summary in ``df.attrs["summary"]``), else the summary of the written run.

    Raises
    ------
    InputError
        For any bad argument, an existing output without ``overwrite`` or an unwritable
        path; nothing is written then.
    """
    check_overwrite(overwrite, out)
    plan = _plan(n, seed, profile, players, threads, chunk_size, dealer, record_play, params,
                 dd)
    path = None
    if out is not None:
        path = _check_out(out, overwrite, default=False)
    return _run(plan, path, progress)


#: The keyword arguments :func:`simulate_to_file` passes on (those of :func:`simulate`).
_TO_FILE_OPTIONS = frozenset({"threads", "chunk_size", "dealer", "record_play", "params",
                              "dd", "overwrite", "progress"})


def simulate_to_file(n: int, seed: int = 0, profile: str | Profile | None = "federal",
                     players: str | Sequence[str] | None = "heuristic",
                     out: str | os.PathLike[str] | None = None,
                     **kwargs: Any) -> RunSummary:
    """As :func:`simulate` but always writes a file (default path: :func:`default_out`).

    Raises
    ------
    InputError
        As :func:`simulate`, and for a keyword :func:`simulate` does not take.
    """
    refuse_unknown_keywords(kwargs, _TO_FILE_OPTIONS, "simulate_to_file")
    plan = _plan(n, seed, profile, players, kwargs.get("threads"), kwargs.get("chunk_size"),
                 kwargs.get("dealer"), kwargs.get("record_play", False), kwargs.get("params"),
                 kwargs.get("dd", False))
    default = out is None
    if default:
        out = default_out(plan.profile.name, plan.seed, plan.n)
    path = _check_out(out, kwargs.get("overwrite", False), default=default)
    result = _run(plan, path, kwargs.get("progress"))
    assert isinstance(result, RunSummary)
    return result


def _run(plan: Any, path: Path | None, progress: bool | None,
         rows: bool = True) -> pd.DataFrame | Any:
    """Run a validated plan (a :class:`_Plan`, or any plan :func:`_write` takes, with
    ``threads``, ``schema``, ``kernels``, ``what``, ``compile_estimate_s``,
    ``compile_helper`` and ``summary_type``): the rows as a
    DataFrame when ``path`` is None, else streamed to ``path``; returns them, or the run's
    summary (also when ``path`` is None and ``rows`` False: the rows are not kept)."""
    progress = check_optional_flag(progress, "progress")
    key = np.uint64(seed_key(np.uint64(plan.seed)))
    meta = plan.metadata()
    sch = plan.schema(meta)
    if path is None and rows:
        # The rows kept, then their DataFrame: about twice their Arrow size.
        check_fits_in_memory(2 * plan.n * _row_bytes(sch), f"{plan.n:,} {plan.unit}",
                             "write them to a file (out=...) instead")
    summary = new_summary(plan, plan.n, plan.threads, None if path is None else str(path))
    previous_threads = numba.get_num_threads()
    numba.set_num_threads(plan.threads)
    try:
        # Compile (first run) or load the kernel now, so the rate excludes it: one donne
        # into a spare buffer, with the argument types of every chunk below (a plan may
        # bring its own warm-up: ``warm(key)``).
        warm = getattr(plan, "warm", None)
        prepare_kernels(plan.what, plan.kernels(),
                        (lambda: warm(key)) if warm is not None
                        else (lambda: plan.buffers(1).run(plan, key, 0, 1)),
                        plan.compile_estimate_s, helper=plan.compile_helper)
        t0 = time.perf_counter()
        if path is None:
            tables = []
            with progress_bar(plan.n, progress, plan.unit, smoothing=0.1) as bar:
                for start in range(0, plan.n, plan.chunk):
                    k = min(plan.chunk, plan.n - start)
                    buf = plan.buffers(k)
                    buf.run(plan, key, start, k, bar.update)
                    summary.add_chunk(buf.stats(k))
                    if rows:
                        tables.append(buf.table(plan, start, k, sch))
            if not rows:
                summary.seconds = time.perf_counter() - t0
                return summary
            df = tidy(pa.concat_tables(tables).to_pandas())
            summary.seconds = time.perf_counter() - t0
            df.attrs["simcoinche"] = meta
            df.attrs["summary"] = summary
            return df
        _write(plan, key, path, sch, summary, progress)
        summary.seconds = time.perf_counter() - t0
        return summary
    finally:
        numba.set_num_threads(previous_threads)


def _row_bytes(sch: pa.Schema) -> int:
    """Bytes of one row of ``sch`` in Arrow: fixed-width columns by their width, a list
    column (``--record-play``'s) counted as 64 bytes."""
    total = 0
    for column in sch:
        try:
            total += column.type.byte_width
        except ValueError:
            total += 64
    return total


def _write(plan: Any, key: np.uint64, path: Path, sch: pa.Schema, summary: Any,
           progress: bool | None) -> None:
    """Stream the run into ``path.partial`` (one row group per chunk), then rename it.

    ``plan`` is a :class:`_Plan` or any plan with ``n``, ``chunk``, ``unit`` and
    ``buffers(size)`` (buffers with ``run``, ``stats`` and ``table``, as :class:`_Buffers`;
    ``run(plan, key, start, k, progress)`` calls ``progress(rows)`` as its rows complete),
    ``summary`` its summary (``add_chunk``): :mod:`simcoinche.runs.partie` writes through it.
    """
    partial = path.with_name(path.name + ".partial")
    try:
        writer = pq.ParquetWriter(partial, sch, **writer_options(sch))
    except (OSError, pa.ArrowException) as exc:
        _remove(partial)
        raise InputError(f"cannot write {str(path)!r}: {str(exc).splitlines()[0]}") from None
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="simcoinche-writer")
    pending: Future[None] | None = None
    ok = False
    try:
        buffers = [plan.buffers(plan.chunk),
                   plan.buffers(plan.chunk) if plan.n > plan.chunk else None]
        with progress_bar(plan.n, progress, plan.unit, smoothing=0.1) as bar:
            for c, start in enumerate(range(0, plan.n, plan.chunk)):
                k = min(plan.chunk, plan.n - start)
                buf = buffers[c % 2]
                # The kernel releases the GIL: it runs while the writer thread adds the
                # previous chunk (held in the other buffer) to the summary, converts it to
                # Arrow, compresses and writes it.
                buf.run(plan, key, start, k, bar.update)
                if pending is not None:
                    pending.result()
                pending = pool.submit(_write_chunk, plan, buf, writer, summary, start, k, sch)
        if pending is not None:
            pending.result()
        writer.close()
        os.replace(partial, path)
        ok = True
    except (OSError, pa.ArrowException) as exc:
        # A write failure (disk full, file removed) is reported in one line.
        raise InputError(f"cannot write {str(path)!r}: {str(exc).splitlines()[0]}") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if not ok:
            try:
                writer.close()
            except Exception:
                pass  # best effort before removing the file
            _remove(partial)


def _write_chunk(plan: Any, buf: Any, writer: pq.ParquetWriter, summary: Any, start: int,
                 k: int, sch: pa.Schema) -> None:
    """The writer thread's work for one chunk of ``k`` rows held in ``buf``: summary,
    Arrow table, one row group (chunks are handed over in order, one at a time)."""
    summary.add_chunk(buf.stats(k))
    writer.write_table(buf.table(plan, start, k, sch), row_group_size=k)


# Columns whose values are (nearly) all distinct: dictionary encoding only costs time.
_NO_DICTIONARY = ("donne", "hand_0", "hand_1", "hand_2", "hand_3", "auction", "play")


def writer_options(sch: pa.Schema) -> dict[str, Any]:
    """Parquet writer settings, chosen by measurement (262,144 random donnes: zstd level 1
    with dictionaries only on the small-range columns, delta-encoded donne index,
    statistics only on ``donne`` writes in 0.07 s and 20 bytes/donne, against 0.19 s and
    30 bytes/donne with pyarrow's defaults; lz4 is no faster and 40 % larger), and a
    checksum per page. The first column of the schema is the row index (``donne``, or
    ``partie`` for parties)."""
    names = sch.names
    index = names[0]
    return {
        "compression": COMPRESSION,
        "compression_level": COMPRESSION_LEVEL,
        "use_dictionary": [c for c in names if c not in _NO_DICTIONARY and c != index],
        "column_encoding": {index: "DELTA_BINARY_PACKED"},
        "write_statistics": [index],
        # A CRC per page, which every read checks (runs.results.read_table): a byte
        # changed on disk is an error, not a different table (no measurable cost).
        "write_page_checksum": True,
    }


def _remove(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass
