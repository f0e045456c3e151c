"""Exceptions shared by the whole toolkit.

Every error the toolkit raises on purpose is an :class:`MsanalysisError`, so a caller (the command
line among them) can catch ours and let a programming error surface as one. Every error a user
can cause is also a ``ValueError`` whose message says which input was wrong and where, so it
prints on one line. ``AnalysisTooHard`` is the exception to that: the input is fine, but exact
work on it would exceed the bound the caller set.
"""

from __future__ import annotations

import math
import numbers
import reprlib
import signal
import time
import unicodedata
from typing import Any

import numpy as np

__all__ = [
    "MAX_JOBS",
    "AnalysisTooHard",
    "IllegalMove",
    "InconsistentPosition",
    "InvalidInput",
    "MsanalysisError",
    "NoLayout",
    "ParseError",
    "TimeLimitReached",
    "WrongType",
    "a_name",
    "as_real",
    "as_time_limit",
    "check_flag",
    "check_function",
    "check_jobs",
    "check_list",
    "check_time_for",
    "check_type",
    "deadline_after",
    "name_clues",
    "plural",
    "printable",
    "quantity",
    "seconds_left",
    "source_name",
    "time_is_up",
]


class MsanalysisError(Exception):
    """The base of every error the toolkit raises on purpose."""


class InvalidInput(MsanalysisError, ValueError):
    """An argument the toolkit cannot work with: a size that does not fit, an unknown rule name,
    a cell off the board. The message says which value was wrong and why.

    Examples
    --------
    >>> from msanalysis.rules import board_size
    >>> board_size("huge")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: unknown difficulty 'huge'; choose one of beginner, ...
    """


class WrongType(InvalidInput, TypeError):
    """An argument of the wrong kind: a Board where a Position is wanted, a list where a grid
    is. Both an ``InvalidInput`` and a ``TypeError``; the message says what was expected.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.board import Board
    >>> analyze(Board.from_text("*."))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: analyze takes a Position, got a Board (...)
    """


def as_time_limit(seconds: Any) -> float | None:
    """A ``time_limit`` argument checked: None or infinity (no limit), else a positive number
    of seconds. NaN, 0, a negative number or a string is refused (NaN compares false with every
    clock, so it would stop everything at once or nothing ever).

    Examples
    --------
    >>> as_time_limit(2), as_time_limit(float("inf")), as_time_limit(None)
    (2.0, None, None)
    >>> as_time_limit(float("nan"))
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: a time limit is a positive number of seconds, got nan
    """
    if seconds is None:
        return None
    value = as_real(seconds)
    if not value > 0:
        raise InvalidInput(f"a time limit is a positive number of seconds, got {seconds!r}")
    return None if math.isinf(value) else value


def deadline_after(seconds: Any) -> float | None:
    """The :func:`time.perf_counter` value ``seconds`` from now, for a ``time_limit`` argument
    (checked by :func:`as_time_limit`): work that calls more work passes the deadline on, so
    that all of it shares the one limit. None for no limit.

    Examples
    --------
    >>> deadline_after(None), deadline_after(float("inf"))
    (None, None)
    >>> 0 < deadline_after(2) - time.perf_counter() <= 2
    True
    """
    limit = as_time_limit(seconds)
    return None if limit is None else time.perf_counter() + limit


def time_is_up(deadline: float | None) -> bool:
    """Whether ``deadline`` (a :func:`time.perf_counter` value, None for no limit) has passed:
    what long work asks between steps before it raises :class:`TimeLimitReached`.

    Examples
    --------
    >>> time_is_up(None), time_is_up(0.0), time_is_up(deadline_after(60))
    (False, True, False)
    """
    return deadline is not None and time.perf_counter() > deadline


def check_time_for(seconds: float, deadline: float | None, what: str) -> None:
    """Refuse at once work that cannot be stopped once begun and is estimated to take
    ``seconds`` (on the machine the estimate was measured on), when even half of that would
    pass ``deadline``: :class:`TimeLimitReached` saying ``what`` the work is. Work of less than
    a second is let run: the looks at the clock after it stop it soon enough.

    Examples
    --------
    >>> check_time_for(0.5, deadline_after(1e-9), "x"), check_time_for(9e9, None, "x")
    (None, None)
    >>> check_time_for(30.0, deadline_after(5), "setting up")
    Traceback (most recent call last):
    ...
    msanalysis.errors.TimeLimitReached: setting up would run past the time limit (about 30 s)
    """
    if deadline is not None and seconds >= 1 and seconds / 2 > deadline - time.perf_counter():
        raise TimeLimitReached(f"{what} would run past the time limit (about {seconds:.0f} s)")


def seconds_left(deadline: float | None) -> float | None:
    """The time limit left before ``deadline`` (a :func:`time.perf_counter` value), for work
    that takes seconds: None for no deadline, and a moment at least once it has passed (a
    limit of nothing is refused; a moment makes a partial answer).

    Examples
    --------
    >>> seconds_left(None), seconds_left(0.0)
    (None, 0.001)
    """
    return None if deadline is None else max(deadline - time.perf_counter(), 1e-3)


