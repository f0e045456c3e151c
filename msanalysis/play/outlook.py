"""What revealing one cell would show, counted exactly: the look ahead of the ``best`` strategy.

For a position that needs a guess, :class:`Outlook` takes a candidate cell and, for every number
it may show, counts the layouts that show it, says whether some other cell then becomes safe
(*progress*) and how safe the next guess would be otherwise. Only the components the cell
touches are counted again; the others keep their counts and everything is joined over the mine
count with the sea, as :func:`msanalysis.joining.count` does.
"""

from __future__ import annotations

import contextlib
import heapq
import math
from fractions import Fraction
from typing import Any, NamedTuple, overload

from msanalysis.analysis import Analysis
from msanalysis.board import Cell, as_cell, neighbours
from msanalysis.counting import ComponentCount, Problem, count_by_need, count_component
from msanalysis.errors import (
    InconsistentPosition,
    InvalidInput,
    as_real,
    check_flag,
    check_type,
)
from msanalysis.joining import Backdrop, join, together

__all__ = ["Outcome", "Outlook"]


class Outlook:
    """What revealing one cell would show, counted exactly, for a position that needs a guess.

    For a cell ``c`` and each number ``v`` it may show, the position with ``c`` revealed as ``v``
    differs from the current one only in the components ``c`` touches: those are counted again,
    once for every ``v`` together (with :func:`msanalysis.counting.count_by_need`, the cell's
    own clue left open), the others keep their counts, and all are joined over the mine count
    with the sea, as :func:`msanalysis.joining.count` does.

    Parameters
    ----------
    analysis : Analysis
        The analysis of the position, with its exact counts.
    blend : float
        How much the second safest next guess counts beside the safest one (see
        :meth:`outcomes`).
    lone_safe : bool
        Count a reveal that makes exactly one other cell safe as a next guess of that cell
        blended with the safest cell left, not as a guess avoided (see :meth:`outcomes`).
    living : bool
        With ``lone_safe``, count only the living cells a reveal makes safe: a dead one, whose
        own number is then fixed, tells nothing (see :meth:`outcomes`).

    Examples
    --------
    A corner of an empty 4x4 board with 3 mines is safe in 455 of the 560 layouts: it shows 0
    in 220 (its three neighbours are then safe), 1 in 198, 2 in 36 and 3 in 1 (the mine count
    then clears the rest). After a 1 the safest next guess is one of the 12 far cells, which
    hold 2 mines.

    >>> from msanalysis.analysis import analyze
    >>> from msanalysis.position import Position
    >>> outlook = Outlook(analyze(Position.from_text("mines: 3\\n????\\n????\\n????\\n????")))
    >>> [(o.number, o.layouts, o.progress) for o in outlook.outcomes((0, 0))]
    [(0, 220, True), (1, 198, False), (2, 36, False), (3, 1, True)]
    >>> round(outlook.outcomes((0, 0))[1].safety, 4), outlook.progress((0, 0))
    (0.8333, Fraction(221, 560))

    Notes
    -----
    Per cell, one count of the components it touches, for every number it may show at once (see
    :func:`msanalysis.counting.count_by_need`), and per number one join over the mine count.
    """

    def __init__(self, analysis: Any, blend: float = 0.0, lone_safe: bool = False,
                 living: bool = False) -> None:
        check_type(analysis, Analysis, "Outlook", "analyze(position) makes one")
        # Built at every guess of every game: checks of type only, nothing that walks the board.
        if not 0 <= as_real(blend) < float("inf"):
            raise InvalidInput(f"blend is a number from 0 up, got {blend!r}")
        check_flag(lone_safe, "lone_safe")
        check_flag(living, "living")
        self.analysis = analysis
        self.blend = blend
        self.lone_safe = lone_safe
        self.living = living
        self.constraints = analysis.constraints
        self.counts = analysis.counts
        # Layout counts are shifted right by this many bits before they meet a float, so that
        # counts past a float's range (large boards) keep their ratios; 0 on usual boards.
        self._shift = max(0, self.counts.solutions.bit_length() - 960)
        self.component_of: dict[Cell, int] = {}
        for k, component in enumerate(self.constraints.components):
            self.component_of.update(dict.fromkeys(component.cells, k))
        self.sea = frozenset(self.constraints.sea)
        # Frontier cells that are mines in every layout stay so after any reveal: the recount
        # leaves them out of the clues (a clue then needs that many mines fewer), which spares
        # settling them again for every number of every candidate. (A sea full of mines stays
        # in the sea, which the join counts as a whole.)
        self.certain_mines = self.counts.forced()[1] - self.sea
        self.open_clues = [
            (clue.cell, clue.number, clue.mines - (len(clue.cells) - len(cells)), cells)
            for clue in self.constraints.clues
            for cells in [tuple(c for c in clue.cells if c not in self.certain_mines)]]
        self.certain_per_component = [sum(c in self.certain_mines for c in component.cells)
                           for component in self.constraints.components]
        # The two lowest mine probabilities of cells in each component, for the next guess after
        # a reveal.
        self.safest_two = []
        box_mines, boxes, solutions = self.counts.box_mines, self.constraints.boxes, \
            self.counts.solutions
        for component in self.constraints.components:
            # The same floats as the probabilities' Fractions give: both divisions round once.
            risks = [(box_mines[j] / (boxes[j].size * solutions), boxes[j].size)
                     for j in component.box_ids]
            self.safest_two.append(_two_lowest(risks))

    @overload
    def outcomes(self, cell: Cell, cutoff: None = None) -> list[Outcome]: ...
    @overload
    def outcomes(self, cell: Cell, cutoff: float) -> list[Outcome] | None: ...

    def outcomes(self, cell: Cell, cutoff: float | None = None) -> list[Outcome] | None:
        """What revealing ``cell`` may show: one :class:`Outcome` per possible number.

        ``layouts`` counts the layouts in which ``cell`` is safe and shows that number (they add
        up to the layouts in which it is safe); ``progress`` says whether some other cell is
        then safe in every layout; ``safety`` is 1 then, else the chance that the next guess is
        safe: ``1 - (r1 + blend * r2) / (1 + blend)`` for the two lowest mine probabilities
        ``r1 <= r2`` of cells left (with ``blend`` 0, the safest cell's chance). With ``lone_safe``,
        a number that makes exactly one cell safe (the numbers alone, not the mine count or the
        whole sea) is progress whose safety takes that cell as ``r1 = 0`` and the safest other
        cell as ``r2``: one safe cell is worth less than two (or 1 when only mines are left
        besides it: the game is won). With ``living`` too, only the safe cells that are living
        count: a safe cell is dead when each of its unknown neighbours is then a mine in every
        layout or safe in every layout, so that its own number is fixed; a number that makes
        only dead cells safe is worth the next guess as if nothing were safe (the Java solver's
        living clears). The components the reveal leaves alone keep their old probabilities
        there, an approximation: the mine count ties them weakly to the rest.

        With ``cutoff``, returns None as soon as the chance of surviving this guess and the next
        (see :meth:`lookahead`) is sure to be at most ``cutoff``.
        """
        constraints = self.constraints
        height, width = constraints.position.shape
        cell = as_cell(cell, height, width)
        if cutoff is not None and math.isnan(as_real(cutoff)):  # a string, None's kin, NaN
            raise InvalidInput(f"cutoff is a probability or None, got {cutoff!r}")
        solutions = self.counts.solutions
        if cutoff is not None:
            unseen = solutions - self.analysis.mine_layouts(cell)
            seen = 0.0
        if cell in self.certain_mines:
            return []
        around = list(neighbours(cell, height, width))
        near = [n for n in around if n in constraints.unknown]
        touched = sorted({self.component_of[n] for n in (cell, *near) if n in self.component_of})
        near = [n for n in near if n not in self.certain_mines]
        known = sum(n in constraints.known_mines or n in self.certain_mines for n in around)
        old_clues = []
        for k in touched:
            for i in constraints.components[k].clue_ids:
                at, shown, mines, cells = self.open_clues[i]
                if cell in cells:
                    cells = tuple(c for c in cells if c != cell)
                if cells:
                    old_clues.append((at, shown, mines, cells))
                elif mines:
                    return []  # the cell is a mine in every layout
        certain = sum(self.certain_per_component[k] for k in touched)
        others = [part for k, part in enumerate(self.counts.components) if k not in touched]
        rest = together(others)  # the untouched components as one part
        sea = len(self.sea) - sum(n in self.sea for n in (cell, *near))
        remaining = constraints.remaining
        # The clues of the touched components, and the cell's own (its number left open). Its
        # boxes are the same whatever number the cell shows; only its own clue's need changes.
        clues = [*old_clues, (cell, known, 0, tuple(near))] if near else old_clues
        problem = Problem.from_clues((at, mines, cells) for at, _, mines, cells in clues)
        # Every number at once: one count with the cell's own clue left open.
        by_number: dict[int, ComponentCount] = {}
        if near:
            by_number = count_by_need(problem, len(clues) - 1)
        elif clues:
            with contextlib.suppress(InconsistentPosition):
                by_number = {0: count_component(problem)}
        # The two safest cells of the untouched components, the same for every number: the
        # lowest two of everything come from them and the recounted part.
        far = heapq.nsmallest(2, [(r, 1) for k, two in enumerate(self.safest_two)
                                  if k not in touched for r in two])
        # The untouched components and the sea, weighed once for every number.
        backdrop = Backdrop(rest, sea, remaining) if remaining is not None else None
        rest_held = _held(rest)
        results = []
        for number in range(known, known + len(near) + 1):
            local = ComponentCount(certain, (1,)) if certain else None
            if clues:
                if number - known not in by_number:
                    continue
                local = by_number[number - known].shifted(certain)
            if backdrop is not None:
                layouts, sea_mines, box_mines = backdrop.join(local)
            else:
                joined = join([rest] if local is None else [rest, local], sea, remaining)
                layouts, sea_mines = joined.solutions, joined.sea_mines
                box_mines = [] if local is None else joined.box_mines(1)
            if layouts:
                made_safe = any(m == 0 for m in box_mines)  # by the numbers alone
                progress = made_safe
                if not progress and remaining is not None:
                    # The mine count may decide cells far away too.
                    parts = others if local is None else [*others, local]
                    fewest, held = rest.offset, rest_held
                    if local is not None:
                        fewest += local.offset
                        held = _held_together(rest_held, _held(local))
                    progress = _count_forces_safe(parts, fewest, held, sea, remaining)
                # With lone_safe, a single cell made safe is the next guess, blended with the
                # safest cell left (as two or more safe cells are blended with each other); with
                # living, dead safe cells do not count, and none living is no progress at all.
                safe = None  # not counted: without lone_safe, or with a sea left all safe
                if self.lone_safe and not (sea and sea_mines == 0):
                    safe = self._safe_count(cell, problem.boxes, box_mines, layouts,
                                            sea_mines == sea * layouts)
                lone = safe == 1 or (safe == 0 and made_safe)
                safety = 1.0
                if not progress or lone:
                    # The next guess: the untouched components keep (nearly) their
                    # probabilities; the recounted boxes and the sea are counted again.
                    risks = list(far)
                    risks += [(m / (len(box) * layouts), len(box))
                              for m, box in zip(box_mines, problem.boxes) if m]
                    if sea:
                        risks.append((sea_mines / (sea * layouts), sea))
                    if certain:
                        risks.append((1.0, certain))  # the certain mines left out above
                    first, second = _two_lowest(risks) or (0.0, 0.0)
                    if lone and first == 1.0:
                        first = second = 0.0  # nothing but mines left to guess: won
                    elif lone and safe:
                        first, second = 0.0, first
                    safety = 1.0 - (first + self.blend * second) / (1 + self.blend)
                results.append(Outcome(number, layouts, progress, safety))
                if cutoff is not None:
                    unseen -= layouts
                    seen += (layouts >> self._shift) * safety
                    if (seen + (unseen >> self._shift)) / (solutions >> self._shift) <= cutoff:
                        return None
            if not near:
                break  # a cell with no unknown neighbour shows one number only
        return results

    def _safe_count(self, cell: Cell, boxes: tuple[tuple[Cell, ...], ...], box_mines: list[int],
                    layouts: int, sea_full: bool) -> int:
        """How many cells of ``boxes`` revealing ``cell`` makes safe, the dead ones left out
        with ``living`` (``sea_full``: the sea is then all mines)."""
        safe = [c for m, box in zip(box_mines, boxes) if m == 0 for c in box]
        if not self.living or not safe:
            return len(safe)
        # Every cell whose state the reveal settles: the recounted boxes safe or full, the
        # certain mines and a sea of mines. Any other unknown cell (untouched components) is open.
        settled = set(self.certain_mines)
        if sea_full:  # what is left of the sea: the cells beside ``cell`` are in boxes now
            settled.update(self.sea.difference(*boxes))
        settled.update(c for m, box in zip(box_mines, boxes) if m in (0, len(box) * layouts)
                       for c in box)
        unknown = self.constraints.unknown
        height, width = self.constraints.position.shape
        return sum(any(n != cell and n in unknown and n not in settled
                       for n in neighbours(s, height, width)) for s in safe)

    def progress(self, cell: Cell) -> Fraction:
        """The probability that ``cell`` is safe and revealing it makes another cell safe."""
        layouts = sum(o.layouts for o in self.outcomes(cell) if o.progress)
        return Fraction(layouts, self.counts.solutions)

    @overload
    def lookahead(self, cell: Cell, cutoff: None = None) -> tuple[float, float]: ...
    @overload
    def lookahead(self, cell: Cell, cutoff: float | None) -> tuple[float, float] | None: ...

    def lookahead(self, cell: Cell, cutoff: float | None = None) -> tuple[float, float] | None:
        """``(chance of surviving this guess and the next one, progress)`` for ``cell``.

        The next guess is needed only when the reveal brings no progress; its chance is the
        ``safety`` of :meth:`outcomes`. None when that chance is at most ``cutoff``.
        """
        outcomes = self.outcomes(cell, cutoff)
        if outcomes is None:
            return None
        solutions = self.counts.solutions
        shift = self._shift
        survive = sum((o.layouts >> shift) * o.safety for o in outcomes) / (solutions >> shift)
        return survive, sum(o.layouts for o in outcomes if o.progress) / solutions


