"""SVG pictures of boards, positions, analyses, reconstructions and puzzles, for Jupyter and files.

:func:`board` draws any of them in the classic Minesweeper look: raised (bevelled) hidden cells,
flat revealed cells, the usual number colours, flags and mines. An analysis adds its findings on
top: forced safe cells in green with a tick, forced mines in red with a mine, every other hidden
cell shaded by its chance of holding a mine with the percentage written in it, and optionally an
explanation (the cell and the clues that force it) outlined. A puzzle is drawn as its clues on an
empty grid, or (``solution=True``) as the filled picture its clues make.

The pictures are plain strings built here, with no dependency beyond the standard library. The
same input always gives the same bytes, and the output is well-formed XML. This module only
draws: the facts it shows come from :mod:`msanalysis.analysis` and the other core modules, which
never import it (their ``_repr_svg_`` methods import it lazily).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from msanalysis.analysis import Analysis
from msanalysis.board import Board, Cell, as_cell, as_pair, neighbour_counts
from msanalysis.errors import (
    InvalidInput,
    WrongType,
    a_name,
    as_real,
    check_flag,
    check_list,
    check_type,
)
from msanalysis.exact import magnitude
from msanalysis.numbergrid import NumberGrid
from msanalysis.position import FLAG, HIDDEN, MINE, Position
from msanalysis.puzzle import Puzzle
from msanalysis.reconstruction import Reconstruction

__all__ = ["DEFAULT_CELL_SIZE", "MAX_CELL_SIZE", "MAX_PICTURE_CELLS", "NUMBER_COLOURS", "PALETTE",
           "SYMBOLS", "Svg", "board", "cell_size", "probability_colour", "replay"]


class Svg(str):
    """An SVG document as a string that draws itself in Jupyter (the string is the picture).

    Examples
    --------
    >>> picture = Svg("<svg/>")
    >>> picture == "<svg/>", picture._repr_svg_() == picture
    (True, True)
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

DEFAULT_CELL_SIZE = 26
"""Cell side in pixels when ``size`` is not given: an expert board (30x16) is about 800 px wide,
and a three-character percentage still fits in a cell at a readable size."""

MAX_CELL_SIZE = 10_000
"""The largest cell, in pixels: a picture's size is written as a number, and a cell of 1e308
pixels made its width overflow."""

NUMBER_COLOURS = {1: "#0000ff", 2: "#008000", 3: "#ff0000", 4: "#000080",
                  5: "#800000", 6: "#008080", 7: "#000000", 8: "#808080"}
"""The classic colours of the numbers 1 to 8."""

_FACE = "#c0c0c0"          # the classic grey of cells
_GRID_LINE = "#808080"     # the thin lines between revealed cells
_SAFE_FILL = "#8fd18f"     # a forced safe cell
_SAFE_MARK = "#135e13"
_MINE_FILL = "#e57373"     # a forced mine
_HIGHLIGHT = "#0050ff"     # cells the caller highlights, and the cell an explanation is about
_CLUE = "#ff8c00"          # the clues an explanation uses
_GUESS = "#8a2be2"         # the best guess of an analysis that requires a guess
_FILLED = "#3a3a3a"        # a reconstructed mine: filled dark, as mosaic (Fill-a-Pix) puzzles do
_ZERO = "#9a9a9a"          # mosaic clues 0 and 9 have no classic colour; a 0 stays discreet
_NINE = "#000000"
_PAPER = "#ffffff"         # the empty cells of a puzzle, as printed
_FONT = "Tahoma, Verdana, 'DejaVu Sans', Arial, Helvetica, sans-serif"

PALETTE: Mapping[str, str] = MappingProxyType({
    "face": _FACE, "grid": _GRID_LINE, "safe": _SAFE_FILL, "mine": _MINE_FILL,
    "highlight": _HIGHLIGHT, "clue": _CLUE, "guess": _GUESS, "font": _FONT})
"""The colours (and the font) of the pictures by what they show, read-only: hidden cells
(``face``), lines between revealed cells, forced safe cells and forced mines, highlighted cells,
the clues of an explanation, the best guess. :mod:`msanalysis.explorer` draws with the same."""

# Colour ramp for mine probabilities (ColorBrewer YlOrRd): pale where a mine is unlikely, dark
# red where it is likely, so risk reads at a glance and stays distinct from the green of safety.
_RAMP = [(0.0, (255, 255, 204)), (0.2, (254, 217, 118)), (0.4, (254, 178, 76)),
         (0.6, (253, 141, 60)), (0.8, (240, 59, 32)), (1.0, (189, 0, 38))]

