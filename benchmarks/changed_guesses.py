"""Where a variant of ``best`` guesses differently: both guesses played out on the same layouts.

A variant that changes one game in a thousand cannot be told from ``best`` by paired games: too
few games differ for the sign test (``paired.py``'s interval stays wide). This looks at the
guesses instead. It plays ``--games`` games with ``best``; at every guess it asks the variant
(``--b``: ``name=value`` options of ``best``, as ``paired.py`` takes them) for its guess in the
same position, and where the two differ it plays both guesses out with ``best`` on the same
``--layouts`` layouts drawn uniformly from the position (:func:`rollout_gain.played_out`). It
prints how many guesses differ, the variant's guess's win rate minus ``best``'s over them (a
position counted as often as met), the sign test over the positions (won more on the
variant's side, or fewer), and what that comes to per game.

That is the worth of one deviation, the variant's guess followed by ``best``'s play: the
variant's own play after it, and positions only the variant reaches, are not counted (a game's
first deviation is met as the variant meets it; its later ones are not).

    python benchmarks/changed_guesses.py --b margin=0.2 --games 1000 --seed 900000 --jobs 2

``--variant-games`` walks the variant's own games instead and asks ``best`` at each of their
guesses; the rollouts are still ``best``'s. Summed along the variant's games, those differences
are in expectation exactly the variant's win rate minus ``best``'s, later deviations included
(the performance difference lemma: a policy's value minus another's is the other's advantage
of the first one's moves, summed along the first one's own games).

    python benchmarks/changed_guesses.py --b block_missing=1 --variant-games --games 2000

``--a`` gives ``best`` itself options (it plays the games and the rollouts with them): a
variant measured against another, not against the default.

    python benchmarks/changed_guesses.py --a block_missing=1 --b block_missing=2 --games 2000

With ``--java DIR`` the variant is the Java solver instead, compiled in ``DIR`` (see
``java_solver.py``): its guess in each of ``best``'s positions against ``best``'s. With
``--java-games`` as well, the positions are those of the Java solver's own games (each followed
on our side, its guesses made as it made them) and ``best`` is asked at each of its guesses:
its guesses against ``best``'s where the Java solver's play leads, not ``best``'s.

    python benchmarks/changed_guesses.py --java build/java/classes --java-games --games 300

``--by-kind`` then sorts the positions by kind (:func:`kind_of`: the first guess, the opening,
the endgame searches, and past them whether ``best``'s look ahead values the variant's cell as
its own guess, lower, or not at all) and prints the same figures for each kind: where a
variant's gain or loss lies.

The rollouts are saved as they finish, one JSON line per position, in ``--output``; the same
command again plays only the positions missing. ``--report FILE...`` plays nothing: it pools the
positions saved in several such files, each position once, and prints the same figures per
changed guess and the sign test over them (a file does not say how many games its run played,
so there is no figure per game). Not part of ``make bench``.

    python benchmarks/changed_guesses.py --report changed-guesses-*.jsonl
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import losses
from arguments import COUNT, JOBS, SEED, Parser, existing_file, new_file
from java_solver import Driver, JavaSolver, at_java_guesses
from paired import variant
from rollout_gain import (
    at_best_guesses,
    difference,
    play_and_save,
    played_out,
    read_rollouts,
    saved,
    weighted,
)

from msanalysis.analysis import analyze
from msanalysis.board import Cell
from msanalysis.play.autoplay import Move
from msanalysis.play.bench import Paired, PlaySpec
from msanalysis.play.best import BestStrategy
from msanalysis.play.strategies import make_strategy
from msanalysis.play.unavoidable import unavoidable_cells
from msanalysis.position import Position

Changed = dict[str, tuple[Cell, Cell]]
"""Per position (as text): ``best``'s guess there and the variant's."""


def differing(spec: PlaySpec, seeds: range, java: Path | None = None,
              own_games: bool = False, options: dict[str, Any] | None = None,
              ) -> tuple[Counter[str], Changed, int, int]:
    """Along ``best``'s games of ``seeds`` (with ``options``, its defaults if None): the
    positions where the variant of ``spec`` (or the Java solver compiled in ``java``) guesses
    differently (with how often they are met), the two guesses (``best``'s first), and how many
    guesses were made. With ``own_games``, along the variant's own games instead (the Java
    solver's, or ``best``'s with ``spec``'s options), ``best`` asked at each of their guesses;
    and how many of the Java solver's games could not be followed (see
    :func:`java_solver.at_java_guesses`)."""
    met: Counter[str] = Counter()
    changed: Changed = {}
    guesses = 0
    if own_games:
        asked: Any = make_strategy("best", **(options or {}))
    elif java is None:
        asked = make_strategy(spec.strategy, **dict(spec.options))
    else:
        asked = JavaSolver(java)

    def seen(position: Position, analysis: Any, move: Move) -> None:
        nonlocal guesses
        guesses += 1
        moves = asked.choose(position, analysis)  # no cell is forced: a guess
        cell = moves[0].cell if moves else move.cell  # nothing to reveal: nothing to compare
        if cell != move.cell:
            text = position.to_text()
            met[text] += 1
            changed[text] = (cell, move.cell) if own_games else (move.cell, cell)

    astray = 0
    if own_games and java is not None:
        astray = at_java_guesses(java, spec, seeds, seen)
    elif own_games:
        at_best_guesses(spec, seeds, seen, dict(spec.options))
    else:
        at_best_guesses(spec, seeds, seen, options)
    return met, changed, guesses, astray


def play_out(text: str, cells: tuple[Cell, Cell], layouts: int, seed: int,
             options: dict[str, Any] | None = None) -> dict:
    """Both guesses of one position played out (``best``'s first; ``best`` with ``options``)."""
    position = Position.from_text(text)
    return {"position": text, "guesses": [list(c) for c in cells],
            "outcomes": played_out(position, list(cells), layouts, seed, options)}


def figures(items: list[dict], weights: list[int]) -> tuple[int, float, float, int, int]:
    """Over the positions ``items``, each met as often as its weight: the guesses met there,
    the variant's guess minus ``best``'s per changed guess and its standard error, and the
    positions where it won more and fewer."""
    diffs = [difference(*item["outcomes"])[0] for item in items]
    mean, se = weighted(diffs, weights)
    return sum(weights), mean, se, sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)


