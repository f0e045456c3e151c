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

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from msanalysis.board import Cell, cell_table, neighbour_counts
from msanalysis.errors import (
    InconsistentPosition,
    TimeLimitReached,
    check_type,
    plural,
    quantity,
    time_is_up,
)
from msanalysis.position import FLAG, MINE, Position

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Box", "Clue", "Component", "Constraints", "build", "flags_contradict", "settle"]

_OFFSETS = np.array([(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)])
# _RELATIVE[f, k]: a bit for neighbour k placed by its offset from neighbour f, for k >= f (row
# major): then k is 0 to 2 rows below f and -2 to 2 columns beside it, 15 places.
_RELATIVE = np.array([[1 << int((r - fr) * 5 + (c - fc) + 2) if k >= f else 0
                       for k, (r, c) in enumerate(_OFFSETS)]
                      for f, (fr, fc) in enumerate(_OFFSETS)], dtype=np.int64)


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

    Examples
    --------
    >>> from msanalysis.position import Position
    >>> c = build(Position.from_text("mines: 2\\n1??\\n1??\\n???"))
    >>> [(clue.cell, clue.mines, clue.boxes) for clue in c.clues]
    [((0, 0), 1, (0,)), ((1, 0), 1, (0, 1))]
    >>> [box.cells for box in c.boxes], len(c.components), c.sea, c.remaining
    ([((0, 1), (1, 1)), ((2, 0), (2, 1))], 1, ((0, 2), (1, 2), (2, 2)), 2)
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
        """The clue-box graph (of one component, or of the whole position), with networkx.

        Nodes are ``("clue", i)`` and ``("box", j)``; an edge joins a clue to each box it touches.
        Its connected components are :attr:`components` (the tests check it).
        """
        import networkx as nx  # 0.25 s to import: only when a graph is asked for

        graph = nx.Graph()
        boxes = range(len(self.boxes)) if component is None else component.box_ids
        for j in boxes:
            graph.add_node(("box", j))
            graph.add_edges_from((("clue", i), ("box", j)) for i in self.boxes[j].clues)
        return graph


def _cells(rows: np.ndarray, cols: np.ndarray) -> list[Cell]:
    return list(zip(rows.tolist(), cols.tolist()))


