"""Judging a replay click by click: was each opened cell forced safe, a needed guess, or not?

:func:`analyze_replay` plays a :class:`~msanalysis.replay.Replay` back and, for every action
that opens cells, looks at the position the player saw just before it, with the total mine count
known and the player's flags ignored (a flag is the player's opinion; the numbers are the
truth). Each cell the action opened directly (one for a reveal; each covered neighbour for a
chord) gets a :class:`Verdict`; cells a cascade opens after it are not judged. The result, a
:class:`ReplayAnalysis`, adds the exact probability of surviving every click, the luck in bits,
3BV and speed, converts to JSON and to a pandas DataFrame, and draws itself in Jupyter.

Probabilities treat every layout consistent with the position as equally likely, which is
exact for the ``safe-cell`` and ``safe-opening`` first-click rules (and for ``unsafe``); for
``windows-xp`` and no-guess boards the programs' own generation is not uniform. The analysis of
each position is one small function (``analyser``), so another analyser (an incremental one that
follows the game) can stand in for :func:`msanalysis.analysis.analyze` without touching the
verdicts. Reading replay files is :mod:`msanalysis.replay`'s job; pictures are
:mod:`msanalysis.svg`'s.
"""

from __future__ import annotations

import itertools
import math
import reprlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

import numpy as np

from msanalysis.board import Cell, neighbours
from msanalysis.errors import (
    AnalysisTooHard,
    InconsistentPosition,
    TimeLimitReached,
    WrongType,
    as_time_limit,
    check_flag,
    check_function,
    check_type,
    deadline_after,
    quantity,
    seconds_left,
    time_is_up,
)
from msanalysis.exact import fraction_text
from msanalysis.game import Game
from msanalysis.obvious import obvious_cells
from msanalysis.play.autoplay import autoplay
from msanalysis.play.noguess import generate
from msanalysis.play.strategies import make_strategy
from msanalysis.position import FLAG, Position
from msanalysis.replay import Action, ActionKind, Replay, ReplayRecorder, position_without_flags
from msanalysis.rules import default_first_click

__all__ = [
    "MAX_CHORD_UNKNOWN",
    "PROTECTED_RULES",
    "Judgement",
    "ReplayAnalysis",
    "Verdict",
    "analyze_replay",
    "from_scratch",
    "record_autoplay",
]

PROTECTED_RULES = frozenset({"safe-cell", "safe-opening", "windows-xp", "no-guess"})
"""First-click rules under which the first click cannot be a mine."""

MAX_CHORD_UNKNOWN = 8
"""A chord opens at most 8 cells; its joint survival takes up to 2**8 - 1 extra counts."""


class Verdict(StrEnum):
    """What opening a cell was, given the position the player saw."""

    FIRST = "first"
    """The first click, judged by the rules of the program that recorded it."""
    SAFE = "safe"
    """The cell was forced safe."""
    GUESS = "guess"
    """No covered cell anywhere was forced safe: the position required a guess."""
    NEEDLESS = "needless"
    """Some cell was forced safe, but not this one."""
    BLUNDER = "blunder"
    """The cell was a forced mine."""


_RISKY = (Verdict.GUESS, Verdict.NEEDLESS, Verdict.BLUNDER)
_T = TypeVar("_T")


@dataclass(frozen=True)
class Judgement:
    """The verdict on one cell a player opened.

    Attributes
    ----------
    index : int
        The action's index in the replay's actions (flags included).
    time : float
        Seconds from the first action.
    kind : ActionKind
        ``reveal`` or ``chord`` (a chord is judged cell by cell).
    cell : (row, col)
        The cell opened (for a chord, one of the covered neighbours of the chorded number).
    verdict : Verdict
    probability : Fraction or None
        The exact probability that the cell held a mine; for the first click, the rule's (0 when
        the rule protects it); None when unknown (rules unknown, or counting out of bounds).
    best_probability : Fraction or None
        For a guess, needless guess or blunder: the lowest mine probability of any covered
        cell at that moment.
    best_cell : (row, col) or None
        A cell with that lowest probability: for a needless guess or a blunder with a forced
        safe cell on the board, the forced safe cell nearest to the click.
    explanation : Explanation or None
        For a needless guess, why ``best_cell`` was safe; for a blunder, why the cell was a
        mine (the minimal clues, see :func:`msanalysis.sat.explain`).
    position : Position or None
        For a guess, needless guess or blunder: the position before the click, flags removed.
    """

    index: int
    time: float
    kind: ActionKind
    cell: Cell
    verdict: Verdict
    probability: Fraction | None
    best_probability: Fraction | None = None
    best_cell: Cell | None = None
    explanation: Any = field(default=None, compare=False)
    position: Position | None = field(default=None, compare=False, repr=False)

    @property
    def is_risky(self) -> bool:
        """True for a guess, a needless guess or a blunder."""
        return self.verdict in _RISKY


