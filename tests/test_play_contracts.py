"""The reusable play phase: ``batch.play_contracts`` plays a fixed contract on given hands
(announcements, 32 cards, scoring) exactly as a simulated donne's play phase does."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simcoinche._kernels import batch as B
from simcoinche._kernels import layout as L
from simcoinche._kernels.donne import Players
from simcoinche._kernels.kinds import NO_KINDS
from simcoinche._kernels.rng import seed_key
from simcoinche.players.registry import param_array
from simcoinche.rules.profiles import get_profile
from simcoinche.runs.simulation import simulate

HANDS = ["hand_0", "hand_1", "hand_2", "hand_3"]


def _codes(players: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    from simcoinche.players.registry import get_player

    codes = np.array([get_player(p).code for p in players], dtype=np.int32)
    params = np.stack([param_array(p) for p in players])
    return codes, params


def _play(df, profile: str, players: tuple[str, str], seed: int = 5, start: int = 0,
          threads: int | None = None) -> np.ndarray:
    codes, params = _codes(players)
    n = len(df)
    out = np.zeros((L.PC_LEN, n), dtype=np.int32)
    # The argument types of the commands' own calls (C-ordered writable arrays, a uint64
    # key, think given): the kernel compiles no machine code of its own for the tests.
    hands = np.array(df[HANDS].to_numpy(dtype=np.uint32), order="C")
    contracts = B.Contracts(*(np.array(df[c].to_numpy(), dtype=np.int8)
                              for c in ("dealer", "taker", "bid_level")),
                            np.array(df["trump"].cat.codes.to_numpy(), dtype=np.int8),
                            np.array(df["coinche"].to_numpy(), dtype=np.int8))
    prev = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        B.play_contracts(np.uint64(seed_key(np.uint64(seed))), np.int64(start), hands,
                         contracts, Players(codes, params, NO_KINDS),
                         get_profile(profile).packed, out, None)
    finally:
        numba.set_num_threads(prev)
    return out


@pytest.mark.parametrize("profile", ["federal", "classic", "stephanoise", "strict"])
def test_play_contracts_reproduces_the_play_phase_of_simulated_heuristic_donnes(profile):
    """Heuristic players draw no random numbers, so replaying each simulated contract
    through play_contracts must give the simulated row's every scored column."""
    df = simulate(4000, seed=17, profile=profile, players="heuristic", progress=False)
    df = df[~df["passed_out"]].reset_index(drop=True)
    out = _play(df, profile, ("heuristic", "heuristic"))
    for t in range(2):
        assert (out[L.PC_TRICKS + t] == df[f"tricks_t{t}"]).all()
        assert (out[L.PC_CARD_POINTS + t] == df[f"card_points_t{t}"]).all()
        assert (out[L.PC_ANNOUNCE + t] == df[f"announce_t{t}"]).all()
        assert (out[L.PC_BELOTE + t] == df[f"belote_t{t}"]).all()
        assert (out[L.PC_MARKS + t] == df[f"marks_t{t}"]).all()
    assert (out[L.PC_MADE] == df["made"]).all()


def test_takers_and_defence_totals_are_cards_plus_announcements_plus_belote():
    df = simulate(3000, seed=2, players="heuristic", progress=False)
    df = df[~df["passed_out"]].reset_index(drop=True)
    out = _play(df, "federal", ("random", "random"))
    t = (df["taker"].to_numpy() & 1)
    tot = [out[L.PC_CARD_POINTS + q] + out[L.PC_ANNOUNCE + q] + out[L.PC_BELOTE + q]
           for q in range(2)]
    tt = np.where(t == 0, tot[0], tot[1])
    td = np.where(t == 0, tot[1], tot[0])
    assert (out[L.PC_TOTAL_TAKERS] == tt).all()
    assert (out[L.PC_TOTAL_DEFENCE] == td).all()
    # "152 points in the cards, +10 for the last trick"; 252 on a capot.
    cp = out[L.PC_CARD_POINTS] + out[L.PC_CARD_POINTS + 1]
    capot = (out[L.PC_TRICKS] == 8) | (out[L.PC_TRICKS + 1] == 8)
    assert (cp[~capot] == 162).all() and (cp[capot] == 252).all()
    assert ((out[L.PC_TRICKS] + out[L.PC_TRICKS + 1]) == 8).all()
    # Federal marks are rounded to tens; made ⇔ T_t ≥ bid and T_t > T_d.
    assert (out[L.PC_MARKS] % 10 == 0).all()
    value = df["bid_value"].to_numpy()
    capot_bid = df["capot_bid"].to_numpy()
    takers_tricks = np.where(t == 0, out[L.PC_TRICKS], out[L.PC_TRICKS + 1])
    made = (tt >= value) & (tt > td) & (~capot_bid | (takers_tricks == 8))
    assert (out[L.PC_MADE] == made).all()


def test_play_contracts_rows_do_not_depend_on_threads_blocks_or_chunking():
    """Random players: row j uses the stream of index start + j, whatever the thread."""
    df = simulate(2 * B.BLOCK + 100, seed=3, players="random", progress=False)
    df = df[~df["passed_out"]].reset_index(drop=True)
    one = _play(df, "federal", ("random", "random"), threads=1)
    two = _play(df, "federal", ("random", "random"), threads=2)
    assert (one == two).all()
    tail = _play(df.iloc[300:].reset_index(drop=True), "federal", ("random", "random"),
                 start=300)
    assert (tail == one[:, 300:]).all()
    other_seed = _play(df, "federal", ("random", "random"), seed=6)
    assert (other_seed != one).any()


def test_the_same_deal_and_contract_played_many_times_varies_with_random_players():
    """The odds use case: one deal, one contract, many random playouts."""
    df = simulate(50, seed=8, players="heuristic", progress=False)
    row = df[~df["passed_out"]].iloc[[0]]
    many = row.loc[row.index.repeat(2000)].reset_index(drop=True)
    many["trump"] = many["trump"].astype(df["trump"].dtype)
    out = _play(many, "federal", ("random", "random"))
    assert len(np.unique(out[L.PC_CARD_POINTS])) > 20
    assert 0.0 < out[L.PC_MADE].mean() < 1.0


def test_taker_own_tricks_are_reported_and_decide_a_generale():
    """PC_TAKER_TRICKS: the bidder's own tricks (at most his team's); a générale
    (classic) is made exactly when he took all 8."""
    df = simulate(20000, seed=4, profile="classic", players="random", progress=False)
    df = df[~df["passed_out"]].reset_index(drop=True)
    out = _play(df, "classic", ("random", "random"))
    team = df["taker"].to_numpy() & 1
    team_tricks = np.where(team == 0, out[L.PC_TRICKS], out[L.PC_TRICKS + 1])
    assert (out[L.PC_TAKER_TRICKS] <= team_tricks).all()
    assert (out[L.PC_TAKER_TRICKS] < team_tricks).any()
    gen = df["bid_level"].to_numpy() == len(get_profile("classic").bid_values) + 1
    assert gen.sum() > 20
    assert (out[L.PC_MADE][gen] == (out[L.PC_TAKER_TRICKS][gen] == 8)).all()
