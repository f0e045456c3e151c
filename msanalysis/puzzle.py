"""Number-grid puzzles: make them unique and irreducible, and grade the reasoning they need.

:func:`make_puzzle` starts from every number of a layout (Mosaic / Fill-a-Pix under the
``mosaic`` rule, Minesweeper numbers under ``classic``) and removes clues while the layout stays
the only one that fits, down to an irreducible set: no single clue can go. :func:`grade` says how
hard a grid is to solve: 1 when single clues settle every cell, 2 when pairs of clues are needed,
3 when only a search over a component settles it. Both return or use :class:`Puzzle`, the made
puzzle with its solution. Reading and writing grids (and Tatham's game IDs) is left to
:mod:`msanalysis.reconstruction`, pictures to :mod:`msanalysis.svg`, the command line to
:mod:`msanalysis.cli`.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from msanalysis.board import Board, as_int
from msanalysis.errors import (
    InvalidInput,
    TimeLimitReached,
    as_real,
    check_function,
    check_type,
    deadline_after,
    seconds_left,
    time_is_up,
)
from msanalysis.gridlogic import Padded, Unsatisfiable, settle
from msanalysis.numbergrid import (
    UNKNOWN,
    NumberGrid,
    check_rule,
    counted_offsets,
    read_with_header,
)
from msanalysis.reconstruction import reconstruct
from msanalysis.rules import as_seed
from msanalysis.solverwatch import Watch, propagate

__all__ = ["DEFAULT_DENSITY", "GRADES", "MAX_CELLS", "Puzzle", "grade", "make_puzzle",
           "read_grid"]

GRADES = {1: "single clues", 2: "pairs of clues", 3: "a component's SAT"}
"""The reasoning each grade needs: the hardest step a solver must take to settle every cell."""

DEFAULT_DENSITY = 99 / 480
"""Share of mine (filled) cells when a puzzle is made from a size: expert Minesweeper's 20.6%."""

# Removal works tile by tile: one incremental solver holds a tile of clues behind selector
# literals, inside a margin of cells whose clues are fixed for that tile, and its far edge free.
# A test the tile cannot settle (the second layout it finds runs to that edge) goes to a solver
# over the enclosing block with a wider margin; each level is (block side, margin), and tiles
# are visited block by block so that one solver per level is alive at a time. The rare test no
# block settles goes to a window around its clue (built for it alone: margins of _WINDOWS), and
# the rarer still to one solver over the whole grid. Measured at the default density: tiles
# settle about 97% of the tests on 100x100 and 300x300 grids, blocks all but a few of the rest.
_LEVELS = [(8, 8), (32, 16)]
_WINDOWS = (48, 96)
# Clues tried together at the start of a tile, halved after each failure: the first clues of a
# tile's order are nearly always removable (dense clues around, the least telling ones first).
_RUN = 8
# Grids of at most this many cells have one solver over the whole grid for every test instead
# of tiles: no solver to build per tile, no test sent on to a wider one, and what the solver
# learns serves every later test. Measured at 30x30: 30% faster at half density.
_ONE_SOLVER = 900
# Clues still to be tried are assumed shown in every test: those of the tested clue's group of
# _GROUP (consecutive in the test order) one by one, each later group by one literal implying
# its selectors. Each assumption is a decision level of the solver's own: measured at 30x30,
# 8% faster than one assumption per waiting clue.
_GROUP = 16
_DRAWS = 100  # layouts drawn, at most, before giving up on a size whose full grid is never unique
MAX_CELLS = 1_000_000
"""The largest puzzle made, in cells: 1000x1000 takes minutes (300x300 about 9 s)."""


@dataclass(frozen=True)
class Puzzle:
    """A number-grid puzzle whose clues fit exactly one layout.

    Attributes
    ----------
    grid : NumberGrid
        The clues given (``?`` where none is); its rule says what a number counts.
    solution : Board
        The only layout that fits them.
    grade : int
        The hardest reasoning needed to solve it, a key of :data:`GRADES` (see :func:`grade`).
    seed : int or None
        The seed that made it (layout and removal order), or None when it came from elsewhere.
    irreducible : bool or None
        True when every clue was shown to be needed (removing any one leaves a second layout),
        False when some clue is known to be removable (a ``share`` target put clues back), None
        when not checked (a ``grade`` target keeps clues that easier reasoning needs).

    Examples
    --------
    >>> puzzle = make_puzzle(width=6, height=5, seed=3)
    >>> puzzle.clue_count < puzzle.grid.width * puzzle.grid.height, puzzle.irreducible
    (True, True)
    >>> reconstruct(puzzle.grid).first == puzzle.solution
    True
    >>> Puzzle.from_text(puzzle.to_text()) == puzzle
    True
    """

    grid: NumberGrid
    solution: Board
    grade: int
    seed: int | None = None
    irreducible: bool | None = field(default=None, compare=False)

    @property
    def rule(self) -> str:
        return self.grid.rule

    @property
    def clue_count(self) -> int:
        """How many cells show a clue."""
        return int((self.grid.clues != UNKNOWN).sum())

    @property
    def share(self) -> float:
        """The share of cells that show a clue (0 to 1)."""
        return self.clue_count / (self.grid.width * self.grid.height)

    @classmethod
    def from_grid(cls, grid: NumberGrid, *, seed: int | None = None,
                  time_limit: float | None = None) -> Puzzle:
        """The puzzle a grid makes, solved and graded (``seed``: see
        :func:`~msanalysis.rules.as_seed`, or None).

        Raises
        ------
        InvalidInput
            When no layout or more than one fits the grid.
        """
        seed = as_seed(seed)  # a negative one would write a header that cannot be read back
        found = reconstruct(grid, time_limit=time_limit)
        if found.first is None or not found.unique:
            if found.count == 0:
                raise InvalidInput("no layout fits these clues: not a puzzle")
            raise InvalidInput("several layouts fit these clues: not a puzzle with one answer")
        return cls(grid, found.first, _local_grade(grid) or 3, seed)

    @classmethod
    def from_text(cls, text: str, *, rule: str | None = None) -> Puzzle:
        """Read :meth:`to_text`'s output (or any grid text or Tatham ID) as a puzzle.

        The header line written by :meth:`to_text` gives the rule and seed (see
        :func:`read_grid`).
        """
        check_type(text, str, "Puzzle.from_text", "a puzzle's text or a Tatham Mosaic ID")
        grid, header = read_with_header(text, rule=rule, default="mosaic")
        seed = None if header is None else header.group("seed")
        return cls.from_grid(grid, seed=None if seed is None else int(seed))

    def to_text(self) -> str:
        """A header comment (rule, size, clues, grade, seed) and the grid's rows."""
        cells = self.grid.width * self.grid.height
        seed = "" if self.seed is None else f", seed {self.seed}"
        return (f"# msanalysis puzzle: {self.rule} {self.grid.width}x{self.grid.height}, "
                f"{self.clue_count} of {cells} clues, grade {self.grade}{seed}\n"
                f"{self.grid.to_text()}")

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures
        return svg.board(self)


