"""Benchmark: judging replays click by click, on an expert game and on a 60x36 game.

Times :func:`msanalysis.play.judge.analyze_replay` (the analysis of each position from scratch, with
the quick look deciding the obvious clicks) on

- a real expert replay (``puzzles/replays/zhang-shen-jia-expert-3bv122.mvf``, 30x16/99, 3BV
  122), target under 1 s;
- a 60x36 game with 540 mines and 3BV 1,018, won by ``safest`` with seed 23
  (``puzzles/replays/safest-60x36-540-seed23.msreplay.jsonl``; remake it with ``--make``),
  target under 10 s;

against a baseline in the same process on the same replays: every click analysed, the exact
counts made each time (``quick_look=False`` and a counting analyser). Reading the file (ms-toollib
in a child process for the .mvf) is timed apart.

    python benchmarks/replays.py [--repeat 3] [--make]
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from arguments import COUNT, Parser

from msanalysis.analysis import analyze
from msanalysis.play.judge import analyze_replay, record_autoplay
from msanalysis.replay import load_replay, save_replay

HERE = Path(__file__).resolve().parent.parent / "puzzles" / "replays"
EXPERT = HERE / "zhang-shen-jia-expert-3bv122.mvf"
LARGE = HERE / "safest-60x36-540-seed23.msreplay.jsonl"


def counting_every_time(position):
    """The baseline's analyser: forced cells and every exact count, for every click."""
    analysis = analyze(position)
    _ = analysis.solutions
    return analysis


T = TypeVar("T")


def timed(function: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The median seconds of ``repeat`` calls, and what the last one returned."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=COUNT, default=3)
    parser.add_argument("--make", action="store_true",
                        help="play the 60x36 game again (seed 23, safest) and save it first")
    args = parser.parse_args()
    if args.make:
        replay = record_autoplay(60, 36, 540, seed=23, rules="safe-opening", first_click=(18, 30),
                                 strategy="safest", flag_mines=True)
        save_replay(replay, LARGE)
        print(f"wrote {LARGE.name}: {replay.play().status}, 3BV {replay.board.bbbv}")

    print(f"{'replay':<34}{'clicks':>7}{'3BV':>6}{'read s':>9}{'judged s':>10}{'baseline s':>12}"
          f"{'ratio':>7}  verdicts")
    for path, target in ((EXPERT, 1.0), (LARGE, 10.0)):
        read_s, replay = timed(partial(load_replay, path), args.repeat)
        ours_s, result = timed(partial(analyze_replay, replay), args.repeat)
        base_s, baseline = timed(partial(analyze_replay, replay, analyser=counting_every_time,
                                         quick_look=False), 1)
        assert baseline.judgements == result.judgements, "the baseline judged differently"
        size = f"{replay.width}x{replay.height}/{replay.mines}"
        counts = " ".join(f"{v}={n}" for v, n in result.verdicts.items())
        print(f"{size + ' ' + path.suffix:<34}{result.clicks:>7}{result.bbbv:>6}{read_s:>9.3f}"
              f"{ours_s:>10.3f}{base_s:>12.3f}{base_s / ours_s:>6.1f}x  {counts}")
        survival = "unknown" if result.survival is None else f"{float(result.survival):.3g}"
        print(f"  target {target:g} s: {'met' if ours_s < target else 'MISSED'}; survival "
              f"{survival}, luck {result.luck_bits:.2f} bits, "
              f"{result.bbbv_per_second:.2f} 3BV/s")


if __name__ == "__main__":
    main()
