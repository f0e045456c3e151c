"""How far from perfect play: `best` against the best possible, on boards small enough to solve.

With the ``safe-cell`` rule every layout that leaves the first click safe is equally likely, so
playing a strategy on each of them gives its exact win rate. Perfect play's comes from the exact
endgame search (:class:`msanalysis.play.endgame.Endgame`, checked against a brute-force game
tree in the tests): the layouts are grouped by what the first click shows, each group's forced
cells revealed (information never hurts) until a guess is needed, and the search's chance of
winning from each position left weighted by the layouts that lead there::

    python benchmarks/optimal.py --board 4x5/4 --variant "endgame_layouts=0 drawn_endgame=0"

Every board (``WxH/M``, first click in the corner) is played by ``best`` and by each variant
given with ``--variant "NAME=VALUE NAME=VALUE"``. The search's time and memory grow fast with
the layouts of the largest position after the first click (4x6/5: 14,535 layouts, 1.3 million
sets of layouts solved in 2.5 minutes); ``--nodes`` bounds the sets it may solve.
"""

from __future__ import annotations

import math
import sys
import time
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from arguments import Parser

from msanalysis.analysis import analyze
from msanalysis.board import Board, Cell
from msanalysis.errors import MsanalysisError
from msanalysis.game import Game
from msanalysis.play.autoplay import autoplay
from msanalysis.play.bench import PlaySpec
from msanalysis.play.endgame import Endgame
from msanalysis.play.strategies import make_strategy, parse_options
from msanalysis.position import Position

BOARDS = ("4x4/3", "5x5/3", "4x5/4", "4x6/4", "5x5/4", "4x6/5")
FIRST_CLICK = (0, 0)
MOST_LAYOUTS = 1_000_000
MEMORY_BITS = 32 * 2**30


def layouts(width: int, height: int, mines: int) -> Iterator[tuple[Cell, ...]]:
    """Every layout with the first click safe, as its mines (the ``safe-cell`` rule's games)."""
    cells = [(r, c) for r in range(height) for c in range(width) if (r, c) != FIRST_CLICK]
    return combinations(cells, mines)


def started(width: int, height: int, mines: tuple[Cell, ...]) -> Game:
    """The game of one layout, its first click made."""
    game = Game(Board.from_cells(height, width, mines), rules="safe-cell")
    game.reveal(FIRST_CLICK)
    return game


def positions_to_guess(width: int, height: int, mines: int) -> Counter[str]:
    """The positions where a guess is first needed, by text, with the layouts leading to each
    (``"won"``: the layouts won without a guess)."""
    found: Counter[str] = Counter()
    safe_in: dict[str, list[Cell]] = {}
    for layout in layouts(width, height, mines):
        game = started(width, height, layout)
        while game.status == "playing":
            text = game.position().to_text()
            if text not in safe_in:
                safe_in[text] = sorted(analyze(game.position()).forced_safe)
            if not safe_in[text]:
                break
            for cell in safe_in[text]:
                if not game.is_revealed(cell):  # a cascade may have opened it
                    game.reveal(cell)
        found["won" if game.status == "won" else game.position().to_text()] += 1
    return found


def perfect_play(width: int, height: int, mines: int, nodes: int = 10_000_000) -> float:
    """The number of layouts perfect play wins (a whole number up to rounding).

    Raises MsanalysisError when the search of a position would solve more than ``nodes`` sets
    of layouts, or remember more than ``MEMORY_BITS`` bits of them.
    """
    won = 0.0
    for text, count in positions_to_guess(width, height, mines).items():
        if text == "won":
            won += count
            continue
        analysis = analyze(Position.from_text(text))
        assert analysis.solutions == count, "each layout leads to one position"
        budget = min(nodes, MEMORY_BITS // count)  # each set remembered is a bit per layout
        # No cell is safe in every layout, so the best first click is the best play.
        solved = Endgame(analysis, node_budget=budget).best()
        if solved is None:
            raise MsanalysisError(
                f"{width}x{height}/{mines}: a position of {count:,} layouts needs more than "
                f"{budget:,} sets of layouts solved (--nodes, and 4 GiB of them remembered)")
        won += count * solved[1]
    return won


def wins(width: int, height: int, mines: int, options: dict) -> int:
    """The number of layouts ``best`` with ``options`` wins."""
    strategy = make_strategy("best", seed=0, **options)
    return sum(autoplay(started(width, height, layout), strategy).won
               for layout in layouts(width, height, mines))


def parse_board(text: str) -> tuple[int, int, int]:
    """``WxH/M`` as (width, height, mines); a board whose layouts are too many to play each of
    (more than ``MOST_LAYOUTS``) is refused."""
    size, _, count = text.partition("/")
    words = (*size.partition("x")[::2], count)
    if not all(word.isdecimal() for word in words):
        raise MsanalysisError(f"the board {text!r} is not WxH/M (e.g. 5x5/4)")
    width, height, mines = map(int, words)
    if not (width and height and mines < width * height):
        raise MsanalysisError(f"the board {text!r} has no layout with the first click safe")
    if math.comb(width * height - 1, mines) > MOST_LAYOUTS:
        raise MsanalysisError(f"the board {text!r} has more than {MOST_LAYOUTS:,} layouts to "
                              f"play (4x6/5 has 33,649)")
    return width, height, mines


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", action="append", metavar="WxH/M",
                        help=f"a board to solve (repeatable; default {', '.join(BOARDS)})")
    parser.add_argument("--variant", action="append", default=[], metavar="OPTIONS",
                        help="options of best to play too, e.g. \"endgame_layouts=0 "
                             "drawn_endgame=0\" (repeatable)")
    parser.add_argument("--nodes", type=int, default=10_000_000,
                        help="the most sets of layouts the search may solve per position")
    args = parser.parse_args(argv)
    try:
        if args.nodes < 1:
            raise MsanalysisError(f"--nodes is at least 1, got {args.nodes}")
        boards = [parse_board(text) for text in args.board or BOARDS]
        variants: list[dict] = [{}] + [parse_options(words.split()) for words in args.variant]
        for options in variants:  # refused now, as `play` refuses them, not midway
            PlaySpec.standard(width=4, height=4, mines=3, options=options).check()
    except (MsanalysisError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    for width, height, mines in boards:
        start = time.perf_counter()
        total = math.comb(width * height - 1, mines)
        try:
            perfect = perfect_play(width, height, mines, args.nodes)
        except MsanalysisError as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(1)
        print(f"{width}x{height}/{mines}, first click {FIRST_CLICK}, safe-cell: {total:,} layouts; "
              f"perfect play wins {perfect:,.0f} ({perfect / total:.3%}), "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        for options in variants:
            start = time.perf_counter()
            won = wins(width, height, mines, options)
            name = " ".join(f"{k}={v}" for k, v in options.items())
            print(f"  best{f' ({name})' if name else ''}: {won:,} ({won / total:.3%}), "
                  f"{(perfect - won) / total:.3%} below perfect play, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
