"""Win rates of our strategies beside the published anchors.

Each row plays seeded games (game ``i`` uses seed ``--seed + i``) with
:func:`msanalysis.play.bench.bench` and prints the win rate with its 95% Wilson interval beside
the anchors: seed 003's backtracking solver, PSEQ-D256 (Tu et al. 2017) and JSMinesweeper. The
``paper`` rows are the baseline run in the same process; each board's ``best`` row is also given
as a ratio to it.

Results go to ``benchmarks/results/winrate.json`` (rows: board, rules, first_click, strategy,
games, wins, win_rate, ci95, seconds, ms_per_game, ...) for notebook 4; rows already in the file
and not run again are kept, so the long rows can be run one at a time.

    python benchmarks/winrate.py --quick                     # ~20 s
    python benchmarks/winrate.py --rows expert --games 20000 --jobs 2
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from arguments import COUNT, JOBS, SEED, Parser, new_file

from msanalysis.play.bench import PlaySpec, bench

RESULTS = Path(__file__).resolve().parent / "results" / "winrate.json"


@dataclass(frozen=True)
class Row:
    name: str
    difficulty: str
    rules: str
    strategy: str
    games: int  # default number of games (the full run)
    quick: int  # with --quick
    target: float | None = None
    anchors: dict[str, float] = field(default_factory=dict)


SEED003, PSEQ, JSM = "seed 003", "PSEQ-D256", "JSMinesweeper"
ROWS = [
    Row("beginner", "beginner", "safe-cell", "best", 20000, 300, 0.920,
        {SEED003: 0.69, PSEQ: 0.9169}),
    Row("intermediate", "intermediate", "safe-cell", "best", 20000, 200, 0.786,
        {SEED003: 0.63, PSEQ: 0.7823}),
    Row("expert", "expert", "safe-cell", "best", 20000, 200, 0.413,
        {SEED003: 0.15, PSEQ: 0.4004, JSM: 0.4113}),
    Row("expert-opening", "expert", "safe-opening", "best", 10000, 200, 0.548,
        {PSEQ: 0.5345, JSM: 0.543}),
    Row("expert-safest", "expert", "safe-cell", "safest", 5000, 200, None,
        {PSEQ: 0.4004, JSM: 0.4113}),
    Row("beginner-paper", "beginner", "safe-cell", "paper", 5000, 300, None, {SEED003: 0.69}),
    Row("intermediate-paper", "intermediate", "safe-cell", "paper", 5000, 200, None,
        {SEED003: 0.63}),
    Row("expert-paper", "expert", "safe-cell", "paper", 5000, 200, None, {SEED003: 0.15}),
]


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def run_row(row: Row, games: int, seed: int, jobs: int) -> dict:
    spec = PlaySpec.standard(row.difficulty, rules=row.rules, strategy=row.strategy)
    summary = bench(spec, games, seed=seed, jobs=jobs)
    if summary.interrupted:
        raise KeyboardInterrupt
    lo, hi = summary.ci95
    return {
        "row": row.name, "board": f"{spec.width}x{spec.height}/{spec.mines}",
        "rules": spec.rules, "first_click": list(spec.first_click), "strategy": spec.strategy,
        "games": summary.games, "wins": summary.wins, "win_rate": summary.win_rate,
        "ci95": [lo, hi], "seconds": round(summary.seconds, 2),
        "ms_per_game": round(summary.median_ms, 2), "ms_per_game_mean": round(summary.mean_ms, 2),
        "mean_guesses": round(summary.mean_guesses, 4), "seeds": [seed, seed + games - 1],
        "jobs": jobs, "target": row.target, "anchors": row.anchors,
    }


def print_table(results: list[dict]) -> None:
    header = (f"{'row':<19}{'strategy':<9}{'games':>7}  {'win rate':>8}  {'95% CI':<17}"
              f"{SEED003:>9}{PSEQ:>11}{JSM:>14}{'target':>8}{'ms/game':>9}")
    print(header)
    print("-" * len(header))
    for r in results:
        lo, hi = r["ci95"]
        anchors = r["anchors"]
        print(f"{r['row']:<19}{r['strategy']:<9}{r['games']:>7}  {_percent(r['win_rate']):>8}  "
              f"{f'{100 * lo:.2f}-{100 * hi:.2f}%':<17}{_percent(anchors.get(SEED003)):>9}"
              f"{_percent(anchors.get(PSEQ)):>11}{_percent(anchors.get(JSM)):>14}"
              f"{_percent(r['target']):>8}{r['ms_per_game']:>9.1f}")
    by_name = {r["row"]: r for r in results}
    for r in results:
        baseline = by_name.get(f"{r['row']}-paper")
        if baseline and baseline["win_rate"]:
            print(f"{r['row']}: {r['strategy']} wins {r['win_rate'] / baseline['win_rate']:.2f}x "
                  f"as often as the paper baseline (same seeds, same process)")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=COUNT, help="games per row (default: each row's own)")
    parser.add_argument("--jobs", type=JOBS, default=1, help="local worker processes")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the first game")
    parser.add_argument("--rows",
                        help="comma-separated row names: " + ", ".join(r.name for r in ROWS))
    parser.add_argument("--quick", action="store_true", help="a few hundred games per row")
    parser.add_argument("--output", type=new_file, default=RESULTS, help="results JSON file")
    args = parser.parse_args(argv)
    rows = ROWS
    if args.rows:
        wanted = [name.strip() for name in args.rows.split(",") if name.strip()]
        known = {r.name: r for r in ROWS}
        unknown = [name for name in wanted if name not in known]
        if unknown:
            parser.error(f"unknown rows: {', '.join(unknown)}")
        rows = [known[name] for name in wanted]
    results = []
    try:
        for row in rows:
            games = args.games or (row.quick if args.quick else row.games)
            start = time.perf_counter()
            result = run_row(row, games, args.seed, args.jobs)
            result["command"] = " ".join(["python benchmarks/winrate.py", *(argv or sys.argv[1:])])
            results.append(result)
            print(f"  {row.name}: {games} games in {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("interrupted: rows finished so far are below and saved", file=sys.stderr)
    print_table(results)
    if results:
        saved = json.loads(args.output.read_text()) if args.output.exists() else {"rows": []}
        fresh = {r["row"] for r in results}
        kept = [r for r in saved.get("rows", []) if r["row"] not in fresh]
        order = {r.name: i for i, r in enumerate(ROWS)}
        merged = sorted(kept + results, key=lambda r: order.get(r["row"], len(order)))
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps({
            "description": "Win rates of msanalysis strategies (benchmarks/winrate.py)",
            "updated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "platform": platform.platform()},
            "rows": merged,
        }, indent=1) + "\n")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
