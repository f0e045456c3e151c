"""Forced cells and their explanations, with python-sat's Minicard.

:func:`forced_cells` finds every hidden cell that is safe (or a mine) in every layout consistent
with a position, frontier and sea alike, the total mine count included. :func:`explain` names a
minimal set of clues (and says whether the mine count is needed) that on its own forces a cell,
from an unsatisfiable core shrunk until no clue can be dropped. :func:`inconsistency` does the
same for a position no layout satisfies. :func:`problem_verdicts` decides the boxes of one
counting problem (for the tracker and the bit boards). Probabilities and counts live in
:mod:`msanalysis.counting` and :mod:`msanalysis.joining`.

Clues are Minicard's native cardinality constraints: "exactly k of n" is ``atmost(k)`` over the
cells plus ``atmost(n - k)`` over their negations.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pysat.formula import IDPool
from pysat.solvers import Solver

from msanalysis.board import Cell, as_cell
from msanalysis.constraints import Constraints, build, flags_contradict, settle
from msanalysis.counting import Problem
from msanalysis.errors import (
    AnalysisTooHard,
    InconsistentPosition,
    InvalidInput,
    TimeLimitReached,
    check_flag,
    check_type,
    deadline_after,
    name_clues,
    quantity,
)
from msanalysis.position import FLAG, HIDDEN, MINE, Position
from msanalysis.solverwatch import Watch

__all__ = ["Explanation", "Forced", "explain", "find_forced", "forced_cells", "inconsistency",
           "problem_verdicts"]


@dataclass(frozen=True)
class Explanation:
    """Why a hidden cell is forced.

    Attributes
    ----------
    cell : (row, col)
    verdict : {"safe", "mine"}
    clues : list of (row, col)
        Revealed cells, sorted, whose numbers together force the verdict; no one of them can be
        dropped.
    uses_mine_count : bool
        True when the total mine count is needed as well.
    flags : tuple of (row, col)
        Flags next to those clues, which the deduction takes as mines (empty when flags are
        ignored).
    numbers : tuple of int
        The number shown on each clue, in the order of ``clues``.
    """

    cell: Cell
    verdict: str
    clues: list[Cell]
    uses_mine_count: bool
    flags: tuple[Cell, ...] = ()
    numbers: tuple[int, ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        """The explanation in words.

        Examples
        --------
        >>> print(explain(Position.from_text("mines: 1\\n???\\n1??"), (0, 2)))
        ... # doctest: +NORMALIZE_WHITESPACE
        (0, 2) is safe: the 1 at (1, 0) and the total mine count leave no layout in which it is
        a mine.
        """
        if self.numbers:
            parts = [f"the {n} at ({r}, {c})" for (r, c), n in zip(self.clues, self.numbers)]
        else:
            parts = [f"the clue at ({r}, {c})" for r, c in self.clues]
        if self.uses_mine_count:
            parts.append("the total mine count")
        if len(parts) == 1:
            reason = f"{parts[0]} alone leaves"
        else:
            reason = ", ".join(parts[:-1]) + f" and {parts[-1]} leave"
        flags = ""
        if self.flags:
            flags = " (taking the flags at " + ", ".join(f"({r}, {c})" for r, c in self.flags) \
                    + " as mines)"
        what, other = ("safe", "a mine") if self.verdict == "safe" else ("a mine", "safe")
        return (f"({self.cell[0]}, {self.cell[1]}) is {what}: {reason} no layout in which it is "
                f"{other}{flags}.")


# -- forced cells ----------------------------------------------------------------------------------

_CLUES_BETWEEN_LOOKS = 4096
"""Clues whose clauses are written between two looks at the clock (a few milliseconds)."""


class _OutOfTime(Exception):
    """The search reached its deadline; ``partial`` holds the verdicts decided before it."""

    def __init__(self, partial: list[int] | None = None) -> None:
        super().__init__("out of time")
        self.partial = partial


class _Clock:
    """The deadline of one search, kept even inside a single long SAT call, and Ctrl-C.

    Inside ``with``, a :class:`~msanalysis.solverwatch.Watch` interrupts the solver at work
    when the deadline comes or Ctrl-C is pressed (Python runs no signal handler during a C
    call: a search of a large position ignored Ctrl-C until its time limit), so no one call
    can run past either. Without a deadline a solve is a plain ``solve``.
    """

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self._watch = Watch(deadline)

    def __enter__(self) -> _Clock:
        if self.deadline is not None:
            self._watch.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._watch.__exit__()

    def ran_out(self) -> bool:
        """Whether the deadline has come."""
        return self.deadline is not None and (self._watch.expired
                                              or time.perf_counter() >= self.deadline)

    def solve(self, solver: Solver, assumptions: Sequence[int] = ()) -> bool:
        """``solver.solve(assumptions)``, or _OutOfTime when the deadline comes first."""
        if self.deadline is None:
            return bool(solver.solve(assumptions=assumptions))
        if self.ran_out():
            raise _OutOfTime
        answer = self._watch.solve(solver, assumptions)
        if answer is None:
            raise _OutOfTime
        return bool(answer)


def _exactly(solver: Solver, lits: list[int], k: int) -> None:
    """Add "exactly ``k`` of ``lits``"; the two extremes as unit clauses, which propagate best."""
    n = len(lits)
    if k == 0:
        for lit in lits:
            solver.add_clause([-lit])
    elif k == n:
        for lit in lits:
            solver.add_clause([lit])
    else:
        solver.add_atmost(lits, k)
        solver.add_atmost([-lit for lit in lits], n - k)


def _between(solver: Solver, lits: list[int], low: int, high: int) -> None:
    """Add "between ``low`` and ``high`` of ``lits``" (bounds outside 0..n add nothing)."""
    n = len(lits)
    if high < n:
        solver.add_atmost(lits, max(high, 0)) if high >= 0 else solver.add_clause([])
    if low > 0:
        solver.add_atmost([-lit for lit in lits], n - low) if low <= n else solver.add_clause([])


def _guarded_atmost(solver: Solver, pool: IDPool, selector: int, lits: list[int],
                    bound: int) -> None:
    """Add "at most ``bound`` of ``lits``" when ``selector`` is true, nothing when it is false.

    With the selector on, all ``n - bound`` fresh helpers are true and leave room for ``bound``
    of ``lits`` under ``atmost(lits + helpers, n)``; with it off they may be false.
    """
    n = len(lits)
    if bound >= n:
        return
    if bound < 0:
        solver.add_clause([-selector])
        return
    helpers = [pool.id((selector, "helper", len(lits), bound, i)) for i in range(n - bound)]
    for helper in helpers:
        solver.add_clause([-selector, helper])
    solver.add_atmost(lits + helpers, n)


def _guarded_between(solver: Solver, pool: IDPool, selector: int, lits: list[int], low: int,
                     high: int) -> None:
    _guarded_atmost(solver, pool, selector, lits, high)
    _guarded_atmost(solver, pool, selector, [-lit for lit in lits], len(lits) - low)


def _count_is_loose(constraints: Constraints,
                    settled: tuple[list[int], list[int]] | None = None) -> bool:
    """True when the mine count cannot matter: every combination of the components' feasible
    mine counts leaves between 1 and ``sea - 1`` mines for the sea.

    Uses cheap bounds: the mines the clues decide alone (``settled``, from :func:`_propagate`;
    found here when not given), plus at least the sum over open clues with disjoint open boxes
    (greedy), at most, per component, the fewer of its open cells and its open clues' needs.
    """
    remaining, sea = constraints.remaining, len(constraints.sea)
    if remaining is None:
        return True
    if sea < 2:
        return False
    if settled is None:
        settled = _propagate(constraints)
        if settled is None:
            return False  # inconsistent: the joined solver finds out
    decided, need = settled
    clues, boxes = constraints.clues, constraints.boxes
    low = high = sum(len(box.cells) for box, verdict in zip(boxes, decided) if verdict > 0)
    taken: set[int] = set()
    for i in sorted((i for i, n in enumerate(need) if n > 0), key=lambda i: -need[i]):
        own = [j for j in clues[i].boxes if not decided[j]]
        if taken.isdisjoint(own):
            low += need[i]
            taken.update(own)
    for component in constraints.components:
        open_cells = sum(len(boxes[j].cells) for j in component.box_ids if not decided[j])
        if open_cells:
            high += min(open_cells, sum(need[i] for i in component.clue_ids))
    return high <= remaining - 1 and low >= remaining - sea + 1


def _propagate(constraints: Constraints) -> tuple[list[int], list[int]] | None:
    """What the clues decide one at a time (see :func:`msanalysis.constraints.settle`): per box
    1 (all mines), -1 (all safe) or 0 (open), and per clue the mines still needed among its
    open boxes. None when a clue cannot hold. Whatever it decides is forced; SAT is then asked
    only about the open boxes, with fewer variables and no unit clauses.
    """
    clues, boxes = constraints.clues, constraints.boxes
    return settle([len(box.cells) for box in boxes], [clue.boxes for clue in clues],
                  [clue.mines for clue in clues], [len(clue.cells) for clue in clues],
                  [box.clues for box in boxes])


def _decide(solver: Solver, variables: list[int], clock: _Clock,
            on_model=None) -> list[int] | None:
    """For each variable: 1 forced true, -1 forced false, 0 free. None when unsatisfiable.

    Each found model rules out the questions it already answers, so a variable is only asked
    about while it has been seen one way only. ``on_model`` sees every model found. At the
    clock's deadline, _OutOfTime carries the verdicts decided so far (0 for the rest).
    """
    if not clock.solve(solver):
        return None
    model = solver.get_model()
    if on_model is not None:
        on_model(model)
    size = len(model)
    # The value each variable had in the first model; it stays open until seen the other way.
    first = [var <= size and model[var - 1] > 0 for var in variables]
    still_open = {i for i, var in enumerate(variables) if var <= size}
    result = [0] * len(variables)
    for i, var in enumerate(variables):
        if i not in still_open:
            continue
        try:
            free = clock.solve(solver, [-var if first[i] else var])
        except _OutOfTime:
            raise _OutOfTime(result) from None
        if free:
            model = solver.get_model()
            if on_model is not None:
                on_model(model)
            size = len(model)
            still_open.difference_update(
                [j for j in still_open
                 if variables[j] > size or (model[variables[j] - 1] > 0) != first[j]])
        else:
            result[i] = 1 if first[i] else -1
            still_open.discard(i)
            # A forced literal as a unit clause makes the remaining questions easier.
            solver.add_clause([var if first[i] else -var])
    return result


@dataclass(frozen=True)
class Forced:
    """The forced cells a search found, and whether it found them all.

    Attributes
    ----------
    safe, mines : frozenset of (row, col)
        Cells safe, or mines, in every layout.
    stopped : str or None
        Why the search stopped at its deadline, when it did: then ``safe`` and ``mines`` are
        certain but other cells may be forced too. None when they are all the forced cells.

    Examples
    --------
    >>> forced = find_forced(build(Position.from_text("1??\\n1??\\n11?")))
    >>> sorted(forced.safe), sorted(forced.mines), forced.complete
    ([(0, 1), (1, 2), (2, 2)], [(1, 1)], True)
    """

    safe: frozenset[Cell]
    mines: frozenset[Cell]
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        """True when every forced cell was found."""
        return self.stopped is None


def forced_cells(constraints: Constraints, *, deadline: float | None = None
                 ) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Every unknown cell that is safe, or a mine, in all layouts: ``(safe, mines)``.

    Parameters
    ----------
    constraints : Constraints
        From :func:`msanalysis.constraints.build`.
    deadline : float, optional
        A :func:`time.perf_counter` value after which the search raises ``AnalysisTooHard``
        (:func:`find_forced` gives what was found by then instead).

    Returns
    -------
    (frozenset, frozenset)
        Forced safe cells and forced mines.

    Raises
    ------
    InconsistentPosition
        Naming a minimal set of clues that cannot all hold (see :func:`inconsistency`).
    AnalysisTooHard

    Notes
    -----
    Clues that decide their cells on their own (all mines or all safe, repeatedly) are applied
    first, in Python; then one incremental Minicard solver per component holds the rest, asked
    one question per open box (cells of a box are interchangeable), minus the questions earlier
    models answered. When the mine count can
    matter (the endgame, or little sea) the components are joined into one solver by the count,
    which bounds the frontier's mines to ``[remaining - sea, remaining]``: the sea needs no
    variables, and a sea cell is forced when the frontier always holds one of those two
    extremes. Each question is NP-complete in general, in practice microseconds.

    Examples
    --------
    >>> safe, mines = forced_cells(build(Position.from_text("???\\n121")))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    check_type(constraints, Constraints, "forced_cells", "build(position) makes them")
    found = find_forced(constraints, deadline=deadline)
    if found.stopped is not None:
        raise TimeLimitReached(found.stopped)
    return found.safe, found.mines


def find_forced(constraints: Constraints, *, deadline: float | None = None) -> Forced:
    """Every forced cell, as :func:`forced_cells` finds them, or those found by ``deadline``.

    The deadline holds inside a single SAT call too (the solver is interrupted), so the search
    ends within a few milliseconds of it, keeping every cell it had proven forced.

    Examples
    --------
    The 1 0 at the top settles its cells on its own; the 1 2 1 below needs the solver.

    >>> position = Position.from_text("???\\n110\\n...\\n121\\n???")
    >>> sorted(find_forced(build(position)).mines)
    [(0, 0), (4, 0), (4, 2)]
    >>> found = find_forced(build(position), deadline=0.0)  # no time for the solver at all
    >>> found.complete, sorted(found.mines)
    (False, [(0, 0)])
    """
    check_type(constraints, Constraints, "find_forced", "build(position) makes them")
    clues, boxes = constraints.clues, constraints.boxes
    propagated = _propagate(constraints)
    if propagated is None:
        raise inconsistency(constraints)
    decided, need = propagated
    safe: list[Cell] = []
    mines: list[Cell] = []
    placed = 0  # mines the propagation put on the frontier
    for box, verdict in zip(boxes, decided):
        if verdict > 0:
            mines.extend(box.cells)
            placed += len(box.cells)
        elif verdict < 0:
            safe.extend(box.cells)
    groups: list[tuple[Sequence[int], Sequence[int], bool]]
    if _count_is_loose(constraints, propagated):
        groups = [(component.clue_ids, component.box_ids, False) for component in
                  constraints.components]
    else:
        groups = [(range(len(clues)), range(len(boxes)), True)]
    stopped = None
    with _Clock(deadline) as clock:
        for clue_ids, box_ids, joined in groups:
            members = [boxes[j].cells for j in box_ids if not decided[j]]
            if not members and not joined:
                continue
            pool = IDPool()
            var = {cell: pool.id(cell) for cells in members for cell in cells}
            with Solver(name="mc") as solver:
                try:
                    for n, i in enumerate(clue_ids):
                        # Writing the clauses of a board of millions of cells takes seconds:
                        # the clock is looked at as they are written too.
                        if n % _CLUES_BETWEEN_LOOKS == 0 and clock.ran_out():
                            raise _OutOfTime([])
                        if need[i]:  # a clue that needs no more mines has no open cells left
                            _exactly(solver, [var[cell] for j in clues[i].boxes
                                              if not decided[j] for cell in boxes[j].cells],
                                     need[i])
                    if joined:
                        verdicts = _decide_joined(constraints, solver, pool, var, members,
                                                  placed, clock)
                    else:
                        verdicts = _decide(solver, [var[cells[0]] for cells in members], clock)
                except _OutOfTime as out:
                    verdicts = out.partial
                    stopped = ("finding forced cells ran past the time limit: the forced cells "
                               "found are certain, other cells may be forced too")
            if verdicts is None and stopped is None:
                raise inconsistency(constraints, deadline=deadline)
            for cells, verdict in zip(members, verdicts or []):
                if verdict > 0:
                    mines.extend(cells)
                elif verdict < 0:
                    safe.extend(cells)
            if stopped is not None:
                break
    return Forced(frozenset(safe), frozenset(mines), stopped)


def _decide_joined(constraints: Constraints, solver: Solver, pool: IDPool, var: dict[Cell, int],
                   members: list[tuple[Cell, ...]], placed: int,
                   clock: _Clock) -> list[int] | None:
    """Verdicts for every box of ``members`` and, last (``members`` grows by the sea), for the
    sea; ``placed`` mines are on frontier cells outside ``var`` already."""
    remaining, sea = constraints.remaining, len(constraints.sea)
    frontier = list(var.values())
    if remaining is not None:
        remaining -= placed  # from here on, mines among the sea and the cells of ``var``
        _between(solver, frontier, remaining - sea, remaining)
    if not sea or remaining is None:
        verdicts = _decide(solver, [var[cells[0]] for cells in members], clock)
        if sea and verdicts is not None:
            members.append(constraints.sea)
            verdicts.append(0)  # without a count a sea cell can always be either
        return verdicts
    # A sea cell can be a mine when the frontier can hold fewer than all remaining mines, and
    # safe when it can hold more than remaining - sea.
    top = len(frontier)
    seen = {"mine": False, "safe": False}

    def watch(model: list[int]) -> None:
        mines = sum(1 for lit in model[:top] if lit > 0)
        seen["mine"] |= mines <= remaining - 1
        seen["safe"] |= mines >= remaining - sea + 1

    verdicts = _decide(solver, [var[cells[0]] for cells in members], clock, watch)
    if verdicts is None:
        return None
    members.append(constraints.sea)
    for key, low, high in (("mine", remaining - sea, remaining - 1),
                           ("safe", remaining - sea + 1, remaining)):
        if not seen[key]:
            selector = pool.id(("sea", key))
            _guarded_between(solver, pool, selector, frontier, low, high)
            seen[key] = clock.solve(solver, [selector])
    verdicts.append(0 if seen["mine"] and seen["safe"] else 1 if seen["mine"] else -1)
    return verdicts


# -- cores: explanations and contradictions --------------------------------------------------------

class _Guarded:
    """A solver holding every clue and the mine count, each switched on by a selector literal,
    so that unsatisfiable cores name clues. The sea has no variables: the count bounds the
    frontier's mines, and a question about a sea cell is a bound too.

    ``selectors`` lists them all, the clues' first; ``clue_at`` maps a clue's selector to its
    cell and ``count`` is the mine count's selector (None when the count is unknown)."""

    def __init__(self, constraints: Constraints) -> None:
        self.constraints = constraints
        self.pool = IDPool()
        self.var = {cell: self.pool.id(cell) for box in constraints.boxes for cell in box.cells}
        self.frontier = list(self.var.values())
        self.solver = Solver(name="mc")
        self.clue_at: dict[int, Cell] = {}
        for clue in constraints.clues:
            selector = self.pool.id(("clue", clue.cell))
            self.clue_at[selector] = clue.cell
            _guarded_between(self.solver, self.pool, selector,
                             [self.var[cell] for cell in clue.cells], clue.mines, clue.mines)
        self.selectors = list(self.clue_at)
        self.count: int | None = None
        if constraints.remaining is not None:
            self.count = self.pool.id(("count",))
            self.selectors.append(self.count)
            remaining = constraints.remaining
            _guarded_between(self.solver, self.pool, self.count, self.frontier,
                             remaining - len(constraints.sea), remaining)

    def query(self, cell: Cell, mine: bool) -> int | None:
        """A literal that, assumed, says "``cell`` is a mine" (or safe); None when a sea cell
        can be either whatever the clues say (the count is unknown)."""
        if cell in self.var:
            return self.var[cell] if mine else -self.var[cell]
        remaining, sea = self.constraints.remaining, len(self.constraints.sea)
        if remaining is None:
            return None
        selector = self.pool.id(("sea", mine))
        # The count itself is part of the question: a sea cell is only ever forced by it.
        low, high = (remaining - sea, remaining - 1) if mine else (remaining - sea + 1,
                                                                   remaining)
        _guarded_between(self.solver, self.pool, selector, self.frontier, low, high)
        return selector

    def minimal_core(self, query: list[int], prefer_drop: list[int],
                     clock: _Clock | None = None) -> tuple[list[int], bool]:
        """Selectors of an unsatisfiable set (with ``query`` assumed), dropping the ones early
        in ``prefer_drop`` first, and whether it is minimal.

        At the clock's deadline the shrinking stops and the set found so far comes back, not
        minimal; a deadline before even the first answer gives every selector.
        """
        clock = clock or _Clock(None)
        everything = self.selectors
        try:
            if clock.solve(self.solver, everything + query):
                raise InvalidInput("the selected constraints are satisfiable")
        except _OutOfTime:
            return [s for s in prefer_drop if s in everything], False
        in_core = set(self.solver.get_core() or everything)
        core = [s for s in prefer_drop if s in in_core]
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            try:
                satisfiable = clock.solve(self.solver, trial + query)
            except _OutOfTime:
                return core, False
            if satisfiable:
                i += 1  # core[i] is needed
            else:
                # Removing from a set keeps earlier members needed, so only the tail shrinks.
                smaller = set(self.solver.get_core() or trial)
                core = [s for s in trial if s in smaller or s in core[:i]]
        return core, True

    def clues_in(self, core: list[int]) -> list[Cell]:
        """The cells of the clues whose selectors are in ``core``, sorted."""
        return sorted(self.clue_at[s] for s in core if s in self.clue_at)

    def close(self) -> None:
        self.solver.delete()


