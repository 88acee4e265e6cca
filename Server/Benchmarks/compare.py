#!/usr/bin/env python3
"""Merges the Markdown tables of a `Benchmarks/run --compare` into one.

Usage: compare.py OUT_DIR ROUNDS BASE_LABEL
Reads OUT_DIR/base-N.md and OUT_DIR/current-N.md (N = 1..ROUNDS), as the
benchmarks binary writes them with --markdown, and prints one table: each
figure once, with every base run and every current run beside it. Figures
are matched by item and name; one that only one build has shows as "—".
Older builds put measurements into some figure names, such as
"(763.9 µs vs 725.3 µs)"; such parentheses are dropped before matching.
"""
import re
import sys

UNIT = re.compile(r"\d[\d.,]*\s*(µs|ms|ns|s|/s|MiB|KiB)\b")


def figure_key(item, figure):
    # Drop parenthesised groups that hold a measurement, not a description.
    name = re.sub(r"\s*\(([^()]*)\)", lambda m: "" if UNIT.search(m.group(1)) else m.group(0), figure)
    return (item.strip(), name.strip())


def read_table(path):
    rows, header = [], None
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except FileNotFoundError:
        return rows
    for line in lines:
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        rows.append(dict(zip(header, cells)))
    return rows


def short(row):
    value = row.get("Measured", "?")
    # "0.912 (0.880–0.950, n=5)" -> "0.912": the median; the spread is in the full tables.
    match = re.match(r"^(-?[\d.]+(?: ?(?:µs|ms|ns|/s|MiB|KiB))?) \(", value)
    if match:
        value = match.group(1)
    met = row.get("Met", "—")
    return value + (" ✓" if met == "yes" else " ✗" if "no" in met else "")


def main():
    out, rounds, base_label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    runs = {side: [read_table(f"{out}/{side}-{n}.md") for n in range(1, rounds + 1)] for side in ("base", "current")}
    order, goals = [], {}
    for side in ("current", "base"):
        for table in runs[side]:
            for row in table:
                key = figure_key(row.get("#", ""), row.get("Figure", ""))
                if key not in goals:
                    order.append(key)
                    goals[key] = row.get("Goal", "—")
                elif goals[key] == "—":
                    goals[key] = row.get("Goal", "—")
    order.sort(key=lambda key: (int(key[0]) if key[0].isdigit() else 99))

    def cell(side, key):
        values = []
        for table in runs[side]:
            found = [r for r in table if figure_key(r.get("#", ""), r.get("Figure", "")) == key]
            values.append(short(found[0]) if found else "—")
        return " ; ".join(values) if any(" / " in v for v in values) else " / ".join(values)

    runs_note = f"runs 1–{rounds}" if rounds > 1 else "run 1"
    print(f"| # | Figure | Goal | base {base_label} ({runs_note}) | current ({runs_note}) |")
    print("|---|---|---|---|---|")
    for key in order:
        cells = [key[0], key[1], goals[key], cell("base", key), cell("current", key)]
        print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    print()
    print("Goal: the current build's where it has the figure. ✓/✗: each build against its own goals. Spreads and details: the per-run tables.")


if __name__ == "__main__":
    main()
