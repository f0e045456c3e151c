"""Playing a game with a strategy: moves, the strategy protocol, and :func:`autoplay`.

A strategy looks at a :class:`~msanalysis.position.Position` (and, when it wants one, the
:class:`~msanalysis.analysis.Analysis` of it) and returns the moves to make next: every cell it
knows to be safe at once, or one guess. :func:`autoplay` applies the moves to a
:class:`~msanalysis.game.Game` until it is won or lost. The strategies themselves live beside this
module (:mod:`msanalysis.play.strategies` names them); running many seeded games and measuring
the win rate is :mod:`msanalysis.play.bench`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import numpy as np

from msanalysis.board import Cell
from msanalysis.errors import (
    InvalidInput,
    WrongType,
    a_name,
    check_function,
    check_list,
    check_type,
)
from msanalysis.game import Game
from msanalysis.position import Position

__all__ = ["Move", "MoveKind", "Played", "Strategy", "autoplay"]


class MoveKind(StrEnum):
    """What a :class:`Move` does."""

    REVEAL = "reveal"
    FLAG = "flag"

    def __repr__(self) -> str:
        return repr(self.value)


REVEAL, FLAG_MOVE = MoveKind.REVEAL, MoveKind.FLAG


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

    kind: MoveKind
    cell: Cell
    guess: bool = False
    explanation: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", MoveKind(self.kind))
        except ValueError:
            raise InvalidInput(f"unknown move kind {self.kind!r}; expected 'reveal' or 'flag'") \
                from None


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

    A strategy that reveals every forced safe cell before it guesses may say so with
    ``proven(safe, mines) -> list[Move]``, the moves for cells just proven safe or mines.
    :func:`autoplay`, following the game with a tracker, then hands it the cells each step of
    the tracker's deductions proves, cheapest reasoning first, as soon as they are proven, and
    asks ``choose`` only when nothing more can be proven: the cells revealed before each guess
    are the same whatever the order, and the harder reasoning is asked far less often.

    Examples
    --------
    A strategy of one's own: every forced safe cell, else the likeliest safe cell.

    >>> from msanalysis import Board, Game
    >>> class Lowest:
    ...     name, uses_analysis = "lowest", True
    ...     def choose(self, position, analysis):
    ...         if analysis.forced_safe:
    ...             return [Move("reveal", cell) for cell in sorted(analysis.forced_safe)]
    ...         return [Move("reveal", analysis.best_guess, guess=True)]
    >>> game = Game(Board.from_text("*....\\n.....\\n.....\\n....*"))
    >>> _ = game.reveal((2, 2))
    >>> played = autoplay(game, Lowest())
    >>> played.status, played.guesses
    ('won', 0)
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
        Times the strategy was asked for moves (its obvious moves, its moves for the cells a
        step of deductions proved, or its choice on an analysis).
    """

    status: str
    guesses: int
    moves: int
    turns: int

    @property
    def won(self) -> bool:
        return self.status == "won"


def autoplay(game: Game, strategy: Strategy, *, analyze: Callable[[Position], Any] | None = None,
             on_move: Callable[[Move], None] | None = None) -> Played:
    """Play ``game`` with ``strategy`` until it is won or lost.

    Parameters
    ----------
    game : Game
        A game whose first click is made (see :meth:`msanalysis.game.Game.started`); it is
        changed in place.
    strategy : Strategy
    analyze : callable, optional
        Position -> Analysis, used when ``strategy.uses_analysis``, each turn after the
        strategy's quick look. By default a :class:`~msanalysis.tracker.Tracker` follows the
        game instead and keeps the analysis up to date click by click (the same analysis as
        :func:`msanalysis.analysis.analyze`'s, so the same moves).
    on_move : callable, optional
        Called with every move applied, in order.

    Returns
    -------
    Played

    Raises
    ------
    WrongType
        If ``strategy`` is not a strategy, or its ``choose`` returns something other than a
        list of moves.
    InvalidInput
        If the strategy returns no move, or moves that change nothing, while the game goes on
        (this would otherwise loop forever).

    Examples
    --------
    >>> from msanalysis.play.strategies import make_strategy
    >>> game = Game.started(9, 9, 10, first_click=(0, 0), seed=3)
    >>> played = autoplay(game, make_strategy("paper", seed=3))
    >>> played.status == game.status != "playing"
    True
    """
    check_type(game, Game, "autoplay", "Game(board), or Game.started(...)")
    # The one thing a strategy must have is choose; numpy's numbers and arrays have a choose of
    # their own.
    if isinstance(strategy, (np.generic, np.ndarray)) or not callable(
            getattr(strategy, "choose", None)):
        hint = f" (make_strategy({strategy!r}) makes one)" if isinstance(strategy, str) else ""
        raise WrongType(f"autoplay plays a strategy object, got {a_name(type(strategy).__name__)}"
                        f"{hint}")
    for name, function in (("analyze", analyze), ("on_move", on_move)):
        check_function(function, f"autoplay's {name} is a function")
    uses_analysis = getattr(strategy, "uses_analysis", True)
    if uses_analysis and analyze is None:
        return _follow(game, strategy, on_move)
    obvious = getattr(strategy, "obvious", None)

    def choose() -> list[Move]:
        position = game.position()
        chosen = obvious(position) if obvious is not None else []
        if not chosen:
            analysis = analyze(position) if uses_analysis and analyze is not None else None
            chosen = strategy.choose(position, analysis)
        return chosen

    return _play(game, strategy, choose, game, on_move)


