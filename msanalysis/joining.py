"""A whole position's exact counts: counted parts joined with the sea over the mine count.

:mod:`msanalysis.counting` counts each component on its own, by number of mines. The mine
count ties them together: :func:`join` weighs every way the components' mines add up with the
layouts of the *sea* (the unknown cells beside no clue) that hold the rest,
``comb(sea_cells, remaining_mines - frontier_mines)``, and gives the layouts of the whole and
the mines each box holds across them. :class:`Backdrop` joins many alternatives of one part with
everything else joined once (the numbers a revealed cell may show, for the look ahead).
:func:`count` does all of it for a position, :class:`Count` holds the result. Everything is an
exact Python integer; probabilities are :class:`~fractions.Fraction` s.

With the total mine count unknown, every layout is taken as equally likely, whatever its number
of mines (so a sea cell is a mine with probability 1/2).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lgamma, log
from operator import mul

from msanalysis.board import Cell
from msanalysis.constraints import Constraints
from msanalysis.counting import ComponentCount, Problem, count_component
from msanalysis.errors import InconsistentPosition, TimeLimitReached, time_is_up

__all__ = ["Backdrop", "Count", "Joined", "count", "count_of_parts", "join", "polynomial_product",
           "together"]


class Joined:
    """Counted parts joined with the sea over the total mine count (see :func:`join`).

    Attributes
    ----------
    solutions : int
        Layouts of all the parts and the sea together.
    sea_mines : int
        Mines in the sea, summed over those layouts.
    """

    def __init__(self, parts: Sequence[ComponentCount], sea: int, remaining: int | None,
                 deadline: float | None = None) -> None:
        self.parts = list(parts)
        self.sea = sea
        self.remaining = remaining
        self._deadline = deadline
        if remaining is None:
            # Every layout counts once: the sea is free and the parts are independent.
            product = 1
            for part in self.parts:
                product *= part.total
            self.solutions = product << sea
            self.sea_mines = (product * sea) << (sea - 1) if sea else 0
            self._product = product
            return
        base = sum(part.offset for part in self.parts)
        spread = sum(len(part.layouts) - 1 for part in self.parts)
        # weight[t]: layouts of the sea when the parts hold base + t mines.
        weight = _sea_layouts(sea, remaining - base, spread + 1, deadline)
        sea_weight = [w * (remaining - base - t) for t, w in enumerate(weight)]
        # suffix[i][t]: layouts of parts i.. and the sea, given base + t mines before part i.
        suffix, sea_suffix = [weight], [sea_weight]
        for part in reversed(self.parts):
            _check_deadline(deadline)
            layouts, after, sea_after = part.layouts, suffix[-1], sea_suffix[-1]
            span = len(layouts)
            suffix.append([_dot(layouts, after[t:t + span])
                           for t in range(len(after) - span + 1)])
            sea_suffix.append([_dot(layouts, sea_after[t:t + span])
                               for t in range(len(sea_after) - span + 1)])
        suffix.reverse()
        self._suffix = suffix
        self.solutions = suffix[0][0]
        self.sea_mines = sea_suffix[-1][0]
        self._prefix: list[list[int]] = [[1]]  # layouts of parts before i, by mines above fewest

    def rest(self, i: int) -> list[int]:
        """``rest[k]``: layouts of everything but part ``i`` when it holds ``offset + k`` mines.
        """
        part = self.parts[i]
        span = len(part.layouts)
        if self.remaining is None:
            return [self._product // part.total << self.sea] * span if part.total else [0] * span
        while len(self._prefix) <= i:
            _check_deadline(self._deadline)
            earlier = self.parts[len(self._prefix) - 1]
            self._prefix.append(polynomial_product(self._prefix[-1], earlier.layouts))
        prefix, after = self._prefix[i], self._suffix[i + 1]
        size = len(prefix)
        return [_dot(prefix, after[k:k + size]) for k in range(span)]

    def box_mines(self, i: int) -> list[int]:
        """Per box of part ``i``: its mines summed over every layout of the whole."""
        rest = self.rest(i)
        return [_dot(mines, rest) for mines in self.parts[i].box_mines]


def join(parts: Sequence[ComponentCount], sea: int, remaining: int | None, *,
         deadline: float | None = None) -> Joined:
    """Join counted parts and a sea of ``sea`` free cells under ``remaining`` mines.

    Parameters
    ----------
    parts : sequence of ComponentCount
        Independent parts (components, or products of them: see :func:`together`).
    sea : int
        Unknown cells next to no clue.
    remaining : int or None
        Mines among the parts and the sea; None when the total is unknown (then every layout
        counts once).
    deadline : float, optional
        A :func:`time.perf_counter` value after which joining raises ``AnalysisTooHard``.

    Returns
    -------
    Joined
        ``solutions`` is 0 when the mine count fits no layout.

    Examples
    --------
    Two cells, one mine among them, beside a sea of three cells, with two mines in all:

    >>> joined = join([ComponentCount(1, (2,), ((2,),))], 3, 2)
    >>> joined.solutions, joined.sea_mines, joined.box_mines(0)
    (6, 6, [6])

    Notes
    -----
    O(m * s * e) big-integer products for ``m`` parts whose mine counts spread over ``e`` values
    each, ``s`` = the sum of those spreads: suffix sums weighted by the sea now, and prefix
    products of the parts when :meth:`Joined.rest` is first asked for.
    """
    return Joined(parts, sea, remaining, deadline)


class Backdrop:
    """Every part but one joined with the sea once, to join each of several alternatives of
    that one part with: what :func:`join` of ``[rest, part]`` gives, for many ``part`` s.

    The numbers a revealed cell may show are such alternatives (each recounts the cell's
    component): joined this way, the rest and the sea are weighed once per number of mines the
    part may hold, not once per alternative.

    Parameters
    ----------
    rest : ComponentCount
        Every other part taken together (see :func:`together`).
    sea : int
    remaining : int
        Mines among the parts and the sea (a known mine count).

    Examples
    --------
    >>> backdrop = Backdrop(ComponentCount(0, (1, 1)), 3, 2)
    >>> part = ComponentCount(1, (2,), ((2,),))
    >>> backdrop.join(part)
    (8, 6, [8])
    >>> joined = join([ComponentCount(0, (1, 1)), part], 3, 2)
    >>> joined.solutions, joined.sea_mines, joined.box_mines(1)
    (8, 6, [8])

    Notes
    -----
    O(e) big-integer products per number of mines the part is asked with, ``e`` the rest's
    spread, each computed once; then O(s) per alternative of spread ``s``.
    """

    def __init__(self, rest: ComponentCount, sea: int, remaining: int) -> None:
        self.rest, self.sea = rest, sea
        self.left = remaining - rest.offset  # mines for the part and the sea
        self._weights: dict[int, tuple[int, int]] = {}

    def weights(self, mines: int) -> tuple[int, int]:
        """``(layouts, sea mines)`` of the rest and the sea when the part holds ``mines``."""
        found = self._weights.get(mines)
        if found is None:
            sea, layouts, sea_mines = self.sea, 0, 0
            for t, n in enumerate(self.rest.layouts):
                free = self.left - mines - t  # mines left for the sea
                if 0 <= free <= sea and n:
                    ways = n * comb(sea, free)
                    layouts += ways
                    sea_mines += ways * free
            found = self._weights[mines] = (layouts, sea_mines)
        return found

    def join(self, part: ComponentCount | None) -> tuple[int, int, list[int]]:
        """``(solutions, sea mines, mines of each box of part)`` of the rest, the sea and
        ``part`` (None: no part) together."""
        if part is None:
            layouts, sea_mines = self.weights(0)
            return layouts, sea_mines, []
        weights = [self.weights(part.offset + k) for k in range(len(part.layouts))]
        rest = [w for w, _ in weights]
        return (_dot(part.layouts, rest), _dot(part.layouts, [s for _, s in weights]),
                [_dot(mines, rest) for mines in part.box_mines])


@dataclass(frozen=True, slots=True)
class Count:
    """Exact counts for a whole position.

    Attributes
    ----------
    constraints : Constraints
    solutions : int
        Layouts consistent with the position (and with the mine count, when known).
    box_mines : tuple of int
        Per box: mines in the box summed over all layouts.
    sea_mines : int
        Mines in the sea summed over all layouts.
    components : tuple of ComponentCount

    Examples
    --------
    >>> from msanalysis.constraints import build
    >>> from msanalysis.position import Position
    >>> counts = count(build(Position.from_text("mines: 2\\n1??\\n1??\\n???")))
    >>> counts.solutions, counts.box_mines, counts.sea_mines
    (6, (6, 0), 6)
    >>> counts.box_probability(0), counts.sea_probability(), sorted(counts.forced()[0])
    (Fraction(1, 2), Fraction(1, 3), [(2, 0), (2, 1)])
    """

    constraints: Constraints
    solutions: int
    box_mines: tuple[int, ...]
    sea_mines: int
    components: tuple[ComponentCount, ...]

    def box_probability(self, box: int) -> Fraction:
        """Probability that one cell of box ``box`` is a mine."""
        return Fraction(self.box_mines[box], self.constraints.boxes[box].size * self.solutions)

    def sea_probability(self) -> Fraction | None:
        """Probability that one sea cell is a mine; None when there is no sea."""
        sea = len(self.constraints.sea)
        return Fraction(self.sea_mines, sea * self.solutions) if sea else None

    def forced(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """Unknown cells safe, or mines, in every layout: ``(safe, mines)``.

        Exact, like the counts: a box is safe when it holds no mine in any layout, and full of
        mines when it holds ``size`` in all of them. :func:`msanalysis.sat.forced_cells` finds
        the same cells without counting (the tests check that both agree).

        Examples
        --------
        >>> from msanalysis.position import Position
        >>> from msanalysis.constraints import build
        >>> safe, mines = count(build(Position.from_text("???\\n121"))).forced()
        >>> sorted(safe), sorted(mines)
        ([(0, 1)], [(0, 0), (0, 2)])
        """
        safe: list[Cell] = []
        mines: list[Cell] = []
        solutions = self.solutions
        for box, held in zip(self.constraints.boxes, self.box_mines):
            if held == 0:
                safe.extend(box.cells)
            elif held == box.size * solutions:
                mines.extend(box.cells)
        sea = self.constraints.sea
        if sea and self.sea_mines == 0:
            safe.extend(sea)
        elif sea and self.sea_mines == len(sea) * solutions:
            mines.extend(sea)
        return frozenset(safe), frozenset(mines)

    def probabilities(self) -> dict[Cell, Fraction]:
        """Exact probability of a mine, for every unknown cell."""
        result: dict[Cell, Fraction] = {}
        for j, box in enumerate(self.constraints.boxes):
            p = self.box_probability(j)
            result.update(dict.fromkeys(box.cells, p))
        sea = self.sea_probability()
        if sea is not None:
            result.update(dict.fromkeys(self.constraints.sea, sea))
        return result

    def _problems(self) -> list[Problem]:
        return [Problem.of_component(self.constraints, component)
                for component in self.constraints.components]

    def solutions_fixing(self, *, mines: Iterable[Cell] = (), safe: Iterable[Cell] = ()) -> int:
        """The layouts in which the given unknown cells are mines, and those safe.

        Only the components holding a fixed cell are counted again (see
        :meth:`Problem.fixing`); a fixed sea cell leaves the sea.

        Examples
        --------
        >>> from msanalysis.position import Position
        >>> from msanalysis.constraints import build
        >>> result = count(build(Position.from_text("mines: 2\\n1??\\n???")))
        >>> result.solutions, result.solutions_fixing(mines=[(0, 1)])
        (6, 2)
        """
        mines, safe = set(mines), set(safe)
        constraints = self.constraints
        sea = set(constraints.sea)
        parts = list(self.components)
        for k, component in enumerate(constraints.components):
            cells = set(component.cells)
            if not (cells & mines or cells & safe):
                continue
            problem, placed = Problem.of_component(constraints, component).fixing(
                mines=mines & cells, safe=safe & cells)
            try:
                parts[k] = count_component(problem, box_mines=False).shifted(placed)
            except InconsistentPosition:
                return 0
        sea_mines, sea_safe = len(mines & sea), len(safe & sea)
        remaining = constraints.remaining
        if remaining is not None:
            remaining -= sea_mines
        return join(parts, len(sea) - sea_mines - sea_safe, remaining).solutions

    def layouts(self, limit: int | None = None) -> Iterator[frozenset[Cell]]:
        """Every layout of the position's unknown cells, as its set of mines, up to ``limit``.

        With the mine count known only layouts with that many mines are given. Layouts come
        component by component (each :meth:`Problem.layouts`), then the sea; which ones come
        first is not specified.

        Examples
        --------
        >>> from msanalysis.position import Position
        >>> from msanalysis.constraints import build
        >>> result = count(build(Position.from_text("mines: 1\\n??\\n11")))
        >>> sorted(sorted(layout) for layout in result.layouts())
        [[(0, 0)], [(0, 1)]]

        Notes
        -----
        Each component's layouts are listed only for the numbers of mines some whole layout
        allows, so the time is proportional to the layouts yielded, times the components.
        """
        constraints = self.constraints
        sea, remaining = constraints.sea, constraints.remaining
        parts = self.components
        # Mine totals that components i.. can hold together (with the sea when counted).
        reach: list[set[int]] = [set(range(len(sea) + 1))]
        for part in reversed(parts):
            own = [part.offset + k for k, n in enumerate(part.layouts) if n]
            reach.append({a + b for a in own for b in reach[-1]})
        reach.reverse()
        problems = self._problems()
        # A component's layouts with the wanted numbers of mines are found once and kept as they
        # come (every layout of the components before it asks for them again); each leads to a
        # layout of the whole, so no more are kept than are yielded.
        found: dict[tuple[int, tuple[int, ...]],
                    tuple[list[frozenset[Cell]], Iterator[frozenset[Cell]]]] = {}

        def listed(i: int, wanted: tuple[int, ...]) -> Iterator[frozenset[Cell]]:
            if (i, wanted) not in found:
                found[i, wanted] = ([], problems[i].layouts(mines=wanted))
            kept, source = found[i, wanted]
            for k in itertools.count():
                if k == len(kept):
                    layout = next(source, None)
                    if layout is None:
                        return
                    kept.append(layout)
                yield kept[k]

        def extend(i: int, placed: int, chosen: frozenset[Cell]) -> Iterator[frozenset[Cell]]:
            if i == len(parts):
                left = None if remaining is None else remaining - placed
                if left is None:
                    for k in range(len(sea) + 1):
                        for picked in itertools.combinations(sea, k):
                            yield chosen.union(picked)
                elif 0 <= left <= len(sea):
                    for picked in itertools.combinations(sea, left):
                        yield chosen.union(picked)
                return
            part = parts[i]
            wanted = tuple(part.offset + k for k, n in enumerate(part.layouts)
                           if n and (remaining is None or remaining - placed - part.offset - k
                                     in reach[i + 1]))
            for layout in listed(i, wanted):
                yield from extend(i + 1, placed + len(layout), chosen | layout)

        for made, layout in enumerate(extend(0, 0, frozenset())):
            if limit is not None and made >= limit:
                return
            yield layout


def _sea_layouts(sea: int, most: int, count: int, deadline: float | None) -> list[int]:
    """``[comb(sea, most - t) for t in range(count)]`` (0 outside 0..sea), one ``comb`` only.

    Each next value comes from the one before by a ratio: on a large board a ``comb`` of the
    sea takes seconds (millions of digits) and cannot be stopped, the ratio milliseconds.

    >>> from math import comb
    >>> _sea_layouts(5, 7, 9, None) == [comb(5, 7 - t) if 0 <= 7 - t <= 5 else 0
    ...                                  for t in range(9)]
    True
    """
    weights = [0] * count
    first = max(0, most - sea)  # the first t whose mines fit in the sea
    if first >= count or most < 0:
        return weights
    k = most - first
    _check_comb_time(sea, k, deadline)
    value = comb(sea, k)
    for t in range(first, min(count, most + 1)):
        weights[t] = value
        _check_deadline(deadline)
        value = value * k // (sea - k + 1)  # comb(sea, k - 1), exactly
        k -= 1
    return weights


def _check_comb_time(n: int, k: int, deadline: float | None) -> None:
    """Refuse ``comb(n, k)`` at once when it cannot be done by ``deadline``: once begun it cannot
    be stopped, and a comb of a sea of millions of cells takes many seconds.

    Its time grows as the 1.585th power of its bits (Karatsuba's products): 0.6 to 1.0 ns times
    that on the machine this was measured on (1.5 s for 720,000 bits, 5.6 s for 1.4 million), so
    what takes at least half that estimate is refused. A smaller comb costs milliseconds at most.

    >>> try:
    ...     _check_comb_time(4_000_000, 800_000, time.perf_counter() + 1)
    ... except TimeLimitReached as stopped:
    ...     print(str(stopped).partition(" (")[2])
    the layouts of the sea alone are a number of 869,300 digits)
    >>> _check_comb_time(4_000_000, 800_000, None), _check_comb_time(480, 99, 0.0)
    (None, None)
    """
    if deadline is None or min(k, n - k) < 10_000:
        return
    bits = (lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)) / log(2)
    if 0.5e-9 * bits ** 1.585 > deadline - time.perf_counter():
        digits = round(bits * log(2) / log(10), -2)
        raise TimeLimitReached(f"exact counting would run past the time limit (the layouts of the "
                               f"sea alone are a number of {digits:,.0f} digits)")

def _check_deadline(deadline: float | None) -> None:
    if time_is_up(deadline):
        raise TimeLimitReached("exact counting ran past the time limit (joining components)")


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(map(mul, a, b))


def polynomial_product(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials given by their coefficients (lowest power first): how
    two independent parts' counts by number of mines combine.

    Examples
    --------
    >>> polynomial_product([1, 2], [3, 0, 1])
    [3, 6, 1, 2]

    Notes
    -----
    O(len(a) * len(b)) big-integer products (zero coefficients of ``b`` skipped).
    """
    product = [0] * (len(a) + len(b) - 1)
    for k, y in enumerate(b):
        if y:
            for t, x in enumerate(a):
                product[t + k] += x * y
    return product



