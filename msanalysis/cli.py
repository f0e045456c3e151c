"""The ``msanalysis`` command line: a typer app over the library.

Every command reads its input through the library's parsers and reports a user's mistake as one
line ``error: ...`` on stderr with exit status 2 (1 where a command says the input has no
answer), never a traceback. The library itself never prints; only this module does.
"""

from __future__ import annotations

import errno
import io
import json
import math
import os
import re
import select
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer
from typer.core import TyperGroup

from msanalysis import text
from msanalysis.board import MAX_CELLS, Board, Cell, oversized
from msanalysis.errors import (
    AnalysisTooHard,
    InconsistentPosition,
    InvalidInput,
    MsanalysisError,
    ParseError,
    TimeLimitReached,
    deadline_after,
    printable,
    seconds_left,
    source_name,
    target_name,
    worker_ignores_interrupts,
)
from msanalysis.exact import decimal, fraction_text, magnitude
from msanalysis.files import REPLAY_SUFFIXES, read_bytes, write_file
from msanalysis.formats import read_any
from msanalysis.rules import (
    FirstClick,
    as_seed,
    board_size,
    check_seed_run,
    default_first_click,
    protected_mine,
)
from msanalysis.sat import Explanation

if TYPE_CHECKING:  # imported where used, as every command's modules are: start-up stays quick
    from msanalysis.numbergrid import NumberGrid

OUT_OF_MEMORY = "ran out of memory: the input is too large for this machine"

EXIT_NO_ANSWER = 1
"""Exit status when the input has no answer: no layout fits, an inconsistent position."""
EXIT_BAD_INPUT = 2
"""Exit status for input that cannot be used: a bad file, option or value."""
EXIT_GAVE_UP = 3
"""Exit status when the work stopped at a limit (time or size) before the whole answer."""
EXIT_BROKEN_PIPE = 141
"""Exit status when the reader of the output stopped reading (``| head``): 128 + SIGPIPE, what
a shell reports for a program a closed pipe ends."""

MAX_TIME_LIMIT = 10_000_000
"""The longest ``--time-limit`` in seconds: a timer cannot be set much further ahead."""

# The parsing errors of typer's click (vendored or not), found without importing its internals.
_ClickException: type[Exception] = next(kind for kind in typer.BadParameter.__mro__
                                        if kind.__name__ == "ClickException")


def _message_of(error: Exception) -> str:
    """A usage error's message, with the option it is about (click's ``format_message``),
    without the "Value error, " that typer's validation puts before a bad choice's reason."""
    format_message = getattr(error, "format_message", None)
    message = format_message() if callable(format_message) else str(error)
    return message.replace(": Value error, ", ": ")


class _OneLineErrors(TyperGroup):
    """The command group, with every usage error (a bad option value, a missing option, an
    unknown command) printed as one ``error:`` line, exit status 2, like the commands' own; a
    closed output pipe and running out of memory end every command alike too."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # The reader has gone: nothing more can be said to it, nor at exit.
            _stop_writing()
            raise typer.Exit(EXIT_BROKEN_PIPE) from None
        except MemoryError:
            fail(OUT_OF_MEMORY, EXIT_GAVE_UP)
        except OSError as error:
            if not error.filename and error.errno in _WRITE_ERRORS:
                _stop_writing()
            fail(_os_error_text(error))

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        run = partial(super().main, args=args, prog_name=prog_name, complete_var=complete_var,
                      standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        if not standalone_mode:
            return run()
        _prepare_output()
        try:
            try:
                status = run(args=_as_given(sys.argv[1:] if args is None else list(args)))
            except _ClickException as error:
                if type(error).__name__ == "NoArgsIsHelpError":  # the bare command: its help
                    typer.echo(_message_of(error))
                    sys.exit(0)
                message = _message_of(error)
                context = getattr(error, "ctx", None)
                if context is not None:
                    message += f" (see '{context.command_path} --help')"
                _say(f"error: {message}")
                sys.exit(EXIT_BAD_INPUT)
            except typer.Abort:
                _say("error: aborted")
                sys.exit(1)
        # Help is written before any command runs, outside invoke's handlers.
        except BrokenPipeError:
            _stop_writing()
            sys.exit(EXIT_BROKEN_PIPE)
        except OSError as error:
            if error.errno not in _WRITE_ERRORS:
                raise
            _stop_writing()
            _say(f"error: {_unwritable(error)}")
            sys.exit(EXIT_BAD_INPUT)
        if _reader_gone():
            _stop_writing()
            sys.exit(EXIT_BROKEN_PIPE)
        sys.exit(status if isinstance(status, int) else 0)


def _as_given(args: list[str]) -> list[str]:
    """The command line's arguments as typed, before typer makes paths of them: a path that
    only reads ``-`` (``./-``) names a file called ``-``, not standard input, and an empty
    argument (which a path would read as ``.``) is refused.

    >>> _as_given(["show", "./-"]) == ["show", os.path.abspath("-")]
    True
    >>> _as_given(["show", "-", "--svg=a//b.svg"])
    ['show', '-', '--svg=a//b.svg']
    >>> try:
    ...     _as_given(["analyze", "x.txt", "--svg", ""])
    ... except _UsageError as error:
    ...     print(error)
    an empty argument after --svg: give a value
    """
    given = []
    for index, arg in enumerate(args):
        option, equals, value = arg.partition("=") if arg.startswith("--") else ("", "", arg)
        if not equals:
            option, value = "", arg
        if value == "":
            after = f" after {args[index - 1]}" if index and not option else ""
            raise _UsageError(f"an empty argument{option and ' to ' + option}{after}: give a "
                              "value")
        if value != "-" and os.path.normpath(value) == "-":
            value = os.path.abspath(value)
        given.append(f"{option}={value}" if option else value)
    return given


_UsageError: type[Exception] = next(kind for kind in typer.BadParameter.__mro__
                                    if kind.__name__ == "UsageError")


_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}
"""What a write to a full or failing disk raises, or to a closed standard output."""


def _os_error_text(error: OSError) -> str:
    """One line for an OSError: the file it names and the system's word for what went wrong
    (``NAME: Permission denied``, not Python's ``[Errno 13] Permission denied: 'NAME'``), or
    what :func:`_unwritable` says of one that names no file."""
    return f"{error.filename}: {error.strerror}" if error.filename else _unwritable(error)


def _unwritable(error: OSError) -> str:
    """What to say of an OSError that names no file. Files are read and written through
    :mod:`msanalysis.files`, which names them: one of a full or failing disk, or a closed
    descriptor, comes from writing to standard output; any other (a worker pool that cannot
    start, a lost Dask connection) is said as it is."""
    if error.errno == errno.EBADF:
        return "cannot write to standard output: it is closed"
    if error.errno in _WRITE_ERRORS:
        return f"cannot write to standard output: {error.strerror}"
    return str(error) or type(error).__name__


class _ClosedOutput(io.RawIOBase):
    """Standard output when the command was started without one (``>&-``): every write fails,
    as a write to a closed descriptor does, where Python would drop it without a word."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def _reader_gone() -> bool:
    """Whether standard output is a pipe whose reader has closed it, once the command is done.

    The output may then not all have been read, and a long write cut short by the reader's
    going (1 MB of layout into ``| (sleep 1)``) can end without an error: Python's buffered
    output dropped the rest of it without a word, so only the pipe itself can tell.
    """
    with suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return True
        fd = sys.stdout.fileno()
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            poller = select.poll()
            poller.register(fd, select.POLLOUT)
            return any(events & select.POLLERR for _, events in poller.poll(0))
    return False


def _prepare_output() -> None:
    """Standard output and error as the command writes them: a closed output fails loudly (see
    :class:`_ClosedOutput`), and a character the terminal's encoding cannot hold (a player's
    name in a replay, under ``LANG=C`` or latin-1) is written as an escape, not an error."""
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(_ClosedOutput(), write_through=True)
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError, io.UnsupportedOperation):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


def _stop_writing(stream: Any = None) -> None:
    """Point standard output (or ``stream``) at nothing, so that the flush at exit cannot fail
    again."""
    # A captured output (a test's) is not a real file, and nothing is flushed to a pipe then.
    with suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), (stream or sys.stdout).fileno())


