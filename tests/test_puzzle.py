"""Tests for msanalysis.puzzle and Tatham's Mosaic IDs, against independent brute force.

The references here share no code with the library: layouts are enumerated over all 2^cells
assignments, grades are found by enumerating the assignments of one clue's or two clues' cells,
and Tatham IDs are decoded the way the game's own ``new_game`` reads them.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msanalysis import puzzle as puzzle_module
from msanalysis.board import Board
from msanalysis.errors import AnalysisTooHard, ParseError
from msanalysis.numbergrid import RULES, NumberGrid
from msanalysis.puzzle import GRADES, Puzzle, grade, make_puzzle
from msanalysis.reconstruction import reconstruct

TATHAM = Path(__file__).resolve().parent.parent / "puzzles" / "tatham"
TATHAM_ANSWERS = json.loads((TATHAM / "answers.json").read_text())
SGT_MOSAIC = shutil.which("sgt-mosaic", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")


# -- independent references ---------------------------------------------------------------------

def block(row: int, col: int, height: int, width: int, rule: str) -> list[int]:
    """Flat indices of the cells the clue at (row, col) counts."""
    return [r * width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
            if 0 <= r < height and 0 <= c < width and (rule == "mosaic" or (r, c) != (row, col))]


def layouts(clues, rule: str) -> list[tuple[bool, ...]]:
    """Every layout that fits ``clues`` (-1 unknown), by trying all of them."""
    clues = np.asarray(clues)
    height, width = clues.shape
    n = height * width
    assert n <= 16, "brute force is for small grids"
    bits = (np.arange(2 ** n)[:, None] >> np.arange(n)[None, :]) & 1
    ok = np.ones(2 ** n, dtype=bool)
    for (row, col), value in np.ndenumerate(clues):
        if value >= 0:
            ok &= bits[:, block(row, col, height, width, rule)].sum(axis=1) == value
    return [tuple(bool(b) for b in row) for row in bits[ok]]


def satisfies(mask: np.ndarray, clues, rule: str) -> bool:
    """Does the layout ``mask`` show every known clue?"""
    clues = np.asarray(clues)
    height, width = clues.shape
    flat = np.asarray(mask).ravel()
    return all(value < 0 or flat[block(row, col, height, width, rule)].sum() == value
               for (row, col), value in np.ndenumerate(clues))


def brute_grade(clues, rule: str) -> int | None:
    """1, 2 or 3 by enumeration: one clue, then two clues at a time, settle what they force."""
    clues = np.asarray(clues)
    height, width = clues.shape
    if len(layouts(clues, rule)) != 1:
        return None
    known: dict[int, bool] = {}
    shown = [(block(r, c, height, width, rule), int(v)) for (r, c), v in np.ndenumerate(clues)
             if v >= 0]

    def settle(group: list[tuple[list[int], int]]) -> bool:
        """Settle the cells that every assignment of the group's open cells agrees on."""
        cells = sorted({x for cells, _ in group for x in cells} - set(known))
        if not cells:
            return False
        column = {x: i for i, x in enumerate(cells)}
        bits = (np.arange(2 ** len(cells))[:, None] >> np.arange(len(cells))[None, :]) & 1
        fits = np.ones(len(bits), dtype=bool)
        for members, need in group:
            open_ = [column[x] for x in members if x in column]
            fits &= bits[:, open_].sum(axis=1) == need - sum(known[x] for x in members
                                                                if x in known)
        found = False
        for x, i in column.items():
            seen = set(bits[fits, i].tolist())
            if len(seen) == 1:
                known[x] = bool(seen.pop())
                found = True
        return found

    for level in (1, 2):
        changed = True
        while changed:
            changed = False
            for one in shown:
                changed |= settle([one])
            if level == 2 and not changed:
                for i, one in enumerate(shown):
                    for other in shown[i + 1:]:
                        if set(one[0]) & set(other[0]):
                            changed |= settle([one, other])
        if len(known) == height * width:
            return level
    return 3


def tatham_cells(game_id: str) -> tuple[int, int, list[int]]:
    """Decode an ID as the game does: a digit is a clue, a letter that many cells without one."""
    size, desc = game_id.split(":")
    width, height = (int(v) for v in size.split("x"))
    cells: list[int] = []
    for ch in desc:
        cells += [int(ch)] if ch.isdigit() else [-1] * (ord(ch) - ord("a") + 1)
    return width, height, cells