def read_grid(text: str, *, rule: str | None = None) -> NumberGrid:
    """A puzzle's grid from text: our grid rows or a Tatham Mosaic ID.

    The rule is ``rule`` when given; else the one named by the header that
    :meth:`Puzzle.to_text` writes; else mosaic. (A Tatham ID is always mosaic.) A header
    whose size is not the grid's is a ParseError: the header belongs to another puzzle.

    Examples
    --------
    >>> read_grid("# msanalysis puzzle: classic 2x1, 2 of 2 clues, grade 1\\n11").rule
    'classic'
    >>> read_grid("11").rule
    'mosaic'
    """
    check_type(text, str, "read_grid", "a puzzle's text or a Tatham Mosaic ID")
    return read_with_header(text, rule=rule, default="mosaic")[0]


# -- grading ------------------------------------------------------------------------------------

def grade(grid: NumberGrid, *, unique: bool | None = None,
          time_limit: float | None = None) -> int | None:
    """The hardest reasoning a solver needs to settle every cell of ``grid``.

    Parameters
    ----------
    grid : NumberGrid
        Any grid of clues, under either rule.
    unique : bool, optional
        Whether exactly one layout fits, when the caller already knows (the search that grade
        3 needs is then skipped).
    time_limit : float, optional
        Seconds allowed for the search of grade 3.

    Returns
    -------
    int or None
        1 when single clues settle every cell (a clue whose mines are all found frees its other
        cells; one that needs all its unknown cells fills them), 2 when pairs of overlapping
        clues are also needed, 3 when only a search over a component settles the rest, and None
        when no layout or several fit the grid.

    Examples
    --------
    >>> grade(NumberGrid.from_text("0000\\n1110\\n1010"))
    1
    >>> grade(NumberGrid.from_text("?1?1?", rule="mosaic")) is None  # several layouts
    True

    Notes
    -----
    Grades 1 and 2 are a few dozen numpy passes of O(cells) each; grade 3 calls
    :func:`~msanalysis.reconstruction.reconstruct`, exponential in the worst case.
    """
    check_type(grid, NumberGrid, "grade", "NumberGrid.from_text reads one")
    deadline = deadline_after(time_limit)
    local = _local_grade(grid, deadline)
    if local is not None:
        return local if local > 0 else None
    if unique is None:
        unique = reconstruct(grid, time_limit=seconds_left(deadline)).unique
    return 3 if unique else None


def _local_grade(grid: NumberGrid, deadline: float | None = None) -> int | None:
    """1 or 2 when single clues, or pairs of clues, settle every cell; 0 when they find that no
    layout fits; None when they leave cells open."""
    clues = grid.clues
    padded = Padded(clues, grid.rule)
    for level, pairs in ((1, False), (2, True)):
        state = settle(clues, grid.rule, padded, pairs=pairs, deadline=deadline)
        if isinstance(state, Unsatisfiable):
            return 0
        if not (state == UNKNOWN).any():
            return level
    return None


# -- making puzzles -----------------------------------------------------------------------------

