"""Playing a layout: the first click, the cascade, chords and flags.

:class:`Game` follows Windows Minesweeper (seed 000 and seed 001):

- revealing a cell whose number is 0 reveals its hidden neighbours, repeatedly, with a queue
  (breadth-first), never recursion; flagged cells are not revealed by a cascade, and a cell
  whose mines are all flagged still does not cascade unless its number is 0;
- under ``windows-xp`` rules a mine under the first click moves to the top-left cell, or the
  next free cell to its right, row by row (:func:`msanalysis.rules.windows_xp_move`).

Like Windows, the grid is stored with a border of cells that count as already uncovered, so the
queue never needs a bounds check. The queue is processed one breadth-first wave at a time: small
waves (most of a game's) cell by cell, large ones with numpy, which clears a million-cell opening
in well under a second.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from msanalysis.board import Board, Cell, as_cell
from msanalysis.errors import IllegalMove, check_type
from msanalysis.position import FLAG, HIDDEN, MINE, Position
from msanalysis.rules import FirstClick, generate, windows_xp_move

__all__ = ["Game", "GameStatus"]


class GameStatus(StrEnum):
    """Where a game stands; compares equal to its name, so ``game.status == "won"`` works."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"

    def __repr__(self) -> str:
        return repr(self.value)


PLAYING, WON, LOST = GameStatus.PLAYING, GameStatus.WON, GameStatus.LOST

_SMALL_WAVE = 64
"""Waves of a cascade up to this many zeros are followed cell by cell, larger ones with numpy."""


