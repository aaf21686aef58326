"""Simulated players: the Python-side registry, parameter names, defaults and arrays.

A player kind has a registry code (used by the kernels, :mod:`simcoinche._kernels.players`)
and a ``float64`` parameter array whose entries are named here. Every team of a run gets
one kind and one parameter array; analyses and tuning vary the parameters by name::

    from simcoinche.players.registry import param_array
    p = param_array("club", {"open_min": 85.0})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from simcoinche._kernels import bid_layout as BL
from simcoinche._kernels import bidder as B
from simcoinche._kernels import heuristic as H
from simcoinche._kernels import layout as LAYOUT
from simcoinche._kernels import players as K
from simcoinche._kernels import score_bid as SB
from simcoinche._kernels import think_bid as TB
from simcoinche.players.bid_tables import (
    best_levels,
    bid_outcomes,
    bid_tables,
    check_outcomes,
    check_tables,
)
from simcoinche.players.equity import shipped_table
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile, shipped_rules


@dataclass(frozen=True)
class Param:
    """One named parameter: kernel offset, default value and a one-line meaning."""

    name: str
    offset: int
    default: float
    description: str
    #: Whole numbers only, at least ``minimum`` and at most ``maximum`` (None: any float).
    integer: bool = False
    minimum: float | None = None
    maximum: float | None = None

    def check(self, kind: str, value: float) -> None:
        """Raise InputError when ``value`` is outside what the parameter accepts."""
        if not np.isfinite(value):
            raise InputError(f"parameter {self.name!r} of player {kind} must be a finite "
                             f"number, got {value:g}")
        if self.integer and value != int(value):
            raise InputError(f"parameter {self.name!r} of player {kind} must be a whole "
                             f"number, got {value:g}")
        if self.minimum is not None and value < self.minimum:
            raise InputError(f"parameter {self.name!r} of player {kind} must be at least "
                             f"{self.minimum:g}, got {value:g}")
        if self.maximum is not None and value > self.maximum:
            raise InputError(f"parameter {self.name!r} of player {kind} must be at most "
                             f"{self.maximum:g}, got {value:g}")


@dataclass(frozen=True)
class PlayerKind:
    """A kind of simulated player: registry code, description and its parameters."""

    name: str
    code: int
    description: str
    params: tuple[Param, ...]

    def defaults(self) -> dict[str, float]:
        """Parameter defaults by name."""
        return {p.name: p.default for p in self.params}


RANDOM = PlayerKind(
    "random", K.PLAYER_RANDOM,
    "uniform among legal cards; bids, coinches and passes with fixed probabilities",
    (
        Param("p_open", K.RP_OPEN, 0.3, "probability of bidding when nobody has bid yet",
              minimum=0.0, maximum=1.0),
        Param("p_overbid", K.RP_OVERBID, 0.15, "probability of outbidding an existing bid",
              minimum=0.0, maximum=1.0),
        # (A longest ladder has MAX_BID_VALUES levels, capot and générale: no jump needs
        # more; the bid is capped at the top level anyway.)
        Param("max_jump", K.RP_MAX_JUMP, 2.0,
              "a bid goes 0..max_jump levels above the lowest legal level", integer=True,
              minimum=0, maximum=LAYOUT.MAX_BID_VALUES + 1),
        Param("p_coinche", K.RP_COINCHE, 0.05,
              "probability of coinching an opponents' bid when allowed",
              minimum=0.0, maximum=1.0),
        Param("p_surcoinche", K.RP_SURCOINCHE, 0.25,
              "probability of surcoinching when allowed", minimum=0.0, maximum=1.0),
    ),
)

#: The data-fitted bidder's parameters: margins searched in duplicate matches by
#: analysis/search_bidder.py (80 optuna trials, 20,000 deals against club and against the
#: unsearched bidder; analysis/output/bidder-search/federal.json, where the two coinche
#: margins still carry their first names fit_coinche_margin / fit_surcoinche_margin),
#: rounded to 0.1 — except compete_margin: the search's 59.4 made self-play a bidding war
#: (half the contracts at 160), which a duplicate match cannot see; 135 keeps self-play
#: sane (5.6 % at 160, 75 % made) and still beats both club and the 59.4 bidder
#: (analysis/output/bidder-search/compete-scan.json). The tables themselves are package
#: data (bid_tables), fitted with the searched margins.
FITTED_BIDDER_MARGINS = (
    Param("pass_ev", B.FB_PASS_EV, 2.4,
          "marks a pass is worth when nobody has bid (the donne may be redealt)"),
    Param("bid_margin", B.FB_BID_MARGIN, -11.2,
          "marks an opening must expect above passing"),
    Param("raise_margin", B.FB_RAISE_MARGIN, 21.6,
          "marks a bid over the partner's contract must expect above leaving it"),
    Param("compete_margin", B.FB_COMPETE_MARGIN, 135.0,
          "marks an overcall must expect above defending"),
    Param("coinche_margin", B.FB_COINCHE_MARGIN, 56.4,
          "marks a coinche must expect above defending undoubled"),
    Param("surcoinche_margin", B.FB_SURCOINCHE_MARGIN, 36.6,
          "marks a surcoinche must expect above playing coinched"),
    Param("capot_margin", B.FB_CAPOT_MARGIN, 40.7,
          "marks a capot bid must expect above the best other action"),
)
#: The data-fitted bidder's parameters: its margins (marks) and the score-aware switch.
FITTED_BIDDER_PARAMS = (
    *FITTED_BIDDER_MARGINS,
    Param("score_aware", SB.FB_SCORE_AWARE, 1.0,
          "in a partie, call for the best chance of winning it (match equity) instead of "
          "the best marks; 0 bids score-blind", integer=True, minimum=0, maximum=1),
    Param("score_gate", SB.FB_SCORE_GATE, 0.1,
          "in a partie, weigh the calls by match equity only where it bends by at least "
          "this over a donne's swing (second difference over first); elsewhere the "
          "equity is a straight line and the score-blind call is taken; 0 weighs every "
          "call", minimum=0),
)

#: The club player's parameters (its bidding conventions and its card play).
CLUB_PARAMS = tuple(Param(name, off, default, text) for name, off, default, text in H.PARAMS)
#: The card play's parameters (the heuristic card play reads only these).
CARD_PLAY_PARAMS = tuple(p for p in CLUB_PARAMS if p.offset == H.HP_CONTEST_POINTS)

HEURISTIC = PlayerKind(
    "heuristic", K.PLAYER_HEURISTIC,
    "data-fitted auction: every call (pass, each bid, coinche, surcoinche) valued in "
    "expected marks from tables fitted on the simulator's own donnes; card play from "
    "public information (the club player's)",
    (*CARD_PLAY_PARAMS, *FITTED_BIDDER_PARAMS),
)

CLUB = PlayerKind(
    "club", K.PLAYER_CLUB,
    "club-player conventions: hand evaluation per trump, opening with J or 9, raises for "
    "aces and ruffs, coinche/surcoinche on estimates; the heuristic player as it bid and "
    "played before the data-fitted auction, kept row for row as the yardstick",
    CLUB_PARAMS,
)

PIMC = PlayerKind(
    "pimc", K.PLAYER_PIMC,
    "perfect-information Monte Carlo: each card from `worlds` deals drawn uniformly among "
    "those consistent with what the seat has seen, each solved double dummy for every "
    "legal card; the best mean for its team. Bids like the heuristic player (data-fitted), "
    "or with bid_worlds > 0 tries every candidate call on deals consistent with the auction",
    (*HEURISTIC.params,
     Param("worlds", K.PM_WORLDS, 32.0, "deals sampled and solved per card played",
           integer=True, minimum=1, maximum=4096),
     Param("bid_worlds", K.PM_BID_WORLDS, 0.0,
           "thinking bidder: deals consistent with the auction on which every candidate "
           "call is finished by the model bidders and played out (0: bid with the tables)",
           integer=True, minimum=0, maximum=TB.MAX_BID_WORLDS // 2),
     Param("bid_candidates", K.PM_BID_CANDIDATES, 4.0,
           "thinking bidder: bids tried besides pass, coinche, surcoinche and the "
           "tables' own call (the best by the tables)", integer=True, minimum=1,
           maximum=TB.MAX_CANDIDATES - 4),
     Param("bid_tries", K.PM_BID_TRIES, 256.0,
           "thinking bidder: deals drawn per world wanted, at most, looking for deals on "
           "which the model bidders make the calls made", integer=True, minimum=1,
           maximum=4096),
     Param("bid_slack", K.PM_BID_SLACK, 1.0,
           "thinking bidder: ladder levels a model's bid may differ from the bid made "
           "(same kind) and still fit", integer=True, minimum=0, maximum=17),
     Param("bid_z", K.PM_BID_Z, 1.0,
           "thinking bidder: standard errors by which a call's mean gain over the tables' "
           "own call, world by world, must exceed zero to replace it", minimum=0.0,
           maximum=10.0)),
)

PLAYERS: dict[str, PlayerKind] = {p.name: p for p in (RANDOM, HEURISTIC, CLUB, PIMC)}
DEFAULT_PLAYERS = "heuristic"
#: colver's bots (:mod:`simcoinche.players.peers`, which plays them): they sit at
#: ``match`` only, so a spec elsewhere that names one, or a misspelt one anywhere, is
#: told so by :func:`get_player`'s error.
PEER_NAMES = ("colver-ismcts", "colver-isdd")


def get_player(name: str | PlayerKind) -> PlayerKind:
    """Player kind called ``name`` (case-insensitive).

    Raises
    ------
    InputError
        For an unknown name.
    """
    if isinstance(name, PlayerKind):
        return name
    key = str(name).strip().lower()
    if key not in PLAYERS:
        raise InputError(_unknown_player(name, key))
    return PLAYERS[key]


def _unknown_player(name: object, key: str) -> str:
    """The error for a player name that is none of ours: colver's bots, which play in
    ``match`` only, are named where the name is one of them or starts like them."""
    ours = ", ".join(PLAYERS)
    peers = ", ".join(PEER_NAMES)
    if key in PEER_NAMES:
        return (f"player {name!r} is one of colver's bots, which play only in "
                f"`simcoinche match`; players here: {ours}")
    if key.startswith("colver"):
        return (f"unknown player {name!r}; colver's bots are {peers} (in `simcoinche "
                f"match` only); our players: {ours}")
    return f"unknown player {name!r}; available: {ours}"


def parse_team_specs(spec: str | Sequence[str] | None
                     ) -> tuple[tuple[PlayerKind, dict[str, float]],
                                tuple[PlayerKind, dict[str, float]]]:
    """Player spec (kind and parameter overrides) of team 0 and team 1.

    ``spec`` is one spec for both teams or two separated by a comma; a spec is ``KIND`` or
    ``KIND:name=value,...`` (:func:`parse_player_spec`): ``"pimc"``,
    ``"pimc:worlds=16,heuristic"``, ``"heuristic:bid_margin=5,coinche_margin=20,random"``
    (a ``name=value`` item after a comma belongs to the spec before it), or a pair.

    Raises
    ------
    InputError
        For an unknown player or parameter, a malformed spec or more than two teams.
    """
    if spec is None:
        spec = DEFAULT_PLAYERS
    if isinstance(spec, str):
        parts: list[str] = []
        for item in spec.split(","):
            if parts and "=" in item and ":" not in item:
                parts[-1] += "," + item  # another parameter of the spec before
            else:
                parts.append(item)
    elif isinstance(spec, (list, tuple)) and all(isinstance(p, (str, PlayerKind))
                                                 for p in spec):
        parts = list(spec)
    else:
        raise InputError(f"players must be a spec such as 'heuristic' or "
                         f"'random,heuristic', or a pair of them, got {spec!r}")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise InputError(f"players {spec!r}: give one kind or two (TEAM0,TEAM1)")
    a, b = (parse_player_spec(p) if isinstance(p, str) else (get_player(p), {})
            for p in parts)
    return a, b


def parse_players(spec: str | Sequence[str] | None) -> tuple[PlayerKind, PlayerKind]:
    """Players of team 0 and team 1 from ``"heuristic"``, ``"random,heuristic"``,
    ``"pimc:worlds=16,heuristic"`` or a pair (parameters: :func:`parse_team_specs`).

    Raises
    ------
    InputError
        For an unknown player or more than two teams.
    """
    a, b = parse_team_specs(spec)
    return a[0], b[0]


#: The kinds that bid with the data-fitted tables (:mod:`simcoinche._kernels.bidder`).
FITTED_BIDDERS = frozenset({K.PLAYER_HEURISTIC, K.PLAYER_PIMC})


@cache
def _equity_block(profile: str) -> np.ndarray:
    block = shipped_table(profile).coarse_block()
    block.setflags(write=False)
    return block


def param_array(kind: str | PlayerKind, overrides: Mapping[str, float] | None = None,
                profile: Profile | str | None = None,
                tables: np.ndarray | None = None,
                outcomes: np.ndarray | None = None) -> np.ndarray:
    """The ``float64[PARAM_LEN]`` parameter row of a player kind, defaults + overrides.

    The heuristic and PIMC players bid with tables fitted per profile: their row carries
    ``profile``'s shipped tables (or ``tables``, a ``float64[BT_LEN]`` block of
    :mod:`simcoinche.players.bid_fit` fitted for ``profile``) and the blocks derived from
    them (:func:`~simcoinche.players.bid_tables.best_levels`,
    :func:`~simcoinche._kernels.bidder.fill_suit_prefixes`), the cells' outcome spread
    (``outcomes``; default the shipped one, none with given ``tables``: such a row, made
    while tables are fitted, refuses to bid in a partie) and the profile's match equity on the
    bidder's grid (:meth:`~simcoinche.players.equity.EquityTable.coarse_block`), which the
    score-aware bidder reads in a partie (issue 22). Without a profile the table
    section stays empty and the kernel refuses to bid from it (the run fails on the
    illegal call), which only parameter checks may rely on.

    Raises
    ------
    InputError
        For a parameter name the kind does not have, or a non-numeric value.
    """
    pk = get_player(kind)
    row = np.zeros(K.PARAM_LEN, dtype=np.float64)
    if pk.code in FITTED_BIDDERS and (profile is not None or tables is not None):
        if profile is None:
            raise InputError("bidder tables need the profile they were fitted for")
        given_tables = tables is not None
        if tables is None:
            # The package's tables: those of the shipped profile whose rules ``profile``
            # plays (a hand-built variant that changes a donne's rules has none).
            profile = shipped_rules(profile, "the bidding tables of players heuristic and "
                                    "pimc", "seat players that bid without them (random, "
                                    "club)")
            tables = bid_tables(profile)
        else:
            check_tables(tables, profile, "tables")
        row[BL.BT_OFFSET:BL.BT_OFFSET + BL.BT_LEN] = tables
        row[BL.BT_BEST:BL.BT_BEST + BL.BT_BEST_LEN] = best_levels(tables, profile)
        B.fill_suit_prefixes(row[None, :], 0)
        # The score-aware bidder's inputs (issue 22): the cells' spread, the equity grid.
        # Tables being fitted come without a spread: the row then refuses to bid in a
        # partie (a counted fault), which a fit never plays.
        if outcomes is None and given_tables:
            row[BL.BO_KEY] = np.nan
        else:
            if outcomes is None:
                outcomes = bid_outcomes(profile)
            else:
                check_outcomes(outcomes, profile, "outcomes")
            row[BL.BT_OUTCOMES:BL.BT_OUTCOMES + BL.BO_LEN] = outcomes
        row[BL.BT_EQUITY:BL.BT_END] = _equity_block(get_profile(profile).name)
    elif pk.code in FITTED_BIDDERS:
        row[BL.BT_KEY] = np.nan
    by_name = {p.name: p for p in pk.params}
    for p in pk.params:
        row[p.offset] = p.default
    for name, value in (overrides or {}).items():
        if name not in by_name:
            raise InputError(f"unknown parameter {name!r} of player {pk.name}; known: "
                             + ", ".join(by_name))
        if isinstance(value, (bool, np.bool_, str, bytes)):
            # (True would be 1.0, "5" would be 5.0: a number is asked for)
            raise InputError(f"parameter {name!r}: {value!r} is not a number")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise InputError(f"parameter {name!r}: {value!r} is not a number") from None
        by_name[name].check(pk.name, number)
        row[by_name[name].offset] = number
    return row


def params_dict(kind: str | PlayerKind, row: np.ndarray) -> dict[str, float]:
    """Named view of a parameter row (for the run metadata)."""
    pk = get_player(kind)
    return {p.name: float(row[p.offset]) for p in pk.params}


def spec_metadata(spec: str, profile: Profile | str | None = None
                  ) -> tuple[str, dict[str, float]]:
    """What a run of player spec ``spec`` under ``profile`` stores of it in its metadata:
    the kind's name (a ``players`` entry) and every parameter's value (a ``params``
    entry). A kept run was made by this spec only if both match (the name alone does not
    tell ``heuristic`` from ``heuristic:score_aware=0``)."""
    kind, overrides = parse_player_spec(spec)
    return kind.name, params_dict(kind, param_array(kind, overrides, profile=profile))


def named_params(row: np.ndarray) -> np.ndarray:
    """The named part of a parameter row (offsets below ``BT_OFFSET``): what the run
    metadata keeps (the tables are package data, named by the package version)."""
    return np.asarray(row)[..., :BL.BT_OFFSET]


def parse_player_spec(spec: str) -> tuple[PlayerKind, dict[str, float]]:
    """A player kind with parameter overrides from ``"KIND"`` or ``"KIND:name=value,…"``.

    ``"heuristic:bid_margin=5,coinche_margin=20"`` is the heuristic player with two
    parameters changed (names: :attr:`PlayerKind.params`). Used by ``simcoinche match``,
    where each of the two players is one such spec.

    Raises
    ------
    InputError
        For an unknown kind or parameter, a malformed ``name=value`` or a non-number.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InputError(f"player {spec!r}: give KIND or KIND:name=value,...")
    kind_text, sep, rest = spec.partition(":")
    kind = get_player(kind_text)
    overrides = parse_spec_params(spec, rest) if sep else {}
    param_array(kind, overrides)  # unknown names → InputError naming the parameter
    return kind, overrides