def _flags_near(position: Position, clues: list[Cell]) -> tuple[Cell, ...]:
    states = position.states
    height, width = states.shape
    found = {(r, c) for row, col in clues for r in range(row - 1, row + 2)
             for c in range(col - 1, col + 2)
             if 0 <= r < height and 0 <= c < width and states[r, c] == FLAG}
    return tuple(sorted(found))


def inconsistency(constraints: Constraints, *,
                  deadline: float | None = None) -> InconsistentPosition:
    """The error for a position that no layout satisfies, naming a minimal set of clues.

    Returns (does not raise) the exception, so callers write ``raise inconsistency(c)``. When
    flags count as mines and the position is consistent without them, the message says the
    flags contradict the clues. Past ``deadline`` (a :func:`time.perf_counter` value) the set
    named is the smallest found by then, and the message says it may not be minimal.

    Examples
    --------
    >>> error = inconsistency(build(Position.from_text("1?1\\n...")))
    >>> str(error)
    'no layout satisfies the 1 at (0, 0) and the 0 at (1, 0)'
    >>> error.clues, error.uses_mine_count
    ([(0, 0), (1, 0)], False)
    """
    guarded = _Guarded(constraints)
    try:
        # The count first, then the clues in reading order.
        selectors = ([] if guarded.count is None else [guarded.count]) + sorted(
            guarded.clue_at, key=guarded.clue_at.__getitem__)
        with _Clock(deadline) as clock:
            core, minimal = guarded.minimal_core([], selectors, clock)
    finally:
        guarded.close()
    cells = guarded.clues_in(core)
    uses_count = guarded.count in core
    total = constraints.position.total_mines
    total_text = "the mine count" if total is None else f"{quantity(total, 'mine')} in total"
    number_at = {clue.cell: clue.number for clue in constraints.clues}
    named = [name_clues([(cell, number_at[cell]) for cell in cells])]
    if cells:
        message = f"no layout satisfies {named[0]}"
        if uses_count:
            message += f" together with {total_text}"
    else:
        message = f"no layout has {total_text}"
    if not minimal:
        message += (f" (a set of {len(cells)} clues: the time limit stopped the search for the "
                    "fewest that cannot hold together)")
    flags = _flags_near(constraints.position, cells)
    if flags and minimal and not constraints.ignore_flags and _consistent(constraints.position):
        message += (f": {flags_contradict(flags)} them (flags count as mines; ignore_flags, "
                    "--ignore-flags on the command line, reads them as hidden cells)")
    return InconsistentPosition(message, clues=cells, uses_mine_count=uses_count)


