"""Telling what a file holds: a board or a position.

The formats themselves belong to the types they describe: layout text and binary MBF to
:class:`~msanalysis.board.Board` (``Board.from_text``, ``Board.from_mbf``, ``Board.load``), the
canonical position text and JSMinesweeper's ``.mine`` to :class:`~msanalysis.position.Position`
(``Position.from_text``, ``Position.from_mine``, ``Position.load``), number grids to
:class:`~msanalysis.numbergrid.NumberGrid`. This module only recognises which one a file is.
"""

from __future__ import annotations

from pathlib import Path

from msanalysis.board import Board
from msanalysis.files import lines_of, read_bytes, text_of_layout_file
from msanalysis.position import Position

__all__ = ["read_any"]


def read_any(path: str | Path) -> Board | Position:
    """Read a board or a position, whichever the file holds.

    MBF files (see :func:`~msanalysis.files.text_of_layout_file`) and texts of only ``*`` and
    ``.`` are boards; everything else is a position.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "b.txt"), "w") as out:
    ...     _ = out.write("*.\\n..\\n")
    >>> read_any(os.path.join(folder, "b.txt"))
    Board.from_text('*.\\n..')
    """
    data = read_bytes(path)  # first: it checks that ``path`` is one
    text = text_of_layout_file(data, path)
    if text is None:
        return Board.from_file_bytes(data, path)
    rows = [line.strip() for line in lines_of(text)
            if line.strip() and not line.strip().startswith("#")]
    if rows and all(set(row) <= {"*", "."} for row in rows):
        return Board.from_file_bytes(data, path)
    return Position.from_file_text(text, path)
