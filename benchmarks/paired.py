"""Two variants of a strategy on the same seeded games: which wins more, and is it chance?

Win rates over 20,000 expert games have a 95% interval of about +-0.7%, wider than most changes
to a strategy are worth. Playing both variants on the same games removes the luck of the deal:
only the games one variant wins and the other loses tell them apart, and the exact sign test
says how likely such a split is if neither is better. A 95% interval for the difference in win
rate says what the games rule out: a large p with a wide interval means too few games, not no
difference (on expert a gain of 0.4% takes tens of thousands of games to see). Use development
seeds (not the ``winrate.py`` ones, 0 .. games - 1) to choose, then run ``winrate.py`` once.

    python benchmarks/paired.py --b blend=0.5 --seed 20000 --games 4000 --jobs 2
    python benchmarks/paired.py --difficulty beginner --a strategy=safest --b strategy=best

``--a`` and ``--b`` take ``name=value`` options of the strategy (values are Python literals,
or else words: ``book=expert-safe-cell``);
``strategy=NAME`` picks another strategy (default ``best``). Without them, A is ``safest`` (the
baseline) and B ``best``: what the look ahead is worth.

A change that must not alter play (a refactor, a speed-up) is proven on the same games: save
B's games before it, then check them after it. Only B is played then (unless ``--a`` is given):

    python benchmarks/paired.py --games 600 --save /tmp/before.jsonl
    python benchmarks/paired.py --games 600 --same-as /tmp/before.jsonl

Each line of the file is one game: its seed, whether it was won, and the cells guessed in order.
``--same-as`` exits with status 1 when any game differs, naming the first few.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from arguments import COUNT, JOBS, SEED, Parser, existing_file, new_file

from msanalysis.play.bench import GameResult, PlaySpec, paired, run_games
from msanalysis.play.best import forget_guesses
from msanalysis.play.strategies import parse_options


def fail(message: str) -> None:
    """Say what is wrong with the arguments, like the command line does, and exit."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def variant(words: list[str], difficulty: str, rules: str) -> PlaySpec:
    """The spec for ``name=value`` words; exits with a message naming a bad word."""
    try:
        options = parse_options(words)
        strategy = str(options.pop("strategy", "best"))
        spec = PlaySpec.standard(difficulty, rules=rules, strategy=strategy, options=options)
        spec.check()
    except ValueError as error:
        fail(str(error))
    return spec


def save(path: Path, run: list[GameResult]) -> None:
    """One JSON line per game, in seed order: seed, won, the cells guessed."""
    with open(path, "w") as out:
        for r in sorted(run, key=lambda r: r.seed):
            out.write(json.dumps({"seed": r.seed, "won": r.won,
                                  "guessed": [list(c) for c in r.guessed]}) + "\n")


def same_as(path: Path, run: list[GameResult]) -> bool:
    """Compare a run with a saved one game by game; print the verdict."""
    try:
        with open(path) as saved_file:
            saved = {g["seed"]: (g["won"], [tuple(c) for c in g["guessed"]])
                     for g in map(json.loads, saved_file)}
    except (OSError, ValueError, KeyError, TypeError) as error:
        fail(f"{path}: not a file saved by --save ({error})")
    games = [r for r in run if r.seed in saved]
    differ = [r.seed for r in sorted(games, key=lambda r: r.seed)
              if saved[r.seed] != (r.won, list(r.guessed))]
    guesses = sum(len(r.guessed) for r in games)
    if len(games) < len(run):
        print(f"  {len(run) - len(games)} games were not in {path}")
    if differ:
        print(f"  {len(differ)} of {len(games)} games differ from {path}: seeds "
              + ", ".join(map(str, differ[:10])) + (" ..." if len(differ) > 10 else ""))
        return False
    print(f"  same as {path}: every guess ({guesses}) and result the same on {len(games)} games")
    return True


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--difficulty", default="expert", help="beginner, intermediate or expert")
    parser.add_argument("--rules", default="safe-cell", help="the first-click rule")
    parser.add_argument("--a", nargs="*", default=None, metavar="NAME=VALUE",
                        help="variant A (default strategy=safest; not played with --save or "
                             "--same-as unless given)")
    parser.add_argument("--b", nargs="*", default=[], metavar="NAME=VALUE",
                        help="variant B's options (default: best as it is)")
    parser.add_argument("--games", type=COUNT, default=1000, help="games, one seed each")
    parser.add_argument("--seed", type=SEED, default=20000,
                        help="first seed (default 20000, away from winrate.py's 0 ..)")
    parser.add_argument("--jobs", type=JOBS, default=1, help="processes")
    parser.add_argument("--save", type=new_file, metavar="FILE",
                        help="write B's games (seed, won, guesses)")
    parser.add_argument("--same-as", type=existing_file, metavar="FILE",
                        help="check that B plays every game as saved in FILE (exit 1 if not)")
    args = parser.parse_args()
    b_only = args.a is None and (args.save or args.same_as)
    specs = [variant(args.b, args.difficulty, args.rules)]
    if not b_only:
        specs.insert(0, variant(args.a or ["strategy=safest"], args.difficulty, args.rules))
    runs, seconds = [], []
    for spec in specs:
        # Each variant starts with no guess remembered (with --jobs 1 both play in this
        # process): its time is then its own, not helped by the other's guesses.
        forget_guesses()
        start = time.perf_counter()
        runs.append(list(run_games(spec, args.games, seed=args.seed, jobs=args.jobs)))
        seconds.append(time.perf_counter() - start)
    print(f"{args.difficulty} ({args.rules}), seeds {args.seed} .. {args.seed + args.games - 1}")
    if b_only:
        describe("B", specs[0], runs[0], seconds[0])
    else:
        for label, spec, run, spent in zip("AB", specs, runs, seconds):
            describe(label, spec, run, spent)
        result = paired(*runs)
        ratio = f"{result.wins_b / result.wins_a:.3f}" if result.wins_a else "-"
        print(f"  won by A only: {result.only_a}, by B only: {result.only_b}, "
              f"B - A = {result.wins_b - result.wins_a:+d} games (B/A {ratio}), "
              f"sign test p = {result.p_value:.3f}")
        lo, hi = result.interval()
        print(f"  B - A in win rate: {(result.wins_b - result.wins_a) / result.games:+.2%}, "
              f"95% interval {lo:+.2%} to {hi:+.2%}")
    if args.save:
        save(args.save, runs[-1])
        print(f"  saved {len(runs[-1])} games to {args.save}")
    if args.same_as and not same_as(args.same_as, runs[-1]):
        sys.exit(1)


def describe(label: str, spec: PlaySpec, run: list[GameResult], spent: float) -> None:
    """One variant's line: its options, wins and time per game."""
    median = 1000 * statistics.median(r.seconds for r in run)
    wins = sum(r.won for r in run)
    print(f"  {label}: {spec.variant}: {wins} wins, {100 * wins / len(run):.2f}%, "
          f"{median:.1f} ms median per game, {spent:.0f} s")


if __name__ == "__main__":
    main()
