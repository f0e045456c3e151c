"""The strategies by name, and :func:`make_strategy`, which makes one for a game.

- ``paper``: seed 003's solver, the baseline (:mod:`msanalysis.play.paper`). It never uses the
  analysis engine.
- ``safest``: reveal the forced safe cells; otherwise the cell with the lowest exact mine
  probability, ties broken row-major (:mod:`msanalysis.play.safest`).
- ``best`` (the default): as ``safest``, but among nearly-as-safe cells it prefers the one most
  likely to make progress, and it solves small endgames exactly (:mod:`msanalysis.play.best`).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from typing import Any

from msanalysis.errors import InvalidInput, check_list, check_type
from msanalysis.play.autoplay import Strategy
from msanalysis.play.best import BestStrategy
from msanalysis.play.paper import PaperStrategy
from msanalysis.play.safest import SafestStrategy

__all__ = ["STRATEGIES", "make_strategy", "parse_option", "parse_options"]


STRATEGIES: dict[str, type] = {"paper": PaperStrategy, "safest": SafestStrategy,
                               "best": BestStrategy}
"""Strategy classes by name; each takes keyword arguments ``seed``, ``flag_mines``, ``explain``."""


def make_strategy(name: str, *, seed: int | None = None, flag_mines: bool = False,
                  explain: bool = False, **options: Any) -> Strategy:
    """A fresh strategy object for one game.

    ``options`` go to the strategy's constructor: the parameters of
    :class:`~msanalysis.play.best.BestStrategy`, for instance, to compare variants of it.

    Raises
    ------
    ValueError
        If no strategy has that name, or it has no such option.

    Examples
    --------
    >>> make_strategy("paper", seed=1).name
    'paper'
    >>> make_strategy("best", blend=0.5).blend
    0.5
    >>> make_strategy("safest", blend=0.5)
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: strategy 'safest' has no option 'blend'
    """
    try:
        cls = STRATEGIES[name]
    except (KeyError, TypeError):  # (a list or a dict is no key at all)
        raise InvalidInput(f"unknown strategy {name!r}; choose one of "
                         f"{', '.join(sorted(STRATEGIES))}") from None
    known = inspect.signature(cls).parameters
    for option in options:  # (seed, flag_mines and explain are never among them)
        if option not in known:
            raise InvalidInput(f"strategy {name!r} has no option {option!r}")
    return cls(seed=seed, flag_mines=flag_mines, explain=explain, **options)


def parse_option(word: str) -> tuple[str, Any]:
    """One option of a strategy written ``name=value``, as the command line and the benchmarks
    take it: the name, and the value read as a Python literal (a number, True or False, None, a
    quoted string) or else as the text itself, so that ``book=expert-safe-cell`` needs no
    quotes in a shell.

    Whether the strategy has the option, and whether the value suits it, is for
    :func:`make_strategy` to say.

    Raises
    ------
    InvalidInput
        If ``word`` is not a name, ``=`` and a value.

    Examples
    --------
    >>> parse_option("drawn_endgame=0"), parse_option("fifty_fifty=False")
    (('drawn_endgame', 0), ('fifty_fifty', False))
    >>> parse_option("book=expert-safe-cell")
    ('book', 'expert-safe-cell')
    >>> parse_option("blend")
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: option 'blend' is not name=value (drawn_endgame=0, for instance)
    """
    check_type(word, str, "parse_option", "name=value: drawn_endgame=0, for instance")
    name, sep, text = word.partition("=")
    name, text = name.strip(), text.strip()
    if not sep or not name.isidentifier() or not text:
        raise InvalidInput(f"option {word!r} is not name=value (drawn_endgame=0, for instance)")
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = text  # a word such as a book's name
    return name, value


def parse_options(words: Iterable[str]) -> dict[str, Any]:
    """Options written ``name=value`` (see :func:`parse_option`), by name.

    Raises
    ------
    InvalidInput
        If a word is not ``name=value``, or a name comes twice.

    Examples
    --------
    >>> parse_options(["drawn_endgame=0", "book=expert-safe-cell"])
    {'drawn_endgame': 0, 'book': 'expert-safe-cell'}
    >>> parse_options(["blend=0.1", "blend=0.2"])
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: option blend given twice
    """
    check_list(words, "options are a list of name=value words")
    options: dict[str, Any] = {}
    for word in words:
        name, value = parse_option(word)
        if name in options:
            raise InvalidInput(f"option {name} given twice")
        options[name] = value
    return options
