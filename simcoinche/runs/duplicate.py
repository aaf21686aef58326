"""Duplicate matches: two players on the same deals, each in both seat pairs.

``match(a, b, deals)`` (exported as ``simcoinche.match``; this module is not called
``match`` so that the function does not shadow it) plays every deal at two tables:

- table 0: player ``a`` holds seats 0/2 (team 0), ``b`` seats 1/3 (team 1);
- table 1: the same cards and the same dealer, ``b`` at seats 0/2 and ``a`` at 1/3.

Why the two tables hold the same cards: donne ``i`` of seed ``s`` draws its shuffle and
cut from counters ``STREAM_DEAL`` of the key ``donne_key(seed_key(s), i)``, and the dealer
of donne ``i`` is ``i mod 4`` (:mod:`simcoinche._kernels.rng`, :mod:`.deal`,
:func:`simcoinche._kernels.batch.run_batch`); the players never touch that range. So the
two tables are two runs of the batch kernel with the same seed and the team codes and
parameter rows swapped, paired by donne index.

The players' own random draws come from one stream per donne (counters from
``STREAM_PLAYERS`` of the same key), shared by the four seats in the order they decide:
it is keyed by donne, not by seat. When ``a`` and ``b`` are the same player the two tables
are the same run, so every deal scores exactly 0; a random player's draws at the two tables
are not mirrored seat by seat (its luck is not duplicated, only the cards are). The
heuristic player draws too: when several contract kinds share its best estimate it
picks one uniformly from that stream (the symmetric tie-break, parameter
``symmetric_ties``), so its draws, like a random player's, are not mirrored between the
two tables either — only the cards are.

Statistics (all in marks, the rounded score of a donne):

- **difference of a deal** ``d = (A − B at table 0) + (A − B at table 1)``, where ``A − B``
  at a table is A's team's marks minus B's team's marks for that donne: the net marks A
  gains over B on the deal played both ways (not halved; ``d / 2`` is A's edge per donne);
- **mean difference** over the deals, with a 95 % interval ``mean ± 1.96 s / √n`` (``s`` the
  sample standard deviation of the ``d``): a normal approximation on the paired
  differences, sound for a few hundred deals or more;
- **won / tied / lost**: shares of deals with ``d > 0``, ``d = 0``, ``d < 0``;
- per player, over both tables (``2n`` donnes, passed-out ones included): the contract mix
  of its team — the share of donnes it took, the share of those made, the mean value bid
  (a capot counts 250, a générale its profile value) and the capots bid (générales
  included); the coinches its team made (as defenders, coinche or surcoinche ``≥ 2``) per
  donne and the share that ended with the contract failing; with ``dd=True``, the card
  points its takers' play lost against double dummy (:func:`dd_takers`: the takers' DD
  card points for the contract kind minus the card points they made; the defence's play
  is in it too) and the counterpart as defenders (card points the takers made minus their
  DD value: what its defence gave away).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pyarrow as pa

from simcoinche._kernels.dd_scratch import DD_CAPOT
from simcoinche._kernels.donne import (
    MAX_ACTIONS,
    N_OUT,
    O_CARD_POINTS,
    O_COINCHE,
    O_DEALER,
    O_HAND,
    O_MADE,
    O_MARKS,
    O_PASSED,
    O_TAKER,
    O_TRICKS,
    O_TRUMP,
    O_VALUE,
)
from simcoinche._version import RULES_VERSION, __version__
from simcoinche.players.faults import check_faults
from simcoinche.players.registry import params_dict
from simcoinche.players.table import Timing
from simcoinche.rules.profiles import profile_metadata
from simcoinche.runs.results import COLUMNS, chunk_table, schema
from simcoinche.runs.simulation import (
    GENERATOR,
    RunInfo,
    _RunPlan,
    run_donnes,
)

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_CHUNK = 1 << 16
#: Deals per chunk with double-dummy solving (about 10-20 ms per solve): the progress bar
#: moves every second or so.
DD_CHUNK = 32
Z95 = 1.959963984540054
# The value of a capot bid in every profile (RULES.md: "`bid` = the value, 250 for
# capot"); a générale is worth more, so ``bid_value >= CAPOT_VALUE`` picks both.
CAPOT_VALUE = 250
DIFFERENCE = ("(A's team marks - B's team marks at table 0) + (the same at table 1); "
              "table 0: A at seats 0/2, table 1: A at seats 1/3; same cards and dealer")

#: The columns a match file adds to the rows of each table (deals or parties alike).
TABLE_COLUMNS = (
    ("table", pa.int8(), "0: player a at seats 0/2 (team 0); 1: player a at seats 1/3"),
    ("player_t0", pa.string(), "player spec of team 0 (seats 0, 2) at this table"),
    ("player_t1", pa.string(), "player spec of team 1 (seats 1, 3) at this table"),
)
_DD_COLUMN = ("dd_takers", pa.int16(),
              "with --dd: the takers' double-dummy card points for the contract kind "
              "(252 capot), -1 if passed out")


def match_schema(dd: bool, metadata: dict[str, Any] | None = None) -> pa.Schema:
    """Arrow schema of a match's rows: simulate's columns (no record columns), then
    ``table``, ``player_t0``, ``player_t1`` and, with ``dd``, ``dd_takers``."""
    return with_table_columns(schema(False, metadata), [_DD_COLUMN] if dd else [])


def with_table_columns(base: pa.Schema, more: Sequence[tuple[str, Any, str]] = ()
                       ) -> pa.Schema:
    """``base`` (the rows of one table) followed by :data:`TABLE_COLUMNS` and ``more``."""
    for name, typ, _ in (*TABLE_COLUMNS, *more):
        base = base.append(pa.field(name, typ, nullable=False))
    return base


def table_columns(t: int, k: int, players: tuple[str, str]) -> list[pa.Array]:
    """The :data:`TABLE_COLUMNS` of ``k`` rows of table ``t`` (player a is team ``t``;
    ``players`` = (a, b))."""
    return [pa.array(np.full(k, t, dtype=np.int8)), pa.repeat(players[t], k),
            pa.repeat(players[1 - t], k)]


def interleave_tables(tables: Sequence[pa.Table], k: int) -> pa.Table:
    """The ``k`` rows of table 0 and of table 1 interleaved: (item 0, table 0), (item 0,
    table 1), (item 1, table 0), …"""
    idx = np.stack([np.arange(k), np.arange(k) + k], axis=1).reshape(-1)
    return pa.concat_tables(tables).take(pa.array(idx))


def column_descriptions(dd: bool = True) -> dict[str, str]:
    """Name → meaning of every column of a match file."""
    out = {c.name: c.description for c in COLUMNS if not c.record_only}
    for name, _, text in list(TABLE_COLUMNS) + ([_DD_COLUMN] if dd else []):
        out[name] = text
    return out


# --- double dummy -----------------------------------------------------------------------


def dd_takers(hands: np.ndarray, dealer: np.ndarray, kind: np.ndarray, taker_team: np.ndarray,
              prof: np.ndarray, threads: int) -> np.ndarray:
    """The takers' double-dummy card points (0..252; to 258 at strict's TA) of each contract.

    Parameters
    ----------
    hands : uint32[n, 4]
        The four hands by seat.
    dealer, kind, taker_team : int[n]
        Dealer seat, contract kind 0..5 and the takers' team (0 or 1) per row.
    prof : int32[PROFILE_LEN]
        Packed profile.
    threads : int
        Blocks of :func:`simcoinche._kernels.dd.solve_many`.

    Returns
    -------
    int16[n]
        Card points of the takers' team, last trick included, 252 when they take every
        trick (at strict's tout-atout they may prefer up to 258 without a capot).
        ``solve_many`` gives team 0's value; for team 1 the deal is solved
        with the seats renumbered one step back (seat ``s`` becomes ``s - 1``, the dealer
        too), which turns team 1 into team 0 and leaves the play unchanged. This is exact
        where ``162 - C0`` is not (a team-0 value of 0 can hide a team-1 capot, 252).
        Identical (deal, kind, team) rows are solved once.
    """
    from simcoinche._kernels.dd import solve_many

    n = hands.shape[0]
    out = np.empty(n, dtype=np.int16)
    if n == 0:
        return out
    team = np.asarray(taker_team, dtype=np.int64)
    rot = np.where(team[:, None] == 1, (np.arange(4)[None, :] + 1) & 3, np.arange(4)[None, :])
    h = np.ascontiguousarray(np.take_along_axis(np.asarray(hands, dtype=np.uint32), rot, 1))
    d = ((np.asarray(dealer, dtype=np.int64) - team) & 3).astype(np.int64)
    k = np.asarray(kind, dtype=np.int64)
    keys = np.concatenate([h, d[:, None].astype(np.uint32), k[:, None].astype(np.uint32)],
                          axis=1)
    uniq, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    m = len(uniq)
    values = np.zeros(m, dtype=np.int16)
    nodes = np.zeros(m, dtype=np.int64)
    solve_many(np.ascontiguousarray(h[first]), np.ascontiguousarray(d[first]),
               np.ascontiguousarray(k[first]), prof, max(1, int(threads)), values, nodes)
    out[:] = values[inverse.reshape(-1)]
    return out


# --- results ----------------------------------------------------------------------------


@dataclass
class PlayerStats:
    """What one player did over both tables (its team's contracts and coinches)."""

    name: str
    donnes: int = 0
    contracts: int = 0
    made: int = 0
    bid_value_sum: int = 0
    capots: int = 0
    coinches: int = 0
    coinches_won: int = 0
    dd_contracts: int = 0
    dd_loss_taking: int = 0
    dd_defended: int = 0
    dd_loss_defending: int = 0

    def as_dict(self, dd: bool) -> dict[str, Any]:
        """JSON view: counts, rates (``None`` without a denominator), DD means with ``dd``."""
        d: dict[str, Any] = {
            "name": self.name,
            "donnes": self.donnes,
            "contracts": self.contracts,
            "take_rate": _rate(self.contracts, self.donnes),
            "made": _rate(self.made, self.contracts),
            "mean_bid": _rate(self.bid_value_sum, self.contracts),
            "capots": self.capots,
            "coinches": self.coinches,
            "coinche_rate": _rate(self.coinches, self.donnes),
            "coinches_won": _rate(self.coinches_won, self.coinches),
        }
        if dd:
            d["dd_loss_taking"] = _rate(self.dd_loss_taking, self.dd_contracts)
            d["dd_loss_defending"] = _rate(self.dd_loss_defending, self.dd_defended)
        return d


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


class PairedDifferences:
    """The statistics of a duplicate match's paired differences :attr:`diffs` (one per
    deal, or per pair of parties): their mean with a normal 95 % interval and the shares
    of positive, zero and negative ones. Mixed into the match results."""

    diffs: np.ndarray
    players: tuple[str, str]
    n: int
    seconds: float
    threads: int
    profile: str
    seed: int
    path: str | None
    _parts: list[np.ndarray]

    def finish(self) -> None:
        """Gather the differences of every chunk into :attr:`diffs`."""
        if self._parts:
            self.diffs = np.concatenate(self._parts)
            self._parts = []

    @property
    def a(self) -> str:
        return self.players[0]

    @property
    def b(self) -> str:
        return self.players[1]

    def head_lines(self, unit: str, what: str, digits: int) -> list[str]:
        """The first lines of the match's text summary: where it was written, the match
        (``n`` ``unit`` at two tables), the mean difference ``what`` with its interval
        (``digits`` decimals), and under 300 ``unit`` a note that it is only rough."""
        lines = []
        if self.path:
            lines.append(f"wrote {self.path}")
        lines.append(f"match {self.a} (a) vs {self.b} (b): {self.n:,} {unit} at two tables "
                     f"in {self.seconds:.2f} s ({self.threads_text}; profile "
                     f"{self.profile_label}; seed {self.seed})")
        ci = self.ci95
        interval = ("" if ci is None else
                    f", 95 % interval [{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]")
        lines.append(f"a - b {what}: mean {self.mean_diff:+.{digits}f}{interval} (normal "
                     f"approximation on the {self.n:,} paired differences)")
        if self.n < 300:
            lines.append(f"note: fewer than 300 {unit}, the normal interval is only rough")
        return lines

    @property
    def mean_diff(self) -> float:
        """Mean difference (A's gain over B per deal or pair of parties)."""
        return float(self.diffs.mean())

    @property
    def sd(self) -> float | None:
        """Sample standard deviation of the differences (``None`` for one)."""
        if len(self.diffs) < 2:
            return None
        return float(self.diffs.std(ddof=1))

    @property
    def ci95(self) -> tuple[float, float] | None:
        """95 % interval of the mean difference, normal approximation (``None`` for one
        difference)."""
        sd = self.sd
        if sd is None:
            return None
        half = Z95 * sd / math.sqrt(len(self.diffs))
        return (self.mean_diff - half, self.mean_diff + half)

    @property
    def won(self) -> float:
        """Share of positive differences (A ahead)."""
        return float((self.diffs > 0).mean())

    @property
    def tied(self) -> float:
        """Share of differences equal to 0."""
        return float((self.diffs == 0).mean())

    @property
    def lost(self) -> float:
        """Share of negative differences (B ahead)."""
        return float((self.diffs < 0).mean())


@dataclass(eq=False)
class MatchResult(RunInfo, PairedDifferences):
    """A duplicate match: the per-deal differences, their summary and per-player stats.

    ``n`` is the number of deals (each played at two tables), ``players`` the two specs
    (a, b). ``diffs`` (``int32[n]``) holds each deal's difference (module docstring);
    ``rows`` the two tables' rows (a DataFrame, two rows per deal in (donne, table) order)
    when no output file was asked for and ``rows=True`` (the default), else None.
    """

    dd: bool = False
    stats: dict[str, PlayerStats] = field(default_factory=dict)
    diffs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32),
                              repr=False)
    rows: pd.DataFrame | None = field(default=None, repr=False)
    #: With a colver player: time each role (``a``/``b``) spent deciding (colver's own
    #: calls; a kernel player's calls from the sequencer).
    timing: dict[str, Timing] = field(default_factory=dict)
    _parts: list[np.ndarray] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = {"a": PlayerStats(self.players[0]), "b": PlayerStats(self.players[1])}

    def add_chunk(self, chunk: tuple[Any, ...]) -> None:
        """Accumulate one chunk: the two tables' kernel rows (``int32[N_OUT, k]``) and the
        takers' DD values per table (``int16[2, k]``, or ``None``); with colver players, a
        fourth item: the time their decisions took per role (:class:`~.peers.Timing`)."""
        outs, dd = chunk[:2], chunk[2]
        if len(chunk) > 3:
            for role, tm in chunk[3].items():
                self.timing.setdefault(role, Timing()).add(tm)
        m0 = [outs[t][O_MARKS].astype(np.int64) for t in range(2)]
        m1 = [outs[t][O_MARKS + 1].astype(np.int64) for t in range(2)]
        # Player a is team 0 at table 0 and team 1 at table 1.
        self._parts.append(((m0[0] - m1[0]) + (m1[1] - m0[1])).astype(np.int32))
        for t in range(2):
            o = outs[t]
            played = o[O_PASSED] == 0
            taker_team = o[O_TAKER] & 1
            made = o[O_MADE] != 0
            coinched = o[O_COINCHE] >= 2
            value = o[O_VALUE].astype(np.int64)
            if dd is not None:
                cp = np.where(taker_team == 1, o[O_CARD_POINTS + 1], o[O_CARD_POINTS])
                tricks = np.where(taker_team == 1, o[O_TRICKS + 1], o[O_TRICKS])
                # Double-dummy values count a capot 252 in every profile (RULES.md); the
                # rows hold the profile's capot card points (250 outside federal).
                cp = np.where(tricks == 8, DD_CAPOT, cp)
                loss = dd[t].astype(np.int64) - cp
            for role, team in (("a", t), ("b", 1 - t)):
                s = self.stats[role]
                took = played & (taker_team == team)
                defended = played & (taker_team != team)
                s.donnes += int(o.shape[1])
                s.contracts += int(took.sum())
                s.made += int((took & made).sum())
                s.bid_value_sum += int(value[took].sum())
                # Capot (250) and générale (above it) bids.
                s.capots += int((took & (value >= CAPOT_VALUE)).sum())
                # A coinche is always the defence's ("only against the current highest
                # bid when it belongs to the other team"); surcoinched ones included.
                co = defended & coinched
                s.coinches += int(co.sum())
                s.coinches_won += int((co & ~made).sum())
                if dd is not None:
                    s.dd_contracts += int(took.sum())
                    s.dd_loss_taking += int(loss[took].sum())
                    s.dd_defended += int(defended.sum())
                    s.dd_loss_defending -= int(loss[defended].sum())

    def to_json(self) -> dict[str, Any]:
        """The match as a JSON-ready dict (``a``, ``b``, ``deals``, ``mean_diff``,
        ``ci95``, ``won``, ``players`` first; then ties, losses and the run)."""
        ci = self.ci95
        return {
            "a": self.a, "b": self.b, "deals": self.n,
            "mean_diff": self.mean_diff,
            "ci95": None if ci is None else [ci[0], ci[1]],
            "won": self.won,
            "players": {r: self._player_json(r, s) for r, s in self.stats.items()},
            "tied": self.tied, "lost": self.lost, "sd": self.sd,
            "difference": DIFFERENCE,
            "interval": "normal approximation on the paired differences",
            "profile": self.profile, "seed": self.seed, "seconds": self.seconds,
            "threads": self.threads, "dd": self.dd,
        }

    def _player_json(self, role: str, s: PlayerStats) -> dict[str, Any]:
        d = s.as_dict(self.dd)
        if role in self.timing:
            d["timing"] = self.timing[role].as_dict()
        return d

    def text(self) -> str:
        """A short human summary."""
        lines = self.head_lines("deals", "per deal (marks, both tables)", 1)
        lines.append(f"deals won by a: {100 * self.won:.1f} %, tied {100 * self.tied:.1f} %, "
                     f"lost {100 * self.lost:.1f} %")
        for role, s in self.stats.items():
            d = s.as_dict(self.dd)
            parts = [f"took {_pct(d['take_rate'])} of the donnes ({d['contracts']:,} "
                     f"contracts), {_pct(d['made'])} made, mean bid {_num(d['mean_bid'])}, "
                     f"{d['capots']:,} capots bid",
                     f"coinched {_pct(d['coinche_rate'])} of the donnes "
                     f"({d['coinches']:,}), {_pct(d['coinches_won'])} won"]
            if self.dd:
                parts.append("card points lost against double dummy: as takers "
                             f"{_num(d['dd_loss_taking'])}, as defence "
                             f"{_num(d['dd_loss_defending'])}")
            lines.append(f"{role} {s.name}: " + "; ".join(parts))
            if role in self.timing:
                tm = self.timing[role].as_dict()
                lines.append(f"  time deciding: {_num(tm['ms_per_card'], 2)} ms per card "
                             f"({tm['cards']:,} cards), {_num(tm['ms_per_bid'], 3)} ms per "
                             f"auction action ({tm['bids']:,})")
        if self.dd:
            lines.append("(per contract: as takers, their DD card points minus those they "
                         "made; as defence, the takers' card points minus their DD value; "
                         "negative: the other side's errors gave more)")
        return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f} %"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


