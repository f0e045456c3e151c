"""``benchmarks/race.py``: candidates played out on the same layouts, and its errors."""

import random
from pathlib import Path

import pytest
import race

from msanalysis.constraints import build
from msanalysis.position import Position
from msanalysis.sampling import LayoutSampler


def run(capsys, *args):
    race.main([str(a) for a in args])
    return capsys.readouterr().out


def test_two_cells_of_one_mine_win_on_complementary_layouts(tmp_path, capsys):
    # One mine on (0, 0) or (0, 1): revealing the safe one of the two wins at once, so each
    # candidate wins exactly on the layouts the other loses on.
    path = tmp_path / "pair.txt"
    path.write_text("mines: 1\n??\n11\n")
    out = run(capsys, path, "0,0", "0,1", "--layouts", 60, "--seed", 3)
    first, second = out.splitlines()[1:]
    wins_first = int(first.split(": ")[1].split()[0])
    wins_second = int(second.split(": ")[1].split()[0])
    assert wins_first + wins_second == 60
    assert f"won by it only {wins_first}, by this only {wins_second}" in second
    assert 10 < wins_first < 50  # each layout 1/2: far from all or none


def test_more_jobs_play_the_same_layouts(tmp_path, capsys):
    path = tmp_path / "corner.txt"
    path.write_text("mines: 3\n1???\n????\n????\n????\n")
    one = run(capsys, path, "3,3", "0,2", "--layouts", 40, "--jobs", 1).splitlines()[1:]
    two = run(capsys, path, "3,3", "0,2", "--layouts", 40, "--jobs", 2).splitlines()[1:]
    assert one == two


@pytest.mark.parametrize("text, args, message", [
    ("mines: 1\n??\n11\n", ["1,0"], "the candidate (1, 0) is not a hidden cell"),
    ("mines: 1\n??\n11\n", ["0,x"], "'0,x' is not row,col"),
    ("mines: 1\n??\n11\n", ["0,0", "0,0"], "a candidate is given twice"),
    ("mines: 2\n??\n21\n", ["0,0"], "no layout of mines fits the position"),
    ("mines: 9\n??\n11\n", ["0,0"], "9 mines"),
])
def test_bad_input_is_one_error_line(tmp_path, capsys, text, args, message):
    path = tmp_path / "p.txt"
    path.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        run(capsys, path, *args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1


POSITIONS = sorted(
    (Path(__file__).resolve().parent.parent / "benchmarks" / "positions").glob("*.txt"))


@pytest.mark.parametrize("path", POSITIONS, ids=[p.name for p in POSITIONS])
def test_the_raced_positions_of_the_readme_load(path):
    # The README's race commands name these files: each is a position of a standard board
    # (named by its difficulty) with layouts.
    position = Position.load(path)
    size = {"beginner": (9, 9, 10), "expert": (16, 30, 99)}[path.name.split("-")[0]]
    assert (position.height, position.width, position.total_mines) == size
    layout = LayoutSampler(build(position)).draw(random.Random(0))  # raises if none fits
    assert len(layout) == size[2]
