"""Every shell example of the README and of the user guide (``docs/*.md``) is run.

The convention the pages follow:

- A shell example is a fenced ```` ```console ```` block. A line starting with ``$ `` is a
  command (a trailing `` \\`` continues it on the next line); the lines under it, up to
  the next command, are the output it shows.
- The shown output is checked against the command's real standard output: every
  non-blank shown line must match a line of it, in the same order (other lines may come
  in between). A shown line matches a whole real line, trailing spaces aside; ``…`` in it
  stands for any text, which is how the pages write times, rates and long elided parts.
- The command must exit with status 0.
- A fenced block directly preceded by ``<!-- file: NAME -->`` is a file a later example
  reads: its content is written to ``NAME`` before the commands under it run.
- A page's examples run in order in one temporary directory of their own (``cwd``), so
  an example may read what an earlier one of the same page wrote.
- ``simcoinche`` is the console script, run as ``sys.executable -m simcoinche`` with the
  environment kept (``PYTHONPATH`` included, so a worktree's code is the code run).
  The only commands not run are ``make`` ones (:data:`NOT_RUN`): the set-up, of which
  ``make test`` is this suite itself. Any other program, or a shell operator, fails.
- Shell examples in ``bash``/``sh``/``shell`` blocks are refused: they would escape this
  test.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250

#: Programs whose commands are shown but never run, and why.
NOT_RUN = {
    "make": "the set-up commands (make run, make test): make test is this suite itself",
}
#: Programs the test runs, and how.
RUNNABLE = {"simcoinche": [sys.executable, "-m", "simcoinche"]}
SHELL_OPERATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "<<", "2>", "2>&1"}
SHELL_LANGUAGES = {"bash", "sh", "shell", "zsh"}
COMMAND_TIMEOUT_S = 900

FENCE = re.compile(r"^(?P<fence>```+|~~~+)\s*(?P<lang>[\w+-]*)")
FILE_MARK = re.compile(r"^<!--\s*file:\s*(?P<name>\S+)\s*-->\s*$")


@dataclass
class Step:
    """One thing a page does in order: write a file, or run a command and check its output.

    Attributes
    ----------
    page : Path
        The Markdown page the step comes from.
    line : int
        1-based line of the command (or of the file block's opening fence).
    command : str
        The command as written, continuations joined (empty for a file).
    expected : list[str]
        The output lines shown under the command.
    file_name : str
        For a file step, the name to write it as (empty for a command).
    file_text : str
        For a file step, its content.
    """

    page: Path
    line: int
    command: str = ""
    expected: list[str] = field(default_factory=list)
    file_name: str = ""
    file_text: str = ""

    @property
    def label(self) -> str:
        """``page:line``, the page relative to the repository root."""
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"

    @property
    def program(self) -> str:
        """The first word of the command."""
        return shlex.split(self.command)[0] if self.command else ""


def parse_page(page: Path) -> list[Step]:
    """Read a page's file blocks and console commands, in order.

    Parameters
    ----------
    page : Path
        A Markdown file.

    Returns
    -------
    list[Step]
        The page's steps in the order they appear.

    Raises
    ------
    ValueError
        On a shell block that is not ``console``, a console block without a command, or
        an unclosed block.
    """
    lines = page.read_text(encoding="utf-8").splitlines()
    steps: list[Step] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, lang, start = opening["fence"], opening["lang"].lower(), i
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(fence)), None)
        if end is None:
            raise ValueError(f"{page.name}:{start + 1}: code block never closed")
        body = lines[start + 1:end]
        mark = FILE_MARK.match(lines[start - 1]) if start > 0 else None
        if mark:
            steps.append(Step(page, start + 1, file_name=mark["name"],
                              file_text="\n".join(body) + "\n"))
        elif lang in SHELL_LANGUAGES:
            raise ValueError(f"{page.name}:{start + 1}: a {lang} block; shell examples are "
                             "console blocks ($ command, then its output) so they are run")
        elif lang == "console":
            block = _parse_console(page, start + 2, body)
            if not block:
                raise ValueError(f"{page.name}:{start + 1}: a console block without a "
                                 "'$ ' command")
            steps.extend(block)
        i = end + 1
    return steps


def _parse_console(page: Path, first_line: int, body: list[str]) -> list[Step]:
    """Split a console block into commands, each with the output lines under it."""
    steps: list[Step] = []
    k = 0
    while k < len(body):
        text = body[k]
        if text.startswith("$ "):
            line, command = first_line + k, text[2:]
            while command.endswith("\\") and k + 1 < len(body):
                k += 1
                command = command[:-1].rstrip() + " " + body[k].strip()
            steps.append(Step(page, line, command=command.strip()))
        elif steps:
            steps[-1].expected.append(text)
        elif text.strip():
            raise ValueError(f"{page.name}:{first_line + k}: output before any '$ ' command")
        k += 1
    return steps


ALL_STEPS = [step for page in PAGES for step in parse_page(page)]
RUN_STEPS = [s for s in ALL_STEPS if s.command and s.program not in NOT_RUN]


def expected_pattern(shown: str) -> re.Pattern[str]:
    """The regular expression a real output line must match for one shown line.

    Parameters
    ----------
    shown : str
        A line of shown output; ``…`` stands for any text.

    Returns
    -------
    re.Pattern[str]
        The pattern, to be matched in full against a line stripped of trailing spaces.
    """
    return re.compile(".*".join(re.escape(part) for part in shown.rstrip().split("…")))


def missing_lines(expected: list[str], actual: str) -> list[str]:
    """The shown lines not found, in order, in the real output.

    Parameters
    ----------
    expected : list[str]
        The shown output lines (blank ones are ignored).
    actual : str
        The command's real standard output.

    Returns
    -------
    list[str]
        Empty when every shown line matched a later real line than the one before it;
        else the first shown line that did not, and those after it.
    """
    real = [line.rstrip() for line in actual.splitlines()]
    position = 0
    wanted = [line for line in expected if line.strip()]
    for n, shown in enumerate(wanted):
        pattern = expected_pattern(shown)
        hit = next((j for j in range(position, len(real)) if pattern.fullmatch(real[j])), None)
        if hit is None:
            return wanted[n:]
        position = hit + 1
    return []


def argv_of(command: str) -> list[str]:
    """The argument list that runs a shown command.

    Parameters
    ----------
    command : str
        The command as shown after ``$ ``.

    Returns
    -------
    list[str]
        The program (mapped through :data:`RUNNABLE`) and its arguments.

    Raises
    ------
    ValueError
        When the command uses a shell operator or a program this test cannot run.
    """
    words = shlex.split(command)
    operators = SHELL_OPERATORS.intersection(words)
    if operators:
        raise ValueError(f"shell operator {sorted(operators)} in {command!r}: not runnable")
    if words[0] not in RUNNABLE:
        raise ValueError(f"cannot run {words[0]!r} ({command!r}); runnable: "
                         f"{sorted(RUNNABLE)}, shown but not run: {sorted(NOT_RUN)}")
    return [*RUNNABLE[words[0]], *words[1:]]


class PageWorkspace:
    """A page's temporary directory and how far into the page's steps it has got."""

    def __init__(self, directory: Path, steps: list[Step]) -> None:
        self.directory = directory
        self.steps = steps
        self.done = 0

    def run_through(self, target: Step) -> subprocess.CompletedProcess[str]:
        """Run the page's steps in order up to ``target`` and return ``target``'s run.

        Parameters
        ----------
        target : Step
            A command step of this page.

        Returns
        -------
        subprocess.CompletedProcess[str]
            The target command's run (earlier commands must have exited 0).
        """
        index = self.steps.index(target)
        result: subprocess.CompletedProcess[str] | None = None
        while self.done <= index:
            step = self.steps[self.done]
            self.done += 1
            if step.file_name:
                (self.directory / step.file_name).write_text(step.file_text, encoding="utf-8")
                continue
            if step.program in NOT_RUN:
                continue
            result = subprocess.run(argv_of(step.command), cwd=self.directory,
                                    env={**os.environ, "PYTHONPATH": _pythonpath()},
                                    capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S,
                                    check=False)
            if step is not target:
                assert result.returncode == 0, (f"{step.label}, run before {target.label}: "
                                                f"exit {result.returncode}\n{result.stderr}")
        assert result is not None
        return result


def _pythonpath() -> str:
    """PYTHONPATH with the code under test first (the worktree's, when it is set so)."""
    return os.environ.get("PYTHONPATH") or str(ROOT)


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, PageWorkspace]:
    """One workspace per page, created when the page's first example runs."""
    spaces: dict[Path, PageWorkspace] = {}
    for page in PAGES:
        directory = tmp_path_factory.mktemp(page.stem.lower())
        spaces[page] = PageWorkspace(directory, [s for s in ALL_STEPS if s.page == page])
    return spaces


@pytest.mark.parametrize("step", RUN_STEPS, ids=[s.label for s in RUN_STEPS])
def test_example_runs_and_prints_what_the_page_shows(
        step: Step, workspaces: dict[Path, PageWorkspace]) -> None:
    result = workspaces[step.page].run_through(step)
    assert result.returncode == 0, (f"{step.label}: {step.command!r} exited "
                                    f"{result.returncode}\n{result.stderr}")
    missing = missing_lines(step.expected, result.stdout)
    assert not missing, (f"{step.label}: {step.command!r}: shown line not in its output "
                         f"(in order): {missing[0]!r}\n--- real output ---\n{result.stdout}")


def test_the_commands_left_unrun_are_the_make_set_up_only() -> None:
    unrun = sorted({s.command for s in ALL_STEPS if s.command and s.program in NOT_RUN})
    assert unrun == ["make run", "make test"]
    for step in RUN_STEPS:  # every other command is one this test knows how to run
        assert argv_of(step.command)[:3] == RUNNABLE["simcoinche"], step.label


def test_the_readme_and_each_question_page_have_run_examples() -> None:
    assert {s.page.name for s in RUN_STEPS} >= {"README.md", "odds.md", "advise.md",
                                                "parties.md", "match.md", "dd.md"}


def test_readme_is_at_most_250_lines() -> None:
    count = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert count <= README_MAX_LINES, f"README.md has {count} lines"


def test_a_shown_line_must_appear_in_order_with_ellipsis_as_any_text() -> None:
    real = "wrote runs/x.parquet\n10 donnes in 0.01 s: 1,000 donnes/s\npassed out: 0 %\n"
    assert missing_lines(["wrote runs/x.parquet", "", "10 donnes in … s: … donnes/s"], real) == []
    assert missing_lines(["passed out: 0 %", "wrote runs/x.parquet"], real) == [
        "wrote runs/x.parquet"]
    assert missing_lines(["10 donnes in 0.02 s…"], real) == ["10 donnes in 0.02 s…"]
    assert missing_lines(["passed out"], real) == ["passed out"]  # whole lines only


def test_commands_other_than_simcoinche_or_with_shell_operators_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot run 'python'"):
        argv_of("python analysis/headline.py")
    with pytest.raises(ValueError, match="shell operator"):
        argv_of("simcoinche score - < donne.json")


def test_a_bash_block_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n\n```bash\nsimcoinche profiles\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="console blocks"):
        parse_page(page)


def test_readme_links_into_the_guide_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
               if "://" not in t]
    assert any(t.startswith("docs/") for t in targets)
    assert [t for t in targets if not (ROOT / t).is_file()] == []
