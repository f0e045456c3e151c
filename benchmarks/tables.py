"""The plain-text tables the benchmark scripts print (imported by them; not a benchmark)."""

from __future__ import annotations


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print ``rows`` under ``header`` in left-aligned columns, after ``title``."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)), flush=True)
