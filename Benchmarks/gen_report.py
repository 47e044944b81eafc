#!/usr/bin/env python3
"""Generate the benchmark report in RT, deterministically (fixed seed), plus the same text as plain
paragraphs for the C reference.

    gen_report.py [--words N] [--seed S] [--toc] [-o report.rt] [--plain report.txt]

The RT document is a 2-column, justified A4 report with `#`/`##` headings every few paragraphs,
60-160-word paragraphs carrying bold, italic, code and links, bulleted and numbered lists and an
occasional fenced code block. Word counts are of the prose (headings, paragraphs, list items);
code blocks come on top of N. `--toc` puts `{{pages}}` in the footer and a `@toc` first (two passes).

Plain format (one paragraph per line, markup stripped), read by reference.c. A tag before a TAB
says what the line is, so the reference can set it the way typeset has to:
    H1<TAB>text   H2<TAB>text   heading
    LI<TAB>• text list item ("• " or "3. " is part of the text; hanging indent in the reference)
    CODE<TAB>text one line of a code block, monospace
    text          body paragraph (no tag)
"""
import argparse
import random
import sys

# Function words carry most of the weight, as in real English; the long tail of content words
# (2-15 letters) gives the breaker realistic material: long words are what make justified lines loose.
FUNCTION = ("the of and to a in is that for it as with was on be by this are from at or an which "
            "not have has but can more their its also these than when all into between each so "
            "one two we our they may other such only most some how then where while both over").split()
CONTENT = """
system data model layout page line text font paragraph document column measure result value
process method design structure performance memory time cost width height number report table
figure section chapter analysis evaluation implementation configuration specification approach
experiment baseline pipeline compiler renderer parser glyph kerning ligature hyphenation justification
typesetting algorithm heuristic optimisation throughput latency allocation cache buffer stream
engine interface component module library function parameter argument variable constant
reader writer author editor publisher manuscript revision draft proof margin gutter spread
measurement observation hypothesis conclusion introduction background discussion limitation
quality readability legibility contrast rhythm spacing density texture colour weight style
careful simple complex large small early late recent common rare typical general specific
important significant practical theoretical empirical consistent robust efficient accurate
uniform irregular narrow wide long short first second final previous following several
shows suggests requires provides produces reduces increases improves remains follows depends
describes compares measures reports allows prevents breaks fills places draws reads writes
careful widely often rarely usually nearly almost quickly slowly directly roughly clearly
Knuth Plass Unicode OpenType HarfBuzz Pango Cairo PDF microtypography internationalisation
characteristically incomprehensible straightforward interdisciplinary disproportionate
""".split()
CODE_WORDS = ("layout_line pango_layout_new cairo_show_page line_height break_lines glyph_run "
              "justify() measure_text font_map set_width page_count column_gap").split()
TITLE_WORDS = [w for w in CONTENT if w.islower() and len(w) > 3]