def make_puzzle(layout: Board | None = None, *, width: int | None = None,
                height: int | None = None, density: float = DEFAULT_DENSITY,
                rule: str = "mosaic", seed: int | None = None, grade: int | None = None,
                share: float | None = None, check: str = "sat",
                time_limit: float | None = None,
                on_test: Callable[[int, int], None] | None = None) -> Puzzle:
    """Make a puzzle with exactly one answer and as few clues as the removal order allows.

    Starts from every number of the layout and tries to remove each clue in turn, in a seeded
    order (the least telling clues first, ties broken at random), keeping the removal when the
    layout stays the only one that fits (and, with ``grade``, stays solvable with that
    reasoning). Every clue is tried once, so no single clue of the result can be removed: it is
    irreducible (minimal), though not always the smallest such set.

    Parameters
    ----------
    layout : Board, optional
        The answer. Without it, a layout of ``width x height`` with ``round(density * cells)``
        mines is drawn from ``seed`` (drawn again, from the same seed, while its full grid fits
        more than one layout, as tiny mosaic grids often do).
    width, height : int, optional
        The size, when no layout is given.
    density : float
        Share of mine cells in a drawn layout, 0 to 1.
    rule : {"mosaic", "classic"}
        What a number counts: the 3x3 block with the cell (Mosaic, Fill-a-Pix) or the 8
        neighbours (Minesweeper; mine cells carry numbers too).
    seed : int, optional
        Makes the layout and the removal order reproducible; a random one is chosen (and kept in
        the result) when not given.
    grade : {1, 2, 3}, optional
        Keep the puzzle solvable with this reasoning (see :func:`grade`): 1 single clues, 2 pairs
        of clues, 3 anything (the default: only uniqueness matters).
    share : float, optional
        Put removed clues back, in random order, until at least this share of the cells show a
        clue (the result is then no longer irreducible).
    check : {"sat", "cpsat"}
        The engine of :func:`~msanalysis.reconstruction.reconstruct` that checks at the end that
        the result has exactly one layout, apart from the solvers that removed the clues: its
        local rules and one solver per component (Minicard, the default) or OR-Tools CP-SAT
        (slower on large puzzles, whose one component spans the grid).
    time_limit : float, optional
        Seconds allowed; :class:`~msanalysis.errors.AnalysisTooHard` when they run out.
    on_test : callable, optional
        Called as ``on_test(done, total)`` after each clue is tried (for progress bars).

    Returns
    -------
    Puzzle

    Raises
    ------
    InvalidInput
        On a bad size, density, rule, grade or share; when a given layout's full grid already
        fits several layouts or needs harder reasoning than ``grade``; when no drawn layout of
        the size has a unique full grid.
    AnalysisTooHard
        When ``time_limit`` runs out.

    Examples
    --------
    >>> puzzle = make_puzzle(width=8, height=8, rule="mosaic", seed=1)
    >>> puzzle.clue_count, puzzle.grade, puzzle.irreducible
    (20, 2, True)
    >>> make_puzzle(width=8, height=8, seed=1, grade=1).grade
    1

    Notes
    -----
    Clues are tried tile by tile (8x8). On grids of up to 900 cells one incremental SAT solver
    (Minicard) holds the whole grid, each clue behind a selector literal; removing a clue is
    tested by asking, under assumptions (the clue off, the clues still to be tried on), for a
    second layout that differs from the answer next to it. On larger grids a solver holds a tile
    and a margin of 8 cells around it. The margin's far edge is left free, so "no second layout"
    there proves uniqueness; a second layout that keeps away from the edge proves the clue
    needed; one that runs to the edge sends the test up: to a solver over the 32x32 block around
    the tile (margin 16), to windows around the clue, and at last to a solver over the whole
    grid, which always answers. Before any solver, a second layout that flips one or two cells
    is looked for with one matrix product; the first clues of a tile are tried together. Grades
    1 and 2 use the same solvers with unit propagation in place of search (with, for grade 2, a
    constraint per pair of overlapping clues that makes propagation apply the pair rule). About
    one solver call per cell, each on a few hundred cells: time grows about linearly with the
    grid; measured times are in ``benchmarks/puzzles.py``.
    """
    check_rule(rule)
    if layout is not None:
        check_type(layout, Board, "make_puzzle", "Board.from_text reads one")
    check_function(on_test, "on_test is a function of (done, total)")
    if grade is not None and as_int(grade, "grade") not in GRADES:
        raise InvalidInput(f"grade must be one of 1, 2, 3, got {grade!r}")
    if share is not None and not 0 <= as_real(share) <= 1:  # True is no share
        raise InvalidInput(f"share must be between 0 and 1, got {share!r}")
    if not isinstance(check, str) or check not in ("cpsat", "sat"):
        raise InvalidInput(f"check must be 'cpsat' or 'sat', got {check!r}")
    deadline = deadline_after(time_limit)
    seed = as_seed(seed)  # True is no seed
    if seed is None:
        seed = secrets.randbits(32)
    level = 3 if grade is None else grade
    if layout is None:
        # At grade 3 a drawn layout's full grid is not checked before its clues are removed:
        # the puzzle's clues are some of them, so the final check that the puzzle fits only its
        # layout shows that the full grid does too. Only when that check fails is the full grid
        # graded and, when it fits several layouts, the puzzle made again from layouts checked
        # as they are drawn (the same draws as at grades 1 and 2).
        made = None
        if level == 3:
            made = _make_drawn(width, height, density, rule, seed, level, share, check,
                               deadline, on_test, checked=False)
        return made or _made(_make_drawn(width, height, density, rule, seed, level, share,
                                         check, deadline, on_test, checked=True))
    if width is not None or height is not None:
        raise InvalidInput("give a layout or a size, not both")
    full = NumberGrid.from_board(layout, rule=rule)
    if _full_grade(full) > level:
        raise InvalidInput(f"this layout's full grid {_full_grade_words(full, level)}, so "
                           f"no puzzle of grade {level} can be made from it")
    return _made(_make(layout, np.random.default_rng(seed), rule, seed, level, share, check,
                       deadline, on_test))


def _made(puzzle: Puzzle | None) -> Puzzle:
    """The puzzle made from a layout whose full grid fits only itself, which fits only it too."""
    if puzzle is None:
        raise RuntimeError("the puzzle made does not fit its layout alone; this is a bug")
    return puzzle


def _make_drawn(width: int | None, height: int | None, density: float, rule: str, seed: int,
                level: int, share: float | None, check: str, deadline: float | None,
                on_test: Callable[[int, int], None] | None, checked: bool) -> Puzzle | None:
    """:func:`make_puzzle` from a drawn layout (its full grid checked first when ``checked``);
    None when the layout's full grid, not checked, turned out to fit several layouts."""
    rng = np.random.default_rng(seed)
    layout = _draw_layout(width, height, density, rule, level, rng, deadline, checked=checked)
    made = _make(layout, rng, rule, seed, level, share, check, deadline, on_test)
    if made is None and not checked and \
            _full_grade(NumberGrid.from_board(layout, rule=rule)) > level:
        return None
    return _made(made)


