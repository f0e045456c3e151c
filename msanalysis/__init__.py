"""msanalysis: exact Minesweeper analysis with SAT and constraint solvers.

>>> from msanalysis import Board, Position
>>> Board.from_text("*.\\n..").numbers.tolist()
[[0, 1], [1, 1]]

Names are imported lazily, on first use, so that ``import msanalysis`` stays fast: the solvers
behind some of them (OR-Tools in particular) take a while to load. The layers and what each
module holds are described in ``docs/ARCHITECTURE.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Board": "board",
    "Position": "position",
    "Game": "game",
    "DIFFICULTIES": "rules",
    "FirstClick": "rules",
    "generate": "play.noguess",
    "generate_no_guess": "play.noguess",
    "solve_without_guessing": "play.noguess",
    "Move": "play.autoplay",
    "autoplay": "play.autoplay",
    "make_strategy": "play.strategies",
    "PlaySpec": "play.bench",
    "Replay": "replay",
    "load_replay": "replay",
    "save_replay": "replay",
    "analyze_replay": "play.judge",
    "ReplayAnalysis": "play.judge",
    "analyze": "analysis",
    "Tracker": "tracker",
    "Analysis": "analysis",
    "explain": "sat",
    "Explanation": "sat",
    "reconstruct": "reconstruction",
    "Reconstruction": "reconstruction",
    "NumberGrid": "numbergrid",
    "MsanalysisError": "errors",
    "ParseError": "errors",
    "InconsistentPosition": "errors",
    "IllegalMove": "errors",
    "InvalidInput": "errors",
    "NoLayout": "errors",
    "AnalysisTooHard": "errors",
    "TimeLimitReached": "errors",
    "WrongType": "errors",
    "Explorer": "explorer",
}

__all__ = [
    "DIFFICULTIES",
    "Analysis",
    "AnalysisTooHard",
    "Board",
    "Explanation",
    "Explorer",
    "FirstClick",
    "Game",
    "IllegalMove",
    "InconsistentPosition",
    "InvalidInput",
    "Move",
    "MsanalysisError",
    "NoLayout",
    "NumberGrid",
    "ParseError",
    "PlaySpec",
    "Position",
    "Reconstruction",
    "Replay",
    "ReplayAnalysis",
    "TimeLimitReached",
    "Tracker",
    "WrongType",
    "analyze",
    "analyze_replay",
    "autoplay",
    "explain",
    "generate",
    "generate_no_guess",
    "load_replay",
    "make_strategy",
    "reconstruct",
    "save_replay",
    "solve_without_guessing",
]

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from msanalysis.analysis import Analysis, analyze
    from msanalysis.board import Board
    from msanalysis.errors import (
        AnalysisTooHard,
        IllegalMove,
        InconsistentPosition,
        InvalidInput,
        MsanalysisError,
        NoLayout,
        ParseError,
        TimeLimitReached,
        WrongType,
    )
    from msanalysis.explorer import Explorer
    from msanalysis.game import Game
    from msanalysis.numbergrid import NumberGrid
    from msanalysis.play.autoplay import Move, autoplay
    from msanalysis.play.bench import PlaySpec
    from msanalysis.play.judge import ReplayAnalysis, analyze_replay
    from msanalysis.play.noguess import generate, generate_no_guess, solve_without_guessing
    from msanalysis.play.strategies import make_strategy
    from msanalysis.position import Position
    from msanalysis.reconstruction import Reconstruction, reconstruct
    from msanalysis.replay import Replay, load_replay, save_replay
    from msanalysis.rules import DIFFICULTIES, FirstClick
    from msanalysis.sat import Explanation, explain
    from msanalysis.tracker import Tracker


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'msanalysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"msanalysis.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
