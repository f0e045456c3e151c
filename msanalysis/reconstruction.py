"""Mine layouts from number grids: the fully uncovered case, and puzzles with unknown clues.

A :class:`NumberGrid` holds the clues (a number per cell, or ``?``); :func:`reconstruct` finds the
layouts that produce them and returns a :class:`Reconstruction`: how many there are, whether the
answer is unique, the layouts themselves, or a small set of clues that cannot all hold. Local
deductions are settled first with vectorised numpy rules; what is left is split into independent
components, each solved by python-sat (Minicard) or OR-Tools CP-SAT. Two rules are supported:
``classic`` (a number counts the 8 neighbours) and ``mosaic`` (the 3x3 block including the cell).
Grids read from our text (rows of digits and ``?``) or from Simon Tatham's Mosaic game IDs
(``10x10:a3a3a2c...``). Making puzzles is left to :mod:`msanalysis.puzzle`, pictures to
:mod:`msanalysis.svg`, the command line to :mod:`msanalysis.cli`.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import select
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import cached_property
from pathlib import Path

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
    AnalysisTooHard,
    InvalidInput,
    NoLayout,
    ParseError,
    TimeLimitReached,
    deadline_after,
    name_clues,
)
from msanalysis.files import read_text

__all__ = ["ENGINES", "RULES", "NumberGrid", "Reconstruction", "reconstruct"]

RULES = ("classic", "mosaic")
"""Rule names: what a number counts (the 8 neighbours, or the 3x3 block including the cell)."""
ENGINES = ("sat", "cpsat")
"""Engine names: python-sat's Minicard, or OR-Tools CP-SAT."""

MAX_LISTED = 100_000
"""The most layouts of one part of a grid :func:`reconstruct` lists to count them (``limit``
None): each is one more solve, and 50,000 took 11 s on a 30x30 mosaic grid with a quarter of
its clues."""

UNKNOWN = -1
"""Clue value of a ``?`` cell in :attr:`NumberGrid.clues`."""

# Cells are handled as flat indices into a copy of the grid padded by _PAD cells on every side,
# so that "the cell d rows and e columns away" is one constant offset, with no bounds checks:
# the pair rule looks up to 3 cells away (a clue 2 away, and that clue's neighbour).
_PAD = 3
_FRAME = 7  # the pair rule stores a clue's unknown cells as bits of the 7x7 frame around it
_BIG = np.iinfo(np.int64).max
# The start of a Tatham Mosaic game ID, or of the random-seed form of one (10x10#123, 10x10h1#5).
_TATHAM_START = re.compile(r"\d+x\d+")


def _check_rule(rule: str) -> None:
    if rule not in RULES:
        raise InvalidInput(f"unknown rule {rule!r} (expected one of: {', '.join(RULES)})")


def _kernel(rule: str) -> list[tuple[int, int]]:
    """The cells a clue counts, as (row, col) offsets from the clue."""
    return [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if rule == "mosaic" or (dr, dc) != (0, 0)]


def _capacity(height: int, width: int, rule: str) -> np.ndarray:
    """Largest number each cell can show: how many cells its clue counts (3 in a classic corner)."""
    return neighbour_counts(np.ones((height, width), dtype=bool), include_self=rule == "mosaic")


def _first_cell(mask: np.ndarray) -> Cell:
    """The first true cell of ``mask`` in reading order."""
    row, col = np.argwhere(mask)[0]
    return int(row), int(col)