# Symbols are drawn once in <defs> on a 100x100 box and placed with <use>; this keeps an expert
# picture small. Their ids are the same in every picture with the same content, so several
# pictures inline in one Jupyter page cannot pick up each other's definitions by mistake.
SYMBOLS = (
    '<defs>'
    '<symbol id="msanalysis-raised" viewBox="0 0 100 100">'
    '<polygon points="0,0 100,0 88,12 12,12 12,88 0,100" fill="#ffffff" fill-opacity="0.85"/>'
    '<polygon points="100,100 0,100 12,88 88,88 88,12 100,0" fill="#000000" '
    'fill-opacity="0.34"/>'
    '</symbol>'
    '<symbol id="msanalysis-flag" viewBox="0 0 100 100">'
    '<polygon points="56,18 56,54 22,37" fill="#ff0000"/>'
    '<rect x="52" y="18" width="8" height="52" fill="#000000"/>'
    '<polygon points="50,66 64,66 76,76 76,82 24,82 24,76 36,72" fill="#000000"/>'
    '</symbol>'
    '<symbol id="msanalysis-mine" viewBox="0 0 100 100">'
    '<g stroke="#000000" stroke-width="8" stroke-linecap="round">'
    '<line x1="50" y1="14" x2="50" y2="86"/><line x1="14" y1="50" x2="86" y2="50"/>'
    '<line x1="26" y1="26" x2="74" y2="74"/><line x1="26" y1="74" x2="74" y2="26"/></g>'
    '<circle cx="50" cy="50" r="25" fill="#000000"/>'
    '<rect x="38" y="38" width="10" height="10" fill="#ffffff"/>'
    '</symbol>'
    '<symbol id="msanalysis-tick" viewBox="0 0 100 100">'
    f'<polyline points="24,52 42,70 76,30" fill="none" stroke="{_SAFE_MARK}" stroke-width="13" '
    'stroke-linecap="round" stroke-linejoin="round"/>'
    '</symbol>'
    '<linearGradient id="msanalysis-ramp" x1="0" y1="0" x2="1" y2="0">'
    + "".join(f'<stop offset="{offset:g}" stop-color="#{r:02x}{g:02x}{b:02x}"/>'
              for offset, (r, g, b) in _RAMP)
    + '</linearGradient>'
    '</defs>'
)
"""The ``<defs>`` every picture starts with: the raised face, flag, mine and tick symbols and the
probability ramp, referred to by their ids (``msanalysis-flag`` and so on)."""


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros, for stable output."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def probability_colour(p: float) -> str:
    """The fill colour for a hidden cell with mine probability ``p`` (0 to 1).

    Examples
    --------
    >>> probability_colour(0.0), probability_colour(1.0)
    ('#ffffcc', '#bd0026')
    """
    # A float (numpy's too) first: pictures ask once a cell.
    if not isinstance(p, float) and (isinstance(p, bool) or not isinstance(p, numbers.Real)):
        raise WrongType(f"a probability is a number from 0 to 1, got {p!r}")
    p = min(max(float(p), 0.0), 1.0)
    for (lo, c0), (hi, c1) in itertools.pairwise(_RAMP):
        if p <= hi:
            t = (p - lo) / (hi - lo)
            r, g, b = (round(a + (b_ - a) * t) for a, b_ in zip(c0, c1))
            return f"#{r:02x}{g:02x}{b:02x}"
    return "#bd0026"  # pragma: no cover - p is clamped to 1.0 above


def is_dark(colour: str) -> bool:
    """Whether text on ``colour`` (``#rrggbb``) reads better in white than in black.

    Examples
    --------
    >>> is_dark("#000080"), is_dark("#ffff00")
    (True, False)
    """
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def cell_percent(p: float) -> str:
    """The percentage written in a cell; never rounds a possible mine to 0% or a doubt to 100%.

    Examples
    --------
    >>> cell_percent(0.254), cell_percent(0.001), cell_percent(0.998), cell_percent(1)
    ('25%', '<1%', '>99%', '100%')
    """
    value = round(p * 100)
    if value == 0 and p > 0:
        return "<1%"
    if value == 100 and p < 1:
        return ">99%"
    return f"{value}%"


@dataclass
class _Scene:
    """What to draw, independent of where it came from."""

    height: int
    width: int
    states: np.ndarray                 # position states; a board is drawn fully revealed
    probabilities: np.ndarray | None   # float, NaN where nothing is to be written
    forced_safe: frozenset[Cell] = frozenset()
    forced_mines: frozenset[Cell] = frozenset()
    best_guess: Cell | None = None
    is_analysis: bool = False
    note: str | None = None            # one line under the picture (a reconstruction's count)
    filled: np.ndarray | None = None   # reconstruction: mine cells, drawn dark under their number
    show_zero: bool = False            # mosaic grids write their zeros
    conflict: tuple[Cell, ...] = ()    # reconstruction: clues that cannot all hold
    flags_unknown: bool = False        # an analysis that ignored flags shades them too
    face: str = _FACE                  # the fill of flat (revealed) cells
    blank: np.ndarray | None = None    # puzzle: flat cells with no clue written


