import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;

import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.gamestate.GameStateReader;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;

/**
 * The Java solver's move in a given position, for benchmarks/java_solver.py.
 *
 * Reads one position per line, "WIDTH HEIGHT MINES ROW/ROW/...", each row a character per
 * column: a digit for a revealed cell, H for a hidden one. Answers one line per position, the
 * first cell the solver would reveal and why, "COLUMN ROW METHOD", "none", or "error MESSAGE"
 * when the solver fails. A fresh solver answers each position, with the settings of its bulk
 * runs (SMALL_ANALYSIS, one thread, no flags). The position goes through a file because the
 * solver's own reader of positions is the way in that needs none of its classes changed.
 *
 * With the argument --log the solver's own log goes to standard error: how it valued each
 * candidate, number by number (java -cp build/java/classes Ask --log < positions.txt).
 */
public class Ask {
    public static void main(String[] args) throws Exception {
        boolean log = args.length > 0 && args[0].equals("--log");
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);  // the solver's own messages must not mix with the answers
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT,
                                                Solver.binomialEngine);
        File file = File.createTempFile("msanalysis-ask", ".txt");
        file.deleteOnExit();
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.trim().split(" ");
            try (PrintWriter out = new PrintWriter(file)) {
                out.println(parts[0] + "x" + parts[1] + "x" + parts[2]);
                for (String row : parts[3].split("/")) {
                    out.println(row);
                }
            }
            Action reveal = null;
            try {
                GameStateModelViewer game = GameStateReader.load(file);
                SolverSettings settings = SettingsFactory.GetSettings(SettingsFactory.Setting.SMALL_ANALYSIS);
                settings.setSingleThread(true);
                Solver solver = new Solver(game, settings, log);
                solver.setPlayStyle(PlayStyle.NO_FLAG);
                solver.setBinomialCache(cache);
                solver.start();
                for (Action action : solver.getResult()) {
                    if (action.getAction() == Action.CLEAR) {
                        reveal = action;
                        break;
                    }
                }
            } catch (Exception e) {  // one line for the asking side to report
                answers.println("error " + e);
                continue;
            }
            answers.println(reveal == null ? "none"
                            : reveal.x + " " + reveal.y + " " + reveal.getMoveMethod());
        }
    }
}
