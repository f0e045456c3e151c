"""Forced moves first, a guess only when none is left: what ``safest`` and ``best`` share.

:class:`ForcedFirst` reveals the cells a single number decides without an analysis (the quick
look of :mod:`msanalysis.obvious`), then every forced cell of the analysis, and asks its
subclass for a guess only when no cell is forced safe; a position too hard to count exactly gets
a rough guess by local mine density instead. Which guess to make is the subclasses' job.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msanalysis.board import Cell
from msanalysis.errors import AnalysisTooHard, check_flag, check_type
from msanalysis.obvious import deciding_number, obvious_cells
from msanalysis.play.autoplay import FLAG_MOVE, REVEAL, Move
from msanalysis.position import Position
from msanalysis.rules import as_seed

__all__ = ["ForcedFirst", "cell_moves", "forced_moves", "forced_then_guess", "obvious_moves",
           "rough_guess"]


class ForcedFirst:
    """Base of the strategies that reveal every forced cell and guess only when they must.

    Parameters
    ----------
    seed : int, optional
        Checked like every strategy's (see :func:`~msanalysis.rules.as_seed`); the strategies
        built on this one guess without chance and use none.
    flag_mines : bool
        Also flag the forced mines.
    explain : bool
        Attach an explanation to each move.
    quick_look : bool
        Reveal the cells a single number decides without an analysis (see :meth:`obvious`);
        False analyses every turn. The same cells are revealed before each guess either way, so
        the games played are the same: only the time differs.
    """

    name = "forced-first"
    uses_analysis = True

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, quick_look: bool = True) -> None:
        as_seed(seed)  # "abc" or -1 is a mistake here as with paper, which uses its seed
        for flag, name in ((flag_mines, "flag_mines"), (explain, "explain"),
                           (quick_look, "quick_look")):
            check_flag(flag, name)
        self.flag_mines = flag_mines
        self.explain = explain
        self.quick_look = quick_look

    def obvious(self, position: Position) -> list[Move]:
        """The safe cells a single number decides (see :func:`obvious_moves`)."""
        if not self.quick_look:
            return []
        return obvious_moves(position, flag_mines=self.flag_mines, explain=self.explain)

    def proven(self, safe: Iterable[Cell], mines: Iterable[Cell]) -> list[Move]:
        """The moves for cells just proven safe (and mines, flagged when asked).

        This strategy reveals every forced cell before it guesses, and in any order the cells
        revealed before a guess are the same: :func:`~msanalysis.play.autoplay.autoplay` hands
        it the cells a tracker proves as it proves them."""
        return cell_moves(safe, mines, flag_mines=self.flag_mines, explain=self.explain)

    def choose(self, position: Position, analysis: Any) -> list[Move]:
        self._check(position, analysis, "choose")
        return forced_then_guess(analysis, lambda: self.guess(position, analysis),
                                 flag_mines=self.flag_mines, explain=self.explain)

    def guess(self, position: Position, analysis: Any) -> Move:
        """The guess to make when no cell is forced safe."""
        raise NotImplementedError

    def _check(self, position: Any, analysis: Any, method: str) -> None:
        """Refuse what is not a position and its analysis, naming ``method``: checks of type
        alone, for a strategy chooses at every move of every game."""
        from msanalysis.analysis import Analysis  # it loads the solvers: only when asked

        if isinstance(position, Position) and isinstance(analysis, Analysis):
            return
        taker = f"{type(self).__name__}.{method}"
        check_type(position, Position, taker, "Position.from_text reads one")
        check_type(analysis, Analysis, taker, "analyze(position) makes one")


def forced_then_guess(analysis: Any, guess: Callable[[], Move], *, flag_mines: bool,
                       explain: bool) -> list[Move]:
    """Every forced move; when there is none and the game goes on, ``guess()``.

    A position too hard to count exactly (``guess`` raises AnalysisTooHard) gets
    :func:`rough_guess` instead.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("mines: 1\\n??\\n11")
    >>> forced_then_guess(analyze(p), lambda: Move(REVEAL, (0, 0), guess=True),
    ...                   flag_mines=False, explain=False)
    [Move(kind='reveal', cell=(0, 0), guess=True, explanation=None)]
    """
    moves = forced_moves(analysis, flag_mines=flag_mines, explain=explain)
    if analysis.forced_safe or analysis.is_over:
        return moves
    try:
        return [*moves, guess()]
    except AnalysisTooHard:
        return [*moves, rough_guess(analysis, explain=explain)]


def obvious_moves(position: Position, *, flag_mines: bool, explain: bool) -> list[Move]:
    """The safe cells one number decides (see :func:`msanalysis.obvious.obvious_cells`), and
    its mines when asked to flag them; none when no cell is safe that way.

    The cells revealed before each guess are the same as with the analysis alone: a cell safe
    now stays safe, so the analysis still finds every forced cell before a guess is made.

    Examples
    --------
    The 1 at (2, 0) has one hidden cell, a mine, which is all the 1s beside it need:

    >>> p = Position.from_text("1??\\n1??\\n11?")
    >>> [(m.kind, m.cell) for m in obvious_moves(p, flag_mines=True, explain=False)]
    [('flag', (1, 1)), ('reveal', (0, 1)), ('reveal', (1, 2)), ('reveal', (2, 2))]
    >>> obvious_moves(p, flag_mines=False, explain=True)[0].explanation
    'safe: the 1 at (0, 0) has all its mines around it'
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


def rough_guess(analysis: Any, *, explain: bool) -> Move:
    """A guess for a position too hard to count exactly: the lowest local mine density.

    A frontier cell is rated by the densest clue it touches (mines missing over cells), the
    sea by the mines left over the unknown cells; ties go row-major.

    Examples
    --------
    The cells below the two 1s are a mine in 1 of 4 by the lower 1 (the densest they touch),
    the sea 2 in 7:

    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("mines: 2\\n1??\\n1??\\n???")
    >>> rough_guess(analyze(p), explain=True).explanation
    'rough guess: exact counting was too hard; local mine density 25.00%'
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


def forced_moves(analysis: Any, *, flag_mines: bool, explain: bool) -> list[Move]:
    """Reveal every forced safe cell (and flag every forced mine when asked), row-major.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> a = analyze(Position.from_text("1??\\n1??\\n11?"))
    >>> [(m.kind, m.cell) for m in forced_moves(a, flag_mines=True, explain=False)]
    [('flag', (1, 1)), ('reveal', (0, 1)), ('reveal', (1, 2)), ('reveal', (2, 2))]
    """
    return cell_moves(analysis.forced_safe, analysis.forced_mines, flag_mines=flag_mines,
                      explain=explain)


def cell_moves(safe: Iterable[Cell], mines: Iterable[Cell], *, flag_mines: bool,
               explain: bool) -> list[Move]:
    """Reveal the ``safe`` cells (after flagging the ``mines`` when asked), row-major.

    Examples
    --------
    >>> [(m.kind.value, m.cell) for m in cell_moves([(2, 0), (0, 1)], [(1, 1)], flag_mines=True,
    ...                                              explain=False)]
    [('flag', (1, 1)), ('reveal', (0, 1)), ('reveal', (2, 0))]
    """
    moves = []
    if flag_mines:
        reason = "a mine in every layout" if explain else None
        moves += [Move(FLAG_MOVE, cell, explanation=reason) for cell in sorted(mines)]
    reason = "safe in every layout" if explain else None
    moves += [Move(REVEAL, cell, explanation=reason) for cell in sorted(safe)]
    return moves
