"""``simcoinche match`` (the function :func:`simcoinche.match`): a duplicate match of two
players, each deal — or each whole partie — at two tables.

The entry point only: it validates, chooses how the tables are played — by the batch
kernel when both players are kernel players (:mod:`.duplicate`), by the Python table
sequencer when one is a colver bot (:mod:`.peer_match`), by the parties kernel for a
match of whole parties (:mod:`.partie_match`) — runs the plan and returns the
:class:`~simcoinche.runs.duplicate.MatchResult` (or
:class:`~simcoinche.runs.partie_match.PartieMatchResult`).
"""

from __future__ import annotations

import os
from typing import Any

from simcoinche.players.peers import is_peer
from simcoinche.players.registry import parse_player_spec, spec_name
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile
from simcoinche.runs.arguments import check_flag, check_overwrite
from simcoinche.runs.duplicate import DD_CHUNK, DEFAULT_CHUNK, MatchResult, _MatchPlan
from simcoinche.runs.partie import DEFAULT_CHUNK as PARTIES_CHUNK
from simcoinche.runs.partie import _check_max_donnes, check_partie_equity
from simcoinche.runs.partie_match import PartieMatchResult, _PartieMatchPlan
from simcoinche.runs.peer_match import peer_plan
from simcoinche.runs.simulation import _check_out, _run, _run_plan, positive_int


def match(a: str, b: str, deals: int | None = None, seed: int = 0,
          profile: str | Profile | None = "federal", *, parties: int | None = None,
          max_donnes: int | None = None, threads: int | None = None,
          dd: bool = False, out: str | os.PathLike[str] | None = None,
          overwrite: bool = False, chunk_size: int | None = None,
          progress: bool | None = None, rows: bool = True) -> MatchResult | PartieMatchResult:
    """Duplicate match of player ``a`` against player ``b`` over ``deals`` deals, or over
    ``parties`` whole parties.

    Parameters
    ----------
    a, b : str
        Player specs ``KIND`` or ``KIND:name=value,…`` (kinds and parameter names:
        :mod:`simcoinche.players.registry`), e.g. ``"heuristic:bid_margin=5"``; or a colver bot
        (:mod:`simcoinche.players.peers`: ``colver-ismcts:time=0.05``, ``colver-isdd:worlds=8``;
        federal's rules only, needs ``pip install 'simcoinche[peers]'``), whose tables are played
        by the Python sequencer (:mod:`simcoinche.players.table`) in worker processes.
    deals : int
        Number of deals (> 0): donnes ``0 .. deals-1`` of the seed, each played at two
        tables (a at seats 0/2, then at seats 1/3). Give ``deals`` or ``parties``.
    seed : int
        Run seed; the deals are those of ``simcoinche.simulate`` with the same seed (with
        ``parties``, the parties of ``simcoinche.parties``).
    profile : str or Profile
        Rule profile (``federal``).
    parties : int, optional
        Number of whole parties (> 0) instead of deals: partie ``p`` of the seed played to
        the profile's target at two tables, a at seats 0/2 then 1/3, with the same deal
        stream (:mod:`simcoinche.runs.partie_match`); kernel players only, no ``dd``.
    max_donnes : int, optional
        With ``parties``: donnes after which a partie stops without a winner (default
        1,000; such a partie counts for neither player and is reported).
    threads : int, optional
        Worker threads (default: all cores); with a colver player, worker processes.
        Results do not depend on it (except colver-ismcts's, which stops on a clock).
    dd : bool
        Also solve every contract double dummy (about 10-20 ms per contract) and report
        the card points the takers' play lost against it.
    out : path-like, optional
        Parquet file with two rows per deal (simulate's columns, then ``table``,
        ``player_t0``, ``player_t1`` and with ``dd`` ``dd_takers``); ``None`` keeps the
        rows in :attr:`MatchResult.rows` instead (with ``rows`` True).
    overwrite : bool
        Replace an existing ``out`` (only with ``out``: alone, an InputError).
    chunk_size : int, optional
        Deals per kernel call and row group (default 65,536; 32 with ``dd``).
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    rows : bool
        Without ``out``: keep the rows in :attr:`MatchResult.rows` (default) or, False,
        only the summary (``rows`` stays None; the rows are never held in memory).

    Returns
    -------
    MatchResult or PartieMatchResult
        Differences, their mean with a 95 % interval, won/tied/lost shares, per-player
        statistics (:meth:`MatchResult.to_json`, :meth:`MatchResult.text`); with
        ``parties``, the same in parties won per pair.

    Raises
    ------
    InputError
        For a bad spec or argument, an existing ``out`` without ``overwrite`` or an
        unwritable path; nothing is written then.
    """
    if (deals is None) == (parties is None):
        raise InputError("give the number of deals or the number of parties (one of them)")
    dd = check_flag(dd, "dd")
    rows = check_flag(rows, "rows")
    check_overwrite(overwrite, out, "--out")
    if parties is not None:
        return _partie_match(a, b, parties, seed, profile, max_donnes, threads, dd, out,
                             overwrite, chunk_size, progress, rows)
    if max_donnes is not None:
        raise InputError("max_donnes is for a match of parties")
    deals = positive_int(deals, "deals")
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
        res = _run(plan, path, progress, rows)
    finally:
        close = getattr(plan, "close", None)
        if close is not None:
            close()
    result = _result(res, path is None and rows)
    result.dd = dd
    result.finish()
    return result


def _partie_match(a: str, b: str, parties: int, seed: int, profile: str | Profile | None,
                  max_donnes: int | None, threads: int | None, dd: bool,
                  out: str | os.PathLike[str] | None, overwrite: bool,
                  chunk_size: int | None, progress: bool | None,
                  rows: bool) -> PartieMatchResult:
    """:func:`match` over whole parties (validated here, played by the parties kernel)."""
    parties = positive_int(parties, "parties")
    for spec in (a, b):
        if is_peer(spec):
            raise InputError(f"{spec}: colver's bots play matches of deals only, not of "
                             "parties")
    if dd:
        raise InputError("dd is for a match of deals, not of parties")
    ka, oa = parse_player_spec(a)
    kb, ob = parse_player_spec(b)
    fields = _run_plan(parties, seed, profile, (ka, kb), threads, chunk_size, (oa, ob),
                       PARTIES_CHUNK)
    fields["players"] = (spec_name(ka, oa), spec_name(kb, ob))
    check_partie_equity(fields)
    plan = _PartieMatchPlan(**fields, max_donnes=_check_max_donnes(max_donnes))
    path = None if out is None else _check_out(out, overwrite, default=False)
    result = _result(_run(plan, path, progress, rows), path is None and rows)
    result.finish()
    return result


def _result(res: Any, with_rows: bool) -> Any:
    """The match's result from what :func:`_run` returned: its summary, holding the rows
    (``with_rows``: ``res`` is the rows' DataFrame, the summary in its attrs)."""
    if not with_rows:
        return res
    result = res.attrs.pop("summary")
    result.rows = res
    return result