def _consistent(position: Position) -> bool:
    """Whether the position has a layout once flags are read as hidden cells."""
    try:
        constraints = build(position, ignore_flags=True)
    except InconsistentPosition:
        return False
    guarded = _Guarded(constraints)
    try:
        return guarded.solver.solve(assumptions=guarded.selectors)
    finally:
        guarded.close()


def explain(position: Position, cell: Cell, *, ignore_flags: bool = False,
            time_limit: float | None = None) -> Explanation:
    """Why ``cell`` is forced: a minimal set of clues (and maybe the mine count) that forces it.

    Parameters
    ----------
    position : Position
    cell : (row, col)
        A hidden cell (or a flagged one when ``ignore_flags``) that is forced.
    ignore_flags : bool
        Read flags as hidden cells instead of mines.
    time_limit : float, optional
        Seconds within which the explanation must be found (the solver is interrupted then).

    Returns
    -------
    Explanation

    Raises
    ------
    ValueError
        If the cell is off the board, not hidden, or not forced.
    InconsistentPosition
        If no layout satisfies the position.
    TimeLimitReached
        When no minimal set was found within ``time_limit`` (an
        :class:`~msanalysis.errors.AnalysisTooHard`).

    Notes
    -----
    Clues and the count are switched on by selector literals; the core of the failed question
    "can the cell be otherwise?" is shrunk by deletion (farthest clues and the count tried first)
    until no selector can go: O(k) solver calls for a core of k clues.

    Examples
    --------
    >>> e = explain(Position.from_text("???\\n121"), (0, 1))
    >>> e.verdict, e.clues, e.uses_mine_count
    ('safe', [(1, 0), (1, 1), (1, 2)], False)
    >>> e = explain(Position.from_text("mines: 1\\n???\\n1??"), (0, 2))
    >>> e.verdict, e.clues, e.uses_mine_count
    ('safe', [(1, 0)], True)
    """
    check_type(position, Position, "explain", "Position.from_text reads one")
    check_flag(ignore_flags, "ignore_flags")
    cell = as_cell(cell, *position.shape)
    state = position.state(cell)
    if state >= 0:
        raise InvalidInput(f"cell {cell} is revealed (it shows {state}), not hidden")
    if state == MINE:
        raise InvalidInput(f"cell {cell} shows a mine, not a hidden cell")
    if state == FLAG and not ignore_flags:
        raise InvalidInput(f"cell {cell} is flagged and flags count as mines; ignore flags to ask "
                         "whether the flag is right")
    assert state in (HIDDEN, FLAG)
    deadline = deadline_after(time_limit)
    out_of_time = TimeLimitReached(f"the time limit ran out before {cell} was explained")
    try:
        constraints = build(position, ignore_flags=ignore_flags, deadline=deadline)
    except AnalysisTooHard:
        raise out_of_time from None
    guarded = _Guarded(constraints)
    try:
        with _Clock(deadline) as clock:
            core, is_mine = _explaining_core(constraints, guarded, cell, clock)
    except _OutOfTime:
        raise out_of_time from None
    finally:
        guarded.close()
    clues = guarded.clues_in(core)
    uses_count = cell not in guarded.var or guarded.count in core
    number_at = {clue.cell: clue.number for clue in constraints.clues}
    return Explanation(cell, "mine" if is_mine else "safe", clues, uses_count,
                       () if ignore_flags else _flags_near(position, clues),
                       tuple(number_at[c] for c in clues))


