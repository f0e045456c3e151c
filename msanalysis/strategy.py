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

import inspect
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import numpy as np

from msanalysis.board import Cell, neighbour_counts, neighbours
from msanalysis.errors import AnalysisTooHard
from msanalysis.longterm import LongTermRisk
from msanalysis.obvious import deciding_number, obvious_cells
from msanalysis.outlook import Outlook
from msanalysis.position import FLAG, HIDDEN, Position

__all__ = ["Move", "Strategy", "Played", "PaperStrategy", "SafestStrategy", "STRATEGIES",
           "make_strategy", "autoplay"]

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

    A strategy may also have ``obvious(position) -> list[Move]``: moves it finds without an
    analysis. :func:`autoplay` asks for those first and analyses the position only when there
    are none; most turns of a game need no analysis.
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
        Times the strategy was asked for moves (its obvious moves, or its choice on an analysis).
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
        :func:`msanalysis.analysis.analyze` with ``forced_only=True`` (it counts only when a
        probability is asked for).
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
        from msanalysis import analysis as engine  # it loads solvers: only when needed

        def analyze(position: Position):
            # Counting is left until the strategy asks for a probability: most turns only need
            # the forced cells.
            return engine.analyze(position, forced_only=True)
    obvious = getattr(strategy, "obvious", None)
    guesses = moves = turns = 0
    while game.status == "playing":
        position = game.position()
        chosen = obvious(position) if obvious is not None else []
        if not chosen:
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
               exact: int | None, budget: int, rng: random.Random, collect: list | None = None):
    """Enumerate the mine assignments of one frontier group by backtracking.

    Returns (number of assignments, per-cell mine counts, one assignment drawn uniformly by
    reservoir sampling), or None when there is none or the node budget runs out. With
    ``exact`` only assignments with that many mines count; ``collect`` receives every one.
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
                if collect is not None:
                    collect.append(assignment.copy())
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


# -- safest ----------------------------------------------------------------------------------------

class SafestStrategy:
    """Reveal every forced safe cell; otherwise the cell least likely to be a mine.

    Probabilities are the exact ones of :func:`msanalysis.analysis.analyze`; ties go to the
    first cell in row-major order, so a game replays exactly without any randomness.

    Parameters
    ----------
    seed : int, optional
        Unused (the strategy is deterministic); accepted like every strategy's.
    flag_mines : bool
        Also flag the forced mines.
    explain : bool
        Attach an explanation to each move.
    quick_look : bool
        Reveal the cells a single number decides without an analysis (see :meth:`obvious`);
        False analyses every turn. The same cells are revealed before each guess either way, so
        the games played are the same: only the time differs.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("mines: 2\\n1??\\n???")
    >>> SafestStrategy().choose(p, analyze(p))
    [Move(kind='reveal', cell=(0, 1), guess=True, explanation=None)]
    """

    name = "safest"
    uses_analysis = True

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, quick_look: bool = True) -> None:
        self.flag_mines = flag_mines
        self.explain = explain
        self.quick_look = quick_look

    def obvious(self, position: Position) -> list[Move]:
        """The safe cells a single number decides (see :func:`_obvious_moves`)."""
        if not self.quick_look:
            return []
        return _obvious_moves(position, flag_mines=self.flag_mines, explain=self.explain)

    def choose(self, position: Position, analysis: Any) -> list[Move]:
        return _forced_then_guess(analysis, lambda: self._guess(analysis),
                                  flag_mines=self.flag_mines, explain=self.explain)

    def _guess(self, analysis: Any) -> Move:
        cell = analysis.best_guess
        explanation = None
        if self.explain:
            explanation = (f"guess: mine probability {analysis.probability(cell):.2%}, the lowest "
                           f"of {len(analysis.constraints.unknown)} unknown cells")
        return Move(REVEAL, cell, guess=True, explanation=explanation)


def _forced_then_guess(analysis: Any, guess: Callable[[], Move], *, flag_mines: bool,
                       explain: bool) -> list[Move]:
    """Every forced move; when there is none and the game goes on, ``guess()``.

    A position too hard to count exactly (``guess`` raises AnalysisTooHard) gets
    :func:`_rough_guess` instead.
    """
    moves = _forced_moves(analysis, flag_mines=flag_mines, explain=explain)
    if analysis.forced_safe or analysis.is_over:
        return moves
    try:
        return moves + [guess()]
    except AnalysisTooHard:
        return moves + [_rough_guess(analysis, explain=explain)]


def _obvious_moves(position: Position, *, flag_mines: bool, explain: bool) -> list[Move]:
    """The safe cells one number decides (see :func:`msanalysis.obvious.obvious_cells`), and
    its mines when asked to flag them; none when no cell is safe that way.

    The cells revealed before each guess are the same as with the analysis alone: a cell safe
    now stays safe, so the analysis still finds every forced cell before a guess is made.
    """
    safe, mines = obvious_cells(position)
    if not safe:
        return []
    moves = []
    if flag_mines:
        reason = "a mine: a number beside it needs all its hidden cells" if explain else None
        moves += [Move(FLAG_MOVE, cell, explanation=reason) for cell in sorted(mines)]
    for cell in sorted(safe):
        reason = None
        if explain:
            number = deciding_number(position, cell, mines)
            reason = f"safe: the {position.states[number]} at {number} has all its mines around it"
        moves.append(Move(REVEAL, cell, explanation=reason))
    return moves


def _rough_guess(analysis: Any, *, explain: bool) -> Move:
    """A guess for a position too hard to count exactly: the lowest local mine density.

    A frontier cell is rated by the densest clue it touches (mines missing over cells), the
    sea by the mines left over the unknown cells; ties go row-major.
    """
    constraints = analysis.constraints
    unknown = [c for c in constraints.unknown if c not in analysis.forced_mines]
    left = constraints.remaining
    sea = (left / len(constraints.unknown)) if left is not None else 0.5
    risk = dict.fromkeys(unknown, sea)
    touched: set[Cell] = set()
    for clue in constraints.clues:
        density = clue.mines / len(clue.cells)
        for cell in clue.cells:
            if cell in risk:
                risk[cell] = density if cell not in touched else max(risk[cell], density)
                touched.add(cell)
    cell = min(unknown, key=lambda c: (risk[c], c))
    explanation = (f"rough guess: exact counting was too hard; local mine density "
                   f"{risk[cell]:.2%}") if explain else None
    return Move(REVEAL, cell, guess=True, explanation=explanation)


def _forced_moves(analysis: Any, *, flag_mines: bool, explain: bool) -> list[Move]:
    """Reveal every forced safe cell (and flag every forced mine when asked), row-major."""
    moves = []
    if flag_mines:
        reason = "a mine in every layout" if explain else None
        moves += [Move(FLAG_MOVE, cell, explanation=reason)
                  for cell in sorted(analysis.forced_mines)]
    reason = "safe in every layout" if explain else None
    moves += [Move(REVEAL, cell, explanation=reason) for cell in sorted(analysis.forced_safe)]
    return moves


# -- best ------------------------------------------------------------------------------------------

_TIE = 1e-9
"""Chances closer than this are ties (float sums of the same exact value may differ by an ulp)."""


class BestStrategy:
    """The default strategy: forced cells first; a guess that is safe and likely to make progress.

    Each turn it reveals every forced safe cell (in :func:`autoplay`, the cells a single number
    decides first, without an analysis: see :meth:`obvious`). When a guess is required:

    1. *Endgame*: when at most ``endgame_layouts`` layouts are left, :class:`_Endgame` lists them
       and searches the sequence of clicks that wins most often; its first click is played.
    2. Otherwise the candidates are the unknown cells whose exact mine probability is within
       ``margin`` of the lowest: the ``candidates`` safest frontier cells, and the
       ``sea_candidates`` sea cells most likely to open a cascade (they all share one
       probability; corners and edges come first).
    3. For each, :class:`~msanalysis.outlook.Outlook` counts exactly, for each number the cell
       may show, how many layouts show it, whether some other cell then becomes safe
       (*progress*), and otherwise how safe the next guess is (the safest cell, blended with the
       second safest: a position with two good guesses is worth more than one with a single
       one). The cell with the best chance of surviving both this guess and the next one it
       leads to is revealed (a guess that makes progress needs no next guess). Candidates are
       examined safest first and dropped as soon as they cannot beat the best so far; ties go
       to the first cell row-major.
    4. With ``fifty_fifty``, a cell of a 50/50 that may form around it (two cells that only
       mines could tell apart, see :class:`msanalysis.longterm.LongTermRisk`) is partly a
       guess that would have to be made anyway: its chance is raised by 0.9 times the share of
       its safe layouts that such a 50/50 accounts for, and such cells join the candidates when
       that may bring them within reach (the weight 0.9 is JSMinesweeper's).

    Parameters
    ----------
    seed : int, optional
        Unused (the strategy is deterministic); accepted like every strategy's.
    flag_mines : bool
        Also flag the forced mines.
    explain : bool
        Attach an explanation to each move.
    quick_look : bool
        Reveal the cells a single number decides without an analysis (see :meth:`obvious`);
        False analyses every turn. The same cells are revealed before each guess either way, so
        the games played are the same: only the time differs.
    margin : float
        How much riskier than the safest cell a candidate may be.
    candidates, sea_candidates : int
        How many frontier cells and sea cells are examined exactly.
    endgame_layouts, endgame_nodes : int
        The most layouts for the exact endgame search, and its budget of sets of layouts
        solved.
    fifty_fifty : bool
        Weigh the 50/50s that may form (step 4).
    blend : float
        How much the second safest next guess counts beside the safest one in step 3 (see
        :meth:`msanalysis.outlook.Outlook.outcomes`); 0 counts the safest only. The default
        0.25 is JSMinesweeper's 4:1.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("mines: 1\\n??\\n11")
    >>> BestStrategy().choose(p, analyze(p))
    [Move(kind='reveal', cell=(0, 0), guess=True, explanation=None)]
    >>> p = Position.from_text("mines: 10\\n1" + "?" * 8 + "\\n" + "\\n".join(["?" * 9] * 8))
    >>> move = BestStrategy(explain=True).choose(p, analyze(p))[0]
    >>> move.cell, move.explanation
    ((0, 8), 'guess: mine probability 11.69% (lowest 11.69%), chance of progress 60.18%')

    Notes
    -----
    One exact count of the position per guess; per candidate, one count of the components it
    touches for each number it may show. The endgame search is exponential in the number of
    layouts, bounded by ``endgame_nodes``.
    """

    name = "best"
    uses_analysis = True

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, margin: float = 0.1, candidates: int = 6,
                 sea_candidates: int = 4, endgame_layouts: int = 1000,
                 endgame_nodes: int = 100_000, fifty_fifty: bool = True,
                 blend: float = 0.25, quick_look: bool = True) -> None:
        self.flag_mines = flag_mines
        self.explain = explain
        self.quick_look = quick_look
        self.margin = margin
        self.candidates = candidates
        self.sea_candidates = sea_candidates
        self.endgame_layouts = endgame_layouts
        self.endgame_nodes = endgame_nodes
        self.fifty_fifty = fifty_fifty
        self.blend = blend

    def obvious(self, position: Position) -> list[Move]:
        """The safe cells a single number decides (see :func:`_obvious_moves`)."""
        if not self.quick_look:
            return []
        return _obvious_moves(position, flag_mines=self.flag_mines, explain=self.explain)

    def choose(self, position: Position, analysis: Any) -> list[Move]:
        return _forced_then_guess(analysis, lambda: self._guess(position, analysis),
                                  flag_mines=self.flag_mines, explain=self.explain)

    def _guess(self, position: Position, analysis: Any) -> Move:
        if (analysis.constraints.remaining is not None
                and analysis.solutions <= self.endgame_layouts):
            solved = _Endgame(analysis, self.endgame_nodes).best()
            if solved is not None:
                cell, chance = solved
                explanation = None
                if self.explain:
                    explanation = (f"endgame: {analysis.solutions} layouts left; revealing this "
                                   f"cell first wins with probability {chance:.2%}, the most of "
                                   f"any sequence of clicks")
                return Move(REVEAL, cell, guess=True, explanation=explanation)
        probabilities = np.array(analysis.probabilities)
        unknown = (position.states == HIDDEN) & (probabilities < 1)
        safe = np.where(np.isnan(probabilities), 1.0, 1.0 - probabilities)
        zero = safe * _neighbour_product(safe)
        p_min = float(probabilities[unknown].min())
        quick = np.where(unknown, zero / np.maximum(safe, 1e-300), 0.0)
        eligible = unknown & (probabilities <= p_min + self.margin + 1e-12)
        score = safe * (1 - p_min * (1 - quick))  # the quick estimate of the value below
        outlook = Outlook(analysis, blend=self.blend)
        # Sea cells are many and alike: the quick estimate picks a few of them; frontier cells go
        # in safest first. All are then examined safest first, so that good values come early
        # and prune the rest.
        sea = np.zeros_like(eligible)
        for cell in analysis.constraints.sea:
            sea[cell] = True
        picked = []
        for mask, key, limit in ((eligible & ~sea, probabilities, self.candidates),
                                 (eligible & sea, -score, self.sea_candidates)):
            rows, cols = np.nonzero(mask)
            order = np.lexsort((cols, rows, key[rows, cols]))[:limit]
            picked += [(int(rows[i]), int(cols[i])) for i in order.tolist()]
        # Cells of 50/50s that may form around them: a guess there is partly a guess that
        # would have to be made anyway (see msanalysis.longterm); they get a bonus, and join
        # the candidates when the bonus may bring them close to the safest.
        bonus: dict[Cell, float] = {}
        if self.fifty_fifty:
            risk = LongTermRisk(analysis)
            solutions = analysis.solutions
            rows, cols = np.nonzero(risk.cells & unknown)
            for cell in zip(rows.tolist(), cols.tolist()):
                influence = risk.influence(cell)
                if influence:
                    safe_layouts = solutions - analysis.mine_layouts(cell)
                    bonus[cell] = 1 + 0.9 * influence / safe_layouts
                    if Fraction(safe_layouts + influence, solutions) >= 0.9 * (1 - p_min) and \
                            cell not in picked:
                        picked.append(cell)
        picked.sort(key=lambda cell: (probabilities[cell], cell))
        best = None
        for cell in picked:
            factor = bonus.get(cell, 1.0)
            # What a cell must beat; values within rounding of the best are ties, which go to
            # the first cell row-major, so they are worked out in full.
            floor = None if best is None else -best[0][0] - _TIE
            if floor is not None and safe[cell] * factor <= floor:
                continue  # even a guess that surely makes progress cannot beat the best
            try:
                found = outlook.lookahead(cell, cutoff=None if floor is None else floor / factor)
            except AnalysisTooHard:  # recounting this cell's component is too hard: estimate
                found = (safe[cell] * (1 - p_min * (1 - quick[cell])), quick[cell])
            if found is None:
                continue  # it cannot beat the best so far
            value, progress = found
            key = (-round(value * factor, 12), cell)
            if best is None or key < best[0]:
                best = (key, cell, progress)
        _, cell, progress = best
        explanation = None
        if self.explain:
            explanation = (f"guess: mine probability {probabilities[cell]:.2%} (lowest "
                           f"{p_min:.2%}), chance of progress {progress:.2%}")
            if cell in bonus:
                explanation += (f"; a 50/50 may form here, which raises its chance by "
                                f"{bonus[cell] - 1:.2%}")
        return Move(REVEAL, cell, guess=True, explanation=explanation)


class _Endgame:
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

    Notes
    -----
    Exponential in the number of layouts in the worst case; bounded by ``node_budget`` sets
    solved, past which :meth:`best` gives up and returns None.
    """

    def __init__(self, analysis: Any, node_budget: int) -> None:
        constraints = analysis.constraints
        height, width = constraints.position.shape
        # Frontier cells first, component by component, so the clues prune the search early.
        cells = [c for component in constraints.components for c in component.cells]
        cells += list(constraints.sea)
        self.cells = cells
        index = {cell: i for i, cell in enumerate(cells)}
        # Layouts as rows of 0/1 over ``cells``, in lexicographic order: the layout numbers
        # only name bits, but a fixed order keeps every float sum below the same.
        layouts = sorted([int(cell in mines) for cell in cells]
                         for mines in analysis.counts.layouts(limit=analysis.solutions))
        self.everything = (1 << len(layouts)) - 1
        mine = np.array(layouts, dtype=np.int16).reshape(len(layouts), len(cells))
        around = [[index[n] for n in neighbours(cell, height, width) if n in index]
                  for cell in cells]
        adjacency = np.zeros((len(cells), len(cells)), dtype=np.int16)
        for i, near in enumerate(around):
            adjacency[near, i] = 1
        known = np.array([sum(n in constraints.known_mines for n in neighbours(c, height, width))
                          for c in cells], dtype=np.int16)
        numbers = mine @ adjacency + known  # numbers[k, i]: what cell i shows in layout k
        # Only cells that are a mine in some layouts and not in others are ever clicked: the
        # others are mines throughout (no cell is safe throughout, or it would be forced).
        mines_in = mine.sum(axis=0)
        live = np.flatnonzero((mines_in > 0) & (mines_in < len(layouts))).tolist()
        self.cells = [cells[i] for i in live]
        self.mines = [_bits(mine[:, i] == 1) for i in live]
        # shows[i]: the sets of layouts in which revealing live cell i shows the same thing: the
        # same number, or for a 0 the same cells opened with the same numbers.
        self.shows: list[list[int]] = []
        for i in live:
            safe = mine[:, i] == 0
            groups = [_bits(safe & (numbers[:, i] == v)) for v in range(1, 9)]
            opened: dict[tuple, int] = {}
            for k in np.flatnonzero(safe & (numbers[:, i] == 0)).tolist():
                seen = _cascade(i, numbers[k], around)
                opened[seen] = opened.get(seen, 0) | (1 << k)
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
                floor = max((chance for chance, _ in options), default=0.0) - _TIE
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
        for i, mines in enumerate(self.mines):  # free information first: a safe cell that
            if mines & layouts:                  # tells the layouts apart
                continue
            if sum(1 for group in self.shows[i] if group & layouts) > 1:
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


def _bits(flags: np.ndarray) -> int:
    """The set of layouts where ``flags`` is true, as an int with bit ``k`` for layout ``k``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def _cascade(start: int, numbers: np.ndarray, around: list[list[int]]) -> tuple:
    """The cells a 0 at ``start`` opens, breadth first as the game does, with their numbers.

    ``numbers[i]`` is what cell ``i`` shows and ``around[i]`` its unknown neighbours.
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


def _neighbour_product(values: np.ndarray) -> np.ndarray:
    """For every cell, the product of ``values`` over its neighbours (1 beyond the edge)."""
    height, width = values.shape
    padded = np.ones((height + 2, width + 2))
    padded[1:-1, 1:-1] = values
    product = np.ones_like(values)
    for dr, dc in _OFFSETS:
        product *= padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return product


STRATEGIES: dict[str, type] = {"paper": PaperStrategy, "safest": SafestStrategy,
                               "best": BestStrategy}
"""Strategy classes by name; each takes keyword arguments ``seed``, ``flag_mines``, ``explain``."""


def make_strategy(name: str, *, seed: int | None = None, flag_mines: bool = False,
                  explain: bool = False, **options: Any) -> Strategy:
    """A fresh strategy object for one game.

    ``options`` go to the strategy's constructor: the parameters of :class:`BestStrategy`, for
    instance, to compare variants of it.

    Raises
    ------
    ValueError
        If no strategy has that name, or it has no such option.

    Examples
    --------
    >>> make_strategy("paper", seed=1).name
    'paper'
    >>> make_strategy("best", blend=0.5).blend
    0.5
    >>> make_strategy("safest", blend=0.5)
    Traceback (most recent call last):
    ...
    ValueError: strategy 'safest' has no option 'blend'
    """
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}; choose one of "
                         f"{', '.join(sorted(STRATEGIES))}") from None
    known = inspect.signature(cls).parameters
    for option in options:
        if option not in known or option in ("seed", "flag_mines", "explain"):
            raise ValueError(f"strategy {name!r} has no option {option!r}")
    return cls(seed=seed, flag_mines=flag_mines, explain=explain, **options)
