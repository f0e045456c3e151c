import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.gamestate.GameStateReader;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * The Java solver's own whole games on given layouts, for benchmarks/java_solver.py.
 *
 * Reads one game per line, "WIDTH HEIGHT COLUMN ROW MINE MINE ...": the first click's cell and
 * each mine as its index, row * WIDTH + column. Answers one line per game: "won", "lost" or
 * "stuck" (no move, or 1,000 rounds without an end), the number of guesses and each guess as
 * "COLUMN,ROW", in order; or "error MESSAGE".
 * The game is played as the solver's bulk runs play theirs: one solver for the whole game,
 * asked again after every round of moves, all of a round's moves made in order, with their
 * settings (SMALL_ANALYSIS, one thread, no flags); a move that is not certain is a guess.
 */
public class Play {
    public static void main(String[] args) throws Exception {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);  // the solver's own messages must not mix with the answers
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT,
                                                Solver.binomialEngine);
        String line;
        while ((line = in.readLine()) != null) {
            try {
                answers.println(play(line.trim().split(" "), cache));
            } catch (Exception e) {  // one line for the asking side to report
                answers.println("error " + e);
            }
        }
    }

    private static String play(String[] parts, BinomialCache cache) {
        int width = Integer.parseInt(parts[0]);
        List<Location> mines = new ArrayList<>();
        for (int i = 4; i < parts.length; i++) {
            int index = Integer.parseInt(parts[i]);
            mines.add(new Location(index % width, index / width));
        }
        GameStateModelViewer game = GameStateReader.loadMines(width, Integer.parseInt(parts[1]),
                                                              mines, new ArrayList<>());
        Location first = new Location(Integer.parseInt(parts[2]), Integer.parseInt(parts[3]));
        game.doAction(new Action(first, Action.CLEAR));
        SolverSettings settings = SettingsFactory.GetSettings(SettingsFactory.Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        StringBuilder guesses = new StringBuilder();
        int guessed = 0;
        for (int round = 0; round < 1000; round++) {
            if (game.getGameState() == GameStateModel.WON
                || game.getGameState() == GameStateModel.LOST) {
                break;
            }
            solver.start();
            Action[] moves = solver.getResult();
            if (moves.length == 0) {
                break;
            }
            for (Action move : moves) {
                game.doAction(move);
                if (!move.isCertainty()) {
                    guessed++;
                    guesses.append(" ").append(move.x).append(",").append(move.y);
                }
                int state = game.getGameState();
                if (state == GameStateModel.WON || state == GameStateModel.LOST) {
                    break;
                }
            }
        }
        int state = game.getGameState();
        return (state == GameStateModel.WON ? "won " : state == GameStateModel.LOST ? "lost "
                : "stuck ") + guessed + guesses;
    }
}
