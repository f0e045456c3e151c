"""What choosing guesses by rollouts would gain: `best`'s guess against its runners-up, played out.

Plays ``--games`` games with ``best`` (from a safe corner, or with ``--rules safe-opening`` from
an opening at (3, 3)) and keeps every position in which it guesses outside the endgame searches
(more than ``drawn_endgame`` layouts left: the look ahead's guesses). In each, its ``--top`` best
candidates by its own look ahead (:meth:`~msanalysis.play.best.BestStrategy.ranked`, its guess
first) are played out by ``best`` on the same ``--layouts`` layouts drawn uniformly from the
position (:func:`msanalysis.play.rollout.rollouts`). It prints:

- each runner-up's win rate after the guess against ``best``'s guess, averaged over the guesses
  (does the look ahead rank them right?);
- what a *rollout chooser* would gain: it picks the candidate that won most on one half of the
  layouts, and is scored on the other half (and the halves swapped), so that its luck in
  choosing is not counted as gain. ``gated`` switches away from ``best``'s guess only when the
  sign test on the choosing half gives p < 0.05; and the same chooser picking by only 50, 100,
  200 or 300 layouts per candidate (windows of that many choose, all the other layouts score):
  what a cheaper rollout would keep of the gain;
- how much the candidates' true win rates differ from position to position (the observed
  spread less the rollouts' noise), and what an oracle taking a runner-up wherever it is
  really better would gain (a normal model of those differences: an estimate, not a count);
- those gains per game: summed over the guesses of the games and divided by the games, the
  win rate a rollout chooser at every such guess would add (each guess's gain taken alone).

Positions met more than once are played out once and counted as often as met. The rollouts of
each position are saved as one JSON line in ``--output`` as they finish; running the same
command again plays only the positions missing.

    python benchmarks/rollout_gain.py --games 100 --seed 240000 --layouts 400 --jobs 2

Not part of ``make bench``: about 15 minutes on two cores for 100 expert games.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from arguments import COUNT, JOBS, SEED, Parser, new_file, whole

from msanalysis.analysis import analyze
from msanalysis.constraints import build
from msanalysis.game import Game
from msanalysis.play.autoplay import Move, autoplay
from msanalysis.play.bench import Paired, PlaySpec
from msanalysis.play.best import BestStrategy
from msanalysis.play.rollout import rollouts
from msanalysis.play.strategies import make_strategy
from msanalysis.position import Position
from msanalysis.rules import generate
from msanalysis.sampling import LayoutSampler


def at_best_guesses(spec: PlaySpec, seeds: Iterable[int],
                    seen: Callable[[Position, Any, Move], None],
                    options: Mapping[str, Any] | None = None) -> None:
    """Play ``best``'s games of ``seeds`` (with ``options``, its defaults if None) and call
    ``seen(position, analysis, move)`` at each of its guesses."""
    for seed in seeds:
        game = Game(generate(spec.width, spec.height, spec.mines, rules=spec.rules,
                             first_click=spec.first_click, seed=seed), rules=spec.rules)
        game.reveal(spec.first_click)
        strategy = BestStrategy(**(options or {}))
        guess = strategy.guess

        def watched(position: Position, analysis: Any, guess=guess) -> Move:
            move = guess(position, analysis)
            seen(position, analysis, move)
            return move

        strategy.guess = watched  # type: ignore[method-assign]
        autoplay(game, strategy)


def guess_positions(spec: PlaySpec, games: int, seed: int) -> Counter[str]:
    """The positions in which ``best`` guesses outside the endgame searches, with how often."""
    met: Counter[str] = Counter()
    endgame_search = BestStrategy().endgame_search

    def seen(position: Position, analysis: Any, move: Move) -> None:
        if endgame_search(analysis.solutions) is None:
            met[position.to_text()] += 1

    at_best_guesses(spec, range(seed, seed + games), seen)
    return met


def read_rollouts(path: Path, keys: tuple[str, ...] = ("candidates", "values")) -> list[dict]:
    """The positions played out in ``path``, one JSON line each, as this script (``keys``
    ``candidates`` and ``values``) or ``changed_guesses.py`` (``guesses``) saves them.

    Raises
    ------
    ValueError
        Naming the file and line of the first line that is not such a position.
    """
    items = []
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            try:
                items.append(_checked_rollout(json.loads(line), keys))
            except ValueError as error:
                raise ValueError(f"{path}, line {number}: {error}") from None
    return items


def _checked_rollout(item: Any, keys: tuple[str, ...]) -> dict:
    """``item`` when it is a position played out, with ``keys`` besides its position and
    outcomes; else ValueError saying what it lacks."""
    if not (isinstance(item, dict) and {"position", "outcomes", *keys} <= item.keys()):
        raise ValueError(f"not a position played out (with {', '.join(keys)})")
    outcomes = item["outcomes"]
    if not (isinstance(outcomes, list) and outcomes
            and all(isinstance(o, str) and o and set(o) <= {"0", "1"} for o in outcomes)
            and len({len(o) for o in outcomes}) == 1):
        raise ValueError("its outcomes are not strings of 0 and 1 of one length")
    if "candidates" in keys and not (
            len(item["candidates"]) == len(item["values"]) == len(outcomes)
            and all(isinstance(c, list) and len(c) == 2 and all(type(x) is int for x in c)
                    for c in item["candidates"])
            and all(type(v) in (int, float) for v in item["values"])):
        raise ValueError("its candidates (row, col) and values are not one per outcome")
    if not isinstance(item["position"], str):
        raise ValueError("its position is not a position's text")
    Position.from_text(item["position"])  # a ParseError (a ValueError) names what is wrong
    return item


def saved(output: Path, keep: Callable[[dict], bool],
          keys: tuple[str, ...] = ("candidates", "values")) -> dict[str, dict]:
    """The positions already played out in ``output`` (see :func:`read_rollouts`), by
    position: those ``keep`` takes as played out as now asked."""
    if not output.exists():
        return {}
    return {item["position"]: item for item in read_rollouts(output, keys) if keep(item)}


def play_and_save(output: Path, jobs: int, play: Callable[..., dict],
                  calls: list[tuple]) -> Iterator[dict]:
    """``play(*call)`` for every call, in ``jobs`` processes; each result, in order, appended to
    ``output`` as one JSON line as soon as it is in (so that a stopped run resumes)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("a") as out, ProcessPoolExecutor(jobs) as pool:
        for job in [pool.submit(play, *call) for call in calls]:
            item = job.result()
            out.write(json.dumps(item) + "\n")
            out.flush()
            yield item


