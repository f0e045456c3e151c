"""Position: canonical text round trips, repr, and parse errors naming line and column."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msanalysis.errors import ParseError
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
    ("mines: 1\nFF\n", None, None, "more than the 1 mines"),
    ("mines: 5\n??\n", None, None, "do not fit"),
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
