"""Tests for ``msanalysis play``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from msanalysis.cli import app
from msanalysis.play.bench import PlaySpec, bench

runner = CliRunner()

KEYS = ["games", "wins", "win_rate", "ci95", "rules", "width", "height", "mines", "first_click",
        "strategy", "mean_guesses", "seconds", "games_per_second"]


def test_play_json_has_exactly_the_issue_keys():
    result = runner.invoke(app, ["play", "--games", "4", "--strategy", "paper", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == KEYS
    assert (data["games"], data["width"], data["height"], data["mines"]) == (4, 9, 9, 10)
    assert data["rules"] == "safe-cell" and data["first_click"] == [0, 0]
    assert data["strategy"] == "paper" and 0 <= data["wins"] <= 4
    lo, hi = data["ci95"]
    assert lo <= data["win_rate"] <= hi


def test_play_options_reach_the_games():
    result = runner.invoke(app, ["play", "--width", "8", "--height", "7", "--mines", "9",
                                 "--rules", "safe-opening", "--strategy", "paper", "--games", "3",
                                 "--seed", "20", "--jobs", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["width"], data["height"], data["mines"]) == (8, 7, 9)
    assert data["first_click"] == [3, 3] and data["rules"] == "safe-opening"
    again = runner.invoke(app, ["play", "--width", "8", "--height", "7", "--mines", "9",
                                "--rules", "safe-opening", "--first-click", "3,3", "--strategy",
                                "paper", "--games", "3", "--seed", "20", "--json"])
    assert json.loads(again.stdout)["wins"] == data["wins"]


def test_play_summary_table():
    result = runner.invoke(app, ["play", "--difficulty", "intermediate", "--games", "2",
                                 "--strategy", "paper", "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "intermediate 16x16/40, rules safe-cell, first click 0,0, strategy paper, seeds 5-6" \
        in result.stdout
    for label in ("games", "wins", "win rate", "95% CI", "mean guesses", "games/second",
                  "time per game"):
        assert label in result.stdout


def test_play_errors_are_one_line():
    cases = [
        (["--strategy", "nope"], "'nope' is not one of 'best', 'safest', 'paper'"),
        (["--rules", "lucky"], "'lucky' is not one of 'unsafe', 'safe-cell'"),
        (["--difficulty", "huge"], "'huge' is not one of 'beginner', 'intermediate', 'expert'"),
        (["--first-click", "9,0"], "off the 9x9 board"),
        (["--difficulty", "beginner", "--mines", "81"], "do not fit"),
        (["--games", "0"], "--games must be at least 1"),
        (["--jobs", "0"], "--jobs takes 1 to 64 local worker processes, got 0"),
        (["--jobs", "100000"], "--jobs takes 1 to 64"),
    ]
    for extra, message in cases:
        args = ["play", "--games", "2", "--strategy", "paper", *extra]
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (extra, result.output)
        assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_play_without_games_is_a_usage_error():
    result = runner.invoke(app, ["play"])
    assert result.exit_code == 2 and "--games" in result.output


def test_save_replays_writes_games_that_replay_to_the_same_end(tmp_path):
    from msanalysis.replay import load_replay

    folder = tmp_path / "replays"
    result = CliRunner().invoke(app, ["play", "--games", "3", "--seed", "5", "--save-replays",
                                      str(folder), "--json"])
    assert result.exit_code == 0, result.output
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"9x9-10-safe-cell-best-seed{s}.msreplay.jsonl"
                                       for s in (5, 6, 7)]
    wins = 0
    for path in files:
        replay = load_replay(path)
        game = replay.play()
        assert game.status in ("won", "lost") and replay.player == "best"
        wins += game.status == "won"
    assert wins == json.loads(result.stdout)["wins"]


def test_variants_saved_in_one_folder_keep_their_own_replays(tmp_path):
    from msanalysis.replay import load_replay

    for options in ([], ["--option", "drawn_endgame=0"]):
        result = CliRunner().invoke(app, ["play", "--games", "1", "--seed", "5", *options,
                                          "--save-replays", str(tmp_path)])
        assert result.exit_code == 0, result.output
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["9x9-10-safe-cell-best-drawn_endgame=0-seed5.msreplay.jsonl",
                                       "9x9-10-safe-cell-best-seed5.msreplay.jsonl"]
    assert [load_replay(f).player for f in files] == ["best (drawn_endgame=0)", "best"]


def test_the_choices_offered_are_the_library_s():
    from msanalysis.cli import Difficulty, StrategyName
    from msanalysis.play.strategies import STRATEGIES
    from msanalysis.rules import DIFFICULTIES

    assert {d.value for d in Difficulty} == set(DIFFICULTIES)
    assert {s.value for s in StrategyName} == set(STRATEGIES)


def test_play_option_plays_a_variant_and_says_so():
    base = ["play", "--games", "30", "--seed", "3", "--json"]
    plain = json.loads(runner.invoke(app, base).stdout)
    assert "options" not in plain
    result = runner.invoke(app, [*base, "--option", "candidates=1", "--option",
                                 "sea_candidates=0", "--option", "fifty_fifty=False"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == [*KEYS[:10], "options", *KEYS[10:]]
    assert data["options"] == {"candidates": 1, "fifty_fifty": False, "sea_candidates": 0}
    # The variant is really played: the same games as the library's with those options.
    spec = PlaySpec.standard("beginner", options=data["options"])
    assert data["wins"] == bench(spec, 30, seed=3).wins
    text = runner.invoke(app, ["play", "--games", "2", "--option", "book=beginner-safe-cell"])
    assert "strategy best (book='beginner-safe-cell'), seeds 0-1" in text.stdout


def test_play_option_errors_are_one_line():
    cases = [
        (["--option", "blend"], "option 'blend' is not name=value"),
        (["--option", "=1"], "option '=1' is not name=value"),
        (["--option", "colour=red"], "strategy 'best' has no option 'colour'"),
        (["--option", "blend=2"], "blend is a number from 0 to 1, got 2"),
        (["--option", "fifty_fifty=no"], "fifty_fifty is True or False, got 'no'"),
        (["--option", "book=nowhere"], "no book named 'nowhere'"),
        (["--option", "blend=0.1", "--option", "blend=0.2"], "option blend given twice"),
        (["--strategy", "paper", "--option", "node_budget=0"], "node_budget is a whole number"),
        (["--strategy", "safest", "--option", "blend=0.5"], "strategy 'safest' has no option"),
        (["--option", "seed=3"], "seed is the games' to set, not an option of the strategy"),
        (["--option", "explain=True"], "explain is the games' to set"),
    ]
    for args, message in cases:
        result = runner.invoke(app, ["play", "--games", "1", *args])
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