def played_out(position: Position, cells: list[tuple[int, int]], layouts: int,
               seed: int, options: Mapping[str, Any] | None = None) -> list[str]:
    """Each cell revealed first and the game played out by ``best`` (with ``options``) on the
    same ``layouts`` layouts drawn from the position (seeded by ``seed`` and the position): one
    string per cell, ``1`` for a layout won."""
    sampler = LayoutSampler(build(position))
    rng = random.Random(f"{seed}/{position.to_text()}")
    drawn = [sampler.draw(rng) for _ in range(layouts)]
    won = rollouts(position, cells, partial(make_strategy, "best", **(options or {})), drawn)
    return ["".join("1" if w else "0" for w in row) for row in won.tolist()]


def play_out(text: str, top: int, layouts: int, seed: int) -> dict:
    """Rollouts of ``best``'s ``top`` candidates in one position (its guess first)."""
    position = Position.from_text(text)
    ranked = BestStrategy().ranked(position, analyze(position))[:top]
    return {"position": text, "candidates": [list(c) for c, _ in ranked],
            "values": [v for _, v in ranked],
            "outcomes": played_out(position, [cell for cell, _ in ranked], layouts, seed),
            "hidden": len(position.hidden)}


def won_by_one(a: str, b: str) -> tuple[int, int]:
    """Of the same layouts (``1`` won, ``0`` lost), how many ``a`` alone won and ``b`` alone."""
    return (sum(x == "1" and y == "0" for x, y in zip(a, b)),
            sum(x == "0" and y == "1" for x, y in zip(a, b)))