def _explaining_core(constraints: Constraints, guarded: _Guarded, cell: Cell,
                     clock: _Clock) -> tuple[list[int], bool]:
    """The selectors of a minimal set of constraints that forces ``cell``, and whether it is
    a mine; _OutOfTime when the clock runs out first."""
    row, col = cell
    everything = guarded.selectors
    if not clock.solve(guarded.solver, everything):
        raise inconsistency(constraints, deadline=clock.deadline)
    # Can the cell be a mine? Can it be safe? Exactly one answer must be no.
    answers = {}
    for mine in (True, False):
        literal = guarded.query(cell, mine)
        answers[mine] = literal is None or clock.solve(guarded.solver, [*everything, literal])
    if answers[True] and answers[False]:
        raise InvalidInput(f"cell {cell} is not forced: it is a mine in some layouts and safe "
                           "in others")
    is_mine = answers[True]
    # The other answer was no, so its question is a literal (a sea cell's only when the count is
    # known).
    opposite = guarded.query(cell, not is_mine)
    assert opposite is not None

    def drop_first(selector: int) -> tuple[int, int, Cell]:
        if selector == guarded.count:
            return (0, 0, (0, 0))
        where = guarded.clue_at[selector]
        distance = max(abs(where[0] - row), abs(where[1] - col))
        return (1, -distance, (-where[0], -where[1]))

    core, minimal = guarded.minimal_core([opposite], sorted(everything, key=drop_first), clock)
    if not minimal:
        raise _OutOfTime
    return core, is_mine


