"""The PIMC player (``pimc``): exact worlds, double-dummy choices, legal and replayable donnes.

A PIMC card is chosen from ``W`` deals drawn uniformly among those consistent with what the
seat has seen (its hand, the cards played, the voids shown, the announced cards and the
belote), each solved double dummy for every legal card (:mod:`simcoinche._kernels.pimc`).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from chisq import chi_square
from test_simulated_donnes_replay import check_row

from simcoinche._kernels import dd
from simcoinche._kernels import pimc as P
from simcoinche._kernels.play import WIN_KEY, legal_mask
from simcoinche._kernels.players import (
    I_BELOTE_SEAT,
    I_KIND,
    I_LEADER,
    I_PLAYED,
    I_SEAT,
    I_SHOWN,
    I_TRICK,
    I_TRICKS,
    I_VOID,
    INFO_LEN,
    PARAM_LEN,
)
from simcoinche._kernels.rng import RNG_STATE_LEN, STREAM_PLAYERS, rng_seed, seed_key
from simcoinche.players.registry import param_array
from simcoinche.rules.cards import parse_card
from simcoinche.rules.profiles import FEDERAL
from simcoinche.runs.match import match
from simcoinche.runs.simulation import simulate

PROF = FEDERAL.packed
HEARTS = 1


def mask(cards: str) -> int:
    """Bitboard of space-separated card texts."""
    m = 0
    for c in cards.split():
        m |= 1 << parse_card(c)
    return m


def bits(m: int) -> list[int]:
    return [c for c in range(32) if (m >> c) & 1]


def make_info(seat: int, leader: int, kind: int, tricks_done: int, played: int,
              voids: dict[int, int] | None = None, shown: dict[int, int] | None = None,
              belote_seat: int = -1, tricks_won: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The public information of a position (only what the PIMC player reads)."""
    info = np.zeros(INFO_LEN, dtype=np.int64)
    info[I_SEAT] = seat
    info[I_LEADER] = leader
    info[I_KIND] = kind
    info[I_TRICK] = tricks_done
    info[I_PLAYED] = played
    info[I_BELOTE_SEAT] = belote_seat
    info[I_TRICKS] = tricks_won[0]
    info[I_TRICKS + 1] = tricks_won[1]
    for s, v in (voids or {}).items():
        info[I_VOID + s] = v
    for s, cards in (shown or {}).items():
        info[I_SHOWN + s] = cards
    return info


def rng(seed: int) -> np.ndarray:
    st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
    # (the key as uint64: numba returns it as a Python int, which may not fit an int64)
    rng_seed(st, np.uint64(seed_key(np.uint64(seed))), STREAM_PLAYERS)
    return st


def consistent_deals(seat: int, hand: int, unseen: int, held: dict[int, int],
                     voids: dict[int, int], pinned: dict[int, int]) -> list[tuple[int, ...]]:
    """Every deal of the unseen cards to the other seats (brute force): each seat gets
    ``held[s]`` cards, its pinned ones among them, none of a suit it is void in."""
    others = [s for s in range(4) if s != seat]
    free = unseen
    for m in pinned.values():
        free &= ~m
    deals = []
    free_cards = bits(free)

    def ok(s: int, m: int) -> bool:
        return all(not (voids.get(s, 0) >> (c >> 3)) & 1 for c in bits(m))

    a, b, c = others
    need = {s: held[s] - bin(pinned.get(s, 0)).count("1") for s in others}
    for ca in itertools.combinations(free_cards, need[a]):
        rest = [x for x in free_cards if x not in ca]
        for cb in itertools.combinations(rest, need[b]):
            cc = [x for x in rest if x not in cb]
            hands = [0, 0, 0, 0]
            hands[seat] = hand
            for s, cards in ((a, ca), (b, cb), (c, cc)):
                hands[s] = sum(1 << x for x in cards) | pinned.get(s, 0)
            if all(ok(s, hands[s]) for s in others):
                deals.append(tuple(hands))
    return deals


