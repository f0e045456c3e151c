"""A faithful Python port of seed 003's backtracking, the baseline for reconstruction benchmarks.

Seed 003 (Pradipta, "Implementation of Backtracking Algorithm in Minesweeper") solves the fully
uncovered grid in C++: visit cells in row-major order, try a mine where every clue that counts
the cell still has room, recurse, undo, then try no mine. Its numbers count the 3x3 block
including the cell (the ``mosaic`` rule); the ``classic`` port runs the same algorithm with the
8-neighbour block. The port keeps the seed's structure on purpose, including the full-grid scans
in ``isVisitedandSatisfied`` and ``findUnvisited``: it is the reference to beat, not a solver to
use. :func:`msanalysis.reconstruction.reconstruct` is the real one.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from msanalysis.board import Board
from msanalysis.errors import AnalysisTooHard

__all__ = ["backtrack"]

# dx/dy of the seed: the 3x3 block including the cell itself, in the seed's order.
_SEED_DX = (-1, 0, 1, -1, 0, 1, -1, 0, 1)
_SEED_DY = (0, 0, 0, -1, -1, -1, 1, 1, 1)


class _OutOfTime(Exception):
    pass


def backtrack(clues: np.ndarray, *, rule: str = "mosaic",
              time_limit: float | None = None) -> Board | None:
    """Find one layout for a full grid of numbers with seed 003's backtracking.

    Parameters
    ----------
    clues : array_like of int, shape (height, width)
        Every cell's number (no unknown clues: the seed's algorithm has none).
    rule : {"mosaic", "classic"}
        ``mosaic`` is the seed's own rule; ``classic`` drops the cell itself from the block.
    time_limit : float, optional
        Seconds before giving up.

    Returns
    -------
    Board or None
        The first layout found, or None when there is none.

    Raises
    ------
    AnalysisTooHard
        When ``time_limit`` runs out.

    Examples
    --------
    >>> backtrack([[1, 1], [1, 1]], rule="mosaic").to_text()
    '*.\\n..'

    Notes
    -----
    O(2^(height*width) * height * width) in the worst case, as the seed says: every node of the
    search scans the whole grid twice.
    """
    if rule not in ("mosaic", "classic"):
        raise ValueError(f"unknown rule {rule!r} (expected 'mosaic' or 'classic')")
    arr = [list(map(int, row)) for row in np.asarray(clues).tolist()]
    if any(v < 0 for row in arr for v in row):
        raise ValueError("seed 003's backtracking needs every clue; this grid has unknown ones")
    offsets = [(dx, dy) for dx, dy in zip(_SEED_DX, _SEED_DY)
               if rule == "mosaic" or (dx, dy) != (0, 0)]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    solver = _Backtracker(arr, offsets, deadline)
    # The recursion goes one level per cell: allow that many frames (restored afterwards).
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 2 * solver.n * solver.m + 1000))
    try:
        found = solver.solve()
    except _OutOfTime:
        raise AnalysisTooHard(f"seed 003's backtracking ran out of its {time_limit} s") from None
    finally:
        sys.setrecursionlimit(old_limit)
    return Board(solver.grid) if found else None


class _Backtracker:
    """The seed's global arrays and functions, one method per C++ function."""

    def __init__(self, arr: list[list[int]], offsets: list[tuple[int, int]],
                 deadline: float | None) -> None:
        self.n, self.m = len(arr), len(arr[0])
        self.arr = arr
        self.offsets = offsets
        self.grid = [[False] * self.m for _ in range(self.n)]
        self.visited = [[False] * self.m for _ in range(self.n)]
        self.deadline = deadline

    def is_valid(self, x: int, y: int) -> bool:
        return 0 <= x < self.n and 0 <= y < self.m

    def can_assign_mine(self, x: int, y: int) -> bool:
        if not self.is_valid(x, y):
            return False
        for dx, dy in self.offsets:
            if self.is_valid(x + dx, y + dy) and self.arr[x + dx][y + dy] == 0:
                return False
        for dx, dy in self.offsets:
            if self.is_valid(x + dx, y + dy):
                self.arr[x + dx][y + dy] -= 1
        return True

    def find_unvisited(self) -> tuple[int, int] | None:
        for x in range(self.n):
            for y in range(self.m):
                if not self.visited[x][y]:
                    return x, y
        return None

    def is_visited_and_satisfied(self) -> bool:
        done = True
        for i in range(self.n):
            for j in range(self.m):
                done = done and self.arr[i][j] == 0 and self.visited[i][j]
        return done

    def solve(self) -> bool:
        # Not in the seed: the benchmark needs the search to stop.
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfTime
        if self.is_visited_and_satisfied():
            return True
        cell = self.find_unvisited()
        if cell is None:
            return False
        x, y = cell
        self.visited[x][y] = True
        if self.can_assign_mine(x, y):
            self.grid[x][y] = True
            if self.solve():
                return True
            self.grid[x][y] = False
            for dx, dy in self.offsets:
                if self.is_valid(x + dx, y + dy):
                    self.arr[x + dx][y + dy] += 1
        if self.solve():
            return True
        self.visited[x][y] = False
        return False
