"""Drawing layouts uniformly (msanalysis.sampling) and rollouts on them (msanalysis.play.rollout),
against brute force."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from msanalysis.constraints import build
from msanalysis.errors import AnalysisTooHard, InvalidInput
from msanalysis.play.rollout import game_on, race, rollouts
from msanalysis.play.strategies import make_strategy
from msanalysis.position import FLAG, MINE, Position
from msanalysis.sampling import LayoutSampler
from reference import all_layouts, game_positions


def _positions() -> list[Position]:
    """Seeded positions with the total known, no flags and no shown mine (what brute force
    handles), still being played."""
    found = []
    for p in game_positions(120, start=500):
        if p.total_mines is None or (p.states == FLAG).any() or (p.states == MINE).any():
            continue
        found.append(p)
    return found


POSITIONS = _positions()


def test_enough_positions() -> None:
    assert len(POSITIONS) >= 40


@pytest.mark.parametrize("position", POSITIONS[:40], ids=lambda p: p.to_text()[:30])
def test_draws_are_layouts_and_uniform(position: Position) -> None:
    layouts = {frozenset(board.mines) for board in all_layouts(position)}
    sampler = LayoutSampler(build(position))
    assert sampler.solutions == len(layouts)
    rng = random.Random(7)
    draws = 200 * len(layouts) if len(layouts) <= 20 else 2000
    seen = Counter(sampler.draw(rng) for _ in range(draws))
    assert set(seen) <= layouts  # every draw fits the position
    if len(layouts) <= 20:
        assert set(seen) == layouts
        mean = draws / len(layouts)
        # about 5 standard deviations: a biased sampler fails, a fair one with this seed passes
        assert all(abs(n - mean) <= 5 * mean ** 0.5 for n in seen.values()), seen


def test_the_mine_count_is_needed() -> None:
    with pytest.raises(InvalidInput, match="mine count"):
        LayoutSampler(build(Position.from_text("??\n11")))


def test_a_bound_on_the_frontier() -> None:
    rows = ["?1?" * 4, "?" * 12, "?" * 12]  # four clues apart: one way each
    position = Position.from_text("mines: 6\n" + "\n".join(rows))
    with pytest.raises(AnalysisTooHard, match="more than 3 ways"):
        LayoutSampler(build(position), limit=3)


@pytest.mark.parametrize("position", POSITIONS[:15], ids=lambda p: p.to_text()[:30])
def test_game_on_shows_the_position(position: Position) -> None:
    sampler = LayoutSampler(build(position))
    game = game_on(position, sampler.draw(random.Random(1)))
    assert game.position().states.tolist() == position.states.tolist()


def test_rollouts_lose_on_a_mine_and_play_on_otherwise() -> None:
    position = Position.from_text("mines: 3\n1????\n" + "?????\n" * 3 + "?????")
    sampler = LayoutSampler(build(position))
    rng = random.Random(3)
    layouts = [sampler.draw(rng) for _ in range(30)]
    won = rollouts(position, [(0, 1), (4, 4)], lambda: make_strategy("best"), layouts)
    for j, mines in enumerate(layouts):
        assert not (won[0, j] and (0, 1) in mines)
        assert not (won[1, j] and (4, 4) in mines)
    assert won[1].sum() > won[0].sum()  # a 1-in-3 guess loses more than a 2-in-23 one
    with pytest.raises(InvalidInput, match="not a hidden cell"):
        rollouts(position, [(0, 0)], lambda: make_strategy("best"), layouts)


def test_a_race_is_repeatable_and_drops_the_worse_guess() -> None:
    position = Position.from_text("mines: 3\n1????\n" + "?????\n" * 3 + "?????")
    runs = [race(position, [(0, 1), (4, 4)], lambda: make_strategy("best"), rounds=4,
                 per_round=40, seed=5) for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0].leader == (4, 4)
    assert (0, 1) in runs[0].dropped


def test_a_race_continued_is_the_race_run_at_once() -> None:
    position = Position.from_text("mines: 4\n1?????\n" + "??????\n" * 3 + "??????")
    cells = [(0, 1), (4, 5), (0, 5)]
    whole = race(position, cells, lambda: make_strategy("best"), rounds=3, per_round=8, seed=9,
                 alpha=1e-9)
    part = race(position, cells, lambda: make_strategy("best"), rounds=1, per_round=8, seed=9,
                alpha=1e-9)
    assert part.rounds == 1
    again = race(position, part, lambda: make_strategy("best"), rounds=3, per_round=8, seed=9,
                 alpha=1e-9)
    assert again == whole and whole.played == [24, 24, 24]


def test_a_box_of_one_mine_takes_what_sample_would_from_the_generator() -> None:
    # LayoutSampler.draw takes a box's single mine with randrange and skips boxes of none:
    # the same cell and the same generator state after as rng.sample, so the same layouts.
    for size in (1, 2, 5, 21, 22, 40):
        box = [(0, c) for c in range(size)]
        for seed in range(20):
            by_sample, by_randrange = random.Random(seed), random.Random(seed)
            assert by_sample.sample(box, 1) == [box[by_randrange.randrange(size)]]
            assert by_sample.sample(box, 0) == []
            assert by_sample.getstate() == by_randrange.getstate()


def test_a_component_of_thousands_of_boxes_and_a_large_sea_with_few_mines():
    # Each box was a level of recursion (past Python's limit of 1,000), and the sea's ways were
    # worked out for every number of mines it could hold, not only up to the mines left.
    chain = Position.from_text("mines: 1000\n" + "?" * 3000 + "\n" + "1" * 3000 + "\n"
                               + "0" * 3000)
    sampler = LayoutSampler(build(chain))
    assert sampler.solutions == 1 and len(sampler.draw(random.Random(1))) == 1000
    sea = LayoutSampler(build(Position.from_text("mines: 2\n" + "\n".join(["?" * 300] * 300))))
    assert sea.solutions == 90000 * 89999 // 2


@pytest.mark.parametrize("change, message", [
    ({"rounds": 0}, "rounds is a whole number from 1"),  # was a division by zero
    ({"per_round": 2.5}, "per_round must be a whole number"),
    ({"seed": None}, "give one"),
    ({"seed": -1}, "a seed is a whole number from 0 to"),
    ({"alpha": float("nan")}, "alpha is a probability"),
    ({"candidates": [(0, 1), (0, 1)]}, "each once"),
    ({"candidates": []}, "each once"),
    ({"strategy": "best"}, "function that makes one"),
])
def test_a_race_refuses_what_it_cannot_run(change, message):
    position = Position.from_text("mines: 2\n???\n1??")
    arguments = {"candidates": [(0, 1), (1, 2)], "strategy": lambda: make_strategy("best"),
                 "rounds": 1, "per_round": 2, "seed": 1, **change}
    with pytest.raises(InvalidInput, match=message):
        race(position, arguments.pop("candidates"), arguments.pop("strategy"), **arguments)
