"""Game: the cascade of seed 000, the first click of seed 001, chords, flags, winning, losing."""

import sys
from collections import deque

import numpy as np
import pytest

import msanalysis.game as game_module
from msanalysis.board import Board, neighbours
from msanalysis.errors import IllegalMove
from msanalysis.game import Game
from msanalysis.position import FLAG, HIDDEN, MINE
from msanalysis.rules import generate


def reference_cascade(board: Board, start, flagged=frozenset(), revealed=frozenset()):
    """Seed 000's queue, one cell at a time: the slow, obviously faithful reference."""
    shown = set(revealed)
    shown.add(start)
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if board.numbers[cell] != 0:
            continue
        for nb in neighbours(cell, board.height, board.width):
            if nb not in shown and nb not in flagged:
                shown.add(nb)
                queue.append(nb)
    return shown - set(revealed)


def test_revealing_a_number_does_not_cascade():
    game = Game(Board.from_text("*...\n....\n...."))
    assert game.reveal((0, 1)) == [(0, 1)]


def test_a_zero_cascades_to_the_border_of_numbers():
    board = Board.from_text("*...\n....\n....")
    game = Game(board)
    revealed = game.reveal((2, 3))
    assert revealed[0] == (2, 3)
    assert set(revealed) == reference_cascade(board, (2, 3)) == board_safe_cells(board)
    assert game.status == "won"


def board_safe_cells(board):
    return {(r, c) for r in range(board.height) for c in range(board.width)
            if not board.is_mine((r, c))}


def test_flagged_cells_are_not_revealed_by_a_cascade():
    board = Board.from_text("*....\n.....\n.....")
    game = Game(board)
    game.flag((2, 2))
    revealed = set(game.reveal((2, 4)))
    assert (2, 2) not in revealed
    assert revealed == reference_cascade(board, (2, 4), flagged={(2, 2)})
    assert game.position().state((2, 2)) == FLAG


def test_all_mines_flagged_still_no_cascade():
    # Seed 000: a number whose mines are all flagged does not cascade when clicked.
    game = Game(Board.from_text("*..\n...\n..."))
    game.flag((0, 0))
    assert game.reveal((1, 1)) == [(1, 1)]
    assert game.position().state((2, 2)) == HIDDEN


def test_cascade_matches_the_reference_queue_on_random_boards():
    for seed in range(200):
        board = generate(16, 16, 40, rules="unsafe", seed=seed)
        rng = np.random.default_rng(seed)
        game = Game(board, rules="unsafe")
        flagged = set()
        for cell in map(tuple, rng.integers(0, 16, size=(6, 2)).tolist()):
            if board.is_mine(cell) and len(flagged) < 40:
                game.flag(cell)
                flagged.add(cell)
        revealed = set()
        for cell in map(tuple, rng.integers(0, 16, size=(30, 2)).tolist()):
            if board.is_mine(cell) or cell in flagged or cell in revealed:
                continue
            expected = reference_cascade(board, cell, frozenset(flagged), frozenset(revealed))
            got = game.reveal(cell)
            assert len(got) == len(set(got)) and set(got) == expected
            revealed |= expected


def test_cascades_cell_by_cell_and_with_numpy_give_the_same_queue(monkeypatch):
    # Small waves are followed cell by cell, large ones with numpy: the same cells in the same
    # order (wave after wave, each in index order) either way.
    boards = [generate(30, 16, mines, rules="unsafe", seed=seed)
              for seed in range(40) for mines in (10, 40)]
    clicks = [[cell for cell in zip(*np.nonzero(~board.mask))][::7] for board in boards]

    def play(small_wave: int) -> list:
        monkeypatch.setattr(game_module, "_SMALL_WAVE", small_wave)
        opened = []
        for board, cells in zip(boards, clicks):
            game = Game(board, rules="unsafe")
            opened.append([game.reveal((int(r), int(c))) for r, c in cells
                           if game.status == "playing"])
        return opened

    cell_by_cell, with_numpy, mixed = play(10**9), play(0), play(3)
    assert cell_by_cell == with_numpy == mixed
    assert max(len(cells) for game in cell_by_cell for cells in game) > 100