def _make(layout: Board, rng: np.random.Generator, rule: str, seed: int, level: int,
          share: float | None, check: str, deadline: float | None,
          on_test: Callable[[int, int], None] | None) -> Puzzle | None:
    """The puzzle made from ``layout`` (see :func:`make_puzzle`), or None when several layouts
    fit it (only possible when the layout's full grid does too)."""
    mask = np.array(layout.mask)
    if mask.size > MAX_CELLS:
        raise InvalidInput(f"a puzzle of {layout.width}x{layout.height} has {mask.size:,} cells; "
                           f"the most this makes is {MAX_CELLS:,}")
    maker = _Maker(mask, rule, rng, deadline, on_test)
    with maker.watch:
        kept = maker.remove_all(level)
    irreducible: bool | None = True if level == 3 else None
    if share is not None:
        shown = kept.copy()
        wanted = math.ceil(share * mask.size)
        back = np.flatnonzero(~shown)
        back = back[rng.permutation(back.size)][:max(0, wanted - int(shown.sum()))]
        shown.flat[back] = True
        if back.size:
            irreducible = False
        kept = shown
    clues = np.where(kept, maker.clues.reshape(mask.shape), UNKNOWN)
    puzzle_grid = NumberGrid(clues, rule=rule)
    settled = _check_unique(puzzle_grid, layout, check, deadline)
    if settled is None:
        return None
    # Unique, so what local rules leave needs SAT; when the check's own local rules (single
    # clues and pairs, as grade 2) left cells to its engine, the grade is 3 without grading.
    measured = (_local_grade(puzzle_grid) or 3) if settled else 3
    if measured > level:
        raise RuntimeError(f"the puzzle made needs grade {measured}, more than {level}; "
                           "this is a bug")
    return Puzzle(puzzle_grid, layout, measured, seed, irreducible)


_grade_of = grade  # make_puzzle's parameter named grade hides the function inside it


def _full_grade(grid: NumberGrid) -> int:
    """The grade of a full grid, or 4 when it fits several layouts."""
    level = _grade_of(grid)
    return 4 if level is None else level


def _full_grade_words(grid: NumberGrid, level: int) -> str:
    measured = _full_grade(grid)
    if measured == 4:
        return "fits more than one layout"
    return f"needs grade {measured} reasoning ({GRADES[measured]}), more than grade {level}"


def _draw_layout(width: int | None, height: int | None, density: float, rule: str, level: int,
                 rng: np.random.Generator, deadline: float | None, checked: bool = True) -> Board:
    """A layout of the size whose full grid is unique and of grade at most ``level``; the first
    one drawn, its full grid not checked, unless ``checked``."""
    from msanalysis.rules import generate

    if width is None or height is None:
        raise InvalidInput("give a layout, or both width and height")
    width, height = as_int(width, "width"), as_int(height, "height")
    if width <= 0 or height <= 0:
        raise InvalidInput(f"a puzzle needs a positive size, got {width}x{height}")
    if width * height > MAX_CELLS:
        raise InvalidInput(f"a puzzle of {width}x{height} has {width * height:,} cells; the most "
                           f"this makes is {MAX_CELLS:,}")
    if not 0 <= as_real(density) <= 1:  # True is no density
        raise InvalidInput(f"density must be between 0 and 1, got {density!r}")
    mines = round(density * width * height)
    for _ in range(_DRAWS):
        if time_is_up(deadline):
            raise TimeLimitReached(f"the time limit ran out while drawing a {width}x{height} "
                                   "layout whose full grid fits only itself")
        board = generate(width, height, mines, rules="unsafe", seed=int(rng.integers(2 ** 32)))
        if not checked or _full_grade(NumberGrid.from_board(board, rule=rule)) <= level:
            return board
    raise InvalidInput(f"none of {_DRAWS} layouts of {width}x{height} with {mines} mines has a "
                       f"full {rule} grid that fits only itself"
                       + (f" at grade {level}" if level < 3 else ""))


def _check_unique(grid: NumberGrid, layout: Board, engine: str, deadline: float | None
                  ) -> bool | None:
    """Check with ``reconstruct`` (not the removal's solvers) that ``layout`` is the only answer.

    Returns whether its local rules (single clues and pairs) settled every cell by themselves,
    leaving nothing to its engine: when they did not, the grid needs grade 3. None when several
    layouts fit.
    """
    found = reconstruct(grid, engine=engine, time_limit=seconds_left(deadline))
    if found.unique is None:
        raise TimeLimitReached("the time limit ran out while checking that the puzzle is unique")
    if not found.unique:
        return None
    if found.first != layout:
        raise RuntimeError("the puzzle made does not fit its layout alone; this is a bug")
    # The components the engine solved, and cells no clue counts: none when local rules settled
    # every cell (reconstruct's propagation is settle with pairs, as _local_grade's level 2).
    return not found._parts and found._free.size == 0


