"""``best``, the default strategy: forced cells first, then the guess most likely to win.

When a guess is required it solves small endgames exactly (:mod:`msanalysis.play.endgame`), and
larger ones on a sample of their layouts; otherwise it takes a guess that has to be made some
time first (:mod:`msanalysis.play.unavoidable`), and failing that weighs the nearly-safest
cells by an exact look two guesses ahead (:mod:`msanalysis.play.outlook`) and by the 50/50s that
may form around them (:mod:`msanalysis.play.longterm`). The steps are in
:class:`BestStrategy`.
"""

from __future__ import annotations

import itertools
import random
import zlib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, overload

import numpy as np

from msanalysis.board import Cell, as_count, neighbour_counts
from msanalysis.errors import AnalysisTooHard, InvalidInput, WrongType, as_real, check_flag
from msanalysis.play.autoplay import REVEAL, Move
from msanalysis.play.book import BOOKS, OpeningBook
from msanalysis.play.endgame import TIE, Endgame
from msanalysis.play.forced import ForcedFirst
from msanalysis.play.longterm import LongTermRisk
from msanalysis.play.outlook import Outlook
from msanalysis.play.regions import left_for_last
from msanalysis.play.unavoidable import unavoidable_cells
from msanalysis.position import HIDDEN, Position
from msanalysis.sampling import LayoutSampler

__all__ = ["BestStrategy", "forget_guesses"]

_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

_GUESS_LIMIT = 4096  # guesses remembered (then it starts again)
_GUESSES: dict[tuple[Any, ...], Move] = {}
"""The guesses made, by position and options, for every strategy of the process: a guess
depends on nothing else, and the first guesses of a game come back game after game (a number
alone in the corner begins half the expert games played from a safe corner; of the 666 guesses
of 200 such games, 160 were of a position met before)."""


def forget_guesses() -> None:
    """Forget every guess remembered in this process, so that what follows (a timed run of a
    variant after another) starts as a new process would.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> p = Position.from_text("mines: 1\\n??\\n11")
    >>> _ = BestStrategy().choose(p, analyze(p))
    >>> forget_guesses(); len(_GUESSES)
    0
    """
    _GUESSES.clear()


@dataclass(frozen=True)
class _Risks:
    """The numbers every step of a guess reads, per cell of the board (float arrays)."""

    probabilities: np.ndarray
    """Mine probability (NaN on revealed cells)."""
    unknown: np.ndarray
    """Hidden cells that are not certain mines: the cells a guess may take."""
    safe: np.ndarray
    """1 - probability (1 on revealed cells)."""
    quick: np.ndarray
    """Rough chance that the cell shows 0 when it is safe: its neighbours all safe."""
    lowest: float
    """The lowest mine probability of a cell that may be guessed."""
    estimate: np.ndarray
    """The quick estimate of a guess's value: safe, then progress or a next guess as safe as
    the safest cell now."""

    @classmethod
    def of(cls, position: Position, analysis: Any, defer_regions: bool = False) -> _Risks:
        """The risks of a position; with ``defer_regions``, the cells of every region but the
        largest (:func:`~msanalysis.play.regions.left_for_last`) are not to be guessed now."""
        probabilities = np.array(analysis.probabilities)
        unknown = (position.states == HIDDEN) & (probabilities < 1)
        if defer_regions:  # the largest region always keeps its cells
            unknown &= ~left_for_last(analysis, unknown)
        safe = np.where(np.isnan(probabilities), 1.0, 1.0 - probabilities)
        zero = safe * _neighbour_product(safe)
        quick = np.where(unknown, zero / np.maximum(safe, 1e-300), 0.0)
        lowest = float(probabilities[unknown].min())
        return cls(probabilities, unknown, safe, quick, lowest, safe * (1 - lowest * (1 - quick)))


