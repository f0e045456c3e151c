"""Benchmark: one click clearing a 1000x1000 board with a handful of mines.

Prints the time of the wave-by-wave numpy queue used by ``Game`` against a baseline in the same
process: seed 000's queue processed one cell at a time in plain Python.

    python benchmarks/cascade.py [--size 1000] [--mines 20] [--repeat 3]
"""

from __future__ import annotations

import statistics
import time
from collections import deque

import numpy as np
from arguments import COUNT, Parser, whole

from msanalysis.board import Board
from msanalysis.game import Game


def cell_by_cell_queue(board: Board, start: tuple[int, int]) -> int:
    """Seed 000's algorithm one cell at a time, on Python lists: the baseline."""
    height, width = board.height, board.width
    numbers = board.numbers.tolist()
    shown = [[False] * width for _ in range(height)]
    shown[start[0]][start[1]] = True
    queue = deque([start])
    count = 1
    while queue:
        r, c = queue.popleft()
        if numbers[r][c]:
            continue
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < height and 0 <= cc < width and not shown[rr][cc]:
                    shown[rr][cc] = True
                    queue.append((rr, cc))
                    count += 1
    return count


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=whole(1, 10_000), default=1000,
                        help="the board is SIZE x SIZE")
    parser.add_argument("--mines", type=whole(0), default=20, help="mines on the board")
    parser.add_argument("--repeat", type=COUNT, default=3,
                        help="clicks timed (the median is printed)")
    args = parser.parse_args()
    if args.mines >= args.size * args.size:
        parser.error(f"--mines: at most {args.size * args.size - 1} on a {args.size}x{args.size} "
                     "board (the click is safe)")

    rng = np.random.default_rng(2026)
    mask = np.zeros(args.size * args.size, dtype=bool)
    mask[rng.choice(mask.size, args.mines, replace=False)] = True
    mask[0] = False  # the click
    board = Board(mask.reshape(args.size, args.size))
    _ = board.numbers  # computed once, as a game would have it

    ours, baseline = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        game = Game(board)
        revealed = len(game.reveal((0, 0)))
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        assert cell_by_cell_queue(board, (0, 0)) == revealed
        baseline.append(time.perf_counter() - start)
    ours_s, base_s = statistics.median(ours), statistics.median(baseline)
    print(f"board {args.size}x{args.size}, {args.mines} mines, one click at (0, 0): "
          f"{revealed:,} cells revealed, status {game.status}")
    print(f"{'method':<34}{'median s':>10}")
    print(f"{'Game.reveal (numpy waves)':<34}{ours_s:>10.3f}")
    print(f"{'cell-by-cell queue (baseline)':<34}{base_s:>10.3f}")
    print(f"speed-up: {base_s / ours_s:.1f}x")


if __name__ == "__main__":
    main()
