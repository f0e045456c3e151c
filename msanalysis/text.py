"""Text renderings for a terminal: grids with row and column numbers, and one-line summaries.

Every command of :mod:`msanalysis.cli` that shows a grid draws it here, so they all look alike;
the numbers are coloured like the classic game's on a terminal. Pictures are
:mod:`msanalysis.svg`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import typer

from msanalysis.board import Board, Cell, as_pair
from msanalysis.errors import (  # words for counts, the engine's messages' too
    InvalidInput,
    WrongType,
    check_flag,
    check_list,
    check_type,
    plural,
    quantity,
)
from msanalysis.exact import magnitude
from msanalysis.position import FLAG, MINE, Position

__all__ = [
    "board_rows",
    "cells_text",
    "layouts_summary",
    "marked_rows",
    "percent_grid",
    "percent_rows",
    "plural",
    "position_rows",
    "quantity",
    "render_grid",
]


# Classic number colours (1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black, 8 grey), as
# close as the 16 terminal colours get.
_CHAR_STYLE: dict[str, tuple[str, bool]] = {  # colour, bold
    "1": ("bright_blue", False), "2": ("green", False), "3": ("bright_red", False),
    "4": ("blue", False), "5": ("red", False), "6": ("cyan", False), "7": ("white", False),
    "8": ("bright_black", False), "*": ("bright_red", True), "F": ("bright_magenta", True),
    "?": ("bright_black", False), "S": ("bright_green", True), "M": ("bright_red", True),
}


def _styled(char: str) -> str:
    """One cell character in its colour (and bold for marks), when it has one."""
    style = _CHAR_STYLE.get(char)
    if style is None:
        return char
    colour, bold = style
    return typer.style(char, fg=colour, bold=bold)


def render_grid(rows: list[str], *, colour: bool = False) -> str:
    """Draw rows of one-character cells with column and row numbers, coloured on a terminal.

    A column's number is written downwards, one digit a line, above its cells.

    Examples
    --------
    >>> print(render_grid(["?1", "F."]))
      01
    0 ?1
    1 F.
    >>> print(render_grid(["." * 102]).splitlines()[0][-4:])
      11
    """
    _check_rows(rows, "render_grid")
    check_flag(colour, "colour")
    width = max(len(row) for row in rows)
    row_label = len(str(len(rows) - 1))
    lines = [" " * (row_label + 1) + "".join(digits)
             for digits in _column_digits(width, len(str(width - 1)))]
    for number, row in enumerate(rows):
        cells = "".join(_styled(ch) for ch in row) if colour else row
        lines.append(f"{number:>{row_label}} {cells}")
    return "\n".join(lines)


def position_rows(position: Position) -> list[str]:
    """A position's rows of cell characters, without its ``mines:`` header.

    >>> position_rows(Position.from_text("mines: 2\\n1??\\n1??\\n???"))
    ['1??', '1??', '???']
    """
    check_type(position, Position, "position_rows", "Position.from_text reads one")
    text = position.to_text().splitlines()
    return text[1:] if position.total_mines is not None else text


def board_rows(board: Board) -> list[str]:
    """A board as a player sees it at the end: ``*`` mines, ``.`` zeros, digits elsewhere.

    >>> board_rows(Board.from_text("*..\\n...\\n..*"))
    ['*1.', '121', '.1*']
    """
    check_type(board, Board, "board_rows", "Board.from_text reads one")
    return ["".join("*" if mine else (str(n) if n else ".") for mine, n in zip(mrow, nrow))
            for mrow, nrow in zip(board.mask.tolist(), board.numbers.tolist())]


def percent_rows(analysis: Any, position: Position) -> list[str]:
    """Three characters a cell: the mine probability of an undecided cell in whole percent
    (1-99), S / M for forced cells, F for a flag that counts as a mine, * for a shown mine and
    ``.`` for any revealed cell (its number is on the board above).

    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("mines: 2\\n1??\\n1??\\n???")
    >>> percent_rows(analyze(p), p)
    ['  . 50 33', '  . 50 33', '  S  S 33']
    """
    _check_analysis(analysis, position, "percent_rows")
    # Whole arrays at a time: a 3000x3000 position took 10 s cell by cell.
    states = position.states
    cells = np.full(states.shape, "  .", dtype="<U3")
    cells[states == FLAG] = "  F"
    cells[states == MINE] = "  *"
    unknown = position.unknown_mask(analysis.ignore_flags)
    percent = np.clip(np.rint(100 * np.where(unknown, analysis.probabilities, 0.0)), 1, 99)
    cells[unknown] = _PERCENT_TEXT[percent[unknown].astype(np.int64)]
    cells[_mask(analysis.forced_safe, states.shape)] = "  S"
    cells[_mask(analysis.forced_mines, states.shape)] = "  M"
    return ["".join(row) for row in cells.tolist()]


_PERCENT_TEXT = np.array([f"{value:>3}" for value in range(100)])
"""Whole percents as ``percent_rows`` writes them, three characters each."""


def _mask(cells: Iterable[Cell], shape: tuple[int, ...]) -> np.ndarray:
    """A boolean grid, True on ``cells``."""
    mask = np.zeros(shape, dtype=bool)
    found = np.array(list(cells), dtype=np.int64).reshape(-1, 2)
    mask[found[:, 0], found[:, 1]] = True
    return mask


def marked_rows(analysis: Any, position: Position) -> list[str]:
    """The position's rows with forced safe cells as ``S`` and forced mines as ``M``.

    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("1??\\n1??\\n11?")
    >>> marked_rows(analyze(p), p)
    ['1S?', '1MS', '11S']
    """
    _check_analysis(analysis, position, "marked_rows")
    rows = [list(row) for row in position_rows(position)]
    for r, c in analysis.forced_safe:
        rows[r][c] = "S"
    for r, c in analysis.forced_mines:
        rows[r][c] = "M"
    return ["".join(row) for row in rows]


def cells_text(cells: Iterable[Cell]) -> str:
    """How many cells, and the first twelve of them as ``row,col``.

    >>> cells_text([(2, 1), (0, 3)]), cells_text([]), cells_text((0, c) for c in range(13))
    ('2 (0,3 2,1)', '0', '13 (0,0 0,1 0,2 0,3 0,4 0,5 0,6 0,7 0,8 0,9 0,10 0,11 ...)')
    """
    check_list(cells, "cells_text takes a list of cells")
    cells = sorted(as_pair(cell) for cell in cells)
    shown = " ".join(f"{r},{c}" for r, c in cells[:12])
    return f"{len(cells)}" + (f" ({shown}{' ...' if len(cells) > 12 else ''})" if cells else "")


def percent_grid(rows: list[str]) -> str:
    """Rows of three-character cells with column and row numbers.

    >>> print(percent_grid(['  . 50 33', '  S  S 33']))
        0  1  2
    0   . 50 33
    1   S  S 33
    >>> print("\\n".join(line[-6:] for line in percent_grid(['  .' * 101]).splitlines()))
         1
     99 00
      .  .
    """
    _check_rows(rows, "percent_grid")
    width = len(rows[0]) // 3
    label = len(str(len(rows) - 1))
    # Two digits fit a cell; the digits of hundreds and up go on lines above, one a cell.
    places = max(len(str(width - 1)), 2)
    *high, tens, ones = _column_digits(width, places)
    gap = " " * width
    lines = [" " * (label + 1) + _interleaved(gap, gap, digits) for digits in high]
    lines.append(" " * (label + 1) + _interleaved(gap, tens, ones))
    lines += [f"{r:>{label}} {row}" for r, row in enumerate(rows)]
    return "\n".join(lines)


def _column_digits(width: int, places: int) -> list[str]:
    """Per decimal place, highest first, the digit of each column number from 0 to ``width`` -
    1 (a space where the number has no such digit: leading zeros are not written).

    Made of repeated strings, not digit by digit: a row of ten million cells is written in a
    second, where working out each column's digits took half a minute.

    >>> _column_digits(12, 2)
    ['          11', '012345678901']
    """
    lines = []
    for place in range(places - 1, -1, -1):
        step = 10 ** place
        cycle = "".join(digit * step for digit in "0123456789")  # columns 0 to 10 * step - 1
        line = (cycle * (width // len(cycle) + 1))[:width]
        lines.append(line if place == 0 else " " * min(step, width) + line[step:])
    return lines


def _interleaved(*lines: str) -> str:
    """The characters of equally long ASCII ``lines`` taken in turn, column by column.

    >>> _interleaved("   ", "012", "abc")
    ' 0a 1b 2c'
    """
    columns = [np.frombuffer(line.encode("ascii"), dtype=np.uint8) for line in lines]
    return np.stack(columns, axis=1).tobytes().decode("ascii")


def layouts_summary(result: Any) -> str:
    """One line: how many layouts, whether that is all of them, and uniqueness.

    Examples
    --------
    >>> from msanalysis.reconstruction import reconstruct
    >>> layouts_summary(reconstruct("1?1\\n111\\n000", rule="classic", limit=None))
    '1 layout, unique'
    >>> layouts_summary(reconstruct("1?\\n??", rule="classic", limit=2))
    'at least 2 layouts (stopped at the limit), not unique; the first:'
    """
    # Imported here: the command line's start would otherwise load OR-Tools, seconds of it.
    from msanalysis.reconstruction import Reconstruction

    check_type(result, Reconstruction, "layouts_summary", "reconstruct(grid) makes one")
    count = result.count
    if count == 0:
        return "no layout fits these numbers"
    if result.exhaustive:
        if count == 1:
            return "1 layout, unique"
        return f"{magnitude(count)} layouts, not unique; the first:"
    stopped = "stopped at the time limit" if result.timed_out else "stopped at the limit"
    uniqueness = "not unique" if result.unique is False else "uniqueness unknown"
    return (f"at least {magnitude(count)} {plural(count, 'layout')} ({stopped}), {uniqueness}; "
            "the first:")


def _check_rows(rows: Any, taker: str) -> None:
    """Refuse what is not a non-empty list of strings (rows of cells)."""
    if not isinstance(rows, (list, tuple)) or not rows or not all(
            isinstance(row, str) for row in rows):
        raise WrongType(f"{taker} takes a non-empty list of rows (strings), got {rows!r}")


def _check_analysis(analysis: Any, position: Any, taker: str) -> None:
    """Refuse what is not an analysis and a position of the same size."""
    from msanalysis.analysis import Analysis  # loaded by then: not at the command line's start

    check_type(analysis, Analysis, taker, "analyze(position) makes one")
    check_type(position, Position, taker, "Position.from_text reads one")
    if position.shape != analysis.position.shape:
        raise InvalidInput(f"{taker} takes a position of the analysis's size "
                           f"{analysis.position.shape}, got {position.shape}")
