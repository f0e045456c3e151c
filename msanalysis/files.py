"""Reading the toolkit's input files, with a bound on how much is read, and writing files.

Every file the toolkit reads (positions, boards, number grids, replays) goes through
:func:`read_bytes` or :func:`read_text`, which refuse a file larger than :data:`MAX_FILE_BYTES`
instead of reading an endless stream (``/dev/zero``) or a huge file into memory. What a file
holds is read by the types it describes; :mod:`msanalysis.formats` tells which one it is.
:func:`write_file` writes one. Both name the file in an ``OSError`` that comes while reading or
writing (a disk that fails or fills up), which Python's leaves unnamed, and neither waits at a
named pipe longer than :data:`PIPE_WAIT_SECONDS` for its other end.
"""

from __future__ import annotations

import errno
import os
import select
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, cast

from msanalysis.errors import InvalidInput, ParseError, WrongType, a_name

__all__ = ["MAX_FILE_BYTES", "PIPE_WAIT_SECONDS", "REPLAY_SUFFIXES", "check_path", "decode_text",
           "limited", "lines_of", "read_bytes", "read_text", "text_of_layout_file", "write_file"]

REPLAY_SUFFIXES = (".avf", ".rmv", ".evf", ".mvf", ".jsonl")
"""File name endings of replays (:func:`msanalysis.replay.load_replay` reads them; ours end in
``.msreplay.jsonl``): never read as a board or a position (the binary ones would read as a
truncated MBF)."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The most bytes read from one input: a position of the largest size the toolkit holds (10
million cells) is about 10 MB of text, a replay a few MB."""


def limited(data: bytes, source: str) -> bytes:
    """``data``, or a ParseError naming ``source`` when it is over :data:`MAX_FILE_BYTES`.

    Examples
    --------
    >>> limited(b"mines: 1", "a.txt")
    b'mines: 1'
    >>> limited(bytes(MAX_FILE_BYTES + 1), "big.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    msanalysis.errors.ParseError: big.txt: more than 64 MiB: too large for a position, board, ...
    """
    if len(data) > MAX_FILE_BYTES:
        raise ParseError(f"more than {MAX_FILE_BYTES // (1024 * 1024)} MiB: too large for a "
                         "position, board, number grid or replay (is it the right file?)",
                         source=source)
    return data


def check_path(path: object) -> None:
    """Raise :class:`~msanalysis.errors.WrongType` unless ``path`` is a file's path: a ``str``
    or an ``os.PathLike`` such as :class:`pathlib.Path`.

    >>> check_path("a.txt"); check_path(Path("a.txt"))
    >>> check_path(None)
    Traceback (most recent call last):
    ...
    msanalysis.errors.WrongType: a file's path is a str or a pathlib.Path, got a NoneType
    """
    if not isinstance(path, (str, os.PathLike)):
        raise WrongType("a file's path is a str or a pathlib.Path, got "
                        f"{a_name(type(path).__name__)}")
    if "\0" in str(path):  # the system's calls cannot take one: Python's error names no file
        raise InvalidInput(f"a file's path has no NUL character, got {str(path)!r}")


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file (``-``: standard input), reading at most one byte past
    :data:`MAX_FILE_BYTES`.

    Raises
    ------
    ParseError
        Naming the file when it is larger.
    OSError
        When it cannot be read.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "board.txt")
    >>> _ = open(path, "wb").write(b"*.\\n..")
    >>> read_bytes(path)
    b'*.\\n..'
    """
    check_path(path)
    if str(path) == "-":
        return _standard_input()
    with _named(path), _opened(path, os.O_RDONLY, "rb") as stream:
        return limited(stream.read(MAX_FILE_BYTES + 1), str(path))


def write_file(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` (``-``: standard output, as ``-`` to read is standard input):
    bytes as they are, text as UTF-8.

    Raises
    ------
    OSError
        Naming the file, also when the write itself fails (a full disk).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "board.txt")
    >>> write_file(path, "*.\\n..\\n"); read_text(path)
    '*.\\n..\\n'
    """
    check_path(path)
    if not isinstance(data, (str, bytes)):
        raise WrongType(f"write_file writes a str or bytes, got {a_name(type(data).__name__)}")
    if isinstance(data, str):
        data = data.encode("utf-8")
    if str(path) == "-":
        _standard_output(data)
        return
    with _named(path), _opened(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, "wb") as stream:
        stream.write(data)


