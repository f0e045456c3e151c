"""The ``msanalysis`` command line: a typer app over the library.

Every command reads its input through the library's parsers and reports a user's mistake as one
line ``error: ...`` on stderr with exit status 2 (1 where a command says the input has no
answer), never a traceback. The library itself never prints; only this module does.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from msanalysis.board import Board
from msanalysis.errors import AnalysisTooHard, InconsistentPosition
from msanalysis.formats import read_any, read_board
from msanalysis.position import Position
from msanalysis.rules import board_size, default_first_click

app = typer.Typer(
    name="msanalysis",
    help="Exact Minesweeper analysis: forced cells, probabilities, reconstruction, autoplay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_NO_ANSWER = 1
EXIT_BAD_INPUT = 2


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on stderr and leave with ``code``."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's errors into one ``error:`` line and an exit status."""
    try:
        yield
    except InconsistentPosition as error:
        fail(str(error), EXIT_NO_ANSWER)
    except AnalysisTooHard as error:
        fail(str(error), EXIT_NO_ANSWER)
    except FileNotFoundError as error:
        fail(f"no such file: {error.filename}")
    except IsADirectoryError as error:
        fail(f"is a directory, not a file: {error.filename}")
    except UnicodeDecodeError:
        fail("the file is not text (expected a text file)")
    except (ValueError, OSError) as error:
        fail(str(error))


def parse_cell(text: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (0-based) for options such as ``--first-click`` and ``--explain``."""
    parts = text.replace(" ", "").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise typer.BadParameter(f"expected ROW,COL such as 3,4, got {text!r}") from None
    if row < 0 or col < 0:
        raise typer.BadParameter(f"row and column count from 0, got {text!r}")
    return row, col


def print_json(data: object) -> None:
    typer.echo(json.dumps(data))


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


# Classic number colours (1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black, 8 grey), as
# close as the 16 terminal colours get.
_CHAR_STYLE = {
    "1": {"fg": "bright_blue"}, "2": {"fg": "green"}, "3": {"fg": "bright_red"},
    "4": {"fg": "blue"}, "5": {"fg": "red"}, "6": {"fg": "cyan"}, "7": {"fg": "white"},
    "8": {"fg": "bright_black"}, "*": {"fg": "bright_red", "bold": True},
    "F": {"fg": "bright_magenta", "bold": True}, "?": {"fg": "bright_black"},
    "S": {"fg": "bright_green", "bold": True}, "M": {"fg": "bright_red", "bold": True},
}


def render_grid(rows: list[str], *, colour: bool | None = None) -> str:
    """Draw rows of one-character cells with column and row numbers, coloured on a terminal.

    Used by every command that shows a grid, so they all look alike.
    """
    if colour is None:
        colour = stdout_is_terminal() and "NO_COLOR" not in os.environ
    width = max(len(row) for row in rows)
    row_label = len(str(len(rows) - 1))
    tens = "".join(str(c // 10) if c >= 10 else " " for c in range(width))
    ones = "".join(str(c % 10) for c in range(width))
    header = [" " * (row_label + 1) + tens] if width > 10 else []
    header.append(" " * (row_label + 1) + ones)
    lines = list(header)
    for number, row in enumerate(rows):
        cells = "".join(typer.style(ch, **_CHAR_STYLE[ch]) if colour and ch in _CHAR_STYLE else ch
                        for ch in row)
        lines.append(f"{number:>{row_label}} {cells}")
    return "\n".join(lines)


def chosen_difficulty(difficulty: str | None, *sizes: int | None) -> str | None:
    """The difficulty to start from: the one given, else beginner unless any size was given."""
    return difficulty or (None if any(sizes) else "beginner")


def position_rows(position: Position) -> list[str]:
    """A position's rows of cell characters, without its ``mines:`` header."""
    text = position.to_text().splitlines()
    return text[1:] if position.total_mines is not None else text


def board_rows(board: Board) -> list[str]:
    """A board as a player sees it at the end: ``*`` mines, ``.`` zeros, digits elsewhere."""
    return ["".join("*" if mine else (str(n) if n else ".") for mine, n in zip(mrow, nrow))
            for mrow, nrow in zip(board.mask.tolist(), board.numbers.tolist())]


def write_svg(obj: object, path: Path) -> None:
    """Write ``svg.board(obj)`` to ``path`` (the picture module is imported only when asked)."""
    from msanalysis import svg

    path.write_text(svg.board(obj))
    typer.echo(f"wrote {path}", err=True)


# == foundation: show, generate, metrics ==========================================================

def _board_metrics(board: Board) -> dict[str, int]:
    return {"width": board.width, "height": board.height, "mines": board.mine_count,
            "openings": board.openings, "islands": board.islands, "bbbv": board.bbbv}


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="A position (.txt, .mine) or a board (layout text, .mbf).")],
    svg: Annotated[Optional[Path], typer.Option("--svg", help="Also write the picture to this SVG file.")] = None,
) -> None:
    """Print a position or a board; for a board, its metrics too."""
    with user_errors():
        item = read_any(file)
        if isinstance(item, Board):
            typer.echo(render_grid(board_rows(item)))
            metrics = _board_metrics(item)
            typer.echo(f"{metrics['width']}x{metrics['height']}, {metrics['mines']} mines, "
                       f"{metrics['openings']} openings, {metrics['islands']} islands, "
                       f"3BV {metrics['bbbv']}")
        else:
            typer.echo(render_grid(position_rows(item)))
            mines = "unknown" if item.total_mines is None else item.total_mines
            typer.echo(f"{item.width}x{item.height}, mines: {mines}, {len(item.hidden)} hidden, "
                       f"{len(item.flags)} flagged")
        if svg is not None:
            write_svg(item, svg)


