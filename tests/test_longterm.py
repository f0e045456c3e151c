"""Tests for msanalysis.play.longterm: 50/50 formations and their layouts, against brute force."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest

from msanalysis.analysis import analyze
from msanalysis.board import Board
from msanalysis.errors import InvalidInput
from msanalysis.play.longterm import LongTermRisk, _formation_cells
from msanalysis.position import Position
from reference import all_layouts, endgame_positions

POSITIONS = [
    *endgame_positions(40, seed=7),
    Position.from_text("mines: 3\n??*\n13*"),
    Position.from_text("mines: 4\n*??*\n2332\n...."),
    Position.from_text("mines: 4\n??1.\n??2.\n*?2.\n*?1."),
]


def _scan(risk, block_missing: int = 0) -> set:
    """The cells the quick filter should mark, by a plain loop over every pair and block."""
    height, width = risk.shape
    marked = set()

    def open_(cell) -> bool:
        return 0 <= cell[0] < height and 0 <= cell[1] < width and bool(risk.hidden[cell])

    def shown(cell) -> bool:
        return 0 <= cell[0] < height and 0 <= cell[1] < width and bool(risk.revealed[cell])

    for r, c in itertools.product(range(height), range(width)):
        side = [(r + d, c - 1) for d in (-1, 0, 1)] + [(r + d, c + 2) for d in (-1, 0, 1)]
        ends = [(r - 1, c + d) for d in (-1, 0, 1)] + [(r + 2, c + d) for d in (-1, 0, 1)]
        for pair, outer in ((((r, c), (r, c + 1)), side), (((r, c), (r + 1, c)), ends)):
            missing = [x for x in outer if open_(x)]
            if all(map(open_, pair)) and not any(map(shown, outer)) and len(missing) <= 1:
                marked |= {*pair, *missing}
        block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        corners = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
        if all(map(open_, block)) and not any(map(shown, corners)) \
                and sum(map(open_, corners)) <= block_missing:
            marked |= set(block)
    return marked


@pytest.mark.parametrize("block_missing", [0, 1])
@pytest.mark.parametrize("position", POSITIONS)
def test_quick_filter_marks_the_cells_of_every_pair_and_block(position, block_missing):
    risk = LongTermRisk(analyze(position), block_missing)
    assert {tuple(map(int, c)) for c in np.argwhere(risk.cells)} == _scan(risk, block_missing)


@pytest.mark.parametrize("block_missing", [0, 1])
def test_quick_filter_matches_the_plain_scan_on_random_grids(block_missing):
    # Grids of every small size, hidden / revealed / known mine at random: the shifts of the
    # filter must not wrap around an edge.
    rng = np.random.default_rng(5)
    for _ in range(400):
        height, width = (int(n) for n in rng.integers(1, 14, 2))
        state = rng.integers(0, 3, (height, width))  # 0 hidden, 1 revealed, 2 a known mine
        state[rng.random((height, width)) < rng.random()] = 0
        grids = SimpleNamespace(shape=(height, width), hidden=state == 0, revealed=state == 1)
        marked = _formation_cells(grids.hidden, grids.revealed, block_missing)
        assert marked.shape == (height, width)
        assert {tuple(map(int, c)) for c in np.argwhere(marked)} == _scan(grids, block_missing)


def _mines_of(cells: tuple, x: tuple) -> set:
    """The formation's cells that hold mines when ``x`` does: x, or x's diagonal in a block."""
    if len(cells) == 2:
        return {x}
    diagonal = {cells[0], cells[3]}
    return diagonal if x in diagonal else {cells[1], cells[2]}


@pytest.mark.parametrize("block_missing", [0, 1])
@pytest.mark.parametrize("position", POSITIONS)
def test_formations_and_their_layouts_match_brute_force(position, block_missing):
    risk = LongTermRisk(analyze(position), block_missing)
    boards = all_layouts(position)
    for cell in map(tuple, np.argwhere(risk.cells).tolist()):
        for cells, mine, missing in risk._patterns(cell):
            for x in ([mine] if mine is not None else cells):
                mines = _mines_of(cells, x)
                fits = [b for b in boards if {*missing, *mines} <= b.mines
                        and not (set(cells) - mines) & b.mines]
                assert risk._tally(cells, x, missing) == len(fits)
                # A formation: moving its mines to its other cells changes no number a click
                # elsewhere could show.
                for board in fits:
                    other = Board.from_cells(*position.shape,
                                             (board.mines - mines) | (set(cells) - mines))
                    keep = ~board.mask & ~other.mask
                    assert (other.numbers[keep] == board.numbers[keep]).all()


@pytest.mark.parametrize("block_missing", [0, 1])
@pytest.mark.parametrize("position", POSITIONS)
def test_influence_is_at_most_the_layouts_with_and_without_a_mine(position, block_missing):
    analysis = analyze(position)
    risk = LongTermRisk(analysis, block_missing)
    for cell in position.hidden:
        influence = risk.influence(cell)
        mines = analysis.exact_probability(cell) * analysis.solutions
        assert 0 <= influence <= min(mines, analysis.solutions - mines)


def test_a_walled_in_pair_is_all_influence():
    analysis = analyze(Position.from_text("mines: 3\n??*\n13*"))
    risk = LongTermRisk(analysis)
    assert (risk.influence((0, 0)), risk.influence((0, 1))) == (1, 1)


def test_blocks_waiting_for_a_corner_are_met():
    """The brute-force tests above see blocks with a corner still to fill, and only with
    ``block_missing=1``."""
    def waiting(block_missing: int) -> int:
        found = 0
        for position in POSITIONS:
            risk = LongTermRisk(analyze(position), block_missing)
            found += sum(1 for cell in map(tuple, np.argwhere(risk.cells).tolist())
                         for cells, _, missing in risk._patterns(cell)
                         if len(cells) == 4 and missing)
        return found
    assert waiting(0) == 0 and waiting(1) >= 4


@pytest.mark.parametrize("block_missing", [-1, 2, 0.5, "1"])
def test_block_missing_is_zero_or_one(block_missing):
    with pytest.raises(InvalidInput, match="block_missing"):
        LongTermRisk(analyze(POSITIONS[-1]), block_missing)


def test_no_influence_without_the_mine_count():
    risk = LongTermRisk(analyze(Position.from_text("??*\n13*")))
    assert risk.influence((0, 0)) == 0
