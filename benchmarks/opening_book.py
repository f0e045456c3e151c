"""Build the opening book: race the guesses of the positions that recur at the start of games.

Three steps, each saved in the state file so that a long build can be stopped (Ctrl-C, or
``--time-limit``) and continued by running the same command again:

1. *Survey*: play ``--survey-games`` games with ``best`` (seeds from ``--survey-seed``) and
   count the positions in which each of the first ``--depth`` guesses is made; keep those met in
   at least ``--min-games`` games, most frequent first.
2. *Race*: for each kept position, the guess ``best`` makes there and the other cells it
   considers (:meth:`~msanalysis.play.best.BestStrategy.considered`) are played out on the same
   layouts drawn uniformly from the position (:func:`msanalysis.play.rollout.race`): rounds of
   ``--per-round`` layouts, a candidate dropped when the sign test puts it behind the leader
   (``--alpha`` shared out over every test of the race), at most ``--rounds`` rounds. The
   rest of each game is played by ``best`` without a book.
3. *Write*: the book (``--output``) holds every raced position; its guess is the leader when
   the leader beats ``best``'s own guess with p < ``--alpha`` divided by the number of other
   candidates (it was picked as the best of them), else ``best``'s guess.

    python benchmarks/opening_book.py --difficulty beginner --time-limit 3600
    python benchmarks/paired.py --difficulty beginner --a strategy=best \
        --b "book='beginner-safe-cell'" --games 20000

The state file (``benchmarks/results/opening-book-<difficulty>-safe-cell.json``) keeps the
survey, every rollout's outcome and the settings; the book goes to
``msanalysis/play/books/<difficulty>-safe-cell.json``. The first click is (0, 0) under
``safe-cell``, as in ``winrate.py``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

from arguments import COUNT, SEED, Parser, new_file, seconds, share

from msanalysis.analysis import analyze
from msanalysis.game import Game
from msanalysis.play.autoplay import autoplay
from msanalysis.play.bench import PlaySpec
from msanalysis.play.best import BestStrategy
from msanalysis.play.book import Entry, OpeningBook
from msanalysis.play.rollout import Race, race
from msanalysis.position import Position
from msanalysis.rules import generate

ROOT = Path(__file__).resolve().parent
RULES, FIRST = "safe-cell", (0, 0)


class _Enough(Exception):
    """Raised inside a survey game once its first guesses are recorded."""


def survey(spec: PlaySpec, games: int, seed: int, depth: int) -> Counter[str]:
    """How many of ``games`` games make one of their first ``depth`` guesses in each position."""
    seen: Counter[str] = Counter()
    for s in range(seed, seed + games):
        game = Game(generate(spec.width, spec.height, spec.mines, rules=RULES, first_click=FIRST,
                             seed=s), rules=RULES)
        game.reveal(FIRST)
        strategy = BestStrategy()
        made: list[str] = []
        guess = strategy.guess

        def recording(position: Position, analysis: object, guess=guess, made=made):
            made.append(position.to_text())
            if len(made) > depth:
                raise _Enough
            return guess(position, analysis)

        strategy.guess = recording  # type: ignore[method-assign]
        with contextlib.suppress(_Enough):
            autoplay(game, strategy)
        seen.update(set(made[:depth]))
    return seen


def candidates_of(text: str, most: int) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """``best``'s guess in the position and the cells raced against it (its own first)."""
    position = Position.from_text(text)
    analysis = analyze(position)
    strategy = BestStrategy()
    base = strategy.guess(position, analysis).cell
    cells = [base] + [c for c in strategy.considered(position, analysis) if c != base]
    return base, cells[:most]


def race_state(item: dict) -> Race:
    cell = lambda c: (int(c[0]), int(c[1]))
    return Race([cell(c) for c in item["candidates"]], item["outcomes"],
                {cell(k.split(",")): (cell(v[0]), v[1]) for k, v in item["dropped"].items()},
                item["rounds"])


def save_race(item: dict, state: Race) -> None:
    item.update(candidates=[list(c) for c in state.candidates], outcomes=state.outcomes,
                dropped={f"{c[0]},{c[1]}": [list(v[0]), v[1]] for c, v in state.dropped.items()},
                rounds=state.rounds)


