"""The no-guess check on bit boards: the verdict found sooner, and bad input.

That every round proves what the tracker's does is checked in ``test_noguess.py`` (every field
of ``solve_without_guessing`` against the tracker on seeded boards of every size).
"""

import pytest

from msanalysis.bitlogic import play_by_logic, wins_by_logic
from msanalysis.board import Board
from msanalysis.rules import generate


@pytest.mark.parametrize("width, height, mines, boards", [
    (9, 9, 10, 150), (16, 16, 40, 100), (30, 16, 99, 60), (8, 8, 14, 100)])
def test_the_verdict_found_sooner_is_the_same(width, height, mines, boards):
    won = 0
    for seed in range(boards):
        board = generate(width, height, mines, rules="safe-opening", first_click=(3, 3),
                         seed=seed)
        for grade in (1, 2, 3, 4):
            play = play_by_logic(board, (3, 3), grade)
            assert wins_by_logic(board, (3, 3), grade) == play.solvable, (seed, grade)
            won += play.solvable
        # The layout as mine numbers plays as the Board does.
        cells = [r * width + c for r, c in sorted(board.mines)]
        assert fields(play) == fields(play_by_logic((height, width, cells), (3, 3))), seed
    assert won


def test_hopeless_is_asked_once_when_single_clues_stop():
    import numpy as np

    from msanalysis.play.noguess import _swappable_pair

    asked = 0
    for seed in range(150):
        board = generate(9, 9, 10, rules="safe-opening", first_click=(3, 3), seed=seed)
        by_singles = play_by_logic(board, (3, 3), 1).solvable
        calls = []
        assert wins_by_logic(board, (3, 3), hopeless=lambda c=calls: c.append(1) or True) \
            == by_singles
        assert len(calls) == (not by_singles)
        asked += len(calls)
        # A true proof of hopelessness leaves the verdict as it was.
        pair = _swappable_pair(np.asarray(board.mask), (3, 3))
        assert wins_by_logic(board, (3, 3), hopeless=lambda p=pair: p) \
            == play_by_logic(board, (3, 3)).solvable, seed
    assert asked


def fields(play):
    return (play.solvable, play.grade, play.rounds, play.hardest_step, play.hardest_cells,
            play.revealed.tolist(), play.revealed_count)


def test_a_small_board():
    board = Board.from_text("..*..\n.....\n*...*\n.....")
    play = play_by_logic(board, (0, 0))
    assert fields(play) == fields(play_by_logic((4, 5, [2, 10, 14]), (0, 0)))
    assert play.revealed_count == 17 and play.revealed.all() == (board.mine_count == 0)


def test_bad_input():
    board = Board.from_text("*.\n..")
    with pytest.raises(ValueError, match="off the"):
        play_by_logic(board, (2, 0))
    with pytest.raises(ValueError, match="on a mine"):
        wins_by_logic(board, (0, 0))
    with pytest.raises(ValueError, match="off the"):
        play_by_logic((2, 2, [4]), (1, 1))
