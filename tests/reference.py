"""An independent, deliberately simple reference for the analysis engine, and test positions.

:func:`enumerate_layouts` tries every placement of mines over the unknown cells of a small
position and keeps those that satisfy every revealed number (and the mine count, when known). It
shares no code with :mod:`msanalysis.constraints`, :mod:`msanalysis.sat` or
:mod:`msanalysis.counting`: it reads the raw cell states, so a bug there cannot hide here.

:func:`all_layouts` lists the consistent layouts themselves, as boards.

:func:`game_position` and :func:`game_positions` make small positions from seeded games at random
stages, with or without flags (right and sometimes wrong) and with the count known or not. Other
test modules may import both.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from msanalysis.board import Board, neighbours
from msanalysis.game import Game
from msanalysis.position import FLAG, HIDDEN, MINE, Position

__all__ = [
    "MAX_UNKNOWN",
    "Reference",
    "all_layouts",
    "endgame_positions",
    "enumerate_layouts",
    "game_position",
    "game_positions",
]

MAX_UNKNOWN = 18
"""The most unknown cells :func:`enumerate_layouts` accepts (2**18 layouts)."""


@dataclass(frozen=True)
class Reference:
    """What brute force knows about a position.

    Attributes
    ----------
    solutions : int
        Layouts consistent with the position (0 when it is inconsistent).
    mines : dict
        Per unknown cell, in how many of those layouts it holds a mine.
    unknown : list of (row, col)
    """

    solutions: int
    mines: dict[tuple[int, int], int]
    unknown: list[tuple[int, int]]

    def probability(self, cell: tuple[int, int]) -> Fraction:
        return Fraction(self.mines[cell], self.solutions)

    @property
    def forced_safe(self) -> frozenset[tuple[int, int]]:
        return frozenset(c for c, m in self.mines.items() if self.solutions and m == 0)

    @property
    def forced_mines(self) -> frozenset[tuple[int, int]]:
        return frozenset(c for c, m in self.mines.items()
                         if self.solutions and m == self.solutions)


def enumerate_layouts(position: Position, *, ignore_flags: bool = False,
                      clues: Iterable[tuple[int, int]] | None = None,
                      use_count: bool = True) -> Reference:
    """Count every mine placement over the unknown cells that fits every number.

    Unknown cells are hidden cells, plus flags when ``ignore_flags``; shown mines and (unless
    ignored) flags are mines. With the total unknown, every layout counts once, whatever its
    number of mines. ``clues`` restricts the numbers checked to those cells, and
    ``use_count=False`` drops the mine count (to check explanations and cores).
    """
    states = np.asarray(position.states, dtype=np.int64)
    height, width = states.shape
    unknown_mask = (states == HIDDEN) | ((states == FLAG) & ignore_flags)
    known_mask = (states == MINE) | ((states == FLAG) & (not ignore_flags))
    unknown = [(r, c) for r in range(height) for c in range(width) if unknown_mask[r, c]]
    if len(unknown) > MAX_UNKNOWN:
        raise ValueError(f"{len(unknown)} unknown cells: too many to enumerate")
    index = {cell: i for i, cell in enumerate(unknown)}
    n = len(unknown)
    layouts = ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1).astype(np.int64)
    keep = np.ones(len(layouts), dtype=bool)
    checked = None if clues is None else set(clues)
    if position.total_mines is not None and use_count:
        keep &= layouts.sum(axis=1) == position.total_mines - int(known_mask.sum())
    for r in range(height):
        for c in range(width):
            if states[r, c] < 0 or (checked is not None and (r, c) not in checked):
                continue
            columns, known = [], 0
            for rr in range(r - 1, r + 2):
                for cc in range(c - 1, c + 2):
                    if (rr, cc) == (r, c) or not (0 <= rr < height and 0 <= cc < width):
                        continue
                    if (rr, cc) in index:
                        columns.append(index[(rr, cc)])
                    known += int(known_mask[rr, cc])
            keep &= layouts[:, columns].sum(axis=1) + known == states[r, c]
    chosen = layouts[keep]
    counts = chosen.sum(axis=0).tolist() if n else []
    return Reference(len(chosen), {cell: int(counts[i]) for i, cell in enumerate(unknown)},
                     unknown)


def game_position(seed: int, *, width: int = 6, height: int = 5, mines: int = 6,
                  max_unknown: int = 14) -> Position:
    """A position from a seeded game at a random stage, small enough to enumerate.

    The game opens at a random cell, then safe cells are revealed at random until at most
    ``max_unknown`` cells are covered, then a random number of further reveals. The seed also
    decides whether mines get flags (some may be wrong), whether a mine is shown (a lost game)
    and whether the total is kept.
    """
    rng = np.random.default_rng(seed)
    first = (int(rng.integers(height)), int(rng.integers(width)))
    game = Game.started(width, height, mines, rules="safe-cell", first_click=first, seed=seed)
    board = game.board

    def covered_safe() -> list[tuple[int, int]]:
        return [(r, c) for r in range(height) for c in range(width)
                if not game.is_revealed((r, c)) and not board.is_mine((r, c))]

    extra = int(rng.integers(0, 4))
    while game.status == "playing":
        covered = height * width - sum(game.is_revealed((r, c)) for r in range(height)
                                       for c in range(width))
        if covered <= max_unknown:
            if extra == 0:
                break
            extra -= 1
        safe = covered_safe()
        game.reveal(safe[int(rng.integers(len(safe)))])
    states = np.array(game.position().states)
    hidden_mines = [(r, c) for r, c in board.mines if states[r, c] == HIDDEN]
    style = rng.random()
    if style < 0.35:  # right flags on some mines
        for cell in hidden_mines:
            if rng.random() < 0.5:
                states[cell] = FLAG
    elif style < 0.45:  # one wrong flag
        hidden = [tuple(c) for c in np.argwhere(states == HIDDEN).tolist()]
        safe = [cell for cell in hidden if not board.is_mine(cell)]
        if safe:
            states[safe[int(rng.integers(len(safe)))]] = FLAG
    elif style < 0.5 and hidden_mines:  # a lost game that shows one mine
        states[hidden_mines[int(rng.integers(len(hidden_mines)))]] = MINE
    total = board.mine_count if rng.random() < 0.7 else None
    return Position(states, total)


def game_positions(count: int, *, start: int = 0, **kwargs) -> list[Position]:
    """``count`` positions from :func:`game_position` with seeds ``start, start + 1, ...``.

    Board sizes vary with the seed (4x4 to 8x6) so that edges, corners and long frontiers all
    show up.
    """
    sizes = [(4, 4, 3), (5, 5, 5), (6, 5, 6), (7, 5, 8), (8, 6, 10), (6, 6, 9), (8, 4, 6)]
    positions = []
    for seed in range(start, start + count):
        width, height, mines = sizes[seed % len(sizes)]
        positions.append(game_position(seed, width=width, height=height, mines=mines, **kwargs))
    return positions


def all_layouts(position: Position) -> list[Board]:
    """Every layout of a small position with a known total, as a Board: brute force.

    Shown mines stay mines; the rest of the mines go over the hidden cells in every way, and
    a layout is kept when its numbers are the revealed ones. Flags are not supported.
    """
    hidden = [tuple(map(int, c)) for c in zip(*np.nonzero(position.states == HIDDEN))]
    known = [tuple(map(int, c)) for c in zip(*np.nonzero(position.states == MINE))]
    height, width = position.shape
    shown = position.states >= 0
    boards = []
    for chosen in itertools.combinations(hidden, position.total_mines - len(known)):
        board = Board.from_cells(height, width, [*known, *chosen])
        if (board.numbers[shown] == position.states[shown]).all():
            boards.append(board)
    return boards


def endgame_positions(count: int, seed: int = 0, *, needs_guess=None) -> list[Position]:
    """Small positions near the end of a game: a few safe cells still covered beside the mines.

    Cells are covered only where no shown 0 touches them, as in a real game; each position has
    3 to 12 layouts, at most 11 hidden cells, and passes ``needs_guess`` when given.
    """
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        height, width = rng.choice([(4, 4), (4, 5), (5, 5), (4, 6)])
        cells = list(itertools.product(range(height), range(width)))
        mines = rng.sample(cells, rng.randint(2, 5))
        board = Board.from_cells(height, width, mines)
        covered = {*mines, *rng.sample([c for c in cells if c not in mines], rng.randint(3, 7))}
        if any(board.numbers[c] == 0 and any(n in covered for n in neighbours(c, height, width))
               for c in cells if c not in covered):
            continue
        states = board.numbers.astype(np.int8)
        states[tuple(zip(*covered))] = HIDDEN
        position = Position(states, len(mines))
        if (len(position.hidden) <= 11 and 3 <= len(all_layouts(position)) <= 12
                and (needs_guess is None or needs_guess(position))):
            found.append(position)
    return found
