"""Rollouts: play a position out on layouts drawn from it, to tell guesses apart by wins.

A guess is worth the chance of winning the game after it. :func:`rollouts` draws layouts
uniformly from the position (:class:`~msanalysis.sampling.LayoutSampler`, exact), makes each
candidate guess on each layout, plays the rest of the game with a strategy, and counts the wins.
Every candidate is played on the same layouts, so their difference is measured without the luck
of the deal; :func:`race` spends rollouts in rounds and drops a candidate as soon as the sign
test on the layouts that tell two candidates apart says it is behind. Building the opening book
(:mod:`msanalysis.play.book`) is what they are for: far too slow for every guess of every game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from msanalysis.board import Board, Cell, as_count, as_pair
from msanalysis.constraints import build
from msanalysis.errors import (
    InvalidInput,
    WrongType,
    as_real,
    check_function,
    check_list,
    check_type,
)
from msanalysis.game import Game
from msanalysis.play.autoplay import Strategy, autoplay
from msanalysis.play.bench import Paired
from msanalysis.position import Position
from msanalysis.rules import as_seed
from msanalysis.sampling import LayoutSampler

__all__ = ["Race", "game_on", "race", "rollouts"]


def game_on(position: Position, mines: frozenset[Cell]) -> Game:
    """A game on the layout ``mines`` (every mine of the board), at ``position``.

    The position's revealed cells are revealed again (their cascades reach no further than the
    position shows, since the layout agrees with it); flags are not placed.

    Examples
    --------
    >>> p = Position.from_text("mines: 2\\n???\\n1??")
    >>> game = game_on(p, frozenset({(0, 1), (1, 2)}))
    >>> game.position() == p, game.status
    (True, 'playing')
    """
    check_type(position, Position, "game_on", "Position.from_text reads one")
    check_list(mines, "mines is a set of cells")
    game = Game(Board.from_cells(position.height, position.width, mines), rules="unsafe")
    for cell in sorted(position.revealed):
        if not game.is_revealed(cell):
            game.reveal(cell)
    return game


def rollouts(position: Position, candidates: Sequence[Cell], strategy: Callable[[], Strategy],
             layouts: Sequence[frozenset[Cell]]) -> np.ndarray:
    """Which candidate guesses win on which layouts: a bool array ``[candidate, layout]``.

    Each game reveals the candidate first, then is played to its end by a fresh
    ``strategy()``. A candidate that is a mine in a layout loses there. ``layouts`` are the
    mines among the unknown cells (as :meth:`LayoutSampler.draw` gives them); the position's
    known mines are added.

    Examples
    --------
    >>> from msanalysis.play.strategies import make_strategy
    >>> p = Position.from_text("mines: 1\\n??\\n11")
    >>> rollouts(p, [(0, 0), (0, 1)], lambda: make_strategy("best"),
    ...          [frozenset({(0, 0)}), frozenset({(0, 1)})]).tolist()
    [[False, True], [True, False]]

    Notes
    -----
    One game per candidate and layout, played to its end: about a game's time each.
    """
    check_type(position, Position, "rollouts", "Position.from_text reads one")
    if not callable(strategy):
        raise WrongType(f"strategy makes a strategy when called, got {strategy!r}")
    check_list(candidates, "candidates is a list of cells")
    check_list(layouts, "layouts is a list of layouts (each the set of its mines)")
    for mines in layouts:
        check_list(mines, "a layout is the set of its mines")
    candidates = [as_pair(cell) for cell in candidates]
    layouts = [frozenset(map(as_pair, mines)) for mines in layouts]
    hidden = position.hidden
    for cell in candidates:
        if cell not in hidden:
            raise InvalidInput(f"the candidate {cell} is not a hidden cell of the position")
    known = build(position).known_mines
    won = np.zeros((len(candidates), len(layouts)), dtype=bool)
    for j, mines in enumerate(layouts):
        for i, cell in enumerate(candidates):
            if cell in mines:
                continue
            game = game_on(position, mines | known)
            game.reveal(cell)
            if game.status == "playing":
                autoplay(game, strategy())
            won[i, j] = game.status == "won"
    return won


@dataclass
class Race:
    """Candidates played on the same layouts, round after round, the losers dropped.

    Attributes
    ----------
    candidates : list of (row, col)
    outcomes : list of str
        Per candidate, one character per layout it was played on: ``1`` won, ``0`` lost (a
        dropped candidate stops, so its string is shorter).
    dropped : dict
        Candidate -> ``(the candidate it lost to, sign-test p)``.
    rounds : int
        Rounds played; round ``r`` draws its layouts from ``random.Random(f"{seed}/{r}")``, so
        a race saved and continued gives the race run at once.
    """

    candidates: list[Cell]
    outcomes: list[str]
    dropped: dict[Cell, tuple[Cell, float]] = field(default_factory=dict)
    rounds: int = 0

    @classmethod
    def start(cls, candidates: Sequence[Cell]) -> Race:
        check_list(candidates, "a race's candidates are a list of cells")
        cells = [as_pair(cell) for cell in candidates]
        return cls(cells, [""] * len(cells))

    @property
    def alive(self) -> list[Cell]:
        return [c for c in self.candidates if c not in self.dropped]

    @property
    def wins(self) -> list[int]:
        return [o.count("1") for o in self.outcomes]

    @property
    def played(self) -> list[int]:
        return [len(o) for o in self.outcomes]

    @property
    def leader(self) -> Cell:
        """The candidate still in the race with the highest win rate (ties: the first)."""
        return max(self.alive, key=lambda c: (self.rate(c), -self.candidates.index(c)))

    def rate(self, cell: Cell) -> float:
        i = self._index(cell)
        return self.wins[i] / self.played[i] if self.played[i] else 0.0

    def versus(self, a: Cell, b: Cell) -> Paired:
        """``a`` against ``b`` on the layouts both were played on."""
        x = self.outcomes[self._index(a)]
        y = self.outcomes[self._index(b)]
        n = min(len(x), len(y))
        pairs = list(zip(x[:n], y[:n]))
        return Paired(n, x[:n].count("1"), y[:n].count("1"), pairs.count(("1", "0")),
                      pairs.count(("0", "1")))

    def _index(self, cell: Cell) -> int:
        """Where ``cell`` is among the candidates; refused when it is not one."""
        try:
            return self.candidates.index(cell)
        except ValueError:
            raise InvalidInput(f"{cell!r} is not a candidate of the race: "
                               f"{self.candidates}") from None


def race(position: Position, candidates: Sequence[Cell] | Race,
         strategy: Callable[[], Strategy], *, rounds: int, per_round: int, seed: int,
         alpha: float = 0.01, on_round: Callable[[Race], None] | None = None) -> Race:
    """Rollouts in rounds; after each, a candidate behind the leader is dropped when the sign
    test (on the layouts where exactly one of the two won) gives p below
    ``alpha / (rounds * (candidates - 1))``.

    The test is repeated after every round and against every other candidate; dividing
    ``alpha`` by the number of such tests (Bonferroni) keeps the chance of dropping a candidate
    as good as the leader below ``alpha`` for the whole race. Stops when ``rounds`` rounds have
    been played in all or one candidate is left. Pass a :class:`Race` instead of the candidates
    to continue it (with the same ``seed``, ``per_round`` and ``rounds``).

    Examples
    --------
    >>> from msanalysis.play.strategies import make_strategy
    >>> p = Position.from_text("mines: 3\\n1????\\n" + "?????\\n" * 3 + "?????")
    >>> r = race(p, [(0, 1), (4, 4)], lambda: make_strategy("best"), rounds=3, per_round=20,
    ...          seed=1)
    >>> r.leader, r.wins, r.played, sorted(r.dropped)
    ((4, 4), [8, 19], [20, 20], [(0, 1)])

    Notes
    -----
    At most ``rounds * per_round`` games per candidate (see :func:`rollouts`); the layouts
    cost a draw each (:class:`~msanalysis.sampling.LayoutSampler`).
    """
    check_type(position, Position, "race", "Position.from_text reads one")
    state = candidates if isinstance(candidates, Race) else Race.start(candidates)
    if not state.candidates or len(set(state.candidates)) < len(state.candidates):
        raise InvalidInput(f"a race needs candidates, each once, got {state.candidates}")
    rounds, per_round = as_count(rounds, "rounds", 1), as_count(per_round, "per_round", 1)
    if as_seed(seed) is None:
        raise InvalidInput("a race draws its layouts from a seed: give one")
    if not 0 < as_real(alpha) < 1:
        raise InvalidInput(f"alpha is a probability above 0 and below 1, got {alpha!r}")
    if not callable(strategy):
        raise WrongType(f"a race's strategy is a function that makes one (lambda: "
                        f"make_strategy(\"best\")), got {strategy!r}")
    check_function(on_round, "on_round is a function of the race")
    threshold = alpha / (rounds * max(1, len(state.candidates) - 1))
    sampler = LayoutSampler(build(position))
    while state.rounds < rounds and len(state.alive) > 1:
        rng = random.Random(f"{seed}/{state.rounds}")
        layouts = [sampler.draw(rng) for _ in range(per_round)]
        alive = state.alive
        won = rollouts(position, alive, strategy, layouts)
        for row, cell in zip(won, alive):
            i = state.candidates.index(cell)
            state.outcomes[i] += "".join("1" if w else "0" for w in row.tolist())
        state.rounds += 1
        leader = state.leader
        for cell in alive:
            if cell != leader:
                p = state.versus(leader, cell).p_value
                if p < threshold:
                    state.dropped[cell] = (leader, p)
        if on_round is not None:
            on_round(state)
    return state
