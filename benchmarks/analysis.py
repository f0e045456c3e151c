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

Then, against ms-toollib (the benchmark extra, ``pip install -e '.[bench]'``) in the same
process on the same positions, interleaved:

- following a game: every click of seeded expert games played by a
  :class:`~msanalysis.tracker.Tracker` (a proven safe cell when there is one, else the safest
  cell): the click and the full analysis after it (every exact probability, as the array of
  :attr:`Analysis.probabilities`), against ``ms_toollib.cal_probability_onboard`` from scratch
  on the position after the click; and from scratch, ``analyze(position).probabilities``
  against the same;
- playing: ``best`` on whole expert games, followed by the tracker (what autoplay does now),
  with the share of the time spent choosing guesses; against the same games each played on its
  own (no guess remembered from the games before), with the look
  ahead counting each number a cell may show on its own (as it did before
  :func:`~msanalysis.counting.count_by_need`), and analysing every position from scratch
  (what autoplay did before the tracker);
- 3BV and openings of random expert boards against ``ms_toollib.cal_bbbv`` and ``cal_op``.

Run: ``.venv/bin/python benchmarks/analysis.py`` (a few minutes), or ``--quick``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from pysat.formula import IDPool
from pysat.solvers import Solver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arguments import Parser

import msanalysis.play.best
import msanalysis.play.outlook
from msanalysis.analysis import analyze, analyze_constraints
from msanalysis.board import Board, Cell
from msanalysis.constraints import build
from msanalysis.counting import ComponentCount, Problem, count_component
from msanalysis.errors import InconsistentPosition
from msanalysis.game import Game
from msanalysis.play.autoplay import autoplay
from msanalysis.play.strategies import make_strategy
from msanalysis.position import (
    FLAG,
    HIDDEN,
    Position,
)
from msanalysis.rules import generate
from msanalysis.tracker import Tracker


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


# -- against ms-toollib ---------------------------------------------------------------------------

def game_board(position: Position) -> list[list[int]]:
    """ms-toollib's game board: 10 covered, 11 flagged, numbers as they are."""
    states = position.states
    return np.where(states == HIDDEN, 10, np.where(states == FLAG, 11, states)).tolist()


def follow(games: int, ms_toollib) -> None:
    """The analysis after each click of seeded expert games, against ms-toollib from scratch."""
    after, scratch, peer, whole = [], [], [], []
    for seed in range(games):
        board = generate(30, 16, 99, rules="safe-cell", first_click=(0, 0), seed=seed)
        tracker = Tracker(board)
        cell: Cell | None = (0, 0)
        while cell is not None:
            start = time.perf_counter()
            tracker.reveal(cell)
            if tracker.status != "playing":
                break
            analysis = tracker.analysis
            _ = analysis.probabilities
            middle = time.perf_counter()
            position = tracker.position
            grid = game_board(position)
            begin = time.perf_counter()
            ms_toollib.cal_probability_onboard(grid, 99)
            end = time.perf_counter()
            after.append(middle - start)
            peer.append(end - begin)
            start = time.perf_counter()
            _ = analyze(position).probabilities
            middle = time.perf_counter()
            _ = analyze_constraints(position).probabilities
            scratch.append(middle - start)
            whole.append(time.perf_counter() - middle)
            safe = analysis.forced_safe
            cell = min(safe) if safe else analysis.best_guess
    a, b, c, d = (statistics.median(x) * 1e3 for x in (after, peer, scratch, whole))
    print(f"expert, every click of {games} seeded games ({len(after)} positions), median:")
    print(f"  following the game (the click and every probability after it): {a:.3f} ms; "
          f"ms-toollib cal_probability_onboard from scratch: {b:.3f} ms; ratio {a / b:.2f}")
    print(f"  from scratch, analyze(position).probabilities: {c:.3f} ms; ratio to ms-toollib "
          f"{c / b:.2f}; by the constraints of the whole position (analyze_constraints, the "
          f"way analyze went before): {d:.3f} ms")


class NeedByNeed:
    """What :func:`~msanalysis.counting.count_by_need` answers, counted one need at a time as
    the look ahead asks (it stops asking once a candidate cannot win): the look ahead as it
    was before, to time against. The same counts, so the same games."""

    def __init__(self, problem: Problem, clue: int) -> None:
        self.problem, self.clue = problem, clue
        self.found: dict[int, ComponentCount | None] = {}

    def __contains__(self, need: int) -> bool:
        if need not in self.found:
            try:
                self.found[need] = count_component(self.problem.with_need(self.clue, need))
            except InconsistentPosition:
                self.found[need] = None
        return self.found[need] is not None

    def __getitem__(self, need: int) -> ComponentCount:
        if need not in self:
            raise KeyError(need)
        counted = self.found[need]
        assert counted is not None
        return counted


