"""Tests for ``msanalysis puzzle make`` and ``msanalysis puzzle solve``: output, files, statuses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from msanalysis.board import Board
from msanalysis.cli import app
from msanalysis.numbergrid import NumberGrid
from msanalysis.puzzle import Puzzle
from msanalysis.reconstruction import reconstruct

TATHAM = Path(__file__).resolve().parent.parent / "puzzles" / "tatham"
runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["puzzle", *args], input=stdin)


def test_make_prints_a_puzzle_that_reads_back():
    result = run("make", "--width", "9", "--height", "7", "--seed", "5")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("# msanalysis puzzle: mosaic 9x7, ")
    assert text.splitlines()[0].endswith(", seed 5")
    puzzle = Puzzle.from_text(text)
    assert puzzle.seed == 5 and puzzle.irreducible is None  # read back: not re-checked
    assert reconstruct(puzzle.grid).unique
    again = run("make", "--width", "9", "--height", "7", "--seed", "5")
    assert again.stdout == text  # the seed decides everything


def test_make_many_in_tatham_format_then_solve_them():
    result = run("make", "--width", "10", "--height", "6", "--count", "3", "--seed", "20",
                 "--format", "tatham")
    assert result.exit_code == 0, result.output
    blocks = result.stdout.strip().split("\n\n")
    assert len(blocks) == 3
    for index, block in enumerate(blocks):
        header, game_id = block.splitlines()
        assert header.endswith(f"seed {20 + index}") and game_id.startswith("10x6:")
        solved = run("solve", "-", stdin=game_id)
        assert solved.exit_code == 0, solved.output
        assert solved.stdout.startswith("mosaic 10x6: 1 layout, unique; grade ")
        rows = solved.stdout.splitlines()[2:8]
        layout = Board.from_text("\n".join(row[2:].replace("#", "*") for row in rows))
        assert reconstruct(NumberGrid.from_tatham(game_id)).first == layout
    assert "3 puzzles in" in result.stderr and "grades 1:" in result.stderr


def test_make_writes_files_and_the_rule_comes_back(tmp_path):
    result = run("make", "--width", "8", "--height", "8", "--rule", "classic", "--count", "2",
                 "--seed", "3", "--grade", "1", "--output-dir", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    paths = sorted((tmp_path / "out").iterdir())
    assert [p.name for p in paths] == ["classic-8x8-seed-3.txt", "classic-8x8-seed-4.txt"]
    assert f"wrote {paths[0]}" in result.stderr
    for path in paths:
        puzzle = Puzzle.from_text(path.read_text())
        assert puzzle.rule == "classic" and puzzle.grade == 1
        solved = run("solve", str(path))  # the header gives the rule
        assert solved.exit_code == 0
        assert solved.stdout.startswith("classic 8x8: 1 layout, unique; grade 1")
        assert solved.stdout.rstrip().endswith("mines")


@pytest.mark.parametrize("header, fragment", [
    # Before, both were taken for comments: the grid was solved as mosaic, exit 0.
    ("# msanalysis puzzle: classic 5x5, 1 of 4 clues, grade 9, seed -3",
     "line 1: not a puzzle header: expected '# msanalysis puzzle: RULE WxH"),
    ("# msanalysis puzzle: classic 5x5, 1 of 4 clues, grade 3, seed 3",
     "line 1: the header says 5x5, but the grid below it is 2x2"),
    # Full-width digits, which the grid readers refuse, were read as a size and a seed.
    ("# msanalysis puzzle: classic \uff12x\uff12, 4 of 4 clues, grade 1, seed \uff13",
     "line 1: not a puzzle header: expected '# msanalysis puzzle: RULE WxH"),
])
def test_a_header_that_does_not_fit_its_grid_is_refused(tmp_path, header, fragment):
    path = tmp_path / "puzzle.txt"
    path.write_text(f"{header}\n11\n11\n")
    result = run("solve", str(path))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith(f"error: {path}, {fragment}"), result.stderr
    path.write_text("# a comment of one's own\n11\n11\n")  # other comments are comments
    assert run("solve", str(path)).exit_code == 0


def test_make_options():
    half = run("make", "--width", "6", "--height", "6", "--seed", "1", "--share", "0.5")
    puzzle = Puzzle.from_text(half.stdout)
    assert puzzle.clue_count == 18
    dense = run("make", "--width", "6", "--height", "6", "--seed", "1", "--density", "0.5")
    assert Puzzle.from_text(dense.stdout).solution.mine_count == 18


def test_solve_a_tatham_id_draws_the_picture(tmp_path):
    result = run("solve", str(TATHAM / "mosaic-12x8-1.txt"), "--svg", str(tmp_path / "p.svg"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "mosaic 12x8: 1 layout, unique; grade 1 (40 clues)"
    picture = [line[2:] for line in lines[3:11]]
    grid = NumberGrid.load(TATHAM / "mosaic-12x8-1.txt")
    mask = np.array([[ch == "#" for ch in row] for row in picture])
    assert np.array_equal(NumberGrid.from_board(Board(mask), rule="mosaic").clues[grid.clues >= 0],
                          grid.clues[grid.clues >= 0])
    assert lines[-1] == f"{int(mask.sum())} filled cells"
    svg = (tmp_path / "p.svg").read_text()
    assert svg.startswith("<svg") and "the only layout that fits" in svg


def test_solve_grids_with_no_or_several_layouts():
    none = run("solve", "-", "--rule", "classic", stdin="00\n01\n")
    assert none.exit_code == 1 and none.stdout == ""
    assert none.stderr.startswith("error: no layout satisfies the 0 at (0, 0)")
    several = run("solve", "-", stdin="1?\n??\n")
    assert several.exit_code == 0
    assert "not unique" in several.stdout and "grade" not in several.stdout.splitlines()[0]


@pytest.mark.parametrize("args, stdin, words", [
    (["make", "--width", "0", "--height", "4"], None, "--width and --height must be at least 1"),
    (["make", "--width", "4", "--height", "4", "--count", "0"], None, "--count must be at least"),
    (["make", "--width", "4", "--height", "4", "--rule", "classic", "--format", "tatham"], None,
     "use --rule mosaic"),
    (["make", "--width", "4", "--height", "4", "--grade", "5"], None, "grade must be one of"),
    (["make", "--width", "4", "--height", "4", "--density", "1.5"], None,
     "density must be between"),
    (["make", "--width", "4", "--height", "4", "--share", "-1"], None, "share must be between"),
    (["make", "--width", "4", "--height", "4", "--time-limit", "0"], None, "--time-limit"),
    (["make", "--width", "2", "--height", "2", "--density", "0.5"], None, "none of 100 layouts"),
    (["make", "--height", "4"], None, "--width"),
    (["make", "--width", "1001", "--height", "1000"], None, "the most this makes"),
    (["make", "--width", "4", "--height", "4", "--seed", "-3"], None, "a seed is a whole number"),
    (["make", "--width", "4", "--height", "4", "--rule", "hex"], None, "hex"),
    (["solve", "-"], "3x3:a4{", "line 1, column 7: unknown character '{'"),
    (["solve", "-"], "10x10#123", "a random seed, not a game ID"),
    (["solve", "-"], "12\n1x\n", "line 2, column 2: unknown character 'x'"),
    (["solve", "/no/such/puzzle.txt"], None, "no such folder: /no/such"),
    (["solve", "-", "--rule", "classic"], "4x3:2a213a3222a1", "stdin: a Tatham Mosaic ID, "
     "whose numbers count the 3x3 block with the cell: --rule classic does not apply to it"),
    (["solve", str(TATHAM / "mosaic-12x8-1.txt"), "--rule", "classic"], None,
     f"{TATHAM / 'mosaic-12x8-1.txt'}: a Tatham Mosaic ID"),
])
def test_unusable_input_exits_2(args, stdin, words):
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_a_bad_id_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# an ID\n5x5:zz\n")
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}, line 2, column 5: the ID describes more")


def test_time_limit_gives_up_with_status_3():
    result = run("make", "--width", "70", "--height", "70", "--density", "0.5", "--seed", "1",
                 "--time-limit", "0.05")
    assert result.exit_code == 3
    assert result.stderr.startswith("error: the time limit ran out")