app = typer.Typer(
    name="msanalysis",
    cls=_OneLineErrors,
    help="Exact Minesweeper analysis: forced cells, probabilities, reconstruction, autoplay.",
    epilog="Exit status: 0 answered; 1 no layout fits (an inconsistent position or grid); "
           "2 unusable input (a bad file, option or value); 3 gave up at a limit (time or "
           "size) before the whole answer; 130 interrupted; 141 the output's reader stopped "
           "reading.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on stderr, on one line, and leave with ``code``."""
    # A message may quote a file name or a value that holds a line break or a control code.
    _say(f"error: {printable(message)}")
    raise typer.Exit(code)


def _say(line: str) -> None:
    """Write ``line`` to standard error. When that cannot be written either (a full disk), it
    says nothing more there, and the exit status alone tells (a traceback of the failed
    message, exit status 1, said that no layout fits)."""
    try:
        typer.echo(line, err=True)
    except OSError:
        _stop_writing(sys.stderr)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's errors, and a file that cannot be read, into one ``error:`` line.

    Only our own errors (:class:`~msanalysis.errors.MsanalysisError`) and ``OSError`` are
    caught: anything else is a bug, and shows as one.
    """
    try:
        yield
    except BrokenPipeError:
        raise  # the output's reader has gone: the command group ends it (no message)
    except InconsistentPosition as error:
        fail(str(error), EXIT_NO_ANSWER)
    except AnalysisTooHard as error:
        fail(str(error), EXIT_GAVE_UP)
    except MsanalysisError as error:
        fail(str(error))
    except FileNotFoundError as error:
        fail(_not_found(error.filename))
    except IsADirectoryError as error:
        fail(f"is a directory, not a file: {error.filename}")
    except OSError as error:
        fail(_os_error_text(error))


def _not_found(name: str) -> str:
    """What is missing when ``name`` cannot be opened: the file, or the folder it would be in.

    >>> _not_found("README.md"), _not_found("no/such/x.svg")
    ('no such file: README.md', 'no such folder: no/such (for no/such/x.svg)')
    """
    folder = Path(name).parent
    return f"no such file: {name}" if folder.is_dir() else f"no such folder: {folder} (for {name})"


def parse_cell(text: str, option: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (0-based) for options such as ``--first-click`` and ``--explain``;
    also ``(ROW, COL)``, as explanations and error messages write a cell.

    >>> parse_cell("3,4", "--explain"), parse_cell("(3, 4)", "--explain")
    ((3, 4), (3, 4))
    """
    bare = text.replace(" ", "")
    if bare.startswith("(") and bare.endswith(")"):
        bare = bare[1:-1]
    parts = bare.split(",")
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):
        fail(f"{option} takes ROW,COL with rows and columns counted from 0, such as 3,4; "
             f"got {text!r}")
    if any(oversized(part) for part in parts):
        fail(f"{option} {text[:40]!r}: off any board (at most {MAX_CELLS} cells)")
    return int(parts[0]), int(parts[1])


def first_click_of(text: str | None, rules: str, size: tuple[int, ...],
                   option: str = "--first-click") -> Cell:
    """The ``--first-click`` given (or what ``option`` names), or the rule's default for a board
    of ``size`` (width first)."""
    if text is not None:  # an empty value is a mistake, not the default
        return parse_cell(text, option)
    return default_first_click(rules, width=size[0], height=size[1])


def make_folder(path: Path, option: str) -> None:
    """Make the folder an option names (and its parents); a file in the way is refused by the
    option's name."""
    if path.exists() and not path.is_dir():
        fail(f"{option} {path} is a file, not a folder (a folder is made when missing)")
    with user_errors():
        try:
            path.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):  # a dangling link, a file above it
            fail(f"{option} {path}: a file (or a broken link) is in the way of making this "
                 "folder")