def test_worlds_are_exactly_uniform_over_the_deals_consistent_with_what_the_seat_saw():
    """Trick 6 of hearts, seat 1 to play after seat 0 led AC: seat 0 has shown no heart,
    seat 3 no diamond; seat 2 showed TS in an announcement; seat 3 said "belote" with KH, so
    QH is in its hand. Every consistent deal comes up equally often (chi-square at 0.999)."""
    seat, leader = 1, 0
    hand = mask("7S 8S 9D")
    unseen = mask("QH JH 9H TS AS TD KC 7C")
    played = ((1 << 32) - 1) & ~hand & ~unseen
    voids = {0: 1 << HEARTS, 3: 1 << 2}
    shown = {2: mask("TS KS QS JS")}          # a tierce shown, TS not yet played
    info = make_info(seat, leader, HEARTS, 5, played, voids, shown, belote_seat=3,
                     tricks_won=(2, 3))
    held = {0: 2, 2: 3, 3: 3}                 # seat 0 has already played to this trick
    deals = consistent_deals(seat, hand, unseen, held, voids,
                             {2: mask("TS"), 3: mask("QH")})
    T = P.new_think(np.int64(10))
    assert P.world_constraints(T, np.uint32(hand), 1, info) == len(deals)
    index = {d: i for i, d in enumerate(deals)}
    counts = np.zeros(len(deals))
    st = rng(7)
    n = 200 * len(deals)
    for _ in range(n):
        P.draw_world(T, st)
        counts[index[tuple(int(x) for x in T.world)]] += 1
    stat, p = chi_square(counts, np.full(len(deals), n / len(deals)))
    assert p > 0.001, (stat, p, len(deals))


def random_ending(r: random.Random, n_played: int) -> dict:
    """A random position at trick 7 (two cards a seat), ``n_played`` cards (0 or 1) of it
    already on the table; voids shown for every suit a seat really lacks (so the real deal
    is consistent), the trick counts leaving no capot."""
    cards = r.sample(range(32), 8)
    hands = [sum(1 << c for c in cards[2 * s:2 * s + 2]) for s in range(4)]
    kind = r.randrange(6)
    leader = r.randrange(4)
    trick = np.zeros(4, dtype=np.int32)
    if n_played:
        c = r.choice(bits(hands[leader]))
        trick[0] = c
        hands[leader] &= ~(1 << c)
    seat = (leader + n_played) & 3
    played = ((1 << 32) - 1) & ~sum(hands)
    voids = {}
    for s in range(4):
        suits = {c >> 3 for c in bits(hands[s])}
        voids[s] = sum(1 << x for x in range(4) if x not in suits)
    voids[seat] = 0
    info = make_info(seat, leader, kind, 6, played, voids, tricks_won=(3, 3))
    return {"hands": hands, "kind": kind, "leader": leader, "trick": trick, "n": n_played,
            "seat": seat, "info": info}


def test_worlds_always_respect_hand_sizes_voids_and_the_cards_seen():
    r = random.Random(11)
    T = P.new_think(np.int64(10))
    st = rng(12)
    for _ in range(300):
        pos = random_ending(r, r.randrange(2))
        seat, hands, info = pos["seat"], pos["hands"], pos["info"]
        assert P.world_constraints(T, np.uint32(hands[seat]), pos["n"], info) >= 1
        for _ in range(10):
            P.draw_world(T, st)
            world = [int(x) for x in T.world]
            assert world[seat] == hands[seat]
            assert sum(world) == sum(hands) and all(
                world[i] & world[j] == 0 for i in range(4) for j in range(i))
            for s in range(4):
                assert bin(world[s]).count("1") == bin(hands[s]).count("1")
                assert all(not (info[I_VOID + s] >> (c >> 3)) & 1 for c in bits(world[s]))


