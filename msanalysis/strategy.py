"""Choosing moves, and playing whole games with them.

A strategy looks at a :class:`~msanalysis.position.Position` (and, when it wants one, the
:class:`~msanalysis.analysis.Analysis` of it) and returns the moves to make next: every cell it
knows to be safe at once, or one guess. :func:`autoplay` applies the moves to a
:class:`~msanalysis.game.Game` until it is won or lost. Running many seeded games and measuring
the win rate is :mod:`msanalysis.bench`'s job.

Strategies shipped here:

- ``paper``: seed 003's solver, the baseline. Constraint propagation with the two trivial rules,
  backtracking enumeration of the frontier, otherwise a random guess. It never uses the analysis
  engine.
- ``safest``: reveal the forced safe cells; otherwise the cell with the lowest exact mine
  probability, ties broken row-major.
- ``best`` (the default): as ``safest``, but among nearly-as-safe cells it prefers the one most
  likely to make progress, and it solves small endgames exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from msanalysis.board import Cell
from msanalysis.position import FLAG, HIDDEN, Position

__all__ = ["Move", "Strategy", "Played", "PaperStrategy", "STRATEGIES", "make_strategy",
           "autoplay"]

REVEAL, FLAG_MOVE = "reveal", "flag"


@dataclass(frozen=True)
class Move:
    """One action on the board.

    Parameters
    ----------
    kind : {"reveal", "flag"}
    cell : (row, col)
    guess : bool
        True for a reveal that may hit a mine (the strategy could not prove the cell safe).
    explanation : str, optional
        Why the strategy chose this move; filled in only when the strategy was asked to explain.
        It takes no part in comparisons.

    Examples
    --------
    >>> Move("reveal", (2, 3))
    Move(kind='reveal', cell=(2, 3), guess=False, explanation=None)
    >>> Move("reveal", (2, 3), explanation="why") == Move("reveal", (2, 3))
    True
    """

    kind: str
    cell: Cell
    guess: bool = False
    explanation: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in (REVEAL, FLAG_MOVE):
            raise ValueError(f"unknown move kind {self.kind!r}; expected 'reveal' or 'flag'")


@runtime_checkable
class Strategy(Protocol):
    """What :func:`autoplay` needs from a strategy.

    ``uses_analysis`` says whether :func:`autoplay` should pass the
    :class:`~msanalysis.analysis.Analysis` of each position (otherwise it passes None).
    ``choose`` returns at least one move while the game is being played. A strategy object plays
    one game: it may keep state between turns, and its random choices come from the seed it was
    made with, so a game replays exactly.
    """

    name: str
    uses_analysis: bool

    def choose(self, position: Position, analysis: Any) -> list[Move]:
        ...


@dataclass(frozen=True)
class Played:
    """How a game played by :func:`autoplay` went.

    Attributes
    ----------
    status : {"won", "lost"}
    guesses : int
        Reveals the strategy could not prove safe (the first click is not counted).
    moves : int
        Moves applied, first click excluded.
    turns : int
        Times the strategy was asked for moves (each one analysis, for strategies that use one).
    """

    status: str
    guesses: int
    moves: int
    turns: int

    @property
    def won(self) -> bool:
        return self.status == "won"


def autoplay(game, strategy: Strategy, *, analyze: Callable[[Position], Any] | None = None,
             on_move: Callable[[Move], None] | None = None) -> Played:
    """Play ``game`` with ``strategy`` until it is won or lost.

    Parameters
    ----------
    game : Game
        A game whose first click is made (see :meth:`msanalysis.game.Game.started`); it is
        changed in place.
    strategy : Strategy
    analyze : callable, optional
        Position -> Analysis, used when ``strategy.uses_analysis``; default
        :func:`msanalysis.analysis.analyze`.
    on_move : callable, optional
        Called with every move applied, in order.

    Returns
    -------
    Played

    Raises
    ------
    RuntimeError
        If the strategy returns no move, or moves that change nothing, while the game goes on
        (this would otherwise loop forever).

    Examples
    --------
    >>> from msanalysis.game import Game
    >>> game = Game.started(9, 9, 10, first_click=(0, 0), seed=3)
    >>> played = autoplay(game, make_strategy("paper", seed=3))
    >>> played.status == game.status != "playing"
    True
    """
    if analyze is None and getattr(strategy, "uses_analysis", True):
        from msanalysis.analysis import analyze  # the engine loads solvers; only when needed
    guesses = moves = turns = 0
    while game.status == "playing":
        position = game.position()
        analysis = analyze(position) if getattr(strategy, "uses_analysis", True) else None
        chosen = strategy.choose(position, analysis)
        turns += 1
        if not chosen:
            raise RuntimeError(f"strategy {strategy.name!r} chose no move in a game still being "
                               f"played:\n{position.to_text()}")
        changed = False
        for move in chosen:
            if move.kind == REVEAL:
                if game.is_revealed(move.cell) or game.is_flagged(move.cell):
                    continue  # an earlier move's cascade already opened it
                game.reveal(move.cell)
                guesses += move.guess
            else:
                if game.is_flagged(move.cell) or game.is_revealed(move.cell):
                    continue
                game.flag(move.cell)
            changed = True
            moves += 1
            if on_move is not None:
                on_move(move)
            if game.status != "playing":
                break
        if not changed:
            raise RuntimeError(f"strategy {strategy.name!r} chose only moves that change "
                               f"nothing: {chosen}")
    return Played(game.status, guesses, moves, turns)


# -- paper: seed 003's solver ----------------------------------------------------------------------

_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


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
    >>> PaperStrategy(seed=0).choose(p, None)
    [Move(kind='reveal', cell=(0, 1), guess=False, explanation=None), Move(kind='reveal', cell=(1, 0), guess=False, explanation=None)]

    Notes
    -----
    Propagation is O(cells) per sweep. Backtracking is exponential in the size of a frontier
    group, O(2^k) for k cells, bounded by ``node_budget``.
    """

    name = "paper"
    uses_analysis = False

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, node_budget: int = 200_000) -> None:
        self._rng = random.Random(seed)
        self.flag_mines = flag_mines
        self.explain = explain
        self.node_budget = node_budget
        self._mines: set[Cell] = set()

    def choose(self, position: Position, analysis: Any = None) -> list[Move]:
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


