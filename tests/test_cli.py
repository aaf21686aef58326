"""The command-line shell: every error is one line with the right exit status."""

from __future__ import annotations

import argparse

import pytest

import simcoinche
from simcoinche.commands import cli
from simcoinche.rules.errors import InputError, RunError


def _with_command(monkeypatch, func):
    real = cli.build_parser

    def build() -> argparse.ArgumentParser:
        parser = real()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub.add_parser("boom").set_defaults(func=func)
        return parser

    monkeypatch.setattr(cli, "build_parser", build)


def _raise(exc):
    def func(args):
        raise exc

    return func


@pytest.mark.parametrize(("exc", "status"), [
    (InputError("hand_0: unknown card 'ZZ'"), 2),
    (RunError("task 3 failed on the cluster: OSError: disk full"), 1),
])
def test_user_errors_exit_2_and_run_failures_exit_1_with_one_line(monkeypatch, capsys, exc,
                                                                  status):
    _with_command(monkeypatch, _raise(exc))
    assert cli.main(["boom"]) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"simcoinche: error: {exc}\n"


def test_unknown_command_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["bogus"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'bogus'" in err


def test_every_command_of_the_product_surface_is_registered():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {"simulate", "score", "odds", "report", "profiles", "dd"} <= set(sub.choices)


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"simcoinche {simcoinche.__version__}"


def test_every_help_text_prints_its_percent_signs_once():
    # A description is printed as written ("95 %% interval" would show both signs); a
    # help string is %-formatted: each page reads "95 % interval", never "%%".
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    pages = [parser.format_help()] + [p.format_help() for p in sub.choices.values()]
    assert len(pages) > 10
    for page in pages:
        assert "%%" not in page


def test_a_failed_write_to_standard_output_is_one_line_and_exit_1():
    """``simcoinche profiles > /dev/full``: the write fails when standard output is
    flushed; one line naming the error, exit status 1, no traceback."""
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "simcoinche", "profiles"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == "simcoinche: error: No space left on device\n"