def check_time_limit(seconds: float) -> None:
    """Refuse a time limit that is not a positive number of seconds (nan, inf, 0, -1), or
    longer than :data:`MAX_TIME_LIMIT` (timers cannot be set that far)."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIME_LIMIT):
        fail(f"--time-limit takes a positive number of seconds up to {MAX_TIME_LIMIT:,} "
             f"(about 115 days), got {seconds}")


def search_stopped(time_limit: float) -> NoReturn:
    """Leave with exit 3 once a search for layouts has printed what it found in time."""
    fail(f"the search stopped at the time limit ({time_limit:g} s): the layouts above are the "
         "ones found, and their count is a lower bound", EXIT_GAVE_UP)


def explain_or_why_not(analysis: Any, cell: Cell,
                       deadline: float | None = None) -> Explanation | str:
    """The explanation of a forced cell, or in words why there is none: the cell is not forced.

    A cell off the board, revealed or flagged is unusable input and fails; an explanation not
    found by ``deadline`` raises TimeLimitReached.
    """
    height, width = analysis.position.shape
    if not (0 <= cell[0] < height and 0 <= cell[1] < width):
        fail(f"--explain {cell[0]},{cell[1]} is off the {width}x{height} board")
    undecided = cell not in analysis.forced_safe and cell not in analysis.forced_mines \
        and cell in analysis.constraints.unknown
    if undecided and analysis.all_forced:
        return (f"cell ({cell[0]}, {cell[1]}) is not forced: it is a mine in some layouts and "
                "safe in others")
    try:
        # A partial analysis may have missed a forced cell: the explanation decides.
        return analysis.explain(cell, time_limit=seconds_left(deadline))
    except InvalidInput as error:
        if undecided:  # the one thing left to refuse about a hidden cell: it is not forced
            return str(error)
        raise


def print_json(data: object) -> None:
    typer.echo(json.dumps(data))


def stdout_is_terminal() -> bool:
    return sys.stdout is not None and sys.stdout.isatty()  # None: stdout closed (>&-)


def draw_grid(rows: list[str]) -> str:
    """Rows of cells drawn with row and column numbers, coloured on a terminal."""
    return text.render_grid(rows, colour=stdout_is_terminal() and "NO_COLOR" not in os.environ)


def chosen_difficulty(difficulty: str | None, *sizes: int | None) -> str | None:
    """The difficulty to start from: the one given, else beginner unless any size was given."""
    given = any(size is not None for size in sizes)  # 0 is given too (and refused later)
    return difficulty or (None if given else "beginner")


def check_not_read(output: Path | None, inputs: Sequence[Path], option: str) -> None:
    """Refuse an ``output`` that is one of the files the command reads: written after they
    are read, it would replace one without a word."""
    if output is None or str(output) == "-":
        return
    for source in inputs:
        try:
            same = str(source) != "-" and os.path.samefile(output, source)
        except OSError:  # one of them missing (the output, usually): not the same file
            same = False
        if same:
            fail(f"{option} {output} is the file read ({source}): writing it would replace "
                 "it; give another name")


def write_svg(obj: object, path: Path) -> None:
    """Write ``svg.board(obj)`` to ``path`` (the picture module is imported only when asked)."""
    from msanalysis import svg

    write_file(path, svg.board(obj))
    typer.echo(f"wrote {target_name(path)}", err=True)


# == foundation: show, generate, metrics ==========================================================

def _readable_again(path: Path) -> bool:
    """Whether ``path`` can be read a second time, to say what else it holds: a regular file, not
    standard input or a pipe (opened again, a pipe waits for a writer that never comes)."""
    return str(path) != "-" and path.is_file()


def load_board(path: Path, command: str, data: bytes | None = None) -> Board:
    """The board in ``path`` (whose bytes are ``data`` when already read); a position there is
    refused by name, not by its first character that is not ``*`` or ``.``."""
    from msanalysis.position import Position

    try:
        return Board.load(path) if data is None else Board.from_file_bytes(data, path)
    except ParseError as not_a_board:
        if path.suffix.lower() in (".mbf", *REPLAY_SUFFIXES) or not _readable_again(path):
            raise  # binary by its name, or a replay: its own error says what is wrong with it
        try:
            Position.load(path)
        except MsanalysisError:
            raise not_a_board from None  # neither: the layout's own error says where
        fail(f"{path} is a position (what a player sees), not a board: '{command}' reads a mine "
             "layout ('*' mines, '.' safe cells, or MBF); 'analyze' reads positions")


def load_grid(path: Path, rule: GridRule | None, default: str) -> NumberGrid:
    """The number grid in ``path``; when the file is not one but reads as a board, a position
    or a replay, the grid's error (which names the line and column) says so and which command
    reads it."""
    from msanalysis.numbergrid import NumberGrid
    from msanalysis.position import Position

    try:
        grid = NumberGrid.load(path, rule=None if rule is None else rule.value, default=default)
    except ParseError as not_a_grid:
        if not _readable_again(path):
            raise
        what = None
        if path.suffix.lower() in REPLAY_SUFFIXES:
            what = "is a replay by its name, which 'msanalysis replay' reads"
        else:
            with suppress(MsanalysisError):
                Board.load(path)
                what = "reads as a board (a mine layout), which 'show' and 'metrics' read"
            if what is None:
                with suppress(MsanalysisError):
                    Position.load(path)
                    what = "reads as a position (what a player sees), which 'analyze' reads"
        if what is None:
            raise
        raise ParseError(f"{not_a_grid.reason}; the file {what}",
                         line=not_a_grid.line, column=not_a_grid.column,
                         source=str(path)) from None
    if rule is not None and grid.rule != rule.value:  # only a Tatham ID overrides the rule
        raise InvalidInput(f"{source_name(str(path))}: a Tatham Mosaic ID, whose numbers count "
                           f"the 3x3 block with the cell: --rule {rule.value} does not apply to it "
                           "(leave it out)")
    return grid


def _board_metrics(board: Board) -> dict[str, int]:
    return {"width": board.width, "height": board.height, "mines": board.mine_count,
            "openings": board.openings, "islands": board.islands, "bbbv": board.bbbv}


@app.command()
def show(
    file: Annotated[Path, typer.Argument(
        help="A position (.txt, .mine) or a board (layout text, .mbf).")],
    svg: Annotated[Optional[Path], typer.Option(
        "--svg", help="Also write the picture to this SVG file.")] = None,
) -> None:
    """Print a position or a board; for a board, its metrics too."""
    check_not_read(svg, [file], "--svg")
    with user_errors():
        item = read_any(file)
        if isinstance(item, Board):
            typer.echo(draw_grid(text.board_rows(item)))
            metrics = _board_metrics(item)
            typer.echo(f"{metrics['width']}x{metrics['height']}, "
                       f"{text.quantity(metrics['mines'], 'mine')}, "
                       f"{text.quantity(metrics['openings'], 'opening')}, "
                       f"{text.quantity(metrics['islands'], 'island')}, 3BV {metrics['bbbv']}")
        else:
            typer.echo(draw_grid(text.position_rows(item)))
            mines = "unknown" if item.total_mines is None else item.total_mines
            typer.echo(f"{item.width}x{item.height}, mines: {mines}, {len(item.hidden)} hidden, "
                       f"{len(item.flags)} flagged")
        if svg is not None:
            write_svg(item, svg)


class Difficulty(StrEnum):
    """The standard sizes (see :data:`msanalysis.rules.DIFFICULTIES`)."""

    beginner = "beginner"
    intermediate = "intermediate"
    expert = "expert"


# The board options ``generate`` and ``play`` share.
DifficultyOption = Annotated[Optional[Difficulty], typer.Option(
    help="The standard size (default beginner).")]
WidthOption = Annotated[Optional[int], typer.Option(help="Columns (overrides the difficulty).")]
HeightOption = Annotated[Optional[int], typer.Option(help="Rows (overrides the difficulty).")]
MinesOption = Annotated[Optional[int], typer.Option(help="Mines (overrides the difficulty).")]
FirstClickOption = Annotated[Optional[str], typer.Option(
    metavar="ROW,COL", help="The first click; default 0,0 (3,3 for safe-opening and no-guess, "
    "the middle on a board too small for it).")]


class StrategyName(StrEnum):
    """The strategies :func:`msanalysis.play.strategies.make_strategy` makes."""

    best = "best"
    safest = "safest"
    paper = "paper"


class OutputFormat(StrEnum):
    text = "text"
    mbf = "mbf"


class Method(StrEnum):
    """How no-guess boards are made (see :func:`msanalysis.play.noguess.generate_no_guess`)."""

    reject = "reject"
    adjust = "adjust"


@app.command()
def generate(
    difficulty: DifficultyOption = None,
    width: WidthOption = None,
    height: HeightOption = None,
    mines: MinesOption = None,
    rules: Annotated[FirstClick, typer.Option(
        help="How the first click is protected; no-guess boards can be won by logic alone.")
    ] = FirstClick.SAFE_CELL,
    first_click: FirstClickOption = None,
    seed: Annotated[Optional[int], typer.Option(
        help="Random seed; the same seed gives the same board (board i of --count uses seed + "
        "i). Drawn and printed when not given (with the board, or on stderr for MBF).")] = None,
    format: Annotated[OutputFormat, typer.Option(
        "--format", help="Layout text or binary MBF.")] = OutputFormat.text,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="Write here instead of stdout (- is stdout).")] = None,
    count: Annotated[int, typer.Option(
        help="How many boards; more than one needs --output-dir.")] = 1,
    output_dir: Annotated[Optional[Path], typer.Option(
        help="Write each board to a file here: board-0000.txt (or .mbf), ...")] = None,
    method: Annotated[Method, typer.Option(
        help="no-guess: reject (uniform among guess-free boards) or adjust (moves mines; any "
        "density, not uniform).")] = Method.reject,
    grade: Annotated[Optional[int], typer.Option(
        help="no-guess: the hardest reasoning the board needs, 1-4.")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes for --count.")] = 1,
    time_limit: Annotated[float, typer.Option(
        help="Seconds for all the boards (no-guess boards can take long to find); past it, "
        "exit status 3.")] = 600.0,
) -> None:
    """Generate seeded mine layouts under a first-click rule (no-guess boards checked again)."""
    import random

    from msanalysis.errors import check_jobs
    from msanalysis.play.noguess import generate_many

    if output is not None and str(output) == "-":  # standard output: as without the option
        output = None
    check_time_limit(time_limit)
    if count < 1:
        fail(f"--count must be at least 1, got {count}")
    if count > 1 and output_dir is None:
        fail("--count above 1 needs --output-dir")
    if output_dir is not None and output is not None:
        fail("give --output or --output-dir, not both")
    with user_errors():
        check_jobs(jobs)
        size = board_size(chosen_difficulty(difficulty, width, height, mines),
                          width=width, height=height, mines=mines)
        click = first_click_of(first_click, rules, size)
        # A drawn seed is printed with the board, so that every board can be made again.
        base = seed if seed is not None else random.SystemRandom().randrange(2**32)
        boards = generate_many(*size, count, rules=rules.value, first_click=click, seed=base,
                               method=method.value, grade=grade, jobs=jobs,
                               time_limit=time_limit)
        extra = (f", method {method.value}" + (f", grade {grade}" if grade else "")
                 if rules is FirstClick.NO_GUESS else "")

        def comment(i: int, seeds: str = "") -> str:
            return (f"# {size[0]}x{size[1]}, {text.quantity(size[2], 'mine')}, rules "
                    f"{rules.value}{extra}, first click {click[0]},{click[1]}, "
                    f"{seeds or f'seed {base + i}'}")

        if output_dir is None:
            _, board = next(iter(boards))
            _write_board(board, comment(0), format, output)
            if format is OutputFormat.mbf:  # MBF has no room for the line: it goes to stderr
                typer.echo(comment(0), err=True)
            return
        make_folder(output_dir, "--output-dir")
        suffix = "mbf" if format is OutputFormat.mbf else "txt"
        if format is OutputFormat.mbf:  # MBF has no room for the line: said first, so that a
            # run stopped early (a time limit, Ctrl-C) still says how to make its boards again
            typer.echo(comment(0, f"seed {base} + N for board-N.mbf"), err=True)
        written = 0
        with _progress(f"{rules.value} boards", count) as advance:
            try:
                for i, board in boards:
                    _write_board(board, comment(i), format,
                                 output_dir / f"board-{i:04d}.{suffix}")
                    written += 1
                    advance()
            except AnalysisTooHard as error:  # what was made is there: say how much
                raise type(error)(f"{written:,} of {count:,} boards written to {output_dir}, "
                                  f"then: {error}") from None
    typer.echo(f"wrote {text.quantity(written, 'board')} to {output_dir}", err=True)


@contextmanager
def _progress(description: str, total: int, *,
              show: bool = True) -> Iterator[Callable[[], None]]:
    """A progress bar on a terminal (nothing elsewhere, or when not ``show``): yields the
    function that advances it."""
    if not (show and stdout_is_terminal()):
        yield lambda: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda: progress.advance(task)


def _write_board(board: Board, comment: str, format: OutputFormat, output: Optional[Path]) -> None:
    if format is OutputFormat.mbf:
        data = board.to_mbf()
        if output is None:
            if stdout_is_terminal():
                fail("MBF is binary; write it to a file with -o FILE")
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            write_file(output, data)
        return
    text = f"{comment}\n{board.to_text()}\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_file(output, text)


@app.command()
def metrics(
    board_file: Annotated[Path, typer.Argument(
        metavar="BOARD", help="A layout text file or an MBF file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Board metrics players use: openings, islands and 3BV."""
    with user_errors():
        values = _board_metrics(load_board(board_file, "metrics"))
    if as_json:
        print_json(values)
    else:
        for key, value in values.items():  # the JSON keys, but 3BV as players write it
            typer.echo(f"{'3BV' if key == 'bbbv' else key:>9}: {value}")


