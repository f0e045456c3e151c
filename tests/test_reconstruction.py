"""Tests for msanalysis.reconstruction, against an independent brute-force enumerator."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seed003_backtrack import backtrack

from msanalysis import AnalysisTooHard, Board, NumberGrid, ParseError, Reconstruction, reconstruct
from msanalysis.errors import InvalidInput
from msanalysis.numbergrid import RULES
from msanalysis.reconstruction import ENGINES

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "reconstruct"
ANSWERS = json.loads((PUZZLES / "answers.json").read_text())
SEED_003 = (PUZZLES / "seed003-mosaic.txt").read_text()  # the grid of seed 003's example

# The layout of seed 003's 9x9 example (mosaic rule); checked against its numbers below.
SEED_003_LAYOUT = """\
........*
...*....*
.........
.........
...**....
..*......
.*.......
....*...*
.*......."""


# -- an independent reference -------------------------------------------------------------------

def _block(row: int, col: int, height: int, width: int, rule: str) -> list[int]:
    """Flat indices of the cells the clue at (row, col) counts, written out by hand."""
    cells = []
    for r in range(row - 1, row + 2):
        for c in range(col - 1, col + 2):
            if (r, c) == (row, col) and rule == "classic":
                continue
            if 0 <= r < height and 0 <= c < width:
                cells.append(r * width + c)
    return cells


def brute_force(clues, rule: str) -> list[frozenset[tuple[int, int]]]:
    """Every layout matching ``clues`` (-1 unknown), by trying all 2^cells of them."""
    clues = np.asarray(clues)
    height, width = clues.shape
    n = height * width
    assert n <= 16, "brute force is for small grids"
    codes = np.arange(2 ** n)
    bits = (codes[:, None] >> np.arange(n)[None, :]) & 1
    ok = np.ones(2 ** n, dtype=bool)
    for row in range(height):
        for col in range(width):
            if clues[row, col] >= 0:
                ok &= bits[:, _block(row, col, height, width, rule)].sum(axis=1) == clues[row, col]
    return [frozenset((i // width, i % width) for i in range(n) if code >> i & 1)
            for code in codes[ok].tolist()]


def shows(board: Board, grid: NumberGrid) -> bool:
    """Does ``board`` produce every known clue of ``grid``? (independent of the library)"""
    height, width = grid.height, grid.width
    flat = board.mask.ravel()
    for row in range(height):
        for col in range(width):
            clue = grid[row, col]
            block = _block(row, col, height, width, grid.rule)
            if clue is not None and sum(flat[i] for i in block) != clue:
                return False
    return True


def random_board(height: int, width: int, seed: int, density: float = 99 / 480) -> Board:
    rng = np.random.default_rng(seed)
    mask = np.zeros(height * width, dtype=bool)
    mask[rng.choice(height * width, round(height * width * density), replace=False)] = True
    return Board(mask.reshape(height, width))


def small_grids(count: int, seed: int):
    """Small grids of both rules: from random boards, with clues hidden, or arbitrary numbers."""
    rng = np.random.default_rng(seed)
    for index in range(count):
        height, width = (int(v) for v in rng.integers(1, 5, size=2))
        rule = RULES[index % 2]
        if index % 4 == 3:  # arbitrary numbers: often no layout at all
            # The numbers an all-mine board shows are the largest each cell can show.
            full = Board(np.ones((height, width), dtype=bool))
            top = NumberGrid.from_board(full, rule=rule).clues
            clues = (rng.random((height, width)) * (top + 1)).astype(int)
        else:
            mask = rng.random((height, width)) < rng.random()
            clues = NumberGrid.from_board(Board(mask), rule=rule).clues.astype(int)
        clues[rng.random((height, width)) < rng.random() * 0.7] = -1
        yield NumberGrid(clues, rule=rule)


# -- parsing ------------------------------------------------------------------------------------

def test_parse_basic_and_round_trip():
    grid = NumberGrid.from_text("# comment\n  \n012\n?3?\n", rule="classic")
    assert (grid.width, grid.height) == (3, 2)
    assert grid[0, 0] == 0 and grid[1, 0] is None and grid[1, 1] == 3
    assert grid.clues.tolist() == [[0, 1, 2], [-1, 3, -1]]
    assert grid.to_text() == "012\n?3?"
    assert NumberGrid.from_text(grid.to_text()) == grid
    assert eval(repr(grid), {"NumberGrid": NumberGrid}) == grid
    assert NumberGrid.from_text("0", rule="mosaic") != NumberGrid.from_text("0", rule="classic")


@pytest.mark.parametrize("text, rule, line, column, words", [
    ("012\n01", "classic", 2, 3, "row has 2 cells"),
    ("012\n0123", "classic", 2, 4, "row has 4 cells"),
    ("01x", "classic", 1, 3, "unknown character 'x'"),
    ("# c\n  0.1", "classic", 2, 4, "unknown character '.'"),
    ("000\n090\n000", "classic", 2, 2, "9 is impossible under the classic rule"),
    ("400\n000\n000", "classic", 1, 1, "counts 3 cells"),
    ("000\n600\n000", "classic", 2, 1, "counts 5 cells"),
    ("500\n000", "mosaic", 1, 1, "counts 4 cells"),
    ("000\n000\n007", "mosaic", 3, 3, "counts 4 cells"),
])
def test_parse_errors_name_line_and_column(text, rule, line, column, words):
    with pytest.raises(ParseError) as caught:
        NumberGrid.from_text(text, rule=rule)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert words in str(caught.value)


def test_parse_limits_per_rule():
    assert NumberGrid.from_text("000\n090\n000", rule="mosaic")[1, 1] == 9
    assert NumberGrid.from_text("000\n080\n000", rule="classic")[1, 1] == 8
    assert NumberGrid.from_text("3?\n??")[0, 0] == 3
    with pytest.raises(ParseError, match="empty number grid"):
        NumberGrid.from_text("# nothing\n")
    with pytest.raises(ValueError, match="unknown rule"):
        NumberGrid.from_text("0", rule="hex")


def test_load_names_the_file(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_text("00\n0a\n")
    with pytest.raises(ParseError) as caught:
        NumberGrid.load(path)
    assert str(path) in str(caught.value) and "line 2, column 2" in str(caught.value)
    path.write_text("11\n11\n")
    assert NumberGrid.load(path, rule="mosaic").rule == "mosaic"


def test_constructor_checks_cells():
    with pytest.raises(ValueError, match=r"cell \(0, 1\)"):
        NumberGrid([[0, 4], [0, 0]])
    with pytest.raises(ValueError, match="non-empty"):
        NumberGrid(np.zeros((0, 3), dtype=int))
    assert NumberGrid([[None, 1], [1, 1]])[0, 0] is None


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2 ** 32 - 1), st.sampled_from(RULES))
def test_from_board_matches_reference_and_round_trips(height, width, seed, rule):
    board = random_board(height, width, seed, density=0.4)
    grid = NumberGrid.from_board(board, rule=rule).with_unknown([(0, 0)])
    assert shows(board, grid)
    assert NumberGrid.from_text(grid.to_text(), rule=rule) == grid
    if rule == "classic":
        assert np.array_equal(NumberGrid.from_board(board).clues, board.numbers)


# -- exact answers ------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_counts_match_brute_force(engine):
    for grid in small_grids(160, seed=7 if engine == "sat" else 8):
        expected = set(brute_force(grid.clues, grid.rule))
        result = reconstruct(grid, engine=engine, limit=None)
        layouts = list(result.layouts)
        assert result.exhaustive and result.count == len(expected), grid.to_text()
        assert {board.mines for board in layouts} == expected
        assert len(layouts) == len(expected)
        assert result.unique == (len(expected) == 1)
        assert all(shows(board, grid) for board in layouts)


def test_local_reasoning_loses_nothing():
    """With and without the local rules, and with both engines, the answers agree."""
    for grid in small_grids(120, seed=11):
        counts = {(engine, propagate): reconstruct(grid, engine=engine, limit=None,
                                                   propagate=propagate).count
                  for engine in ENGINES for propagate in (True, False)}
        assert len(set(counts.values())) == 1, (grid.to_text(), counts)


def test_conflict_is_a_minimal_clash():
    checked = 0
    for grid in small_grids(200, seed=3):
        result = reconstruct(grid)
        if result.count:
            assert result.conflict is None
            continue
        checked += 1
        assert result.exhaustive and result.unique is False and result.first is None
        assert list(result.layouts) == []
        only = np.full(grid.clues.shape, -1)
        for cell in result.conflict:
            only[cell] = grid.clues[cell]
        assert brute_force(only, grid.rule) == []  # these clues alone cannot hold
        for cell in result.conflict:  # and each of them is needed
            fewer = only.copy()
            fewer[cell] = -1
            assert brute_force(fewer, grid.rule)
    assert checked >= 20


def test_no_layout_on_a_large_grid_gives_a_local_conflict():
    board = random_board(100, 100, seed=5)
    clues = NumberGrid.from_board(board).clues.copy()
    clues[50, 50] = 8 if clues[50, 50] < 8 else 0
    for engine in ENGINES:
        result = reconstruct(NumberGrid(clues), engine=engine)
        assert result.count == 0 and result.exhaustive
        assert (50, 50) in result.conflict and len(result.conflict) <= 12
        assert all(abs(r - 50) <= 4 and abs(c - 50) <= 4 for r, c in result.conflict)


# -- uniqueness, limits, sizes ------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rule", RULES)
def test_full_grids_of_random_boards(engine, rule):
    for seed, (height, width, mines) in enumerate([(9, 9, 10), (16, 16, 40), (16, 30, 99)]):
        board = random_board(height, width, seed, density=mines / (height * width))
        grid = NumberGrid.from_board(board, rule=rule)
        result = reconstruct(grid, engine=engine)
        assert result.count >= 1 and shows(result.first, grid)
        if result.unique:
            assert result.first == board
        else:
            assert result.unique is False and len(list(result.layouts)) == 2


def test_seed_003_example():
    assert shows(Board.from_text(SEED_003_LAYOUT), NumberGrid.from_text(SEED_003, rule="mosaic"))
    for engine in ENGINES:
        result = reconstruct(SEED_003, rule="mosaic", engine=engine, limit=None)
        assert (result.count, result.unique, result.exhaustive) == (1, True, True)
        assert result.first.to_text() == SEED_003_LAYOUT
    with pytest.raises(ParseError):  # the seed's rule counts the cell itself: 0-9, not classic
        reconstruct(SEED_003.replace("000\n", "009\n", 1), rule="classic")


@pytest.mark.parametrize("engine", ENGINES)
def test_uniqueness_on_built_grids(engine):
    # Unique: a corner mine seen by its three classic neighbours and nothing else hidden.
    unique = reconstruct("01\n11", engine=engine)
    assert unique.count == 1 and unique.unique is True and unique.first.mines == {(0, 0)}
    # Not unique: a mosaic 2x2 of ones puts its one mine in any of the four cells.
    several = reconstruct("11\n11", rule="mosaic", engine=engine)
    assert several.unique is False and several.count == 2 and not several.exhaustive
    assert len(list(several.layouts)) == 2
    everything = reconstruct("11\n11", rule="mosaic", engine=engine, limit=None)
    assert everything.count == 4 and everything.exhaustive
    # Classic 1x2 "11": each cell sees the other, so both are mines: unique.
    assert reconstruct("11", engine=engine).first.to_text() == "**"


@pytest.mark.parametrize("engine", ENGINES)
def test_limit_and_partial_grids(engine):
    board = random_board(30, 30, seed=9)
    grid = NumberGrid.from_board(board, rule="mosaic")
    rng = np.random.default_rng(1)
    hidden = [tuple(cell) for cell in np.argwhere(rng.random((30, 30)) < 0.45)]
    puzzle = grid.with_unknown(hidden)
    one = reconstruct(puzzle, engine=engine, limit=1)
    assert one.count >= 1 and len(list(one.layouts)) == 1 and shows(one.first, puzzle)
    two = reconstruct(puzzle, engine=engine, limit=2)
    assert len(list(two.layouts)) <= 2 and all(shows(b, puzzle) for b in two.layouts)
    five = reconstruct(puzzle, engine=engine, limit=5)
    boards = list(five.layouts)
    assert len(boards) == min(5, five.count) and len(set(boards)) == len(boards)
    assert all(shows(b, puzzle) for b in boards)
    assert five.unique is (False if five.count >= 2 else five.unique)


def test_engines_agree_on_partial_grids():
    for seed in range(6):
        board = random_board(12, 12, seed, density=0.25)
        for rule in RULES:
            grid = NumberGrid.from_board(board, rule=rule)
            rng = np.random.default_rng(seed)
            puzzle = grid.with_unknown(tuple(c) for c in np.argwhere(rng.random((12, 12)) < 0.5))
            sat = reconstruct(puzzle, engine="sat", limit=None)
            cpsat = reconstruct(puzzle, engine="cpsat", limit=None)
            assert sat.count == cpsat.count and sat.exhaustive and cpsat.exhaustive
            if sat.count <= 500:
                assert set(sat.layouts) == set(cpsat.layouts)


def test_local_reasoning_on_medium_partial_grids():
    """The pair rule and the components change nothing in the exact counts."""
    for seed in range(8):
        rule = RULES[seed % 2]
        board = random_board(8, 8, seed, density=0.3)
        rng = np.random.default_rng(seed)
        grid = NumberGrid.from_board(board, rule=rule)
        puzzle = grid.with_unknown(tuple(c) for c in np.argwhere(rng.random((8, 8)) < 0.4))
        fast = reconstruct(puzzle, limit=None)
        plain = reconstruct(puzzle, limit=None, propagate=False)
        assert fast.count == plain.count and fast.exhaustive and plain.exhaustive


def test_large_full_grid_is_unique_by_local_reasoning():
    board = random_board(300, 300, seed=2)
    result = reconstruct(NumberGrid.from_board(board))
    assert result.unique and result.first == board


def test_free_cells_are_counted_not_enumerated():
    result = reconstruct("?" * 12 + "\n" + "?" * 12 + "\n" + "?" * 12, limit=None)
    assert result.count == 2 ** 36 and result.exhaustive and result.unique is False
    assert result.first.mine_count == 0


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown engine"):
        reconstruct("0", engine="z3")
    with pytest.raises(ValueError, match="limit"):
        reconstruct("0", limit=0)
    with pytest.raises(ValueError, match="unknown rule"):
        reconstruct("0", rule="hex")
    with pytest.raises(ParseError):
        reconstruct("0x")
    # A grid parsed under mosaic, solved under classic: the numbers are checked again.
    with pytest.raises(ValueError, match="classic"):
        reconstruct(NumberGrid.from_text("44\n44", rule="mosaic"), rule="classic")


def test_time_limit_is_reported():
    # A sparse puzzle leaves one big component; no time at all cannot even find one layout.
    board = random_board(40, 40, seed=4, density=0.3)
    grid = NumberGrid.from_board(board)
    rng = np.random.default_rng(0)
    puzzle = grid.with_unknown(tuple(c) for c in np.argwhere(rng.random((40, 40)) < 0.7))
    with pytest.raises(AnalysisTooHard, match="time limit"):
        reconstruct(puzzle, time_limit=1e-9, propagate=False)


@pytest.mark.parametrize("engine", ENGINES)
def test_time_limit_stops_a_long_enumeration(engine):
    board = random_board(30, 30, seed=1, density=0.22)
    rng = np.random.default_rng(0)
    puzzle = NumberGrid.from_board(board).with_unknown(
        tuple(c) for c in np.argwhere(rng.random((30, 30)) < 0.75))
    # One second: the first CP-SAT call also pays for loading OR-Tools.
    result = reconstruct(puzzle, engine=engine, limit=None, time_limit=1.0)
    assert not result.exhaustive and result.unique is False and result.count > 10 ** 20
    assert shows(result.first, puzzle)


def test_reconstruction_object():
    result = reconstruct("1?", limit=None)
    assert isinstance(result, Reconstruction)
    assert (result.rule, result.engine, result.width, result.height) == ("classic", "sat", 2, 1)
    assert "exactly 2 layouts" in repr(result)
    assert [b.to_text() for b in result.layouts] == [b.to_text() for b in result.layouts]


# -- the baseline port ----------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
def test_backtracking_baseline_finds_a_true_layout(rule):
    for seed in range(12):
        board = random_board(4, 4, seed, density=0.3)
        grid = NumberGrid.from_board(board, rule=rule)
        found = backtrack(grid.clues, rule=rule, time_limit=30)
        assert found is not None and shows(found, grid)
    assert backtrack([[0, 1], [0, 0]], rule=rule) is None
    with pytest.raises(ValueError):
        backtrack([[0, -1]], rule=rule)


def test_pictures_for_jupyter():
    assert reconstruct("01\n11")._repr_svg_().lstrip().startswith("<svg")
    assert reconstruct("00\n01")._repr_svg_().lstrip().startswith("<svg")
    assert NumberGrid.from_text("1?")._repr_svg_().lstrip().startswith("<svg")


# -- the puzzles collection -----------------------------------------------------------------------



def test_every_puzzle_file_has_an_answer():
    assert sorted(ANSWERS) == sorted(p.name for p in PUZZLES.glob("*.txt"))
    assert len(ANSWERS) >= 12


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_puzzle_answers(name):
    answer = ANSWERS[name]
    grid = NumberGrid.load(PUZZLES / name, rule=answer["rule"])
    assert (PUZZLES / name).read_text().startswith("#")  # each file says what it is
    if grid.width * grid.height <= 16:  # the recorded count, checked independently
        assert len(brute_force(grid.clues, grid.rule)) == answer["solutions"]
    for engine in ENGINES:
        result = reconstruct(grid, engine=engine, limit=None)
        assert result.exhaustive and result.count == answer["solutions"]
        assert result.unique == answer["unique"]
        if answer["layout"] is not None:
            assert result.first.to_text().splitlines() == answer["layout"]
            assert shows(result.first, grid)
        if answer["solutions"] == 0:
            assert [list(c) for c in result.conflict] == answer["conflict"]
            only = np.full(grid.clues.shape, -1)
            for cell in answer["conflict"]:
                only[tuple(cell)] = grid.clues[tuple(cell)]
            assert reconstruct(NumberGrid(only, rule=grid.rule), limit=1).count == 0
            if only.size <= 16:
                assert brute_force(only, grid.rule) == []


@pytest.mark.parametrize("clues, message", [
    (np.array([[65537, 0], [0, 0]]), r"cell \(0, 0\)"),
    (np.array([[np.nan, 1.0], [1.0, 1.0]]), r"whole numbers, got nan at \(0, 0\)"),
    (Board.from_text("*."), "a number grid needs rows of numbers, got a Board"),
])
def test_a_number_grid_refuses_values_it_would_have_to_wrap(clues, message):
    with pytest.raises(InvalidInput, match=message):
        NumberGrid(clues)


def test_cells_of_a_number_grid_are_pairs_on_the_grid():
    grid = NumberGrid.from_text("11\n11")
    for cells in ((0, 1), [(0,)], [(-1, -1)]):
        with pytest.raises(InvalidInput):
            grid.with_unknown(cells)
    with pytest.raises(InvalidInput, match=r"cell \(-1, -1\) is off"):
        grid[-1, -1]
    assert grid.with_unknown([[np.int64(1), 1]]).to_text() == "11\n1?"


def test_counting_every_layout_has_a_bound(monkeypatch):
    import msanalysis.reconstruction as module

    grid = "?????\n?????\n??2??\n?????\n?????"  # one part: the 3x3 block around the 2
    assert reconstruct(grid, rule="mosaic", limit=None).count == 36 * 2 ** 16
    monkeypatch.setattr(module, "MAX_LISTED", 20)
    with pytest.raises(AnalysisTooHard, match="more than 20 layouts in one part of the grid"):
        reconstruct(grid, rule="mosaic", limit=None)
    assert reconstruct(grid, rule="mosaic", limit=1000).count >= 1000


def test_a_boolean_is_not_a_clue():
    # numpy reads True beside numbers as 1: refused, as a boolean count is elsewhere.
    from msanalysis.errors import WrongType

    with pytest.raises(WrongType, match=r"got True at \(0, 0\)"):
        reconstruct([[True, 1, 1]])
    with pytest.raises(WrongType, match="got booleans"):
        reconstruct(np.array([[True, False]]))


def test_the_local_rules_look_at_the_clock():
    # They ran to the end whatever the time limit: 27 s on a 2000x2000 grid given 1 s.
    from msanalysis.errors import TimeLimitReached
    from msanalysis.gridlogic import Padded, settle, split_components
    from msanalysis.puzzle import grade

    clues = np.array([[1, -1, -1, 1]])
    with pytest.raises(TimeLimitReached, match="while local rules settled the grid"):
        settle(clues, "mosaic", Padded(clues, "mosaic"), deadline=0.0)
    grid = Padded(clues, "mosaic")
    with pytest.raises(TimeLimitReached, match="while local rules split the grid"):
        split_components(grid.pad(np.full(clues.shape, -1, dtype=np.int8)), grid, 0.0)
    for call in (lambda g: reconstruct(g, time_limit=1e-9), lambda g: grade(g, time_limit=1e-9)):
        with pytest.raises(TimeLimitReached, match="while local rules"):
            call(NumberGrid(clues, rule="mosaic"))