def spread(se: float) -> str:
    """`` (+- SE)`` after a mean, or nothing when there is no standard error (one position)."""
    return f" (+- {se:.2%})" if math.isfinite(se) else ""


def met_in(items: list[dict], met: Counter[str]) -> list[int]:
    """How often each of the positions ``items`` was met."""
    return [met[item["position"]] for item in items]


def report(items: list[dict], met: Counter[str], games: int, guesses: int) -> None:
    changed, mean, se, more, fewer = figures(items, met_in(items, met))
    print(f"{guesses} guesses in {games} games; the variant guesses differently at "
          f"{changed} of them ({len(items)} positions), "
          f"{len(items[0]['outcomes'][0])} layouts each")
    p = Paired(len(items), 0, 0, fewer, more).p_value
    print(f"  the variant's guess minus best's: {mean:+.2%} (+- {se:.2%}) per changed guess; "
          f"it won more in {more} positions, fewer in {fewer} (sign test p = {p:.3f})")
    print(f"  per game: {mean * changed / games:+.3%}")


NEAR = 0.002
"""How close the look ahead's values of two cells are for :func:`kind_of` to call them equal
(the studies' "ties", docs/PLAY-STUDIES.md)."""


def kinds(best: BestStrategy) -> list[str]:
    """The kinds of position :func:`kind_of` tells apart, in the order it tells them."""
    return ["the first guess (one cell revealed)",
            "every other",
            "in the opening (more than 5/6 of the cells hidden)",
            f"past it, exact endgames (at most {best.endgame_layouts:,} layouts)",
            f"past it, {best.endgame_layouts:,} to {best.drawn_endgame:,} layouts (the search "
            f"on drawn layouts)",
            f"past it, more than {best.drawn_endgame:,} layouts",
            "of those, best's guess an unavoidable one",
            f"of those, a cell the look ahead values within {NEAR} of best's guess",
            f"of those, a cell the look ahead values lower by {NEAR} or more",
            "of those, a cell the look ahead does not consider"]


