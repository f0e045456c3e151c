"""Read one replay file with ms-toollib, in a process of its own, and print what it holds as JSON.

ms-toollib aborts the whole process on some damaged files (even an empty one): a Rust panic
that no ``except`` can catch. :mod:`msanalysis.replay` therefore runs this file as a script in a
child process (``python -P _toollib.py FORMAT FILE``) and reads one JSON object from its
standard output: ``{"error": ...}`` when ms-toollib raised, otherwise the header of the game and
the events that changed the board, as differences between ms-toollib's own game boards before
and after each event. A child that dies or runs out of time is reported by the parent.

This script imports nothing from msanalysis (the package is not on the child's path).
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

_MEMORY_LIMIT = 2 << 30
"""Bytes of address space the child may use: a header that claims a huge board fails quickly."""

_COVERED = 10
"""ms-toollib's code of a covered cell on a game board (11 is a flag, 12 a question mark)."""


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return
    # A lower hard limit may already be set: then that one holds.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (_MEMORY_LIMIT, _MEMORY_LIMIT))


MOST_CELL_EVENTS = 100_000_000
"""The most button events (presses and releases) times cells read: a few seconds and half a
gigabyte (an expert game has some 500 x 480; 7,000 on a 255x255 board took 14 s and 1.9 GB)."""


def read(kind: str, path: str) -> dict:
    """Parse ``path`` as ``kind`` (avf, rmv, evf, mvf) and return what the parent needs."""
    import ms_toollib

    video_class: Any = {"avf": ms_toollib.AvfVideo, "rmv": ms_toollib.RmvVideo,
                   "evf": ms_toollib.EvfVideo, "mvf": ms_toollib.MvfVideo}[kind]
    video = video_class(path)
    video.parse()
    # What the file's header says (analyse() then sets it from the events it read): a won game
    # whose events are cut short by a damaged byte still says it was won.
    completed = bool(video.is_completed)
    rows, columns = int(video.row), int(video.column)
    # ms-toollib's analysis keeps a board per button event (not per mouse move), and each is
    # compared here cell by cell: known before the analysis, which would fill the memory first.
    buttons = sum(1 for e in video.events
                  if not e.event.is_mouse() or str(e.event.unwrap_mouse().mouse) != "mv")
    if buttons * rows * columns > MOST_CELL_EVENTS:
        return {"too_large": f"{buttons} button events on a {columns}x{rows} board, more than "
                f"{MOST_CELL_EVENTS:,} cells to compare"}
    video.analyse()
    layout = [list(row) for row in video.board]
    pixels = int(video.pix_size) or 16
    current = [[_COVERED] * columns for _ in range(rows)]
    events = []
    for event in video.events:
        level = int(event.useful_level)
        if not level:
            continue
        if not event.event.is_mouse():
            return {"error": "a board-changing event that is not a mouse event"}
        mouse = event.event.unwrap_mouse()
        before = event.prior_game_board.game_board
        after = event.next_game_board.game_board
        if before != current:
            # Something changed the board between two events that ms-toollib marked useful.
            return {"error": f"the board changed without a recorded click before {event.time} s"}
        changes = [[r, c, after[r][c]] for r in range(rows) for c in range(columns)
                   if after[r][c] != before[r][c]]
        events.append({"time": float(event.time), "mouse": str(mouse.mouse),
                       "x": int(mouse.x), "y": int(mouse.y), "level": level,
                       "changes": changes})
        current = [list(row) for row in after]
    return {
        "rows": rows, "columns": columns, "mines": int(video.mine_num), "layout": layout,
        "software": str(video.software), "player": str(video.player_identifier),
        "start_time": int(video.start_time), "seconds": float(video.rtime),
        "mode": int(video.mode), "level": int(video.level), "pixels": pixels,
        "completed": completed, "events": events, "final": current,
    }


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(json.dumps({"error": "usage: _toollib.py FORMAT FILE"}))
        return 2
    _limit_memory()
    try:
        result = read(argv[1], argv[2])
    except Exception as error:  # whatever ms-toollib raises is one message for the parent
        result = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
