"""What a player sees: hidden cells, flags, revealed numbers, and the total mine count.

A :class:`Position` is an immutable value with a canonical text form (the README's "Formats"):

```
# optional comments
mines: 10          (optional header; the total number of mines)
??1.
?F2.
```

``?`` hidden, ``F`` flag, ``.`` or ``0`` a revealed zero, ``1``-``8`` a revealed number, ``*`` a
mine shown (a lost game). JSMinesweeper's ``.mine`` files (a first line ``WxHxM``, then rows of
``H`` hidden, ``F`` flag, or a digit) load too. The analysis of a position lives in
:mod:`msanalysis.analysis`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import numpy as np

from msanalysis.board import MAX_CELLS, Cell, as_cell, as_int, check_cells, integer_grid, oversized
from msanalysis.errors import (
    InvalidInput,
    ParseError,
    check_flag,
    check_type,
    mines_do_not_fit,
    quantity,
)
from msanalysis.files import lines_of, read_text, write_file

__all__ = ["FLAG", "HIDDEN", "MINE", "Position"]

HIDDEN = -1
"""Cell state of a covered cell."""
FLAG = -2
"""Cell state of a flagged (covered) cell."""
MINE = -3
"""Cell state of a mine shown after a lost game."""

_CHAR_TO_STATE = {"?": HIDDEN, "F": FLAG, "*": MINE, ".": 0, **{str(n): n for n in range(9)}}
_STATE_TO_CHAR = {HIDDEN: "?", FLAG: "F", MINE: "*", 0: ".", **{n: str(n) for n in range(1, 9)}}
_MINE_HEADER = re.compile(r"^\s*([0-9]+)\s*x\s*([0-9]+)\s*x\s*([0-9]+)\s*$")
_HEADER = re.compile(r"^mines\s*:\s*([0-9]+)$", re.IGNORECASE)


class Position:
    """A Minesweeper position as the player sees it.

    Parameters
    ----------
    states : array_like of int, shape (height, width)
        Per cell: ``HIDDEN`` (-1), ``FLAG`` (-2), ``MINE`` (-3, a shown mine) or the revealed
        number 0-8.
    total_mines : int or None
        The total number of mines on the board, flags included; None when unknown.

    Examples
    --------
    >>> p = Position.from_text("mines: 2\\n?1.\\n?1.")
    >>> p.width, p.height, p.total_mines
    (3, 2, 2)
    >>> sorted(p.hidden)
    [(0, 0), (1, 0)]
    >>> p.number((0, 1))
    1
    >>> Position.from_text(p.to_text()) == p
    True
    """

    __slots__ = ("__dict__", "_states", "_total_mines")

    def __init__(self, states: np.ndarray | list[list[int]],
                 total_mines: int | None = None) -> None:
        values = integer_grid(states, "a position")
        bad = (values < MINE) | (values > 8)
        if bad.any():
            row, col = (int(i) for i in np.argwhere(bad)[0])
            raise InvalidInput(f"cell states must be HIDDEN (-1), FLAG (-2), MINE (-3) or a "
                               f"number 0-8, got {values[row, col]} at ({row}, {col})")
        array = values.astype(np.int8)
        if total_mines is not None:
            total_mines = as_int(total_mines, "the mine count")
            if total_mines < 0:
                raise InvalidInput(f"the mine count cannot be negative, got {total_mines}")
            if total_mines > array.size:
                raise InvalidInput(mines_do_not_fit(total_mines, quantity(array.size, "cell")))
        array.setflags(write=False)
        self._states = array
        self._total_mines = total_mines

    # -- text -----------------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, *, total_mines: int | None = None) -> Position:
        """Parse the canonical text form.

        Parameters
        ----------
        text : str
        total_mines : int, optional
            Overrides the ``mines:`` header.

        Raises
        ------
        ParseError
            Naming the line and column of ragged rows, unknown characters, numbers above 8, a bad
            or repeated header, an empty input, or more shown mines than the mine count. (More
            flags than mines is a position: a flag is wrong, which the analysis reports, or
            flags are ignored.)

        Examples
        --------
        >>> Position.from_text("?F\\n12").flags
        frozenset({(0, 1)})
        """
        check_type(text, str, "Position.from_text", "a position's text; Position.load reads a "
                   "file")
        header_mines = None
        header_line = None
        rows: list[list[int]] = []
        width = None
        lines = lines_of(text)
        first_row_line = None
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.lower().startswith("mines"):
                if rows:
                    raise ParseError("the 'mines:' header must come before the rows", line=number)
                if header_line is not None:
                    raise ParseError(f"a second 'mines:' header (the first is on line "
                                     f"{header_line})", line=number)
                header = _HEADER.match(line)
                if header is None:
                    raise ParseError(f"bad header {line!r}: expected 'mines: N' with N in "
                                     "digits 0-9", line=number)
                if oversized(header.group(1)):
                    raise ParseError(f"'mines:' {header.group(1)[:20]}... is more mines than "
                                     f"any board holds (at most {MAX_CELLS} cells)", line=number)
                header_mines, header_line = int(header.group(1)), number
                continue
            row = []
            for column, char in enumerate(line, start=1):
                state = _CHAR_TO_STATE.get(char)
                if state is None:
                    if char == "9":
                        reason = "a number above 8 cannot appear in a position"
                    else:
                        reason = (f"unknown character {char!r} (expected '?', 'F', '*', '.', "
                                  "or a digit 0-8)")
                    raise ParseError(reason, line=number, column=column)
                row.append(state)
            if width is None:
                width = len(row)
                first_row_line = number
            elif len(row) != width:
                raise ParseError(f"row has {len(row)} cells, but the row on line {first_row_line} "
                                 f"has {width}", line=number, column=min(len(row), width) + 1)
            rows.append(row)
            check_cells(len(rows) * width, number)
        if not rows:
            raise ParseError("empty position: expected rows of '?', 'F', '.' and digits")
        mines = header_mines if total_mines is None else as_int(total_mines, "total_mines")
        states = np.array(rows, dtype=np.int8)
        if mines is not None:
            if mines < 0:
                raise ParseError(f"the mine count cannot be negative, got {mines}")
            if mines > states.size:
                raise ParseError(mines_do_not_fit(mines, quantity(states.size, "cell")))
            shown = int(np.count_nonzero(states == MINE))
            if shown > mines:
                raise ParseError(f"{quantity(shown, 'shown mine')}, more than the "
                                 f"{quantity(mines, 'mine')} on the board")
        return cls(states, mines)

    def to_text(self) -> str:
        """The canonical text form, ``mines:`` header included when the count is known."""
        body = "\n".join("".join(_STATE_TO_CHAR[s] for s in row) for row in self._states.tolist())
        if self._total_mines is None:
            return body
        return f"mines: {self._total_mines}\n{body}"

    @classmethod
    def from_mine(cls, text: str, *, total_mines: int | None = None) -> Position:
        """Parse a JSMinesweeper ``.mine`` position: ``WxHxM``, then rows of ``H``, ``F``, digits.

        Examples
        --------
        >>> Position.from_mine("3x2x1\\nH10\\nH10").to_text()
        'mines: 1\\n?1.\\n?1.'
        """
        check_type(text, str, "Position.from_mine", "a .mine file's text; Position.load reads "
                   "a file")
        lines = lines_of(text)
        if not lines or not lines[0].strip():
            raise ParseError("empty .mine file: expected a first line WxHxM", line=1)
        header = _MINE_HEADER.match(lines[0])
        if header is None:
            raise ParseError(f"bad .mine header {lines[0].strip()!r}: expected WxHxM such as "
                             "30x16x99", line=1)
        if any(oversized(group) for group in header.groups()):
            raise ParseError(f"the header's numbers are larger than any board (at most "
                             f"{MAX_CELLS} cells)", line=1)
        width, height, mines = (int(group) for group in header.groups())
        check_cells(width * height, 1)
        if width == 0 or height == 0:
            raise ParseError(f"the header gives an empty board ({width}x{height})", line=1)
        rows: list[list[int]] = []
        for number, raw in enumerate(lines[1:], start=2):
            line = raw.strip()
            if not line:
                continue
            if len(rows) == height:
                raise ParseError(f"more than the {height} rows the header gives", line=number)
            if len(line) != width:
                raise ParseError(f"row has {len(line)} cells, the header gives {width}",
                                 line=number, column=min(len(line), width) + 1)
            row = []
            for column, char in enumerate(line, start=1):
                if char in "Hh":
                    row.append(HIDDEN)
                elif char in "Ff":
                    row.append(FLAG)
                elif char in "012345678":  # ASCII only: str.isdigit takes any script's digits
                    row.append(int(char))
                else:
                    reason = ("a number above 8 cannot appear in a position" if char == "9" else
                              f"unknown character {char!r} (expected 'H', 'F' or a digit 0-8)")
                    raise ParseError(reason, line=number, column=column)
            rows.append(row)
        if len(rows) != height:
            raise ParseError(f"the header gives {height} rows, the file has {len(rows)}")
        mines = mines if total_mines is None else as_int(total_mines, "total_mines")
        if mines < 0:
            raise ParseError(f"the mine count cannot be negative, got {mines}")
        if mines > width * height:
            raise ParseError(mines_do_not_fit(mines, quantity(width * height, "cell")), line=1)
        return cls(rows, mines)

    @classmethod
    def load(cls, path: str | Path, *, total_mines: int | None = None) -> Position:
        """Read a position file: canonical text, or a JSMinesweeper ``.mine`` file.

        The format is chosen by the extension ``.mine`` or by a ``WxHxM`` first line.

        Raises
        ------
        ParseError
            Naming the file as well as the line and column.
        OSError
            When the file cannot be read.
        """
        text = read_text(path)  # first: it checks that ``path`` is one
        return cls.from_file_text(text, path, total_mines=total_mines)

    @classmethod
    def from_file_text(cls, text: str, path: str | Path, *,
                       total_mines: int | None = None) -> Position:
        """:meth:`load` of the text already read from ``path`` (which names the file in errors
        and, by the ending ``.mine``, may say its format).

        Examples
        --------
        >>> Position.from_file_text("3x2x1\\nH10\\nH10", "p.mine").to_text()
        'mines: 1\\n?1.\\n?1.'
        >>> Position.from_file_text("?1\\n", "p.txt").to_text()
        '?1'
        """
        first = next((line for line in lines_of(text) if line.strip()), "")
        try:
            if Path(path).suffix.lower() == ".mine" or _MINE_HEADER.match(first):
                return cls.from_mine(text, total_mines=total_mines)
            return cls.from_text(text, total_mines=total_mines)
        except ParseError as error:
            raise error.in_file(str(path)) from None

    def save(self, path: str | Path) -> None:
        """Write the canonical text form to ``path``."""
        write_file(path, self.to_text() + "\n")

    # -- facts ----------------------------------------------------------------------------------
    @property
    def states(self) -> np.ndarray:
        """Read-only int8 array of cell states (see the module constants)."""
        return self._states

    @property
    def height(self) -> int:
        return self._states.shape[0]

    @property
    def width(self) -> int:
        return self._states.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        return self._states.shape

    @property
    def total_mines(self) -> int | None:
        return self._total_mines

    def with_total_mines(self, total_mines: int | None) -> Position:
        """A copy of this position with another total mine count."""
        return Position(self._states, total_mines)

    def state(self, cell: Cell) -> int:
        return int(self._states[as_cell(cell, *self._states.shape)])

    def number(self, cell: Cell) -> int | None:
        """The revealed number at ``cell``, or None when the cell shows no number."""
        value = self.state(cell)
        return value if value >= 0 else None

    def unknown_mask(self, ignore_flags: bool = False) -> np.ndarray:
        """Where the cells' contents are unknown: hidden cells, and flags when they are ignored
        (counted, a flag is a mine).

        Examples
        --------
        >>> p = Position.from_text("F?1")
        >>> p.unknown_mask().tolist(), p.unknown_mask(ignore_flags=True).tolist()
        ([[False, True, False]], [[True, True, False]])
        """
        check_flag(ignore_flags, "ignore_flags")
        states = self._states
        return (states == HIDDEN) | (states == FLAG) if ignore_flags else states == HIDDEN

    def mine_mask(self, ignore_flags: bool = False) -> np.ndarray:
        """Where mines are known: shown mines, and flags unless they are ignored.

        Examples
        --------
        >>> p = Position.from_text("F?1")
        >>> p.mine_mask().tolist(), p.mine_mask(ignore_flags=True).tolist()
        ([[True, False, False]], [[False, False, False]])
        """
        check_flag(ignore_flags, "ignore_flags")
        states = self._states
        return states == MINE if ignore_flags else (states == MINE) | (states == FLAG)

    def _cells(self, mask: np.ndarray) -> frozenset[Cell]:
        rows, cols = np.nonzero(mask)
        return frozenset(zip(rows.tolist(), cols.tolist()))

    @cached_property
    def hidden(self) -> frozenset[Cell]:
        """Covered cells without a flag."""
        return self._cells(self._states == HIDDEN)

    @cached_property
    def flags(self) -> frozenset[Cell]:
        return self._cells(self._states == FLAG)

    @cached_property
    def shown_mines(self) -> frozenset[Cell]:
        return self._cells(self._states == MINE)

    @cached_property
    def revealed(self) -> frozenset[Cell]:
        """Cells showing a number (zero included)."""
        return self._cells(self._states >= 0)

    @property
    def is_lost(self) -> bool:
        """True when a mine is shown: the game ended with a click on a mine."""
        return bool((self._states == MINE).any())

    def cells(self) -> Iterator[Cell]:
        """Every cell, row-major."""
        for row in range(self.height):
            for col in range(self.width):
                yield (row, col)

    # -- value semantics ------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self._total_mines == other._total_mines
                and self._states.shape == other._states.shape
                and bool(np.array_equal(self._states, other._states)))

    def __hash__(self) -> int:
        return hash((self._total_mines, self._states.shape, self._states.tobytes()))

    def __repr__(self) -> str:
        body = "\n".join("".join(_STATE_TO_CHAR[s] for s in row) for row in self._states.tolist())
        if self._total_mines is None:
            return f"Position.from_text({body!r})"
        return f"Position.from_text({body!r}, total_mines={self._total_mines})"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures

        return svg.board(self)