PY_SNIPPETS = [
    ["def break_lines(words, width):", "    line, lines = [], []", "    for w in words:",
     "        if measure(line + [w]) > width:", "            lines.append(line)",
     "            line = []", "        line.append(w)", "    return lines + [line]"],
    ["for page in document.pages:", "    for column in page.columns:",
     "        column.balance(tolerance=0.5)", "    page.render(surface)"],
    ["$ typeset report.rt -o report.pdf", "$ pdfinfo report.pdf | grep Pages", "Pages:          58"],
]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.words = 0
        self.link = 0
        # Zipf-like weights within each pool (flatter for content words); function words ~45% overall.
        self.cw = [1 / (k + 1) ** 0.5 for k in range(len(CONTENT))]
        self.fw = [1 / (k + 1) ** 0.9 for k in range(len(FUNCTION))]

    def word(self):
        if self.r.random() < 0.45:
            return self.r.choices(FUNCTION, self.fw)[0]
        return self.r.choices(CONTENT, self.cw)[0]

    def sentence(self, n):
        ws = [self.word() for _ in range(n)]
        if self.r.random() < 0.4:                      # a comma somewhere inside
            i = self.r.randrange(2, n - 1)
            ws[i] += ","
        ws[0] = ws[0][0].upper() + ws[0][1:]
        ws[-1] += self.r.choice(".....?;:")[0] if self.r.random() < 0.1 else "."
        return ws

    def inline(self, ws):
        """Turn a list of plain words into (rt_text, plain_text) with some inline markup."""
        rt = list(ws)
        n = len(ws)
        for _ in range(self.r.randint(0, 2)):          # strong / em over 1-3 words
            i = self.r.randrange(n); j = min(n, i + self.r.randint(1, 3))
            if any(c in "".join(rt[i:j]) for c in "*_`["):
                continue                               # never nest or overlap generated markup
            d = self.r.choice(["**", "*", "*", "_"])
            rt[i] = d + rt[i]
            core = rt[j - 1].rstrip(",.;:?")           # close before trailing punctuation
            rt[j - 1] = core + d + rt[j - 1][len(core):]
        if self.r.random() < 0.35:                     # inline code replaces a word
            i = self.r.randrange(n)
            if not any(c in rt[i] for c in "*_`["):
                tail = "." if rt[i].endswith(".") else ""
                ws[i] = self.r.choice(CODE_WORDS) + tail
                rt[i] = "`" + ws[i][:len(ws[i]) - len(tail)] + "`" + tail
        if self.r.random() < 0.25:                     # a two-word external link
            i = self.r.randrange(n - 1)
            seg = "".join(rt[i:i + 2])
            if not any(c in seg for c in "*_`[],.;:?"):
                self.link += 1
                rt[i] = "[" + rt[i]
                rt[i + 1] = rt[i + 1] + "](https://example.com/x/%d)" % self.link
        return " ".join(rt), " ".join(ws)

    def paragraph(self, lo=60, hi=160):
        target = self.r.randint(lo, hi)
        ws = []
        while len(ws) < target:
            ws += self.sentence(self.r.randint(7, 24))
        self.words += len(ws)
        return self.inline(ws)

    def title(self):
        ws = [self.r.choice(TITLE_WORDS) for _ in range(self.r.randint(2, 5))]
        self.words += len(ws)
        return " ".join(w.capitalize() if i == 0 or len(w) > 3 else w for i, w in enumerate(ws))


def generate(n_words, seed, toc=False):
    g = Gen(seed)
    footer = 'footer: "\\t{{page}} / {{pages}}\\t"' if toc else 'footer: "\\t{{page}}\\t"'
    rt = ["---", "title: Benchmark Report on Line Breaking", "author: typeset benchmark generator",
          "date: 2024-01-01", "page: A4", "columns: 2", "justify: true", "hyphenate: true", footer, "---", ""]
    if toc:  # the two-pass case: page total and a contents listing every heading
        rt += ["@toc depth=2", ""]
    plain = []
    chapter = 0
    while g.words < n_words:
        chapter += 1
        t = g.title()
        rt += ["# %d %s" % (chapter, t), ""]
        plain.append("H1\t%d %s" % (chapter, t))
        for sec in range(1, g.r.randint(3, 6) + 1):
            t = g.title()
            rt += ["## %d.%d %s" % (chapter, sec, t), ""]
            plain.append("H2\t%d.%d %s" % (chapter, sec, t))
            for _ in range(g.r.randint(2, 5)):
                a, b = g.paragraph()
                rt += [a, ""]
                plain.append(b)
                k = g.r.random()
                if k < 0.12:                           # bulleted or numbered list
                    numbered = g.r.random() < 0.4
                    for i in range(g.r.randint(3, 6)):
                        a, b = g.inline(g.sentence(g.r.randint(6, 30)))
                        g.words += len(b.split())
                        m = "%d." % (i + 1) if numbered else "-"
                        rt.append("%s %s" % (m, a))
                        plain.append("LI\t%s %s" % (m if numbered else "•", b))
                    rt.append("")
                elif k < 0.16:                         # fenced code block
                    snippet = g.r.choice(PY_SNIPPETS)
                    rt += ["```python" if not snippet[0].startswith("$") else "```"] + snippet + ["```", ""]
                    plain += ["CODE\t" + s for s in snippet]
                if g.words >= n_words:
                    break
            if g.words >= n_words:
                break
    return "\n".join(rt) + "\n", "\n".join(plain) + "\n", g.words


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=35000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="RT output (default stdout)")
    ap.add_argument("--plain", help="also write the plain-paragraph text for reference.c here")
    ap.add_argument("--toc", action="store_true", help="footer with {{pages}} and a @toc (two passes)")
    a = ap.parse_args()
    rt, plain, n = generate(a.words, a.seed, a.toc)
    if a.output:
        open(a.output, "w", encoding="utf-8").write(rt)
    else:
        sys.stdout.write(rt)
    if a.plain:
        open(a.plain, "w", encoding="utf-8").write(plain)
    print("gen_report: %d words" % n, file=sys.stderr)


if __name__ == "__main__":
    main()