def _board_states(layout: Board) -> np.ndarray:
    states = np.array(layout.numbers, dtype=np.int8)
    states[layout.mask] = MINE
    return states


def _probability_grid(probabilities, height: int, width: int) -> np.ndarray:
    """Turn the ``probabilities`` option (array or mapping cell -> p) into a float grid."""
    try:
        if isinstance(probabilities, Mapping):
            grid = np.full((height, width), np.nan)
            for cell, p in probabilities.items():
                grid[as_cell(cell, height, width)] = float(p)
        else:
            grid = np.array(probabilities, dtype=float)
    except InvalidInput as error:
        raise InvalidInput(f"a probability given for {error}") from None
    except (TypeError, ValueError, OverflowError) as error:
        raise InvalidInput(f"probabilities are numbers from 0 to 1 ({error})") from None
    if grid.shape != (height, width):
        raise InvalidInput(f"probabilities have shape {grid.shape}, the board is "
                           f"{height}x{width} (rows x columns)")
    outside = ~np.isnan(grid) & ((grid < 0) | (grid > 1))
    if outside.any():
        row, col = (int(i) for i in np.argwhere(outside)[0])
        raise InvalidInput(f"the probability of cell ({row}, {col}) is {grid[row, col]:g}, "
                           "not from 0 to 1")
    return grid


def _scene(obj, solution: bool = False) -> _Scene:
    """Read what to draw from a Board, Position, Analysis, Reconstruction, NumberGrid or Puzzle."""
    if isinstance(obj, Puzzle):
        return _puzzle_scene(obj, solution)
    if solution:
        raise WrongType(f"solution=True draws a Puzzle's answer, not {a_name(type(obj).__name__)}")
    if isinstance(obj, Board):
        return _Scene(obj.height, obj.width, _board_states(obj), None)
    if isinstance(obj, Position):
        return _Scene(obj.height, obj.width, np.array(obj.states), None)
    if isinstance(obj, Analysis):
        return _analysis_scene(obj)
    if isinstance(obj, Reconstruction):
        return _reconstruction_scene(obj)
    if isinstance(obj, NumberGrid):
        return _grid_scene(np.array(obj.clues), obj.rule)
    raise WrongType(f"cannot draw {a_name(type(obj).__name__)}: expected a Board, Position, "
                    "Analysis, Reconstruction, NumberGrid or Puzzle")


def _analysis_scene(analysis: Analysis) -> _Scene:
    position = analysis.position
    # A partial analysis (counting stopped) has forced cells but no probabilities.
    grid = np.array(analysis.probabilities, dtype=float) if analysis.exact else None
    best = analysis.best_guess if analysis.exact and analysis.requires_guess else None
    return _Scene(position.height, position.width, np.array(position.states), grid,
                  frozenset(analysis.forced_safe), frozenset(analysis.forced_mines),
                  best, is_analysis=True,
                  flags_unknown=analysis.ignore_flags)


def _grid_scene(clues: np.ndarray, rule: str, filled: np.ndarray | None = None) -> _Scene:
    """A number grid: every known clue flat with its number, unknown clues raised."""
    states = np.where(clues < 0, HIDDEN, clues).astype(np.int8)
    return _Scene(states.shape[0], states.shape[1], states, None, filled=filled,
                  show_zero=rule == "mosaic")


def _puzzle_scene(puzzle: Puzzle, solution: bool) -> _Scene:
    """A puzzle: white cells, the clues written (zeros too: a 0 is a clue), no raised cells; its
    solution fills the mine cells dark under the same clues."""
    clues = np.array(puzzle.grid.clues)
    blank = clues < 0
    states = np.where(blank, 0, clues).astype(np.int8)
    filled = np.array(puzzle.solution.mask) if solution else None
    height, width = clues.shape
    what = "the only layout that fits" if solution else (
        f"{puzzle.rule} puzzle: {int((~blank).sum())} clues, grade {puzzle.grade}")
    return _Scene(height, width, states, None, note=what, filled=filled, show_zero=True,
                  face=_PAPER, blank=blank)


def _reconstruction_scene(reconstruction) -> _Scene:
    layout = reconstruction.first
    height, width = reconstruction.height, reconstruction.width
    if layout is None:
        # No layout, and the reconstruction keeps no copy of the grid: draw the empty grid with
        # the clues that cannot all hold outlined.
        scene = _Scene(height, width, np.zeros((height, width), dtype=np.int8), None,
                       note="no layout fits these numbers",
                       conflict=tuple(sorted(_cell_of(c) for c in reconstruction.conflict or ())))
        return scene
    numbers = neighbour_counts(layout.mask, include_self=reconstruction.rule == "mosaic")
    scene = _grid_scene(numbers, reconstruction.rule, filled=np.array(layout.mask))
    count, exhaustive = reconstruction.count, getattr(reconstruction, "exhaustive", True)
    if count == 1 and exhaustive:
        scene.note = "the only layout that fits"
    else:
        # A count may have thousands of digits (a grid with no clue): its size in words then.
        scene.note = f"one of {magnitude(count)}{'' if exhaustive else ' or more'} layouts that fit"
    return scene


