"""The ``msanalysis`` command line: a typer app over the library.

Every command reads its input through the library's parsers and reports a user's mistake as one
line ``error: ...`` on stderr with exit status 2 (1 where a command says the input has no
answer), never a traceback. The library itself never prints; only this module does.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from msanalysis.errors import AnalysisTooHard, InconsistentPosition

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


# == foundation: show, generate, metrics ==========================================================

# == analysis: analyze ============================================================================

# == reconstruction: reconstruct ==================================================================

# == play: play ===================================================================================


def main() -> None:  # pragma: no cover - console entry point
    app()
