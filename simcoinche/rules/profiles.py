"""Rule profiles: frozen data, packed into a small ``int32`` array for the kernels.

Each profile is one rule system of ``RULES.md``. Every variation point the four
systems need is a field here; kernels branch on the packed values, never on globals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np

from simcoinche._kernels import layout as L
from simcoinche._kernels.tables import PLAIN_POINTS, TRUMP_POINTS
from simcoinche.rules.errors import InputError

#                    7  8    9    T    J    Q    K    A
_FEDERAL_CARRES = (0, 0, 150, 100, 200, 100, 100, 100)
#                    len 0  1  2   3   4    5    6    7    8
_FEDERAL_SUITES = (0, 0, 0, 20, 50, 100, 100, 100, 100)


# The largest value of a single point field of a profile (card points, bonuses, bid
# values). Fields within it can still add up to marks beyond the int16 columns: a profile
# is also refused when its largest possible mark (Profile.max_mark) passes MAX_MARK.
_MAX_POINTS = 1000
#: The largest mark a donne may score (marks are int16 in the results' columns).
MAX_MARK = 32_767
#: The largest partie target (totals are int16 in the parties' columns).
MAX_TARGET = 10_000


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
    # Card points of takers who make a générale bid (classic "Générale bid: 500 and 500");
    # 0: their card points as counted.
    generale_card_points: int = 0
    # Points the takers need at the lowest ladder value (classic "At 80 the takers need
    # 82"); 0: the bid value.
    first_bid_needs: int = 0
    # classic "when both teams have exactly 81 ... it is a litige"; 0: no litige.
    litige_points: int = 0
    # 0 federal comparison; 1 stephanoise "equal best announcements: the one in trumps
    # wins, equal plain ones cancel".
    announcement_compare: int = 0
    # "comparez après la première carte du deuxième pli" (5th card); stephanoise SA: 9th.
    show_after_card: int = 5
    show_after_card_sa: int = 5

    def __post_init__(self) -> None:
        """Check every field against what the engine can play (a profile built with
        ``dataclasses.replace`` goes through here too): an InputError naming the field,
        never a nonsense run (a 10**9 last-trick bonus overflowed the marks)."""
        def bad(field: str, want: str) -> InputError:
            return InputError(f"profile {self.name!r}: {field} must be {want}, got "
                              f"{getattr(self, field)!r}")

        def whole(x: object) -> bool:
            return isinstance(x, (int, np.integer)) and not isinstance(x, bool)

        if not isinstance(self.name, str) or not self.name.strip():
            raise InputError(f"profile name must be a non-empty text, got {self.name!r}")
        for field in ("description", "source"):
            if not isinstance(getattr(self, field), str):
                raise bad(field, "a text")
        for f in fields(self):
            # A list or an array of numbers stands for the tuple (the profile is frozen,
            # and hashed).
            value = getattr(self, f.name)
            if isinstance(f.default, tuple) and isinstance(value, (list, np.ndarray)):
                object.__setattr__(self, f.name, tuple(
                    value.tolist() if isinstance(value, np.ndarray) else value))
        for field in ("allow_sa", "allow_ta", "coinche_ends_auction", "allow_surcoinche",
                      "allow_decoinche", "no_coinche_80", "must_undertrump",
                      "must_trump_over_partner", "capot_transfers_announcements",
                      "rounding"):
            if not isinstance(getattr(self, field), (bool, np.bool_)):
                raise bad(field, "True or False")
        rounds = self.deal_rounds
        if not isinstance(rounds, tuple) or len(rounds) != 3 \
                or not all(whole(r) and r >= 0 for r in rounds) or rounds[0] == 0 \
                or sum(rounds) != 8:
            # (classic's 4-4 option deals in two rounds: (4, 4, 0))
            raise bad("deal_rounds", "three whole numbers adding up to 8, the first "
                      "positive")
        bids = self.bid_values
        if not isinstance(bids, tuple) or not 1 <= len(bids) <= L.MAX_BID_VALUES \
                or not all(whole(b) and 0 < b <= _MAX_POINTS for b in bids) \
                or any(b >= c for b, c in pairwise(bids)):
            raise bad("bid_values", f"1 to {L.MAX_BID_VALUES} increasing whole numbers "
                      f"in 1..{_MAX_POINTS}")
        if not whole(self.capot_value) or not bids[-1] < self.capot_value <= _MAX_POINTS:
            raise bad("capot_value", f"a whole number above the last bid value, at most "
                      f"{_MAX_POINTS}")
        if not whole(self.generale_value) or not (
                self.generale_value == 0
                or self.capot_value < self.generale_value <= _MAX_POINTS):
            raise bad("generale_value", f"0 (none) or a whole number above capot_value, at "
                      f"most {_MAX_POINTS}")
        for field, n in (("trump_points", 8), ("plain_points", 8), ("sa_points", 8),
                         ("ta_points", 8), ("carre_points", 8), ("carre_points_sa", 8),
                         ("suite_points", 9)):
            t = getattr(self, field)
            if not isinstance(t, tuple) or len(t) != n \
                    or not all(whole(x) and 0 <= x <= _MAX_POINTS for x in t):
                raise bad(field, f"{n} whole numbers in 0..{_MAX_POINTS}")
        for field in ("last_trick_bonus", "capot_card_points", "belote_points",
                      "failed_base", "generale_card_points", "first_bid_needs",
                      "litige_points"):
            x = getattr(self, field)
            if not whole(x) or not 0 <= x <= _MAX_POINTS:
                raise bad(field, f"a whole number in 0..{_MAX_POINTS}")
        for field, low, high in (("auction_cards", 1, 8), ("cut_min", 1, 16),
                                 ("announcements", 0, 2), ("success_rule", 0, 1),
                                 ("scoring_rule", 0, 3), ("sa_multiplier", 1, 4),
                                 ("partie_rule", 0, 1), ("announcement_compare", 0, 1),
                                 ("show_after_card", 1, 32), ("show_after_card_sa", 1, 32),
                                 ("target", 1, MAX_TARGET)):
            x = getattr(self, field)
            if not whole(x) or not low <= x <= high:
                raise bad(field, f"a whole number in {low}..{high}")
        if not whole(self.annul_max_points) or not -1 <= self.annul_max_points \
                <= _MAX_POINTS:
            raise bad("annul_max_points", f"-1 (off) or a whole number in 0..{_MAX_POINTS}")
        if self.max_mark > MAX_MARK:
            raise InputError(f"profile {self.name!r}: its point fields allow a mark of up "
                             f"to {self.max_mark:,}, more than the {MAX_MARK:,} a donne's "
                             f"marks column holds; lower the bid, card or announcement "
                             f"points")

    @property
    def max_mark(self) -> int:
        """A bound on any one team's mark of a donne under this profile (every scoring
        rule of :func:`simcoinche._kernels.scoring.score_donne`).

        Every mark is at most the multiplier (4 surcoinched, else 2) times the sum of:
        either the largest base (capot value, failed base, capot's card points) or the
        most card points a team can count (all the cards of a kind plus the last trick,
        a capot's or a générale's), as no formula adds both; the announcements of one
        team (the comparison leaves the other none: at most two carrés and two suites
        for each of its two seats); every belote (one at a suit contract, one per suit
        at tout-atout); and the largest contract value times the sans-atout multiplier.
        Plus 10 for rounding up.
        """
        def kind_cards(trump: tuple[int, ...], plain: tuple[int, ...]) -> int:
            return sum(trump) + 3 * sum(plain)
        cards = max(kind_cards(self.trump_points, self.plain_points),
                    4 * sum(self.sa_points), 4 * sum(self.ta_points))
        counted = max(cards + self.last_trick_bonus, self.capot_card_points,
                      self.generale_card_points)
        base = max(self.capot_value, self.failed_base, self.capot_card_points)
        announced = 0 if self.announcements == 0 else 4 * (
            max(self.carre_points + self.carre_points_sa) + max(self.suite_points))
        belotes = (4 if self.allow_ta else 1) * self.belote_points
        contract = max(self.bid_values[-1], self.capot_value, self.generale_value)
        multiplier = 4 if self.allow_surcoinche else 2
        return multiplier * (max(base, counted) + announced + belotes
                             + contract * self.sa_multiplier) + 10

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

    def __getstate__(self) -> dict:
        """What pickling keeps: the fields, without the cached :attr:`packed`. Unpickled
        (a worker process, Dask), the profile packs it again, read-only: a writable copy
        is another argument type, for which every kernel would compile again."""
        state = dict(self.__dict__)
        state.pop("packed", None)
        return state

    def pack(self) -> np.ndarray:
        """Pack this profile into a fresh ``int32`` array of length ``PROFILE_LEN``."""
        a = np.zeros(L.PROFILE_LEN, dtype=np.int32)
        a[L.P_DEAL_ROUND_1], a[L.P_DEAL_ROUND_2], a[L.P_DEAL_ROUND_3] = self.deal_rounds
        a[L.P_AUCTION_CARDS] = self.auction_cards
        a[L.P_CUT_MIN] = self.cut_min
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
        a[L.P_GENERALE_CARD_POINTS] = self.generale_card_points
        a[L.P_FIRST_BID_NEEDS] = self.first_bid_needs
        a[L.P_LITIGE_POINTS] = self.litige_points
        a[L.P_ANN_COMPARE] = self.announcement_compare
        a[L.P_SHOW_AFTER_CARD] = self.show_after_card
        a[L.P_SHOW_AFTER_CARD_SA] = self.show_after_card_sa
        a.setflags(write=False)
        return a


FEDERAL = Profile(
    name="federal",
    description="complete competition code: announcements, rounding, protected belote, "
    "may discard instead of undertrumping",
    source="000_d13e581518e8f779.txt",
)

#                   7  8  9   T   J   Q  K   A
_CLASSIC_TA_POINTS = (0, 0, 9, 4, 14, 2, 3, 6)     # "TA: ... J 14, 9 9, A 6, T 4, K 3, Q 2"
_CLASSIC_SA_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)    # "SA: ... A 19, T 10, K 4, Q 3, J 2"
_NO_CARRES = (0,) * 8
_NO_SUITES = (0,) * 9
# stephanoise "SA: A 200, T 150, K Q J 100, 9 nothing"
_STEPHANOISE_CARRES_SA = (0, 0, 0, 150, 100, 100, 100, 200)
# stephanoise "82, 85, 90, 95, …, 160 (steps of 5 after 85)"
_STEPHANOISE_BIDS = (82, 85, *range(90, 161, 5))

CLASSIC = Profile(
    name="classic",
    description="club sheet: tout-atout / sans-atout with their own point tables, "
    "générale, no carrés/suites, coinche ends the auction",
    source="002_91996f98297f82f5.txt",
    # "Deal rounds 3-2-3 (3-3-2, 2-3-3 and 4-4 as options). No cut constraint beyond ≥1."
    cut_min=1,
    # "Bids 80, 90, …, 180, capot, générale (one player takes all 8 tricks; beats capot)."
    bid_values=tuple(range(80, 181, 10)),
    generale_value=500,
    generale_card_points=500,
    allow_sa=True,
    allow_ta=True,
    # "A coinche ends it at once (no surcoinche)."
    coinche_ends_auction=True,
    allow_surcoinche=False,
    # "a player holding trumps must still play a trump (undertrump)"
    must_undertrump=True,
    # "Capot not bid: the capot team's points are 250."
    capot_card_points=250,
    # "No carrés or suites."
    announcements=0,
    carre_points=_NO_CARRES,
    carre_points_sa=_NO_CARRES,
    suite_points=_NO_SUITES,
    success_rule=L.SUCCESS_REACH_BID,
    first_bid_needs=82,
    litige_points=81,
    scoring_rule=L.SCORING_CLASSIC,
    # "No rounding."
    rounding=False,
    # "a player with ≤ 10 points (plain values) and no jack may annul the deal"
    annul_max_points=10,
    sa_points=_CLASSIC_SA_POINTS,
    ta_points=_CLASSIC_TA_POINTS,
)

STEPHANOISE = Profile(
    name="stephanoise",
    description="bidding on 6 cards, ladder 82, 85, 90, 95…, sans-atout counts the "
    "contract double, décoinche",
    source="003_ad1cb6ed20e995de.txt",
    # "Deal 3 then 3 to each player; the auction is held on those 6 cards; afterwards
    # each player gets 2 more (the last 8 cards, dealt in the same order)."
    deal_rounds=(3, 3, 2),
    auction_cards=6,
    # "Cut ≥ 2 cards each side."
    cut_min=2,
    bid_values=_STEPHANOISE_BIDS,
    allow_sa=True,
    allow_decoinche=True,
    # "void → must trump unless the partner wins the trick, overtrumping an opponent's
    # trump if able, else any trump"
    must_undertrump=True,
    # "Capot: 250 replaces the 162; no further bonus"
    capot_card_points=250,
    # "a card may serve in several announcements"
    announcements=2,
    carre_points_sa=_STEPHANOISE_CARRES_SA,
    announcement_compare=L.ANN_COMPARE_VALUE,
    # A capot team keeps its announcements (the partie rule "crosses 2000 only thanks to
    # its announcements while being capot" needs them; no transfer is listed).
    capot_transfers_announcements=False,
    success_rule=L.SUCCESS_REACH_BID,
    scoring_rule=L.SCORING_STEPHANOISE,
    # "defence 162 + bid × s + ..."
    failed_base=162,
    # "s = 2 for SA, else 1"
    sa_multiplier=2,
    partie_rule=L.PARTIE_STEPHANOISE,
    # "À sans atout, elles se montrent après la neuvième carte"
    show_after_card_sa=9,
)

STRICT = Profile(
    name="strict",
    description="must trump even over a winning partner, SA/TA with the text's literal "
    "values, générale 400",
    source="004_06f28ed6fc4d12b8.txt",
    # "Bids 80, 90, …, 160, capot (250), générale (400, one player wins all tricks)."
    generale_value=400,
    # "SA: plain order and plain points in every suit"; "TA: trump order and trump
    # points in every suit" (the defaults).
    allow_sa=True,
    allow_ta=True,
    # "void → must trump even when the partner wins the trick, overtrumping any trump
    # already in the trick if able, else any trump"
    must_trump_over_partner=True,
    must_undertrump=True,
    # "Capot not bid: the capot team's cards count 250."
    capot_card_points=250,
    announcements=0,
    carre_points=_NO_CARRES,
    carre_points_sa=_NO_CARRES,
    suite_points=_NO_SUITES,
    success_rule=L.SUCCESS_REACH_BID,
    scoring_rule=L.SCORING_STRICT,
    rounding=False,
)

PROFILES: dict[str, Profile] = {p.name: p for p in (FEDERAL, CLASSIC, STEPHANOISE, STRICT)}
DEFAULT_PROFILE = "federal"


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
    raise InputError(f"unknown profile {name!r}; available: " + ", ".join(PROFILES))


def profile_metadata(profile: Profile) -> dict[str, Any]:
    """What a run's metadata records of its profile: its name, and, for a profile built
    by hand (any profile that is not the shipped one of its name, e.g.
    ``dataclasses.replace(FEDERAL, allow_sa=True)``, still called ``federal``), every
    field under ``profile_fields``, so that the run says which rules it was played under
    and is read back under them (:func:`profile_of_run`)."""
    def plain(value: Any) -> Any:
        # (A field may hold numpy scalars, which JSON does not take.)
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value.item() if isinstance(value, np.generic) else value

    md: dict[str, Any] = {"profile": profile.name}
    if PROFILES.get(profile.name) != profile:
        md["profile_fields"] = {f.name: plain(getattr(profile, f.name))
                                for f in fields(Profile)}
    return md


def profile_of_run(meta: Mapping[str, Any]) -> Profile:
    """The profile a run was played under, from its metadata (:func:`profile_metadata`):
    the hand-built one its ``profile_fields`` describe, else the shipped one it names
    (``federal`` when it names none). A field the run does not record (one added to
    :class:`Profile` after the run) takes its default, the rule the engine played before
    the field existed. InputError when the fields do not make a profile."""
    recorded = meta.get("profile_fields")
    if recorded is None:
        return get_profile(meta.get("profile"))
    if not isinstance(recorded, Mapping):
        raise InputError("the run's profile_fields do not describe a profile (not a JSON "
                         "object)")
    unknown = sorted(set(recorded) - {f.name for f in fields(Profile)})
    if unknown:
        more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
        raise InputError(f"the run's profile_fields do not describe a profile (unknown "
                         f"{unknown[0]}{more})")
    missing = [f.name for f in fields(Profile)
               if f.default is MISSING and f.name not in recorded]
    if missing:
        raise InputError(f"the run's profile_fields do not describe a profile (missing "
                         f"{', '.join(missing)})")
    return Profile(**recorded)  # (its lists become the tuples they stand for)


def describe_profile(profile: Profile) -> str:
    """The profile's name, and for one built by hand the fields that differ from the
    shipped profile of that name (its case aside): ``federal, built by hand:
    allow_sa=True``."""
    shipped = PROFILES.get(profile.name.strip().lower())
    if shipped is None:
        return f"{profile.name} (built by hand)"
    changed = [f"{f.name}={getattr(profile, f.name)!r}" for f in fields(Profile)
               if f.name != "name" and getattr(profile, f.name) != getattr(shipped, f.name)]
    return f"{profile.name}, built by hand: {', '.join(changed)}" if changed else profile.name


#: Fields that name or describe a profile: no rule.
LABEL_FIELDS = frozenset({"name", "description", "source"})
#: The rules of a partie, not of a donne.
PARTIE_FIELDS = frozenset({"target", "partie_rule"})


def rules_changed(profile: Profile, other: Profile, partie: bool = True) -> list[str]:
    """The fields whose rules differ between ``profile`` and ``other`` (names and
    descriptions aside; the partie's target and end rules too unless ``partie``)."""
    ignored = LABEL_FIELDS | (frozenset() if partie else PARTIE_FIELDS)
    return [f.name for f in fields(Profile) if f.name not in ignored
            and getattr(profile, f.name) != getattr(other, f.name)]


def shipped_rules(profile: Profile | str | None, what: str, advice: str,
                  partie: bool = False) -> Profile:
    """The shipped profile whose fitted tables (``what``: the bidding or the equity tables)
    serve ``profile``: one that plays the same rules of a donne (and, with ``partie``, of
    a partie), its namesake first (names and descriptions aside: a renamed copy is served
    too).

    The package ships tables fitted for each shipped profile only; a profile built by hand
    (``dataclasses.replace``) keeps its namesake's name, and its namesake's tables would
    play other rules without a word.

    Raises
    ------
    InputError
        Naming the fields that differ from the namesake (or the profile without one), and
        ``advice``.
    """
    prof = get_profile(profile)
    namesake = PROFILES.get(prof.name.strip().lower())
    others = [p for p in PROFILES.values() if p is not namesake]
    for shipped in ([namesake] if namesake else []) + others:
        if not rules_changed(prof, shipped, partie):
            return shipped
    if namesake is None:
        raise InputError(f"{what} are fitted for the shipped profiles ("
                         f"{', '.join(PROFILES)}), and profile {prof.name!r} plays the rules "
                         f"of none of them: {advice}")
    raise InputError(f"{what} are fitted for the shipped profile {namesake.name!r}; this "
                     f"one, built by hand, changes "
                     f"{', '.join(rules_changed(prof, namesake, partie))}: {advice}")