def _cell_of(item) -> Cell:
    """A cell from a ``(row, col)`` pair or from an object with a ``cell`` attribute."""
    return as_pair(getattr(item, "cell", item))


def _explanation_parts(explanation, obj):
    """``(cell, verdict, clue cells, uses_mine_count)`` of an explanation, or None."""
    if explanation is None:
        return None
    if not hasattr(explanation, "verdict"):
        # A bare cell: ask the analysis to explain it.
        if not hasattr(obj, "explain"):
            raise WrongType("explanation=(row, col) needs an Analysis to explain the cell")
        explanation = obj.explain(_cell_of(explanation))
    cell = _cell_of(explanation)
    clues = sorted({_cell_of(clue) for clue in (explanation.clues or ())})
    return cell, str(explanation.verdict), clues, bool(getattr(explanation, "uses_mine_count",
                                                               False))


MAX_PICTURE_CELLS = 1_000_000
"""The most cells a picture draws (a 1000x1000 board, about 100 MB of SVG and a few seconds):
a 3000x3000 board took 42 s and 3.6 GB for a file of 955 MB."""


class _Canvas:
    """Collects SVG elements with the grid's geometry."""

    def __init__(self, scene: _Scene, cell: float, coordinates: bool) -> None:
        if scene.height * scene.width > MAX_PICTURE_CELLS:
            raise InvalidInput(
                f"the {scene.width}x{scene.height} board is too large to draw: pictures are "
                f"drawn of boards up to {MAX_PICTURE_CELLS:,} cells (about 100 MB of SVG)")
        self.scene = scene
        self.s = cell
        self.coordinates = coordinates
        digits = len(str(scene.height - 1))
        self.left = (0.18 + 0.36 * digits) * cell if coordinates else 0.0
        self.top = 0.62 * cell if coordinates else 0.0
        self.parts: list[str] = []

    def x(self, col: int) -> float:
        return self.left + col * self.s

    def y(self, row: int) -> float:
        return self.top + row * self.s

    def add(self, text: str) -> None:
        self.parts.append(text)

    def use(self, symbol: str, row: int, col: int, inset: float = 0.0) -> None:
        s = self.s
        self.add(f'<use xlink:href="#msanalysis-{symbol}" x="{_num(self.x(col) + inset * s)}" '
                 f'y="{_num(self.y(row) + inset * s)}" width="{_num(s * (1 - 2 * inset))}" '
                 f'height="{_num(s * (1 - 2 * inset))}"/>')

    def rect(self, row: int, col: int, fill: str) -> None:
        self.add(f'<rect x="{_num(self.x(col))}" y="{_num(self.y(row))}" width="{_num(self.s)}" '
                 f'height="{_num(self.s)}" fill="{fill}"/>')

    def text(self, row: int, col: int, label: str, *, fill: str, scale: float,
             bold: bool = False) -> None:
        size = self.s * scale
        # 0.36 em below the centre puts the middle of digits on the centre line without relying
        # on dominant-baseline, which some SVG renderers ignore.
        weight = ' font-weight="bold"' if bold else ""
        self.add(f'<text x="{_num(self.x(col) + self.s / 2)}" '
                 f'y="{_num(self.y(row) + self.s / 2 + 0.36 * size)}" font-size="{_num(size)}" '
                 f'fill="{fill}"{weight}>{escape(label)}</text>')

    def outline(self, row: int, col: int, colour: str, width: float) -> None:
        inset = width / 2
        self.add(f'<rect x="{_num(self.x(col) + inset)}" y="{_num(self.y(row) + inset)}" '
                 f'width="{_num(self.s - 2 * inset)}" height="{_num(self.s - 2 * inset)}" '
                 f'fill="none" stroke="{colour}" stroke-width="{_num(width)}"/>')


