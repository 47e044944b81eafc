#!/usr/bin/env python3
"""Evenness of justified text, measured from a PDF: for every full justified line (one that reaches its
column's right edge, so not a paragraph's last line) the gaps between words relative to a normal space.

Prints p50 and p95 of all gaps / space, the share of lines with any gap over 2x a space, the share of full
lines ending in a hyphen and the longest run of such lines, the largest font expansion, and runts (a
paragraph of three lines or more whose last line holds one word).

Gaps are measured in each line's own scaled space: a line drawn with its glyphs widened by font expansion
(a text matrix wider than tall) has its gaps divided by that scale too. Letter-spacing (at most 3% of a
space in typeset) counts as part of the gap; the gap after a list item's marker (its tab) is not a word gap. Word
boxes come from `pdftotext -bbox-layout` (poppler), text matrices from the content streams (`qpdf --qdf`).
Measure an untagged PDF (`TYPESET_UNTAGGED=1`): tagged, the hyphens the breaker adds read as nothing.

Usage: evenness.py FILE.pdf [--font-size 10] [--space-em 0.318] [--columns 2] [--json]"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile


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


STRING_RE = re.compile(rb"\((?:\\.|[^\\()])*\)|<[0-9A-Fa-f\s]*>")
TOKEN_RE = re.compile(rb"-?\d*\.?\d+|[A-Za-z*']+")


def text_matrices(pdf):
    """Per page: (x, baseline y, horizontal scale) of every text line start (Cairo sets a line with `Tm` or
    moves to it with `Td`, relative to the current matrix); and how many marked sequences read as nothing
    (`/ActualText ()`: in a tagged PDF, the hyphens the line breaker adds)."""
    pages = collections.defaultdict(list)
    hidden = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "q.pdf")
        subprocess.run(["qpdf", "--qdf", "--object-streams=disable", pdf, out], check=False,
                       capture_output=True)
        if not os.path.exists(out):
            return pages, hidden
        page = 0
        m = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        with open(out, "rb") as f:
            for raw in f:
                if raw.startswith(b"%% Contents for page"):
                    page = int(raw.split()[-1])
                    continue
                if b"/ActualText ()" in raw:
                    hidden += 1
                if page == 0 or (b"Tm" not in raw and b"Td" not in raw):
                    continue
                stack = []
                for tok in TOKEN_RE.findall(STRING_RE.sub(b" ", raw)):
                    if tok == b"Tm" and len(stack) >= 6:
                        m = stack[-6:]
                    elif tok == b"Td" and len(stack) >= 2:
                        tx, ty = stack[-2:]
                        m = [m[0], m[1], m[2], m[3], m[4] + tx * m[0] + ty * m[2], m[5] + tx * m[1] + ty * m[3]]
                    elif tok[:1].isalpha() or tok[:1] in b"*'":
                        stack = []
                        continue
                    else:
                        stack.append(float(tok))
                        continue
                    stack = []
                    if m[3] != 0 and m[1] == 0 and m[2] == 0:
                        pages[page].append((m[4], m[5], abs(m[0] / m[3])))
    return pages, hidden


def line_scale(matrices, words):
    """The scale of the text matrix that starts the line (nearest to its first word, on its baseline band)."""
    x0, y0, y1 = words[0][0], words[0][2], words[0][3]
    best = None
    for x, y, s in matrices:
        if y0 - 0.5 <= y <= y1 + 0.5 and x <= x0 + 1.0:
            if best is None or x > best[0]:
                best = (x, s)
    return best[1] if best else 1.0


MARKER_RE = re.compile(r"^(?:[\u2022\u2013\u25e6\u25aa\u25a0\u2023\u2043*-]|\d+[.)]|[a-z][.)])$")


def mode(values):
    counts = collections.Counter(round(v * 2) / 2 for v in values)
    return max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0] if counts else 0.0


def split_columns(lines):
    """pdftotext sometimes joins the lines of two columns that share a baseline: split at the page's middle."""
    for page, width, words in lines:
        mid = width / 2
        cut = next((i for i in range(1, len(words)) if words[i - 1][1] < mid < words[i][0]), None)
        if cut is None:
            yield page, width, words
        else:
            yield page, width, words[:cut]
            yield page, width, words[cut:]


