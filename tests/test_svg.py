"""SVG pictures: well-formed, deterministic, and showing what the object holds, cell by cell.

The pictures are read back with xml.etree: with ``coordinates=False`` the grid starts at (0, 0),
so every mark's position tells which cell it belongs to.
"""

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from msanalysis import svg
from msanalysis.board import Board
from msanalysis.cli import app
from msanalysis.errors import InvalidInput
from msanalysis.position import FLAG, HIDDEN, MINE, Position

NS = {"svg": "http://www.w3.org/2000/svg"}
XLINK = "{http://www.w3.org/1999/xlink}href"
SIZE = 20


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def cell_at(x: float, y: float) -> tuple[int, int]:
    return int(y // SIZE), int(x // SIZE)


def grid_texts(root: ET.Element, height: int, width: int) -> dict[tuple[int, int], tuple[str, str]]:
    """Text drawn inside the grid, by cell: (text, fill colour of the text or its group)."""
    found = {}
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        for text in group.findall("svg:text", NS):
            x, y = float(text.get("x")), float(text.get("y"))
            row, col = cell_at(x, y)
            if 0 <= row < height and 0 <= col < width and y < height * SIZE:
                found[(row, col)] = (text.text, text.get("fill") or group.get("fill"))
    return found


def symbols(root: ET.Element, name: str, rows: int = 100) -> list[tuple[int, int]]:
    """Cells of the grid's first ``rows`` rows where the symbol ``msanalysis-<name>`` is placed.

    The legend under the grid uses the same symbols; ``rows`` leaves them out.
    """
    cells = []
    for use in root.iter("{http://www.w3.org/2000/svg}use"):
        if use.get(XLINK) == f"#msanalysis-{name}":
            x = float(use.get("x")) + float(use.get("width")) / 2
            y = float(use.get("y")) + float(use.get("height")) / 2
            if cell_at(x, y)[0] < rows:
                cells.append(cell_at(x, y))
    return sorted(cells)


def outlines(root: ET.Element, colour: str) -> list[tuple[int, int]]:
    cells = []
    for rect in root.iter("{http://www.w3.org/2000/svg}rect"):
        if rect.get("fill") == "none" and rect.get("stroke") == colour:
            x = float(rect.get("x")) + float(rect.get("width")) / 2
            y = float(rect.get("y")) + float(rect.get("height")) / 2
            cells.append(cell_at(x, y))
    return sorted(cells)


LAYOUT = Board.from_text("*..\n...\n..*\n.**")
POSITION = Position.from_text("mines: 4\n?1.\nF21\n?*?\n123")


def test_board_shows_every_number_in_its_colour_and_every_mine():
    root = parse(svg.board(LAYOUT, size=SIZE, coordinates=False))
    texts = grid_texts(root, LAYOUT.height, LAYOUT.width)
    numbers = LAYOUT.numbers
    expected = {(r, c): (str(numbers[r, c]), svg.NUMBER_COLOURS[int(numbers[r, c])])
                for r in range(LAYOUT.height) for c in range(LAYOUT.width)
                if not LAYOUT.is_mine((r, c)) and numbers[r, c] > 0}
    assert texts == expected
    assert symbols(root, "mine") == sorted(LAYOUT.mines)
    assert symbols(root, "raised") == []  # a board is drawn fully uncovered


def test_position_draws_hidden_cells_raised_flags_and_shown_mines():
    root = parse(svg.board(POSITION, size=SIZE, coordinates=False))
    states = POSITION.states
    assert symbols(root, "raised") == sorted(POSITION.hidden | POSITION.flags)
    assert symbols(root, "flag") == [(1, 0)]
    assert symbols(root, "mine") == [(2, 1)]
    texts = grid_texts(root, POSITION.height, POSITION.width)
    assert texts == {cell: (str(states[cell]), svg.NUMBER_COLOURS[int(states[cell])])
                     for cell in POSITION.revealed if states[cell] > 0}


def test_the_classic_number_colours():
    assert svg.NUMBER_COLOURS == {1: "#0000ff", 2: "#008000", 3: "#ff0000", 4: "#000080",
                                  5: "#800000", 6: "#008080", 7: "#000000", 8: "#808080"}


def test_probabilities_are_written_as_percentages_and_never_round_to_certainty():
    position = Position.from_text("????\n1111")
    probabilities = {(0, 0): 0.001, (0, 1): 0.999, (0, 2): 0.5, (0, 3): 0.0}
    root = parse(svg.board(position, size=SIZE, probabilities=probabilities, coordinates=False))
    labels = {cell: text for cell, (text, _) in grid_texts(root, 2, 4).items() if cell[0] == 0}
    assert labels == {(0, 0): "<1%", (0, 1): ">99%", (0, 2): "50%", (0, 3): "0%"}


def test_probability_array_must_match_the_board():
    with pytest.raises(ValueError, match="shape"):
        svg.board(POSITION, probabilities=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="off the"):
        svg.board(POSITION, probabilities={(9, 9): 0.5})
    # A probability is a number from 0 to 1 (it was drawn as "150%" or a negative percentage).
    with pytest.raises(ValueError, match=r"the probability of cell \(0, 0\) is 1.5, not from 0"):
        svg.board(POSITION, probabilities={(0, 0): 1.5})
    grid = np.full(POSITION.shape, np.nan)
    grid[0, 1] = -0.25
    with pytest.raises(ValueError, match=r"cell \(0, 1\) is -0.25, not from 0 to 1"):
        svg.board(POSITION, probabilities=grid)
    with pytest.raises(ValueError, match="probabilities are numbers from 0 to 1"):
        svg.board(POSITION, probabilities={(0, 0): "high"})
    with pytest.raises(ValueError, match="a probability given for a cell is a pair"):
        svg.board(POSITION, probabilities={"corner": 0.5})


def test_nan_probability_leaves_a_cell_plain_and_revealed_cells_are_never_labelled():
    position = Position.from_text("??\n11")
    grid = np.array([[np.nan, 0.25], [0.5, 0.5]])
    root = parse(svg.board(position, size=SIZE, probabilities=grid, coordinates=False))
    texts = grid_texts(root, 2, 2)
    assert texts[(0, 1)][0] == "25%"
    assert (0, 0) not in texts
    assert texts[(1, 0)][0] == "1" and texts[(1, 1)][0] == "1"


def test_probability_colours_darken_with_risk_and_label_ink_stays_legible():
    shades = [svg.probability_colour(p / 10) for p in range(11)]
    brightness = [sum(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in shades]
    assert brightness == sorted(brightness, reverse=True)
    position = Position.from_text("??\n11")
    root = parse(svg.board(position, size=SIZE, probabilities={(0, 0): 0.02, (0, 1): 0.98},
                           coordinates=False))
    texts = grid_texts(root, 2, 2)
    assert texts[(0, 0)][1] == "#000000" and texts[(0, 1)][1] == "#ffffff"


def test_highlight_outlines_cells_and_adds_a_legend():
    picture = svg.board(POSITION, size=SIZE, highlight=[(0, 0), (2, 2)], coordinates=False)
    root = parse(picture)
    assert outlines(root, "#0050ff") == [(0, 0), (2, 2)]
    assert "highlighted" in picture
    with pytest.raises(ValueError, match="off the"):
        svg.board(POSITION, highlight=[(7, 0)])


def test_coordinates_label_rows_and_columns_from_zero():
    position = Position.from_text("?" * 12 + "\n" + "1" * 12)
    root = parse(svg.board(position, size=SIZE))
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert labels[-14:] == [str(c) for c in range(12)] + ["0", "1"]
    bare = parse(svg.board(position, size=SIZE, coordinates=False))
    assert [t.text for t in bare.iter("{http://www.w3.org/2000/svg}text")] == ["1"] * 12


def test_size_is_the_cell_side_in_pixels():
    root = parse(svg.board(Board.from_text("..\n.*\n.."), size=30, coordinates=False))
    assert root.get("width") == str(2 * 30 + 1) and root.get("height") == str(3 * 30 + 1)
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    for size in (0, "abc", 10**400, True):  # a string and a huge int raised Python's own errors
        with pytest.raises(ValueError, match="positive"):
            svg.board(LAYOUT, size=size)


def test_other_objects_are_refused():
    with pytest.raises(TypeError, match="cannot draw"):
        svg.board("???")


def test_no_style_element_that_would_leak_into_a_notebook_page():
    picture = svg.board(POSITION)
    assert "<style" not in picture and "<script" not in picture


def test_repr_svg_of_board_and_position_is_the_picture():
    assert LAYOUT._repr_svg_() == svg.board(LAYOUT)
    assert POSITION._repr_svg_() == svg.board(POSITION)


positions = st.integers(1, 7).flatmap(lambda h: st.integers(1, 9).flatmap(
    lambda w: st.lists(st.lists(st.sampled_from([HIDDEN, FLAG, MINE, *range(9)]),
                                min_size=w, max_size=w), min_size=h, max_size=h)))


@settings(max_examples=60, deadline=None)
@given(positions, st.booleans())
def test_any_position_gives_well_formed_deterministic_xml(states, coordinates):
    position = Position(states)
    picture = svg.board(position, coordinates=coordinates)
    assert picture == svg.board(Position(states), coordinates=coordinates)
    root = parse(picture)
    assert len(symbols(root, "raised")) == len(position.hidden) + len(position.flags)


def test_expert_picture_is_deterministic_and_compact():
    from msanalysis.game import Game

    game = Game.started(30, 16, 99, first_click=(8, 15), seed=3)
    first = svg.board(game.position())
    again = svg.board(Game.started(30, 16, 99, first_click=(8, 15), seed=3).position())
    assert first == again
    parse(first)
    assert len(first) < 200_000


def written_svg(tmp_path, command: str, text: str) -> str:
    """Run ``msanalysis COMMAND FILE --svg OUT`` on ``text`` and return what it wrote."""
    source, out = tmp_path / "input.txt", tmp_path / "out.svg"
    source.write_text(text + "\n")
    result = CliRunner().invoke(app, [command, str(source), "--svg", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text()


def test_cli_show_writes_the_picture(tmp_path):
    assert written_svg(tmp_path, "show", POSITION.to_text()) == svg.board(POSITION)
    assert written_svg(tmp_path, "show", LAYOUT.to_text()) == svg.board(LAYOUT)


def test_the_core_does_not_import_the_pictures():
    code = ("import sys, msanalysis.board, msanalysis.position, msanalysis.game, "
            "msanalysis.formats; assert 'msanalysis.svg' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


SEED_003_FILE = (Path(__file__).resolve().parent.parent / "puzzles" / "reconstruct"
                 / "seed003-mosaic.txt")
SEED_003 = "\n".join(line for line in SEED_003_FILE.read_text().splitlines()
                     if line and not line.startswith("#"))


def test_number_grid_shows_clues_and_raises_unknown_ones():
    from msanalysis.numbergrid import NumberGrid

    grid = NumberGrid.from_text("1?1\n1?1", rule="classic")
    root = parse(svg.board(grid, size=SIZE, coordinates=False))
    assert symbols(root, "raised") == [(0, 1), (1, 1)]
    assert sorted(grid_texts(root, 2, 3)) == [(0, 0), (0, 2), (1, 0), (1, 2)]
    mosaic = NumberGrid.from_text("0?\n11", rule="mosaic")
    texts = grid_texts(parse(svg.board(mosaic, size=SIZE, coordinates=False)), 2, 2)
    assert texts[(0, 0)][0] == "0"  # mosaic grids write their zeros


def test_reconstruction_fills_the_mines_of_its_layout_under_its_rule():
    from msanalysis.reconstruction import reconstruct

    result = reconstruct(SEED_003, rule="mosaic")
    layout = result.first
    picture = svg.board(result, size=SIZE, coordinates=False)
    root = parse(picture)
    dark = sorted(cell_at(float(r.get("x")) + 1, float(r.get("y")) + 1)
                  for r in root.iter("{http://www.w3.org/2000/svg}rect")
                  if r.get("fill") == "#3a3a3a" and float(r.get("y")) < 9 * SIZE)
    assert dark == sorted(layout.mines)
    texts = grid_texts(root, 9, 9)
    assert {cell: int(text) for cell, (text, _) in texts.items()} == {
        (r, c): int(ch) for r, line in enumerate(SEED_003.splitlines())
        for c, ch in enumerate(line)}
    assert all(texts[cell][1] == "#ffffff" for cell in layout.mines)
    assert "the only layout that fits" in picture


def test_reconstruction_without_layout_outlines_the_conflict():
    from msanalysis.reconstruction import reconstruct

    result = reconstruct("00\n01")
    picture = svg.board(result, size=SIZE, coordinates=False)
    assert outlines(parse(picture), "#ff8c00") == sorted(result.conflict)
    assert "no layout fits" in picture


def test_reconstruction_with_more_layouts_than_python_writes_says_their_size():
    from msanalysis.reconstruction import reconstruct

    result = reconstruct("\n".join(["?" * 120] * 120))  # no clue: 2^14400 layouts
    assert "one of about 6.79 x 10^4334 (4335 digits) layouts that fit" in svg.board(result)
    assert ": about 6.79 x 10^4334 (4335 digits) layouts" in repr(result)


COUNT_ENDGAME = Position.from_text("""mines: 6
?1.13???
11.1??4?
...13???
....1???""")


def test_analysis_draws_forced_cells_and_every_other_hidden_cell_with_its_percentage():
    from msanalysis.analysis import analyze

    analysis = analyze(COUNT_ENDGAME)
    picture = svg.board(analysis, size=SIZE, coordinates=False)
    root = parse(picture)
    assert symbols(root, "tick", rows=4) == sorted(analysis.forced_safe)
    assert symbols(root, "mine", rows=4) == sorted(analysis.forced_mines)
    texts = grid_texts(root, COUNT_ENDGAME.height, COUNT_ENDGAME.width)
    undecided = COUNT_ENDGAME.hidden - analysis.forced_safe - analysis.forced_mines
    assert undecided  # five cells of 20% each
    for cell in undecided:
        assert texts[cell][0] == f"{round(analysis.probability(cell) * 100)}%"
    for label in ("forced safe", "forced mine", "chance of a mine"):
        assert label in picture
    assert analysis._repr_svg_() == svg.board(analysis)


def test_the_palette_is_what_the_pictures_draw_with_and_cannot_be_changed():
    from msanalysis.analysis import analyze

    picture = svg.board(analyze(COUNT_ENDGAME), size=SIZE)
    for role in ("face", "safe", "mine", "font"):
        assert svg.PALETTE[role] in picture
    assert svg.SYMBOLS in picture
    with pytest.raises(TypeError):
        svg.PALETTE["safe"] = "#000000"  # type: ignore[index]


def test_analysis_that_requires_a_guess_marks_the_best_guess():
    from msanalysis.analysis import analyze

    analysis = analyze(Position.from_text("mines: 2\n1??\n???"))
    assert analysis.requires_guess
    picture = svg.board(analysis, size=SIZE, coordinates=False)
    assert outlines(parse(picture), svg.PALETTE["guess"]) == [analysis.best_guess]
    assert f"best guess {analysis.best_guess}".replace("(", "(") in picture


def test_explanation_outlines_the_cell_and_its_clues():
    from msanalysis.analysis import analyze

    analysis = analyze(COUNT_ENDGAME)
    explanation = analysis.explain((3, 5))
    by_object = svg.board(analysis, size=SIZE, coordinates=False, explanation=explanation)
    assert by_object == svg.board(analysis, size=SIZE, coordinates=False, explanation=(3, 5))
    root = parse(by_object)
    assert outlines(root, "#0050ff") == [(3, 5)]
    assert outlines(root, "#ff8c00") == sorted(explanation.clues)
    assert "(3, 5) is safe" in by_object
    assert ("the mine count" in by_object) == explanation.uses_mine_count
    with pytest.raises(TypeError, match="needs an Analysis"):
        svg.board(COUNT_ENDGAME, explanation=(3, 5))


def test_ignoring_flags_shades_the_flags_by_their_probability():
    from msanalysis.analysis import analyze

    position = Position.from_text("?F?\n?1?\n???")
    as_mines = parse(svg.board(analyze(position), size=SIZE, coordinates=False))
    assert symbols(as_mines, "tick", rows=3) == sorted(position.hidden)
    ignored = analyze(position, ignore_flags=True)
    root = parse(svg.board(ignored, size=SIZE, coordinates=False))
    fills = {cell_at(float(r.get("x")) + 1, float(r.get("y")) + 1): r.get("fill")
             for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("fill") != "none"}
    assert fills[(0, 1)] == svg.probability_colour(ignored.probability((0, 1)))
    assert symbols(root, "flag") == [(0, 1)]


def test_legend_lists_only_what_the_picture_shows():
    from msanalysis.analysis import analyze

    solved = svg.board(analyze(Position.from_text("???\n121\n...")))
    assert "forced safe" in solved and "forced mine" in solved
    assert "chance of a mine" not in solved  # every cell is decided
    guess = svg.board(analyze(Position.from_text("mines: 1\n??\n11\n..")))
    assert "chance of a mine" in guess and "forced" not in guess
    assert "<text" not in svg.board(POSITION, coordinates=False, legend=False).split("</g>")[-1]


def test_cli_analyze_writes_the_analysis_picture(tmp_path):
    from msanalysis.analysis import analyze

    assert (written_svg(tmp_path, "analyze", COUNT_ENDGAME.to_text())
            == svg.board(analyze(COUNT_ENDGAME)))


def test_a_board_too_large_to_draw_is_refused_before_drawing():
    # A 3000x3000 picture took 42 s and 3.6 GB for a file of 955 MB.
    huge = np.zeros((1001, 1000), dtype=bool)
    huge[0, 0] = True
    with pytest.raises(InvalidInput, match="too large to draw"):
        svg.board(Board(huge))