def random_layout(height: int, width: int, seed: int, density: float) -> Board:
    rng = np.random.default_rng(seed)
    mask = np.zeros(height * width, dtype=bool)
    mask[rng.choice(height * width, round(height * width * density), replace=False)] = True
    return Board(mask.reshape(height, width))


# -- Tatham's Mosaic IDs ---------------------------------------------------------------------------

@st.composite
def mosaic_grids(draw):
    """Grids of clues a mosaic layout shows, some hidden: long runs of hidden cells included."""
    height, width = draw(st.integers(1, 12)), draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    clues = NumberGrid.from_board(Board(rng.random((height, width)) < rng.random()),
                                  rule="mosaic").clues.astype(int)
    clues[rng.random((height, width)) < draw(st.sampled_from([0.0, 0.5, 0.9, 1.0]))] = -1
    return NumberGrid(clues, rule="mosaic")


@settings(max_examples=150, deadline=None)
@given(mosaic_grids())
def test_tatham_ids_round_trip(grid):
    game_id = grid.to_tatham()
    assert NumberGrid.from_tatham(game_id) == grid
    assert NumberGrid.from_text(game_id, rule="classic") == grid  # the ID is always mosaic
    width, height, cells = tatham_cells(game_id)  # read back the way the game reads it
    assert (width, height) == (grid.width, grid.height)
    assert cells == grid.clues.ravel().tolist()
    assert all(ch in "0123456789abcdefghijklmnopqrstuvwxyz" for ch in game_id.split(":")[1])


def test_tatham_id_reading():
    grid = NumberGrid.from_tatham("4x3:2a213a3222a1")
    assert grid.rule == "mosaic" and (grid.width, grid.height) == (4, 3)
    assert grid.to_text() == "2?21\n3?32\n22?1"
    assert NumberGrid.from_text("# a comment\n\n  4x3:2a213a3222a1  \n# after\n") == grid
    assert NumberGrid.from_tatham("30x1:z3c").clues.tolist() == [[-1] * 26 + [3] + [-1] * 3]
    assert NumberGrid.from_text("?" * 60, rule="mosaic").to_tatham() == "60x1:zzh"
    with pytest.raises(ValueError, match="mosaic rule"):
        NumberGrid.from_text("11", rule="classic").to_tatham()