def _around(cell: Cell, height: int, width: int) -> Iterator[Cell]:
    row, col = cell
    for dr, dc in _OFFSETS:
        r, c = row + dr, col + dc
        if 0 <= r < height and 0 <= c < width:
            yield (r, c)


def _clues(states: np.ndarray, mines: set[Cell], safe: set[Cell]) -> list[tuple[list[Cell], int]]:
    """Each revealed number with unknown neighbours, as (unknown neighbours, mines missing)."""
    height, width = states.shape
    hidden = (states == HIDDEN) | (states == FLAG)
    near_hidden = np.zeros_like(hidden)
    padded = np.pad(hidden, 1)
    for dr, dc in _OFFSETS:
        near_hidden |= padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    clues = []
    for cell in _cells((states >= 0) & near_hidden):
        unknown, found = [], 0
        for n in _around(cell, height, width):
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
    reservoir sampling), or None when there is none or the node budget runs out.
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


STRATEGIES: dict[str, type] = {"paper": PaperStrategy}
"""Strategy classes by name; each takes keyword arguments ``seed``, ``flag_mines``, ``explain``."""


def make_strategy(name: str, *, seed: int | None = None, flag_mines: bool = False,
                  explain: bool = False) -> Strategy:
    """A fresh strategy object for one game.

    Raises
    ------
    ValueError
        If no strategy has that name.

    Examples
    --------
    >>> make_strategy("paper", seed=1).name
    'paper'
    """
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; choose one of "
                         f"{', '.join(sorted(STRATEGIES))}") from None
    return cls(seed=seed, flag_mines=flag_mines, explain=explain)
