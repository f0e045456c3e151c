"""``benchmarks/rollout_gain.py`` (best's guesses against its runners-up, played out),
``benchmarks/rollout_fit.py`` (their differences fitted to the cells' features),
``benchmarks/changed_guesses.py`` (a variant's different guesses, played out) and
``benchmarks/losses.py`` (where best's guesses are made and lost)."""

import json
import math
import re
import shutil
import subprocess

import changed_guesses
import numpy as np
import pytest
import rollout_fit
import rollout_gain

from msanalysis.analysis import analyze
from msanalysis.play.bench import PlaySpec
from msanalysis.play.best import BestStrategy
from msanalysis.position import Position


def test_the_chooser_is_scored_on_the_half_it_did_not_choose_with():
    # Candidate 1 wins everywhere: chosen on either half, it gains everything on the other.
    assert rollout_gain.chooser_gain(["0000", "1111"], gated=False) == 1.0
    # Each half favours the candidate that loses on the other: the chooser's luck is not gain.
    assert rollout_gain.chooser_gain(["1100", "0011"], gated=False) == -0.5
    # Gated: 2 layouts won by candidate 1 alone are not enough to leave best's guess.
    assert rollout_gain.chooser_gain(["0000", "1111"], gated=True) == 0.0
    assert rollout_gain.chooser_gain(["0" * 40, "1" * 40], gated=True) == 1.0


def test_the_chooser_on_fewer_layouts_is_scored_on_all_the_others():
    # Half of the layouts is the default: the same as choosing on each half in turn.
    assert rollout_gain.chooser_gain(["1100", "0011"], False, 2) == -0.5
    # Windows of 2: the first picks candidate 1 (2 won against 0), which the other six layouts
    # score at 3 won against best's 4 (-1/6); the second and third keep best's guess (ahead,
    # then tied); the fourth picks candidate 1, even on the other six (0).
    assert rollout_gain.chooser_gain(["0011" "1010", "1100" "0111"], False, 2) == \
        pytest.approx(-1 / 6 / 4)


def test_weighted_mean_counts_a_position_as_often_as_met():
    mean, _ = rollout_gain.weighted([0.0, 1.0], [3, 1])
    assert mean == 0.25


def test_a_small_run_saves_its_rollouts_and_plays_only_what_is_missing(tmp_path, capsys):
    output = tmp_path / "gain.jsonl"
    args = ["--difficulty", "beginner", "--games", "12", "--seed", "5", "--layouts", "20",
            "--output", str(output)]
    rollout_gain.main(args)
    first = capsys.readouterr()
    lines = output.read_text().splitlines()
    assert lines and "guesses outside the endgame searches in 12 games" in first.out
    for line in lines:
        item = json.loads(line)
        assert len(item["outcomes"]) == len(item["candidates"]) >= 2
        assert all(len(o) == 20 for o in item["outcomes"])
        assert item["values"] == sorted(item["values"], reverse=True)
    rollout_gain.main(args)
    again = capsys.readouterr()
    assert "0 to play out" in again.err and again.out == first.out
    assert output.read_text().splitlines() == lines


def test_with_an_opening_the_positions_start_from_the_opening_first_click():
    # With an opening, beginner guesses outside the endgame searches in a few games in a hundred.
    met = rollout_gain.guess_positions(PlaySpec.standard("beginner", rules="safe-opening"),
                                       200, 5)
    assert met
    for text in met:
        states = Position.from_text(text).states
        assert states[3, 3] == 0  # the first click opened a cascade there
    corner = rollout_gain.guess_positions(PlaySpec.standard("beginner"), 200, 5)
    assert all(Position.from_text(text).states[0, 0] >= 0 for text in corner)


def test_bad_arguments_are_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        rollout_gain.main(["--layouts", "3"])
    assert exit_.value.code == 2
    assert "--layouts: an even number, got 3" in capsys.readouterr().err