class BestStrategy(ForcedFirst):
    """The default strategy: forced cells first; a guess that is safe and likely to make progress.

    Each turn it reveals every forced safe cell (in :func:`autoplay`, the cells a single number
    decides first, without an analysis: see :meth:`obvious`). When a guess is required:

    1. *Endgame*: when at most ``endgame_layouts`` layouts are left,
       :class:`~msanalysis.play.endgame.Endgame` lists them and searches the sequence of clicks
       that wins most often; its first click is played. When more are left but at most
       ``drawn_endgame``, the same search runs on ``drawn_layouts`` layouts drawn uniformly
       from them (:class:`~msanalysis.sampling.LayoutSampler`; the same position draws the same
       ones). Either only with at most 150 unknown cells that are not certain mines (a low
       density board's endgame may have more, and the search would take minutes).
    2. *Unavoidable guesses*: with ``unavoidable``, when cells that no other click can ever tell
       apart are left (a walled-in pair holding at most one mine, or a chain of cells whose
       mines lie on one side or the other; :mod:`msanalysis.play.unavoidable`), one of them is
       guessed now, the one the look ahead of step 4 values most: the guess has to be made
       some time, and sooner its number tells more.
    3. Otherwise the candidates are the unknown cells whose exact mine probability is within
       ``margin`` of the lowest: the ``candidates`` safest frontier cells, the
       ``sea_candidates`` sea cells most likely to open a cascade (they all share one
       probability; corners and edges come first), and once no corner is left in the sea the
       ``near_sea`` sea cells beside the frontier most likely to open one (their number joins
       a frontier clue's cells, so it often makes progress, which step 4 counts). With
       ``defer_regions`` (the default), the cells of every region but the largest (cells no
       click elsewhere can inform) are left for last.
    4. For each, :class:`~msanalysis.play.outlook.Outlook` counts exactly, for each number the cell
       may show, how many layouts show it, whether some other cell then becomes safe
       (*progress*), and otherwise how safe the next guess is (the safest cell, blended with the
       second safest: a position with two good guesses is worth more than one with a single
       one). The cell with the best chance of surviving both this guess and the next one it
       leads to is revealed (a guess that makes progress needs no next guess; with
       ``lone_safe``, one that makes a single cell safe counts as a next guess of that cell).
       Candidates are examined best quick estimate first and dropped as soon as they cannot
       beat the best so far; ties go to the first cell row-major.
    5. With ``fifty_fifty``, a cell of a 50/50 that may form around it (two cells that only
       mines could tell apart, see :class:`msanalysis.play.longterm.LongTermRisk`) is partly a
       guess that would have to be made anyway: its chance is raised by 0.9 times the share of
       its safe layouts that such a 50/50 accounts for, and such cells join the candidates when
       that may bring them within reach (the weight 0.9 is JSMinesweeper's).

    Parameters
    ----------
    seed : int, optional
        Unused (the strategy is deterministic); accepted like every strategy's.
    flag_mines, explain, quick_look : bool
        As for :class:`~msanalysis.play.forced.ForcedFirst`.
    margin : float
        How much riskier than the safest cell a candidate may be.
    candidates, sea_candidates : int
        How many frontier cells and sea cells are examined exactly. 30 frontier cells is on
        expert in effect all of them within ``margin``: where more than the six safest changed
        the guess (56 of 18,916 guesses in 6,000 expert games from a corner), the guess won 1.8%
        more (+-0.4) played out on the same layouts, better in 39 positions and worse in 15;
        the extra ones are mostly dropped at once by the quick estimate, so it costs no time.
    near_sea : int
        How many sea cells beside the frontier join the candidates once no corner is left in the
        sea (0: none). Where 30 changed the guess (273 of 9,793 guesses in 3,000 expert games
        from a corner, mostly the first guess after all four corners show a number: a cell
        beside a corner's frontier instead of one further along the edge), the guess won 1.6%
        more played out on the same layouts, better in 127 positions and worse in 46; on
        intermediate 72 of 2,565 in 2,000 games, 2.3% more (+-0.6), 39 better and 13 worse; with
        an opening 6 of 2,266, none on beginner. While a corner is free they are left out: the
        look ahead would prefer them to the corner, which played out wins as often or more
        (docs/PLAY-STUDIES.md).
    defer_regions : bool
        Leave for last, in steps 3-5, every region of unknown cells but the largest (cells
        that no click elsewhere tells anything about, such as a corner's cells walled off by
        mines: see :mod:`msanalysis.play.regions`); the mine count may settle them once the
        rest is solved. Where it changed the guess (39 of 4,348 guesses in 2,000 expert games
        with an opening, 22 of 6,257 in 2,000 from a corner), the guess won 0.43% (+-0.20) and
        0.82% (+-0.32) more played out on the same layouts, better in 40 positions and worse
        in 15: about a game in 11,000 (the rows of 200,000 games played with it and without:
        docs/PLAY-STUDIES.md, "The rows, default by default").
    endgame_layouts, endgame_nodes : int
        The most layouts for the exact endgame search, and its budget of sets of layouts
        solved: at most 100,000 and 10,000,000, since the search's tables grow with both (a
        search of 60,000 layouts spends a budget of 100,000 in about a minute). Searching
        exactly up to 3,000 layouts rather than 1,000 (the budget raised with it, from
        100,000) changed 106 of 16,206 guesses in 6,000 expert games, and the guess won 0.9%
        more (+-0.2) played out on the same layouts, better in 55 positions and worse in 22;
        where it changes nothing it costs nothing, but the longest games take longer.
    drawn_endgame, drawn_layouts : int
        The most layouts left for the endgame search on drawn layouts (0: none), and how many
        are drawn (at most 100,000). On 200,000 expert games with an opening at (3, 3) it won
        0.10% more than without (54.12% against 54.03% on the same boards); on beginner and
        intermediate it changes a game in a few thousand.
    unavoidable : bool
        Take an unavoidable guess first (step 2). Where it changes the guess (83 of 5,893
        guesses in 1,800 expert games), its guess won 0.45% more (+-0.16) played out on the
        same layouts, 1.7% more where the cells are a chain: a game in 5,000 all told.
    fifty_fifty : bool
        Weigh the 50/50s that may form (step 5).
    block_missing : int
        How many of a 2x2 block's four corners may still be unknown for the block to count as
        a 50/50 that may form (0 or 1; a pair may always wait for one mine beyond it). The
        layouts counted hold a mine at every corner either way: 1 only lets a block that
        waits for one more mine count as the pair does. Where 1 changed the guess (206 of
        4,480 guesses in 2,000 expert games with an opening), the guess won 0.64% (+-0.20) more
        played out on the same layouts, better in 119 positions and worse in 78; from a corner
        (338 of 6,515) +0.16% (+-0.21), 142 against 141. On the expert row's 200,000 boards
        with an opening it won 7 games fewer than 0, so 0 stays the default
        (docs/PLAY-STUDIES.md, "A 2x2 block that waits for one corner").
    blend : float
        How much the second safest next guess counts beside the safest one in step 4 (see
        :meth:`msanalysis.play.outlook.Outlook.outcomes`); 0 counts the safest only. The default
        0.25 is JSMinesweeper's 4:1.
    lone_safe : bool
        In step 4, count a number that makes exactly one cell safe as a next guess of that
        cell blended with the safest cell left (``blend``), not as a guess avoided: one safe
        cell leads to the guess after it sooner than two (the Java solver's valuation; see
        :meth:`msanalysis.play.outlook.Outlook.outcomes`). It changes one guess in ten with
        an opening; on the expert row with an opening it won 132 games more of 200,000 (+1.32 a
        chunk of 2,000, standard error 0.43), so True is the default; False plays as ``best``
        did before (docs/PLAY-STUDIES.md, "A lone safe cell is not a guess avoided").
    living : bool
        With ``lone_safe``, count only the living cells a number makes safe: a dead one, whose
        own number is then fixed, is no progress (the Java solver's living clears; see
        :class:`msanalysis.play.outlook.Outlook`). On the expert row with an opening it won
        84 games more of 200,000 (+0.84 a chunk of 2,000, standard error 0.22), so True
        is the default; False plays as ``best`` did before (docs/PLAY-STUDIES.md, "Dead safe
        cells are no progress").
    book : str, optional
        An opening book (:mod:`msanalysis.play.book`): the name of one shipped with the package
        or the path of a book file. In a position the book holds, its guess is played instead
        of steps 1-5.

    Examples
    --------
    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> p = Position.from_text("mines: 1\\n??\\n11")
    >>> BestStrategy().choose(p, analyze(p))
    [Move(kind='reveal', cell=(0, 0), guess=True, explanation=None)]
    >>> p = Position.from_text("mines: 10\\n1" + "?" * 8 + "\\n" + "\\n".join(["?" * 9] * 8))
    >>> move = BestStrategy(explain=True).choose(p, analyze(p))[0]
    >>> move.cell, move.explanation
    ((0, 8), 'guess: mine probability 11.69% (lowest 11.69%), chance of progress 60.18%')

    Notes
    -----
    One exact count of the position per guess; per candidate, one count of the components it
    touches (every number it may show at once). The endgame search is exponential in the number of
    layouts, bounded by ``endgame_nodes``.
    """

    name = "best"

    def __init__(self, *, seed: int | None = None, flag_mines: bool = False,
                 explain: bool = False, margin: float = 0.1, candidates: int = 30,
                 sea_candidates: int = 4, endgame_layouts: int = 3000,
                 endgame_nodes: int = 300_000, fifty_fifty: bool = True,
                 blend: float = 0.25, quick_look: bool = True, book: str | None = None,
                 drawn_endgame: int = 100_000, drawn_layouts: int = 1000,
                 unavoidable: bool = True, near_sea: int = 30,
                 defer_regions: bool = True, block_missing: int = 0,
                 lone_safe: bool = True, living: bool = True) -> None:
        super().__init__(seed=seed, flag_mines=flag_mines, explain=explain,
                         quick_look=quick_look)
        margin, blend = _share(margin, "margin"), _share(blend, "blend")
        candidates = as_count(candidates, "candidates", 1)
        sea_candidates = as_count(sea_candidates, "sea_candidates", 0)
        near_sea = as_count(near_sea, "near_sea", 0)
        endgame_layouts = as_count(endgame_layouts, "endgame_layouts", 0, _MOST_LAYOUTS)
        endgame_nodes = as_count(endgame_nodes, "endgame_nodes", 1, _MOST_NODES)
        drawn_endgame = as_count(drawn_endgame, "drawn_endgame", 0)
        drawn_layouts = as_count(drawn_layouts, "drawn_layouts", 1, _MOST_LAYOUTS)
        check_flag(fifty_fifty, "fifty_fifty")
        check_flag(unavoidable, "unavoidable")
        check_flag(defer_regions, "defer_regions")
        check_flag(lone_safe, "lone_safe")
        check_flag(living, "living")
        self.margin = margin
        self.candidates = candidates
        self.sea_candidates = sea_candidates
        self.endgame_layouts = endgame_layouts
        self.endgame_nodes = endgame_nodes
        self.fifty_fifty = fifty_fifty
        self.blend = blend
        self.drawn_endgame = drawn_endgame
        self.drawn_layouts = drawn_layouts
        self.unavoidable = unavoidable
        self.near_sea = near_sea
        self.defer_regions = defer_regions
        self.block_missing = as_count(block_missing, "block_missing", 0, 1)
        self.lone_safe = lone_safe
        self.living = living
        if book is not None and not isinstance(book, str):
            raise WrongType(f"book is the name of a shipped book or a book file's path, got "
                            f"{book!r}")
        self.book = None if book is None else _book(book)
        # Everything a guess depends on besides the position: the key of remembered guesses.
        self._options = (margin, candidates, sea_candidates, endgame_layouts, endgame_nodes,
                         fifty_fifty, blend, explain, drawn_endgame, drawn_layouts, unavoidable,
                         near_sea, defer_regions, self.block_missing, lone_safe, living)

    def guess(self, position: Position, analysis: Any) -> Move:
        """The guess: the book's, else the endgame's first click, else the candidate that looks
        best ahead (remembered for the position: the same position gets the same guess)."""
        self._check(position, analysis, "guess")
        if self.book is not None:
            cell = self.book.guess(position)
            if cell is not None:
                explanation = "guess: the opening book's" if self.explain else None
                return Move(REVEAL, cell, guess=True, explanation=explanation)
        key = (position.states.tobytes(), position.shape, position.total_mines,
               analysis.ignore_flags, self._options)
        move = _GUESSES.get(key)
        if move is None:
            move = self._guess(position, analysis)
            if analysis.all_forced:
                if len(_GUESSES) >= _GUESS_LIMIT:
                    _GUESSES.clear()
                _GUESSES[key] = move
        return move

    def _guess(self, position: Position, analysis: Any) -> Move:
        """Steps 1-5 (see the class)."""
        endgame = self._endgame_move(analysis)
        if endgame is not None:
            return endgame
        unavoidable = unavoidable_cells(analysis) if self.unavoidable else []
        bonus: dict[Cell, float]
        if unavoidable:  # step 2: the look ahead chooses among them alone, with no bonus
            risks, picked, bonus = _Risks.of(position, analysis), unavoidable, {}
        else:
            risks, picked, bonus = self._picked(position, analysis)
        cell, progress = self._best_candidate(analysis, risks, picked, bonus)
        explanation = None
        if self.explain:
            why = ("unavoidable (no other click can ever tell this cell from its pair or chain), "
                   if unavoidable else "")
            explanation = (f"guess: {why}mine probability {risks.probabilities[cell]:.2%} "
                           f"(lowest {risks.lowest:.2%}), chance of progress {progress:.2%}")
            if cell in bonus:  # never for an unavoidable guess: it is chosen with no bonus
                explanation += (f"; a 50/50 may form here, which raises its chance by "
                                f"{bonus[cell] - 1:.2%}")
        return Move(REVEAL, cell, guess=True, explanation=explanation)

    def considered(self, position: Position, analysis: Any) -> list[Cell]:
        """The cells step 3 picks for the look ahead (frontier cells safest first, then sea
        cells most likely to open a cascade, and once no corner is free those beside the
        frontier), when no cell is forced safe."""
        self._check(position, analysis, "considered")
        return self._candidates(analysis, _Risks.of(position, analysis, self.defer_regions))

    def ranked(self, position: Position, analysis: Any) -> list[tuple[Cell, float]]:
        """Every candidate of steps 3-5 with its value, best first: what the look ahead makes
        of each (with its 50/50 bonus), none dropped early.

        The first is the guess of steps 3-5 (the endgame, an unavoidable guess and the book
        aside). For studies of the runners-up; :meth:`guess` drops candidates as soon as they
        cannot win, which this does not.

        Examples
        --------
        >>> from msanalysis.analysis import analyze
        >>> p = Position.from_text("mines: 10\\n1" + "?" * 8 + "\\n" + "\\n".join(["?" * 9] * 8))
        >>> [(cell, round(value, 4)) for cell, value in BestStrategy().ranked(p, analyze(p))][:3]
        [((0, 8), 0.8527), ((8, 0), 0.8527), ((8, 8), 0.8527)]
        """
        self._check(position, analysis, "ranked")
        risks, picked, bonus = self._picked(position, analysis)
        outlook = self._outlook(analysis)
        values = []
        for cell in picked:
            value, _ = _look_ahead(outlook, risks, cell)
            values.append((_rank(value * bonus.get(cell, 1.0)), cell))
        return [(cell, -key) for key, cell in sorted(values)]

    def _outlook(self, analysis: Any) -> Outlook:
        """Step 4's look ahead over ``analysis``, with the options that value a reveal."""
        return Outlook(analysis, blend=self.blend, lone_safe=self.lone_safe, living=self.living)

    def _picked(self, position: Position, analysis: Any
                ) -> tuple[_Risks, list[Cell], dict[Cell, float]]:
        """Steps 3 and 5: the risks, the candidates and their 50/50 bonus factors."""
        risks = _Risks.of(position, analysis, self.defer_regions)
        picked = self._candidates(analysis, risks)
        bonus = self._fifty_fifty_bonus(analysis, risks, picked) if self.fifty_fifty else {}
        return risks, picked, bonus

    def endgame_search(self, solutions: int) -> str | None:
        """Which endgame search step 1 runs with ``solutions`` layouts left: ``"exact"`` over
        every one, ``"drawn"`` over layouts drawn from them, or None (steps 2-5 guess).

        Examples
        --------
        >>> [BestStrategy().endgame_search(n) for n in (3000, 3001, 100_000, 100_001)]
        ['exact', 'drawn', 'drawn', None]
        """
        return self._endgame_search(as_count(solutions, "solutions"))

    def _endgame_search(self, solutions: int) -> str | None:
        if solutions <= self.endgame_layouts:
            return "exact"
        return "drawn" if solutions <= self.drawn_endgame else None

    def _endgame_move(self, analysis: Any) -> Move | None:
        """Step 1: the endgame search's first click, over every layout left when few are, or
        over layouts drawn from them when at most ``drawn_endgame`` are."""
        if analysis.constraints.remaining is None:
            return None
        solutions = analysis.solutions
        search = self._endgame_search(solutions)
        if search is None or _open_cells(analysis) > _MOST_ENDGAME_CELLS:
            return None
        if search == "exact":
            layouts, searched = None, f"{solutions} layouts left"
        elif search == "drawn":
            layouts = _drawn(analysis, self.drawn_layouts)
            if layouts is None:
                return None
            searched = f"{len(layouts)} layouts drawn of the {solutions} left"
        solved = Endgame(analysis, self.endgame_nodes, layouts=layouts).best()
        if solved is None:
            return None
        cell, chance = solved
        explanation = None
        if self.explain:
            explanation = (f"endgame: {searched}; revealing this cell first wins with "
                           f"probability {chance:.2%} on them, the most of any sequence of "
                           f"clicks")
            if layouts is not None and len(layouts) < solutions:
                # Measured: where the search on drawn layouts claimed 69% on average, 40% of
                # the games were won (docs/PLAY-STUDIES.md). Its choice holds up; its chance not.
                explanation += " (a sample's chance: in the game it is usually lower)"
        return Move(REVEAL, cell, guess=True, explanation=explanation)

    def _candidates(self, analysis: Any, risks: _Risks) -> list[Cell]:
        """Step 3: the safest frontier cells, the sea cells most likely to open a cascade, and
        once no corner is free the sea cells beside the frontier most likely to open one.

        Sea cells are many and alike: the quick estimate picks a few of them; frontier cells go
        in safest first. With no sea candidates and the sea safest by more than the margin,
        the safest cell (row-major among equals) is the one candidate.
        """
        eligible = risks.unknown & (risks.probabilities <= risks.lowest + self.margin + 1e-12)
        sea = np.zeros_like(eligible)
        for cell in analysis.constraints.sea:
            sea[cell] = True
        picked: list[Cell] = []
        groups = [(eligible & ~sea, risks.probabilities, self.candidates),
                  (eligible & sea, -risks.estimate, self.sea_candidates)]
        height, width = sea.shape
        corner_free = any(sea[row, col] for row in (0, height - 1) for col in (0, width - 1))
        if self.near_sea and not corner_free:
            beside = neighbour_counts(risks.unknown & ~sea) > 0  # next to a frontier cell
            groups.append((eligible & sea & beside, -risks.estimate, self.near_sea))
        for mask, key, limit in groups:
            rows, cols = np.nonzero(mask)
            order = np.lexsort((cols, rows, key[rows, cols]))[:limit]
            picked += [cell for i in order.tolist()
                       if (cell := (int(rows[i]), int(cols[i]))) not in picked]
        if not picked:  # the safest cells are in the sea and none are asked for: a guess is due
            rows, cols = np.nonzero(eligible)
            first = np.lexsort((cols, rows, risks.probabilities[rows, cols]))[0]
            picked.append((int(rows[first]), int(cols[first])))
        return picked

    def _fifty_fifty_bonus(self, analysis: Any, risks: _Risks,
                           picked: list[Cell]) -> dict[Cell, float]:
        """Step 5: the factor by which a 50/50 that may form raises a cell's chance.

        A guess there is partly a guess that would have to be made anyway (see
        :mod:`msanalysis.play.longterm`). Such cells join ``picked`` when the bonus may bring
        them close to the safest.
        """
        bonus: dict[Cell, float] = {}
        risk = LongTermRisk(analysis, self.block_missing)
        solutions = analysis.solutions
        rows, cols = np.nonzero(risk.cells & risks.unknown)
        for cell in zip(rows.tolist(), cols.tolist()):
            influence = risk.influence(cell)
            if influence:
                safe_layouts = solutions - analysis.mine_layouts(cell)
                bonus[cell] = 1 + 0.9 * (influence / safe_layouts)  # ratio first: huge counts
                if Fraction(safe_layouts + influence, solutions) >= 0.9 * (1 - risks.lowest) \
                        and cell not in picked:
                    picked.append(cell)
        return bonus

    def _best_candidate(self, analysis: Any, risks: _Risks, picked: list[Cell],
                        bonus: dict[Cell, float]) -> tuple[Cell, float]:
        """Step 4: the candidate with the best chance two guesses ahead, and its progress.

        Candidates are examined best quick estimate first (with its 50/50 bonus), so that good
        values come early and prune the rest: the estimate's best is the winner two times in
        three, the safest cell one in three. The order changes no choice: a candidate is
        dropped only when it is sure to fall short of the best by more than a tie, and ties go
        to the first cell row-major.
        """
        outlook = self._outlook(analysis)
        best = None
        order = sorted(picked, key=lambda cell: (-risks.estimate[cell] * bonus.get(cell, 1.0),
                                                 cell))
        for cell in order:
            factor = bonus.get(cell, 1.0)
            # What a cell must beat; values within rounding of the best are ties, which go to
            # the first cell row-major, so they are worked out in full.
            floor = None if best is None else -best[0][0] - TIE
            if floor is not None and risks.safe[cell] * factor <= floor:
                continue  # even a guess that surely makes progress cannot beat the best
            found = _look_ahead(outlook, risks, cell, None if floor is None else floor / factor)
            if found is None:
                continue  # it cannot beat the best so far
            value, progress = found
            key = (_rank(value * factor), cell)
            if best is None or key < best[0]:
                best = (key, cell, progress)
        assert best is not None, "the safest candidate is always examined"
        _, cell, progress = best
        return cell, progress


