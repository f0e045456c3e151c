"""Tests for ``msanalysis reconstruct``: output, JSON keys, exit statuses."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import msanalysis
from children import ctrl_c_as_default, killed_at_the_end
from msanalysis.cli import app

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "reconstruct"
ANSWERS = json.loads((PUZZLES / "answers.json").read_text())
KEYS = ["rule", "width", "height", "solutions", "exhaustive", "unique", "layout"]

runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["reconstruct", *args], input=stdin)


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_json_matches_the_recorded_answers(name):
    answer = ANSWERS[name]
    result = run(str(PUZZLES / name), "--rule", answer["rule"], "--all", "--json")
    if not answer["solutions"]:
        # No layout: one error line naming the clues, as analyze names an inconsistent position's.
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.startswith("error: no layout satisfies the ")
        assert all(f"at ({r}, {c})" in result.stderr for r, c in answer["conflict"])
        return
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == KEYS
    assert data["rule"] == answer["rule"]
    # An exact decimal string, as in analyze --json: counts can exceed what JSON numbers hold.
    assert data["solutions"] == str(answer["solutions"]) and data["exhaustive"] is True
    assert data["unique"] == answer["unique"]
    if answer["layout"] is not None:
        assert data["layout"] == answer["layout"]
    assert len(data["layout"]) == data["height"]


def test_text_output_draws_the_layout():
    result = run(str(PUZZLES / "seed003-mosaic.txt"), "--rule", "mosaic")
    assert result.exit_code == 0
    assert "mosaic 9x9: 1 layout, unique" in result.stdout
    assert "0 ........*" in result.stdout and "8 .*......." in result.stdout
    assert "10 mines" in result.stdout


def test_engines_and_limits():
    path = str(PUZZLES / "several-classic-4x4.txt")
    for engine in ("sat", "cpsat"):
        data = json.loads(run(path, "--engine", engine, "--json").stdout)
        # A lower bound: three cells no clue counts already give 2^3 layouts.
        assert (data["solutions"], data["exhaustive"], data["unique"]) == ("8", False, False)
        assert data["layout"] is not None
    data = json.loads(run(path, "--limit", "5", "--json").stdout)
    assert int(data["solutions"]) >= 5 and data["exhaustive"] is False
    result = run(path)
    assert "at least 8 layouts (stopped at the limit), not unique" in result.stdout
    result = run(path, "--all")
    assert f"{ANSWERS['several-classic-4x4.txt']['solutions']} layouts, not unique" in result.stdout


def test_no_layout_exits_1_and_names_the_clues():
    result = run(str(PUZZLES / "none-classic-5x5.txt"))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "error: no layout satisfies the 0 at (0, 0) and the 8 at (2, 2)\n"


def test_stdin():
    result = run("-", "--json", stdin="01\n11\n")
    assert result.exit_code == 0 and json.loads(result.stdout)["layout"] == ["*.", ".."]


@pytest.mark.parametrize("args, stdin, words", [
    (["-"], "01\n1x\n", "line 2, column 2: unknown character 'x'"),
    (["-"], "012\n01\n", "line 2, column 3: row has 2 cells"),
    (["-"], "000\n090\n000\n", "9 is impossible under the classic rule"),
    (["-", "--rule", "mosaic"], "500\n000\n", "counts 4 cells"),
    (["-", "--limit", "2", "--all"], "0\n", "either --limit N or --all"),
    (["-", "--limit", "0"], "0\n", "--limit must be at least 1"),
    (["/no/such/grid.txt"], None, "no such folder: /no/such"),
])
def test_unusable_input_exits_2(args, stdin, words):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2
    assert words in result.stderr and result.stderr.startswith("error: ")
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name, text, said", [
    ("board.txt", "# 3x2, 1 mine, rules safe-cell, first click 0,0, seed 1\n..*\n...\n",
     "line 2, column 1: unknown character '.' in a number grid (expected a digit or '?'); "
     "the file reads as a board (a mine layout), which 'show' and 'metrics' read"),
    ("position.txt", "mines: 1\n1?\n11\n",
     "line 1, column 1: unknown character 'm' in a number grid (expected a digit or '?'); "
     "the file reads as a position (what a player sees), which 'analyze' reads"),
    # Its header WxHxM read as a Tatham ID's start: that error alone named no format.
    ("position.mine", "2x2x1\n1H\n11\n",
     "line 2, column 1: text after the Tatham Mosaic ID (one ID per file); "
     "the file reads as a position (what a player sees), which 'analyze' reads"),
    ("game.avf", "\x00\x01", "the file is a replay by its name, which 'msanalysis replay' "
     "reads"),
    ("typo.txt", "1x\n11\n", "line 1, column 2: unknown character 'x' in a number grid "
     "(expected a digit or '?')\n"),  # neither: the grid's error alone
])
@pytest.mark.parametrize("command", [["reconstruct"], ["puzzle", "solve"]])
def test_a_file_of_another_kind_is_named(tmp_path, command, name, text, said):
    path = tmp_path / name
    path.write_text(text)
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith(f"error: {path}") and said in result.stderr, result.stderr


def test_bad_choice_is_a_usage_error():
    result = run("-", "--rule", "hex", stdin="0\n")
    assert result.exit_code == 2


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_ctrl_c_stops_the_search_with_status_130(tmp_path, engine):
    # Counting every layout of a sparse 60x60 grid takes far longer than the time limit, and
    # both engines search in C, which used to hold Ctrl-C back until the limit.
    rng = random.Random(2)
    grid = tmp_path / "sparse.txt"
    grid.write_text("\n".join("".join("1" if rng.random() < 1 / 6 else "?" for _ in range(60))
                              for _ in range(60)) + "\n")
    # The imports first, then "ready": the signal comes once the search runs, not while Python
    # starts up.
    script = ("import msanalysis.cli, msanalysis.reconstruction, ortools.sat.python.cp_model\n"
              "print('ready', flush=True)\n"
              "msanalysis.cli.app(prog_name='msanalysis')\n")
    root = Path(msanalysis.__file__).resolve().parent.parent
    child = subprocess.Popen(
        [sys.executable, "-c", script, "reconstruct", str(grid), "--all", "--engine", engine,
         "--time-limit", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(root)}, preexec_fn=ctrl_c_as_default)
    with killed_at_the_end(child):
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        time.sleep(1)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=8)  # a generous bound: not hung until the limit
    assert child.returncode == 130, err
    assert "Traceback" not in err


def test_a_puzzle_file_is_read_under_the_rule_its_header_names(tmp_path):
    # puzzle make writes "# msanalysis puzzle: mosaic ..." above the grid: reconstruct read it
    # as classic (its default for a bare grid) and said that no layout fits.
    made = CliRunner().invoke(app, ["puzzle", "make", "--width", "8", "--height", "6",
                                    "--seed", "4"])
    path = tmp_path / "m.txt"
    path.write_text(made.stdout)
    result = run(str(path), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["rule"] == "mosaic"
    assert json.loads(result.stdout)["unique"]
    assert run(str(path), "--rule", "classic").exit_code == 1  # an explicit rule wins
    # ... but not over a Tatham ID, whose game decides what its numbers count: refused.
    tatham = run("-", "--rule", "classic", stdin="4x3:2a213a3222a1\n")
    assert tatham.exit_code == 2 and tatham.stderr == (
        "error: stdin: a Tatham Mosaic ID, whose numbers count the 3x3 block with the cell: "
        "--rule classic does not apply to it (leave it out)\n")
    assert run("-", "--rule", "mosaic", stdin="4x3:2a213a3222a1\n").exit_code == 0
    assert json.loads(run("-", "--json", stdin=made.stdout).stdout)["rule"] == "mosaic"
    assert json.loads(run("-", "--json", stdin="11\n").stdout)["rule"] == "classic"
    wrong = run("-", stdin="# msanalysis puzzle: mosaic 9x9, 1 of 2 clues, grade 1\n11\n")
    assert wrong.exit_code == 2
    assert wrong.stderr == "error: stdin, line 1: the header says 9x9, but the grid below it " \
                           "is 2x1\n"
