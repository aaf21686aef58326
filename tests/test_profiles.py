"""The four rule profiles as data: names, packing, the ``simcoinche profiles`` command."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from simcoinche._kernels import layout as L
from simcoinche.commands.cli import main
from simcoinche.rules import actions as act
from simcoinche.rules.errors import InputError
from simcoinche.rules.profiles import (
    CLASSIC,
    DEFAULT_PROFILE,
    FEDERAL,
    MAX_MARK,
    PROFILES,
    STEPHANOISE,
    STRICT,
    Profile,
    get_profile,
)

SCRIPT = Path(sys.executable).with_name("simcoinche")
ALL = [FEDERAL, CLASSIC, STEPHANOISE, STRICT]


def test_the_four_profiles_of_rules_md_in_order():
    assert list(PROFILES) == ["federal", "classic", "stephanoise", "strict"]
    assert DEFAULT_PROFILE == "federal"
    assert [p.source[:3] for p in ALL] == ["000", "002", "003", "004"]


@pytest.mark.parametrize("name", ["classic", "Stephanoise", " STRICT ", "federal"])
def test_get_profile_by_name_case_insensitive(name):
    assert get_profile(name) is PROFILES[name.strip().lower()]


def test_get_profile_defaults_to_federal_and_passes_profiles_through():
    assert get_profile(None) is FEDERAL
    assert get_profile(STRICT) is STRICT


def test_unknown_profile_is_an_input_error_listing_all_four():
    with pytest.raises(InputError) as info:
        get_profile("belote")
    assert str(info.value) == ("unknown profile 'belote'; available: federal, classic, "
                               "stephanoise, strict")


@pytest.mark.parametrize("profile", ALL, ids=lambda p: p.name)
def test_packed_profile_is_read_only_int32_of_profile_len(profile):
    a = profile.packed
    assert a.dtype == np.int32 and a.shape == (L.PROFILE_LEN,) and not a.flags.writeable
    assert np.array_equal(a, profile.pack())


@pytest.mark.parametrize("profile", ALL, ids=lambda p: p.name)
def test_packed_values_are_the_profile_fields(profile):
    a = profile.packed
    n = len(profile.bid_values)
    assert a[L.P_N_BID_VALUES] == n
    assert tuple(a[L.P_BID_VALUES: L.P_BID_VALUES + n]) == profile.bid_values
    assert tuple(a[L.P_SA_POINTS: L.P_SA_POINTS + 8]) == profile.sa_points
    assert tuple(a[L.P_TA_POINTS: L.P_TA_POINTS + 8]) == profile.ta_points
    assert a[L.P_GENERALE_VALUE] == profile.generale_value
    assert a[L.P_GENERALE_CARD_POINTS] == profile.generale_card_points
    assert a[L.P_FIRST_BID_NEEDS] == profile.first_bid_needs
    assert a[L.P_LITIGE_POINTS] == profile.litige_points
    assert a[L.P_ANN_COMPARE] == profile.announcement_compare
    assert a[L.P_SHOW_AFTER_CARD] == profile.show_after_card
    assert a[L.P_SHOW_AFTER_CARD_SA] == profile.show_after_card_sa
    assert (a[L.P_SCORING_RULE], a[L.P_SUCCESS_RULE], a[L.P_PARTIE_RULE]) == (
        profile.scoring_rule, profile.success_rule, profile.partie_rule)


def test_layout_offsets_are_distinct_and_inside_the_array():
    scalars = {k: v for k, v in vars(L).items() if k.startswith("P_")}
    tables = {L.P_BID_VALUES: L.MAX_BID_VALUES, L.P_TRUMP_POINTS: 8, L.P_PLAIN_POINTS: 8,
              L.P_SA_POINTS: 8, L.P_TA_POINTS: 8, L.P_CARRE_POINTS: 8,
              L.P_CARRE_POINTS_SA: 8, L.P_SUITE_POINTS: 9}
    used: set[int] = set()
    for offset in scalars.values():
        cells = set(range(offset, offset + tables.get(offset, 1)))
        assert not cells & used and max(cells) < L.PROFILE_LEN
        used |= cells


@pytest.mark.parametrize("profile", ALL, ids=lambda p: p.name)
def test_every_bid_code_fits_a_byte_and_round_trips(profile):
    for level in range(profile.n_levels):
        for kind in profile.contract_kinds:
            code = act.bid_code(level, kind)
            assert code < 256
            assert act.parse_action(act.format_action(code, profile), profile) == code


def test_contract_kinds_per_profile():
    assert FEDERAL.contract_kinds == (0, 1, 2, 3)
    assert CLASSIC.contract_kinds == STRICT.contract_kinds == (0, 1, 2, 3, 4, 5)
    assert STEPHANOISE.contract_kinds == (0, 1, 2, 3, 4)


@pytest.mark.parametrize(("profile", "sa", "ta"), [(CLASSIC, 152, 152), (STRICT, 120, 248),
                                                   (STEPHANOISE, 120, None)])
def test_sa_and_ta_tables_total(profile, sa, ta):
    assert sum(profile.sa_points) * 4 == sa
    if ta is not None:
        assert sum(profile.ta_points) * 4 == ta


def test_profiles_are_frozen_and_options_are_fields():
    with pytest.raises(AttributeError):
        CLASSIC.no_coinche_80 = True  # type: ignore[misc]
    names = {f.name for f in fields(Profile)}
    assert {"no_coinche_80", "annul_max_points", "deal_rounds"} <= names


def test_profiles_command_lists_each_profile_on_one_line(capsys):
    assert main(["profiles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    for line, profile in zip(lines, ALL, strict=True):
        assert line.split()[0] == profile.name
        assert profile.description in line
    assert lines[0].endswith("(default)")
    assert "générale" in lines[1] and "décoinche" in lines[2] and "générale 400" in lines[3]


def test_profiles_console_script():
    proc = subprocess.run([str(SCRIPT), "profiles"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert [ln.split()[0] for ln in proc.stdout.splitlines()] == list(PROFILES)


def test_a_profile_sent_to_another_process_packs_its_rules_read_only_again():
    # Pickled for a worker process (Dask, the match workers), a profile whose packed array
    # was read keeps its fields only: unpickled, it packs the same rules read-only, the
    # argument type the kernels were compiled for (a writable copy compiled them again).
    import pickle

    for profile in ALL:
        assert not profile.packed.flags.writeable
        back = pickle.loads(pickle.dumps(profile))
        assert back == profile and "packed" not in back.__dict__
        assert not back.packed.flags.writeable
        assert np.array_equal(back.packed, profile.packed)


@pytest.mark.parametrize("change, culprit", [
    ({"last_trick_bonus": 10**9}, "last_trick_bonus must be a whole number in 0..1000"),
    ({"deal_rounds": (4, 4, 4)}, "deal_rounds must be three whole numbers adding up to 8"),
    ({"deal_rounds": (0, 4, 4)}, "the first positive"),
    ({"target": -5}, "target must be a whole number in 1..10000"),
    ({"belote_points": -20}, "belote_points must be a whole number in 0..1000"),
    ({"trump_points": (1, 2, 3)}, "trump_points must be 8 whole numbers in 0..1000"),
    ({"bid_values": (80, 70)}, "bid_values must be 1 to 24 increasing whole numbers"),
    ({"capot_value": 100}, "capot_value must be a whole number above the last bid value"),
    ({"generale_value": 200}, "generale_value must be 0 (none) or a whole number above"),
    ({"allow_sa": "yes"}, "allow_sa must be True or False"),
    ({"description": {"a": 1}}, "description must be a text"),
    ({"source": None}, "source must be a text"),
    ({"scoring_rule": 7}, "scoring_rule must be a whole number in 0..3"),
])
def test_a_profile_built_by_hand_is_checked_field_by_field(change, culprit):
    """A profile made with dataclasses.replace (the API takes Profile objects) is checked
    as it is built: one line naming the field, never a run with nonsense rules (a 10**9
    last-trick bonus overflowed the marks)."""
    import dataclasses

    with pytest.raises(InputError, match=re.escape(culprit)) as exc:
        dataclasses.replace(FEDERAL, **change)
    assert "\n" not in str(exc.value) and "profile 'federal'" in str(exc.value)


def test_every_shipped_profile_passes_its_own_checks():
    import dataclasses

    for profile in PROFILES.values():
        assert dataclasses.replace(profile) == profile


def test_a_profile_whose_fields_add_up_beyond_the_marks_column_is_refused():
    """Each field within 0..1000 can still add up to marks beyond the int16 columns: a
    surcoinched sans-atout at x4 with 1000-point fields. Refused as it is built, with the
    bound in the message, not written as a mark wrapped round to a negative number."""
    import dataclasses

    with pytest.raises(InputError, match=r"allow a mark of up to [\d,]+, more than the "
                       r"32,767") as exc:
        dataclasses.replace(STEPHANOISE, sa_multiplier=4, capot_value=999,
                            generale_value=1000, capot_card_points=1000,
                            carre_points=(1000,) * 8)
    assert "\n" not in str(exc.value) and "profile 'stephanoise'" in str(exc.value)


def _extremes(profile: Profile):
    """Score every contract of ``profile`` on the most each team could count (all card
    points; every announcement one team can have, the comparison leaving the other none;
    every belote: one per suit at tout-atout), in every combination."""
    from simcoinche._kernels.scoring import S_MARK0, SCORE_LEN, score_donne

    cards = max(sum(profile.trump_points) + 3 * sum(profile.plain_points),
                4 * sum(profile.sa_points), 4 * sum(profile.ta_points))
    counted = max(cards + profile.last_trick_bonus, profile.capot_card_points)
    # A team's announcements: its two seats' two carrés and two suites each.
    team_ann = 4 * (max(profile.carre_points + profile.carre_points_sa)
                    + max(profile.suite_points))
    out = np.zeros(SCORE_LEN, dtype=np.int32)
    coinches = (1, 2, 4) if profile.allow_surcoinche else (1, 2)
    marks = []
    for t in (0, 1):
        for level in range(profile.n_levels):
            for kind in profile.contract_kinds:
                belotes = (4 if kind == 5 else 1) * profile.belote_points
                for m in coinches:
                    for pts in ((counted, 0), (0, counted), (cards // 2, cards // 2)):
                        for tricks in ((8, 0), (0, 8), (4, 4)):
                            for ann in ((team_ann, 0), (0, team_ann)):
                                for bel in ((belotes, 0), (0, belotes),
                                            (belotes // 2, belotes - belotes // 2)):
                                    score_donne(t, level, kind, m, np.array(pts, np.int32),
                                                np.array(tricks, np.int32),
                                                np.array(ann, np.int32),
                                                np.array(bel, np.int32), profile.packed,
                                                out, 8)
                                    marks += [out[S_MARK0], out[S_MARK0 + 1]]
    return np.array(marks)


@pytest.mark.parametrize("profile", [*ALL, "near the limit"], ids=str)
def test_max_mark_bounds_every_mark_the_scoring_can_give(profile):
    """Profile.max_mark, the bound the check above uses, is a true bound: every scoring
    rule scored on the largest inputs each field allows stays within it, for the shipped
    profiles and a hand-built one close to the marks column's limit."""
    import dataclasses

    if profile == "near the limit":
        # (Tout-atout with a 1000-point belote: four of them.)
        profile = dataclasses.replace(STRICT, name="near", belote_points=1000,
                                      capot_value=900, generale_value=1000,
                                      failed_base=900, capot_card_points=900)
        assert MAX_MARK / 2 < profile.max_mark <= MAX_MARK
    marks = _extremes(profile)
    assert 0 <= marks.min() and marks.max() <= profile.max_mark <= MAX_MARK


