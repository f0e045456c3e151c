"""Benchmark the analysis engine on positions from seeded games, against naive baselines.

Positions come from games played by the engine itself (reveal every forced safe cell, else the
best guess), sampled at random stages between 10% and 90% of the safe cells revealed:
expert 30x16/99 and 100x100/2000. Prints median and p95 times of forced cells alone
(``analyze(..., forced_only=True)``) and of the full analysis (``analyze(...)`` and its
``probabilities`` array), with the machine's load average, and the ratio against two naive
baselines run in the same process on the first positions:

- forced cells: plain SAT per cell, one fresh Minicard solver per question, the whole position
  and the count in one formula, no boxes, no components, no reuse of models;
- full analysis: a cell-by-cell enumerating backtracker over each component's frontier, joined
  with the sea by binomials (stopped after a node budget: those positions are reported).

Run: ``.venv/bin/python benchmarks/analysis.py`` (a few minutes), or ``--quick``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from math import comb
from pathlib import Path

import numpy as np
from pysat.formula import IDPool
from pysat.solvers import Solver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from msanalysis.analysis import analyze
from msanalysis.board import Cell
from msanalysis.constraints import build
from msanalysis.game import Game
from msanalysis.position import Position


def played_positions(width: int, height: int, mines: int, *, games: int, per_game: int,
                     seed: int) -> list[Position]:
    """Positions from seeded games played by the engine, at random mid-game stages."""
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    for game_seed in range(seed, seed + games):
        game = Game.started(width, height, mines, rules="safe-opening",
                            first_click=(height // 2, width // 2), seed=game_seed)
        safe_cells = width * height - mines
        seen: list[Position] = []
        while game.status == "playing":
            position = game.position()
            revealed = len(position.revealed) / safe_cells
            if 0.1 <= revealed <= 0.9:
                seen.append(position)
            analysis = analyze(position, forced_only=True)
            moves = sorted(analysis.forced_safe)
            if not moves:
                if analysis.best_guess is None:
                    raise RuntimeError("a game still being played has no cell to guess")
                moves = [analysis.best_guess]
            for cell in moves:
                if game.status != "playing":
                    break
                game.reveal(cell)
        picks = rng.choice(len(seen), size=min(per_game, len(seen)), replace=False).tolist() \
            if seen else []
        positions.extend(seen[i] for i in sorted(picks))
    return positions


# -- baselines ------------------------------------------------------------------------------------

def naive_forced(position: Position) -> tuple[set[Cell], set[Cell]]:
    """Plain SAT per cell: a fresh solver for every question, nothing shared."""
    constraints = build(position)
    unknown = sorted(constraints.unknown)
    frontier = [cell for box in constraints.boxes for cell in box.cells]
    safe: set[Cell] = set()
    mines: set[Cell] = set()

    def solver_with(assumption_cell, mine):
        pool = IDPool()
        var = {cell: pool.id(cell) for cell in unknown}
        solver = Solver(name="mc")
        for clue in constraints.clues:
            lits = [var[cell] for cell in clue.cells]
            solver.add_atmost(lits, clue.mines)
            solver.add_atmost([-lit for lit in lits], len(lits) - clue.mines)
        if constraints.remaining is not None:
            lits = list(var.values())
            solver.add_atmost(lits, constraints.remaining)
            solver.add_atmost([-lit for lit in lits], len(lits) - constraints.remaining)
        return solver, var[assumption_cell] if mine else -var[assumption_cell]

    for cell in frontier:
        for mine in (True, False):
            solver, lit = solver_with(cell, mine)
            if not solver.solve(assumptions=[lit]):
                (safe if mine else mines).add(cell)
            solver.delete()
    return safe, mines


class _Budget(Exception):
    pass


def _walk_component(cells: list[Cell], clues_of: dict[Cell, list[int]],
                    need: list[int], room: list[int], nodes: list[int], budget: int
                    ) -> dict[int, int]:
    """Layouts of one component by mine count, cell by cell; ``need`` and ``room`` are restored."""
    by_mines: dict[int, int] = {}

    def walk(i: int, placed: int) -> None:
        nodes[0] += 1
        if nodes[0] > budget:
            raise _Budget
        if i == len(cells):
            by_mines[placed] = by_mines.get(placed, 0) + 1
            return
        mine_clues = clues_of[cells[i]]
        for value in (0, 1):
            ok = True
            for k in mine_clues:
                need[k] -= value
                room[k] -= 1
                if need[k] < 0 or need[k] > room[k]:
                    ok = False
            if ok:
                walk(i + 1, placed + value)
            for k in mine_clues:
                need[k] += value
                room[k] += 1

    walk(0, 0)
    return by_mines


def naive_full(position: Position, budget: int = 2_000_000) -> int:
    """A cell-by-cell enumerating backtracker per component; returns the solution count."""
    constraints = build(position)
    nodes = [0]
    totals = []
    for component in constraints.components:
        cells = list(component.cells)
        clues = [constraints.clues[i] for i in component.clue_ids]
        clues_of: dict[Cell, list[int]] = {cell: [] for cell in cells}
        for k, clue in enumerate(clues):
            for cell in clue.cells:
                clues_of[cell].append(k)
        need = [clue.mines for clue in clues]
        room = [len(clue.cells) for clue in clues]
        totals.append(_walk_component(cells, clues_of, need, room, nodes, budget))
    combined = {0: 1}
    for by_mines in totals:
        grown: dict[int, int] = {}
        for a, x in combined.items():
            for b, y in by_mines.items():
                grown[a + b] = grown.get(a + b, 0) + x * y
        combined = grown
    sea = len(constraints.sea)
    if constraints.remaining is None:
        return sum(combined.values()) * 2 ** sea
    return sum(x * comb(sea, constraints.remaining - f) for f, x in combined.items()
               if 0 <= constraints.remaining - f <= sea)


# -- timing ---------------------------------------------------------------------------------------

def timed(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def full_analysis(position: Position) -> np.ndarray:
    """What the issue times as the full analysis: counting and the probability array."""
    return analyze(position).probabilities


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def run(label: str, positions: list[Position], sat_baseline: int, enum_baseline: int) -> None:
    forced = [timed(analyze, p, forced_only=True) for p in positions]
    full = [timed(full_analysis, p) for p in positions]
    fm, fp = summary(forced)
    am, ap = summary(full)
    print(f"{label}: {len(positions)} positions")
    print(f"  {'':28} {'median':>10} {'p95':>10}")
    print(f"  {'forced cells (SAT)':28} {fm * 1e3:>8.2f}ms {fp * 1e3:>8.2f}ms")
    print(f"  {'full analysis':28} {am * 1e3:>8.2f}ms {ap * 1e3:>8.2f}ms")
    sample = positions[:sat_baseline]
    if sample:
        naive = [timed(naive_forced, p) for p in sample]
        ours = forced[:len(sample)]
        print(f"  baseline, plain SAT per cell, first {len(sample)}: median "
              f"{statistics.median(naive) * 1e3:.1f}ms; ours "
              f"{statistics.median(ours) * 1e3:.2f}ms; ratio of medians "
              f"{statistics.median(naive) / statistics.median(ours):.0f}x")
    sample = positions[:enum_baseline]
    finished, naive_times, our_times = 0, [], []
    for p, ours_full in zip(sample, full):
        start = time.perf_counter()
        try:
            solutions = naive_full(p)
        except (_Budget, RecursionError):  # one frame per frontier cell: long frontiers overflow
            continue
        naive_times.append(time.perf_counter() - start)
        our_times.append(ours_full)
        finished += 1
        assert solutions == analyze(p).solutions  # the baseline doubles as a check
    if naive_times:
        print(f"  baseline, enumerating backtracker, first {len(sample)}: finished {finished} "
              f"within 2M nodes; on those median {statistics.median(naive_times) * 1e3:.1f}ms, "
              f"ours {statistics.median(our_times) * 1e3:.2f}ms, ratio of medians "
              f"{statistics.median(naive_times) / statistics.median(our_times):.1f}x")
    elif sample:
        print(f"  baseline, enumerating backtracker, first {len(sample)}: none finished within "
              "2M nodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions (about 30 s)")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.quick:
        expert = played_positions(30, 16, 99, games=10, per_game=5, seed=1000)
        big = played_positions(100, 100, 2000, games=1, per_game=3, seed=2000)
        baseline = 10
    else:
        expert = played_positions(30, 16, 99, games=50, per_game=4, seed=1000)
        big = played_positions(100, 100, 2000, games=4, per_game=5, seed=2000)
        baseline = 30
    print(f"positions generated in {time.perf_counter() - start:.0f}s by playing seeded games; "
          f"load average {os.getloadavg()[0]:.2f} (the timings are wall-clock)")
    run("expert 30x16/99, mid-game", expert, baseline, baseline)
    run("100x100/2000, mid-game", big, 0, len(big))
    digits = [len(str(analyze(p).solutions)) for p in expert + big]
    print(f"solution counts have {min(digits)} to {max(digits)} decimal digits")


if __name__ == "__main__":
    main()