def test_pimc_plays_a_double_dummy_best_card_when_the_deal_is_determined():
    """When what the seat has seen leaves a single consistent deal, every world is the real
    deal, so the PIMC card is one of the best under double-dummy play."""
    r = random.Random(5)
    T = P.new_think(np.int64(10))
    S = dd.new_scratch()
    st = rng(3)
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = 4
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    checked = 0
    while checked < 100:
        pos = random_ending(r, r.randrange(2))
        seat, hands, info, n = pos["seat"], pos["hands"], pos["info"], pos["n"]
        unseen = sum(hands) & ~hands[seat]
        held = {s: bin(hands[s]).count("1") for s in range(4) if s != seat}
        voids = {s: int(info[I_VOID + s]) for s in range(4)}
        if len(consistent_deals(seat, hands[seat], unseen, held, voids, {})) != 1:
            continue
        legal = legal_mask(np.uint32(hands[seat]), pos["trick"], n, pos["kind"], PROF)
        c = P.pimc_card(T, np.uint32(hands[seat]), np.uint32(legal), pos["trick"], n, info,
                        params, 0, PROF, st)
        assert (legal >> c) & 1
        dd.begin_solve(S, np.array(hands, np.int64), pos["kind"], PROF)
        k = dd.root_values(S, pos["kind"], PROF, pos["leader"], pos["trick"].astype(np.int64),
                           n, 0, cards, values)
        value = dict(zip(cards[:k].tolist(), values[:k].tolist(), strict=True))
        # Values are team 0's points; the two teams share the points left (no capot).
        best = max(value.values()) if seat % 2 == 0 else min(value.values())
        assert value[c] == best, (pos, c, value)
        checked += 1


def test_pimc_cards_are_legal_on_random_positions():
    r = random.Random(8)
    T = P.new_think(np.int64(10))
    st = rng(4)
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = 3
    for _ in range(300):
        pos = random_ending(r, r.randrange(2))
        seat, hands = pos["seat"], pos["hands"]
        legal = legal_mask(np.uint32(hands[seat]), pos["trick"], pos["n"], pos["kind"], PROF)
        c = P.pimc_card(T, np.uint32(hands[seat]), np.uint32(legal), pos["trick"], pos["n"],
                        pos["info"], params, 1, PROF, st)
        assert 0 <= c < 32 and (legal >> c) & 1


def random_midgame(r: random.Random, tricks_done: int, n_played: int) -> dict:
    """A position after ``tricks_done`` tricks and ``n_played`` cards of the next, every
    card played at random among the legal ones; voids shown for every suit a seat lacks,
    the tricks won as played."""
    deck = list(range(32))
    r.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * s:8 * s + 8]) for s in range(4)]
    kind = r.randrange(6)
    leader = r.randrange(4)
    won = [0, 0]
    played = 0
    trick = np.zeros(4, dtype=np.int32)
    for t in range(tricks_done + 1):
        for p in range(n_played if t == tricks_done else 4):
            s = (leader + p) & 3
            c = r.choice(bits(int(legal_mask(np.uint32(hands[s]), trick, p, kind, PROF))))
            trick[p] = c
            hands[s] &= ~(1 << c)
            played |= 1 << c
        if t < tricks_done:
            led = int(trick[0]) >> 3
            leader = (leader + max(range(4), key=lambda p: WIN_KEY[kind, led, trick[p]])) & 3
            won[leader & 1] += 1
    seat = (leader + n_played) & 3
    voids = {s: sum(1 << x for x in range(4) if not (hands[s] >> (8 * x)) & 0xFF)
             for s in range(4) if s != seat}
    info = make_info(seat, leader, kind, tricks_done, played, voids, tricks_won=tuple(won))
    return {"hands": hands, "kind": kind, "leader": leader, "trick": trick, "n": n_played,
            "seat": seat, "info": info}


def thinks(pos: dict) -> bool:
    """Whether the seat to play has a choice that worlds can tell apart (more than one
    legal card, not all of one class of equivalent cards)."""
    seat, kind, n, info = pos["seat"], pos["kind"], pos["n"], pos["info"]
    legal = int(legal_mask(np.uint32(pos["hands"][seat]), pos["trick"], n, kind, PROF))
    on_table = sum(1 << int(c) for c in pos["trick"][:n])
    return len(bits(legal)) > 1 and not P.one_class(
        np.uint32(legal), (0xFFFFFFFF & ~int(info[I_PLAYED])) | on_table, kind, PROF)