# == analysis: analyze ============================================================================

@app.command("analyze")
def analyze_command(
    file: Annotated[Path, typer.Argument(
        help="A position: canonical text (.txt) or JSMinesweeper .mine.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ignore_flags: Annotated[bool, typer.Option(
        "--ignore-flags", help="Read flags as hidden cells instead of mines.")] = False,
    mines: Annotated[Optional[int], typer.Option(
        help="Total mine count (overrides the file's header).")] = None,
    explain: Annotated[Optional[str], typer.Option(
        metavar="ROW,COL", help="A forced cell: say which clues force it.")] = None,
    svg: Annotated[Optional[Path], typer.Option(
        "--svg", help="Also write the analysis picture to this SVG file.")] = None,
    time_limit: Annotated[float, typer.Option(
        help="Seconds allowed for the whole analysis; past it, what was found is reported "
        "(exit status 3).")] = 60.0,
) -> None:
    """Forced cells, exact mine probabilities and the number of layouts of a position."""
    from msanalysis.analysis import analyze

    check_not_read(svg, [file], "--svg")
    check_time_limit(time_limit)
    cell = parse_cell(explain, "--explain") if explain is not None else None
    with user_errors():
        item = read_any(file)
        if isinstance(item, Board):
            fail(f"{file} is a board (a mine layout), not a position: 'show' and 'metrics' read "
                 "boards, 'solvable' plays one")
        position = item if mines is None else item.with_total_mines(mines)
        deadline = deadline_after(time_limit)  # the explanation's too
        analysis = analyze(position, ignore_flags=ignore_flags, time_limit=time_limit)
        explanation: Explanation | str | None = None
        unexplained = None  # why the explanation was not found in time
        if cell is not None:
            try:
                explanation = explain_or_why_not(analysis, cell, deadline)
            except TimeLimitReached as error:
                unexplained = str(error)
    if as_json:
        data = analysis.to_dict()
        if isinstance(explanation, Explanation):
            data["explanation"] = {"cell": list(explanation.cell), "verdict": explanation.verdict,
                                   "clues": [list(c) for c in explanation.clues],
                                   "uses_mine_count": explanation.uses_mine_count}
        elif cell is not None:  # the cell is not forced, or was not explained in time
            data["explanation"] = {"cell": list(cell), "verdict": None, "clues": [],
                                   "uses_mine_count": False,
                                   "reason": unexplained if explanation is None else explanation}
        print_json(data)
    else:
        typer.echo(f"{position.width}x{position.height}, {analysis.assumption}"
                   + (", flags ignored" if ignore_flags else ", flags count as mines"
                      if position.flags else ""))
        typer.echo("forced cells (S safe, M mine):")
        typer.echo(draw_grid(text.marked_rows(analysis, position)))
        if analysis.exact:
            typer.echo("mine probability, % (S safe, M mine):")
            typer.echo(text.percent_grid(text.percent_rows(analysis, position)))
            typer.echo(f"solutions: {magnitude(analysis.solutions)}")
        typer.echo(f"forced safe: {text.cells_text(analysis.forced_safe)}")
        typer.echo(f"forced mines: {text.cells_text(analysis.forced_mines)}")
        if analysis.all_forced or analysis.forced_safe:
            typer.echo(f"requires a guess: {'yes' if analysis.requires_guess else 'no'}")
        else:
            typer.echo("requires a guess: unknown (no forced safe cell found before the limit)")
        if analysis.exact and analysis.best_guess is not None:
            r, c = analysis.best_guess
            typer.echo(f"best guess: {r},{c} ({100 * analysis.probability((r, c)):.2f}% mine)")
        if explanation is not None:
            typer.echo(f"explanation: {explanation}")
        elif unexplained is not None:
            typer.echo(f"explanation: none, {unexplained}")
    if svg is not None:
        with user_errors():
            write_svg(analysis, svg)
    if not analysis.exact:
        # Its own message says the forced cells found are certain, when some may be missing.
        found = "every forced cell is above, " if analysis.all_forced else ""
        fail(f"{analysis.stopped}; {found}the probabilities are not known", EXIT_GAVE_UP)
    if unexplained is not None:
        fail(f"{unexplained}; the rest of the analysis is complete", EXIT_GAVE_UP)


# == reconstruction: reconstruct ==================================================================

class GridRule(StrEnum):
    """What a number of a number grid counts (see :class:`msanalysis.numbergrid.NumberGrid`);
    read by ``reconstruct`` and the ``puzzle`` commands."""

    classic = "classic"
    mosaic = "mosaic"


class ReconstructEngine(StrEnum):
    sat = "sat"
    cpsat = "cpsat"


