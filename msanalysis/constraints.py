"""A position as constraints: clues, boxes, components, the sea and the mine count.

:func:`build` turns a :class:`~msanalysis.position.Position` into the pieces every solver works
on. Each revealed number becomes a :class:`Clue`, "exactly ``mines`` of these hidden cells are
mines"; hidden cells touching exactly the same clues form a :class:`Box` (interchangeable, so
they are counted together); clues and boxes joined by adjacency form independent
:class:`Component` s, tied together only by the total mine count; hidden cells next to no clue
form the *sea*. Deciding forced cells is left to :mod:`msanalysis.sat`, counting to
:mod:`msanalysis.counting`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from msanalysis.board import Cell, neighbour_counts
from msanalysis.errors import InconsistentPosition
from msanalysis.position import FLAG, HIDDEN, MINE, Position

__all__ = ["Clue", "Box", "Component", "Constraints", "build"]

_OFFSETS = np.array([(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)])


@dataclass(frozen=True, slots=True)
class Clue:
    """A revealed number read as "exactly ``mines`` of ``cells`` are mines".

    Attributes
    ----------
    cell : (row, col)
        Where the number is.
    number : int
        The number shown.
    mines : int
        Mines still to place among ``cells``: the number minus the known mines (shown mines, and
        flags unless flags are ignored) around it.
    cells : tuple of (row, col)
        The unknown neighbours, box by box.
    boxes : tuple of int
        Indices of the boxes that make up ``cells``.
    """

    cell: Cell
    number: int
    mines: int
    cells: tuple[Cell, ...]
    boxes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Box:
    """Frontier cells that touch exactly the same clues (so any of them may swap places).

    Attributes
    ----------
    cells : tuple of (row, col)
        Row-major.
    clues : tuple of int
        Indices of the clues the cells touch.
    """

    cells: tuple[Cell, ...]
    clues: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, slots=True)
class Component:
    """A connected group of clues and boxes: independent of the rest but for the mine count.

    Attributes
    ----------
    clues : tuple of (row, col)
        The revealed cells whose numbers constrain this component, row-major.
    cells : tuple of (row, col)
        The frontier cells of the component, row-major.
    boxes : tuple of tuple of (row, col)
        The cells of each box.
    clue_ids, box_ids : tuple of int
        Indices into :attr:`Constraints.clues` and :attr:`Constraints.boxes`.
    """

    clues: tuple[Cell, ...]
    cells: tuple[Cell, ...]
    boxes: tuple[tuple[Cell, ...], ...]
    clue_ids: tuple[int, ...] = field(repr=False)
    box_ids: tuple[int, ...] = field(repr=False)


@dataclass(frozen=True, slots=True)
class Constraints:
    """Everything a solver needs to know about a position.

    Attributes
    ----------
    position : Position
    ignore_flags : bool
        True when flags were read as hidden cells.
    unknown : frozenset of (row, col)
        Cells whose content is to be found: hidden cells, and flags when flags are ignored.
    known_mines : frozenset of (row, col)
        Shown mines, and flags unless flags are ignored.
    remaining : int or None
        Mines among the unknown cells; None when the total is unknown.
    clues : list of Clue
        Revealed numbers with at least one unknown neighbour, row-major.
    boxes : list of Box
    components : list of Component
        Ordered by their first clue, row-major.
    sea : tuple of (row, col)
        Unknown cells next to no clue, row-major.
    """

    position: Position
    ignore_flags: bool
    unknown: frozenset[Cell]
    known_mines: frozenset[Cell]
    remaining: int | None
    clues: list[Clue]
    boxes: list[Box]
    components: list[Component]
    sea: tuple[Cell, ...]

    @property
    def frontier_size(self) -> int:
        return len(self.unknown) - len(self.sea)

    def graph(self, component: Component | None = None) -> nx.Graph:
        """The clue-box graph (of one component, or of the whole position).

        Nodes are ``("clue", i)`` and ``("box", j)``; an edge joins a clue to each box it touches.
        """
        graph = nx.Graph()
        boxes = range(len(self.boxes)) if component is None else component.box_ids
        for j in boxes:
            graph.add_node(("box", j))
            graph.add_edges_from((("clue", i), ("box", j)) for i in self.boxes[j].clues)
        return graph


def _cells(rows: np.ndarray, cols: np.ndarray) -> list[Cell]:
    return list(zip(rows.tolist(), cols.tolist()))


def build(position: Position, *, ignore_flags: bool = False) -> Constraints:
    """Read ``position`` as clues, boxes, components and the sea.

    Parameters
    ----------
    position : Position
    ignore_flags : bool
        Read flags as hidden cells instead of mines.

    Returns
    -------
    Constraints

    Raises
    ------
    InconsistentPosition
        When one clue alone cannot hold (more known mines around it than its number, or too few
        unknown cells left), or the mine count cannot hold (fewer mines than are already known, or
        more than fit). Contradictions between several clues are left to the solvers.

    Notes
    -----
    O(cells) numpy work plus O(frontier) Python work to group the boxes and join components.

    Examples
    --------
    >>> c = build(Position.from_text("mines: 2\\n???\\n121\\n..."))
    >>> [(clue.cell, clue.mines) for clue in c.clues]
    [((1, 0), 1), ((1, 1), 2), ((1, 2), 1)]
    >>> [box.cells for box in c.boxes]
    [((0, 0),), ((0, 1),), ((0, 2),)]
    >>> len(c.components), c.sea, c.remaining
    (1, (), 2)
    """
    states = position.states
    height, width = states.shape
    flags = states == FLAG
    unknown_mask = (states == HIDDEN) | flags if ignore_flags else states == HIDDEN
    known_mask = states == MINE if ignore_flags else (states == MINE) | flags
    revealed = states >= 0
    known_count = int(np.count_nonzero(known_mask))
    unknown_count = int(np.count_nonzero(unknown_mask))

    remaining = None
    if position.total_mines is not None:
        remaining = position.total_mines - known_count
        if remaining < 0:
            what = "shown mines" if ignore_flags else "flags and shown mines"
            raise InconsistentPosition(
                f"{known_count} {what}, more than the {position.total_mines} mines on the board",
                uses_mine_count=True)
        if remaining > unknown_count:
            raise InconsistentPosition(
                f"{remaining} mines left but only {unknown_count} unknown cells to hold them",
                uses_mine_count=True)

    unknown_around = neighbour_counts(unknown_mask)
    needed = states.astype(np.int16) - neighbour_counts(known_mask)
    bad = revealed & ((needed < 0) | (needed > unknown_around))
    if bad.any():
        cell = _cells(*np.nonzero(bad))[0]
        raise _single_clue_error(position, cell, int(needed[cell]), ignore_flags)

    # Clue ids on a padded grid, so the eight neighbour lookups below need no bounds checks.
    clue_mask = revealed & (unknown_around > 0)
    clue_rows, clue_cols = np.nonzero(clue_mask)
    clue_count = len(clue_rows)
    ids = np.full((height + 2, width + 2), -1, dtype=np.int32)
    ids[clue_rows + 1, clue_cols + 1] = np.arange(clue_count, dtype=np.int32)

    unknown_rows, unknown_cols = np.nonzero(unknown_mask)
    signature = ids[unknown_rows[:, None] + 1 + _OFFSETS[:, 0], unknown_cols[:, None] + 1
                    + _OFFSETS[:, 1]]
    is_frontier = (signature >= 0).any(axis=1)
    sea = tuple(_cells(unknown_rows[~is_frontier], unknown_cols[~is_frontier]))
    front_rows, front_cols = unknown_rows[is_frontier], unknown_cols[is_frontier]
    signature = np.sort(signature[is_frontier], axis=1)

    boxes: list[Box] = []
    if len(front_rows):
        keys, first, inverse = np.unique(signature, axis=0, return_index=True,
                                         return_inverse=True)
        inverse = inverse.reshape(-1)
        # Number boxes in the row-major order of their first cell, which np.unique does not keep.
        rank = np.empty(len(keys), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(keys))
        box_of_cell = rank[inverse]
        order = np.argsort(box_of_cell, kind="stable")
        splits = np.flatnonzero(np.diff(box_of_cell[order])) + 1
        front_cells = _cells(front_rows[order], front_cols[order])
        keys_list = keys[np.argsort(rank)].tolist()
        start = 0
        for j, stop in enumerate([*splits.tolist(), len(order)]):
            boxes.append(Box(tuple(front_cells[start:stop]),
                             tuple(k for k in keys_list[j] if k >= 0)))
            start = stop

    clue_boxes: list[list[int]] = [[] for _ in range(clue_count)]
    for j, box in enumerate(boxes):
        for i in box.clues:
            clue_boxes[i].append(j)
    clue_cells = _cells(clue_rows, clue_cols)
    numbers = states[clue_rows, clue_cols].tolist()
    clue_needed = needed[clue_rows, clue_cols].tolist()
    clues = []
    for i in range(clue_count):
        cells = [cell for j in clue_boxes[i] for cell in boxes[j].cells]
        clues.append(Clue(clue_cells[i], numbers[i], clue_needed[i], tuple(cells),
                          tuple(clue_boxes[i])))

    return Constraints(position, ignore_flags, frozenset(_cells(unknown_rows, unknown_cols)),
                       frozenset(_cells(*np.nonzero(known_mask))), remaining, clues, boxes,
                       _components(clues, boxes), sea)


def _components(clues: list[Clue], boxes: list[Box]) -> list[Component]:
    """Join clues that share a box (union-find: cheaper than a graph for this many nodes)."""
    parent = list(range(len(clues)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for box in boxes:
        first = root(box.clues[0])
        for i in box.clues[1:]:
            other = root(i)
            if other != first:
                parent[other] = first
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for i in range(len(clues)):  # clues are row-major, so groups come out in that order
        groups.setdefault(root(i), ([], []))[0].append(i)
    for j, box in enumerate(boxes):
        groups[root(box.clues[0])][1].append(j)
    components = []
    for clue_ids, box_ids in groups.values():
        cells = sorted(cell for j in box_ids for cell in boxes[j].cells)
        components.append(Component(tuple(clues[i].cell for i in clue_ids), tuple(cells),
                                    tuple(boxes[j].cells for j in box_ids), tuple(clue_ids),
                                    tuple(box_ids)))
    return components


def _single_clue_error(position: Position, cell: Cell, needed: int,
                       ignore_flags: bool) -> InconsistentPosition:
    number = position.number(cell)
    height, width = position.shape
    around = [(r, c) for r in range(cell[0] - 1, cell[0] + 2)
              for c in range(cell[1] - 1, cell[1] + 2)
              if (r, c) != cell and 0 <= r < height and 0 <= c < width]
    flagged = [nb for nb in around if position.state(nb) == FLAG]
    if needed < 0:
        if flagged and not ignore_flags:
            message = (f"the flags at {', '.join(map(str, flagged))} contradict the clue "
                       f"{number} at {cell}: it has {number - needed} flags and mines around it")
        else:
            message = f"the clue {number} at {cell} has {number - needed} mines shown around it"
    else:
        message = (f"the clue {number} at {cell} needs {needed} more mines but has fewer unknown "
                   "cells around it")
    return InconsistentPosition(message, clues=[cell])
