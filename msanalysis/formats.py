"""File formats other than the canonical text: MBF boards and JSMinesweeper ``.mine`` positions.

- MBF (a binary board): byte 0 width, byte 1 height, bytes 2-3 the mine count big-endian, then
  one ``(x, y)`` byte pair per mine (x the column, y the row).
- ``.mine`` (a JSMinesweeper position): a first line ``WxHxM``, then one line per row of ``H``
  hidden, ``F`` flag, or a revealed digit.

Plus :func:`read_board` and :func:`read_position`, which pick the format of a file. The canonical
position text belongs to :mod:`msanalysis.position`, the layout text to :mod:`msanalysis.board`.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from msanalysis.board import Board
from msanalysis.errors import ParseError
from msanalysis.position import FLAG, HIDDEN, Position

__all__ = ["board_from_mbf", "board_to_mbf", "position_from_mine", "read_any", "read_board",
           "read_position", "read_text"]

_MINE_HEADER = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*x\s*(\d+)\s*$")


def board_from_mbf(data: bytes) -> Board:
    """Decode an MBF board.

    Raises
    ------
    ParseError
        If the data is truncated, has bytes left over, or names a mine off the board or twice.

    Examples
    --------
    >>> board_from_mbf(bytes([3, 2, 0, 1, 2, 0])).to_text()
    '..*\\n...'
    """
    if len(data) < 4:
        raise ParseError(f"truncated MBF: {len(data)} bytes, the header alone needs 4")
    width, height = data[0], data[1]
    count = int.from_bytes(data[2:4], "big")
    if width == 0 or height == 0:
        raise ParseError(f"MBF header gives an empty board ({width}x{height})")
    expected = 4 + 2 * count
    if len(data) < expected:
        raise ParseError(f"truncated MBF: the header promises {count} mines ({expected} bytes), "
                         f"the data has {len(data)} bytes")
    if len(data) > expected:
        raise ParseError(f"MBF has {len(data) - expected} bytes after its {count} mines")
    if count > width * height:
        raise ParseError(f"MBF header gives {count} mines for {width * height} cells")
    pairs = np.frombuffer(data[4:], dtype=np.uint8).reshape(count, 2).astype(np.int64)
    mask = np.zeros((height, width), dtype=bool)
    for number, (x, y) in enumerate(pairs.tolist(), start=1):
        if x >= width or y >= height:
            raise ParseError(f"MBF mine {number} at x={x}, y={y} is off the {width}x{height} board")
        if mask[y, x]:
            raise ParseError(f"MBF mine {number} at x={x}, y={y} is listed twice")
        mask[y, x] = True
    return Board(mask)


def board_to_mbf(board: Board) -> bytes:
    """Encode a board as MBF (mines in row-major order).

    Examples
    --------
    >>> board_to_mbf(Board.from_text("..*\\n...")).hex()
    '030200010200'
    """
    if board.width > 255 or board.height > 255:
        raise ValueError(f"MBF holds boards up to 255x255, not {board.width}x{board.height}")
    if board.mine_count > 0xFFFF:
        raise ValueError(f"MBF holds up to 65535 mines, not {board.mine_count}")
    rows, cols = np.nonzero(board.mask)
    body = np.column_stack([cols, rows]).astype(np.uint8).tobytes()
    return bytes([board.width, board.height]) + board.mine_count.to_bytes(2, "big") + body


def position_from_mine(text: str, *, total_mines: int | None = None) -> Position:
    """Parse a JSMinesweeper ``.mine`` position: ``WxHxM``, then rows of ``H``, ``F`` and digits.

    Examples
    --------
    >>> position_from_mine("3x2x1\\nH10\\nH10").to_text()
    'mines: 1\\n?1.\\n?1.'
    """
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise ParseError("empty .mine file: expected a first line WxHxM", line=1)
    header = _MINE_HEADER.match(lines[0])
    if header is None:
        raise ParseError(f"bad .mine header {lines[0].strip()!r}: expected WxHxM such as 30x16x99",
                         line=1)
    width, height, mines = (int(group) for group in header.groups())
    if width == 0 or height == 0:
        raise ParseError(f"the header gives an empty board ({width}x{height})", line=1)
    rows = []
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        if len(rows) == height:
            raise ParseError(f"more than the {height} rows the header gives", line=number)
        if len(line) != width:
            raise ParseError(f"row has {len(line)} cells, the header gives {width}", line=number,
                             column=min(len(line), width) + 1)
        row = []
        for column, char in enumerate(line, start=1):
            if char in "Hh":
                row.append(HIDDEN)
            elif char in "Ff":
                row.append(FLAG)
            elif char.isdigit() and int(char) <= 8:
                row.append(int(char))
            else:
                reason = ("a number above 8 cannot appear in a position" if char == "9" else
                          f"unknown character {char!r} (expected 'H', 'F' or a digit 0-8)")
                raise ParseError(reason, line=number, column=column)
        rows.append(row)
    if len(rows) != height:
        raise ParseError(f"the header gives {height} rows, the file has {len(rows)}")
    mines = mines if total_mines is None else total_mines
    if mines < 0:
        raise ParseError(f"the mine count cannot be negative, got {mines}")
    flags = sum(row.count(FLAG) for row in rows)
    if mines > width * height:
        raise ParseError(f"{mines} mines do not fit on {width * height} cells", line=1)
    if flags > mines:
        raise ParseError(f"{flags} flags, more than the {mines} mines on the board")
    return Position(rows, mines)


def read_text(path: str | Path) -> str:
    """The text of a file; a file that is not UTF-8 text is a ParseError naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ParseError("not a text file (expected rows of cell characters)",
                         source=str(path)) from None


def read_position(path: str | Path, *, total_mines: int | None = None) -> Position:
    """Read a position file, canonical text or ``.mine`` (by extension or by its header).

    Parse errors name the file as well as the line and column.
    """
    return _parse_position(read_text(path), Path(path), total_mines)


def read_board(path: str | Path) -> Board:
    """Read a layout file: MBF (by extension ``.mbf`` or binary content) or layout text."""
    path = Path(path)
    return _parse_board(path.read_bytes(), path)


def read_any(path: str | Path) -> Board | Position:
    """Read a board or a position, whichever the file holds.

    MBF files and texts of only ``*`` and ``.`` are boards; everything else is a position.
    """
    path = Path(path)
    data = path.read_bytes()
    if path.suffix.lower() == ".mbf" or not _looks_like_text(data):
        return _parse_board(data, path)
    text = data.decode()
    rows = [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]
    if rows and all(set(row) <= {"*", "."} for row in rows):
        return _parse_board(data, path)
    return _parse_position(text, path, None)


def _parse_position(text: str, path: Path, total_mines: int | None) -> Position:
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        if path.suffix.lower() == ".mine" or _MINE_HEADER.match(first):
            return position_from_mine(text, total_mines=total_mines)
        return Position.from_text(text, total_mines=total_mines)
    except ParseError as error:
        raise error.in_file(str(path)) from None


def _parse_board(data: bytes, path: Path) -> Board:
    try:
        if path.suffix.lower() == ".mbf" or not _looks_like_text(data):
            return board_from_mbf(data)
        return Board.from_text(data.decode())
    except ParseError as error:
        raise error.in_file(str(path)) from None


def _looks_like_text(data: bytes) -> bool:
    try:
        text = data.decode()
    except UnicodeDecodeError:
        return False
    return all(char.isprintable() or char in "\r\n\t" for char in text)