class OutputFormat(str, Enum):
    text = "text"
    mbf = "mbf"


@app.command()
def generate(
    difficulty: Annotated[Optional[str], typer.Option(help="beginner, intermediate or expert.")] = None,
    width: Annotated[Optional[int], typer.Option(help="Columns (overrides the difficulty).")] = None,
    height: Annotated[Optional[int], typer.Option(help="Rows (overrides the difficulty).")] = None,
    mines: Annotated[Optional[int], typer.Option(help="Mines (overrides the difficulty).")] = None,
    rules: Annotated[str, typer.Option(help="unsafe, safe-cell, safe-opening, windows-xp or no-guess.")] = "safe-cell",
    first_click: Annotated[Optional[str], typer.Option(help="ROW,COL of the first click; default 0,0 (3,3 for safe-opening and no-guess).")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Random seed; the same seed gives the same board (board i of --count uses seed + i).")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", help="Layout text or binary MBF.")] = OutputFormat.text,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    count: Annotated[int, typer.Option(help="How many boards; more than one needs --output-dir.")] = 1,
    output_dir: Annotated[Optional[Path], typer.Option(help="Write each board to a file here: board-0000.txt (or .mbf), ...")] = None,
    method: Annotated[str, typer.Option(help="no-guess: reject (uniform) or adjust (moves mines; any density, not uniform).")] = "reject",
    grade: Annotated[Optional[int], typer.Option(help="no-guess: the hardest reasoning the board needs, 1-4.")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes for --count.")] = 1,
) -> None:
    """Generate seeded mine layouts under a first-click rule (no-guess boards checked again)."""
    import random

    from msanalysis.play.noguess import generate_many

    if count < 1:
        fail(f"--count must be at least 1, got {count}")
    if jobs < 1:
        fail(f"--jobs must be at least 1, got {jobs}")
    if count > 1 and output_dir is None:
        fail("--count above 1 needs --output-dir")
    if output_dir is not None and output is not None:
        fail("give --output or --output-dir, not both")
    with user_errors():
        size = board_size(chosen_difficulty(difficulty, width, height, mines),
                          width=width, height=height, mines=mines)
        click = parse_cell(first_click) if first_click else default_first_click(rules)
        base = seed if seed is not None else random.randrange(2**32)
        boards = generate_many(*size, count, rules=rules, first_click=click, seed=base,
                               method=method, grade=grade, jobs=jobs)
        extra = f", method {method}" + (f", grade {grade}" if grade else "") \
            if rules == "no-guess" else ""

        def comment(i: int) -> str:
            shown = base + i if seed is not None or count > 1 else seed
            return (f"# {size[0]}x{size[1]}, {size[2]} mines, rules {rules}{extra}, first click "
                    f"{click[0]},{click[1]}, seed {shown}")

        if output_dir is None:
            _, board = next(iter(boards))
            _write_board(board, comment(0), format, output)
            return
        output_dir.mkdir(parents=True, exist_ok=True)
        suffix = "mbf" if format is OutputFormat.mbf else "txt"
        if stdout_is_terminal():
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeRemainingColumn)

            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn())
            with Progress(*columns, transient=True) as progress:
                task = progress.add_task(f"{rules} boards", total=count)
                for i, board in boards:
                    _write_board(board, comment(i), format, output_dir / f"board-{i:04d}.{suffix}")
                    progress.advance(task)
        else:
            for i, board in boards:
                _write_board(board, comment(i), format, output_dir / f"board-{i:04d}.{suffix}")
    if output_dir is not None:
        typer.echo(f"wrote {count} boards to {output_dir}", err=True)