@app.command("reconstruct")
def reconstruct_command(
    file: Annotated[Path, typer.Argument(
        help="A number grid: rows of digits, ? for an unknown clue, # comments; - reads stdin.")],
    rule: Annotated[Optional[GridRule], typer.Option(
        help="classic: a number counts its 8 neighbours; mosaic: the 3x3 block with the "
        "cell. Default: the rule in the header `puzzle make` writes, else classic (a Tatham "
        "ID is always mosaic: classic is refused for one).")] = None,
    engine: Annotated[ReconstructEngine, typer.Option(
        help="sat (python-sat Minicard) or cpsat (OR-Tools CP-SAT).")] = ReconstructEngine.sat,
    limit: Annotated[Optional[int], typer.Option(
        help="Stop once at least this many layouts are known (default 2: enough to settle "
        "uniqueness). The count printed may be larger: the layouts of independent parts of "
        "the grid multiply, and a cell no number counts doubles them.")] = None,
    all_layouts: Annotated[bool, typer.Option("--all", help="Count every layout exactly.")] = False,
    time_limit: Annotated[float, typer.Option(
        help="Seconds of search before stopping with what is known.")] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Find the mine layouts that produce a grid of numbers, and whether there is only one."""
    from msanalysis.reconstruction import reconstruct

    if all_layouts and limit is not None:
        fail("give either --limit N or --all, not both")
    if limit is not None and not 1 <= limit <= sys.maxsize:
        fail(f"--limit must be at least 1 and at most {sys.maxsize}, got {limit}")
    check_time_limit(time_limit)
    with user_errors():
        grid = load_grid(file, rule, "classic")
        result = reconstruct(grid, engine=engine.value, time_limit=time_limit,
                             limit=None if all_layouts else (limit or 2))
    no_layout = result.no_layout
    if no_layout is not None:  # reported as analyze reports an inconsistent position
        fail(str(no_layout), EXIT_NO_ANSWER)
    layout = result.first
    if as_json:
        print_json({"rule": result.rule, "width": result.width, "height": result.height,
                    "solutions": decimal(result.count), "exhaustive": result.exhaustive,
                    "unique": result.unique,
                    "layout": layout.to_text().splitlines() if layout is not None else None})
    else:
        typer.echo(f"{result.rule} {result.width}x{result.height}: {text.layouts_summary(result)}")
        if layout is not None:
            typer.echo(draw_grid(layout.to_text().splitlines()))
            typer.echo(text.quantity(layout.mine_count, "mine"))
    if result.timed_out:
        search_stopped(time_limit)


# == no-guess: solvable ==========================================================================

_GENERATED = re.compile(r"# (?P<width>[0-9]{1,9})x(?P<height>[0-9]{1,9}), (?P<mines>[0-9]{1,9}) "
                        r"mines?, rules (?P<rules>[a-z-]+)(?:, method \w+)?(?:, grade \d)?, "
                        r"first click (?P<click>[0-9]{1,9},[0-9]{1,9}), seed \d+")
"""The line ``generate`` writes above a board: its rules and first click."""

_GENERATED_START = re.compile(r"# \d+x\d+, \d+ mines?, ")
"""How that line begins: a first line that begins so is meant to be one."""


def generated_with(data: bytes, board: Board, source: Path) -> tuple[FirstClick, str] | None:
    """The rules and first click (``ROW,COL``) in the line ``generate`` wrote above ``board``,
    given the board file's bytes; None when there is no such line (an MBF file has none).

    A first line that begins as ``generate``'s does but does not go on as it does, or that
    gives another size or mine count than the board's, is an error naming the line.

    Examples
    --------
    >>> board = Board.from_text("..\\n*.")
    >>> line = b"# 2x2, 1 mine, rules safe-opening, first click 0,1, seed 7\\n..\\n*."
    >>> rules, click = generated_with(line, board, Path("board.txt"))
    >>> rules.value, click
    ('safe-opening', '0,1')
    >>> generated_with(b"# my board\\n..\\n*.", board, Path("board.txt")) is None
    True
    >>> try:
    ...     generated_with(line.replace(b"1 mine", b"2 mines"), board, Path("board.txt"))
    ... except ParseError as error:
    ...     print(error)
    board.txt, line 1: says 2x2 with 2 mines, the board is 2x2 with 1 mine
    """
    first_line = data.split(b"\n", 1)[0].decode("utf-8-sig", "replace").strip()
    if not _GENERATED_START.match(first_line):
        return None
    found = _GENERATED.fullmatch(first_line)
    rules = {rule.value: rule for rule in FirstClick}
    if found is None or found["rules"] not in rules:
        raise ParseError(f"not the line generate writes above a board: \"# WxH, N mines, rules "
                         f"R, first click ROW,COL, seed S\", R one of {', '.join(rules)}",
                         line=1, source=str(source))
    size = (int(found["width"]), int(found["height"]), int(found["mines"]))
    if size != (board.width, board.height, board.mine_count):
        raise ParseError(f"says {size[0]}x{size[1]} with {text.quantity(size[2], 'mine')}, the "
                         f"board is {board.width}x{board.height} with "
                         f"{text.quantity(board.mine_count, 'mine')}", line=1, source=str(source))
    return rules[found["rules"]], found["click"]


@app.command()
def solvable(
    board_file: Annotated[Path, typer.Argument(
        metavar="BOARD", help="A layout text file or an MBF file.")],
    first_click: Annotated[Optional[str], typer.Option(
        metavar="ROW,COL", help="The first click; default: the one in the line `generate` "
        "writes above a board, else 0,0 (3,3 for safe-opening and no-guess, the middle on a "
        "board too small for it).")] = None,
    rules: Annotated[Optional[FirstClick], typer.Option(
        help="The first-click rule the game is played under; default: the rules in the line "
        "`generate` writes above a board, else safe-cell.")] = None,
    mine_count: Annotated[bool, typer.Option(
        "--mine-count/--no-mine-count", help="Allow reasoning with the total mine count "
        "(--no-mine-count: ms-toollib's stricter standard).")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    time_limit: Annotated[float, typer.Option(
        help="Seconds allowed (exit 3 past them); boards up to 100x100 take milliseconds.")
    ] = 600.0,
) -> None:
    """Can this board be won from the first click without a guess, and with what reasoning?
    Exit 0 if so, 1 if not."""
    from msanalysis.play.noguess import solve_without_guessing

    check_time_limit(time_limit)
    with user_errors():
        data = read_bytes(board_file)  # once: the line above the board is read from it too
        board = load_board(board_file, "solvable", data)
        generated = generated_with(data, board, board_file)
        if rules is None:
            rules = generated[0] if generated is not None else FirstClick.SAFE_CELL
        from_file = False
        if first_click is None and generated is not None:
            first_click, from_file = generated[1], True
        header = f"the first click of {source_name(board_file)}'s first line"
        click = first_click_of(first_click, rules, (board.width, board.height),
                               header if from_file else "--first-click")
        if not (0 <= click[0] < board.height and 0 <= click[1] < board.width):
            given = (f"the first click {click[0]},{click[1]} of {source_name(board_file)}'s "
                     "first line" if from_file
                     else f"--first-click {click[0]},{click[1]}")
            fail(f"{given} is off the {board.width}x{board.height} board")
        if rules is FirstClick.UNSAFE and board.is_mine(click):
            fail(f"the first click {click[0]},{click[1]} hits a mine: the game is lost at "
                 "once", EXIT_NO_ANSWER)
        mine = protected_mine(board, click, rules)
        if mine is not None:
            where = ("hits a mine" if mine == click
                     else f"has a mine beside it at {mine[0]},{mine[1]}")
            fail(f"the first click {click[0]},{click[1]} {where}, which rules {rules.value} "
                 "never place there: is it the right board, first click and rule?")
        result = solve_without_guessing(board, click, rules=rules.value,
                                        use_mine_count=mine_count, time_limit=time_limit)
    rows = text.position_rows(result.position)
    if as_json:
        print_json({**result.to_dict(), "first_click": list(click), "position": rows})
    elif result.solvable:
        typer.echo(f"solvable without a guess from {click[0]},{click[1]}: all "
                   f"{text.quantity(result.revealed, 'safe cell')} revealed in "
                   f"{text.quantity(result.rounds, 'round')} of reasoning")
    else:
        typer.echo(draw_grid(rows))
        typer.echo(f"not solvable without a guess from {click[0]},{click[1]}: logic stops after "
                   f"{text.quantity(result.revealed, 'safe cell')} "
                   f"({text.quantity(result.rounds, 'round')} of reasoning), above")
    if not as_json and result.grade:
        where = ", ".join(f"{r},{c}" for r, c in result.hardest_cells[:6])
        more = " ..." if len(result.hardest_cells) > 6 else ""
        what = "grade" if result.solvable else "hardest reasoning before logic stopped: grade"
        typer.echo(f"{what} {result.grade} ({result.grade_name}), first needed in round "
                   f"{(result.hardest_step or 0) + 1}, for {where}{more}")
    if not result.solvable:
        raise typer.Exit(EXIT_NO_ANSWER)


# == play: play ===================================================================================

EXIT_INTERRUPTED = 130  # the shell's status for a run stopped by Ctrl-C (128 + SIGINT)


@app.command()
def play(
    games: Annotated[int, typer.Option(help="How many games to play.")],
    difficulty: DifficultyOption = None,
    width: WidthOption = None,
    height: HeightOption = None,
    mines: MinesOption = None,
    rules: Annotated[FirstClick, typer.Option(
        help="How the first click is protected.")] = FirstClick.SAFE_CELL,
    first_click: FirstClickOption = None,
    strategy: Annotated[StrategyName, typer.Option(
        help="The strategy; paper is seed 003's baseline.")] = StrategyName.best,
    option: Annotated[Optional[list[str]], typer.Option(
        "--option", metavar="NAME=VALUE", help="An option of the strategy, to play a variant of "
        "it; repeat for more. best's include drawn_endgame=0 (no endgame search on drawn "
        "layouts), endgame_layouts=N, candidates=N, blend=X, book=expert-safe-cell.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 0,
    jobs: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
    dask: Annotated[Optional[str], typer.Option(
        metavar="tcp://HOST:PORT", help="Run on this Dask scheduler instead.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    save_replays: Annotated[Optional[Path], typer.Option(
        "--save-replays", help="Save every game in this folder as a replay (.msreplay.jsonl) that "
        "`replay` judges.")] = None,
    time_limit: Annotated[float, typer.Option(
        help="Stop after this many seconds (a game being played is left) and report the games "
        "finished; exit status 3.")] = 600.0,
) -> None:
    """Play many seeded games with a strategy and report the win rate."""
    from msanalysis.errors import check_jobs
    from msanalysis.play.bench import PlaySpec, bench
    from msanalysis.play.strategies import parse_options

    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    check_time_limit(time_limit)
    with user_errors():
        check_jobs(jobs)
        # An empty value is a mistake, not the default.
        click = parse_cell(first_click, "--first-click") if first_click is not None else None
        spec = PlaySpec.standard(
            chosen_difficulty(difficulty, width, height, mines), width=width,
            height=height, mines=mines, rules=rules.value, first_click=click,
            strategy=strategy.value, options=parse_options(option or []))
        spec.check()
        if save_replays is not None:
            make_folder(save_replays, "--save-replays")
        with _progress(f"{spec.name} {spec.strategy}", games, show=not as_json) as advance:
            summary = bench(spec, games, seed=seed, jobs=jobs, dask=dask, replays=save_replays,
                            on_result=lambda _: advance(), time_limit=time_limit)
    if summary.stopped:
        # Exit status 3, like every command's at a limit, comes with its error line; Ctrl-C's
        # 130 says enough.
        if summary.timed_out:
            typer.echo(f"error: time limit: {summary.games} of {games} games finished in "
                       f"{time_limit:g} s (--time-limit S plays longer)", err=True)
        else:
            typer.echo(f"{summary.stopped}: {summary.games} of {games} games finished", err=True)
    if as_json:
        print_json(summary.to_json())
    else:
        row, col = spec.first_click
        last = seed + summary.planned - 1
        size = f"{spec.width}x{spec.height}/{spec.mines}"
        name = size if spec.name == size else f"{spec.name} {size}"
        typer.echo(f"{name}, rules {spec.rules}, first click {row},{col}, strategy "
                   f"{spec.variant}, seeds {seed}-{last}")
        for label, value in summary.table():
            typer.echo(f"  {label:<14} {value}")
    if summary.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    if summary.timed_out:
        raise typer.Exit(EXIT_GAVE_UP)


# == replays: replay ==============================================================================
# One self-contained block: the command, and the work on one file, which local worker processes
# and Dask workers run too (so it returns text and data, and never prints).

_REPLAY_CSV_COLUMNS = ["file", "width", "height", "mines", "won", "clicks", "first", "safe",
                       "guess", "needless", "blunder", "survival", "luck_bits", "not_safest",
                       "bbbv", "bbbv_solved", "seconds", "bbbv_per_second", "player", "program",
                       "date", "rules"]


def _replay_stem(path: Path) -> str:
    """A file name without its replay endings (``game.msreplay.jsonl`` -> ``game``)."""
    if str(path) == "-":
        return "stdin"  # not "-": files named "--0002.txt" would read as options
    name = path.name
    for ending in (".msreplay.jsonl", ".jsonl", ".avf", ".rmv", ".evf", ".mvf"):
        if name.lower().endswith(ending):
            return name[:-len(ending)]
    return path.stem


def _output_stems(files: list[str]) -> list[str]:
    """The name each replay's pictures and positions start with: its file name without its
    replay endings, numbered (``game-2``) when another replay of the run already has it, so
    that two games never write to the same file.

    >>> _output_stems(["a/x.avf", "b/x.avf", "x-2.rmv", "X.evf"])
    ['x', 'x-3', 'x-2', 'X-4']
    """
    bases = [_replay_stem(Path(file)) for file in files]
    # Compared casefolded: some file systems do not tell x from X.
    named = {base.casefold() for base in bases}  # a numbered name never takes a file's own
    used: set[str] = set()
    stems = []
    for base in bases:
        stem, number = base, 1
        while stem.casefold() in used or (stem != base and stem.casefold() in named):
            number += 1
            stem = f"{base}-{number}"
        used.add(stem.casefold())
        stems.append(stem)
    return stems


def _percent_text(value) -> str:
    return "unknown" if value is None else f"{100 * float(value):.2f}%"


def _seconds_text(value: float) -> str:
    """Seconds to two decimals; a replay's time past 115 days, never a real game's, in three
    digits and an exponent, not in the 300 digits a recorded 1e308 s would take.

    >>> _seconds_text(12.3456), _seconds_text(1e308)
    ('12.35', '1e+308')
    """
    return f"{value:.2f}" if value < MAX_TIME_LIMIT else f"{value:.3g}"


def _replay_text(path: Path, result) -> str:
    """The readable report of one judged replay: a line per risky click and the summary."""
    replay = result.replay
    facts = [f"{replay.width}x{replay.height}/{replay.mines}"]
    facts += [fact for fact in (replay.program, replay.player) if fact]
    if replay.date is not None:
        facts.append(replay.date.date().isoformat())
    facts.append(f"rules {replay.rules or 'unknown'}")
    lines = [printable(path.name),
             f"  {', '.join(facts)}: {result.status} in {_seconds_text(result.seconds)} s"]
    guesses = result.guesses
    if guesses:
        lines.append(f"  {'action':>6} {'time':>7}  {'cell':<7} {'verdict':<9} {'mine chance':>11}"
                     f"  safest")
        for j in guesses:
            best = "" if j.best_cell is None else f"{j.best_cell[0]},{j.best_cell[1]} " + (
                "safe" if j.best_probability == 0 else _percent_text(j.best_probability))
            cell = f"{j.cell[0]},{j.cell[1]}"
            lines.append(f"  {j.index:>6} {_seconds_text(j.time):>7}  {cell:<7} "
                         f"{j.verdict.value:<9} {_percent_text(j.probability):>11}  {best}")
            if j.explanation is not None:
                lines.append(f"  {'':>6} {'':>7}  {j.explanation}")
    counts = result.verdicts
    lines.append(f"  {text.quantity(result.clicks, 'click')}: {counts['first']} first, "
                 f"{counts['safe']} safe, "
                 f"{text.quantity(counts['guess'], 'guess', 'guesses')}, "
                 f"{counts['needless']} needless, {text.quantity(counts['blunder'], 'blunder')}")
    survival, luck = result.survival, result.luck_bits
    if survival is None:
        chance = "survival unknown (counting out of bounds)"
    else:
        exact = fraction_text(survival)
        chance = f"survival {_percent_text(survival)}" + (f" ({exact})" if len(exact) <= 24 else "")
        chance += f", luck {luck:.2f} bits" if luck is not None and luck != float("inf") \
            else ", luck infinite (a forced mine was clicked)"
    lines.append(f"  {chance}; {text.quantity(result.not_safest, 'guess', 'guesses')} not the "
                 "safest")
    speed = result.bbbv_per_second
    lines.append(f"  3BV {result.bbbv}" + (f", {result.bbbv_solved} done" if not result.won else "")
                 + (f", {speed:.2f} 3BV/s" if speed is not None else ""))
    return "\n".join(lines)


def _replay_row(path: Path, result) -> dict:
    data = result.to_dict()
    replay = result.replay
    return {"file": str(path), "width": data["width"], "height": data["height"],
            "mines": data["mines"], "won": data["won"], "clicks": data["clicks"],
            **data["verdicts"], "survival": data["survival"], "luck_bits": data["luck_bits"],
            "not_safest": result.not_safest, "bbbv": data["bbbv"],
            "bbbv_solved": result.bbbv_solved, "seconds": data["seconds"],
            "bbbv_per_second": result.bbbv_per_second, "player": replay.player,
            "program": replay.program,
            "date": None if replay.date is None else replay.date.isoformat(),
            "rules": replay.rules}


def _write_guess_files(path: Path, stem: str, result, positions: str | None,
                       pictures: str | None, deadline: float | None) -> None:
    """The position before each risky click (and its picture), and the picture of the game.

    The pictures' analyses share the replay's ``deadline`` (a :func:`time.perf_counter` value;
    None for none).
    """
    from msanalysis import svg
    from msanalysis.analysis import analyze

    if pictures is not None:
        write_file(Path(pictures) / f"{stem}.svg", svg.replay(result))
    for j in result.guesses:
        name = f"{stem}-{j.index:04d}"
        if positions is not None:
            comment = (f"# {printable(path.name)}, action {j.index} at {_seconds_text(j.time)} s: "
                       f"{j.verdict.value} at {j.cell[0]},{j.cell[1]} (mine chance "
                       f"{_percent_text(j.probability)}); the player's flags removed")
            write_file(Path(positions) / f"{name}.txt", f"{comment}\n{j.position.to_text()}\n")
        if pictures is not None:
            # Past the time limit the analysis is partial: drawn with its forced cells only.
            analysis = analyze(j.position, time_limit=seconds_left(deadline))
            marked = [j.cell] + ([j.best_cell] if j.best_cell is not None
                                 and j.best_cell != analysis.best_guess else [])
            write_file(Path(pictures) / f"{name}.svg", svg.board(analysis, highlight=marked))


def _replay_report(file: str, stem: str, positions: str | None = None,
                   pictures: str | None = None, time_limit: float = 600.0,
                   format: str | None = None) -> dict:
    """Load and judge one replay: ``{"file", "text", "json", "row"}`` or ``{"file", "error",
    "code"}`` (the exit status it calls for). Its pictures and positions are named after
    ``stem`` (see :func:`_output_stems`).

    Runs in worker processes too: every failure comes back as a message.
    """
    from msanalysis.play.judge import analyze_replay
    from msanalysis.replay import load_replay

    path = Path(file)
    try:
        replay = load_replay(path, format=format)
        deadline = deadline_after(time_limit)
        result = analyze_replay(replay, time_limit=time_limit)
        _write_guess_files(path, stem, result, positions, pictures, deadline)
    except FileNotFoundError as error:
        return {"file": file, "error": _not_found(error.filename), "code": EXIT_BAD_INPUT}
    except IsADirectoryError:
        return {"file": file, "error": f"is a directory, not a replay: {file}",
                "code": EXIT_BAD_INPUT}
    except ModuleNotFoundError as error:
        return {"file": file, "error": str(error), "code": EXIT_BAD_INPUT}
    except (ValueError, OSError, AnalysisTooHard, MemoryError) as error:
        # Out of memory, this replay is given up and the others are judged (its objects go).
        message = OUT_OF_MEMORY if isinstance(error, MemoryError) else str(error)
        if isinstance(error, OSError) and error.filename:
            message = _os_error_text(error)
        code = EXIT_GAVE_UP if isinstance(error, (AnalysisTooHard, MemoryError)) \
            else EXIT_BAD_INPUT
        shown = source_name(file)  # as the library's errors name standard input
        return {"file": file, "error": message if shown in message else f"{shown}: {message}",
                "code": code}
    return {"file": file, "text": _replay_text(path, result), "json": result.to_dict(),
            "row": _replay_row(path, result)}


def _replay_reports(files: list[str], positions: str | None, pictures: str | None, jobs: int,
                    dask: str | None, time_limit: float, format: str | None) -> Iterator[dict]:
    """Reports in the order of ``files``, from this process, local workers or a Dask cluster."""
    stems = _output_stems(files)
    if dask is not None:
        from msanalysis.play.bench import dask_client

        with user_errors():
            client = dask_client(dask)
        from distributed import as_completed
        futures = []
        try:
            futures = client.map(_replay_report, files, stems, [positions] * len(files),
                                 [pictures] * len(files), [time_limit] * len(files),
                                 [format] * len(files), pure=False)
            for future in as_completed(futures):
                future.result()  # a worker's failure shows now
                yield {"progress": True}
            for future in futures:
                yield future.result()
        finally:
            client.cancel(futures)
            client.close()
        return
    if jobs == 1 or len(files) == 1:
        for file, stem in zip(files, stems):
            yield _replay_report(file, stem, positions, pictures, time_limit, format)
        return
    import multiprocessing

    with multiprocessing.Pool(min(jobs, len(files)),
                              initializer=worker_ignores_interrupts) as pool:
        yield from pool.imap(partial(_replay_report_of, positions=positions, pictures=pictures,
                                     time_limit=time_limit, format=format), zip(files, stems))


def _replay_report_of(file_and_stem: tuple[str, str], **options: Any) -> dict:
    """:func:`_replay_report` of a ``(file, stem)`` pair, for a pool's ``imap``."""
    return _replay_report(*file_and_stem, **options)


class ReplayFormat(StrEnum):
    """The formats ``replay --format`` names (see :data:`msanalysis.replay.REPLAY_FORMATS`)."""

    avf = "avf"
    rmv = "rmv"
    evf = "evf"
    mvf = "mvf"
    jsonl = "jsonl"


@app.command("replay")
def replay_command(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="Replays: .avf, .rmv, .evf, .mvf (through ms-toollib) or "
        ".msreplay.jsonl.")],
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object per file.")] = False,
    csv_file: Annotated[Optional[Path], typer.Option(
        "--csv", help="Write one CSV row per replay to this file.")] = None,
    positions: Annotated[Optional[Path], typer.Option(
        "--positions", help="Write the position before each guess to this folder, as a file that "
        "analyze reads.")] = None,
    svg: Annotated[Optional[Path], typer.Option(
        "--svg", help="Draw each game, and the board at each guess, into this folder.")] = None,
    jobs: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
    dask: Annotated[Optional[str], typer.Option(
        metavar="tcp://HOST:PORT", help="Judge on this Dask scheduler instead; the workers must "
        "see the files.")] = None,
    time_limit: Annotated[float, typer.Option(
        help="Seconds allowed for each replay (exit 3 when one runs out).")] = 600.0,
    format: Annotated[Optional[ReplayFormat], typer.Option(
        "--format", case_sensitive=False, help="Read every FILE as this format, whatever its "
        "name says (standard input is read as jsonl otherwise).")] = None,
) -> None:
    """Judge recorded games click by click: forced, guessed, needlessly guessed, blundered."""
    from msanalysis.errors import check_jobs

    check_time_limit(time_limit)
    with user_errors():
        check_jobs(jobs)
    for folder, option in ((positions, "--positions"), (svg, "--svg")):
        if folder is not None:
            make_folder(folder, option)
    check_not_read(csv_file, files, "--csv")
    if csv_file is not None:  # found now, not after judging every file
        if csv_file.is_dir():
            fail(f"--csv {csv_file} is a folder: it takes a file")
        if not csv_file.parent.is_dir():
            fail(f"--csv {csv_file}: there is no folder {csv_file.parent} to write it in")
    names = [str(file) for file in files]
    if dask is not None and jobs != 1:
        fail("--jobs and --dask: the replays are judged by local worker processes or by a Dask "
             "cluster's workers, not both")
    if "-" in names and (dask is not None or (jobs > 1 and len(names) > 1)):
        # Worker processes read /dev/null as their standard input, Dask workers their own.
        fail("standard input (-) is read by this process only: judge it without --jobs and "
             "--dask")
    reports = _replay_reports(names, None if positions is None else str(positions),
                              None if svg is None else str(svg), jobs, dask, time_limit,
                              None if format is None else format.value)
    rows, failed = [], 0

    def show(report: dict) -> None:
        nonlocal failed
        if "error" in report:
            failed = max(failed, report["code"])
            typer.echo(f"error: {printable(report['error'])}", err=True)
            return
        rows.append(report["row"])
        if as_json:
            print_json(report["json"])
        else:
            typer.echo(report["text"])

    if len(names) > 1 and stdout_is_terminal() and not as_json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        finished = []
        with Progress(TextColumn("replays"), BarColumn(), MofNCompleteColumn(),
                      transient=True) as progress:
            task = progress.add_task("replays", total=len(names))
            for report in reports:
                if report.get("progress"):
                    progress.advance(task)
                    continue
                if dask is None:
                    progress.advance(task)
                finished.append(report)
        for report in finished:
            show(report)
    else:
        for report in reports:
            if not report.get("progress"):
                show(report)
    if csv_file is not None:
        import csv

        table = io.StringIO(newline="")
        writer = csv.DictWriter(table, fieldnames=_REPLAY_CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
        # A file name that is not UTF-8 is written with escapes, as printable writes it.
        with user_errors():
            write_file(csv_file, table.getvalue().encode("utf-8", errors="backslashreplace"))
        typer.echo(f"wrote {target_name(csv_file)} ({len(rows)} replay"
                   f"{'s' if len(rows) != 1 else ''})",
                   err=True)
    if failed:
        raise typer.Exit(failed)  # 3 when a replay ran out of time, else 2


# == puzzles: puzzle make, puzzle solve ==========================================================

puzzle_app = typer.Typer(
    help="Number-grid puzzles (Mosaic / Fill-a-Pix, or Minesweeper numbers) with one answer: "
    "make them, irreducible and graded, and solve them.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(puzzle_app, name="puzzle")


class PuzzleFormat(StrEnum):
    text = "text"
    tatham = "tatham"


def _puzzle_text(puzzle: Any, form: PuzzleFormat) -> str:
    """A made puzzle as our grid text or as a Tatham Mosaic ID, after its header comment."""
    text_form = puzzle.to_text()
    if form is PuzzleFormat.text:
        return text_form
    return text_form.splitlines()[0] + "\n" + puzzle.grid.to_tatham()


@puzzle_app.command("make")
def puzzle_make(
    width: Annotated[int, typer.Option(help="Columns.")],
    height: Annotated[int, typer.Option(help="Rows.")],
    rule: Annotated[GridRule, typer.Option(
        help="mosaic: a number counts the 3x3 block with its cell (Mosaic, Fill-a-Pix); "
        "classic: its 8 neighbours (Minesweeper).")] = GridRule.mosaic,
    count: Annotated[int, typer.Option(help="How many puzzles to make.")] = 1,
    seed: Annotated[Optional[int], typer.Option(
        help="Seed of the first puzzle; puzzle i uses seed + i. Random when not given (each "
        "puzzle's seed is written in its header).")] = None,
    grade: Annotated[Optional[int], typer.Option(
        help="Keep the puzzles solvable with this reasoning: 1 single clues, 2 pairs of clues, "
        "3 anything (the default).")] = None,
    density: Annotated[Optional[float], typer.Option(
        help="Share of filled (mine) cells in the drawn layouts, 0 to 1 (default 0.206, expert "
        "Minesweeper's).")] = None,
    share: Annotated[Optional[float], typer.Option(
        help="Put clues back until this share of the cells show one (no longer "
        "irreducible).")] = None,
    form: Annotated[PuzzleFormat, typer.Option(
        "--format", help="text: rows of digits and ?; tatham: a game ID for Simon Tatham's "
        "Mosaic (mosaic rule only).")] = PuzzleFormat.text,
    output_dir: Annotated[Optional[Path], typer.Option(
        help="Write each puzzle to a file here instead of printing it.")] = None,
    time_limit: Annotated[float, typer.Option(
        help="Seconds allowed for each puzzle.")] = 600.0,
) -> None:
    """Make puzzles whose clues fit exactly one layout, with no clue to spare (irreducible)."""
    from msanalysis.puzzle import DEFAULT_DENSITY, make_puzzle

    if width < 1 or height < 1:
        fail(f"--width and --height must be at least 1, got {width}x{height}")
    if count < 1:
        fail(f"--count must be at least 1, got {count}")
    if form is PuzzleFormat.tatham and rule is not GridRule.mosaic:
        fail("--format tatham writes Tatham's Mosaic IDs, whose numbers count the 3x3 block: "
             "use --rule mosaic")
    check_time_limit(time_limit)
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(2 ** 31)
    with user_errors():
        check_seed_run(as_seed(seed), count, "puzzles")
    if output_dir is not None:
        make_folder(output_dir, "--output-dir")
    # What the summary needs, not the puzzles: a run of a million puzzles holds no more.
    fewest, most, total = width * height, 0, 0  # clues
    grades = dict.fromkeys((1, 2, 3), 0)
    start = time.perf_counter()

    def make_one(index: int, note: Any) -> None:
        nonlocal fewest, most, total
        with user_errors():
            puzzle = make_puzzle(width=width, height=height, rule=rule.value, grade=grade,
                                 share=share, time_limit=time_limit, seed=seed + index,
                                 density=DEFAULT_DENSITY if density is None else density)
        written = _puzzle_text(puzzle, form)
        if output_dir is None:
            typer.echo(("\n" if index else "") + written)
        else:
            path = output_dir / f"{rule.value}-{width}x{height}-seed-{seed + index}.txt"
            with user_errors():
                write_file(path, written + "\n")
            note(f"wrote {path}")
        fewest, most = min(fewest, puzzle.clue_count), max(most, puzzle.clue_count)
        total += puzzle.clue_count
        grades[puzzle.grade] += 1

    if count > 1 and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        with Progress(TextColumn(f"{rule.value} {width}x{height}"), BarColumn(),
                      MofNCompleteColumn(), transient=True,
                      console=Console(stderr=True)) as progress:
            task = progress.add_task("puzzles", total=count)
            for index in range(count):  # notes go above the bar, not through it
                make_one(index, partial(progress.console.print, markup=False, highlight=False))
                progress.advance(task)
    else:
        for index in range(count):
            make_one(index, partial(typer.echo, err=True))
    if count > 1:
        by_grade = ", ".join(f"{level}: {made}" for level, made in grades.items())
        typer.echo(f"{count} puzzles in {time.perf_counter() - start:.1f} s; clues "
                   f"{fewest}-{most}, mean {total / count:.1f} of {width * height}; grades "
                   f"{by_grade}", err=True)


@puzzle_app.command("solve")
def puzzle_solve(
    file: Annotated[Path, typer.Argument(
        help="A puzzle: grid text (digits, ? for no clue) or a Tatham Mosaic ID; - reads stdin.")],
    rule: Annotated[Optional[GridRule], typer.Option(
        help="What the numbers of grid text count; default: the rule in the header `puzzle "
        "make` writes, else mosaic (a Tatham ID is always mosaic: classic is refused for "
        "one).")] = None,
    time_limit: Annotated[float, typer.Option(
        help="Seconds of search before stopping with what is known.")] = 60.0,
    svg: Annotated[Optional[Path], typer.Option(
        "--svg", help="Also write the picture to this SVG file.")] = None,
) -> None:
    """Solve a puzzle and print its picture (reconstruct, drawn as a filled picture)."""
    from msanalysis.puzzle import Puzzle
    from msanalysis.puzzle import grade as grade_of
    from msanalysis.reconstruction import reconstruct

    check_not_read(svg, [file], "--svg")
    check_time_limit(time_limit)
    with user_errors():
        grid = load_grid(file, rule, "mosaic")
        result = reconstruct(grid, time_limit=time_limit)
        level = grade_of(grid, unique=True) if result.unique else None
    no_layout = result.no_layout
    if no_layout is not None:  # reported as reconstruct and analyze report it
        fail(str(no_layout), EXIT_NO_ANSWER)
    layout = result.first
    clues = int((grid.clues >= 0).sum())
    summary = text.layouts_summary(result)
    if level is not None:
        summary += f"; grade {level} ({text.quantity(clues, 'clue')})"
    typer.echo(f"{grid.rule} {grid.width}x{grid.height}: {summary}")
    if layout is not None:
        filled = "#" if grid.rule == "mosaic" else "*"
        typer.echo(draw_grid(["".join(filled if mine else "." for mine in row)
                              for row in layout.mask.tolist()]))
        typer.echo(text.quantity(layout.mine_count, "filled cell" if grid.rule == "mosaic"
                                 else "mine"))
    if svg is not None:
        from msanalysis import svg as pictures

        with user_errors():
            if level is not None and layout is not None:  # the filled picture
                write_file(svg, pictures.board(Puzzle(grid, layout, level), solution=True))
            else:
                write_file(svg, pictures.board(result))
        typer.echo(f"wrote {target_name(svg)}", err=True)
    if result.timed_out:
        search_stopped(time_limit)


def main() -> None:  # pragma: no cover - console entry point
    app()