def _open_cells(analysis: Any) -> int:
    """The unknown cells of the position that are not certain mines: the cells an endgame
    search may click."""
    constraints, mines = analysis.constraints, analysis.forced_mines
    cells = itertools.chain(constraints.sea, *(c.cells for c in constraints.components))
    return sum(cell not in mines for cell in cells)


def _drawn(analysis: Any, count: int) -> list[tuple[Cell, ...]] | None:
    """``count`` layouts drawn uniformly from the position, repeats dropped, in a fixed order;
    None when its frontier has too many ways to hold mines to draw from.

    The generator is seeded by the position, so that the same position draws the same layouts
    (and gets the same guess) in every process.
    """
    try:
        sampler = LayoutSampler(analysis.constraints)
    except AnalysisTooHard:
        return None
    rng = random.Random(zlib.crc32(analysis.constraints.position.states.tobytes()))
    return sorted({tuple(sorted(sampler.draw(rng))) for _ in range(count)})


_MOST_LAYOUTS = 100_000
"""The most layouts an endgame search may be given: each is a row of its tables and a bit of
every set it remembers."""

_MOST_ENDGAME_CELLS = 150
"""The most unknown cells (certain mines aside) an endgame search is run on; the look ahead
guesses where there are more. The search's time grows with about the cube of the cells it may
click (0.4 s for 100 cells with one mine among them, 1.5 s for 150, 13 s for 300, 7 minutes
for 900), which only a board with few mines left among many cells has: on 600 expert games
from a corner and 600 with an opening, 3,000 beginner and 2,000 intermediate games, no search
had more than 68."""