class _Maker:
    """The removal of clues from one layout's full grid, in a seeded order, tile by tile.

    ``kept`` (flat bool) holds the clues still shown; clues are flat indices into the grid.
    """

    def __init__(self, mask: np.ndarray, rule: str, rng: np.random.Generator,
                 deadline: float | None, on_test: Callable[[int, int], None] | None) -> None:
        self.mask = mask
        self.rule = rule
        self.height, self.width = mask.shape
        self.clues = NumberGrid.from_board(Board(mask), rule=rule).clues.astype(np.int64).ravel()
        self.kept = np.ones(mask.size, dtype=bool)
        self.rng = rng
        self.deadline = deadline
        # Entered around remove_all (see _make): one helper thread stops every solve of the
        # removal at the deadline or at Ctrl-C, where a thread per solve cost more than the solve.
        self.watch = Watch(deadline)
        self.on_test = on_test
        self.kernel = counted_offsets(rule)
        self.patterns = _Patterns(mask, rule)
        self.done = 0  # clues tried so far, in the order of self.untested
        self.untested: list[int] = []

    def _tiles(self) -> list[tuple[int, int, list[int]]]:
        """(top row, left column, flat clues in test order) of every tile, block by block of every
        level (largest first), so that the tiles of a block come one after another.

        Within a tile, clues whose value tells least are tried first: a value the layout's
        density makes likely (a 4 of 9 at half density, a 0 at low density) leaves more room for
        a second layout than a rare one, so removing the common values first keeps the rare,
        telling ones. The information of each value, -log2 of its binomial probability, is
        jittered by a uniform random number so that the seed still decides the order among
        similar clues. Measured on 30x30 grids against a plainly random order (5 seeds each):
        358 clues instead of 370 at half density, 302 instead of 308 at 20.6%.
        """
        # How many cells each clue counts: what an all-mine layout shows.
        size = NumberGrid.from_board(Board(np.ones_like(self.mask)), rule=self.rule).clues.ravel()
        density = min(max(float(self.mask.mean()), 1e-9), 1 - 1e-9)
        need = self.clues
        log_choose = np.array([math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                               for n, k in zip(size.tolist(), need.tolist())])
        information = -(log_choose + need * math.log(density)
                        + (size - need) * math.log(1 - density)) / math.log(2)
        tiles = []

        def visit(top: int, left: int, level: int) -> None:
            side = _LEVELS[level][0]
            if level == 0:
                rows = np.arange(top, min(top + side, self.height))
                cols = np.arange(left, min(left + side, self.width))
                cells = (rows[:, None] * self.width + cols[None, :]).ravel()
                key = information[cells] + self.rng.random(cells.size)
                tiles.append((top, left, cells[np.argsort(key, kind="stable")].tolist()))
                return
            inner = _LEVELS[level - 1][0]
            for row in range(top, min(top + side, self.height), inner):
                for col in range(left, min(left + side, self.width), inner):
                    visit(row, col, level - 1)

        top_side = _LEVELS[-1][0]
        for row in range(0, self.height, top_side):
            for col in range(0, self.width, top_side):
                visit(row, col, len(_LEVELS) - 1)
        return tiles

    def remove_all(self, level: int) -> np.ndarray:
        """Try every clue once; the shown clues afterwards, as a bool grid."""
        tiles = self._tiles()
        self.untested = [clue for _, _, order in tiles for clue in order]
        self.grade_level = level
        # The solvers alive: per level above the tiles, (block's top-left, solver or None until a
        # test needs it); then the whole grid's, built on the first test no block settles.
        self.blocks: list[tuple[tuple[int, int], _Region | None]] = \
            [((-1, -1), None) for _ in _LEVELS[1:]]
        self.whole: _Region | None = None
        total = self.mask.size
        # Small grids: the whole grid's solver tests every clue (see _ONE_SOLVER).
        one_solver = None
        if total <= _ONE_SOLVER:
            self.whole = one_solver = _Region(self, 0, self.height, 0, self.width,
                                              self.untested, level)
        for top, left, order in tiles:
            if one_solver is not None:
                tile = one_solver
            else:
                self._enter(top, left)
                side, margin = _LEVELS[0]
                tile = _Region(self, top - margin, top + side + margin, left - margin,
                               left + side + margin, order, level)
            self.patterns.prepare(order)
            at, run = 0, _RUN
            while at < len(order):
                self._check_time()
                if level == 3 and run > 1:
                    # The next clues together: when none has a flip or swap and the tile finds
                    # no second layout without all of them, they all go at once, as one by one
                    # they would (each removal keeps uniqueness; removing fewer cannot break it).
                    batch = []
                    for clue in order[at:at + run]:
                        if self.patterns.second_layout(clue):
                            break
                        batch.append(clue)
                    if len(batch) > 1 and tile.all_removable(batch):
                        for clue in batch:
                            self._decide(clue, True, tile, total)
                        at += len(batch)
                        continue
                    run //= 2
                clue = order[at]
                self._decide(clue, self._test(clue, tile), tile, total)
                at += 1
            if tile is not one_solver:
                tile.close()
        for _, solver in self.blocks:
            if solver is not None:
                solver.close()
        if self.whole is not None:
            self.whole.close()
        return self.kept.reshape(self.mask.shape)

    def _decide(self, clue: int, removable: bool, tile: _Region, total: int) -> None:
        """Record a tested clue in every live solver and in the shown clues."""
        whole = self.whole if self.whole is not tile else None
        for solver in (tile, *(solver for _, solver in self.blocks), whole):
            if solver is not None:
                solver.decided(clue, not removable)
        if removable:
            self.kept[clue] = False
            self.patterns.remove(clue)
        self.done += 1
        if self.on_test is not None:
            self.on_test(self.done, total)

    def _enter(self, top: int, left: int) -> None:
        """Close the block solvers of blocks this tile is not in (they are finished)."""
        for index, (side, _) in enumerate(_LEVELS[1:]):
            corner = (top - top % side, left - left % side)
            old_corner, solver = self.blocks[index]
            if corner != old_corner:
                if solver is not None:
                    solver.close()
                self.blocks[index] = (corner, None)

    def _block(self, index: int) -> _Region | None:
        """The solver of the current block at level ``index + 1``, built on first use; None
        when that block and its margin would cover the whole grid (the whole grid's solver is
        the next step then)."""
        corner, solver = self.blocks[index]
        if solver is not None:
            return solver
        side, margin = _LEVELS[index + 1]
        top, left = corner
        bounds = (max(0, top - margin), min(self.height, top + side + margin),
                  max(0, left - margin), min(self.width, left + side + margin))
        if bounds == (0, self.height, 0, self.width):
            return None
        inside = [clue for clue in self.untested[self.done:]
                  if top <= clue // self.width < top + side
                  and left <= clue % self.width < left + side]
        solver = _Region(self, *bounds, inside, self.grade_level)
        self.blocks[index] = (corner, solver)
        return solver

    def _check_time(self) -> None:
        if time_is_up(self.deadline):
            raise TimeLimitReached(f"the time limit ran out while making a {self.width}x"
                                   f"{self.height} puzzle ({int(self.kept.sum())} clues left)")

    def _test(self, clue: int, tile: _Region) -> bool:
        """Can ``clue`` go, the layout staying the only one (and of grade at most the target)?

        Exact: the tile's solver answers most tests; the others go to the solvers of the blocks
        around it, then to windows around the clue, then to one over the whole grid, which
        always answers.
        """
        if self.patterns.second_layout(clue):
            return False
        verdict = tile.test(clue)
        index = 0
        while verdict is None and index < len(self.blocks):
            block = self._block(index)
            index += 1
            if block is not None:
                verdict = block.test(clue)
        row, col = divmod(clue, self.width)
        for margin in _WINDOWS:
            if verdict is not None:
                break
            top, bottom = max(0, row - margin), min(self.height, row + margin + 1)
            left, right = max(0, col - margin), min(self.width, col + margin + 1)
            if 2 * (bottom - top) * (right - left) >= self.mask.size:
                break  # as big as the whole grid, whose solver stays for other tests
            window = _Region(self, top, bottom, left, right, [clue], self.grade_level)
            verdict = window.test(clue)
            window.close()
        if verdict is None:
            if self.whole is None:
                self.whole = _Region(self, 0, self.height, 0, self.width,
                                     self.untested[self.done:], self.grade_level)
            verdict = self.whole.test(clue)
            if verdict is None:
                raise AssertionError("the whole grid always answers a test")
        return verdict == "removable"


