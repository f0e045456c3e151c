"""The Java solver (github.com/DavidNHill/Minesweeper, JSMinesweeper's twin) as a peer, never a
dependency: asked for its guess in our positions (``changed_guesses.py --java``), or playing
whole games of its own on our rows' boards (``longrun.py --java``).

Its source is not part of this project; build it once (git and a JDK 17 or later, for example
Debian's ``openjdk-17-jdk-headless``), at the commit the studies used:

    python benchmarks/java_solver.py --build build/java

which clones it into ``build/java/src``, checks out 0806bb8 and compiles it, with our drivers
``benchmarks/java/Ask.java`` and ``Play.java``, into ``build/java/classes``; then asks it one
position and plays one game to show that it answers. ``--classes DIR`` checks an existing build
the same way. Both drivers use the settings of its bulk runs (``SMALL_ANALYSIS``, one thread,
no flags). ``Ask`` gives each position to a fresh solver, which forgets the endgame tree its
own games would carry from one move to the next, so at a few positions it answers otherwise
than in its own games; ``Play`` keeps one solver for a whole game, as its bulk runs do. Not part
of ``make bench``.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from arguments import Parser

from msanalysis.board import Cell
from msanalysis.game import Game
from msanalysis.play.autoplay import REVEAL, Move, autoplay
from msanalysis.play.bench import GameResult, PlaySpec, Summary
from msanalysis.play.best import BestStrategy
from msanalysis.position import Position
from msanalysis.rules import generate

REPOSITORY = "https://github.com/DavidNHill/Minesweeper"
COMMIT = "0806bb8"
SOURCES = ("MineSweeperSolver/src", "MinesweeperGameState/src", "Asynchronous/src")
DRIVERS = [Path(__file__).with_name("java") / f"{name}.java" for name in ("Ask", "Play")]
# Our text of a position as the driver reads it: every covered cell H (the solver finds the
# mines itself), a 0 as 0.
_DRIVER_CELLS = str.maketrans("?F*.", "HHH0")


class Driver:
    """One of our drivers (``Ask`` or ``Play``) running in a Java process: a line in, a line
    of words out. The process starts at the first question, in the process that asks (workers
    fork), and answers every question in turn.

    Raises
    ------
    FileNotFoundError
        When ``classes`` holds no compiled driver of that name.
    """

    def __init__(self, classes: Path, name: str) -> None:
        if not (classes / f"{name}.class").exists():
            raise FileNotFoundError(f"{classes}: no {name}.class there (build the Java solver "
                                    f"with: python benchmarks/java_solver.py --build DIR)")
        self.classes, self.name = classes, name
        self._process: subprocess.Popen[str] | None = None

    def ask(self, question: str, about: str) -> list[str]:
        """The answer's words; a RuntimeError naming ``about`` when the answer is an error or
        none comes."""
        if self._process is None:
            self._process = subprocess.Popen(
                ["java", "-Xss64m", "-cp", str(self.classes), self.name],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, bufsize=1)
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(question + "\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline().split()
        if not answer or answer[0] == "error":
            why = " ".join(answer[1:]) if answer else "it stopped answering"
            raise RuntimeError(f"the Java solver failed on {about}: {why}")
        return answer

    def close(self) -> None:
        """End the process, if it was started (its input closed, it stops reading)."""
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait()
            self._process = None


class JavaSolver:
    """A running Java solver, asked like a strategy: :meth:`choose` answers its first reveal.

    Parameters
    ----------
    classes : Path
        The directory of the compiled solver and driver (see ``--build``).

    Examples
    --------
    Needs the build, so not run here::

        solver = JavaSolver(Path("build/java/classes"))
        position = Position.from_text("mines: 1\\n1????\\n1????")
        solver.choose(position, None)  # [Move(kind='reveal', cell=(0, 2), ...)]
        solver.method  # 'PROBABILITY_ENGINE': how it found it
    """

    def __init__(self, classes: Path) -> None:
        self._driver = Driver(classes, "Ask")
        self.method = ""

    def choose(self, position: Position, analysis: Any = None) -> list[Move]:
        """The solver's first reveal in ``position`` (``analysis`` is not used), as a guess;
        none if it would reveal nothing. Its reason is left in :attr:`method`.

        Raises
        ------
        RuntimeError
            When the solver fails on the position or stops answering.
        """
        height, width = position.shape
        text = "/".join(position.to_text().splitlines()[1:])  # its rows, on one line
        rows = text.translate(_DRIVER_CELLS)
        answer = self._driver.ask(f"{width} {height} {position.total_mines} {rows}",
                                  f"the position {text} ({position.total_mines} mines)")
        if answer[0] == "none":
            self.method = "none"
            return []
        self.method = answer[2]
        cell: Cell = (int(answer[1]), int(answer[0]))  # it answers column, row
        return [Move(REVEAL, cell, guess=True)]


class JavaPlayer:
    """The Java solver playing whole games of its own, as its bulk runs do (``Play.java``).

    Parameters
    ----------
    classes : Path
        The directory of the compiled solver and drivers (see ``--build``).

    Examples
    --------
    Needs the build, so not run here::

        player = JavaPlayer(Path("build/java/classes"))
        spec = PlaySpec.standard("expert")
        player.play(spec, 10_000_001)  # GameResult(seed=10000001, won=True, guesses=2, ...)
    """

    def __init__(self, classes: Path) -> None:
        self._driver = Driver(classes, "Play")

    def play(self, spec: PlaySpec, seed: int) -> GameResult:
        """Game ``seed`` of ``spec``, the layout :func:`~msanalysis.play.bench.play_one`
        plays, played from the same first click. A game the solver leaves unfinished is lost.

        Raises
        ------
        RuntimeError
            When the solver fails on the game or stops answering.
        """
        start = time.perf_counter()
        board = generate(spec.width, spec.height, spec.mines, rules=spec.rules,
                         first_click=spec.first_click, seed=seed)
        mines = " ".join(str(row * spec.width + column) for row, column in sorted(board.mines))
        row, column = spec.first_click
        answer = self._driver.ask(f"{spec.width} {spec.height} {column} {row} {mines}",
                                  f"game {seed} of {spec.name}")
        guessed = tuple((int(row), int(column))  # it answers column, row
                        for column, row in (guess.split(",") for guess in answer[2:]))
        return GameResult(seed, answer[0] == "won", int(answer[1]),
                          time.perf_counter() - start, guessed)

    def close(self) -> None:
        """Stop the Java process."""
        self._driver.close()


class _OffScript(Exception):
    """The Java solver's guesses no longer fit the game followed on our side."""


