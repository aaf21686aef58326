"""The player kinds a kernel compiles (issue 24, item 2): only those a run seats.

A heuristic-only run compiles neither the club player's auction nor the random player's;
a kind left out answers with an illegal call, which the donne kernel records (no silent
fallback); a kind compiled in answers exactly as its own kernel does.
"""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from simcoinche._kernels import donne
from simcoinche._kernels.auction import AUCTION_STATE_LEN, auction_check, auction_start
from simcoinche._kernels.batch import run_batch
from simcoinche._kernels.donne import (
    MAX_ACTIONS,
    N_OUT,
    O_PASSED,
    Outputs,
    Players,
    choose_action,
)
from simcoinche._kernels.heuristic import heuristic_action
from simcoinche._kernels.kinds import ALL_KINDS, NO_KINDS, Kinds, kinds_of
from simcoinche._kernels.layout import F_CALL
from simcoinche._kernels.players import (
    PLAYER_CLUB,
    PLAYER_HEURISTIC,
    PLAYER_PIMC,
    PLAYER_RANDOM,
    random_action,
)
from simcoinche._kernels.rng import RNG_STATE_LEN, STREAM_PLAYERS, rng_seed
from simcoinche.players.registry import param_array
from simcoinche.rules.profiles import get_profile

FEDERAL = get_profile("federal").packed


def test_kinds_of_compiles_both_optional_kinds_in_when_either_is_seated():
    # Two builds of each kernel, not four: neither optional kind, or both.
    assert kinds_of([PLAYER_HEURISTIC, PLAYER_HEURISTIC]) == NO_KINDS
    assert kinds_of([PLAYER_PIMC, PLAYER_HEURISTIC]) == NO_KINDS
    assert kinds_of([PLAYER_CLUB, PLAYER_HEURISTIC]) == ALL_KINDS
    assert kinds_of(np.array([PLAYER_HEURISTIC, PLAYER_RANDOM], np.int32)) == ALL_KINDS
    assert kinds_of([PLAYER_RANDOM, PLAYER_CLUB]) == ALL_KINDS


@njit(cache=False)
def _call_without(code, hand, astate, actions, params, prof, st):
    return choose_action(code, hand, astate, actions, np.int64(0), params, 0, prof, st,
                         None, Kinds(None, None))


@njit(cache=False)
def _call_with(code, hand, astate, actions, params, prof, st):
    return choose_action(code, hand, astate, actions, np.int64(0), params, 0, prof, st,
                         None, Kinds(np.int64(1), np.int64(1)))


def test_a_run_without_club_or_random_players_compiles_neither_auction():
    # The opening call of 300 random hands, dealer 0: with the kinds compiled in, the
    # club and random players call exactly as their own kernels; left out, they answer
    # with a call the rules forbid; the heuristic player calls alike either way. The
    # machine code left out does not contain their kernels.
    rng = np.random.default_rng(24)
    actions = np.zeros(MAX_ACTIONS, dtype=np.uint8)
    astate = np.zeros(AUCTION_STATE_LEN, dtype=np.int32)
    auction_start(astate, 0)
    bids = {PLAYER_CLUB: 0, PLAYER_RANDOM: 0}
    for _ in range(300):
        hand = np.uint32(sum(1 << int(c) for c in rng.permutation(32)[:8]))
        for code, name, own in ((PLAYER_CLUB, "club", heuristic_action),
                                (PLAYER_RANDOM, "random", random_action)):
            row = np.stack([param_array(name)] * 2)
            st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
            rng_seed(st, np.uint64(rng.integers(2**62)), STREAM_PLAYERS)
            expected = own(hand, astate, actions, np.int64(0), row, 0, FEDERAL, st.copy())
            got = _call_with(code, hand, astate, actions, row, FEDERAL, st.copy())
            assert got == expected
            bids[code] += int(got != 0)
            refused = _call_without(code, hand, astate, actions, row, FEDERAL, st.copy())
            assert auction_check(astate, refused, FEDERAL) != 0
        row = np.stack([param_array("heuristic", profile="federal")] * 2)
        st = np.zeros(RNG_STATE_LEN, dtype=np.uint64)
        rng_seed(st, np.uint64(rng.integers(2**62)), STREAM_PLAYERS)
        assert _call_with(PLAYER_HEURISTIC, hand, astate, actions, row, FEDERAL,
                          st.copy()) == \
            _call_without(PLAYER_HEURISTIC, hand, astate, actions, row, FEDERAL, st.copy())
    # Both kinds do bid at times: the calls compared are not all passes.
    assert bids[PLAYER_CLUB] > 0 and bids[PLAYER_RANDOM] > 0
    without = "".join(_call_without.inspect_llvm().values())
    with_all = "".join(_call_with.inspect_llvm().values())
    # Each kind compiled in is its own function (numba's mangled symbol of
    # "_kind_call_nb.<locals>.compiled", one per kind); left out, neither is there.
    compiled = re.compile(r"_kind_call_nb\w*_3clocals_3e8compiled\w*")
    assert len(set(compiled.findall(with_all))) == 2
    assert not compiled.search(without)
    assert "heuristic_action" in with_all and "heuristic_action" not in without


