"""A win rate over hundreds of thousands of games, in chunks that survive being stopped.

Each finished chunk of ``--chunk`` games (seeds ``--seed`` onward, never the development seeds
of ``paired.py``) is appended as one JSON line to the results file, named after the row, the
strategy's options and the first seed; running the same command again plays only the chunks
not yet in it, so a run can be spread over several sessions (or machines: give each its own
``--seed``). The summary adds up every chunk in the file.

    python benchmarks/longrun.py --row expert --games 200000 --seed 10000000 --jobs 2
    python benchmarks/longrun.py --row expert --games 200000 --seed 10000000 --jobs 2 \\
        --option book=expert-safe-cell

The median time per game is the median of the chunks' medians. ``--against FILE`` compares
the run with another results file on the chunks both played (the same seeds, so the same
boards): the games won by each, and the difference per chunk with its standard error.

    python benchmarks/longrun.py --row expert-opening --games 200000 --seed 10000000 \\
        --against benchmarks/results/longrun-expert-opening-best-drawn_endgame=0-seed10000000.jsonl

``--java DIR`` plays the row's boards with the Java solver compiled in ``DIR`` instead (see
``java_solver.py``), each game from the same first click: a peer's row on the same boards.

    python benchmarks/longrun.py --row expert --java build/java/classes --jobs 2 \\
        --against benchmarks/results/longrun-expert-best-seed10000000.jsonl
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from arguments import COUNT, JOBS, SEED, Parser, existing_file, seconds
from java_solver import Driver, play_games

from msanalysis.play.bench import PlaySpec, bench, wilson_interval
from msanalysis.play.strategies import parse_options

RESULTS = Path(__file__).resolve().parent / "results"
ROWS = {  # row: (difficulty, rules)
    "beginner": ("beginner", "safe-cell"),
    "intermediate": ("intermediate", "safe-cell"),
    "expert": ("expert", "safe-cell"),
    "expert-opening": ("expert", "safe-opening"),
}


def results_file(row: str, tag: str, seed: int) -> Path:
    return RESULTS / f"longrun-{row}-{tag}-seed{seed}.jsonl"


def summarize(chunks: list[dict]) -> str:
    games = sum(c["games"] for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    lo, hi = wilson_interval(wins, games)
    seeds = (min(c["seeds"][0] for c in chunks), max(c["seeds"][1] for c in chunks))
    median = statistics.median(c["median_ms"] for c in chunks)
    return (f"{wins} wins of {games} games: {100 * wins / games:.2f}% (95% interval "
            f"{100 * lo:.2f}-{100 * hi:.2f}), seeds {seeds[0]}..{seeds[1]}, "
            f"{median:.1f} ms median per game")


def read_chunks(path: Path) -> list[dict]:
    """The chunks of a results file, one JSON object a line; exits with an ``error:`` line
    naming the file when it is not one."""
    try:
        chunks = [json.loads(line) for line in path.read_text().splitlines()]
        if not all(isinstance(c, dict) and {"seeds", "games", "wins"} <= c.keys()
                   for c in chunks):
            raise ValueError("a line is not a chunk with seeds, games and wins")
    except (OSError, ValueError) as error:
        print(f"error: {path}: not a results file ({error})", file=sys.stderr)
        sys.exit(2)
    return chunks


def compare(chunks: list[dict], other: list[dict]) -> str:
    """The run against another on the chunks of the same seeds: wins of each, the mean
    difference per chunk with its standard error and t (the chunks are independent samples),
    and in how many chunks it won more and fewer (a sign test's counts)."""
    theirs = {tuple(c["seeds"]): c for c in other}
    pairs = [(c, theirs[seeds]) for c in chunks if (seeds := tuple(c["seeds"])) in theirs]
    if not pairs:
        return "no chunk of the same seeds to compare"
    games = sum(c["games"] for c, _ in pairs)
    wins, other_wins = sum(c["wins"] for c, _ in pairs), sum(o["wins"] for _, o in pairs)
    text = (f"on the {len(pairs)} chunks of the same seeds ({games} games): {wins} won against "
            f"{other_wins}, {wins - other_wins:+d}")
    if len(pairs) > 1:
        differences = [c["wins"] - o["wins"] for c, o in pairs]
        mean = statistics.mean(differences)
        error = statistics.stdev(differences) / len(differences) ** 0.5
        # t: the mean over its standard error, none when every chunk differs alike.
        t = f", t = {mean / error:.1f}" if error else ""
        more, fewer = sum(d > 0 for d in differences), sum(d < 0 for d in differences)
        text += (f"; per chunk {mean:+.2f} (standard error {error:.2f}{t}); more in {more} "
                 f"chunks, fewer in {fewer}")
    return text


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--row", choices=sorted(ROWS), default="expert")
    parser.add_argument("--strategy", default="best")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--games", type=COUNT, default=200_000)
    parser.add_argument("--seed", type=SEED, default=10_000_000)
    parser.add_argument("--chunk", type=COUNT, default=2000)
    parser.add_argument("--jobs", type=JOBS, default=1)
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                        help="start no chunk after this long")
    parser.add_argument("--against", type=existing_file, metavar="FILE",
                        help="another results file to compare with, chunk by chunk")
    parser.add_argument("--java", type=Path, metavar="DIR",
                        help="play the Java solver compiled in DIR (java_solver.py) instead")
    args = parser.parse_args(argv)
    difficulty, rules = ROWS[args.row]
    try:
        options = parse_options(args.option)
        spec = PlaySpec.standard(difficulty, rules=rules, strategy=args.strategy, options=options)
        spec.check()
        if args.java is not None:
            if args.strategy != "best" or options:
                raise ValueError("--java plays the Java solver: no --strategy or --option")
            Driver(args.java, "Play")  # built?
    except (ValueError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    other = None if args.against is None else read_chunks(args.against)
    # Named, recorded and printed as the Java solver, or as the strategy and its options.
    tag, strategy, who = ("java", "java", "the Java solver") if args.java is not None \
        else (spec.file_tag, args.strategy, spec.variant)
    path = results_file(args.row, tag, args.seed)
    done = read_chunks(path) if path.exists() else []
    finished = {c["seeds"][0] for c in done}
    start = time.perf_counter()
    for first in range(args.seed, args.seed + args.games, args.chunk):
        if first in finished:
            continue
        if args.time_limit and time.perf_counter() - start > args.time_limit:
            print("time limit reached; run the same command again to continue", file=sys.stderr)
            break
        games = min(args.chunk, args.seed + args.games - first)
        try:
            summary = bench(spec, games, seed=first, jobs=args.jobs) if args.java is None \
                else play_games(args.java, spec, range(first, first + games), args.jobs)
        except RuntimeError as error:  # only the Java solver's
            print(f"error: {error}", file=sys.stderr)
            sys.exit(2)
        if summary.interrupted:
            print("interrupted; the chunks finished are kept", file=sys.stderr)
            break
        chunk = {"seeds": [first, first + games - 1], "games": summary.games,
                 "wins": summary.wins, "median_ms": round(summary.median_ms, 2),
                 "mean_ms": round(summary.mean_ms, 2), "seconds": round(summary.seconds, 1),
                 "mean_guesses": round(summary.mean_guesses, 4), "jobs": args.jobs,
                 "strategy": strategy, "options": {k: repr(v) for k, v in options.items()}}
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as out:
            out.write(json.dumps(chunk) + "\n")
        done.append(chunk)
        print(f"  seeds {first}..{first + games - 1}: {summary.wins}/{summary.games}; "
              f"so far {summarize(done)}", file=sys.stderr, flush=True)
    if done:
        print(f"{args.row}, {who}: {summarize(done)} ({path.name})")
        if other is not None:
            print(f"against {args.against.name}: {compare(done, other)}")


if __name__ == "__main__":
    main()