def from_scratch(position: Position, time_limit: float | None = None) -> Any:
    """The default analyser: :func:`~msanalysis.analysis.analyze` of one position, counting
    only when a probability is asked for (within ``time_limit`` seconds, if given).

    Examples
    --------
    >>> analysis = from_scratch(Position.from_text("mines: 1\\n??\\n11"))
    >>> analysis.forced_safe, analysis.exact_probability((0, 0))
    (frozenset(), Fraction(1, 2))
    """
    from msanalysis.analysis import analyze  # it loads the solvers

    return analyze(position, forced_only=True, time_limit=time_limit)


def _fraction_text(value: Fraction | None) -> str | None:
    return None if value is None else fraction_text(value)


class ReplayAnalysis:
    """A replay judged click by click (made by :func:`analyze_replay`).

    Attributes
    ----------
    replay : Replay
    judgements : tuple of Judgement
        One per cell opened directly by an action, in order.
    final : Position
        What the board showed at the end.
    status : {"won", "lost", "playing"}
    click_survival : tuple of (int, Fraction or None)
        Per action that opened cells: its index and the exact probability that every cell it
        opened was safe (None when unknown).
    """

    def __init__(self, replay: Replay, judgements: Iterable[Judgement], final: Position,
                 status: str, click_survival: Iterable[tuple[int, Fraction | None]]) -> None:
        self.replay = replay
        self.judgements = tuple(judgements)
        self.final = final
        self.status = status
        self.click_survival = tuple(click_survival)

    # -- the summary ----------------------------------------------------------------------------
    @property
    def won(self) -> bool:
        return self.status == "won"

    @property
    def clicks(self) -> int:
        """Actions that opened cells (reveals, and chords that opened something)."""
        return len(self.click_survival)

    @property
    def verdicts(self) -> dict[str, int]:
        """How many opened cells got each verdict, every verdict present, in a fixed order."""
        counts = dict.fromkeys((v.value for v in Verdict), 0)
        for judgement in self.judgements:
            counts[judgement.verdict.value] += 1
        return counts

    @property
    def guesses(self) -> tuple[Judgement, ...]:
        """The guesses, needless guesses and blunders, in order."""
        return tuple(j for j in self.judgements if j.is_risky)

    @property
    def survival(self) -> Fraction | None:
        """The exact probability of surviving every click the player made (None if unknown).

        For a lost game this includes the fatal click: it is how likely the clicks made were to
        pass, not whether they did.
        """
        result = Fraction(1)
        for _, chance in self.click_survival:
            if chance is None:
                return None
            result *= chance
        return result

    @property
    def luck_bits(self) -> float | None:
        """Minus log2 of :attr:`survival`: the luck the game took, in bits (inf after a forced
        mine, None when unknown)."""
        survival = self.survival
        if survival is None:
            return None
        if survival == 0:
            return math.inf
        # Logarithms of the integers: a ratio of huge integers does not fit a float.
        return math.log2(survival.denominator) - math.log2(survival.numerator)

    @property
    def not_safest(self) -> int:
        """Guesses (verdict ``guess``) whose cell was more likely a mine than the safest one."""
        return sum(1 for j in self.judgements if j.verdict is Verdict.GUESS
                   and j.probability is not None and j.best_probability is not None
                   and j.probability > j.best_probability)

    @property
    def seconds(self) -> float:
        return self.replay.duration

    @property
    def bbbv(self) -> int:
        """The 3BV of the layout."""
        return self.replay.board.bbbv

    @property
    def bbbv_solved(self) -> int:
        """The 3BV done: openings opened plus numbers outside openings revealed."""
        return self.replay.board.bbbv_solved(self.final.states >= 0)

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV done per second of the game (None for a game of no time)."""
        return self.bbbv_solved / self.seconds if self.seconds > 0 else None

    # -- conversions ----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The ``msanalysis replay --json`` object for this replay.

        Probabilities and the survival are exact fractions written ``"p/q"``; ``luck_bits`` is
        None when it is infinite or unknown; ``index`` is the action's index in the replay.
        """
        luck = self.luck_bits
        return {
            "file": self.replay.source,
            "width": self.replay.width,
            "height": self.replay.height,
            "mines": self.replay.mines,
            "won": self.won,
            "clicks": self.clicks,
            "verdicts": self.verdicts,
            "survival": _fraction_text(self.survival),
            "luck_bits": None if luck is None or math.isinf(luck) else luck,
            "guesses": [{"index": j.index, "time": j.time, "cell": list(j.cell),
                         "verdict": j.verdict.value,
                         "probability": _fraction_text(j.probability),
                         "best_probability": _fraction_text(j.best_probability),
                         "best_cell": None if j.best_cell is None else list(j.best_cell)}
                        for j in self.guesses],
            "bbbv": self.bbbv,
            "seconds": self.seconds,
        }

    def to_dataframe(self) -> Any:
        """One row per opened cell judged: a pandas DataFrame (pandas is the ``replays`` extra).

        Columns: ``action`` (index in the replay), ``time``, ``kind``, ``row``, ``col``,
        ``verdict``, ``probability`` and ``best_probability`` (floats, NaN when not known or not
        asked), ``best_row``, ``best_col`` (-1 when none) and ``exact`` (the Fraction).
        """
        try:
            import pandas as pd
        except ImportError:
            raise ModuleNotFoundError("to_dataframe needs pandas: pip install "
                                      "'msanalysis[replays]'", name="pandas") from None

        def number(value: Fraction | None) -> float:
            return math.nan if value is None else float(value)

        rows = [{"action": j.index, "time": j.time, "kind": j.kind.value, "row": j.cell[0],
                 "col": j.cell[1], "verdict": j.verdict.value,
                 "probability": number(j.probability),
                 "best_probability": number(j.best_probability),
                 "best_row": -1 if j.best_cell is None else j.best_cell[0],
                 "best_col": -1 if j.best_cell is None else j.best_cell[1],
                 "exact": j.probability} for j in self.judgements]
        columns = ["action", "time", "kind", "row", "col", "verdict", "probability",
                   "best_probability", "best_row", "best_col", "exact"]
        return pd.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        counts = ", ".join(f"{n} {v}" for v, n in self.verdicts.items() if n)
        survival = self.survival
        chance = "unknown" if survival is None else f"{float(survival):.2%}"
        return (f"<ReplayAnalysis {self.replay.width}x{self.replay.height}/{self.replay.mines} "
                f"{self.status}: {quantity(self.clicks, 'click')} ({counts}), survival {chance}>")

    def _repr_svg_(self) -> str:
        from msanalysis import svg  # lazily: the core does not depend on the pictures

        return svg.replay(self)


