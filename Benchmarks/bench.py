#!/usr/bin/env python3
"""Times typeset against the bare C reference loop on the same generated report, in the same run.

    bench.py TYPESET REFERENCE WORKDIR

For each size it generates the RT report and its plain-text twin (gen_report.py), runs both programs
several times, and prints median wall time, peak RSS (from wait4, per child), pages, throughput and
the typeset/reference ratio; then the evenness of justified text in both PDFs (evenness.py: gaps,
lines over 2x, hyphenated lines and runs, font expansion, runts) and a
verdict against the project's targets. Exit status 0 even when a target is missed: it reports."""
import os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evenness  # noqa: E402
SIZES = [(35_000, 5), (140_000, 3), (350_000, 2)]  # words, runs


def run(cmd, env=None):
    """Wall seconds and peak RSS (MB) of one run of cmd."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{err}")
    return elapsed, usage.ru_maxrss / 1024


def measure(cmd, runs, env=None):
    results = [run(cmd, env) for _ in range(runs)]
    return statistics.median(t for t, _ in results), max(m for _, m in results)


def pages(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    return next((int(l.split()[-1]) for l in out.splitlines() if l.startswith("Pages:")), 0)


def main():
    typeset, reference, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    rows = []
    print(f"{'words':>8} {'pages':>9} {'typeset s':>10} {'ref s':>8} {'ratio':>6} {'words/s':>10} "
          f"{'typeset MB':>10} {'ref MB':>7}")
    for words, runs in SIZES:
        rt, txt = f"{work}/report-{words}.rt", f"{work}/report-{words}.txt"
        subprocess.run([sys.executable, f"{HERE}/gen_report.py", "--words", str(words), "-o", rt, "--plain", txt],
                       check=True, stderr=subprocess.DEVNULL)
        out, ref_out = f"{work}/typeset-{words}.pdf", f"{work}/reference-{words}.pdf"
        t, t_mem = measure([typeset, rt, "-o", out, "--quiet"], runs)
        r, r_mem = measure([reference, txt, ref_out], runs)
        p, rp = pages(out), pages(ref_out)
        rows.append((words, p, t, r, t_mem, r_mem))
        print(f"{words:>8} {p:>4}/{rp:<4} {t:>10.3f} {r:>8.3f} {t / r:>6.2f} {words / t:>10,.0f} "
              f"{t_mem:>10.1f} {r_mem:>7.1f}")

    # Tagging (structure tree, artifacts, the qpdf pass) against the same build with it switched off, interleaved.
    rt, out = f"{work}/report-35000.rt", f"{work}/untagged-35000.pdf"
    untagged_env = dict(os.environ, TYPESET_UNTAGGED="1")
    tagged, untagged = [], []
    for _ in range(7):
        tagged.append(run([typeset, rt, "-o", f"{work}/typeset-35000.pdf", "--quiet"])[0])
        untagged.append(run([typeset, rt, "-o", out, "--quiet"], untagged_env)[0])
    tag_cost = statistics.median(tagged) / statistics.median(untagged) - 1
    print(f"\nTagging on the 35,000-word report: {statistics.median(tagged):.3f} s tagged, "
          f"{statistics.median(untagged):.3f} s untagged: +{100 * tag_cost:.1f}%")


    print("\nEvenness of justified lines (word gap / normal space, in each line's scaled space), 35,000 words,"
          " hyphenate: true:")
    even = {}
    for name in ("typeset", "reference"):
        pdf = f"{work}/{name}-35000.pdf"
        even[name] = evenness.measure(pdf)
        print(f"  {name:>9}: {evenness.describe(even[name]) if even[name] else 'no full lines'}")

    small, large = rows[0], rows[-1]
    per_word_growth = (large[2] / large[0]) / (small[2] / small[0])
    checks = [
        (f"35k words in {small[2]:.3f} s (< 0.25 s)", small[2] < 0.25),
        (f"ratio to the C loop {small[2] / small[3]:.2f} (<= 1.5)", small[2] / small[3] <= 1.5),
        (f"time per word at {large[0]:,} vs 35k: {per_word_growth:.2f}x (linear: <= 1.3x)", per_word_growth <= 1.3),
        (f"peak memory at {large[1]} pages {large[4]:.0f} MB (< 100 MB)", large[4] < 100),
        (f"tagging costs {100 * tag_cost:.1f}% (<= 15%)", tag_cost <= 0.15),
    ]
    e = even["typeset"]
    if e:
        checks += [
            (f"word gaps p95 {e['p95']:.2f} (<= 1.40)", e["p95"] <= 1.40),
            (f"full lines with a gap over 2x {e['over2x_pct']:.2f}% (< 0.3%)", e["over2x_pct"] < 0.3),
            (f"lines ending in a hyphen {e['hyphenated_pct']:.1f}% (<= 3%)", e["hyphenated_pct"] <= 3),
            (f"consecutive hyphens at most {e['max_hyphen_run']} (never three)", e["max_hyphen_run"] < 3),
            (f"largest font expansion {e['max_expansion_pct']:.1f}% (<= 2%)", e["max_expansion_pct"] <= 2.0 + 1e-6),
        ]
    print("\nTargets:")
    for text, ok in checks:
        print(f"  {'met ' if ok else 'MISSED'}  {text}")


if __name__ == "__main__":
    main()
