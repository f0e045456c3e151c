"""Winning without a guess, checked against logic by brute-force enumeration."""

import pytest
from typer.testing import CliRunner

from msanalysis.board import Board
from msanalysis.cli import app
from msanalysis.game import Game
from msanalysis.play.noguess import generate, generate_no_guess, solve_without_guessing
from reference import enumerate_layouts


def solvable_by_enumeration(board: Board, click) -> bool:
    """Reveal what every layout agrees is safe, using the slow reference, until stuck."""
    game = Game(board)
    game.reveal(click)
    while game.status == "playing":
        safe = enumerate_layouts(game.position()).forced_safe
        if not safe:
            return False
        for cell in sorted(safe):
            if game.status == "playing":
                game.reveal(cell)
    return game.status == "won"


def test_agrees_with_enumeration_on_small_boards():
    verdicts = []
    for seed in range(60):
        board = generate(4, 4, 3, rules="safe-cell", first_click=(0, 0), seed=seed)
        expected = solvable_by_enumeration(board, (0, 0))
        assert solve_without_guessing(board, (0, 0)).solvable == expected, seed
        verdicts.append(expected)
    assert any(verdicts) and not all(verdicts)  # both answers were exercised


def test_stuck_position_is_where_no_cell_is_forced():
    result = solve_without_guessing(Board.from_text("*.\n.."), (1, 1))
    assert not result.solvable and result.rounds == 1 and result.revealed == 1


def test_no_guess_rule_is_reproducible_and_solvable():
    a = generate(16, 16, 40, rules="no-guess", first_click=(3, 3), seed=5)
    assert a == generate(16, 16, 40, rules="no-guess", first_click=(3, 3), seed=5)
    assert a.mine_count == 40 and a.numbers[3, 3] == 0
    assert solve_without_guessing(a, (3, 3)).solvable


def test_no_guess_gives_up_with_a_clear_error():
    # 3x3 opening in the corner of a 4x4 board leaves 12 cells for 11 mines: never solvable.
    with pytest.raises(ValueError, match="without a guess"):
        generate_no_guess(4, 4, 11, first_click=(0, 0), seed=0, attempts=5)


def test_solvable_command(tmp_path):
    runner = CliRunner()
    path = tmp_path / "b.txt"
    path.write_text("*...\n....\n....\n...*\n")
    result = runner.invoke(app, ["solvable", str(path), "--first-click", "1,2", "--json"])
    assert result.exit_code == 0 and '"solvable": true' in result.stdout
    path.write_text("*.\n..\n")
    result = runner.invoke(app, ["solvable", str(path), "--first-click", "1,1"])
    assert result.exit_code == 1 and "not solvable" in result.stdout
