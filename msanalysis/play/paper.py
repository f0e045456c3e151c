"""``paper``: seed 003's covered-board solver, the baseline the other strategies are measured by.

Constraint propagation with the two trivial rules, backtracking enumeration of the frontier,
otherwise a random guess. It knows nothing of probabilities and never uses the analysis engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import numpy as np

from msanalysis.board import Cell, as_count, neighbour_counts, neighbours
from msanalysis.errors import check_flag, check_type
from msanalysis.play.autoplay import FLAG_MOVE, REVEAL, Move
from msanalysis.position import FLAG, HIDDEN, Position
from msanalysis.rules import as_seed

__all__ = ["PaperStrategy"]


class PaperStrategy:
    """Seed 003's covered-board solver: propagation, backtracking, random guess.

    Each turn:

    1. *Constraint propagation* with the two trivial rules, repeated until nothing changes: a
       number whose known mines equal it makes its other hidden neighbours safe; a number whose
       hidden neighbours are exactly as many as its missing mines makes them all mines.
    2. If that finds no safe cell, *backtracking*: every assignment of mines to the frontier that
       satisfies the numbers is enumerated (the frontier is split into independent groups, each
       enumerated on its own within a node budget). A cell free in every assignment is safe, one
       mined in every assignment is a mine.
    3. Otherwise a *random guess*: as in seed 003's pseudocode, a random assignment among those
       enumerated is drawn and one of the cells it leaves free is revealed; with no frontier to
       enumerate, a uniformly random unknown cell.

    It knows nothing of probabilities and never uses the analysis engine. Mines it has deduced
    are remembered (and flagged when ``flag_mines``).

    Parameters
    ----------
    seed : int, optional
        Seeds the random guesses, so a game replays exactly.
    flag_mines : bool
        Also return a flag move for every mine deduced.
    explain : bool
        Attach an explanation to each move.
    node_budget : int
        Most search nodes per frontier group; a group that needs more is treated as giving no
        information (seed 003 reports runs that had to be stopped by hand; this bounds them).

    Examples
    --------
    >>> p = Position.from_text("mines: 1\\n??1.\\n??1.\\n1110")
    >>> PaperStrategy(seed=0).choose(p, None)  # doctest: +NORMALIZE_WHITESPACE
    [Move(kind='reveal', cell=(0, 1), guess=False, explanation=None),
     Move(kind='reveal', cell=(1, 0), guess=False, explanation=None)]

    Notes
    -----
    Propagation is O(cells) per sweep. Backtracking is exponential in the size of a frontier
    group, O(2^k) for k cells, bounded by ``node_budget``.
    """

    name = "paper"
    uses_analysis = False

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, node_budget: int = 200_000) -> None:
        check_flag(flag_mines, "flag_mines")
        check_flag(explain, "explain")
        as_count(node_budget, "node_budget", 1)
        self._rng = random.Random(as_seed(seed))  # -5 would play as 5
        self.flag_mines = flag_mines
        self.explain = explain
        self.node_budget = node_budget
        self._mines: set[Cell] = set()

    def choose(self, position: Position, analysis: Any = None) -> list[Move]:
        # The analysis is not read: the baseline knows nothing of it.
        check_type(position, Position, "PaperStrategy.choose", "Position.from_text reads one")
        states = position.states
        mines = self._mines | set(position.flags) | set(position.shown_mines)
        safe: set[Cell] = set()
        new_mines = _propagate(states, mines, safe)
        reason = "propagation: a number next to it has all its mines found"
        if not safe:
            groups = _frontier_groups(states, mines, safe)
            mines_left = (position.total_mines - len(mines)) if position.total_mines is not None \
                else None
            unknown = [cell for cell in _cells(states == HIDDEN) if cell not in mines]
            frontier_size = sum(len(cells) for cells, _ in groups)
            enumerations = []
            for cells, constraints in groups:
                exact = (mines_left if len(groups) == 1 and frontier_size == len(unknown)
                         else None)
                result = _enumerate(cells, constraints, mines_left, exact, self.node_budget,
                                    self._rng)
                if result is None:
                    continue
                count, mine_counts, sample = result
                enumerations.append((cells, sample))
                for cell, k in zip(cells, mine_counts):
                    if k == 0:
                        safe.add(cell)
                    elif k == count:
                        new_mines.add(cell)
                        mines.add(cell)
            reason = "backtracking: free in every assignment of the frontier"
            if not safe:
                self._mines |= new_mines
                return self._flags(new_mines) + self._guess(unknown, enumerations, mines)
        self._mines |= new_mines
        explanation = reason if self.explain else None
        return self._flags(new_mines) + [Move(REVEAL, cell, explanation=explanation)
                                         for cell in sorted(safe)]

    def _flags(self, cells: Iterable[Cell]) -> list[Move]:
        if not self.flag_mines:
            return []
        explanation = "a mine in every assignment" if self.explain else None
        return [Move(FLAG_MOVE, cell, explanation=explanation) for cell in sorted(cells)]

    def _guess(self, unknown: list[Cell], enumerations: list, mines: set[Cell]) -> list[Move]:
        free = sorted(cell for cells, sample in enumerations
                      for cell, mine in zip(cells, sample) if not mine)
        if free:
            cell = self._rng.choice(free)
            reason = "random guess: a cell free in a random assignment of the frontier"
        else:
            candidates = sorted(c for c in unknown if c not in mines)
            if not candidates:  # every covered cell is a known mine: nothing left to reveal
                return []
            cell = self._rng.choice(candidates)
            reason = "random guess: a random unknown cell"
        return [Move(REVEAL, cell, guess=True, explanation=reason if self.explain else None)]


def _cells(mask: np.ndarray) -> list[Cell]:
    rows, cols = np.nonzero(mask)
    return list(zip(rows.tolist(), cols.tolist()))


def _clues(states: np.ndarray, mines: set[Cell], safe: set[Cell]) -> list[tuple[list[Cell], int]]:
    """Each revealed number with unknown neighbours, as (unknown neighbours, mines missing)."""
    height, width = states.shape
    hidden = (states == HIDDEN) | (states == FLAG)
    near_hidden = neighbour_counts(hidden) > 0
    clues = []
    for cell in _cells((states >= 0) & near_hidden):
        unknown, found = [], 0
        for n in neighbours(cell, height, width):
            if n in mines:
                found += 1
            elif states[n] == HIDDEN and n not in safe:
                unknown.append(n)
        if unknown:
            clues.append((unknown, int(states[cell]) - found))
    return clues


def _propagate(states: np.ndarray, mines: set[Cell], safe: set[Cell]) -> set[Cell]:
    """Apply the two trivial rules until nothing changes; returns the new mines, fills ``safe``."""
    new_mines: set[Cell] = set()
    changed = True
    while changed:
        changed = False
        for unknown, missing in _clues(states, mines, safe):
            if missing == 0:
                safe.update(unknown)
                changed = True
            elif missing == len(unknown):
                mines.update(unknown)
                new_mines.update(unknown)
                changed = True
    return new_mines


def _frontier_groups(states: np.ndarray, mines: set[Cell], safe: set[Cell]):
    """Split the clues into independent groups: (cells, constraints as (indices, missing))."""
    clues = _clues(states, mines, safe)
    parent: dict[Cell, Cell] = {}

    def find(cell: Cell) -> Cell:
        while parent.setdefault(cell, cell) != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for unknown, _ in clues:
        root = find(unknown[0])
        for cell in unknown[1:]:
            parent[find(cell)] = root
    groups: dict[Cell, list] = {}
    for unknown, missing in clues:
        groups.setdefault(find(unknown[0]), []).append((unknown, missing))
    result = []
    for root in sorted(groups):
        cells = sorted({c for unknown, _ in groups[root] for c in unknown})
        index = {c: i for i, c in enumerate(cells)}
        result.append((cells, [([index[c] for c in unknown], missing)
                               for unknown, missing in groups[root]]))
    return result


def _enumerate(cells: list[Cell], constraints: list[tuple[list[int], int]], mines_left: int | None,
               exact: int | None, budget: int, rng: random.Random):
    """Enumerate the mine assignments of one frontier group by backtracking.

    Returns (number of assignments, per-cell mine counts, one assignment drawn uniformly by
    reservoir sampling), or None when there is none or the node budget runs out. With
    ``exact`` only assignments with that many mines count.
    """
    n = len(cells)
    by_cell: list[list[int]] = [[] for _ in range(n)]
    for k, (indices, _) in enumerate(constraints):
        for i in indices:
            by_cell[i].append(k)
    need = [missing for _, missing in constraints]
    room = [len(indices) for indices, _ in constraints]
    assignment = [0] * n
    mine_counts = [0] * n
    tried = [0] * (n + 1)  # the next value to try at each depth; 2 means both were tried
    limit = n if mines_left is None else mines_left
    count = nodes = placed = depth = 0
    sample: list[int] | None = None
    # Iterative depth-first search (no recursion limit on long frontiers).
    while depth >= 0:
        if depth < n and tried[depth] < 2:
            value = tried[depth]
            tried[depth] += 1
            nodes += 1
            if nodes > budget:
                return None
            if value and placed >= limit:
                continue
            if exact is not None and placed + value + (n - depth - 1) < exact:
                continue  # too few cells left to place the mines still missing
            # Each clue must keep 0 <= missing mines <= its unassigned cells.
            if any(not 0 <= need[k] - value <= room[k] - 1 for k in by_cell[depth]):
                continue
            assignment[depth] = value
            placed += value
            for k in by_cell[depth]:
                need[k] -= value
                room[k] -= 1
            depth += 1
            continue
        if depth == n:
            if exact is None or placed == exact:
                count += 1
                for i in range(n):
                    mine_counts[i] += assignment[i]
                if rng.randrange(count) == 0:  # reservoir sampling: uniform over assignments
                    sample = assignment.copy()
        else:
            tried[depth] = 0
        depth -= 1
        if depth >= 0:  # undo the value set at this depth before trying the next one
            value = assignment[depth]
            for k in by_cell[depth]:
                need[k] += value
                room[k] += 1
            placed -= value
            assignment[depth] = 0
    if count == 0:
        return None
    return count, mine_counts, sample