@pytest.mark.parametrize("tricks", [(0, 1), (2, 3), (4, 6)])
def test_worlds_solved_together_choose_the_card_of_every_world_solved_in_full(tricks):
    """The worlds of one decision are solved together (one class searched exactly per
    world, the others bounded by one probe, more solved only while the choice is not
    determined): the card and the random stream after it are those of solving every
    world for every card, on random positions of every contract kind, ties included."""
    r = random.Random(f"together-{tricks}")
    T, T_full = P.new_think(np.int64(14)), P.new_think(np.int64(14))
    checked = 0
    while checked < 30:
        pos = random_midgame(r, r.randint(*tricks), r.randrange(4))
        if thinks(pos):
            decide_both_ways(T, T_full, pos, r)
            checked += 1


def decide_both_ways(T, T_full, pos: dict, r: random.Random) -> int:
    """The seat to play decides at ``pos`` (16 worlds) with :func:`.pimc.pimc_card` in
    ``T`` and with the oracle :func:`.pimc.every_world_card` in ``T_full``, from the same
    random stream: asserts the same card and the same stream after; returns the card."""
    params = np.zeros((2, PARAM_LEN))
    params[:, P.PM_WORLDS] = 16
    hand = np.uint32(pos["hands"][pos["seat"]])
    legal = np.uint32(legal_mask(hand, pos["trick"], pos["n"], pos["kind"], PROF))
    st = rng(r.randrange(1, 200))
    st_full = st.copy()
    want = P.every_world_card(T_full, hand, legal, pos["trick"], pos["n"], pos["info"],
                              params, 0, PROF, st_full)
    got = P.pimc_card(T, hand, legal, pos["trick"], pos["n"], pos["info"], params, 0, PROF,
                      st)
    assert got == want, pos
    assert (st == st_full).all()
    return got


def test_a_card_that_alone_can_be_best_is_chosen_without_its_exact_sum():
    """When one class's lower sum is above every other class's upper sum, the choice is
    determined: the decision stops there, its class not solved exactly in every world,
    and the card and the random stream are still those of every world solved in full."""
    r = random.Random("alone-best")
    T, T_full = P.new_think(np.int64(14)), P.new_think(np.int64(14))
    shortcuts = 0
    for _ in range(300):
        pos = random_midgame(r, r.randint(0, 2), r.randrange(4))
        if not thinks(pos):
            continue
        got = decide_both_ways(T, T_full, pos, r)
        j = T.card_class[got]
        if T.sum_lo[j] != T.sum_hi[j]:
            # Chosen on bounds: every other class's upper sum is below its lower sum.
            others = [i for i in range(int(T.card_class.max()) + 1) if i != j]
            assert all(T.sum_hi[i] < T.sum_lo[j] for i in others)
            shortcuts += 1
            if shortcuts == 5:
                break
    assert shortcuts == 5


def test_worlds_parameter_is_a_whole_number_in_range():
    from simcoinche.rules.errors import InputError

    assert param_array("pimc")[P.PM_WORLDS] == 32
    assert param_array("pimc", {"worlds": 64})[P.PM_WORLDS] == 64
    for bad, words in ((0, "at least 1"), (2.5, "whole number"), (10**6, "at most")):
        with pytest.raises(InputError, match=words):
            param_array("pimc", {"worlds": bad})


@pytest.fixture(scope="module")
def pimc_donnes() -> pd.DataFrame:
    """1,000 recorded federal donnes with a PIMC team (few worlds: the legality and the
    replay do not depend on their number), each team in turn."""
    kw = {"record_play": True, "progress": False}
    return pd.concat([
        simulate(500, seed=21, players="pimc,heuristic", params=({"worlds": 1}, None), **kw),
        simulate(500, seed=22, players="heuristic,pimc", params=(None, {"worlds": 1}), **kw),
    ], ignore_index=True)


def test_a_thousand_pimc_donnes_replay_legal_through_score(pimc_donnes):
    assert len(pimc_donnes) == 1000
    assert (~pimc_donnes.passed_out).sum() > 800
    for row in pimc_donnes.to_dict("records"):
        row["trump"] = None if row["passed_out"] else str(row["trump"])
        check_row(row)


