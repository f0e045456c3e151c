"""Grids of numbers: the clues of a fully uncovered board, or of a puzzle with unknown clues.

A :class:`NumberGrid` holds a number per cell, or ``?`` for a cell without one, and the rule of
what a number counts: ``classic`` (the 8 neighbours) or ``mosaic`` (the 3x3 block including the
cell). Grids are read from our text (rows of digits and ``?``) and from Simon Tatham's Mosaic
game IDs (``10x10:a3a3a2c...``), and written back to both. Finding the layouts behind a grid is
:mod:`msanalysis.reconstruction`'s job, reasoning on it :mod:`msanalysis.gridlogic`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from msanalysis.board import (
    MAX_CELLS,
    Board,
    Cell,
    as_cell,
    check_cells,
    integer_grid,
    neighbour_counts,
    oversized,
)
from msanalysis.errors import (
    InvalidInput,
    ParseError,
    WrongType,
    a_name,
    check_list,
    check_type,
    quantity,
)
from msanalysis.files import lines_of, read_text

__all__ = ["RULES", "UNKNOWN", "NumberGrid", "puzzle_header", "read_with_header"]

RULES = ("classic", "mosaic")
"""Rule names: what a number counts (the 8 neighbours, or the 3x3 block including the cell)."""

UNKNOWN = -1
"""Clue value of a ``?`` cell in :attr:`NumberGrid.clues`."""

# The start of a Tatham Mosaic game ID, or of the random-seed form of one (10x10#123, 10x10h1#5).
_TATHAM_START = re.compile(r"[0-9]+x[0-9]+")  # ASCII digits, as in a position's header

_HEADER_START = "# msanalysis puzzle:"
# ASCII digits only ([0-9], not \d): int() would read other scripts' digits the grids refuse.
_HEADER = re.compile(r"# msanalysis puzzle: (?P<rule>classic|mosaic) "
                     r"(?P<width>[0-9]+)x(?P<height>[0-9]+), [0-9]+ of [0-9]+ clues, "
                     r"grade [0-9](?:, seed (?P<seed>[0-9]+))?$")


def puzzle_header(text: str) -> tuple[int, re.Match[str]] | None:
    """The header line a puzzle's text begins with (``msanalysis puzzle make`` writes it: the
    rule, the size, the clues, the grade, the seed), among the text's first comment lines,
    with its line number; None when there is none.

    Raises
    ------
    ParseError
        On a line that starts like a header and is not one.

    Examples
    --------
    >>> text = "# msanalysis puzzle: mosaic 2x1, 2 of 2 clues, grade 1\\n11"
    >>> number, header = puzzle_header(text)
    >>> number, header["rule"], header["width"]
    (1, 'mosaic', '2')
    """
    for number, line in enumerate(lines_of(text), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            return None
        header = _HEADER.match(line)
        if header:
            return number, header
        if line.startswith(_HEADER_START):
            raise ParseError("not a puzzle header: expected '# msanalysis puzzle: RULE WxH, "
                             "N of M clues, grade G[, seed S]', as puzzle make writes it",
                             line=number)
    return None


def read_with_header(text: str, *, rule: str | None = None,
                     default: str = "classic") -> tuple[NumberGrid, re.Match[str] | None]:
    """:meth:`NumberGrid.from_text`, and the puzzle header it read (None when there is none):
    the header is read once, for the rule and the size here and the seed by the caller.

    Examples
    --------
    >>> grid, header = read_with_header("# msanalysis puzzle: classic 2x1, 2 of 2 clues, "
    ...                                 "grade 1, seed 4\\n11")
    >>> grid.rule, header["seed"]
    ('classic', '4')
    """
    check_type(text, str, "read_with_header", "a grid's text")
    found = puzzle_header(text)
    if rule is None:
        rule = found[1]["rule"] if found is not None else default
    check_rule(rule)
    grid = NumberGrid._parse(text, rule)
    if found is None:
        return grid, None
    number, header = found
    size = (int(header["width"]), int(header["height"]))
    if size != (grid.width, grid.height):
        raise ParseError(f"the header says {size[0]}x{size[1]}, but the grid below it is "
                         f"{grid.width}x{grid.height}", line=number)
    return grid, header


def check_rule(rule: str) -> None:
    """Refuse a rule that is not one of :data:`RULES`.

    Examples
    --------
    >>> check_rule("mosaic")
    >>> check_rule("hex")
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: unknown rule 'hex' (expected one of: classic, mosaic)
    """
    if not isinstance(rule, str) or rule not in RULES:  # an array would be ambiguous
        raise InvalidInput(f"unknown rule {rule!r} (expected one of: {', '.join(RULES)})")


def counted_offsets(rule: str) -> list[tuple[int, int]]:
    """The cells a clue counts, as (row, col) offsets from the clue.

    Examples
    --------
    >>> len(counted_offsets("classic")), len(counted_offsets("mosaic"))
    (8, 9)
    """
    return [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if rule == "mosaic" or (dr, dc) != (0, 0)]


def capacity(height: int, width: int, rule: str) -> np.ndarray:
    """Largest number each cell can show: how many cells its clue counts (3 in a classic corner).

    Examples
    --------
    >>> capacity(2, 3, "classic").tolist(), capacity(2, 3, "mosaic").tolist()
    ([[3, 5, 3], [3, 5, 3]], [[4, 6, 4], [4, 6, 4]])
    """
    return neighbour_counts(np.ones((height, width), dtype=bool), include_self=rule == "mosaic")


def first_cell(mask: np.ndarray) -> Cell:
    """The first true cell of ``mask`` in reading order.

    Examples
    --------
    >>> first_cell(np.array([[False, False], [True, True]]))
    (1, 0)
    """
    row, col = np.argwhere(mask)[0]
    return int(row), int(col)


def clue_counts(mask: np.ndarray, rule: str) -> np.ndarray:
    """What every clue would read for the mine layout ``mask``.

    Examples
    --------
    >>> mask = np.array([[True, False, False]])
    >>> clue_counts(mask, "classic").tolist(), clue_counts(mask, "mosaic").tolist()
    ([[0, 1, 0]], [[1, 1, 0]])
    """
    return neighbour_counts(mask, include_self=rule == "mosaic")


class NumberGrid:
    """A grid of clues for reconstruction: a number per cell, or unknown (``?``).

    Parameters
    ----------
    clues : array_like of int or None, shape (height, width)
        The number each cell shows; ``None`` or ``-1`` where it is unknown.
    rule : {"classic", "mosaic"}
        What a number counts: the mines among the 8 neighbours (mine cells carry numbers too),
        or the mines in the 3x3 block including the cell itself.

    Raises
    ------
    ValueError
        On an unknown rule, an empty grid, or a number the rule cannot produce at its cell (a
        classic corner counts only 3 cells); the message names the cell.

    Examples
    --------
    >>> grid = NumberGrid.from_text("# two mines\\n121\\n?2?", rule="classic")
    >>> grid.width, grid.height, grid.rule
    (3, 2, 'classic')
    >>> grid[0, 1], grid[1, 0]
    (2, None)
    >>> print(grid.to_text())
    121
    ?2?
    >>> NumberGrid.from_board(Board.from_text("*..\\n..."), rule="mosaic").to_text()
    '110\\n110'
    """

    __slots__ = ("__dict__", "_clues", "_rule")

    def __init__(self, clues: np.ndarray | Iterable[Iterable[int | None]], *,
                 rule: str = "classic") -> None:
        check_rule(rule)
        if not isinstance(clues, np.ndarray):
            try:
                clues = [[UNKNOWN if v is None else v for v in row] for row in clues]
            except TypeError:
                raise WrongType(f"a number grid needs rows of numbers, got "
                                f"{a_name(type(clues).__name__)}") from None
            for row, values in enumerate(clues):
                for col, value in enumerate(values):
                    if isinstance(value, (bool, np.bool_)):  # numpy would read it as 0 or 1
                        raise WrongType(f"a number grid holds numbers (None for no clue), got "
                                        f"{value} at ({row}, {col})")
        array = integer_grid(clues, "a number grid")
        if array.dtype.kind == "b":
            raise WrongType("a number grid holds numbers (None for no clue), got booleans")
        height, width = array.shape
        bad = (array < UNKNOWN) | (array > capacity(height, width, rule))
        if bad.any():
            row, col = first_cell(bad)
            why = _impossible(int(array[row, col]), row, col, (height, width), rule)
            raise InvalidInput(f"cell ({row}, {col}): {why}")
        array = array.astype(np.int8)
        array.setflags(write=False)
        self._clues = array
        self._rule = rule

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, *, rule: str | None = None,
                  default: str = "classic") -> NumberGrid:
        """Parse rows of digits, ``?`` for an unknown clue; ``#`` lines are comments.

        The rule is ``rule`` when given; else the one named by a puzzle's header (see
        :func:`puzzle_header`); else ``default``. Text whose first line (after comments) starts
        with ``WxH`` is read as a Tatham Mosaic game ID instead (see :meth:`from_tatham`), always
        under the mosaic rule, whatever ``rule`` says: the ID's game decides what its numbers
        count.

        Raises
        ------
        ParseError
            On an empty grid, ragged rows, another character, a number the rule cannot produce
            at its cell (the message names the line and column), or a puzzle header whose size
            is not the grid's (it belongs to another puzzle).

        Examples
        --------
        >>> NumberGrid.from_text("9", rule="classic")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        msanalysis.errors.ParseError: line 1, column 1: 9 is impossible under the classic rule:
        this cell's number counts 0 cells
        >>> NumberGrid.from_text("# from sgt-mosaic\\n4x3:2a213a3222a1", rule="classic").rule
        'mosaic'
        >>> NumberGrid.from_text("# msanalysis puzzle: mosaic 2x1, 2 of 2 clues, grade 1\\n22").rule
        'mosaic'
        """
        check_type(text, str, "NumberGrid.from_text", "a grid's text; NumberGrid.load reads a "
                   "file")
        return read_with_header(text, rule=rule, default=default)[0]

    @classmethod
    def _parse(cls, text: str, rule: str) -> NumberGrid:
        """:meth:`from_text` under ``rule``, the header aside."""
        rows: list[Any] = []  # lists for short rows (see _SHORT_ROW), arrays for long ones
        where: list[tuple[int, int]] = []  # (line, column of the first cell) of each row
        lines = lines_of(text)
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not rows and _TATHAM_START.match(line):
                return cls._from_tatham_lines(lines, number)
            first = len(raw) - len(raw.lstrip()) + 1
            row: list[int] | np.ndarray | None = _short_row(line)
            if row is None:
                row = _long_row(line, number, first)
            if rows and len(row) != len(rows[0]):
                raise ParseError(f"row has {quantity(len(row), 'cell')}, the first row has "
                                 f"{len(rows[0])}",
                                 line=number, column=first + min(len(row), len(rows[0])))
            rows.append(row)
            where.append((number, first))
            check_cells(len(rows) * len(row), number)
        if not rows:
            raise ParseError("empty number grid: expected rows of digits and '?'")
        array = np.array(rows, dtype=np.int16)
        height, width = array.shape
        bad = array > capacity(height, width, rule)
        if bad.any():
            r, c = first_cell(bad)
            line_number, first = where[r]
            raise ParseError(_impossible(int(array[r, c]), r, c, (height, width), rule),
                             line=line_number, column=first + c)
        return cls(array, rule=rule)

    @classmethod
    def from_board(cls, board: Board, *, rule: str = "classic") -> NumberGrid:
        """The grid a layout shows when every cell is uncovered (mine cells included)."""
        check_type(board, Board, "NumberGrid.from_board", "Board.from_text reads one")
        check_rule(rule)
        return cls(clue_counts(board.mask, rule), rule=rule)

    @classmethod
    def from_tatham(cls, game_id: str) -> NumberGrid:
        """Read a Mosaic game ID of Simon Tatham's Portable Puzzle Collection (``sgt-mosaic``).

        An ID is ``WxH:`` (width, then height) and the cells row by row from the top left: a digit
        is a clue, a letter a run of cells without one (``a`` one cell ... ``z`` 26). The game's
        numbers count the 3x3 block including the cell, so the grid's rule is ``mosaic``.

        Raises
        ------
        ParseError
            On a malformed size, a random seed instead of an ID, another character, too many or
            too few cells, or a clue the cell cannot show; the message gives the column of the
            offending character in the ID.

        Examples
        --------
        >>> grid = NumberGrid.from_tatham("4x3:2a213a3222a1")
        >>> grid.rule, grid.width, grid.height
        ('mosaic', 4, 3)
        >>> print(grid.to_text())
        2?21
        3?32
        22?1
        >>> NumberGrid.from_tatham("4x3:2a213a3222a1b")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        msanalysis.errors.ParseError: line 1, column 17: the ID describes more than the 12 cells
        of a 4x3 grid
        """
        check_type(game_id, str, "NumberGrid.from_tatham", "an ID such as '4x3:2a213a3222a1'")
        lines = lines_of(game_id) or [""]
        for number, raw in enumerate(lines, start=1):
            if raw.strip() and not raw.strip().startswith("#"):
                return cls._from_tatham_lines(lines, number)
        raise ParseError("empty Tatham Mosaic ID: expected WxH: and the clues")

    @classmethod
    def _from_tatham_lines(cls, lines: list[str], number: int) -> NumberGrid:
        """The ID on line ``number`` (1-based) of ``lines``; the lines after it must be comments."""
        raw = lines[number - 1]
        for later, extra in enumerate(lines[number:], start=number + 1):
            if extra.strip() and not extra.strip().startswith("#"):
                raise ParseError("text after the Tatham Mosaic ID (one ID per file)", line=later,
                                 column=len(extra) - len(extra.lstrip()) + 1)
        first = len(raw) - len(raw.lstrip()) + 1
        clues = _parse_tatham(raw.strip(), number, first)
        return cls(clues, rule="mosaic")

    def to_tatham(self) -> str:
        """This grid as a Tatham Mosaic game ID; the inverse of :meth:`from_tatham`.

        Runs of more than 26 cells without a clue are written as several letters (``z`` then the
        rest), which the game reads back as one run. The game itself takes grids from 3x3 up to
        10,000 cells.

        Raises
        ------
        InvalidInput
            For a classic grid: the game's numbers count the cell itself too.

        Examples
        --------
        >>> NumberGrid.from_text("2?21\\n3?32\\n22?1", rule="mosaic").to_tatham()
        '4x3:2a213a3222a1'
        """
        if self._rule != "mosaic":
            raise InvalidInput("Tatham's Mosaic IDs are for the mosaic rule (a number counts its "
                             f"3x3 block), not {self._rule}")
        parts = [f"{self.width}x{self.height}:"]
        run = 0
        for value in self._clues.ravel().tolist():
            if value == UNKNOWN:
                run += 1
                continue
            parts.append(_run_letters(run))
            run = 0
            parts.append(str(value))
        parts.append(_run_letters(run))
        return "".join(parts)

    @classmethod
    def load(cls, path: str | Path, *, rule: str | None = None,
             default: str = "classic") -> NumberGrid:
        """Read a number grid file (``-``: standard input) as :meth:`from_text` reads text;
        parse errors name the file, line and column."""
        text = read_text(path)
        try:
            return cls.from_text(text, rule=rule, default=default)
        except ParseError as error:
            raise error.in_file(str(path)) from None

    def to_text(self) -> str:
        """Rows of digits and ``?``, no trailing newline; the inverse of :meth:`from_text`."""
        return "\n".join("".join("?" if v == UNKNOWN else str(v) for v in row)
                         for row in self._clues.tolist())

    def with_unknown(self, cells: Iterable[Cell]) -> NumberGrid:
        """A copy with the clues of ``cells`` made unknown (``?``).

        Examples
        --------
        >>> NumberGrid.from_text("11\\n11").with_unknown([(0, 0)]).to_text()
        '?1\\n11'
        """
        check_list(cells, "with_unknown takes a list of cells")
        array = self._clues.copy()
        for cell in cells:
            array[as_cell(cell, *array.shape)] = UNKNOWN
        return NumberGrid(array, rule=self._rule)

    # -- basic facts --------------------------------------------------------------------------
    @property
    def clues(self) -> np.ndarray:
        """Read-only int8 array of the numbers, ``-1`` where a clue is unknown."""
        return self._clues

    @property
    def rule(self) -> str:
        return self._rule

    @property
    def height(self) -> int:
        return self._clues.shape[0]

    @property
    def width(self) -> int:
        return self._clues.shape[1]

    def __getitem__(self, cell: Cell) -> int | None:
        value = int(self._clues[as_cell(cell, *self._clues.shape)])
        return None if value == UNKNOWN else value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NumberGrid):
            return NotImplemented
        return self._rule == other._rule and self._clues.shape == other._clues.shape \
            and bool(np.array_equal(self._clues, other._clues))

    def __hash__(self) -> int:
        return hash((self._rule, self._clues.shape, self._clues.tobytes()))

    def __repr__(self) -> str:
        return f"NumberGrid.from_text({self.to_text()!r}, rule={self._rule!r})"

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures
        return svg.board(self)


def _impossible(value: int, row: int, col: int, shape: tuple[int, int], rule: str) -> str:
    if value < UNKNOWN:
        return f"{value} is not a number a cell can show"
    limit = int(capacity(shape[0], shape[1], rule)[row, col])
    return (f"{value} is impossible under the {rule} rule: this cell's number counts "
            f"{limit} cell{'s' if limit != 1 else ''}")


def _run_letters(run: int) -> str:
    """A run of ``run`` cells without a clue in a Tatham ID: ``z`` per 26 cells, then the rest."""
    return "z" * (run // 26) + (chr(ord("a") + run % 26 - 1) if run % 26 else "")


_SHORT_ROW = 16
"""Rows of at most this many cells are read in Python, longer ones with numpy (measured: a grid
one cell wide and a million rows tall took 7.2 s with numpy on every row)."""

_CELL_VALUES = {"?": UNKNOWN, **{str(n): n for n in range(10)}}


def _long_row(line: str, number: int, first: int) -> np.ndarray:
    """The clues of a row, checked with numpy: a 1000x1000 grid is a million characters, too
    many for a per-character Python loop. ``number`` and ``first`` place it in the text."""
    codes = np.frombuffer(line.encode("utf-32-le"), dtype=np.uint32)
    unknown = codes == ord("?")
    wrong = ~(unknown | ((codes >= ord("0")) & (codes <= ord("9"))))
    if wrong.any():
        offset = int(np.argmax(wrong))
        raise ParseError(f"unknown character {line[offset]!r} in a number grid (expected a digit "
                         "or '?')", line=number, column=first + offset)
    return np.where(unknown, UNKNOWN, codes.astype(np.int16) - ord("0"))


def _short_row(line: str) -> list[int] | None:
    """The clues of a row of at most :data:`_SHORT_ROW` cells, or None (a longer row, or one
    with a character that is no cell, which the numpy reading names)."""
    if len(line) > _SHORT_ROW:
        return None
    try:
        return [_CELL_VALUES[char] for char in line]
    except KeyError:
        return None


def _parse_tatham(game_id: str, line: int, first: int) -> np.ndarray:
    """The clues of a Tatham Mosaic ID (-1 where none); ``first`` is the ID's column on ``line``.

    Checked with numpy, not character by character: a 1000x1000 ID has up to a million of them.
    """
    size = _TATHAM_START.match(game_id)
    if size is None:
        raise ParseError("a Tatham Mosaic ID starts with WxH: (width x height)", line=line,
                         column=first)
    if any(oversized(v) for v in size.group(0).split("x")):
        raise ParseError(f"a Tatham Mosaic ID's size is larger than any board (at most "
                         f"{MAX_CELLS} cells)", line=line, column=first)
    width, height = (int(v) for v in size.group(0).split("x"))
    end = size.end()
    if end == len(game_id) or game_id[end] != ":":
        found = "the end" if end == len(game_id) else repr(game_id[end])
        what = "a random seed, not a game ID (it has no clues)" if found != "the end" \
            and game_id[end] in "#h" else f"expected ':' after the size, found {found}"
        raise ParseError(what, line=line, column=first + end)
    if width == 0 or height == 0:
        raise ParseError(f"a Tatham Mosaic ID needs a positive size, got {width}x{height}",
                         line=line, column=first)
    check_cells(width * height, line)
    body = game_id[end + 1:]
    start = first + end + 1  # column of the first character after ':'
    codes = np.frombuffer(body.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    digit = (codes >= ord("0")) & (codes <= ord("9"))
    letter = (codes >= ord("a")) & (codes <= ord("z"))
    wrong = ~(digit | letter)
    if wrong.any():
        offset = int(np.argmax(wrong))
        raise ParseError(f"unknown character {body[offset]!r} in a Tatham Mosaic ID (expected a "
                         "digit 0-9 for a clue or a letter a-z for a run of 1-26 cells without "
                         "one)", line=line, column=start + offset)
    cells = width * height
    lengths = np.where(digit, 1, codes - ord("a") + 1)
    reached = np.cumsum(lengths)
    if reached.size and reached[-1] > cells:
        offset = int(np.argmax(reached > cells))
        raise ParseError(f"the ID describes more than the {cells} cells of a {width}x{height} "
                         "grid", line=line, column=start + offset)
    if not reached.size or reached[-1] < cells:
        got = int(reached[-1]) if reached.size else 0
        raise ParseError(f"the ID describes {got} cell{'s' if got != 1 else ''}, a "
                         f"{width}x{height} grid has {cells}",
                         line=line, column=start + len(body))
    values = np.where(digit, codes - ord("0"), UNKNOWN)
    clues = np.repeat(values, lengths).reshape(height, width)
    bad = clues > capacity(height, width, "mosaic")
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        offset = int(np.searchsorted(reached, row * width + col + 1))  # the digit's character
        raise ParseError(f"cell ({row}, {col}): " + _impossible(int(clues[row, col]), row, col,
                                                                  clues.shape, "mosaic"),
                         line=line, column=start + offset)
    return clues
