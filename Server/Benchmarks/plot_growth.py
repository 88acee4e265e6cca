#!/usr/bin/env python3
"""Plots item 8 of the benchmarks (issue 44, item 3): latency p50/p99 and
throughput against table size, both databases, log x.

Usage: plot_growth.py POINTS.json OUT.png
POINTS.json is what the `benchmarks` run writes (SESSIONKIT_GROWTH_DATA).
Needs matplotlib (Benchmarks/run installs it from PyPI when it is missing).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source, target):
    with open(source) as handle:
        points = json.load(handle)
    operations = ["refresh", "me", "sign-in"]
    labels = {"refresh": "refresh (rotation)", "me": "GET /v1/auth/me", "sign-in": "password sign-in"}
    databases = sorted({p["database"] for p in points})
    colours = dict(zip(databases, ["tab:blue", "tab:orange", "tab:green"]))
    figure, axes = plt.subplots(2, 3, figsize=(15, 8), sharex=True)
    for column, operation in enumerate(operations):
        latency, rate = axes[0][column], axes[1][column]
        for database in databases:
            rows = sorted((p for p in points if p["database"] == database and p["operation"] == operation), key=lambda p: p["users"])
            if not rows:
                continue
            users = [p["users"] for p in rows]
            latency.plot(users, [p["p50"] * 1e3 for p in rows], "o-", color=colours[database], label=f"{database} p50")
            latency.plot(users, [p["p99"] * 1e3 for p in rows], "s--", color=colours[database], label=f"{database} p99")
            rate.plot(users, [p["rate"] for p in rows], "o-", color=colours[database], label=database)
        latency.set_title(labels[operation])
        latency.set_ylabel("latency (ms)")
        rate.set_ylabel("operations/s (8 workers)")
        rate.set_xlabel("users (10 sessions each)")
        for axis in (latency, rate):
            axis.set_xscale("log")
            axis.set_ylim(bottom=0)
            axis.grid(True, which="both", alpha=0.3)
        latency.legend(fontsize=7)
        rate.legend(fontsize=7)
    figure.suptitle("SessionKit server as its tables grow (Benchmarks/run --only 8)")
    figure.tight_layout()
    figure.savefig(target, dpi=90)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
