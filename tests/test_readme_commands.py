"""Every ``$ msanalysis ...`` example in the README prints what the README shows.

The README's fenced blocks show commands after ``$ `` and their output on the lines below. Each
command is run here in a shell (pipes included), in a scratch folder that sees the repository's
``puzzles`` and where ``/tmp/`` stands for a scratch folder of its own, and its output must be
the block's, line for line. Two things cannot be the same from run to run and are masked on both
sides: times (``games/second``, ``time per game``, ``N puzzles in T s``, and the JSON
``seconds`` and ``games_per_second`` of ``play``), and a JSON list the README shortens to
``, ...]``. A command the README shows failing (an ``error:`` line, or ``not solvable``) must
exit with a status other than 0, and every other one with 0. The examples run in the README's
order, some reading what one before wrote: run the module whole, not one example. Benchmark
scripts (``$ python benchmarks/...``) are not run: they take minutes and print timings.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

_BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
_TIMES = [
    (re.compile(r"(games/second\s+)[\d.]+"), r"\1T"),
    (re.compile(r"(time per game\s+)[\d.]+ ms median, [\d.]+ ms mean"), r"\1T"),
    (re.compile(r"(\d+ puzzles? in )[\d.]+ s;"), r"\1T;"),
    (re.compile(r'("seconds": )[\d.e+-]+(, "games_per_second": )[\d.e+-]+'), r"\1T\2T"),
]


def examples(text: str) -> list[tuple[str, list[str]]]:
    """The README's ``$ msanalysis`` commands, each with the lines it shows below it."""
    found: list[tuple[str, list[str]]] = []
    for block in _BLOCK.findall(text):
        shown: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                shown.append((line[2:], []))
            elif shown:
                shown[-1][1].append(line)
        found += [(command, lines) for command, lines in shown
                  if command.startswith("msanalysis ")]
    return found


def masked(line: str) -> str:
    """``line`` with its times replaced by ``T``."""
    for pattern, replacement in _TIMES:
        line = pattern.sub(replacement, line)
    return line


def matches(shown: str, printed: str) -> bool:
    """Whether a printed line is the README's, times masked and a shortened list allowed."""
    shown, printed = masked(shown), masked(printed)
    if ", ...]" not in shown:
        return shown == printed
    pattern = r"(, .*)?\]".join(re.escape(part) for part in shown.split(", ...]"))
    return re.fullmatch(pattern, printed) is not None


EXAMPLES = examples(README.read_text(encoding="utf-8"))


def test_the_readme_has_examples() -> None:
    # A change to the README's layout that hid every example would pass everything below.
    assert len(EXAMPLES) >= 20
    assert any(command.startswith("msanalysis play") for command, _ in EXAMPLES)


def test_matches_masks_times_and_shortened_lists() -> None:
    assert matches("  games/second   712.05", "  games/second   903.65")
    assert not matches("  games         500", "  games         501")
    assert matches('{"a": [1, ...], "b": 2}', '{"a": [1, 2, 3], "b": 2}')
    assert not matches('{"a": [1, ...], "b": 2}', '{"a": [1, 2, 3], "b": 3}')
    assert not matches("..*......", "..*.....*")  # a board's dots are not an ellipsis


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A working folder that sees ``puzzles``, and the folder standing for ``/tmp``.

    The examples run in README order (some read what one before wrote), so they share both.
    """
    work = tmp_path_factory.mktemp("work")
    (work / "puzzles").symlink_to(ROOT / "puzzles")
    return work, tmp_path_factory.mktemp("tmp")


@pytest.mark.parametrize("command, shown", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example(command: str, shown: list[str], scratch: tuple[Path, Path]) -> None:
    work, tmp = scratch
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    run = subprocess.run(command.replace("/tmp/", f"{tmp}/"), shell=True, cwd=work, env=env,
                         capture_output=True, text=True, timeout=300)
    printed = (run.stdout + run.stderr).replace(f"{tmp}/", "/tmp/").splitlines()
    # What the README shows failing must fail (an error line, or solvable's verdict "not
    # solvable", exit 1), and nothing else may.
    fails = any(line.startswith(("error:", "not solvable")) for line in shown)
    assert (run.returncode != 0) == fails, f"$ {command}: exit status {run.returncode}"
    same = len(printed) == len(shown) and all(map(matches, shown, printed))
    assert same, (
        f"$ {command}\nREADME shows:\n" + "\n".join(shown) + "\nprinted:\n" + "\n".join(printed))