def best_games(games: int) -> None:
    """``best`` on whole expert games, followed by the tracker; against the same games with no
    guess remembered from earlier games, with the look ahead counting one number at a time,
    and analysing every position; interleaved, each variant with its own remembered guesses."""
    variants: dict[str, list[float]] = {"followed": [], "fresh": [], "need by need": [],
                                        "scratch": []}
    remembered: dict[str, dict] = {name: {} for name in variants}
    guessing: list[float] = []
    count_by_need = msanalysis.play.outlook.count_by_need
    for seed in range(20000, 20000 + games):
        for name, times in variants.items():
            engine = (lambda p: analyze(p, forced_only=True)) if name == "scratch" else None
            outlook: Any = msanalysis.play.outlook
            outlook.count_by_need = NeedByNeed if name == "need by need" else count_by_need
            if name == "fresh":
                remembered[name].clear()  # a game on its own: no guess met before
            msanalysis.play.best._GUESSES = remembered[name]
            game = Game.started(30, 16, 99, first_click=(0, 0), seed=seed)
            strategy: Any = make_strategy("best", seed=seed)
            guess, spent = strategy.guess, [0.0]

            def timed_guess(*args: Any, guess: Any = guess, spent: list[float] = spent) -> Any:
                start = time.perf_counter()
                try:
                    return guess(*args)
                finally:
                    spent[0] += time.perf_counter() - start

            strategy.guess = timed_guess
            start = time.perf_counter()
            autoplay(game, strategy, analyze=engine)
            times.append(time.perf_counter() - start)
            if name == "followed":
                guessing.append(spent[0])
    msanalysis.play.outlook.count_by_need = count_by_need
    msanalysis.play.best._GUESSES = {}
    a, fresh, b, c = (statistics.median(times) * 1e3 for times in variants.values())
    share = sum(guessing) / sum(variants["followed"])
    print(f"best on {games} expert games (seeds 20000-), median per game: followed by the "
          f"tracker {a:.1f} ms ({statistics.median(guessing) * 1e3:.1f} ms median choosing "
          f"guesses, {share:.0%} of all the time); each game on its own (no guess remembered "
          f"from the games before) {fresh:.1f} ms; the look ahead counting one number at a time "
          f"{b:.1f} ms, ratio {a / b:.2f}; analysing every position {c:.1f} ms, ratio "
          f"{a / c:.2f}")


def metrics(boards: int, ms_toollib) -> None:
    """3BV and openings of random expert boards (fresh, so nothing is cached)."""
    layouts = [generate(30, 16, 99, first_click=(0, 0), seed=s) for s in range(boards)]
    grids = [np.where(b.mask, -1, b.numbers).astype(int).tolist() for b in layouts]
    for name, ours, theirs in (("3BV", lambda m: Board(m).bbbv, ms_toollib.cal_bbbv),
                               ("openings", lambda m: Board(m).openings, ms_toollib.cal_op)):
        mine, peer = [], []
        for layout, grid in zip(layouts, grids):
            start = time.perf_counter()
            value = ours(layout.mask)
            middle = time.perf_counter()
            expected = theirs(grid)
            peer.append(time.perf_counter() - middle)
            mine.append(middle - start)
            assert value == expected, (name, value, expected)
        a, b = statistics.median(mine) * 1e6, statistics.median(peer) * 1e6
        print(f"  {name:<9} ours {a:6.1f} us (from the mine mask), ms-toollib {b:6.1f} us (from "
              f"its board of numbers), ratio {a / b:.2f}; the same value on {boards} boards")


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions (about 15 s)")
    parser.add_argument("--peer-only", action="store_true",
                        help="only the comparisons with ms-toollib and the games of best")
    args = parser.parse_args()
    ms_toollib: Any
    try:
        import ms_toollib
    except ImportError:
        ms_toollib = None
        print("ms-toollib is not installed (pip install -e '.[bench]'): no comparison with it")
    if ms_toollib is not None:
        follow(20 if args.quick else 200, ms_toollib)
        print("3BV and openings, random expert boards, median:")
        metrics(200 if args.quick else 2000, ms_toollib)
    best_games(10 if args.quick else 100)
    if args.peer_only:
        return
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
