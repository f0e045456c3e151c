"""Following one game click by click: an analysis kept up to date instead of made again.

A :class:`Tracker` plays (or follows) a game and keeps what is known about it: the clues, the
cells proven safe or mines, the components of what is still open and their exact counts. A
click changes a few clues; the tracker re-derives only what those clues touch. Deductions come
in four grades, cheapest first, and each is asked only when the ones before it find nothing:

1. one clue alone (all its open cells are mines, or all are safe);
2. two overlapping clues together (subset and difference);
3. all the clues of a component together (exact counting of the component, SAT past its bound);
4. the total mine count, over every component and the cells next to no clue (the *sea*).

Its answers are :func:`msanalysis.analysis.analyze`'s for every position of the game: the same
forced cells, layouts and exact probabilities (:attr:`Tracker.analysis` is an
:class:`~msanalysis.analysis.Analysis`). Boards that can be won without guessing, autoplay and
replays build on it (:mod:`msanalysis.play`); reading a position on its own stays
:func:`~msanalysis.analysis.analyze`'s job.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from msanalysis.board import (
    Board,
    Cell,
    as_cell,
    as_int,
    as_pair,
    cell_table,
    check_size,
    neighbour_counts,
)
from msanalysis.constraints import Constraints, build
from msanalysis.counting import ComponentCount, Problem, count_component
from msanalysis.errors import (
    AnalysisTooHard,
    IllegalMove,
    InconsistentPosition,
    InvalidInput,
    TimeLimitReached,
    check_flag,
    check_list,
    check_time_for,
    check_type,
    deadline_after,
    time_is_up,
)
from msanalysis.game import Game, GameStatus
from msanalysis.joining import Count, Joined, count, count_of_parts, join, polynomial_product
from msanalysis.position import FLAG, HIDDEN, MINE, Position
from msanalysis.rules import FirstClick, windows_xp_move
from msanalysis.sat import problem_verdicts
from msanalysis.whole import Analysis, analyze_constraints

__all__ = ["COMPONENT", "MINE_COUNT", "PAIR", "SINGLE", "Step", "Tracker", "check_grade"]

SINGLE, PAIR, COMPONENT, MINE_COUNT = 1, 2, 3, 4
"""The grades of a deduction: one clue, two clues, a component's clues, the total mine count."""


def check_grade(max_grade: object) -> None:
    """Refuse a ``max_grade`` that is not one of the grades (a bool, a float or 5 too).

    >>> check_grade(MINE_COUNT)
    >>> check_grade(1.0)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: max_grade is a grade from 1 to 4, got 1.0
    """
    if (isinstance(max_grade, (bool, np.bool_)) or not isinstance(max_grade, (int, np.integer))
            or max_grade not in (SINGLE, PAIR, COMPONENT, MINE_COUNT)):
        raise InvalidInput(f"max_grade is a grade from 1 to 4, got {max_grade!r}")


_Shape = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]
"""A problem without its cells: box sizes, scopes and needs, all its count depends on."""
_BORDER = -9  # the frame of cells around the grid, so neighbour loops need no bounds checks
_CACHE_LIMIT = 4096  # whole-position component counts kept by a tracker (then it starts again)
_SHAPE_LIMIT = 16384  # shapes whose counts are kept, for every tracker (then it starts again)
_COUNT_BOXES = 8  # larger components go to SAT when only forced cells are asked for


_SHAPES: dict[_Shape, ComponentCount] = {}
"""Counts of the trackers' components by shape: small shapes (a 1-2-1, a corner) come back on
board after board, and game after game."""


@dataclass(frozen=True, slots=True)
class Step:
    """Cells decided together by one kind of reasoning (see :meth:`Tracker.step`).

    Attributes
    ----------
    grade : int
        1 one clue, 2 two clues, 3 a component's clues together, 4 the total mine count.
    safe, mines : tuple of (row, col)
        The cells found safe, and the cells found to be mines, row-major.

    Examples
    --------
    The 1 at (2, 0) alone finds the mine, and the 1s beside it then their safe cells; the mine
    count (one) finds the last cell:

    >>> tracker = Tracker.from_position(Position.from_text("mines: 1\\n1??\\n1??\\n11?"))
    >>> tracker.step()
    Step(grade=1, safe=((0, 1), (1, 2), (2, 2)), mines=((1, 1),))
    >>> tracker.step(), tracker.step()
    (Step(grade=4, safe=((0, 2),), mines=()), None)
    """

    grade: int
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]

    @property
    def decided(self) -> tuple[Cell, ...]:
        """Every cell the step decides, safe or mine, row-major.

        >>> Step(1, safe=((0, 2), (1, 0)), mines=((0, 1),)).decided
        ((0, 1), (0, 2), (1, 0))
        """
        return tuple(sorted(self.safe + self.mines))


class _Component:
    """A connected group of open clues and the open cells they share, with its count."""

    __slots__ = ("checked", "clues", "count", "problem", "shape")

    def __init__(self, clues: list[int], problem: Problem) -> None:
        self.clues = clues
        self.problem = problem
        # What its count depends on: the same shape anywhere on the board counts the same.
        self.shape = (tuple(map(len, problem.boxes)), problem.scopes, problem.needs)
        self.count: ComponentCount | None = None
        self.checked = False  # grade 3 found nothing here since the component last changed


_CELLS_BETWEEN_LOOKS = 65_536
"""A cascade opens this many cells between looks at the deadline (about half a second), and a
round of single clues follows this many clues."""


_SET_UP_SECONDS_PER_CELL = 3e-6
"""A tracker's set-up, measured: 5.8 s for a board of 2,000,000 cells (its tables, a list per
cell): refused at once when it cannot end by the time limit (see ``check_time_for``)."""


class _Exploded(Exception):
    """A cell proven safe with a wrong flag's help was a mine: the reasoning that was revealing
    cells as it proved them stops, the game lost."""

    def __init__(self, cell: int) -> None:
        super().__init__(cell)
        self.cell = cell