class _Patterns:
    """Second layouts that flip one or two cells: found without a solver.

    Without clue c, flipping cell x (in c's block) is a second layout when no other shown clue
    counts x; swapping a mine x (in c's block) with a free cell y (outside it), or the reverse,
    is one when the other shown clues that count x are exactly those that count y. Each test
    reads the shown clues of the 9x9 window around c once and checks every candidate with one
    matrix product. These patterns decide about half the clues an irreducible puzzle keeps.
    """

    def __init__(self, mask: np.ndarray, rule: str) -> None:
        height, width = mask.shape
        self.width = width
        self.stride = width + 8
        kernel = counted_offsets(rule)
        window = [(dr, dc) for dr in range(-4, 5) for dc in range(-4, 5)]
        index = {offset: i for i, offset in enumerate(window)}
        self.offsets = np.array([dr * self.stride + dc for dr, dc in window], dtype=np.int64)
        self.centre = index[(0, 0)]
        counted_by = {}  # cell offset -> indicator of the clue offsets that count it
        for dr in range(-3, 4):
            for dc in range(-3, 4):
                row = np.zeros(len(window), dtype=np.int64)
                for kr, kc in kernel:
                    row[index[(dr - kr, dc - kc)]] = 1
                counted_by[(dr, dc)] = row
        block = set(kernel)
        rows, firsts, seconds = [], [], []
        for x in kernel:
            rows.append(counted_by[x])
            firsts.append(index[x])
            seconds.append(-1)
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    y = (x[0] + dr, x[1] + dc)
                    if y == x or y in block:
                        continue
                    rows.append(counted_by[x] ^ counted_by[y])
                    firsts.append(index[x])
                    seconds.append(index[y])
        matrix = np.array(rows, dtype=np.float32)
        matrix[:, self.centre] = 0  # the clue tested is the one left out
        self.matrix = matrix  # float32: the product goes to BLAS, exact for these small counts
        self.first = np.array(firsts)
        self.second = np.array(seconds)
        self.single = self.second < 0
        self.second[self.single] = self.first[self.single]
        inside = np.zeros((height + 8, width + 8), dtype=bool)
        inside[4:-4, 4:-4] = True
        self.inside = inside.ravel()
        padded = np.zeros((height + 8, width + 8), dtype=bool)
        padded[4:-4, 4:-4] = mask
        self.mine = padded.ravel()
        self.kept = self.inside.astype(np.float32)  # every clue is shown at the start
        self.usable: dict[int, np.ndarray] = {}

    def _cells(self, clues: np.ndarray) -> np.ndarray:
        """Padded flat indices of the 9x9 windows around ``clues`` (one row per clue)."""
        rows, cols = np.divmod(clues, self.width)
        return ((rows + 4) * self.stride + cols + 4)[:, None] + self.offsets[None, :]

    def prepare(self, clues: list[int]) -> None:
        """Which candidates can be second layouts around each clue, whatever clues are shown:
        both cells on the grid, and for a swap one mine and one free cell. Once per tile."""
        cells = self._cells(np.array(clues, dtype=np.int64))
        inside, mine = self.inside[cells], self.mine[cells]
        usable = inside[:, self.first] & inside[:, self.second] & \
            (self.single | (mine[:, self.first] != mine[:, self.second]))
        self.usable = dict(zip(clues, usable))

    def remove(self, clue: int) -> None:
        row, col = divmod(clue, self.width)
        self.kept[(row + 4) * self.stride + col + 4] = 0

    def second_layout(self, clue: int) -> bool:
        """Does flipping one or two cells give a second layout without ``clue``?"""
        row, col = divmod(clue, self.width)
        shown = self.kept[(row + 4) * self.stride + col + 4 + self.offsets]
        return bool(((self.matrix @ shown == 0) & self.usable[clue]).any())


