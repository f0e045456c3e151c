"""Unavoidable guesses: hidden cells that no click elsewhere can ever tell apart.

Two kinds are found, each exactly:

* A *free pair*: two cells of which at most one holds a mine (a number beside both needs one
  more mine among cells that include them), walled in so that every other cell touching one of
  them touches the other too (the board's edge and certain mines make the wall). Swapping the
  two cells' contents changes nothing that a click elsewhere can show, so in the layouts where
  the pair holds the mine every way of playing loses at least half, whenever it makes the guess;
  guessing one of the pair now loses exactly that half, and its number may help with the rest.
  Under perfect play it costs nothing (the tests check this against the exact endgame search),
  whatever the cell's mine probability.
* A *two-state chain*: cells linked by numbers that each need one more mine in exactly two of
  them, so that the mines fill one side of the chain or the other, as many either way, with
  every other cell touching as many cells of one side as of the other. Whatever else is found,
  it stays a 50/50, and it has to be guessed some time: sooner tells more.

``best`` guesses such a cell before anything else that is not an endgame search. The idea is
the Java solver's (github.com/DavidNHill/Minesweeper) "unavoidable guesses" and "extended
pseudo-50/50s"; the conditions here are exact ones, where its chains test a parity.
"""

from __future__ import annotations

from typing import Any

from msanalysis.analysis import Analysis
from msanalysis.board import Cell, neighbours
from msanalysis.errors import check_type

__all__ = ["Structure", "unavoidable_cells", "unavoidable_structures"]

Structure = tuple[frozenset[Cell], frozenset[Cell]]
"""The two sides of a free pair (a cell each) or of a two-state chain."""


def unavoidable_structures(analysis: Any) -> list[Structure]:
    """Every free pair and two-state chain of an analysed position, as its two sides.

    A free pair's sides are its two cells, at most one of them a mine; a chain's mines fill
    exactly one of its sides, and the sides are of one size.

    Examples
    --------
    Two cells in a corner walled in by mines: one holds the last mine, and nothing else on the
    board can say which.

    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> unavoidable_structures(analyze(Position.from_text("mines: 3\\n??*\\n13*")))
    [(frozenset({(0, 0)}), frozenset({(0, 1)}))]
    """
    check_type(analysis, Analysis, "unavoidable_structures", "analyze(position) makes one")
    return _Finder(analysis).structures()


def unavoidable_cells(analysis: Any) -> list[Cell]:
    """The cells of every structure of :func:`unavoidable_structures`, row-major.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> unavoidable_cells(analyze(Position.from_text("mines: 3\\n??*\\n13*")))
    [(0, 0), (0, 1)]
    """
    check_type(analysis, Analysis, "unavoidable_cells", "analyze(position) makes one")
    return sorted({cell for first, second in unavoidable_structures(analysis)
                   for cell in first | second})


class _Finder:
    """The numbers that need one more mine, and the structures they make."""

    def __init__(self, analysis: Any) -> None:
        constraints = analysis.constraints
        self.shape = constraints.position.shape
        self.mines = constraints.known_mines | analysis.forced_mines
        # Each number's open cells (certain mines aside) when exactly one more mine is needed
        # among them; two numbers may need it among the same cells.
        groups: dict[tuple[Cell, ...], None] = {}
        for clue in constraints.clues:
            cells = tuple(c for c in clue.cells if c not in self.mines)
            if len(cells) >= 2 and clue.mines - (len(clue.cells) - len(cells)) == 1:
                groups[tuple(sorted(cells))] = None
        self.groups = list(groups)

    def structures(self) -> list[Structure]:
        return self._free_pairs() + self._chains()

    def _free_pairs(self) -> list[Structure]:
        found = []
        for cells in self.groups:
            for i, a in enumerate(cells):
                for b in cells[i + 1:]:
                    if self._unseen_swap({a}, {b}):
                        found.append((frozenset([a]), frozenset([b])))
        return found

    def _chains(self) -> list[Structure]:
        """Cells joined by numbers whose last two open cells hold one mine, two sides alike.

        (Two cells alone are a free pair already.)
        """
        linked: dict[Cell, list[Cell]] = {}
        for cells in self.groups:
            if len(cells) == 2:
                a, b = cells
                linked.setdefault(a, []).append(b)
                linked.setdefault(b, []).append(a)
        found: list[Structure] = []
        seen: set[Cell] = set()
        for start in linked:
            if start in seen:
                continue
            side = {start: 0}  # which side of the chain: a link's cells lie on both
            stack, two_sided = [start], True
            while stack:
                cell = stack.pop()
                for other in linked[cell]:
                    if other not in side:
                        side[other] = 1 - side[cell]
                        stack.append(other)
                    elif side[other] == side[cell]:
                        two_sided = False  # an odd loop of links: no such position exists
            seen |= side.keys()
            first = {c for c, s in side.items() if s == 0}
            second = {c for c, s in side.items() if s == 1}
            if two_sided and len(first) == len(second) > 1 \
                    and self._unseen_swap(first, second):
                found.append((frozenset(first), frozenset(second)))
        return found

    def _unseen_swap(self, first: set[Cell], second: set[Cell]) -> bool:
        """Whether every cell but these and the certain mines touches as many cells of one side
        as of the other: no number, shown or still to show, then tells the sides apart."""
        height, width = self.shape
        inside = first | second
        watchers = {w for c in inside for w in neighbours(c, height, width)}
        for watcher in watchers - inside - self.mines:
            around = list(neighbours(watcher, height, width))
            if sum(c in first for c in around) != sum(c in second for c in around):
                return False
        return True
