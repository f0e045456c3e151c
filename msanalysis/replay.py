"""Recorded games: the layout and the player's timed actions, read from files and played back.

A :class:`Replay` is ours and immutable: the mine layout as a :class:`~msanalysis.board.Board`,
the ordered :class:`Action` s (reveal, flag, unflag, chord) with their times in seconds, in
``(row, col)`` cells, and what the file says of the game (player, program, date, first-click
rule). :func:`load_replay` reads

- the binary replays players exchange, through ms-toollib (the optional extra ``replays``):
  ``.avf`` (Minesweeper Arbiter), ``.rmv`` (Viennasweeper), ``.evf`` (Metasweeper) and ``.mvf``
  (Minesweeper Clone);
- our own JSON-lines replays (``.msreplay.jsonl``), which :func:`save_replay` writes and
  :class:`ReplayRecorder` makes from a :class:`~msanalysis.game.Game` as it is played.

Every file is played back on a :class:`~msanalysis.game.Game` while it is read, so a layout that
contradicts the recorded clicks is a :class:`ReplayError`, like any other bad file. Judging the
clicks is :mod:`msanalysis.play.judge`'s job.

Our format, one JSON object a line (UTF-8):

- line 1, the header: ``{"format": "msanalysis-replay", "version": 1, "width": W, "height": H,
  "mines": M, "layout": ["..*.", ...], "rules": R, "first_click": [r, c], "program": P,
  "player": N, "date": ISO-8601, "seconds": S, "result": "won" | "lost" | "playing"}``;
  ``layout`` has a row of ``*`` (mine) and ``.`` per board row; ``rules`` is the first-click
  rule (see :mod:`msanalysis.rules`) or null; ``player``, ``date`` and ``seconds`` may be null;
  ``first_click`` and ``result`` are checked against the play-back when present; a field the
  format does not name is an error (a misspelt one would go unread), in an action too; in the
  ``player`` and ``program`` read (from any format), a character that is not printable (a line
  break, a control code, a lone surrogate) becomes its escape, such as ``\\n``;
- then one line per action: ``{"time": T, "action": "reveal" | "flag" | "unflag" | "chord",
  "cell": [r, c]}``, times in seconds from the first action, in order (0 or more, never
  decreasing; ``seconds`` too is 0 or more).
"""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
import subprocess
import sys
import tempfile
import time as _time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeGuard, cast

import numpy as np

from msanalysis.board import Board, Cell, as_cell, as_pair
from msanalysis.errors import (
    AnalysisTooHard,
    InvalidInput,
    ParseError,
    WrongType,
    as_real,
    check_function,
    check_type,
    printable,
    quantity,
    source_name,
)
from msanalysis.files import REPLAY_SUFFIXES, check_path, read_bytes, write_file
from msanalysis.game import Game
from msanalysis.position import FLAG, HIDDEN, Position
from msanalysis.rules import RULES, FirstClick

__all__ = [
    "FORMAT_VERSION",
    "REPLAY_FORMATS",
    "REPLAY_SUFFIXES",
    "Action",
    "ActionKind",
    "Replay",
    "ReplayError",
    "ReplayRecorder",
    "apply_action",
    "load_replay",
    "position_without_flags",
    "save_replay",
]

FORMAT_VERSION = 1
"""The version of our JSON-lines format that :func:`save_replay` writes and this module reads."""

REPLAY_FORMATS = tuple(suffix.lstrip(".") for suffix in REPLAY_SUFFIXES)
"""The formats :func:`load_replay` reads, by the name its ``format`` argument takes."""

_PROGRAMS = {"avf": "Minesweeper Arbiter", "rmv": "Viennasweeper", "evf": "Metasweeper",
             "mvf": "Minesweeper Clone"}
"""The program that writes each binary format."""

_CHILD_SECONDS = 60.0
"""How long ms-toollib may take over one file before it is stopped."""

_MAGIC = "msanalysis-replay"


class ReplayError(ParseError):
    """A file that is not a usable replay; the message names the file and the problem.

    ``action`` is the index of the action that could not be played, when that is the problem.

    Examples
    --------
    >>> str(ReplayError("truncated: the header promises 10 mines", source="game.avf"))
    'game.avf: truncated: the header promises 10 mines'
    """

    action: int | None = None