class _Region:
    """One incremental Minicard solver over rows ``top:bottom``, columns ``left:right``.

    The clues of ``tested`` (flat cells, in test order) are the ones this solver tests; each sits
    behind a selector ``e``, assumed for every clue after the one tested (those still wait, so
    they are shown; groups of them by one literal) and fixed by a unit clause once the clue is
    decided. The other shown clues whose cells all lie inside are fixed. Cells outside the
    region do not exist for the solver, so its edge is free: a second layout found inside proves
    the tested clue needed only when it keeps two cells away from that edge (where every shown
    clue that counts its cells is in the solver).
    """

    def __init__(self, maker: _Maker, top: int, bottom: int, left: int, right: int,
                 tested: list[int], level: int = 3) -> None:
        from pysat.solvers import Solver

        height, width = maker.height, maker.width
        top, bottom = max(0, top), min(height, bottom)
        left, right = max(0, left), min(width, right)
        self.top, self.left = top, left
        self.rows, self.cols = bottom - top, right - left
        self.whole = (top, left, bottom, right) == (0, 0, height, width)
        self.watch = maker.watch
        cells = self.rows * self.cols
        # Variable of cell (r, c) of the region: r * cols + c + 1; 0 marks "no cell there".
        kernel = maker.kernel
        rows = np.arange(top, bottom)[:, None]
        cols = np.arange(left, right)[None, :]
        flat = (rows * width + cols).ravel()
        answer = maker.mask[top:bottom, left:right].ravel()
        lits = np.zeros((cells, len(kernel)), dtype=np.int64)
        whole_block = np.ones(cells, dtype=bool)
        for k, (dr, dc) in enumerate(kernel):
            r, c = rows + dr, cols + dc
            on_grid = ((r >= 0) & (r < height) & (c >= 0) & (c < width)).ravel()
            in_region = ((r >= top) & (r < bottom) & (c >= left) & (c < right)).ravel()
            whole_block &= in_region | ~on_grid
            lits[:, k] = np.where(in_region, ((r - top) * self.cols + (c - left) + 1).ravel(), 0)
        self.solver = solver = Solver(name="mc")
        self.select: dict[int, int] = {}  # clue -> e: its constraint holds
        # For the grade tests every constraint holds only under the literal `on`, assumed by
        # every call: nothing propagates at level 0, where propagate() would not report it. The
        # SAT tests fix `on` instead: a guard propagated on every call costs a pass over every
        # constraint each time (measured: 30x30 puzzles 25% slower).
        self.on = on = cells + 1
        top_var = cells + 1
        guard = [on] if level < 3 else []
        if level == 3:
            solver.add_clause([on])
        # The clues whose cells all lie inside: the tested ones, and the others still shown.
        index = np.flatnonzero(whole_block)
        clue_ids = flat[index]
        is_tested = np.isin(clue_ids, np.array(tested, dtype=np.int64))
        use = is_tested | maker.kept[clue_ids]
        index, clue_ids, is_tested = index[use], clue_ids[use], is_tested[use]
        needs = maker.clues[clue_ids].tolist()
        blocks, negated_blocks = lits[index].tolist(), (-lits[index]).tolist()
        sizes = (lits[index] != 0).sum(axis=1).tolist()
        if (lits[index] == 0).any():  # clues on the grid's edge count fewer cells
            blocks = [[v for v in block if v] for block in blocks]
            negated_blocks = [[v for v in block if v] for block in negated_blocks]
        add_atmost = solver.add_atmost
        for block, negated, size, need, clue, tested_here in zip(
                blocks, negated_blocks, sizes, needs, clue_ids.tolist(), is_tested.tolist()):
            if tested_here:
                select = top_var = top_var + 1
                # "select implies exactly need of block", with select counted size - need
                # (resp. need) times: Minicard counts a repeated literal once per occurrence.
                if need < size:
                    add_atmost(block + [select] * (size - need), size)
                if need > 0:
                    add_atmost(negated + [select] * need, size)
                self.select[clue] = select
            elif guard:
                if need < size:
                    add_atmost(block + guard * (size - need), size)
                if need > 0:
                    add_atmost(negated + guard * need, size)
            else:
                if need < size:
                    add_atmost(block, need)
                if need > 0:
                    add_atmost(negated, size - need)
        if level == 2:
            self._add_pairs(maker, flat, lits, whole_block)
        self.level = level
        self.width = width
        self.region_lits = lits
        order = [clue for clue in tested if clue in self.select]
        self.position = {clue: i for i, clue in enumerate(order)}
        self.selects = [self.select[clue] for clue in order]
        self.groups: list[int] = []
        # Cells two or more away from a free edge: a difference there breaks no clue outside.
        inner = np.ones((self.rows, self.cols), dtype=bool)
        if top > 0:
            inner[:2] = False
        if bottom < height:
            inner[self.rows - 2:] = False
        if left > 0:
            inner[:, :2] = False
        if right < width:
            inner[:, self.cols - 2:] = False
        self.inner = inner.ravel()
        self.answer = answer
        literals = np.where(answer, np.arange(1, cells + 1), -np.arange(1, cells + 1))
        # Assumed: the cells near the free edge keep their values. One constraint, "fix counted
        # as many times as there are such cells, plus the cells that change, is at most that".
        self.fix = top_var = top_var + 1
        for start in range(0, len(order), _GROUP):
            top_var += 1
            self.groups.append(top_var)
            for select in self.selects[start:start + _GROUP]:
                solver.add_clause([-top_var, select])
        self.last_var = top_var
        edge = (-literals[~self.inner]).tolist()
        if edge:
            solver.add_atmost(edge + [self.fix] * len(edge), len(edge))
        # Search from the answer: a second layout then differs from it in few cells.
        solver.set_phases(literals.tolist() + list(self.select.values()))

    def _add_pairs(self, maker: _Maker, flat: np.ndarray, lits: np.ndarray,
                   whole_block: np.ndarray) -> None:
        """Constraints that make unit propagation apply the pair rule (grade 2).

        For overlapping clues A and B (needing a and b mines), every layout has
        ``mines(B - A) - mines(A - B) = b - a``. As two cardinality constraints, one over
        ``B - A`` and the negated ``A - B``, one the other way, unit propagation fires exactly
        when the pair rule does: when ``need(B) - need(A)`` equals the unknown cells of ``B - A``
        they are mines and those of ``A - B`` are safe. Each holds only while both clues hold.
        """
        values = maker.clues
        width = maker.width
        present = {}
        for index in np.flatnonzero(whole_block).tolist():
            clue = int(flat[index])
            if clue in self.select or maker.kept[clue]:
                present[clue] = [v for v in lits[index].tolist() if v]
        solver = self.solver
        for a, block_a in present.items():
            ra, ca = divmod(a, width)
            set_a = set(block_a)
            for dr in range(0, 3):
                for dc in range(-2, 3):
                    if dr == 0 and dc <= 0:
                        continue  # each unordered pair once
                    rb, cb = ra + dr, ca + dc
                    if not (0 <= cb < width):
                        continue
                    b = rb * width + cb
                    if b not in present:
                        continue
                    set_b = set(present[b])
                    only_b = sorted(set_b - set_a)
                    only_a = sorted(set_a - set_b)
                    if not (set_a & set_b) or not (only_a or only_b):
                        continue  # blocks that do not overlap, or the same block
                    guards = [self.select.get(a, self.on), self.select.get(b, self.on)]
                    difference = int(values[b]) - int(values[a])
                    size = len(only_a) + len(only_b)
                    # mines(B - A) + safe(A - B) = difference + |A - B|, written both ways.
                    for lits_, bound in (
                            (only_b + [-v for v in only_a], difference + len(only_a)),
                            ([-v for v in only_b] + only_a, len(only_b) - difference)):
                        if bound < 0:
                            raise AssertionError("a layout's own clues cannot contradict")
                        if bound >= size:
                            continue  # always true
                        slack = size - bound
                        solver.add_atmost(lits_ + [g for g in guards for _ in range(slack)],
                                          bound + slack * len(guards))

    def test(self, clue: int) -> str | None:
        """"removable", "needed", or None when this region cannot tell."""
        waiting = self._waiting(self.position[clue])
        if self.level < 3:
            return self._propagation_test(clue, [self.on, -self.select[clue], *waiting])
        # "The layout differs from the answer in the clue's block", a literal made for this test
        # alone: one per clue made up front would be one more variable every solve assigns.
        differ = self._new_var()
        self.solver.add_clause([-differ, *self._differ_literals(clue)])
        try:
            return self._sat_test([self.on, -self.select[clue], differ, *waiting])
        finally:
            self.solver.add_clause([-differ])

    def _waiting(self, i: int) -> list[int]:
        """The assumptions that show every clue after the ``i``-th in the test order."""
        group = i // _GROUP + 1
        return self.selects[i + 1:group * _GROUP] + self.groups[group:]

    def _new_var(self) -> int:
        self.last_var += 1
        return self.last_var

    def _sat_test(self, assumptions: list[int]) -> str | None:
        """The test of :meth:`test` under ``assumptions`` (the clue off, a difference next to
        it, the waiting clues on)."""
        status = self.watch.solve(self.solver, assumptions)
        if status is None:
            raise TimeLimitReached("the time limit ran out while making a puzzle")
        if not status:
            return "removable"  # no second layout even with the region's edge left free
        if self.whole or self._inside():
            return "needed"
        status = self.watch.solve(self.solver, [*assumptions, self.fix])
        if status is None:
            raise TimeLimitReached("the time limit ran out while making a puzzle")
        return "needed" if status else None

    def all_removable(self, clues: list[int]) -> bool:
        """Can these clues, consecutive in the test order, all go at once? True only when
        proven (no second layout in the region differs from the answer next to any of them)."""
        first, last = self.position[clues[0]], self.position[clues[-1]]
        if last - first + 1 != len(clues):
            raise AssertionError("a batch is a run of consecutive clues")
        batch = self._new_var()
        self.solver.add_clause([-batch] + [literal for clue in clues
                                           for literal in self._differ_literals(clue)])
        assumptions = [self.on, *(-self.select[clue] for clue in clues), batch,
                       *self._waiting(last)]
        status = self.watch.solve(self.solver, assumptions)
        self.solver.add_clause([-batch])
        if status is None:
            raise TimeLimitReached("the time limit ran out while making a puzzle")
        return not status

    def _differ_literals(self, clue: int) -> list[int]:
        """The literals "this cell of the clue's block differs from the answer"."""
        row, col = divmod(clue, self.width)
        block = self.region_lits[(row - self.top) * self.cols + col - self.left].tolist()
        return [-v if self.answer[v - 1] else v for v in block if v]

    def _propagation_test(self, clue: int, assumptions: list[int]) -> str | None:
        """Grades 1 and 2: the rules, as unit propagation, on the region without ``clue``.

        Knowing nothing beyond the region's free edge, the rules are sound for the whole grid:
        when they settle the clue's own cells, the whole grid's rules will too, and the clue adds
        nothing (everything else was settled with it before). Knowing the cells near the edge,
        they are at least as strong as the whole grid's inside: when they leave an inner cell
        open, so would the whole grid's.
        """
        status, implied = propagate(self.solver, assumptions)
        if not status:
            raise AssertionError("the layout itself satisfies every clue")
        settled = np.zeros(self.answer.size + 1, dtype=bool)
        implied_cells = np.abs(np.array(implied, dtype=np.int64))
        settled[implied_cells[implied_cells <= self.answer.size]] = True
        row, col = divmod(clue, self.width)
        block = [v for v in self.region_lits[(row - self.top) * self.cols + col - self.left]
                 .tolist() if v]
        if settled[block].all():
            return "removable"
        if self.whole:
            return "needed"
        status, implied = propagate(self.solver, [*assumptions, self.fix])
        settled[:] = False
        implied_cells = np.abs(np.array(implied, dtype=np.int64))
        settled[implied_cells[implied_cells <= self.answer.size]] = True
        return None if settled[1:][self.inner].all() else "needed"

    def _inside(self) -> bool:
        """Does the model differ from the answer only away from the free edge?"""
        model = self.solver.get_model()[:self.answer.size]
        differs = (np.array(model) > 0) != self.answer
        return bool(self.inner[differs].all())

    def decided(self, clue: int, needed: bool) -> None:
        """Fix a tested clue for the rest of the tile: shown (needed) or removed."""
        select = self.select.get(clue)
        if select is None:
            return  # not one of this solver's clues
        self.solver.add_clause([-self.on, select] if needed else [-select])

    def close(self) -> None:
        self.solver.delete()
