"""Small positions from seeded games with their analysis, for tests that check a structure
found in an analysis against every layout of the position (:func:`reference.all_layouts`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msanalysis.analysis import analyze
from msanalysis.errors import InconsistentPosition
from msanalysis.position import FLAG, Position
from reference import game_positions


def analysed_positions(count: int, *, start: int, keep: Callable[[Position, Any], bool]
                       ) -> list[tuple[Position, Any]]:
    """The positions of ``count`` seeded games from ``start`` (at most 12 hidden cells) whose
    mine count is known, with no flag and at least one layout, that ``keep`` accepts, with
    their analyses."""
    found = []
    for position in game_positions(count, start=start, max_unknown=12):
        if position.total_mines is None or (position.states == FLAG).any():
            continue
        try:
            analysis = analyze(position)
        except InconsistentPosition:  # a lost game's shown mine may leave no layout
            continue
        if analysis.solutions and keep(position, analysis):
            found.append((position, analysis))
    return found
