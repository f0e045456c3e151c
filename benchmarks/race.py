"""Which of a few guesses wins more often: play them out on the same layouts of one position.

Layouts are drawn uniformly from the position (:class:`msanalysis.sampling.LayoutSampler`),
every candidate is revealed on every layout and the game is played to its end by ``best``
(:func:`msanalysis.play.rollout.rollouts`). Each candidate is compared with the first one on the
layouts where exactly one of the two won (the exact sign test), as ``paired.py`` compares two
strategies on the same games. The position is a text file (``msanalysis analyze`` reads the same
format: a ``mines:`` line, then ``?`` hidden, ``.`` or a digit revealed, ``F`` flagged)::

    python benchmarks/race.py benchmarks/positions/expert-corner-1.txt 0,29 0,2 --jobs 2

The layouts come from ``--seed`` alone, so a run with more ``--jobs`` plays the same games.
A difference of 0.5% between two guesses needs about 10,000 layouts to show.
"""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from arguments import COUNT, JOBS, SEED, Parser

from msanalysis.board import Cell
from msanalysis.constraints import build
from msanalysis.errors import MsanalysisError, ParseError
from msanalysis.play.bench import Paired
from msanalysis.play.rollout import rollouts
from msanalysis.play.strategies import make_strategy
from msanalysis.position import Position
from msanalysis.sampling import LayoutSampler


def fail(message: str) -> None:
    """Say what is wrong, like the command line does, and exit."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_cell(text: str) -> Cell:
    """``"row,col"`` as a cell; exits with a message naming a bad one."""
    row, sep, col = text.partition(",")
    if not sep or not row.strip().isdigit() or not col.strip().isdigit():
        fail(f"the candidate {text!r} is not row,col (two whole numbers, e.g. 0,29)")
    return int(row), int(col)


def _strategy():  # module level, so that worker processes can use it
    return make_strategy("best")


def _play(position: Position, candidates: list[Cell],
          layouts: list[frozenset[Cell]]) -> np.ndarray:
    return rollouts(position, candidates, _strategy, layouts)


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("position", help="a position file (text)")
    parser.add_argument("candidates", nargs="+", metavar="ROW,COL",
                        help="hidden cells to guess; the first is the one the others are "
                             "compared with")
    parser.add_argument("--layouts", type=COUNT, default=1000)
    parser.add_argument("--seed", type=SEED, default=1)
    parser.add_argument("--jobs", type=JOBS, default=1)
    args = parser.parse_args(argv)
    candidates = [parse_cell(text) for text in args.candidates]
    if len(set(candidates)) != len(candidates):
        fail("a candidate is given twice")
    try:
        position = Position.load(args.position)
        sampler = LayoutSampler(build(position))
    except ParseError as error:  # it names the file and the line itself
        fail(str(error))
    except MsanalysisError as error:
        fail(f"{args.position}: {error}")
    except OSError as error:
        fail(f"{args.position}: cannot read it ({error.strerror or error})")
    for cell in candidates:
        if cell not in position.hidden:
            fail(f"{args.position}: the candidate {cell} is not a hidden cell of the position")

    rng = random.Random(args.seed)
    layouts = [sampler.draw(rng) for _ in range(args.layouts)]
    start = time.perf_counter()
    chunks = [layouts[i::args.jobs] for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        won = np.concatenate(list(pool.map(_play, [position] * args.jobs,
                                           [candidates] * args.jobs, chunks)), axis=1)
    seconds = time.perf_counter() - start

    print(f"{args.position}: {args.layouts} layouts (seed {args.seed}), {seconds:.0f} s")
    first = won[0]
    for cell, row in zip(candidates, won):
        line = f"  {cell}: {int(row.sum())} wins, {row.mean():.2%}"
        if cell != candidates[0]:
            result = Paired(args.layouts, int(first.sum()), int(row.sum()),
                            int((first & ~row).sum()), int((row & ~first).sum()))
            lo, hi = result.interval()
            line += (f"; against {candidates[0]}: won by it only {result.only_a}, by this only "
                     f"{result.only_b}, sign test p = {result.p_value:.3g}, this minus it "
                     f"{lo:+.2%} to {hi:+.2%} (95%)")
        print(line)


if __name__ == "__main__":
    main()