class Tracker:
    """An analysis that follows one game, click by click.

    Parameters
    ----------
    board : Board
        The layout; the tracker plays it itself (see :meth:`from_game` to follow a
        :class:`~msanalysis.game.Game` instead).
    first_click : (row, col), optional
        Revealed at once when given.
    rules : str
        The first-click rule (``windows-xp`` moves a mine from under the first click).
    ignore_flags : bool
        Read flags as hidden cells rather than mines, as :func:`~msanalysis.analysis.analyze`
        does with the same option.
    time_limit : float, optional
        Seconds from now after which a cascade being opened, or single clues being followed,
        stop with :class:`~msanalysis.errors.TimeLimitReached` (the tracker is then of no
        further use): a first click on a board of millions of cells opens most of them, which
        takes a minute, and the clues it shows then take minutes more.
        A board too large to set up in that time (about 3 s per million cells) is refused at
        once, with the same error.

    Examples
    --------
    >>> tracker = Tracker(Board.from_text("*...\\n....\\n...*"), first_click=(0, 3))
    >>> print(tracker.position.to_text())
    mines: 2
    ?1..
    ?111
    ????
    >>> safe, mines = tracker.forced
    >>> sorted(safe), sorted(mines)
    ([(2, 0), (2, 1), (2, 2)], [(2, 3)])
    >>> tracker.step()  # what the next cheapest reasoning proves: nothing is left
    >>> tracker.reveal((1, 0)), tracker.status
    ([(1, 0)], 'playing')
    >>> tracker.analysis.requires_guess, tracker.analysis.solutions
    (False, 1)

    Notes
    -----
    A click costs the work of the clues it changes: one clue alone and pairs of clues look only
    at the changed clues and their neighbours; a component is counted again only when one of
    its clues changed, and counts are remembered by problem, so a component seen before costs
    a dictionary look-up. The mine count joins the components at the end
    (:func:`msanalysis.joining.join`).
    """

    _game: Game | None
    _seen = 0  # the changes of the game followed that the tracker has taken in
    _contradicted = False  # a cell revealed was proven a mine (with a wrong flag's help)
    _board: Board | None
    _truth: list[bool]
    _numbers: list[int]
    _knows_layout: bool
    _status: GameStatus
    _clicks: int
    _exploded: int | None = None  # the mine clicked (a tracker of a position alone has none)
    _safe_left: int
    _reveal_now = False
    _deadline: float | None = None  # a time.perf_counter value
    _counts_wanted = False  # every component will be counted: no SAT first

    def __init__(self, board: Board, first_click: Cell | None = None, *,
                 rules: str = "safe-cell", ignore_flags: bool = False,
                 time_limit: float | None = None) -> None:
        check_type(board, Board, "Tracker", "a layout: Board.from_text reads one; "
                   "Tracker.from_position follows a position without one")
        check_flag(ignore_flags, "ignore_flags")
        self._game = None
        self._deadline = deadline_after(time_limit)
        self.rules = FirstClick.parse(rules)
        check_time_for(_SET_UP_SECONDS_PER_CELL * board.height * board.width, self._deadline,
                       f"setting up a tracker of a {board.width}x{board.height} board")
        self.ignore_flags = ignore_flags
        self._setup(board.height, board.width, board.mine_count)
        self._set_board(board)
        self._status = GameStatus.PLAYING
        self._clicks = 0
        self._exploded = None
        self._safe_left = board.height * board.width - board.mine_count
        self._load_fresh()
        if first_click is not None:
            self.reveal(first_click)

    @classmethod
    def from_game(cls, game: Game, *, ignore_flags: bool = False) -> Tracker:
        """A tracker that follows ``game``: its moves are made on the game, which stays the
        record of the play; the game may be under way already.

        Examples
        --------
        >>> game = Game.started(9, 9, 10, rules="safe-opening", first_click=(4, 4), seed=2)
        >>> tracker = Tracker.from_game(game)
        >>> tracker.forced[0] == analyze_constraints(game.position()).forced_safe
        True
        """
        check_type(game, Game, "Tracker.from_game", "Game(board) makes one")
        check_flag(ignore_flags, "ignore_flags")
        tracker = cls.__new__(cls)
        tracker._game = game
        tracker.rules = game.rules
        tracker.ignore_flags = ignore_flags
        board = game.board
        tracker._setup(board.height, board.width, board.mine_count)
        tracker._set_board(board)
        tracker._load(game.position())
        tracker._seen = game.changes
        return tracker

    def _follow(self) -> None:
        """Catch up with the game followed when it was moved directly, not through the tracker
        (its deductions are made again from the position)."""
        game = self._game
        if game is not None and game.changes != self._seen:
            if game.board is not self._board:  # windows-xp moved a mine
                self._set_board(game.board)
            self._load(game.position())
            self._seen = game.changes

    @classmethod
    def dealt(cls, height: int, width: int, mines: list[int]) -> Tracker:
        """A tracker of a fresh ``safe-opening`` game whose mines are on the cells numbered
        ``mines`` (row-major, from 0): a layout made without building a
        :class:`~msanalysis.board.Board` first (:attr:`board` makes one when asked).

        Examples
        --------
        >>> Tracker.dealt(2, 3, [2]).board.to_text()
        '..*\\n...'
        """
        width, height = check_size(width, height)
        check_list(mines, "Tracker.dealt takes the mines' cell numbers (a list of ints)")
        mines = [as_int(k, "a mine's cell number") for k in mines]
        outside = [k for k in mines if not 0 <= k < height * width]
        if outside:
            raise InvalidInput(f"mines are numbered 0 to {height * width - 1} on a {width}x"
                               f"{height} board, got {outside[0]}")
        if len(set(mines)) != len(mines):
            raise InvalidInput("two mines are dealt to one cell")
        tracker = cls.__new__(cls)
        tracker._game = None
        tracker.rules = FirstClick.SAFE_OPENING
        tracker.ignore_flags = False
        tracker._setup(height, width, len(mines))
        w2 = tracker._w2
        truth = [False] * tracker._size
        numbers = [0] * tracker._size
        offsets = tracker._offsets
        for k in mines:
            i = (k // width + 1) * w2 + k % width + 1
            truth[i] = True
            for o in offsets:
                numbers[i + o] += 1
        tracker._truth, tracker._numbers = truth, numbers
        tracker._board = None
        tracker._knows_layout = True
        tracker._status = GameStatus.PLAYING
        tracker._clicks = 0
        tracker._exploded = None
        tracker._safe_left = height * width - len(mines)
        tracker._load_fresh()
        return tracker

    @classmethod
    def from_position(cls, position: Position, *, ignore_flags: bool = False) -> Tracker:
        """A tracker of ``position`` alone, without the layout: it analyses, it cannot play.

        Examples
        --------
        >>> p = Position.from_text("mines: 2\\n????\\n121?\\n...?")
        >>> sorted(Tracker.from_position(p).forced[1])
        [(0, 0), (0, 2)]
        """
        check_type(position, Position, "Tracker.from_position", "Position.from_text reads one")
        check_flag(ignore_flags, "ignore_flags")
        if position.total_mines is None:
            raise InvalidInput("a tracker needs the total mine count")
        tracker = cls.__new__(cls)
        tracker._game = None
        tracker.rules = FirstClick.SAFE_CELL
        tracker.ignore_flags = ignore_flags
        height, width = position.shape
        tracker._setup(height, width, position.total_mines)
        tracker._truth = [False] * tracker._size
        tracker._numbers = [0] * tracker._size
        tracker._knows_layout = False
        tracker._board = None
        tracker._status = GameStatus.LOST if position.is_lost else GameStatus.PLAYING
        tracker._counts_wanted = True  # made for one full analysis: counts are wanted anyway
        tracker._load(position)
        tracker._position = position
        return tracker

    # -- set-up ---------------------------------------------------------------------------------
    def _setup(self, height: int, width: int, mines: int) -> None:
        self.height, self.width, self.total_mines = height, width, mines
        w2 = width + 2
        self._w2 = w2
        self._size = (height + 2) * w2
        self._offsets = (-w2 - 1, -w2, -w2 + 1, -1, 1, w2 - 1, w2, w2 + 1)
        # Clues two steps away at most share cells: the 24 offsets of the 5x5 block.
        self._near = tuple(dr * w2 + dc for dr in range(-2, 3) for dc in range(-2, 3)
                           if dr or dc)
        self._cache: dict[Problem, ComponentCount] = {}  # whole-position components
        self._cells = cell_table(height, width, frame=1)

    @property
    def board(self) -> Board:
        """The layout played (after :meth:`perturb`, with the mines where they are now)."""
        self._require_layout()
        if self._board is None:
            w2 = self._w2
            truth = self._truth
            self._board = Board([truth[(r + 1) * w2 + 1:(r + 1) * w2 + 1 + self.width]
                                 for r in range(self.height)])
        return self._board

    def _set_board(self, board: Board) -> None:
        self._knows_layout = True
        self._board = board
        w2 = self._w2
        truth = [False] * self._size
        numbers = [0] * self._size
        for r, (mines_row, numbers_row) in enumerate(zip(board.mask.tolist(),
                                                        board.numbers.tolist())):
            base = (r + 1) * w2 + 1
            truth[base:base + self.width] = mines_row
            numbers[base:base + self.width] = numbers_row
        self._truth = truth
        self._numbers = numbers

    def _cell(self, i: int) -> Cell:
        return self._cells[i]

    def _index(self, cell: Cell) -> int:
        row, col = as_cell(cell, self.height, self.width, error=IllegalMove)
        return (row + 1) * self._w2 + col + 1

    def _load_fresh(self) -> None:
        """The state of a game before its first click: every cell hidden, nothing known."""
        state = [_BORDER] * self._size
        w2 = self._w2
        for r in range(self.height):
            base = (r + 1) * w2 + 1
            state[base:base + self.width] = [HIDDEN] * self.width
        self._reset(state)

    def _load(self, position: Position) -> None:
        """Take ``position`` as the state, forgetting every deduction (they are made again)."""
        states = position.states
        height, width = states.shape
        framed = np.full((height + 2, width + 2), _BORDER, dtype=np.int8)
        framed[1:-1, 1:-1] = states
        self._reset(framed.ravel().tolist(), sea=False)
        flags = states == FLAG
        unknown = position.unknown_mask(self.ignore_flags)
        known = position.mine_mask(self.ignore_flags)
        revealed = states >= 0
        self._unknown = int(np.count_nonzero(unknown))
        self._known_mines = int(np.count_nonzero(known))
        w2 = self._w2
        # Both neighbour counts in one pass, four bits each.
        around = neighbour_counts(unknown + (known.astype(np.int16) << 4), dtype=np.int16)
        sea = unknown & (neighbour_counts(revealed) == 0)
        rows, cols = np.nonzero(sea)
        self._sea = set(((rows + 1) * w2 + cols + 1).tolist())
        opened = around & 15
        need = states - (around >> 4)
        clues = revealed & ((opened > 0) | (need != 0))
        rows, cols = np.nonzero(clues)
        index = ((rows + 1) * w2 + cols + 1).tolist()
        need_of, open_of = self._need, self._open
        for i, n, k in zip(index, need[rows, cols].tolist(), opened[rows, cols].tolist()):
            need_of[i] = n
            open_of[i] = k
            self._touch(i)
        if self._knows_layout and not self.ignore_flags and flags.any():
            truth, w2 = self._truth, self._w2
            rows, cols = np.nonzero(flags)
            self._truthful = all(truth[(r + 1) * w2 + c + 1] for r, c in zip(rows.tolist(),
                                                                              cols.tolist()))

    def _reset(self, state: list[int], sea: bool = True) -> None:
        self._state = state
        size = self._size
        self._fact = [0] * size  # per unknown cell: 1 a proven mine, -1 proven safe, 0 open
        self._grade = [0] * size  # the grade of the step that proved it
        self._need = [0] * size  # per clue: mines still to place among its open cells
        self._open = [0] * size  # per clue: its open cells
        self._queue: list[int] = []  # clues to look at alone
        self._proven_safe: list[int] = []  # for reveal_safe
        self._proven: set[int] = set()  # unknown cells proven safe or mines
        self._fresh: set[int] = set()  # clues changed since pairs or components last looked
        self._dirty_pairs: set[int] = set()  # clues whose pairs to look at
        self._dirty: set[int] = set()  # clues whose component changed
        self._components: list[_Component] = []
        self._component_of: dict[int, _Component] = {}
        self._broken = False  # no layout fits: the analysis says why
        self._truthful = self._knows_layout  # the true layout fits the position
        self._known_mines = 0  # flags (unless ignored), shown mines and proven mines
        self.version = getattr(self, "version", 0) + 1
        self._position: Position | None = None
        self._analysis: Analysis | None = None
        self._settled = False  # every grade has been asked since the last change
        # Before the first click every cell is unknown and in the sea.
        self._unknown = self.height * self.width
        self._sea = {i for i, s in enumerate(state) if s == HIDDEN} if sea else set()

    # -- bookkeeping ----------------------------------------------------------------------------
    def _is_unknown(self, s: int) -> bool:
        return s == HIDDEN or (s == FLAG and self.ignore_flags)

    def _touch(self, i: int) -> None:
        self._queue.append(i)
        self._fresh.add(i)

    def _absorb(self) -> None:
        """Hand the clues changed since the last look to the pairs and the components."""
        if self._fresh:
            self._dirty_pairs |= self._fresh
            self._dirty |= self._fresh
            self._fresh = set()

    def _decide(self, i: int, value: int, grade: int) -> None:
        """Record that open cell ``i`` is a mine (``value`` 1) or safe (-1); a safe cell is
        revealed at once when the tracker is asked to (see :meth:`step`)."""
        if self._fact[i] or not (self._state[i] == HIDDEN
                                 or (self._state[i] == FLAG and self.ignore_flags)):
            return  # decided or revealed since the reasoning looked at it
        if value < 0 and self._reveal_now:
            self._clicks += 1
            if self._truth[i]:  # "safe" by a wrong flag: the click loses, as in a Game
                self._lose(i)
                raise _Exploded(i)
            self._cascade([i], as_cells=False)
            return
        self._fact[i] = value
        self._proven.add(i)
        self._grade[i] = grade
        self._sea.discard(i)
        state, need, opened = self._state, self._need, self._open
        queue, fresh = self._queue, self._fresh
        # A clue left with no open cell and no mine to place has nothing to say alone.
        if value > 0:
            self._known_mines += 1
            for o in self._offsets:
                j = i + o
                if state[j] >= 0:
                    opened[j] -= 1
                    need[j] -= 1
                    fresh.add(j)
                    if opened[j] or need[j]:
                        queue.append(j)
        else:
            self._proven_safe.append(i)
            for o in self._offsets:
                j = i + o
                if state[j] >= 0:
                    opened[j] -= 1
                    fresh.add(j)
                    if opened[j] or need[j]:
                        queue.append(j)

    def _revealed(self, i: int, number: int) -> None:
        """Cell ``i``, unknown until now, shows ``number``: follow it as a clue."""
        state, fact, open_of, need_of = self._state, self._fact, self._open, self._need
        was = fact[i]
        if was > 0:
            # Proven a mine with a wrong flag's help: the game is the truth, and the position
            # is read again once the reveal is done (see _reread).
            state[i] = number
            self._contradicted = True
            return
        state[i] = number
        if was:
            fact[i] = 0
            self._proven.discard(i)
        self._unknown -= 1
        sea, queue, fresh = self._sea, self._queue, self._fresh
        sea.discard(i)
        ignore = self.ignore_flags
        need, opened = number, 0
        for o in self._offsets:
            j = i + o
            s = state[j]
            if s >= 0:
                if was == 0:
                    open_of[j] -= 1
                fresh.add(j)
                if open_of[j] or need_of[j]:
                    queue.append(j)
            elif s == HIDDEN or (s == FLAG and ignore):
                f = fact[j]
                if f == 0:
                    opened += 1
                    sea.discard(j)
                elif f > 0:
                    need -= 1
            elif s in (FLAG, MINE):
                need -= 1
        need_of[i] = need
        open_of[i] = opened
        if opened or need:
            queue.append(i)
            fresh.add(i)

    def _changed(self) -> None:
        self.version += 1
        self._position = None
        self._analysis = None
        self._settled = False

    # -- moves ----------------------------------------------------------------------------------
    @property
    def status(self) -> GameStatus:
        """``'playing'``, ``'won'`` or ``'lost'``."""
        return self._game.status if self._game is not None else self._status

    def _require_layout(self) -> None:
        if not self._knows_layout:
            raise IllegalMove("this tracker was made from a position alone: it has no layout "
                              "to play (Tracker(board) plays one)")

    def _require_playing(self) -> None:
        if self.status != GameStatus.PLAYING:
            raise IllegalMove(f"the game is over ({self.status})")

    def reveal(self, cell: Cell) -> list[Cell]:
        """Uncover ``cell`` (a 0 cascades); returns the cells revealed, as
        :meth:`msanalysis.game.Game.reveal` does.

        Raises
        ------
        IllegalMove
            If the cell is off the board or the game is over.
        """
        i = self._index(cell)
        if self._game is not None:
            self._follow()
            game = self._game
            first = game.clicks == 0
            opened = game.reveal(cell)
            if first and game.board is not self._board:  # windows-xp moved a mine
                self._set_board(game.board)
            self._apply(opened)
            self._seen = game.changes
            return opened
        self._require_layout()
        self._require_playing()
        state = self._state[i]
        if state >= 0 or state == FLAG:
            return []
        if self._clicks == 0 and self.rules is FirstClick.WINDOWS_XP and self._truth[i]:
            self._set_board(windows_xp_move(self.board, cell))
        self._clicks += 1
        if self._truth[i]:
            self._lose(i)
            return [cell]
        return self._cascade([i])

    def reveal_safe(self) -> int:
        """Reveal every hidden cell proven safe so far; returns how many cells were revealed,
        cascades included (0 when the game is over or no cell is proven safe). A cell proven
        safe with a wrong flag's help may be a mine: the clicks stop there, the game lost."""
        self._follow()
        self._require_layout()
        if self.status != GameStatus.PLAYING:
            return 0
        state, fact = self._state, self._fact
        safe = [i for i in self._proven_safe if fact[i] < 0 and state[i] == HIDDEN]
        self._proven_safe = []
        if not safe:
            return 0
        if self._game is not None:
            revealed = 0
            for i in safe:
                if self._game.status != GameStatus.PLAYING:
                    break
                revealed += len(self.reveal(self._cell(i)))
            return revealed
        # A cell proven safe with a wrong flag's help may be a mine: the clicks stop there.
        truth = self._truth
        mine = next((k for k, i in enumerate(safe) if truth[i]), None)
        if mine is None:
            self._clicks += len(safe)
            return len(self._cascade(safe, as_cells=False))
        self._clicks += mine + 1
        revealed = len(self._cascade(safe[:mine], as_cells=False)) if mine else 0
        self._lose(safe[mine])
        return revealed + 1

    def _cascade(self, start: list[int], as_cells: bool = True) -> list:
        """Reveal the safe cells ``start`` and what their zeros open, breadth-first."""
        state, numbers, offsets = self._state, self._numbers, self._offsets
        queue = []
        for i in start:
            if state[i] == HIDDEN:
                state[i] = -4  # queued: a mark no state uses
                queue.append(i)
        # Wave after wave, each in index order: the order Game.reveal gives.
        wave = [i for i in queue if numbers[i] == 0]
        look = _CELLS_BETWEEN_LOOKS  # at the clock: a cascade of millions of cells takes minutes
        while wave:
            if len(queue) >= look:
                self._check_clock(f"a cascade was opened ({len(queue)} cells so far)")
                look = len(queue) + _CELLS_BETWEEN_LOOKS
            found = []
            for i in wave:
                for o in offsets:
                    j = i + o
                    if state[j] == HIDDEN:
                        state[j] = -4
                        found.append(j)
            found.sort()
            queue.extend(found)
            wave = [j for j in found if numbers[j] == 0]
        for i in queue:
            state[i] = HIDDEN
        for done in range(0, len(queue), _CELLS_BETWEEN_LOOKS):
            if done:
                self._check_clock(f"a cascade was opened ({done} cells so far)")
            for i in queue[done:done + _CELLS_BETWEEN_LOOKS]:
                self._revealed(i, numbers[i])
        self._safe_left -= len(queue)
        self._reread()
        if self._safe_left == 0:
            self._status = GameStatus.WON
        self._changed()
        if not as_cells:
            return queue
        cells = self._cells
        return [cells[i] for i in queue]

    def _check_clock(self, doing: str) -> None:
        """Stop work past the deadline, saying what it was ``doing`` (a cascade looks after
        every :data:`_CELLS_BETWEEN_LOOKS` cells, a round of single clues after as many clues)."""
        if time_is_up(self._deadline):
            raise TimeLimitReached(f"the time limit ran out while {doing}")

    def _lose(self, i: int) -> None:
        self._exploded = i
        self._status = GameStatus.LOST
        self._load(self._lost_position())
        self._changed()

    def _lost_position(self) -> Position:
        states = self._grid()
        mines = self.board.mask & (states != FLAG)
        states[mines] = MINE
        return Position(states, self.total_mines)

    def _apply(self, opened: list[Cell]) -> None:
        """Follow what the game revealed."""
        if not opened:
            return
        game = self._game
        assert game is not None
        if game.status == GameStatus.LOST:
            self._load(game.position())
        else:
            w2, numbers = self._w2, self._numbers
            for row, col in opened:
                i = (row + 1) * w2 + col + 1
                self._revealed(i, numbers[i])
            self._reread()
        self._changed()

    def _reread(self) -> None:
        """Read the position again when a cell revealed was one a wrong flag had let the
        deductions call a mine: they are made again from what the board shows."""
        if self._contradicted:
            self._contradicted = False
            self._load(self._game.position() if self._game is not None
                       else Position(self._grid(), self.total_mines))

    def flag(self, cell: Cell) -> None:
        """Put a flag on a hidden cell (see :meth:`msanalysis.game.Game.flag`)."""
        i = self._index(cell)
        if self._game is not None:
            self._follow()
            self._game.flag(cell)
            self._seen = self._game.changes
        else:
            self._require_playing()
            if self._state[i] >= 0:
                raise IllegalMove(f"cell {cell} is revealed and cannot be flagged")
        if self._state[i] != HIDDEN:
            return
        self._changed()
        if self.ignore_flags:
            self._state[i] = FLAG
            return
        if not self._truth[i]:
            self._truthful = False
        # A flag is taken as a mine, like a proven one; on a cell proven safe it contradicts.
        fact = self._fact[i]
        if fact < 0:
            self._broken = True
        elif fact == 0:
            self._decide(i, 1, 0)
        self._state[i] = FLAG
        self._unknown -= 1
        self._fact[i] = 0
        self._proven.discard(i)

    def unflag(self, cell: Cell) -> None:
        """Take the flag off ``cell``; what was deduced with it is deduced again."""
        i = self._index(cell)
        if self._game is not None:
            self._follow()
            self._game.unflag(cell)
            self._seen = self._game.changes
        else:
            self._require_playing()
        if self._state[i] != FLAG:
            return
        self._state[i] = HIDDEN
        self._load(Position(self._grid(), self.total_mines))
        self._changed()

    def chord(self, cell: Cell) -> list[Cell]:
        """Reveal the hidden neighbours of a number whose flags match it (see
        :meth:`msanalysis.game.Game.chord`)."""
        i = self._index(cell)
        if self._game is not None:
            self._follow()
            opened = self._game.chord(cell)
            self._apply(opened)
            self._seen = self._game.changes
            return opened
        self._require_layout()
        self._require_playing()
        state = self._state
        if state[i] < 0:
            return []
        around = [i + o for o in self._offsets]
        if sum(state[j] == FLAG for j in around) != self._numbers[i]:
            return []
        targets = [j for j in around if state[j] == HIDDEN]
        if not targets:
            return []
        self._clicks += 1
        for j in targets:
            if self._truth[j]:
                self._lose(j)
                return [self._cell(j)]
        return self._cascade(targets)

    @property
    def flags_placed(self) -> int:
        self._follow()
        return sum(s == FLAG for s in self._state)

    @property
    def exploded(self) -> Cell | None:
        """The mine that was clicked, when the game is lost."""
        if self._game is not None:
            return self._game.exploded
        return None if self._exploded is None else self._cell(self._exploded)

    # -- views ----------------------------------------------------------------------------------
    def _grid(self) -> np.ndarray:
        array = np.array(self._state, dtype=np.int8).reshape(self.height + 2, self._w2)
        return array[1:-1, 1:-1].copy()

    @property
    def position(self) -> Position:
        """What the player sees now (after a loss every unflagged mine is shown)."""
        self._follow()
        if self._position is None:
            if self._game is not None:
                self._position = self._game.position()
            elif self._status == GameStatus.LOST and self._knows_layout:
                self._position = self._lost_position()
            else:
                self._position = Position(self._grid(), self.total_mines)
        return self._position

    def is_revealed(self, cell: Cell) -> bool:
        self._follow()
        return self._state[self._index(cell)] >= 0

    def is_flagged(self, cell: Cell) -> bool:
        self._follow()
        return self._state[self._index(cell)] == FLAG

    @property
    def forced(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """The unknown cells safe, and those that are mines, in every layout: ``(safe, mines)``.

        The same sets as :func:`msanalysis.analysis.analyze`'s ``forced_safe`` and
        ``forced_mines``.

        Raises
        ------
        InconsistentPosition
            When no layout fits the position (a wrong flag, say), naming the clues.
        """
        self.settle()
        fact, names = self._fact, self._cells
        return (frozenset(names[i] for i in self._proven if fact[i] < 0),
                frozenset(names[i] for i in self._proven if fact[i] > 0))

    @property
    def analysis(self) -> Analysis:
        """The analysis of the position now: an :class:`~msanalysis.analysis.Analysis` equal to
        ``analyze(tracker.position, ignore_flags=...)``.

        Raises
        ------
        InconsistentPosition
            When no layout fits the position.
        """
        if self._analysis is None:
            safe, mines = self.forced
            self._analysis = TrackedAnalysis(self, safe, mines)
        return self._analysis

    # -- deduction ------------------------------------------------------------------------------
    def settle(self) -> None:
        """Make every deduction the position allows, of every grade (see :meth:`step`)."""
        self._follow()
        if self._settled:
            return
        while self._advance(MINE_COUNT)[0]:
            pass
        self._settled = True

    def step(self, max_grade: int = MINE_COUNT, *, reveal: bool = False) -> Step | None:
        """The next deductions, by the cheapest reasoning that finds any; None when none does.

        Grade 1 looks at every changed clue alone (repeatedly, until nothing more follows),
        grade 2 at every pair of overlapping clues one of which changed, grade 3 at every
        component that changed, grade 4 at the mine count. Cells proven safe stay hidden: the
        caller reveals them (with :meth:`reveal`) or not.

        Parameters
        ----------
        max_grade : int
            The hardest reasoning allowed; 3 leaves the mine count out.
        reveal : bool
            Reveal each cell as soon as it is proven safe (cascades included) and go on with
            what it shows, by single clues, within the same step: how a player who never
            guesses plays. Only for a tracker that plays its own board. A cell proven safe with
            a wrong flag's help may be a mine: the game is then lost, and the step ends with
            that cell among its safe ones.

        Returns
        -------
        Step or None

        Raises
        ------
        InconsistentPosition
            When no layout fits the position.
        """
        check_grade(max_grade)
        check_flag(reveal, "reveal")
        self._follow()
        fact = self._fact  # the facts as proven, even if a loss or a wrong flag reloads them
        grade, found = self._advance(max_grade, reveal)
        if not grade:
            return None
        cells = sorted(set(found))
        names = self._cells
        return Step(grade, tuple(names[i] for i in cells if fact[i] <= 0),
                    tuple(names[i] for i in cells if fact[i] > 0))

    def _advance(self, max_grade: int, reveal: bool = False) -> tuple[int, list[int]]:
        """:meth:`step` without the :class:`Step`: the grade (0 for none) and the cells."""
        if reveal and self._game is not None:
            raise IllegalMove("a tracker that follows a game reveals through the game")
        if reveal:
            self._require_layout()
        self._reveal_now = reveal and self.status == GameStatus.PLAYING
        try:
            found = self._reason(max_grade)
        finally:
            self._reveal_now = False
        if not found[0] and max_grade >= MINE_COUNT:
            self._settled = True  # every grade found nothing: settle() has nothing to do
        return found

    def _reason(self, max_grade: int) -> tuple[int, list[int]]:
        if self._broken:
            self._fallback()
        found: list[int] = []
        for grade, rule in ((SINGLE, self._singles), (PAIR, self._pairs),
                            (COMPONENT, self._components_step), (MINE_COUNT, self._count_step)):
            if grade > max_grade:
                break
            try:
                rule(found)
            except _Exploded as stop:  # revealing as it proved, it clicked a mine
                found.append(stop.cell)
                return grade, found
            if self._broken:
                self._fallback()
            if found:
                self._changed()
                return grade, found
        return 0, found

    def _fallback(self) -> None:
        """No layout fits: let the analysis from scratch name the clues."""
        analyze_constraints(self.position, ignore_flags=self.ignore_flags, forced_only=True)
        raise InconsistentPosition("no layout fits the position")  # pragma: no cover

    def _singles(self, found: list[int]) -> None:
        """Grade 1: clues whose open cells are all mines, or all safe, repeatedly."""
        queue, need, opened, state, fact = (self._queue, self._need, self._open, self._state,
                                            self._fact)
        offsets = self._offsets
        ignore = self.ignore_flags
        # At the clock now and then: on a board of millions of cells one round follows clues
        # for minutes, its reveals many cascades each too small to look themselves.
        looked, deadline = 0, self._deadline
        while queue:
            if deadline is not None:
                looked += 1
                if looked % _CELLS_BETWEEN_LOOKS == 0:
                    self._check_clock(f"single clues were followed ({looked} clues so far)")
            i = queue.pop()
            n, k = need[i], opened[i]
            if n < 0 or n > k:
                self._broken = True
                return
            if k == 0 or 0 < n < k:
                continue
            value = 1 if n else -1
            for o in offsets:
                j = i + o
                s = state[j]
                if (s == HIDDEN or (s == FLAG and ignore)) and fact[j] == 0:
                    self._decide(j, value, SINGLE)
                    found.append(j)

    def _open_cells(self, i: int) -> frozenset[int]:
        state, fact, ignore = self._state, self._fact, self.ignore_flags
        return frozenset(j for j in (i + o for o in self._offsets)
                         if (state[j] == HIDDEN or (state[j] == FLAG and ignore))
                         and fact[j] == 0)

    def _open_mask(self, i: int) -> int:
        """The open cells of clue ``i``, a bit per cell (by its index)."""
        state, fact, ignore = self._state, self._fact, self.ignore_flags
        mask = 0
        for o in self._offsets:
            j = i + o
            s = state[j]
            if (s == HIDDEN or (s == FLAG and ignore)) and fact[j] == 0:
                mask |= 1 << j
        return mask

    def _pairs(self, found: list[int]) -> None:
        """Grade 2: two clues that share open cells, each one's cells outside the other's."""
        self._absorb()
        dirty = self._dirty_pairs
        if not dirty:
            return
        self._dirty_pairs = set()
        need, opened, state, size = self._need, self._open, self._state, self._size
        # Open cells as bits of one integer: shared cells are an and, their number a popcount.
        cells: dict[int, int] = {}
        done: set[tuple[int, int]] = set()
        for a in sorted(dirty):
            if opened[a] == 0 or state[a] < 0:
                continue
            ca = cells.get(a)
            if ca is None:
                ca = cells[a] = self._open_mask(a)
            for o in self._near:
                b = a + o
                if b < 0 or b >= size or state[b] < 0 or opened[b] == 0:
                    continue
                key = (a, b) if a < b else (b, a)
                if key in done:
                    continue
                done.add(key)
                cb = cells.get(b)
                if cb is None:
                    cb = cells[b] = self._open_mask(b)
                shared = ca & cb
                if not shared:
                    continue
                together = shared.bit_count()
                na, nb = need[a], need[b]
                only_a, only_b = ca.bit_count() - together, cb.bit_count() - together
                # Mines in the shared cells: at most what either clue needs, at least what
                # either cannot place in its own cells.
                high = min(together, na, nb)
                low = max(0, na - only_a, nb - only_b)
                if low > high:
                    self._broken = True
                    return
                for own, mask, n in ((only_a, ca, na), (only_b, cb, nb)):
                    if not own:
                        continue
                    if n - high == own:
                        value = 1
                    elif n - low == 0:
                        value = -1
                    else:
                        continue
                    rest = mask & ~shared
                    while rest:
                        bit = rest & -rest
                        rest ^= bit
                        j = bit.bit_length() - 1
                        if self._fact[j] == 0:
                            self._decide(j, value, PAIR)
                            found.append(j)
                if found:
                    # What changed is for one clue alone to follow first; the pairs not yet
                    # looked at stay to be looked at.
                    self._dirty_pairs |= {c for c in dirty if c > a}
                    self._dirty_pairs.add(a)
                    return

    def _regroup(self) -> None:
        """Rebuild the components that hold a changed clue."""
        self._absorb()
        dirty = self._dirty
        if not dirty:
            return
        self._dirty = set()
        component_of = self._component_of
        state, opened = self._state, self._open
        seeds: set[int] = set()
        for i in dirty:
            old = component_of.pop(i, None)
            if old is not None:
                for c in old.clues:
                    component_of.pop(c, None)
                seeds.update(old.clues)
                old.clues = []
            seeds.add(i)
        self._components = [c for c in self._components if c.clues]
        seen: set[int] = set()
        offsets = self._offsets
        for seed in sorted(seeds):
            if seed in seen or state[seed] < 0 or opened[seed] == 0:
                continue
            group = [seed]
            seen.add(seed)
            opens: dict[int, frozenset[int]] = {}  # clue -> its open cells
            members: set[int] = set()  # open cells of the group
            k = 0
            while k < len(group):
                a = group[k]
                k += 1
                cells = opens[a] = self._open_cells(a)
                for j in cells:
                    if j in members:
                        continue
                    members.add(j)
                    for o in offsets:
                        b = j + o
                        if state[b] >= 0 and b not in seen:
                            seen.add(b)
                            old = component_of.pop(b, None)
                            if old is not None:  # it joins this group
                                for c in old.clues:
                                    component_of.pop(c, None)
                                old.clues = []
                            group.append(b)
            self._components = [c for c in self._components if c.clues]
            group.sort()
            problem = self._problem(group, opens)
            component = _Component(group, problem)
            component.count = _SHAPES.get(component.shape)
            self._components.append(component)
            for a in group:
                component_of[a] = component

    def _problem(self, group: list[int], opens: dict[int, frozenset[int]]) -> Problem:
        """The problem of the clues ``group`` (ascending) over their open cells: cells with
        the same clues form a box, boxes in the order of their first cell."""
        clues_of: dict[int, list[int]] = {}
        for c, a in enumerate(group):
            for j in opens[a]:
                clues_of.setdefault(j, []).append(c)
        by_clues: dict[tuple[int, ...], list[int]] = {}
        for j in sorted(clues_of):
            by_clues.setdefault(tuple(clues_of[j]), []).append(j)
        names = self._cells
        boxes = []
        scopes: list[list[int]] = [[] for _ in group]
        for v, (clues, cells) in enumerate(by_clues.items()):
            boxes.append(tuple(names[j] for j in cells))
            for c in clues:
                scopes[c].append(v)
        need = self._need
        return Problem(tuple(boxes), tuple(map(tuple, scopes)), tuple(need[a] for a in group),
                       tuple(names[a] for a in group))

    def _count_of(self, component: _Component) -> ComponentCount:
        if component.count is None:
            cache = _SHAPES
            if len(cache) > _SHAPE_LIMIT:
                cache.clear()
            component.count = cache[component.shape] = count_component(component.problem)
        return component.count

    def _components_step(self, found: list[int]) -> None:
        """Grade 3: the cells a component's clues decide together.

        A small component is counted (its count serves the probabilities later); a large one
        is asked to SAT, one question per box, starting from the true layout when the tracker
        knows it (a model for free), and counted only if a probability is asked for.
        """
        self._regroup()
        for component in self._components:
            if component.checked:
                continue
            problem = component.problem
            verdicts = None
            if (component.count is None and len(problem.boxes) > _COUNT_BOXES
                    and not self._counts_wanted):
                verdicts = problem_verdicts(problem, self._model(problem))
                if verdicts is None:
                    self._broken = True
                    return
            else:
                try:
                    counted = self._count_of(component)
                except InconsistentPosition:
                    self._broken = True
                    return
                except AnalysisTooHard:
                    verdicts = problem_verdicts(problem, self._model(problem))
                    if verdicts is None:
                        self._broken = True
                        return
                else:
                    total = counted.total
                    verdicts = [-1 if sum(m) == 0 else 1 if sum(m) == len(box) * total else 0
                                for m, box in zip(counted.box_mines, problem.boxes)]
            component.checked = True
            for verdict, box in zip(verdicts, problem.boxes):
                if verdict:
                    for cell in box:
                        j = (cell[0] + 1) * self._w2 + cell[1] + 1
                        self._decide(j, verdict, COMPONENT)
                        found.append(j)
            if found:
                return

    def _model(self, problem: Problem) -> list[bool] | None:
        """The true layout of ``problem``'s cells, box by box, when it fits the position."""
        if not self._truthful:
            return None
        truth, w2 = self._truth, self._w2
        return [truth[(r + 1) * w2 + c + 1] for box in problem.boxes for r, c in box]

    def _count_step(self, found: list[int]) -> None:
        """Grade 4: the cells the total mine count decides (when it can decide any)."""
        self._regroup()
        remaining = self.total_mines - self._known_mines
        sea = len(self._sea)
        # Bounds that need no counting first: most of a game, they leave the count loose.
        low = high = 0
        for component in self._components:
            a, b = component.problem.mine_bounds()
            low += a
            high += b
        if high <= remaining - 1 and low >= remaining - sea + 1:
            return
        try:
            parts = [self._count_of(c) for c in self._components]
        except InconsistentPosition:
            self._broken = True
            return
        except AnalysisTooHard:
            self._count_step_by_sat(found)
            return
        low = sum(p.offset for p in parts)
        high = low + sum(len(p.layouts) - 1 for p in parts)
        # Loose: whatever the components hold, the sea keeps at least one mine and one safe
        # cell, and no combination of the components' mine counts is ruled out.
        if high <= remaining - 1 and low >= remaining - sea + 1:
            return
        joined = join(parts, sea, remaining)
        if joined.solutions == 0:
            self._broken = True
            return
        solutions = joined.solutions
        for k, component in enumerate(self._components):
            for mines, box in zip(joined.box_mines(k), component.problem.boxes):
                verdict = -1 if mines == 0 else 1 if mines == len(box) * solutions else 0
                if verdict:
                    for cell in box:
                        j = (cell[0] + 1) * self._w2 + cell[1] + 1
                        self._decide(j, verdict, MINE_COUNT)
                        found.append(j)
        if sea and (joined.sea_mines == 0 or joined.sea_mines == sea * solutions):
            verdict = 1 if joined.sea_mines else -1
            for j in sorted(self._sea):
                self._decide(j, verdict, MINE_COUNT)
                found.append(j)

    def _count_step_by_sat(self, found: list[int]) -> None:
        """Grade 4 when counting is too hard: SAT over the whole position."""
        from msanalysis.sat import forced_cells

        safe, mines = forced_cells(build(self.position, ignore_flags=self.ignore_flags))
        w2 = self._w2
        for cells, value in ((safe, -1), (mines, 1)):
            for row, col in sorted(cells):
                j = (row + 1) * w2 + col + 1
                if self._fact[j] == 0:
                    self._decide(j, value, MINE_COUNT)
                    found.append(j)

    # -- moving mines ---------------------------------------------------------------------------
    def perturb(self, rng: random.Random, protected: Iterable[Cell] = ()) -> bool:
        """Move mines so that the open cells of one clue become all safe or all mines.

        What Simon Tatham's Mines does where its solver gets stuck, to make boards that need
        no guess: a clue with open cells is chosen at random (``rng.choice``), and its mines
        are swapped with safe cells elsewhere (or its safe cells with mines elsewhere, whichever
        is found first), taking open cells beside revealed ones first, then the far side,
        never a cell of ``protected`` (cells off the board among them are passed over). The
        numbers already revealed change with the mines; what was proven stays true of the new
        layout, and stays proven, though the new numbers alone may no longer force all of it:
        past a move, :attr:`forced` and :attr:`analysis` know more than an analysis of
        :attr:`position` from scratch. The game is no longer the one that was dealt: check the
        new :attr:`board` again from its first click (as
        :func:`msanalysis.play.noguess.generate_no_guess` does).
        :class:`msanalysis.bitlogic.MovingPlay` makes the same moves on bit boards.

        Returns
        -------
        bool
            False when no clue has open cells or no swap fits (nothing was moved).

        Raises
        ------
        IllegalMove
            When the tracker follows a :class:`~msanalysis.game.Game`, whose board it cannot
            change, has no layout, or has a wrong flag placed (what it proved with the flag's
            help may be false).
        """
        check_type(rng, random.Random, "Tracker.perturb", "random.Random(seed) makes one")
        check_list(protected, "protected is a list of cells")
        if self._game is not None:
            raise IllegalMove("a tracker that follows a game cannot move its mines")
        self._require_layout()
        if not self._truthful:
            raise IllegalMove("mines are moved only while every flag is right: a flag is "
                              "wrong")
        state, fact, opened, truth = self._state, self._fact, self._open, self._truth
        ignore = self.ignore_flags
        clues = [i for i, s in enumerate(state) if s >= 0 and opened[i] > 0]
        if not clues:
            return False
        chosen = self._open_cells(rng.choice(clues))
        height, width, w2 = self.height, self.width, self._w2
        keep = {(row + 1) * w2 + col + 1 for row, col in map(as_pair, protected)
                if 0 <= row < height and 0 <= col < width} | chosen
        offsets = self._offsets
        near: list[int] = []
        far: list[int] = []
        sea = self._sea
        for i, s in enumerate(state):
            if (s == HIDDEN or (s == FLAG and ignore)) and fact[i] == 0 and i not in keep:
                (far if i in sea else near).append(i)
        rng.shuffle(near)
        rng.shuffle(far)
        full = sorted(i for i in chosen if truth[i])
        empty = sorted(i for i in chosen if not truth[i])
        to_fill: list[int] = []
        to_empty: list[int] = []
        for i in near + far:
            (to_empty if truth[i] else to_fill).append(i)
            if len(to_fill) == len(full) or len(to_empty) == len(empty):
                break
        if len(to_fill) == len(full):  # the clue's mines go elsewhere: its cells are safe
            changes = [(i, -1) for i in full] + [(i, 1) for i in to_fill]
        elif len(to_empty) == len(empty):  # mines from elsewhere fill its cells
            changes = [(i, 1) for i in empty] + [(i, -1) for i in to_empty]
        else:
            return False
        numbers, need = self._numbers, self._need
        for i, delta in changes:
            truth[i] = delta > 0
            for o in offsets:
                j = i + o
                numbers[j] += delta
                if state[j] >= 0:
                    state[j] += delta
                    need[j] += delta
                    self._touch(j)
        self._board = None
        self._changed()
        return True

    # -- counts ---------------------------------------------------------------------------------
    def _joined(self) -> tuple[list[ComponentCount], Joined]:
        self.settle()
        parts = [self._count_of(c) for c in self._components]
        return parts, join(parts, len(self._sea), self.total_mines - self._known_mines)

    def _whole_count(self, constraints: Constraints) -> Count | None:
        """:func:`msanalysis.joining.count` of ``constraints``, the whole position now, made
        from the tracker's own component counts instead of counting again.

        A component of the whole position holds the tracker's components it joins (cells
        proven since split them) and the proven cells between them, each a box of its own:
        its count by mines is the product of theirs, shifted by the proven mines, and an open
        box holds its own component's mines times the layouts of the others. None when a box
        of the position is not one of the tracker's, or was decided by the mine count, which
        the components' counts leave out (it then has to be counted).
        """
        self.settle()
        fact, grade, w2 = self._fact, self._grade, self._w2
        where: dict[Cell, tuple[int, int]] = {}
        trackers = self._components
        own = [self._count_of(c) for c in trackers]
        for k, tracked in enumerate(trackers):
            for b, box in enumerate(tracked.problem.boxes):
                where[box[0]] = (k, b)
        parts: list[ComponentCount] = []
        for whole in constraints.components:
            fixed = 0
            joined: dict[int, None] = {}  # the tracker's components in it, in order met
            for box in whole.boxes:
                row, col = box[0]
                i = (row + 1) * w2 + col + 1
                f = fact[i]
                if f and (grade[i] == MINE_COUNT
                          or any(fact[(r + 1) * w2 + c + 1] != f for r, c in box)):
                    return None  # fixed by the count, which the parts leave out
                if f > 0:
                    fixed += len(box)
                elif f == 0:
                    k, b = where.get(box[0], (-1, 0))
                    if k < 0 or trackers[k].problem.boxes[b] != box:
                        return None
                    joined[k] = None
            if fixed == 0 and len(joined) == 1:
                k = next(iter(joined))
                if trackers[k].problem.boxes == whole.boxes:
                    parts.append(own[k])
                    continue
            offset, layouts = fixed, [1]
            for k in joined:
                offset += own[k].offset
                layouts = polynomial_product(layouts, own[k].layouts)
            # The layouts of all the tracker's components in it but one, for each one.
            others = {k: [1] for k in joined}
            for k in joined:
                for m in joined:
                    if m != k:
                        others[k] = polynomial_product(others[k], own[m].layouts)
            box_mines = []
            for box in whole.boxes:
                row, col = box[0]
                f = fact[(row + 1) * w2 + col + 1]
                if f:
                    size = len(box) if f > 0 else 0
                    box_mines.append(tuple(size * n for n in layouts))
                else:
                    k, b = where[box[0]]
                    box_mines.append(tuple(polynomial_product(own[k].box_mines[b], others[k])))
            parts.append(ComponentCount(offset, tuple(layouts), tuple(box_mines)))
        return count_of_parts(constraints, parts)

    def solutions(self) -> int:
        """Layouts consistent with the position (an exact integer)."""
        return self._joined()[1].solutions

    def probabilities(self) -> dict[Cell, Fraction]:
        """The exact mine probability of every unknown cell (proven ones are 0 or 1).

        Examples
        --------
        >>> tracker = Tracker(Board.from_text("*...\\n....\\n....\\n...*"), first_click=(0, 3))
        >>> tracker.probabilities()[(3, 3)]
        Fraction(1, 1)
        """
        joined = self._joined()[1]
        solutions = joined.solutions
        result: dict[Cell, Fraction] = {}
        for k, component in enumerate(self._components):
            for mines, box in zip(joined.box_mines(k), component.problem.boxes):
                result.update(dict.fromkeys(box, Fraction(mines, len(box) * solutions)))
        if self._sea:
            sea = [self._cell(i) for i in sorted(self._sea)]
            result.update(dict.fromkeys(sea, Fraction(joined.sea_mines,
                                                      len(sea) * solutions)))
        state, fact = self._state, self._fact
        for i, f in enumerate(fact):
            if f and self._is_unknown(state[i]):
                result[self._cell(i)] = Fraction(1 if f > 0 else 0)
        return result

    def _probability_array(self) -> np.ndarray:
        joined = self._joined()[1]
        solutions = joined.solutions
        result = np.where(self.position.mine_mask(self.ignore_flags), 1.0, np.nan)
        # Flat indices of the framed grid and their values, set in one go.
        fact = self._fact
        where = list(self._proven)
        values = [1.0 if fact[i] > 0 else 0.0 for i in where]
        w2 = self._w2
        for k, component in enumerate(self._components):
            for mines, box in zip(joined.box_mines(k), component.problem.boxes):
                where.extend((row + 1) * w2 + col + 1 for row, col in box)
                values.extend([mines / (len(box) * solutions)] * len(box))
        if self._sea:
            where.extend(self._sea)
            values.extend([joined.sea_mines / (len(self._sea) * solutions)] * len(self._sea))
        if where:
            index = np.array(where)
            result[index // w2 - 1, index % w2 - 1] = values
        result.setflags(write=False)
        return result

    def __repr__(self) -> str:
        return f"<Tracker {self.width}x{self.height} {self.status}>"


class TrackedAnalysis(Analysis):
    """The :class:`~msanalysis.analysis.Analysis` of a tracker's position.

    Forced cells, layouts and probabilities come from the tracker; the constraints of the whole
    position and the counts per component (which the strategies' look ahead reads) are made
    only when asked for, the counts from the tracker's own components (see
    :meth:`Tracker._whole_count`), counted again only where the mine count decided a cell.
    Asked after the tracker has moved on, it answers for its own position, from the counts of
    its whole components.
    """

    def __init__(self, tracker: Tracker, forced_safe: frozenset[Cell],
                 forced_mines: frozenset[Cell]) -> None:
        self._tracker = tracker
        self._version = tracker.version
        self._unknown = tracker._unknown
        self.position = tracker.position
        self.ignore_flags = tracker.ignore_flags
        self.forced_safe = forced_safe
        self.forced_mines = forced_mines
        self.all_forced = True
        self._time_limit = None

    def _current(self) -> bool:
        tracker = self._tracker
        tracker._follow()  # a move made on the game followed counts as a move
        return tracker.version == self._version

    @cached_property
    def constraints(self) -> Constraints:  # type: ignore[override]
        return build(self.position, ignore_flags=self.ignore_flags)

    @cached_property
    def counts(self) -> Count:
        if self._current():
            try:
                made = self._tracker._whole_count(self.constraints)
            except AnalysisTooHard:
                made = None
            if made is not None:
                return made
        cache = self._tracker._cache
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        return count(self.constraints, cache=cache)

    @property
    def _whole(self) -> bool:
        """Answer from the counts of whole components: when a guess is to be made (the
        strategies then read those counts anyway), or when the tracker has moved on (asked
        each time: it may move on between two questions)."""
        return not self._current() or (not self.forced_safe and not self.is_over)

    @cached_property
    def solutions(self) -> int:
        if self._whole:
            return self.counts.solutions
        return self._tracker.solutions()

    @cached_property
    def _exact(self) -> dict[Cell, Fraction]:
        if self._whole:
            return self.counts.probabilities()
        return self._tracker.probabilities()

    @cached_property
    def probabilities(self) -> np.ndarray:
        if self._whole:
            return Analysis.probabilities.func(self)  # type: ignore[attr-defined]
        return self._tracker._probability_array()

    def exact_probability(self, cell: Cell) -> Fraction:
        cell = as_cell(cell, *self.position.shape)
        state = self.position.state(cell)
        if state == MINE or (state == FLAG and not self.ignore_flags):
            return Fraction(1)
        if state >= 0:
            raise InvalidInput(f"cell {cell} is revealed: it has no mine probability")
        return self._exact[cell]

    @property
    def is_over(self) -> bool:
        if self.position.is_lost:
            return True
        return len(self.forced_mines) == self._unknown

