"""Win rates: many seeded games, in this process, in local processes or on a Dask cluster.

Game ``i`` of a run starting at ``seed`` is generated and played with seed ``seed + i``, so a run
is reproducible and can be split across workers in any way: the same seeds give the same games,
whatever the number of jobs. Playing one game is :func:`msanalysis.play.autoplay.autoplay`'s job;
this module only deals the seeds out and adds the results up (:class:`Summary`, with a Wilson
95% interval on the win rate).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msanalysis.board import Cell, as_count, as_int, as_pair
from msanalysis.errors import (
    InvalidInput,
    WrongType,
    a_name,
    as_real,
    as_time_limit,
    check_function,
    check_jobs,
    check_list,
    check_type,
    deadline_after,
    time_is_up,
    worker_ignores_interrupts,
)
from msanalysis.game import Game
from msanalysis.play.autoplay import Move, autoplay
from msanalysis.play.noguess import generate
from msanalysis.play.strategies import make_strategy
from msanalysis.replay import ReplayRecorder, save_replay
from msanalysis.rules import (
    DIFFICULTIES,
    FirstClick,
    as_seed,
    board_size,
    check_seed_run,
    default_first_click,
)

if TYPE_CHECKING:  # an optional dependency, imported only to run on Dask
    from distributed import Client

__all__ = [
    "GameResult",
    "Paired",
    "PlaySpec",
    "Summary",
    "bench",
    "paired",
    "play_one",
    "run_games",
    "wilson_interval",
]

_Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


@dataclass(frozen=True)
class PlaySpec:
    """What to play: board size, first-click rule, first click and strategy.

    Examples
    --------
    >>> spec = PlaySpec.standard("expert", rules="safe-opening")
    >>> spec.width, spec.height, spec.mines, spec.first_click, spec.strategy
    (30, 16, 99, (3, 3), 'best')
    """

    width: int
    height: int
    mines: int
    rules: str = "safe-cell"
    first_click: Cell = (0, 0)
    strategy: str = "best"
    options: tuple[tuple[str, Any], ...] = ()
    """Keyword options of the strategy (see :func:`msanalysis.play.strategies.make_strategy`), as
    ``(name, value)`` pairs so that the spec stays hashable and can be sent to workers."""

    @classmethod
    def standard(cls, difficulty: str | None = None, *, width: int | None = None,
                 height: int | None = None, mines: int | None = None, rules: str = "safe-cell",
                 first_click: Cell | None = None, strategy: str = "best",
                 options: dict[str, Any] | None = None) -> PlaySpec:
        """A spec from a difficulty name and/or sizes, with the rule's default first click."""
        if options is not None and not isinstance(options, Mapping):
            raise WrongType(f"options are a strategy's options by name (a dict), got {options!r}")
        width, height, mines = board_size(difficulty, width=width, height=height, mines=mines)
        if first_click is None:
            first_click = default_first_click(rules, width=width, height=height)
        row, col = as_pair(first_click)  # a pair, whatever sequence it came as
        return cls(width, height, mines, rules, (row, col), strategy,
                   tuple(sorted((options or {}).items())))

    def check(self) -> None:
        """Raise ValueError now, rather than in a worker, if games of this spec cannot be played.

        For guess-free boards the size and the first click are checked here; a board logic
        can win may still not be found (too many mines), which the run says when it plays.

        Examples
        --------
        >>> PlaySpec(9, 9, 81, strategy="paper").check()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        msanalysis.errors.InvalidInput: 81 mines do not fit on a 9x9 board with the first ...
        """
        if not all(isinstance(option, tuple) and len(option) == 2 and isinstance(option[0], str)
                   for option in self.options):
            raise WrongType(f"a PlaySpec's options are (name, value) pairs (PlaySpec.standard "
                            f"takes a dict), got {self.options!r}")
        for name, _ in self.options:
            if name in ("seed", "flag_mines", "explain"):
                raise InvalidInput(f"{name} is the games' to set, not an option of the strategy")
        strategy = make_strategy(self.strategy, seed=0, **dict(self.options))
        book = getattr(strategy, "book", None)
        if book is not None:  # a book of other games would never be opened
            book.check_game(self.width, self.height, self.mines, self.rules, self.first_click)
        # A guess-free board is a safe-opening layout that logic wins: one such layout checks
        # the size, where finding a guess-free one took minutes on a large board, before a
        # run's time limit was set.
        rules = FirstClick.parse(self.rules)
        if rules is FirstClick.NO_GUESS and self.first_click is not None:
            rules = FirstClick.SAFE_OPENING
        generate(self.width, self.height, self.mines, rules=rules, first_click=self.first_click,
                 seed=0)

    @property
    def variant(self) -> str:
        """The strategy and its options, as the command line prints them.

        Examples
        --------
        >>> PlaySpec.standard("expert", options={"drawn_endgame": 0}).variant
        'best (drawn_endgame=0)'
        >>> PlaySpec.standard("expert").variant
        'best'
        """
        if not self.options:
            return self.strategy
        return f"{self.strategy} ({', '.join(f'{k}={v!r}' for k, v in self.options)})"

    @property
    def file_tag(self) -> str:
        """The strategy and its options as part of a file name (a path's slashes made ``_``,
        quotes dropped).

        Examples
        --------
        >>> PlaySpec.standard("expert", options={"drawn_endgame": 0, "book": "a/b.json"}).file_tag
        'best-book=a_b.json-drawn_endgame=0'
        """
        tag = "".join(f"-{name}={value}" for name, value in self.options)
        return self.strategy + tag.replace("/", "_").replace("\\", "_").replace("'", "")

    @property
    def name(self) -> str:
        """The difficulty's name when the size is a standard one, else ``WxH/M``."""
        for name, size in DIFFICULTIES.items():
            if size == (self.width, self.height, self.mines):
                return name
        return f"{self.width}x{self.height}/{self.mines}"


