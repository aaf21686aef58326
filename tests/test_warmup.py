"""``simcoinche warmup`` (issue 24, item 3): every command's kernels compiled ahead of time
in parallel processes, each job named with its time; bad options and failed jobs are one
line and a non-zero exit."""

from __future__ import annotations

import pytest

from simcoinche.commands import cli
from simcoinche.commands import warmup as W


def test_warmup_runs_a_commands_work_in_a_worker_process_and_times_it():
    seconds = W.warmup(["dd"], jobs=1, progress=False)
    assert list(seconds) == ["dd"] and seconds["dd"] > 0


def test_warmup_covers_every_command_that_compiles_kernels():
    names = {n for n, _ in W.COMMANDS}
    assert names == {"simulate", "odds", "advise", "parties", "match", "dd"}
    assert {n for n, _ in W.SLOW_COMMANDS} == {"simulate with pimc",
                                               "simulate with pimc and its thinking bidder"}


def test_warmup_all_starts_the_longest_jobs_the_pimc_players_first(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(W, "warmup", lambda names, jobs, progress: started.append(names)
                        or dict.fromkeys(names, 1.0))
    assert cli.main(["warmup", "--all", "--jobs", "2", "--no-progress"]) == 0
    assert cli.main(["warmup", "--jobs", "2", "--no-progress"]) == 0
    commands = [n for n, _ in W.COMMANDS]
    assert started == [["simulate with pimc and its thinking bidder", "simulate with pimc",
                        *commands], commands]
    assert "warmed 8 commands" in capsys.readouterr().out


def test_a_failed_job_is_named(monkeypatch):
    def broken(name):
        raise ValueError("no such kernel")

    # In-process stand-in for the pool: the error path is the same.
    class InlinePool:
        def __init__(self, *a, **k):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def submit(self, fn, *args):
            from concurrent.futures import Future

            f = Future()
            try:
                f.set_result(broken(*args))
            except Exception as exc:
                f.set_exception(exc)
            return f

    monkeypatch.setattr(W, "ProcessPoolExecutor", InlinePool)
    with pytest.raises(RuntimeError, match="warming up odds failed: ValueError: no such kernel"):
        W.warmup(["odds"], jobs=1, progress=False)


def test_impossible_jobs_count_is_one_line_and_exit_2(capsys):
    assert cli.main(["warmup", "--jobs", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["simcoinche: error: --jobs must be at least 1, got 0"]