# --- plan and buffers -------------------------------------------------------------------


@dataclass
class _MatchPlan(_RunPlan):
    overrides: tuple[dict[str, float], dict[str, float]]
    dd: bool
    #: ``[t]``: codes / parameter rows per team at table ``t`` (a is team ``t``).
    table_codes: np.ndarray = field(init=False)
    table_params: np.ndarray = field(init=False)
    unit: ClassVar[str] = "deals"
    summary_type: ClassVar[type] = MatchResult

    def __post_init__(self) -> None:
        self.table_codes = np.ascontiguousarray(np.stack([self.codes, self.codes[::-1]]))
        self.table_params = np.ascontiguousarray(np.stack([self.params, self.params[::-1]]))

    def buffers(self, size: int) -> _MatchBuffers:
        return _MatchBuffers(size, self.dd)

    def params_meta(self, t: int) -> dict[str, float]:
        """Named parameters of player ``t`` (0: a, 1: b) for the run metadata."""
        return params_dict(self.players[t].partition(":")[0], self.params[t])

    def schema(self, meta: dict[str, Any]) -> pa.Schema:
        return match_schema(self.dd, meta)

    def metadata(self) -> dict[str, Any]:
        return {
            "kind": "match",
            "seed": self.seed,
            "deals": self.n,
            **profile_metadata(self.profile),
            "a": self.players[0],
            "b": self.players[1],
            "params": [self.params_meta(t) for t in range(2)],
            "difference": DIFFERENCE,
            "dd": self.dd,
            "dealer": "rotating",
            "version": __version__,
            "rules_version": RULES_VERSION,
            "generator": GENERATOR,
            "chunk_size": self.chunk,
        }


