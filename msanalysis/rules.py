"""Standard difficulties and seeded layout generation for each first-click rule.

The rules differ only in how the first click is protected:

- ``unsafe``: uniformly random; the first click can lose.
- ``safe-cell``: uniformly random among layouts where the clicked cell is free.
- ``safe-opening``: a Fisher-Yates shuffle of the cells outside the 3x3 block around the first
  click (seed 002), so the first click always opens a cascade.
- ``windows-xp``: uniformly random, then a mine under the first click moves to the top-left
  cell, or the next free cell to its right, row by row (seed 001).
- ``no-guess``: ``safe-opening`` layouts drawn until one can be won from the first click by
  logic alone (:mod:`msanalysis.noguess`).

Mines are always drawn without replacement, never by a per-cell coin flip (seed 004 notes why:
that gives no fixed mine count). Playing the layout is :mod:`msanalysis.game`'s job.
"""

from __future__ import annotations

import random

import numpy as np

from msanalysis.board import Board, Cell

__all__ = ["DIFFICULTIES", "RULES", "board_size", "default_first_click", "generate",
           "windows_xp_move"]

DIFFICULTIES: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
}
"""Standard sizes as ``(width, height, mines)``; expert is 30 columns by 16 rows."""

RULES = ("unsafe", "safe-cell", "safe-opening", "windows-xp", "no-guess")
"""The first-click rules :func:`generate` implements."""


def board_size(difficulty: str | None = None, *, width: int | None = None,
               height: int | None = None, mines: int | None = None) -> tuple[int, int, int]:
    """Resolve a difficulty name and explicit sizes into ``(width, height, mines)``.

    Explicit values override the difficulty's; with no difficulty all three are required.

    Examples
    --------
    >>> board_size("expert")
    (30, 16, 99)
    >>> board_size("beginner", mines=12)
    (9, 9, 12)
    """
    if difficulty is not None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {difficulty!r}; choose one of "
                             f"{', '.join(DIFFICULTIES)}")
        base_width, base_height, base_mines = DIFFICULTIES[difficulty]
        width = base_width if width is None else width
        height = base_height if height is None else height
        mines = base_mines if mines is None else mines
    if width is None or height is None or mines is None:
        raise ValueError("give a difficulty, or all of width, height and mines")
    if width <= 0 or height <= 0:
        raise ValueError(f"a board needs a positive size, got {width}x{height}")
    if mines < 0:
        raise ValueError(f"the mine count cannot be negative, got {mines}")
    return width, height, mines


def default_first_click(rules: str) -> Cell:
    """Where a game starts by default: (3, 3) for ``safe-opening``/``no-guess``, else (0, 0).

    Examples
    --------
    >>> default_first_click("safe-opening"), default_first_click("windows-xp")
    ((3, 3), (0, 0))
    """
    return (3, 3) if rules in ("safe-opening", "no-guess") else (0, 0)


def windows_xp_move(board: Board, first_click: Cell) -> Board:
    """Apply Windows' first-click rule: a mine under ``first_click`` moves away.

    The mine goes to the top-left cell; if that holds a mine, to the next cell to the right,
    continuing row by row (seed 001). A free first click leaves the board unchanged.

    Examples
    --------
    >>> windows_xp_move(Board.from_text("..*\\n..."), (0, 2)).to_text()
    '*..\\n...'
    >>> windows_xp_move(Board.from_text("**\\n.*"), (1, 1)).to_text()
    '**\\n*.'
    """
    _check_cell(first_click, board.width, board.height)
    if not board.is_mine(first_click):
        return board
    mask = board.mask.copy()
    free = np.flatnonzero(~mask.ravel())
    if free.size == 0:
        raise ValueError("the board is all mines: the first-click mine has nowhere to go")
    target = int(free[0])  # the first free cell in row-major order
    mask.flat[target] = True
    mask[first_click] = False
    return Board(mask)


