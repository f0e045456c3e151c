"""Tests for msanalysis.play.bench: seeds, workers, Dask, the Wilson interval and the summary."""

from __future__ import annotations

import math
import socket
import threading
import time

import numpy as np
import pytest

from msanalysis.errors import InvalidInput
from msanalysis.play.bench import (
    GameResult,
    Paired,
    PlaySpec,
    Summary,
    bench,
    dask_client,
    paired,
    play_one,
    run_games,
    wilson_interval,
)

PAPER = PlaySpec(9, 9, 10, strategy="paper")


def _outcomes(results):
    return sorted((r.seed, r.won, r.guesses) for r in results)


def test_spec_standard_sizes_and_default_first_click():
    assert PlaySpec.standard("intermediate") == PlaySpec(16, 16, 40)
    assert PlaySpec.standard("expert", rules="safe-opening").first_click == (3, 3)
    assert PlaySpec.standard(width=5, height=4, mines=3).name == "5x4/3"
    with pytest.raises(ValueError, match="unknown difficulty"):
        PlaySpec.standard("huge")


def test_spec_check_reports_bad_settings():
    with pytest.raises(ValueError, match="unknown strategy"):
        PlaySpec(9, 9, 10, strategy="nope").check()
    with pytest.raises(ValueError, match="off the 9x9 board"):
        PlaySpec(9, 9, 10, first_click=(9, 0), strategy="paper").check()


def test_strategy_options_reach_the_strategy():
    # best without its exact endgame plays other games than best with it; the options also
    # travel to worker processes.
    plain = PlaySpec.standard("beginner")
    variant = PlaySpec.standard("beginner", options={"endgame_layouts": 0, "margin": 0.0})
    assert variant.options == (("endgame_layouts", 0), ("margin", 0.0))
    seeds = range(60)
    assert (_outcomes(play_one(variant, s) for s in seeds)
            != _outcomes(play_one(plain, s) for s in seeds))
    assert _outcomes(run_games(variant, 6, jobs=2)) == _outcomes(play_one(variant, s)
                                                                 for s in range(6))
    with pytest.raises(ValueError, match="strategy 'paper' has no option 'blend'"):
        PlaySpec(9, 9, 10, strategy="paper", options=(("blend", 0.5),)).check()


def test_paired_counts_games_won_by_one_side_only():
    a = [GameResult(s, s % 3 == 0, 0, 0.0) for s in range(30)]
    b = [GameResult(s, s % 2 == 0, 0, 0.0) for s in range(10, 40)]  # 20 seeds in common
    result = paired(a, b)
    common = range(10, 30)
    assert result == Paired(20, sum(s % 3 == 0 for s in common), sum(s % 2 == 0 for s in common),
                            sum(s % 3 == 0 and s % 2 for s in common),
                            sum(s % 2 == 0 and s % 3 != 0 for s in common))
    # The exact sign test: 0 against 5 happens with probability 2 / 32 under a fair coin.
    assert Paired(5, 0, 5, 0, 5).p_value == pytest.approx(2 / 32)
    assert Paired(9, 3, 3, 0, 0).p_value == 1.0


def test_the_sign_test_against_the_sum_of_exact_binomial_coefficients():
    from fractions import Fraction

    for only_a in range(0, 90, 3):
        for only_b in range(0, 90, 2):
            n, low = only_a + only_b, min(only_a, only_b)
            exact = Fraction(2 * sum(math.comb(n, k) for k in range(low + 1)), 2 ** n) if n \
                else Fraction(1)
            p = Paired(n, 0, 0, only_a, only_b).p_value
            assert p == pytest.approx(float(min(exact, Fraction(1))), rel=1e-11)
    # A split of 30,000 each way took minutes summing integers.
    assert Paired(10**6, 0, 0, 30_000, 30_000).p_value == 1.0
    assert 0 < Paired(10**7, 0, 0, 2_000_000, 2_010_000).p_value < 1e-5


@pytest.mark.parametrize("counts", [(-2, 0, 0, 0, 0), (10, 20, 5, 3, 0), (10, 5, 5, 6, 6),
                                    (10, 5, 5, 1.5, 0)])
def test_paired_refuses_counts_that_cannot_be(counts):
    with pytest.raises(InvalidInput):
        Paired(*counts)


def test_wilson_interval_refuses_more_wins_than_games():
    with pytest.raises(InvalidInput, match="wins is a whole number from 0 to 3"):
        wilson_interval(5, 3)


@pytest.mark.parametrize(("games", "a_only", "b_only"),
                         [(400, 0.05, 0.07), (4000, 0.06, 0.055), (200, 0.002, 0.01)])