def _targets(game: Game, action: Action) -> list[Cell]:
    """The cells ``action`` opens directly, before any cascade (none if it changes nothing)."""
    cell = action.cell
    if action.kind is ActionKind.REVEAL:
        return [] if game.is_revealed(cell) or game.is_flagged(cell) else [cell]
    if action.kind is not ActionKind.CHORD or not game.is_revealed(cell):
        return []
    around = list(neighbours(cell, game.board.height, game.board.width))
    flags = sum(game.is_flagged(c) for c in around)
    if flags != game.board.numbers[cell]:
        return []
    return [c for c in around if not game.is_revealed(c) and not game.is_flagged(c)]


def _nearest(cells: Iterable[Cell], to: Cell) -> Cell:
    return min(cells, key=lambda c: (max(abs(c[0] - to[0]), abs(c[1] - to[1])), c))


def _joint_safety(position: Position, cells: list[Cell], solutions: int,
                  deadline: float | None = None) -> Fraction:
    """The exact probability that none of ``cells`` holds a mine.

    By inclusion-exclusion over the layouts in which a subset of them are all mines: each
    subset is counted as the position with flags on it (flags are mines to the analysis).
    Raises ``AnalysisTooHard`` when counting runs past ``deadline`` (a
    :func:`time.perf_counter` value).
    """
    from msanalysis.analysis import analyze

    free = solutions
    for size in range(1, len(cells) + 1):
        for subset in itertools.combinations(cells, size):
            states = np.array(position.states)
            states[tuple(np.array(subset).T)] = FLAG
            try:
                layouts = analyze(Position(states, position.total_mines),
                                  time_limit=seconds_left(deadline)).solutions
            except InconsistentPosition:
                layouts = 0
            free += (-1) ** size * layouts
    return Fraction(free, solutions)


def _first_probability(replay: Replay) -> Fraction | None:
    if replay.rules in PROTECTED_RULES:
        return Fraction(0)
    if replay.rules == "unsafe":
        return Fraction(replay.mines, replay.width * replay.height)
    return None


