"""Where ``best`` guesses and where it loses: its guesses sorted by the kind of position.

Plays ``--games`` seeded games (``safe-cell`` from (0, 0), or ``--rules safe-opening`` from
(3, 3)) with ``best`` and sorts every guess by the position it is made in:

- *opening*: more than 5/6 of the cells hidden (400 on expert), where guesses go into the sea;
- *exact endgame*: at most ``endgame_layouts`` (3,000) layouts left, where ``best`` plays the
  exact search (:mod:`msanalysis.play.endgame`) and cannot do better;
- *drawn endgame*: at most ``drawn_endgame`` (100,000), where it plays that search on layouts
  drawn from the position;
- *between*: the rest, by the number of layouts left (up to a million, and more).

For each kind it prints the guesses made and the games lost on them (the last guess of a lost
game). A change to ``best`` can gain only where games are lost and ``best`` is not yet exact.

    python benchmarks/losses.py --difficulty expert --games 2000 --seed 430000

About 30 s for 2,000 expert games on one core.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from arguments import COUNT, SEED, Parser

from msanalysis.game import Game
from msanalysis.play.autoplay import Move, autoplay
from msanalysis.play.best import BestStrategy
from msanalysis.position import Position
from msanalysis.rules import DIFFICULTIES, default_first_click, generate

KINDS = ("opening", "exact endgame", "drawn endgame", "between, at most 1,000,000 layouts",
         "between, more than 1,000,000 layouts")


class _Recording(BestStrategy):
    """``best``, noting the kind of position of each guess it makes."""

    def __init__(self, cells: int) -> None:
        super().__init__()
        self.cells = cells
        self.kinds: list[str] = []

    def guess(self, position: Position, analysis: Any) -> Move:
        self.kinds.append(kind(len(position.hidden), self.cells, analysis.solutions, self))
        return super().guess(position, analysis)


def kind(hidden: int, cells: int, layouts: int, strategy: BestStrategy) -> str:
    """The kind of position a guess is made in (see the module); the endgames are where
    ``strategy`` runs its searches."""
    if 6 * hidden > 5 * cells:
        return KINDS[0]
    search = strategy.endgame_search(layouts)
    if search is not None:
        return KINDS[1] if search == "exact" else KINDS[2]
    return KINDS[3] if layouts <= 1_000_000 else KINDS[4]


def tally(difficulty: str, games: int, seed: int,
          rules: str = "safe-cell") -> tuple[int, Counter[str], Counter[str]]:
    """Games won, and per kind of position the guesses made and the games lost on them (first
    click where ``rules`` starts by default: (0, 0), or (3, 3) for safe-opening)."""
    width, height, mines = DIFFICULTIES[difficulty]
    first = default_first_click(rules, width=width, height=height)
    guesses: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    won = 0
    for s in range(seed, seed + games):
        game = Game(generate(width, height, mines, rules=rules, first_click=first, seed=s),
                    rules=rules)
        game.reveal(first)
        strategy = _Recording(width * height)
        played = autoplay(game, strategy)
        guesses.update(strategy.kinds)
        won += played.won
        if not played.won:  # lost on its last guess: forced cells are safe
            lost[strategy.kinds[-1]] += 1
    return won, guesses, lost


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--difficulty", choices=sorted(DIFFICULTIES), default="expert")
    parser.add_argument("--games", type=COUNT, default=2000)
    parser.add_argument("--seed", type=SEED, default=430000)
    parser.add_argument("--rules", choices=["safe-cell", "safe-opening"], default="safe-cell")
    args = parser.parse_args()
    won, guesses, lost = tally(args.difficulty, args.games, args.seed, args.rules)
    row, col = default_first_click(args.rules)
    print(f"{args.difficulty} ({args.rules}, first click {row},{col}), seeds {args.seed} .. "
          f"{args.seed + args.games - 1}: {won} of {args.games} won, "
          f"{sum(guesses.values())} guesses")
    print(f"  {'position of the guess':38s} {'guesses':>8s} {'games lost':>11s} (per guess)")
    for name in KINDS:
        share = f"({lost[name] / guesses[name]:.1%})" if guesses[name] else ""
        print(f"  {name:38s} {guesses[name]:8d} {lost[name]:11d} {share}")


if __name__ == "__main__":
    main()