def together(parts: Sequence[ComponentCount]) -> ComponentCount:
    """The layouts of several parts taken together, by their number of mines.

    The product of the parts' mine-count polynomials, as one part without boxes: joining it
    with others counts the same as joining the parts themselves.

    Examples
    --------
    >>> one = ComponentCount(1, (2, 1))  # 2 layouts with 1 mine, 1 with 2
    >>> together([one, one])
    ComponentCount(offset=2, layouts=(4, 4, 1), box_mines=())
    """
    fewest, layouts = 0, [1]
    for part in parts:
        fewest += part.offset
        layouts = polynomial_product(layouts, part.layouts)
    return ComponentCount(fewest, tuple(layouts))


def count(constraints: Constraints, *, deadline: float | None = None,
          cache: dict[Problem, ComponentCount] | None = None) -> Count:
    """Count every layout of a position and the mines each box and the sea hold across them.

    Parameters
    ----------
    constraints : Constraints
    deadline : float, optional
        A :func:`time.perf_counter` value after which counting raises ``AnalysisTooHard``.
    cache : dict, optional
        Counts of problems met before, by problem: a component found there is not counted
        again, and each one counted is added (a game asks about the same components turn
        after turn).

    Returns
    -------
    Count

    Raises
    ------
    InconsistentPosition
        When no layout fits (the message does not name a core; :mod:`msanalysis.sat` does).
    AnalysisTooHard

    Notes
    -----
    Each component is counted on its own (:func:`count_component`), then all are joined with
    the sea over the mine count (:func:`join`).

    Examples
    --------
    >>> from msanalysis.position import Position
    >>> from msanalysis.constraints import build
    >>> result = count(build(Position.from_text("mines: 2\\n1??\\n???")))
    >>> result.solutions, result.sea_probability()
    (6, Fraction(1, 2))
    >>> [str(result.box_probability(j)) for j in range(len(result.constraints.boxes))]
    ['1/3']
    """
    parts = []
    for component in constraints.components:
        problem = Problem.of_component(constraints, component)
        part = None if cache is None else cache.get(problem)
        if part is None:
            part = count_component(problem, deadline=deadline)
            if cache is not None:
                cache[problem] = part
        parts.append(part)
    return count_of_parts(constraints, parts, deadline=deadline)