def test_a_huge_opening_needs_no_recursion():
    board = Board.from_cells(600, 600, [(599, 599)])
    limit = sys.getrecursionlimit()
    game = Game(board)
    assert len(game.reveal((0, 0))) == 600 * 600 - 1
    assert game.status == "won" and sys.getrecursionlimit() == limit


def test_clicking_a_mine_loses_and_shows_the_mines():
    game = Game(Board.from_text("*.\n.*"), rules="unsafe")
    game.flag((1, 1))
    assert game.reveal((0, 0)) == [(0, 0)]
    assert game.status == "lost" and game.exploded == (0, 0)
    position = game.position()
    assert position.state((0, 0)) == MINE and position.state((1, 1)) == FLAG
    with pytest.raises(ValueError, match="game is over"):
        game.reveal((0, 1))


def test_windows_xp_first_click_moves_the_mine_and_plays_on():
    board = Board.from_text("...*\n..*.\n....")
    game = Game(board, rules="windows-xp")
    assert game.reveal((1, 2)) == [(1, 2)]
    assert game.status == "playing"
    assert game.board.mines == {(0, 0), (0, 3)}
    assert game.position().state((1, 2)) == 1


def test_windows_xp_moves_only_on_the_first_click():
    game = Game(Board.from_text("*..\n...\n..*"), rules="windows-xp")
    game.reveal((0, 2))
    game.reveal((2, 2))
    assert game.status == "lost"


def test_other_rules_never_move_mines():
    game = Game(Board.from_text("...\n..*\n..."), rules="unsafe")
    game.reveal((1, 2))
    assert game.status == "lost"


def test_chord_reveals_the_other_neighbours():
    board = Board.from_text("*...\n....\n....")
    game = Game(board)
    game.reveal((1, 1))
    assert game.chord((1, 1)) == []  # no flag yet: nothing happens
    game.flag((0, 0))
    revealed = set(game.chord((1, 1)))
    assert {(0, 1), (1, 0), (2, 2)} <= revealed
    assert game.status == "won"


def test_chord_with_a_wrong_flag_loses():
    game = Game(Board.from_text("*..\n...\n..."))
    game.reveal((1, 1))
    game.flag((0, 1))
    assert game.chord((1, 1)) == [(0, 0)]
    assert game.status == "lost"


def test_flags_may_outnumber_the_mines_but_not_cover_revealed_cells():
    # As in Windows Minesweeper: the mine counter may go below zero.
    game = Game(Board.from_text("*..\n..."))
    game.flag((1, 2))
    game.flag((1, 1))
    assert game.flags_placed == 2 and game.position().flags == {(1, 1), (1, 2)}
    game.unflag((1, 2))
    game.reveal((1, 2))
    with pytest.raises(IllegalMove, match="revealed"):
        game.flag((1, 2))
    with pytest.raises(IllegalMove, match="off the"):
        game.reveal((5, 5))


def test_started_makes_the_first_click_and_position_has_the_mine_count():
    game = Game.started(30, 16, 99, rules="safe-opening", first_click=(3, 3), seed=11)
    position = game.position()
    assert position.total_mines == 99
    assert position.state((3, 3)) == 0 and len(position.revealed) >= 9


@pytest.mark.parametrize("cell, message", [
    ((0.5, 1), "a cell is a pair of whole numbers"),
    ((2, 0, 0), "a cell is a pair of whole numbers"),
    (5, "a cell is a pair of whole numbers"),
    ((-1, 0), r"cell \(-1, 0\) is off the 2x2 board"),
    # Two numbers in no order of their own: {1, 0} would unpack as (0, 1), the wrong cell.
    ({1, 0}, r"in a tuple, a list or an array, got a set: \{0, 1\}"),
    ({1: 0, 0: 1}, "got a dict"),
    (iter((1, 0)), "got a tuple_iterator"),
    (b"\x01\x00", "got a bytes"),
])
def test_a_move_names_a_cell_on_the_board(cell, message):
    game = Game(Board.from_text("*.\n.."))
    with pytest.raises(IllegalMove, match=message):
        game.reveal(cell)
    assert game.reveal([np.int64(1), np.int64(1)]) == [(1, 1)]
