"""Hand features, computed with numpy on whole columns of ``uint32`` bitboards.

Two entry points:

- :func:`features_for` — features of any array of hands under any array (or one value)
  of contract kinds; returns a dict of ``numpy`` arrays. Use it to ask "what if hearts
  were trump" for every seat: ``features_for(df["hand_2"].to_numpy(), 1)``.
- :func:`hand_features` — features of the hand of one *role* relative to the taker in a
  results DataFrame (Parquet schema of ``docs/ARCHITECTURE.md``); returns a DataFrame
  with pandas nullable dtypes, missing (``<NA>``) on passed-out donnes.

Feature names (all counts are of cards or suits of the one hand, or of the team, see
:func:`hand_features`):

========================  ===========================================================
``n_cards``               cards in the hand (8; 16 for a team)
``trump_len``             cards of the trump suit held
``trump_J`` ``trump_9``   holds the jack / nine / ace / ten of trump (1 or 0)
``trump_A`` ``trump_T``
``top_trumps``            how many of J, 9, A of trump are held (0..3)
``belote``                belotes held: K+Q of trump (0/1) at a suit contract; at
                          tout-atout one per suit whose K+Q are held (0..4); 0 at
                          sans-atout ("none in SA", RULES.md ``classic``)
``majors``                the "majeurs" of source 002 "CONVENTIONS D'ANNONCE": at a suit
                          contract J and 9 of trump (0..2); at tout-atout the jacks,
                          at sans-atout the aces (0..4) ("80 pour 2 majeurs (valet ou
                          as), 90 pour 3 et 100 lorsque l'on possède les 4")
``outside_aces``          aces in the non-trump suits
``outside_tens_guarded``  tens in non-trump suits held with at least one other card of
                          their suit
``outside_tens_bare``     tens in non-trump suits held alone ("10 sec")
``voids_outside``         non-trump suits with no card
``singletons_outside``    non-trump suits with exactly one card
``voids``                 suits with no card (all four suits)
``singletons``            suits with exactly one card (all four suits)
``longest``               length of the longest suit
``points``                card points held under the contract (suit contract: the
                          profile's ``trump_points`` in the trump suit and
                          ``plain_points`` elsewhere; SA ``sa_points``; TA
                          ``ta_points``)
========================  ===========================================================

Sans-atout (kind 4) and tout-atout (kind 5) have no single trump suit. There the
trump-card features ``trump_len``, ``trump_J``, ``trump_9``, ``trump_A``, ``trump_T`` and
``top_trumps`` are undefined: ``-1`` in :func:`features_for`, ``<NA>`` in
:func:`hand_features`. The "outside" features count over all four suits at SA (no suit
is trump) and are undefined at TA (no suit is outside). ``belote``, ``majors``,
``voids``, ``singletons``, ``longest``, ``points`` and ``n_cards`` are defined for every
kind.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simcoinche.analysis.frames import require_columns
from simcoinche.rules.cards import CONTRACT_KIND_NAMES, SANS_ATOUT, TOUT_ATOUT
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

#: Feature names in output order.
FEATURES: tuple[str, ...] = (
    "n_cards",
    "trump_len",
    "trump_J",
    "trump_9",
    "trump_A",
    "trump_T",
    "top_trumps",
    "belote",
    "majors",
    "outside_aces",
    "outside_tens_guarded",
    "outside_tens_bare",
    "voids_outside",
    "singletons_outside",
    "voids",
    "singletons",
    "longest",
    "points",
)
#: Features undefined at sans-atout and tout-atout (no single trump suit).
TRUMP_ONLY: tuple[str, ...] = (
    "trump_len", "trump_J", "trump_9", "trump_A", "trump_T", "top_trumps",
)
#: Features undefined at tout-atout only (no suit is "outside").
OUTSIDE: tuple[str, ...] = (
    "outside_aces", "outside_tens_guarded", "outside_tens_bare",
    "voids_outside", "singletons_outside",
)
#: Roles accepted by :func:`hand_features`, with the seat offset from the taker.
ROLES: dict[str, int] = {"taker": 0, "left": 1, "partner": 2, "right": 3}

# Rank bits inside one suit's byte (rank index 7 8 9 T J Q K A = bit 0..7).
_B9, _BT, _BJ, _BQ, _BK, _BA = 2, 3, 4, 5, 6, 7
_KQ = (1 << _BK) | (1 << _BQ)
_SHIFTS = np.array([0, 8, 16, 24], dtype=np.uint32)
# Popcount of every byte value.
POP8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.int8)
_HAS_BITWISE_COUNT = hasattr(np, "bitwise_count")


def popcount(x: np.ndarray) -> np.ndarray:
    """Number of set bits of each element of an unsigned integer array.

    Uses ``np.bitwise_count`` when the installed numpy has it (numpy >= 2.0), else a
    256-entry byte table.

    Parameters
    ----------
    x : ndarray of uint8/uint16/uint32/uint64

    Returns
    -------
    ndarray of int8, same shape as ``x``.
    """
    x = np.asarray(x)
    if x.dtype.kind not in "iu" or (x.dtype.kind == "i" and x.size and x.min() < 0):
        raise InputError(f"popcount counts the bits of non-negative integers, got "
                         f"{'negative values' if x.dtype.kind == 'i' else x.dtype}")
    if _HAS_BITWISE_COUNT:
        return np.bitwise_count(x).astype(np.int8)
    out = np.zeros(x.shape, dtype=np.int8)
    v = x.astype(np.uint64)
    for _ in range(x.dtype.itemsize):
        out += POP8[(v & 0xFF).astype(np.intp)]
        v = v >> np.uint64(8)
    return out


def suit_bytes(hands: np.ndarray) -> np.ndarray:
    """Split bitboards into their four suit bytes.

    Parameters
    ----------
    hands : ndarray of uint32, shape (n,)

    Returns
    -------
    ndarray of uint8, shape (n, 4); column ``s`` holds bits ``8*s .. 8*s+7`` (bit ``r`` =
    rank index ``r``, 7 8 9 T J Q K A).
    """
    hands = _as_hands(hands)
    return ((hands[:, None] >> _SHIFTS) & np.uint32(0xFF)).astype(np.uint8)


def _byte_points(table: Sequence[int]) -> np.ndarray:
    """Points of every suit byte (256 values) under a per-rank point table."""
    t = np.asarray(table, dtype=np.int16)
    out = np.zeros(256, dtype=np.int16)
    for r in range(8):
        out += ((np.arange(256) >> r) & 1).astype(np.int16) * t[r]
    return out


def _as_hands(hands: object) -> np.ndarray:
    """Validate and convert to a 1-D ``uint32`` array."""
    a = np.asarray(hands)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise InputError(f"hands must be a 1-D array of bitboards, got shape {a.shape}")
    if a.dtype == np.uint32:
        return a
    if a.dtype.kind not in "iu":
        raise InputError(f"hands must be integer bitboards, got dtype {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > 0xFFFFFFFF):
        raise InputError("hands must be uint32 bitboards: a value is outside 0..2**32-1")
    return a.astype(np.uint32)


def _parse_kind(trump: object) -> int:
    """A contract kind given as an int 0..5 or a name (``H``, ``SA``, ``TA``)."""
    if isinstance(trump, str):
        t = trump.strip().upper()
        if t not in CONTRACT_KIND_NAMES:
            raise InputError(f"unknown trump {trump!r}: expected one of "
                             + " ".join(CONTRACT_KIND_NAMES) + " or 0..5")
        return CONTRACT_KIND_NAMES.index(t)
    if isinstance(trump, (int, np.integer)) and not isinstance(trump, bool):
        if 0 <= int(trump) <= 5:
            return int(trump)
    raise InputError(f"unknown trump {trump!r}: expected a contract kind 0..5 or a name")


def _as_trumps(trump: object, n: int) -> np.ndarray:
    """Validate contract kinds (one value or an array of ``n``) → ``int8[n]``."""
    if isinstance(trump, (str, int, np.integer)):
        return np.full(n, _parse_kind(trump), dtype=np.int8)
    t = np.asarray(trump)
    if t.shape != (n,):
        raise InputError(f"trump must be one kind or an array of {n} kinds, got shape "
                         f"{t.shape}")
    if t.dtype.kind not in "iu":
        raise InputError(f"trump kinds must be integers 0..5, got dtype {t.dtype}")
    if n and (t.min() < 0 or t.max() > 5):
        bad = t[(t < 0) | (t > 5)][0]
        raise InputError(f"trump kind {int(bad)} out of range 0..5")
    return t.astype(np.int8)


def features_for(
    hands: np.ndarray, trump: object, profile: str | Profile | None = None
) -> dict[str, np.ndarray]:
    """Features of each hand under a contract kind (vectorised, no per-row Python).

    Parameters
    ----------
    hands : array-like of uint32, shape (n,)
        Bitboards (bit ``suit * 8 + rank``); any number of cards.
    trump : int, str or array-like of int, shape (n,)
        Contract kind per hand (0..3 suit S H D C, 4 SA, 5 TA) or one kind for all;
        a name such as ``"H"`` or ``"SA"`` is accepted.
    profile : str or Profile, optional
        Point tables come from it (default ``federal``).

    Returns
    -------
    dict of str -> ndarray, shape (n,)
        One entry per name in :data:`FEATURES`; ``int8`` except ``points`` (``int16``).
        Undefined values (see the module docstring: trump-card features at SA/TA,
        "outside" features at TA) are ``-1``.

    Raises
    ------
    InputError
        When ``hands`` are not bitboards or ``trump`` is not a contract kind.
    """
    prof = get_profile(profile)
    h = _as_hands(hands)
    n = h.shape[0]
    t = _as_trumps(trump, n)
    suits = suit_bytes(h)                         # (n, 4) uint8
    lens = POP8[suits]                            # (n, 4) int8 cards per suit
    is_suit = t < 4
    is_sa = t == SANS_ATOUT
    is_ta = t == TOUT_ATOUT
    rows = np.arange(n)
    tb = suits[rows, np.where(is_suit, t, 0)]      # trump suit byte (meaningless at SA/TA)

    def bit(b: np.ndarray, r: int) -> np.ndarray:
        return ((b >> r) & 1).astype(np.int8)

    undef = ~is_suit                               # trump-card features undefined
    out: dict[str, np.ndarray] = {}
    out["n_cards"] = lens.sum(axis=1, dtype=np.int8)
    out["trump_len"] = np.where(undef, -1, POP8[tb]).astype(np.int8)
    tj, t9, ta, tt = bit(tb, _BJ), bit(tb, _B9), bit(tb, _BA), bit(tb, _BT)
    out["trump_J"] = np.where(undef, -1, tj).astype(np.int8)
    out["trump_9"] = np.where(undef, -1, t9).astype(np.int8)
    out["trump_A"] = np.where(undef, -1, ta).astype(np.int8)
    out["trump_T"] = np.where(undef, -1, tt).astype(np.int8)
    out["top_trumps"] = np.where(undef, -1, tj + t9 + ta).astype(np.int8)
    # Belote: K+Q of trump; at TA one per suit whose K+Q are held; none at SA.
    kq = ((suits & _KQ) == _KQ).astype(np.int8)   # (n, 4)
    out["belote"] = np.select(
        [is_suit, is_ta], [kq[rows, np.where(is_suit, t, 0)], kq.sum(axis=1)], 0
    ).astype(np.int8)
    # Majors (source 002): suit → J and 9 of trump; TA → jacks; SA → aces.
    jacks = bit(suits, _BJ).sum(axis=1)
    aces = bit(suits, _BA).sum(axis=1)
    out["majors"] = np.select([is_suit, is_ta], [tj + t9, jacks], aces).astype(np.int8)
    # Outside suits: every suit but the trump suit; all four at SA; none at TA.
    outside = (np.arange(4)[None, :] != t[:, None]) | is_sa[:, None]
    ten = bit(suits, _BT)
    outside_vals = {
        "outside_aces": (bit(suits, _BA) & outside).sum(axis=1),
        "outside_tens_guarded": (ten & (lens >= 2) & outside).sum(axis=1),
        "outside_tens_bare": (ten & (lens == 1) & outside).sum(axis=1),
        "voids_outside": ((lens == 0) & outside).sum(axis=1),
        "singletons_outside": ((lens == 1) & outside).sum(axis=1),
    }
    for name, v in outside_vals.items():
        out[name] = np.where(is_ta, -1, v).astype(np.int8)
    out["voids"] = (lens == 0).sum(axis=1).astype(np.int8)
    out["singletons"] = (lens == 1).sum(axis=1).astype(np.int8)
    out["longest"] = lens.max(axis=1, initial=0).astype(np.int8)
    # Points: per-byte tables (0 trump, 1 plain, 2 SA, 3 TA); which one each suit uses.
    tables = np.stack([
        _byte_points(prof.trump_points), _byte_points(prof.plain_points),
        _byte_points(prof.sa_points), _byte_points(prof.ta_points),
    ])
    which = np.ones((6, 4), dtype=np.intp)        # suit contract: plain outside trump
    which[np.arange(4), np.arange(4)] = 0         # ... trump table in the trump suit
    which[SANS_ATOUT, :] = 2
    which[TOUT_ATOUT, :] = 3
    out["points"] = tables[which[t], suits].sum(axis=1).astype(np.int16)
    return {k: out[k] for k in FEATURES}


def role_hands(df: pd.DataFrame, role: str) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the hand of a role relative to the taker.

    Parameters
    ----------
    df : DataFrame
        Results (columns ``taker``, ``hand_0`` .. ``hand_3``; ``passed_out`` if present).
    role : {"taker", "partner", "left", "right"}
        ``left`` is the seat after the taker (``(taker + 1) & 3``), ``right`` the seat
        before it (``(taker + 3) & 3``), ``partner`` ``taker ^ 2``.

    Returns
    -------
    hands : ndarray of uint32, shape (n,)
        The role's hand (0 on passed-out rows).
    valid : ndarray of bool, shape (n,)
        False where the donne was passed out (no taker).
    """
    if role not in ROLES:
        raise InputError(f"unknown role {role!r}: expected one of "
                         + ", ".join([*ROLES, "team"]))
    require_columns(df, ["taker", "hand_0", "hand_1", "hand_2", "hand_3"])
    if "passed_out" in df.columns:
        require_columns(df, ["passed_out"])
    taker = df["taker"].to_numpy(dtype=np.int64, na_value=-1)
    valid = taker >= 0
    if "passed_out" in df.columns:
        valid &= ~df["passed_out"].to_numpy(dtype=bool, na_value=True)
    all_hands = df[["hand_0", "hand_1", "hand_2", "hand_3"]].to_numpy(dtype=np.uint32)
    seat = (np.where(valid, taker, 0) + ROLES[role]) & 3
    hands = np.where(valid, all_hands[np.arange(len(df)), seat], np.uint32(0))
    return hands.astype(np.uint32), valid


