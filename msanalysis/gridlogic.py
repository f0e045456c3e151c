"""Local reasoning on grids of numbers, shared by reconstruction and puzzles.

What single clues and pairs of overlapping clues force, settled on the whole grid at once with
numpy (:func:`settle`), and the split of what is left into independent groups of cells
(:func:`split_components`). Cells are flat indices into a copy of the grid padded on every side
(:class:`Padded`), so that "the cell d rows and e columns away" is one constant offset, with no
bounds checks. A contradiction is an :class:`Unsatisfiable`, with a cell near it.
"""

from __future__ import annotations

import numpy as np

from msanalysis.board import Cell
from msanalysis.errors import TimeLimitReached, time_is_up
from msanalysis.numbergrid import UNKNOWN, clue_counts, counted_offsets, first_cell

__all__ = ["PAD", "Padded", "Unsatisfiable", "settle", "split_components"]

PAD = 3
"""Cells of padding on every side: the pair rule looks up to 3 cells away (a clue 2 away, and
that clue's neighbour)."""
_FRAME = 7  # the pair rule stores a clue's unknown cells as bits of the 7x7 frame around it
_BIG = np.iinfo(np.int64).max


class Unsatisfiable:
    """No layout: ``center`` is a cell near the contradiction, where the conflict search starts."""

    def __init__(self, center: Cell) -> None:
        self.center = center


