"""The strategies by name, and :func:`make_strategy`, which makes one for a game.

- ``paper``: seed 003's solver, the baseline (:mod:`msanalysis.play.paper`). It never uses the
  analysis engine.
- ``safest``: reveal the forced safe cells; otherwise the cell with the lowest exact mine
  probability, ties broken row-major (:mod:`msanalysis.play.safest`).
- ``best`` (the default): as ``safest``, but among nearly-as-safe cells it prefers the one most
  likely to make progress, and it solves small endgames exactly (:mod:`msanalysis.play.best`).
"""

from __future__ import annotations

import inspect
from typing import Any

from msanalysis.errors import InvalidInput
from msanalysis.play.autoplay import Strategy
from msanalysis.play.best import BestStrategy
from msanalysis.play.paper import PaperStrategy
from msanalysis.play.safest import SafestStrategy

__all__ = ["STRATEGIES", "make_strategy"]


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
    except KeyError:
        raise InvalidInput(f"unknown strategy {name!r}; choose one of "
                         f"{', '.join(sorted(STRATEGIES))}") from None
    known = inspect.signature(cls).parameters
    for option in options:
        if option not in known or option in ("seed", "flag_mines", "explain"):
            raise InvalidInput(f"strategy {name!r} has no option {option!r}")
    return cls(seed=seed, flag_mines=flag_mines, explain=explain, **options)