def contract_kinds(df: pd.DataFrame) -> np.ndarray:
    """The ``trump`` column as contract kinds ``int64`` (0..5, -1 when passed out).

    Accepts the raw integer column of the Parquet schema, the categorical of names
    (``S H D C SA TA``) that :func:`simcoinche.runs.results.read_results` returns, or names
    as text.
    """
    require_columns(df, ["trump"])
    col = df["trump"]
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = [str(c).upper() for c in col.cat.categories]
        bad = [c for c in cats if c not in CONTRACT_KIND_NAMES]
        if bad:
            raise InputError(f"column 'trump' has unknown contract {bad[0]!r}")
        lut = np.array([CONTRACT_KIND_NAMES.index(c) for c in cats] + [-1], dtype=np.int64)
        return lut[col.cat.codes.to_numpy(dtype=np.int64)]      # code -1 → last entry, -1
    if col.dtype.kind in "iub" or pd.api.types.is_integer_dtype(col.dtype):
        return col.to_numpy(dtype=np.int64, na_value=-1)
    names = col.astype("string").str.upper()
    kinds = np.full(len(col), -1, dtype=np.int64)
    for k, name in enumerate(CONTRACT_KIND_NAMES):
        kinds[(names == name).fillna(False).to_numpy(dtype=bool)] = k
    unknown = names.notna().to_numpy(dtype=bool) & (kinds < 0)
    if unknown.any():
        raise InputError(f"column 'trump' has unknown contract {col[unknown].iloc[0]!r}")
    return kinds