def _draw_cells(canvas: _Canvas) -> None:
    scene = canvas.scene
    states = scene.states.tolist()
    probabilities = scene.probabilities
    canvas.add('<g>')
    for row in range(scene.height):
        for col in range(scene.width):
            state = states[row][col]
            cell = (row, col)
            if state >= 0 or state == MINE:
                filled = scene.filled is not None and scene.filled[row, col]
                canvas.rect(row, col, _FILLED if filled else scene.face)
                continue
            if cell in scene.forced_safe:
                fill = _SAFE_FILL
            elif cell in scene.forced_mines:
                fill = _MINE_FILL
            elif (_unknown(scene, state) and probabilities is not None
                  and not math.isnan(probabilities[row, col])):
                fill = probability_colour(probabilities[row, col])
            else:
                fill = _FACE
            canvas.rect(row, col, fill)
            canvas.use("raised", row, col)
    canvas.add('</g>')
    # Thin lines between revealed cells, as in the classic game: one path for the whole grid.
    lines = []
    for row in range(scene.height):
        for col in range(scene.width):
            if states[row][col] >= 0 or states[row][col] == MINE:
                lines.append(f"M{_num(canvas.x(col))} {_num(canvas.y(row) + canvas.s)}"
                             f"V{_num(canvas.y(row))}H{_num(canvas.x(col) + canvas.s)}")
    if lines:
        width = max(1.0, canvas.s / 26)
        canvas.add(f'<path d="{"".join(lines)}" fill="none" stroke="{_GRID_LINE}" '
                   f'stroke-width="{_num(width)}"/>')
    if scene.blank is not None:  # a puzzle on white paper needs its outer edge drawn too
        canvas.add(f'<rect x="{_num(canvas.x(0))}" y="{_num(canvas.y(0))}" '
                   f'width="{_num(scene.width * canvas.s)}" '
                   f'height="{_num(scene.height * canvas.s)}" fill="none" '
                   f'stroke="{_GRID_LINE}" stroke-width="{_num(max(1.0, canvas.s / 13))}"/>')


def _unknown(scene: _Scene, state: int) -> bool:
    """True for a cell whose content the picture shades by probability."""
    return state == HIDDEN or (state == FLAG and scene.flags_unknown)


def _draw_marks(canvas: _Canvas) -> None:
    """Numbers, flags, mines, ticks and percentages on top of the cells."""
    scene = canvas.scene
    states = scene.states.tolist()
    probabilities = scene.probabilities
    canvas.add(f'<g font-family={quoteattr(_FONT)} text-anchor="middle">')
    for row in range(scene.height):
        for col in range(scene.width):
            state = states[row][col]
            cell = (row, col)
            if scene.blank is not None and scene.blank[row, col]:
                continue
            if state > 0 or (state == 0 and scene.show_zero):
                if scene.filled is not None and scene.filled[row, col]:
                    ink = "#ffffff"
                else:
                    ink = NUMBER_COLOURS.get(state, _NINE if state == 9 else _ZERO)
                canvas.text(row, col, str(state), fill=ink, scale=0.72, bold=True)
            elif state == MINE:
                canvas.use("mine", row, col, inset=0.1)
            elif state == FLAG:
                canvas.use("flag", row, col, inset=0.06)
            elif cell in scene.forced_safe:
                canvas.use("tick", row, col, inset=0.1)
            elif cell in scene.forced_mines:
                canvas.use("mine", row, col, inset=0.16)
            elif (state == HIDDEN and probabilities is not None
                  and not math.isnan(probabilities[row, col])):
                p = float(probabilities[row, col])
                label = cell_percent(p)
                # Shrink longer labels so that "<1%" and ">99%" fit in the cell too.
                scale = {2: 0.42, 3: 0.37}.get(len(label), 0.3)
                ink = "#ffffff" if is_dark(probability_colour(p)) else "#000000"
                canvas.text(row, col, label, fill=ink, scale=scale)
    canvas.add('</g>')


def _draw_coordinates(canvas: _Canvas) -> None:
    scene, s = canvas.scene, canvas.s
    size = 0.4 * s
    canvas.add(f'<g font-family={quoteattr(_FONT)} font-size="{_num(size)}" fill="#555555">')
    for col in range(scene.width):
        canvas.add(f'<text x="{_num(canvas.x(col) + s / 2)}" y="{_num(canvas.top - 0.3 * size)}" '
                   f'text-anchor="middle">{col}</text>')
    for row in range(scene.height):
        y = _num(canvas.y(row) + s / 2 + 0.36 * size)
        canvas.add(f'<text x="{_num(canvas.left - 0.25 * size)}" y="{y}" '
                   f'text-anchor="end">{row}</text>')
    canvas.add('</g>')


def _shaded_cells(scene: _Scene) -> list[Cell]:
    """Cells shaded by probability (hidden, undecided, with a number to write)."""
    if scene.probabilities is None:
        return []
    states = scene.states
    return [(row, col) for row in range(scene.height) for col in range(scene.width)
            if _unknown(scene, int(states[row, col]))
            and (row, col) not in scene.forced_safe and (row, col) not in scene.forced_mines
            and not math.isnan(scene.probabilities[row, col])]


def _legend_items(scene: _Scene, explained, highlight: list[Cell]) -> list[tuple[str, str]]:
    """(swatch kind, label) pairs for the legend under an analysis."""
    items = []
    if scene.forced_safe:
        items.append(("safe", "forced safe"))
    if scene.forced_mines:
        items.append(("mine", "forced mine"))
    if _shaded_cells(scene):
        items.append(("ramp", "chance of a mine"))
    if scene.is_analysis and scene.best_guess is not None:
        row, col = scene.best_guess
        items.append(("guess", f"best guess ({row}, {col})"))
    if scene.filled is not None and scene.blank is None:  # a puzzle's picture needs no key
        items.append(("filled", "mine"))
    if scene.conflict:
        items.append(("clue", "clues that cannot all hold"))
    if explained is not None:
        (row, col), verdict, clues, uses_count = explained
        items.append(("explained", f"({row}, {col}) is {verdict}"))
        label = "clues that force it" if clues else "no clue needed"
        if uses_count:
            label += " + the mine count"
        items.append(("clue", label))
    if highlight:
        items.append(("highlight", "highlighted"))
    return items