@dataclass(frozen=True)
class GameResult:
    """One game: its seed, whether it was won, guesses made and seconds spent playing it.

    ``guessed`` lists the cells guessed, in order: two versions of a strategy that should play
    alike are compared on it (``benchmarks/paired.py --save`` / ``--same-as``).
    """

    seed: int
    won: bool
    guesses: int
    seconds: float
    guessed: tuple[Cell, ...] = ()


def play_one(spec: PlaySpec, seed: int, *, replays: str | Path | None = None) -> GameResult:
    """Generate and play game ``seed`` of ``spec``.

    The strategy's own randomness is seeded with the same seed. With ``replays``, the game is
    also saved there as a replay (:func:`msanalysis.replay.save_replay`), named
    :func:`replay_name`.

    Examples
    --------
    >>> spec = PlaySpec(9, 9, 10, strategy="paper")
    >>> first, again = play_one(spec, seed=4), play_one(spec, seed=4)
    >>> first.seed, (first.won, first.guesses) == (again.won, again.guesses)
    (4, True)
    """
    check_type(spec, PlaySpec, "play_one", "PlaySpec.standard makes one")
    _check_replays(replays, here=True)
    start = time.perf_counter()
    game = Game(generate(spec.width, spec.height, spec.mines, rules=spec.rules,
                         first_click=spec.first_click, seed=seed), rules=spec.rules)
    recorder = ReplayRecorder(game, player=spec.variant) if replays is not None else None
    (recorder.reveal if recorder is not None else game.reveal)(spec.first_click)
    guessed: list[Cell] = []

    def on_move(move: Move) -> None:
        if move.guess:
            guessed.append(move.cell)
        if recorder is not None:
            recorder(move)

    played = autoplay(game, make_strategy(spec.strategy, seed=seed, **dict(spec.options)),
                      on_move=on_move)
    seconds = time.perf_counter() - start
    if recorder is not None and replays is not None:
        save_replay(recorder.replay(), Path(replays) / replay_name(spec, seed))
    return GameResult(seed, played.won, played.guesses, seconds, tuple(guessed))


