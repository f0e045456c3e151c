"""The :class:`Analysis` of a position, and the analysis of a whole position at once.

An :class:`Analysis` holds what is known about every hidden cell: forced cells, exact
probabilities, the number of layouts, whether a guess is required and the best one.
:func:`analyze_constraints` makes one from scratch: it reads the position as constraints
(:mod:`msanalysis.constraints`), finds the forced cells with SAT (:mod:`msanalysis.sat`) and
counts every layout exactly (:mod:`msanalysis.joining`, over :mod:`msanalysis.counting`). The
entry point users call is :func:`msanalysis.analysis.analyze`, which follows the position with a
tracker when it can.
Choosing moves in a game is left to :mod:`msanalysis.play`, pictures to :mod:`msanalysis.svg`.

With the total mine count unknown, every layout consistent with the clues is taken as equally
likely, whatever its number of mines.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from msanalysis.board import Cell, as_cell
from msanalysis.constraints import Component, Constraints, build
from msanalysis.errors import (
    AnalysisTooHard,
    InconsistentPosition,
    InvalidInput,
    TimeLimitReached,
    check_flag,
    check_type,
    deadline_after,
    quantity,
    seconds_left,
)
from msanalysis.exact import decimal
from msanalysis.joining import Count, count
from msanalysis.position import Position
from msanalysis.sat import Explanation, explain, find_forced, inconsistency

__all__ = ["Analysis", "analyze_constraints"]


class Analysis:
    """What is known about every hidden cell of a position.

    Made by :func:`analyze`; immutable. Counting is done when the analysis is made, unless
    ``forced_only=True`` was asked: then it is done on first use of a count or a probability
    (forced cells answer without it). When counting runs past its time limit, the analysis is
    *partial*: :attr:`exact` is False, :attr:`stopped` says why, the forced cells (from SAT)
    are still exact, and counts and probabilities raise ``AnalysisTooHard``.

    Attributes
    ----------
    position : Position
    ignore_flags : bool
        True when flags were read as hidden cells rather than mines.
    constraints : Constraints
    forced_safe, forced_mines : frozenset of (row, col)
        Unknown cells that are safe, or mines, in every layout.
    all_forced : bool
        False when finding forced cells stopped at the time limit: the cells above are forced,
        others may be too.

    Examples
    --------
    Two 1s on the left edge share a mine in (0, 1) or (1, 1), so the cells below them are safe:

    >>> from msanalysis.analysis import analyze
    >>> a = analyze(Position.from_text("mines: 2\\n1??\\n1??\\n???"))
    >>> sorted(a.forced_safe), a.solutions, a.exact_probability((0, 2)), a.requires_guess
    ([(2, 0), (2, 1)], 6, Fraction(1, 3), False)
    """

    def __init__(self, constraints: Constraints, forced_safe: frozenset[Cell],
                 forced_mines: frozenset[Cell], *, time_limit: float | None = None,
                 counts: Count | None = None, stopped: AnalysisTooHard | None = None,
                 all_forced: bool = True) -> None:
        self.constraints = constraints
        self.position = constraints.position
        self.ignore_flags = constraints.ignore_flags
        self.forced_safe = forced_safe
        self.forced_mines = forced_mines
        self.all_forced = all_forced
        self._time_limit = time_limit
        if counts is not None or stopped is not None:
            # The cached_property's slot: already counted, or already known to be too hard.
            self.__dict__["_counted"] = counts if counts is not None else stopped

    # -- counting ---------------------------------------------------------------------------------
    @cached_property
    def _counted(self) -> Count | AnalysisTooHard:
        """The exact counts, or the error that stopped counting."""
        deadline = deadline_after(self._time_limit)
        try:
            return count(self.constraints, deadline=deadline)
        except AnalysisTooHard as error:
            return error

    @property
    def counts(self) -> Count:
        """The exact counts behind the probabilities (see :class:`msanalysis.joining.Count`).

        Raises
        ------
        AnalysisTooHard
            When counting was stopped (see :attr:`stopped`): ``TimeLimitReached`` when by its
            time limit.
        """
        counted = self._counted
        if isinstance(counted, AnalysisTooHard):
            raise type(counted)(str(counted))  # a new one: each raise has its own traceback
        return counted

    @property
    def exact(self) -> bool:
        """True when the exact counts are known: False for a partial analysis.

        Examples
        --------
        >>> analyze_constraints(Position.from_text("mines: 1\\n??\\n11")).exact
        True
        """
        return not isinstance(self._counted, AnalysisTooHard)

    @property
    def stopped(self) -> str | None:
        """Why counting stopped, for a partial analysis; None when it is exact."""
        counted = self._counted
        return str(counted) if isinstance(counted, AnalysisTooHard) else None

    @property
    def solutions(self) -> int:
        """Number of mine layouts consistent with the position (an exact integer)."""
        return self.counts.solutions

    @property
    def total_mines_known(self) -> bool:
        return self.position.total_mines is not None

    @property
    def assumption(self) -> str:
        """What the probabilities assume about the number of mines, in words."""
        total = self.position.total_mines
        if self.total_mines_known and total is not None:
            return f"{quantity(total, 'mine')} in total"
        return ("total mine count unknown: every layout that fits the clues is equally likely, "
                "whatever its number of mines")

    @cached_property
    def _exact(self) -> dict[Cell, Fraction]:
        return self.counts.probabilities()

    def exact_probability(self, cell: Cell) -> Fraction:
        """The exact probability that ``cell`` holds a mine.

        Known mines (shown mines, and flags unless ignored) have probability 1.

        Raises
        ------
        ValueError
            If the cell is off the board or revealed.

        Examples
        --------
        >>> a = analyze_constraints(Position.from_text("mines: 2\\n1??\\n???"))
        >>> a.exact_probability((0, 1))
        Fraction(1, 3)
        """
        cell = as_cell(cell, *self.position.shape)
        if cell in self.forced_safe:
            return Fraction(0)
        if cell in self.forced_mines or cell in self.constraints.known_mines:
            return Fraction(1)
        if cell not in self.constraints.unknown:
            raise InvalidInput(f"cell {cell} is revealed: it has no mine probability")
        return self._exact[cell]

    def mine_layouts(self, cell: Cell) -> int:
        """The number of layouts in which ``cell`` holds a mine (an exact integer).

        Examples
        --------
        >>> a = analyze_constraints(Position.from_text("mines: 2\\n1??\\n???"))
        >>> a.mine_layouts((0, 1)), a.solutions
        (2, 6)
        """
        return int(self.exact_probability(cell) * self.solutions)

    def probability(self, cell: Cell) -> float:
        """The probability that ``cell`` holds a mine, as a float (see
        :meth:`exact_probability`)."""
        return float(self.exact_probability(cell))

    @cached_property
    def probabilities(self) -> np.ndarray:
        """Read-only float array (height x width): the mine probability of every cell.

        NaN for revealed cells, 1.0 for shown mines and for flags when flags count as mines.
        """
        constraints, counts = self.constraints, self.counts
        result = np.where(self.position.mine_mask(self.ignore_flags), 1.0, np.nan)
        solutions = counts.solutions
        # Python's int / int is correctly rounded, so each value is float() of the exact
        # Fraction (0.0 and 1.0 exactly for forced cells) without reducing a Fraction per box.
        cells = [cell for box in constraints.boxes for cell in box.cells]
        values = [mines / (len(box.cells) * solutions)
                  for box, mines in zip(constraints.boxes, counts.box_mines)]
        if constraints.sea:
            cells.extend(constraints.sea)
            values.append(counts.sea_mines / (len(constraints.sea) * solutions))
        if cells:
            where = np.array(cells).T
            sizes = [len(box.cells) for box in constraints.boxes]
            if constraints.sea:
                sizes.append(len(constraints.sea))
            result[where[0], where[1]] = np.repeat(values, sizes)
        result.setflags(write=False)
        return result

    # -- the game -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True when the game is lost (a mine is shown) or every safe cell is revealed."""
        if self.position.is_lost:
            return True
        return len(self.forced_mines) == len(self.constraints.unknown)

    @property
    def requires_guess(self) -> bool:
        """True when the game is not over and no unknown cell is forced safe.

        Of a partial analysis that found no forced safe cell before it stopped
        (:attr:`all_forced` False), True only says that none was found.
        """
        return not self.is_over and not self.forced_safe

    @cached_property
    def best_guess(self) -> Cell | None:
        """The unknown cell least likely to be a mine when a guess is required, else None.

        Ties (equal exact probabilities) go to the first cell in row-major order.
        """
        if not self.requires_guess:
            return None
        exact = self._exact
        # The cells of a box (and of the sea) share one Fraction: the few distinct ones are
        # compared, not millions of cells (seconds on a 3000x3000 board).
        distinct = {id(value): value for value in exact.values()}
        lowest = min(distinct.values())
        least = {key for key, value in distinct.items() if value == lowest}
        return min(cell for cell, value in exact.items() if id(value) in least)

    # -- structure and explanations -------------------------------------------------------------
    @property
    def components(self) -> list[Component]:
        """The independent groups of clues and frontier cells (tied only by the mine count)."""
        return list(self.constraints.components)

    def explain(self, cell: Cell, *, time_limit: float | None = None) -> Explanation:
        """Why ``cell`` is forced (see :func:`msanalysis.sat.explain`, which takes the
        ``time_limit`` in seconds too).

        Raises
        ------
        ValueError
            If the cell is not hidden or not forced.
        TimeLimitReached
            When no explanation was found within ``time_limit``.
        """
        return explain(self.position, cell, ignore_flags=self.ignore_flags,
                       time_limit=time_limit)

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (the ``analyze --json`` format, without explanation).

        Solutions is a decimal string (it may exceed what JSON numbers hold exactly); cells are
        ``[row, col]`` lists, sorted row-major; probabilities are rows of floats, None for
        revealed cells. A partial analysis has ``"exact": false``, the reason in ``"stopped"``
        and None for solutions, probabilities and the best guess.
        """
        exact = self.exact
        probabilities = None
        if exact:
            # p != p: NaN, a revealed cell (np.isnan per cell took seconds on large boards).
            probabilities = [[None if p != p else p for p in row]
                             for row in self.probabilities.tolist()]
        return {
            "width": self.position.width,
            "height": self.position.height,
            "total_mines": self.position.total_mines,
            "exact": exact,
            "stopped": self.stopped,
            "solutions": decimal(self.solutions) if exact else None,
            "forced_safe": [list(cell) for cell in sorted(self.forced_safe)],
            "forced_mines": [list(cell) for cell in sorted(self.forced_mines)],
            "probabilities": probabilities,
            "all_forced": self.all_forced,
            "requires_guess": self.requires_guess if self.all_forced or self.forced_safe
            else None,
            "best_guess": list(self.best_guess) if exact and self.best_guess is not None
            else None,
        }

    def __repr__(self) -> str:
        return (f"<Analysis {self.position.width}x{self.position.height}: "
                f"{len(self.forced_safe)} forced safe, {len(self.forced_mines)} forced mines>")

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures

        return svg.board(self)


def analyze_constraints(position: Position, *, ignore_flags: bool = False,
                        time_limit: float | None = None, forced_only: bool = False) -> Analysis:
    """:func:`analyze` by the constraints of the whole position: SAT for the forced cells, or
    every component counted whole.

    What :func:`analyze` does with ``forced_only``, a time limit or an unknown mine count; for
    the rest it is the independent way the tracker is checked against.

    Examples
    --------
    >>> a = analyze_constraints(Position.from_text("mines: 2\\n????\\n121?\\n...?"))
    >>> a.solutions, sorted(a.forced_mines)
    (1, [(0, 0), (0, 2)])
    """
    check_type(position, Position, "analyze_constraints", "Position.from_text reads one")
    check_flag(ignore_flags, "ignore_flags")
    check_flag(forced_only, "forced_only")
    deadline = deadline_after(time_limit)
    constraints = build(position, ignore_flags=ignore_flags, deadline=deadline)
    if deadline is None and not forced_only:
        try:
            counts = count(constraints)
        except InconsistentPosition:
            # Counting knows that no layout fits, SAT names a minimal set of clues that says why.
            raise inconsistency(constraints) from None
        safe, mines = counts.forced()
        return Analysis(constraints, safe, mines, counts=counts)
    # Under a time limit every step keeps it: SAT first, which keeps the forced cells it found
    # if it stops, then counting with the time left. (SAT also names the clues of an
    # inconsistent position, which is reported as such, not as hard.)
    found = find_forced(constraints, deadline=deadline)
    if not found.complete:
        return Analysis(constraints, found.safe, found.mines,
                        stopped=TimeLimitReached(found.stopped), all_forced=False)
    if forced_only:
        return Analysis(constraints, found.safe, found.mines,
                        time_limit=seconds_left(deadline))
    try:
        counts = count(constraints, deadline=deadline)
    except InconsistentPosition:
        raise inconsistency(constraints) from None
    except AnalysisTooHard as error:
        return Analysis(constraints, found.safe, found.mines, stopped=error)
    return Analysis(constraints, found.safe, found.mines, counts=counts)
