"""Board: numbers, metrics on hand-checked layouts, text round trips and parse errors."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from msanalysis.board import Board, cell_table, label_regions
from msanalysis.errors import InvalidInput, ParseError


def slow_numbers(board: Board) -> list[list[int]]:
    """Count neighbours one cell at a time: the obviously correct reference."""
    h, w = board.height, board.width
    return [[sum(board.is_mine((r + dr, c + dc)) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w)
             for c in range(w)] for r in range(h)]


masks = st.integers(1, 8).flatmap(lambda h: st.integers(1, 8).flatmap(
    lambda w: st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h)))


@given(masks)
def test_numbers_match_a_cell_by_cell_count(mask):
    board = Board(mask)
    assert board.numbers.tolist() == slow_numbers(board)


@given(masks)
def test_layout_text_round_trip(mask):
    board = Board(mask)
    assert Board.from_text(board.to_text()) == board
    assert eval(repr(board), {"Board": Board}) == board


@pytest.mark.parametrize("text, openings, islands, bbbv", [
    # Two corner zeros; every number touches one of them.
    ("*..\n...\n..*", 2, 0, 2),
    # A mine in the middle: eight 1s in a ring, no zero, so one island and eight clicks.
    ("...\n.*.\n...", 0, 1, 8),
    # Row 1 2 ... : c0 is a lone 1, c2..c6 an opening around the zeros c3..c5, c8 a lone 1.
    (".*.....*.", 1, 2, 3),
    # No mines: one opening that is the whole board.
    ("....\n....", 1, 0, 1),
    # All mines: nothing to click.
    ("**\n**", 0, 0, 0),
])
def test_metrics_on_hand_checked_boards(text, openings, islands, bbbv):
    board = Board.from_text(text)
    assert (board.openings, board.islands, board.bbbv) == (openings, islands, bbbv)


def flood_metrics(board: Board) -> tuple[int, int]:
    """Openings and 3BV by a plain flood fill from each zero, cell by cell."""
    h, w = board.height, board.width
    zero = [[not board.is_mine((r, c)) and board.numbers[r, c] == 0 for c in range(w)]
            for r in range(h)]
    around = [[(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
               if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w]
              for r in range(h) for c in range(w)]
    seen: set = set()
    opened: set = set()
    openings = 0
    for r in range(h):
        for c in range(w):
            if zero[r][c] and (r, c) not in seen:
                openings += 1
                stack = [(r, c)]
                seen.add((r, c))
                while stack:
                    cell = stack.pop()
                    opened.add(cell)
                    for nr, nc in around[cell[0] * w + cell[1]]:
                        opened.add((nr, nc))
                        if zero[nr][nc] and (nr, nc) not in seen:
                            seen.add((nr, nc))
                            stack.append((nr, nc))
    lonely = sum(1 for r in range(h) for c in range(w)
                 if not board.is_mine((r, c)) and (r, c) not in opened)
    return openings, openings + lonely


@given(masks)
def test_openings_and_3bv_match_a_flood_fill(mask):
    board = Board(mask)
    assert (board.openings, board.bbbv) == flood_metrics(board)


def test_openings_and_3bv_on_seeded_boards_of_every_shape():
    # Openings with holes (numbers and mines that zeros surround), boards one cell wide,
    # widths that fill whole bytes, and every density.
    from msanalysis.rules import generate

    for width, height, mines in ((30, 16, 99), (30, 16, 30), (9, 9, 10), (16, 16, 40),
                                 (8, 8, 6), (24, 3, 5), (1, 7, 2), (7, 1, 1), (20, 20, 12),
                                 (64, 2, 9)):
        for seed in range(40):
            board = generate(width, height, mines, rules="unsafe", seed=seed)
            assert (board.openings, board.bbbv) == flood_metrics(board), (width, seed)


def test_opening_regions_are_what_one_click_reveals():
    board = Board.from_text(".*.....*.")
    assert list(board.opening_regions()) == [frozenset((0, c) for c in range(2, 7))]
    assert sorted(map(sorted, board.island_regions())) == [[(0, 0)], [(0, 8)]]


def test_numbers_are_read_only_and_board_is_hashable():
    board = Board.from_text("*.\n..")
    with pytest.raises(ValueError):
        board.numbers[0, 0] = 3
    assert len({board, Board.from_text("*.\n..")}) == 1


@pytest.mark.parametrize("text, line, column, fragment", [
    ("", None, None, "empty layout"),
    ("# only a comment\n", None, None, "empty layout"),
    ("..*\n.*\n", 2, 3, "row has 2 cells"),
    ("..*\n.x.\n", 2, 2, "unknown character 'x'"),
])
def test_layout_parse_errors_name_line_and_column(text, line, column, fragment):
    with pytest.raises(ParseError) as caught:
        Board.from_text(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert fragment in str(caught.value)


def test_from_cells_rejects_a_mine_off_the_board():
    with pytest.raises(ValueError, match=r"cell \(2, 0\) is off the 2x2 board"):
        Board.from_cells(2, 2, [(2, 0)])
    with pytest.raises(ValueError, match="a cell is a pair of whole numbers"):
        Board.from_cells(2, 2, [(1.5, 0)])


@pytest.mark.parametrize("values, message", [
    ([["0", "1"], ["0", "0"]], "holds whole numbers, got values of type <U1"),
    ([[0.0, np.nan]], r"holds whole numbers, got nan at \(0, 1\)"),
    ([[0, 2]], r"True or 1 \(a mine\) or False or 0, got 2 at \(0, 1\)"),
    ([[0, -1]], "got -1 at"),
    ([[0, 1], [1]], "rows of equal length"),
    (np.zeros((4000, 4000), dtype=bool), "at most 10000000 can be held"),
])
def test_a_board_refuses_values_that_are_not_mines_or_free(values, message):
    with pytest.raises(InvalidInput, match=message):
        Board(values)


def test_a_board_takes_booleans_ones_and_zeros_alike():
    assert Board([[1, 0]]) == Board([[True, False]]) == Board(np.array([[1.0, 0.0]]))


def test_cells_are_checked_not_counted_from_the_end():
    board = Board.from_text("..\n.*")
    assert board.is_mine((1, 1)) and not board.is_mine([np.int64(0), 0])
    with pytest.raises(InvalidInput, match=r"cell \(-1, -1\) is off the 2x2 board"):
        board.is_mine((-1, -1))


def test_a_large_board_numbers_are_vectorised():
    mask = np.random.default_rng(0).random((300, 400)) < 0.2
    board = Board(mask)
    padded = np.pad(mask, 1).astype(int)
    expected = sum(padded[1 + dr:301 + dr, 1 + dc:401 + dc]
                   for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    assert np.array_equal(board.numbers, expected)


@given(masks)
def test_a_board_made_from_indices_is_the_board_of_its_mask(mask):
    board = Board(mask)
    height, width = board.height, board.width
    made = Board._from_indices(height, width, np.flatnonzero(board.mask).tolist())
    assert made == board and hash(made) == hash(board) and made.mask.dtype == bool
    assert not made.mask.flags.writeable and made.numbers.tolist() == board.numbers.tolist()


def _flood_labels(mask, diagonal=True):
    """The reference labelling: a flood fill from each unlabelled cell, row-major."""
    height, width = mask.shape
    labels = np.zeros((height, width), dtype=np.int32)
    count = 0
    for r0, c0 in zip(*np.nonzero(mask)):
        if labels[r0, c0]:
            continue
        count += 1
        labels[r0, c0] = count
        stack = [(r0, c0)]
        while stack:
            r, c = stack.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if dr and dc and not diagonal:
                        continue
                    if 0 <= rr < height and 0 <= cc < width and mask[rr, cc] \
                            and not labels[rr, cc]:
                        labels[rr, cc] = count
                        stack.append((rr, cc))
    return labels, count


def test_regions_labelled_by_runs_are_the_flood_fill_s():
    rng = np.random.default_rng(0)
    for _ in range(1500):
        height, width = (int(n) for n in rng.integers(1, 13, size=2))
        mask = rng.random((height, width)) < rng.random()
        for diagonal in (True, False):
            labels, count = label_regions(mask, diagonal=diagonal)
            expected, expected_count = _flood_labels(mask, diagonal)
            assert count == expected_count and np.array_equal(labels, expected), mask


def test_openings_with_many_holes_match_a_flood_fill():
    # Past the first holes the rest are labelled, not flooded one by one (a board of a mine in
    # every fourth cell of every fourth row, a quarter of a million holes, took minutes).
    for height, width, step in ((40, 40, 4), (23, 37, 4), (30, 31, 5), (9, 200, 4)):
        mask = np.zeros((height, width), dtype=bool)
        mask[2::step, 2::step] = True
        board = Board(mask)
        assert (board.openings, board.bbbv) == flood_metrics(board), (height, width)
    rng = np.random.default_rng(2)
    for _ in range(100):
        mask = rng.random((25, 25)) < 0.06
        mask[2::4, 2::4] |= rng.random(mask[2::4, 2::4].shape) < 0.8
        board = Board(mask)
        assert (board.openings, board.bbbv) == flood_metrics(board)


def test_one_column_boards_match_their_side_s():
    # A board a million rows tall was a minute of making its frame, one row at a time.
    rng = np.random.default_rng(3)
    column = rng.random((200_000, 1)) < 0.1
    tall, wide = Board(column), Board(column.T)
    assert (tall.openings, tall.islands, tall.bbbv) == (wide.openings, wide.islands, wide.bbbv)


def test_repeated_bits_is_a_row_on_every_row():
    from msanalysis.board import repeated_bits

    for pattern, stride, times in ((0b1, 1, 5), (0b101, 8, 7), (0b11, 3, 0), (0b111, 5, 64)):
        assert repeated_bits(pattern, stride, times) == sum(
            pattern << (stride * k) for k in range(times))


def test_3bv_solved_is_counted_region_by_region():
    rng = np.random.default_rng(1)
    for _ in range(200):
        board = Board(rng.random((8, 10)) < 0.15)
        revealed = (rng.random((8, 10)) < 0.4) & ~board.mask
        regions = list(board.opening_regions())
        solved = sum(any(revealed[c] and board.numbers[c] == 0 for c in region)
                     for region in regions)
        inside = set().union(*regions)
        solved += sum(1 for r, c in zip(*np.nonzero(revealed)) if (r, c) not in inside)
        assert board.bbbv_solved(revealed) == solved


def test_cell_tables_are_kept_within_a_bound(monkeypatch):
    import msanalysis.board as board_module

    monkeypatch.setattr(board_module, "_TABLE_CELLS", 100)
    monkeypatch.setattr(board_module, "_tables", {})
    first = cell_table(5, 10)  # 50 cells kept
    assert cell_table(5, 10) is first
    assert cell_table(3, 3, frame=1) == tuple((r, c) for r in range(-1, 4) for c in range(-1, 4))
    cell_table(6, 6)  # 50 + 25 + 36 > 100: the tables kept before are let go
    assert sum(map(len, board_module._tables.values())) == 36
    assert cell_table(5, 10) is not first and cell_table(5, 10) == first


def test_from_cells_refuses_what_is_not_a_list_of_distinct_cells():
    from msanalysis.errors import WrongType

    with pytest.raises(WrongType, match="takes the mines' cells"):
        Board.from_cells(3, 3, None)
    with pytest.raises(InvalidInput, match="the mine at 0,0 is given twice"):
        Board.from_cells(3, 3, [(0, 0), (1, 1), (0, 0)])
