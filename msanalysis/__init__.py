"""msanalysis: exact Minesweeper analysis with SAT and constraint solvers.

>>> from msanalysis import Board, Position
>>> Board.from_text("*.\\n..").numbers.tolist()
[[0, 1], [1, 1]]

Names are imported lazily, on first use, so that ``import msanalysis`` stays fast: the solvers
behind some of them (OR-Tools in particular) take a while to load.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_EXPORTS = {
    "Board": "board",
    "Position": "position",
    "Game": "game",
    "generate": "rules",
    "DIFFICULTIES": "rules",
    "Move": "strategy",
    "make_strategy": "strategy",
    "autoplay": "strategy",
    "PlaySpec": "bench",
    "solve_without_guessing": "noguess",
    "analyze": "analysis",
    "Analysis": "analysis",
    "explain": "sat",
    "Explanation": "sat",
    "reconstruct": "reconstruction",
    "Reconstruction": "reconstruction",
    "NumberGrid": "reconstruction",
    "ParseError": "errors",
    "InconsistentPosition": "errors",
    "AnalysisTooHard": "errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'msanalysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"msanalysis.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))