def replay_name(spec: PlaySpec, seed: int) -> str:
    """The file name game ``seed`` of ``spec`` is saved under as a replay.

    Two variants of a strategy (its options, :attr:`PlaySpec.file_tag`) get different names.

    >>> replay_name(PlaySpec(30, 16, 99), 7)
    '30x16-99-safe-cell-best-seed7.msreplay.jsonl'
    >>> replay_name(PlaySpec.standard("expert", options={"drawn_endgame": 0}), 7)
    '30x16-99-safe-cell-best-drawn_endgame=0-seed7.msreplay.jsonl'
    """
    return (f"{spec.width}x{spec.height}-{spec.mines}-{spec.rules}-{spec.file_tag}-seed{seed}"
            ".msreplay.jsonl")


def _check_replays(replays: Any, *, here: bool) -> None:
    """Refuse a ``replays`` that is not a folder's path; ``here``, one that is a file's too
    (on Dask, what counts is the workers' files, not this machine's). A folder that is missing
    is left to the first save to name."""
    if replays is None:
        return
    if not isinstance(replays, (str, os.PathLike)):
        raise WrongType(f"replays is a folder's path (a str or a pathlib.Path), got "
                        f"{a_name(type(replays).__name__)}")
    if here and Path(replays).exists() and not Path(replays).is_dir():
        raise InvalidInput(f"replays {str(replays)!r} is a file, not a folder")


def _check_dask(dask: Any, jobs: int) -> None:
    """Refuse a ``dask`` that is neither a scheduler's address nor a client of one, or that
    comes with local ``jobs`` (which would be left idle)."""
    if dask is not None and jobs != 1:
        raise InvalidInput("--jobs and --dask: the games are played by local worker processes "
                           "or by a Dask cluster's workers, not both")
    if dask is None or isinstance(dask, str):
        return
    # A client exists only once distributed (an optional dependency) has been imported.
    distributed = sys.modules.get("distributed")
    if distributed is None or not isinstance(dask, distributed.Client):
        raise WrongType(f"dask is a Dask scheduler's address or a distributed.Client, got "
                        f"{a_name(type(dask).__name__)}")


def _play_chunk(spec: PlaySpec, seeds: Iterable[int],
                replays: str | Path | None = None) -> list[GameResult]:
    return [play_one(spec, seed, replays=replays) for seed in seeds]


def _chunks(seeds: range, size: int) -> Iterator[range]:
    """The seeds in runs of ``size``, made as they are dealt out: a pool takes them only as its
    workers ask, so a run of 10**12 games holds a few of them at a time, not all.

    >>> list(_chunks(range(10, 15), 2))
    [range(10, 12), range(12, 14), range(14, 15)]
    """
    for start in range(seeds.start, seeds.stop, size):
        yield range(start, min(start + size, seeds.stop))


MAX_DASK_GAMES = 10_000_000
"""The most games of one run on Dask, whose tasks are all made and sent at the start."""


def run_games(spec: PlaySpec, games: int, *, seed: int = 0, jobs: int = 1,
              dask: str | Client | None = None, chunk: int | None = None,
              replays: str | Path | None = None) -> Generator[GameResult, None, None]:
    """Play games ``seed`` .. ``seed + games - 1``, yielding each result as it finishes.

    Parameters
    ----------
    spec : PlaySpec
    games : int
    seed : int
        Seed of the first game.
    jobs : int
        Local worker processes; 1 plays in this process.
    dask : str or distributed.Client, optional
        The address of a Dask scheduler (``tcp://host:port``), or a connected client, to run
        the games on instead of local processes.
    chunk : int, optional
        Games per task sent to a worker; by default small enough to keep every worker busy and
        the progress smooth, large enough that the dispatch costs little.
    replays : str or Path, optional
        A folder to save every game in as a replay (see :func:`play_one`); on Dask the workers
        must see it.

    Yields
    ------
    GameResult
        In completion order, which with several workers is not seed order.

    Examples
    --------
    >>> results = list(run_games(PlaySpec(9, 9, 10, strategy="paper"), 3, seed=10))
    >>> [r.seed for r in results]
    [10, 11, 12]
    """
    games = as_int(games, "the number of games")
    if games < 0:
        raise InvalidInput(f"the number of games cannot be negative, got {games}")
    first = as_seed(seed)
    if first is None:
        raise InvalidInput("games are played from a seed: give the first game's")
    check_seed_run(first, games, "games")
    check_jobs(jobs)
    if chunk is not None:
        chunk = as_count(chunk, "chunk", 1)
    _check_dask(dask, jobs)
    _check_replays(replays, here=dask is None)
    # Checked above, when called; played below, as the results are asked for.
    return _played(spec, first, games, jobs, dask, chunk, replays)