PIPE_WAIT_SECONDS = 30.0
"""How long a named pipe given as a file may keep the toolkit waiting: for something to come
through it (reading), or for its reader to open it (writing)."""

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX only; Windows has no named pipes as files
_BINARY = getattr(os, "O_BINARY", 0)  # Windows only: no newline translation


def _opened(path: str | Path, flags: int, mode: str) -> BinaryIO:
    """``path`` opened with ``flags`` as a binary file of ``mode``, waiting at most
    :data:`PIPE_WAIT_SECONDS` at a named pipe.

    Opening a named pipe waits until its other end is open too, forever when nothing opens it.
    Opened non-blocking, one with no reader refuses a writer (ENXIO), tried again until the
    time is up, and one with no writer gives its reader nothing, so the reader waits for the
    pipe to be readable instead, with the time bound. Every file then blocks again, so that a
    pipe whose other end is open (a shell's ``<(command)``) is read or written whole, and a
    terminal waits for its reader or writer as it always has.
    """
    deadline = time.monotonic() + PIPE_WAIT_SECONDS
    while True:
        try:
            descriptor = os.open(path, flags | _NONBLOCK | _BINARY, 0o666)
            break
        except OSError as error:
            if error.errno != errno.ENXIO:
                raise
            kind = os.stat(path).st_mode
            if stat.S_ISSOCK(kind):
                raise OSError(errno.ENXIO, "a socket, not a file", str(path)) from None
            if not stat.S_ISFIFO(kind):
                raise  # a device with nothing behind it
            if time.monotonic() >= deadline:
                raise _pipe_timeout(path, "its reader did not open it") from None
            time.sleep(0.05)
    try:
        if _NONBLOCK:
            if mode == "rb" and stat.S_ISFIFO(os.fstat(descriptor).st_mode):
                wait = max(0.0, deadline - time.monotonic())
                readable = select.poll()  # Windows, which has none, has no named pipes here
                readable.register(descriptor, select.POLLIN)
                if not readable.poll(wait * 1000):
                    raise _pipe_timeout(path, "nothing came through it")
            os.set_blocking(descriptor, True)  # a terminal too: it would fail, not wait
        return cast(BinaryIO, os.fdopen(descriptor, mode))  # mode is "rb" or "wb"
    except OSError as error:  # a directory, say, named by its descriptor: name the path
        os.close(descriptor)
        if error.filename == str(path):
            raise
        raise type(error)(error.errno, error.strerror, str(path)) from None


def _pipe_timeout(path: str | Path, what: str) -> OSError:
    """The error of a named pipe that kept the toolkit waiting too long."""
    return TimeoutError(errno.ETIMEDOUT, f"a named pipe, and in {PIPE_WAIT_SECONDS:g} s {what}: "
                        "start what is at its other end first, or give a file", str(path))


@contextmanager
def _named(path: str | Path) -> Iterator[None]:
    """Name ``path`` in an OSError that names no file (one from ``read`` or ``write``)."""
    try:
        yield
    except OSError as error:
        if error.filename is None:
            error.filename = str(path)
        raise


_STDIN_READ: tuple[object, bytes] | None = None
"""Standard input, once read, with the stream it came from: it can be read only once, and a
command may look at it twice (to tell a board from a position, then to read it)."""


