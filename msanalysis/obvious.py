"""Cells one number decides, read straight off the grid: the quick look before an analysis.

Most turns of a game need nothing more. A number whose hidden neighbours must all be mines
marks them; a number that then touches all its mines clears its other hidden neighbours.
:func:`obvious_cells` finds both with a dozen numpy operations on the whole grid, about a tenth
of the cost of reading the position as constraints. Every cell it finds is forced, but not every
forced cell is found: that takes the constraints and SAT (:func:`msanalysis.sat.forced_cells`).
"""

from __future__ import annotations

import numpy as np

from msanalysis.board import Cell, neighbour_counts, neighbours
from msanalysis.errors import check_type
from msanalysis.position import FLAG, HIDDEN, MINE, Position

__all__ = ["deciding_number", "obvious_cells"]


def obvious_cells(position: Position) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Hidden cells a single number decides: ``(safe, mines)``.

    A mine is a hidden neighbour of a number that needs all its hidden neighbours (its number
    minus the flags and shown mines around it); a safe cell is a hidden neighbour, not such a
    mine, of a number that has all its mines among those, flags and shown mines. Flags count as
    mines, as in :func:`msanalysis.analysis.analyze`; the total mine count is not used.

    Parameters
    ----------
    position : Position

    Returns
    -------
    (frozenset, frozenset) of (row, col)
        Both empty when some number cannot hold (too many mines around it, or too few hidden
        cells): the analysis then says what is wrong.

    Notes
    -----
    O(cells) numpy work, one pass: cells that the found ones would decide in turn are left to
    the next look, after the safe ones are revealed.

    Examples
    --------
    The 1 in the corner has one hidden neighbour, a mine; the 1 below it then has its mine, so
    its other hidden neighbours are safe. (1, 3) is safe too, but only the 2 and the 1 beside it
    together say so: the analysis finds it, this look does not.

    >>> safe, mines = obvious_cells(Position.from_text("12?1\\n1???\\n????"))
    >>> sorted(safe), sorted(mines)
    ([(2, 0), (2, 1)], [(1, 1)])
    """
    check_type(position, Position, "obvious_cells", "Position.from_text reads one")
    states = position.states
    hidden = states == HIDDEN
    numbers = states >= 0
    hidden_around = neighbour_counts(hidden)
    needed = np.where(numbers, states - neighbour_counts((states == FLAG) | (states == MINE)), 0)
    if np.any(numbers & ((needed < 0) | (needed > hidden_around))):
        return frozenset(), frozenset()
    full = numbers & (hidden_around > 0) & (needed == hidden_around)
    mines = hidden & (neighbour_counts(full) > 0)
    mines_around = neighbour_counts(mines)
    if np.any(numbers & (mines_around > needed)):
        return frozenset(), frozenset()
    done = numbers & (hidden_around > mines_around) & (needed == mines_around)
    safe = hidden & ~mines & (neighbour_counts(done) > 0)
    return _cells(safe), _cells(mines)


def deciding_number(position: Position, cell: Cell, mines: frozenset[Cell]) -> Cell | None:
    """A number beside ``cell`` that has all its mines among ``mines``, flags and shown mines.

    Says why :func:`obvious_cells` found ``cell`` safe (with ``mines`` the mines it found).

    >>> p = Position.from_text("12?1\\n1???\\n????")
    >>> deciding_number(p, (2, 0), obvious_cells(p)[1])
    (1, 0)
    """
    states = position.states
    height, width = states.shape
    for near in neighbours(cell, height, width):
        if states[near] >= 0:
            around = list(neighbours(near, height, width))
            marked = sum(states[c] in (FLAG, MINE) or c in mines for c in around)
            if marked == states[near]:
                return near
    return None


def _cells(mask: np.ndarray) -> frozenset[Cell]:
    rows, cols = np.nonzero(mask)
    return frozenset(zip(rows.tolist(), cols.tolist()))