class Outcome(NamedTuple):
    """One number a cell may show (see :meth:`Outlook.outcomes`)."""

    number: int
    layouts: int
    progress: bool
    safety: float


def _count_forces_safe(parts: list[ComponentCount], fewest: int, held: int, sea: int,
                       remaining: int) -> bool:
    """Whether the mine count makes a box of some part, or the sea, safe in every layout.

    ``fewest`` and ``held`` say what the parts hold together: at least ``fewest`` mines, and
    ``fewest + t`` for each bit ``t`` of ``held`` (see :func:`_held`). Only a count that rules
    out some of their combined mine totals can make a cell safe; when it rules out none (the
    usual case, with a large sea) this costs nothing more.
    """
    # Holding fewest + t mines leaves remaining - fewest - t to the sea: t = top leaves none.
    top = remaining - fewest
    fits = 0 if top < 0 else ((1 << (top + 1)) - 1) >> max(0, top - sea) << max(0, top - sea)
    if sea and top >= 0 and held & fits == 1 << top:
        return True  # every layout puts all the mines on the frontier
    if not held & ~fits:
        # The count rules nothing out: each part is free, and a part with a forced cell of its
        # own would have made it forced before the reveal too.
        return False
    joined = join(parts, sea, remaining)
    return any(m == 0 for i in range(len(parts)) for m in joined.box_mines(i))