def _legend(canvas: _Canvas, items: list[tuple[str, str]], note: str | None,
            grid_width: float) -> tuple[float, float]:
    """Draw the legend under the grid; returns the (width, height) it takes."""
    font = 12.0
    box = 14.0
    gap = 14.0
    line_height = 22.0
    available = max(grid_width, 320.0)
    top = canvas.y(canvas.scene.height) + 10.0
    x, y = 0.0, top
    used_width = 0.0
    canvas.add(f'<g font-family={quoteattr(_FONT)} font-size="{_num(font)}" fill="#000000">')
    for kind, label in items:
        swatch = 60.0 if kind == "ramp" else box
        # An estimate of text width (0.6 em a character) keeps the layout free of font metrics.
        width = swatch + 5.0 + 0.6 * font * len(label)
        if x > 0 and x + width > available:
            x, y = 0.0, y + line_height
        sx, sy = x, y
        if kind == "safe":
            canvas.add(f'<rect x="{_num(sx)}" y="{_num(sy)}" width="{_num(box)}" '
                       f'height="{_num(box)}" fill="{_SAFE_FILL}" stroke="#808080"/>')
            canvas.add(f'<use xlink:href="#msanalysis-tick" x="{_num(sx)}" y="{_num(sy)}" '
                       f'width="{_num(box)}" height="{_num(box)}"/>')
        elif kind == "mine":
            canvas.add(f'<rect x="{_num(sx)}" y="{_num(sy)}" width="{_num(box)}" '
                       f'height="{_num(box)}" fill="{_MINE_FILL}" stroke="#808080"/>')
            canvas.add(f'<use xlink:href="#msanalysis-mine" x="{_num(sx + 1)}" '
                       f'y="{_num(sy + 1)}" width="{_num(box - 2)}" height="{_num(box - 2)}"/>')
        elif kind == "filled":
            canvas.add(f'<rect x="{_num(sx)}" y="{_num(sy)}" width="{_num(box)}" '
                       f'height="{_num(box)}" fill="{_FILLED}" stroke="#808080"/>')
        elif kind == "ramp":
            canvas.add(f'<rect x="{_num(sx)}" y="{_num(sy)}" width="{_num(swatch)}" '
                       f'height="{_num(box)}" fill="url(#msanalysis-ramp)" stroke="#808080"/>')
            canvas.add(f'<text x="{_num(sx + 2)}" y="{_num(sy + box - 3)}" font-size="9">0</text>')
            canvas.add(f'<text x="{_num(sx + swatch - 2)}" y="{_num(sy + box - 3)}" '
                       f'font-size="9" fill="#ffffff" text-anchor="end">100%</text>')
        else:
            colour = {"guess": _GUESS, "explained": _HIGHLIGHT, "clue": _CLUE,
                      "highlight": _HIGHLIGHT}[kind]
            canvas.add(f'<rect x="{_num(sx + 1.5)}" y="{_num(sy + 1.5)}" '
                       f'width="{_num(box - 3)}" height="{_num(box - 3)}" fill="{_FACE}" '
                       f'stroke="{colour}" stroke-width="3"/>')
        canvas.add(f'<text x="{_num(sx + swatch + 5)}" y="{_num(sy + box - 2.5)}">'
                   f'{escape(label)}</text>')
        x += width + gap
        used_width = max(used_width, x - gap)
    if note is not None:
        if items:
            y += line_height
        canvas.add(f'<text x="0" y="{_num(y + box - 2.5)}">{escape(note)}</text>')
        used_width = max(used_width, 0.6 * font * len(note))
    canvas.add('</g>')
    return used_width, y + box - top + 10.0


def cell_size(size: Any) -> float:
    """A picture's cell size in pixels: ``size`` (a positive real number; ``None``, the
    default :data:`DEFAULT_CELL_SIZE`), as a float.

    >>> cell_size(None), cell_size(10)
    (26.0, 10.0)
    >>> cell_size("10")
    Traceback (most recent call last):
    ...
    msanalysis.errors.InvalidInput: size is a positive number of pixels, at most 10,000, got '10'
    """
    cell = float(DEFAULT_CELL_SIZE) if size is None else as_real(size)
    if not 0 < cell <= MAX_CELL_SIZE:  # a larger picture's width overflows a float
        raise InvalidInput(f"size is a positive number of pixels, at most {MAX_CELL_SIZE:,}, "
                           f"got {size!r}")
    return cell


