"""MBF boards and JSMinesweeper .mine positions."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msanalysis.board import Board
from msanalysis.errors import ParseError
from msanalysis.formats import read_any
from msanalysis.position import Position
from msanalysis.rules import generate


@given(st.integers(1, 30), st.integers(1, 30), st.data())
def test_mbf_round_trip(width, height, data):
    mines = data.draw(st.integers(0, width * height))
    board = generate(width, height, mines, rules="unsafe", seed=data.draw(st.integers(0, 99)))
    encoded = board.to_mbf()
    assert len(encoded) == 4 + 2 * mines
    assert Board.from_mbf(encoded) == board


def test_mbf_layout_is_x_then_y():
    # Byte 0 width, byte 1 height, bytes 2-3 count big-endian, then (x, y) per mine.
    board = Board.from_cells(2, 3, [(1, 2)])
    assert board.to_mbf() == bytes([3, 2, 0, 1, 2, 1])


@pytest.mark.parametrize("data, fragment", [
    (b"", "header alone needs 4"),
    (bytes([3, 2, 0]), "header alone needs 4"),
    (bytes([3, 2, 0, 2, 0, 0]), "promises 2 mines"),
    (bytes([3, 2, 0, 1, 0, 0, 9]), "bytes after"),
    (bytes([3, 2, 0, 1, 3, 0]), "off the 3x2 board"),
    (bytes([3, 2, 0, 2, 1, 1, 1, 1]), "listed twice"),
    (bytes([0, 2, 0, 0]), "empty board"),
    (bytes([1, 1, 0, 2, 0, 0, 0, 0]), "2 mines for 1 cells"),
])
def test_bad_mbf_is_rejected(data, fragment):
    with pytest.raises(ParseError, match=fragment):
        Board.from_mbf(data)


def test_mine_format_loads_by_extension_and_by_header(tmp_path):
    text = "4x2x2\nHH10\nF210\n"
    expected = Position.from_text("mines: 2\n??1.\nF21.")
    (tmp_path / "a.mine").write_text(text)
    (tmp_path / "b.txt").write_text(text)
    assert Position.load(tmp_path / "a.mine") == expected
    assert Position.load(tmp_path / "b.txt") == expected


@pytest.mark.parametrize("text, line, fragment", [
    ("", 1, "empty .mine"),
    ("4by2\nHHHH\n", 1, "expected WxHxM"),
    ("3x2x1\nHHH\nHH\n", 3, "row has 2 cells"),
    ("3x2x1\nHHH\nHXH\n", 3, "unknown character 'X'"),
    ("3x1x1\nHHH\nHHH\n", 3, "more than the 1 rows"),
    ("3x2x1\nHHH\n", None, "the file has 1"),
    ("3x1x1\nH\u0663H\n", 2, "unknown character"),   # an Arabic-Indic three is no clue
    ("3x1x\u0663\nHHH\n", 1, "expected WxHxM"),
])
def test_bad_mine_files(tmp_path, text, line, fragment):
    path = tmp_path / "bad.mine"
    path.write_text(text)
    with pytest.raises(ParseError) as caught:
        Position.load(path)
    assert caught.value.line == line and fragment in str(caught.value)
    assert str(path) in str(caught.value)


def test_read_any_tells_boards_from_positions(tmp_path):
    board = Board.from_text("*..\n...")
    (tmp_path / "b.mbf").write_bytes(board.to_mbf())
    (tmp_path / "b.txt").write_text("# layout\n*..\n...\n")
    (tmp_path / "p.txt").write_text("?1.\n?1.\n")
    assert read_any(tmp_path / "b.mbf") == board == read_any(tmp_path / "b.txt")
    assert Board.load(tmp_path / "b.mbf") == board
    assert isinstance(read_any(tmp_path / "p.txt"), Position)


def test_a_binary_file_is_named_in_the_error(tmp_path):
    path = tmp_path / "noise.txt"
    path.write_bytes(bytes(range(128, 256)))
    with pytest.raises(ParseError, match=r"noise\.txt: not a text file"):
        Position.load(path)


def test_a_negative_mine_count_override_is_refused(tmp_path):
    path = tmp_path / "p.mine"
    path.write_text("2x1x1\nH1\n")
    with pytest.raises(ParseError, match="cannot be negative"):
        Position.load(path, total_mines=-1)
    with pytest.raises(ParseError, match="cannot be negative"):
        Position.from_text("??", total_mines=-3)


def test_a_mine_file_may_hold_more_flags_than_mines(tmp_path):
    path = tmp_path / "over.mine"
    path.write_text("3x1x1\nFFH\n")
    assert Position.load(path).flags == {(0, 0), (0, 1)}


def test_loaders_refuse_what_is_not_a_path_and_say_utf16_is_not_mbf(tmp_path):
    from msanalysis.errors import WrongType
    from msanalysis.files import text_of_layout_file
    from msanalysis.numbergrid import NumberGrid
    from msanalysis.replay import load_replay

    for load in (Position.load, Board.load, NumberGrid.load, read_any, load_replay,
                 Position.from_text("mines: 1\n1?").save):
        with pytest.raises(WrongType, match="a file's path is a str or a pathlib"):
            load(None)
    # Its byte order mark and first letter read as the MBF header of a 255x254 board.
    utf16 = "mines: 1\n1?\n".encode("utf-16")
    with pytest.raises(ParseError, match="stdin: UTF-16 text: save it as UTF-8"):
        text_of_layout_file(utf16, "-")
    assert text_of_layout_file(Board.from_text("*.\n..").to_mbf(), "-") is None


def test_a_tatham_size_is_in_ascii_digits():
    from msanalysis.numbergrid import NumberGrid

    assert NumberGrid.from_tatham("2x2:1111").to_text() == "11\n11"
    with pytest.raises(ParseError, match="starts with WxH"):
        NumberGrid.from_tatham("\uff12x2:1111")  # a full-width 2


@pytest.mark.parametrize("width", [1, 2, 9, 10, 11, 99, 100, 101, 999, 1000, 1234])
def test_column_numbers_are_each_column_written_downwards(width):
    # The headers are made of repeated strings (fast on a row of ten million cells); checked
    # against the column numbers written one by one, right-aligned, a digit a line.
    from msanalysis.text import percent_grid, render_grid

    places = len(str(width - 1))
    expected = ["".join(str(c).rjust(places)[p] for c in range(width)) for p in range(places)]
    assert render_grid(["." * width]).splitlines()[:places] == [" " * 2 + e for e in expected]
    # Two digits fit a cell of the percent grid; the higher ones go above, one a cell.
    wide = max(places, 2)
    digits = [str(c).rjust(wide) for c in range(width)]
    lines = percent_grid(["  ." * width]).splitlines()
    for p in range(wide - 2):
        assert lines[p] == "  " + "".join(f"  {d[p]}" for d in digits)
    assert lines[wide - 2] == "  " + "".join(f" {d[-2:]}" for d in digits)