def build(position: Position, *, ignore_flags: bool = False,
          deadline: float | None = None) -> Constraints:
    """Read ``position`` as clues, boxes, components and the sea.

    Parameters
    ----------
    position : Position
    ignore_flags : bool
        Read flags as hidden cells instead of mines.
    deadline : float, optional
        A :func:`time.perf_counter` time for a large build (100,000 frontier cells, or millions
        of sea cells: a board of millions takes minutes): one that cannot end by then is not
        begun, and one begun looks at it between its steps. Past it, ``TimeLimitReached``.

    Returns
    -------
    Constraints

    Raises
    ------
    InconsistentPosition
        When one clue alone cannot hold (more known mines around it than its number, or too few
        unknown cells left), or the mine count cannot hold (fewer mines than are already known, or
        more than fit). Contradictions between several clues are left to the solvers.
    TimeLimitReached
        Past ``deadline``.

    Notes
    -----
    O(cells) numpy work: boxes are grouped by one integer key per frontier cell; Python work is
    a union-find over the clues that share a box, and making the O(clues + boxes) result objects.

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
    check_type(position, Position, "build", "Position.from_text reads one")
    states = position.states
    height, width = states.shape
    unknown_mask = position.unknown_mask(ignore_flags)
    known_mask = position.mine_mask(ignore_flags)
    revealed = states >= 0
    known_count = int(np.count_nonzero(known_mask))
    unknown_count = int(np.count_nonzero(unknown_mask))

    remaining = None
    if position.total_mines is not None:
        remaining = position.total_mines - known_count
        if remaining < 0:
            shown = int(np.count_nonzero(states == MINE))
            total = position.total_mines
            mines = f"{total} mine{'s' if total != 1 else ''}"
            if ignore_flags or shown > total:
                message = f"{quantity(shown, 'shown mine')}, more than the {mines} on the board"
            else:
                flags = known_count - shown
                message = (f"the flags outnumber the mines: {flags} flag{'s' if flags != 1 else ''}"
                           + (f" and {shown} shown mine{'s' if shown != 1 else ''}"
                              if shown else "")
                           + f" for {mines} on the board, so a flag is wrong (ignore the flags, "
                           "--ignore-flags on the command line, to analyse the position without "
                           "them)")
            raise InconsistentPosition(message, uses_mine_count=True)
        if remaining > unknown_count:
            raise InconsistentPosition(
                f"{quantity(remaining, 'mine')} left but only "
                f"{quantity(unknown_count, 'unknown cell')} to hold them",
                uses_mine_count=True)

    # Unknown, known and revealed neighbours in one pass: four bits each of one int16 per cell.
    around_all = neighbour_counts(unknown_mask + (known_mask.astype(np.int16) << 4)
                                  + (revealed.astype(np.int16) << 8), dtype=np.int16)
    unknown_around = around_all & 15
    needed = states - ((around_all >> 4) & 15)
    bad = revealed & ((needed < 0) | (needed > unknown_around))
    if bad.any():
        cell = _cells(*np.nonzero(bad))[0]
        raise _single_clue_error(position, cell, int(states[cell]), int(needed[cell]),
                                 ignore_flags)

    # Clue ids on a padded grid, so the eight neighbour lookups below need no bounds checks.
    clue_mask = revealed & (unknown_around > 0)
    clue_rows, clue_cols = np.nonzero(clue_mask)
    clue_count = len(clue_rows)
    ids = np.full((height + 2, width + 2), -1, dtype=np.int64)
    ids[clue_rows + 1, clue_cols + 1] = np.arange(clue_count)

    # A number beside an unknown cell is a clue (it has an unknown neighbour): unknown cells
    # with a revealed neighbour are the frontier, the others the sea.
    beside_number = (around_all >> 8) > 0
    front_rows, front_cols = np.nonzero(unknown_mask & beside_number)
    front_count = len(front_rows)
    # The rest is Python objects, a few per frontier cell and one per sea cell: minutes for
    # millions of them, in steps of seconds. A large build that cannot end in time is not begun,
    # and one begun looks at the clock between its steps. (A small one, a second at most, always
    # ends: a partial answer needs its clues.)
    sea_count = unknown_count - front_count
    work = front_count * _SECONDS_PER_FRONTIER_CELL + sea_count * _SECONDS_PER_SEA_CELL
    if work < _LARGE_BUILD_SECONDS:
        deadline = None
    if deadline is not None and time.perf_counter() + work > deadline:
        raise TimeLimitReached(f"reading the position into clues would run past the time limit "
                               f"({front_count:,} unknown cells beside numbers, {sea_count:,} "
                               f"others)")
    table = cell_table(height, width)
    sea = tuple(map(table.__getitem__, np.flatnonzero(unknown_mask & ~beside_number).tolist()))
    known_mines = frozenset(map(table.__getitem__, np.flatnonzero(known_mask).tolist()))
    if not front_count:
        return Constraints(position, ignore_flags, frozenset(sea), known_mines, remaining, [],
                           [], [], sea)
    _check_deadline(deadline)
    around = ids[front_rows[:, None] + 1 + _OFFSETS[:, 0],
                 front_cols[:, None] + 1 + _OFFSETS[:, 1]]
    touches = around >= 0

    # A cell's clues, as one integer: its first clue (ids are row-major, like the neighbour
    # offsets) and a bit per other clue at its offset from that first one.
    first = touches.argmax(axis=1)
    keys = (around[np.arange(front_count), first] << 15) | (touches * _RELATIVE[first]).sum(axis=1)
    by_key = np.argsort(keys, kind="stable")
    sorted_keys = keys[by_key]
    is_start = np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1]))
    starts = np.flatnonzero(is_start)
    # Boxes are numbered in the row-major order of their first cell, not in the order of keys.
    first_cell = np.sort(by_key[starts])
    box_count = len(first_cell)
    box_of_key = np.empty(box_count, dtype=np.int64)
    box_of_key[np.argsort(by_key[starts], kind="stable")] = np.arange(box_count)
    box_of_cell = np.empty(front_count, dtype=np.int64)
    box_of_cell[by_key] = box_of_key[np.cumsum(is_start) - 1]
    cell_order = np.argsort(box_of_cell, kind="stable")
    # One tuple per frontier cell, shared by boxes, clues and components (fewer allocations).
    frontier = _cells(front_rows, front_cols)
    front_cells = [frontier[i] for i in cell_order.tolist()]
    box_bounds = _bounds(box_of_cell, box_count)
    box_cells = [tuple(front_cells[a:b]) for a, b in itertools.pairwise(box_bounds)]

    _check_deadline(deadline)
    # (box, clue) pairs, box by box with clues ascending: read off each box's first cell.
    pair_box, column = np.nonzero(touches[first_cell])
    pair_clue = around[first_cell[pair_box], column]
    clue_bounds = _bounds(pair_box, box_count)
    pair_clues = pair_clue.tolist()
    boxes = [Box(cells, tuple(pair_clues[a:b]))
             for cells, a, b in zip(box_cells, clue_bounds, clue_bounds[1:])]

    by_clue = np.argsort(pair_clue, kind="stable")
    boxes_by_clue = pair_box[by_clue].tolist()
    of_clue = _bounds(pair_clue, clue_count)
    # (clue, cell) pairs, clue by clue, box by box, row-major.
    touch_cell, column = np.nonzero(touches)
    touch_clue = around[touch_cell, column]
    touch_order = np.argsort(touch_clue * box_count + box_of_cell[touch_cell], kind="stable")
    touch_cell = touch_cell[touch_order]
    touched = [frontier[i] for i in touch_cell.tolist()]
    of_touch = _bounds(touch_clue, clue_count)
    clue_cells = _cells(clue_rows, clue_cols)
    clues = list(map(Clue, clue_cells, states[clue_rows, clue_cols].tolist(),
                     needed[clue_rows, clue_cols].tolist(),
                     [tuple(touched[a:b]) for a, b in itertools.pairwise(of_touch)],
                     [tuple(boxes_by_clue[a:b]) for a, b in itertools.pairwise(of_clue)]))

    _check_deadline(deadline)
    # Components: clues joined through the boxes they share.
    same_box = pair_box[1:] == pair_box[:-1]
    root = _roots(clue_count, pair_clue[:-1][same_box], pair_clue[1:][same_box])
    # Roots are each component's first clue: number components in that order.
    is_root = root == np.arange(clue_count)
    component_count = int(np.count_nonzero(is_root))
    component_of_clue = (np.cumsum(is_root) - 1)[root]
    component_of_box = component_of_clue[pair_clue[clue_bounds[:-1]]]
    component_of_cell = component_of_box[box_of_cell]
    clue_ids = _grouped(component_of_clue, component_count)
    box_ids = _grouped(component_of_box, component_count)
    by_component = np.argsort(component_of_cell, kind="stable")  # row-major within each
    cells = [frontier[i] for i in by_component.tolist()]
    cell_bounds = _bounds(component_of_cell, component_count)
    components = [Component(tuple(clue_cells[i] for i in clue_ids[k]),
                            tuple(cells[cell_bounds[k]:cell_bounds[k + 1]]),
                            tuple(box_cells[j] for j in box_ids[k]), clue_ids[k], box_ids[k])
                  for k in range(component_count)]

    return Constraints(position, ignore_flags, frozenset(frontier).union(sea), known_mines,
                       remaining, clues, boxes, components, sea)


_SECONDS_PER_FRONTIER_CELL = 3e-6
"""Half the time a build takes per frontier cell on this project's machine (6.3 to 9.3 µs
measured with 0.7 to 6 million of them): a build refused for it could not end in time even on
a machine twice as fast."""

_SECONDS_PER_SEA_CELL = 1e-7
"""The same per sea cell (0.2 to 0.5 µs measured with 1 to 9 million of them)."""

_LARGE_BUILD_SECONDS = 0.3
"""Estimated work from which a build keeps a deadline (100,000 frontier cells or 3 million sea
cells; below, it takes about a second at most)."""


def _check_deadline(deadline: float | None) -> None:
    if time_is_up(deadline):
        raise TimeLimitReached("the time limit ran out while the position was read into clues "
                               "and the cells they share")


def settle(sizes: Sequence[int], scopes: Sequence[Sequence[int]], needs: Sequence[int],
           rooms: Sequence[int], clues_of_box: Sequence[Sequence[int]]
           ) -> tuple[list[int], list[int]] | None:
    """What clues decide one at a time, repeatedly: boxes all mines or all safe.

    A clue whose open cells must all be mines (or all be safe) decides its open boxes, which
    may decide other clues in turn: unit propagation, box by box. What it decides holds in
    every layout, so :mod:`msanalysis.sat` asks the solver only about the open boxes and
    :mod:`msanalysis.counting` counts only them (a decided box has one way to be filled).

    Parameters
    ----------
    sizes : sequence of int
        Cells of each box.
    scopes, needs, rooms : sequences, one entry per clue
        The boxes of the clue, the mines it needs among them, and its number of cells.
    clues_of_box : sequence of sequence of int
        The clues of each box.

    Returns
    -------
    (decided, need) or None
        ``decided[j]`` is 1 (all mines), -1 (all safe) or 0 (open); ``need[c]`` the mines clue
        ``c`` still needs among its open boxes. None when some clue cannot hold.

    Notes
    -----
    O(clues + sum of clues per box): each box is decided at most once.

    Examples
    --------
    The 0 clears two cells, which leaves the first 1 one cell: a mine.

    >>> c = build(Position.from_text("???\\n110"))
    >>> settle([box.size for box in c.boxes], [clue.boxes for clue in c.clues],
    ...        [clue.mines for clue in c.clues], [len(clue.cells) for clue in c.clues],
    ...        [list(box.clues) for box in c.boxes])
    ([1, -1, -1], [0, 0, 0])
    """
    decided = [0] * len(sizes)
    need = list(needs)
    room = list(rooms)
    queue = [c for c in range(len(scopes)) if need[c] <= 0 or need[c] >= room[c]]
    while queue:
        c = queue.pop()
        if need[c] < 0 or need[c] > room[c]:
            return None
        if room[c] == 0 or 0 < need[c] < room[c]:
            continue
        value = 1 if need[c] else -1
        for v in scopes[c]:
            if decided[v]:
                continue
            decided[v] = value
            size = sizes[v]
            for other in clues_of_box[v]:
                room[other] -= size
                if value > 0:
                    need[other] -= size
                if need[other] <= 0 or need[other] >= room[other]:
                    queue.append(other)
    return decided, need


def _bounds(labels: np.ndarray, count: int) -> list[int]:
    """Where each label's run starts (and the last one ends) once ``labels`` are sorted."""
    return [0, *np.cumsum(np.bincount(labels, minlength=count)).tolist()]