def at_java_guesses(classes: Path, spec: PlaySpec, seeds: Iterable[int],
                    seen: Callable[[Position, Any, Move], None]) -> int:
    """Play the Java solver's own games of ``seeds`` and follow each on our side, every forced
    cell revealed as ``best`` does and every guess the Java solver's, calling ``seen(position,
    analysis, move)`` at each of its guesses. How many games could not be followed to the same
    end (a guess of a cell that is not covered on our side, a guess more or fewer, another
    result): none when both sides reveal exactly the cells that are certain.
    """
    player = JavaPlayer(classes)
    astray = 0
    try:
        for seed in seeds:
            played = player.play(spec, seed)
            game = Game.started(spec.width, spec.height, spec.mines, rules=spec.rules,
                                first_click=spec.first_click, seed=seed)
            strategy = BestStrategy()
            script = iter(played.guessed)

            def scripted(position: Position, analysis: Any, script=script) -> Move:
                cell = next(script, None)
                if cell is None or cell not in position.hidden:
                    raise _OffScript
                move = Move(REVEAL, cell, guess=True)
                seen(position, analysis, move)
                return move

            strategy.guess = scripted  # type: ignore[method-assign]
            try:
                ours = autoplay(game, strategy)
            except _OffScript:
                astray += 1
                continue
            astray += (ours.won, ours.guesses) != (played.won, played.guesses)
    finally:
        player.close()
    return astray


def play_games(classes: Path, spec: PlaySpec, seeds: range, jobs: int) -> Summary:
    """The Java solver's games of ``seeds``, ``jobs`` of them at a time (a Java process each).
    Stopped by Ctrl-C, the summary says it was interrupted and holds no game.

    Raises
    ------
    RuntimeError
        When the solver fails on a game or stops answering.
    """
    summary = Summary(spec, planned=len(seeds))
    stop = threading.Event()

    def play_share(share: range) -> list[GameResult]:
        player = JavaPlayer(classes)
        try:
            return [player.play(spec, seed) for seed in share if not stop.is_set()]
        finally:
            player.close()

    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:  # the work is done in the Java processes
        shares = [pool.submit(play_share, seeds[i::jobs]) for i in range(jobs)]
        try:
            wait(shares)
        except KeyboardInterrupt:  # the Java processes have had it too
            stop.set()
            summary.interrupted = True
            return summary
    for share in shares:
        for result in share.result():
            summary.add(result)
    summary.seconds = time.perf_counter() - start
    return summary


def build(directory: Path) -> Path:
    """Clone the solver into ``directory/src`` at :data:`COMMIT` and compile it with our
    drivers into ``directory/classes``; the classes' directory."""
    source, classes = directory / "src", directory / "classes"
    if not source.exists():
        subprocess.run(["git", "clone", "--quiet", REPOSITORY, str(source)], check=True)
    subprocess.run(["git", "-C", str(source), "checkout", "--quiet", COMMIT], check=True)
    files = sorted(str(f) for part in SOURCES for f in (source / part).rglob("*.java"))
    classes.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-nowarn", "-d", str(classes), *files, *map(str, DRIVERS)], check=True)
    return classes


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--build", type=Path, metavar="DIR",
                       help="clone and compile the solver under DIR")
    where.add_argument("--classes", type=Path, metavar="DIR",
                       help="check the solver compiled in DIR")
    args = parser.parse_args(argv)
    try:
        classes = build(args.build) if args.build else args.classes
        solver = JavaSolver(classes)
        position = Position.from_text("mines: 1\n1????\n1????")
        move = solver.choose(position)
        game = JavaPlayer(classes).play(PlaySpec.standard("beginner"), 1)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    print(f"{classes}: in the position 1???? / 1???? with 1 mine the Java solver reveals "
          f"{move[0].cell if move else 'nothing'} ({solver.method}); it "
          f"{'won' if game.won else 'lost'} beginner game 1 with {game.guesses} guesses")


if __name__ == "__main__":
    main()