def _counts(mask: np.ndarray, rule: str) -> np.ndarray:
    """What every clue would read for the mine layout ``mask``."""
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
        _check_rule(rule)
        if not isinstance(clues, np.ndarray):
            try:
                clues = [[UNKNOWN if v is None else v for v in row] for row in clues]
            except TypeError:
                raise InvalidInput(f"a number grid needs rows of numbers, got a "
                                   f"{type(clues).__name__}") from None
        array = integer_grid(clues, "a number grid")
        height, width = array.shape
        bad = (array < UNKNOWN) | (array > _capacity(height, width, rule))
        if bad.any():
            row, col = _first_cell(bad)
            why = _impossible(int(array[row, col]), row, col, (height, width), rule)
            raise InvalidInput(f"cell ({row}, {col}): {why}")
        array = array.astype(np.int8)
        array.setflags(write=False)
        self._clues = array
        self._rule = rule

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, *, rule: str = "classic") -> NumberGrid:
        """Parse rows of digits, ``?`` for an unknown clue; ``#`` lines are comments.

        Text whose first line (after comments) starts with ``WxH`` is read as a Tatham Mosaic game
        ID instead (see :meth:`from_tatham`), always under the mosaic rule, whatever ``rule`` says:
        the ID's game decides what its numbers count.

        Raises
        ------
        ParseError
            On an empty grid, ragged rows, another character, or a number the rule cannot produce
            at its cell; the message names the line and column.

        Examples
        --------
        >>> NumberGrid.from_text("9", rule="classic")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        msanalysis.errors.ParseError: line 1, column 1: 9 is impossible under the classic rule:
        this cell's number counts 0 cells
        >>> NumberGrid.from_text("# from sgt-mosaic\\n4x3:2a213a3222a1", rule="classic").rule
        'mosaic'
        """
        _check_rule(rule)
        rows: list[np.ndarray] = []
        where: list[tuple[int, int]] = []  # (line, column of the first cell) of each row
        lines = text.splitlines()
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not rows and _TATHAM_START.match(line):
                return cls._from_tatham_lines(lines, number)
            first = len(raw) - len(raw.lstrip()) + 1
            # One code point per character, checked with numpy: a 1000x1000 grid is a million
            # characters, too many for a per-character Python loop.
            codes = np.frombuffer(line.encode("utf-32-le"), dtype=np.uint32)
            unknown = codes == ord("?")
            wrong = ~(unknown | ((codes >= ord("0")) & (codes <= ord("9"))))
            if wrong.any():
                offset = int(np.argmax(wrong))
                raise ParseError(f"unknown character {line[offset]!r} in a number grid (expected "
                                 "a digit or '?')", line=number, column=first + offset)
            row = np.where(unknown, UNKNOWN, codes.astype(np.int16) - ord("0"))
            if rows and len(row) != len(rows[0]):
                raise ParseError(f"row has {len(row)} cells, the first row has {len(rows[0])}",
                                 line=number, column=first + min(len(row), len(rows[0])))
            rows.append(row)
            where.append((number, first))
            check_cells(len(rows) * len(row), number)
        if not rows:
            raise ParseError("empty number grid: expected rows of digits and '?'")
        array = np.array(rows, dtype=np.int16)
        height, width = array.shape
        bad = array > _capacity(height, width, rule)
        if bad.any():
            r, c = _first_cell(bad)
            line_number, first = where[r]
            raise ParseError(_impossible(int(array[r, c]), r, c, (height, width), rule),
                             line=line_number, column=first + c)
        return cls(array, rule=rule)

    @classmethod
    def from_board(cls, board: Board, *, rule: str = "classic") -> NumberGrid:
        """The grid a layout shows when every cell is uncovered (mine cells included)."""
        _check_rule(rule)
        return cls(_counts(board.mask, rule), rule=rule)

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
        lines = game_id.splitlines() or [""]
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
    def load(cls, path: str | Path, *, rule: str = "classic") -> NumberGrid:
        """Read a number grid file; parse errors name the file, line and column."""
        text = read_text(path)
        try:
            return cls.from_text(text, rule=rule)
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
    limit = int(_capacity(shape[0], shape[1], rule)[row, col])
    return (f"{value} is impossible under the {rule} rule: this cell's number counts "
            f"{limit} cell{'s' if limit != 1 else ''}")


