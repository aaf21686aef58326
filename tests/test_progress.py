"""The progress bars of the long commands (simcoinche.runs.progress): one look."""

from __future__ import annotations

import io

import pytest

import simcoinche
from simcoinche.runs.progress import progress_bar


@pytest.mark.parametrize("total, done, shown", [(300, 64, "64/300"),
                                                (2_000_000, 1_200_000, "1.20M/2.00M")])
def test_a_bar_counts_in_whole_numbers_below_ten_thousand_and_si_units_above(
        monkeypatch, total, done, shown):
    # tqdm's SI units wrote a PIMC run of 300 donnes as "64.0/300" and "0.00/300".
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    with progress_bar(total, True, "donnes") as bar:
        bar.update(done)
        bar.refresh()
    assert shown in err.getvalue() and " donnes" in err.getvalue()
    if total < 10_000:
        assert ".0/" not in err.getvalue() and ".00/" not in err.getvalue()


def test_a_run_asked_for_progress_draws_its_bar_and_one_not_asked_draws_none(capsys):
    simcoinche.simulate(300, seed=1, progress=True, threads=1)
    assert "300/300" in capsys.readouterr().err
    simcoinche.simulate(300, seed=1, progress=False, threads=1)
    assert capsys.readouterr().err == ""