def write(path: Path, spec: PlaySpec, state: dict) -> OpeningBook:
    """The book of every position raced so far."""
    alpha = state["settings"]["alpha"]
    entries = {}
    for item in state["positions"]:
        if "outcomes" not in item:
            continue
        r = race_state(item)
        base = tuple(item["base"])
        leader = r.leader
        p = r.versus(leader, base).p_value if leader != base else 1.0
        # the leader is the best of several: Bonferroni over the candidates it was chosen from
        guess = leader if leader != base and p < alpha / (len(r.candidates) - 1) else base
        key = lambda c: f"{c[0]},{c[1]}"
        entries[item["position"]] = Entry(guess, base, dict(zip(map(key, r.candidates), r.wins)),
                                          dict(zip(map(key, r.candidates), r.played)), p)
    about = {"board": f"{spec.width}x{spec.height}/{spec.mines}", "rules": RULES,
             "first_click": list(FIRST),
             "strategy": "best", "made_by": "benchmarks/opening_book.py",
             "settings": state["settings"]}
    book = OpeningBook(entries, about)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(book.to_json())
    return book


def main() -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--difficulty", choices=["beginner", "intermediate", "expert"],
                        default="expert")
    parser.add_argument("--survey-games", type=COUNT, default=2000)
    parser.add_argument("--survey-seed", type=SEED, default=30000)
    parser.add_argument("--depth", type=COUNT, default=2)
    parser.add_argument("--min-games", type=COUNT, default=20)
    parser.add_argument("--candidates", type=COUNT, default=6)
    parser.add_argument("--rounds", type=COUNT, default=40)
    parser.add_argument("--per-round", type=COUNT, default=50)
    parser.add_argument("--race-seed", type=SEED, default=1)
    parser.add_argument("--alpha", type=share, default=0.01)
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS")
    parser.add_argument("--state", type=new_file, help="default: by difficulty, in results/")
    parser.add_argument("--output", type=new_file, help="default: by difficulty, in the package")
    args = parser.parse_args()
    spec = PlaySpec.standard(args.difficulty, rules=RULES)
    name = f"{args.difficulty}-{RULES}"
    args.state = args.state or ROOT / "results" / f"opening-book-{name}.json"
    args.output = args.output or ROOT.parent / "msanalysis" / "play" / "books" / f"{name}.json"
    start = time.perf_counter()
    settings = {k: getattr(args, k) for k in ("survey_games", "survey_seed", "depth", "min_games",
                                               "candidates", "rounds", "per_round", "race_seed",
                                               "alpha")}
    state = json.loads(args.state.read_text()) if args.state.exists() else None
    if state is not None:
        # more rounds may be given to a race that was not decided; nothing else may change
        fixed = {k: v for k, v in settings.items() if k != "rounds"}
        if {k: v for k, v in state["settings"].items() if k != "rounds"} != fixed:
            print(f"error: {args.state} was made with other settings {state['settings']}; "
                  f"give another --state or the same settings (only --rounds may grow)",
                  file=sys.stderr)
            sys.exit(2)
        if args.rounds < state["settings"]["rounds"]:
            print(f"error: {args.state} was raced for {state['settings']['rounds']} rounds; "
                  f"--rounds may grow, not shrink", file=sys.stderr)
            sys.exit(2)
        state["settings"]["rounds"] = args.rounds
    if state is None:
        seen = survey(spec, args.survey_games, args.survey_seed, args.depth)
        kept = [(text, n) for text, n in seen.most_common() if n >= args.min_games]
        state = {"settings": settings, "positions": [{"position": t, "games": n} for t, n in kept]}
        args.state.parent.mkdir(parents=True, exist_ok=True)
        args.state.write_text(json.dumps(state))
        per_game = sum(n for _, n in kept) / args.survey_games
        print(f"survey: {args.survey_games} games, {len(seen)} positions, {len(kept)} kept "
              f"(a game meets {per_game:.2f} of them on average before its first {args.depth} "
              f"guesses)", flush=True)
    try:
        for item in state["positions"]:
            if "base" not in item:
                item["base"], cells = candidates_of(item["position"], args.candidates)
                save_race(item, Race.start(cells))
            current = race_state(item)

            def saved(r: Race, item: dict = item) -> None:
                save_race(item, r)
                args.state.write_text(json.dumps(state))
                if args.time_limit and time.perf_counter() - start > args.time_limit:
                    raise KeyboardInterrupt

            current = race(Position.from_text(item["position"]), current, BestStrategy,
                           rounds=args.rounds, per_round=args.per_round, seed=args.race_seed,
                           alpha=args.alpha, on_round=saved)
            rates = ", ".join(f"{c}: {current.rate(c):.1%} of {n}" for c, n in
                              zip(current.candidates, current.played))
            print(f"{item['games']} games: base {tuple(item['base'])}, leader {current.leader}; "
                  f"{rates}", flush=True)
    except KeyboardInterrupt:
        print("stopped; run the same command again to continue", flush=True)
    book = write(args.output, spec, state)
    changed = sum(e.guess != e.base for e in book.entries.values())
    print(f"book: {len(book)} positions, {changed} with a guess other than best's; "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
