"""``safest``: reveal every forced cell; otherwise the cell least likely to be a mine."""

from __future__ import annotations

from typing import Any

from msanalysis.play.autoplay import REVEAL, Move
from msanalysis.play.forced import ForcedFirst
from msanalysis.position import Position

__all__ = ["SafestStrategy"]


class SafestStrategy(ForcedFirst):
    """Reveal every forced safe cell; otherwise the cell least likely to be a mine.

    Probabilities are the exact ones of :func:`msanalysis.analysis.analyze`; ties go to the
    first cell in row-major order, so a game replays exactly without any randomness.

    Parameters
    ----------
    seed : int, optional
        Unused (the strategy is deterministic); accepted like every strategy's.
    flag_mines, explain, quick_look : bool
        As for :class:`~msanalysis.play.forced.ForcedFirst`.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> p = Position.from_text("mines: 2\\n1??\\n???")
    >>> SafestStrategy().choose(p, analyze(p))
    [Move(kind='reveal', cell=(0, 1), guess=True, explanation=None)]
    """

    name = "safest"

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, quick_look: bool = True) -> None:
        super().__init__(seed=seed, flag_mines=flag_mines, explain=explain,
                         quick_look=quick_look)

    def guess(self, position: Position, analysis: Any) -> Move:
        self._check(position, analysis, "guess")
        cell = analysis.best_guess
        explanation = None
        if self.explain:
            explanation = (f"guess: mine probability {analysis.probability(cell):.2%}, the lowest "
                           f"of {len(analysis.constraints.unknown)} unknown cells")
        return Move(REVEAL, cell, guess=True, explanation=explanation)