def test_paired_interval_covers_the_true_difference_95_times_in_100(games, a_only, b_only):
    # Games drawn with known chances of being won by A only and by B only: the interval of
    # each simulated run must hold the true difference about 95 times in 100. In the last
    # case so few games differ that the plain normal interval (no adjustment) holds it only 86
    # times in 100; the adjusted one errs the safe way there.
    rng = np.random.default_rng(7)
    runs = rng.multinomial(games, [a_only, b_only, 1 - a_only - b_only], size=4000)
    truth = b_only - a_only
    covered = 0
    for only_a, only_b, _ in runs.tolist():
        lo, hi = Paired(games, 0, 0, only_a, only_b).interval()
        covered += lo <= truth <= hi
        # Swapping the sides swaps the interval's ends and their signs.
        assert Paired(games, 0, 0, only_b, only_a).interval() == pytest.approx((-hi, -lo))
    assert covered / len(runs) >= 0.93
    if games * a_only >= 10:
        assert covered / len(runs) <= 0.97


def test_paired_interval_narrows_with_more_games():
    widths = [hi - lo for lo, hi in (Paired(n, 0, 0, n // 20, n // 20).interval()
                                     for n in (1000, 4000, 16000))]
    assert widths[0] == pytest.approx(2 * widths[1], rel=0.01)
    assert widths[1] == pytest.approx(2 * widths[2], rel=0.01)


def test_game_i_uses_seed_plus_i_whatever_the_workers():
    serial = _outcomes(run_games(PAPER, 12, seed=100))
    assert [s for s, _, _ in serial] == list(range(100, 112))
    assert _outcomes(run_games(PAPER, 12, seed=100, jobs=2, chunk=5)) == serial
    assert _outcomes([play_one(PAPER, 105)]) == [serial[5]]


def test_dask_local_cluster_gives_the_same_games():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_cluster = _outcomes(run_games(PAPER, 6, seed=7, dask=cluster.scheduler_address))
        with distributed.Client(cluster) as client:
            with_client = _outcomes(run_games(PAPER, 6, seed=7, dask=client, chunk=2))
        by_address = bench(PAPER, 6, seed=7, dask=cluster.scheduler_address, time_limit=60)
    assert on_cluster == with_client == _outcomes(run_games(PAPER, 6, seed=7))
    assert (by_address.games, by_address.wins) == (6, sum(won for _, won, _ in on_cluster))


def test_a_scheduler_that_does_not_answer_is_an_error_even_with_a_time_limit():
    pytest.importorskip("distributed")
    # Nothing listens on port 1: the connection gives up after 10 s, past the time limit,
    # which counts the games only.
    with pytest.raises(InvalidInput, match="cannot use the Dask scheduler"):
        bench(PAPER, 2, dask="tcp://127.0.0.1:1", time_limit=1)


def test_bad_run_arguments():
    # Refused when run_games is called, not at the first result asked for.
    with pytest.raises(ValueError, match="--jobs"):
        run_games(PAPER, 3, jobs=0)
    with pytest.raises(ValueError, match="negative"):
        run_games(PAPER, -1)
    # Local processes beside a cluster's workers were left idle without a word; said before
    # the scheduler is asked (nothing listens on port 1).
    for run in (run_games, bench):
        with pytest.raises(InvalidInput, match="--jobs and --dask: the games are played by"):
            run(PAPER, 2, jobs=2, dask="tcp://127.0.0.1:1")
    # The last game's seed would pass the largest: a run of 4,300 nines printed none of it.
    with pytest.raises(InvalidInput, match="2 games from seed 18446744073709551615 would pass"):
        run_games(PAPER, 2, seed=2**64 - 1)
    with pytest.raises(InvalidInput, match=r"got \(a number of more than 40 digits\)"):
        run_games(PAPER, 1, seed=int("9" * 4300))


def _normal_wilson(wins, games, z=1.959963984540054):
    # The textbook form, solving |p - p_hat| = z * sqrt(p (1 - p) / n) for p.
    a = 1 + z * z / games
    b = -(2 * wins / games + z * z / games)
    c = (wins / games) ** 2
    root = math.sqrt(b * b - 4 * a * c)
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


@pytest.mark.parametrize("wins,games", [(0, 10), (10, 10), (41, 100), (4120, 10000), (1, 3)])
def test_wilson_interval_matches_the_quadratic_solution(wins, games):
    lo, hi = wilson_interval(wins, games)
    assert lo <= wins / games <= hi
    assert (lo, hi) == pytest.approx(_normal_wilson(wins, games), abs=1e-12)


def test_summary_figures_and_json_keys():
    summary = Summary(PAPER, planned=4)
    for seed, won, guesses, seconds in [(0, True, 1, 0.01), (1, False, 2, 0.03),
                                        (2, True, 0, 0.02)]:
        summary.add(GameResult(seed, won, guesses, seconds))
    summary.seconds = 1.5
    assert (summary.games, summary.wins, summary.mean_guesses) == (3, 2, 1.0)
    assert summary.games_per_second == 2.0 and summary.median_ms == pytest.approx(20)
    data = summary.to_json()
    assert list(data) == ["games", "wins", "win_rate", "ci95", "rules", "width", "height",
                          "mines", "first_click", "strategy", "mean_guesses", "seconds",
                          "games_per_second"]
    assert data["first_click"] == [0, 0] and data["ci95"] == list(wilson_interval(2, 3))
    assert dict(summary.table())["games"] == "3"


def test_bench_smoke_and_interrupt():
    seen = []
    summary = bench(PAPER, 5, seed=3, on_result=seen.append)
    assert summary.games == len(seen) == 5 and not summary.interrupted

    def stop_after_two(result):
        if len(seen) == 7:
            raise KeyboardInterrupt
        seen.append(result)

    summary = bench(PAPER, 50, on_result=stop_after_two)
    assert summary.interrupted and summary.games == 3 and summary.planned == 50
    assert "interrupted" in dict(summary.table())["games"]


def test_longrun_compares_two_runs_on_the_chunks_of_the_same_seeds(tmp_path, capsys):
    import longrun

    def chunk(first, wins, games=100):
        return {"seeds": [first, first + games - 1], "games": games, "wins": wins}

    ours = [chunk(0, 50), chunk(100, 60), chunk(200, 40), chunk(300, 70)]
    theirs = [chunk(0, 48), chunk(100, 60), chunk(200, 38), chunk(400, 90)]
    # Chunks 0, 100 and 200 are in both: differences 2, 0, 2, mean 4/3, deviation 2/sqrt(3).
    assert longrun.compare(ours, theirs) == (
        "on the 3 chunks of the same seeds (300 games): 150 won against 146, +4; "
        "per chunk +1.33 (standard error 0.67, t = 2.0); more in 2 chunks, fewer in 0")
    assert longrun.compare(theirs, ours).endswith("t = -2.0); more in 0 chunks, fewer in 2")
    # Every chunk alike: no t.
    assert longrun.compare(ours[:2], ours[:2]).endswith(
        "+0; per chunk +0.00 (standard error 0.00); more in 0 chunks, fewer in 0")
    assert longrun.compare(ours, [chunk(0, 48, games=50)]) == \
        "no chunk of the same seeds to compare"
    assert longrun.results_file(
        "expert", PlaySpec.standard("expert", options={"drawn_endgame": 0}).file_tag, 7).name \
        == "longrun-expert-best-drawn_endgame=0-seed7.jsonl"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seeds": [0, 99], "games": 100}\n')
    with pytest.raises(SystemExit) as stopped:
        longrun.read_chunks(bad)
    assert stopped.value.code == 2
    assert capsys.readouterr().err == (f"error: {bad}: not a results file (a line is not a "
                                       "chunk with seeds, games and wins)\n")


@pytest.mark.parametrize("options", [{"jobs": True}, {"jobs": 1.5}, {"jobs": 2, "chunk": -1},
                                     {"jobs": 2, "chunk": 0}])
def test_run_games_refuses_jobs_and_chunks_that_are_no_counts(options):
    # A chunk of -1 played no game at all, and said nothing.
    with pytest.raises(InvalidInput):
        list(run_games(PlaySpec(9, 9, 10, strategy="paper"), 3, **options))


def test_a_spec_made_with_a_dict_of_options_says_to_use_standard():
    # A dict was read as its names, and failed in an unpacking.
    from msanalysis.errors import WrongType

    with pytest.raises(WrongType, match=r"PlaySpec\.standard takes a dict"):
        PlaySpec(9, 9, 10, options={"blend": 0.5}).check()  # type: ignore[arg-type]


@pytest.mark.parametrize("reply", [None, b"HTTP/1.0 400 Bad Request\r\n\r\n"])
def test_a_port_that_is_no_scheduler_is_an_error_not_a_hang(reply):
    # A port that takes the connection and then says nothing, or something not Dask's: a
    # client of distributed alone waits for ever at the first, and at the second asks for
    # exabytes of memory to read the answer.
    pytest.importorskip("distributed")
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def answer():
            connection, _ = server.accept()
            with connection:
                if reply:
                    connection.sendall(reply)
                time.sleep(3)

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        expected = "no answer within 1 s" if reply is None else "is not a Dask scheduler"
        with pytest.raises(InvalidInput, match=expected):
            dask_client(f"tcp://127.0.0.1:{port}", seconds=1)
