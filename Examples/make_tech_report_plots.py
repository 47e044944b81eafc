#!/usr/bin/env python3
"""Draws the two plots that tech-report.rt shows as figures (run once; the files are committed): the suite
times as SVG (kept as vectors in the PDF) and the tests per suite as PNG."""
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

plt.rcParams.update({"font.family": "DejaVu Sans", "font.size": 9})

builds = list(range(1, 21))
seconds = [41.2, 40.8, 42.5, 39.9, 38.7, 38.9, 37.2, 36.8, 37.5, 33.1,
           32.8, 32.9, 31.7, 31.2, 30.8, 31.5, 29.9, 29.4, 29.8, 28.6]
fig, ax = plt.subplots(figsize=(5, 2.8), dpi=120)
ax.plot(builds, seconds, marker="o", markersize=3, color="#0072B2")
ax.set_xlabel("build")
ax.set_ylabel("suite time (s)")
ax.set_ylim(0, 45)
ax.grid(alpha=0.3)
fig.tight_layout()
# No metadata date: the SVG stays the same from run to run.
fig.savefig("tech-report-times.svg", metadata={"Date": None})

suites = ["parser", "lowering", "layout", "pdf", "e2e"]
passed = [212, 148, 96, 41, 133]
failed = [0, 2, 5, 0, 3]
fig, ax = plt.subplots(figsize=(5, 2.6), dpi=120)
ax.bar(suites, passed, color="#009E73", label="passed")
ax.bar(suites, failed, bottom=passed, color="#D55E00", label="failed")
ax.set_ylabel("tests")
ax.legend(frameon=False)
ax.grid(axis="y", alpha=0.3)
fig.tight_layout()
fig.savefig("tech-report-tests.png")
