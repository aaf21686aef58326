"""The heuristic player in every profile: it bids every contract kind the profile allows
(SA/TA by source 002's majors, stephanoise on its 6 auction cards and its 82/85/90 ladder),
makes SA/TA contracts at a sensible rate, beats random play, and every simulated donne
keeps the profile's card totals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcoinche._kernels.auction import AUCTION_STATE_LEN, auction_apply, auction_start
from simcoinche._kernels.heuristic import heuristic_action, nt_open_eval
from simcoinche.players.registry import param_array
from simcoinche.rules.actions import format_action, parse_action
from simcoinche.rules.cards import parse_hand
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import simulate

PROFILES = ["federal", "classic", "stephanoise", "strict"]
KIND_NAMES = ["S", "H", "D", "C", "SA", "TA"]

# Card points of a donne per contract kind, last trick included (RULES.md): suit 162
# ("152 points in the cards, +10 for the last trick"); classic "TA ... SA ... Both total
# 152 (+10 last trick)"; stephanoise SA "plain order and plain points in every suit"
# (4 × 30 + 10); strict "SA ... (total 120 + 10)", "TA ... (total 248 + 10)".
TOTALS = {
    "federal": {"S": 162, "H": 162, "D": 162, "C": 162},
    "classic": {"S": 162, "H": 162, "D": 162, "C": 162, "SA": 162, "TA": 162},
    "stephanoise": {"S": 162, "H": 162, "D": 162, "C": 162, "SA": 130},
    "strict": {"S": 162, "H": 162, "D": 162, "C": 162, "SA": 130, "TA": 258},
}
# Card points of a team that wins all 8 tricks: federal "C = 252"; classic "Capot not
# bid: the capot team's points are 250"; stephanoise "Capot: 250 replaces the 162";
# strict "the capot team's cards count 250".
CAPOT = {"federal": 252, "classic": 250, "stephanoise": 250, "strict": 250}


@pytest.fixture(scope="module", params=PROFILES)
def run(request) -> tuple[str, pd.DataFrame]:
    profile = request.param
    df = simulate(20000, seed=11, profile=profile, players="heuristic", progress=False)
    return profile, df


def _played(df: pd.DataFrame) -> pd.DataFrame:
    pl = df[~df["passed_out"]].copy()
    pl["kind"] = pl["trump"].astype(str)
    return pl


def test_card_totals_per_contract_kind_on_every_donne(run):
    profile, df = run
    pl = _played(df)
    cp = pl["card_points_t0"].astype(int) + pl["card_points_t1"]
    capot = (pl["tricks_t0"] == 8) | (pl["tricks_t1"] == 8)
    assert ((pl["tricks_t0"] + pl["tricks_t1"]) == 8).all()
    assert (cp[capot] == CAPOT[profile]).all()
    expected = pl["kind"].map(TOTALS[profile])
    assert expected.notna().all()   # only kinds the profile allows were contracted
    assert (cp[~capot] == expected[~capot]).all()


# strict SA shares 130 points against TA's 258 on the same ladder: a hand worth SA is
# almost always worth more at TA, so the heuristic practically never bids it (1 in
# 200,000 donnes). Stephanoise SA counts the contract double, failed ones too, and is
# bid on six cards: the data-fitted bidder finds it worth it in about 1 donne in 800
# (25 of 20,000 here). Every other allowed kind must occur.
RARE = {"strict": {"SA"}, "stephanoise": {"SA"}}


def test_every_contract_kind_the_profile_allows_occurs(run):
    profile, df = run
    pl = _played(df)
    allowed = {KIND_NAMES[k] for k in get_profile(profile).contract_kinds}
    counts = pl["kind"].value_counts()
    assert set(counts.index) <= allowed
    expected = allowed - RARE.get(profile, set())
    assert expected <= set(counts.index)
    assert (counts[sorted(expected)] >= 50).all(), counts.to_dict()
    # The ladder's values only: stephanoise 82, 85, 90, 95...; others 80, 90...
    p = get_profile(profile)
    numeric = pl.loc[~pl["capot_bid"], "bid_value"]
    assert set(numeric.unique()) <= set(p.bid_values) | {p.generale_value}


def test_sa_and_ta_contracts_are_made_at_a_sensible_rate(run):
    """At least 60 % of the SA and TA contracts (at least 50 of each kind in 20,000
    donnes) are made, like the suit contracts (about 67 to 77 %). A profile without SA
    or TA (federal) has none; a kind the profile allows, RARE aside, is checked."""
    profile, df = run
    pl = _played(df)
    allowed = {KIND_NAMES[k] for k in get_profile(profile).contract_kinds}
    checked = []
    for kind in ("SA", "TA"):
        sub = pl[pl["kind"] == kind]
        if kind not in allowed:
            assert len(sub) == 0, (kind, len(sub))
            continue
        if kind in RARE.get(profile, set()):
            continue
        assert len(sub) >= 50, (kind, len(sub))
        assert sub["made"].mean() >= 0.6, (kind, len(sub), sub["made"].mean())
        checked.append(kind)
    assert checked == sorted(({"SA", "TA"} & allowed) - RARE.get(profile, set()),
                             key=["SA", "TA"].index)
    assert checked or profile in ("federal", "stephanoise")


@pytest.mark.parametrize("profile", PROFILES)
def test_heuristic_beats_random_in_every_profile(profile):
    """20,000 donnes, the heuristic as team 0 then as team 1: it takes well over half of
    the marks (0.5 if it were no better; the standard error is below 0.01)."""
    a = simulate(10000, seed=31, profile=profile, players="heuristic,random",
                 progress=False)
    b = simulate(10000, seed=32, profile=profile, players="random,heuristic",
                 progress=False)
    heur = int(a["marks_t0"].sum() + b["marks_t1"].sum())
    rand = int(a["marks_t1"].sum() + b["marks_t0"].sum())
    assert heur / (heur + rand) > 0.7


def _bid(profile: str, hand: str, tokens: list[str] | None = None, dealer: int = 3) -> str:
    prof = get_profile(profile)
    st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    auction_start(st, dealer)
    acts = np.zeros(128, dtype=np.uint8)
    for j, t in enumerate(tokens or []):
        a = parse_action(t, prof)
        assert auction_apply(st, a, prof.packed) == 0
        acts[j] = a
    a = heuristic_action(np.uint32(parse_hand(hand)), st, acts, len(tokens or []),
                         param_array("club")[None, :], 0, prof.packed,
                         np.zeros(4, dtype=np.uint64))
    assert auction_apply(st, a, prof.packed) == 0
    return format_action(a, prof)


def test_club_tout_atout_majors_are_the_jacks_80_for_2_90_for_3_100_for_4():
    """Source 002: "A tout at'/sans at', la convention veut qu'on annonce 80 pour 2
    majeurs (valet ou as), 90 pour 3 et 100 lorsque l'on possède les 4" — with the 9s
    behind their jacks as the further masters."""
    p = param_array("club")[None, :]
    prof = get_profile("classic").packed
    one = nt_open_eval(np.uint32(parse_hand("JS 7H 8H 7D 8D 7C 8C QS")), 5, p, 0, prof)
    two = nt_open_eval(np.uint32(parse_hand("JS JH 8H 7D 8D 7C 8C QS")), 5, p, 0, prof)
    three = nt_open_eval(np.uint32(parse_hand("JS JH JD 7D 8D 7C 8C QS")), 5, p, 0, prof)
    assert one == -1.0 and 0 < two < three
    # Two bare jacks do not open (one step more cautious than the convention: measured,
    # bare-major openings at 80 fail about 40 % of the time); three jacks and a 9
    # behind one of them open at 90; four jacks and their 9s go higher.
    assert _bid("classic", "JS JH 7C 8C 7D 8D 7S 8S") == "pass"
    assert _bid("classic", "JS 9S JH JD 7C 8C 7D 8H") == "90TA"
    assert _bid("classic", "JS 9S JH 9H JD 9D JC 7C") in ("100TA", "110TA")


def test_club_sans_atout_with_aces_and_a_long_suit():
    # Three aces, the ace-ten-king of spades with length: SA (no jack or guarded 9 to
    # open a suit).
    assert _bid("classic", "AS TS KS QS 8S AH AD 7C").endswith("SA")
    # No SA in federal: the same hand passes (no J or 9 of any suit).
    assert _bid("federal", "AS TS KS QS 8S AH AD 7C") == "pass"


def test_club_stephanoise_bids_on_its_six_cards_at_82():
    # Six cards at the auction: J 9 of hearts and an ace open at the ladder's first
    # value, 82 (not 80, which is not on its ladder).
    got = _bid("stephanoise", "JH 9H 7H AS 8D 7C")
    assert got.endswith("H")
    assert int(got[:-1]) in get_profile("stephanoise").bid_values


def test_club_stephanoise_partner_may_decoinche_but_the_coinched_bidder_may_not_bid():
    """Source 003: "une fois coinché, le preneur ne peut plus relancer son contrat ...
    son partenaire peut « décoincher » en montant à une enchère supérieure"."""
    # Dealer 3: seat 0 bids 82H, seat 1 coinches; seat 2 (partner) has no hearts but
    # strong spades: it décoinches with a higher spade contract.
    got = _bid("stephanoise", "JS 9S AS TS KS 7D", tokens=["82H", "coinche"])
    assert got.endswith("S") and int(got[:-1]) > 82
    # Seat 0 bid, seat 1 and seat 2 passed, seat 3 coinched: seat 0 (the coinched
    # bidder) only passes or surcoinches, even with spades worth a bid.
    got = _bid("stephanoise", "JS 9S AS TS KS 7D", tokens=["82H", "pass", "pass", "coinche"])
    assert got in ("pass", "surcoinche")


def test_club_coinche_against_tout_atout_with_the_jacks():
    # classic: the opponents bid 120 TA; three jacks and a guarded 9 say it fails.
    assert _bid("classic", "JS JH JD 9C 8C 7S 7H 7D", tokens=["120TA"]) == "coinche"
    # strict TA shares 258 points: the same hand does not expect the 139 that beat 120.
    assert _bid("strict", "JS JH JD 9C 8C 7S 7H 7D", tokens=["120TA"]) == "pass"
