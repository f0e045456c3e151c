"""Tests for msanalysis.analysis: SAT, counting and brute force agree on every position."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msanalysis import Analysis, analyze
from msanalysis.analysis import analyze_constraints
from msanalysis.board import Board
from msanalysis.errors import AnalysisTooHard, InconsistentPosition, InvalidInput, WrongType
from msanalysis.game import Game
from msanalysis.position import HIDDEN, Position
from msanalysis.sat import forced_cells
from reference import enumerate_layouts, game_positions


def _agree(position: Position, ignore_flags: bool) -> bool:
    """Check one position; return False when it is inconsistent (and both sides say so)."""
    expected = enumerate_layouts(position, ignore_flags=ignore_flags)
    try:
        analysis = analyze(position, ignore_flags=ignore_flags)
    except InconsistentPosition:
        assert expected.solutions == 0, position
        return False
    assert expected.solutions > 0, position
    # SAT's forced cells (alone, and through forced_only) == counting's probabilities 0 and 1
    # == the full analysis's forced cells == brute force.
    exact = analysis.counts.probabilities()
    by_count_safe = {cell for cell, p in exact.items() if p == 0}
    by_count_mines = {cell for cell, p in exact.items() if p == 1}
    by_sat_safe, by_sat_mines = forced_cells(analysis.constraints)
    quick = analyze(position, ignore_flags=ignore_flags, forced_only=True)
    assert by_sat_safe == quick.forced_safe == by_count_safe == expected.forced_safe, position
    assert by_sat_mines == quick.forced_mines == by_count_mines == expected.forced_mines, position
    assert analysis.forced_safe == by_count_safe and analysis.forced_mines == by_count_mines
    assert analysis.solutions == expected.solutions
    for cell in expected.unknown:
        assert analysis.exact_probability(cell) == expected.probability(cell)
        assert analysis.probabilities[cell] == float(expected.probability(cell))
        assert analysis.mine_layouts(cell) == expected.mines[cell]
    if analysis.requires_guess:  # the least likely mine, ties to the first cell row-major
        assert analysis.best_guess == min(expected.unknown,
                                          key=lambda cell: (expected.probability(cell), cell))
    return True


def test_600_game_positions_agree_with_brute_force():
    positions = game_positions(600, start=0)
    assert sum(p.total_mines is None for p in positions) > 100
    assert sum(bool(p.flags) for p in positions) > 100
    consistent = 0
    for position in positions:
        for ignore_flags in (False, True) if position.flags else (False,):
            consistent += _agree(position, ignore_flags)
    assert consistent > 500


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 6), st.integers(3, 6), st.floats(0.05, 0.3),
       st.floats(0.2, 0.9), st.booleans())
def test_random_reveals_agree_with_brute_force(seed, height, width, density, reveal, known):
    rng = np.random.default_rng(seed)
    mask = rng.random((height, width)) < density
    board = Board(mask)
    states = np.where(rng.random((height, width)) < reveal, board.numbers, HIDDEN)
    states = np.where(mask, HIDDEN, states).astype(np.int8)
    if (states == HIDDEN).sum() > 16:
        return
    position = Position(states, board.mine_count if known else None)
    assert _agree(position, False)  # built from a real board: always consistent


def test_expected_mines_equal_remaining_count():
    for position in game_positions(60, start=7000):
        try:
            analysis = analyze(position)
        except InconsistentPosition:
            continue
        if position.total_mines is None:
            continue
        unknown = analysis.constraints.unknown
        total = sum(analysis.exact_probability(cell) for cell in unknown)
        assert total == analysis.constraints.remaining


def test_probability_array_marks_revealed_flags_and_shown_mines():
    position = Position.from_text("mines: 3\n?F?\n?3*\n???")
    a = analyze(position)
    p = a.probabilities
    assert p.shape == (3, 3) and math.isnan(p[1, 1])
    assert p[0, 1] == 1.0 and p[1, 2] == 1.0
    assert a.exact_probability((0, 0)) == Fraction(1, 6)
    assert not p.flags.writeable
    with pytest.raises(ValueError, match="revealed"):
        a.probability((1, 1))
    ignored = analyze(position, ignore_flags=True)
    assert ignored.probabilities[0, 1] == float(Fraction(2, 7))


def test_requires_guess_and_best_guess_tie_break():
    a = analyze(Position.from_text("mines: 1\n??\n11"))
    assert a.requires_guess and a.best_guess == (0, 0)  # a tie: first in row-major order
    b = analyze(Position.from_text("mines: 2\n????\n121?\n...?"))
    assert not b.requires_guess and b.best_guess is None
    c = analyze(Position.from_text("mines: 3\n1???\n????"))
    # The frontier cells are 1/3 each, the sea 2/4: the best guess is on the frontier.
    assert c.requires_guess and c.best_guess == (0, 1)


def test_game_over_positions_require_no_guess():
    won = analyze(Position.from_text("mines: 1\n1?\n11"))
    assert won.is_over and not won.requires_guess and won.forced_mines == {(0, 1)}
    game = Game(Board.from_text("*..\n..."))
    game.reveal((0, 0))
    lost = analyze(game.position())
    assert lost.is_over and not lost.requires_guess and lost.best_guess is None


def test_forced_only_counts_lazily():
    a = analyze(Position.from_text("mines: 2\n1??\n???"), forced_only=True)
    assert "_counted" not in a.__dict__
    assert a.forced_safe == frozenset() and a.solutions == 3 * 2
    assert a.probability((0, 2)) == 0.5


def test_time_limit_gives_a_partial_analysis_with_the_forced_cells():
    rng = np.random.default_rng(1)
    board = Board(rng.random((40, 40)) < 0.2)
    states = np.full((40, 40), HIDDEN, dtype=np.int8)
    states[::2, ::2] = board.numbers[::2, ::2]
    states[board.mask] = HIDDEN
    position = Position(states, board.mine_count)
    partial = analyze(position, time_limit=0.05)
    assert not partial.exact and "time limit" in partial.stopped
    with pytest.raises(AnalysisTooHard):
        _ = partial.solutions
    data = partial.to_dict()
    assert data["exact"] is False and data["solutions"] is None and data["probabilities"] is None
    assert data["forced_safe"] == [list(c) for c in sorted(partial.forced_safe)]
    # Whatever a partial analysis reports as forced is forced: SAT without a limit agrees, and
    # when SAT finished before the limit it found them all.
    everything = analyze(position, forced_only=True)
    assert partial.forced_safe <= everything.forced_safe
    assert partial.forced_mines <= everything.forced_mines
    if partial.all_forced:
        assert (partial.forced_safe, partial.forced_mines) == (everything.forced_safe,
                                                               everything.forced_mines)
    else:
        assert data["all_forced"] is False


def test_inconsistent_position_names_clues():
    with pytest.raises(InconsistentPosition) as info:
        analyze(Position.from_text("F???\n1221"))
    assert info.value.clues and "flags" in str(info.value)


def test_explain_and_components_and_dict():
    a = analyze(Position.from_text("mines: 2\n????\n121?\n...?"))
    e = a.explain((0, 1))
    assert e.verdict == "safe" and e.clues == [(1, 0), (1, 1), (1, 2)]
    assert len(a.components) == 1 and a.components[0].clues == ((1, 0), (1, 1), (1, 2), (2, 2))
    data = a.to_dict()
    assert data["solutions"] == "1" and data["forced_mines"] == [[0, 0], [0, 2]]
    assert data["probabilities"][2][0] is None and data["probabilities"][0][0] == 1.0
    assert isinstance(a, Analysis) and "forced" in repr(a)


def test_expert_positions_sat_and_counting_agree():
    # Too big for brute force: SAT and counting must still agree on every forced cell.
    rng = np.random.default_rng(11)
    for seed in range(12):
        game = Game.started(30, 16, 99, first_click=(8, 15), seed=seed)
        board = game.board
        for _ in range(int(rng.integers(0, 40))):
            if game.status != "playing":
                break
            covered = [c for c in zip(*np.nonzero(~board.mask)) if not game.is_revealed(c)]
            game.reveal(tuple(int(v) for v in covered[int(rng.integers(len(covered)))]))
        if game.status != "playing":
            continue
        a = analyze(game.position())
        exact = a.counts.probabilities()
        safe, mines = forced_cells(a.constraints)
        assert a.forced_safe == safe == {c for c, p in exact.items() if p == 0}
        assert a.forced_mines == mines == {c for c, p in exact.items() if p == 1}
        assert not (a.forced_mines - board.mines) and not (a.forced_safe & board.mines)


def test_repr_svg_uses_the_svg_module():
    pytest.importorskip("msanalysis.svg")
    a = analyze(Position.from_text("mines: 1\n??\n11"))
    assert "<svg" in a._repr_svg_()


@pytest.mark.parametrize("whole", [False, True])
@pytest.mark.parametrize("cell, message", [
    ((-1, -1), r"cell \(-1, -1\) is off the 3x2 board"),
    ((0.0, 1.0), r"a cell is a pair of whole numbers"),
    ((0,), r"a cell is a pair of whole numbers"),
    ((1, 1), r"cell \(1, 1\) is revealed"),
])
def test_a_probability_is_asked_of_a_hidden_cell_on_the_board(whole, cell, message):
    # Both ways to analyse (the tracker's and the whole position's) refuse alike.
    position = Position.from_text("mines: 1\n???\n.1?")
    analysis = analyze_constraints(position) if whole else analyze(position)
    with pytest.raises(InvalidInput, match=message):
        analysis.exact_probability(cell)
    assert analysis.exact_probability([np.int64(0), 2]) == Fraction(1, 2)


def test_analyze_says_what_it_takes():
    with pytest.raises(WrongType, match="analyze takes a Position, got a Board"):
        analyze(Board.from_text("*."))


@pytest.mark.parametrize("limit", [float("nan"), -1, 0, "5", True])
def test_a_time_limit_is_a_positive_number_of_seconds(limit):
    with pytest.raises(InvalidInput, match="a time limit is a positive number of seconds"):
        analyze(Position.from_text("mines: 1\n??\n11"), time_limit=limit)


def test_an_infinite_time_limit_is_no_limit():
    position = Position.from_text("mines: 2\n????\n121?\n...?")
    assert analyze(position, time_limit=float("inf")).solutions == analyze(position).solutions
