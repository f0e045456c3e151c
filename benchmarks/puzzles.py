"""Benchmark puzzle making against Simon Tatham's Mosaic generator (sgt-mosaic), same sizes.

Usage::

    .venv/bin/python benchmarks/puzzles.py            # full run, about 3.5 minutes
    .venv/bin/python benchmarks/puzzles.py --quick    # fewer puzzles, no 300x300, ~20 s
    .venv/bin/python benchmarks/puzzles.py --save /tmp/before.jsonl     # before a change
    .venv/bin/python benchmarks/puzzles.py --same-as /tmp/before.jsonl  # after it, ~1.5 minutes

Table 1 makes mosaic puzzles of the same sizes with ``sgt-mosaic --generate N WxH`` (when it is
installed: Debian package ``sgt-puzzles``) and with :func:`msanalysis.puzzle.make_puzzle`, in
this one process, and prints the time and the clues per puzzle of each, with the ratios. Tatham's
generator draws every cell of its picture at random (half the cells filled) and keeps the clues
its single-clue solver needs, trying to remove each of those once more ("aggressive", its
default); ours removes every clue it can while the picture stays the only one (irreducible), at
Tatham's density and at ours (expert Minesweeper's, 20.6%). Times are CPU seconds (ours: this
process; Tatham's: its child processes), which a shared machine disturbs less than wall-clock
time; wall-clock time is printed too. At 30x30, where the two are closest, 30 puzzles of each
are made in three rounds taken in turn: sgt-mosaic draws new pictures on every run, and its time
for 10 puzzles varies by about 15% from run to run.

Table 2 times our larger puzzles (100x100 and 300x300) at the default density. Table 3 checks
Tatham's IDs: a few hundred of them, 10x10 to 50x50, each read, solved, found to have exactly
one layout, and that layout shown to give every clue (counted here, apart from the library).
Every puzzle of ours is checked by ``make_puzzle`` itself (its answer is the only one).

``--save`` and ``--same-as`` prove that a change keeps the puzzles: the first writes the
puzzles made for a fixed list of cases (sizes 6x5 to 100x100, both rules, both densities,
grades 1, 2 and any, three seeds each), the second makes them again and compares each one
(clues, grade, irreducible), exiting with status 1 when any differs.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from arguments import Parser, existing_file, new_file
from tables import print_table

from msanalysis.numbergrid import NumberGrid
from msanalysis.puzzle import DEFAULT_DENSITY, make_puzzle
from msanalysis.reconstruction import reconstruct

SGT_MOSAIC = shutil.which("sgt-mosaic", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
TATHAM_DENSITY = 0.5  # each cell of its picture is one random bit


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tatham_ids(size: str, count: int) -> tuple[list[str], float, float]:
    """``count`` IDs from ``sgt-mosaic --generate``; (ids, CPU seconds, wall seconds) in all."""
    assert SGT_MOSAIC is not None
    cpu, wall = children_cpu(), time.perf_counter()
    printed = subprocess.run([SGT_MOSAIC, "--generate", str(count), size], check=True,
                             capture_output=True, text=True).stdout.split()
    assert len(printed) == count, printed
    return printed, children_cpu() - cpu, time.perf_counter() - wall


def ours(width: int, height: int, density: float, seeds: range) -> tuple[list[int], float, float]:
    """Clues of our puzzles made with ``seeds``; (clues, CPU seconds, wall seconds) in all."""
    clues = []
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in seeds:
        puzzle = make_puzzle(width=width, height=height, density=density, seed=seed)
        assert puzzle.irreducible and puzzle.solution.width == width
        clues.append(puzzle.clue_count)
    return clues, time.process_time() - cpu, time.perf_counter() - wall


def show(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"




def against_tatham(sizes: list[tuple[int, int, int]]) -> None:
    """Per size (side, puzzles a round, rounds): sgt-mosaic's puzzles and ours in turn, round
    after round (our seeds go on from round to round), so that a change in the machine's load
    falls on both; its times vary by about 15% between runs of 10 (each draws new pictures)."""
    rows = []
    for side, count, rounds in sizes:
        size = f"{side}x{side}"
        cells = side * side
        total = count * rounds
        tatham_clues: list[int] = []
        tatham = [0.0, 0.0]  # CPU and wall seconds in all
        made: dict[float, list[int]] = {TATHAM_DENSITY: [], DEFAULT_DENSITY: []}
        spent = {density: [0.0, 0.0] for density in made}
        for round_ in range(rounds):
            if SGT_MOSAIC is not None:
                printed, cpu, wall = tatham_ids(size, count)
                tatham_clues += [int((NumberGrid.from_tatham(i).clues >= 0).sum())
                                 for i in printed]
                tatham[0] += cpu
                tatham[1] += wall
            for density in made:
                clues, cpu, wall = ours(side, side, density,
                                        range(round_ * count + 1, (round_ + 1) * count + 1))
                made[density] += clues
                spent[density][0] += cpu
                spent[density][1] += wall
        if SGT_MOSAIC is not None:
            tatham_cpu = tatham[0] / total
            tatham_mean = statistics.mean(tatham_clues)
            rows.append([size, "sgt-mosaic", "0.5", str(total), show(tatham_cpu),
                         show(tatham[1] / total), f"{tatham_mean:.1f} ({tatham_mean / cells:.0%})",
                         "", ""])
        for density, clues in made.items():
            cpu, wall = spent[density]
            mean = statistics.mean(clues)
            ratios = ["", ""]
            if SGT_MOSAIC is not None:
                ratios = [f"{(cpu / total) / tatham_cpu:.2f}", f"{mean / tatham_mean:.2f}"]
            rows.append([size, "make_puzzle", f"{density:.3g}", str(total), show(cpu / total),
                         show(wall / total), f"{mean:.1f} ({mean / cells:.0%})", *ratios])
    title = "Mosaic puzzles, time and clues per puzzle"
    if SGT_MOSAIC is None:
        title += " (sgt-mosaic is not installed: Debian package sgt-puzzles; ours only)"
    print_table(title, ["size", "generator", "density", "puzzles", "CPU / puzzle",
                        "wall / puzzle", "clues (share)", "CPU vs sgt", "clues vs sgt"], rows)
    print("CPU vs sgt and clues vs sgt: ours divided by sgt-mosaic's, at the same size (below 1: "
          "faster, fewer clues).")


def large(sizes: list[tuple[int, int, float]]) -> None:
    rows = []
    for side, count, density in sizes:
        for seed in range(1, count + 1):
            cpu, wall = time.process_time(), time.perf_counter()
            puzzle = make_puzzle(width=side, height=side, density=density, seed=seed)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            rows.append([f"{side}x{side}", f"{density:.3g}", str(seed), show(cpu), show(wall),
                         f"{puzzle.clue_count} ({puzzle.share:.1%})", str(puzzle.grade)])
    print_table("Large mosaic puzzles, irreducible, each checked unique by reconstruct",
                ["size", "density", "seed", "CPU", "wall", "clues (share)", "grade"], rows)


def tatham_solved(runs: list[tuple[str, int]]) -> None:
    if SGT_MOSAIC is None:
        print("\nTatham IDs: sgt-mosaic is not installed (Debian package sgt-puzzles); the IDs in "
              "puzzles/tatham/ are checked by tests/test_puzzle.py instead.")
        return
    rows = []
    total = 0
    for size, count in runs:
        printed, _, _ = tatham_ids(size, count)
        start = time.perf_counter()
        for game_id in printed:
            grid = NumberGrid.from_text(game_id)
            found = reconstruct(grid, limit=None)
            assert found.exhaustive and found.count == 1 and found.first is not None, game_id
            layout = np.array(found.first.mask)
            # Every clue counted here, with a plain loop over its block.
            for (row, col), value in np.ndenumerate(grid.clues):
                if value >= 0:
                    block = layout[max(0, row - 1):row + 2, max(0, col - 1):col + 2]
                    assert int(block.sum()) == value, (game_id, row, col)
            assert grid.to_tatham() == game_id
        elapsed = time.perf_counter() - start
        total += count
        rows.append([size, str(count), "all unique, every clue shown", show(elapsed / count)])
    print_table(f"Tatham IDs read and solved: {total} in all", ["generated as", "IDs", "result",
                                                                "solve / ID"], rows)


SAME_CASES = [(width, height, density, rule, grade)
              for width, height in [(6, 5), (10, 10), (12, 8), (20, 20), (30, 30), (40, 40)]
              for density in (TATHAM_DENSITY, DEFAULT_DENSITY) for rule in ("mosaic", "classic")
              for grade in (None, 1, 2)] + [(100, 100, DEFAULT_DENSITY, "mosaic", None)]
SAME_SEEDS = (1, 2, 3)


def made_for_cases() -> list[dict[str, object]]:
    """The puzzle of every case and seed of SAME_CASES (or the error it raises)."""
    made: list[dict[str, object]] = []
    for width, height, density, rule, grade in SAME_CASES:
        for seed in SAME_SEEDS:
            case = f"{rule} {width}x{height} density {density:.4g} grade {grade} seed {seed}"
            try:
                puzzle = make_puzzle(width=width, height=height, density=density, rule=rule,
                                     grade=grade, seed=seed)
                made.append({"case": case, "puzzle": puzzle.to_text(),
                             "irreducible": puzzle.irreducible})
            except ValueError as error:  # no layout of this size at this grade: also kept
                made.append({"case": case, "error": str(error)})
    return made


def same_as(path: Path, made: list[dict[str, object]]) -> bool:
    """Compare puzzles made now with those saved by --save; print the verdict."""
    try:
        with open(path) as saved_file:
            saved = {entry["case"]: entry for entry in map(json.loads, saved_file)}
    except (OSError, ValueError, KeyError, TypeError) as error:
        sys.exit(f"error: {path}: not a file saved by --save ({error})")
    differ = [entry["case"] for entry in made if saved.get(str(entry["case"])) != entry]
    if differ:
        print(f"{len(differ)} of {len(made)} puzzles differ from {path}: "
              + "; ".join(map(str, differ[:5])) + (" ..." if len(differ) > 5 else ""))
        return False
    print(f"same as {path}: all {len(made)} puzzles (clues, grade, irreducible) the same")
    return True


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer puzzles, no 300x300, Tatham's non-aggressive mode for big IDs")
    parser.add_argument("--save", type=new_file, metavar="FILE",
                        help="write the puzzles of a fixed list of cases (no timing)")
    parser.add_argument("--same-as", type=existing_file, metavar="FILE",
                        help="make those puzzles again and compare them with FILE's")
    args = parser.parse_args()
    if args.save or args.same_as:
        start = time.perf_counter()
        made = made_for_cases()
        print(f"{len(made)} puzzles made in {time.perf_counter() - start:.1f} s")
        if args.save:
            with open(args.save, "w") as out:
                out.writelines(json.dumps(entry) + "\n" for entry in made)
            print(f"wrote {args.save}")
        if args.same_as and not same_as(args.same_as, made):
            sys.exit(1)
        return
    make_puzzle(width=8, height=8, seed=0)  # load the solvers before timing
    if args.quick:
        against_tatham([(10, 10, 1), (20, 5, 1), (30, 5, 2)])
        large([(100, 1, DEFAULT_DENSITY)])
        tatham_solved([("10x10", 100), ("20x20", 50), ("30x30h0", 50), ("50x50h0", 50)])
        return
    against_tatham([(10, 20, 1), (20, 10, 1), (30, 10, 3), (50, 5, 1)])
    large([(100, 3, DEFAULT_DENSITY), (300, 1, DEFAULT_DENSITY), (100, 1, TATHAM_DENSITY)])
    tatham_solved([("10x10", 100), ("15x15", 50), ("20x20", 50), ("25x25", 30), ("30x30", 30),
                   ("40x40", 20), ("50x50", 20)])


if __name__ == "__main__":
    main()
