"""Profiles built by hand (``dataclasses.replace`` of a shipped one, which keeps its name):
every API plays their own rules, and nothing fitted for the shipped namesake's rules is
used for other rules without a word."""

from __future__ import annotations

import dataclasses
import re

import pytest

import simcoinche
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import FEDERAL

HAND = "JH 9H AH TH KH AS TS AC"
WITH_SA_TA = dataclasses.replace(FEDERAL, allow_sa=True, allow_ta=True)
TARGET_500 = dataclasses.replace(FEDERAL, target=500)


@pytest.mark.parametrize("profile, changed", [
    (WITH_SA_TA, "changes allow_sa, allow_ta"),
    (dataclasses.replace(FEDERAL, bid_values=tuple(range(80, 89))), "changes bid_values"),
    (dataclasses.replace(FEDERAL, trump_points=(0,) * 8), "changes trump_points"),
    (dataclasses.replace(FEDERAL, name="house", allow_sa=True),
     "and profile 'house' plays the rules of none of them"),
])
def test_the_heuristic_bidder_refuses_rules_its_tables_were_not_fitted_for(profile, changed):
    """Its tables (and the cells' outcome spread) are the shipped namesake's: a ladder of
    80..88 (same table key as federal's) or card points all zero had been played on
    federal's tables without a word; SA allowed was refused as 'fitted for another
    profile than federal'."""
    with pytest.raises(InputError, match=re.escape(changed)) as exc:
        simcoinche.simulate(10, profile=profile, players="heuristic", progress=False)
    assert str(exc.value).startswith("the bidding tables of players heuristic and pimc "
                                     "are fitted for the shipped profile")  # (or profiles)
    assert str(exc.value).endswith("seat players that bid without them (random, club)")
    df = simcoinche.simulate(200, seed=1, profile=profile, players="random", progress=False)
    assert len(df) == 200


def test_a_changed_target_keeps_the_bidding_tables_but_not_the_match_equity():
    """The bidding tables do not depend on the partie's target, the match equity does: a
    500-point partie had been bid on federal's 2000-point equity table, and equity()
    answered 0.71 for a team already past 500."""
    shipped = simcoinche.simulate(300, seed=3, profile=FEDERAL, progress=False)
    variant = simcoinche.simulate(300, seed=3, profile=TARGET_500, progress=False)
    assert shipped.equals(variant)
    equity_refused = r"the match equity tables .* changes target: give them score_aware=0"
    with pytest.raises(InputError, match=equity_refused):
        simcoinche.parties(5, profile=TARGET_500, players="heuristic", progress=False)
    with pytest.raises(InputError, match=equity_refused):
        simcoinche.match("heuristic", "random", parties=3, profile=TARGET_500,
                         progress=False)
    df = simcoinche.parties(5, seed=1, profile=TARGET_500,
                            players="heuristic:score_aware=0", progress=False)
    assert (df[["total_t0", "total_t1"]].max(axis=1) >= 500).all()
    with pytest.raises(InputError, match=r"the equity tables .* changes target"):
        simcoinche.equity(600, 100, profile=TARGET_500)
    with pytest.raises(InputError, match=r"advise reads with a score .* changes target"):
        simcoinche.advise(HAND, "", profile=TARGET_500, score=(400, 300), samples=20)


def test_advise_and_odds_speak_the_profile_built_by_hand():
    """The auction's tokens and legality, the candidate bids and the results' accessors
    follow the hand-built profile: SA and TA bids are offered where the profile allows
    them (80SA had been an IllegalAction traceback), a ladder of 81, 87, … is read and
    shown as such (it had been shown as 80S), and the JSON records the fields."""
    advice = simcoinche.advise(HAND, "80SA", profile=WITH_SA_TA, players="random",
                               samples=30)
    offered = {a.action for a in advice.actions}
    assert {"90SA", "90TA", "capotTA"} <= offered
    assert advice.table().splitlines()[0].endswith(
        "profile federal, built by hand: allow_sa=True, allow_ta=True, players "
        "random,random, play heuristic)")
    odd = dataclasses.replace(FEDERAL, bid_values=(81, 87, 93, 99, 111))
    advice = simcoinche.advise(HAND, "81S", profile=odd, players="random", samples=30)
    assert "auction so far: 81S (seat 3)" in advice.table()
    assert advice.action("87H").action == "87H"
    assert not any(a.action.startswith("90") for a in advice.actions)
    odds = simcoinche.odds(HAND, profile=odd, players="random", samples=30)
    assert odds.level("H", 81).value == 81
    record = odds.to_dict()
    assert record["profile"] == "federal"
    assert record["profile_fields"]["bid_values"] == [81, 87, 93, 99, 111]
    assert "profile_fields" not in simcoinche.odds(HAND, players="random",
                                                   samples=30).to_dict()