def board(obj, *, size: float | None = None, probabilities=None, highlight: Iterable = (),
          explanation=None, coordinates: bool = True, legend: bool | None = None,
          solution: bool = False) -> Svg:
    """Draw a board, position, analysis, reconstruction, number grid or puzzle as an SVG string.

    Parameters
    ----------
    obj : Board, Position, Analysis, Reconstruction, NumberGrid or Puzzle
        A :class:`~msanalysis.board.Board` is drawn fully uncovered (numbers and mines); a
        :class:`~msanalysis.position.Position` as the player sees it; an ``Analysis`` as its
        position plus forced cells (green with a tick: safe; red with a mine: a mine) and every
        other hidden cell shaded by its mine probability, with the percentage written in it; a
        ``Reconstruction`` as the numbers of its first layout under its rule, mines filled dark
        (with no layout: the empty grid, the clues that cannot all hold outlined); a
        ``NumberGrid`` as its clues, unknown clues raised like hidden cells; a ``Puzzle``
        (:mod:`msanalysis.puzzle`) as its clues written on an empty white grid.
    size : float, optional
        Side of one cell in pixels (default :data:`DEFAULT_CELL_SIZE`). The picture also has a
        ``viewBox``, so it scales cleanly when a page resizes it.
    probabilities : array_like of float (height x width) or mapping cell -> float, optional
        Mine probabilities (0 to 1) to shade hidden cells with; NaN leaves a cell plain. For an
        analysis this replaces its own probabilities.
    highlight : iterable of (row, col)
        Cells to outline in blue.
    explanation : Explanation or (row, col), optional
        Outline the explained cell in blue and the clues that force it in orange. A bare cell is
        explained by ``obj.explain(cell)`` (``obj`` must then be an analysis).
    coordinates : bool
        Write column numbers above the grid and row numbers to its left (0-based, as cells are
        written everywhere in the toolkit).
    legend : bool, optional
        Show a legend under the grid; by default shown for an analysis, an explanation or a
        highlight.
    solution : bool
        For a ``Puzzle``: draw its answer instead, the filled picture (mine cells dark) under
        the same clues.

    Returns
    -------
    Svg
        A standalone SVG document (no XML declaration, so it can be inlined in HTML), as a
        string that draws itself in Jupyter.

    Raises
    ------
    WrongType
        For an object that is not one of the kinds above, or ``solution=True`` for one that is
        not a puzzle.
    ValueError
        For probabilities of the wrong shape or outside 0-1 (NaN leaves a cell unwritten), a
        highlighted cell off the board, or a board of more than :data:`MAX_PICTURE_CELLS`
        cells.

    Examples
    --------
    >>> from msanalysis.position import Position
    >>> picture = board(Position.from_text("?1\\n?1"), size=20)
    >>> picture.startswith("<svg") and picture.endswith("</svg>")
    True
    >>> picture == board(Position.from_text("?1\\n?1"), size=20)
    True

    Notes
    -----
    O(width * height) time and output size.
    """
    check_flag(solution, "solution")
    check_flag(coordinates, "coordinates")
    if legend is not None:
        check_flag(legend, "legend")
    scene = _scene(obj, solution)
    if probabilities is not None:
        scene.probabilities = _probability_grid(probabilities, scene.height, scene.width)
    cell = cell_size(size)
    check_list(highlight, "highlight is a list of cells")
    marked = sorted({_cell_of(item) for item in highlight})
    explained = _explanation_parts(explanation, obj)
    for row, col in marked + ([explained[0]] + explained[2] if explained else []):
        if not (0 <= row < scene.height and 0 <= col < scene.width):
            raise InvalidInput(f"cell ({row}, {col}) is off the {scene.width}x{scene.height} board")

    canvas = _Canvas(scene, cell, coordinates)
    _draw_cells(canvas)
    _draw_marks(canvas)
    if coordinates:
        _draw_coordinates(canvas)
    # Outlines go last so that neighbouring cells never paint over them.
    line = max(2.0, cell * 0.11)
    if scene.best_guess is not None:
        canvas.outline(*scene.best_guess, _GUESS, line * 1.3)
    for row, col in marked:
        canvas.outline(row, col, _HIGHLIGHT, line)
    for row, col in scene.conflict:
        canvas.outline(row, col, _CLUE, line)
    if explained is not None:
        for row, col in explained[2]:
            canvas.outline(row, col, _CLUE, line)
        row, col = explained[0]
        canvas.outline(row, col, _HIGHLIGHT, line * 1.3)

    grid_width = canvas.x(scene.width)
    total_width, total_height = grid_width, canvas.y(scene.height)
    items = _legend_items(scene, explained, marked)
    show_legend = bool(items) if legend is None else legend
    if (show_legend and items) or scene.note is not None:
        legend_width, legend_height = _legend(canvas, items if show_legend else [], scene.note,
                                              grid_width)
        total_width = max(total_width, legend_width)
        total_height += legend_height
    return _document(canvas, total_width, total_height)


