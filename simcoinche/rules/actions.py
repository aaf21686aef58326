"""Auction actions: text tokens and their compact ``uint8`` codes.

Codes (the same in kernels, Parquet ``--record-play`` columns and the reference engine):

- ``0`` pass, ``1`` coinche, ``2`` surcoinche;
- a bid: ``BID_BASE + level * 6 + kind`` where ``level`` indexes the profile's ladder
  (numeric values first, then capot, then générale when the profile has it) and ``kind``
  is the contract kind (0..3 suit S H D C, 4 SA, 5 TA). The largest code is below 256.

Tokens (case-insensitive): ``pass``, ``coinche``, ``surcoinche``, ``80H``, ``120S``,
``capotD`` (capot in diamonds), ``90SA`` (sans-atout), ``120TA`` (tout-atout),
``generaleH`` (also ``généraleH``: a générale in hearts, the seat being whoever bids
it), and each profile's own values (stephanoise ``82S``, ``85SA``, ``95H``…).
"""

from __future__ import annotations

# The reason codes are the auction kernel's (plain ints), re-exported as the rules' names:
# the reference engine (which imports no kernel) reads them as act.R_*.
from simcoinche._kernels.auction import (  # noqa: F401
    R_ALREADY_COINCHED,
    R_ALREADY_SURCOINCHED,
    R_AUCTION_OVER,
    R_BID_AFTER_COINCHE,
    R_BID_NOT_HIGHER,
    R_COINCHE_NO_BID,
    R_COINCHE_OWN_TEAM,
    R_NOT_IN_PROFILE,
    R_OK,
    R_SURCOINCHE_NO_COINCHE,
    R_SURCOINCHE_NOT_TAKERS,
)
from simcoinche.rules.cards import CONTRACT_KIND_NAMES
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import Profile, get_profile

PASS = 0
COINCHE = 1
SURCOINCHE = 2
BID_BASE = 8
N_KINDS = 6


def bid_code(level: int, kind: int) -> int:
    """Code of a bid at ladder ``level`` in contract ``kind``."""
    return BID_BASE + level * N_KINDS + kind


def is_bid(code: int) -> bool:
    """True when ``code`` is a bid (not pass, coinche or surcoinche)."""
    return code >= BID_BASE


def bid_level(code: int) -> int:
    """Ladder level of a bid code."""
    return (code - BID_BASE) // N_KINDS


def bid_kind(code: int) -> int:
    """Contract kind of a bid code."""
    return (code - BID_BASE) % N_KINDS


def _parse_kind(text: str, token: str, profile: Profile) -> int:
    t = text.upper()
    if t not in CONTRACT_KIND_NAMES:
        raise InputError(f"unknown auction token {token!r}: unknown contract {text!r}")
    kind = CONTRACT_KIND_NAMES.index(t)
    if kind not in profile.contract_kinds:
        raise InputError(
            f"unknown auction token {token!r}: no {t} contracts in profile {profile.name}"
        )
    return kind


def parse_action(token: str, profile: Profile | str) -> int:
    """Parse an auction token into its code (``profile``: a profile or its name).

    Raises
    ------
    InputError
        For a token that is not an action of ``profile`` (unknown word, value off the
        ladder, unknown suit).
    """
    profile = get_profile(profile)
    if not isinstance(token, str):
        raise InputError(f"unknown auction token {token!r}: expected text such as '80H'")
    t = token.strip()
    low = t.lower()
    if low == "pass":
        return PASS
    if low == "coinche":
        return COINCHE
    if low == "surcoinche":
        return SURCOINCHE
    n = len(profile.bid_values)
    if low.startswith("capot"):
        return bid_code(n, _parse_kind(t[5:], token, profile))
    if low.startswith(("generale", "générale")):
        if not profile.generale_value:
            raise InputError(f"unknown auction token {token!r}: no générale in profile "
                             f"{profile.name}")
        # The bidder himself must take all 8 tricks: the seat is whoever bids it.
        return bid_code(n + 1, _parse_kind(t[8:], token, profile))
    digits = len(t) - len(t.lstrip("0123456789"))
    if digits == 0:
        raise InputError(f"unknown auction token {token!r}: expected pass, coinche, "
                         "surcoinche, a bid such as 80H, 90SA or capotS")
    value = int(t[:digits])
    if value not in profile.bid_values:
        raise InputError(f"unknown auction token {token!r}: {value} is not a bid value of "
                         f"profile {profile.name} ({', '.join(map(str, profile.bid_values))})")
    return bid_code(profile.bid_values.index(value), _parse_kind(t[digits:], token, profile))


def parse_actions(tokens: list[str], profile: Profile | str, where: str = "auction[{i}]"
                  ) -> list[int]:
    """Codes of a sequence of tokens (:func:`parse_action` each).

    Raises
    ------
    InputError
        For the first bad token, its message prefixed with ``where`` formatted with the
        token's index ``i`` (from 0) and position ``n`` (from 1).
    """
    profile = get_profile(profile)
    codes = []
    for i, tok in enumerate(tokens):
        try:
            codes.append(parse_action(tok, profile))
        except InputError as exc:
            raise InputError(f"{where.format(i=i, n=i + 1)}: {exc}") from None
    return codes


def format_action(code: int, profile: Profile | str) -> str:
    """Canonical token of an action code (``pass``, ``80H``, ``90SA``, ``capotS``)."""
    profile = get_profile(profile)
    if code == PASS:
        return "pass"
    if code == COINCHE:
        return "coinche"
    if code == SURCOINCHE:
        return "surcoinche"
    level, kind = bid_level(code), bid_kind(code)
    n = len(profile.bid_values)
    name = CONTRACT_KIND_NAMES[kind]
    if level < n:
        return f"{profile.bid_values[level]}{name}"
    if level == n:
        return f"capot{name}"
    return f"generale{name}"


# Why an auction action is illegal: the codes are the auction kernel's (R_*), the text is
# what `simcoinche score` prints ({current} = the current highest bid's token).
AUCTION_REASONS: dict[int, str] = {
    R_AUCTION_OVER: "the auction is over",
    R_BID_NOT_HIGHER: "bid must be above {current}",
    R_BID_AFTER_COINCHE: "cannot bid after a coinche",
    R_COINCHE_NO_BID: "no bid to coinche",
    R_COINCHE_OWN_TEAM: "cannot coinche own team's bid",
    R_ALREADY_COINCHED: "the bid is already coinched",
    R_SURCOINCHE_NO_COINCHE: "no coinche to surcoinche",
    R_SURCOINCHE_NOT_TAKERS: "only the bidding team may surcoinche",
    R_ALREADY_SURCOINCHED: "already surcoinched",
    R_NOT_IN_PROFILE: "not allowed in this profile",
}