def parse_spec_params(spec: str, rest: str) -> dict[str, float]:
    """The ``name=value,…`` part ``rest`` of the player spec ``spec`` (after its ``:``),
    in the order given; the names are not checked here (each kind knows its own).

    Raises
    ------
    InputError
        For an empty part, an item that is not ``name=value``, a name given twice, or a
        value that is not a finite number.
    """
    if not rest.strip():
        raise InputError(f"player {spec!r}: nothing after ':' (give name=value,...)")
    overrides: dict[str, float] = {}
    for item in rest.split(","):
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise InputError(f"player {spec!r}: {item.strip()!r} is not name=value")
        if name in overrides:
            raise InputError(f"player {spec!r}: parameter {name!r} given twice")
        try:
            number = float(value)
        except ValueError:
            raise InputError(f"player {spec!r}: parameter {name!r}: {value.strip()!r} "
                             "is not a number") from None
        if not np.isfinite(number):
            raise InputError(f"player {spec!r}: parameter {name!r} must be finite")
        overrides[name] = number
    return overrides


def spec_name(kind: str | PlayerKind, overrides: Mapping[str, float] | None = None) -> str:
    """Canonical text of a player spec: ``"heuristic"``, ``"heuristic:bid_margin=5"``
    (overrides in the order given, values as short as they print exactly)."""
    pk = get_player(kind)
    if not overrides:
        return pk.name
    items = []
    for name, value in overrides.items():
        v = float(value)
        text = f"{v:g}"
        if float(text) != v:
            text = repr(v)
        items.append(f"{name}={text}")
    return pk.name + ":" + ",".join(items)