_MOST_NODES = 10_000_000
"""The most sets of layouts an endgame search may solve: each is remembered."""


def _share(value: Any, name: str) -> float:
    """An option that is a number from 0 to 1 (a probability's margin, a weight)."""
    share = as_real(value)
    if not 0 <= share <= 1:
        raise InvalidInput(f"{name} is a number from 0 to 1, got {value!r}")
    return share


def _rank(value: float) -> float:
    """A candidate's sort key: its value negated (best first), rounded so that values that
    differ only by rounding tie (ties then go to the first cell row-major)."""
    return -round(value, 12)


@overload
def _look_ahead(outlook: Outlook, risks: _Risks, cell: Cell,
                cutoff: None = None) -> tuple[float, float]: ...
@overload
def _look_ahead(outlook: Outlook, risks: _Risks, cell: Cell,
                cutoff: float | None) -> tuple[float, float] | None: ...

def _look_ahead(outlook: Outlook, risks: _Risks, cell: Cell,
                cutoff: float | None = None) -> tuple[float, float] | None:
    """``(value, progress)`` of a candidate by the look ahead (None: at most ``cutoff``); the
    quick estimate when recounting its component is too hard."""
    try:
        return outlook.lookahead(cell, cutoff=cutoff)
    except AnalysisTooHard:
        return float(risks.estimate[cell]), float(risks.quick[cell])


@cache
def _book(name: str) -> OpeningBook:
    """A shipped book by name, else a book file (read once per process)."""
    return OpeningBook.named(name) if name in BOOKS else OpeningBook.load(name)


def _neighbour_product(values: np.ndarray) -> np.ndarray:
    """For every cell, the product of ``values`` over its neighbours (1 beyond the edge)."""
    height, width = values.shape
    padded = np.ones((height + 2, width + 2))
    padded[1:-1, 1:-1] = values
    product = np.ones_like(values)
    for dr, dc in _OFFSETS:
        product *= padded[1 + dr:1 + dr + height, 1 + dc:1 + dc + width]
    return product
