"""Boards that can be won without guessing, and the ``no-guess`` layout rule built on them.

:func:`solve_without_guessing` plays a board from its first click revealing only cells that
:func:`~msanalysis.analysis.analyze` proves safe (with the global mine count), and says whether
that clears the board or where logic runs out; up to 10,000 cells it plays on bit boards
(:func:`~msanalysis.bitlogic.play_by_logic`) in the order a :class:`~msanalysis.tracker.Tracker`
reasons, the tracker staying the reference (and playing larger boards). :func:`generate_no_guess`
makes a board that can be won that way from a seed, by drawing ``safe-opening`` layouts until
one can (``method="reject"``) or by moving mines where logic stops (``method="adjust"``), and
:func:`generate` makes a layout under any first-click rule, ``no-guess`` included (the model's
:func:`msanalysis.rules.generate` takes the others). Choosing guesses is the strategies' job;
this module never guesses.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from typing import Any

import numpy as np

from msanalysis.bitlogic import LogicPlay, MovingPlay, play_by_logic, wins_by_logic
from msanalysis.board import Board, Cell, as_cell, as_int, as_pair, check_size, repeated_bits
from msanalysis.errors import (
    AnalysisTooHard,
    IllegalMove,
    InvalidInput,
    TimeLimitReached,
    check_flag,
    check_jobs,
    check_time_for,
    check_type,
    deadline_after,
    plural,
    quantity,
    seconds_left,
    time_is_up,
    worker_ignores_interrupts,
)
from msanalysis.position import FLAG, HIDDEN, Position
from msanalysis.rules import FirstClick, as_seed, check_seed_run, protected_mine, windows_xp_move
from msanalysis.rules import generate as generate_by_rule
from msanalysis.tracker import COMPONENT, MINE_COUNT, Tracker

__all__ = [
    "GRADES",
    "METHODS",
    "NoGuessResult",
    "generate",
    "generate_many",
    "generate_no_guess",
    "solve_without_guessing",
]


GRADES = {1: "single clues", 2: "two clues together", 3: "more clues together",
          4: "the total mine count"}
"""What each grade of reasoning is, by number (see :mod:`msanalysis.tracker`)."""


@dataclass(frozen=True, eq=False, repr=False)
class NoGuessResult:
    """The outcome of playing a board by logic alone.

    Attributes
    ----------
    solvable : bool
        True when cells proven safe alone clear the board.
    position : Position
        The final position: the won board, or where no hidden cell is proven safe any more (or
        the lost first click under ``unsafe`` rules). Made when first read: a check that wants
        only the verdict (as generation does) never builds it.
    rounds : int
        Rounds of reasoning: each proves some cells safe or mines (the ones proven safe are
        then revealed); when logic stops, the last round found nothing.
    revealed : int
        Safe cells revealed in all, the first click's cascade included.
    grade : int
        The hardest reasoning used: 1 single clues, 2 two clues together, 3 more clues together
        (a component's clues), 4 the total mine count; 0 when the first click ends the game.
        Each round uses the weakest reasoning that proves anything, so a board of grade ``g``
        cannot be won with reasoning of lower grades alone.
    hardest_step : int or None
        The index (from 0) of the first round that needed that grade.
    hardest_cells : tuple of (row, col)
        The cells that round proved (safe or mines), row-major. When that round is the first
        and single clues, they are worked out when first read, by a tracker playing that round
        again: which of the cells it reveals a round of single clues proves, and which the
        cascade of a zero opens first, depends on the order the tracker looks at its clues.

    Two results are equal when all of these but ``hardest_cells`` are.
    """

    solvable: bool
    _position: Position | Callable[[], Position]
    rounds: int
    revealed: int
    grade: int = 0
    hardest_step: int | None = None
    _hardest_cells: tuple[Cell, ...] | Callable[[], tuple[Cell, ...]] = field(default=())

    @cached_property
    def position(self) -> Position:
        """The final position (see above)."""
        position = self._position
        return position if isinstance(position, Position) else position()

    @cached_property
    def hardest_cells(self) -> tuple[Cell, ...]:
        """The cells the hardest round proved (see above)."""
        cells = self._hardest_cells
        return cells() if callable(cells) else cells

    def _key(self) -> tuple:
        return (self.solvable, self.position, self.rounds, self.revealed, self.grade,
                self.hardest_step)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NoGuessResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"NoGuessResult(solvable={self.solvable!r}, position={self.position!r}, "
                f"rounds={self.rounds!r}, revealed={self.revealed!r}, grade={self.grade!r}, "
                f"hardest_step={self.hardest_step!r})")

    @property
    def grade_name(self) -> str:
        """The grade in words (``"single clues"`` ... ``"the total mine count"``)."""
        return GRADES.get(self.grade, "none")

    def to_dict(self) -> dict:
        """JSON-ready data (the ``solvable --json`` fields but the position)."""
        return {"solvable": self.solvable, "grade": self.grade, "grade_name": self.grade_name,
                "hardest_step": self.hardest_step,
                "hardest_cells": [list(cell) for cell in self.hardest_cells],
                "rounds": self.rounds, "revealed": self.revealed}


def solve_without_guessing(board: Board, first_click: Cell, *, rules: str = "safe-cell",
                           use_mine_count: bool = True,
                           time_limit: float | None = None) -> NoGuessResult:
    """Play ``board`` from ``first_click`` revealing only cells proven safe, and grade it.

    Parameters
    ----------
    board : Board
    first_click : (row, col)
    rules : str
        The first-click rule of the game (``windows-xp`` may move a mine first).
    use_mine_count : bool
        Allow reasoning with the total mine count (grade 4). False applies the stricter
        standard of ms-toollib's ``is_solvable``, which never uses it.
    time_limit : float, optional
        Seconds; looked at between rounds of a board larger than the bit boards take, and while
        a cascade is opened (a 1000x1000 board can take minutes).

    Returns
    -------
    NoGuessResult

    Raises
    ------
    TimeLimitReached
        When ``time_limit`` runs out (an :class:`~msanalysis.errors.AnalysisTooHard`).

    Examples
    --------
    The 1, 2 and 1 in the corner prove (2, 2) safe together, and no two of them do:

    >>> board = Board.from_text("..*..\\n.....\\n*...*\\n.....")
    >>> result = solve_without_guessing(board, (0, 0))
    >>> result.solvable, result.grade, result.grade_name, result.hardest_cells
    (True, 3, 'more clues together', ((2, 2),))
    >>> stuck = solve_without_guessing(Board.from_text("*.\\n.."), (1, 1))
    >>> stuck.solvable, stuck.position.to_text()
    (False, 'mines: 1\\n??\\n?1')

    Notes
    -----
    Played by :func:`~msanalysis.bitlogic.play_by_logic`: single clues and cascades over the
    whole board at once on bit boards, pairs of clues, components and the mine count in a
    :class:`~msanalysis.tracker.Tracker`'s order, so that every round proves what the
    tracker's would; logic stops as soon as no reasoning allowed proves anything. A lost
    first click (``unsafe`` rules) is played by a tracker.
    """
    check_type(board, Board, "solve_without_guessing", "a layout: Board.from_text reads one")
    check_flag(use_mine_count, "use_mine_count")
    rule = FirstClick.parse(rules)
    first_click = as_cell(first_click, board.height, board.width, error=IllegalMove)
    mine = protected_mine(board, first_click, rule)
    if mine is not None:  # not a board of these rules: "not solvable" would be no answer
        where = "is on a mine" if mine == first_click else f"has a mine beside it at {mine}"
        raise InvalidInput(f"the first click {first_click} {where}, which rules {rule.value} "
                           f"never place there")
    deadline = deadline_after(time_limit)
    top = MINE_COUNT if use_mine_count else COMPONENT
    if board.is_mine(first_click) and rule is FirstClick.WINDOWS_XP:
        board = windows_xp_move(board, first_click)
    if not board.is_mine(first_click) and board.height * board.width <= _BIT_BOARD_CELLS:
        return _result(board, first_click, play_by_logic(board, first_click, top), rules, top)
    # The tracker looks at the clock in cascades.
    tracker = Tracker(board, rules=rules, time_limit=seconds_left(deadline))
    tracker.reveal(first_click)
    return _solve(tracker, top, deadline)


def _result(board: Board, first_click: Cell, play: LogicPlay, rules: str,
            top: int) -> NoGuessResult:
    """The result of a board played by :func:`play_by_logic` (its position made when read)."""
    cells: tuple[Cell, ...] | Callable[[], tuple[Cell, ...]]
    if play.hardest_cells is None:
        cells = partial(_first_round_cells, board, first_click, rules, top)
    else:
        cells = play.hardest_cells
    return NoGuessResult(play.solvable, partial(_final_position, board, play), play.rounds,
                         play.revealed_count, play.grade, play.hardest_step, cells)


def _final_position(board: Board, play: LogicPlay) -> Position:
    """What the player sees once ``play`` has revealed its cells."""
    return Position(np.where(play.revealed, board.numbers, HIDDEN), board.mine_count)


def _first_round_cells(board: Board, first_click: Cell, rules: str,
                       top: int) -> tuple[Cell, ...]:
    """The cells a tracker's first round (of single clues) proves on ``board``."""
    tracker = Tracker(board, rules=rules)
    tracker.reveal(first_click)
    step = tracker.step(top, reveal=True)
    return () if step is None else step.decided


def _solve(tracker: Tracker, max_grade: int, deadline: float | None = None) -> NoGuessResult:
    """Reveal what logic proves safe, round after round, until the game ends or logic stops.

    A round is one :meth:`Tracker.step` with ``reveal=True``: the cheapest reasoning that proves
    anything, the cells it proves safe revealed at once and single clues followed from them.
    """
    rounds = grade = 0
    hardest_step: int | None = None
    hardest_cells: tuple[Cell, ...] = ()
    while tracker.status == "playing":
        if time_is_up(deadline):
            raise TimeLimitReached(f"the check for a guess ran past the time limit after "
                                   f"{rounds} rounds of reasoning")
        step = tracker.step(max_grade, reveal=True)
        if step is None:
            rounds += 1
            break
        if step.grade > grade:
            grade, hardest_step = step.grade, rounds
            hardest_cells = step.decided
        rounds += 1
    position = tracker.position
    revealed = int(np.count_nonzero(position.states >= 0))
    return NoGuessResult(tracker.status == "won", position, rounds, revealed, grade,
                         hardest_step, hardest_cells)


_BIT_BOARD_CELLS = 10_000
"""The most cells a board may have to be played on bit boards (:mod:`msanalysis.bitlogic`):
their tables grow with the square of the cells (400 MB at 200x200, 5 GB at 400x400), and
above this size a tracker plays one board in less time as well as less memory. Both prove the
same cells, round by round."""

_SET_UP_SECONDS_PER_CELL = 4e-6
"""Making a board of more than :data:`_BIT_BOARD_CELLS` and its tracker, measured: 7.8 s for
2,000,000 cells before the first layout is judged; refused at once when it cannot end by the
time limit (see ``check_time_for``)."""

METHODS = ("reject", "adjust")
"""How :func:`generate_no_guess` makes a board: draw until one fits, or move mines."""


def generate_no_guess(width: int, height: int, mines: int, *, first_click: Cell,
                      seed: int | None = None, method: str = "reject", grade: int | None = None,
                      use_mine_count: bool = True, attempts: int = 100_000,
                      time_limit: float | None = None) -> Board:
    """A board that can be won from ``first_click`` without a guess.

    Parameters
    ----------
    width, height, mines : int
    first_click : (row, col)
        Its 3x3 block is free of mines, so the first click opens a cascade.
    seed : int, optional
        The same seed always gives the same board.
    method : {"reject", "adjust"}
        ``reject`` draws ``safe-opening`` layouts until one can be won by logic: every
        guess-free layout is equally likely (with ``grade``, every one of that grade).
        ``adjust`` starts from such a layout and, each time logic stops, moves mines so that the
        cells logic was stuck on become all safe or all mines, as Simon Tatham's Mines does,
        then checks the board again from the first click; it works at any density, but its
        boards are not uniform among guess-free ones (mines drift away from where logic
        stalls, towards the far side of the board).
    grade : int, optional
        Ask for a board whose hardest reasoning is of exactly this grade (see
        :class:`NoGuessResult`).
    use_mine_count : bool
        Allow reasoning with the total mine count; False asks for boards that ms-toollib's
        stricter ``is_solvable`` accepts too.
    attempts : int
        Layouts to start from before giving up.
    time_limit : float, optional
        Seconds after which it gives up.

    Returns
    -------
    Board

    Raises
    ------
    InvalidInput
        On a bad argument.
    AnalysisTooHard
        When no board was found in ``attempts`` layouts.
    TimeLimitReached
        When no board was found within ``time_limit``, or a board too large to set up in it
        was asked for (an :class:`~msanalysis.errors.AnalysisTooHard`).

    Examples
    --------
    >>> board = generate_no_guess(9, 9, 10, first_click=(4, 4), seed=1)
    >>> solve_without_guessing(board, (4, 4)).solvable
    True
    >>> board = generate_no_guess(9, 9, 30, first_click=(4, 4), seed=1, method="adjust")
    >>> board.mine_count, solve_without_guessing(board, (4, 4)).solvable
    (30, True)

    Notes
    -----
    ``reject`` costs one check per layout drawn, and most layouts are given up early, as soon
    as logic stops; ``adjust`` costs a check after each round of moves, and usually a few
    rounds.
    """
    check_flag(use_mine_count, "use_mine_count")
    if not isinstance(method, str) or method not in METHODS:
        raise InvalidInput(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if grade is not None and as_int(grade, "the grade") not in GRADES:
        raise InvalidInput(f"unknown grade {grade!r}; grades are 1 to 4")
    if grade == MINE_COUNT and not use_mine_count:
        raise InvalidInput("grade 4 is the mine count, which use_mine_count=False leaves out")
    attempts = as_int(attempts, "attempts")
    if attempts < 1:
        raise InvalidInput(f"attempts must be at least 1, got {attempts}")
    first_click = as_pair(first_click)  # its place on the board: checked as the board is drawn
    # An int before the layouts' cells are looked up by it (an equal 3.0 would find 3's).
    mines = as_int(mines, "the mine count")
    deadline = deadline_after(time_limit)
    width, height = check_size(width, height)
    if width * height > _BIT_BOARD_CELLS:
        check_time_for(_SET_UP_SECONDS_PER_CELL * width * height, deadline,
                       f"setting up a {width}x{height} board")
    top = MINE_COUNT if use_mine_count else COMPONENT
    draw = _SafeOpening(width, height, mines, first_click, random.Random(as_seed(seed)))
    bits = width * height <= _BIT_BOARD_CELLS
    play: LogicPlay | NoGuessResult

    def out_of_time(tried: int) -> TimeLimitReached:
        other = "--method adjust, " if method == "reject" else ""
        return TimeLimitReached(
            f"no board of {quantity(mines, 'mine')} on {width}x{height} that can be won without "
            f"a guess was found in the time limit ({quantity(tried, 'layout')} tried); try "
            f"{other}fewer mines or a longer --time-limit")

    def judged(board: Board, tried: int) -> NoGuessResult:
        """A board too large for bit boards, played by a tracker within the deadline."""
        try:
            return solve_without_guessing(board, first_click, rules="safe-opening",
                                          use_mine_count=use_mine_count,
                                          time_limit=seconds_left(deadline))
        except AnalysisTooHard:
            raise out_of_time(tried) from None

    if grade is not None and mines in (0, len(draw.candidates)):
        raise InvalidInput(f"every layout of {quantity(mines, 'mine')} on {width}x{height} is won "
                           f"by its first click {first_click} alone, with no reasoning (grade "
                           f"0): there is no grade {grade} to find; leave the grade out")
    won_at_once = 0  # boards of the grade asked for never come when the first click wins
    for tried in range(attempts):
        if time_is_up(deadline):
            raise out_of_time(tried)
        cells = draw.draw()
        adjusted: Board | None = None
        if method == "adjust":
            try:
                adjusted = _adjusted(draw.board(cells), first_click, draw,
                                     top if grade is None else grade, deadline)
            except AnalysisTooHard:
                raise out_of_time(tried + 1) from None
            if adjusted is None:
                continue
            if grade is None:
                return adjusted  # proven: _adjusted returns only a board logic wins
            play = play_by_logic(adjusted, first_click, top) if bits else \
                judged(adjusted, tried)
        elif not bits:
            play = judged(draw.board(cells), tried)
        elif grade is None:
            # The layout as mine numbers: no Board is made for the layouts given up. Swappable
            # pairs are looked for only in the layouts that single clues do not win (a third at
            # beginner), before pairs of clues, components and the count are asked to prove
            # what they would: the same boards, sooner than looking in every layout.
            if wins_by_logic((height, width, cells), first_click, top,
                             hopeless=partial(draw.pairs.found, cells)):
                return draw.board(cells)
            continue
        elif draw.dense and draw.pairs.found(cells):
            continue
        else:
            play = play_by_logic((height, width, cells), first_click, top)
        if play.solvable and (grade is None or play.grade == grade):
            return draw.board(cells) if adjusted is None else adjusted
        won_at_once += play.solvable and play.grade == 0
    if won_at_once == attempts:
        raise AnalysisTooHard(f"the {quantity(attempts, 'layout')} of {quantity(mines, 'mine')} "
                              f"on {width}x{height} drawn {plural(attempts, 'was', 'were')} won "
                              f"by the first click {first_click} alone, with no reasoning (grade "
                              "0); try more attempts, or leave the grade out")
    wanted = "" if grade is None else f" of grade {grade}"
    other = " (generate's method 'adjust', moving mines, works at any density)" \
        if method == "reject" else ""
    tries = ([] if grade is None else ["another grade"]) + \
        ([f"fewer mines{other}"] if mines else [])
    raise AnalysisTooHard(f"no layout of {quantity(mines, 'mine')} on {width}x{height} that can "
                          f"be won without a guess{wanted} from {first_click} in "
                          f"{quantity(attempts, 'attempt')}"
                          + (f"; try {' or '.join(tries)}" if tries else ""))


class _SafeOpening:
    """Seeded ``safe-opening`` layouts: mines anywhere outside the first click's 3x3 block,
    drawn as the row-major numbers of their cells."""

    def __init__(self, width: int, height: int, mines: int, first_click: Cell,
                 rng: random.Random) -> None:
        self.shape = (height, width)
        self.mines = mines
        self.candidates, self.pairs, self.pooled = _opening_cells(width, height, mines,
                                                                  tuple(first_click))
        # For a board of a given grade (played in full, not only judged), swappable pairs are
        # looked for in every layout where they are common: a third of expert layouts (a
        # mine in five cells) have one, 4% of beginner ones (one in eight).
        self.dense = mines * _DENSE_CELLS >= width * height
        self.rng = rng

    def draw(self) -> list[int]:
        """The cells of the next layout: ``rng.sample(candidates, mines)``, the same cells in
        the same order from the same generator.

        Where :meth:`random.Random.sample` draws from a copy of the candidates (whenever they
        are not many more than the mines: every standard size), its draws are made here
        without its per-draw method calls, twice as fast: an index below the candidates left,
        from just enough random bits, tried again when too large, and the last candidate left
        moved into the place of the one taken.
        """
        if not self.pooled:
            return self.rng.sample(self.candidates, self.mines)
        getrandbits = self.rng.getrandbits
        pool = self.candidates.copy()
        cells = []
        size = len(pool)
        for left in range(size, size - self.mines, -1):
            bits = left.bit_length()
            j = getrandbits(bits)
            while j >= left:
                j = getrandbits(bits)
            cells.append(pool[j])
            pool[j] = pool[left - 1]
        return cells

    def board(self, cells: list[int] | None = None) -> Board:
        return Board._from_indices(*self.shape, self.draw() if cells is None else cells)


_DENSE_CELLS = 6
"""Swappable pairs are looked for in every layout from one mine in this many cells."""


def _sample_pool_limit(k: int) -> int:
    """The most candidates from which :meth:`random.Random.sample` draws ``k`` from a copy of
    them (beyond, it keeps a set of the indices taken): its own rule, the size of a set of
    ``k`` against that of a list."""
    limit = 21
    if k > 5:
        limit += 4 ** math.ceil(math.log(k * 3, 4))
    return limit


@lru_cache(maxsize=16)
def _opening_cells(width: int, height: int, mines: int,
                   first_click: Cell) -> tuple[list[int], _Pairs, bool]:
    """The cells that may hold mines, the finder of swappable pairs, and whether
    :meth:`random.Random.sample` draws from a copy of the cells: once per game size (boards are
    made by the thousand)."""
    # The same checks and messages as the rule itself.
    generate_by_rule(width, height, mines, rules="safe-opening", first_click=first_click,
                     seed=0)
    row, col = first_click
    candidates = [r * width + c for r in range(height) for c in range(width)
                  if abs(r - row) > 1 or abs(c - col) > 1]
    return (candidates, _Pairs(height, width, first_click),
            len(candidates) <= _sample_pool_limit(mines))


class _Pairs:
    """Finds a mine and a safe cell that could swap places unseen (see :func:`_swappable_pair`),
    with the grid as bits of one Python integer framed by two cells (off the board counts as a
    mine): 24 offsets, a dozen shifts and ands each."""

    def __init__(self, height: int, width: int, first_click: Cell) -> None:
        self.height, self.width = height, width
        stride = self.stride = width + 4
        inside = repeated_bits((1 << width) - 1, stride, height) << (2 * stride + 2)
        self.frame = ((1 << ((height + 4) * stride)) - 1) & ~inside
        row, col = first_click
        block = sum(1 << ((r + 2) * stride + c + 2) for r in range(row - 1, row + 2)
                    for c in range(col - 1, col + 2) if 0 <= r < height and 0 <= c < width)
        self.open_cells = inside & ~block
        self.offsets = _pair_offsets(stride)

    @cached_property
    def bits(self) -> list[int]:
        """The bit of each cell, by row-major number: made when first asked for, as they take
        memory that grows with the square of the cells (only boards played on bit boards ask).
        """
        width, stride = self.width, self.stride
        return [1 << ((k // width + 2) * stride + k % width + 2)
                for k in range(self.height * width)]

    def found(self, mines: list[int]) -> bool:
        """Whether the distinct cells ``mines`` (row-major numbers) hold a swappable pair."""
        mine_bits = sum(map(self.bits.__getitem__, mines))
        covered = self.frame | mine_bits
        safe_bits = self.open_cells & ~mine_bits
        for behind, group in self.offsets:
            # The cells next to the mine alone whatever the offset in this direction: mines
            # without them covered are out for the whole group at once.
            mines_left = mine_bits
            for e in behind:
                mines_left &= covered >> e if e > 0 else covered << -e
                if not mines_left:
                    break
            else:
                for shift, others in group:
                    # Bit p: a mine at p, a safe cell at p + shift, ``others`` covered.
                    found = mines_left & (safe_bits >> shift if shift > 0 else safe_bits << -shift)
                    for e in others:
                        if not found:
                            break
                        found &= covered >> e if e > 0 else covered << -e
                    if found:
                        return True
        return False


def _swappable_pair(mines: np.ndarray, first_click: Cell) -> bool:
    """Whether some mine and some safe cell could swap places unseen: no number but theirs
    would change, so nothing the player can reveal tells the two layouts apart, and winning
    takes a guess.

    That is so when every safe cell next to one of them but not the other (apart from the two
    themselves) does not exist: each is a mine or off the board. A safe cell like that is
    never opened by a cascade either (no 0 touches it), and the first click's block is left
    out; so a board with such a pair cannot be won by logic, whatever logic is allowed, and
    rejecting it at once changes no verdict.
    """
    height, width = mines.shape
    return _Pairs(height, width, first_click).found(np.flatnonzero(mines.ravel()).tolist())


_PAIR_OFFSETS: dict[int, list[tuple[list[int], list[tuple[int, list[int]]]]]] = {}


def _pair_offsets(stride: int) -> list[tuple[list[int], list[tuple[int, list[int]]]]]:
    """Per offset from a mine to a safe cell within two steps: the offsets (from the mine) of
    the cells next to exactly one of the two, as linear offsets on a grid of ``stride``.

    Grouped by the direction of the safe cell (up, down, left, right or a diagonal quarter),
    each group under the cells every one of its offsets has (the side of the mine away from
    the safe cells), which its own lists leave out."""
    if stride not in _PAIR_OFFSETS:
        around = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        groups: dict[tuple[int, int], list[tuple[tuple[int, int], set[tuple[int, int]]]]] = {}
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                if not (dr or dc):
                    continue
                a = set(around)
                b = {(r + dr, c + dc) for r, c in around}
                differ = (a ^ b) - {(0, 0), (dr, dc)}
                direction = ((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))
                groups.setdefault(direction, []).append(((dr, dc), differ))
        table = []
        for members in groups.values():
            common = set.intersection(*(differ for _, differ in members))
            table.append(([r * stride + c for r, c in sorted(common)],
                          [(dr * stride + dc, [r * stride + c for r, c in sorted(differ - common)])
                           for (dr, dc), differ in members]))
        _PAIR_OFFSETS[stride] = table
    return _PAIR_OFFSETS[stride]


def _adjusted(board: Board, first_click: Cell, draw: _SafeOpening, grade: int,
              deadline: float | None = None) -> Board | None:
    """``board`` with mines moved until logic (up to ``grade``) wins it from ``first_click``;
    None when moving mines stops helping.

    Each pass plays the board by logic from the first click; where logic stops, the open cells
    of a clue chosen at random are made all safe or all mines by swapping mines with cells
    elsewhere (cells beside revealed ones first, then the far side, never the first click's
    block), and play goes on. A pass that needed no move proves the board. Played on bit
    boards (:class:`~msanalysis.bitlogic.MovingPlay`) up to their size, by a tracker beyond it
    (:class:`_TrackedPlay`): the same moves and the same boards either way. Past ``deadline``
    (looked at where logic stops, and in a tracker's steps) it raises ``AnalysisTooHard``: a
    board of a million cells takes minutes.
    """
    rng = draw.rng
    row, col = first_click
    protected = {(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)}
    small = board.mask.size <= _BIT_BOARD_CELLS
    for _ in range(_ADJUST_PASSES):
        play = MovingPlay(board, first_click, grade) if small else \
            _TrackedPlay(board, first_click, grade, deadline)
        moves = 0
        while not play.settle():
            if time_is_up(deadline):
                raise TimeLimitReached("moving mines ran past the time limit")
            moves += 1
            if not play.move_mines(rng, protected):
                # No clue has open cells: the cells left are walled in by proven mines. One of
                # those mines changes places with a safe cell inside, and play starts again.
                opened = _open_enclosure(play, rng, protected)
                if opened is None:
                    return None
                board = opened
                break
        else:
            if moves == 0:
                return board
            board = play.board
    return None


_ADJUST_PASSES = 30
"""Passes of play and moves before a layout is given up (most need two or three)."""


class _TrackedPlay:
    """:class:`~msanalysis.bitlogic.MovingPlay`'s part played by a tracker, on boards too large
    for bit boards."""

    def __init__(self, board: Board, first_click: Cell, max_grade: int,
                 deadline: float | None) -> None:
        self.tracker = Tracker(board, rules="safe-opening", time_limit=seconds_left(deadline))
        self.tracker.reveal(first_click)
        self.max_grade, self.deadline = max_grade, deadline

    def settle(self) -> bool:
        tracker = self.tracker
        while tracker.status == "playing":
            if time_is_up(self.deadline):
                raise TimeLimitReached("moving mines ran past the time limit")
            if tracker.step(self.max_grade, reveal=True) is None:
                return False
        return True

    def move_mines(self, rng: random.Random, protected: set[Cell]) -> bool:
        return self.tracker.perturb(rng, protected)

    @property
    def board(self) -> Board:
        return self.tracker.board

    @property
    def hidden(self) -> frozenset[Cell]:
        return self.tracker.position.hidden


def _every_grade_proves(play: MovingPlay | _TrackedPlay) -> AbstractSet[Cell]:
    """The mines that reasoning of every grade proves where ``play`` stopped: those it proved,
    and, when its grade was lower, those the stronger reasoning adds (as
    :attr:`Tracker.forced <msanalysis.tracker.Tracker.forced>` has them: the proved mines
    flagged in the position shown, a tracker of it settled)."""
    if isinstance(play, _TrackedPlay):
        return play.tracker.forced[1]  # settled by every grade, whatever the play's
    proven = play.proven_mines
    if play.max_grade >= MINE_COUNT:
        return proven
    board = play.board
    states = board.numbers.astype(np.int8)
    for cell in play.hidden:
        states[cell] = FLAG if cell in proven else HIDDEN
    return Tracker.from_position(Position(states, board.mine_count)).forced[1] | proven


def _open_enclosure(play: MovingPlay | _TrackedPlay, rng: random.Random,
                    protected: set[Cell]) -> Board | None:
    """The board with a proven mine (by every grade) beside the cells left swapped with a safe
    one of them."""
    board = play.board
    proven = _every_grade_proves(play)
    hidden = play.hidden - proven
    height, width = board.height, board.width
    walls = sorted({(r, c) for r0, c0 in hidden for r in range(r0 - 1, r0 + 2)
                    for c in range(c0 - 1, c0 + 2)
                    if 0 <= r < height and 0 <= c < width and (r, c) in proven
                    and (r, c) not in protected})
    inside = sorted(c for c in hidden if not board.is_mine(c) and c not in protected)
    if not walls or not inside:
        return None
    mask = board.mask.copy()
    mask[rng.choice(walls)] = False
    mask[rng.choice(inside)] = True
    return Board(mask)


def generate_many(width: int, height: int, mines: int, count: int, *, rules: str = "no-guess",
                  first_click: Cell, seed: int = 0, method: str = "reject",
                  grade: int | None = None, jobs: int = 1,
                  time_limit: float | None = None) -> Iterator[tuple[int, Board]]:
    """Boards ``0 .. count - 1``, board ``i`` from seed ``seed + i``, yielded as they are made.

    Under ``no-guess`` rules every board is checked again from its first click before it is
    yielded (by :func:`solve_without_guessing`, and for its grade when one was asked for).

    Parameters
    ----------
    width, height, mines, count : int
    rules, first_click, method, grade
        As for :func:`generate` and :func:`generate_no_guess`.
    seed : int
    jobs : int
        Worker processes; the boards are the same whatever their number.
    time_limit : float, optional
        Seconds for them all; a board not made by then raises ``AnalysisTooHard`` (the boards
        yielded before stay good).

    Yields
    ------
    (int, Board)
        The board's number and the board, in the order they are finished.

    Raises
    ------
    RuntimeError
        If a no-guess board fails its second check (which would be a bug).

    Examples
    --------
    >>> sorted(i for i, _ in generate_many(9, 9, 10, 3, first_click=(4, 4)))
    [0, 1, 2]
    """
    if as_int(count, "the number of boards") < 0:
        raise InvalidInput(f"the number of boards cannot be negative, got {count}")
    check_jobs(jobs)
    if as_seed(seed) is None:  # board i is the board of seed + i
        raise InvalidInput("generate_many numbers its boards from a seed: give one")
    check_seed_run(seed, count, "boards")
    # perf_counter is the system's monotonic clock: worker processes read the same deadline.
    deadline = deadline_after(time_limit)
    make = partial(_one_board, width, height, mines, rules, first_click, method, grade, deadline)
    if count == 0:
        return
    yield 0, make(seed)  # bad arguments fail here, in this process, with their message
    seeds = range(seed + 1, seed + count)
    if jobs == 1:
        for i, s in enumerate(seeds, start=1):
            yield i, make(s)
        return
    import multiprocessing

    with multiprocessing.Pool(jobs, initializer=worker_ignores_interrupts) as pool:
        # The jobs are made as the pool deals them out, not all at once: --count 10**9 holds a
        # few of them at a time.
        jobs_made = ((i, make, s) for i, s in enumerate(seeds, start=1))
        for i, board in pool.imap_unordered(_numbered, jobs_made):
            yield i, board


def _numbered(job: tuple[int, Any, int]) -> tuple[int, Board]:
    i, make, s = job
    return i, make(s)


def _one_board(width: int, height: int, mines: int, rules: str, first_click: Cell,
               method: str, grade: int | None, deadline: float | None, seed: int) -> Board:
    if FirstClick.parse(rules) is not FirstClick.NO_GUESS:
        if method != "reject" or grade is not None:
            raise InvalidInput("--method and --grade are for rules 'no-guess'")
        if time_is_up(deadline):
            raise TimeLimitReached(f"the time limit ran out before the board of seed {seed} "
                                   "was made")
        return generate(width, height, mines, rules=rules, first_click=first_click, seed=seed)
    board = generate_no_guess(width, height, mines, first_click=first_click, seed=seed,
                              method=method, grade=grade, time_limit=seconds_left(deadline))
    check = solve_without_guessing(board, first_click, rules="safe-opening",
                                   time_limit=seconds_left(deadline))
    if not check.solvable or (grade is not None and check.grade != grade):
        raise RuntimeError(f"board of seed {seed} failed its check: {check}")
    return board


def generate(width: int, height: int, mines: int, *, rules: str = "safe-cell",
             first_click: Cell | None = None, seed: int | None = None) -> Board:
    """Generate a mine layout under any first-click rule, reproducibly from ``seed``.

    ``no-guess`` is :func:`generate_no_guess`; the other rules are
    :func:`msanalysis.rules.generate`'s (see there for the parameters and errors).

    Examples
    --------
    >>> board = generate(9, 9, 10, rules="no-guess", first_click=(4, 4), seed=1)
    >>> solve_without_guessing(board, (4, 4)).solvable
    True
    """
    if FirstClick.parse(rules) is FirstClick.NO_GUESS:
        if first_click is None:
            raise InvalidInput("rules 'no-guess' need the first click")
        return generate_no_guess(width, height, mines, first_click=first_click, seed=seed,
                                 attempts=1000)
    return generate_by_rule(width, height, mines, rules=rules, first_click=first_click,
                            seed=seed)