def problem_verdicts(problem: Problem, model: list[bool] | None = None) -> list[int] | None:
    """Per box of ``problem``: 1 mines, -1 safe, 0 either way, by SAT; None when nothing fits.

    The clues alone decide (no mine count, no deadline): the problems the tracker and the
    bit boards ask about are single components, small and quick.

    Parameters
    ----------
    problem : Problem
        The boxes and the clues over them.
    model : list of bool, optional
        A layout known to fit, cell by cell in box order. It answers half of the questions
        without a call: each box is asked only whether it can be the other way.

    Examples
    --------
    A 1 over two cells, and a 2 over the second and a third: the 2 needs both, which leaves the
    first safe; with the 1 made a 0, nothing fits.

    >>> p = Problem.from_clues([((1, 0), 1, [(0, 0), (0, 1)]), ((1, 2), 2, [(0, 1), (0, 2)])])
    >>> problem_verdicts(p)
    [-1, 1, 1]
    >>> problem_verdicts(p.with_need(0, 0)) is None
    True

    Raises
    ------
    InvalidInput
        For a problem made wrong (see :meth:`Problem.check <msanalysis.counting.Problem.check>`).
    """
    check_type(problem, Problem, "problem_verdicts", "Problem.from_clues makes one")
    problem.check()
    box_vars: list[list[int]] = []
    top = 0
    for box in problem.boxes:
        box_vars.append(list(range(top + 1, top + 1 + len(box))))
        top += len(box)
    with Solver(name="mc") as solver:
        for scope, need in zip(problem.scopes, problem.needs):
            _exactly(solver, [v for b in scope for v in box_vars[b]], need)
        if model is None:
            return _decide(solver, [vs[0] for vs in box_vars], _Clock(None))
        # A box's cells are interchangeable: one with a mine and one without leave it open.
        first = [(model[vs[0] - 1], all(model[v - 1] == model[vs[0] - 1] for v in vs))
                 for vs in box_vars]
        result = [0] * len(box_vars)
        still = [i for i, (_, same) in enumerate(first) if same]
        while still:
            i = still.pop()
            var = box_vars[i][0]
            value = first[i][0]
            if solver.solve(assumptions=[-var if value else var]):
                seen = solver.get_model()
                still = [j for j in still if (seen[box_vars[j][0] - 1] > 0) == first[j][0]]
            else:
                result[i] = 1 if value else -1
                solver.add_clause([var if value else -var])
        return result
