"""Benchmark reconstruction: both engines against seed 003's backtracking, on random boards.

Usage::

    .venv/bin/python benchmarks/reconstruct.py            # full run, a few minutes
    .venv/bin/python benchmarks/reconstruct.py --quick    # no 1000x1000, baseline capped at 3 s

Table 1 is the issue's benchmark: full grids (every number shown, mine cells included) of random
boards at expert density (99/480, 20.6% mines), under both rules, solved with uniqueness proved
(``limit=2``): the median time of each engine over several boards (3 runs each, 1 at
1000x1000), and a faithful Python port of seed 003's backtracking (``seed003_backtrack.py``
beside this script) on the first board, stopped at its cap. The baseline only finds one layout;
the engines also prove there is no second.

Table 2 hands each engine the whole grid without local reasoning (``propagate=False``), which is
where the engines differ. Table 3 hides 40% of the numbers at random, so components are left
for the engines after local reasoning. Every answer is checked against the board it came from.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from arguments import Parser
from seed003_backtrack import backtrack
from tables import print_table

from msanalysis.errors import AnalysisTooHard
from msanalysis.numbergrid import RULES, NumberGrid
from msanalysis.reconstruction import ENGINES, reconstruct
from msanalysis.rules import generate

DENSITY = 99 / 480  # expert
SIZES = [(9, 9), (16, 16), (30, 16), (100, 100), (1000, 1000)]  # (width, height)
BOARDS = {(9, 9): 9, (16, 16): 9, (30, 16): 9, (100, 100): 5, (1000, 1000): 3}


def boards(width: int, height: int, count: int, seed: int):
    mines = round(width * height * DENSITY)
    return [generate(width, height, mines, rules="unsafe", seed=seed + i) for i in range(count)]


def timed(grid: NumberGrid, board, **options) -> float:
    """Seconds for one reconstruction; checks the answer against the board."""
    start = time.perf_counter()
    result = reconstruct(grid, **options)
    elapsed = time.perf_counter() - start
    assert result.first is not None, "no layout for a board's own grid"
    shown = NumberGrid.from_board(result.first, rule=grid.rule).clues
    assert np.all((shown == grid.clues) | (grid.clues < 0)), "a layout that does not fit"
    assert result.unique is not None
    if result.unique:
        assert result.first == board
    return elapsed


def show(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"




def full_grids(sizes, cap: float) -> None:
    rows = []
    # The smallest size where the cap was hit.
    baseline_stopped: dict[str, tuple[int, int] | None] = {rule: None for rule in RULES}
    for width, height in sizes:
        layouts = boards(width, height, BOARDS[(width, height)], seed=width * 1000 + height)
        for rule in RULES:
            grids = [NumberGrid.from_board(b, rule=rule) for b in layouts]
            # The machine is shared: more runs, steadier medians.
            repeats = 1 if width >= 1000 else 3
            medians = {engine: statistics.median(timed(g, b, engine=engine)
                                                 for g, b in zip(grids, layouts)
                                                 for _ in range(repeats))
                       for engine in ENGINES}
            if baseline_stopped[rule] is not None:
                baseline, ratio = f"> {cap:g} s (not run)", f"> {cap / medians['sat']:,.0f}x"
            else:
                start = time.perf_counter()
                try:
                    found = backtrack(grids[0].clues, rule=rule, time_limit=cap)
                    elapsed = time.perf_counter() - start
                    assert found is not None and np.array_equal(
                        NumberGrid.from_board(found, rule=rule).clues, grids[0].clues)
                    baseline, ratio = show(elapsed), f"{elapsed / medians['sat']:,.0f}x"
                except AnalysisTooHard:
                    baseline_stopped[rule] = (width, height)
                    baseline, ratio = f"> {cap:g} s", f"> {cap / medians['sat']:,.0f}x"
            rows.append([f"{width}x{height}", rule, str(len(layouts)), show(medians["sat"]),
                         show(medians["cpsat"]), baseline, ratio])
    print_table("Full grids of random boards, expert density, uniqueness proved (limit=2); "
                "median of 3 runs per board (1 at 1000x1000)",
                ["size", "rule", "boards", "sat median", "cpsat median",
                 "seed 003 backtracking (1 board)", "backtracking / sat"], rows)
    print("(not run) = a smaller grid already exceeded the cap under this rule.")


def compare_engines(title: str, sizes, seed: int, hide: float, **options) -> None:
    """Median time of each engine on 3 boards per size and rule, ``hide`` of the numbers hidden."""
    rows = []
    for width, height in sizes:
        layouts = boards(width, height, 3, seed=seed + width)
        for rule in RULES:
            rng = np.random.default_rng(width)
            grids = [NumberGrid(np.where(rng.random((height, width)) < hide, -1,
                                         NumberGrid.from_board(b, rule=rule).clues), rule=rule)
                     for b in layouts]
            medians = {engine: statistics.median(timed(g, b, engine=engine, **options)
                                                 for g, b in zip(grids, layouts))
                       for engine in ENGINES}
            rows.append([f"{width}x{height}", rule, show(medians["sat"]), show(medians["cpsat"]),
                         f"{medians['cpsat'] / medians['sat']:.1f}x"])
    print_table(title, ["size", "rule", "sat median", "cpsat median", "cpsat / sat"], rows)


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip 1000x1000 and cap the baseline at 3 s instead of 60 s")
    args = parser.parse_args()
    sizes = [s for s in SIZES if not (args.quick and s == (1000, 1000))]
    cap = 3.0 if args.quick else 60.0
    # Load both solvers once, so that the first timed call does not pay for the imports.
    for engine in ENGINES:
        reconstruct("?1", engine=engine, propagate=False)
    full_grids(sizes, cap)
    compare_engines("The engines alone: whole grid, no local reasoning (propagate=False), 3 boards",
                    [s for s in sizes if s[0] <= 100], seed=7, hide=0.0, propagate=False)
    compare_engines("Partial grids: 40% of the numbers hidden, limit=2, 3 boards",
                    [s for s in sizes if s[0] >= 30], seed=11, hide=0.4)


if __name__ == "__main__":
    main()
