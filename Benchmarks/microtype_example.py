#!/usr/bin/env python3
"""Writes Examples/microtype.rt: the same paragraphs set four ways (greedy, total-fit, + font expansion,
+ protrusion), each followed by its evenness figures, measured here by typesetting each way on its own and
reading the PDF with evenness.py.

    microtype_example.py TYPESET [-o Examples/microtype.rt]"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evenness  # noqa: E402

FRONT = """---
title: Font expansion and protrusion
page: A4
columns: 2
justify: true
hyphenate: true
styles:
  figures: {font: DejaVu Sans, size: 7.5pt, color: "#555555", align: left, space-before: 2pt}
---
"""

TEXT = [
    "Justified text asks every line to be exactly as wide as the column. A printer setting metal type did "
    "this by hand, adding thin spaces between the words of a loose line and taking them out of a tight one, "
    "and sometimes rewording a sentence when nothing else would do. The result could be beautiful, but it "
    "depended on patience and on the printer's eye for the grey texture of the page.",
    "A program has to decide the same things quickly. The simplest way fills each line with as many words as "
    "fit and then stretches the spaces; it never looks back, so one unlucky word can leave a line full of "
    "holes. Knuth and Plass instead considered the whole paragraph at once, weighing every possible break "
    "against the others, which spreads the looseness evenly and chooses hyphens only where they help.",
    "Hermann Zapf's idea, built into pdfTeX by H\u00e0n Th\u1ebf Th\u00e0nh, went further: let the letters "
    "themselves become a little wider or narrower, by an amount no reader notices, and let punctuation hang "
    "slightly into the margin, so that commas, periods and hyphens no longer bite into the straight edge of "
    "the column. Together they give the breaker a third way to fill a line, and the eye a cleaner margin.",
]

WAYS = [
    ("Greedy", "line-breaking=greedy expansion-limit=0 protrusion=false",
     "Each line filled in turn, spaces stretched afterwards (as Pango, browsers and WeasyPrint wrap)."),
    ("Total-fit", "expansion-limit=0 protrusion=false",
     "Knuth-Plass breaking over the whole paragraph, with hyphenation."),
    ("Total-fit + expansion", "protrusion=false",
     "The same, and each line's glyphs may widen or narrow by up to 2% in 0.5% steps."),
    ("Total-fit + expansion + protrusion", "",
     "The same, and punctuation hangs into the margins (the default)."),
]


def section(title, attributes, note, figures, first):
    out = []
    heading_attrs = "" if first else " {break-before=column}"
    out.append(f"## {title}{heading_attrs}\n")
    if note:
        out.append("{.figures}")
        out.append(note + "\n")
    for text in TEXT:
        if attributes:
            out.append("{" + attributes + "}")
        out.append(text + "\n")
    if figures:
        out.append("{.figures}")
        out.append(figures + "\n")
    return "\n".join(out)


def figures_line(r):
    return (f"Word gaps / normal space: median {r['p50']:.2f}, 95th percentile {r['p95']:.2f}, largest "
            f"{r['max']:.2f}; full lines with a gap over 2x: {r['over2x_pct']:.0f}% of {r['full_lines']}; "
            f"lines ending in a hyphen: {r['hyphenated_pct']:.0f}% (at most {r['max_hyphen_run']} in a row); "
            f"largest expansion {r['max_expansion_pct']:.1f}%.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("typeset")
    ap.add_argument("-o", default=os.path.join(HERE, "..", "Examples", "microtype.rt"))
    args = ap.parse_args()
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for title, attributes, note in WAYS:
            rt, pdf = os.path.join(tmp, "way.rt"), os.path.join(tmp, "way.pdf")
            with open(rt, "w") as f:
                f.write(FRONT + "\n" + section(title, attributes, "", "", True))
            # Untagged (same glyphs): tagged, a hyphen the breaker adds reads as nothing to pdftotext.
            subprocess.run([args.typeset, rt, "-o", pdf, "--quiet"], check=True,
                           env=dict(os.environ, TYPESET_UNTAGGED="1"))
            r = evenness.measure(pdf, columns=2)
            figures.append(figures_line(r) if r else "No full lines.")
    with open(args.o, "w") as f:
        f.write(FRONT)
        f.write("\n# The same paragraphs, four ways\n\n")
        f.write("{.figures}\nThe figures under each setting were measured by `Benchmarks/microtype_example.py`, "
                "which typesets each setting alone and reads the PDF with `Benchmarks/evenness.py` (gaps are "
                "measured in each line's own scaled space).\n\n")
        for i, (way, fig) in enumerate(zip(WAYS, figures)):
            f.write(section(way[0], way[1], way[2], fig, i == 0) + "\n")
    print(f"wrote {args.o}")
    for way, fig in zip(WAYS, figures):
        print(f"{way[0]}: {fig}")


if __name__ == "__main__":
    main()