def _played(spec: PlaySpec, first: int, games: int, jobs: int, dask: str | Client | None,
            chunk: int | None, replays: str | Path | None) -> Generator[GameResult, None, None]:
    """:func:`run_games`' games, its arguments checked."""
    seeds = range(first, first + games)
    if dask is not None:
        yield from _run_dask(spec, seeds, dask, chunk, replays)
        return
    if jobs == 1:
        for s in seeds:
            yield play_one(spec, s, replays=replays)
        return
    import multiprocessing
    from functools import partial

    size = chunk or max(1, min(50, games // (jobs * 20)))
    # Leaving the block terminates the workers, so an interrupted run stops at once.
    with multiprocessing.Pool(jobs, initializer=worker_ignores_interrupts) as pool:
        for part in pool.imap_unordered(partial(_play_chunk, spec, replays=replays),
                                        _chunks(seeds, size)):
            yield from part


def dask_client(address: str, seconds: float = 10) -> Client:
    """A client of the Dask scheduler at ``address`` (needs the ``distributed`` package).

    The scheduler is first asked who it is, with a deadline: a client of ``distributed`` waits
    for ever on a port that takes the connection and never answers, and reads whatever else
    answers as a message of any length (it once asked for 3 EiB of memory).

    Raises
    ------
    InvalidInput
        When ``distributed`` is missing, or the address is malformed, or nothing there answers
        as a Dask scheduler within ``seconds``.
    """
    try:
        from distributed import Client
    except ImportError:
        raise InvalidInput("running on Dask needs the 'distributed' package: "
                           "pip install 'msanalysis[dask]'") from None
    where = f"cannot use the Dask scheduler at {address!r}"
    # In a thread of its own: a notebook's kernel already runs an event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        asked = thread.submit(asyncio.run, asyncio.wait_for(_ask_identity(address, seconds),
                                                            seconds))
        try:
            asked.result()
        except TimeoutError:
            raise InvalidInput(f"{where}: no answer within {seconds:g} s") from None
        except (ValueError, OSError) as error:  # a malformed address, or refused
            raise InvalidInput(f"{where}: {error}") from None
        except Exception:  # what answers reads as no message of Dask's (MemoryError too)
            raise InvalidInput(f"{where}: what answers there is not a Dask scheduler") from None
    try:
        return Client(address, timeout=f"{seconds:g}s")
    except (ValueError, OSError) as error:  # OSError covers timeouts too
        raise InvalidInput(f"{where}: {error}") from None


async def _ask_identity(address: str, seconds: float) -> None:
    """Ask the scheduler at ``address`` who it is (the connection given up after
    ``seconds``; the caller bounds the answer)."""
    from distributed.comm import connect

    comm = await connect(address, timeout=seconds)
    try:
        await comm.write({"op": "identity", "reply": True})
        await comm.read()
    finally:
        comm.abort()