class _Board(Protocol):
    """What moves are applied to: the game itself, or a tracker that follows it."""

    def is_revealed(self, cell: Cell) -> bool: ...
    def is_flagged(self, cell: Cell) -> bool: ...
    def reveal(self, cell: Cell) -> Any: ...
    def flag(self, cell: Cell) -> Any: ...


def _play(game: Game, strategy: Strategy, choose: Callable[[], list[Move]], board: _Board,
          on_move: Callable[[Move], None] | None) -> Played:
    """Ask ``choose`` for moves and apply them to ``board`` until ``game`` is over."""
    guesses = moves = turns = 0
    while game.status == "playing":
        chosen = choose()
        turns += 1
        check_list(chosen, f"strategy {_name(strategy)!r} must choose a list of moves")
        if not chosen:
            raise InvalidInput(f"strategy {_name(strategy)!r} chose no move in a game still "
                               f"being played:\n{game.position().to_text()}")
        changed = False
        for move in chosen:
            if not isinstance(move, Move):
                raise WrongType(f"strategy {_name(strategy)!r} chose {move!r}, not a Move")
            if board.is_revealed(move.cell) or board.is_flagged(move.cell):
                continue  # an earlier move's cascade already opened it
            if move.kind == REVEAL:
                board.reveal(move.cell)
                guesses += move.guess
            else:
                board.flag(move.cell)
            changed = True
            moves += 1
            if on_move is not None:
                on_move(move)
            if game.status != "playing":
                break
        if not changed:
            raise InvalidInput(f"strategy {_name(strategy)!r} chose only moves that change "
                               f"nothing: {chosen}")
    return Played(game.status, guesses, moves, turns)


def _name(strategy: Strategy) -> str:
    """The strategy's name for a message (one of one's own may have none)."""
    return str(getattr(strategy, "name", type(strategy).__name__))


def _follow(game: Game, strategy: Strategy,
            on_move: Callable[[Move], None] | None) -> Played:
    """:func:`autoplay` with the analysis kept up to date by a
    :class:`~msanalysis.tracker.Tracker` that follows the game, instead of made again from
    the position every turn.

    The strategy's quick look (``obvious``) is not asked for: the tracker finds those cells
    for less. A strategy with ``proven`` is given each step of the tracker's deductions as
    soon as it is found (see :class:`Strategy`). The cells revealed before each guess are the
    same (every cell proven safe is revealed before a guess, whatever the order), and so is
    every guess.
    """
    from msanalysis.tracker import Tracker  # it loads the solvers: only when needed

    tracker = Tracker.from_game(game)
    proven = getattr(strategy, "proven", None)

    def choose() -> list[Move]:
        if proven is not None:
            # Settling the whole position every turn would end each turn with a pass of every
            # grade that finds nothing; a step stops at the first grade that finds something.
            while (step := tracker.step()) is not None:
                moves = proven(step.safe, step.mines)
                if moves:
                    return moves
        analysis = tracker.analysis
        return strategy.choose(analysis.position, analysis)

    return _play(game, strategy, choose, tracker, on_move)
