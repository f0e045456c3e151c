"""Types for the benchmark scripts' options: a bad value is refused as the options are read.

The scripts' :class:`Parser` then prints one line naming the option ("error: argument --games:
a whole number from 1 up, got 0"), as the command line does, instead of a traceback later or a
file that cannot be written once an hour of games is played. Not a benchmark itself (the
Makefile's ``bench`` leaves it out).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from msanalysis.errors import MAX_JOBS

__all__ = ["COUNT", "JOBS", "SEED", "Parser", "existing_file", "new_file", "seconds", "share",
           "whole"]


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are one line, ``error: ...``, exit status 2 (without
    the usage, which ``--help`` gives)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message}\n")


def whole(least: int, most: int | None = None) -> Callable[[str], int]:
    """An option's type: a whole number from ``least`` (up to ``most``).

    >>> whole(1, 64)("8")
    8
    >>> whole(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a whole number from 1 up, got 0
    """
    span = f"from {least} up" if most is None else f"from {least} to {most}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number {span}, got {text!r}") from None
        if value < least or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"a whole number {span}, got {value}")
        return value

    return parse


COUNT = whole(1)
"""Games, layouts, rounds, repeats: at least one."""
SEED = whole(0)
"""The first seed of a run."""
JOBS = whole(1, MAX_JOBS)
"""Worker processes (as :func:`msanalysis.errors.check_jobs` allows)."""


def seconds(text: str) -> float:
    """A time limit: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"a positive number of seconds, got {text!r}")
    return value


def share(text: str) -> float:
    """A probability strictly between 0 and 1 (a test's alpha)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a number between 0 and 1, got {text!r}")
    return value


def existing_file(text: str) -> Path:
    """A file to read: it must be there."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(
            f"no such file: {text!r}" if not path.exists() else f"{text!r} is not a file")
    return path


def new_file(text: str) -> Path:
    """A file to write (or to go on with): not a folder, in a folder that is there."""
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"no such folder: {str(path.parent)!r} (for {text!r})")
    return path