def difference(a: str, b: str) -> tuple[float, float]:
    """``b``'s win rate minus ``a``'s on the same layouts, and the variance of that difference
    from the rollouts' own noise (known from the layouts won by one only)."""
    n = len(a)
    only_a, only_b = (count / n for count in won_by_one(a, b))
    d = only_b - only_a
    return d, (only_a + only_b - d * d) / n


def chooser_gain(outcomes: list[str], gated: bool, choose_on: int | None = None) -> float:
    """Win-rate gain over candidate 0 of picking by ``choose_on`` layouts (default half of
    them), scored on the layouts it did not choose with.

    The layouts are cut into windows of ``choose_on``; each window chooses, the rest score that
    choice, and the gains are averaged over the windows (with half the layouts: each half
    chooses and the other half scores).
    """
    n = len(outcomes[0])
    size = choose_on or n // 2
    gain, windows = 0.0, range(0, n - size + 1, size)
    for start in windows:
        choose = slice(start, start + size)
        wins = [o[choose].count("1") for o in outcomes]
        pick = max(range(len(outcomes)), key=lambda k: (wins[k], -k))
        if gated and pick != 0:
            only_base, only_pick = won_by_one(outcomes[0][choose], outcomes[pick][choose])
            if Paired(size, 0, 0, only_base, only_pick).p_value >= 0.05:
                pick = 0
        scored = [o[:start] + o[start + size:] for o in (outcomes[0], outcomes[pick])]
        gain += difference(*scored)[0] / len(windows)
    return gain


def true_spread(pairs: list[tuple[str, str]]) -> tuple[float, float]:
    """How much two candidates' win rates really differ from position to position, and what an
    oracle would gain by taking the second wherever it is better (positions counted once).

    The observed differences spread more than the true ones by the rollouts' own noise (see
    :func:`difference`), so the true variance is the observed one less the mean noise variance.
    With the differences normal, ``mean m`` and spread ``s``, the oracle gains
    ``E[max(0, d)] = s phi(m / s) + m Phi(m / s)``: an estimate under that model.
    """
    diffs, noise = zip(*(difference(a, b) for a, b in pairs)) if pairs else ((), ())
    if len(diffs) < 2:
        return float("nan"), float("nan")
    mean = sum(diffs) / len(diffs)
    observed = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    spread = math.sqrt(max(0.0, observed - sum(noise) / len(noise)))
    if spread == 0:
        return 0.0, max(0.0, mean)
    z = mean / spread
    phi = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    return spread, spread * phi + mean * (1 + math.erf(z / math.sqrt(2))) / 2


def weighted(values: list[float], weights: list[int]) -> tuple[float, float]:
    """Mean over the guesses (a position counted as often as met) and its standard error (over
    positions)."""
    total = sum(weights)
    mean = sum(v * w for v, w in zip(values, weights)) / total
    if len(values) < 2:
        return mean, float("nan")
    var = sum(w * (v - mean) ** 2 for v, w in zip(values, weights)) / total
    effective = total ** 2 / sum(w * w for w in weights)
    return mean, math.sqrt(var / max(1.0, effective - 1))


FEWER = (50, 100, 200, 300)
"""Layouts per candidate on which the chooser is also tried (those under half of them)."""


