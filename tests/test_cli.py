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
    flushed; one line naming standard output and the error, exit status 1, no traceback
    (the line had said "No space left on device" alone)."""
    import subprocess
    import sys

    for args in (["profiles"], ["--help"], ["--version"], ["simulate", "--help"]):
        # (argparse's own text, printed before it exits: the same line, not exit 0.)
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "simcoinche", *args], stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
        assert proc.returncode == 1, args
        assert proc.stderr == ("simcoinche: error: cannot write standard output: No space "
                               "left on device\n")


def _console(args, env_vars=None, **kwargs):
    """``python -m simcoinche ARGS`` in a fresh process (the console entry point)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    env.update(env_vars or {})
    return subprocess.run([sys.executable, "-m", "simcoinche", *args], env=env,
                          capture_output=kwargs.pop("capture_output", True), text=True,
                          timeout=300, **kwargs)


@pytest.mark.parametrize("variable, value, culprit", [
    ("NUMBA_NUM_THREADS", "0",
     "NUMBA_NUM_THREADS must be a whole number of threads >= 1, got '0'"),
    ("NUMBA_NUM_THREADS", "abc",
     "NUMBA_NUM_THREADS must be a whole number of threads >= 1, got 'abc'"),
    ("NUMBA_THREADING_LAYER", "bogus",
     "NUMBA_THREADING_LAYER 'bogus' is not one of numba's: default, safe, forksafe, "),
    ("NUMBA_DISABLE_JIT", "1", "simcoinche needs numba's compiler: unset NUMBA_DISABLE_JIT"),
    ("NUMBA_NUM_THREADS", "", "NUMBA_NUM_THREADS must be a whole number of threads >= 1, "
     "got ''"),
    ("NUMBA_NUM_THREADS", "\u00b2", "NUMBA_NUM_THREADS must be a whole number"),
    ("NUMBA_THREADING_LAYER", " omp", "NUMBA_THREADING_LAYER ' omp' is not one of numba's"),
    ("NUMBA_THREADING_LAYER", "", "NUMBA_THREADING_LAYER '' is not one of numba's"),
    ("NUMBA_DISABLE_JIT", "yes", "simcoinche needs numba's compiler: unset NUMBA_DISABLE_JIT "
     "(it is 'yes')"),
    ("NUMBA_THREADING_LAYER", "tbb",
     "NUMBA_THREADING_LAYER 'tbb': No threading layer could be loaded."),
])
def test_a_numba_setting_numba_would_refuse_with_a_traceback_is_one_line(variable, value,
                                                                          culprit):
    """numba read these at import and answered with a traceback (NUMBA_NUM_THREADS=0, an
    unknown layer) or ran its kernels as Python the facade cannot call (NUMBA_DISABLE_JIT):
    every command failed, ``profiles`` included."""
    proc = _console(["profiles"], {variable: value})
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"simcoinche: error: {culprit}")
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""


@pytest.mark.parametrize("variable, value", [
    ("NUMBA_NUM_THREADS", "+1"), ("NUMBA_NUM_THREADS", " 1 "),
    ("NUMBA_THREADING_LAYER", "WORKQUEUE"), ("NUMBA_DISABLE_JIT", "00"),
])
def test_a_numba_setting_numba_accepts_is_accepted(variable, value):
    """As numba reads them: int() of the text, the layer lower-cased."""
    proc = _console(["profiles"], {variable: value})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_threads_beyond_numba_num_threads_name_the_variable(monkeypatch):
    import numba

    from simcoinche.runs.arguments import check_threads

    monkeypatch.setenv("NUMBA_NUM_THREADS", str(numba.config.NUMBA_NUM_THREADS))
    with pytest.raises(InputError, match=r"threads must be at most \d+ \(NUMBA_NUM_THREADS\)"):
        check_threads(numba.config.NUMBA_NUM_THREADS + 1)
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    with pytest.raises(InputError, match=r"at most \d+ \(this machine\)"):
        check_threads(numba.config.NUMBA_NUM_THREADS + 1)


def _closing(fd):
    """A ``preexec_fn`` that starts the child with file descriptor ``fd`` closed."""
    import os

    return lambda: os.close(fd)


def test_closed_standard_streams_are_one_line_or_quiet():
    """Started with a stream closed (``>&-``, ``<&-``, ``2>&-``), the commands failed
    with an AttributeError traceback on None: standard output closed is refused before
    any work, standard input closed reads as empty, standard error closed is quiet."""
    import subprocess

    out = _console(["profiles"], capture_output=False, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, preexec_fn=_closing(1))
    assert out.returncode == 2
    assert out.stderr == "simcoinche: error: standard output is closed\n"
    stdin = _console(["score", "-"], preexec_fn=_closing(0))
    assert stdin.returncode == 2
    assert stdin.stderr == ("simcoinche: error: standard input is empty: give the record "
                            "there, or a file\n")
    err = _console(["profiles"], capture_output=False, stdout=subprocess.PIPE,
                   stderr=subprocess.DEVNULL, preexec_fn=_closing(2))
    assert err.returncode == 0 and "federal" in err.stdout


def test_an_output_encoding_without_accents_escapes_them():
    """PYTHONIOENCODING=ascii: --help and profiles print 'é' and '–' escaped instead of a
    UnicodeEncodeError traceback."""
    proc = _console(["--help"], {"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    assert "Coinche (belote coinch\\xe9e) simulator" in proc.stdout
    assert _console(["profiles"], {"PYTHONIOENCODING": "ascii"}).returncode == 0


def test_score_refuses_an_endless_input_in_one_line(monkeypatch):
    """``simcoinche score /dev/zero`` read until memory ran out (MemoryError)."""
    from simcoinche.commands import read_input

    monkeypatch.setattr("simcoinche.commands.MAX_INPUT_CHARS", 1000)
    with pytest.raises(InputError, match="/dev/zero is longer than 1,000 characters: not a "
                                         "record"):
        read_input("/dev/zero")
