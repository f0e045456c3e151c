"""A known layout played by logic alone on bit boards: the fast path of the no-guess check.

Each set of cells (the mines, the revealed cells, the proven mines) is one Python integer with a
bit per cell, row after row in whole bytes inside a free border, in the order in which
:class:`~msanalysis.tracker.Tracker` takes its cells (row-major). Single clues over the whole
board and the cascade of a zero are then a few shifts and ands of those integers, not a loop
over cells.
Pairs of clues, components and the total mine count are asked in the tracker's order, over the
same clues, components and counts (:mod:`msanalysis.counting`, SAT past a size), so that every
round proves the same cells as a tracker playing the board with ``step(reveal=True)``, and
:class:`MovingPlay` moves mines where logic stops as the tracker's ``perturb`` does.
Judging, grading and making boards is :mod:`msanalysis.play.noguess`'s job; this module only
plays (and moves the mines it is told to).
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from msanalysis.board import Board, Cell, as_pair, check_size
from msanalysis.counting import ComponentCount, Problem, count_component
from msanalysis.errors import (
    AnalysisTooHard,
    InvalidInput,
    WrongType,
    a_name,
    check_function,
    check_list,
    check_type,
)
from msanalysis.joining import join
from msanalysis.sat import problem_verdicts
from msanalysis.tracker import COMPONENT, MINE_COUNT, PAIR, SINGLE, check_grade

__all__ = ["LogicPlay", "MovingPlay", "play_by_logic", "wins_by_logic"]

_COUNT_BOXES = 8  # larger components go to SAT first, as the tracker does
_CACHE_LIMIT = 4096  # shapes of components whose counts are kept (then it starts again)


@dataclass(frozen=True)
class LogicPlay:
    """How far logic alone gets on a board from its first click.

    Attributes
    ----------
    solvable : bool
        Every safe cell was revealed.
    grade : int
        The hardest reasoning a round needed (1 single clues ... 4 the mine count); 0 when the
        first round proved nothing.
    rounds : int
        Rounds of reasoning, the last one (which found nothing) included when logic stopped.
    hardest_step : int or None
        The first round of that grade.
    hardest_cells : tuple of (row, col), or None
        The cells that round proved, row-major; None when it is the first round and single
        clues (which cells a round of single clues counts as proved, rather than opened by a
        cascade, depends on the order the tracker looks at clues: ask it).
    revealed_count : int
        How many cells were revealed at the end.
    revealed : numpy.ndarray of bool
        Those cells (a property, made when first read: a check that only wants the verdict
        never pays for the grid).
    """

    solvable: bool
    grade: int
    rounds: int
    hardest_step: int | None
    hardest_cells: tuple[Cell, ...] | None
    revealed_count: int
    _revealed_bits: int = field(repr=False)
    _bit_frame: _Frame = field(repr=False, compare=False)

    @cached_property
    def revealed(self) -> np.ndarray:
        """The cells revealed at the end, as a boolean grid."""
        return _mask(self._revealed_bits, self._bit_frame)


def play_by_logic(board: Board | tuple[int, int, Sequence[int]], first_click: Cell,
                  max_grade: int = MINE_COUNT) -> LogicPlay:
    """Reveal ``first_click`` and then only cells proven safe, round after round.

    Parameters
    ----------
    board : Board, or (height, width, mines)
        The layout, or its size and the row-major numbers of its mine cells (no
        :class:`~msanalysis.board.Board` is built then).
    first_click : (row, col)
        A safe cell of the board.
    max_grade : int
        The hardest reasoning allowed: 3 leaves the mine count out.

    Returns
    -------
    LogicPlay

    Raises
    ------
    ValueError
        If the first click is off the board or on a mine.

    Examples
    --------
    >>> board = Board.from_text("..*..\\n.....\\n*...*\\n.....")
    >>> play = play_by_logic(board, (0, 0))
    >>> play.solvable, play.grade, play.rounds, play.hardest_cells
    (True, 3, 2, ((2, 2),))
    >>> play_by_logic((2, 2, [0]), (1, 1)).solvable
    False

    Notes
    -----
    A round of single clues costs a few dozen operations on integers of one bit per cell for
    each wave of deductions; pairs, components and the count cost what the tracker's do.
    """
    play, start = _dealt(board, first_click, max_grade, "play_by_logic")
    return play.play(start, max_grade)


def wins_by_logic(board: Board | tuple[int, int, Sequence[int]], first_click: Cell,
                  max_grade: int = MINE_COUNT, *,
                  hopeless: Callable[[], bool] | None = None) -> bool:
    """Whether logic alone wins ``board`` from ``first_click``: :attr:`LogicPlay.solvable`
    of :func:`play_by_logic`, found sooner.

    Every pair of clues and every component that decides anything does so in the same pass,
    where a round of :func:`play_by_logic` stops at the first. Cells proven stay proven
    whatever else is learnt, so what logic proves in the end does not depend on the order it
    looks, and the verdict is the same; the rounds and grades are not kept.

    Parameters
    ----------
    board, first_click, max_grade
        As for :func:`play_by_logic`.
    hopeless : callable, optional
        Asked once, when single clues first stop short of winning: True gives the board up at
        once. It must be true only of boards that no logic wins (the caller's quick proof,
        such as a mine and a safe cell that could swap places unseen), so that the verdict
        is the same; it spares the pairs, components and count that would prove it.

    Examples
    --------
    >>> wins_by_logic(Board.from_text("..*..\\n.....\\n*...*\\n....."), (0, 0))
    True
    >>> wins_by_logic(Board.from_text("..*..\\n.....\\n*...*\\n....."), (0, 0), max_grade=2)
    False

    Notes
    -----
    Costs as :func:`play_by_logic`, with fewer rounds.
    """
    play, start = _dealt(board, first_click, max_grade, "wins_by_logic")
    check_function(hopeless, "wins_by_logic's hopeless is a function")
    play.first_only = False
    return play.wins(start, max_grade, hopeless)


def _dealt(board: Board | tuple[int, int, Sequence[int]], first_click: Cell, max_grade: int,
           taker: str) -> tuple[_Play, int]:
    """A play of ``board`` before the first click, and the first click's bit.

    The arguments are checked here, once a board: the rounds of play take them as they are.
    """
    check_grade(max_grade)
    if isinstance(board, Board):
        height, width = board.height, board.width
        frame = _frame(height, width)
        rows = np.zeros((height, frame.w2 // 8), dtype=np.uint8)
        rows[:, :(width + 7) // 8] = np.packbits(board.mask, axis=1, bitorder="little")
        truth = int.from_bytes(rows.tobytes(), "little") << frame.first
    elif isinstance(board, (tuple, list)) and len(board) == 3:
        height, width, mines = board
        width, height = check_size(width, height)  # a huge size would fill the memory
        frame = _frame(height, width)
        try:
            cells = set(mines)
            if cells and (min(cells) < 0 or max(cells) >= height * width):
                raise InvalidInput(f"a mine is off the {width}x{height} board")
            truth = sum(map(frame.cell_bits.__getitem__, cells))
        except TypeError:  # no list, or not of whole numbers: seen only as they are used
            raise WrongType(f"a board's mines are the row-major numbers of its mine cells (ints), "
                            f"got {reprlib.repr(mines)}") from None
    else:
        raise WrongType(f"{taker} takes a Board or (height, width, mines), got "
                        f"{a_name(type(board).__name__)}")
    row, col = as_pair(first_click)
    if not (0 <= row < height and 0 <= col < width):
        raise InvalidInput(f"the first click {first_click} is off the {width}x{height} board")
    start = (row + 1) * frame.w2 + col + 1
    if truth >> start & 1:
        raise InvalidInput(f"the first click {first_click} is on a mine")
    return _Play(frame, truth), start


class _Frame:
    """What depends only on the size: masks of the inside and of each cell's neighbours.

    A row takes whole bytes, a free one on top: a boolean grid and an integer convert with
    one packing of bits (the frame around the cells is the rest of each row's bytes).
    """

    def __init__(self, height: int, width: int) -> None:
        self.height, self.width = height, width
        w2 = self.w2 = 8 * ((width + 9) // 8)
        size = self.size = (height + 2) * w2
        row = ((1 << width) - 1) << 1
        self.inside = sum(row << (r * w2) for r in range(1, height + 1))
        block = 7 | 5 << w2 | 7 << 2 * w2
        # Only cells inside are ever asked about; those of the frame get no neighbours.
        self.around = [block << (i - w2 - 1) if self.inside >> i & 1 else 0
                       for i in range(size)]
        offsets = [dr * w2 + dc for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc]
        self.near = [sum(1 << (i + o) for o in offsets if 0 <= i + o < size) for i in range(size)]
        self.names = [(i // w2 - 1, i % w2 - 1) for i in range(size)]
        self.first = w2 + 1  # the bit of cell (0, 0)
        self.cell_bits = [1 << ((k // width + 1) * w2 + k % width + 1)
                          for k in range(height * width)]


@lru_cache(maxsize=16)
def _frame(height: int, width: int) -> _Frame:
    return _Frame(height, width)


def _bits(x: int) -> list[int]:
    """The set bits of ``x``, lowest first.

    >>> _bits(0b1011), _bits(sum(1 << i for i in range(0, 300, 3)))[-2:]
    ([0, 1, 3], [294, 297])
    """
    if x.bit_count() > 40:  # many: one pass over the binary digits beats a step per bit
        return [i for i, digit in enumerate(bin(x)[:1:-1]) if digit == "1"]
    found = []
    while x:
        low = x & -x
        found.append(low.bit_length() - 1)
        x ^= low
    return found


class _Component:
    """A connected group of clues with open cells, as the tracker keeps it: its boxes as bits,
    and the :class:`~msanalysis.counting.Problem` made only when a count or SAT needs it."""

    __slots__ = ("_problem", "bits", "boxes", "checked", "count", "frame", "needs", "scopes",
                 "shape")

    def __init__(self, bits: int, boxes: list[int], scopes: tuple[tuple[int, ...], ...],
                 needs: tuple[int, ...], frame: _Frame) -> None:
        self.bits = bits  # the clues
        self.boxes = boxes  # the cells of each box, as bits
        self.scopes, self.needs = scopes, needs
        self.frame = frame
        # A count depends on the sizes of the boxes and the clues over them, not on where
        # they are: small shapes (a 1-2-1, a corner) come back on board after board.
        self.shape = (tuple([box.bit_count() for box in boxes]), scopes, needs)
        self.count: ComponentCount | None = _CACHE.get(self.shape)
        self.checked = False
        self._problem: Problem | None = None

    @property
    def problem(self) -> Problem:
        """The component as counting and SAT take it (cells named, boxes in the same order)."""
        if self._problem is None:
            names = self.frame.names
            self._problem = Problem(tuple([tuple([names[j] for j in _bits(box)])
                                           for box in self.boxes]),
                                    self.scopes, self.needs,
                                    tuple([names[a] for a in _bits(self.bits)]))
        return self._problem

    @property
    def bounds(self) -> tuple[int, int]:
        """The tracker's rough bounds on the mines of the component (the same by shape)."""
        bounds = _BOUNDS.get(self.shape)
        if bounds is None:
            if len(_BOUNDS) > _CACHE_LIMIT:
                _BOUNDS.clear()
            bounds = _BOUNDS[self.shape] = self.problem.mine_bounds()
        return bounds


_BOUNDS: dict[tuple, tuple[int, int]] = {}
"""The tracker's bounds on mines by shape of problem, shared by every play."""

_CACHE: dict[tuple, ComponentCount] = {}
"""Counts by shape of problem, shared by every play."""


class _Play:
    """One board played by logic: the bit sets, and the tracker's bookkeeping for grades 2-4."""

    def __init__(self, frame: _Frame, truth: int) -> None:
        self.frame = frame
        self.truth = truth
        inside = frame.inside
        self.safe = inside & ~truth
        self.zero = self.safe & ~self._grow(truth)
        self.revealed = 0
        self.proven = 0  # mines proven
        self.changed_pairs = 0  # cells changed since the pairs last looked
        self.changed_groups = 0  # cells changed since the components were last rebuilt
        self.dirty_pairs = 0  # clues whose pairs to look at
        self.components: list[_Component] = []
        self.first_only = True  # a round stops at the first pair or component deciding any

    def _grow(self, x: int) -> int:
        """``x`` and the cells next to it (bits of the frame may be set)."""
        w2 = self.frame.w2
        x |= (x << 1) | (x >> 1)
        return x | (x << w2) | (x >> w2)

    # -- moves ----------------------------------------------------------------------------------
    def _reveal(self, new: int) -> None:
        """Reveal the safe cells ``new`` and what their zeros open."""
        zero, w2 = self.zero, self.frame.w2
        before = revealed = self.revealed
        new &= ~revealed
        revealed |= new
        hidden_safe = self.safe & ~revealed
        wave = new & zero
        while wave:  # only safe cells are next to a zero
            wave |= (wave << 1) | (wave >> 1)
            wave = (wave | (wave << w2) | (wave >> w2)) & hidden_safe
            revealed |= wave
            hidden_safe ^= wave
            wave &= zero
        self.revealed = revealed
        self._mark(revealed ^ before)

    def _prove_mines(self, new: int) -> None:
        new &= ~self.proven
        self.proven |= new
        self._mark(new)

    def _mark(self, cells: int) -> None:
        self.changed_pairs |= cells
        self.changed_groups |= cells

    # -- the game -------------------------------------------------------------------------------
    def play(self, start: int, max_grade: int) -> LogicPlay:
        self._reveal(1 << start)
        rounds = grade = 0
        hardest_step: int | None = None
        hardest = 0
        while self.revealed != self.safe:
            found, cells = self._round(max_grade)
            rounds += 1
            if not found:
                break
            if found > grade:
                grade, hardest_step, hardest = found, rounds - 1, cells
        frame = self.frame
        names = frame.names
        hardest_cells = None if grade == SINGLE else tuple(names[i] for i in _bits(hardest))
        return LogicPlay(self.revealed == self.safe, grade, rounds, hardest_step, hardest_cells,
                         self.revealed.bit_count(), self.revealed, frame)

    def wins(self, start: int, max_grade: int, hopeless: Callable[[], bool] | None) -> bool:
        self._reveal(1 << start)
        self._singles()
        if self.revealed == self.safe:
            return True
        if hopeless is not None and hopeless():
            return False
        return self._beyond_singles(max_grade)

    def _beyond_singles(self, max_grade: int) -> bool:
        """Once single clues have stopped: whether logic wins from here (all of it proved)."""
        while True:
            # Single clues have stopped: the stronger reasoning, then single clues again.
            found = max_grade >= PAIR and self._pairs()
            if not found and max_grade >= COMPONENT:
                found = self._components_step()
                if not found and max_grade >= MINE_COUNT:
                    found = self._count_step()
            if not found:
                return False
            self._singles()
            if self.revealed == self.safe:
                return True

    def _round(self, max_grade: int) -> tuple[int, int]:
        """The cheapest reasoning that proves anything, and the cells it proved (as bits; for
        single clues, every cell the round revealed or proved a mine)."""
        found = self._singles()
        if found:
            return SINGLE, found
        if max_grade >= PAIR:
            found = self._pairs()
            if found:
                return PAIR, found
        if max_grade >= COMPONENT:
            found = self._components_step()
            if found:
                return COMPONENT, found
        if max_grade >= MINE_COUNT:
            found = self._count_step()
            if found:
                return MINE_COUNT, found
        return 0, 0

    # -- grade 1 --------------------------------------------------------------------------------
    def _singles(self) -> int:
        """Clues whose open cells are all mines, or all safe, over the whole board at once,
        wave after wave until nothing follows.

        A clue with no hidden safe cell around has only mines among its open cells, and one
        with no open mine around only safe cells: the cells around either kind are decided,
        and the layout says which they are.
        """
        w2, zero = self.frame.w2, self.zero
        revealed = revealed_before = self.revealed
        proven = proven_before = self.proven
        hidden_safe = self.safe & ~revealed
        open_mines = self.truth & ~proven
        while True:
            x = hidden_safe | (hidden_safe << 1) | (hidden_safe >> 1)
            near_safe = x | (x << w2) | (x >> w2)
            x = open_mines | (open_mines << 1) | (open_mines >> 1)
            decides = revealed & ~(near_safe & (x | (x << w2) | (x >> w2)))
            x = decides | (decides << 1) | (decides >> 1)
            x |= (x << w2) | (x >> w2)
            mines = x & open_mines
            new = x & hidden_safe
            if not new:
                if not mines:
                    break
                proven |= mines
                open_mines ^= mines
                continue
            if mines:
                proven |= mines
                open_mines ^= mines
            revealed |= new
            hidden_safe ^= new
            wave = new & zero
            while wave:  # the cascade of the zeros revealed (only safe cells are next to one)
                wave |= (wave << 1) | (wave >> 1)
                wave = (wave | (wave << w2) | (wave >> w2)) & hidden_safe
                revealed |= wave
                hidden_safe ^= wave
                wave &= zero
        self.revealed, self.proven = revealed, proven
        changed = (revealed ^ revealed_before) | (proven ^ proven_before)
        if changed:
            self.changed_pairs |= changed
            self.changed_groups |= changed
        return changed

    # -- grade 2 --------------------------------------------------------------------------------
    def _pairs(self) -> int:
        """Two clues sharing open cells, each one's other cells decided by the difference; the
        first pair that decides anything, in the tracker's order.

        Called when single clues decide nothing, so every clue needs some but not all of its
        open cells (``0 < n < open``). Then the tracker's bounds decide a pair ``a, b`` exactly
        when ``na - nb`` is the number of cells of ``a`` outside ``b``, or ``nb - na`` that of
        ``b`` outside ``a`` (and the two differ), so one count of the cells they share tells.
        Pairs sharing none decide nothing; those already looked at from their other clue are
        left out before they are taken.
        """
        frame = self.frame
        around, near = frame.around, frame.near
        revealed, proven = self.revealed, self.proven
        dirty = self.dirty_pairs | (revealed & self._grow(self.changed_pairs))
        self.changed_pairs = 0
        self.dirty_pairs = 0
        if not dirty:
            return 0
        open_cells = frame.inside & ~revealed & ~proven
        open_mines = self.truth & ~proven
        frontier = revealed & self._grow(open_cells)
        looked = dirty & frontier
        clues: dict[int, tuple[int, int, int]] = {}  # clue -> open cells, their number, need
        unlooked = frontier & ~looked
        every = 0
        x = looked  # the clues still to look at: the pairs of the others are done
        while x:
            low = x & -x
            a = low.bit_length() - 1
            x ^= low
            if a in clues:
                ca, ka, na = clues[a]
            else:
                ca = around[a] & open_cells
                ca_mines = around[a] & open_mines
                clues[a] = ca, ka, na = ca, ca.bit_count(), ca_mines.bit_count()
            y = near[a] & (unlooked | x)
            while y:
                low = y & -y
                b = low.bit_length() - 1
                y ^= low
                if b in clues:
                    cb, kb, nb = clues[b]
                else:
                    cb = around[b] & open_cells
                    cb_mines = around[b] & open_mines
                    clues[b] = cb, kb, nb = cb, cb.bit_count(), cb_mines.bit_count()
                # The shared cells it takes: ka - (na - nb), or kb + (na - nb); none shared
                # decides nothing.
                shared = (ca & cb).bit_count()
                if not shared or (shared != ka - na + nb and shared != kb + na - nb) or ca == cb:
                    continue
                found = self._pair_cells(ca, cb, na, nb)
                if found:
                    if self.first_only:
                        # The pairs not yet looked at stay to be looked at.
                        self.dirty_pairs = dirty & ~((1 << a) - 1)
                        return found
                    # What the pairs left to look at know is still true: go on with them.
                    every |= found
        return every

    def _pair_cells(self, ca: int, cb: int, na: int, nb: int) -> int:
        """The tracker's rule for one pair: decide what it decides; the cells, as bits."""
        shared = ca & cb
        only_a, only_b = ca ^ shared, cb ^ shared
        high = min(shared.bit_count(), na, nb)
        low = max(0, na - only_a.bit_count(), nb - only_b.bit_count())
        found = mines = cleared = 0
        for own, n in ((only_a, na), (only_b, nb)):
            if not own:
                continue
            size = own.bit_count()
            if n - high == size:
                mines |= own
            elif n - low == 0:
                cleared |= own
            else:
                continue
            found |= own
        if mines:
            self._prove_mines(mines)
        if cleared:
            self._reveal(cleared)
        return found

    # -- grade 3 --------------------------------------------------------------------------------
    def _regroup(self) -> None:
        """Rebuild the components that hold a changed clue, keeping the others (and their
        order), as the tracker does; a component grows from its first clue by shifts."""
        frame = self.frame
        revealed, w2 = self.revealed, frame.w2
        dirty = revealed & self._grow(self.changed_groups)
        self.changed_groups = 0
        if not dirty:
            return
        open_cells = frame.inside & ~revealed & ~self.proven
        seeds = dirty
        kept = []
        for component in self.components:
            if component.bits & dirty:
                seeds |= component.bits
            else:
                kept.append(component)
        seeds &= revealed & self._grow(open_cells)
        seen = 0
        for seed in _bits(seeds):
            if seen >> seed & 1:
                continue
            clues = 1 << seed
            while True:
                x = clues | (clues << 1) | (clues >> 1)
                cells = (x | (x << w2) | (x >> w2)) & open_cells
                x = cells | (cells << 1) | (cells >> 1)
                grown = (x | (x << w2) | (x >> w2)) & revealed
                if grown == clues:
                    break
                clues = grown
            seen |= clues
            # A component no changed clue is part of may join this one through a new clue.
            kept = [c for c in kept if not c.bits & clues]
            kept.append(self._component(clues, cells))
        self.components = kept

    def _component(self, clues: int, cells: int) -> _Component:
        """The clues ``clues`` over their open cells ``cells``: cells next to the same clues
        form a box, boxes in the order of their first cell, clues in the order of theirs."""
        frame = self.frame
        around = frame.around
        by_clues: dict[int, int] = {}
        x = cells
        while x:
            low = x & -x
            x ^= low
            key = around[low.bit_length() - 1] & clues
            by_clues[key] = by_clues.get(key, 0) | low
        group = _bits(clues)
        place = {a: c for c, a in enumerate(group)}
        scopes: list[list[int]] = [[] for _ in group]
        for v, key in enumerate(by_clues):
            for a in _bits(key):
                scopes[place[a]].append(v)
        open_mines = self.truth & ~self.proven
        needs = tuple([(around[a] & open_mines).bit_count() for a in group])
        return _Component(clues, list(by_clues.values()), tuple(map(tuple, scopes)), needs,
                          frame)

    def _count_of(self, component: _Component) -> ComponentCount:
        if component.count is None:
            if len(_CACHE) > _CACHE_LIMIT:
                _CACHE.clear()
            component.count = _CACHE[component.shape] = count_component(component.problem)
        return component.count

    def _box_bits(self, box: tuple[Cell, ...]) -> int:
        w2 = self.frame.w2
        bits = 0
        for row, col in box:
            bits |= 1 << ((row + 1) * w2 + col + 1)
        return bits

    def _decide(self, verdicts: list[int], boxes: list[int]) -> int:
        """Prove the boxes (as bits) of verdict 1 mines and reveal those of -1; the cells, as
        bits."""
        mines = cleared = 0
        for verdict, box in zip(verdicts, boxes):
            if verdict > 0:
                mines |= box
            elif verdict < 0:
                cleared |= box
        if mines:
            self._prove_mines(mines)
        if cleared:
            self._reveal(cleared)
        return mines | cleared

    def _components_step(self) -> int:
        """The cells a component's clues decide together: the first component that decides
        any, counted when small, by SAT from the true layout when large."""
        self._regroup()
        components = self.components
        if not self.first_only:
            # Only the verdict is wanted: small components (cheap, and often counted before)
            # first, and back to single clues as soon as one decides anything, before the
            # large ones, which what follows will likely change anyway.
            components = sorted((c for c in components if not c.checked),
                                key=lambda c: len(c.boxes))
        for component in components:
            if component.checked:
                continue
            boxes = component.boxes
            if component.count is None and len(boxes) > _COUNT_BOXES:
                verdicts = problem_verdicts(component.problem, self._model(boxes))
            else:
                try:
                    counted = self._count_of(component)
                except AnalysisTooHard:
                    verdicts = problem_verdicts(component.problem, self._model(boxes))
                else:
                    total = counted.total
                    verdicts = [-1 if sum(m) == 0 else 1 if sum(m) == size * total else 0
                                for m, size in zip(counted.box_mines, component.shape[0])]
            if verdicts is None:  # pragma: no cover - the true layout always fits
                raise AssertionError("no layout fits a position of a known board")
            component.checked = True
            found = self._decide(verdicts, boxes)
            if found:
                return found
        return 0

    def _model(self, boxes: list[int]) -> list[bool]:
        """The true layout, cell by cell, box by box (the order of the problem's cells)."""
        truth = self.truth
        return [bool(truth >> j & 1) for box in boxes for j in _bits(box)]

    # -- grade 4 --------------------------------------------------------------------------------
    def _count_step(self) -> int:
        """The cells the total mine count decides, when it decides any."""
        self._regroup()
        frame = self.frame
        open_cells = frame.inside & ~self.revealed & ~self.proven
        sea_cells = open_cells & ~self._grow(self.revealed)
        remaining = self.truth.bit_count() - self.proven.bit_count()
        sea = sea_cells.bit_count()
        low = high = 0
        for component in self.components:
            a, b = component.bounds
            low += a
            high += b
        if high <= remaining - 1 and low >= remaining - sea + 1:
            return 0
        try:
            parts = [self._count_of(c) for c in self.components]
        except AnalysisTooHard:
            return self._count_step_by_sat()
        low = sum(p.offset for p in parts)
        high = low + sum(len(p.layouts) - 1 for p in parts)
        if high <= remaining - 1 and low >= remaining - sea + 1:
            return 0
        joined = join(parts, sea, remaining)
        solutions = joined.solutions
        mines = cleared = 0
        for k, component in enumerate(self.components):
            for m, box, size in zip(joined.box_mines(k), component.boxes, component.shape[0]):
                if m == 0:
                    cleared |= box
                elif m == size * solutions:
                    mines |= box
        if mines:
            self._prove_mines(mines)
        if cleared:
            self._reveal(cleared)
        found = mines | cleared
        if sea and (joined.sea_mines == 0 or joined.sea_mines == sea * solutions):
            # As the tracker does: the sea is decided after the boxes, less the cells that
            # what the boxes revealed now border.
            sea_cells &= ~self._grow(self.revealed)
            if joined.sea_mines:
                self._prove_mines(sea_cells)
            else:
                self._reveal(sea_cells)
            found |= sea_cells
        return found

    def _count_step_by_sat(self) -> int:
        """Grade 4 when counting is too hard: SAT over the whole position."""
        from msanalysis.constraints import build
        from msanalysis.position import HIDDEN, Position
        from msanalysis.sat import forced_cells

        frame = self.frame
        numbers = Board(_mask(self.truth, frame)).numbers
        states = np.where(_mask(self.revealed, frame), numbers, HIDDEN)
        safe, mines = forced_cells(build(Position(states, self.truth.bit_count())))
        found = 0
        for cells, value in ((safe, -1), (mines, 1)):
            bits = self._box_bits(tuple(cells)) & ~self.revealed & ~self.proven
            if bits:
                if value > 0:
                    self._prove_mines(bits)
                else:
                    self._reveal(bits)
                found |= bits
        return found


class MovingPlay:
    """A board played by logic on bit boards, whose mines may be moved where logic stops.

    The bit-board twin of a :class:`~msanalysis.tracker.Tracker` that plays with
    ``step(max_grade, reveal=True)`` and moves mines with
    :meth:`~msanalysis.tracker.Tracker.perturb`: it proves the same cells, and its moves take
    the same draws from the generator and move the same mines, several times sooner (3.5
    times on expert layouts played until logic stops).
    :func:`msanalysis.play.noguess.generate_no_guess` moves mines with it (``method="adjust"``).

    Parameters
    ----------
    board : Board
    first_click : (row, col)
        A safe cell, revealed at once.
    max_grade : int
        The hardest reasoning :meth:`settle` uses.

    Examples
    --------
    >>> import random
    >>> play = MovingPlay(Board.from_text("*..\\n...\\n..*"), (1, 0))
    >>> play.settle()  # the 1 at (1, 0) cannot tell which of its cells is a mine
    False
    >>> play.move_mines(random.Random(0), [(1, 0)]), play.settle()
    (True, True)
    >>> print(play.board.to_text())
    ..*
    ...
    ..*
    """

    def __init__(self, board: Board, first_click: Cell, max_grade: int = MINE_COUNT) -> None:
        self._play, start = _dealt(board, first_click, max_grade, "MovingPlay")
        self._play.first_only = False
        self._play._reveal(1 << start)
        self.max_grade = max_grade

    def settle(self) -> bool:
        """Prove and reveal what logic can; whether every safe cell is revealed."""
        play = self._play
        play._singles()
        return play.revealed == play.safe or play._beyond_singles(self.max_grade)

    def move_mines(self, rng: random.Random, protected: Iterable[Cell] = ()) -> bool:
        """Make the open cells of one clue all safe or all mines, as
        :meth:`Tracker.perturb <msanalysis.tracker.Tracker.perturb>` does (its rule, its draws
        from ``rng``, in its order); False when nothing could be moved.

        The cells proved and revealed stay so; the revealed numbers change with the mines.
        """
        check_type(rng, random.Random, "MovingPlay.move_mines", "random.Random(seed) makes one")
        check_list(protected, "protected is a list of cells")
        play = self._play
        frame = play.frame
        grow = play._grow
        revealed, truth = play.revealed, play.truth
        open_cells = frame.inside & ~revealed & ~play.proven
        clues = _bits(revealed & grow(open_cells))
        if not clues:
            return False
        chosen = frame.around[rng.choice(clues)] & open_cells
        others = open_cells & ~chosen & ~_cell_bits(protected, frame)
        sea = open_cells & ~grow(revealed)
        near, far = _bits(others & ~sea), _bits(others & sea)
        rng.shuffle(near)
        rng.shuffle(far)
        full = (chosen & truth).bit_count()
        empty = (chosen & ~truth).bit_count()
        to_fill = to_empty = filled = emptied = 0
        for i in near + far:
            if truth >> i & 1:
                emptied += 1
                to_empty |= 1 << i
            else:
                filled += 1
                to_fill |= 1 << i
            if filled == full or emptied == empty:
                break
        if filled == full:  # the clue's mines go elsewhere: its cells are safe
            moved = (chosen & truth) | to_fill
        elif emptied == empty:  # mines from elsewhere fill its cells
            moved = (chosen & ~truth) | to_empty
        else:
            return False
        truth ^= moved
        play.truth = truth
        play.safe = frame.inside & ~truth
        play.zero = play.safe & ~grow(truth)
        play._mark(moved)  # the clues around them look again
        return True

    @property
    def board(self) -> Board:
        """The layout now."""
        return Board(_mask(self._play.truth, self._play.frame))

    @property
    def hidden(self) -> set[Cell]:
        """The cells not revealed."""
        play = self._play
        return _cells(play.frame.inside & ~play.revealed, play.frame)

    @property
    def proven_mines(self) -> set[Cell]:
        """The mines logic (up to :attr:`max_grade`) has proved."""
        return _cells(self._play.proven, self._play.frame)


def _cell_bits(cells: Iterable[Cell], frame: _Frame) -> int:
    """The cells on the board among ``cells``, as bits."""
    bits = 0
    for row, col in map(as_pair, cells):
        if 0 <= row < frame.height and 0 <= col < frame.width:
            bits |= 1 << ((row + 1) * frame.w2 + col + 1)
    return bits


def _cells(bits: int, frame: _Frame) -> set[Cell]:
    names = frame.names
    return {names[i] for i in _bits(bits)}


def _mask(bits: int, frame: _Frame) -> np.ndarray:
    """The cells of ``bits`` as a boolean grid."""
    data = (bits >> frame.first).to_bytes(frame.height * frame.w2 // 8, "little")
    rows = np.frombuffer(data, dtype=np.uint8).reshape(frame.height, frame.w2 // 8)
    return np.unpackbits(rows, axis=1, count=frame.width, bitorder="little").view(bool)