def report(items: list[dict], met: Counter[str], games: int) -> None:
    weights = [met[item["position"]] for item in items]
    guesses = sum(weights)
    print(f"{len(items)} positions ({guesses} guesses outside the endgame searches in {games} "
          f"games), {len(items[0]['outcomes'][0])} layouts each")
    for phase, keep in (("all", lambda u: True), ("opening (more than 400 hidden cells)",
                                                  lambda u: u > 400),
                        ("the rest", lambda u: u <= 400)):
        chosen = [(item, w) for item, w in zip(items, weights) if keep(item["hidden"])]
        if not chosen or (phase != "all" and len(chosen) == len(items)):
            continue  # nothing there, or all of it (small boards have no opening this big)
        sub_items, sub_w = zip(*chosen)
        print(f"{phase}: {len(sub_items)} positions, {sum(sub_w)} guesses")
        rate = lambda o: o.count("1") / len(o)
        base, se = weighted([rate(i["outcomes"][0]) for i in sub_items], list(sub_w))
        print(f"  best's guess wins {base:.2%} (+- {se:.2%})")
        most = max(len(i["outcomes"]) for i in sub_items)
        for k in range(1, most):
            having = [i for i in sub_items if len(i["outcomes"]) > k]
            if having:
                diffs = [rate(i["outcomes"][k]) - rate(i["outcomes"][0]) for i in having]
                mean, se = weighted(diffs, [met[i["position"]] for i in having])
                spread, oracle = true_spread([(i["outcomes"][0], i["outcomes"][k])
                                              for i in having])
                print(f"  candidate {k + 1} minus best's guess: {mean:+.2%} (+- {se:.2%}) over "
                      f"{sum(met[i['position']] for i in having)} guesses; spread between "
                      f"positions {spread:.2%}, an oracle taking it when better {oracle:+.2%}")
        for gated in (False, True):
            gains = [chooser_gain(i["outcomes"], gated) for i in sub_items]
            mean, se = weighted(gains, list(sub_w))
            per_game = mean * sum(sub_w) / games
            print(f"  rollout chooser{' (gated)' if gated else ''}: {mean:+.2%} (+- {se:.2%}) "
                  f"per guess, {per_game:+.2%} per game")
        fewer = [size for size in FEWER if size < len(sub_items[0]["outcomes"][0]) // 2]
        if fewer:
            found = []
            for size in fewer:
                gains = [chooser_gain(i["outcomes"], False, size) for i in sub_items]
                mean, se = weighted(gains, list(sub_w))
                found.append(f"{size}: {mean:+.2%} (+- {se:.2%})")
            print(f"  rollout chooser on fewer layouts per candidate, per guess: "
                  f"{', '.join(found)}")


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--difficulty", default="expert",
                        choices=["beginner", "intermediate", "expert"])
    parser.add_argument("--rules", default="safe-cell", choices=["safe-cell", "safe-opening"],
                        help="the first-click rule; its first click (0, 0), or (3, 3) with an "
                             "opening")
    parser.add_argument("--games", type=COUNT, default=100)
    parser.add_argument("--seed", type=SEED, default=240000)
    parser.add_argument("--top", type=whole(2), default=3)
    parser.add_argument("--layouts", type=COUNT, default=400)
    parser.add_argument("--jobs", type=JOBS, default=1)
    parser.add_argument("--output", type=new_file, default=None,
                        help="the rollouts, one JSON line per position (default "
                             "benchmarks/results/rollout-gain-DIFFICULTY-seedSEED.jsonl, "
                             "-DIFFICULTY-opening- with an opening)")
    args = parser.parse_args(argv)
    if args.layouts % 2:
        parser.error(f"argument --layouts: an even number, got {args.layouts} (half of the "
                     "layouts choose, the other half score)")
    spec = PlaySpec.standard(args.difficulty, rules=args.rules)
    board = args.difficulty + ("-opening" if args.rules == "safe-opening" else "")
    output = Path(args.output or Path(__file__).resolve().parent / "results" /
                  f"rollout-gain-{board}-seed{args.seed}.jsonl")
    met = guess_positions(spec, args.games, args.seed)
    try:
        done = saved(output, lambda item: len(item["outcomes"][0]) == args.layouts)
    except (OSError, ValueError) as error:
        print(f"error: {error} (to start again, another --output)", file=sys.stderr)
        sys.exit(2)
    todo = [text for text in met if text not in done]
    print(f"{len(met)} positions, {len(todo)} to play out", file=sys.stderr)
    calls = [(text, args.top, args.layouts, args.seed) for text in todo]
    for item in play_and_save(output, args.jobs, play_out, calls):
        done[item["position"]] = item
    items = [done[text] for text in met if len(done[text]["outcomes"]) >= 2]
    if not items:
        print("no guess with two candidates outside the endgame searches")
        return
    report(items, met, args.games)


if __name__ == "__main__":
    main()