def replay(analysis, *, size: float | None = None, coordinates: bool = True,
           legend: bool = True) -> Svg:
    """Draw a judged replay: the board at the end, each risky click numbered and coloured.

    The guesses, needless guesses and blunders of ``analysis`` (a
    :class:`~msanalysis.play.judge.ReplayAnalysis`) are numbered in the order they were made, filled
    with the colour of the chance of a mine they had when clicked, and outlined by verdict:
    purple a guess the position required, orange a needless guess, blue a blunder. A won board
    shows every mine flagged, as the programs do; a lost one shows its mines.

    Parameters
    ----------
    analysis : ReplayAnalysis
    size : float, optional
        Side of one cell in pixels (default :data:`DEFAULT_CELL_SIZE`).
    coordinates : bool
        Write column and row numbers around the grid.
    legend : bool
        Show the legend and a line with the survival probability under the grid.

    Returns
    -------
    str
        A standalone SVG document.

    Examples
    --------
    >>> from msanalysis.board import Board
    >>> from msanalysis.replay import Action, Replay
    >>> from msanalysis.play.judge import analyze_replay
    >>> game = Replay(Board.from_text("*..\\n..."),
    ...               (Action("reveal", (0, 2)), Action("reveal", (1, 0))), rules="safe-cell")
    >>> picture = replay(analyze_replay(game), size=20)
    >>> picture.startswith("<svg") and ">1</text>" in picture
    True

    Notes
    -----
    O(width * height) time and output size.
    """
    from msanalysis.play.judge import ReplayAnalysis  # the play layer, only when asked

    check_type(analysis, ReplayAnalysis, "svg.replay", "analyze_replay(replay) makes one")
    check_flag(coordinates, "coordinates")
    check_flag(legend, "legend")
    final = analysis.final
    layout = analysis.replay.board
    states = np.array(final.states)
    if analysis.status == "won":
        states[(states == HIDDEN) & layout.mask] = FLAG
    cell = cell_size(size)
    guesses = [j for j in analysis.judgements if j.verdict in ("guess", "needless", "blunder")]
    scene = _Scene(final.height, final.width, states, None)
    canvas = _Canvas(scene, cell, coordinates)
    _draw_cells(canvas)
    for judgement in guesses:
        p = judgement.probability
        row, col = judgement.cell
        canvas.rect(row, col, _FACE if p is None else probability_colour(float(p)))
    # The marks go on top of the cells; a numbered cell shows its number instead of its own.
    labelled = scene.states.copy()
    for judgement in guesses:
        labelled[judgement.cell] = 0
    scene.states = labelled
    _draw_marks(canvas)
    scene.states = states
    canvas.add(f'<g font-family={quoteattr(_FONT)} text-anchor="middle">')
    for number, judgement in enumerate(guesses, start=1):
        p = judgement.probability
        ink = "#ffffff" if p is not None and is_dark(probability_colour(float(p))) else "#000000"
        label = str(number)
        row, col = judgement.cell
        canvas.text(row, col, label, fill=ink, scale=0.62 if len(label) < 3 else 0.45, bold=True)
    canvas.add('</g>')
    if coordinates:
        _draw_coordinates(canvas)
    line = max(2.0, cell * 0.11)
    outline = {"guess": _GUESS, "needless": _CLUE, "blunder": _HIGHLIGHT}
    for judgement in guesses:
        row, col = judgement.cell
        canvas.outline(row, col, outline[judgement.verdict], line)

    grid_width = canvas.x(scene.width)
    total_width, total_height = grid_width, canvas.y(scene.height)
    if legend:
        verdicts = {j.verdict for j in guesses}
        items = [("ramp", "chance of a mine when clicked")] if guesses else []
        items += [(kind, label) for verdict, kind, label in
                  (("guess", "guess", "guess"), ("needless", "clue", "needless guess"),
                   ("blunder", "highlight", "blunder")) if verdict in verdicts]
        survival = analysis.survival
        note = f"{len(guesses)} risky click{'s' if len(guesses) != 1 else ''}, {analysis.status}"
        if survival is not None:
            note += f"; survival {float(survival):.2%}"
        legend_width, legend_height = _legend(canvas, items, note, grid_width)
        total_width = max(total_width, legend_width)
        total_height += legend_height
    return _document(canvas, total_width, total_height)


def _document(canvas: _Canvas, total_width: float, total_height: float) -> Svg:
    """The SVG document of what ``canvas`` holds, sized to ``total_width x total_height``."""
    width, height = _num(math.ceil(total_width + 1)), _num(math.ceil(total_height + 1))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}">')
    return Svg(head + SYMBOLS + "".join(canvas.parts) + "</svg>")
