"""Unavoidable guesses, checked by brute force: every layout listed, each structure's two sides
swapped in each, and perfect play's chance after guessing there first."""

import itertools

import pytest

from analysed import analysed_positions
from msanalysis.analysis import analyze
from msanalysis.play.best import BestStrategy
from msanalysis.play.endgame import Endgame
from msanalysis.play.unavoidable import unavoidable_cells, unavoidable_structures
from msanalysis.position import Position
from reference import all_layouts

POSITIONS = analysed_positions(
    5000, start=7000, keep=lambda _, analysis: bool(unavoidable_structures(analysis)))


def test_structures_are_met():
    assert len(POSITIONS) >= 20
    kinds = {len(first) for _, analysis in POSITIONS
             for first, _ in unavoidable_structures(analysis)}
    assert 1 in kinds and max(kinds) >= 2  # free pairs and longer chains both


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_swapping_the_sides_is_invisible(index):
    position, analysis = POSITIONS[index]
    boards = all_layouts(position)
    layouts = {frozenset(b.mines) for b in boards}
    certain = frozenset.intersection(*layouts)
    for first, second in unavoidable_structures(analysis):
        both = first | second
        for board in boards:
            mines = frozenset(board.mines)
            here = mines & both
            if len(first) == 1:
                assert here != both, "a free pair never holds two mines"
            else:
                assert here in (first, second), "a chain's mines fill one side"
            if here not in (first, second):
                continue
            swapped = (mines - here) | (second if here == first else first)
            assert swapped in layouts
            other = next(b for b in boards if frozenset(b.mines) == swapped)
            for cell in itertools.product(*map(range, position.shape)):
                if cell not in both | certain | mines:  # a cell some click may show
                    assert board.numbers[cell] == other.numbers[cell], (cell, first, second)


def test_guessing_there_first_loses_nothing_under_perfect_play():
    """Proved for free pairs (see the module); for chains seen on these positions."""
    checked = {1: 0, 2: 0}
    for _, analysis in POSITIONS:
        if analysis.solutions > 300:
            continue
        endgame = Endgame(analysis, 1_000_000)
        best = endgame.best()
        assert best is not None
        for first, second in unavoidable_structures(analysis):
            for cell in (first | second) & set(endgame.cells):  # others are safe: no guess
                chance = endgame._reveal(endgame.cells.index(cell), endgame.everything)
                assert chance == pytest.approx(best[1], abs=1e-9)
                checked[min(len(first), 2)] += 1
    assert checked[1] >= 20 and checked[2] >= 5


TOP_EDGE_CHAIN = """mines: 99
..13???1?2?1.1????????????????
..1???222??333????????????????
12234321?22???4???????????????
?3?32?22223443????????????????
13?4?22?23??112???????????????
.12?2113?4?31.1???????????????
..1221.2?421.12???????????????
...1?1.13?2..1????????????????
...111.13?2.123???????????????
11.12211?21.1?2???????????????
?112??112221323???????????????
222?321.1?2?3?2???????????????
2?42211.1233??????????????????
2??22?1.12?3??????????????????
1222?21.2?4???????????????????
...111..2?????????????????????"""


def test_best_guesses_a_chain_before_safer_cells():
    """A position of an expert game (seeds 980300-981799): six cells along the top edge hold
    three mines one way or the other; the look ahead alone would guess elsewhere first."""
    position = Position.from_text(TOP_EDGE_CHAIN)
    analysis = analyze(position)
    chain = frozenset({(0, 5), (0, 8), (1, 10)}), frozenset({(0, 6), (1, 9), (0, 10)})
    assert [set(sides) for sides in unavoidable_structures(analysis)] == [set(chain)]
    move = BestStrategy(explain=True).choose(position, analysis)[0]
    assert move.cell in chain[0] | chain[1]
    assert move.explanation.startswith("guess: unavoidable")
    other = BestStrategy(unavoidable=False).choose(position, analysis)[0].cell
    assert other not in chain[0] | chain[1]


def test_cells_are_the_structures_cells():
    position = Position.from_text("mines: 3\n??*\n13*")
    assert unavoidable_cells(analyze(position)) == [(0, 0), (0, 1)]