def _held(part: ComponentCount) -> int:
    """The numbers of mines ``part`` may hold, above its fewest: bit ``t`` for ``offset + t``.

    >>> bin(_held(ComponentCount(2, (1, 0, 3))))
    '0b101'
    """
    bits = 0
    for t, layouts in enumerate(part.layouts):
        if layouts:
            bits |= 1 << t
    return bits


def _held_together(a: int, b: int) -> int:
    """What two parts may hold together (each as :func:`_held` gives it): every sum.

    >>> bin(_held_together(0b101, 0b11))
    '0b1111'
    """
    sums = 0
    t = 0
    while b:
        if b & 1:
            sums |= a << t
        b >>= 1
        t += 1
    return sums


def _two_lowest(risks: list[tuple[float, int]]) -> tuple[float, float] | tuple[()]:
    """The two lowest mine probabilities of single cells, given ``(probability, cells)`` pairs.

    A pair stands for that many cells sharing the probability, so it may give both; a lone cell
    gives both when it is the only one. Empty when there is no cell.

    >>> _two_lowest([(0.3, 1), (0.1, 1), (0.2, 5)])
    (0.1, 0.2)
    >>> _two_lowest([(0.3, 1), (0.1, 2)]), _two_lowest([(0.4, 1)]), _two_lowest([])
    ((0.1, 0.1), (0.4, 0.4), ())
    """
    first = second = None
    for r, cells in risks:
        if cells:
            item = (r, 1 if cells == 1 else 2)
            if first is None or item < first:
                first, second = item, first
            elif second is None or item < second:
                second = item
    if first is None:
        return ()
    if first[1] > 1 or second is None:
        return first[0], first[0]
    return first[0], second[0]
