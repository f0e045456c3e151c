"""Tests for ``msanalysis analyze``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from msanalysis.cli import app

runner = CliRunner()
POSITIONS = Path(__file__).resolve().parent.parent / "puzzles" / "positions"


def run(*args: str):
    return runner.invoke(app, ["analyze", *args])


@pytest.fixture
def one_two_one(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("# 1-2-1\nmines: 2\n?????\n?121?\n?...?\n")
    return path


def test_json_has_exactly_the_documented_keys(one_two_one):
    result = run(str(one_two_one), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["width", "height", "total_mines", "exact", "stopped", "solutions",
                          "forced_safe", "forced_mines", "probabilities", "all_forced",
                          "requires_guess", "best_guess"]
    assert data["exact"] is True and data["stopped"] is None and data["all_forced"] is True
    assert data["width"] == 5 and data["height"] == 3 and data["total_mines"] == 2
    assert data["solutions"] == "1" and data["forced_mines"] == [[0, 1], [0, 3]]
    assert data["forced_mines"] == sorted(data["forced_mines"])
    assert [0, 2] in data["forced_safe"]
    assert len(data["probabilities"]) == 3 and all(len(row) == 5 for row in data["probabilities"])
    assert data["probabilities"][1][1] is None and data["probabilities"][0][2] == 0.0


def test_json_explanation(one_two_one):
    data = json.loads(run(str(one_two_one), "--json", "--explain", "0,2").stdout)
    assert data["explanation"] == {"cell": [0, 2], "verdict": "safe",
                                   "clues": [[1, 1], [1, 2], [1, 3]], "uses_mine_count": False}


def test_text_output_shows_board_probabilities_and_words(one_two_one):
    result = run(str(one_two_one), "--explain", "0,1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "2 mines in total" in out and "solutions: 1" in out and "requires a guess: no" in out
    assert "0 SMSMS" in out
    assert "(0, 1) is a mine" in out


def test_unknown_count_is_stated(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("??\n11\n")
    out = run(str(path)).stdout
    assert "every layout that fits the clues is equally likely" in out
    assert "best guess: 0,0 (50.00% mine)" in out


def test_mines_option_overrides_the_header(one_two_one):
    result = run(str(one_two_one), "--json", "--mines", "3")
    assert result.exit_code == 1 and "together with 3 mines in total" in result.stderr


def test_ignore_flags(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("F???\n1221\n")
    bad = run(str(path))
    assert bad.exit_code == 1 and "the flag at (0, 0) contradicts them" in bad.stderr
    assert "--ignore-flags" in bad.stderr
    good = run(str(path), "--ignore-flags", "--json")
    assert good.exit_code == 0 and json.loads(good.stdout)["solutions"] == "1"


def test_inconsistent_position_names_the_clues(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("1?1\n...\n")
    result = run(str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "(0, 0)" in result.stderr


@pytest.mark.parametrize("args", [["missing.txt"], ["{p}", "--explain", "9,9"],
                                  ["{p}", "--explain", "1,1"], ["{p}", "--explain", "x"],
                                  ["{p}", "--mines", "-1"]])
def test_unusable_input_exits_2(one_two_one, args):
    result = run(*[a.format(p=one_two_one) for a in args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_bad_file_contents_exit_2(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("??x\n")
    result = run(str(path))
    assert result.exit_code == 2 and "line 1, column 3" in result.stderr


def test_svg_option(one_two_one, tmp_path):
    pytest.importorskip("msanalysis.svg")
    out = tmp_path / "a.svg"
    result = run(str(one_two_one), "--svg", str(out))
    assert result.exit_code == 0 and out.read_text().startswith("<svg")


def test_expert_midgame_demo():
    # The command `make demo` runs.
    result = run(str(POSITIONS / "expert-midgame.txt"), "--explain", "0,9")
    assert result.exit_code == 0, result.output
    assert "(0, 9) is safe: the 2 at (1, 10), the 2 at (1, 11) and the 2 at (2, 9)" in result.stdout