def kind_of(text: str, cells: tuple[Cell, Cell], best: BestStrategy) -> tuple[str, ...]:
    """The kind of a position where ``best``'s guess and the variant's differ (``cells``, in
    that order), from the broadest to the narrowest (see :func:`kinds`).

    The first guess (one cell revealed: a game from a safe corner whose click showed a number);
    in the opening (more than 5/6 of the cells hidden); past it by the layouts left: ``best``'s
    exact endgame, its search on drawn layouts, or more, where its guess is an unavoidable one or
    its look ahead (:meth:`~msanalysis.play.best.BestStrategy.ranked`) values the variant's
    cell within :data:`NEAR` of its guess, lower, or does not consider it.

    Examples
    --------
    >>> p = "mines: 10\\n1" + "?" * 8 + "\\n" + "\\n".join(["?" * 9] * 8)
    >>> kind_of(p, ((0, 8), (8, 8)), BestStrategy())
    ('the first guess (one cell revealed)',)
    """
    names = kinds(best)
    position = Position.from_text(text)
    hidden, cells_in_all = len(position.hidden), position.shape[0] * position.shape[1]
    if cells_in_all - hidden == 1:
        return (names[0],)
    analysis = analyze(position)
    # The opening and the endgame searches as losses.py tells them; its two kinds between are one.
    phase = losses.KINDS.index(losses.kind(hidden, cells_in_all, analysis.solutions, best))
    if phase < 3:
        return (names[1], names[2 + phase])
    if best.unavoidable and unavoidable_cells(analysis):
        return (names[1], names[5], names[6])
    values = dict(best.ranked(position, analysis))
    own, other = values.get(cells[0]), values.get(cells[1])
    if other is None:
        return (names[1], names[5], names[9])
    if own is None or own - other < NEAR:  # own None: best's guess is not a look ahead's
        return (names[1], names[5], names[7])
    return (names[1], names[5], names[8])


def report_by_kind(items: list[dict], met: Counter[str], games: int,
                   best: BestStrategy) -> None:
    """The figures of :func:`report` for each kind of position (:func:`kind_of`), every kind
    under the broader one it belongs to."""
    groups: dict[tuple[str, ...], list[dict]] = {}
    for item in items:
        (row, col), (other_row, other_col) = item["guesses"]
        kind = kind_of(item["position"], ((row, col), (other_row, other_col)), best)
        for depth in range(1, len(kind) + 1):
            groups.setdefault(kind[:depth], []).append(item)
    order = kinds(best)
    print("by kind of position: positions (guesses), the variant's guess minus best's per "
          "changed guess, won more / fewer, per game")
    for kind in sorted(groups, key=lambda k: [order.index(part) for part in k]):
        changed, mean, se, more, fewer = figures(groups[kind], met_in(groups[kind], met))
        print(f"  {'  ' * (len(kind) - 1)}{kind[-1]}: {len(groups[kind])} ({changed}), "
              f"{mean:+.2%}{spread(se)}, {more} / {fewer}, {mean * changed / games:+.3%} a game")


def report_saved(paths: list[Path]) -> None:
    """The positions saved in the files ``paths`` pooled, each once (a position met in two
    files counts twice: its rollouts there were drawn apart): the variant's guess minus
    ``best``'s per changed guess and the sign test over them, for each file and all together.

    Raises
    ------
    OSError, ValueError
        Naming the file (and line) that cannot be read as positions played out.
    """
    pooled: list[dict] = []
    for path in paths:
        items = read_rollouts(path, keys=("guesses",))
        pooled += items
        _report_pool(str(path), items)
    if len(paths) > 1:
        _report_pool(f"the {len(paths)} files together", pooled)