def _standard_input() -> bytes:
    global _STDIN_READ
    stream = sys.stdin
    if stream is None:
        raise ParseError("standard input is closed: nothing to read", source="stdin")
    if _STDIN_READ is None or _STDIN_READ[0] is not stream:
        _STDIN_READ = (stream, limited(stream.buffer.read(MAX_FILE_BYTES + 1), "stdin"))
    return _STDIN_READ[1]


def _standard_output(data: bytes) -> None:
    """Write ``data`` to standard output, after what was printed to it before."""
    sys.stdout.flush()
    binary = getattr(sys.stdout, "buffer", None)  # a notebook's output takes text only
    if binary is None:
        sys.stdout.write(data.decode("utf-8", errors="replace"))
    else:
        binary.write(data)
    sys.stdout.flush()


def read_text(path: str | Path) -> str:
    """The text of a file (``-``: standard input), without the byte order mark some editors put
    first; a file that is not UTF-8 text, or too large, is a ParseError.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "board.txt")
    >>> _ = open(path, "wb").write(b"\\xef\\xbb\\xbf*.\\n..")  # as Windows Notepad writes
    >>> read_text(path)
    '*.\\n..'
    """
    try:
        return read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ParseError("not a text file (expected rows of cell characters)",
                         source=str(path)) from None


def lines_of(text: str) -> list[str]:
    """The lines of ``text``, broken at ``\\n``, ``\\r\\n`` and ``\\r`` only.

    Not :meth:`str.splitlines`, which also breaks at a form feed, a vertical tab, U+0085 and
    U+2028: a stray one of those inside a row would split it in two and make another grid of
    it, where it should be named as a character that has no place there.

    Examples
    --------
    >>> lines_of("1?\\r\\n??\\n"), lines_of("1?\\x0c1?"), lines_of("")
    (['1?', '??'], ['1?\\x0c1?'], [])
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()  # the break that ends the last line begins none
    return lines


def text_of_layout_file(data: bytes, path: str | Path) -> str | None:
    """The text of a file that may hold a layout in binary MBF, or None for MBF.

    By the name first: ``.mbf`` is MBF, ``.txt`` text (whose stray control characters the
    text's reader then names, with their line and column); any other name, or standard input,
    is MBF unless the bytes are printable text (:func:`decode_text`).

    Examples
    --------
    >>> text_of_layout_file(b"?\\x00\\n??", "a.txt"), text_of_layout_file(b"?\\x00\\n??", "a")
    ('?\\x00\\n??', None)
    """
    if str(path).lower().endswith(REPLAY_SUFFIXES):
        raise ParseError("a replay, not a board or a position: 'msanalysis replay' reads it",
                         source=str(path))
    suffix = Path(path).suffix.lower() if str(path) != "-" else ""
    if suffix == ".mbf":
        return None
    if suffix == ".txt":
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ParseError(f"not UTF-8 text: byte {data[error.start]:#04x} at offset "
                             f"{error.start} (a .txt file holds rows of cell characters)",
                             source=str(path)) from None
    text = decode_text(data)
    if text is None and data[:2] in (b"\xff\xfe", b"\xfe\xff") \
            and _text_in(data, "utf-16") is not None:
        # Its first bytes would read as an MBF header of a 255x254 board: say what it is.
        raise ParseError("UTF-16 text: save it as UTF-8", source=str(path))
    return text


def _text_in(data: bytes, encoding: str) -> str | None:
    """``data`` as text in ``encoding`` when it is printable (line breaks and tabs allowed)."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        return None
    return text if all(char.isprintable() or char in "\r\n\t" for char in text) else None


def decode_text(data: bytes) -> str | None:
    """The bytes as text when they are printable UTF-8 text (a byte order mark left out), else
    None (binary data, like MBF).

    Examples
    --------
    >>> decode_text(b"*.\\n.."), decode_text(bytes([2, 1, 0, 1, 1, 0]))
    ('*.\\n..', None)
    >>> decode_text(b"\\xef\\xbb\\xbf*.")  # a byte order mark first, as Windows Notepad writes
    '*.'
    """
    return _text_in(data, "utf-8-sig")
