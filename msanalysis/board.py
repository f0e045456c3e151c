"""Mine layouts and the metrics players compute from them.

A :class:`Board` is an immutable ``height x width`` grid of booleans (``True`` = mine) with the
numbers derived from it, read and written as layout text or as binary MBF. It knows nothing about
play (see :mod:`msanalysis.game`) or about how it was generated (see :mod:`msanalysis.rules`).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from msanalysis.errors import IllegalMove, InvalidInput, ParseError, WrongType, a_name, check_type
from msanalysis.files import decode_text, lines_of, read_bytes, text_of_layout_file

__all__ = ["MAX_CELLS", "Board", "Cell", "as_cell", "as_count", "as_int", "as_pair", "cell_table",
           "check_cells", "check_mask", "check_size", "integer_grid", "label_regions",
           "neighbour_counts", "neighbours", "oversized", "repeated_bits"]

Cell = tuple[int, int]

_OFFSETS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

MAX_CELLS = 10_000_000
"""The most cells a board or position may have: a 3,162 x 3,162 square. A game keeps a few bytes
per cell, an analysis a few hundred per unknown cell; past this the toolkit refuses a size
instead of running out of memory."""


def oversized(digits: str) -> bool:
    """Whether a size or count written in ``digits`` is more than any board can hold.

    Such text is refused before it is read as a number: Python will not convert more than
    4,300 digits, and no count on a board has more digits than :data:`MAX_CELLS`.

    >>> oversized("99"), oversized("0099"), oversized("1" * 5000)
    (False, False, True)
    """
    return len(digits.lstrip("0")) > len(str(MAX_CELLS))


def label_regions(mask: np.ndarray, *, diagonal: bool = True) -> tuple[np.ndarray, int]:
    """Label the 8-connected regions of ``mask`` (4-connected without ``diagonal``): (labels,
    count), 0 outside; regions are numbered 1, 2, ... in the row-major order of their first
    cell.

    The work is on runs of cells along rows, not on cells: the runs of each row are joined to
    the runs of the row above that they touch (union-find), so a board of millions of cells
    with one opening is a few thousand runs.

    Examples
    --------
    >>> labels, count = label_regions(np.array([[1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 1, 0]],
    ...                                         dtype=bool))
    >>> count
    3
    >>> labels
    array([[1, 1, 0, 0],
           [0, 0, 0, 2],
           [3, 0, 2, 0]], dtype=int32)
    >>> label_regions(np.array([[1, 0], [0, 1]], dtype=bool), diagonal=False)[1]
    2
    """
    height, width = mask.shape
    edges = np.diff(np.pad(mask, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    run_rows, run_starts = np.nonzero(edges == 1)
    run_ends = np.nonzero(edges == -1)[1]  # past the last cell; runs are row-major
    runs = len(run_rows)
    parent = list(range(runs))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    rows, starts, ends = run_rows.tolist(), run_starts.tolist(), run_ends.tolist()
    corner = 0 if diagonal else 1  # runs that meet at a corner only touch with diagonals
    above_first = above_end = row_first = j = 0  # the runs of the row above: [first, end)
    for i in range(runs):
        if i == 0 or rows[i] != rows[i - 1]:  # a new row; the row before it is above it or not
            joined = i > 0 and rows[i - 1] == rows[i] - 1
            above_first, above_end = (row_first, i) if joined else (i, i)
            row_first, j = i, above_first
        # Runs above that end before this one begins (diagonals included) touch no later run
        # of this row either; of the rest, those that begin by its end touch it.
        while j < above_end and ends[j] < starts[i] + corner:
            j += 1
        k = j
        while k < above_end and starts[k] <= ends[i] - corner:
            a, b = root(i), root(k)
            if a != b:
                parent[max(a, b)] = min(a, b)  # the earlier run is the root
            k += 1
    roots = [root(i) for i in range(runs)]
    # Roots are each region's first run, row-major: number the regions in that order.
    number: dict[int, int] = {}
    for r in roots:
        number.setdefault(r, len(number) + 1)
    labels = np.zeros(height * width, dtype=np.int32)
    lengths = run_ends - run_starts
    first = run_rows * width + run_starts
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    labels[np.repeat(first, lengths) + offsets] = np.repeat(
        np.array([number[r] for r in roots], dtype=np.int32), lengths)
    return labels.reshape(height, width), len(number)


def check_cells(cells: int, line: int | None = None) -> None:
    """Refuse text that already holds more than :data:`MAX_CELLS` cells, as it is read.

    Raises
    ------
    ParseError
        Naming the line reached.

    Examples
    --------
    >>> check_cells(480)
    >>> check_cells(MAX_CELLS + 1, line=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    msanalysis.errors.ParseError: line 3: more than 10000000 cells: larger than any board ...
    """
    if cells > MAX_CELLS:
        raise ParseError(f"more than {MAX_CELLS} cells: larger than any board the toolkit "
                         "holds", line=line)


def as_int(value: Any, what: str) -> int:
    """``value`` as a Python int: an int or a numpy integer. A float, even a whole one, a
    string or a bool (an int to Python, a mistake here) is refused rather than rounded or read.

    Examples
    --------
    >>> as_int(np.int64(99), "the mine count")
    99
    >>> as_int(1.9, "the mine count")
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: the mine count must be a whole number (an int), got 1.9
    """
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        return operator.index(value)
    except TypeError:
        raise InvalidInput(f"{what} must be a whole number (an int), got {value!r}") from None


def as_count(value: Any, what: str, least: int = 0, most: int | None = None) -> int:
    """``value`` as an int (see :func:`as_int`) from ``least`` up, and at most ``most`` when
    given: a count, a budget, a seed.

    Examples
    --------
    >>> as_count(3, "candidates", 1)
    3
    >>> as_count(0, "candidates", 1)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: candidates is a whole number from 1 up, got 0
    >>> as_count(10**6, "drawn_layouts", 1, 100_000)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: drawn_layouts is a whole number from 1 to 100,000, got 1000000
    """
    count = as_int(value, what)
    if count < least or (most is not None and count > most):
        upper = "up" if most is None else f"to {most:,}"
        raise InvalidInput(f"{what} is a whole number from {least} {upper}, got "
                           f"{number_shown(count)}")
    return count


def number_shown(value: int) -> str:
    """``value`` as a message shows it: written out, unless it has more than 40 digits (Python
    refuses to write one of more than 4,300, and no reader wants one of 400).

    Examples
    --------
    >>> number_shown(123), number_shown(-10**50)
    ('123', '-(a number of more than 40 digits)')
    """
    if abs(value) < 10**40:
        return str(value)
    return f"{'-' if value < 0 else ''}(a number of more than 40 digits)"


def as_pair(cell: Any, error: type[InvalidInput | IllegalMove] = InvalidInput) -> Cell:
    """``cell`` as a ``(row, col)`` pair of ints, wherever it is; anything else raises
    ``error`` (see :func:`as_cell`, which also wants it on a board).

    Examples
    --------
    >>> as_pair([np.int64(1), 2])
    (1, 2)
    >>> as_pair({2, 0})
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: a cell is a pair of whole numbers (row, col) in a tuple, \
a list or an array, got a set: {0, 2}
    """
    if not isinstance(cell, (tuple, list, np.ndarray)):
        # A set or a dict unpacks in no order of its own, bytes as numbers: a wrong cell.
        raise error(f"a cell is a pair of whole numbers (row, col) in a tuple, a list or an "
                    f"array, got {a_name(type(cell).__name__)}: {cell!r}")
    try:
        row, col = cell
        if isinstance(row, bool) or isinstance(col, bool):  # ints to Python, not coordinates
            raise TypeError
        return operator.index(row), operator.index(col)
    except (TypeError, ValueError):
        raise error(f"a cell is a pair of whole numbers (row, col), got {cell!r}") from None


def as_cell(cell: Any, height: int, width: int, *,
            error: type[InvalidInput | IllegalMove] = InvalidInput) -> Cell:
    """``cell`` as a ``(row, col)`` pair of ints on a ``height x width`` grid.

    Any pair of integers will do (a tuple, a list, numpy integers). Anything else, and a cell
    off the grid, raises ``error`` naming it: a negative coordinate is off the grid, not
    counted from the end as numpy would.

    Examples
    --------
    >>> as_cell([np.int64(1), 2], 3, 3)
    (1, 2)
    >>> as_cell((-1, 0), 3, 3)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: cell (-1, 0) is off the 3x3 board
    >>> as_cell((0.5, 1), 3, 3)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: a cell is a pair of whole numbers (row, col), got (0.5, 1)
    """
    row, col = as_pair(cell, error)
    if not (0 <= row < height and 0 <= col < width):
        raise error(f"cell ({row}, {col}) is off the {width}x{height} board")
    return row, col


def integer_grid(values: Any, what: str) -> np.ndarray:
    """``values`` as a new non-empty 2-D array of whole numbers, of at most :data:`MAX_CELLS`
    cells, for a constructor to check the range of.

    Integers and booleans keep their type; floats must be whole and finite (they become int64);
    anything else (strings, objects, ragged rows) is refused, as is a grid that is not 2-D or
    is empty, before any value is cast (a cast would wrap 264 to 8 in int8, or NaN to 0).

    Examples
    --------
    >>> integer_grid([[1.0, 2.0]], "a grid").tolist()
    [[1, 2]]
    >>> integer_grid([[1, 2], [3]], "a grid")
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: a grid needs rows of equal length
    >>> integer_grid([[0.5]], "a grid")
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: a grid holds whole numbers, got 0.5 at (0, 0)
    """
    try:
        array = np.array(values)
    except ValueError:
        raise InvalidInput(f"{what} needs rows of equal length") from None
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise InvalidInput(f"{what} needs a non-empty 2-D grid, got shape {array.shape}")
    check_size(array.shape[1], array.shape[0])
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (array != np.round(array))
        if bad.any():
            row, col = (int(i) for i in np.argwhere(bad)[0])
            raise InvalidInput(f"{what} holds whole numbers, got {array[row, col]} at "
                               f"({row}, {col})")
        array = array.astype(np.int64)
    elif array.dtype.kind not in "biu":
        raise InvalidInput(f"{what} holds whole numbers, got values of type {array.dtype}")
    return array


def check_mask(mask: object, shape: tuple[int, ...], name: str, whose: str) -> None:
    """Raise :class:`~msanalysis.errors.WrongType` unless ``mask`` is a boolean array of
    ``shape`` (``whose`` shape, in the message: "the board's").

    >>> check_mask(np.zeros((2, 3), dtype=bool), (2, 3), "revealed", "the board's")
    >>> check_mask(np.zeros((3, 3), dtype=bool), (2, 3), "revealed", "the board's")
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: revealed is a boolean array of the board's shape (2, 3), got \
an array of bool of shape (3, 3)
    """
    if not (isinstance(mask, np.ndarray) and mask.dtype == bool and mask.shape == shape):
        got = (f"an array of {mask.dtype} of shape {mask.shape}" if isinstance(mask, np.ndarray)
               else a_name(type(mask).__name__))
        raise WrongType(f"{name} is a boolean array of {whose} shape {shape}, got {got}")


def check_size(width: int, height: int) -> tuple[int, int]:
    """Refuse a board size that is not a positive whole number or that cannot be held (see
    :data:`MAX_CELLS`); return it as ints.

    Examples
    --------
    >>> check_size(30, np.int64(16))
    (30, 16)
    >>> check_size(100_000, 100_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: a board of 100000x100000 has 10000000000 cells; at most ...
    """
    width, height = as_int(width, "a board's width"), as_int(height, "a board's height")
    if width <= 0 or height <= 0:
        raise InvalidInput(f"a board needs a positive size, got {width}x{height}")
    if width * height > MAX_CELLS:
        raise InvalidInput(f"a board of {width}x{height} has {width * height} cells; at most "
                           f"{MAX_CELLS} can be held")
    return width, height


def neighbours(cell: Cell, height: int, width: int) -> Iterator[Cell]:
    """Yield the up to eight cells around ``cell`` that lie on a ``height x width`` grid.

    Examples
    --------
    >>> sorted(neighbours((0, 0), 3, 3))
    [(0, 1), (1, 0), (1, 1)]
    """
    row, col = cell
    for dr, dc in _OFFSETS:
        r, c = row + dr, col + dc
        if 0 <= r < height and 0 <= c < width:
            yield (r, c)


_TABLE_CELLS = 12_000_000
"""The most cells of the tables :func:`cell_table` keeps, in all (about 850 MB of tuples)."""

_tables: dict[tuple[int, int, int], tuple[Cell, ...]] = {}


def cell_table(height: int, width: int, frame: int = 0) -> tuple[Cell, ...]:
    """``(row, col)`` of every flat index of a grid framed by ``frame`` rows and columns of cells
    off the board on each side: made once per size, then looked up by index.

    A few sizes' tables are kept, up to :data:`_TABLE_CELLS` cells in all (a 3000x3000 table
    holds some 630 MB): past that they are made again from nothing.

    Examples
    --------
    >>> cell_table(2, 3)
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
    >>> cell_table(1, 1, frame=1)
    ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1))
    """
    key = (height, width, frame)
    table = _tables.get(key)
    if table is None:
        table = tuple(itertools.product(range(-frame, height + frame),
                                        range(-frame, width + frame)))
        if sum(map(len, _tables.values())) + len(table) > _TABLE_CELLS:
            _tables.clear()
        _tables[key] = table
    return table


def neighbour_counts(mask: np.ndarray, *, include_self: bool = False,
                     dtype: type = np.int8) -> np.ndarray:
    """Count, for every cell, the ``True`` cells of ``mask`` around it, without a Python loop.

    Parameters
    ----------
    mask : numpy.ndarray of bool or int, shape (height, width)
        With integers, their sums over each cell's neighbours are returned.
    include_self : bool
        Count the cell itself too (the 3x3 block), as mosaic puzzles do.
    dtype : numpy integer type
        Of the result; wide enough for the largest sum (int8 holds counts of booleans).

    Returns
    -------
    numpy.ndarray of ``dtype``, same shape as ``mask``.

    Examples
    --------
    >>> neighbour_counts(np.array([[True, False], [False, False]])).tolist()
    [[0, 1], [1, 1]]
    """
    height, width = mask.shape
    padded = np.zeros((height + 2, width + 2), dtype=dtype)
    padded[1:-1, 1:-1] = mask
    total: np.ndarray = np.zeros((height, width), dtype=dtype)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0 and not include_self:
                continue
            total += padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return total


def repeated_bits(pattern: int, stride: int, times: int) -> int:
    """``pattern`` shifted by 0, ``stride``, 2 ``stride``... (``times`` copies), or'd together:
    a row's bits on every row of a board held as one integer.

    Made by doubling, in O(bits * log times): or-ing one shifted row at a time makes a new
    integer of the whole size per row, which took minutes for a board of a million rows.

    Examples
    --------
    >>> bin(repeated_bits(0b11, 4, 3))
    '0b1100110011'
    """
    result, block, copies, shift = 0, pattern, 1, 0
    while times:
        if times & 1:
            result |= block << shift
            shift += stride * copies
        times >>= 1
        if times:  # the block doubled only while more copies are wanted
            block |= block << (stride * copies)
            copies *= 2
    return result


@lru_cache(maxsize=16)
def _frame_bits(height: int, width: int) -> tuple[int, int, int, int]:
    """The layout of bits of :meth:`Board._counts`: (row stride, bit of cell (0, 0), the cells,
    the cells on the edge). Rows are whole bytes with at least one free bit after the cells
    (shifts by one do not wrap), below a free row and bit 0 (every 2x2 window that touches
    the board has its top-left corner at a bit >= 0)."""
    stride = 8 * (width // 8 + 1)
    first = stride + 1
    row = (1 << width) - 1
    inside = repeated_bits(row, stride, height) << first
    edge = ((row << first) | (row << (first + (height - 1) * stride))
            | repeated_bits(1 | 1 << (width - 1), stride, height) << first)
    return stride, first, inside, edge


_HOLES_FLOODED = 8
"""Holes of the openings found by flooding the board's bits before the rest are labelled."""


