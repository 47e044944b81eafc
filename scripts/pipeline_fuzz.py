#!/usr/bin/env python3
"""Differential fuzzing of the long-paragraph pipeline (`make pipeline-fuzz`).

Generates long documents (20-400 KB) with one or a few huge paragraphs that stress the worker pipeline and the
guessed line starts (PiecePipeline.swift, PieceSpeculation.swift), typesets each with --jobs 1 and --jobs 2
(SOURCE_DATE_EPOCH=1) and checks: both runs end alike; the PDFs are byte-identical; qpdf --check passes; for
documents without markup every non-space character comes back from pdftotext; every glyph mutool finds lies
inside a column of its page (outside_columns: what protrusion lets hang out allowed); no run is far slower than
2 s per MB + 1 s (wall time recorded; a failure past 4x that in CPU time of --jobs 1: the machine is shared). Failures are saved in OUT/found.
Usage: scripts/pipeline_fuzz.py [--seed N] [--seconds S] [--bin PATH] [--out DIR]
"""
import argparse, collections, html, os, random, re, resource, shutil, subprocess, sys, time, unicodedata

ACCENTED = "éèêëàâäôöûüùçñßøåæœÉÀÇ"
CJK = "漢字仮名交じり文日本語中文字体排版測試한국어"
RTL = ["مرحبا", "بالعالم", "كتاب", "שלום", "עולם", "ספר"]
EMOJI = ["😀", "🎉", "👍🏽", "🇫🇷", "❤️"]
COMBINING = ["e\u0301", "a\u0308", "o\u0302\u0323", "n\u0303"]


def word(r, lo=1, hi=12):
    return "".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(lo, hi)))