def worker_ignores_interrupts() -> None:
    """Make this process (a worker of a pool) ignore Ctrl-C.

    Ctrl-C reaches every process of the terminal's group: only the parent acts on it (it stops
    dealing out work, terminates the workers and reports what was finished); a worker that
    took it too would die printing a ``KeyboardInterrupt`` traceback of its own. Give it as a
    pool's ``initializer``.

    Examples
    --------
    >>> import multiprocessing
    >>> with multiprocessing.Pool(1, initializer=worker_ignores_interrupts) as pool:
    ...     pool.map(abs, [-1, 2])
    [1, 2]
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


MAX_JOBS = 64
"""The most local worker processes one run starts (more would only contend for the cores, and a
pool of a huge number would fill the memory before it started)."""


def check_jobs(jobs: Any) -> None:
    """Refuse a number of local worker processes outside 1 to :data:`MAX_JOBS` (a float, a
    string or a bool too).

    Examples
    --------
    >>> check_jobs(2)
    >>> check_jobs(0)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: --jobs takes 1 to 64 local worker processes, got 0
    """
    if isinstance(jobs, (bool, np.bool_)) or not isinstance(jobs, numbers.Integral):
        raise InvalidInput(f"--jobs must be a whole number (an int), got {jobs!r}")
    if not 1 <= int(jobs) <= MAX_JOBS:
        raise InvalidInput(f"--jobs takes 1 to {MAX_JOBS} local worker processes, got {jobs}")


def as_real(value: Any) -> float:
    """``value`` as a float when it is a real number, NaN otherwise (a string, None, a bool:
    ``True`` is an int to Python, not a number of seconds or a weight), for a check of range to
    refuse.

    Examples
    --------
    >>> as_real(2), as_real("2"), as_real(True)
    (2.0, nan, nan)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return math.nan
    try:
        return float(value)
    except OverflowError:  # an int (or a fraction) past any float: as large as a float gets
        negative = value < 0
        return -math.inf if negative else math.inf


def check_type(value: object, kind: type, taker: str, hint: str = "") -> None:
    """Raise :class:`WrongType` unless ``value`` is a ``kind``: "``taker`` takes a ``kind``,
    got a ...", then ``hint`` (how to make one) in brackets.

    Examples
    --------
    >>> check_type([1, 2], tuple, "the example", "tuple(x) makes one")
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: the example takes a tuple, got a list (tuple(x) makes one)
    """
    if not isinstance(value, kind):
        raise WrongType(f"{taker} takes {a_name(kind.__name__)}, got "
                        f"{a_name(type(value).__name__)}" + (f" ({hint})" if hint else ""))


def check_flag(value: object, name: str) -> None:
    """Raise :class:`WrongType` unless ``value`` is True or False (a numpy bool too): a string
    such as ``"no"`` is true to Python, and would quietly mean yes.

    Examples
    --------
    >>> check_flag(False, "ignore_flags")
    >>> check_flag("no", "ignore_flags")
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: ignore_flags is True or False, got 'no'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise WrongType(f"{name} is True or False, got {value!r}")


def check_list(value: object, what: str) -> None:
    """Raise :class:`WrongType` "``what``, got ..." unless ``value`` can be gone through as a
    list of items: a string or bytes, which Python would go through character by character, is
    refused too.

    Examples
    --------
    >>> check_list([(0, 1)], "highlight is a list of cells")
    >>> check_list(5, "highlight is a list of cells")
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: highlight is a list of cells, got 5
    """
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise WrongType(f"{what}, got {value!r}")


def check_function(value: object, what: str) -> None:
    """Raise :class:`WrongType` "``what``, got ..." unless ``value`` is None (none given) or
    can be called.

    Examples
    --------
    >>> check_function(print, "on_round is a function of the race")
    >>> check_function(3, "on_round is a function of the race")
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: on_round is a function of the race, got 3
    """
    if value is not None and not callable(value):
        raise WrongType(f"{what}, got {reprlib.repr(value)}")


def source_name(path: object) -> str:
    """How messages name the file at ``path``: ``stdin`` for ``-`` (standard input).

    >>> source_name("-"), source_name("games/a.evf")
    ('stdin', 'games/a.evf')
    """
    return "stdin" if str(path) == "-" else str(path)


def target_name(path: object) -> str:
    """How messages name the file written at ``path``: ``stdout`` for ``-`` (standard output).

    >>> target_name("-"), target_name("board.svg")
    ('stdout', 'board.svg')
    """
    return "stdout" if str(path) == "-" else str(path)


class ParseError(MsanalysisError, ValueError):
    """Text or bytes that do not describe a board, position or number grid.

    Parameters
    ----------
    message : str
        What is wrong, without the location.
    line, column : int, optional
        1-based location of the problem in a text input.
    source : str, optional
        The file name, when the input came from a file (``-``, standard input, is named
        ``stdin``).

    Examples
    --------
    >>> str(ParseError("unknown character 'x'", line=2, column=5))
    "line 2, column 5: unknown character 'x'"
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None,
                 source: str | None = None) -> None:
        self.reason = message
        self.line = line
        self.column = column
        self.source = None if source is None else source_name(source)
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def in_file(self, source: str) -> ParseError:
        """Return the same error, located in the file ``source``."""
        return ParseError(self.reason, line=self.line, column=self.column, source=source)