def _run_dask(spec: PlaySpec, seeds: range, dask: str | Client, chunk: int | None,
              replays: str | Path | None) -> Iterator[GameResult]:
    from distributed import as_completed  # present: checked by dask_client

    if isinstance(dask, str):  # an address: our own client, closed when done
        client, own = dask_client(dask), True
    else:
        client, own = dask, False
    futures = []
    try:
        workers = max(1, sum(client.nthreads().values()))
        games = seeds.stop - seeds.start
        if games > MAX_DASK_GAMES:
            raise InvalidInput(f"at most {MAX_DASK_GAMES:,} games per run on Dask (its tasks are "
                               f"all sent at once), got {games:,}: split the run by --seed")
        size = chunk or max(1, min(200, games // (workers * 20)))
        parts = list(_chunks(seeds, size))
        futures = client.map(_play_chunk, [spec] * len(parts), parts,
                             [replays] * len(parts), pure=False)
        for future in as_completed(futures):
            yield from future.result()
    finally:
        if futures:
            client.cancel(futures)
        if own:
            client.close()


@dataclass(frozen=True)
class Paired:
    """Two strategies (or two variants of one) on the same games: which won where.

    Only the games that one won and the other lost tell them apart; :attr:`p_value` asks
    whether those split more unevenly than a fair coin would (the exact sign test, McNemar's
    test for paired outcomes).

    A large p says only that these games cannot tell the two apart; :meth:`interval` says how
    large a difference they could have missed.

    Examples
    --------
    >>> result = Paired(games=4000, wins_a=1648, wins_b=1639, only_a=20, only_b=11)
    >>> round(result.p_value, 3)
    0.15
    >>> [f"{x:+.2%}" for x in result.interval()]
    ['-0.51%', '+0.06%']
    """

    games: int
    wins_a: int
    wins_b: int
    only_a: int
    only_b: int

    def __post_init__(self) -> None:
        games = as_count(self.games, "Paired's games")
        for name in ("wins_a", "wins_b", "only_a", "only_b"):
            as_count(getattr(self, name), f"Paired's {name}", 0, games)
        if self.only_a + self.only_b > games:
            raise InvalidInput(f"Paired: {self.only_a} + {self.only_b} games won by one side "
                               f"only, more than the {games} played")

    @property
    def p_value(self) -> float:
        """Two-sided exact binomial p-value of the split ``only_a : only_b`` under 1/2.

        The tail is summed in floating point from its largest term down, each term from the one
        before, until the rest cannot change the sum: to about twelve digits, in time that
        grows with the square root of the games that differ (a sum of exact binomial
        coefficients took 23 s for a split of 10,000 : 10,000).

        >>> f"{Paired(100, 0, 0, 2, 8).p_value:.12f}", 2 * (1 + 10 + 45) / 2 ** 10
        ('0.109375000000', 0.109375)
        """
        n, low = self.only_a + self.only_b, min(self.only_a, self.only_b)
        if 2 * low >= n:
            return 1.0  # an even split, or no game differs
        # log of C(n, low) / 2^n, the largest term of the tail
        scale = math.lgamma(n + 1) - math.lgamma(low + 1) - math.lgamma(n - low + 1) \
            - n * math.log(2)
        total, term = 0.0, 1.0
        for k in range(low, -1, -1):
            total += term
            term *= k / (n - k + 1)  # C(n, k - 1) / C(n, k)
            if term < total * 1e-17:
                break
        return min(1.0, 2 * math.exp(scale) * total)

    def interval(self, z: float = _Z95) -> tuple[float, float]:
        """An interval for B's win rate minus A's (95% by default), from these games.

        Bonett and Price's adjusted Wald interval for paired proportions: one game more won by
        each side alone, and two more games, before the usual normal interval of the
        difference. The adjustment keeps it honest when few games differ (with none, it is
        not a point). A difference outside it is unlikely; one inside it these games cannot
        rule out, however large p is.

        Examples
        --------
        >>> [f"{x:+.3%}" for x in Paired(4000, 1644, 1648, 12, 16).interval()]
        ['-0.168%', '+0.368%']
        >>> [round(x, 4) for x in Paired(10, 5, 5, 0, 0).interval()]
        [-0.231, 0.231]
        """
        _check_z(z)
        games = self.games + 2
        a = (self.only_a + 1) / games  # won by A only, adjusted
        b = (self.only_b + 1) / games
        half = z * math.sqrt(max(0.0, a + b - (b - a) ** 2) / games)
        return max(-1.0, b - a - half), min(1.0, b - a + half)


def paired(a: list[GameResult], b: list[GameResult]) -> Paired:
    """Compare two runs game by game, over the seeds both played.

    Examples
    --------
    >>> a = [GameResult(s, won, 0, 0.0) for s, won in enumerate([True, True, False, False])]
    >>> b = [GameResult(s, won, 0, 0.0) for s, won in enumerate([True, False, True, True])]
    >>> paired(a, b)
    Paired(games=4, wins_a=2, wins_b=3, only_a=1, only_b=2)
    """
    for name, results in (("a", a), ("b", b)):
        check_list(results, f"paired's {name} is a list of GameResults")
        for result in results:
            check_type(result, GameResult, "paired")
    won_a = {r.seed: r.won for r in a}
    won_b = {r.seed: r.won for r in b}
    seeds = won_a.keys() & won_b.keys()
    return Paired(len(seeds), sum(won_a[s] for s in seeds), sum(won_b[s] for s in seeds),
                  sum(won_a[s] and not won_b[s] for s in seeds),
                  sum(won_b[s] and not won_a[s] for s in seeds))


def wilson_interval(wins: int, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 or all wins.

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(41, 100)]
    [0.3187, 0.508]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    games = as_count(games, "games")
    wins = as_count(wins, "wins", 0, games)
    _check_z(z)
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    # At 0 or all wins one end is exactly 0 or 1; rounding must not move it inside.
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return (lo, hi)


def _check_z(z: Any) -> None:
    """Refuse a z (standard normal quantile) that is not a positive finite number."""
    if not 0 < as_real(z) < math.inf:
        raise InvalidInput(f"z is a positive number (1.96 for 95%), got {z!r}")


@dataclass
class Summary:
    """The results of a run so far.

    ``seconds`` is the wall time of the run; ``game_seconds`` the time each game took in its
    worker, from which :attr:`median_ms` comes.
    """

    spec: PlaySpec
    games: int = 0
    wins: int = 0
    guesses: int = 0
    seconds: float = 0.0
    game_seconds: list[float] = field(default_factory=list)
    interrupted: bool = False
    timed_out: bool = False
    planned: int = 0

    def add(self, result: GameResult) -> None:
        check_type(result, GameResult, "Summary.add")
        self.games += 1
        self.wins += result.won
        self.guesses += result.guesses
        self.game_seconds.append(result.seconds)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_guesses(self) -> float:
        return self.guesses / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def median_ms(self) -> float:
        """Median time to play one game, in milliseconds, as measured by its worker."""
        return 1000 * statistics.median(self.game_seconds) if self.game_seconds else 0.0

    @property
    def mean_ms(self) -> float:
        return 1000 * statistics.fmean(self.game_seconds) if self.game_seconds else 0.0

    def to_json(self) -> dict:
        """The summary with exactly the keys of ``msanalysis play --json``, and the strategy's
        options after its name when it was given any (``--option``)."""
        lo, hi = self.ci95
        options = {"options": dict(self.spec.options)} if self.spec.options else {}
        return {"games": self.games, "wins": self.wins, "win_rate": self.win_rate,
                "ci95": [lo, hi], "rules": self.spec.rules, "width": self.spec.width,
                "height": self.spec.height, "mines": self.spec.mines,
                "first_click": list(self.spec.first_click), "strategy": self.spec.strategy,
                **options, "mean_guesses": self.mean_guesses, "seconds": self.seconds,
                "games_per_second": self.games_per_second}

    @property
    def stopped(self) -> str | None:
        """Why the run ended before its last game ("interrupted", "time limit"), or None."""
        if self.interrupted:
            return "interrupted"
        return "time limit" if self.timed_out else None

    def table(self) -> list[tuple[str, str]]:
        """Rows (label, value) of the summary table, as the command line prints it."""
        lo, hi = self.ci95
        return [
            ("games", f"{self.games}" + (f" of {self.planned} ({self.stopped})"
                                         if self.stopped else "")),
            ("wins", f"{self.wins}"),
            ("win rate", f"{100 * self.win_rate:.2f}%  (95% CI {100 * lo:.2f}% - {100 * hi:.2f}%)"),
            ("mean guesses", f"{self.mean_guesses:.2f} per game"),
            ("games/second", f"{self.games_per_second:.2f}"),
            ("time per game", f"{self.median_ms:.1f} ms median, {self.mean_ms:.1f} ms mean"),
        ]


def bench(spec: PlaySpec, games: int, *, seed: int = 0, jobs: int = 1,
          dask: str | Client | None = None, replays: str | Path | None = None,
          on_result: Callable[[GameResult], None] | None = None,
          time_limit: float | None = None) -> Summary:
    """Run games and summarise them; Ctrl-C, or the time limit, stops the run and returns what
    finished so far.

    Parameters
    ----------
    spec, games, seed, jobs, dask, replays
        As for :func:`run_games`.
    on_result : callable, optional
        Called with each result as it arrives (for a progress bar).
    time_limit : float, optional
        Seconds after which the run stops, a game being played abandoned (in the main thread a
        timer stops it wherever it is, as Ctrl-C would; elsewhere the clock is looked at as
        each game ends).

    Returns
    -------
    Summary
        With ``interrupted`` set when the run was stopped by Ctrl-C, ``timed_out`` when by the
        time limit.

    Examples
    --------
    >>> summary = bench(PlaySpec(9, 9, 10, strategy="paper"), 4, seed=0)
    >>> summary.games, 0 <= summary.wins <= 4, sorted(summary.to_json())[:3]
    (4, True, ['ci95', 'first_click', 'games'])

    Notes
    -----
    O(games) games; each worker holds only a few seeds at a time.
    """
    check_type(spec, PlaySpec, "bench", "PlaySpec.standard makes one")
    check_jobs(jobs)
    _check_dask(dask, jobs)
    _check_replays(replays, here=dask is None)
    check_function(on_result, "bench's on_result is a function")
    spec.check()
    time_limit = as_time_limit(time_limit)
    # A scheduler that does not answer is an error, not a run out of time: connect first.
    own_client = dask_client(dask) if isinstance(dask, str) else None
    summary = Summary(spec, planned=games)
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    results = run_games(spec, games, seed=seed, jobs=jobs, dask=own_client or dask,
                        replays=replays)
    try:
        with _timer(time_limit):
            for result in results:
                summary.add(result)
                if on_result is not None:
                    on_result(result)
                if time_is_up(deadline):
                    raise _TimeUp
    except KeyboardInterrupt:
        summary.interrupted = True
    except _TimeUp:
        summary.timed_out = True
    finally:
        results.close()
        if own_client is not None:
            own_client.close()
        summary.seconds = time.perf_counter() - start
    return summary


class _TimeUp(Exception):
    """The time limit of a run passed (see :func:`bench`)."""


@contextlib.contextmanager
def _timer(seconds: float | None) -> Iterator[None]:
    """Raise :class:`_TimeUp` in the main thread once ``seconds`` have passed inside the block.

    A game on a huge board can take minutes, longer than the limit: a timer stops it where it
    is, the way Ctrl-C does. Outside the main thread (where signals cannot be caught) nothing
    is set, and :func:`bench` looks at the clock between games.
    """
    if seconds is None or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return

    def time_up(signum: int, frame: Any) -> None:
        raise _TimeUp

    previous = signal.signal(signal.SIGALRM, time_up)
    # Then again every quarter second: an exception raised while Python runs a finalizer or a
    # garbage collector's callback is printed and lost, and the next one stops the run. (Any
    # later one is raised inside bench's try too, until the timer is cleared below.) Past a
    # timeval's range a limit is never reached.
    signal.setitimer(signal.ITIMER_REAL, min(seconds, 1e9), 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
