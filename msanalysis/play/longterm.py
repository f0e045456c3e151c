"""Long-term risk: how often a cell would end in a 50/50 that no later click can resolve.

Two hidden cells side by side, A and B, can only be told apart by the cells that touch one of
them and not the other: the three cells beyond A and the three beyond B. When all of those are
mines (or off the board), no click but A or B ever separates them: if exactly one of the two
holds a mine, someone must guess between them at 50%. The same holds for a 2x2 block whose four
diagonal corners are mines, with the mines on one diagonal or the other.

Such a *formation* is a risk already taken: in the layouts where it forms and a cell X of it
holds the mine, a player who leaves X for later dies there half the time anyway. A guess at X
now is cheaper than its mine probability says. :class:`LongTermRisk` counts, exactly, the
layouts in which X holds the mine of a formation that needs at most one more mine beyond the
known ones (the only ones likely enough to matter; a block, by default, none), and credits them
to X and, for a pair, to the cell whose mine would complete it (its *enabler*).

The idea and its weight come from JSMinesweeper's "50/50 influence"; the counts here are our
exact counts of the position with the formation's mines fixed
(:meth:`msanalysis.joining.Count.solutions_fixing`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from msanalysis.analysis import Analysis
from msanalysis.board import Cell, as_cell, as_count
from msanalysis.errors import check_type
from msanalysis.position import HIDDEN

__all__ = ["LongTermRisk"]


class LongTermRisk:
    """The layouts in which guessing a cell later would end in an unavoidable 50/50.

    Parameters
    ----------
    analysis : Analysis
        A counted analysis of a position with a known mine count.
    block_missing : int
        How many corners of a 2x2 block may still be unknown (0 or 1); a pair may always wait
        for one mine beyond it. The layouts counted hold mines at all of them.

    Examples
    --------
    Two cells in a corner, walled in by mines: which of them holds the last mine can never be
    read from a number, so each one is a guess that has to be made some time.

    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> p = Position.from_text("mines: 3\\n??*\\n13*")
    >>> risk = LongTermRisk(analyze(p))
    >>> risk.influence((0, 0)), risk.influence((0, 1)), analyze(p).solutions
    (1, 1, 2)
    """

    def __init__(self, analysis: Any, block_missing: int = 0) -> None:
        check_type(analysis, Analysis, "LongTermRisk", "analyze(position) makes one")
        self.analysis = analysis
        position = analysis.constraints.position
        self.position = position
        self.shape = position.shape
        states = position.states
        known = np.zeros(self.shape, dtype=bool)
        for cell in (*analysis.constraints.known_mines, *analysis.forced_mines):
            known[cell] = True
        self.known = known
        self.hidden = (states == HIDDEN) & ~known  # could still be safe
        self.revealed = states >= 0
        self.remaining = analysis.constraints.remaining
        if self.remaining is not None:
            self.remaining -= sum(1 for c in analysis.forced_mines if states[c] == HIDDEN)
        self._tallies: dict[frozenset[Cell], int] = {}
        self.block_missing = as_count(block_missing, "block_missing", 0, 1)
        self.cells = _formation_cells(self.hidden, self.revealed, self.block_missing)

    # -- formations ---------------------------------------------------------------------------

    def _on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.shape[0] and 0 <= cell[1] < self.shape[1]

    def _formation(self, cells: tuple[Cell, ...], outer: list[Cell]) -> list[Cell] | None:
        """The outer cells still to be filled with mines, or None when it cannot form."""
        if not all(self._on_board(c) and self.hidden[c] for c in cells):
            return None
        missing = []
        for cell in outer:
            if not self._on_board(cell):
                continue
            if self.revealed[cell]:
                return None  # a number there tells the cells apart
            if not self.known[cell]:
                missing.append(cell)
        # A pair may wait for one more mine beyond it; a block for block_missing.
        allowed, own_mines = (1, 1) if len(cells) == 2 else (self.block_missing, 2)
        if len(missing) > allowed or (self.remaining is not None
                                      and len(missing) + own_mines > self.remaining):
            return None
        return missing

    def _patterns(self, cell: Cell) -> list[tuple[tuple[Cell, ...], Cell | None, list[Cell]]]:
        """``(cells, mine, outer cells still to fill)`` of every formation ``cell`` plays in.

        ``mine`` is the cell of the formation whose mine the layouts counted hold: ``cell``
        itself, or None when ``cell`` is the enabler of a pair.
        """
        r, c = cell
        found: list[tuple[tuple[Cell, ...], Cell | None, list[Cell]]] = []
        # Pairs side by side: (r, c0), (r, c0 + 1); beyond them columns c0 - 1 and c0 + 2.
        for pair_cells, outer in self._pairs_near(r, c):
            missing = self._formation(pair_cells, outer)
            if missing is None:
                continue
            if cell in pair_cells:
                found.append((pair_cells, cell, missing))
            elif missing == [cell]:
                found.append((pair_cells, None, missing))
        for r0 in (r - 1, r):  # the four 2x2 blocks that hold the cell
            for c0 in (c - 1, c):
                block = ((r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1))
                corners = [(r0 - 1, c0 - 1), (r0 - 1, c0 + 2), (r0 + 2, c0 - 1), (r0 + 2, c0 + 2)]
                missing = self._formation(block, corners)
                if missing is not None:
                    found.append((block, cell, missing))
        return found

    def _pairs_near(self, r: int, c: int) -> Iterator[tuple[tuple[Cell, ...], list[Cell]]]:
        """Pairs containing (r, c) or with (r, c) among their outer cells, both directions."""
        for flip in (False, True):
            rr, cc = (c, r) if flip else (r, c)
            starts = [(rr, cc - 1), (rr, cc)]  # pairs containing the cell
            starts += [(rr + d, cc + 1) for d in (-1, 0, 1)]  # the cell is beyond the first
            starts += [(rr + d, cc - 2) for d in (-1, 0, 1)]  # ... or beyond the second
            for a, b in starts:
                pair: tuple[Cell, ...] = ((a, b), (a, b + 1))
                outer = [(a + d, b - 1) for d in (-1, 0, 1)] + [(a + d, b + 2) for d in (-1, 0, 1)]
                if flip:
                    pair = tuple((y, x) for x, y in pair)
                    outer = [(y, x) for x, y in outer]
                yield pair, outer

    # -- counting -----------------------------------------------------------------------------

    def _layouts(self, mines: frozenset[Cell]) -> int:
        """Layouts of the position in which every cell of ``mines`` holds a mine."""
        if mines not in self._tallies:
            self._tallies[mines] = self.analysis.counts.solutions_fixing(mines=mines)
        return self._tallies[mines]

    def _tally(self, cells: tuple[Cell, ...], mine: Cell, missing: list[Cell]) -> int:
        """Layouts where the formation forms with its mine(s) on ``mine``'s side, exactly."""
        if len(cells) == 2:
            mines, safe = {mine}, [c for c in cells if c != mine]
        else:  # a block: the mine's diagonal holds mines, the other diagonal none
            (a, b, c, d) = cells
            mines = {a, d} if mine in (a, d) else {b, c}
            safe = [x for x in cells if x not in mines]
        base = frozenset((*missing, *mines))
        # Inclusion-exclusion over the cells that must stay safe.
        total = self._layouts(base)
        if total and len(safe) == 1:
            total -= self._layouts(base | {safe[0]})
        elif total:
            total -= self._layouts(base | {safe[0]}) + self._layouts(base | {safe[1]})
            total += self._layouts(base | set(safe))
        return total

    def influence(self, cell: Cell) -> int:
        """Layouts in which ``cell`` is a mine of a 50/50 that would form around it.

        Pairs add up, of the 2x2 blocks the largest counts; an enabler (the one cell whose mine
        would complete a pair) gets half the layouts in which the pair forms with one mine (the
        half a later guess would lose). The total is at most the layouts in which ``cell`` is a
        mine and at most those in which it is safe.
        """
        cell = as_cell(cell, *self.shape)
        if self.remaining is None or not self.cells[cell]:
            return 0
        pairs = block = 0
        for cells, mine, missing in self._patterns(cell):
            if mine is None:
                pairs += sum(self._tally(cells, x, missing) for x in cells) // 2
                continue
            tally = self._tally(cells, mine, missing)
            if len(cells) == 2:
                pairs += tally
            else:
                block = max(block, tally)
        solutions = self.analysis.solutions
        mines = self.analysis.mine_layouts(cell)
        return int(min(pairs + block, mines, solutions - mines))


