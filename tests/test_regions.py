"""Regions, checked by brute force: every layout listed, and a region's part of one layout put
together with the rest of any other that gives it as many mines."""

import numpy as np
import pytest

from analysed import analysed_positions
from msanalysis.analysis import analyze
from msanalysis.play.best import BestStrategy
from msanalysis.play.regions import left_for_last, regions
from msanalysis.position import HIDDEN, Position
from reference import all_layouts


def _open(position, analysis):
    return (position.states == HIDDEN) & (np.array(analysis.probabilities) < 1)


POSITIONS = analysed_positions(
    3000, start=11000,
    keep=lambda position, analysis: len(regions(analysis, _open(position, analysis))) > 1)


def test_positions_with_several_regions_are_met():
    assert len(POSITIONS) >= 20


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_a_region_goes_with_the_rest_of_any_layout_of_its_mine_count(index):
    position, analysis = POSITIONS[index]
    unknown = _open(position, analysis)
    found = regions(analysis, unknown)
    assert sorted(c for region in found for c in region) == \
        [tuple(map(int, c)) for c in zip(*np.nonzero(unknown))]
    assert [len(r) for r in found] == sorted((len(r) for r in found), reverse=True)
    layouts = {frozenset(board.mines) for board in all_layouts(position)}
    for region in found:
        inside = frozenset(region)
        for first in layouts:
            for second in layouts:
                if len(first & inside) == len(second & inside):
                    assert (first - inside) | (second & inside) in layouts


def test_left_for_last_is_every_region_but_the_largest():
    position, analysis = POSITIONS[0]
    unknown = _open(position, analysis)
    later = left_for_last(analysis, unknown)
    assert {tuple(map(int, c)) for c in zip(*np.nonzero(later))} == \
        {cell for region in regions(analysis, unknown)[1:] for cell in region}
    # Without the mine count nothing could settle a small region: nothing is left for last.
    for text, left in (("mines: 4\n??*???\n13*???", 2), ("??*???\n13*???", 0)):
        walled = Position.from_text(text)
        counted = analyze(walled)
        assert left_for_last(counted, _open(walled, counted)).sum() == left


def test_best_leaves_a_walled_off_corner_for_last():
    # From the Java solver's games with an opening (docs/PLAY-STUDIES.md): the 2x2 cells of the
    # bottom left corner, walled off by mines, each a mine in one layout in five; without
    # defer_regions best's 50/50 bonus for the block took (14, 0) while a frontier cell of
    # 0.082 waited on the right.
    position = Position.from_text("""mines: 99
?221211.111123?211????????????
2?2?2?1.1?11??3?23????????????
1121211.111122212?????????????
111..111....1111245???????????
1?2122?1111.1?23?4???2????????
223?2?211?1.112??6?42?????????
2?42311.122212233??322????????
2?3?2221.1?4?3?1234?11????????
12433??1.12??3222?2222????????
.1??3221.135421?2111?3????????
.13?2....1???11221.13?????????
12432....12321.1?1..2?4???????
1???21221....112221.113???????
24??21??1....1?11?1..13???????
??32112321.12322221123????????
??1....1?1.1??11?1.1??3???????""")
    analysis = analyze(position)
    corner = {(14, 0), (14, 1), (15, 0), (15, 1)}
    assert set(regions(analysis, _open(position, analysis))[-1]) == corner
    assert BestStrategy(defer_regions=False).guess(position, analysis).cell in corner
    assert BestStrategy().guess(position, analysis).cell == (4, 20)
    # The candidates the look ahead is shown (considered, ranked) leave the corner out too.
    best = BestStrategy()
    assert not corner & set(best.considered(position, analysis))
    assert not corner & {cell for cell, _ in best.ranked(position, analysis)}