class ActionKind(StrEnum):
    """What a player did to a cell."""

    REVEAL = "reveal"
    """Uncover a covered cell (a left click)."""
    FLAG = "flag"
    """Put a flag on a covered cell."""
    UNFLAG = "unflag"
    """Take a flag off."""
    CHORD = "chord"
    """On a revealed number whose flags match it, uncover its other covered neighbours."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a replay: its kind, the cell, and the time in seconds from the first action.

    Examples
    --------
    >>> Action(ActionKind.REVEAL, (3, 4), 1.5)
    Action(kind=<ActionKind.REVEAL: 'reveal'>, cell=(3, 4), time=1.5)
    >>> Action("flag", (0, 0)).kind is ActionKind.FLAG
    True
    """

    kind: ActionKind
    cell: Cell
    time: float = 0.0

    def __post_init__(self) -> None:
        try:
            kind = ActionKind(self.kind)
        except ValueError:
            raise InvalidInput(f"unknown action {self.kind!r}; expected one of "
                             f"{', '.join(k.value for k in ActionKind)}") from None
        cell = as_pair(self.cell)  # on the board: Replay's to say, which knows the board
        if isinstance(self.time, bool) or not isinstance(self.time, numbers.Real):
            raise InvalidInput(f"an action's time is a number of seconds, got {self.time!r}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "time", as_real(self.time))  # past a float's range: inf


@dataclass(frozen=True)
class Replay:
    """A recorded game: the layout and the player's actions, in order.

    Parameters
    ----------
    board : Board
        The mine layout the game was played on (after any first-click move of the program).
    actions : tuple of Action
    rules : str, optional
        The first-click rule of the program that recorded it (see :mod:`msanalysis.rules`), or
        None when it is not known.
    player, program : str, optional
    date : datetime, optional
        When the game started (timezone-aware when the recording gives its zone).
    seconds : float, optional
        The game's time as the program recorded it; by default the time of the last action.
    source : str, optional
        The file it was read from; not part of the replay's value.

    Examples
    --------
    >>> replay = Replay(Board.from_text("*..\\n..."), (Action("reveal", (1, 2), 0.0),
    ...                                               Action("flag", (0, 0), 0.8),
    ...                                               Action("chord", (1, 1), 1.1)))
    >>> replay.width, replay.height, replay.mines, replay.first_click
    (3, 2, 1, (1, 2))
    >>> replay.play().status
    'won'
    """

    board: Board
    actions: tuple[Action, ...]
    rules: str | None = None
    player: str | None = None
    program: str | None = None
    date: datetime | None = None
    seconds: float | None = None
    source: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.actions, (str, bytes)) or not hasattr(self.actions, "__iter__"):
            raise WrongType(f"a replay's actions are a sequence of Actions, got "
                            f"{self.actions!r}")
        given = tuple(self.actions)  # once: a generator is read only once
        for action in given:
            if not isinstance(action, Action) and not (isinstance(action, (tuple, list))
                                                       and len(action) in (2, 3)):
                raise WrongType(f"a replay's action is an Action or a (kind, cell, time) tuple, "
                                f"got {action!r}")
        actions = tuple(a if isinstance(a, Action) else Action(*a) for a in given)
        object.__setattr__(self, "actions", actions)
        if self.rules is not None:
            FirstClick.parse(self.rules)
        # What load_replay refuses in a file is refused here too, so that every replay made
        # can be saved and read back.
        check_type(self.board, Board, "a replay", "the layout played")
        previous = 0.0
        for number, action in enumerate(actions):
            row, col = action.cell
            if not (0 <= row < self.height and 0 <= col < self.width):
                raise InvalidInput(f"action {number} ({action.kind} at {action.cell}) is off the "
                                 f"{self.width}x{self.height} board")
            if not (math.isfinite(action.time) and action.time >= previous):
                raise InvalidInput(f"action {number} has time {action.time}: times are finite "
                                   f"seconds from 0 up, in the order of the actions")
            previous = action.time
        click = self.first_click
        if self.rules not in (None, "unsafe") and click is not None and self.board.is_mine(click):
            raise InvalidInput(f"the first click {click} is on a mine, which the rules "
                               f"({self.rules}) do not allow")
        for name in ("player", "program", "source"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise InvalidInput(f"a replay's {name} is a string, got {value!r}")
            # The names are saved, and read back printable (a tab as \t: see printable); the
            # source (a path, which may hold any byte) is not saved.
            if value is not None and name != "source" and printable(value) != value:
                raise InvalidInput(f"a replay's {name} is printable text (no line break, tab, "
                                   f"control code or lone surrogate), got {value!r}")
        if self.date is not None and not isinstance(self.date, datetime):
            raise InvalidInput(f"a replay's date is a datetime, got {self.date!r}")
        if self.seconds is not None:
            seconds = as_real(self.seconds)  # a Fraction becomes a float
            if not 0 <= seconds < math.inf:
                raise InvalidInput(f"a replay's seconds are a finite number from 0 up, got "
                                   f"{self.seconds!r}")
            object.__setattr__(self, "seconds", seconds)

    # -- facts ----------------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.board.width

    @property
    def height(self) -> int:
        return self.board.height

    @property
    def mines(self) -> int:
        return self.board.mine_count

    @property
    def first_click(self) -> Cell | None:
        """The cell of the first reveal, or None before any."""
        return next((a.cell for a in self.actions if a.kind is ActionKind.REVEAL), None)

    @property
    def duration(self) -> float:
        """The game's time: :attr:`seconds` when recorded, else the time of the last action."""
        if self.seconds is not None:
            return self.seconds
        return self.actions[-1].time if self.actions else 0.0

    # -- play-back ------------------------------------------------------------------------------
    def game(self) -> Game:
        """A fresh game on this replay's layout, before the first action."""
        # The layout is the one played after any first-click move, so no rule may move a mine.
        return Game(self.board, rules="unsafe")

    def before_each(self) -> Iterator[tuple[int, Action, Game]]:
        """Yield ``(index, action, game)`` with the game just before each action.

        The action is applied when the loop asks for the next one; ``game`` is the same object
        throughout, changed in place, so after the loop it is the game at the end.

        Raises
        ------
        ReplayError
            When an action cannot be played on the layout (after the game ended, a flag on a
            revealed cell): the layout contradicts the recorded clicks.
        """
        game = self.game()
        for index, action in enumerate(self.actions):
            yield index, action, game
            self._apply(game, index, action)

    def steps(self) -> Iterator[tuple[int, Action, Game, list[Cell]]]:
        """Yield ``(index, action, game, opened)`` just after each action (see
        :meth:`before_each`); ``opened`` lists the cells it uncovered."""
        game = self.game()
        for index, action in enumerate(self.actions):
            yield index, action, game, self._apply(game, index, action)

    def _apply(self, game: Game, index: int, action: Action) -> list[Cell]:
        try:
            return apply_action(game, action)
        except ValueError as error:
            problem = ReplayError(f"the layout contradicts the recorded clicks: action {index} "
                                  f"({action.kind} at {action.cell}, {action.time:g} s): {error}",
                                  source=self.source)
            problem.action = index
            raise problem from None

    def play(self) -> Game:
        """The game after every action (see :meth:`steps`)."""
        game = self.game()
        for _, _, after, _ in self.steps():
            game = after
        return game

    def __repr__(self) -> str:
        who = f" by {self.player}" if self.player else ""
        return (f"<Replay {self.width}x{self.height}/{self.mines}, {len(self.actions)} actions"
                f"{who}{f' ({self.program})' if self.program else ''}>")


def apply_action(game: Game, action: Action) -> list[Cell]:
    """Apply one action to ``game`` the way the programs that record replays do.

    A reveal of a flagged or revealed cell, and a chord whose flags do not match, change
    nothing. Unlike :meth:`Game.flag`, more flags than mines may be placed: the programs allow it
    (their counter goes negative). Returns the cells uncovered.

    Raises
    ------
    ValueError
        If the game is over, or a revealed cell is flagged.

    Examples
    --------
    A flag on the corner's mine, the 1 beside it, then a chord there (its flag matches it): the
    0 at (0, 2) opens its neighbours. A reveal of the flagged mine does nothing.

    >>> game = Game(Board.from_text("*..\\n...\\n..*"))
    >>> apply_action(game, Action("flag", (0, 0))), apply_action(game, Action("reveal", (0, 1)))
    ([], [(0, 1)])
    >>> apply_action(game, Action("chord", (0, 1))), apply_action(game, Action("reveal", (0, 0)))
    ([(0, 2), (1, 0), (1, 1), (1, 2)], [])
    """
    check_type(game, Game, "apply_action", "Replay.game() makes one")
    check_type(action, Action, "apply_action", "a replay's actions are")
    cell = action.cell
    if action.kind is ActionKind.REVEAL:
        return game.reveal(cell)
    if action.kind is ActionKind.CHORD:
        return game.chord(cell)
    if action.kind is ActionKind.UNFLAG:
        game.unflag(cell)
        return []
    game.flag(cell)  # raises the game's own error for a finished game or a revealed cell
    return []


# -- our JSON-lines format -----------------------------------------------------------------------

def save_replay(replay: Replay, path: str | Path) -> None:
    """Write ``replay`` in our JSON-lines format (see the module docstring).

    Examples
    --------
    >>> import tempfile, os
    >>> replay = Replay(Board.from_text("*.\\n.."), (Action("reveal", (1, 1), 0.0),),
    ...                 rules="safe-cell", program="msanalysis")
    >>> path = os.path.join(tempfile.mkdtemp(), "game.msreplay.jsonl")
    >>> save_replay(replay, path)
    >>> print(open(path).read().splitlines()[1])
    {"time": 0.0, "action": "reveal", "cell": [1, 1]}
    >>> load_replay(path) == replay
    True
    """
    check_type(replay, Replay, "save_replay", "load_replay(path) reads one; ReplayRecorder "
               "records one")
    game = replay.play()
    header = {
        "format": _MAGIC, "version": FORMAT_VERSION, "width": replay.width,
        "height": replay.height, "mines": replay.mines,
        "layout": replay.board.to_text().splitlines(), "rules": replay.rules,
        "first_click": None if replay.first_click is None else list(replay.first_click),
        "program": replay.program, "player": replay.player,
        "date": None if replay.date is None else replay.date.isoformat(),
        "seconds": replay.seconds, "result": game.status,
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps({"time": a.time, "action": a.kind.value, "cell": list(a.cell)})
              for a in replay.actions]
    write_file(path, "\n".join(lines) + "\n")


def _is_seconds(value: int | float) -> bool:
    """Whether a time read from a replay is a finite number of seconds a float can hold."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _is_cell(value: object) -> TypeGuard[list[int]]:
    """Whether a value read from a replay is ``[row, col]``: a list of two integers."""
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value))


_HEADER_FIELDS = ("format", "version", "width", "height", "mines", "layout", "rules",
                  "first_click", "program", "player", "date", "seconds", "result")
"""The fields of our format's header line, as :func:`save_replay` writes them."""
_ACTION_FIELDS = ("time", "action", "cell")
"""The fields of an action's line."""


def _read_ours(data: bytes, source: str) -> Replay:
    def fail(message: str, line: int | None = None) -> ReplayError:
        return ReplayError(message, line=line, source=source)

    try:
        text = data.decode("utf-8-sig")  # a byte order mark first is not part of the text
    except UnicodeDecodeError:
        # Read as ours by its ending or --format jsonl, or as a file that starts with "{".
        raise fail("not a replay in our format (.msreplay.jsonl), which is UTF-8 text: an .avf, "
                   ".rmv, .evf or .mvf replay is read by its ending or with --format "
                   "(format= in load_replay)") from None
    lines = text.split("\n")
    complete = text.endswith("\n")
    if not text.strip():
        raise fail("empty file: not a replay")
    records: list[tuple[int, dict]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except RecursionError:
            raise fail("not a JSON object (nested too deeply)", number) from None
        except json.JSONDecodeError as error:
            if number == len(lines) and not complete and records:
                raise fail("truncated: the last line is cut short", number) from None
            what = "not a replay" if not records else "not a JSON object"
            raise fail(f"{what} ({error.msg})", number) from None
        except ValueError:
            # The one other ValueError json raises: Python refuses to convert a whole number of
            # more digits than sys.get_int_max_str_digits(), with advice meant for programmers.
            raise fail(f"a number too large (more than {sys.get_int_max_str_digits()} digits)",
                       number) from None
        if not isinstance(record, dict):
            raise fail("not a JSON object", number)
        records.append((number, record))
    header_line, header = records[0]
    if header.get("format") != _MAGIC:
        raise fail(f'not a replay: the first line has no "format": "{_MAGIC}"', header_line)
    version = header.get("version")
    # true and 1.0 equal 1 in Python, not in the format: the version is the integer.
    if type(version) is not int or version != FORMAT_VERSION:
        raise fail(f"unknown version {version!r} of the replay format (this msanalysis reads "
                   f"version {FORMAT_VERSION})", header_line)

    # A misspelt field would be read as absent, and the check it asks for (of the result, of
    # the first click) left out: every field is one the format names.
    unknown = [name for name in header if name not in _HEADER_FIELDS]
    if unknown:
        raise fail(f"unknown header field {unknown[0]!r} (version {FORMAT_VERSION} has "
                   f"{', '.join(_HEADER_FIELDS)})", header_line)

    def field_of(name: str, kind: type | tuple[type, ...], *, optional: bool = False) -> Any:
        value = header.get(name)
        if value is None and optional:
            return None
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise fail(f"header field {name!r} is missing or not a {_kind_name(kind)}",
                       header_line)
        return value

    width, height, mines = (field_of(n, int) for n in ("width", "height", "mines"))
    layout = field_of("layout", list)
    # Rows of '*' and '.' only: the text reader's comments, spaces and line breaks are no part of
    # a row here.
    if not all(isinstance(row, str) and row and not row.strip("*.") for row in layout):
        raise fail("header field 'layout' must be a list of rows of '*' and '.'", header_line)
    try:
        board = Board.from_text("\n".join(layout))
    except ParseError as error:
        raise fail(f"bad layout: {error.reason}", header_line) from None
    if (board.width, board.height) != (width, height):
        raise fail(f"the layout is {board.width}x{board.height}, the header says "
                   f"{width}x{height}", header_line)
    if board.mine_count != mines:
        raise fail(f"the layout has {quantity(board.mine_count, 'mine')}, the header says {mines}",
                   header_line)
    rules = field_of("rules", str, optional=True)
    if rules is not None and rules not in RULES:
        raise fail(f"unknown rules {rules!r}; expected one of {', '.join(RULES)}", header_line)
    date_text = field_of("date", str, optional=True)
    try:
        date = None if date_text is None else datetime.fromisoformat(date_text)
    except ValueError:
        raise fail(f"bad date {date_text!r}: expected ISO 8601", header_line) from None
    seconds = field_of("seconds", (int, float), optional=True)
    if seconds is not None and (not _is_seconds(seconds) or seconds < 0):
        raise fail("header field 'seconds' is not a number of seconds (finite, 0 or more, or "
                   f"null): {str(seconds)[:40]}", header_line)
    actions = []
    previous = 0.0  # the time of the action before, which the next may not precede
    for number, record in records[1:]:
        unknown = [name for name in record if name not in _ACTION_FIELDS]
        if unknown:
            raise fail(f"unknown field {unknown[0]!r} in an action (an action has "
                       f"{', '.join(_ACTION_FIELDS)})", number)
        cell, kind, moment = record.get("cell"), record.get("action"), record.get("time")
        if not _is_cell(cell):
            raise fail("an action needs \"cell\": [row, col]", number)
        # The Replay checks this too, but knows the action only by its index, not its line.
        if not (0 <= cell[0] < height and 0 <= cell[1] < width):
            raise fail(f"the action's cell ({cell[0]}, {cell[1]}) is off the {width}x{height} "
                       "board", number)
        if not isinstance(moment, (int, float)) or isinstance(moment, bool) \
                or not _is_seconds(moment):
            raise fail("an action needs \"time\": seconds", number)
        # Times count from the first action, in order: anything else would make the game's
        # length and speed (3BV/s) negative or wrong.
        moment = float(moment)
        if moment < 0:
            raise fail(f"an action's time is {moment} s: times count from 0", number)
        if moment < previous:
            raise fail(f"an action's time {moment} s is before the previous action's "
                       f"{previous} s: times may not decrease", number)
        previous = moment
        try:
            actions.append(Action(ActionKind(str(kind)), (cell[0], cell[1]), moment))
        except ValueError:
            raise fail(f"unknown action {kind!r}; expected one of "
                       f"{', '.join(k.value for k in ActionKind)}", number) from None
        except TypeError as error:
            raise fail(str(error), number) from None
    # Read before the Replay is made: a field's own error already names the file and the line,
    # and the ValueError below is for the Replay's checks, which name neither.
    player = field_of("player", str, optional=True)
    program = field_of("program", str, optional=True)
    player = None if player is None else printable(player)
    program = None if program is None else printable(program)
    try:
        replay = Replay(board, tuple(actions), rules=rules, player=player, program=program,
                        date=date, seconds=None if seconds is None else float(seconds),
                        source=source)
    except ValueError as error:
        raise fail(str(error)) from None
    first = header.get("first_click")
    if first is not None and not _is_cell(first):
        raise fail("header field 'first_click' is not [row, col]", header_line)
    if first is not None and replay.first_click is not None \
            and tuple(first) != replay.first_click:
        raise fail(f"the header's first click {tuple(first)} is not the first reveal "
                   f"{replay.first_click}", header_line)
    try:
        status = replay.play().status
    except ReplayError as error:
        # Name the line of the action, which the replay itself knows only by its index.
        where = None if error.action is None else records[error.action + 1][0]
        raise fail(error.reason, where) from None
    result = header.get("result")
    if result is not None and result != status:
        raise fail(f"the layout contradicts the recorded clicks: the header says the game was "
                   f"{result}, played back it is {status}", header_line)
    return replay


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "whole number", float: "number", str: "string", list: "list", bool: "boolean"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


# -- the binary formats, through ms-toollib ------------------------------------------------------

def _read_toollib(data: bytes, kind: str, source: str) -> Replay:
    import importlib.util

    if importlib.util.find_spec("ms_toollib") is None:
        raise ModuleNotFoundError(f"reading .{kind} replays needs ms-toollib: "
                                  "pip install 'msanalysis[replays]'", name="ms_toollib")
    script = Path(__file__).with_name("_toollib.py")
    try:
        # ms-toollib writes a crash.log into the working directory when it panics: give the
        # child a directory of its own, thrown away after. It reads a copy of the bytes already
        # read there, not the file itself: a pipe or a device cannot be read twice, and what
        # was read is what was checked against the size limit.
        with tempfile.TemporaryDirectory(prefix="msanalysis-replay-") as scratch:
            copy = Path(scratch) / f"replay.{kind}"
            write_file(copy, data)
            child = subprocess.run([sys.executable, "-P", str(script), kind, str(copy)],
                                   capture_output=True, cwd=scratch, timeout=_CHILD_SECONDS,
                                   check=False)
    except subprocess.TimeoutExpired:
        raise ReplayError(f"ms-toollib did not finish reading it in {_CHILD_SECONDS:g} s: not a "
                          "usable replay", source=source) from None
    if child.returncode != 0 or not child.stdout.strip():
        # ms-toollib aborts the process on many damaged files, with no message worth showing.
        raise ReplayError(f"not a readable .{kind} replay: ms-toollib cannot parse it (the file "
                          "is truncated, damaged or of another kind)", source=source)
    try:
        answer = json.loads(child.stdout)
    except json.JSONDecodeError:
        raise ReplayError(f"not a readable .{kind} replay: ms-toollib's answer is not JSON",
                          source=source) from None
    if "too_large" in answer:
        raise AnalysisTooHard(f"{source_name(source)}: too large to read: "
                              f"{answer['too_large']}")
    if "error" in answer:
        raise ReplayError(f"not a readable .{kind} replay: ms-toollib says "
                          f"{printable(str(answer['error']))}", source=source)
    return _from_toollib(answer, kind, source)


def _toollib_rules(mode: int) -> str | None:
    """The first-click rule of a game mode as ms-toollib numbers them.

    0 is the standard game, whose first click is always safe in all four programs; 4 is
    Metasweeper's "win7" mode (the first click opens); 5-8 are its no-guess modes. The others
    (unlimited replays of a board, cheats, density, and the "guessable" modes, which move mines
    during play) have no rule of ours.
    """
    if mode == 0:
        return "safe-cell"
    if mode == 4:
        return "safe-opening"
    if 5 <= mode <= 8:
        return "no-guess"
    return None


def _from_toollib(data: dict, kind: str, source: str) -> Replay:
    def fail(message: str) -> ReplayError:
        return ReplayError(message, source=source)

    rows, columns, mines = data["rows"], data["columns"], data["mines"]
    layout = data["layout"]
    if rows <= 0 or columns <= 0 or len(layout) != rows \
            or any(len(row) != columns for row in layout):
        raise fail(f"the layout is not the {columns}x{rows} board the header gives")
    board = Board(np.array(layout, dtype=np.int64) == -1)
    if board.mine_count != mines:
        raise fail(f"the layout has {quantity(board.mine_count, 'mine')}, the header says {mines}")
    pixels = data["pixels"]
    states = np.full((rows, columns), 10, dtype=np.int64)  # ms-toollib's game board, covered
    actions: list[Action] = []
    # ms-toollib's changes to its board at each of our actions (not the boards themselves: a
    # board per action of a large one would fill the memory).
    changes: list[list[list[int]]] = []
    skipped: list[list[int]] = []  # the changes of events that are no action of ours
    for event in data["events"]:
        row, col = event["y"] // pixels, event["x"] // pixels
        moment = event["time"]
        if not (0 <= row < rows and 0 <= col < columns):
            raise fail(f"a click at {moment} s lies off the board (pixel {event['x']}, "
                       f"{event['y']})")
        before = int(states[row, col])
        for r, c, value in event["changes"]:
            states[r, c] = value
        after = int(states[row, col])
        level = event["level"]
        covered_before = before in (10, 11, 12)
        if level == 1:
            if before in (10, 12) and after == 11:
                kind_of = ActionKind.FLAG
            elif before == 11 and after in (10, 12):
                kind_of = ActionKind.UNFLAG
            elif before in (10, 12) and after in (10, 12):
                skipped += event["changes"]
                continue  # a question mark put on or taken off: a covered cell either way
            else:
                raise fail(f"a right click at {moment} s on ({row}, {col}) changes it from "
                           f"{before} to {after}, which is neither a flag nor its removal")
        elif level in (2, 3, 4):
            kind_of = ActionKind.REVEAL if covered_before else ActionKind.CHORD
        else:
            raise fail(f"an event at {moment} s has an unknown kind ({level})")
        actions.append(Action(kind_of, (row, col), moment))
        changes.append(skipped + event["changes"])
        skipped = []
    player = printable(data["player"].strip()) or None
    start = data["start_time"]
    try:
        date = datetime.fromtimestamp(start / 1e6, tz=UTC) if start > 0 else None
    except (OverflowError, OSError, ValueError):
        date = None
    software = printable(data["software"].strip())
    program = _PROGRAMS[kind]
    if software and software.lower() not in program.lower():
        # Metasweeper writes its version as "元3.1.9" (元扫雷 is its Chinese name).
        program = f"{program} {software.removeprefix('元')}"
    seconds = data["seconds"]
    try:
        # The rules come last: a layout that contradicts the clicks is the better message.
        replay = Replay(board, tuple(actions), player=player, program=program, date=date,
                        seconds=float(seconds) if math.isfinite(seconds) and seconds > 0
                        else None, source=source)
        status = "not begun"
        recorded = np.full((rows, columns), 10, dtype=np.int64)
        for (index, action, game, _), changed in zip(replay.steps(), changes):
            for r, c, value in changed:
                recorded[r, c] = value
            mismatch = _mismatch(game, recorded)
            if mismatch is not None:
                raise fail(f"the layout contradicts the recorded clicks: after action {index} "
                           f"({action.kind} at {action.cell}, {action.time:g} s) {mismatch}")
            status = str(game.status)
        if data["completed"] and status != "won":
            # ms-toollib stops at a byte that reads as the end of the events and drops the rest
            # unseen: a won game cut short would be judged as unfinished or lost.
            raise fail(f"the file says the game was won, but it is {status} after its "
                       f"{quantity(len(actions), 'action')}: the file is truncated or damaged")
        return dataclasses.replace(replay, rules=_toollib_rules(data["mode"]))
    except ReplayError:
        raise
    except ValueError as error:
        raise fail(str(error)) from None


def _mismatch(game: Game, recorded: np.ndarray) -> str | None:
    """How our play-back differs from ms-toollib's game board, or None when it agrees.

    ms-toollib writes 0-8 for revealed numbers, 10 covered, 11 flag, 12 question mark, and 14
    and above for what a lost game shows (mines, the blast, wrong flags). After a loss only the
    numbers both show are compared: the programs differ in what a fatal chord uncovers.
    """
    ours = game.position().states
    theirs_revealed, ours_revealed = recorded <= 8, ours >= 0
    if game.status == "lost":
        wrong = theirs_revealed & ours_revealed & (recorded != ours)
    else:
        wrong = (theirs_revealed != ours_revealed) | (theirs_revealed & (recorded != ours)) \
            | ((recorded == 11) != (ours == FLAG))
    if not wrong.any():
        return None
    row, col = np.argwhere(wrong)[0].tolist()
    return (f"cell ({row}, {col}) is {_toollib_state(int(recorded[row, col]))} in the file but "
            f"{_our_state(int(ours[row, col]))} when played back on the layout")


def _toollib_state(value: int) -> str:
    if value <= 8:
        return f"a revealed {value}"
    return {10: "covered", 11: "flagged", 12: "covered"}.get(value, "a shown mine")


def _our_state(value: int) -> str:
    if value >= 0:
        return f"a revealed {value}"
    return {HIDDEN: "covered", FLAG: "flagged"}.get(value, "a shown mine")


# -- reading any replay --------------------------------------------------------------------------

def load_replay(path: str | Path, *, format: str | None = None) -> Replay:
    """Read a replay: ``.avf``, ``.rmv``, ``.evf``, ``.mvf`` or our ``.msreplay.jsonl``.

    The binary formats are parsed by ms-toollib (``pip install 'msanalysis[replays]'``) in a
    separate process, which protects this one from the crashes it has on damaged files. Every
    replay is played back while it is read.

    Parameters
    ----------
    path : str or Path
        The file; ``-`` is standard input.
    format : str, optional
        ``avf``, ``rmv``, ``evf``, ``mvf`` or ``jsonl`` (ours), whatever the file's name says.
        By default the name's ending tells the format; standard input, which has no name, is
        read as ours unless told otherwise (the binary formats cannot be told apart by their
        bytes alone).

    Raises
    ------
    ReplayError
        Naming the file and the problem: not a replay, truncated, an unknown version, a layout
        that contradicts the recorded clicks.
    ModuleNotFoundError
        For a binary replay when ms-toollib is not installed.
    FileNotFoundError, IsADirectoryError
        As for any file.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "x.avf")
    >>> _ = open(path, "wb").write(b"")
    >>> try:
    ...     load_replay(path)
    ... except ReplayError as error:
    ...     print(error.reason)
    empty file: not a replay

    Notes
    -----
    O(actions x cells) for the play-back checks; a binary file costs one short-lived process.
    """
    check_path(path)
    source = str(path)
    from_stdin = source == "-"
    path = Path(path)
    if format is not None and (not isinstance(format, str)
                               or format.lower().lstrip(".") not in REPLAY_FORMATS):
        raise InvalidInput(f"unknown replay format {format!r}: expected one of "
                           f"{', '.join(REPLAY_FORMATS)}")
    if not from_stdin and path.is_dir():
        raise IsADirectoryError(21, "is a directory, not a file", source)
    try:
        # Bounded, and the only read: a pipe, a FIFO or a device says nothing true of its
        # size before it is read (/dev/zero's is 0, and it never ends).
        data = read_bytes(source if from_stdin else path)
    except ParseError as error:
        raise ReplayError(error.reason, source=source) from None
    if not data:
        raise ReplayError("empty file: not a replay", source=source)
    if format is not None:
        kind = format.lower().lstrip(".")
    else:
        kind = "" if from_stdin else path.suffix.lower().lstrip(".")
    if kind in _PROGRAMS:
        return _read_toollib(data, kind, source)
    if kind == "jsonl" or data.lstrip()[:1] == b"{":
        return _read_ours(data, source)
    if from_stdin:
        raise ReplayError("not a replay in our format (.msreplay.jsonl), which standard input "
                          "is read as: name the format of an .avf, .rmv, .evf or .mvf replay "
                          "with --format (format= in load_replay)", source=source)
    raise ReplayError(f"unknown replay format {path.suffix or '(no extension)'!r}: expected "
                      ".avf, .rmv, .evf, .mvf or .msreplay.jsonl, or a format named with --format "
                      "(format= in load_replay)", source=source)


# -- recording games as they are played ----------------------------------------------------------

class ReplayRecorder:
    """Play a :class:`~msanalysis.game.Game` and keep its actions, to make a :class:`Replay`.

    Make the first click through the recorder (:meth:`reveal`); the recorder is then also an
    ``on_move`` callback for :func:`msanalysis.play.autoplay.autoplay`, which applies the moves to
    the game itself.

    Parameters
    ----------
    game : Game
        A game with no click made yet.
    player : str, optional
    program : str
    clock : callable, optional
        Returns the current time in seconds; :func:`time.perf_counter` by default. Times are
        recorded from the first action.

    Examples
    --------
    >>> from msanalysis.game import Game
    >>> game = Game(Board.from_text("*..\\n..."), rules="safe-cell")
    >>> recorder = ReplayRecorder(game, player="me", clock=iter(range(100)).__next__)
    >>> _ = recorder.reveal((1, 2))
    >>> recorder.flag((0, 0))
    >>> recorder.chord((1, 1))
    [(1, 0)]
    >>> replay = recorder.replay()
    >>> [(a.kind.value, a.cell, a.time) for a in replay.actions]
    [('reveal', (1, 2), 0.0), ('flag', (0, 0), 1.0), ('chord', (1, 1), 2.0)]
    >>> replay.rules, replay.player, replay.play().status
    ('safe-cell', 'me', 'won')
    """

    def __init__(self, game: Game, *, player: str | None = None, program: str = "msanalysis",
                 clock: Callable[[], float] | None = None) -> None:
        check_type(game, Game, "ReplayRecorder", "Game(board) makes one")
        if game.clicks:
            raise InvalidInput("start recording before the first click: the recorder must see it")
        check_function(clock, "clock is a function that gives seconds")
        self.game = game
        self.player = player
        self.program = program
        self._clock = clock or _time.perf_counter
        self._start: float | None = None
        self._date: datetime | None = None
        self._actions: list[Action] = []

    def _now(self) -> float:
        """Seconds since the first action; the clock is checked now, not when the game is
        over and its replay is made."""
        reading = self._clock()
        moment = as_real(reading)
        if not math.isfinite(moment):
            raise InvalidInput(f"the replay's clock gave {reading!r}, not a number of seconds")
        if self._start is None:
            self._start = moment
            self._date = datetime.now(UTC).replace(microsecond=0)
        elapsed = moment - self._start
        if self._actions and elapsed < self._actions[-1].time:
            raise InvalidInput(f"the replay's clock went back: {elapsed} s after "
                               f"{self._actions[-1].time} s")
        return elapsed

    def record(self, kind: ActionKind | str, cell: Cell) -> None:
        """Keep an action that was already applied to the game."""
        cell = as_cell(cell, self.game.board.height, self.game.board.width)
        # Action makes the kind one (an unknown one is refused there, by name).
        self._actions.append(Action(cast(ActionKind, kind), cell, self._now()))

    def __call__(self, move: Any) -> None:
        """Keep a :class:`~msanalysis.play.autoplay.Move` that :func:`autoplay` applied."""
        self.record(move.kind, move.cell)

    def reveal(self, cell: Cell) -> list[Cell]:
        """Reveal ``cell`` on the game and keep the action; returns the cells uncovered."""
        opened = self.game.reveal(cell)
        self.record(ActionKind.REVEAL, cell)
        return opened

    def chord(self, cell: Cell) -> list[Cell]:
        opened = self.game.chord(cell)
        self.record(ActionKind.CHORD, cell)
        return opened

    def flag(self, cell: Cell) -> None:
        apply_action(self.game, Action(ActionKind.FLAG, cell))
        self.record(ActionKind.FLAG, cell)

    def unflag(self, cell: Cell) -> None:
        self.game.unflag(cell)
        self.record(ActionKind.UNFLAG, cell)

    def replay(self) -> Replay:
        """The game so far as a replay (the layout is the one in play, after the first click)."""
        seconds = self._actions[-1].time if self._actions else None
        return Replay(self.game.board, tuple(self._actions), rules=self.game.rules,
                      player=self.player, program=self.program, date=self._date,
                      seconds=seconds)


def position_without_flags(position: Position) -> Position:
    """The position with every flag read as a covered cell (the numbers are the truth).

    Examples
    --------
    >>> print(position_without_flags(Position.from_text("mines: 1\\nF1\\n11")).to_text())
    mines: 1
    ?1
    11
    """
    check_type(position, Position, "position_without_flags", "Position.from_text reads one")
    states = position.states
    if not (states == FLAG).any():
        return position
    return Position(np.where(states == FLAG, HIDDEN, states), position.total_mines)


