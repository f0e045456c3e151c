"""Guess-free boards: checking and making them, against ms-toollib and Simon Tatham's Mines.

Run in one process on the same seeded boards, interleaved board by board (or second by second
for generation), so that the machine's load falls on both alike:

- the check: ``solve_without_guessing`` (with the mine count) against ``ms_toollib.is_solvable``
  (which never uses it) on ``safe-opening`` boards with the first click at (3, 3); the median
  over the boards both call solvable, and how often the two verdicts differ;
- generation by rejection: boards per second of ``generate_no_guess(method="reject")`` against
  ``ms_toollib.laymine_solvable``, beginner, intermediate and expert;
- generation by moving mines: ``generate_no_guess(method="adjust")`` at 30x16 with 130 and 170
  mines and at 100x100 with 2000, against ``sgt-mines --generate N WxHnM`` (Debian's
  ``sgt-puzzles``, run from here when installed) and ``ms_toollib.laymine_solvable_adjust``.

Needs the benchmark extra: ``pip install -e '.[bench]'``. Run:
``python benchmarks/noguess.py`` (a few minutes) or ``--quick``.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arguments import Parser

from msanalysis.play.noguess import generate_no_guess, solve_without_guessing
from msanalysis.rules import generate

try:
    import ms_toollib
except ImportError:  # pragma: no cover - the bench extra is missing
    sys.exit("this benchmark needs ms-toollib: pip install -e '.[bench]'")

SIZES = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}
CLICK = (3, 3)


def numbers_board(board) -> list[list[int]]:
    """ms-toollib's board: rows of numbers, -1 for a mine."""
    return np.where(board.mask, -1, board.numbers).astype(int).tolist()


def check(name: str, boards: int) -> None:
    width, height, mines = SIZES[name]
    ours, theirs, both = [], [], []
    verdicts = {"both": 0, "ours only": 0, "ms-toollib only": 0, "neither": 0}
    strict_differs = 0
    for seed in range(boards):
        board = generate(width, height, mines, rules="safe-opening", first_click=CLICK, seed=seed)
        grid = numbers_board(board)
        start = time.perf_counter()
        peer = bool(ms_toollib.is_solvable(grid, *CLICK))
        middle = time.perf_counter()
        result = solve_without_guessing(board, CLICK, rules="safe-opening")
        end = time.perf_counter()
        theirs.append(middle - start)
        ours.append(end - middle)
        key = ("both" if peer else "ours only") if result.solvable else \
            ("ms-toollib only" if peer else "neither")
        verdicts[key] += 1
        if peer and result.solvable:
            both.append((end - middle, middle - start))
        strict = solve_without_guessing(board, CLICK, rules="safe-opening", use_mine_count=False)
        strict_differs += strict.solvable != peer
    a = statistics.median(t for t, _ in both) * 1e3
    b = statistics.median(t for _, t in both) * 1e3
    print(f"  {name:<13} {len(both):>4} boards both solvable: ours {a:7.3f} ms, ms-toollib "
          f"{b:7.3f} ms, ratio {a / b:5.2f}   (all {boards} boards: ours "
          f"{statistics.median(ours) * 1e3:.3f} ms, ms-toollib "
          f"{statistics.median(theirs) * 1e3:.3f} ms)")
    print(f"  {'':<13} verdicts {verdicts}; without the mine count ours differs from "
          f"ms-toollib on {strict_differs}")


def rates(make_ours, make_theirs, seconds: float) -> tuple[float, float, float, float]:
    """Boards per second of each, alternating in slices of a quarter second: by the clock,
    then by the CPU time of this process (what one core makes when others share it)."""
    made = [0, 0]
    spent = [0.0, 0.0]
    cpu = [0.0, 0.0]
    seed = 0
    deadline = time.perf_counter() + 2 * seconds
    while time.perf_counter() < deadline:
        for k, make in enumerate((make_ours, make_theirs)):
            start, start_cpu = time.perf_counter(), time.process_time()
            while time.perf_counter() - start < 0.25:
                make(seed)
                seed += 1
                made[k] += 1
            spent[k] += time.perf_counter() - start
            cpu[k] += time.process_time() - start_cpu
    return (made[0] / spent[0], made[1] / spent[1], made[0] / cpu[0], made[1] / cpu[1])


def reject(name: str, seconds: float) -> None:
    width, height, mines = SIZES[name]
    ours, theirs, ours_cpu, theirs_cpu = rates(
        lambda s: generate_no_guess(width, height, mines, first_click=CLICK, seed=s),
        lambda s: ms_toollib.laymine_solvable(height, width, mines, *CLICK), seconds)
    print(f"  {name:<13} reject: ours {ours:8.1f} boards/s, ms-toollib laymine_solvable "
          f"{theirs:8.1f} boards/s, ratio {ours / theirs:5.2f}   (CPU time: ours "
          f"{ours_cpu:.1f}, ms-toollib {theirs_cpu:.1f} boards/s, ratio "
          f"{ours_cpu / theirs_cpu:.2f})")


def sgt_mines(width: int, height: int, mines: int, count: int) -> float | None:
    """Boards per second of ``sgt-mines --generate`` (CPU time of the child), if installed."""
    program = shutil.which("sgt-mines") or ("/usr/games/sgt-mines"
                                            if os.path.exists("/usr/games/sgt-mines") else None)
    if program is None:
        return None
    before = os.times()
    subprocess.run([program, "--generate", str(count), f"{width}x{height}n{mines}"],
                   check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return count / (after.children_user - before.children_user
                    + after.children_system - before.children_system)


def adjust(width: int, height: int, mines: int, seconds: float, peer_count: int) -> None:
    click = (height // 2, width // 2) if width > 30 else CLICK
    spent, made, seed = 0.0, 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        generate_no_guess(width, height, mines, first_click=click, seed=seed, method="adjust")
        seed += 1
        made += 1
    spent = time.process_time() - start
    ours = made / spent
    sgt = sgt_mines(width, height, mines, peer_count)
    line = f"  {width}x{height}/{mines:<5} adjust: ours {ours:7.1f} boards/s ({made} boards)"
    if sgt is None:
        line += ", sgt-mines not installed (apt-get install sgt-puzzles)"
    else:
        line += f", sgt-mines --generate {sgt:7.1f} boards/s, ratio {ours / sgt:5.2f}"
    if width * height <= 480:
        start = time.process_time()
        ms_toollib.laymine_solvable_adjust(height, width, mines, *click)
        peer = 1 / (time.process_time() - start)
        line += f"; ms-toollib laymine_solvable_adjust {peer:.1f} boards/s"
    print(line)


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards (about 20 s)")
    args = parser.parse_args()
    boards, seconds = (100, 2.0) if args.quick else (600, 8.0)
    print(f"load average {os.getloadavg()[0]:.2f}; one process, one core; first click (3, 3), "
          "safe-opening layouts")
    print("solvable check, median per board (ours with the mine count, ms-toollib without):")
    for name in SIZES:
        check(name, boards)
    print("guess-free generation by rejection, boards per second:")
    for name in SIZES:
        reject(name, seconds)
    print("guess-free generation by moving mines (CPU seconds, one core):")
    adjust(30, 16, 130, seconds, 50)
    adjust(30, 16, 170, seconds, 50)
    adjust(100, 100, 2000, seconds, 5)


if __name__ == "__main__":
    main()
