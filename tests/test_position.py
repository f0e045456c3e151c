"""Position: canonical text round trips, repr, and parse errors naming line and column."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from msanalysis.errors import InvalidInput, ParseError
from msanalysis.position import FLAG, HIDDEN, MINE, Position

states = st.sampled_from([HIDDEN, FLAG, MINE, *range(9)])
grids = st.integers(1, 7).flatmap(lambda h: st.integers(1, 7).flatmap(
    lambda w: st.lists(st.lists(states, min_size=w, max_size=w), min_size=h, max_size=h)))


@st.composite
def positions(draw):
    grid = draw(grids)
    marked = sum(row.count(FLAG) + row.count(MINE) for row in grid)
    size = len(grid) * len(grid[0])
    total = draw(st.none() | st.integers(marked, size))
    return Position(grid, total)


@given(positions())
def test_text_round_trip(position):
    assert Position.from_text(position.to_text()) == position


@given(positions())
def test_repr_evaluates_to_an_equal_position(position):
    assert eval(repr(position), {"Position": Position}) == position


def test_zero_may_be_written_dot_or_0_and_comments_are_skipped():
    a = Position.from_text("# a comment\nmines: 1\n?10\n?1.")
    b = Position.from_text("mines: 1\n?1.\n?10")
    assert a == b and a.number((0, 2)) == 0


def test_override_the_mine_count():
    assert Position.from_text("mines: 3\n??", total_mines=1).total_mines == 1


@pytest.mark.parametrize("text, line, column, fragment", [
    ("", None, None, "empty position"),
    ("??1\n?1\n", 2, 3, "row has 2 cells"),
    ("??1\n?x1\n", 2, 2, "unknown character 'x'"),
    ("??9\n", 1, 3, "above 8"),
    ("mines: lots\n??\n", 1, None, "expected 'mines: N'"),
    ("??\nmines: 1\n", 2, None, "before the rows"),
    ("mines: 1\n**\n", None, None, "2 shown mines, more than the 1 mine on"),
    ("mines: 5\n??\n", None, None, "do not fit"),
    ("mines: 1\nmines: 2\n??\n", 2, None, "a second 'mines:' header (the first is on line 1)"),
    ("mines: \u0663\n??\n", 1, None, "digits 0-9"),           # an Arabic-Indic three
    ("mines: 1_0\n??\n", 1, None, "digits 0-9"),
    ("?\u00b2\n", 1, 2, "unknown character"),                   # a superscript two
    ("?\u0663\n", 1, 2, "unknown character"),
])
def test_parse_errors(text, line, column, fragment):
    with pytest.raises(ParseError) as caught:
        Position.from_text(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert fragment in str(caught.value)


def test_cell_sets_and_save_load(tmp_path):
    position = Position.from_text("mines: 2\n?F1\n*21")
    assert position.hidden == {(0, 0)} and position.flags == {(0, 1)}
    assert position.shown_mines == {(1, 0)} and position.is_lost
    path = tmp_path / "p.txt"
    position.save(path)
    assert Position.load(path) == position


def test_flags_may_outnumber_the_mines():
    # Real games allow it; the analysis then says a flag is wrong, or ignores flags.
    from msanalysis.analysis import analyze
    from msanalysis.errors import InconsistentPosition

    position = Position.from_text("mines: 1\nFF?\n111")
    assert position.flags == {(0, 0), (0, 1)}
    with pytest.raises(InconsistentPosition, match="the flags outnumber the mines"):
        analyze(position)
    analysis = analyze(position, ignore_flags=True)
    assert analysis.solutions == 1 and analysis.forced_mines == {(0, 1)}


@pytest.mark.parametrize("states, total, message", [
    (np.array([[264, -1], [-1, -1]]), 1, r"got 264 at \(0, 0\)"),
    (np.array([[np.nan, -1]]), 1, r"whole numbers, got nan at \(0, 0\)"),
    (np.array([[1.7, -1]]), 1, r"whole numbers, got 1.7"),
    ([[0, -1]], 1.9, r"the mine count must be a whole number \(an int\), got 1.9"),
    ([[0, -1]], np.nan, "must be a whole number"),
])
def test_a_position_refuses_values_it_would_have_to_round_or_wrap(states, total, message):
    with pytest.raises(InvalidInput, match=message):
        Position(states, total)


def test_a_position_takes_numpy_integers_and_whole_floats():
    p = Position(np.array([[0.0, -1.0]]), np.int64(1))
    assert p == Position.from_text("mines: 1\n.?") and type(p.total_mines) is int
    with pytest.raises(InvalidInput, match=r"cell \(0, -1\) is off the 2x1 board"):
        p.state((0, -1))
    with pytest.raises(InvalidInput, match="must be a whole number"):
        Position.from_text("??", total_mines=1.5)