def test_a_profile_built_by_hand_with_numpy_numbers_is_recorded_as_plain_json():
    """Fields may be numpy scalars (the checks take np.integer): the run's metadata holds
    them as JSON numbers (json.dumps had raised a TypeError), and they read back equal."""
    import dataclasses
    import json

    from simcoinche.rules.profiles import profile_metadata, profile_of_run

    custom = dataclasses.replace(FEDERAL, target=np.int64(1000), allow_sa=np.bool_(True),
                                 bid_values=tuple(np.arange(80, 161, 10)))
    md = json.loads(json.dumps(profile_metadata(custom)))
    assert md["profile_fields"]["target"] == 1000
    assert profile_of_run(md) == custom


def test_a_field_a_run_does_not_record_takes_its_default():
    """A run recorded before a field was added to Profile reads back with that field's
    default (the rule the engine played then), not as unreadable."""
    import dataclasses

    from simcoinche.rules.profiles import profile_metadata, profile_of_run

    # (stephanoise compares at the 9th card at sans-atout; the field's default is 5.)
    custom = dataclasses.replace(STEPHANOISE, target=1000)
    fields_ = profile_metadata(custom)["profile_fields"]
    del fields_["show_after_card_sa"]
    assert profile_of_run({"profile_fields": fields_}) == dataclasses.replace(
        custom, show_after_card_sa=5)
    del fields_["name"], fields_["source"]
    with pytest.raises(InputError, match=r"profile_fields do not describe a profile "
                                         r"\(missing name, source\)"):
        profile_of_run({"profile_fields": fields_})