class Padded:
    """A grid of clues padded by ``PAD`` cells, with flat offsets of each clue's cells."""

    def __init__(self, clues: np.ndarray, rule: str) -> None:
        height, width = clues.shape
        self.shape = (height, width)
        self.stride = width + 2 * PAD
        self.clues = np.full((height + 2 * PAD, self.stride), UNKNOWN, dtype=np.int16)
        self.clues[PAD:-PAD, PAD:-PAD] = clues
        self.kernel = counted_offsets(rule)
        self.offsets = np.array([dr * self.stride + dc for dr, dc in self.kernel], dtype=np.int64)

    def pad(self, state: np.ndarray) -> np.ndarray:
        """Flat padded copy of an unpadded state; outside cells read as known safe (0)."""
        padded = np.zeros((self.shape[0] + 2 * PAD, self.stride), dtype=np.int8)
        padded[PAD:-PAD, PAD:-PAD] = state
        return padded.ravel()

    def cell(self, flat: int) -> Cell:
        return (flat // self.stride - PAD, flat % self.stride - PAD)


def settle(clues: np.ndarray, rule: str, grid: Padded, *, state: np.ndarray | None = None,
           pairs: bool = True, deadline: float | None = None) -> np.ndarray | Unsatisfiable:
    """Apply the local rules until nothing changes: int8 state, -1 unknown, 0 safe, 1 mine.

    Two single-clue rules run on the whole grid at once: a clue whose mines are all known frees
    its other cells; a clue that needs every unknown cell it counts fills them. When they stall,
    the pair rule (:func:`_pair_rule`) looks at overlapping clues (unless ``pairs`` is False).
    Every step is a forced deduction, so no layout is lost; a contradiction means there is no
    layout at all. ``state`` gives cells already known (the puzzle grader starts from some).
    Past ``deadline`` (a :func:`time.perf_counter` value) it stops with
    :class:`~msanalysis.errors.TimeLimitReached` between passes (a pass over a grid of millions
    of cells takes a second or two).

    Examples
    --------
    The 3 in the corner makes every cell it counts a mine; the 2 then has both of its mines, and
    the corner is safe.

    >>> clues = np.array([[3, -1], [-1, 2]])
    >>> settle(clues, "classic", Padded(clues, "classic")).tolist()
    [[0, 1], [1, 1]]
    >>> isinstance(settle(np.array([[3, 0]]), "classic", Padded(np.array([[3, 0]]), "classic")),
    ...            Unsatisfiable)
    True
    """
    # A copy of the cells given: the caller's array stays as it was.
    state = np.full(clues.shape, UNKNOWN, dtype=np.int8) if state is None \
        else state.astype(np.int8)
    known = clues != UNKNOWN
    clues16 = clues.astype(np.int16)
    while True:
        _check_clock(deadline, "settled the grid by its clues")
        unknown = state == UNKNOWN
        need = clues16 - clue_counts(state == 1, rule)
        open_ = clue_counts(unknown, rule).astype(np.int16)
        broken = known & ((need < 0) | (need > open_))
        if broken.any():
            return Unsatisfiable(first_cell(broken))
        active = known & (open_ > 0)
        frees = active & (need == 0)
        fills = active & (need == open_)
        if frees.any() or fills.any():
            # A cell is touched by a firing clue exactly when it lies in that clue's block: the
            # neighbourhood is symmetric, so counting the firing clues around each cell finds it.
            safe = unknown & (clue_counts(frees, rule) > 0)
            mine = unknown & (clue_counts(fills, rule) > 0)
            both = safe & mine
            if both.any():
                return Unsatisfiable(first_cell(both))
            state[safe] = 0
            state[mine] = 1
            continue
        if not active.any() or not pairs:
            return state
        flat = grid.pad(state)
        marked = _pair_rule(flat, grid)
        if isinstance(marked, Unsatisfiable):
            return marked
        if marked is None:
            return state
        state = flat.reshape(grid.clues.shape)[PAD:-PAD, PAD:-PAD].copy()


def _active_clues(flat: np.ndarray, grid: Padded):
    """The known clues that still count an unknown cell, as padded flat indices.

    Returns (clues, around, unknown, need): the cells each clue counts (one row per clue), which
    of them are unknown, and how many mines each clue still needs among them.
    """
    clue_flat = grid.clues.ravel()
    clues = np.flatnonzero(clue_flat != UNKNOWN)
    around = clues[:, None] + grid.offsets[None, :]
    unknown = flat[around] == UNKNOWN
    keep = unknown.any(axis=1)
    clues, around, unknown = clues[keep], around[keep], unknown[keep]
    need = clue_flat[clues].astype(np.int64) - (flat[around] == 1).sum(axis=1)
    return clues, around, unknown, need


def _pair_rule(flat: np.ndarray, grid: Padded) -> bool | Unsatisfiable | None:
    """One pass of the pair rule over every two overlapping active clues, in place on ``flat``.

    For clues A and B with ``need`` mines still to place among their unknown cells: if
    ``need(B) - need(A)`` equals the number of B's unknown cells outside A, those cells are all
    mines and A's unknown cells outside B are all safe (A's mines must then all lie in the
    overlap). With A inside B this is the classic subset rule. Each clue's unknown cells are a
    bitmask over the 7x7 frame around it, so all pairs at one offset are tested at once.

    Returns True when cells were settled, None when nothing changed, or Unsatisfiable.
    """
    cells, _around, unknown, need = _active_clues(flat, grid)
    frame_bits = np.array([(dr + PAD) * _FRAME + dc + PAD for dr, dc in grid.kernel],
                          dtype=np.int64)
    masks = (unknown.astype(np.int64) << frame_bits[None, :]).sum(axis=1)
    mask_at = np.zeros(flat.size, dtype=np.int64)
    need_at = np.zeros(flat.size, dtype=np.int64)
    mask_at[cells] = masks
    need_at[cells] = need
    mines, safes = [], []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if dr == 0 and dc == 0:
                continue
            other = cells + dr * grid.stride + dc
            other_mask = mask_at[other]
            shift = dr * _FRAME + dc
            moved = other_mask << shift if shift > 0 else other_mask >> -shift
            only_other = moved & ~masks
            only_self = masks & ~moved
            fire = (other_mask != 0) & ((only_other | only_self) != 0) & \
                (need_at[other] - need == np.bitwise_count(only_other))
            if not fire.any():
                continue
            base, only_other, only_self = cells[fire], only_other[fire], only_self[fire]
            for dr2, dc2 in grid.kernel:
                # B's cell (dr2, dc2) sits at (dr + dr2, dc + dc2) in A's frame.
                bit = (dr + dr2 + PAD) * _FRAME + dc + dc2 + PAD
                hit = (only_other >> bit) & 1 == 1
                mines.append(base[hit] + (dr + dr2) * grid.stride + dc + dc2)
                bit = (dr2 + PAD) * _FRAME + dc2 + PAD
                hit = (only_self >> bit) & 1 == 1
                safes.append(base[hit] + dr2 * grid.stride + dc2)
    if not mines:
        return None
    # Boolean marks rather than np.unique: sorting is the slow way to deduplicate cells here.
    mine = np.zeros(flat.size, dtype=bool)
    safe = np.zeros(flat.size, dtype=bool)
    mine[np.concatenate(mines)] = True
    safe[np.concatenate(safes)] = True
    clash = np.flatnonzero(mine & safe)
    if clash.size:
        return Unsatisfiable(grid.cell(int(clash[0])))
    if not mine.any() and not safe.any():
        return None
    flat[mine] = 1
    flat[safe] = 0
    return True


def _check_clock(deadline: float | None, doing: str) -> None:
    if time_is_up(deadline):
        raise TimeLimitReached(f"the time limit ran out while local rules {doing}")


def split_components(flat: np.ndarray, grid: Padded,
                     deadline: float | None = None) -> tuple[list, np.ndarray]:
    """Split the unknown cells into groups linked by shared clues.

    Returns (components, free): each component is (cells, constraints, a clue cell), with cells
    as sorted padded flat indices and constraints as (local indices, mines needed) per clue;
    ``free`` holds the unknown cells that no clue counts.

    Labels spread by min-label propagation with pointer jumping, all in numpy, so a million
    cells stay out of Python loops; only the (small) leftover goes through per-clue Python.
    Past ``deadline`` it stops with :class:`~msanalysis.errors.TimeLimitReached` between rounds.

    Examples
    --------
    Two clues far apart make two components; the cell that no clue counts is free.

    >>> clues = np.array([[1, -1, -1, -1, -1, -1, 1]])
    >>> grid = Padded(clues, "mosaic")
    >>> flat = grid.pad(np.full(clues.shape, UNKNOWN))
    >>> components, free = split_components(flat, grid)
    >>> [[grid.cell(int(c)) for c in cells] for cells, _, _ in components]
    [[(0, 0), (0, 1)], [(0, 5), (0, 6)]]
    >>> [grid.cell(int(c)) for c in free]
    [(0, 2), (0, 3), (0, 4)]
    """
    clues, around, unknown, need = _active_clues(flat, grid)
    counted = np.zeros(flat.size, dtype=bool)
    counted[around[unknown]] = True
    covered = np.flatnonzero(counted)
    free = np.flatnonzero((flat == UNKNOWN) & ~counted)
    if not clues.size:
        return [], free
    label = np.full(flat.size, _BIG, dtype=np.int64)
    label[covered] = covered
    members = around[unknown]
    per_clue = unknown.sum(axis=1)
    while True:
        _check_clock(deadline, "split the grid into parts")
        lowest = np.where(unknown, label[around], _BIG).min(axis=1)
        before = label[covered].copy()
        np.minimum.at(label, members, np.repeat(lowest, per_clue))
        while True:  # pointer jumping: follow labels to their roots
            jumped = label[label[covered]]
            if np.array_equal(jumped, label[covered]):
                break
            label[covered] = jumped
        if np.array_equal(before, label[covered]):
            break
    clue_label = label[around[np.arange(len(clues)), unknown.argmax(axis=1)]]
    cell_order = np.lexsort((covered, label[covered]))
    cells_sorted = covered[cell_order]
    cell_labels = label[cells_sorted]
    starts = np.flatnonzero(np.r_[True, cell_labels[1:] != cell_labels[:-1]])
    bounds = np.r_[starts, len(cells_sorted)]
    local = np.full(flat.size, -1, dtype=np.int64)
    group = np.repeat(np.arange(len(starts)), np.diff(bounds))
    local[cells_sorted] = np.arange(len(cells_sorted)) - starts[group]
    clue_order = np.argsort(clue_label, kind="stable")
    clue_group = np.searchsorted(cell_labels[starts], clue_label[clue_order])
    clue_bounds = np.searchsorted(clue_group, np.arange(len(starts) + 1))
    local_around = np.where(unknown, local[around], -1)[clue_order].tolist()
    need_sorted = need[clue_order].tolist()
    clues_sorted = clues[clue_order]
    components = []
    for g in range(len(starts)):
        lo, hi = int(clue_bounds[g]), int(clue_bounds[g + 1])
        constraints = [([v for v in local_around[i] if v >= 0], need_sorted[i])
                       for i in range(lo, hi)]
        cells = cells_sorted[bounds[g]:bounds[g + 1]]
        components.append((cells, constraints, int(clues_sorted[lo])))
    return components, free
