#!/usr/bin/env python3
"""Random small documents of inline markup, each checked for lines set past their column.

Inline code with spaces (leading, doubled), `&nbsp;`, `&shy;`, links, bold, italic and hyphenated words, in 1-8
justified or ragged columns at 9-16pt, some paragraphs centred, right-aligned, indented, greedy or in lists;
every glyph `mutool` finds must lie inside a column of its page (pipeline_fuzz.outside_columns, which allows
what protrusion lets hang out). Failing documents are kept in OUT as bad_SEED_N.rt.
Usage: scripts/inline_markup_check.py BINARY SEED COUNT OUT   (3,000 documents take about 4 minutes)
"""
import os, random, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pipeline_fuzz  # noqa: E402


def word(r, lo=1, hi=10):
    return "".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(lo, hi)))


def piece(r):
    k = r.randrange(10)
    if k == 0:
        return "`%s %s`" % (word(r), word(r))
    if k == 1:
        return "`%s  %s`" % (word(r, 1, 4), word(r, 1, 6))
    if k == 2:
        return "%s&nbsp;%s" % (word(r), word(r))
    if k == 3:
        return "%s&shy;%s" % (word(r, 3, 8), word(r, 3, 8))
    if k == 4:
        return "[%s %s](https://example.org/%s)" % (word(r), word(r), word(r))
    if k == 5:
        return "**%s %s**" % (word(r), word(r))
    if k == 6:
        return "%s-%s" % (word(r), word(r))
    if k == 7:
        return "` %s`" % word(r)
    if k == 8:
        return "*%s*" % word(r, 2, 14)
    return word(r, 1, r.choice([6, 12, 20]))


def document(r):
    fm = {"columns": r.choice([1, 2, 3, 4, 6, 6, 8]), "justify": r.choice(["true", "false"]),
          "font-size": "%dpt" % r.choice([9, 10, 11, 12, 14, 16])}
    if r.random() < 0.3:
        fm["hyphenate"] = r.choice(["true", "false"])
    if r.random() < 0.3:
        fm["lang"] = r.choice(["de", "en", "fr"])
    if r.random() < 0.2:
        fm["page"] = r.choice(["A5", "A3"])
    body = []
    for _ in range(r.randint(1, 4)):
        text = " ".join(piece(r) for _ in range(r.randint(10, 120)))
        before = r.choice(["", "", "", "- ", "1. ", "> ", "{align=right}\n", "{align=center}\n",
                           "{line-breaking=greedy}\n", "{indent=2em}\n"])
        body.append(before + text)
    return "---\n" + "".join("%s: %s\n" % kv for kv in fm.items()) + "---\n\n" + "\n\n".join(body) + "\n", fm


def main():
    binary, seed, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    os.makedirs(out, exist_ok=True)
    src, pdf = os.path.join(out, "doc-%d.rt" % seed), os.path.join(out, "doc-%d.pdf" % seed)
    bad = 0
    for n in range(count):
        text, fm = document(random.Random(seed * 100000 + n))
        with open(src, "w") as f:
            f.write(text)
        result = subprocess.run([binary, src, "-o", pdf], capture_output=True)
        if result.returncode != 0:
            print("document %d: exit %d" % (n, result.returncode), flush=True)
            bad += 1
            continue
        outside = pipeline_fuzz.outside_columns(pdf, fm)
        if outside:
            bad += 1
            with open(os.path.join(out, "bad_%d_%d.rt" % (seed, n)), "w") as f:
                f.write(text)
            print("document %d %s: %s" % (n, fm, outside[:2]), flush=True)
    print("seed %d: %d of %d documents with a line past its column or a failed run" % (seed, bad, count))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