def count_of_parts(constraints: Constraints, parts: Sequence[ComponentCount], *,
                   deadline: float | None = None) -> Count:
    """The whole position's :class:`Count` from its components' counts, joined with the sea.

    ``parts[i]`` counts ``constraints.components[i]`` (boxes in its ``box_ids`` order), however
    it was obtained: counted here by :func:`count`, or kept by a tracker.

    Raises
    ------
    InconsistentPosition
        When no layout fits the parts together with the mine count.

    Examples
    --------
    >>> from msanalysis.position import Position
    >>> from msanalysis.constraints import build
    >>> c = build(Position.from_text("mines: 2\\n1??\\n???"))
    >>> parts = [count_component(Problem.of_component(c, x)) for x in c.components]
    >>> count_of_parts(c, parts) == count(c)
    True

    Notes
    -----
    One :func:`join`: about O(components * mines**2).
    """
    joined = join(parts, len(constraints.sea), constraints.remaining, deadline=deadline)
    if joined.solutions == 0:
        raise InconsistentPosition("no layout fits the clues together with the mine count",
                                   uses_mine_count=True)
    box_mines = [0] * len(constraints.boxes)
    for i, component in enumerate(constraints.components):
        for j, mines in zip(component.box_ids, joined.box_mines(i)):
            box_mines[j] = mines
    return Count(constraints, joined.solutions, tuple(box_mines), joined.sea_mines, tuple(parts))
