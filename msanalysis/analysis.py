"""``analyze(position)``: the one entry point that joins SAT and exact counting.

:func:`analyze` returns an :class:`~msanalysis.whole.Analysis` of a position: forced cells,
exact probabilities, the number of layouts, whether a guess is required and the best one. With
the mine count known and no time limit, a :class:`~msanalysis.tracker.Tracker` of the position
makes it (cheap deductions first, then each component counted exactly); otherwise the whole
position is read as constraints at once (:func:`~msanalysis.whole.analyze_constraints`). Both
give the same answers (the tests check it).
"""

from __future__ import annotations

from msanalysis.errors import as_time_limit, check_flag, check_type
from msanalysis.position import Position
from msanalysis.tracker import Tracker
from msanalysis.whole import Analysis, analyze_constraints

__all__ = ["Analysis", "analyze", "analyze_constraints"]


def analyze(position: Position, *, ignore_flags: bool = False, time_limit: float | None = None,
            forced_only: bool = False) -> Analysis:
    """Analyse a position exactly: forced cells, probabilities, layouts, the best guess.

    Parameters
    ----------
    position : Position
    ignore_flags : bool
        Read flags as hidden cells; by default they count as mines (a wrong flag is reported).
    time_limit : float, optional
        Seconds allowed for the whole analysis, SAT included; past it the analysis is partial
        (``exact`` False): the forced cells found so far (``all_forced`` says whether that is
        all of them), no counts.
    forced_only : bool
        Find forced cells now and leave counting until a count or probability is asked for.

    Returns
    -------
    Analysis

    Raises
    ------
    InconsistentPosition
        When no layout fits, naming a minimal set of clues that cannot all hold.

    Notes
    -----
    A full analysis of a position with a known mine count is made by a
    :class:`~msanalysis.tracker.Tracker` of the position (cheap deductions first, then each
    component counted exactly with its proven cells left out, then the mine count); the
    constraints of the whole position and the counts per component are made when asked for.
    With ``forced_only``, forced cells come from SAT: one incremental solver per component (one
    joined by the mine count when the count may decide a cell), one question per box (see
    :func:`msanalysis.sat.forced_cells`). Otherwise they are read off the
    exact counts (a box with no mine, or all mines, in every layout), which are needed anyway:
    asking SAT as well would answer the same questions twice (the tests check that both agree).
    Counting is polynomial in the number of boxes and exponential only in the treewidth of each
    component (see :func:`msanalysis.counting.count_component`).

    Examples
    --------
    >>> a = analyze(Position.from_text("mines: 2\\n????\\n121?\\n...?"))
    >>> sorted(a.forced_safe), sorted(a.forced_mines)
    ([(0, 1), (0, 3), (1, 3), (2, 3)], [(0, 0), (0, 2)])
    >>> a.solutions, a.requires_guess
    (1, False)
    >>> a = analyze(Position.from_text("mines: 1\\n??\\n11"))
    >>> a.solutions, a.requires_guess, a.best_guess, a.probability((0, 0))
    (2, True, (0, 0), 0.5)
    """
    check_type(position, Position, "analyze", "Position.from_text reads one; Game(board)"
               ".position() shows a board as a player sees it")
    check_flag(ignore_flags, "ignore_flags")
    check_flag(forced_only, "forced_only")
    time_limit = as_time_limit(time_limit)
    if not forced_only and time_limit is None and position.total_mines is not None:
        analysis = Tracker.from_position(position, ignore_flags=ignore_flags).analysis
        _ = analysis.solutions  # counting too hard raises here, as below
        return analysis
    return analyze_constraints(position, ignore_flags=ignore_flags, time_limit=time_limit,
                               forced_only=forced_only)
