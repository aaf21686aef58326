"""``simcoinche match`` (the function :func:`simcoinche.match`): a duplicate match of two
players, each deal at two tables.

The entry point only: it validates, chooses how the tables are played — by the batch
kernel when both players are kernel players (:mod:`.duplicate`), by the Python table
sequencer when one is a colver bot (:mod:`.peer_match`) — runs the plan and returns the
:class:`~simcoinche.runs.duplicate.MatchResult`.
"""

from __future__ import annotations

import os

import pandas as pd

from simcoinche.players.peers import is_peer
from simcoinche.players.registry import parse_player_spec, spec_name
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile
from simcoinche.runs.duplicate import DD_CHUNK, DEFAULT_CHUNK, MatchResult, _MatchPlan
from simcoinche.runs.peer_match import peer_plan
from simcoinche.runs.simulation import _check_out, _run, _run_plan, positive_int


def match(a: str, b: str, deals: int, seed: int = 0,
          profile: str | Profile | None = "federal", *, threads: int | None = None,
          dd: bool = False, out: str | os.PathLike[str] | None = None,
          overwrite: bool = False, chunk_size: int | None = None,
          progress: bool | None = None) -> MatchResult:
    """Duplicate match of player ``a`` against player ``b`` over ``deals`` deals.

    Parameters
    ----------
    a, b : str
        Player specs ``KIND`` or ``KIND:name=value,…`` (kinds and parameter names:
        :mod:`simcoinche.players.registry`), e.g. ``"heuristic:bid_margin=5"``; or a colver bot
        (:mod:`simcoinche.players.peers`: ``colver-ismcts:time=0.05``, ``colver-isdd:worlds=8``;
        federal only, needs ``pip install 'simcoinche[peers]'``), whose tables are played
        by the Python sequencer (:mod:`simcoinche.players.table`) in worker processes.
    deals : int
        Number of deals (> 0): donnes ``0 .. deals-1`` of the seed, each played at two
        tables (a at seats 0/2, then at seats 1/3).
    seed : int
        Run seed; the deals are those of ``simcoinche.simulate`` with the same seed.
    profile : str or Profile
        Rule profile (``federal``).
    threads : int, optional
        Worker threads (default: all cores); with a colver player, worker processes.
        Results do not depend on it (except colver-ismcts's, which stops on a clock).
    dd : bool
        Also solve every contract double dummy (about 10-20 ms per contract) and report
        the card points the takers' play lost against it.
    out : path-like, optional
        Parquet file with two rows per deal (simulate's columns, then ``table``,
        ``player_t0``, ``player_t1`` and with ``dd`` ``dd_takers``); ``None`` keeps the
        rows in :attr:`MatchResult.rows` instead.
    overwrite : bool
        Replace an existing ``out``.
    chunk_size : int, optional
        Deals per kernel call and row group (default 65,536; 32 with ``dd``).
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).

    Returns
    -------
    MatchResult
        Differences, their mean with a 95 % interval, won/tied/lost shares, per-player
        statistics (:meth:`MatchResult.to_json`, :meth:`MatchResult.text`).

    Raises
    ------
    InputError
        For a bad spec or argument, an existing ``out`` without ``overwrite`` or an
        unwritable path; nothing is written then.
    """
    deals = positive_int(deals, "deals")
    if not isinstance(dd, bool):
        raise InputError(f"dd must be True or False, got {dd!r}")
    plan: _MatchPlan
    if is_peer(a) or is_peer(b):
        plan = peer_plan(a, b, deals, seed, profile, threads, chunk_size, dd)
    else:
        ka, oa = parse_player_spec(a)
        kb, ob = parse_player_spec(b)
        names = (spec_name(ka, oa), spec_name(kb, ob))
        fields = _run_plan(deals, seed, profile, (ka, kb), threads, chunk_size, (oa, ob),
                           DD_CHUNK if dd else DEFAULT_CHUNK)
        fields["players"] = names
        plan = _MatchPlan(**fields, overrides=(oa, ob), dd=dd)
    path = None if out is None else _check_out(out, overwrite, default=False)
    try:
        res = _run(plan, path, progress)
    finally:
        close = getattr(plan, "close", None)
        if close is not None:
            close()
    if isinstance(res, pd.DataFrame):
        result = res.attrs.pop("summary")
        result.rows = res
    else:
        result = res
    result.dd = dd
    result.finish()
    return result
