"""A live board for Jupyter: play, edit or replay a position and watch the analysis change.

:class:`Explorer` is an anywidget (JupyterLab, Notebook 7, VS Code, Colab). Python is the source
of truth: it holds the game, the position and its analysis, and the browser only draws them and
reports clicks. The board travels compactly: one character per cell and, for each hidden cell,
the key of the group of interchangeable cells (the analysis's box) it belongs to, with one table
entry per group for its colour and percentage. A click sends only the cells whose state or group
changed and the new table, never the whole board: the mine count ties every probability on the
board to every other, so the table changes everywhere, but the cells mostly do not.

The look is :func:`msanalysis.svg.board`'s: the same colours, symbols, percentages and outlines,
computed here with svg's own functions. The analysis of each position comes from one function
(:func:`analyse`, ``analyze`` from scratch with a time limit), which an incremental analyser can
replace. Without a widget front end (nbconvert, GitHub) the explorer shows as the SVG picture.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

try:
    import anywidget
    import traitlets
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("the explorer needs anywidget and ipywidgets: "
                      "pip install 'msanalysis[explorer]'") from error

from msanalysis import svg
from msanalysis.analysis import Analysis, analyze
from msanalysis.board import Board, Cell, as_cell, as_count, as_int, check_size
from msanalysis.errors import (
    AnalysisTooHard,
    IllegalMove,
    InconsistentPosition,
    InvalidInput,
    MsanalysisError,
    ParseError,
    WrongType,
    a_name,
    check_flag,
    check_function,
    mines_do_not_fit,
)
from msanalysis.exact import fraction_text, magnitude
from msanalysis.formats import read_any
from msanalysis.game import Game
from msanalysis.play.judge import Judgement, ReplayAnalysis, analyze_replay
from msanalysis.play.noguess import generate
from msanalysis.position import FLAG, HIDDEN, MINE, Position
from msanalysis.replay import REPLAY_SUFFIXES, Replay, apply_action, load_replay
from msanalysis.rules import RULES, default_first_click

__all__ = ["DEFAULT_TIME_LIMIT", "MODES", "Explorer", "analyse"]

MODES = ("play", "edit", "replay")
"""What a click on the board does: play the game, edit the position, or explain (replay)."""

DEFAULT_TIME_LIMIT = 2.0
"""Seconds of exact counting per position; past it the analysis shows forced cells only."""

REPLAY_TIME_LIMIT = 60.0
"""Seconds to judge a replay as it is loaded (a real game takes well under one); past them
loading stops with :class:`~msanalysis.errors.TimeLimitReached`, and what was shown stays."""

_STATE_CHAR = {HIDDEN: "?", FLAG: "F", MINE: "*", **{n: str(n) for n in range(9)}}
_CHAR_STATE = {char: state for state, char in _STATE_CHAR.items()}
_NO_KEY = -2   # a cell outside every group: revealed, a shown mine, or a flag taken as a mine
_SEA = -1      # the hidden cells next to no number


def analyse(position: Position, *, ignore_flags: bool = False,
            time_limit: float | None = DEFAULT_TIME_LIMIT) -> Analysis:
    """The analysis the explorer draws: :func:`~msanalysis.analysis.analyze` with a time limit.

    The one place the explorer asks for an analysis, so that an analyser that follows the game
    can stand in for the analysis from scratch.

    Raises
    ------
    InconsistentPosition
        When no layout fits the position.

    Examples
    --------
    >>> analyse(Position.from_text("mines: 1\\n??\\n11")).solutions
    2

    Notes
    -----
    The cost of :func:`~msanalysis.analysis.analyze`, counting bounded by ``time_limit``.
    """
    return analyze(position, ignore_flags=ignore_flags, time_limit=time_limit)


def _palette() -> dict[str, Any]:
    """The colours of :mod:`msanalysis.svg`, for the browser to draw with."""
    return {**svg.PALETTE,
            "numbers": {str(n): colour for n, colour in svg.NUMBER_COLOURS.items()}}


class _Checked(traitlets.Any):
    """A trait that the explorer's validators check, None included, with the toolkit's errors
    (traitlets' own types raise a TraitError, and pass None over unchecked)."""

    allow_none = False


class Explorer(anywidget.AnyWidget):
    """A live Minesweeper board with its exact analysis drawn over it.

    Parameters
    ----------
    source : Position, Game, Board, Replay, ReplayAnalysis or str, optional
        What to show (see :meth:`load`); by default a new beginner game.
    mode : {"play", "edit", "replay"}, optional
        What a click does; by default ``replay`` for a replay and ``play`` otherwise. Play mode
        on a replay plays on from the step shown (the replay's game at that step is loaded).
    overlays : bool
        Draw the analysis (forced cells, probabilities, the best guess); off to think first.
    cell_size : int
        Side of a cell in pixels.
    analyser : callable, optional
        ``(position, ignore_flags) -> Analysis``; default :func:`analyse`.

    Attributes
    ----------
    mode, overlays, status, message, summary, step, steps, revision, selected : traitlets
        Observable with ``explorer.observe(callback, names=[...])``; ``revision`` grows with
        every change of the position. ``status``, ``message``, ``summary``, ``steps``,
        ``revision`` and ``selected`` report the explorer's state and are read-only.

    Examples
    --------
    >>> explorer = Explorer(Game(Board.from_text("*..\\n...\\n...")))
    >>> opened = explorer.reveal((2, 2))
    >>> explorer.status, explorer.position.to_text()
    ('won', 'mines: 1\\n?1.\\n11.\\n...')
    >>> explorer.load(Position.from_text("mines: 1\\n??\\n11"))
    >>> explorer.analysis.best_guess, explorer.probability_text((0, 0))
    ((0, 0), '1/2 (50%)')

    Notes
    -----
    Each change costs one analysis of the new position plus O(width * height) numpy work to find
    the cells that changed; the message to the browser is O(changed cells + groups).
    """

    _esm = Path(__file__).with_name("explorer.js")
    _css = Path(__file__).with_name("explorer.css")

    mode = _Checked("play").tag(sync=True)
    overlays = _Checked(True).tag(sync=True)
    cell_size = _Checked(svg.DEFAULT_CELL_SIZE).tag(sync=True)
    status = traitlets.Unicode("", read_only=True).tag(sync=True)
    message = traitlets.Unicode("", read_only=True).tag(sync=True)
    summary = traitlets.Unicode("", read_only=True).tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    steps = traitlets.Int(0, read_only=True).tag(sync=True)
    revision = traitlets.Int(0, read_only=True).tag(sync=True)
    selected = traitlets.Dict(read_only=True).tag(sync=True)
    # The whole board, sent only when the front end asks for the state (a view opens) or a new
    # source is loaded (see get_state); every other change travels as a patch.
    _board = traitlets.Dict().tag(sync=True)
    _patch = traitlets.Dict().tag(sync=True)
    _replay: traitlets.List[list[Any]] = traitlets.List().tag(sync=True)
    _defs = traitlets.Unicode(svg.SYMBOLS).tag(sync=True)
    _palette = traitlets.Dict(_palette()).tag(sync=True)
    _rules = traitlets.List(list(RULES)).tag(sync=True)

    def __init__(self, source: Any = None, *, mode: str | None = None, overlays: bool = True,
                 cell_size: int = svg.DEFAULT_CELL_SIZE,
                 analyser: Callable[..., Analysis] | None = None) -> None:
        check_function(analyser, "analyser is a function of a position and ignore_flags")
        # Set before the widget opens its channel: the first state sent reads them.
        self.analyser = analyser or (lambda position, ignore_flags: analyse(
            position, ignore_flags=ignore_flags))
        self._game: Game | None = None
        self._shown_changes = -1  # the changes of the game shown (see _catch_up)
        self._position = Position([[HIDDEN]])
        self._replay_source: Replay | None = None
        self._judged: ReplayAnalysis | None = None
        self._analysis: Analysis | None = None
        self._inconsistency: InconsistentPosition | None = None
        self._chars = np.zeros(0, dtype="U1")
        self._keys = np.zeros(0, dtype=np.int64)
        self._table: dict[str, list[Any]] = {}
        self._extras: dict[str, Any] = {}
        self._serial = 0
        self._stepping = False
        self._token: Any = None
        super().__init__(overlays=overlays, cell_size=cell_size)
        if source is None:
            self.new_game(9, 9, 10, rules="safe-cell", seed=0)
        else:
            self.load(source)
        if mode is not None:
            self.mode = mode
        self.on_msg(self._on_message)

    # -- what is shown -------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The position shown now."""
        self._catch_up()
        return self._position

    @property
    def game(self) -> Game | None:
        """The game being played, or None for a bare position (after an edit, for instance).

        Moves are best made through the explorer (:meth:`reveal`, :meth:`flag`...); one made on
        the game itself is shown at the next look at :attr:`position` or :attr:`analysis`.
        """
        return self._game

    def _catch_up(self) -> None:
        """Show the game again when it was moved directly, not through the explorer."""
        if self._game is not None and self._game.changes != self._shown_changes:
            self._after_move()

    @property
    def replay(self) -> Replay | None:
        return self._replay_source

    @property
    def judged(self) -> ReplayAnalysis | None:
        """The loaded replay judged click by click (by
        :func:`~msanalysis.play.judge.analyze_replay`)."""
        return self._judged

    @property
    def analysis(self) -> Analysis | None:
        """The analysis of the position shown; None when the position is inconsistent."""
        self._catch_up()
        return self._analysis

    @property
    def inconsistency(self) -> InconsistentPosition | None:
        """Why no layout fits the position shown (its clues are outlined), or None."""
        return self._inconsistency

    def probability_text(self, cell: Cell) -> str:
        """The mine probability of a hidden cell as ``"p/q (percent)"``, the fraction exact
        when it is short (at most 24 characters; else to six digits, the whole fraction being
        :meth:`analysis.exact_probability <msanalysis.analysis.Analysis.exact_probability>`'s);
        empty when the analysis cannot say (revealed cell, inconsistent or partial analysis).

        Raises
        ------
        InvalidInput
            For a cell off the board.
        """
        analysis = self.analysis  # caught up with a game moved directly
        cell = self._on_board(cell)
        if analysis is None or not analysis.exact:
            return ""
        try:
            p = analysis.exact_probability(cell)
        except InvalidInput:  # a revealed cell's
            return ""
        return f"{_short_fraction(p)} ({svg.cell_percent(float(p))})"

    # -- loading ---------------------------------------------------------------------------------
    def load(self, source: Any) -> None:
        """Show a position, game, board, replay or judged replay.

        A :class:`~msanalysis.board.Board` starts a game on it; a string is read as a position's
        text; a path (:class:`pathlib.Path`) is read as a file: a replay by its ending (``.avf``,
        ``.rmv``, ``.evf``, ``.mvf``, ``.jsonl``), else a position or a board; a replay (or a
        :class:`~msanalysis.play.judge.ReplayAnalysis`) is judged and shown from its first
        action, in replay mode.

        Raises
        ------
        WrongType
            For anything else.
        ParseError
            For a string or a file that is not a position (a replay file that is not one raises
            ReplayError, a ParseError too).
        OSError
            For a file that cannot be read.
        TimeLimitReached
            When judging a replay takes longer than :data:`REPLAY_TIME_LIMIT`.

        Whatever it raises, what was shown before stays.
        """
        if isinstance(source, os.PathLike):
            path = Path(source)
            source = (load_replay(path) if path.suffix.lower() in REPLAY_SUFFIXES
                      else read_any(path))
        if isinstance(source, str):
            source = _position_text(source)
        if isinstance(source, Board):
            source = Game(source)
        judged = None
        if isinstance(source, ReplayAnalysis):
            judged, source = source, source.replay
        if isinstance(source, Replay):
            judged = judged or analyze_replay(source, time_limit=REPLAY_TIME_LIMIT)
        elif not isinstance(source, (Game, Position)):
            raise WrongType(f"cannot explore {a_name(type(source).__name__)}: expected a Position, "
                            "Game, Board, Replay or ReplayAnalysis")
        # Nothing is refused past here: what was shown stays until then.
        self._game, self._replay_source, self._judged = None, None, judged
        if isinstance(source, Replay):
            self._replay_source = source
            self._replay = [self._action_info(index, action.kind, action.cell)
                            for index, action in enumerate(source.actions)]
            with self.hold_sync():
                self.set_trait("steps", len(source.actions))
                self.mode = "replay"
                self._go_to(0, full=True)
            return
        self._replay = []
        self.set_trait("steps", 0)
        self.step = 0
        if isinstance(source, Game):
            self._game = source
            self._show(source.position(), full=True)
        else:
            self._show(source, full=True)
        if self.mode == "replay":
            self.mode = "play"

    def new_game(self, width: int, height: int, mines: int, *, rules: str = "safe-cell",
                 seed: int | None = None) -> None:
        """Start a seeded game (any first-click rule, no-guess included) and make its first
        click, where the rule expects it (:func:`~msanalysis.rules.default_first_click`).

        Raises
        ------
        InvalidInput
            For a size, mine count or rule that does not fit.
        """
        first = default_first_click(rules, width=width, height=height)
        board = generate(width, height, mines, rules=rules, first_click=first, seed=seed)
        game = Game(board, rules=rules)
        game.reveal(first)
        self.load(game)
        self.mode = "play"

    # -- moves -----------------------------------------------------------------------------------
    def _playing(self) -> Game:
        if self._game is None:
            if self._replay_source is not None:
                raise IllegalMove("a replay is shown, not a game: step through it with go_to, "
                                  "or play on from the step shown in play mode")
            raise IllegalMove("no game to play: this position has no layout behind it (start a "
                              "new game, or load a game or a board)")
        return self._game

    def reveal(self, cell: Cell) -> list[Cell]:
        """Reveal ``cell`` in the game (with the cascade); returns the cells opened.

        Raises
        ------
        IllegalMove
            Without a game, off the board, or after the game is over.
        """
        opened = self._playing().reveal(cell)
        self._after_move()
        return opened

    def chord(self, cell: Cell) -> list[Cell]:
        """Chord on a revealed number whose flags match it; returns the cells opened."""
        opened = self._playing().chord(cell)
        self._after_move()
        return opened

    def flag(self, cell: Cell) -> None:
        """Flag a hidden cell: in the game, or in the position when there is no game (a replay
        is stepped through, not played: outside edit mode its cells raise IllegalMove)."""
        if self._edits_flags():
            cell = self._on_board(cell)
            if self._position.state(cell) != HIDDEN:
                raise IllegalMove(f"cell {cell} is not hidden and cannot be flagged")
            self.set_cell(cell, "F")
            return
        self._playing().flag(cell)
        self._after_move()

    def unflag(self, cell: Cell) -> None:
        """Take the flag off ``cell``."""
        if self._edits_flags():
            cell = self._on_board(cell)
            if self._position.state(cell) == FLAG:
                self.set_cell(cell, "?")
            return
        self._playing().unflag(cell)
        self._after_move()

    def _edits_flags(self) -> bool:
        return self._game is None and (self._replay_source is None or self.mode == "edit")

    def _after_move(self) -> None:
        game = self._game
        assert game is not None
        self._show(game.position())

    # -- editing ---------------------------------------------------------------------------------
    def set_cell(self, cell: Cell, value: str | int) -> None:
        """Set a cell of the position: ``"?"`` hidden, ``"F"`` a flag, or a number 0-8.

        The game, if any, is left: the position becomes a bare position. An edit that leaves no
        layout is shown with the clues that contradict each other (see :attr:`inconsistency`).

        Raises
        ------
        InvalidInput
            For a cell off the board or a value that is not a cell state.
        """
        cell = self._on_board(cell)
        state = _CHAR_STATE.get(str(value).upper() if str(value) != "." else "0")
        if state is None or state == MINE:
            raise InvalidInput(f"cannot set cell {cell} to {value!r}: expected '?', 'F' or a "
                               "number 0-8")
        states = np.array(self._position.states)
        states[cell] = state
        self._edit(Position(states, self._position.total_mines))

    def resize(self, width: int, height: int) -> None:
        """Change the board's size: the cells that stay keep their state, new cells are hidden.

        Raises
        ------
        InvalidInput
            For a size that is not positive or too large, or fewer cells than mines.
        """
        width, height = check_size(width, height)
        states = np.full((height, width), HIDDEN, dtype=np.int8)
        old = self._position.states
        h, w = min(height, old.shape[0]), min(width, old.shape[1])
        states[:h, :w] = old[:h, :w]
        mines = self._position.total_mines
        if mines is not None and mines > states.size:
            raise InvalidInput(mines_do_not_fit(mines, f"a {width}x{height} board"))
        self._edit(Position(states, mines), full=True)

    def set_mines(self, mines: int | None) -> None:
        """Set the total mine count (None: unknown).

        Raises
        ------
        InvalidInput
            For a negative count or more mines than cells.
        """
        self._edit(self._position.with_total_mines(mines))

    def _edit(self, position: Position, *, full: bool = False) -> None:
        self._game, self._replay_source, self._judged = None, None, None
        self._replay = []
        self.set_trait("steps", 0)
        self.step = 0
        self._show(position, full=full)

    def _on_board(self, cell: Cell) -> Cell:
        return as_cell(cell, *self._position.shape)

    # -- replays ---------------------------------------------------------------------------------
    def go_to(self, step: int) -> None:
        """Show the replay's position before its action ``step`` (0 to the number of actions).

        Raises
        ------
        InvalidInput
            Without a replay, or for a step out of range.
        """
        self._go_to(step)

    def _go_to(self, step: int, *, full: bool = False) -> None:
        replay = self._replay_source
        if replay is None:
            raise InvalidInput("no replay loaded: load(replay) first")
        step = as_int(step, "a step")
        if not 0 <= step <= len(replay.actions):
            raise InvalidInput(f"step {step} is out of range 0-{len(replay.actions)}")
        game = _game_at(replay, step)
        with self.hold_sync():
            self._stepping = True
            try:
                self.step = step
            finally:
                self._stepping = False
            self._show(game.position(), full=full)

    @traitlets.validate("mode")
    def _valid_mode(self, proposal: dict[str, Any]) -> str:
        mode = proposal["value"]
        if not isinstance(mode, str) or mode not in MODES:
            raise InvalidInput(f"mode is one of {', '.join(MODES)}, got {mode!r}")
        return mode

    @traitlets.validate("overlays")
    def _valid_overlays(self, proposal: dict[str, Any]) -> bool:
        check_flag(proposal["value"], "overlays")
        return bool(proposal["value"])

    @traitlets.validate("cell_size")
    def _valid_cell_size(self, proposal: dict[str, Any]) -> int:
        return as_count(proposal["value"], "cell_size", 1, 1000)

    @traitlets.validate("step")
    def _valid_step(self, proposal: dict[str, Any]) -> int:
        step = proposal["value"]
        if step and self._replay_source is None:
            raise InvalidInput("no replay loaded: load(replay) first")
        return step

    @traitlets.observe("mode")
    def _mode_changed(self, change: dict[str, Any]) -> None:
        # Play mode on a replay plays on from the step shown: the replay is let go, as an edit
        # lets it go, and its game at that step becomes the game played.
        replay = self._replay_source
        if change["new"] == "play" and replay is not None:
            step = self.step
            self.load(_game_at(replay, step))
            self.set_trait("message", f"playing on from step {step} of the replay")

    @traitlets.observe("step")
    def _step_changed(self, change: dict[str, Any]) -> None:
        # The slider in the browser sets the step; Python draws the position it names.
        if self._replay_source is not None and not self._stepping:
            try:
                self._go_to(int(change["new"]))
            except InvalidInput as error:
                self.set_trait("message", str(error))
                self._stepping = True  # the step shown stays, and so does its number
                try:
                    self.step = change["old"]
                finally:
                    self._stepping = False

    def _action_info(self, index: int, kind: str, cell: Cell) -> list[Any]:
        """``[kind, row, col, verdict, probability]`` of one action, for the replay's bar."""
        judged = self._judged
        found: list[Judgement] = [j for j in judged.judgements if j.index == index] if judged \
            else []
        verdict = ", ".join(sorted({j.verdict.value for j in found}))
        probabilities = [j.probability for j in found if j.probability is not None]
        text = ""
        if len(found) == 1 and probabilities:
            p = probabilities[0]
            text = f"{_short_fraction(p)} ({svg.cell_percent(float(p))})"
        return [str(kind), cell[0], cell[1], verdict, text]

    # -- explanations ----------------------------------------------------------------------------
    def explain(self, cell: Cell) -> None:
        """Select a cell: a forced cell is outlined with the clues that force it and the reason
        in words; any other hidden cell shows its exact probability.

        Raises
        ------
        InvalidInput
            For a cell off the board.
        """
        analysis = self.analysis  # caught up with a game moved directly
        cell = self._on_board(cell)
        index = cell[0] * self._position.width + cell[1]
        if analysis is None:
            self.set_trait("selected", {})
            return
        if cell in analysis.forced_safe or cell in analysis.forced_mines:
            explanation = analysis.explain(cell)
            width = self._position.width
            self.set_trait("selected", {"cell": index,
                                        "clues": [r * width + c for r, c in explanation.clues],
                                        "text": str(explanation)})
        elif self._position.state(cell) in (HIDDEN, FLAG):
            text = self.probability_text(cell)
            self.set_trait("selected", {
                "cell": index, "clues": [],
                "text": f"({cell[0]}, {cell[1]}): mine probability {text}" if text
                else f"({cell[0]}, {cell[1]}) is not forced"})
        else:
            self.set_trait("selected", {})

    # -- drawing ---------------------------------------------------------------------------------
    def _show(self, position: Position, *, full: bool = False) -> None:
        """Analyse ``position`` and send what changed (everything when ``full``)."""
        self._position = position
        self._shown_changes = -1 if self._game is None else self._game.changes
        ignore_flags = self._replay_source is not None  # a player's flags may be wrong
        self._analysis, self._inconsistency = None, None
        stopped = None
        try:
            self._analysis = self.analyser(position, ignore_flags)
        except InconsistentPosition as error:
            self._inconsistency = error
        except AnalysisTooHard as error:  # refused before any counting: too large for the time
            stopped = str(error)
        chars, keys, table, extras = self._encode(position, ignore_flags)
        if self._analysis is not None and not self._analysis.exact:
            stopped = self._analysis.stopped
        full = full or chars.shape != self._chars.shape
        self._serial += 1
        with self.hold_sync():
            self.set_trait("selected", {})
            self.set_trait("status", self._game.status.value if self._game is not None else "")
            self.set_trait("summary", self._summary(stopped))
            self.set_trait("message", "")
            if full:
                self._chars, self._keys, self._table, self._extras = chars, keys, table, extras
                self.send_state("_board")
            else:
                changed = np.flatnonzero((chars != self._chars) | (keys != self._keys))
                self._chars, self._keys, self._table, self._extras = chars, keys, table, extras
                self._patch = {"serial": self._serial,
                               "cells": [[int(i), str(chars[i]), int(keys[i])] for i in changed],
                               "table": table, "token": self._token, **extras}
            self.set_trait("revision", self.revision + 1)

    def get_state(self, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        """The widget's state for the front end; ``_board`` is the whole board as it is now."""
        state = super().get_state(key, drop_defaults)
        if "_board" in state:
            height, width = self._position.shape
            # Cells of the sea and cells outside every group are told apart by their state.
            hidden_keys = {str(int(i)): int(self._keys[i])
                           for i in np.flatnonzero(self._keys >= 0)}
            state["_board"] = {"serial": self._serial, "width": width, "height": height,
                               "cells": "".join(self._chars.tolist()), "keys": hidden_keys,
                               "table": self._table, **self._extras}
        return state

    def _encode(self, position: Position,
                ignore_flags: bool) -> tuple[np.ndarray, np.ndarray, dict[str, list[Any]],
                                             dict[str, Any]]:
        """One character per cell, a group key per cell, the groups' table and the extras."""
        width = position.width
        states = position.states.ravel()
        chars = np.array([_STATE_CHAR[s] for s in range(-3, 9)], dtype="U1")[states + 3]
        keys = np.full(states.size, _NO_KEY, dtype=np.int64)
        table: dict[str, list[Any]] = {}
        extras: dict[str, Any] = {"best": -1, "conflict": [], "mines": position.total_mines,
                                  "ignore_flags": ignore_flags}
        analysis = self._analysis
        if analysis is None:
            if self._inconsistency is not None:
                extras["conflict"] = [r * width + c for r, c in self._inconsistency.clues]
            return chars, keys, table, extras
        constraints = analysis.constraints
        groups = [box.cells for box in constraints.boxes]
        if constraints.sea:
            groups.append(tuple(constraints.sea))
        probabilities = analysis.probabilities if analysis.exact else None
        for cells in groups:
            flat = np.array([r * width + c for r, c in cells], dtype=np.int64)
            is_sea = cells is groups[-1] and bool(constraints.sea)
            key = _SEA if is_sea else int(flat.min())
            keys[flat] = key
            first = cells[0]
            if first in analysis.forced_safe:
                table[str(key)] = ["safe", svg.PALETTE["safe"], "", ""]
            elif first in analysis.forced_mines:
                table[str(key)] = ["mine", svg.PALETTE["mine"], "", ""]
            elif probabilities is not None:
                p = float(probabilities[first])
                colour = svg.probability_colour(p)
                ink = "#ffffff" if svg.is_dark(colour) else "#000000"
                table[str(key)] = ["p", colour, svg.cell_percent(p), ink]
            else:
                table[str(key)] = ["", svg.PALETTE["face"], "", ""]
        best = analysis.best_guess if analysis.exact and analysis.requires_guess else None
        if best is not None:
            extras["best"] = best[0] * width + best[1]
        return chars, keys, table, extras

    def _summary(self, stopped: str | None) -> str:
        """One line: the game's state and what the analysis found."""
        parts = []
        if self._game is not None:
            parts.append({"playing": "playing", "won": "won!", "lost": "lost: a mine"}
                         [self._game.status.value])
        analysis = self._analysis
        if self._inconsistency is not None:
            parts.append(f"no layout fits: {self._inconsistency}")
        elif analysis is None:
            if stopped is not None:
                parts.append(f"no analysis ({stopped})")
        else:
            if analysis.exact:
                count = analysis.solutions
                parts.append(f"{magnitude(count, digits=16)} layout{'s' if count != 1 else ''}")
            else:
                parts.append(f"forced cells only ({stopped})")
            parts.append(f"{len(analysis.forced_safe)} forced safe, "
                         f"{len(analysis.forced_mines)} forced mines")
            if not analysis.is_over:
                parts.append("a guess is needed" if analysis.requires_guess else "no guess needed")
        return "; ".join(parts)

    # -- the browser -----------------------------------------------------------------------------
    def _on_message(self, widget: Any, content: Any, buffers: Any) -> None:
        """A click or a command from the browser; errors become the message line."""
        if not isinstance(content, dict):
            return
        serial = self._serial
        self._token = content.get("token")
        try:
            self._handle(content)
        except (MsanalysisError, ValueError, TypeError, KeyError, OverflowError) as error:
            self.set_trait("message", str(error))
        finally:
            self._token = None
        if "token" in content and self._serial == serial:
            # Nothing to draw: say so, or the page would wait for a patch. (A patch carries the
            # token itself: custom messages can overtake state updates in the front end.)
            self.send({"done": content["token"]})

    def _handle(self, content: dict[str, Any]) -> None:
        kind = content.get("kind")
        width = self._position.width
        cell = divmod(int(content.get("index", 0)), width)
        if kind == "click":
            self._click(cell, content.get("tool", ""), bool(content.get("explain")))
        elif kind == "right":
            if self.mode == "edit" or self._game is not None:
                state = self._position.state(cell)
                if state == FLAG:
                    self.unflag(cell)
                elif state == HIDDEN:
                    self.flag(cell)
        elif kind == "hover":
            self.send({"hover": int(content["index"]), "text": self.probability_text(cell)})
        elif kind == "new":
            self.new_game(int(content["width"]), int(content["height"]), int(content["mines"]),
                          rules=str(content["rules"]),
                          seed=None if content.get("seed") in (None, "") else
                          int(content["seed"]))
        elif kind == "size":
            mines = content.get("mines")
            with self.hold_sync():
                if (int(content["width"]), int(content["height"])) != self._position.shape[::-1]:
                    self.resize(int(content["width"]), int(content["height"]))
                self.set_mines(None if mines in (None, "") else int(mines))

    def _click(self, cell: Cell, tool: str, explain: bool) -> None:
        if explain or self.mode == "replay":
            self.explain(cell)
        elif self.mode == "edit":
            self.set_cell(cell, tool or "?")
        elif self._game is None:
            self.explain(cell)
        else:
            state = self._position.state(cell)
            if state > 0:
                self.chord(cell)
            elif state == HIDDEN:
                self.reveal(cell)

    # -- pictures without a front end -----------------------------------------------------------
    def _picture(self) -> str:
        if self._analysis is not None and self.overlays:
            return svg.board(self._analysis)
        return svg.board(self._position)

    def _repr_svg_(self) -> str:
        return self._picture()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # The widget's own view for live front ends; the SVG for nbconvert, GitHub and the like,
        # which skip the widget view they cannot draw.
        found = super()._repr_mimebundle_(**kwargs)
        data, metadata = found if isinstance(found, tuple) else (found or {}, {})
        data = dict(data)
        data["image/svg+xml"] = self._picture()
        return data, metadata

    def __repr__(self) -> str:
        height, width = self._position.shape
        what = "game" if self._game is not None else "replay" if self._replay_source else \
            "position"
        return f"<Explorer {width}x{height} {what}, mode={self.mode}>"


def _position_text(text: str) -> Position:
    """The position ``text`` describes; a file's name given as a string is told so."""
    try:
        return Position.from_text(text)
    except ParseError as error:
        name = text.strip()
        if "\n" not in name and (os.path.exists(name) or Path(name).suffix.lower() in
                                 (*REPLAY_SUFFIXES, ".txt", ".mbf")):
            raise ParseError(f"{name!r} is read as a position's text, not as a file's name: "
                             f"load(Path({name!r})) reads the file") from error
        raise


def _game_at(replay: Replay, step: int) -> Game:
    """The replay's game before its action ``step``."""
    game = replay.game()
    for action in replay.actions[:step]:
        apply_action(game, action)
    return game


def _short_fraction(value: Fraction) -> str:
    """``value`` as a fraction when it is short, else approximately: "≈" and six digits, or a
    chance near 1 as 1 less a little (rounded, it would read as a certain mine)."""
    text = fraction_text(value)
    if len(text) <= 24:
        return text
    near = f"{float(value):.6g}"
    return f"≈1 - {float(1 - value):.3g}" if near == "1" else f"≈{near}"

