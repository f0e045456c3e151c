"""Layout generation for each first-click rule, seeds 001 and 002."""

import numpy as np
import pytest

from msanalysis.board import Board
from msanalysis.errors import InvalidInput
from msanalysis.rules import DIFFICULTIES, FirstClick, board_size, generate, windows_xp_move


def test_difficulties_are_the_classic_sizes():
    assert DIFFICULTIES == {"beginner": (9, 9, 10), "intermediate": (16, 16, 40),
                            "expert": (30, 16, 99)}
    board = generate(*DIFFICULTIES["expert"], first_click=(0, 0), seed=1)
    assert (board.width, board.height, board.mine_count) == (30, 16, 99)
    with pytest.raises(TypeError):  # one caller cannot change the sizes every other one reads
        DIFFICULTIES["expert"] = (5, 5, 30)  # type: ignore[index]


@pytest.mark.parametrize("rules", ["unsafe", "safe-cell", "safe-opening", "windows-xp"])
def test_the_same_seed_gives_the_same_board(rules):
    boards = [generate(16, 16, 40, rules=rules, first_click=(5, 5), seed=s) for s in (7, 7, 8)]
    assert boards[0] == boards[1]
    assert boards[0] != boards[2]
    assert all(b.mine_count == 40 for b in boards)


def test_fixed_seed_gives_a_fixed_board():
    # Pinned so a change to the generator (and so to every recorded game) is noticed.
    board = generate(9, 9, 10, rules="safe-cell", first_click=(0, 0), seed=3)
    assert sorted(board.mines) == [(0, 2), (1, 0), (1, 8), (3, 4), (3, 7), (5, 3), (6, 7),
                                   (7, 7), (8, 3), (8, 4)]


def test_safe_opening_keeps_the_3x3_free_and_the_full_count():
    for seed in range(300):
        click = (seed % 16, (seed * 7) % 30)
        board = generate(30, 16, 99, rules="safe-opening", first_click=click, seed=seed)
        assert board.mine_count == 99
        assert board.numbers[click] == 0 and not board.is_mine(click)


def test_safe_opening_too_full_is_a_clear_error():
    with pytest.raises(ValueError, match=r"too full: 8 mines for 7 cells .* which "
                                         r"safe-opening and no-guess boards keep free"):
        generate(4, 4, 8, rules="safe-opening", first_click=(1, 1), seed=0)
    # Exactly full outside the block is fine.
    assert generate(4, 4, 7, rules="safe-opening", first_click=(1, 1), seed=0).mine_count == 7


def test_safe_cell_never_mines_the_click_and_is_uniform_elsewhere():
    hits = [0] * 9
    for seed in range(2000):
        board = generate(3, 3, 1, rules="safe-cell", first_click=(1, 1), seed=seed)
        assert not board.is_mine((1, 1))
        (cell,) = board.mines
        hits[cell[0] * 3 + cell[1]] += 1
    assert hits[4] == 0
    assert all(180 < h < 320 for i, h in enumerate(hits) if i != 4)


@pytest.mark.parametrize("width, height, mines, rules, message", [
    (9, 9, 82, "unsafe", "do not fit"),
    (9, 9, 81, "safe-cell", "at most 80"),
    (3, 3, 9, "windows-xp", "at most 8"),
    (9, 9, -1, "unsafe", "cannot be negative"),
    (0, 9, 1, "unsafe", "positive size"),
    (9, 9, 10, "fancy", "unknown rules"),
])
def test_mine_counts_that_do_not_fit_are_clear_errors(width, height, mines, rules, message):
    with pytest.raises(ValueError, match=message):
        generate(width, height, mines, rules=rules, first_click=(0, 0), seed=0)


def test_first_click_off_the_board_or_missing():
    with pytest.raises(ValueError, match="off the 9x9 board"):
        generate(9, 9, 10, first_click=(9, 0), seed=0)
    with pytest.raises(ValueError, match="need the first click"):
        generate(9, 9, 10, rules="safe-opening", seed=0)


@pytest.mark.parametrize("name", ["fancy", None, 3])
def test_an_unknown_rule_is_refused_by_name(name):
    # The enum called directly says what parse says, not Python's bare "is not a valid".
    for read in (FirstClick, FirstClick.parse):
        with pytest.raises(InvalidInput, match=r"unknown rules .*; choose one of unsafe, "):
            read(name)


def test_rules_given_as_an_array_are_refused_by_name():
    # The enum would compare an array with each name, and its truth value is ambiguous.
    rules = np.array(["safe-cell", "unsafe"])
    for read in (FirstClick.parse, lambda r: generate(9, 9, 10, rules=r, first_click=(0, 0))):
        with pytest.raises(InvalidInput, match=r"unknown rules array\(\['safe-cell'"):
            read(rules)


def test_board_size_resolves_difficulties_and_overrides():
    assert board_size("intermediate") == (16, 16, 40)
    assert board_size(width=5, height=4, mines=3) == (5, 4, 3)
    with pytest.raises(ValueError, match="unknown difficulty"):
        board_size("impossible")


# -- windows-xp first click (seed 001) ----------------------------------------------------------

def test_clicked_mine_moves_to_the_top_left():
    board = Board.from_text("...\n..*\n...")
    assert windows_xp_move(board, (1, 2)).mines == {(0, 0)}


def test_top_left_occupied_moves_to_its_right():
    board = Board.from_text("*..\n..*\n...")
    assert windows_xp_move(board, (1, 2)).mines == {(0, 0), (0, 1)}


def test_full_first_row_moves_to_the_next_row():
    board = Board.from_text("***\n.*.\n...")
    assert windows_xp_move(board, (1, 1)).mines == {(0, 0), (0, 1), (0, 2), (1, 0)}


def test_a_free_first_click_changes_nothing():
    board = Board.from_text("...\n..*\n...")
    assert windows_xp_move(board, (0, 0)) is board


def test_windows_xp_generation_returns_the_board_in_play():
    for seed in range(200):
        board = generate(9, 9, 10, rules="windows-xp", first_click=(4, 4), seed=seed)
        assert not board.is_mine((4, 4)) and board.mine_count == 10


def test_seeds_are_whole_numbers_from_0_up():
    # Python's random generator takes -5 for 5: a negative seed would repeat a positive one.
    with pytest.raises(InvalidInput, match=r"a seed is a whole number from 0 to .*, got -5"):
        generate(9, 9, 10, first_click=(0, 0), seed=-5)
    with pytest.raises(InvalidInput, match="a seed must be a whole number"):
        generate(9, 9, 10, first_click=(0, 0), seed=1.5)
    # 64 bits at most, as other programs' seeds; a huge one is not written out in the message.
    assert generate(9, 9, 10, first_click=(0, 0), seed=2**64 - 1).mine_count == 10
    with pytest.raises(InvalidInput, match=r"got \(a number of more than 40 digits\)"):
        generate(9, 9, 10, first_click=(0, 0), seed=10**5000)
    assert generate(9, 9, 10, first_click=(0, 0), seed=np.int64(5)) == \
        generate(9, 9, 10, first_click=(0, 0), seed=5)
    with pytest.raises(InvalidInput, match="the mine count must be a whole number"):
        generate(9, 9, 10.0, first_click=(0, 0), seed=1)
    with pytest.raises(InvalidInput, match="a board's width must be a whole number"):
        generate(9.0, 9, 10, first_click=(0, 0), seed=1)
