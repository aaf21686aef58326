"""Rule profiles: frozen data, packed into a small ``int32`` array for the kernels.

Each profile is one rule system of ``RULES.md``. Every variation point the four
systems need is a field here; kernels branch on the packed values, never on globals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from simcoinche._kernels import layout as L
from simcoinche._kernels.tables import PLAIN_POINTS, TRUMP_POINTS
from simcoinche.errors import InputError

#                    7  8    9    T    J    Q    K    A
_FEDERAL_CARRES = (0, 0, 150, 100, 200, 100, 100, 100)
#                    len 0  1  2   3   4    5    6    7    8
_FEDERAL_SUITES = (0, 0, 0, 20, 50, 100, 100, 100, 100)


@dataclass(frozen=True)
class Profile:
    """One rule system. Field comments quote the RULES.md line they encode."""

    name: str
    description: str
    source: str
    # Deal: "Deal 8 cards each in rounds of 3, 2, 3, starting with seat D+1."
    deal_rounds: tuple[int, int, int] = (3, 2, 3)
    auction_cards: int = 8
    # "Cut: ... leaving at least 3 cards in each packet (cut point uniform in 3..29)."
    cut_min: int = 3
    # "Bid values 80, 90, …, 160, then capot (all 8 tricks), which beats every number."
    bid_values: tuple[int, ...] = tuple(range(80, 161, 10))
    capot_value: int = 250
    generale_value: int = 0
    allow_sa: bool = False
    allow_ta: bool = False
    coinche_ends_auction: bool = False
    allow_surcoinche: bool = True
    allow_decoinche: bool = False
    no_coinche_80: bool = False
    # "si l'atout adverse est imbattable, vous pouvez défausser au lieu de sous-couper"
    must_undertrump: bool = False
    must_trump_over_partner: bool = False
    last_trick_bonus: int = 10
    # "a team that wins all 8 tricks has C = 252 (152 + 100 instead of 10)"
    capot_card_points: int = 252
    announcements: int = 1
    belote_points: int = 20
    capot_transfers_announcements: bool = True
    success_rule: int = 0
    scoring_rule: int = 0
    failed_base: int = 160
    sa_multiplier: int = 1
    rounding: bool = True
    annul_max_points: int = -1
    target: int = 2000
    partie_rule: int = 0
    trump_points: tuple[int, ...] = tuple(int(x) for x in TRUMP_POINTS)
    plain_points: tuple[int, ...] = tuple(int(x) for x in PLAIN_POINTS)
    sa_points: tuple[int, ...] = tuple(int(x) for x in PLAIN_POINTS)
    ta_points: tuple[int, ...] = tuple(int(x) for x in TRUMP_POINTS)
    carre_points: tuple[int, ...] = _FEDERAL_CARRES
    carre_points_sa: tuple[int, ...] = _FEDERAL_CARRES
    suite_points: tuple[int, ...] = _FEDERAL_SUITES

    @property
    def contract_kinds(self) -> tuple[int, ...]:
        """Contract kinds biddable in this profile (0..3 suits, 4 SA, 5 TA)."""
        kinds = [0, 1, 2, 3]
        if self.allow_sa:
            kinds.append(4)
        if self.allow_ta:
            kinds.append(5)
        return tuple(kinds)

    @property
    def n_levels(self) -> int:
        """Bid levels: the numeric ladder, then capot, then générale when it exists."""
        return len(self.bid_values) + 1 + (1 if self.generale_value else 0)

    def level_value(self, level: int) -> int:
        """Point value of bid level ``level`` (capot → ``capot_value``)."""
        n = len(self.bid_values)
        if level < n:
            return self.bid_values[level]
        if level == n:
            return self.capot_value
        return self.generale_value

    @cached_property
    def packed(self) -> np.ndarray:
        """The packed ``int32`` array every kernel takes (layout: ``_kernels.layout``)."""
        return self.pack()

    def pack(self) -> np.ndarray:
        """Pack this profile into a fresh ``int32`` array of length ``PROFILE_LEN``."""
        a = np.zeros(L.PROFILE_LEN, dtype=np.int32)
        a[L.P_DEAL_ROUND_1], a[L.P_DEAL_ROUND_2], a[L.P_DEAL_ROUND_3] = self.deal_rounds
        a[L.P_AUCTION_CARDS] = self.auction_cards
        a[L.P_CUT_MIN] = self.cut_min
        if len(self.bid_values) > L.MAX_BID_VALUES:
            raise ValueError(f"profile {self.name}: more than {L.MAX_BID_VALUES} bid values")
        a[L.P_N_BID_VALUES] = len(self.bid_values)
        a[L.P_CAPOT_VALUE] = self.capot_value
        a[L.P_GENERALE_VALUE] = self.generale_value
        a[L.P_ALLOW_SA] = self.allow_sa
        a[L.P_ALLOW_TA] = self.allow_ta
        a[L.P_COINCHE_ENDS_AUCTION] = self.coinche_ends_auction
        a[L.P_ALLOW_SURCOINCHE] = self.allow_surcoinche
        a[L.P_ALLOW_DECOINCHE] = self.allow_decoinche
        a[L.P_NO_COINCHE_80] = self.no_coinche_80
        a[L.P_MUST_UNDERTRUMP] = self.must_undertrump
        a[L.P_MUST_TRUMP_OVER_PARTNER] = self.must_trump_over_partner
        a[L.P_LAST_TRICK_BONUS] = self.last_trick_bonus
        a[L.P_CAPOT_CARD_POINTS] = self.capot_card_points
        a[L.P_ANNOUNCEMENTS] = self.announcements
        a[L.P_BELOTE_POINTS] = self.belote_points
        a[L.P_CAPOT_TRANSFERS_ANNOUNCEMENTS] = self.capot_transfers_announcements
        a[L.P_SUCCESS_RULE] = self.success_rule
        a[L.P_SCORING_RULE] = self.scoring_rule
        a[L.P_FAILED_BASE] = self.failed_base
        a[L.P_SA_MULTIPLIER] = self.sa_multiplier
        a[L.P_ROUNDING] = self.rounding
        a[L.P_ANNUL_MAX_POINTS] = self.annul_max_points
        a[L.P_TARGET] = self.target
        a[L.P_PARTIE_RULE] = self.partie_rule
        a[L.P_BID_VALUES : L.P_BID_VALUES + len(self.bid_values)] = self.bid_values
        a[L.P_TRUMP_POINTS : L.P_TRUMP_POINTS + 8] = self.trump_points
        a[L.P_PLAIN_POINTS : L.P_PLAIN_POINTS + 8] = self.plain_points
        a[L.P_SA_POINTS : L.P_SA_POINTS + 8] = self.sa_points
        a[L.P_TA_POINTS : L.P_TA_POINTS + 8] = self.ta_points
        a[L.P_CARRE_POINTS : L.P_CARRE_POINTS + 8] = self.carre_points
        a[L.P_CARRE_POINTS_SA : L.P_CARRE_POINTS_SA + 8] = self.carre_points_sa
        a[L.P_SUITE_POINTS : L.P_SUITE_POINTS + 9] = self.suite_points
        a.setflags(write=False)
        return a


FEDERAL = Profile(
    name="federal",
    description="complete competition code: announcements, rounding, protected belote, "
    "may discard instead of undertrumping",
    source="000_d13e581518e8f779.txt",
)

PROFILES: dict[str, Profile] = {p.name: p for p in (FEDERAL,)}
DEFAULT_PROFILE = "federal"

# Profiles RULES.md names whose engine support is still to come (issue "The other three
# rule systems"); asking for one is a clear error rather than silently wrong rules.
_PLANNED = ("classic", "stephanoise", "strict")


def get_profile(name: str | Profile | None) -> Profile:
    """Return the profile called ``name`` (case-insensitive); ``None`` → ``federal``.

    Raises
    ------
    InputError
        When no profile has that name.
    """
    if isinstance(name, Profile):
        return name
    key = DEFAULT_PROFILE if name is None else str(name).strip().lower()
    if key in PROFILES:
        return PROFILES[key]
    if key in _PLANNED:
        raise InputError(f"profile {name!r} is not supported yet; available: "
                         + ", ".join(PROFILES))
    raise InputError(f"unknown profile {name!r}; available: " + ", ".join(PROFILES))