def _report_pool(name: str, items: list[dict]) -> None:
    if not items:
        print(f"{name}: no positions")
        return
    _, mean, se, more, fewer = figures(items, [1] * len(items))
    p = Paired(len(items), 0, 0, fewer, more).p_value
    print(f"{name}: {len(items)} positions, the variant's guess minus best's "
          f"{mean:+.2%}{spread(se)} per changed guess; it won more in {more}, fewer in {fewer} "
          f"(sign test p = {p:.4f})")


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--difficulty", default="expert", help="beginner, intermediate or expert")
    parser.add_argument("--rules", default="safe-cell", help="the first-click rule")
    parser.add_argument("--a", nargs="*", default=[], metavar="NAME=VALUE",
                        help="best's own options (its games and rollouts)")
    parser.add_argument("--b", nargs="*", default=[], metavar="NAME=VALUE",
                        help="the variant's options")
    parser.add_argument("--games", type=COUNT, default=1000)
    parser.add_argument("--seed", type=SEED, default=900000)
    parser.add_argument("--layouts", type=COUNT, default=1200)
    parser.add_argument("--jobs", type=JOBS, default=1)
    parser.add_argument("--java", type=Path, default=None, metavar="DIR",
                        help="the variant is the Java solver compiled in DIR (java_solver.py)")
    parser.add_argument("--java-games", action="store_true",
                        help="with --java: along its own games, best asked at its guesses")
    parser.add_argument("--variant-games", action="store_true",
                        help="along the games of best with --b's options, best (with --a's) "
                             "asked at their guesses")
    parser.add_argument("--output", type=new_file, default=None,
                        help="the rollouts, one JSON line per position (default "
                             "changed-guesses-VARIANT-DIFFICULTY-RULES-seedSEED.jsonl here)")
    parser.add_argument("--by-kind", action="store_true",
                        help="the figures again for each kind of position (kind_of)")
    parser.add_argument("--report", nargs="+", type=existing_file, default=None,
                        metavar="FILE",
                        help="play nothing: the positions saved in these files pooled")
    args = parser.parse_args(argv)
    if args.report:
        if args.a or args.b or args.java is not None:
            parser.error("--report plays nothing: it takes no --a, --b or --java")
        try:
            report_saved(args.report)
        except (OSError, ValueError) as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(2)
        return
    spec = variant(args.b, args.difficulty, args.rules)
    base = variant(args.a, args.difficulty, args.rules) if args.a else None
    if base is not None and base.strategy != "best":
        parser.error("--a: best is the one played; give it options only")
    if args.variant_games and args.java is not None:
        parser.error("--variant-games and --java: the Java solver's own games are --java-games")
    if args.java is not None:
        if args.b:
            parser.error("--java and --b: the variant is one or the other")
        if args.a:
            parser.error("--java and --a: the Java solver is played against best's defaults")
        try:
            Driver(args.java, "Play" if args.java_games else "Ask")
        except FileNotFoundError as error:
            parser.error(str(error))
    elif args.java_games:
        parser.error("--java-games: the Java solver's games need --java DIR")
    if args.variant_games and spec.strategy != "best":
        parser.error("--variant-games: the variant's games are best's, with --b's options")
    if args.java is not None:
        tag = "java-games" if args.java_games else "java"
    else:
        tag = spec.file_tag if base is None else f"{spec.file_tag}-against-{base.file_tag}"
        if args.variant_games:
            tag += "-games"
    options = None if base is None else dict(base.options)
    output = Path(args.output or f"changed-guesses-{tag}-{spec.name}-{args.rules}-"
                                 f"seed{args.seed}.jsonl")
    size = -(-args.games // args.jobs)
    chunks = [range(s, min(s + size, args.seed + args.games))
              for s in range(args.seed, args.seed + args.games, size)]
    met: Counter[str] = Counter()
    changed: Changed = {}
    guesses = astray = 0
    try:
        with ProcessPoolExecutor(args.jobs) as pool:
            for part_met, part_changed, part_guesses, part_astray in pool.map(
                    differing, [spec] * len(chunks), chunks, [args.java] * len(chunks),
                    [args.java_games or args.variant_games] * len(chunks),
                    [options] * len(chunks)):
                met.update(part_met)
                changed.update(part_changed)
                guesses += part_guesses
                astray += part_astray
    except RuntimeError as error:  # the Java solver failed (its message names the position)
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    # Kept only if played out as asked now: the same layouts, the same two guesses.
    try:
        done = saved(output, lambda item: len(item["outcomes"][0]) == args.layouts and
                     [tuple(c) for c in item["guesses"]] == list(changed.get(item["position"], ())),
                     keys=("guesses",))
    except (OSError, ValueError) as error:
        print(f"error: {error} (to start again, another --output)", file=sys.stderr)
        sys.exit(2)
    if astray:
        print(f"{astray} of the Java solver's games could not be followed to the same end on "
              f"our side: their guesses up to there are counted", file=sys.stderr)
    todo = [text for text in met if text not in done]
    print(f"{len(met)} positions where the guesses differ, {len(todo)} to play out",
          file=sys.stderr)
    if not met:
        print(f"{guesses} guesses in {args.games} games; the variant guesses as best does "
              f"at every one")
        return
    calls = [(text, changed[text], args.layouts, args.seed, options) for text in todo]
    for item in play_and_save(output, args.jobs, play_out, calls):
        done[item["position"]] = item
    report([done[text] for text in met], met, args.games, guesses)
    if args.by_kind:
        report_by_kind([done[text] for text in met], met, args.games,
                       BestStrategy(**(options or {})))


if __name__ == "__main__":
    main()