def test_pimc_donnes_are_identical_whatever_the_thread_count(pimc_donnes):
    one = simulate(60, seed=21, players="pimc,heuristic", params=({"worlds": 1}, None),
                   record_play=True, progress=False, threads=1)
    pd.testing.assert_frame_equal(one, pimc_donnes.iloc[:60].reset_index(drop=True))


def test_pimc_bids_like_the_heuristic(pimc_donnes):
    """The auction does not depend on how the cards are played: the same seed with the
    heuristic in the PIMC seats gives the same auctions."""
    ref = simulate(200, seed=21, players="heuristic", record_play=True, progress=False)
    got = pimc_donnes.iloc[:200]
    assert [bytes(a) for a in got.auction] == [bytes(a) for a in ref.auction]


def test_pimc_against_itself_scores_zero_and_against_random_far_above():
    same = match("pimc:worlds=1", "pimc:worlds=1", 24, seed=3, progress=False)
    assert same.mean_diff == 0 and set(same.diffs.tolist()) == {0}
    vs_random = match("pimc:worlds=1", "random", 40, seed=4, progress=False)
    lo, _ = vs_random.ci95
    assert lo > 0


def test_equivalent_cards_are_one_class_and_cards_split_by_a_live_card_are_not():
    """7S and 8S (no points, adjacent) are one class; 7S and 9S with 8S still held by
    someone are two; with 8S played they are one again; KS and QS differ in points."""
    live = mask("7S 8S 9S KS QS AH")
    assert P.one_class(np.uint32(mask("7S 8S")), live, HEARTS, PROF)
    assert not P.one_class(np.uint32(mask("7S 9S")), live, HEARTS, PROF)
    assert P.one_class(np.uint32(mask("7S 9S")), live & ~mask("8S"), HEARTS, PROF)
    assert not P.one_class(np.uint32(mask("KS QS")), live, HEARTS, PROF)
    assert not P.one_class(np.uint32(mask("7S AH")), live, HEARTS, PROF)
    # at sans-atout 9 and 8 are worth nothing either; at tout-atout the 9 is worth 14
    assert P.one_class(np.uint32(mask("8S 9S")), live, 4, PROF)
    assert not P.one_class(np.uint32(mask("8S 9S")), live, 5, PROF)


def test_odds_play_the_sampled_deals_with_pimc_players():
    """``odds --players pimc`` plays each sampled deal with PIMC card play: the same deals
    (same seed) end with other totals than under the heuristic's play."""
    from simcoinche.analysis.hand_odds import odds

    hand = "JH 9H AH TH KS 7C 8D AD"
    kw = {"trump": "H", "samples": 16, "seed": 5, "progress": False}
    pimc = odds(hand, players="pimc:worlds=4", **kw).kind("H").totals
    heur = odds(hand, players="heuristic", **kw).kind("H").totals
    assert len(pimc) == len(heur) == 16
    assert (pimc != heur).any()


def test_the_compile_helpers_pimc_job_decides_a_pimc_card_then_plays_odds(monkeypatch):
    """The job a cold simulation with PIMC seats has its compile helper run
    (:data:`simcoinche.commands.warmup.BESIDE`): one PIMC decision through the compiled
    ``pimc_card`` (an opening lead, legal), then odds' plain card play (no players
    given: the heuristic's)."""
    from simcoinche.analysis import hand_odds
    from simcoinche.commands import warmup as W
    from simcoinche.rules.cards import parse_hand
    from simcoinche.runs.compiling import PIMC_CARD_PLAY

    done = []
    decide, odds = P.pimc_card, hand_odds.odds

    def recorded_decide(T, hand, legal, *rest):
        card = decide(T, hand, legal, *rest)
        done.append(("pimc", int(hand), int(legal), int(card)))
        return card

    def recorded_odds(*args, **kwargs):
        done.append(("odds", kwargs.get("players")))
        return odds(*args, **kwargs)

    monkeypatch.setattr(P, "pimc_card", recorded_decide)
    monkeypatch.setattr(hand_odds, "odds", recorded_odds)
    assert W._run_job(W.BESIDE[PIMC_CARD_PLAY])[0] == "pimc card play"
    (_, hand, legal, card), *rest = done
    assert hand == parse_hand("JH 9H AH TH KS 7C 8D AD") and legal == hand
    assert (legal >> card) & 1
    assert rest and all(step == ("odds", None) for step in rest)