def analyze_replay(replay: Replay, *, analyser: Callable[[Position], Any] | None = None,
                   quick_look: bool = True, time_limit: float | None = None) -> ReplayAnalysis:
    """Judge every cell a player opened, and sum the game up.

    Parameters
    ----------
    replay : Replay
    analyser : callable, optional
        Position -> :class:`~msanalysis.analysis.Analysis`, called with the position before each
        click that is not decided at a glance, in game order, flags removed and the mine count
        set. The analysis must give ``forced_safe``, ``forced_mines``, ``exact_probability``,
        ``best_guess``, ``solutions`` and ``explain``. Default: :func:`from_scratch`.
    quick_look : bool
        Judge a click safe without an analysis when a single number decides every cell it
        opens (:func:`msanalysis.obvious.obvious_cells`); False analyses every click (the same
        verdicts, for timing).
    time_limit : float, optional
        Seconds for the whole replay: a replay of thousands of clicks that each need an
        analysis and an explanation can take long, and one position of a huge board too. The
        default analyser, its counts and explanations are given what is left; an analyser of
        your own is only looked at between actions.

    Returns
    -------
    ReplayAnalysis

    Raises
    ------
    ReplayError
        If an action cannot be played on the layout.
    AnalysisTooHard
        When ``time_limit`` runs out before the last action is judged.

    Examples
    --------
    The first click opens all but the left column; the two 1s there cannot say which of
    (0, 0) and (1, 0) is the mine: the player guessed, with probability 1/2 of a mine, and
    survived.

    >>> from msanalysis.board import Board
    >>> from msanalysis.replay import Action, Replay
    >>> board = Board.from_text("*..\\n...")
    >>> replay = Replay(board, (Action("reveal", (0, 2), 0.0), Action("reveal", (1, 0), 2.0)),
    ...                 rules="safe-cell")
    >>> result = analyze_replay(replay)
    >>> [(j.cell, j.verdict.value, j.probability) for j in result.judgements]
    [((0, 2), 'first', Fraction(0, 1)), ((1, 0), 'guess', Fraction(1, 2))]
    >>> result.survival, result.luck_bits, result.won
    (Fraction(1, 2), 1.0, True)

    Notes
    -----
    One analysis per click that no single number decides (the quick look of
    :func:`msanalysis.obvious.obvious_cells` settles the rest), plus the counting of the exact
    probabilities at each guess; a chord opening k undecided cells adds 2**k - 1 counts.
    """
    check_type(replay, Replay, "analyze_replay", "load_replay(path) reads one")
    check_function(analyser, "analyser is a function of a position")
    check_flag(quick_look, "quick_look")
    judgements: list[Judgement] = []
    survival: list[tuple[int, Fraction | None]] = []
    game = replay.game()
    time_limit = as_time_limit(time_limit)  # for the message below
    deadline = deadline_after(time_limit)

    def stop(where: str) -> TimeLimitReached:
        return TimeLimitReached(f"judging stopped at the time limit ({time_limit:g} s) {where} "
                                f"action {index + 1} of {len(replay.actions)}")

    for index, action, game in replay.before_each():
        if time_is_up(deadline):
            raise stop("before")
        targets = _targets(game, action)
        if not targets:
            continue
        position = position_without_flags(game.position())
        if not survival:
            chance = _first_probability(replay)
            judgements += [Judgement(index, action.time, action.kind, cell, Verdict.FIRST, chance)
                           for cell in targets]
            survival.append((index, None if chance is None else 1 - chance))
            continue
        safe_at_a_glance = obvious_cells(position)[0] if quick_look else frozenset()
        if targets and all(cell in safe_at_a_glance for cell in targets):
            judgements += [Judgement(index, action.time, action.kind, cell, Verdict.SAFE,
                                     Fraction(0)) for cell in targets]
            survival.append((index, Fraction(1)))
        else:
            try:
                if analyser is not None:
                    found, chance = _judge(_analysed(analyser, position), position, index,
                                           action, targets)
                else:
                    found, chance = _judge(from_scratch(position, seconds_left(deadline)),
                                           position, index, action, targets, deadline)
            except TimeLimitReached as error:
                if deadline is None:  # an analyser's own limit
                    raise
                raise stop("at") from error
            judgements += found
            survival.append((index, chance))
    return ReplayAnalysis(replay, judgements, game.position(), game.status, survival)