def _formation_cells(hidden: np.ndarray, revealed: np.ndarray,
                     block_missing: int = 0) -> np.ndarray:
    """Cells that may play in a formation: a quick filter before any counting.

    A cell qualifies when it belongs to a pair (or 2x2 block) of hidden cells none of whose
    outer cells is revealed and at most one (``block_missing``, for a block) is hidden and not
    a known mine, or when it is a pair's one such outer cell. Off the board counts as a known
    mine.

    Each grid is one integer, a bit per cell of the board framed by two rows and columns of
    nothing (so that shifts by up to two rows or columns never wrap onto the board): a look at
    the cell ``(dr, dc)`` away is a shift, and the whole filter a few dozen shifts and ands.
    """
    height, width = hidden.shape
    stride = (width + 4 + 7) // 8 * 8  # whole bytes per row

    def bits(grid: np.ndarray) -> int:
        framed = np.zeros((height + 4, stride), dtype=bool)
        framed[2:-2, 2:2 + width] = grid
        return int.from_bytes(np.packbits(framed, axis=1, bitorder="little").tobytes(), "little")

    def away(x: int, dr: int, dc: int) -> int:
        """Bit of each cell set when ``x`` holds the cell ``(dr, dc)`` away from it."""
        shift = dr * stride + dc
        return x >> shift if shift >= 0 else x << -shift

    def back(x: int, dr: int, dc: int) -> int:
        """The cells ``(dr, dc)`` away from those of ``x``."""
        shift = dr * stride + dc
        return x << shift if shift >= 0 else x >> -shift

    board, hidden_bits, shown = bits(np.ones_like(hidden)), bits(hidden), bits(revealed)

    def outer_cells(outer: list[tuple[int, int]]) -> tuple[int, int, int]:
        """Bit of each cell set when, of the cells at these offsets, one is revealed; one or
        more are hidden; two or more are hidden."""
        seen = once = twice = 0
        for dr, dc in outer:
            seen |= away(shown, dr, dc)
            here = away(hidden_bits, dr, dc)
            twice |= once & here
            once |= here
        return seen, once, twice

    marked = 0
    # Pairs side by side, then one above the other: the three cells beyond each end.
    for cells, outer in ((((0, 0), (0, 1)), [(d, e) for e in (-1, 2) for d in (-1, 0, 1)]),
                         (((0, 0), (1, 0)), [(e, d) for e in (-1, 2) for d in (-1, 0, 1)])):
        seen, _, twice = outer_cells(outer)
        (ar, ac), (br, bc) = cells
        pair = board & away(hidden_bits, ar, ac) & away(hidden_bits, br, bc) & ~seen & ~twice
        for dr, dc in (*cells, *outer):
            marked |= back(pair & away(hidden_bits, dr, dc), dr, dc)
    # 2x2 blocks whose four diagonal corners are not revealed, at most block_missing hidden.
    block = board
    for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
        block &= away(hidden_bits, dr, dc)
    seen, once, twice = outer_cells([(-1, -1), (-1, 2), (2, -1), (2, 2)])
    block &= ~seen & ~(twice if block_missing else once)
    for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
        marked |= back(block, dr, dc)
    data = (marked & board).to_bytes((height + 4) * stride // 8, "little")
    rows = np.frombuffer(data, dtype=np.uint8).reshape(height + 4, stride // 8)
    return np.unpackbits(rows, axis=1, bitorder="little").view(bool)[2:-2, 2:2 + width]