def _write_board(board: Board, comment: str, format: OutputFormat, output: Optional[Path]) -> None:
    if format is OutputFormat.mbf:
        data = board.to_mbf()
        if output is None:
            if stdout_is_terminal():
                fail("MBF is binary; write it to a file with -o FILE")
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            output.write_bytes(data)
        return
    text = f"{comment}\n{board.to_text()}\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text)


@app.command()
def metrics(
    board_file: Annotated[Path, typer.Argument(metavar="BOARD", help="A layout text file or an MBF file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Board metrics players use: openings, islands and 3BV."""
    with user_errors():
        values = _board_metrics(read_board(board_file))
    if as_json:
        print_json(values)
    else:
        for key, value in values.items():
            typer.echo(f"{key:>9}: {value}")


# == analysis: analyze ============================================================================

def _percent_rows(analysis, position) -> list[str]:
    """Three characters a cell: the mine probability of an undecided cell in whole percent
    (1-99), S / M for forced cells, F for a flag that counts as a mine, * for a shown mine and
    ``.`` for any revealed cell (its number is on the board above)."""
    rows = position_rows(position)
    probabilities = analysis.probabilities
    out = []
    for r, row in enumerate(rows):
        cells = []
        for c, char in enumerate(row):
            if (r, c) in analysis.forced_safe:
                cells.append("  S")
            elif (r, c) in analysis.forced_mines:
                cells.append("  M")
            elif (r, c) in analysis.constraints.unknown:
                cells.append(f"{min(99, max(1, round(100 * float(probabilities[r, c])))):>3}")
            else:
                cells.append(f"  {char if char in 'F*' else '.'}")
        out.append("".join(cells))
    return out


def _marked_rows(analysis, position) -> list[str]:
    rows = [list(row) for row in position_rows(position)]
    for r, c in analysis.forced_safe:
        rows[r][c] = "S"
    for r, c in analysis.forced_mines:
        rows[r][c] = "M"
    return ["".join(row) for row in rows]


def _cells_text(cells) -> str:
    cells = sorted(cells)
    shown = " ".join(f"{r},{c}" for r, c in cells[:12])
    return f"{len(cells)}" + (f" ({shown}{' ...' if len(cells) > 12 else ''})" if cells else "")


@app.command("analyze")
def analyze_command(
    file: Annotated[Path, typer.Argument(help="A position: canonical text (.txt) or JSMinesweeper .mine.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ignore_flags: Annotated[bool, typer.Option("--ignore-flags", help="Read flags as hidden cells instead of mines.")] = False,
    mines: Annotated[Optional[int], typer.Option(help="Total mine count (overrides the file's header).")] = None,
    explain: Annotated[Optional[str], typer.Option(help="ROW,COL of a forced cell: say which clues force it.")] = None,
    svg: Annotated[Optional[Path], typer.Option("--svg", help="Also write the analysis picture to this SVG file.")] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds allowed for exact counting; forced cells are reported regardless.")] = 60.0,
) -> None:
    """Forced cells, exact mine probabilities and the number of layouts of a position."""
    from msanalysis.analysis import analyze

    if time_limit <= 0:
        fail(f"--time-limit must be positive, got {time_limit}")
    cell = parse_cell(explain) if explain is not None else None
    with user_errors():
        position = Position.load(file, total_mines=mines)
        analysis = analyze(position, ignore_flags=ignore_flags, time_limit=time_limit,
                           forced_only=True)
        explanation = analysis.explain(cell) if cell is not None else None
    stopped = None
    try:
        analysis.counts
    except AnalysisTooHard as error:
        stopped = str(error)
    if as_json:
        data = {"width": position.width, "height": position.height,
                "total_mines": position.total_mines, "solutions": None,
                "forced_safe": [list(c) for c in sorted(analysis.forced_safe)],
                "forced_mines": [list(c) for c in sorted(analysis.forced_mines)],
                "probabilities": None, "requires_guess": analysis.requires_guess,
                "best_guess": None}
        if stopped is None:
            data = analysis.to_dict()
        if explanation is not None:
            data["explanation"] = {"cell": list(explanation.cell), "verdict": explanation.verdict,
                                   "clues": [list(c) for c in explanation.clues],
                                   "uses_mine_count": explanation.uses_mine_count}
        print_json(data)
    else:
        typer.echo(f"{position.width}x{position.height}, {analysis.assumption}"
                   + (", flags ignored" if ignore_flags else ", flags count as mines"
                      if position.flags else ""))
        typer.echo("forced cells (S safe, M mine):")
        typer.echo(render_grid(_marked_rows(analysis, position)))
        if stopped is None:
            typer.echo("mine probability, % (S safe, M mine):")
            typer.echo(_percent_grid(_percent_rows(analysis, position)))
            typer.echo(f"solutions: {analysis.solutions}")
        typer.echo(f"forced safe: {_cells_text(analysis.forced_safe)}")
        typer.echo(f"forced mines: {_cells_text(analysis.forced_mines)}")
        typer.echo(f"requires a guess: {'yes' if analysis.requires_guess else 'no'}")
        if stopped is None and analysis.best_guess is not None:
            r, c = analysis.best_guess
            typer.echo(f"best guess: {r},{c} ({100 * analysis.probability((r, c)):.2f}% mine)")
        if explanation is not None:
            typer.echo(f"explanation: {explanation}")
    if svg is not None and stopped is None:
        with user_errors():
            write_svg(analysis, svg)
    if stopped is not None:
        fail(f"{stopped}; the forced cells above are exact, the probabilities are not known",
             EXIT_NO_ANSWER)


def _percent_grid(rows: list[str]) -> str:
    """Rows of three-character cells with column and row numbers."""
    width = len(rows[0]) // 3
    label = len(str(len(rows) - 1))
    lines = [" " * (label + 1) + "".join(f"{c:>3}" for c in range(width))]
    lines += [f"{r:>{label}} {row}" for r, row in enumerate(rows)]
    return "\n".join(lines)


# == reconstruction: reconstruct ==================================================================

class ReconstructRule(str, Enum):
    classic = "classic"
    mosaic = "mosaic"


class ReconstructEngine(str, Enum):
    sat = "sat"
    cpsat = "cpsat"


@app.command("reconstruct")
def reconstruct_command(
    file: Annotated[Path, typer.Argument(help="A number grid: rows of digits, ? for an unknown clue, # comments; - reads stdin.")],
    rule: Annotated[ReconstructRule, typer.Option(help="classic: a number counts its 8 neighbours; mosaic: the 3x3 block with the cell.")] = ReconstructRule.classic,
    engine: Annotated[ReconstructEngine, typer.Option(help="sat (python-sat Minicard) or cpsat (OR-Tools CP-SAT).")] = ReconstructEngine.sat,
    limit: Annotated[Optional[int], typer.Option(help="Stop once this many layouts are known (default 2: enough to settle uniqueness).")] = None,
    all_layouts: Annotated[bool, typer.Option("--all", help="Count every layout exactly.")] = False,
    time_limit: Annotated[float, typer.Option(help="Seconds of search before stopping with what is known.")] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Find the mine layouts that produce a grid of numbers, and whether there is only one."""
    from msanalysis.reconstruction import NumberGrid, reconstruct

    if all_layouts and limit is not None:
        fail("give either --limit N or --all, not both")
    if limit is not None and limit < 1:
        fail(f"--limit must be at least 1, got {limit}")
    if time_limit <= 0:
        fail(f"--time-limit must be positive, got {time_limit}")
    with user_errors():
        if str(file) == "-":
            grid = NumberGrid.from_text(sys.stdin.read(), rule=rule.value)
        else:
            grid = NumberGrid.load(file, rule=rule.value)
        result = reconstruct(grid, engine=engine.value, time_limit=time_limit,
                             limit=None if all_layouts else (limit or 2))
    layout = result.first
    if as_json:
        print_json({"rule": result.rule, "width": result.width, "height": result.height,
                    "solutions": result.count, "exhaustive": result.exhaustive,
                    "unique": result.unique,
                    "layout": layout.to_text().splitlines() if layout is not None else None,
                    "conflict": [list(cell) for cell in result.conflict]
                    if result.conflict is not None else None})
    else:
        typer.echo(f"{result.rule} {result.width}x{result.height}: {_layouts_summary(result)}")
        if layout is not None:
            typer.echo(render_grid(layout.to_text().splitlines()))
            typer.echo(f"{layout.mine_count} mines")
        if result.conflict is not None:
            typer.echo("these clues cannot all hold: "
                       + ", ".join(f"{row},{col}" for row, col in result.conflict))
    if layout is None:
        raise typer.Exit(EXIT_NO_ANSWER)


def _layouts_summary(result) -> str:
    """One line: how many layouts, whether that is all of them, and uniqueness."""
    if result.count == 0:
        return "no layout fits these numbers"
    if result.exhaustive:
        if result.count == 1:
            return "1 layout, unique"
        return f"{result.count} layouts, not unique; the first:"
    stopped = "stopped at the limit" if result.unique is not None else "stopped at the time limit"
    uniqueness = "not unique" if result.unique is False else "uniqueness unknown"
    return f"at least {result.count} layout{'s' if result.count != 1 else ''} ({stopped}), {uniqueness}; the first:"


# == no-guess: solvable ==========================================================================

@app.command()
def solvable(
    board_file: Annotated[Path, typer.Argument(metavar="BOARD", help="A layout text file or an MBF file.")],
    first_click: Annotated[Optional[str], typer.Option(help="ROW,COL of the first click; default 0,0 (3,3 for safe-opening).")] = None,
    rules: Annotated[str, typer.Option(help="The first-click rule the game is played under.")] = "safe-cell",
    mine_count: Annotated[bool, typer.Option("--mine-count/--no-mine-count", help="Allow reasoning with the total mine count (--no-mine-count: ms-toollib's stricter standard).")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Can this board be won from the first click without a guess, and with what reasoning?
    Exit 0 if so, 1 if not."""
    from msanalysis.play.noguess import solve_without_guessing

    with user_errors():
        board = read_board(board_file)
        click = parse_cell(first_click) if first_click else default_first_click(rules)
        result = solve_without_guessing(board, click, rules=rules, use_mine_count=mine_count)
    rows = position_rows(result.position)
    if as_json:
        print_json({**result.to_dict(), "first_click": list(click), "position": rows})
    elif result.solvable:
        typer.echo(f"solvable without a guess from {click[0]},{click[1]}: all "
                   f"{result.revealed} safe cells revealed in {result.rounds} rounds of reasoning")
    else:
        typer.echo(render_grid(rows))
        typer.echo(f"not solvable without a guess from {click[0]},{click[1]}: logic stops after "
                   f"{result.revealed} safe cells ({result.rounds} rounds of reasoning), above")
    if not as_json and result.grade:
        where = ", ".join(f"{r},{c}" for r, c in result.hardest_cells[:6])
        more = " ..." if len(result.hardest_cells) > 6 else ""
        what = "grade" if result.solvable else "hardest reasoning before logic stopped: grade"
        typer.echo(f"{what} {result.grade} ({result.grade_name}), first needed in round "
                   f"{result.hardest_step + 1}, for {where}{more}")
    if not result.solvable:
        raise typer.Exit(EXIT_NO_ANSWER)


# == play: play ===================================================================================

EXIT_INTERRUPTED = 130  # the shell's status for a run stopped by Ctrl-C (128 + SIGINT)


@app.command()
def play(
    games: Annotated[int, typer.Option(help="How many games to play.")],
    difficulty: Annotated[Optional[str], typer.Option(help="beginner, intermediate or expert (default beginner).")] = None,
    width: Annotated[Optional[int], typer.Option(help="Columns (overrides the difficulty).")] = None,
    height: Annotated[Optional[int], typer.Option(help="Rows (overrides the difficulty).")] = None,
    mines: Annotated[Optional[int], typer.Option(help="Mines (overrides the difficulty).")] = None,
    rules: Annotated[str, typer.Option(help="unsafe, safe-cell, safe-opening or windows-xp.")] = "safe-cell",
    first_click: Annotated[Optional[str], typer.Option(help="ROW,COL of the first click; default 0,0 (3,3 for safe-opening).")] = None,
    strategy: Annotated[str, typer.Option(help="best, safest or paper (seed 003's baseline).")] = "best",
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 0,
    jobs: Annotated[int, typer.Option(help="Local worker processes.")] = 1,
    dask: Annotated[Optional[str], typer.Option(help="Run on this Dask scheduler (tcp://host:port) instead.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play many seeded games with a strategy and report the win rate."""
    from msanalysis.play.bench import PlaySpec, bench

    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    if jobs < 1:
        fail(f"--jobs must be at least 1, got {jobs}")
    with user_errors():
        click = parse_cell(first_click) if first_click else None
        spec = PlaySpec.standard(
            chosen_difficulty(difficulty, width, height, mines), width=width,
            height=height, mines=mines, rules=rules, first_click=click, strategy=strategy)
        spec.check()
        if stdout_is_terminal() and not as_json:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeRemainingColumn)

            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn())
            with Progress(*columns, transient=True) as progress:
                task = progress.add_task(f"{spec.name} {spec.strategy}", total=games)
                summary = bench(spec, games, seed=seed, jobs=jobs, dask=dask,
                                on_result=lambda _: progress.advance(task))
        else:
            summary = bench(spec, games, seed=seed, jobs=jobs, dask=dask)
    if summary.interrupted:
        typer.echo(f"interrupted: {summary.games} of {games} games finished", err=True)
    if as_json:
        print_json(summary.to_json())
    else:
        row, col = spec.first_click
        last = seed + summary.planned - 1
        typer.echo(f"{spec.name} {spec.width}x{spec.height}/{spec.mines}, rules {spec.rules}, "
                   f"first click {row},{col}, strategy {spec.strategy}, seeds {seed}-{last}")
        for label, value in summary.table():
            typer.echo(f"  {label:<14} {value}")
    if summary.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)


def main() -> None:  # pragma: no cover - console entry point
    app()