def _analysed(analyser: Callable[[Position], Any], position: Position) -> Any:
    """What ``analyser`` makes of ``position``, refused unless it answers as an analysis."""
    analysis = analyser(position)
    missing = [name for name in ("forced_safe", "forced_mines", "exact_probability")
               if not hasattr(analysis, name)]
    if missing:
        raise WrongType(f"the analyser returned {reprlib.repr(analysis)}, not an analysis (it has "
                        f"no {missing[0]}; analyze(position) makes one)")
    return analysis


def _judge(analysis: Any, position: Position, index: int, action: Action,
           targets: list[Cell], deadline: float | None = None
           ) -> tuple[list[Judgement], Fraction | None]:
    """Verdicts on the cells one action opened, and the chance that all were safe.

    ``TimeLimitReached`` when the analysis, a count or an explanation ran out of time (counts
    and explanations are due by ``deadline``): verdicts are not given on half an answer. A
    bound of size leaves a probability unknown (None).
    """
    if not getattr(analysis, "all_forced", True):
        raise TimeLimitReached(analysis.stopped)  # some forced cells may be missing
    forced_safe, forced_mines = analysis.forced_safe, analysis.forced_mines

    def explain(cell: Cell) -> Any:
        return analysis.explain(cell, time_limit=seconds_left(deadline))

    found = []
    for cell in targets:
        if cell in forced_safe:
            found.append(Judgement(index, action.time, action.kind, cell, Verdict.SAFE,
                                   Fraction(0)))
            continue
        verdict = (Verdict.BLUNDER if cell in forced_mines
                   else Verdict.NEEDLESS if forced_safe else Verdict.GUESS)
        best: Cell | None
        best_probability: Fraction | None
        explanation = None
        probability = _unless_too_large(partial(analysis.exact_probability, cell))
        if forced_safe:
            best, best_probability = _nearest(forced_safe, cell), Fraction(0)
            if verdict is Verdict.NEEDLESS:
                explanation = explain(best)
        else:
            best = _unless_too_large(lambda: analysis.best_guess)
            best_probability = (None if best is None
                                else _unless_too_large(partial(analysis.exact_probability, best)))
        if verdict is Verdict.BLUNDER:
            explanation = explain(cell)
        found.append(Judgement(index, action.time, action.kind, cell, verdict, probability,
                               best_probability, best, explanation, position))
    uncertain = [cell for cell in targets if cell not in forced_safe]
    if not uncertain:
        return found, Fraction(1)
    if any(cell in forced_mines for cell in uncertain):
        return found, Fraction(0)
    if len(uncertain) == 1:
        probability = found[targets.index(uncertain[0])].probability
        return found, None if probability is None else 1 - probability
    return found, _unless_too_large(
        lambda: _joint_safety(position, uncertain, analysis.solutions, deadline))


def _unless_too_large(work: Callable[[], _T]) -> _T | None:
    """``work()``, or None when a bound of size stops it (a time limit's stop goes on up)."""
    try:
        return work()
    except TimeLimitReached:
        raise
    except AnalysisTooHard:
        return None


def record_autoplay(width: int, height: int, mines: int, *, seed: int,
                    rules: str = "safe-cell", first_click: Cell | None = None,
                    strategy: str = "best", flag_mines: bool = False,
                    clock: Callable[[], float] | None = None) -> Replay:
    """Generate a seeded game, play it with a strategy, and return it as a replay.

    Parameters
    ----------
    width, height, mines : int
    seed : int
        Seeds the layout and the strategy, as :func:`msanalysis.play.bench.play_one` does.
    rules : str
    first_click : (row, col), optional
        Default: :func:`msanalysis.rules.default_first_click` of the rules.
    strategy : str
        A name for :func:`msanalysis.play.strategies.make_strategy`; it is the replay's player.
    flag_mines : bool
        Let the strategy flag the mines it finds.
    clock : callable, optional
        Time source of the recorded actions (see :class:`~msanalysis.replay.ReplayRecorder`).

    Examples
    --------
    >>> replay = record_autoplay(9, 9, 10, seed=3, strategy="safest")
    >>> replay.player, replay.program, replay.rules, replay.first_click
    ('safest', 'msanalysis', 'safe-cell', (0, 0))
    >>> replay.play().status in ("won", "lost")
    True
    """
    click = (default_first_click(rules, width=width, height=height) if first_click is None
             else first_click)
    board = generate(width, height, mines, rules=rules, first_click=click, seed=seed)
    game = Game(board, rules=rules)
    recorder = ReplayRecorder(game, player=strategy, clock=clock)
    recorder.reveal(click)
    if game.status == "playing":
        autoplay(game, make_strategy(strategy, seed=seed, flag_mines=flag_mines),
                 on_move=recorder)
    return recorder.replay()
