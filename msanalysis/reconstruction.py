"""Mine layouts from number grids: the fully uncovered case, and puzzles with unknown clues.

:func:`reconstruct` finds the layouts that produce a :class:`~msanalysis.numbergrid.NumberGrid`
and returns a :class:`Reconstruction`: how many there are, whether the answer is unique, the
layouts themselves, or a small set of clues that cannot all hold. Local deductions are settled
first (:func:`msanalysis.gridlogic.settle`); what is left is split into independent components,
each solved by python-sat (Minicard) or OR-Tools CP-SAT under a
:class:`~msanalysis.solverwatch.Watch` that stops them at the deadline or at Ctrl-C. Making
puzzles is left to :mod:`msanalysis.puzzle`, pictures to :mod:`msanalysis.svg`, the command line
to :mod:`msanalysis.cli`.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Iterator
from functools import cached_property

import numpy as np

from msanalysis.board import Board, Cell
from msanalysis.errors import (
    AnalysisTooHard,
    InvalidInput,
    NoLayout,
    TimeLimitReached,
    check_flag,
    deadline_after,
    name_clues,
    time_is_up,
)
from msanalysis.exact import magnitude
from msanalysis.gridlogic import PAD, Padded, Unsatisfiable, settle, split_components
from msanalysis.numbergrid import UNKNOWN, NumberGrid, counted_offsets
from msanalysis.solverwatch import Watch

__all__ = ["ENGINES", "MAX_LISTED", "Reconstruction", "reconstruct"]

ENGINES = ("sat", "cpsat")
"""Engine names: python-sat's Minicard, or OR-Tools CP-SAT."""

MAX_LISTED = 100_000
"""The most layouts of one part of a grid :func:`reconstruct` lists to count them (``limit``
None): each is one more solve, and 50,000 took 11 s on a 30x30 mosaic grid with a quarter of
its clues."""


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
        shape = (self.height + 2 * PAD, self.width + 2 * PAD)
        # Generators, not lists: 2^free combinations must never be built up front.
        for combo in itertools.product(*[solutions for _, solutions in self._parts]):
            for bits in itertools.product((False, True), repeat=len(self._free)):
                flat = base.copy()
                for (cells, _), values in zip(self._parts, combo):
                    flat[cells] = values
                flat[self._free] = bits
                yield Board(flat.reshape(shape)[PAD:-PAD, PAD:-PAD])

    @cached_property
    def first(self) -> Board | None:
        """One layout, or None when none was found."""
        return next(self.layouts, None)

    def __repr__(self) -> str:
        count = magnitude(self.count)  # "about 1.51 x 10^1806 (1807 digits)" when huge
        how = "at least " if not self.exhaustive else "" if count.startswith("about") \
            else "exactly "
        return (f"<Reconstruction {self.rule} {self.width}x{self.height}: {how}{count} "
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
        What a number counts. Defaults to the grid's own rule (for text: the rule a puzzle's
        header names, else ``"classic"``); a different rule re-checks the numbers against it.
    engine : {"sat", "cpsat"}
        python-sat's Minicard (native cardinality constraints, blocking clauses to enumerate) or
        OR-Tools CP-SAT (a solution callback, one worker). Both give the same answers; "sat" is
        the default because it was faster on ``benchmarks/reconstruct.py``.
    limit : int or None
        Stop once at least this many layouts are known to exist (2 settles uniqueness); the
        count may then be larger, since the layouts of independent parts of the grid multiply
        (and a cell no number counts doubles them). None counts them all exactly, listing each,
        up to :data:`MAX_LISTED` in one part of the grid.
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
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InvalidInput(f"unknown engine {engine!r} (expected one of: {', '.join(ENGINES)})")
    if limit is not None and (isinstance(limit, (bool, np.bool_))
                              or not isinstance(limit, (int, np.integer)) or limit < 1):
        raise InvalidInput(f"limit must be a positive integer or None, got {limit!r}")
    limit = None if limit is None else int(limit)
    check_flag(propagate, "propagate")
    deadline = deadline_after(time_limit)
    found = _search(grid.clues, grid.rule, engine, limit, deadline, propagate)
    if isinstance(found, Unsatisfiable):
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
        return NumberGrid.from_text(grid, rule=rule)
    if isinstance(grid, NumberGrid):
        if rule is None or rule == grid.rule:
            return grid
        return NumberGrid(grid.clues, rule=rule)
    return NumberGrid(grid, rule=rule or "classic")


# -- the search ---------------------------------------------------------------------------------

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


def _search(clues: np.ndarray, rule: str, engine: str, limit: int | None, deadline: float | None,
            propagate: bool) -> _Found | Unsatisfiable:
    """Settle local deductions, split into components, and solve each with ``engine``."""
    grid = Padded(clues, rule)
    state = np.full(clues.shape, UNKNOWN, dtype=np.int8)
    if propagate:
        settled = settle(clues, rule, grid, deadline=deadline)
        if isinstance(settled, Unsatisfiable):
            return settled
        state = settled
    else:
        state = state.copy()
    flat = grid.pad(state)
    components, free = split_components(flat, grid, deadline)
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
                return Unsatisfiable(grid.cell(first_clue))
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


# -- engines ------------------------------------------------------------------------------------

def _solve_sat(size: int, constraints: list[tuple[list[int], int]], need: int | None,
               deadline: float | None, known: list[np.ndarray]) -> tuple[list[np.ndarray], bool]:
    """Up to ``need`` new solutions of one component with Minicard, other than ``known``.

    Returns (solutions, proved that there are no more).
    """
    from pysat.solvers import Solver

    solutions: list[np.ndarray] = []
    # Variable v + 1 is the component's cell v: a fixed bijection, no auxiliary variables.
    with Solver(name="mc") as solver, Watch(deadline) as watch:
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
    # hears of Ctrl-C; with Python's handler left in place, Watch stops the search instead.
    solver.parameters.catch_sigint_signal = False
    collector = _collector_class()(cells, need)
    with Watch(None) as watch:  # CP-SAT keeps the deadline itself (max_time_in_seconds)
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
        if time_is_up(deadline):
            # No time to find a small window: every clue together is a true, if large, conflict.
            return [(int(r), int(c)) for r, c in np.argwhere(clues != UNKNOWN)]
        if isinstance(_search(window, rule, "sat", 1, deadline, True), Unsatisfiable):
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
            lits = [pool.id((row + dr, col + dc)) for dr, dc in counted_offsets(rule)
                    if 0 <= row + dr < height and 0 <= col + dc < width]
            selector = pool.id(("clue", row, col))
            selectors[selector] = (row, col)
            encoded = CardEnc.equals(lits, bound=int(clues[row, col]), vpool=pool,
                                     encoding=EncType.seqcounter)
            for clause in encoded.clauses:
                solver.add_clause([*clause, -selector])  # the clue holds only when selected
        # Through Watch, not solve(): python-sat's own SIGINT handler would raise its error in
        # place of KeyboardInterrupt. The window's proof has no deadline; the shrinking has.
        with Watch(None) as watch:
            if watch.solve(solver, list(selectors)):
                raise AssertionError("the conflict window was proven unsatisfiable")
        core = sorted(solver.get_core())
        index = 0
        with Watch(deadline) as watch:
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