def _to_frame(values: dict[str, np.ndarray], valid: np.ndarray,
              index: pd.Index) -> pd.DataFrame:
    """Nullable-dtype DataFrame; ``-1`` (undefined) and invalid rows become ``<NA>``."""
    cols = {}
    for name in FEATURES:
        v = values[name]
        dtype = "Int16" if name == "points" else "Int8"
        cols[name] = pd.array(v, dtype=dtype)
        cols[name][(~valid) | (v < 0)] = pd.NA
    return pd.DataFrame(cols, index=index)


def hand_features(
    df: pd.DataFrame,
    role: str = "taker",
    trump: object = None,
    profile: str | Profile | None = None,
) -> pd.DataFrame:
    """Features of one role's hand (or of the taking team) on every row of a results table.

    Parameters
    ----------
    df : DataFrame
        Results in the Parquet schema (``hand_0`` .. ``hand_3``, ``taker``, ``trump``,
        ``passed_out``).
    role : {"taker", "partner", "left", "right", "team"}
        Whose hand, relative to the taker: ``left`` = seat after the taker, ``right`` =
        seat before it. ``team`` = the taker's and partner's hands together: features
        that are counts of cards (``n_cards``, ``trump_len``, the trump-card flags,
        ``top_trumps``, ``majors``, ``outside_aces``, ``points``) and ``longest``
        (longest combined suit) are those of the union, so lengths and points add up;
        ``belote``, ``outside_tens_guarded``/``bare``, ``voids*`` and ``singletons*``
        are summed over the two hands (a belote, a guard or a void belongs to one
        player).
    trump : int, str or array-like, optional
        Contract kind to evaluate under; default: each row's ``trump`` column (the
        contract actually played; integer kinds or the categorical of names that
        :func:`simcoinche.runs.results.read_results` returns). One kind (``1`` or
        ``"H"``) asks "what if this were trump" for every row.
    profile : str or Profile, optional
        Point tables (default ``federal``).

    Returns
    -------
    DataFrame
        Index of ``df``; columns :data:`FEATURES` with dtypes ``Int8`` (``points``:
        ``Int16``). ``<NA>`` on passed-out donnes and for features undefined under the
        row's contract kind (module docstring). Join with a prefix:
        ``df.join(hand_features(df, "taker").add_prefix("taker_"))``.

    Raises
    ------
    InputError
        Unknown role, missing column, or an invalid trump.
    """
    if role == "team":
        h1, valid = role_hands(df, "taker")
        h2, _ = role_hands(df, "partner")
    else:
        h1, valid = role_hands(df, role)
        h2 = None
    if trump is None:
        kinds = contract_kinds(df)
        valid = valid & (kinds >= 0) & (kinds <= 5)
        kinds = np.where(valid, kinds, 0)
    else:
        kinds = _as_trumps(trump if isinstance(trump, (str, int, np.integer))
                           else np.asarray(trump), len(df))
    if h2 is None:
        return _to_frame(features_for(h1, kinds, profile), valid, df.index)
    union = features_for(h1 | h2, kinds, profile)
    f1 = features_for(h1, kinds, profile)
    f2 = features_for(h2, kinds, profile)
    for name in ("belote", "outside_tens_guarded", "outside_tens_bare",
                 "voids_outside", "singletons_outside", "voids", "singletons"):
        # -1 (undefined) in one is -1 in both: keep it undefined.
        union[name] = np.where(f1[name] < 0, -1, f1[name] + f2[name]).astype(np.int8)
    return _to_frame(union, valid, df.index)