def generate(width: int, height: int, mines: int, *, rules: str = "safe-cell",
             first_click: Cell | None = None, seed: int | None = None) -> Board:
    """Generate a mine layout, reproducibly from ``seed``.

    Parameters
    ----------
    width, height : int
        Board size; any positive size, not only the standard difficulties.
    mines : int
        Number of mines.
    rules : {"unsafe", "safe-cell", "safe-opening", "windows-xp", "no-guess"}
        How the first click is protected (see the module docstring).
    first_click : (row, col), optional
        Required by ``safe-cell`` and ``safe-opening``; with ``windows-xp`` the returned board is
        the one in play after the click (a mine under it has moved).
    seed : int, optional
        The same seed always gives the same board.

    Returns
    -------
    Board

    Raises
    ------
    ValueError
        If the mine count does not fit the board under the rule, the rule is unknown, or the
        first click is missing or off the board.

    Examples
    --------
    >>> board = generate(9, 9, 10, rules="safe-opening", first_click=(4, 4), seed=1)
    >>> board.mine_count, board.numbers[4, 4]
    (10, np.int8(0))
    >>> generate(9, 9, 10, first_click=(0, 0), seed=1) == generate(9, 9, 10, first_click=(0, 0), seed=1)
    True

    Notes
    -----
    O(width * height) time; the Fisher-Yates shuffle stops after ``mines`` swaps.
    """
    width, height, mines = board_size(width=width, height=height, mines=mines)
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}; choose one of {', '.join(RULES)}")
    cells = width * height
    if first_click is not None:
        _check_cell(first_click, width, height)
    elif rules in ("safe-cell", "safe-opening", "no-guess"):
        raise ValueError(f"rules {rules!r} need the first click")
    if rules == "no-guess":
        # Imported here: checking a layout plays it with the analysis engine, which the other
        # rules do not need.
        from msanalysis.noguess import generate_no_guess

        return generate_no_guess(width, height, mines, first_click=first_click, seed=seed)
    rng = random.Random(seed)

    if rules in ("unsafe", "windows-xp"):
        if mines > cells:
            raise ValueError(f"{mines} mines do not fit on a {width}x{height} board "
                             f"({cells} cells)")
        if rules == "windows-xp" and first_click is not None and mines == cells:
            raise ValueError(f"windows-xp needs a free cell for the first-click mine: at most "
                             f"{cells - 1} mines on {width}x{height}")
        chosen = rng.sample(range(cells), mines)
    elif rules == "safe-cell":
        row, col = first_click
        excluded = row * width + col
        if mines > cells - 1:
            raise ValueError(f"{mines} mines do not fit on a {width}x{height} board with the "
                             f"first click free: at most {cells - 1}")
        # Sample over the cells that are not the first click, then map the index past it.
        chosen = [i + (i >= excluded) for i in rng.sample(range(cells - 1), mines)]
    else:  # safe-opening
        row, col = first_click
        candidates = [r * width + c for r in range(height) for c in range(width)
                      if abs(r - row) > 1 or abs(c - col) > 1]
        if mines > len(candidates):
            raise ValueError(f"board too full for safe-opening: {mines} mines, but only "
                             f"{len(candidates)} cells lie outside the 3x3 block around the first "
                             f"click {first_click} on {width}x{height}")
        # Fisher-Yates, stopped after the first `mines` positions are drawn (seed 002).
        for i in range(mines):
            j = rng.randrange(i, len(candidates))
            candidates[i], candidates[j] = candidates[j], candidates[i]
        chosen = candidates[:mines]

    mask = np.zeros(cells, dtype=bool)
    mask[chosen] = True
    board = Board(mask.reshape(height, width))
    if rules == "windows-xp" and first_click is not None:
        board = windows_xp_move(board, first_click)
    return board


def _check_cell(cell: Cell, width: int, height: int) -> None:
    row, col = cell
    if not (0 <= row < height and 0 <= col < width):
        raise ValueError(f"cell ({row}, {col}) is off the {width}x{height} board "
                         f"(rows 0-{height - 1}, columns 0-{width - 1})")
