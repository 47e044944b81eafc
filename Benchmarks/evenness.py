#!/usr/bin/env python3
"""Evenness of justified text, measured from a PDF: for every full justified line (one that reaches its
column's right edge, so not a paragraph's last line) the gaps between words relative to a normal space.
Prints p50 and p95 of all gaps / space and the share of lines with any gap over 2x a space.

Usage: evenness.py FILE.pdf [--font-size 10] [--space-em 0.318]
Word boxes come from `pdftotext -bbox-layout` (poppler)."""
import argparse
import re
import subprocess
import sys

def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)

def lines_of(pdf):
    html = subprocess.run(["pdftotext", "-bbox-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
    page = 0
    page_width = 0.0
    line = None
    word_re = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
    for row in html.splitlines():
        if "<page " in row:
            page += 1
            page_width = float(re.search(r'width="([\d.]+)"', row).group(1))
        elif "<line " in row:
            line = []
        elif "</line>" in row:
            if line:
                yield page, page_width, sorted(line)
            line = None
        elif line is not None:
            m = word_re.search(row)
            if m:
                line.append((float(m.group(1)), float(m.group(3)), float(m.group(2)), float(m.group(4)), m.group(5)))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--font-size", type=float, default=10)
    ap.add_argument("--space-em", type=float, default=0.318, help="DejaVu Serif's space is 0.318 em")
    args = ap.parse_args()
    space = args.font_size * args.space_em
    lines = [l for l in lines_of(args.pdf) if len(l[2]) >= 2]
    # The right edge of each column: the largest line end seen in it (columns split at mid-page).
    right = {}
    for page, width, words in lines:
        column = 0 if words[0][0] < width / 2 else 1
        right[column] = max(right.get(column, 0), words[-1][1])
    gaps, full, loose = [], 0, 0
    for page, width, words in lines:
        column = 0 if words[0][0] < width / 2 else 1
        if words[-1][1] < right[column] - 1.0:
            continue  # a paragraph's last line, a heading, a short line
        full += 1
        ratios = [(b[0] - a[1]) / space for a, b in zip(words, words[1:])]
        gaps += ratios
        if max(ratios) > 2:
            loose += 1
    if not full:
        sys.exit("no full lines found")
    print(f"{args.pdf}: {full} full lines, {len(gaps)} gaps; gap/space p50 {percentile(gaps, 50):.2f} "
          f"p95 {percentile(gaps, 95):.2f} max {max(gaps):.2f}; lines with a gap > 2x: {100 * loose / full:.1f}%")

if __name__ == "__main__":
    main()