class _MatchBuffers:
    """Kernel output arrays of both tables for one chunk of deals."""

    def __init__(self, size: int, dd: bool) -> None:
        # One spare column, as simulation._Buffers: the same (strided) run_batch signature.
        self.out = [np.empty((N_OUT, size + 1), dtype=np.int32) for _ in range(2)]
        self.auc = np.zeros((0, MAX_ACTIONS), dtype=np.uint8)
        self.auc_len = np.zeros(0, dtype=np.int16)
        self.play = np.zeros((0, 32), dtype=np.uint8)
        self.dd = np.full((2, size), -1, dtype=np.int16) if dd else None
        # The decisions replaced per deal and table (checked, never written).
        self.faults = np.zeros((2, size), dtype=np.int32)

    def run(self, plan: _MatchPlan, key: np.uint64, start: int, k: int,
            progress: Any = None) -> None:
        """Play deals ``start .. start+k-1`` at both tables (then, with ``dd``, solve the
        contracts); ``progress(k)`` is called when done."""
        self._play(plan, key, start, k)
        if progress is not None:
            progress(k)

    def _play(self, plan: _MatchPlan, key: np.uint64, start: int, k: int) -> None:
        for t in range(2):
            run_donnes(key, start, k, -1, plan.table_codes[t], plan.table_params[t],
                       plan.profile.packed, False, self.out[t][:, :k], self.auc,
                       self.auc_len, self.play, plan.think, self.faults[t, :k])
            check_faults(self.faults[t, :k], (plan.players[t], plan.players[1 - t]),
                         plan.profile,
                         lambda j, t=t: f"deal {start + j} (table {t})")
        self._solve_dd(plan, k)

    def _solve_dd(self, plan: _MatchPlan, k: int) -> None:
        """With ``dd``: the takers' double-dummy values of the ``k`` deals just played."""
        if self.dd is None:
            return
        # Every contract of both tables, solved once per (deal, kind, takers' team).
        self.dd[:, :k] = -1
        rows = []
        for t in range(2):
            o = self.out[t][:, :k]
            j = np.flatnonzero(o[O_PASSED] == 0)
            rows.append((t, j, o))
        hands = np.concatenate([o[O_HAND:O_HAND + 4, j].T for _, j, o in rows]).view(np.uint32)
        dealer = np.concatenate([o[O_DEALER, j] for _, j, o in rows])
        kind = np.concatenate([o[O_TRUMP, j] for _, j, o in rows])
        team = np.concatenate([o[O_TAKER, j] & 1 for _, j, o in rows])
        values = dd_takers(hands, dealer, kind, team, plan.profile.packed, plan.threads)
        pos = 0
        for t, j, _ in rows:
            self.dd[t, j] = values[pos:pos + len(j)]
            pos += len(j)

    def stats(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        return (self.out[0][:, :k], self.out[1][:, :k],
                None if self.dd is None else self.dd[:, :k])

    def table(self, plan: _MatchPlan, start: int, k: int, sch: pa.Schema) -> pa.Table:
        """Both tables' rows, interleaved: (donne, table 0), (donne, table 1), …"""
        base = schema(False)
        tables = []
        for t in range(2):
            tab = chunk_table(start, self.out[t][:, :k], None, None, None, base)
            cols = list(tab.columns) + table_columns(t, k, plan.players)
            if self.dd is not None:
                cols.append(pa.array(self.dd[t, :k]))
            tables.append(pa.Table.from_arrays(cols, schema=sch))
        return interleave_tables(tables, k)


# --- facade -----------------------------------------------------------------------------