def test_a_run_recording_a_profile_that_is_no_profile_is_refused_naming_the_file(tmp_path):
    """profile_fields rewritten into nonsense (with the metadata's checksum made again):
    every reader refuses the file, naming it, where plain read_results had read it and
    skipped the rules' checks."""
    import hashlib
    import json

    import pyarrow.parquet as pq

    from simcoinche.commands.cli import main
    from simcoinche.runs.results import METADATA_DIGEST_KEY, METADATA_KEY

    path = tmp_path / "run.parquet"
    simcoinche.simulate(30, seed=1, profile=WITH_SA_TA, players="random", out=path,
                        progress=False)
    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[METADATA_KEY])
    meta["profile_fields"]["bid_values"] = "80,90"
    text = json.dumps(meta).encode()
    edited = tmp_path / "edited.parquet"
    pq.write_table(table.replace_schema_metadata({
        METADATA_KEY: text, METADATA_DIGEST_KEY: hashlib.sha256(text).hexdigest().encode()}),
        edited)
    culprit = (f"{str(edited)!r}: the profile its metadata record: profile 'federal': "
               "bid_values must be 1 to 24 increasing whole numbers")
    with pytest.raises(InputError, match=re.escape(culprit)):
        simcoinche.read_results(edited)
    assert main(["report", str(edited), "--out", str(tmp_path / "rep")]) == 2
    assert not (tmp_path / "rep").exists()


def test_a_variant_says_so_in_the_run_summary_and_takes_lists_for_tuples(tmp_path):
    summary = simcoinche.simulate(20, seed=1, profile=WITH_SA_TA, players="random",
                                  out=tmp_path / "r.parquet", progress=False)
    assert ("; profile federal, built by hand: allow_sa=True, allow_ta=True; players "
            "random,random; seed 1)") in summary.text()
    variant = dataclasses.replace(FEDERAL, bid_values=[80, 90, 100])
    assert variant.bid_values == (80, 90, 100) and hash(variant)


def test_a_renamed_copy_with_the_same_rules_bids_with_the_shipped_tables():
    """Names and descriptions are no rules: a copy of federal called "house" is served by
    federal's tables (it had been refused as an unknown profile)."""
    house = dataclasses.replace(FEDERAL, name="house", description="our club's")
    a = simcoinche.simulate(300, seed=2, profile=house, progress=False)
    b = simcoinche.simulate(300, seed=2, progress=False)
    assert a.equals(b)


def test_odds_without_an_auction_plays_a_variant_with_any_players():
    """Without an auction nobody bids, so no bidding tables are read: a variant that
    changes the card rules is played by the heuristic card play (refused only where an
    auction makes the players bid)."""
    variant = dataclasses.replace(FEDERAL, must_undertrump=True)
    assert simcoinche.odds(HAND, profile=variant, samples=30, seed=1).samples == 30
    with pytest.raises(InputError, match="changes must_undertrump"):
        simcoinche.odds(HAND, auction="80S", profile=variant, samples=30, seed=1)


def test_colver_plays_federal_rules_only_variants_included():
    """The check had compared the name: a federal copy with SA passed, and colver would
    have played federal's rules against an engine scoring the variant's."""
    from simcoinche.players.peers import check_profile

    with pytest.raises(InputError, match=re.escape(
            "colver players play federal rules only; got this federal built by hand, "
            "which changes allow_sa")):
        check_profile(dataclasses.replace(FEDERAL, allow_sa=True))
    assert check_profile(TARGET_500) is TARGET_500  # (a match of deals: no partie)
    with pytest.raises(InputError, match="got profile classic"):
        check_profile("classic")


def test_an_equity_table_solved_for_a_variant_keeps_its_target_and_no_other_rule():
    """solve() records a profile by name: a variant's own target is kept with the table,
    any other change is refused (its end rules had been looked up by name, federal's)."""
    import numpy as np

    from simcoinche.players.equity import solve

    outcomes = np.array([[10, 0, 1, 0, 0, 1], [0, 10, 0, 1, 1, 1]], np.int32)
    probs = np.array([0.5, 0.5])
    assert solve(outcomes, probs, profile=dataclasses.replace(FEDERAL, target=100)).target \
        == 100
    with pytest.raises(InputError, match="changes partie_rule"):
        solve(outcomes, probs, profile=dataclasses.replace(FEDERAL, partie_rule=1))


def test_a_match_under_a_variant_keeps_the_name_in_its_json_and_says_so_in_its_text():
    result = simcoinche.match("random", "club", 20, seed=1, profile=WITH_SA_TA,
                              progress=False)
    assert result.to_json()["profile"] == "federal"
    assert "profile federal, built by hand: allow_sa=True, allow_ta=True;" in result.text()


def test_a_contract_the_profile_lacks_says_whether_the_run_recorded_its_rules(tmp_path):
    """A run that names its profile without its fields (every shipped profile's, and a
    hand-built one's written before runs recorded them) is checked against the shipped
    namesake, and the message says so; a run with its fields is checked against them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for profile, recorded in ((FEDERAL, False), (WITH_SA_TA, True)):
        path = tmp_path / f"{profile.allow_sa}.parquet"
        simcoinche.simulate(30, seed=1, profile=profile, players="random", out=path,
                            progress=False)
        table = pq.read_table(path)
        values = table["bid_value"].to_pylist()
        values[table["passed_out"].to_pylist().index(False)] = 999
        i = table.schema.get_field_index("bid_value")
        edited = tmp_path / f"edited-{profile.allow_sa}.parquet"
        pq.write_table(table.set_column(i, "bid_value", pa.array(values, pa.int16())),
                       edited)
        with pytest.raises(InputError) as exc:
            simcoinche.read_results(edited)
        message = str(exc.value)
        assert "holds 999, not its level's value in profile 'federal'" in message
        assert ("before runs recorded its fields" in message) is not recorded