class Gen:
    """Builds a paragraph as (source, visible text); `plain` turns false once markup is written."""

    def __init__(self, r, allow_markup, ascii_only):
        self.r, self.allow_markup, self.ascii_only, self.plain = r, allow_markup, ascii_only, True
        self.src, self.seen, self.size = [], [], 0

    def add(self, src, seen=None):
        self.src.append(src)
        self.seen.append(src if seen is None else seen)
        self.size += len(src.encode())

    def segment(self, room):
        r = self.r
        kinds = ["periodic", "random", "long", "space"] + (["markup"] * 2 if self.allow_markup else [])
        kind = r.choice(kinds + ([] if self.ascii_only else ["nonascii"]))
        budget = min(room, r.choice([200, 2000, 20000, 80000]))
        if kind == "periodic":
            unit = " ".join(word(r) for _ in range(r.randint(1, 3))) + " "
            self.add(unit * max(1, budget // len(unit)))
        elif kind == "random":
            out, n = [], 0
            while n < budget:
                w = word(r, 1, r.choice([3, 12, 40]))
                out.append(w)
                n += len(w) + 1
            self.add(" ".join(out) + " ")
        elif kind == "long":
            n = min(room, r.choice([100, 1000, 5000, 20000, 60000]))
            choice = r.randrange(4)
            if choice == 0:
                self.add("a" * n + " ")
            elif choice == 1 and self.allow_markup:
                self.add("[ a_" * (n // 4) + " ")
                self.plain = False
            elif choice == 2 and self.allow_markup:
                self.add(" ".join("`" * r.randint(1, 9) for _ in range(n // 6)) + " ")
                self.plain = False
            else:
                self.add(word(r, 3, 8) * (n // 5) + " ")
        elif kind == "nonascii":
            out = []
            for _ in range(max(1, budget // 12)):
                c = r.randrange(6)
                if c == 0:
                    out.append("".join(r.choice(ACCENTED + "abcdef") for _ in range(r.randint(2, 10))))
                elif c == 1:
                    out.append("".join(r.choice(CJK) for _ in range(r.randint(1, 30))))
                elif c == 2:
                    out.append(r.choice(RTL))
                elif c == 3:
                    out.append(r.choice(EMOJI))
                elif c == 4:
                    out.append(word(r, 1, 4) + r.choice(COMBINING) + word(r, 0, 4))
                else:
                    out.append(word(r, 2, 6) + "\u00ad" + word(r, 2, 6))  # soft hyphen
            self.add(" ".join(out) + " ")
        elif kind == "space":
            c = r.randrange(4)
            for _ in range(r.randint(1, 200)):
                w = word(r)
                if c == 0:
                    self.add(w + "\u00a0")
                elif c == 1:
                    self.add(w + "\t")
                elif c == 2:
                    self.add(w + "\\\n", w + "\n")  # hard line break
                else:
                    self.add(w + " ")
        else:
            self.plain = False
            marks = [lambda w: "*%s*" % w, lambda w: "**%s**" % w, lambda w: "`%s`" % w,
                     lambda w: "[%s](https://x.org/a)" % w, lambda w: w]
            out, n = [], 0
            while n < budget:
                s = r.choice(marks)(" ".join(word(r) for _ in range(r.randint(1, 4))))
                out.append(s)
                n += len(s) + 1
            self.add(" ".join(out) + " ")

    def text(self):  # a backslash ending the paragraph is no line break: it is set (CommonMark)
        src = "".join(self.src).strip()
        return src, "".join(self.seen) + ("\\" if src.endswith("\\") else "")


def front_matter(r):
    fm = {"columns": r.choice([1, 1, 1, 2, 2, 3, 4, 6, 8, 12, 16]),
          "justify": r.choice(["true", "false", "false"]),
          "font-size": "%spt" % r.choice([6, 7, 8, 9, 10, 10, 11, 12, 14, 18, 24, 40])}
    if r.random() < 0.4:
        fm["hyphenate"] = r.choice(["true", "false"])
    if r.random() < 0.4:
        fm["lang"] = r.choice(["en", "de", "fr", "nl", "ru", "ja", "ar"])
    if r.random() < 0.2:
        fm["page"] = r.choice(["A5", "Letter", "300pt x 400pt", "A3"])
    if r.random() < 0.2:
        fm["margin"] = r.choice(["1cm", "3cm", "1cm 5cm"])
    if r.random() < 0.2:
        fm["smart"] = "false"
    return "---\n" + "".join("%s: %s\n" % kv for kv in fm.items()) + "---\n\n", fm


def document(r):
    fm_text, fm = front_matter(r)
    allow_markup = r.random() < 0.6
    target = int(r.uniform(20, 400) * 1024)
    paragraphs = r.choice([1, 1, 2, 3])
    parts, seen = [fm_text], []
    if r.random() < 0.25:
        parts.append(r.choice(["@exclude circle(50%, 30%, 3cm) pages=all\n\n", "@exclude rect(0, 0, 40%, 50%)\n\n",
                               "@exclude polygon(0 0, 100% 0, 50% 40%) pages=all margin=4pt\n\n"]))
    plain, ascii_only = True, r.random() < 0.5
    for _ in range(paragraphs):
        g = Gen(r, allow_markup, ascii_only)
        while g.size < target // paragraphs:
            g.segment(max(100, target // paragraphs - g.size))
        src, vis = g.text()
        plain = plain and g.plain
        wrap = r.choice(["", "", "", "- ", "> ", "1. "]) if allow_markup else ""
        lines = src.split("\n")
        if wrap:
            plain = False
            cont = "> " if wrap == "> " else " " * len(wrap)
            src = wrap + ("\n" + cont).join(lines)
        attrs = r.choice(["", "", "", "{line-breaking=greedy}", "{line-breaking=greedy align=justify}",
                          "{indent=3em}", "{align=right}", "{align=center}", "{margin-left=20% protrusion=true}",
                          "{hyphenate=true lang=de}", "{line-height=2 widows=3 orphans=3}"])
        parts.append((attrs + "\n" if attrs else "") + src + "\n\n")
        seen.append(vis)
    return "".join(parts), fm, ("".join(seen) if plain else None)


# pdftotext (poppler) wraps right-to-left words in a left-to-right line in U+202B ... U+202C (and marks other
# runs of a line's direction with U+202A-U+202E): formatting it adds, not text the PDF holds.
BIDI_MARKS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def chars(text):
    text = unicodedata.normalize("NFKC", text)
    return collections.Counter(c for c in text if not c.isspace()
                               and c not in "-\u00ad\u2010\u200b\u200d\ufe0f" + BIDI_MARKS)


PAGES = {"A4": (595.276, 841.89), "A5": (419.528, 595.276), "A3": (841.89, 1190.551), "Letter": (612.0, 792.0),
         "300pt x 400pt": (300.0, 400.0)}
MARGINS = {"1cm": (28.346, 28.346, 28.346), "3cm": (85.039, 85.039, 85.039), "1cm 5cm": (141.732, 141.732, 28.346)}
# (left, right, top and bottom)
# How far a character may hang out of its column, as a fraction of its own width (Protrusion.swift allows at most
# 0.7 for punctuation and hyphens, 0.07 for letters). A soft hyphen (U+00AD) is drawn as a hyphen where a line
# breaks at it, and hangs like one.
HANGING = {c: 0.75 for c in ".,:;!?-\u00ad\u2010\u2011\u2013\u2014\u2026'\"\u2018\u2019\u201a\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a()[]"}


def outside_columns(pdf, fm):
    """Characters drawn outside every column of the page (a line past its column's edge), at most 5; read with
    mutool, which sees every glyph (pdftotext hides a line-end hyphen behind its /ActualText)."""
    width, height = PAGES.get(fm.get("page", "A4"), PAGES["A4"])
    left, right, edge = MARGINS.get(fm.get("margin", ""), (56.693, 56.693, 56.693))
    n, size = int(fm["columns"]), float(fm["font-size"][:-2])
    column = (width - left - right - (n - 1) * 12) / n
    if column < 3 * size:  # typeset warns and falls back; not this check's business
        return []
    xml = subprocess.run(["mutool", "draw", "-F", "stext", "-o", "-", pdf], capture_output=True).stdout
    bad = []
    for m in re.finditer(rb'<char quad="([-\d.]+) [-\d.]+ ([-\d.]+)[^"]*" x="[-\d.]+" y="([-\d.]+)"[^>]*c="([^"]*)"', xml):
        x0, x1, y = float(m.group(1)), float(m.group(2)), float(m.group(3))
        if y < edge or y > height - edge + 4:  # a running header or footer (set across the page)
            continue
        c = html.unescape(m.group(4).decode(errors="replace"))
        if x1 - x0 <= 0 or c.isspace():
            continue
        k = min(max(int(((x0 + x1) / 2 - left + 6) // (column + 12)), 0), n - 1)  # the column its middle is in
        lo, hi = left + k * (column + 12), left + k * (column + 12) + column
        slack = 0.5 + HANGING.get(c, 0.1) * (x1 - x0)
        if x0 < lo - slack or x1 > hi + slack:
            bad.append("%r at x %.1f-%.1f, column %d is %.1f-%.1f" % (c, x0, x1, k + 1, lo, hi))
            if len(bad) == 5:
                break
    return bad


def run(binary, src, out, jobs):
    """Exit status, standard error, wall and CPU seconds (CPU: the machine may be loaded)."""
    env = dict(os.environ, SOURCE_DATE_EPOCH="1")
    t, before = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run([binary, src, "-o", out, "--jobs", str(jobs)], env=env, capture_output=True, timeout=60)
        status, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        status, err = "timeout", ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return status, err, time.time() - t, cpu


def check(binary, doc, fm, visible, work):
    src = os.path.join(work, "doc.rt")
    with open(src, "w") as f:
        f.write(doc)
    outs, results = [], []
    for jobs in (1, 2):
        out = os.path.join(work, "j%d.pdf" % jobs)
        os.path.exists(out) and os.remove(out)
        results.append(run(binary, src, out, jobs))
        outs.append(out)
    (rc1, err1, t1, cpu1), (rc2, err2, t2, _) = results
    problems, mb = [], len(doc.encode()) / 1e6
    if "timeout" in (rc1, rc2):
        problems.append("timeout (60 s): --jobs 1 %s, --jobs 2 %s" % (rc1, rc2))
    elif rc1 != rc2 or (rc1 != 0 and err1 != err2):
        problems.append("exit %s vs %s: %s | %s" % (rc1, rc2, err1[-300:], err2[-300:]))
    elif rc1 == 0:
        a, b = open(outs[0], "rb").read(), open(outs[1], "rb").read()
        if a != b:
            problems.append("PDFs differ (%d vs %d bytes)" % (len(a), len(b)))
        q = subprocess.run(["qpdf", "--check", outs[1]], capture_output=True)
        if q.returncode != 0:
            problems.append("qpdf --check: " + q.stdout.decode(errors="replace")[-300:])
        undrawable = "in any installed font" in err1
        if "column" not in err1:
            outside = outside_columns(outs[0], fm)
            if outside:
                problems.append("outside its column: " + "; ".join(outside))
        if visible is not None and not undrawable:
            text = subprocess.run(["pdftotext", outs[0], "-"], capture_output=True).stdout.decode(errors="replace")
            want, got = chars(visible), chars(text)
            if want != got:
                problems.append("text: missing %s extra %s" % (list((want - got).items())[:8],
                                                               list((got - want).items())[:8]))
    limit = 2 * mb + 1
    slow = [(j, t) for j, t in ((1, t1), (2, t2)) if t > limit]
    if cpu1 > 4 * limit:  # wall time varies with the load: the failure is judged on one job's CPU time
        problems.append("--jobs 1 took %.1f s of CPU, over 4x the bound (%.1f s)" % (cpu1, limit))
    return problems, slow, (t1, t2)


def main():
    ap = argparse.ArgumentParser(description="see the top of this file")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--bin", default=".build/release/typeset")
    ap.add_argument("--out", default="/tmp/pfuzz")
    args = ap.parse_args()
    work, found = os.path.join(args.out, "work-%d" % os.getpid()), os.path.join(args.out, "found")
    os.makedirs(work, exist_ok=True)
    os.makedirs(found, exist_ok=True)
    end, n, failures, sizes = time.time() + args.seconds, 0, 0, []
    while time.time() < end:
        seed = args.seed * 100003 + n
        doc, fm, visible = document(random.Random(seed))
        problems, slow, (t1, t2) = check(args.bin, doc, fm, visible, work)
        n += 1
        size = len(doc.encode())
        sizes.append(size)
        cols = fm["columns"]
        for j, t in slow:
            print("slow: seed %d, %d bytes, columns %s, --jobs %d: %.2f s" % (seed, size, cols, j, t), flush=True)
        if problems:
            failures += 1
            name = os.path.join(found, "seed-%d" % seed)
            with open(name + ".rt", "w") as f:
                f.write(doc)
            with open(name + ".txt", "w") as f:
                f.write("\n".join(problems) + "\n")
            print("FAIL seed %d (%d bytes, columns %s): %s" % (seed, size, cols, "; ".join(problems)), flush=True)
    shutil.rmtree(work, ignore_errors=True)
    if sizes:
        print("pipeline-fuzz: %d documents, %d-%d bytes, %d failing (seed %d)"
              % (n, min(sizes), max(sizes), failures, args.seed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