def _run_letters(run: int) -> str:
    """A run of ``run`` cells without a clue in a Tatham ID: ``z`` per 26 cells, then the rest."""
    return "z" * (run // 26) + (chr(ord("a") + run % 26 - 1) if run % 26 else "")


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
    bad = clues > _capacity(height, width, "mosaic")
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        offset = int(np.searchsorted(reached, row * width + col + 1))  # the digit's character
        raise ParseError(f"cell ({row}, {col}): " + _impossible(int(clues[row, col]), row, col,
                                                                  clues.shape, "mosaic"),
                         line=line, column=start + offset)
    return clues


class Reconstruction:
    """The layouts that produce a number grid, as found by :func:`reconstruct`.

    Attributes
    ----------
    grid : NumberGrid
        The clues that were solved.
    rule, engine : str
        What the numbers count, and which solver settled what local reasoning left open.
    width, height : int
    count : int
        The number of layouts: exact when :attr:`exhaustive`, else a lower bound (the search
        stopped at ``limit`` or at the time limit).
    exhaustive : bool
        True when every layout was accounted for.
    conflict : list of (row, col) or None
        When no layout exists: a small set of clue cells that cannot all hold together (removing
        any one of them makes the rest satisfiable). None otherwise.

    Examples
    --------
    >>> result = reconstruct("1?", limit=None)
    >>> result.count, result.exhaustive, result.unique
    (2, True, False)
    >>> [board.to_text() for board in result.layouts]
    ['.*', '**']
    """

    def __init__(self, *, grid: NumberGrid, engine: str, count: int,
                 exhaustive: bool, conflict: list[Cell] | None, base: np.ndarray | None = None,
                 parts: list[tuple[np.ndarray, list[np.ndarray]]] | None = None,
                 free: np.ndarray | None = None, limit: int | None = None) -> None:
        self.grid = grid
        self.rule = grid.rule
        self.engine = engine
        self.height, self.width = grid.height, grid.width
        self.count = count
        self.exhaustive = exhaustive
        self.conflict = conflict
        # base: padded flat mask of the mines local reasoning settled; parts: per component, its
        # cells (padded flat indices) and the solutions found; free: cells no clue constrains.
        self._base = base
        self._parts = parts or []
        self._free = free if free is not None else np.zeros(0, dtype=np.int64)
        self._limit = limit

    @property
    def no_layout(self) -> NoLayout | None:
        """When no layout fits: the error that says so, as an inconsistent position's does,
        naming the clues of :attr:`conflict`. None when some layout fits.

        Examples
        --------
        >>> print(reconstruct("00\\n01").no_layout)
        no layout satisfies the 0 at (0, 0), the 0 at (0, 1) and the 1 at (1, 1)
        """
        if self.count or not self.exhaustive:
            return None
        cells = self.conflict or []
        named = name_clues([(cell, int(self.grid.clues[cell])) for cell in cells])
        return NoLayout(f"no layout satisfies {named}", clues=cells)

    @property
    def timed_out(self) -> bool:
        """True when the search stopped at the time limit (not at ``limit``, not exhausted)."""
        return not self.exhaustive and (self._limit is None or self.count < self._limit)

    @property
    def unique(self) -> bool | None:
        """True if exactly one layout exists, False if none or several, None if not yet known."""
        if self.count >= 2:
            return False
        if self.exhaustive:
            return self.count == 1
        return None

    @property
    def layouts(self) -> Iterator[Board]:
        """The layouts found (at most ``limit`` of them), as :class:`Board` objects, lazily.

        Components are independent, so every combination of their solutions is a layout; cells
        no clue counts take both values.
        """
        if self.count == 0 or self._base is None:
            return iter(())
        return itertools.islice(self._all_layouts(self._base), self._limit)

    def _all_layouts(self, base: np.ndarray) -> Iterator[Board]:
        shape = (self.height + 2 * _PAD, self.width + 2 * _PAD)
        # Generators, not lists: 2^free combinations must never be built up front.
        for combo in itertools.product(*[solutions for _, solutions in self._parts]):
            for bits in itertools.product((False, True), repeat=len(self._free)):
                flat = base.copy()
                for (cells, _), values in zip(self._parts, combo):
                    flat[cells] = values
                flat[self._free] = bits
                yield Board(flat.reshape(shape)[_PAD:-_PAD, _PAD:-_PAD])

    @cached_property
    def first(self) -> Board | None:
        """One layout, or None when none was found."""
        return next(self.layouts, None)

    def __repr__(self) -> str:
        how = "exactly" if self.exhaustive else "at least"
        return (f"<Reconstruction {self.rule} {self.width}x{self.height}: {how} {self.count} "
                f"layout{'s' if self.count != 1 else ''}, unique={self.unique}>")

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures
        return svg.board(self)  # the first layout, mines filled; or the conflict outlined


def reconstruct(grid: NumberGrid | str, *, rule: str | None = None, engine: str = "sat",
                limit: int | None = 2, time_limit: float | None = None,
                propagate: bool = True) -> Reconstruction:
    """Find the mine layouts that produce a grid of numbers.

    Parameters
    ----------
    grid : NumberGrid or str
        The clues; text is parsed with :meth:`NumberGrid.from_text`.
    rule : {"classic", "mosaic"}, optional
        What a number counts. Defaults to the grid's own rule (``"classic"`` for text); a
        different rule re-checks the numbers against it.
    engine : {"sat", "cpsat"}
        python-sat's Minicard (native cardinality constraints, blocking clauses to enumerate) or
        OR-Tools CP-SAT (a solution callback, one worker). Both give the same answers; "sat" is
        the default because it was faster on ``benchmarks/reconstruct.py``.
    limit : int or None
        Stop once this many layouts are known to exist (2 settles uniqueness); None counts them
        all exactly, listing each, up to :data:`MAX_LISTED` in one part of the grid.
    time_limit : float or None
        Seconds of search allowed; when it runs out the answer is marked not exhaustive.
    propagate : bool
        Settle what local reasoning settles before calling the engine (much faster on large
        grids; False hands everything to the engine, for comparison).

    Returns
    -------
    Reconstruction

    Raises
    ------
    ParseError
        When ``grid`` is text that is not a number grid.
    ValueError
        On an unknown rule or engine, a ``limit`` below 1, or numbers the rule cannot produce.
    AnalysisTooHard
        When the time limit runs out before it is known whether any layout exists
        (``TimeLimitReached``), or ``limit`` is None and a part of the grid has more than
        :data:`MAX_LISTED` layouts.

    Examples
    --------
    >>> result = reconstruct("0000\\n1110\\n1010")
    >>> result.count, result.unique
    (1, True)
    >>> result.first.mines
    frozenset({(2, 1)})
    >>> mosaic = reconstruct("11\\n11", rule="mosaic", limit=None)
    >>> mosaic.count, mosaic.unique
    (4, False)
    >>> reconstruct("00\\n01").conflict
    [(0, 0), (0, 1), (1, 1)]

    Notes
    -----
    Local rules (a satisfied clue frees its other cells, a clue needing all its unknown cells
    fills them, and the pair rule between overlapping clues) run as numpy array operations, a
    few dozen passes of O(cells) each; on full grids of random boards they usually settle every
    cell. The rest splits into independent components (counts multiply); each is solved by the
    engine, exponential in the worst case, and enumerated with ``limit`` blocking solves.
    """
    grid = _as_grid(grid, rule)
    if engine not in ENGINES:
        raise InvalidInput(f"unknown engine {engine!r} (expected one of: {', '.join(ENGINES)})")
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise InvalidInput(f"limit must be a positive integer or None, got {limit!r}")
    deadline = deadline_after(time_limit)
    found = _search(grid.clues, grid.rule, engine, limit, deadline, propagate)
    if isinstance(found, _Unsatisfiable):
        conflict = _conflict(grid.clues, grid.rule, found.center, deadline)
        return Reconstruction(grid=grid, engine=engine, count=0, exhaustive=True,
                              conflict=conflict)
    if found.timed_out_undecided:
        raise TimeLimitReached(f"the time limit of {time_limit} s ran out before a layout was "
                               f"found on this {grid.width}x{grid.height} grid")
    return Reconstruction(grid=grid, engine=engine, count=found.count,
                          exhaustive=found.exhaustive, conflict=None, base=found.base,
                          parts=found.parts, free=found.free, limit=limit)


def _as_grid(grid: NumberGrid | str, rule: str | None) -> NumberGrid:
    if isinstance(grid, str):
        return NumberGrid.from_text(grid, rule=rule or "classic")
    if isinstance(grid, NumberGrid):
        if rule is None or rule == grid.rule:
            return grid
        return NumberGrid(grid.clues, rule=rule)
    return NumberGrid(grid, rule=rule or "classic")


# -- the search ---------------------------------------------------------------------------------

class _Unsatisfiable:
    """No layout: ``center`` is a cell near the contradiction, where the conflict search starts."""

    def __init__(self, center: Cell) -> None:
        self.center = center


class _Found:
    """What the search found: see :class:`Reconstruction` for the fields."""

    def __init__(self, count: int, exhaustive: bool, base: np.ndarray | None,
                 parts: list[tuple[np.ndarray, list[np.ndarray]]], free: np.ndarray,
                 timed_out_undecided: bool = False) -> None:
        self.count = count
        self.exhaustive = exhaustive
        self.base = base
        self.parts = parts
        self.free = free
        self.timed_out_undecided = timed_out_undecided


class _Padded:
    """A grid of clues padded by ``_PAD`` cells, with flat offsets of each clue's cells."""

    def __init__(self, clues: np.ndarray, rule: str) -> None:
        height, width = clues.shape
        self.shape = (height, width)
        self.stride = width + 2 * _PAD
        self.clues = np.full((height + 2 * _PAD, self.stride), UNKNOWN, dtype=np.int16)
        self.clues[_PAD:-_PAD, _PAD:-_PAD] = clues
        self.kernel = _kernel(rule)
        self.offsets = np.array([dr * self.stride + dc for dr, dc in self.kernel], dtype=np.int64)

    def pad(self, state: np.ndarray) -> np.ndarray:
        """Flat padded copy of an unpadded state; outside cells read as known safe (0)."""
        padded = np.zeros((self.shape[0] + 2 * _PAD, self.stride), dtype=np.int8)
        padded[_PAD:-_PAD, _PAD:-_PAD] = state
        return padded.ravel()

    def cell(self, flat: int) -> Cell:
        return (flat // self.stride - _PAD, flat % self.stride - _PAD)


def _search(clues: np.ndarray, rule: str, engine: str, limit: int | None, deadline: float | None,
            propagate: bool) -> _Found | _Unsatisfiable:
    """Settle local deductions, split into components, and solve each with ``engine``."""
    grid = _Padded(clues, rule)
    state = np.full(clues.shape, UNKNOWN, dtype=np.int8)
    if propagate:
        settled = _settle(clues, rule, grid)
        if isinstance(settled, _Unsatisfiable):
            return settled
        state = settled
    else:
        state = state.copy()
    flat = grid.pad(state)
    components, free = _components(flat, grid)
    solve = _solve_sat if engine == "sat" else _solve_cpsat
    count = 2 ** len(free)  # nothing constrains a free cell: both values work
    parts = []  # [cells, constraints, solutions, exhausted] per component
    # First pass: one solution per component, two while uniqueness is open, so that a long
    # enumeration in one component cannot hide that another one has no solution at all.
    for cells, constraints, first_clue in components:
        want = 2 if limit is None else min(2, max(1, -(-limit // count)))  # integer ceil
        solutions, exhausted = solve(len(cells), constraints, want, deadline, [])
        if not solutions:
            if exhausted:
                return _Unsatisfiable(grid.cell(first_clue))
            return _Found(0, False, None, [], free, timed_out_undecided=True)
        count *= len(solutions)
        parts.append([cells, constraints, solutions, exhausted])
    # Second pass: more solutions where the limit asks for them (counts multiply). Every
    # solution is listed to be counted: without a limit, a bound on them (a sparse grid has
    # astronomically many layouts).
    for part in parts:
        cells, constraints, solutions, exhausted = part
        others = count // len(solutions)
        need = MAX_LISTED + 1 if limit is None else -(-limit // others)
        if exhausted or len(solutions) >= need:
            continue
        more, part[3] = solve(len(cells), constraints, need - len(solutions), deadline,
                              solutions)
        solutions += more
        if limit is None and len(solutions) > MAX_LISTED:
            raise AnalysisTooHard(f"more than {MAX_LISTED:,} layouts in one part of the grid: "
                                  f"too many to count one by one; a limit says whether there "
                                  f"are at least that many")
        count = others * len(solutions)
    exhaustive = all(part[3] for part in parts)
    return _Found(count, exhaustive, flat == 1, [(p[0], p[2]) for p in parts], free)


def _settle(clues: np.ndarray, rule: str, grid: _Padded, *, state: np.ndarray | None = None,
            pairs: bool = True) -> np.ndarray | _Unsatisfiable:
    """Apply the local rules until nothing changes: int8 state, -1 unknown, 0 safe, 1 mine.

    Two single-clue rules run on the whole grid at once: a clue whose mines are all known frees
    its other cells; a clue that needs every unknown cell it counts fills them. When they stall,
    the pair rule (:func:`_pair_rule`) looks at overlapping clues (unless ``pairs`` is False).
    Every step is a forced deduction, so no layout is lost; a contradiction means there is no
    layout at all. ``state`` gives cells already known (the puzzle grader starts from some).
    """
    # A copy of the cells given: the caller's array stays as it was.
    state = np.full(clues.shape, UNKNOWN, dtype=np.int8) if state is None \
        else state.astype(np.int8)
    known = clues != UNKNOWN
    clues16 = clues.astype(np.int16)
    while True:
        unknown = state == UNKNOWN
        need = clues16 - _counts(state == 1, rule)
        open_ = _counts(unknown, rule).astype(np.int16)
        broken = known & ((need < 0) | (need > open_))
        if broken.any():
            return _Unsatisfiable(_first_cell(broken))
        active = known & (open_ > 0)
        frees = active & (need == 0)
        fills = active & (need == open_)
        if frees.any() or fills.any():
            # A cell is touched by a firing clue exactly when it lies in that clue's block: the
            # neighbourhood is symmetric, so counting the firing clues around each cell finds it.
            safe = unknown & (_counts(frees, rule) > 0)
            mine = unknown & (_counts(fills, rule) > 0)
            both = safe & mine
            if both.any():
                return _Unsatisfiable(_first_cell(both))
            state[safe] = 0
            state[mine] = 1
            continue
        if not active.any() or not pairs:
            return state
        flat = grid.pad(state)
        marked = _pair_rule(flat, grid)
        if isinstance(marked, _Unsatisfiable):
            return marked
        if marked is None:
            return state
        state = flat.reshape(grid.clues.shape)[_PAD:-_PAD, _PAD:-_PAD].copy()


def _active_clues(flat: np.ndarray, grid: _Padded):
    """The known clues that still count an unknown cell, as padded flat indices.

    Returns (clues, around, unknown, need): the cells each clue counts (one row per clue), which
    of them are unknown, and how many mines each clue still needs among them.
    """
    clue_flat = grid.clues.ravel()
    clues = np.flatnonzero(clue_flat != UNKNOWN)
    around = clues[:, None] + grid.offsets[None, :]
    unknown = flat[around] == UNKNOWN
    keep = unknown.any(axis=1)
    clues, around, unknown = clues[keep], around[keep], unknown[keep]
    need = clue_flat[clues].astype(np.int64) - (flat[around] == 1).sum(axis=1)
    return clues, around, unknown, need


def _pair_rule(flat: np.ndarray, grid: _Padded) -> bool | _Unsatisfiable | None:
    """One pass of the pair rule over every two overlapping active clues, in place on ``flat``.

    For clues A and B with ``need`` mines still to place among their unknown cells: if
    ``need(B) - need(A)`` equals the number of B's unknown cells outside A, those cells are all
    mines and A's unknown cells outside B are all safe (A's mines must then all lie in the
    overlap). With A inside B this is the classic subset rule. Each clue's unknown cells are a
    bitmask over the 7x7 frame around it, so all pairs at one offset are tested at once.

    Returns True when cells were settled, None when nothing changed, or _Unsatisfiable.
    """
    cells, _around, unknown, need = _active_clues(flat, grid)
    frame_bits = np.array([(dr + _PAD) * _FRAME + dc + _PAD for dr, dc in grid.kernel],
                          dtype=np.int64)
    masks = (unknown.astype(np.int64) << frame_bits[None, :]).sum(axis=1)
    mask_at = np.zeros(flat.size, dtype=np.int64)
    need_at = np.zeros(flat.size, dtype=np.int64)
    mask_at[cells] = masks
    need_at[cells] = need
    mines, safes = [], []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if dr == 0 and dc == 0:
                continue
            other = cells + dr * grid.stride + dc
            other_mask = mask_at[other]
            shift = dr * _FRAME + dc
            moved = other_mask << shift if shift > 0 else other_mask >> -shift
            only_other = moved & ~masks
            only_self = masks & ~moved
            fire = (other_mask != 0) & ((only_other | only_self) != 0) & \
                (need_at[other] - need == np.bitwise_count(only_other))
            if not fire.any():
                continue
            base, only_other, only_self = cells[fire], only_other[fire], only_self[fire]
            for dr2, dc2 in grid.kernel:
                # B's cell (dr2, dc2) sits at (dr + dr2, dc + dc2) in A's frame.
                bit = (dr + dr2 + _PAD) * _FRAME + dc + dc2 + _PAD
                hit = (only_other >> bit) & 1 == 1
                mines.append(base[hit] + (dr + dr2) * grid.stride + dc + dc2)
                bit = (dr2 + _PAD) * _FRAME + dc2 + _PAD
                hit = (only_self >> bit) & 1 == 1
                safes.append(base[hit] + dr2 * grid.stride + dc2)
    if not mines:
        return None
    # Boolean marks rather than np.unique: sorting is the slow way to deduplicate cells here.
    mine = np.zeros(flat.size, dtype=bool)
    safe = np.zeros(flat.size, dtype=bool)
    mine[np.concatenate(mines)] = True
    safe[np.concatenate(safes)] = True
    clash = np.flatnonzero(mine & safe)
    if clash.size:
        return _Unsatisfiable(grid.cell(int(clash[0])))
    if not mine.any() and not safe.any():
        return None
    flat[mine] = 1
    flat[safe] = 0
    return True


def _components(flat: np.ndarray, grid: _Padded) -> tuple[list, np.ndarray]:
    """Split the unknown cells into groups linked by shared clues.

    Returns (components, free): each component is (cells, constraints, a clue cell), with cells
    as sorted padded flat indices and constraints as (local indices, mines needed) per clue;
    ``free`` holds the unknown cells that no clue counts.

    Labels spread by min-label propagation with pointer jumping, all in numpy, so a million
    cells stay out of Python loops; only the (small) leftover goes through per-clue Python.
    """
    clues, around, unknown, need = _active_clues(flat, grid)
    counted = np.zeros(flat.size, dtype=bool)
    counted[around[unknown]] = True
    covered = np.flatnonzero(counted)
    free = np.flatnonzero((flat == UNKNOWN) & ~counted)
    if not clues.size:
        return [], free
    label = np.full(flat.size, _BIG, dtype=np.int64)
    label[covered] = covered
    members = around[unknown]
    per_clue = unknown.sum(axis=1)
    while True:
        lowest = np.where(unknown, label[around], _BIG).min(axis=1)
        before = label[covered].copy()
        np.minimum.at(label, members, np.repeat(lowest, per_clue))
        while True:  # pointer jumping: follow labels to their roots
            jumped = label[label[covered]]
            if np.array_equal(jumped, label[covered]):
                break
            label[covered] = jumped
        if np.array_equal(before, label[covered]):
            break
    clue_label = label[around[np.arange(len(clues)), unknown.argmax(axis=1)]]
    cell_order = np.lexsort((covered, label[covered]))
    cells_sorted = covered[cell_order]
    cell_labels = label[cells_sorted]
    starts = np.flatnonzero(np.r_[True, cell_labels[1:] != cell_labels[:-1]])
    bounds = np.r_[starts, len(cells_sorted)]
    local = np.full(flat.size, -1, dtype=np.int64)
    group = np.repeat(np.arange(len(starts)), np.diff(bounds))
    local[cells_sorted] = np.arange(len(cells_sorted)) - starts[group]
    clue_order = np.argsort(clue_label, kind="stable")
    clue_group = np.searchsorted(cell_labels[starts], clue_label[clue_order])
    clue_bounds = np.searchsorted(clue_group, np.arange(len(starts) + 1))
    local_around = np.where(unknown, local[around], -1)[clue_order].tolist()
    need_sorted = need[clue_order].tolist()
    clues_sorted = clues[clue_order]
    components = []
    for g in range(len(starts)):
        lo, hi = int(clue_bounds[g]), int(clue_bounds[g + 1])
        constraints = [([v for v in local_around[i] if v >= 0], need_sorted[i])
                       for i in range(lo, hi)]
        cells = cells_sorted[bounds[g]:bounds[g + 1]]
        components.append((cells, constraints, int(clues_sorted[lo])))
    return components, free


# -- engines ------------------------------------------------------------------------------------

def _solve_sat(size: int, constraints: list[tuple[list[int], int]], need: int | None,
               deadline: float | None, known: list[np.ndarray]) -> tuple[list[np.ndarray], bool]:
    """Up to ``need`` new solutions of one component with Minicard, other than ``known``.

    Returns (solutions, proved that there are no more).
    """
    from pysat.solvers import Solver

    solutions: list[np.ndarray] = []
    # Variable v + 1 is the component's cell v: a fixed bijection, no auxiliary variables.
    with Solver(name="mc") as solver, _Watch(deadline) as watch:
        for cells, mines in constraints:
            lits = [v + 1 for v in cells]
            # "exactly k of n" is at most k of the cells and at most n - k of their negations.
            solver.add_atmost(lits, mines)
            solver.add_atmost([-lit for lit in lits], len(lits) - mines)
        for solution in known:
            solver.add_clause([-(v + 1) if value else v + 1
                               for v, value in enumerate(solution.tolist())])
        while need is None or len(solutions) < need:
            status = watch.solve(solver)
            if status is None:
                return solutions, False
            if not status:
                return solutions, True
            model = solver.get_model()[:size]
            solutions.append(np.array(model) > 0)
            solver.add_clause([-lit for lit in model])  # block this solution
    return solutions, False


class _Watch:
    """Stops the solver at work when the deadline comes or Ctrl-C is pressed.

    Both engines search in C, where Python runs no signal handler until the call returns, so
    Ctrl-C alone would wait for the end of the search. A helper thread stops the solver instead
    (python-sat's ``interrupt``, with ``solve_limited(expect_interrupt=True)``; CP-SAT's
    ``stop_search``): at the deadline, and when Python's own SIGINT handler writes the signal's
    number to the wakeup fd (:func:`signal.set_wakeup_fd`), which the thread reads. The solver
    returns at once, and that handler raises KeyboardInterrupt as usual. Signals are watched
    from the main thread only, the one Python runs their handlers in.

    A context manager: the thread lives from ``with`` to the end of the block, and stops only
    what runs inside :meth:`stopping` (or :meth:`solve`). A watch not entered stops nothing.

    Parameters
    ----------
    deadline : float or None
        A :func:`time.perf_counter` time, or None for no deadline.

    Attributes
    ----------
    expired : bool
        True once the deadline has come.
    signalled : bool
        True when SIGINT came during the last :meth:`stopping` block.
    """

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.expired = False
        self.signalled = False
        self._lock = threading.Lock()
        self._stop: Callable[[], object] | None = None
        self._write: socket.socket | None = None  # the end the signal handler writes to
        self._previous_fd = -1  # the wakeup fd set before ours, put back at the end
        self._watching_signals = False

    def __enter__(self) -> _Watch:
        main = threading.current_thread() is threading.main_thread()
        if self.deadline is None and not main:
            return self  # no deadline, and no signal reaches this thread's code: nothing to do
        try:
            read, self._write = socket.socketpair()
            self._write.setblocking(False)  # a signal handler must never wait to write
            if main:
                try:
                    self._previous_fd = signal.set_wakeup_fd(self._write.fileno(),
                                                             warn_on_full_buffer=False)
                    self._watching_signals = True
                except ValueError:  # not the main interpreter: its signals are not ours
                    pass
            threading.Thread(target=self._run, args=(read,), name="msanalysis-watch",
                             daemon=True).start()
        except BaseException:
            # Ctrl-C can come while the thread starts: the wakeup fd must not outlive the watch.
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._watching_signals:
            self._watching_signals = False
            signal.set_wakeup_fd(self._previous_fd)  # before the socket it names is closed
        if self._write is not None:
            self._write.close()  # the thread reads the end of the stream and leaves
            self._write = None

    def _run(self, read: socket.socket) -> None:
        with read:
            while True:
                timeout = None
                if self.deadline is not None and not self.expired:
                    timeout = max(0.0, self.deadline - time.perf_counter())
                ready, _, _ = select.select([read], [], [], timeout)
                if not ready:
                    self._fire(expired=True)
                    continue
                try:
                    data = read.recv(512)
                except OSError:
                    return
                if not data:
                    return
                if self._previous_fd != -1:
                    # Whoever set the wakeup fd before us (an asyncio loop, say) still hears of
                    # the signal.
                    with suppress(OSError):
                        os.write(self._previous_fd, data)
                if int(signal.SIGINT) in data:
                    self._fire(expired=False)

    def _fire(self, *, expired: bool) -> None:
        with self._lock:
            if expired:
                self.expired = True
            else:
                self.signalled = True
            if self._stop is not None:
                self._stop()

    @contextmanager
    def stopping(self, stop: Callable[[], object],
                 clear: Callable[[], object] | None = None) -> Iterator[None]:
        """Let the watch call ``stop`` while the block runs; ``clear`` runs after the block.

        ``stop`` is called at once when the deadline has already come. ``clear`` undoes a stop
        once no other can follow (python-sat's ``clear_interrupt``), under the same lock.
        """
        with self._lock:
            self._stop = stop
            self.signalled = False
            if self.expired:
                stop()
        try:
            yield
        finally:
            with self._lock:
                self._stop = None
                if clear is not None:
                    clear()

    def solve(self, solver, assumptions: Sequence[int] = ()) -> bool | None:
        """``solver.solve(assumptions)`` with python-sat, or None when the deadline came first.

        Ctrl-C raises KeyboardInterrupt as soon as the solver has stopped.
        """
        while True:
            with self.stopping(solver.interrupt, solver.clear_interrupt):
                status = solver.solve_limited(assumptions=list(assumptions),
                                              expect_interrupt=True)
            if status is not None or self.expired or not self.signalled:
                return status
            # Stopped by a SIGINT whose handler raised nothing (Python's default one raises
            # KeyboardInterrupt as the solver returns): the search goes on.


def _propagate(solver, assumptions: list[int]) -> tuple[bool, list[int]]:
    """``solver.propagate(assumptions)``, with Ctrl-C raised as KeyboardInterrupt.

    In the main thread python-sat catches SIGINT during ``propagate`` with a handler of its
    own, raises its own error instead of KeyboardInterrupt, and leaves that handler in place,
    so the next Ctrl-C would be lost: Python's handler is put back first.
    """
    try:
        return solver.propagate(assumptions=assumptions)
    except Exception as error:
        if type(error).__module__ != "pysolvers" or "keyboard interrupt" not in str(error):
            raise
    if threading.current_thread() is threading.main_thread():
        handler = signal.getsignal(signal.SIGINT)
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
    raise KeyboardInterrupt


def _solve_cpsat(size: int, constraints: list[tuple[list[int], int]], need: int | None,
                 deadline: float | None, known: list[np.ndarray]) -> tuple[list[np.ndarray], bool]:
    """Up to ``need`` new solutions of one component with CP-SAT, other than ``known``.

    Returns (solutions, proved that there are no more).
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cells = [model.new_bool_var(f"c{v}") for v in range(size)]
    for members, mines in constraints:
        model.add(sum(cells[v] for v in members) == mines)
    for solution in known:  # differ from it somewhere
        model.add_bool_or([cell.Not() if value else cell
                           for cell, value in zip(cells, solution.tolist())])
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # several workers may report the same solution twice
    # CP-SAT's own SIGINT handler ends the search as if the time had run out, and Python never
    # hears of Ctrl-C; with Python's handler left in place, _Watch stops the search instead.
    solver.parameters.catch_sigint_signal = False
    collector = _collector_class()(cells, need)
    with _Watch(None) as watch:  # CP-SAT keeps the deadline itself (max_time_in_seconds)
        while True:
            if deadline is not None:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    return collector.solutions, False
                solver.parameters.max_time_in_seconds = remaining
            found = len(collector.solutions)
            with watch.stopping(solver.stop_search):
                status = solver.solve(model, collector)
            if collector.stopped or not watch.signalled:
                break
            # Stopped by a SIGINT whose handler raised nothing (Python's default one raises
            # KeyboardInterrupt as the search returns): search on, past the solutions found.
            for solution in collector.solutions[found:]:
                model.add_bool_or([cell.Not() if value else cell
                                   for cell, value in zip(cells, solution.tolist())])
    exhausted = not collector.stopped and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return collector.solutions, exhausted


@functools.cache
def _collector_class() -> type:
    """The CP-SAT solution callback class, defined on first use: OR-Tools loads slowly."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Keeps each solution and stops the search after ``need`` of them."""

        def __init__(self, cells: list, need: int | None) -> None:
            super().__init__()
            self.cells, self.need = cells, need
            self.solutions: list[np.ndarray] = []
            self.stopped = False

        def on_solution_callback(self) -> None:
            self.solutions.append(np.array([self.boolean_value(c) for c in self.cells], dtype=bool))
            if self.need is not None and len(self.solutions) >= self.need:
                self.stopped = True
                self.stop_search()

    return Collector


# -- conflicts ----------------------------------------------------------------------------------

def _conflict(clues: np.ndarray, rule: str, center: Cell, deadline: float | None) -> list[Cell]:
    """A small set of clue cells that cannot all hold, near ``center``.

    Windows of growing radius around the contradiction are tested with the fast search (clues
    outside a window are dropped, which can only add layouts); the first unsatisfiable window
    goes to a SAT solver with one selector per clue, whose unsat core is then shrunk by deletion
    until every clue in it is needed.
    """
    height, width = clues.shape
    row, col = center
    radius = 2
    while True:
        top, bottom = max(0, row - radius), min(height, row + radius + 1)
        left, right = max(0, col - radius), min(width, col + radius + 1)
        whole = top == 0 and left == 0 and bottom == height and right == width
        # Keep a margin of one clue-less cell row/column: the window's clues count those cells.
        mt, mb = max(0, top - 1), min(height, bottom + 1)
        ml, mr = max(0, left - 1), min(width, right + 1)
        window = np.full((mb - mt, mr - ml), UNKNOWN, dtype=np.int8)
        window[top - mt:bottom - mt, left - ml:right - ml] = clues[top:bottom, left:right]
        if whole:
            break
        if deadline is not None and time.perf_counter() > deadline:
            # No time to find a small window: every clue together is a true, if large, conflict.
            return [(int(r), int(c)) for r, c in np.argwhere(clues != UNKNOWN)]
        if isinstance(_search(window, rule, "sat", 1, deadline, True), _Unsatisfiable):
            break
        radius *= 2
    found = _unsat_core(window, rule, deadline)
    return sorted((r + mt, c + ml) for r, c in found)


def _unsat_core(clues: np.ndarray, rule: str, deadline: float | None) -> list[Cell]:
    """Clue cells of ``clues`` (unsatisfiable) whose constraints already clash, minimised."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    height, width = clues.shape
    pool = IDPool()
    selectors: dict[int, Cell] = {}
    with Solver(name="mc") as solver:
        for row, col in zip(*np.nonzero(clues != UNKNOWN)):
            row, col = int(row), int(col)
            lits = [pool.id((row + dr, col + dc)) for dr, dc in _kernel(rule)
                    if 0 <= row + dr < height and 0 <= col + dc < width]
            selector = pool.id(("clue", row, col))
            selectors[selector] = (row, col)
            encoded = CardEnc.equals(lits, bound=int(clues[row, col]), vpool=pool,
                                     encoding=EncType.seqcounter)
            for clause in encoded.clauses:
                solver.add_clause([*clause, -selector])  # the clue holds only when selected
        # Through _Watch, not solve(): python-sat's own SIGINT handler would raise its error in
        # place of KeyboardInterrupt. The window's proof has no deadline; the shrinking has.
        with _Watch(None) as watch:
            if watch.solve(solver, list(selectors)):
                raise AssertionError("the conflict window was proven unsatisfiable")
        core = sorted(solver.get_core())
        index = 0
        with _Watch(deadline) as watch:
            while index < len(core):
                trial = core[:index] + core[index + 1:]
                status = watch.solve(solver, trial)
                if status is None:
                    break  # out of time: the core so far still clashes
                if status:
                    index += 1  # this clue is needed for the clash
                else:
                    smaller = set(solver.get_core())
                    core = [s for s in trial if s in smaller]
        return [selectors[s] for s in core]
