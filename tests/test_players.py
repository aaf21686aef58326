"""Simulated players: the registry and parameter arrays, the random player, the heuristic's
conventions (sources 002 and 003) and its strength against random play."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from simcoinche._kernels import heuristic as H
from simcoinche._kernels import players as K
from simcoinche._kernels.auction import AUCTION_STATE_LEN, auction_apply, auction_start
from simcoinche._kernels.bid_layout import BT_OFFSET
from simcoinche._kernels.heuristic import heuristic_action, heuristic_card, open_eval
from simcoinche._kernels.play import legal_mask
from simcoinche.players.registry import (
    CLUB,
    FITTED_BIDDER_PARAMS,
    HEURISTIC,
    PLAYERS,
    RANDOM,
    get_player,
    param_array,
    params_dict,
    parse_player_spec,
    parse_players,
)
from simcoinche.rules.actions import format_action, parse_action
from simcoinche.rules.cards import parse_card, parse_hand
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import FEDERAL
from simcoinche.runs.simulation import simulate

PROF = FEDERAL.packed


# --- registry --------------------------------------------------------------------------


def test_registry_codes_and_parameter_names_are_consistent():
    assert RANDOM.code == K.PLAYER_RANDOM and HEURISTIC.code == K.PLAYER_HEURISTIC
    assert PLAYERS["pimc"].code == K.PLAYER_PIMC and PLAYERS["club"].code == K.PLAYER_CLUB
    assert set(PLAYERS) == {"random", "heuristic", "club", "pimc"}
    # Every kind its own code: errors and reports name a player from its code.
    assert len({k.code for k in PLAYERS.values()}) == len(PLAYERS) == K.N_PLAYER_KINDS
    # The PIMC player bids with the heuristic's parameters (same offsets), plus its own.
    n_heuristic = len(HEURISTIC.params)
    assert PLAYERS["pimc"].params[:n_heuristic] == HEURISTIC.params
    assert {p.offset for p in PLAYERS["pimc"].params[n_heuristic:]}.isdisjoint(
        {p.offset for p in HEURISTIC.params})
    for kind in PLAYERS.values():
        offsets = [p.offset for p in kind.params]
        assert len(set(offsets)) == len(offsets)
        assert max(offsets) < BT_OFFSET  # the bidder's tables follow the named ones
        assert len({p.name for p in kind.params}) == len(kind.params)
        assert all(p.description for p in kind.params)
    # The club player keeps every parameter of its conventions; the heuristic player
    # shares its card play's and adds the data-fitted bidder's margins.
    assert len(CLUB.params) == H.N_PARAMS
    assert {p.name for p in HEURISTIC.params} == (
        {"contest_points"} | {p.name for p in FITTED_BIDDER_PARAMS})


def test_param_array_defaults_and_overrides():
    row = param_array("club", {"open_min": 90})
    assert row.dtype == np.float64 and row.shape == (K.PARAM_LEN,)
    assert row[H.HP_OPEN_MIN] == 90.0
    assert row[H.HP_CAPOT_EST] == CLUB.defaults()["capot_est"]
    assert params_dict("club", row)["open_min"] == 90.0
    with pytest.raises(InputError, match="unknown parameter 'x' of player random"):
        param_array("random", {"x": 1})
    with pytest.raises(InputError, match="is not a number"):
        param_array("random", {"p_open": "lots"})
    # Neither a flag nor a text is taken for a number.
    with pytest.raises(InputError, match="parameter 'bid_margin': True is not a number"):
        param_array("heuristic", {"bid_margin": True})
    with pytest.raises(InputError, match="parameter 'bid_margin': '5' is not a number"):
        param_array("heuristic", {"bid_margin": "5"})


@pytest.mark.parametrize("spec, message", [
    ("random:max_jump=-5", "'max_jump' of player random must be at least 0, got -5"),
    ("random:max_jump=1e12", "'max_jump' of player random must be at most 25"),
    ("random:max_jump=0.5", "'max_jump' of player random must be a whole number"),
    ("random:p_open=-1", "'p_open' of player random must be at least 0"),
    ("random:p_overbid=7", "'p_overbid' of player random must be at most 1"),
    ("random:p_coinche=1.5", "'p_coinche' of player random must be at most 1"),
    ("random:p_surcoinche=-0.1", "'p_surcoinche' of player random must be at least 0"),
])
def test_random_player_probabilities_are_0_to_1_and_jumps_whole_levels(spec, message):
    """The random player's parameters are probabilities and a jump in ladder levels: a
    value outside them is refused, naming it (a negative jump made its bid draw loop
    forever)."""
    with pytest.raises(InputError, match=message):
        parse_player_spec(spec)


def test_a_parameter_must_be_finite_whatever_the_player():
    with pytest.raises(InputError, match="'max_jump' of player random must be a finite"):
        param_array("random", {"max_jump": float("nan")})
    with pytest.raises(InputError, match="'open_min' of player club must be a finite"):
        param_array("club", {"open_min": float("inf")})


def test_simulate_refuses_a_negative_random_jump_in_one_line(tmp_path, capsys):
    from simcoinche.commands import cli

    out = tmp_path / "x.parquet"
    rc = cli.main(["simulate", "-n", "1", "--players", "random:max_jump=-5", "--out",
                   str(out), "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "\n" not in err and "max_jump" in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_parse_players_one_kind_or_one_per_team():
    assert [p.name for p in parse_players("heuristic")] == ["heuristic", "heuristic"]
    assert [p.name for p in parse_players("random,heuristic")] == ["random", "heuristic"]
    assert [p.name for p in parse_players(("heuristic", "random"))] == ["heuristic", "random"]
    assert get_player("RANDOM") is RANDOM
    with pytest.raises(InputError, match="unknown player 'bot'"):
        parse_players("bot")


def test_the_registry_names_colvers_bots_as_the_peer_module_plays_them():
    # The registry's error names colver's bots (match only) without importing the module
    # that plays them: both lists must be the same.
    from simcoinche.players.peers import PEERS, is_peer
    from simcoinche.players.registry import PEER_NAMES

    assert tuple(PEERS) == PEER_NAMES
    assert is_peer("Colver-ISDD:worlds=4") and not is_peer("colver-isd")
    with pytest.raises(InputError, match="'colver-ismcts' is one of colver's bots"):
        parse_players("colver-ismcts")


# --- helpers ---------------------------------------------------------------------------


def _auction(dealer: int, tokens: list[str]) -> tuple[np.ndarray, np.ndarray, int]:
    st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    auction_start(st, dealer)
    acts = np.zeros(128, dtype=np.uint8)
    for j, t in enumerate(tokens):
        a = parse_action(t, FEDERAL)
        assert auction_apply(st, a, PROF) == 0
        acts[j] = a
    return st, acts, len(tokens)


def _bid(hand: str, dealer: int = 3, tokens: list[str] | None = None,
         over: dict | None = None) -> str:
    st, acts, n = _auction(dealer, tokens or [])
    rng = np.zeros(4, dtype=np.uint64)
    a = heuristic_action(np.uint32(parse_hand(hand)), st, acts, n,
                         param_array("club", over)[None, :], 0, PROF, rng)
    return format_action(a, FEDERAL)


# --- random player ---------------------------------------------------------------------


def test_random_player_bid_probabilities_are_configurable():
    never = simulate(300, seed=1, players="random",
                     params=({"p_open": 0.0, "p_overbid": 0.0}, {"p_open": 0.0}),
                     progress=False)
    assert never["passed_out"].all()
    always = simulate(300, seed=1, players="random",
                      params=({"p_open": 1.0}, {"p_open": 1.0}), progress=False)
    assert not always["passed_out"].any()


def test_random_player_card_is_uniform_among_legal_cards():
    hand = np.uint32(parse_hand("7S 8S AS JH"))
    legal = np.uint32(parse_hand("7S 8S AS"))
    trick = np.zeros(4, dtype=np.int32)
    info = np.zeros(K.INFO_LEN, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64)
    st[0] = 99
    counts: dict[int, int] = {}
    for _ in range(3000):
        c = K.random_card(hand, legal, trick, 1, info, np.zeros(1, np.uint8), 0,
                          np.zeros((1, K.PARAM_LEN)), 0, PROF, st)
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) == {parse_card("7S"), parse_card("8S"), parse_card("AS")}
    assert all(800 < v < 1200 for v in counts.values())


# --- heuristic auction -----------------------------------------------------------------


def test_club_opens_only_with_the_jack_or_nine_of_trump():
    # "n'annoncer quelque chose que quand on a le valet ou le 9 d'atout": strong hearts
    # without J or 9 of any suit → pass.
    assert _bid("AH TH KH QH AS TS AD KC") == "pass"
    # Same strength with the jack of hearts → a hearts bid.
    assert _bid("JH AH TH KH AS TS 7D 8C").endswith("H")


def test_club_does_not_open_on_a_bare_nine():
    # "Ne rien annoncer si on a le 9 sec": 9 of spades alone is no reason to bid spades.
    assert not _bid("9S AH KH QH 7D 8D 7C 8C").endswith("S")


def test_club_opening_parity_shows_the_majors():
    # "si on a les 2 majeurs, proposer 90 ou 110 (annonces impaires)"; one major: even.
    both = _bid("JH 9H 8H AS 7D 8D 7C 8C")
    one = _bid("JH 8H 7H AS AD 8D 7C 8C")
    assert both in ("90H", "110H")
    assert one in ("80H", "100H")


def test_club_raises_partner_for_aces_and_ruffs_not_for_bare_belote():
    # Dealer 3: seat 0 opened 80H, seat 1 passed; seat 2 (partner) speaks.
    tokens = ["80H", "pass"]
    # Aces and a void with trumps: a raise ("remontez pour vos as et coupes").
    assert _bid("8H AS AD 7D 8D 7C 8C QD", tokens=tokens).endswith("H")
    # Nothing but the belote: no raise ("ne pas remonter de 20 points sur un 80 pour la
    # belote").
    assert _bid("KH QH 7S 8S 9D 7D 8C 9C", tokens=tokens) == "pass"
    # A void without a single trump: no raise ("ne pas remonter pour une coupe si on n'a
    # pas d'atout").
    assert _bid("7S 8S 9S 7D 8D 9D 7C 8C", tokens=tokens) == "pass"


def test_club_bids_capot_with_all_the_tricks():
    assert _bid("JH 9H AH TH KH QH AS AD").startswith("capot")


def test_club_coinches_when_its_trumps_say_the_contract_fails():
    # Dealer 3: seat 0 bids 120S; seat 1 holds J 9 A T 8 of spades.
    assert _bid("JS 9S AS TS 8S AH 7D 7C", tokens=["120S"]) == "coinche"
    # Without trumps it does not.
    assert _bid("AH TH KH AD TD KD AC 7C", tokens=["120S"]) == "pass"


def test_club_auction_actions_are_always_legal():
    # Over many random hands and random auction prefixes, the heuristic's answer passes
    # auction_check (auction_apply returns 0).
    rng = np.random.default_rng(5)
    params = param_array("club")[None, :]
    st_rng = np.zeros(4, dtype=np.uint64)
    for _ in range(400):
        deck = rng.permutation(32)
        hands = [int(sum(1 << int(c) for c in deck[8 * s:8 * s + 8])) for s in range(4)]
        st = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
        auction_start(st, int(rng.integers(4)))
        acts = np.zeros(128, dtype=np.uint8)
        n = 0
        while st[8] == 0:
            seat = st[0]
            a = heuristic_action(np.uint32(hands[seat]), st, acts, n, params, 0, PROF, st_rng)
            assert auction_apply(st, a, PROF) == 0
            acts[n] = a
            n += 1


def test_open_eval_counts_trump_honours_length_belote_and_outside_aces():
    p = param_array("club")[None, :]
    weak = open_eval(np.uint32(parse_hand("7H 8H 7S 8S 7D 8D 7C 8C")), 1, p, 0)
    strong = open_eval(np.uint32(parse_hand("JH 9H AH KH QH AS AD 7C")), 1, p, 0)
    assert strong - weak > 100
    # An outside ace is worth v_ace more than a small card.
    a = open_eval(np.uint32(parse_hand("JH 9H 7S 8S 7D 8D 7C AC")), 1, p, 0)
    b = open_eval(np.uint32(parse_hand("JH 9H 7S 8S 7D 8D 7C 8C")), 1, p, 0)
    assert a - b == pytest.approx(p[0, H.HP_V_ACE])


# --- heuristic play --------------------------------------------------------------------


def _card(hand: str, trick: list[str], seat: int, taker: int, kind: int,
          played: str = "", voids: dict | None = None, led: dict | None = None) -> str:
    h = np.uint32(parse_hand(hand))
    t = np.zeros(4, dtype=np.int32)
    for i, c in enumerate(trick):
        t[i] = parse_card(c)
    n = len(trick)
    legal = legal_mask(h, t, n, kind, PROF)
    info = np.zeros(K.INFO_LEN, dtype=np.int64)
    info[K.I_SEAT] = seat
    info[K.I_TAKER] = taker
    info[K.I_KIND] = kind
    info[K.I_LEADER] = (seat - n) & 3
    info[K.I_PLAYED] = parse_hand(played + " " + " ".join(trick)) if (played or trick) else 0
    for s, v in (voids or {}).items():
        info[K.I_VOID + s] = v
    for s, v in (led or {}).items():
        info[K.I_LED + s] = v
    st = np.zeros(4, dtype=np.uint64)
    c = heuristic_card(h, legal, t, n, info, np.zeros(1, np.uint8), 0,
                       param_array("club")[None, :], 0, PROF, st)
    assert (int(legal) >> c) & 1
    from simcoinche.rules.cards import format_card

    return format_card(c)


def test_taker_draws_trumps_with_the_master_trump():
    # Hearts trump, seat 0 took; opponents may still hold trumps → lead JH.
    assert _card("JH 9H 7H AS KS 8D 7C 8C", [], seat=0, taker=0, kind=1) == "JH"


def test_taker_leads_a_small_trump_without_the_master():
    # J of trump still out: the taker leads a small trump to draw the opponents'.
    assert _card("9H 8H 7H AS KS 8D 7C 8C", [], seat=0, taker=0, kind=1) == "7H"


def test_defender_cashes_a_master_ace_rather_than_leading_trumps():
    assert _card("AS 7S 8H 9D 7D 8C 9C 7H", [], seat=1, taker=0, kind=1) == "AS"


def test_defender_leads_a_suit_the_partner_can_ruff():
    # Partner (seat 3) is known void in diamonds and not in trumps (hearts).
    got = _card("7D 8D KS 8S 9C 8C QS 7C", [], seat=1, taker=0, kind=1, voids={3: 1 << 2})
    assert got in ("7D", "8D")


def test_last_player_wins_as_cheaply_as_possible():
    # Spades led by an opponent with the K; last to play with A and T: T wins, keep A.
    assert _card("AS TS 7D 8D", ["KS", "7S", "8S"], seat=3, taker=1, kind=1,
                 played="") == "TS"


def test_puts_points_on_a_partner_who_is_sure_to_win():
    # Partner (position 1 of 3 played) wins with the master ace; I am last: play the ten.
    got = _card("TD 7D 8C 9C", ["KD", "AD", "QD"], seat=3, taker=1, kind=1)
    assert got == "TD"


def test_discards_low_when_it_cannot_win_and_keeps_the_guard_of_a_ten():
    # Clubs led, opponent's AC wins; void in clubs and no trump (hearts): discard.
    # Keep TS's guard (7S) and the master AD; throw 8D... or the 7D.
    got = _card("TS 7S AD 7D 8D", ["AC"], seat=1, taker=0, kind=1)
    assert got in ("7D", "8D")


def test_ruffs_and_overtrumps_with_the_lowest_winning_trump():
    # Hearts trump; spades led, opponent ruffed with 8H; I am void in spades with 7H, QH,
    # AH: the lowest trump that wins is QH.
    got = _card("7H QH AH 7D", ["AS", "8H"], seat=2, taker=2, kind=1)
    assert got == "QH"


# --- strength --------------------------------------------------------------------------


def test_heuristic_beats_random_decisively():
    """Over 20,000 donnes (10,000 with the heuristic as team 0, 10,000 as team 1) the
    heuristic team takes far more than half the marks and makes more of its contracts.

    The heuristic's share of the marks is about 0.82; under "no better than random" it
    would be 0.5. The threshold 0.65 sits many standard errors away from both (the share
    over 20,000 donnes has a standard error below 0.01).
    """
    a = simulate(10000, seed=31, players="heuristic,random", progress=False)
    b = simulate(10000, seed=32, players="random,heuristic", progress=False)
    heur = int(a["marks_t0"].sum() + b["marks_t1"].sum())
    rand = int(a["marks_t1"].sum() + b["marks_t0"].sum())
    share = heur / (heur + rand)
    assert share > 0.65
    pa = a[~a["passed_out"]]
    pb = b[~b["passed_out"]]
    h_take = np.concatenate([pa[(pa.taker & 1) == 0].made, pb[(pb.taker & 1) == 1].made])
    r_take = np.concatenate([pa[(pa.taker & 1) == 1].made, pb[(pb.taker & 1) == 0].made])
    ph, pr = h_take.mean(), r_take.mean()
    se = math.sqrt(ph * (1 - ph) / len(h_take) + pr * (1 - pr) / len(r_take))
    assert ph - pr > 10 * se
    assert ph > 0.75


def test_team_specs_carry_parameters_on_the_command_line():
    from simcoinche.players.registry import parse_team_specs

    (ka, pa), (kb, pb) = parse_team_specs("pimc:worlds=16,heuristic")
    assert (ka.name, pa, kb.name, pb) == ("pimc", {"worlds": 16.0}, "heuristic", {})
    (ka, pa), (kb, pb) = parse_team_specs("heuristic:bid_margin=5,coinche_margin=20,random")
    assert pa == {"bid_margin": 5.0, "coinche_margin": 20.0} and kb.name == "random"
    (ka, pa), (kb, pb) = parse_team_specs("pimc:worlds=8")
    assert ka is kb and pa == pb == {"worlds": 8.0}
    with pytest.raises(InputError, match="unknown parameter 'worlds' of player heuristic"):
        parse_team_specs("heuristic:worlds=8,pimc")
    with pytest.raises(InputError, match="give one kind or two"):
        parse_team_specs("pimc,heuristic,random")


def test_simulate_reads_the_parameters_of_a_player_spec():
    a = simulate(3, seed=2, players="pimc:worlds=2,heuristic", progress=False)
    b = simulate(3, seed=2, players="pimc,heuristic", params=({"worlds": 2}, None),
                 progress=False)
    pd.testing.assert_frame_equal(a, b)


def test_a_parameter_given_in_the_spec_and_in_params_is_refused():
    """Which of the two would count is not for the run to guess."""
    with pytest.raises(InputError, match="team 0: parameter 'bid_margin' given both in the "
                       "player spec and in params"):
        simulate(3, players="heuristic:bid_margin=1", params=({"bid_margin": 2}, None),
                 threads=1)
