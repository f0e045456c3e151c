"""Layouts drawn uniformly at random from a position, exactly.

:class:`LayoutSampler` lists, per component of a position, the ways its boxes can hold mines
(weighted by the ways to choose the cells within each box), ties the components and the sea
together over the mine count with exact integer polynomials, and then draws a whole layout:
every layout consistent with the position comes out with the same probability. The rollouts of
:mod:`msanalysis.play.rollout` play positions out on such layouts. Counting without drawing is
:mod:`msanalysis.counting`'s and :mod:`msanalysis.joining`'s job.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from math import comb

from msanalysis.board import Cell, as_count
from msanalysis.constraints import Component, Constraints
from msanalysis.errors import AnalysisTooHard, InconsistentPosition, InvalidInput, check_type

__all__ = ["LayoutSampler"]


@dataclass(frozen=True)
class _Ways:
    """The box assignments of one component that hold ``mines`` mines, for drawing one."""

    assignments: list[tuple[int, ...]]
    """Mines per box, one tuple per assignment."""
    cumulative: list[int]
    """Running sums of the assignments' weights (cells chosen within boxes)."""


class LayoutSampler:
    """Draw layouts of a position's unknown cells, each consistent layout equally likely.

    Parameters
    ----------
    constraints : Constraints
        The position, with its mine count known.
    limit : int
        The most box assignments listed over all components; a position with more raises
        :class:`~msanalysis.errors.AnalysisTooHard` (the sampler is for positions whose
        frontier is small, such as the first guesses of a game).

    Raises
    ------
    InvalidInput
        When the mine count is unknown (layouts with any number of mines are not a
        distribution the game draws from).
    InconsistentPosition
        When no layout fits the position.

    Examples
    --------
    >>> import random
    >>> from msanalysis.constraints import build
    >>> from msanalysis.position import Position
    >>> sampler = LayoutSampler(build(Position.from_text("mines: 2\\n???\\n1??")))
    >>> sampler.solutions
    6
    >>> sorted(sampler.draw(random.Random(0)))
    [(0, 0), (1, 2)]

    Notes
    -----
    Listing is proportional to the box assignments of the components (pruned by the clues);
    each draw then costs a binary search per component, plus choosing the cells: about
    O(components * log(assignments) + unknown cells).
    """

    def __init__(self, constraints: Constraints, *, limit: int = 200_000) -> None:
        check_type(constraints, Constraints, "LayoutSampler", "build(position) makes them")
        limit = as_count(limit, "limit", 1)
        if constraints.remaining is None:
            raise InvalidInput("drawing layouts needs the mine count")
        self.constraints = constraints
        self._components = list(constraints.components)
        listed = [_assignments(constraints, c, limit) for c in self._components]
        if sum(len(ways) for ways in listed) > limit:
            raise AnalysisTooHard(f"more than {limit} ways to place mines on the frontier")
        self._ways: list[dict[int, _Ways]] = []
        polynomials = []
        for component, assignments in zip(self._components, listed):
            by_mines: dict[int, list[tuple[tuple[int, ...], int]]] = {}
            for values in assignments:
                weight = 1
                for box, k in zip(component.boxes, values):
                    weight *= comb(len(box), k)
                by_mines.setdefault(sum(values), []).append((values, weight))
            ways, polynomial = {}, {}
            for mines, listed_ways in by_mines.items():
                running, cumulative = 0, []
                for _, weight in listed_ways:
                    running += weight
                    cumulative.append(running)
                ways[mines] = _Ways([values for values, _ in listed_ways], cumulative)
                polynomial[mines] = running
            self._ways.append(ways)
            polynomials.append(polynomial)
        # after[i][m]: the ways components i.. and the sea hold m mines together, for the m up
        # to the mines left (a large sea with few mines is common on large boards).
        after: list[dict[int, int]] = [_sea_ways(len(constraints.sea), constraints.remaining)]
        for polynomial in reversed(polynomials):
            product: dict[int, int] = {}
            for a, x in polynomial.items():
                for b, y in after[-1].items():
                    if a + b <= constraints.remaining:
                        product[a + b] = product.get(a + b, 0) + x * y
            after.append(product)
        after.reverse()
        self._polynomials = polynomials
        self._after = after
        self._choices: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self.solutions: int = after[0].get(constraints.remaining, 0)
        """The number of layouts consistent with the position."""
        if not self.solutions:
            raise InconsistentPosition("no layout of mines fits the position")

    def _mine_counts(self, i: int, left: int) -> tuple[list[int], list[int]]:
        """The mines component ``i`` may hold when it and those after it and the sea hold
        ``left``, and the running sums of the layouts with each (worked out once: draws
        come back to the same few)."""
        key = (i, left)
        found = self._choices.get(key)
        if found is None:
            rest = self._after[i + 1]
            counts, cumulative, running = [], [], 0
            for m, x in self._polynomials[i].items():
                running += x * rest.get(left - m, 0)
                counts.append(m)
                cumulative.append(running)
            found = self._choices[key] = (counts, cumulative)
        return found

    def draw(self, rng: random.Random) -> frozenset[Cell]:
        """One layout, as the set of mines among the unknown cells (known mines left out)."""
        check_type(rng, random.Random, "LayoutSampler.draw", "random.Random(seed) makes one")
        left = self.constraints.remaining
        assert left is not None
        mines: list[Cell] = []
        for i, component in enumerate(self._components):
            counts, cumulative = self._mine_counts(i, left)
            m = counts[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            ways = self._ways[i][m]
            values = ways.assignments[bisect.bisect_right(ways.cumulative,
                                                          rng.randrange(ways.cumulative[-1]))]
            for box, k in zip(component.boxes, values):
                # The same cells, and the same numbers taken from ``rng``, as rng.sample(box,
                # k), which for k = 0 takes none and for k = 1 one, randrange(len(box)); most
                # boxes hold 0 or 1, and sample's checks were most of a draw's time.
                if k == 1:
                    mines.append(box[rng.randrange(len(box))])
                elif k:
                    mines += rng.sample(box, k)
            left -= m
        mines += rng.sample(self.constraints.sea, left)
        return frozenset(mines)


def _sea_ways(sea: int, most: int) -> dict[int, int]:
    """``{m: comb(sea, m)}`` for ``m`` from 0 to ``min(sea, most)``, each from the one before.

    >>> _sea_ways(4, 2), _sea_ways(2, 5)
    ({0: 1, 1: 4, 2: 6}, {0: 1, 1: 2, 2: 1})
    """
    ways, way = {}, 1
    for m in range(min(sea, most) + 1):
        ways[m] = way
        way = way * (sea - m) // (m + 1)
    return ways


def _assignments(constraints: Constraints, component: Component,
                 limit: int) -> list[tuple[int, ...]]:
    """Every way to give the component's boxes mines that meets its clues (mines per box)."""
    sizes = [len(box) for box in component.boxes]
    local = {j: i for i, j in enumerate(component.box_ids)}
    clues = [constraints.clues[i] for i in component.clue_ids]
    need = [clue.mines for clue in clues]
    room = [sum(sizes[local[j]] for j in clue.boxes) for clue in clues]
    clues_of: list[list[int]] = [[] for _ in sizes]
    for c, clue in enumerate(clues):
        for j in clue.boxes:
            clues_of[local[j]].append(c)
    count = len(sizes)
    if not count:
        return [()]
    # Depth first over the boxes, a box's mines in increasing order, with the boxes' states on
    # lists rather than the call stack (a component may have thousands of boxes).
    values, high, placed = [0] * count, [0] * count, [False] * count
    found: list[tuple[int, ...]] = []

    def enter(b: int) -> None:
        """Start box ``b``: the range its mines may take now, and its room taken."""
        mine = clues_of[b]
        low = max([0] + [need[c] - room[c] + sizes[b] for c in mine])
        high[b] = min([sizes[b]] + [need[c] for c in mine])
        for c in mine:
            room[c] -= sizes[b]
        values[b], placed[b] = low - 1, False

    enter(0)
    b = 0
    while b >= 0:
        mine = clues_of[b]
        if placed[b]:
            for c in mine:
                need[c] += values[b]
        k = values[b] + 1
        if k > high[b]:  # every value of box b tried: back to the box before
            for c in mine:
                room[c] += sizes[b]
            b -= 1
            continue
        values[b], placed[b] = k, True
        for c in mine:
            need[c] -= k
        if b + 1 < count:
            b += 1
            enter(b)
        else:
            found.append(tuple(values))
            if len(found) > limit:
                raise AnalysisTooHard(f"more than {limit} ways to place mines on the frontier")
    return found
