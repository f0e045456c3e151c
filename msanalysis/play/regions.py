"""Regions of a position: groups of unknown cells that no click outside can tell anything about.

Two unknown cells (certain mines aside) are of one region when they touch, so that a click on one
shows a number about the other, or when numbers tie them (they are of one component). A click in
one region then tells another nothing but through the mine count: given how many mines a region
holds, its layouts go with every layout of the rest (the tests check this by brute force).

A small region walled off by numbers and mines (a corner's 2x2 cells, say) has to be guessed some
time, unless the mine count settles it once the rest of the board is solved; a guess there can
wait. ``best`` with ``defer_regions`` leaves every region but the largest for last.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from msanalysis.analysis import Analysis
from msanalysis.board import Cell, check_mask, label_regions
from msanalysis.errors import check_type

__all__ = ["left_for_last", "regions"]


def regions(analysis: Any, unknown: np.ndarray) -> list[list[Cell]]:
    """The regions of the ``unknown`` cells of an analysed position, largest first.

    Parameters
    ----------
    analysis : Analysis
        The analysis of the position (its components tie cells that numbers share).
    unknown : ndarray of bool
        The cells to group: the unknown cells that are not certain mines.

    Returns
    -------
    list of list of (row, col)
        Each region's cells, row-major; regions by size, then by first cell.

    Examples
    --------
    Two cells in the top left corner walled off by mines and numbers, and six on the right:

    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import HIDDEN, Position
    >>> p = Position.from_text("mines: 4\\n??*???\\n13*???")
    >>> a = analyze(p)
    >>> regions(a, (p.states == HIDDEN) & (np.array(a.probabilities) < 1))
    [[(0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5)], [(0, 0), (0, 1)]]
    """
    _check(analysis, unknown, "regions")
    labels, _ = label_regions(unknown)  # cells that touch
    for component in analysis.constraints.components:  # cells that numbers tie
        tied = {int(labels[cell]) for cell in component.cells if unknown[cell]}
        if len(tied) > 1:
            labels[np.isin(labels, list(tied))] = min(tied)
    grouped: dict[int, list[Cell]] = {}
    for r, c in zip(*np.nonzero(unknown)):  # row-major, so each region's cells are too
        grouped.setdefault(int(labels[r, c]), []).append((int(r), int(c)))
    return sorted(grouped.values(), key=lambda region: (-len(region), region[0]))


def left_for_last(analysis: Any, unknown: np.ndarray) -> np.ndarray:
    """The ``unknown`` cells outside the largest region (see :func:`regions`), as a mask.

    Empty when the cells make one region, or when the mine count is not known (it could settle
    nothing).

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import HIDDEN, Position
    >>> p = Position.from_text("mines: 4\\n??*???\\n13*???")
    >>> a = analyze(p)
    >>> left_for_last(a, (p.states == HIDDEN) & (np.array(a.probabilities) < 1)).astype(int)
    array([[1, 1, 0, 0, 0, 0],
           [0, 0, 0, 0, 0, 0]])
    """
    _check(analysis, unknown, "left_for_last")
    left = np.zeros(unknown.shape, dtype=bool)
    if analysis.constraints.remaining is None:
        return left
    for region in regions(analysis, unknown)[1:]:
        for cell in region:
            left[cell] = True
    return left


def _check(analysis: Any, unknown: Any, taker: str) -> None:
    """Refuse what is not an analysis and a mask of its position's cells."""
    check_type(analysis, Analysis, taker, "analyze(position) makes one")
    check_mask(unknown, analysis.constraints.position.shape, "unknown", "the position's")