# -- rollout_fit.py ------------------------------------------------------------------------------

def test_fit_recovers_the_coefficients_of_exact_data():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(50, 2))
    beta, se = rollout_fit.fit(x, x @ np.array([0.3, -0.05]), np.full(50, 0.01))
    assert np.allclose(beta, [0.3, -0.05]) and np.all(se < 1e-9)


def test_features_count_the_cells_a_reveal_makes_safe_and_what_its_number_tells():
    # The corner of an empty 4x4 board with 3 mines (Outlook's example): safe in 455 of 560
    # layouts; a 0 (220 layouts) makes its 3 neighbours safe, a 3 (1 layout) the 12 far cells.
    # When safe it shows 0, 1, 2 or 3 in C(3, k) C(12, 3 - k) = 220, 198, 36 and 1 layouts.
    position = Position.from_text("mines: 3\n????\n????\n????\n????")
    ((value, safety, progress, clears, entropy),) = rollout_fit.features(position, [(0, 0)])
    assert safety == 455 / 560 and progress == 221 / 560
    assert clears == (220 * 3 + 12) / 560 and progress <= value <= safety
    shares = [n / 455 for n in (220, 198, 36, 1)]
    assert entropy == pytest.approx(-sum(p * math.log2(p) for p in shares))


def test_fit_names_an_unreadable_file(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        rollout_fit.main([str(tmp_path / "missing.jsonl")])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.startswith("error: ") and "missing.jsonl" in err


@pytest.mark.parametrize("line, message", [
    ("not json", "line 2: Expecting value"),
    ('{"position": "?1", "outcomes": ["01"]}', "line 2: not a position played out"),
    ('{"position": "?1", "outcomes": ["01", "1"], "candidates": [[0, 0], [0, 1]], '
     '"values": [0.5, 0.4]}', "line 2: its outcomes are not strings of 0 and 1 of one length"),
    ('{"position": "?1", "outcomes": ["01"], "candidates": [[0, "a"]], "values": [0.5]}',
     "line 2: its candidates (row, col) and values are not one per outcome"),
    ('{"position": "x", "outcomes": ["01"], "candidates": [[0, 0]], "values": [0.5]}',
     "line 2: line 1, column 1: unknown character 'x'"),
])
def test_a_rollouts_file_is_checked_line_by_line(tmp_path, capsys, line, message):
    # What rollout_fit.py reads and rollout_gain.py and changed_guesses.py resume from.
    good = ('{"position": "?1", "outcomes": ["01"], "candidates": [[0, 0]], "values": [0.5]}')
    path = tmp_path / "rollouts.jsonl"
    path.write_text(good + "\n" + line + "\n")
    with pytest.raises(ValueError, match="rollouts.jsonl, " + re.escape(message)):
        rollout_gain.read_rollouts(path)
    with pytest.raises(SystemExit) as exit_:
        rollout_fit.main([str(path)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.startswith("error: ") and message in err
    with pytest.raises(SystemExit) as exit_:
        rollout_gain.main(["--difficulty", "beginner", "--games", "1", "--output", str(path)])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_runners_up_are_grouped_by_the_gap_in_value(capsys):
    # A tie that plays alike, and a close pair where the runner-up wins every other layout.
    items = [{"values": [0.8, 0.8], "outcomes": ["1100", "1100"]},
             {"values": [0.81, 0.80], "outcomes": ["0000", "1010"]}]
    rollout_fit.by_gap(items)
    out = capsys.readouterr().out
    assert "ties (under 0.002): 1 positions, +0.00% on average" in out
    assert "close (0.002 to 0.03): 1 positions, +50.00% on average" in out
    assert "apart" not in out and "candidate 3" in out


# -- changed_guesses.py --------------------------------------------------------------------------

def test_changed_guesses_plays_out_both_where_they_differ_and_only_once(tmp_path, capsys):
    output = tmp_path / "changed.jsonl"
    # Only the safest frontier cell as a candidate: a different guess in many beginner games.
    args = ["--difficulty", "beginner", "--b", "candidates=1", "sea_candidates=0", "--games",
            "12", "--seed", "5", "--layouts", "20", "--output", str(output)]
    changed_guesses.main(args)
    first = capsys.readouterr()
    lines = output.read_text().splitlines()
    assert lines and "guesses in 12 games; the variant guesses differently at" in first.out
    for line in lines:
        item = json.loads(line)
        best_guess, other = map(tuple, item["guesses"])
        assert best_guess != other and len(item["outcomes"]) == 2
        assert all(len(o) == 20 for o in item["outcomes"])
        # best's own guess in the position is the first of the two.
        position = Position.from_text(item["position"])
        assert BestStrategy().guess(position, analyze(position)).cell == best_guess
    changed_guesses.main(args)
    again = capsys.readouterr()
    assert "0 to play out" in again.err and again.out == first.out
    assert output.read_text().splitlines() == lines


def test_changed_guesses_with_best_itself_plays_nothing_out(tmp_path, capsys):
    output = tmp_path / "same.jsonl"
    changed_guesses.main(["--difficulty", "beginner", "--games", "5", "--output", str(output)])
    assert "the variant guesses as best does at every one" in capsys.readouterr().out
    assert not output.exists()
    with pytest.raises(SystemExit) as exit_:
        changed_guesses.main(["--difficulty", "beginner", "--b", "no_such=1"])
    assert exit_.value.code == 2 and capsys.readouterr().err.startswith("error: ")


def test_changed_guesses_reports_saved_files_pooled_each_position_once(tmp_path, capsys):
    # The variant's guess wins one layout of four more, one fewer, one more: +1/12 in all. The
    # same position in both files counts twice (its layouts were drawn apart).
    position = "mines: 1\n1?\n??"
    lines = [[["1100", "1110"], ["1111", "1011"]], [["0000", "1000"]]]
    paths = []
    for number, outcomes in enumerate(lines):
        paths.append(tmp_path / f"saved{number}.jsonl")
        paths[-1].write_text("".join(
            json.dumps({"position": position, "guesses": [[0, 1], [1, 1]], "outcomes": o}) + "\n"
            for o in outcomes))
    changed_guesses.main(["--report", *map(str, paths)])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{paths[0]}: 2 positions, the variant's guess minus best's +0.00% (+- "
                      f"25.00%) per changed guess; it won more in 1, fewer in 1 (sign test p = "
                      f"1.0000)")
    assert out[1].startswith(f"{paths[1]}: 1 positions, the variant's guess minus best's "
                             f"+25.00% per changed guess; it won more in 1, fewer in 0")
    assert out[2].startswith("the 2 files together: 3 positions, the variant's guess minus "
                             "best's +8.33% (+- ")
    assert out[2].endswith("it won more in 2, fewer in 1 (sign test p = 1.0000)")
    paths[1].write_text('{"position": "mines: 1"}\n')
    with pytest.raises(SystemExit) as exit_:
        changed_guesses.main(["--report", *map(str, paths)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.startswith(f"error: {paths[1]}, line 1: not a position")


def test_changed_guesses_against_a_variant_plays_that_variant(tmp_path, capsys):
    # best with only its safest frontier cell as a candidate plays the games and the rollouts;
    # the variant is best's default.
    output = tmp_path / "against.jsonl"
    narrow = {"candidates": 1, "sea_candidates": 0}
    changed_guesses.main(["--difficulty", "beginner", "--a", "candidates=1", "sea_candidates=0",
                          "--games", "12", "--seed", "5", "--layouts", "20",
                          "--output", str(output)])
    assert "the variant guesses differently at" in capsys.readouterr().out
    for item in map(json.loads, output.read_text().splitlines()):
        position = Position.from_text(item["position"])
        base, other = map(tuple, item["guesses"])
        assert BestStrategy(**narrow).guess(position, analyze(position)).cell == base
        assert BestStrategy().guess(position, analyze(position)).cell == other
    # The same options on both sides: nothing differs.
    changed_guesses.main(["--difficulty", "beginner", "--a", "candidates=1", "sea_candidates=0",
                          "--b", "candidates=1", "sea_candidates=0", "--games", "12", "--seed",
                          "5", "--output", str(tmp_path / "same.jsonl")])
    assert "the variant guesses as best does at every one" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        changed_guesses.main(["--difficulty", "beginner", "--a", "strategy=paper"])
    assert exit_.value.code == 2 and "give it options only" in capsys.readouterr().err


def test_changed_guesses_along_the_variants_own_games(tmp_path, capsys):
    # The narrow variant plays the games; best's default is asked at each of its guesses.
    output = tmp_path / "own.jsonl"
    narrow = {"candidates": 1, "sea_candidates": 0}
    changed_guesses.main(["--difficulty", "beginner", "--b", "candidates=1", "sea_candidates=0",
                          "--variant-games", "--games", "12", "--seed", "5", "--layouts", "20",
                          "--output", str(output)])
    assert "the variant guesses differently at" in capsys.readouterr().out
    spec = PlaySpec.standard("beginner")
    reached: set[str] = set()
    rollout_gain.at_best_guesses(spec, range(5, 17),
                                 lambda position, *_: reached.add(position.to_text()), narrow)
    items = [json.loads(line) for line in output.read_text().splitlines()]
    assert items
    for item in items:
        assert item["position"] in reached  # a position of the variant's own games
        position = Position.from_text(item["position"])
        base, other = map(tuple, item["guesses"])
        assert BestStrategy().guess(position, analyze(position)).cell == base
        assert BestStrategy(**narrow).guess(position, analyze(position)).cell == other
    for args, says in ((["--java", str(tmp_path)], "are --java-games"),
                       (["--b", "strategy=paper"], "the variant's games are best's")):
        with pytest.raises(SystemExit) as exit_:
            changed_guesses.main(["--difficulty", "beginner", "--variant-games", *args])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and err.startswith("error: ") and says in err


def test_changed_guesses_by_kind_sorts_every_position_once_under_its_broader_kind(tmp_path,
                                                                                capsys):
    best = BestStrategy()
    names = changed_guesses.kinds(best)
    opening = "mines: 10\n11" + "?" * 7 + "\n" + "\n".join(["?" * 9] * 8)
    assert changed_guesses.kind_of(opening, ((8, 8), (0, 8)), best) == (names[1], names[2])
    assert changed_guesses.kind_of("mines: 1\n??\n11", ((0, 0), (0, 1)), best) == \
        (names[1], names[3])
    # 60 games of a variant with one candidate: positions of every depth of kind.
    changed_guesses.main(["--difficulty", "beginner", "--b", "candidates=1", "sea_candidates=0",
                          "near_sea=0", "--games", "60", "--seed", "5", "--layouts", "10",
                          "--by-kind", "--output", str(tmp_path / "kinds.jsonl")])
    out = capsys.readouterr().out
    total = int(re.search(r"\((\d+) positions\)", out).group(1))
    rows = re.findall(r"^(  +)(.+?): (\d+) \((\d+)\), ", out.split("by kind")[1], re.M)
    assert rows and {name for _, name, _, _ in rows} <= set(names)
    tree = [(len(indent) // 2, int(positions)) for indent, _, positions, _ in rows]
    assert max(depth for depth, _ in tree) == 3
    assert sum(n for depth, n in tree if depth == 1) == total
    for i, (depth, n) in enumerate(tree):  # a kind's positions are its narrower kinds' together
        below = []
        for deeper, m in tree[i + 1:]:
            if deeper <= depth:
                break
            if deeper == depth + 1:
                below.append(m)
        assert not below or sum(below) == n


def test_changed_guesses_refuses_a_java_solver_that_is_not_built(tmp_path, capsys):
    for args, says in ((["--java", str(tmp_path)], "no Ask.class there"),
                       (["--java", str(tmp_path), "--java-games"], "no Play.class there"),
                       (["--java-games"], "need --java DIR"),
                       (["--java", str(tmp_path), "--b", "margin=0.2"], "one or the other"),
                       (["--java", str(tmp_path), "--a", "margin=0.2"], "best's defaults")):
        with pytest.raises(SystemExit) as exit_:
            changed_guesses.main(["--difficulty", "beginner", *args])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1
        assert says in err


def _compile(directory, name, source):
    """A stand-in Java driver compiled into ``directory``, as the real one's build would be."""
    (directory / f"{name}.java").write_text(source)
    subprocess.run(["javac", "-d", str(directory), str(directory / f"{name}.java")], check=True)


_FAKE_ASK = """
import java.io.*;
public class Ask {  // the real driver's protocol; answers the last hidden cell of the last row
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] rows = line.split(" ")[3].split("/");
            String last = rows[rows.length - 1];
            int column = last.lastIndexOf('H');
            if (rows.length == 1) System.out.println("error boom");  // a solver that fails
            else if (column < 0) System.out.println("none");
            else System.out.println(column + " " + (rows.length - 1) + " FAKE");
        }
    }
}
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK")
def test_the_java_solver_is_asked_in_columns_and_rows(tmp_path):
    # A stand-in driver speaking Ask.java's protocol: the answer comes back as (row, column).
    from java_solver import JavaSolver

    _compile(tmp_path, "Ask", _FAKE_ASK)
    solver = JavaSolver(tmp_path)
    moves = solver.choose(Position.from_text("mines: 1\n1???\n1??1"))
    assert [(m.cell, m.guess) for m in moves] == [((1, 2), True)] and solver.method == "FAKE"
    assert solver.choose(Position.from_text("mines: 1\n1??\n111")) == []
    assert solver.method == "none"
    with pytest.raises(RuntimeError, match=r"failed on the position 1\? \(1 mines\): boom"):
        solver.choose(Position.from_text("mines: 1\n1?"))
    assert solver.choose(Position.from_text("mines: 1\n1???\n1??1"))[0].cell == (1, 2)


_FAKE_PLAY = """
import java.io.*;
public class Play {  // the real driver's protocol; "won 0" or "lost N", N mines by the first click
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] p = line.split(" ");
            int width = Integer.parseInt(p[0]), column = Integer.parseInt(p[2]);
            int row = Integer.parseInt(p[3]), around = 0;
            for (int i = 4; i < p.length; i++) {
                int mine = Integer.parseInt(p[i]);
                if (Math.abs(mine % width - column) <= 1 && Math.abs(mine / width - row) <= 1)
                    around++;
            }
            if (column == 1) System.out.println("error boom");  // a solver that fails
            else System.out.println((around == 0 ? "won " : "lost ") + around);
        }
    }
}
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK")
def test_the_java_solver_plays_our_boards_from_our_first_click(tmp_path):
    # A stand-in driver speaking Play.java's protocol tells what it was given: the mines around
    # the first click, which must be those of the board play_one plays.
    from java_solver import play_games

    from msanalysis.rules import generate

    _compile(tmp_path, "Play", _FAKE_PLAY)
    spec = PlaySpec.standard("expert", first_click=(3, 7))
    summary = play_games(tmp_path, spec, range(40, 52), jobs=2)
    around = [sum((3 + dr, 7 + dc) in generate(30, 16, 99, first_click=(3, 7), seed=seed).mines
                  for dr in (-1, 0, 1) for dc in (-1, 0, 1)) for seed in range(40, 52)]
    assert summary.games == 12 and summary.guesses == sum(around) > 0
    assert summary.wins == around.count(0) > 0 and not summary.interrupted
    with pytest.raises(RuntimeError, match="failed on game 40 of expert: boom"):
        play_games(tmp_path, PlaySpec.standard("expert", first_click=(3, 1)), range(40, 41), 1)


_FAKE_PLAY_ON_A_MINE = """
import java.io.*;
public class Play {  // the real driver's protocol; one guess, on the first mine it was given
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] p = line.split(" ");
            int width = Integer.parseInt(p[0]), mine = Integer.parseInt(p[4]);
            System.out.println("lost 1 " + (mine % width) + "," + (mine / width));
        }
    }
}
"""


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK")
def test_the_java_solvers_games_are_followed_to_its_guesses(tmp_path):
    # A stand-in that guesses the first mine at once: followed on our side, the game is lost at
    # its first guess, and cannot be followed where best needs no guess at all (a game won).
    from java_solver import at_java_guesses

    from msanalysis.play.bench import play_one
    from msanalysis.rules import generate

    _compile(tmp_path, "Play", _FAKE_PLAY_ON_A_MINE)
    spec = PlaySpec.standard("beginner")
    seeds = range(0, 30)
    guessed = []
    astray = at_java_guesses(tmp_path, spec, seeds,
                             lambda position, analysis, move: guessed.append(move.cell))
    no_guess = [seed for seed in seeds if play_one(spec, seed).guesses == 0]
    assert astray == len(no_guess) and 0 < len(no_guess) < len(seeds)
    assert guessed == [min(generate(9, 9, 10, first_click=(0, 0), seed=seed).mines)
                       for seed in seeds if seed not in no_guess]
    # changed_guesses --java-games: best asked at each of those guesses, the Java solver's second.
    met, changed, guesses, astray = changed_guesses.differing(spec, seeds, tmp_path, True)
    assert (guesses, astray) == (len(guessed), len(no_guess)) and sum(met.values()) <= guesses
    assert changed and all(theirs in guessed and ours != theirs
                           for ours, theirs in changed.values())


def test_longrun_refuses_a_java_solver_that_is_not_built_or_given_options(tmp_path, capsys):
    import longrun

    for args, says in ((["--java", str(tmp_path)], "no Play.class there"),
                       (["--java", str(tmp_path), "--option", "margin=0.2"], "no --strategy")):
        with pytest.raises(SystemExit) as exit_:
            longrun.main(["--row", "beginner", "--games", "10", *args])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1
        assert says in err


def test_losses_sorts_every_guess_and_every_lost_game():
    # benchmarks/losses.py: each guess of best goes to one kind of position, and each lost game
    # to the kind of its last guess, so the tallies add up to what the games say.
    import losses

    from msanalysis.play.bench import play_one

    won, guesses, lost = losses.tally("beginner", 40, 7)
    played = [play_one(PlaySpec.standard("beginner"), seed) for seed in range(7, 47)]
    assert won == sum(r.won for r in played)
    assert sum(guesses.values()) == sum(r.guesses for r in played)
    assert sum(lost.values()) == 40 - won
    assert set(guesses) <= set(losses.KINDS) and all(lost[k] <= guesses[k] for k in lost)
    # 5/6 of 480 cells is 400: 401 hidden is the opening, 400 is not.
    best = BestStrategy(endgame_layouts=1000, drawn_endgame=10**5)
    assert losses.kind(401, 480, 10, best) == "opening"
    assert losses.kind(400, 480, 1000, best) == "exact endgame"
    assert losses.kind(400, 480, 1001, best) == "drawn endgame"
    assert losses.kind(400, 480, 10**5 + 1, best) == "between, at most 1,000,000 layouts"
    assert losses.kind(400, 480, 1001, BestStrategy(endgame_layouts=1000, drawn_endgame=0)) == \
        "between, at most 1,000,000 layouts"
    assert losses.kind(400, 480, 10**6 + 1, best) == "between, more than 1,000,000 layouts"