def _holes_left(bits: int, height: int, width: int, stride: int) -> int:
    """The 4-connected groups of the cells of ``bits`` (rows ``stride`` bits apart)."""
    data = bits.to_bytes(height * stride // 8, "little")
    rows = np.frombuffer(data, dtype=np.uint8).reshape(height, stride // 8)
    mask = np.unpackbits(rows, axis=1, bitorder="little")[:, :width].astype(bool)
    return label_regions(mask, diagonal=False)[1]


def _grown(mask: np.ndarray) -> np.ndarray:
    """``mask`` and every cell next to it (the 3x3 block around each cell), rows then columns."""
    height, width = mask.shape
    framed = np.zeros((height + 2, width + 2), dtype=bool)
    framed[1:-1, 1:-1] = mask
    rows = framed[:, :-2] | framed[:, 1:-1] | framed[:, 2:]
    return rows[:-2] | rows[1:-1] | rows[2:]


class Board:
    """An immutable mine layout.

    Parameters
    ----------
    mines : array_like of bool, shape (height, width)
        ``True`` where a mine is.

    Examples
    --------
    >>> board = Board.from_text("*..\\n...\\n..*")
    >>> board.width, board.height, board.mine_count
    (3, 3, 2)
    >>> board.numbers.tolist()
    [[0, 1, 0], [1, 2, 1], [0, 1, 0]]
    >>> board.openings, board.islands, board.bbbv
    (2, 0, 2)
    """

    __slots__ = ("__dict__", "_mask")

    def __init__(self, mines: np.ndarray | Iterable[Iterable[bool]]) -> None:
        values = integer_grid(mines, "a board")
        if values.dtype != bool:
            bad = (values != 0) & (values != 1)
            if bad.any():
                row, col = (int(i) for i in np.argwhere(bad)[0])
                raise InvalidInput(f"a board's cells are True or 1 (a mine) or False or 0, got "
                                   f"{values[row, col]} at ({row}, {col})")
        mask = values.astype(bool, copy=False)
        mask.setflags(write=False)
        self._mask = mask

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_cells(cls, height: int, width: int, mines: Iterable[Cell]) -> Board:
        """Build a board of ``height x width`` with mines on the given cells.

        Raises
        ------
        WrongType
            When ``mines`` is not an iterable of cells.
        InvalidInput
            For a cell off the board, or one given twice (a mine per cell: a list of mines
            with a repeat is a mistake somewhere, as in an MBF file).

        Examples
        --------
        >>> Board.from_cells(2, 3, [(0, 2)]).to_text()
        '..*\\n...'
        """
        width, height = check_size(width, height)
        if not isinstance(mines, Iterable) or isinstance(mines, (str, bytes)):
            raise WrongType(f"Board.from_cells takes the mines' cells, (row, col) pairs, got a "
                            f"{type(mines).__name__}")
        mask = np.zeros((height, width), dtype=bool)
        for cell in mines:
            place = as_cell(cell, height, width)
            if mask[place]:
                raise InvalidInput(f"Board.from_cells: the mine at {place[0]},{place[1]} is given "
                                   "twice")
            mask[place] = True
        return cls(mask)

    @classmethod
    def _from_indices(cls, height: int, width: int, indices: Iterable[int]) -> Board:
        """A board with mines on the row-major ``indices``, trusted to be on the board: made
        without the checks and the copy of the constructor (generators make boards by the
        thousand)."""
        grid = bytearray(height * width)
        for index in indices:
            grid[index] = 1
        board = cls.__new__(cls)
        board._mask = np.frombuffer(bytes(grid), dtype=bool).reshape(height, width)
        return board

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse a layout: rows of ``*`` (mine) and ``.`` (free); ``#`` lines are comments.

        Raises
        ------
        ParseError
            On an empty layout, ragged rows or another character; the message names the line
            and column.

        Examples
        --------
        >>> Board.from_text("# a comment\\n.*\\n..").mines
        frozenset({(0, 1)})
        """
        check_type(text, str, "Board.from_text", "a layout's text; Board.load reads a file")
        rows: list[list[bool]] = []
        width = None
        for number, raw in enumerate(lines_of(text), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            row = []
            for column, char in enumerate(line, start=1):
                if char not in "*.":
                    raise ParseError(f"unknown character {char!r} in a layout "
                                     "(expected '*' or '.')", line=number, column=column)
                row.append(char == "*")
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise ParseError(f"row has {len(row)} cells, the first row has {width}",
                                 line=number, column=min(len(row), width) + 1)
            rows.append(row)
            check_cells(len(rows) * width, number)
        if not rows:
            raise ParseError("empty layout: expected rows of '*' and '.'")
        return cls(rows)

    def to_text(self) -> str:
        """Rows of ``*`` and ``.``, no trailing newline; the inverse of :meth:`from_text`."""
        return "\n".join("".join("*" if m else "." for m in row) for row in self._mask.tolist())

    @classmethod
    def from_mbf(cls, data: bytes) -> Board:
        """Decode an MBF board: byte 0 the width, byte 1 the height, bytes 2-3 the mine count
        big-endian, then one ``(x, y)`` byte pair per mine (x the column, y the row).

        Raises
        ------
        ParseError
            If the data is truncated, has bytes left over, or names a mine off the board or
            twice.

        Examples
        --------
        >>> Board.from_mbf(bytes([2, 1, 0, 1, 1, 0])).to_text()
        '.*'
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise WrongType(f"Board.from_mbf takes bytes, got {a_name(type(data).__name__)} "
                            "(Board.load reads a file)")
        if len(data) < 4:
            raise ParseError(f"truncated MBF: {len(data)} bytes, the header alone needs 4")
        width, height = data[0], data[1]
        count = int.from_bytes(data[2:4], "big")
        if width == 0 or height == 0:
            raise ParseError(f"MBF header gives an empty board ({width}x{height})")
        expected = 4 + 2 * count
        if len(data) < expected:
            raise ParseError(f"truncated MBF: the header promises {count} mines "
                             f"({expected} bytes), the data has {len(data)} bytes")
        if len(data) > expected:
            raise ParseError(f"MBF has {len(data) - expected} bytes after its {count} mines")
        if count > width * height:
            raise ParseError(f"MBF header gives {count} mines for {width * height} cells")
        pairs = np.frombuffer(data[4:], dtype=np.uint8).reshape(count, 2).astype(np.int64)
        mask = np.zeros((height, width), dtype=bool)
        for number, (x, y) in enumerate(pairs.tolist(), start=1):
            if x >= width or y >= height:
                raise ParseError(f"MBF mine {number} at x={x}, y={y} is off the "
                                 f"{width}x{height} board")
            if mask[y, x]:
                raise ParseError(f"MBF mine {number} at x={x}, y={y} is listed twice")
            mask[y, x] = True
        return cls(mask)

    def to_mbf(self) -> bytes:
        """Encode as MBF (mines in row-major order); the inverse of :meth:`from_mbf`.

        Examples
        --------
        >>> Board.from_text("..*\\n...").to_mbf().hex()
        '030200010200'
        """
        if self.width > 255 or self.height > 255:
            raise InvalidInput(f"MBF holds boards up to 255x255, not {self.width}x{self.height}")
        if self.mine_count > 0xFFFF:
            raise InvalidInput(f"MBF holds up to 65535 mines, not {self.mine_count}")
        rows, cols = np.nonzero(self.mask)
        body = np.column_stack([cols, rows]).astype(np.uint8).tobytes()
        return bytes([self.width, self.height]) + self.mine_count.to_bytes(2, "big") + body

    @classmethod
    def load(cls, path: str | Path) -> Board:
        """Read a layout file: MBF or layout text (which one: by
        :func:`~msanalysis.files.text_of_layout_file`).

        Raises
        ------
        ParseError
            Naming the file, and the line and column of a layout text.
        OSError
            When the file cannot be read.
        """
        return cls.from_file_bytes(read_bytes(path), path)

    @classmethod
    def from_file_bytes(cls, data: bytes, path: str | Path) -> Board:
        """:meth:`load` of bytes already read from ``path`` (which names the file in errors and,
        by its ending, may say that the bytes are text).

        Examples
        --------
        >>> Board.from_file_bytes(b"*.\\n..", "b.txt").mine_count
        1
        """
        try:
            text = text_of_layout_file(data, Path(path))
            if text is not None:
                return cls.from_text(text)
            try:
                return cls.from_mbf(data)
            except ParseError as error:
                if decode_text(data) is None:
                    raise
                raise ParseError(f"{error.reason}; the file is text, which is read as a "
                                 "layout from a name ending .txt") from None
        except ParseError as error:
            raise error.in_file(str(path)) from None

    # -- basic facts --------------------------------------------------------------------------
    @property
    def mask(self) -> np.ndarray:
        """Read-only boolean array, ``True`` on mines."""
        return self._mask

    @property
    def height(self) -> int:
        return self._mask.shape[0]

    @property
    def width(self) -> int:
        return self._mask.shape[1]

    @cached_property
    def mine_count(self) -> int:
        return int(self._mask.sum())

    @cached_property
    def mines(self) -> frozenset[Cell]:
        """The set of mine cells."""
        rows, cols = np.nonzero(self._mask)
        return frozenset(zip(rows.tolist(), cols.tolist()))

    def is_mine(self, cell: Cell) -> bool:
        return bool(self._mask[as_cell(cell, *self._mask.shape)])

    @cached_property
    def numbers(self) -> np.ndarray:
        """Read-only int8 array: mines among each cell's eight neighbours (mine cells too)."""
        counts = neighbour_counts(self._mask)
        counts.setflags(write=False)
        return counts

    # -- metrics ------------------------------------------------------------------------------
    @cached_property
    def _zero_labels(self) -> tuple[np.ndarray, int]:
        """Label 8-connected regions of safe zero cells: (labels, count), 0 = not a zero cell;
        regions are numbered in the row-major order of their first cell."""
        return label_regions((~self._mask) & (self.numbers == 0))

    def opening_regions(self) -> Iterator[frozenset[Cell]]:
        """Yield each opening: an 8-connected region of zero cells with its numbered border.

        This is exactly what one click on any of its zero cells reveals.
        """
        labels, count = self._zero_labels
        for label in range(1, count + 1):
            region = labels == label
            grown = neighbour_counts(region, include_self=True) > 0
            rows, cols = np.nonzero(grown & ~self._mask)
            yield frozenset(zip(rows.tolist(), cols.tolist()))

    @cached_property
    def _zero(self) -> np.ndarray:
        """Safe cells with no mine around them."""
        return ~_grown(self._mask)

    @cached_property
    def _border_of_openings(self) -> np.ndarray:
        """Safe cells inside or next to an opening (True)."""
        return _grown(self._zero) & ~self._mask

    @cached_property
    def _counts(self) -> tuple[int, int]:
        """(openings, numbered safe cells next to no opening), with the grid as bits of one
        Python integer: a few shifts find the zeros and their borders.

        Openings are counted without labelling them: the Euler number of the zeros
        (8-connected) is read off their 2x2 windows (Gray's formula: windows with one zero,
        with three, with two on a diagonal), and it is the openings less their holes, the
        groups of numbered cells and mines (4-connected) that zeros surround on every side.
        Holes are what is left of those cells once the ones reaching the edge are taken away
        (by shifts, and by carries along each row); the first few are flooded the same way,
        and past :data:`_HOLES_FLOODED` the rest are labelled (a flood costs a pass over the
        whole board: a board of many small holes took minutes).
        """
        height, width = self._mask.shape
        stride, first, inside, edge = _frame_bits(height, width)
        rows = np.zeros((height, stride // 8), dtype=np.uint8)
        rows[:, :(width + 7) // 8] = np.packbits(self._mask, axis=1, bitorder="little")
        mines = int.from_bytes(rows.tobytes(), "little") << first

        x = mines | (mines << 1) | (mines >> 1)
        zero = inside & ~(x | (x << stride) | (x >> stride))
        x = zero | (zero << 1) | (zero >> 1)
        lonely = (inside & ~mines & ~(x | (x << stride) | (x >> stride))).bit_count()

        # Bit i of a, b, c, d: the cells of the 2x2 window whose top-left corner is i.
        a, b, c, d = zero, zero >> 1, zero >> stride, zero >> (stride + 1)
        odd = a ^ b ^ c ^ d
        three = (odd & ((a & b & (c | d)) | (c & d & (a | b)))).bit_count()
        one = odd.bit_count() - three
        diagonal = ((a & d & ~(b | c)) | (b & c & ~(a | d))).bit_count()
        euler = (one - three - 2 * diagonal) // 4

        rest = inside & ~zero
        reached = rest & edge  # first those reaching the edge, which are no hole
        holes = -1
        while True:
            while True:
                reached |= rest & ~(rest + reached)  # along each row, by the carry
                x = reached | (reached << 1) | (reached >> 1)
                grown = (x | (reached << stride) | (reached >> stride)) & rest
                if grown == reached:
                    break
                reached = grown
            rest &= ~reached
            holes += 1
            if not rest:
                break
            if holes == _HOLES_FLOODED:
                return euler + holes + _holes_left(rest >> first, height, width, stride), lonely
            reached = rest & -rest  # the next hole, from its first cell
        return euler + holes, lonely

    @property
    def openings(self) -> int:
        """Number of openings: 8-connected regions of zero cells."""
        return self._counts[0]

    def island_regions(self) -> Iterator[frozenset[Cell]]:
        """Yield each island: an 8-connected group of numbered safe cells touching no zero, in
        the row-major order of their first cell."""
        labels, count = self._island_labels
        flat = labels.ravel()
        cells = np.flatnonzero(flat)
        by_island = cells[np.argsort(flat[cells], kind="stable")]  # row-major in each island
        ends = np.cumsum(np.bincount(flat[cells], minlength=count + 1)).tolist()
        width = self._mask.shape[1]
        for start, end in itertools.pairwise(ends):
            rows, cols = np.divmod(by_island[start:end], width)
            yield frozenset(zip(rows.tolist(), cols.tolist()))

    @cached_property
    def _island_labels(self) -> tuple[np.ndarray, int]:
        """Label the islands: (labels, count), 0 = not a numbered cell beside no opening."""
        return label_regions(self._lonely)

    @cached_property
    def _lonely(self) -> np.ndarray:
        """The numbered safe cells beside no opening: each is one click of the 3BV."""
        return ~self._mask & ~self._border_of_openings

    @cached_property
    def islands(self) -> int:
        """Number of islands: groups of numbered safe cells that no opening reaches."""
        return self._island_labels[1]

    @cached_property
    def bbbv(self) -> int:
        """3BV: openings plus numbered safe cells bordering no opening.

        The fewest left clicks that clear the board without chording.
        """
        return self._counts[0] + self._counts[1]

    def bbbv_solved(self, revealed: np.ndarray) -> int:
        """The part of the 3BV that the ``revealed`` cells (a bool array) have done: the
        openings with a zero revealed, and the revealed safe cells beside no opening.

        Whole arrays, never a region at a time: a board of millions of cells has as many
        openings.

        Examples
        --------
        One opening on the right (its zeros and the numbers beside them), and four numbered
        cells beside no opening:

        >>> board = Board.from_text("*.*..\\n.....\\n.*...")
        >>> board.bbbv, board.bbbv_solved(~board.mask)
        (5, 5)
        >>> revealed = np.zeros((3, 5), dtype=bool)
        >>> revealed[0, 1] = revealed[0, 4] = True  # a lone 2, and a zero of the opening
        >>> board.bbbv_solved(revealed)
        2
        """
        check_mask(revealed, self._mask.shape, "revealed", "the board's")
        labels, _ = self._zero_labels
        solved = len(np.unique(labels[revealed & (labels > 0)]))
        return solved + int(np.count_nonzero(self._lonely & revealed))

    # -- value semantics ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._mask.shape == other._mask.shape
                and bool(np.array_equal(self._mask, other._mask)))

    def __hash__(self) -> int:
        return hash((self._mask.shape, self._mask.tobytes()))

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures

        return svg.board(self)