@pytest.mark.parametrize("text, line, column, words", [
    ("10x10", 1, 6, "expected ':' after the size"),
    ("10x10;abc", 1, 6, "expected ':' after the size, found ';'"),
    ("10x10#1234", 1, 6, "a random seed, not a game ID"),
    ("10x10h1#55", 1, 6, "a random seed"),
    ("0x3:i", 1, 1, "positive size"),
    ("3x3:a4a{c", 1, 8, "unknown character '{'"),
    ("3x3:a4A4", 1, 7, "unknown character 'A'"),
    ("3x3:a4a4a4b", 1, 12, "describes 8 cells, a 3x3 grid has 9"),
    ("3x3:i0", 1, 6, "more than the 9 cells"),
    ("3x3:5h", 1, 5, "cell (0, 0): 5 is impossible under the mosaic rule"),
    ("# c\n 3x3:a4a4a4a7a", 2, 13, "cell (2, 1): 7 is impossible"),
    ("3x3:i\n3x3:i", 2, 1, "text after the Tatham Mosaic ID"),
])
def test_bad_tatham_ids_name_the_position(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        NumberGrid.from_text(text)
    assert (caught.value.line, caught.value.column) == (line, column), str(caught.value)
    assert words in str(caught.value)


def test_bad_tatham_id_in_a_file_names_it(tmp_path):
    path = tmp_path / "id.txt"
    path.write_text("# from the game\n5x5:a4a{\n")
    with pytest.raises(ParseError) as caught:
        NumberGrid.load(path)
    assert str(caught.value).startswith(f"{path}, line 2, column 8: unknown character")
    with pytest.raises(ParseError, match="empty Tatham Mosaic ID"):
        NumberGrid.from_tatham("  \n# nothing\n")


@pytest.mark.parametrize("name", sorted(TATHAM_ANSWERS))
def test_committed_tatham_ids_solve_to_their_one_layout(name):
    answer = TATHAM_ANSWERS[name]
    text = (TATHAM / name).read_text()
    grid = NumberGrid.load(TATHAM / name)
    game_id = next(line for line in text.splitlines() if line and not line.startswith("#"))
    _, _, cells = tatham_cells(game_id)
    assert grid.clues.ravel().tolist() == cells and grid.to_tatham() == game_id
    assert (grid.width, grid.height, int((grid.clues >= 0).sum())) == \
        (answer["width"], answer["height"], answer["clues"])
    layout = Board.from_text("\n".join(answer["layout"]))
    assert satisfies(layout.mask, grid.clues, "mosaic")
    for engine in ("sat", "cpsat"):
        found = reconstruct(grid, engine=engine, limit=None)
        assert found.exhaustive and found.count == 1 and found.first == layout
    # Tatham's generator keeps a clue set its solver settles with single clues alone.
    assert grade(grid) == 1


def test_tatham_ids_from_a_live_generator():
    """A few hundred IDs printed by sgt-mosaic, 10x10 to 50x50: each has exactly one layout."""
    if SGT_MOSAIC is None:
        pytest.skip("sgt-mosaic is not installed (Debian: apt-get install sgt-puzzles); the IDs "
                    "in puzzles/tatham/ are checked instead")
    # Aggressive generation (the default) is slow beyond 20x20; "h0" turns it off there.
    runs = [("10x10", 100), ("15x15", 30), ("20x20h0", 40), ("30x30h0", 40), ("40x40h0", 20),
            ("50x50h0", 20)]
    checked = 0
    for size, count in runs:
        printed = subprocess.run([SGT_MOSAIC, "--generate", str(count), size], check=True,
                                 capture_output=True, text=True).stdout.split()
        assert len(printed) == count
        for game_id in printed:
            grid = NumberGrid.from_text(game_id)
            found = reconstruct(grid, limit=None)
            assert found.exhaustive and found.count == 1, game_id
            assert satisfies(found.first.mask, grid.clues, "mosaic"), game_id
            assert grid.to_tatham() == game_id
            checked += 1
    assert checked == 250


# -- grading -------------------------------------------------------------------------------------

def small_grids(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for index in range(count):
        height, width = (int(v) for v in rng.integers(2, 5, size=2))
        if height * width > 16:
            width = 16 // height
        rule = RULES[index % 2]
        mask = rng.random((height, width)) < rng.random()
        clues = NumberGrid.from_board(Board(mask), rule=rule).clues.astype(int)
        clues[rng.random((height, width)) < rng.random() * 0.8] = -1
        yield NumberGrid(clues, rule=rule)


def test_grade_matches_brute_force():
    seen = set()
    for grid in small_grids(260, seed=5):
        expected = brute_grade(grid.clues, grid.rule)
        assert grade(grid) == expected, (grid.rule, grid.to_text())
        seen.add(expected)
    assert seen == {None, 1, 2, 3}


def test_grade_examples():
    assert grade(NumberGrid.from_text("0000\n1110\n1010")) == 1
    assert grade(NumberGrid.from_text("00\n01")) is None  # no layout
    assert grade(NumberGrid.from_text("1?", rule="classic")) is None  # two layouts
    seed003 = NumberGrid.load(TATHAM.parent / "reconstruct" / "seed003-mosaic.txt", rule="mosaic")
    assert grade(seed003) == 1
    assert set(GRADES) == {1, 2, 3}


# -- making puzzles --------------------------------------------------------------------------------

def check_irreducible(puzzle: Puzzle) -> None:
    """The puzzle fits its solution alone; without any one of its clues, it fits another."""
    clues = puzzle.grid.clues
    found = layouts(clues, puzzle.rule)
    assert found == [tuple(puzzle.solution.mask.ravel().tolist())]
    for cell in zip(*np.nonzero(clues >= 0)):
        fewer = clues.copy()
        fewer[cell] = -1
        assert len(layouts(fewer, puzzle.rule)) >= 2, (puzzle.grid.to_text(), cell)


SMALL = [(4, 4), (3, 5), (5, 3), (3, 4), (4, 3), (1, 9)]


@pytest.mark.parametrize("one_solver", [True, False])
@pytest.mark.parametrize("rule", RULES)
def test_small_puzzles_are_unique_and_irreducible(monkeypatch, rule, one_solver):
    """Made by one solver over the whole grid (small grids) or by tiles (large ones)."""
    if not one_solver:
        monkeypatch.setattr(puzzle_module, "_ONE_SOLVER", 0)
    for seed, (height, width) in enumerate(SMALL * 3):
        density = (0.2, 0.4, 0.6)[seed % 3]
        puzzle = make_puzzle(width=width, height=height, rule=rule, seed=seed, density=density)
        assert (puzzle.rule, puzzle.seed, puzzle.irreducible) == (rule, seed, True)
        check_irreducible(puzzle)
        assert puzzle.grade == brute_grade(puzzle.grid.clues, rule)
        assert make_puzzle(width=width, height=height, rule=rule, seed=seed,
                           density=density) == puzzle  # reproducible


def test_a_drawn_layout_is_checked_by_its_puzzle(monkeypatch):
    """At grade 3 a drawn layout's full grid is checked only by the puzzle's final check; when
    several layouts fit it, the puzzle is the one made from layouts checked as they are drawn."""
    original = puzzle_module._make_drawn
    discarded = []

    def counting(*args, checked):
        made = original(*args, checked=checked)
        discarded.append(made is None)
        return made

    monkeypatch.setattr(puzzle_module, "_make_drawn", counting)
    made = [make_puzzle(width=6, height=5, seed=seed, density=0.45) for seed in range(6)]
    assert any(discarded) and not all(discarded)
    monkeypatch.setattr(puzzle_module, "_make_drawn",
                        lambda *args, checked: original(*args, checked=True))
    assert [make_puzzle(width=6, height=5, seed=seed, density=0.45)
            for seed in range(6)] == made


@pytest.mark.parametrize("rule", RULES)
def test_tiny_tiles_send_tests_to_blocks_and_the_whole_grid(monkeypatch, rule):
    """With 2x2 tiles, margins of 1 and blocks of 4, most tests go up the levels: still exact."""
    monkeypatch.setattr(puzzle_module, "_LEVELS", [(2, 1), (4, 1)])
    monkeypatch.setattr(puzzle_module, "_ONE_SOLVER", 0)
    for seed, (height, width) in enumerate(SMALL * 2):
        puzzle = make_puzzle(width=width, height=height, rule=rule, seed=seed, density=0.45,
                             check="sat")
        check_irreducible(puzzle)


@pytest.mark.parametrize("one_solver", [True, False])
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("rule", RULES)
def test_graded_puzzles_are_minimal_for_their_grade(monkeypatch, rule, level, one_solver):
    if not one_solver:
        monkeypatch.setattr(puzzle_module, "_LEVELS", [(2, 2), (4, 1)])  # small windows
        monkeypatch.setattr(puzzle_module, "_ONE_SOLVER", 0)
    made = 0
    for seed, (height, width) in enumerate(SMALL * 2):
        try:
            puzzle = make_puzzle(width=width, height=height, rule=rule, seed=seed, grade=level,
                                 density=0.35)
        except ValueError:
            continue  # no layout of this size settles with this reasoning in 100 draws
        made += 1
        clues = puzzle.grid.clues
        assert puzzle.grade == brute_grade(clues, rule) <= level
        assert puzzle.irreducible is None
        for cell in zip(*np.nonzero(clues >= 0)):
            fewer = clues.copy()
            fewer[cell] = -1
            harder = brute_grade(fewer, rule)
            assert harder is None or harder > level, (puzzle.grid.to_text(), cell)
    assert made >= 6


def test_medium_puzzles(monkeypatch):
    """30x30 at half density: one solver over the whole grid makes the puzzle that tiles (with
    tests sent on to the whole grid's solver) make, as every test is exact."""
    calls = {"whole": 0, "tile": 0}
    original = puzzle_module._Region.test

    def counting(self, clue):
        calls["whole" if self.whole else "tile"] += 1
        return original(self, clue)

    monkeypatch.setattr(puzzle_module._Region, "test", counting)
    puzzle = make_puzzle(width=30, height=30, density=0.5, seed=4, check="sat")
    assert calls["whole"] > 0 and calls["tile"] == 0
    calls["whole"] = 0
    monkeypatch.setattr(puzzle_module, "_ONE_SOLVER", 0)
    assert make_puzzle(width=30, height=30, density=0.5, seed=4, check="sat") == puzzle
    assert calls["tile"] > calls["whole"] > 0
    assert puzzle.grade == grade(puzzle.grid) == 3  # read off the check's own local rules
    clues = puzzle.grid.clues
    found = reconstruct(puzzle.grid, engine="cpsat")
    assert found.unique and found.first == puzzle.solution
    assert satisfies(puzzle.solution.mask, clues, "mosaic")
    rng = np.random.default_rng(0)
    kept = np.argwhere(clues >= 0)
    for cell in kept[rng.choice(len(kept), 40, replace=False)]:  # a sample: each is needed
        assert reconstruct(puzzle.grid.with_unknown([tuple(cell)])).unique is False
    assert 0.3 < puzzle.share < 0.5


@pytest.mark.parametrize("level", [3, 2])
def test_every_level_of_solvers_takes_part(monkeypatch, level):
    """Small tiles, blocks and windows on a 20x20 grid: tests reach every level, still exact."""
    monkeypatch.setattr(puzzle_module, "_LEVELS", [(4, 2), (8, 2)])
    monkeypatch.setattr(puzzle_module, "_WINDOWS", (3, 6))
    monkeypatch.setattr(puzzle_module, "_ONE_SOLVER", 0)
    built = {"tile": 0, "block": 0, "window": 0, "whole": 0}
    original = puzzle_module._Region.__init__

    def counting(self, maker, top, bottom, left, right, tested, level=3):
        original(self, maker, top, bottom, left, right, tested, level)
        kind = "whole" if self.whole else "window" if len(tested) == 1 else \
            "tile" if self.rows <= 8 and self.cols <= 8 else "block"
        built[kind] += 1

    monkeypatch.setattr(puzzle_module._Region, "__init__", counting)
    puzzle = make_puzzle(width=20, height=20, density=0.5, seed=3, grade=level, check="sat")
    assert all(built.values()), built
    assert reconstruct(puzzle.grid, engine="cpsat").first == puzzle.solution
    rng = np.random.default_rng(1)
    kept = np.argwhere(puzzle.grid.clues >= 0)
    for cell in kept[rng.choice(len(kept), 25, replace=False)]:
        fewer = puzzle.grid.with_unknown([tuple(cell)])
        if level == 3:
            assert reconstruct(fewer).unique is False
        else:
            assert grade(fewer) in (None, 3)


def test_classic_medium_puzzle_and_grades():
    puzzle = make_puzzle(width=26, height=18, rule="classic", seed=2, check="sat")
    assert puzzle.solution.mine_count == round(26 * 18 * puzzle_module.DEFAULT_DENSITY)
    assert reconstruct(puzzle.grid).first == puzzle.solution
    easy = make_puzzle(width=26, height=18, rule="classic", seed=2, grade=1)
    assert easy.grade == 1 == grade(easy.grid)
    assert easy.clue_count >= puzzle.clue_count - 20


def test_from_a_layout_and_share():
    layout = Board.from_text("*..*\n..*.\n....\n*..*")
    puzzle = make_puzzle(layout, rule="classic", seed=9)
    assert puzzle.solution == layout and puzzle.seed == 9
    check_irreducible(puzzle)
    half = make_puzzle(layout, rule="classic", seed=9, share=0.75)
    assert half.clue_count == math.ceil(0.75 * 16) and half.irreducible is False
    assert layouts(half.grid.clues, "classic") == [tuple(layout.mask.ravel().tolist())]
    shown = half.grid.clues >= 0
    assert (shown | (puzzle.grid.clues < 0)).all()  # the irreducible clues, and more
    assert make_puzzle(layout, rule="classic", seed=9, share=0.0) == puzzle


def test_random_seed_is_kept():
    puzzle = make_puzzle(width=5, height=5)
    assert isinstance(puzzle.seed, int)
    assert make_puzzle(width=5, height=5, seed=puzzle.seed) == puzzle


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown rule"):
        make_puzzle(width=4, height=4, rule="hex")
    with pytest.raises(ValueError, match="grade must be one of"):
        make_puzzle(width=4, height=4, grade=4)
    with pytest.raises(ValueError, match="share must be between"):
        make_puzzle(width=4, height=4, share=1.5)
    with pytest.raises(ValueError, match="density must be between"):
        make_puzzle(width=4, height=4, density=2)
    with pytest.raises(ValueError, match="positive size"):
        make_puzzle(width=0, height=4)
    with pytest.raises(ValueError, match="both width and height"):
        make_puzzle(width=4)
    with pytest.raises(ValueError, match="not both"):
        make_puzzle(Board.from_text("*."), width=2, height=1)
    with pytest.raises(ValueError, match="check must be"):
        make_puzzle(width=4, height=4, check="z3")
    with pytest.raises(ValueError, match="fits more than one layout"):
        make_puzzle(Board.from_text("*.\n.."), rule="mosaic")  # a 2x2 block counts all four
    with pytest.raises(ValueError, match="needs grade"):
        make_puzzle(Board.from_text(".***\n....\n...*"), rule="mosaic", grade=1)
    with pytest.raises(ValueError, match="none of 100 layouts"):
        make_puzzle(width=2, height=2, rule="mosaic", density=0.5)
    with pytest.raises(AnalysisTooHard, match="time limit"):
        make_puzzle(width=60, height=60, density=0.5, seed=1, time_limit=0.05)
    with pytest.raises(ValueError, match="the most this makes is 1,000,000"):
        make_puzzle(width=2000, height=1000)
    with pytest.raises(ValueError, match="a seed is a whole number from 0 to"):
        make_puzzle(width=4, height=4, seed=-1)


def test_puzzle_text_round_trip_and_from_grid():
    puzzle = make_puzzle(width=7, height=6, rule="mosaic", seed=12)
    text = puzzle.to_text()
    assert text.startswith(f"# msanalysis puzzle: mosaic 7x6, {puzzle.clue_count} of 42 clues, "
                           f"grade {puzzle.grade}, seed 12\n")
    assert Puzzle.from_text(text) == puzzle
    assert Puzzle.from_text(puzzle.grid.to_tatham()) == Puzzle(puzzle.grid, puzzle.solution,
                                                                puzzle.grade)
    assert Puzzle.from_grid(puzzle.grid).solution == puzzle.solution
    with pytest.raises(ValueError, match="several layouts"):
        Puzzle.from_grid(NumberGrid.from_text("1?", rule="classic"))
    with pytest.raises(ValueError, match="no layout"):
        Puzzle.from_grid(NumberGrid.from_text("00\n01"))
    assert puzzle._repr_svg_().startswith("<svg")


# -- the parts, against brute force ----------------------------------------------------------------

def test_flip_and_swap_patterns_are_true_second_layouts():
    """_Patterns finds a second layout only when one differs from the answer in 1 or 2 cells."""
    found = 0
    for seed in range(100):
        rule = RULES[seed % 2]
        height, width = (3, 4) if seed % 3 else (4, 3)
        layout = random_layout(height, width, seed, density=0.2 + 0.5 * (seed % 4) / 3)
        full = NumberGrid.from_board(layout, rule=rule).clues.astype(int)
        rng = np.random.default_rng(seed)
        kept = rng.random(full.shape) < 0.6
        patterns = puzzle_module._Patterns(np.array(layout.mask), rule)
        patterns.prepare(list(range(full.size)))
        for cell in np.flatnonzero(~kept):
            patterns.remove(int(cell))
        answer = np.array(layout.mask).ravel()
        for clue in np.flatnonzero(kept):
            shown = np.where(kept, full, -1)
            shown.flat[clue] = -1
            near = [fit for fit in layouts(shown, rule)
                    if 1 <= np.sum(np.array(fit) != answer) <= 2]
            # The patterns need the clue's own count to change.
            useful = [fit for fit in near if not satisfies(np.array(fit), np.where(
                np.arange(full.size).reshape(full.shape) == clue, full, -1), rule)]
            assert patterns.second_layout(int(clue)) == bool(useful), (seed, clue)
            found += bool(useful)
    assert found > 40


def test_minicard_counts_a_repeated_literal_once_per_occurrence():
    """The selectors rely on it: atmost([x, y, s, s], 2) means x + y + 2s <= 2."""
    from pysat.solvers import Solver

    rng = np.random.default_rng(3)
    for _ in range(300):
        variables = int(rng.integers(2, 6))
        constraints = []
        for _ in range(int(rng.integers(1, 4))):
            size = int(rng.integers(1, 8))
            lits = [int(v) * int(s) for v, s in zip(rng.integers(1, variables + 1, size),
                                                    rng.choice([-1, 1], size))]
            constraints.append((lits, int(rng.integers(0, size + 1))))
        expected = {values for values in product((False, True), repeat=variables)
                    if all(sum(values[abs(lit) - 1] == (lit > 0) for lit in lits) <= bound
                           for lits, bound in constraints)}
        found = set()
        with Solver(name="mc") as solver:
            for lits, bound in constraints:
                solver.add_atmost(lits, bound)
            while solver.solve():
                model = solver.get_model()
                model = model + [-(i + 1) for i in range(len(model), variables)]
                values = tuple(v > 0 for v in model[:variables])
                found.add(values)
                solver.add_clause([-v for v in model[:variables]])
        assert found == expected, constraints


# -- pictures --------------------------------------------------------------------------------------

def test_pictures_of_a_puzzle_and_its_solution():
    import xml.etree.ElementTree as ET

    from msanalysis import svg

    puzzle = make_puzzle(width=9, height=7, seed=6, density=0.4)
    clues = puzzle.grid.clues
    drawn = svg.board(puzzle, coordinates=False)
    root = ET.fromstring(drawn)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(ns + "text")]
    # Every clue is written, zeros included, and nothing else but the note under the grid.
    assert sorted(texts[:-1]) == sorted(str(v) for v in clues[clues >= 0].tolist())
    assert texts[-1] == f"mosaic puzzle: {puzzle.clue_count} clues, grade {puzzle.grade}"
    assert "msanalysis-raised\"" not in drawn.split("</defs>")[1]  # no raised cells
    assert drawn.count('fill="#3a3a3a"') == 0
    solved = svg.board(puzzle, solution=True, coordinates=False)
    assert solved.count('fill="#3a3a3a"') == puzzle.solution.mine_count
    assert "the only layout that fits" in solved
    assert svg.board(puzzle) == svg.board(puzzle) and puzzle._repr_svg_() == svg.board(puzzle)
    with pytest.raises(TypeError, match="Puzzle's answer"):
        svg.board(puzzle.solution, solution=True)


def test_progress_callback_sees_every_clue():
    seen = []
    make_puzzle(width=9, height=4, seed=2, on_test=lambda done, total: seen.append((done, total)))
    assert seen == [(done, 36) for done in range(1, 37)]


def test_the_library_reads_a_puzzle_file_under_its_header_rule(tmp_path):
    # As the command line does: reconstruct(text) and NumberGrid.load read the header's rule
    # (they read puzzle make's mosaic files as classic: no layout fit).
    from msanalysis import NumberGrid, reconstruct

    text = make_puzzle(width=8, height=6, seed=4).to_text()
    assert reconstruct(text).unique
    path = tmp_path / "m.txt"
    path.write_text(text)
    assert NumberGrid.load(path).rule == "mosaic"
    assert NumberGrid.load(path, rule="classic").rule == "classic"  # a rule given wins
    assert NumberGrid.from_text("11").rule == "classic"  # no header: the default
    with pytest.raises(ParseError, match="the header says 8x6, but the grid below it is 2x1"):
        NumberGrid.from_text(text.splitlines()[0] + "\n11")


@pytest.mark.parametrize("option", [{"seed": True}, {"density": True}, {"share": True},
                                    {"grade": True}, {"grade": 1.0}, {"seed": -1}])
def test_make_puzzle_takes_no_boolean_or_float_for_a_count(option):
    # True was taken as seed 1, density 1.0, a share of all clues, grade 1.
    from msanalysis.errors import InvalidInput

    with pytest.raises(InvalidInput):
        make_puzzle(width=6, height=5, **option)


def test_short_rows_read_in_python_as_long_ones_with_numpy():
    # Narrow grids read their rows in Python (a 1x1,000,000 grid took 7 s row by row in
    # numpy); both readers give the same clues, and the same error at the same place.
    import random

    from msanalysis.numbergrid import _long_row, _short_row

    rng = random.Random(0)
    for _ in range(2000):
        line = "".join(rng.choice("0123456789??x é") for _ in range(rng.randint(1, 16))).strip()
        if not line:
            continue
        short = _short_row(line)
        try:
            long = _long_row(line, 3, 1).tolist()
        except ParseError as error:
            assert short is None and "unknown character" in str(error)
            continue
        assert short == long, line
    tall = NumberGrid.from_text("1\n?\n" * 500 + "2\n", rule="mosaic")
    assert tall.clues[:, 0].tolist() == [1, -1] * 500 + [2]
    with pytest.raises(ParseError, match="line 4, column 1: unknown character 'x'"):
        NumberGrid.from_text("1\n2\n3\nx\n")
    with pytest.raises(ParseError, match="line 2, column 2: row has 1 cell, the first row has 2"):
        NumberGrid.from_text("12\n3\n")