def test_a_kind_left_out_is_refused_on_every_donne_not_replaced():
    # Club players seated with Players.kinds leaving the club out (a facade bug): every
    # donne records their replaced calls, which every facade refuses.
    n = 64
    codes = np.array([PLAYER_CLUB, PLAYER_HEURISTIC], dtype=np.int32)
    params = np.stack([param_array("club"), param_array("heuristic", profile="federal")])
    for kinds, refused in ((NO_KINDS, True), (kinds_of(codes), False)):
        # A view with a spare column, as simulate's buffer (one compiled run_batch).
        out = np.zeros((N_OUT, n + 1), dtype=np.int32)[:, :n]
        faults = np.full(n, -1, dtype=np.int32)
        run_batch(np.uint64(7), np.int64(0), np.int64(n), np.int64(0), np.int64(n), -1,
                  Players(codes, params, kinds), FEDERAL, False,
                  Outputs(out, np.zeros((0, MAX_ACTIONS), np.uint8), np.zeros(0, np.int16),
                          np.zeros((0, 32), np.uint8), faults), None)
        club_seats = F_CALL * 0b0101
        if refused:
            # The club team's first call is replaced by a pass: always a fault of it.
            assert np.all((faults & club_seats) != 0)
            assert np.all((faults & (F_CALL * 0b1010)) == 0)
        else:
            assert np.all(faults == 0)
            assert not np.all(out[O_PASSED] == 1)


def test_the_card_play_compiles_once_whatever_kinds_the_auction_compiles_in():
    # play_one hands the card play its players without the optional bidders (the card
    # play asks for no call): a run seating a club player uses the card play every other
    # run compiles (5 s of a cold match). Every play_phase the kernel cache holds, from
    # whatever caller, takes NO_KINDS; on a cold cache (CI) the club run below compiles
    # its run_batch (play_one inlined), and so its play_phase, into that cache first.
    n = 8
    codes = np.array([PLAYER_CLUB, PLAYER_HEURISTIC], dtype=np.int32)
    params = np.stack([param_array("club"), param_array("heuristic", profile="federal")])
    out = np.zeros((N_OUT, n + 1), dtype=np.int32)[:, :n]
    faults = np.full(n, -1, dtype=np.int32)
    run_batch(np.uint64(7), np.int64(0), np.int64(n), np.int64(0), np.int64(n), -1,
              Players(codes, params, kinds_of(codes)), FEDERAL, False,
              Outputs(out, np.zeros((0, MAX_ACTIONS), np.uint8), np.zeros(0, np.int16),
                      np.zeros((0, 32), np.uint8), faults), None)
    assert np.all(faults == 0)
    cached = donne.play_phase._cache._cache_file._load_index()
    assert cached, "no play_phase in the kernel cache"
    for signature, *_ in cached:
        kinds = signature[2].types[2]  # play_phase(dealer, contract, players, ...)
        assert str(kinds) == "Kinds(none x 2)", signature
