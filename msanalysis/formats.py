"""Telling what a file holds: a board or a position.

The formats themselves belong to the types they describe: layout text and binary MBF to
:class:`~msanalysis.board.Board` (``Board.from_text``, ``Board.from_mbf``, ``Board.load``), the
canonical position text and JSMinesweeper's ``.mine`` to :class:`~msanalysis.position.Position`
(``Position.from_text``, ``Position.from_mine``, ``Position.load``), number grids to
:class:`~msanalysis.reconstruction.NumberGrid`. This module only recognises which one a file is.
"""

from __future__ import annotations

from pathlib import Path

from msanalysis.board import Board, decode_text
from msanalysis.errors import ParseError
from msanalysis.position import Position

__all__ = ["read_any", "read_text"]


def read_text(path: str | Path) -> str:
    """The text of a file; a file that is not UTF-8 text is a ParseError naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ParseError("not a text file (expected rows of cell characters)",
                         source=str(path)) from None


def read_any(path: str | Path) -> Board | Position:
    """Read a board or a position, whichever the file holds.

    MBF files (by extension or binary content) and texts of only ``*`` and ``.`` are boards;
    everything else is a position.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "b.txt"), "w") as out:
    ...     _ = out.write("*.\\n..\\n")
    >>> read_any(os.path.join(folder, "b.txt"))
    Board.from_text('*.\\n..')
    """
    path = Path(path)
    text = None if path.suffix.lower() == ".mbf" else decode_text(path.read_bytes())
    if text is None:
        return Board.load(path)
    rows = [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]
    if rows and all(set(row) <= {"*", "."} for row in rows):
        return Board.load(path)
    return Position.load(path)