def test_the_pimc_decision_the_helper_compiles_is_the_one_a_runs_card_play_links():
    """The helper's decision is worth compiling only if a run's card play calls
    ``pimc_card`` with the same argument types: the machine code of ``run_batch`` with a
    PIMC seat, as the kernel cache holds it, links the helper's specialisation (its
    mangled name, which spells the argument types). Another signature would be compiled
    for nothing, and the run would compile its own."""
    from numba import typeof

    from simcoinche._kernels.batch import run_batch
    from simcoinche.runs.simulation import pimc_lead_arguments

    simulate(2, seed=0, players="pimc:worlds=2,heuristic", threads=1, progress=False)
    args = pimc_lead_arguments()
    P.pimc_card(*args)
    name = P.pimc_card.overloads[tuple(typeof(a) for a in args)].fndesc.mangled_name
    cache = run_batch._cache
    prefix = cache._cache_file._index_name[:-len("nbi")]
    stored = list(Path(cache._cache_path).glob(prefix + "*.nbc"))
    assert stored, "run_batch has no machine code in the kernel cache"
    assert any(name.encode() in path.read_bytes() for path in stored), (
        "no run_batch in the kernel cache links the helper's pimc_card: its argument types "
        f"differ from the card play's ({[str(typeof(a)) for a in args[1:]]})")


# --- odds / advise with PIMC seats choose the double-dummy card (issue 20, item 3) -------

# Six top hearts and two aces, the taker on lead (odds' default dealer): leading trumps
# twice draws the two outstanding trumps and every card wins after that, so at hearts
# the takers win all 8 tricks in every deal whatever the defence does. Leading a side
# ace first (the lowest legal card of this hand: spades are the lowest bits) loses a
# trick whenever the defender holding a trump is void in that suit.
CAPOT_HAND = "JH 9H AH TH KH QH AS AD"


def test_odds_with_pimc_players_find_the_double_dummy_capot_on_every_deal():
    """Every deal is a capot under double-dummy play (checked with ``play="dd"``); PIMC
    seats find it on every deal. Lowest-legal-card play (PIMC without its ``think``
    table, the bug fixed in c8bf071) leads the ace of spades and is ruffed on some."""
    from simcoinche.analysis.hand_odds import odds

    kw = {"trump": "H", "samples": 40, "seed": 3, "progress": False}
    dd_play = odds(CAPOT_HAND, play="dd", **kw).kind("H")
    assert dd_play.all_tricks == 40
    pimc = odds(CAPOT_HAND, players="pimc:worlds=8", **kw).kind("H")
    assert pimc.all_tricks == 40
    assert np.array_equal(pimc.totals, dd_play.totals)


def test_advise_plays_with_pimc_seats_find_the_double_dummy_capot_on_every_deal():
    """The advisor's card play (``advise --players pimc``, and ``--play pimc``) on the
    same position and the same deals as the odds test: every row is a capot."""
    from simcoinche._kernels.layout import PC_TRICKS
    from simcoinche.analysis.advisor import play_heuristic, play_pimc
    from simcoinche.analysis.hand_odds import deals
    from simcoinche.runs.simulation import team_players

    n = 40
    hands = deals(CAPOT_HAND, 0).sample(n, 3, 0)
    key = np.uint64(seed_key(np.uint64(3)))
    taker = np.zeros(n, dtype=np.int8)
    kind = np.full(n, 1, dtype=np.int8)                       # hearts
    _, codes, rows = team_players("pimc:worlds=8", None, FEDERAL)
    pc = play_heuristic(key, hands, 3, taker, kind, codes, rows, FEDERAL.packed)
    assert (pc[PC_TRICKS] == 8).all()
    _, hcodes, hrows = team_players("heuristic", None, FEDERAL)
    pc = play_pimc(key, hands, 3, taker, kind, hcodes, hrows, FEDERAL.packed,
                   overrides={"worlds": 8})
    assert (pc[PC_TRICKS] == 8).all()
