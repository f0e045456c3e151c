"""Exact play of a small endgame: the first click of the sequence of clicks that wins most often.

When few layouts are left (a thousand or so), they can all be listed
(:meth:`msanalysis.joining.Count.layouts`) and every sequence of clicks searched: what each click
would show in each layout, cascades included, splits the layouts into the ones the player could
still tell apart. :class:`Endgame` does that search; the ``best`` strategy plays its first click.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from msanalysis.analysis import Analysis
from msanalysis.board import Cell, as_count
from msanalysis.errors import InvalidInput, check_list, check_type

__all__ = ["TIE", "Endgame"]

_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

TIE = 1e-9
"""Chances closer than this are ties (float sums of the same exact value may differ by an ulp)."""


class Endgame:
    """Exact play of a small endgame: the first click of the sequence that wins most often.

    Every layout left is listed (they are equally likely). A set of layouts is a bitmask (bit
    ``k`` for layout ``k``); for each cell, the layouts in which it is a mine and, for each
    thing revealing it may show, the layouts that show it. What a click shows is the cell's
    number, and when that is 0 every cell the cascade opens with its number, so layouts that
    a cascade tells apart are told apart here too. The chance of winning from a set of layouts
    is 1 when one is left; otherwise a cell safe in all of them that tells some apart is
    revealed for free (information never hurts), and failing that the best guess is the cell
    that maximises the sum, over what it may show, of the chance of showing it times the chance
    of winning from the layouts that show it. Sets already solved are remembered.

    Parameters
    ----------
    analysis : Analysis
        Of a position with a known mine count; every layout left is listed, so it should have
        few (the ``best`` strategy asks with at most 1,000).
    node_budget : int
        The most sets of layouts solved before :meth:`best` gives up.
    layouts : iterable of sets of cells, optional
        The layouts to search instead of every one left, each the set of its mines among the
        unknown cells: a sample drawn from a position with too many to list (the ``best``
        strategy's ``drawn_endgame``). The search then plays best for those layouts alone: it
        takes a cell safe in the few left of them for safe, which in the whole position it
        may not be.

    Examples
    --------
    Two cells and one mine, told apart by nothing: a coin toss.

    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> Endgame(analyze(Position.from_text("mines: 1\\n??\\n11"))).best()
    ((0, 0), 0.5)

    Notes
    -----
    Exponential in the number of layouts in the worst case; bounded by ``node_budget`` sets
    solved, past which :meth:`best` gives up and returns None.
    """

    def __init__(self, analysis: Any, node_budget: int = 100_000,
                 layouts: Iterable[Iterable[Cell]] | None = None) -> None:
        check_type(analysis, Analysis, "Endgame", "analyze(position) makes one")
        node_budget = as_count(node_budget, "node_budget")
        if layouts is not None:
            check_list(layouts, "layouts is a list of layouts (each the set of its mines)")
        constraints = analysis.constraints
        height, width = constraints.position.shape
        # Frontier cells component by component, then the sea: the columns of the rows below.
        cells = [c for component in constraints.components for c in component.cells]
        cells += list(constraints.sea)
        index = {cell: i for i, cell in enumerate(cells)}
        # Layouts as rows of 0/1 over ``cells``, set from each layout's mines.
        rows: list[int] = []
        columns: list[int] = []
        total = 0
        if layouts is None:
            layouts = analysis.counts.layouts(limit=analysis.solutions)
        try:
            for k, mines in enumerate(layouts):
                rows += [k] * len(mines)
                columns += map(index.__getitem__, mines)
                total = k + 1
        except (KeyError, TypeError):  # given layouts only: the listed ones are all of cells
            raise InvalidInput(f"a layout is the set of its mines among the unknown cells, got "
                               f"{mines!r}") from None
        mine = np.zeros((total, len(cells)), dtype=np.int16)
        mine[rows, columns] = 1
        mines_in = mine.sum(axis=0)
        # A cell that is a mine in every layout is never opened: its mine counts like a known
        # one. Only cells that are a mine in some layouts and not in others are ever clicked:
        # with every layout listed no other hidden cell is left (it would be forced), and with
        # layouts drawn one safe in all of them is not known to be safe, so it is left alone.
        # A cascade may open any cell not a mine.
        open_ = np.flatnonzero(mines_in < total)
        live = np.flatnonzero((mines_in > 0) & (mines_in < total))
        # Rows in lexicographic order (the layout numbers only name bits, but a fixed order keeps
        # every float sum below the same); columns that never change do not move a row.
        mine = mine[np.lexsort(mine[:, live[::-1]].T)] if len(live) else mine
        self.everything = (1 << total) - 1
        opened_cells = [cells[i] for i in open_.tolist()]
        # The board framed by one row and column of nothing: each open cell's index, and the
        # cells that are mines in every layout (or shown as mines).
        index_grid = np.full((height + 2, width + 2), -1, dtype=np.int64)
        mined = np.zeros((height + 2, width + 2), dtype=np.int16)
        at = np.array(opened_cells, dtype=np.int64).reshape(-1, 2) + 1
        index_grid[at[:, 0], at[:, 1]] = np.arange(len(opened_cells))
        always = [cells[i] for i in np.flatnonzero(mines_in == total).tolist()]
        for row, col in (*always, *constraints.known_mines):
            mined[row + 1, col + 1] = 1
        beside = np.stack([index_grid[at[:, 0] + dr, at[:, 1] + dc] for dr, dc in _OFFSETS], 1)
        known = sum(mined[at[:, 0] + dr, at[:, 1] + dc] for dr, dc in _OFFSETS)
        # Per open cell its open neighbours (a 0 has no mine beside it, so a cascade opens
        # only open cells).
        around = [[j for j in near if j >= 0] for near in beside.tolist()]
        adjacency = np.zeros((len(open_) + 1, len(open_)))  # the last row takes the -1s
        adjacency[beside, np.arange(len(open_))[:, None]] = 1
        # numbers[k, j]: what open cell j shows in layout k (a product of floats is exact for
        # such small integers, and far faster than one of integers).
        numbers = (mine[:, open_].astype(float) @ adjacency[:-1]).astype(np.int16) + known
        self.cells = [cells[i] for i in live.tolist()]
        self.mines = _column_bits(mine[:, live] == 1)
        # shows[i]: the sets of layouts in which revealing live cell i shows the same thing: the
        # same number, or for a 0 the same cells opened with the same numbers.
        place = np.searchsorted(open_, live)  # each live cell among the open ones
        safe = mine[:, live] == 0
        shown = numbers[:, place]
        by_number = [_column_bits(safe & (shown == v)) for v in range(1, 9)]
        zeros = safe & (shown == 0)
        self.shows: list[list[int]] = []
        for i, j in enumerate(place.tolist()):
            opened: dict[tuple, int] = {}
            for k in np.flatnonzero(zeros[:, i]).tolist():
                seen = _cascade(j, numbers[k], around)
                opened[seen] = opened.get(seen, 0) | (1 << k)
            groups = [by_number[v][i] for v in range(8)]
            self.shows.append([g for g in groups if g] + list(opened.values()))
        self.budget = node_budget
        self.nodes = 0
        self.memo: dict[int, float] = {}

    def best(self) -> tuple[Cell, float] | None:
        """The cell to reveal and its chance of winning; None when the search is too large."""
        everything = self.everything
        if everything.bit_count() < 2:
            return None
        options: list[tuple[float, Cell]] = []
        try:
            for i in self._candidates(everything):
                # A cell that cannot come within rounding of the best so far is cut short.
                floor = max((chance for chance, _ in options), default=0.0) - TIE
                options.append((self._reveal(i, everything, floor), self.cells[i]))
        except _TooLarge:
            return None
        # The highest chance; ties (up to rounding) go to the first cell row-major.
        chance, cell = min(options, key=lambda option: (-round(option[0], 12), option[1]))
        return cell, chance

    def _candidates(self, layouts: int) -> list[int]:
        """Cells that are a mine in some of the layouts but not all, safest first."""
        total = layouts.bit_count()
        found = []
        for i, mines in enumerate(self.mines):
            count = (mines & layouts).bit_count()
            if 0 < count < total:
                found.append((count, i))
        return [i for _, i in sorted(found)]

    def _reveal(self, i: int, layouts: int, floor: float = 0.0) -> float:
        """Chance of winning after revealing cell ``i`` and then playing the best.

        When that chance is sure to be at most ``floor``, the search stops and returns a
        value between the chance and ``floor``.
        """
        total = layouts.bit_count()
        left = total - (self.mines[i] & layouts).bit_count()  # layouts not yet counted
        won = 0.0
        for group in self.shows[i]:
            part = group & layouts
            if part:
                size = part.bit_count()
                left -= size
                won += size * self._win(part)
                if won + left <= floor * total:
                    return (won + left) / total
        return won / total

    def _win(self, layouts: int) -> float:
        if layouts & (layouts - 1) == 0:
            return 1.0
        if layouts in self.memo:
            return self.memo[layouts]
        self.nodes += 1
        if self.nodes > self.budget:
            raise _TooLarge
        result = None
        shows = self.shows
        for i, mines in enumerate(self.mines):  # free information first: a safe cell that
            if mines & layouts:                  # tells the layouts apart
                continue
            # Its groups split the layouts: it tells them apart unless one group holds all.
            for group in shows[i]:
                part = group & layouts
                if part:
                    break
            if part != layouts:
                result = self._reveal(i, layouts)
                break
        if result is None:
            result = 0.0
            total = layouts.bit_count()
            for i in self._candidates(layouts):
                safe = 1 - (self.mines[i] & layouts).bit_count() / total
                if safe <= result:
                    break  # candidates come safest first; none of the rest can do better
                result = max(result, self._reveal(i, layouts, result))
        self.memo[layouts] = result
        return result


def _column_bits(flags: np.ndarray) -> list[int]:
    """Per column of ``flags`` (layouts by cells), the set of layouts where it is true, as an int
    with bit ``k`` for layout ``k``."""
    packed = np.ascontiguousarray(np.packbits(flags, axis=0, bitorder="little").T)
    data, step = packed.tobytes(), packed.shape[1]
    if not step:  # no layouts
        return [0] * packed.shape[0]
    return [int.from_bytes(data[i:i + step], "little") for i in range(0, len(data), step)]


def _cascade(start: int, numbers: np.ndarray, around: list[list[int]]) -> tuple:
    """The cells a 0 at ``start`` opens, breadth first as the game does, with their numbers.

    ``numbers[i]`` is what open cell ``i`` shows and ``around[i]`` its open neighbours (the
    cells that are not a mine in every layout: a 0 has no mine beside it).
    """
    opened = {start: 0}
    queue = [start]
    for i in queue:
        for j in around[i]:
            if j not in opened:
                opened[j] = int(numbers[j])
                if opened[j] == 0:
                    queue.append(j)
    return tuple(sorted(opened.items()))


class _TooLarge(Exception):
    """The endgame search ran past its node budget."""