class NoLayout(MsanalysisError, ValueError):
    """No mine layout fits the numbers: of a position, or of a number grid.

    Both report it alike: a message naming a small set of clues that cannot all hold, and the
    clues themselves in :attr:`clues`.

    Parameters
    ----------
    message : str
        Human-readable explanation.
    clues : list of (row, col)
        A small set of cells whose numbers cannot all hold together.
    uses_mine_count : bool
        True when the total mine count is part of the contradiction.
    """

    def __init__(self, message: str, *, clues: list[tuple[int, int]] | None = None,
                 uses_mine_count: bool = False) -> None:
        self.clues = sorted(clues or [])
        self.uses_mine_count = uses_mine_count
        super().__init__(message)


def name_clues(numbered: list[tuple[tuple[int, int], int]], most: int = 12) -> str:
    """Clues in words, for a message: the first ``most``, then how many more.

    >>> name_clues([((0, 0), 1), ((2, 2), 0)])
    'the 1 at (0, 0) and the 0 at (2, 2)'
    """
    named = [f"the {number} at {cell}" for cell, number in numbered[:most]]
    if len(numbered) > most:  # the error keeps them all in ``clues``; the message names a few
        named.append(f"{len(numbered) - most} more clues")
    if len(named) > 1:
        return ", ".join(named[:-1]) + " and " + named[-1]
    return named[0] if named else "no clue"


class InconsistentPosition(NoLayout):
    """No mine layout satisfies the position (see :class:`NoLayout`)."""


class IllegalMove(MsanalysisError, ValueError):
    """A move the game refuses: off the board, after the game is over, a flag on a number.

    Examples
    --------
    >>> from msanalysis.board import Board
    >>> from msanalysis.game import Game
    >>> Game(Board.from_text("*.")).reveal((0, 5))
    Traceback (most recent call last):
    ...
    msanalysis.errors.IllegalMove: cell (0, 5) is off the 2x1 board
    """


class AnalysisTooHard(MsanalysisError, RuntimeError):
    """Exact work on a position exceeded the time or size bound that was set.

    Parameters
    ----------
    message : str
        Which bound was hit and how far the work got.
    """


class TimeLimitReached(AnalysisTooHard):
    """The bound hit was a time limit: the work stopped at it, or was not begun because it could
    not end by it. (Other ``AnalysisTooHard`` errors are bounds of size, which more time would
    not lift.)

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> a = analyze(Position.from_text("mines: 2\\n????\\n121?\\n...?"), time_limit=1e-9)
    >>> try:
    ...     a.solutions
    ... except TimeLimitReached as stopped:
    ...     print(str(stopped).partition(":")[0])
    finding forced cells ran past the time limit
    """


def quantity(count: int, noun: str, plural_form: str | None = None) -> str:
    """The count and the noun, singular or plural as the count asks.

    >>> quantity(1, "mine"), quantity(10, "mine"), quantity(1, "safe cell")
    ('1 mine', '10 mines', '1 safe cell')
    """
    return f"{count} {plural(count, noun, plural_form)}"


def mines_do_not_fit(mines: int, where: str) -> str:
    """The message for more mines than ``where`` (a board, some cells) can hold.

    >>> mines_do_not_fit(1, "0 cells"), mines_do_not_fit(82, "a 9x9 board")
    ('1 mine does not fit on 0 cells', '82 mines do not fit on a 9x9 board')
    """
    return f"{quantity(mines, 'mine')} {plural(mines, 'does', 'do')} not fit on {where}"


def a_name(name: str) -> str:
    """``name`` after its article, for a message that names a kind of thing.

    >>> a_name("int"), a_name("Analysis"), a_name("str")
    ('an int', 'an Analysis', 'a str')
    """
    return ("an " if name[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + name


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``noun`` or its plural, as ``count`` asks (the number itself is not written).

    >>> plural(1, "mine"), plural(2, "mine"), plural(0, "safe cell"), plural(3, "is", "are")
    ('mine', 'mines', 'safe cells', 'are')
    """
    if count == 1:
        return noun
    return plural_form if plural_form is not None else noun + "s"


def printable(text: str) -> str:
    """``text`` with every character that is not printable written as its escape.

    For text from a file that is shown in a message, a report, a CSV row or a picture (a file
    name, a player's name): a line break there would split a line, a terminal control code would
    act on the terminal, and a lone surrogate (which a JSON ``\\ud800`` escape, or a file name
    that is not UTF-8, can make) cannot be written as UTF-8 at all. Spaces of every script are
    kept: names use them.

    Examples
    --------
    >>> print(printable("Zhang\\nShen\\x1b[2J\\ud800"))
    Zhang\\nShen\\x1b[2J\\ud800
    >>> printable("王嘉宁 (China)")
    '王嘉宁 (China)'
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or unicodedata.category(char) == "Zs"
                   else ascii(char)[1:-1] for char in text)
