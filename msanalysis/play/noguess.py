"""Boards that can be won without guessing, and the ``no-guess`` layout rule built on them.

:func:`solve_without_guessing` plays a board from its first click revealing only cells that
:func:`~msanalysis.analysis.analyze` proves safe (with the global mine count), and says whether
that clears the board or where logic runs out. :func:`generate_no_guess` draws ``safe-opening``
layouts from a seed until one can be won that way, and :func:`generate` makes a layout under any
first-click rule, ``no-guess`` included (the model's :func:`msanalysis.rules.generate` takes the
others). Choosing guesses is the strategies' job; this module never guesses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from msanalysis.analysis import analyze
from msanalysis.board import Board, Cell
from msanalysis.errors import InvalidInput
from msanalysis.game import Game
from msanalysis.position import Position
from msanalysis.rules import FirstClick
from msanalysis.rules import generate as generate_by_rule

__all__ = ["NoGuessResult", "generate", "generate_no_guess", "solve_without_guessing"]


@dataclass(frozen=True)
class NoGuessResult:
    """The outcome of playing a board by logic alone.

    Attributes
    ----------
    solvable : bool
        True when forced safe cells alone clear the board.
    position : Position
        The final position: the won board, or where no hidden cell is forced safe any more (or
        the lost first click under ``unsafe`` rules).
    rounds : int
        Analyses made: each reveals every cell proven safe at that point.
    revealed : int
        Safe cells revealed in all, the first click's cascade included.
    """

    solvable: bool
    position: Position
    rounds: int
    revealed: int


def solve_without_guessing(board: Board, first_click: Cell, *,
                           rules: str = "safe-cell") -> NoGuessResult:
    """Play ``board`` from ``first_click`` revealing only forced safe cells.

    Parameters
    ----------
    board : Board
    first_click : (row, col)
    rules : str
        The first-click rule of the game (``windows-xp`` may move a mine first).

    Returns
    -------
    NoGuessResult

    Examples
    --------
    >>> board = Board.from_text("*...\\n....\\n....\\n...*")
    >>> solve_without_guessing(board, (1, 2)).solvable
    True
    >>> stuck = solve_without_guessing(Board.from_text("*.\\n.."), (1, 1))
    >>> stuck.solvable, stuck.position.to_text()
    (False, 'mines: 1\\n??\\n?1')

    Notes
    -----
    At most one analysis per cell revealed; in practice a few dozen on an expert board.
    """
    game = Game(board, rules=rules)
    revealed = len(game.reveal(first_click))
    rounds = 0
    while game.status == "playing":
        analysis = analyze(game.position(), forced_only=True)
        rounds += 1
        if not analysis.forced_safe:
            break
        for cell in sorted(analysis.forced_safe):
            if game.status != "playing":
                break  # the last safe cells were revealed by an earlier cascade
            revealed += len(game.reveal(cell))
    return NoGuessResult(game.status == "won", game.position(), rounds, revealed)


def generate_no_guess(width: int, height: int, mines: int, *, first_click: Cell,
                      seed: int | None = None, attempts: int = 1000) -> Board:
    """Draw ``safe-opening`` layouts until one can be won from ``first_click`` without a guess.

    Parameters
    ----------
    width, height, mines : int
    first_click : (row, col)
    seed : int, optional
        The same seed always gives the same board.
    attempts : int
        How many layouts to try before giving up; dense boards are rarely solvable by logic.

    Returns
    -------
    Board

    Raises
    ------
    ValueError
        When none of ``attempts`` layouts could be won without a guess.

    Examples
    --------
    >>> board = generate_no_guess(9, 9, 10, first_click=(4, 4), seed=1)
    >>> solve_without_guessing(board, (4, 4)).solvable
    True
    """
    if attempts < 1:
        raise InvalidInput(f"attempts must be at least 1, got {attempts}")
    draws = random.Random(seed)
    for _ in range(attempts):
        board = generate_by_rule(width, height, mines, rules="safe-opening",
                                 first_click=first_click, seed=draws.getrandbits(64))
        if solve_without_guessing(board, first_click, rules="safe-opening").solvable:
            return board
    raise InvalidInput(f"no layout of {mines} mines on {width}x{height} that can be won without a "
                     f"guess from {first_click} in {attempts} attempts; try fewer mines or more "
                     "attempts")


def generate(width: int, height: int, mines: int, *, rules: str = "safe-cell",
             first_click: Cell | None = None, seed: int | None = None) -> Board:
    """Generate a mine layout under any first-click rule, reproducibly from ``seed``.

    ``no-guess`` is :func:`generate_no_guess`; the other rules are
    :func:`msanalysis.rules.generate`'s (see there for the parameters and errors).

    Examples
    --------
    >>> board = generate(9, 9, 10, rules="no-guess", first_click=(4, 4), seed=1)
    >>> solve_without_guessing(board, (4, 4)).solvable
    True
    """
    if FirstClick.parse(rules) is FirstClick.NO_GUESS:
        if first_click is None:
            raise InvalidInput("rules 'no-guess' need the first click")
        return generate_no_guess(width, height, mines, first_click=first_click, seed=seed)
    return generate_by_rule(width, height, mines, rules=rules, first_click=first_click,
                            seed=seed)