def measure(pdf, font_size=10.0, space_em=0.318, columns=2):
    space = font_size * space_em
    matrices, hidden = text_matrices(pdf)
    if hidden:
        # pdftotext would lose those hyphens, and their lines would no longer reach the column's edge.
        print(f"evenness: {pdf}: {hidden} sequences read as nothing (tagged: added hyphens); the hyphen and "
              "full-line figures are wrong: render with TYPESET_UNTAGGED=1", file=sys.stderr)
    lines = list(lines_of(pdf))
    if columns == 2:
        lines = list(split_columns(lines))
    # The column edges: where most lines start and end (protruding punctuation hangs past them).
    ends, starts = collections.defaultdict(list), collections.defaultdict(list)
    for page, width, words in lines:
        column = 0 if columns == 1 or words[0][0] < width / 2 else 1
        ends[column].append(words[-1][1])
        starts[column].append(words[0][0])
    right = {c: mode(v) for c, v in ends.items()}
    left = {c: mode(v) for c, v in starts.items()}
    gaps, full, loose, hyphenated, run, longest, runts = [], 0, 0, 0, 0, 0, 0
    expansion = 0.0
    scales = []
    previous = []  # fullness of the previous lines of the column
    last_column = None
    for page, width, words in lines:
        column = 0 if columns == 1 or words[0][0] < width / 2 else 1
        if (page, column) != last_column:
            previous, run, last_column = [], 0, (page, column)
        scale = line_scale(matrices.get(page, []), words)
        is_full = len(words) >= 2 and words[-1][1] >= right[column] - 1.0
        if not is_full:
            # A runt: a paragraph of three lines or more ending in one word (of letters, not a number).
            if (len(words) == 1 and sum(c.isalpha() for c in words[0][4]) >= 2 and len(previous) >= 2
                    and previous[-1] and previous[-2]):
                runts += 1
            previous.append(False)
            run = 0
            continue
        previous.append(True)
        full += 1
        expansion = max(expansion, abs(scale - 1))
        scales.append(scale)
        pairs = list(zip(words, words[1:]))
        if MARKER_RE.match(words[0][4]):
            pairs = pairs[1:]  # a list marker's tab is not a word gap
        ratios = [(b[0] - a[1]) / (space * scale) for a, b in pairs] or [1.0]
        gaps += ratios
        if max(ratios) > 2:
            loose += 1
        if words[-1][4].endswith(("-", "\u2010")):
            hyphenated += 1
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    if not full:
        return None
    return {
        "pdf": pdf, "full_lines": full, "gaps": len(gaps), "p50": percentile(gaps, 50), "p95": percentile(gaps, 95),
        "max": max(gaps), "over2x_pct": 100 * loose / full, "hyphenated_pct": 100 * hyphenated / full,
        "max_hyphen_run": longest, "max_expansion_pct": 100 * expansion,
        "expanded_lines_pct": 100 * sum(1 for s in scales if abs(s - 1) > 1e-6) / full, "runts": runts,
    }


def describe(r):
    return (f"{r['full_lines']} full lines, {r['gaps']} gaps; gap/space p50 {r['p50']:.2f} p95 {r['p95']:.2f} "
            f"max {r['max']:.2f}; lines with a gap > 2x: {r['over2x_pct']:.2f}%; hyphenated lines "
            f"{r['hyphenated_pct']:.1f}% (longest run {r['max_hyphen_run']}); largest expansion "
            f"{r['max_expansion_pct']:.1f}% ({r['expanded_lines_pct']:.0f}% of lines expanded); runts {r['runts']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--font-size", type=float, default=10)
    ap.add_argument("--space-em", type=float, default=0.318, help="DejaVu Serif's space is 0.318 em")
    ap.add_argument("--columns", type=int, default=2, choices=(1, 2), help="columns per page")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    r = measure(args.pdf, args.font_size, args.space_em, args.columns)
    if r is None:
        sys.exit("no full lines found")
    print(json.dumps(r) if args.json else f"{args.pdf}: {describe(r)}")


if __name__ == "__main__":
    main()