def _grouped(labels: np.ndarray, count: int) -> list[tuple[int, ...]]:
    """Indices holding each label, ascending."""
    order = np.argsort(labels, kind="stable").tolist()
    bounds = _bounds(labels, count)
    return [tuple(order[a:b]) for a, b in itertools.pairwise(bounds)]


def _roots(count: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest node of each node's connected component, edges ``a[i] - b[i]``.

    Union-find that always hangs the larger root under the smaller, so a root is its
    component's smallest node and one ascending pass finishes every path. A Python loop over
    the edges measured as fast as numpy pointer jumping on expert boards, and faster on small
    ones (fewer calls). networkx's ``connected_components`` of :meth:`Constraints.graph` gives
    the same components (the tests check it) 8-12x slower: on 200 played expert positions
    1.18 ms median against 0.14 ms, on 20 of 100x100 41 against 3.5 ms, when the whole of
    :func:`build` takes about 1 ms on expert.
    """
    parent = list(range(count))
    for x, y in zip(a.tolist(), b.tolist()):
        while parent[x] != x:
            parent[x] = x = parent[parent[x]]  # path halving keeps the trees shallow
        while parent[y] != y:
            parent[y] = y = parent[parent[y]]
        if x < y:
            parent[y] = x
        elif y < x:
            parent[x] = y
    for i in range(count):  # parent[i] < i is final by now, so this reaches the root
        parent[i] = parent[parent[i]]
    return np.array(parent, dtype=np.int64)


def flags_contradict(flags: Sequence[Cell]) -> str:
    """``the flag at (r, c) contradicts`` or ``the flags at ... contradict``: the start of the
    message that blames flags for a position with no layout.

    >>> flags_contradict([(0, 0)]), flags_contradict([(0, 0), (1, 1)])
    ('the flag at (0, 0) contradicts', 'the flags at (0, 0), (1, 1) contradict')
    """
    cells = ", ".join(map(str, flags))
    return f"the flag at {cells} contradicts" if len(flags) == 1 else \
        f"the flags at {cells} contradict"


def _single_clue_error(position: Position, cell: Cell, number: int, needed: int,
                       ignore_flags: bool) -> InconsistentPosition:
    height, width = position.shape
    around = [(r, c) for r in range(cell[0] - 1, cell[0] + 2)
              for c in range(cell[1] - 1, cell[1] + 2)
              if (r, c) != cell and 0 <= r < height and 0 <= c < width]
    flagged = [nb for nb in around if position.state(nb) == FLAG]
    if needed < 0:
        around_it = number - needed
        if flagged and not ignore_flags:
            message = (f"{flags_contradict(flagged)} the clue {number} at {cell}: it has "
                       f"{quantity(around_it, 'flagged or shown mine')} around it (flags "
                       "count as mines; "
                       "ignore_flags, --ignore-flags on the command line, reads them as hidden "
                       "cells)")
        else:
            message = (f"the clue {number} at {cell} has {quantity(around_it, 'mine')} shown "
                       "around it")
    else:
        message = (f"the clue {number} at {cell} needs {needed} more "
                   f"{plural(needed, 'mine')} but has fewer unknown cells around it")
    return InconsistentPosition(message, clues=[cell])