class Game:
    """A game of Minesweeper on a given layout.

    Parameters
    ----------
    board : Board
        The mine layout (see :func:`msanalysis.rules.generate`).
    rules : {"safe-cell", "unsafe", "safe-opening", "windows-xp", "no-guess"}
        Only ``windows-xp`` changes the game itself: its first click moves a mine away. The other
        rules are properties of how the layout was generated for the first click.

    Attributes
    ----------
    clicks : int
        Reveals and chords that opened something.
    changes : int
        Moves that changed the game (flags too): what a
        :class:`~msanalysis.tracker.Tracker` following the game compares, to notice moves made
        on the game directly.

    Examples
    --------
    >>> game = Game(Board.from_text("....\\n....\\n...*"))
    >>> len(game.reveal((0, 0)))
    11
    >>> print(game.position().to_text())
    mines: 1
    ....
    ..11
    ..1?
    >>> game.status
    'won'
    """

    def __init__(self, board: Board, *, rules: str = "safe-cell") -> None:
        check_type(board, Board, "a game", "Board.from_text reads one; msanalysis.generate "
                   "makes one")
        self.rules = FirstClick.parse(rules)
        self.status = PLAYING
        self.clicks = 0
        self.changes = 0
        self._exploded: Cell | None = None
        height, width = board.height, board.width
        self._stride = width + 2
        size = (height + 2) * (width + 2)
        # Each mark is one byte per cell, seen as a bytearray by the cell-by-cell code (fast to
        # index from Python) and as a numpy array over the same memory by the rest.
        self._revealed_bytes = bytearray(b"\x01") * size
        self._flagged_bytes = bytearray(size)
        self._revealed = np.frombuffer(self._revealed_bytes, dtype=bool)
        self._flagged = np.frombuffer(self._flagged_bytes, dtype=bool)
        self._revealed.reshape(height + 2, width + 2)[1:-1, 1:-1] = False
        s = self._stride
        self._offsets = np.array([-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1], dtype=np.int64)
        self._set_board(board)

    @classmethod
    def started(cls, width: int, height: int, mines: int, *, rules: str = "safe-cell",
                first_click: Cell = (0, 0), seed: int | None = None) -> Game:
        """Generate a layout with :func:`~msanalysis.rules.generate` and make the first click.

        Examples
        --------
        >>> game = Game.started(9, 9, 10, rules="safe-opening", first_click=(4, 4), seed=7)
        >>> game.position().state((4, 4))
        0
        """
        board = generate(width, height, mines, rules=rules, first_click=first_click, seed=seed)
        game = cls(board, rules=rules)
        game.reveal(first_click)
        return game

    def _set_board(self, board: Board) -> None:
        self.board = board
        height, width = board.height, board.width
        numbers = np.full((height + 2, width + 2), -1, dtype=np.int8)
        numbers[1:-1, 1:-1] = board.numbers
        self._numbers = numbers.ravel()
        self._number_list = self._numbers.tolist()
        mines = np.zeros((height + 2, width + 2), dtype=bool)
        mines[1:-1, 1:-1] = board.mask
        self._mines = mines.ravel()
        self._safe_left = height * width - board.mine_count - int(
            (self._revealed.reshape(height + 2, width + 2)[1:-1, 1:-1]).sum())

    # -- cells ----------------------------------------------------------------------------------
    def _index(self, cell: Cell) -> int:
        row, col = as_cell(cell, self.board.height, self.board.width, error=IllegalMove)
        return (row + 1) * self._stride + col + 1

    def _cells(self, indices: list[int]) -> list[Cell]:
        stride = self._stride
        return [(i // stride - 1, i % stride - 1) for i in indices]

    def _require_playing(self) -> None:
        if self.status != PLAYING:
            raise IllegalMove(f"the game is over ({self.status})")

    # -- moves ----------------------------------------------------------------------------------
    def reveal(self, cell: Cell) -> list[Cell]:
        """Uncover ``cell``; a 0 cascades. Returns the newly revealed cells in queue order.

        Clicking a flagged or already revealed cell does nothing. Clicking a mine loses.

        Raises
        ------
        IllegalMove
            If the cell is off the board or the game is over.
        """
        index = self._index(cell)
        self._require_playing()
        if self._flagged_bytes[index] or self._revealed_bytes[index]:
            return []
        if self.clicks == 0 and self.rules is FirstClick.WINDOWS_XP and self._mines[index]:
            self._set_board(windows_xp_move(self.board, cell))
        self.clicks += 1
        self.changes += 1
        if self._mines[index]:
            self._lose(index)
            return [cell]
        if self._number_list[index]:
            # A number opens only itself: most clicks of a game, without the cascade's arrays.
            self._revealed_bytes[index] = 1
            self._safe_left -= 1
            if self._safe_left == 0:
                self.status = WON
            return [(int(cell[0]), int(cell[1]))]
        return self._cells(self._cascade([int(index)]))

    def _cascade(self, start: list[int]) -> list[int]:
        """Reveal the safe cells ``start`` and everything a 0 among them opens, breadth-first.

        Returns the flat indices revealed, wave after wave (the queue order).
        """
        seen, marked, shown = self._revealed_bytes, self._flagged_bytes, self._number_list
        for i in start:
            seen[i] = 1
        order = list(start)
        wave = [i for i in start if shown[i] == 0]
        # Small waves cell by cell (numpy's cost per call outweighs a few dozen cells), large
        # ones with numpy.
        offsets = self._offsets.tolist()
        while wave and len(wave) <= _SMALL_WAVE:
            found = []
            for i in wave:
                for o in offsets:
                    j = i + o
                    if not (seen[j] or marked[j]):
                        seen[j] = 1
                        found.append(j)
            found.sort()
            order += found
            wave = [j for j in found if shown[j] == 0]
        if wave:
            order += self._cascade_waves(np.array(wave, dtype=np.int64)).tolist()
        self._safe_left -= len(order)
        if self._safe_left == 0:
            self.status = WON
        return order

    def _cascade_waves(self, wave: np.ndarray) -> np.ndarray:
        """The cells the zeros ``wave`` (revealed already, at least one) open, wave after wave,
        with numpy."""
        revealed, flagged, numbers = self._revealed, self._flagged, self._numbers
        waves = []
        while wave.size:
            around = (wave[:, None] + self._offsets).ravel()
            # The border counts as revealed, so it never enters the queue (seed 000). Filtering
            # first leaves few cells to deduplicate: most neighbours are behind the wave.
            around = np.unique(around[~revealed[around] & ~flagged[around]])
            revealed[around] = True
            waves.append(around)
            wave = around[numbers[around] == 0]
        return np.concatenate(waves)

    def _lose(self, index: int) -> None:
        self._revealed[index] = True
        self._exploded = self._cells([int(index)])[0]
        self.status = LOST

    def chord(self, cell: Cell) -> list[Cell]:
        """Reveal the hidden neighbours of a revealed number whose flags match it.

        Does nothing when the number of flags around ``cell`` differs from its number. Loses when
        a flag was wrong, so that a neighbour revealed is a mine.

        Examples
        --------
        >>> game = Game(Board.from_text("*..\\n..."))
        >>> game.reveal((1, 1)), game.flag((0, 0))
        ([(1, 1)], None)
        >>> sorted(game.chord((1, 1)))
        [(0, 1), (0, 2), (1, 0), (1, 2)]
        """
        index = self._index(cell)
        self._require_playing()
        if not self._revealed[index]:
            return []
        around = index + self._offsets
        number = int(self._numbers[index])
        if int(self._flagged[around].sum()) != number:
            return []
        targets = around[~self._revealed[around] & ~self._flagged[around]]
        if targets.size == 0:
            return []
        self.clicks += 1
        self.changes += 1
        mines = targets[self._mines[targets]]
        if mines.size:
            self._lose(int(mines[0]))
            return self._cells(mines[:1].tolist())
        return self._cells(self._cascade(targets.tolist()))

    def flag(self, cell: Cell) -> None:
        """Put a flag on a hidden cell.

        As in Windows Minesweeper, more flags than mines may be placed (the mine counter goes
        below zero): real games, and so replays, do it.

        Raises
        ------
        IllegalMove
            If the cell is revealed or off the board, or the game is over.
        """
        index = self._index(cell)
        self._require_playing()
        if self._revealed[index]:
            raise IllegalMove(f"cell {cell} is revealed and cannot be flagged")
        if not self._flagged_bytes[index]:
            self._flagged[index] = True
            self.changes += 1

    def unflag(self, cell: Cell) -> None:
        """Remove the flag from ``cell`` (nothing happens if it has none)."""
        index = self._index(cell)
        self._require_playing()
        if self._flagged_bytes[index]:
            self._flagged[index] = False
            self.changes += 1

    # -- views ----------------------------------------------------------------------------------
    @property
    def flags_placed(self) -> int:
        return int(self._flagged.sum())

    @property
    def exploded(self) -> Cell | None:
        """The mine that was clicked, when the game is lost."""
        return self._exploded

    def _grid(self, flat: np.ndarray) -> np.ndarray:
        return flat.reshape(self.board.height + 2, self._stride)[1:-1, 1:-1]

    def is_revealed(self, cell: Cell) -> bool:
        return bool(self._revealed_bytes[self._index(cell)])

    def is_flagged(self, cell: Cell) -> bool:
        return bool(self._flagged_bytes[self._index(cell)])

    def position(self) -> Position:
        """What the player sees now; after a loss every unflagged mine is shown."""
        revealed = self._grid(self._revealed)
        states = np.where(revealed, self.board.numbers, HIDDEN).astype(np.int8)
        states[self._grid(self._flagged)] = FLAG
        if self.status == LOST:
            states[self.board.mask & ~self._grid(self._flagged)] = MINE
        return Position(states, self.board.mine_count)

    def __repr__(self) -> str:
        return f"<Game {self.board.width}x{self.board.height} rules={self.rules} {self.status}>"
