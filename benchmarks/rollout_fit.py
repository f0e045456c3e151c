"""What the look ahead misses: rollouts' differences between candidates fitted to their features.

Reads the rollouts saved by ``benchmarks/rollout_gain.py`` and, for each runner-up against
``best``'s guess in each position, fits the difference in win rate (runner-up minus guess) by
weighted least squares, without intercept, to the differences in five features of the two cells:

- ``value``: the look ahead's value (chance of surviving this guess and the next one);
- ``safety``: the chance that the cell is safe;
- ``progress``: the chance that revealing it makes another cell safe;
- ``clears``: the expected number of cells it makes safe (over its numbers, by analysing the
  position with the number shown);
- ``entropy``: how much its number tells, in bits (the entropy of the number it shows when
  safe).

First, by how far apart the look ahead puts the two cells (its ranked values), how much the
runner-up's win rate differs from the guess's: the mean, the true spread from position to
position and what an oracle taking the runner-up wherever it is better would gain
(:func:`rollout_gain.true_spread`; positions counted once). Then the fit.

Each pair weighs the inverse of its rollouts' noise (from the layouts won by one only). Pairs
where either cell has a 50/50 bonus (its ranked value is not its look-ahead value) are left out:
the bonus is a different kind of value. A feature whose coefficient is clear of zero beside the
value's says what the look ahead undervalues.

    python benchmarks/rollout_fit.py benchmarks/results/rollout-gain-expert-seed24*.jsonl
"""

from __future__ import annotations

import math
import sys

import numpy as np
from arguments import Parser
from rollout_gain import difference, read_rollouts, true_spread

from msanalysis.analysis import analyze
from msanalysis.play.outlook import Outlook
from msanalysis.position import HIDDEN, Position

FEATURES = ("value", "safety", "progress", "clears", "entropy")


def features(position: Position, cells: list[tuple[int, int]]) -> list[tuple[float, ...]]:
    """``(value, safety, progress, clears, entropy)`` of each cell."""
    analysis = analyze(position)
    outlook = Outlook(analysis, blend=0.25)
    found: list[tuple[float, ...]] = []
    for cell in cells:
        value, progress = outlook.lookahead(cell)
        safety = 1 - analysis.mine_layouts(cell) / analysis.solutions
        clears = 0
        outcomes = outlook.outcomes(cell)
        safe_layouts = sum(outcome.layouts for outcome in outcomes)
        shown = [outcome.layouts / safe_layouts for outcome in outcomes]
        entropy = -sum(share * math.log2(share) for share in shown if share)
        for outcome in outcomes:
            if outcome.progress:
                states = position.states.copy()
                states[cell] = outcome.number
                after = analyze(Position(states, position.total_mines))
                safe = (np.array(after.probabilities) == 0) & (states == HIDDEN)
                clears += outcome.layouts * int(safe.sum())
        found.append((value, safety, progress, clears / analysis.solutions, entropy))
    return found


def pairs(items: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature differences, win-rate differences and their noise variances."""
    rows, diffs, noise = [], [], []
    for item in items:
        if len(item["outcomes"]) < 2:
            continue
        cells = [(int(r), int(c)) for r, c in item["candidates"]]
        found = features(Position.from_text(item["position"]), cells)
        bonus = [abs(ranked - f[0]) > 1e-9 for ranked, f in zip(item["values"], found)]
        base = item["outcomes"][0]
        for k in range(1, len(cells)):
            if bonus[0] or bonus[k]:
                continue  # a 50/50 bonus: a different kind of value
            d, variance = difference(base, item["outcomes"][k])
            rows.append([a - b for a, b in zip(found[k], found[0])])
            diffs.append(d)
            noise.append(max(variance, 1e-6))
    return np.array(rows), np.array(diffs), np.array(noise)


def fit(x: np.ndarray, y: np.ndarray, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares without intercept: coefficients and their standard errors."""
    w = 1 / noise
    root = np.sqrt(w)
    beta = np.linalg.lstsq(x * root[:, None], y * root, rcond=None)[0]
    residual = y - x @ beta
    sigma2 = float(np.sum(w * residual ** 2)) / max(1, len(y) - x.shape[1])
    covariance = sigma2 * np.linalg.inv((x * w[:, None]).T @ x)
    return beta, np.sqrt(np.diag(covariance))


GAPS = ((0.0, 0.002, "ties (under 0.002)"), (0.002, 0.03, "close (0.002 to 0.03)"),
        (0.03, 2.0, "apart (0.03 or more)"))


def by_gap(items: list[dict]) -> None:
    """The runners-up against the guess, by the look ahead's gap between them."""
    for k in (1, 2):
        print(f"candidate {k + 1} against best's guess, by the gap in value between them:")
        for low, high, name in GAPS:
            pairs = [(i["outcomes"][0], i["outcomes"][k]) for i in items
                     if len(i["outcomes"]) > k and low <= i["values"][0] - i["values"][k] < high]
            if not pairs:
                continue
            mean = sum(difference(a, b)[0] for a, b in pairs) / len(pairs)
            spread, oracle = true_spread(pairs)
            print(f"  {name}: {len(pairs)} positions, {mean:+.2%} on average, spread "
                  f"{spread:.2%}, an oracle {oracle:+.2%} per position")


def main(argv: list[str] | None = None) -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="rollouts saved by rollout_gain.py")
    args = parser.parse_args(argv)
    items = []
    for name in args.files:
        try:
            items += read_rollouts(name)
        except (OSError, ValueError) as error:
            reason = f"{name}: {error.strerror}" if isinstance(error, OSError) else error
            print(f"error: {reason}", file=sys.stderr)
            sys.exit(2)
    by_gap(items)
    x, y, noise = pairs(items)
    if len(y) <= len(FEATURES):
        print(f"error: {len(y)} pairs without a 50/50 bonus: too few to fit {len(FEATURES)} "
              f"features", file=sys.stderr)
        sys.exit(2)
    print(f"{len(y)} pairs without a 50/50 bonus; win rate of the runner-up minus best's guess, "
          f"per unit of each feature's difference:")
    for used in ([0], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4]):
        beta, se = fit(x[:, used], y, noise)
        terms = ", ".join(f"{FEATURES[j]} {b:+.4f} +-{s:.4f}" for j, b, s in zip(used, beta, se))
        print(f"  {terms}")


if __name__ == "__main__":
    main()
