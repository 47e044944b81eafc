#!/usr/bin/env python3
"""Times typeset against the bare C reference loop on the same generated reports, in the same run.

    bench.py TYPESET REFERENCE WORKDIR

Prints, in one table, the ratio to the C loop for one page (a one-section document: start-up), 35,000 words
(about 100 sections) and ten times that, peak memory at both large sizes and how flat it stays, `--jobs 1`
against the default (n/a when the binary has no --jobs), and a watch rebuild after an edit against a full build
(n/a until measure_watch does it); then evenness of justified text and a verdict against the project's targets.
Runs of typeset and of the reference alternate, so a load spike on the machine hits both.

The results are kept in WORKDIR/last-run.json; the next run prints its change against them.
Exit status 0 even when a target is missed: it reports."""
import datetime, json, os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evenness  # noqa: E402
import watch_bench  # noqa: E402
# (key, label, words, runs): 150 words make one H1 with one H2 section on one page.
SIZES = [("one-page", "one page (1 section)", 150, 21),
         ("35k", "35,000 words", 35_000, 5),
         ("350k", "350,000 words", 350_000, 2)]
TARGETS = {"one-page": 1.3, "35k": 1.5, "350k": 1.5}
MEMORY_LIMIT_MB = 40
MEMORY_GROWTH = 1.10


def run(cmd, env=None):
    """Wall seconds, CPU seconds and peak RSS (MB) of one run of cmd."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{err}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def run_threads(cmd):
    """One run of cmd, sampling each thread's on-CPU time (/proc/PID/task/TID/schedstat, ns) until it exits:
    (wall s, main thread CPU s, every other thread's CPU s, main thread blocked s). Unlike the wall time, CPU time
    hardly moves when other processes load the cores. Blocked: neither running nor waiting for a core (waiting
    for the page writer, a worker, the disk); it grows when the thread it waits for is kept off a core."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = {}
    while proc.poll() is None:
        try:
            tids = os.listdir(f"/proc/{proc.pid}/task")
        except OSError:
            break
        for tid in tids:
            try:
                with open(f"/proc/{proc.pid}/task/{tid}/schedstat") as f:
                    ran, queued = f.read().split()[:2]
                    seen[int(tid)] = (int(ran) / 1e9, int(queued) / 1e9)
            except (OSError, ValueError, IndexError):
                pass
        time.sleep(0.002)
    elapsed = time.perf_counter() - start
    main, queued = seen.pop(proc.pid, (0.0, 0.0))
    return elapsed, main, sum(ran for ran, _ in seen.values()), max(0.0, elapsed - main - queued)


def measure_pair(a, b, runs):
    """Medians of wall and CPU time and the largest peak RSS of commands a and b, run alternately."""
    ra, rb = [], []
    for _ in range(runs):
        ra.append(run(a))
        rb.append(run(b))
    summary = lambda rs: {"wall": statistics.median(r[0] for r in rs), "cpu": statistics.median(r[1] for r in rs),
                          "mb": max(r[2] for r in rs)}
    return summary(ra), summary(rb)


def pages(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    return next((int(l.split()[-1]) for l in out.splitlines() if l.startswith("Pages:")), 0)


def has_option(typeset, name):
    """Whether `typeset --help` lists the option (features other branches add)."""
    res = subprocess.run([typeset, "--help"], capture_output=True, text=True)
    return name in res.stdout + res.stderr


def measure_jobs(typeset, rt, work, runs=5):
    """--jobs 1 time / default time on the 35,000-word report; None when the binary has no --jobs."""
    if not has_option(typeset, "--jobs"):
        return None
    out = f"{work}/jobs.pdf"
    one, default = measure_pair([typeset, rt, "-o", out, "--quiet", "--jobs", "1"],
                                [typeset, rt, "-o", out, "--quiet"], runs)
    return {"jobs1": one["wall"], "default": default["wall"], "jobs1_cpu": one["cpu"], "default_cpu": default["cpu"]}


def measure_critical_path(typeset, rt, reference, txt, work, runs=5):
    """CPU seconds by thread of a default --jobs run against the C loop's CPU seconds, alternating (medians). On an
    idle machine the run takes at least the main thread's CPU time (pagination and drawing are in order) and at
    least all threads' CPU time shared over the cores: the larger of the two, over the C loop's CPU time, is what
    the wall ratio would be there, measured so that other load on the cores barely moves it."""
    mains, others, blocked, refs = [], [], [], []
    for _ in range(runs):
        _, main, other, waited = run_threads([typeset, rt, "-o", f"{work}/threads.pdf", "--quiet"])
        mains.append(main)
        others.append(other)
        blocked.append(waited)
        refs.append(run([reference, txt, f"{work}/threads-ref.pdf"])[1])
    main, other = statistics.median(mains), statistics.median(others)
    return {"main_cpu": main, "other_cpu": other, "reference_cpu": statistics.median(refs),
            "main_blocked": statistics.median(blocked),
            "projected": max(main, (main + other) / (os.cpu_count() or 1))}


def measure_tagging(typeset, rt, work, runs=5):
    """Tagged against untagged (TYPESET_UNTAGGED=1), alternating, at --jobs 1 and at the default: medians of wall
    and CPU. CPU time counts every thread's work; the wall time only the longest path, and part of tagging (the
    page rewrite and compression) runs on every core, so at the default --jobs the two differ."""
    untagged_env = dict(os.environ, TYPESET_UNTAGGED="1")
    result = {}
    for name, extra in (("jobs1", ["--jobs", "1"]), ("default", [])):
        tagged, untagged = [], []
        for _ in range(runs):
            tagged.append(run([typeset, rt, "-o", f"{work}/tagged-35k.pdf", "--quiet"] + extra))
            untagged.append(run([typeset, rt, "-o", f"{work}/untagged-35k.pdf", "--quiet"] + extra, untagged_env))
        med = lambda rs, k: statistics.median(r[k] for r in rs)
        result[name] = {"tagged_wall": med(tagged, 0), "untagged_wall": med(untagged, 0),
                        "tagged_cpu": med(tagged, 1), "untagged_cpu": med(untagged, 1)}
    return result


def measure_watch(typeset, work):
    """Hook for the incremental --watch (issue 14): the seconds of a full build and of the rebuild after one
    paragraph changes, as {"full": s, "rebuild": s}; None while the binary cannot do it."""
    helped = subprocess.run([typeset, "--help"], capture_output=True, text=True)
    if "--watch" not in helped.stdout + helped.stderr:
        return None
    result = watch_bench.measure_watch(typeset, f"{work}/report-350000.rt")
    return None if result is None else {"full": result[0], "rebuild": result[1]}


def link_order_coverage(typeset):
    """(functions listed in scripts/hot-functions.order, how many of them the binary defines)."""
    order = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "hot-functions.order")
    try:
        listed = set(open(order).read().split())
        symbols = subprocess.run(["nm", "--defined-only", typeset], capture_output=True, text=True).stdout
    except OSError:
        return 0, 0
    defined = {line.rsplit(" ", 1)[-1] for line in symbols.splitlines()}
    return len(listed), len(listed & defined)


def generate(words, work, toc=False):
    suffix = "-toc" if toc else ""
    rt, txt = f"{work}/report-{words}{suffix}.rt", f"{work}/report-{words}{suffix}.txt"
    subprocess.run([sys.executable, f"{HERE}/gen_report.py", "--words", str(words), "-o", rt, "--plain", txt]
                   + (["--toc"] if toc else []), check=True, stderr=subprocess.DEVNULL)
    sections = sum(1 for line in open(rt, encoding="utf-8") if line.startswith("## "))
    return rt, txt, sections


def load_previous(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def change(now, before):
    if before in (None, 0) or now is None:
        return ""
    return f"{(now - before) / before * 100:+.0f}%"


def main():
    typeset, reference, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    last_path = f"{work}/last-run.json"
    previous = load_previous(last_path)
    result = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "sizes": {}}

    print(f"{'':<22} {'pages':>9} {'typeset s':>10} {'ref s':>8} {'ratio':>6} {'target':>7} {'cpu ratio':>9} "
          f"{'words/s':>10} {'typeset MB':>10} {'ref MB':>7}")
    for key, label, words, runs in SIZES:
        rt, txt, sections = generate(words, work)
        out, ref_out = f"{work}/typeset-{key}.pdf", f"{work}/reference-{key}.pdf"
        t, r = measure_pair([typeset, rt, "-o", out, "--quiet"], [reference, txt, ref_out], runs)
        p, rp = pages(out), pages(ref_out)
        row = {"words": words, "sections": sections, "pages": p, "typeset": t, "reference": r,
               "ratio": t["wall"] / r["wall"], "cpu_ratio": t["cpu"] / max(r["cpu"], 1e-9)}
        result["sizes"][key] = row
        name = label if words < 1000 else f"{words:,} words ({sections} sect.)"
        print(f"{name:<22} {p:>4}/{rp:<4} {t['wall']:>10.3f} {r['wall']:>8.3f} {row['ratio']:>6.2f} "
              f"{'<=' + str(TARGETS[key]):>7} {row['cpu_ratio']:>9.2f} {words / t['wall']:>10,.0f} "
              f"{t['mb']:>10.1f} {r['mb']:>7.1f}")

    sizes = result["sizes"]
    small, large = sizes["35k"], sizes["350k"]
    growth = large["typeset"]["mb"] / small["typeset"]["mb"]
    result["memory_growth"] = growth
    print(f"\nPeak memory: {small['typeset']['mb']:.1f} MB at {small['sections']} sections, "
          f"{large['typeset']['mb']:.1f} MB at {large['sections']} sections ({growth:.2f}x; "
          f"C loop {small['reference']['mb']:.1f} / {large['reference']['mb']:.1f} MB)")
    # The same reports with {{pages}} and a @toc: two passes, which must not keep the first pass's layouts.
    toc_mb = {}
    for key, words in (("35k", 35_000), ("350k", 350_000)):
        rt, _, _ = generate(words, work, toc=True)
        toc_mb[key] = run([typeset, rt, "-o", f"{work}/typeset-{key}-toc.pdf", "--quiet"])[2]
    toc_growth = toc_mb["350k"] / toc_mb["35k"]
    result["toc_mb"], result["toc_memory_growth"] = toc_mb, toc_growth
    print(f"  with {{{{pages}}}} and @toc: {toc_mb['35k']:.1f} MB and {toc_mb['350k']:.1f} MB ({toc_growth:.2f}x)")
    # The release link places these functions together (Package.swift); a stale list only costs memory.
    listed, present = link_order_coverage(typeset)
    if listed:
        print(f"  link order: {present:,} of the {listed:,} functions in scripts/hot-functions.order are in the binary"
              f"{'' if present >= 0.9 * listed else ' (stale: run make link-order)'}")

    # --jobs (parallel shaping): filled in by the binary itself once it has the option.
    jobs = measure_jobs(typeset, f"{work}/report-35000.rt", work)
    result["jobs"] = jobs
    if jobs is None:
        print("--jobs 1 vs default, 35,000 words: n/a (this typeset has no --jobs)")
    else:
        ratio = jobs["default"] / sizes["35k"]["reference"]["wall"]
        print(f"--jobs 1 vs default, 35,000 words: {jobs['jobs1']:.3f} s vs {jobs['default']:.3f} s "
              f"({jobs['jobs1'] / jobs['default']:.2f}x faster; default {ratio:.2f}x the C loop, target <= 0.8); "
              f"CPU {jobs['jobs1_cpu']:.3f} vs {jobs['default_cpu']:.3f} s")
    # Where a parallel run's time goes: the main thread (pagination, drawing, the tagging stage) is the critical path.
    critical = measure_critical_path(typeset, f"{work}/report-35000.rt", reference, f"{work}/report-35000.txt", work)
    result["critical_path"] = critical
    print(f"  default --jobs, CPU by thread: main {critical['main_cpu']:.3f} s, others {critical['other_cpu']:.3f} s;"
          f" C loop {critical['reference_cpu']:.3f} s: max(main, all / {os.cpu_count()} cores) = "
          f"{critical['projected'] / critical['reference_cpu']:.2f}x the C loop (at least the wall ratio on an idle "
          f"machine; the main thread was blocked {critical['main_blocked']:.3f} s besides)")
    # Incremental --watch: measure_watch above is the hook.
    watch = measure_watch(typeset, work)
    result["watch"] = watch
    if watch is None:
        print("watch rebuild after an edit vs full build: n/a (not measured yet)")
    else:
        print(f"watch rebuild after an edit vs full build: {watch['rebuild']:.3f} s vs {watch['full']:.3f} s "
              f"({watch['rebuild'] / watch['full']:.2f}, target <= 0.25)")

    # Tagging (structure tree, artifacts, the qpdf pass) against the same build with it switched off, interleaved.
    # The cost is the CPU time at --jobs 1 (every instruction tagging adds, whatever the machine's load); the
    # wall times and the default --jobs are shown beside it (there the rewrite runs on both cores, so the wall
    # time grows less than the CPU time, which counts all threads).
    tagging = measure_tagging(typeset, f"{work}/report-35000.rt", work)
    result["tagging"] = tagging
    cost = lambda t, k: t[f"tagged_{k}"] / t[f"untagged_{k}"] - 1
    tag_cost = cost(tagging["jobs1"], "cpu")
    result["tagging_cost"] = tag_cost
    print("\nTagging on the 35,000-word report (tagged vs TYPESET_UNTAGGED=1, medians):")
    for name, label in (("jobs1", "--jobs 1"), ("default", "default --jobs")):
        t = tagging[name]
        print(f"  {label:<14} CPU {t['tagged_cpu']:.3f} vs {t['untagged_cpu']:.3f} s: {100 * cost(t, 'cpu'):+.1f}%;"
              f"  wall {t['tagged_wall']:.3f} vs {t['untagged_wall']:.3f} s: {100 * cost(t, 'wall'):+.1f}%")

    print("\nEvenness of justified lines (word gap / normal space, in each line's scaled space), 35,000 words,"
          " hyphenate: true:")
    even = {}
    # Measured on the untagged render above (same glyphs): tagged, a hyphen the breaker adds reads as nothing
    # (/ActualText), so pdftotext would lose it and the hyphenated lines would stop reaching the column edge.
    for name, pdf in (("typeset", f"{work}/untagged-35k.pdf"), ("reference", f"{work}/reference-35k.pdf")):
        even[name] = evenness.measure(pdf)
        print(f"  {name:>9}: {evenness.describe(even[name]) if even[name] else 'no full lines'}")

    per_word_growth = (large["typeset"]["wall"] / large["words"]) / (small["typeset"]["wall"] / small["words"])
    one = sizes["one-page"]
    checks = [
        (f"one page: {one['ratio']:.2f}x the C loop (<= 1.3)", one["ratio"] <= 1.3),
        (f"35k words in {small['typeset']['wall']:.3f} s (< 0.25 s)", small["typeset"]["wall"] < 0.25),
        (f"35k words: {small['ratio']:.2f}x the C loop (<= 1.5)", small["ratio"] <= 1.5),
        (f"time per word at {large['words']:,} vs 35k: {per_word_growth:.2f}x (linear: <= 1.3x)",
         per_word_growth <= 1.3),
        (f"peak memory at {large['pages']} pages {large['typeset']['mb']:.0f} MB (<= {MEMORY_LIMIT_MB} MB)",
         large["typeset"]["mb"] <= MEMORY_LIMIT_MB),
        (f"peak memory flat from {small['sections']} to {large['sections']} sections: {growth:.2f}x "
         f"(<= {MEMORY_GROWTH:.2f}x)", growth <= MEMORY_GROWTH),
        (f"with {{{{pages}}}} and @toc: {toc_mb['350k']:.0f} MB (<= {MEMORY_LIMIT_MB} MB), {toc_growth:.2f}x "
         f"(<= {MEMORY_GROWTH:.2f}x)", toc_mb["350k"] <= MEMORY_LIMIT_MB and toc_growth <= MEMORY_GROWTH),
    ]
    checks.append((f"tagging costs {100 * tag_cost:.1f}% of CPU time at --jobs 1 (<= 15%)", tag_cost <= 0.15))
    e = even["typeset"]
    if e:
        checks += [
            (f"word gaps p95 {e['p95']:.2f} (<= 1.40)", e["p95"] <= 1.40),
            (f"full lines with a gap over 2x {e['over2x_pct']:.2f}% (< 0.3%)", e["over2x_pct"] < 0.3),
            (f"lines ending in a hyphen {e['hyphenated_pct']:.1f}% (<= 3%)", e["hyphenated_pct"] <= 3),
            (f"consecutive hyphens at most {e['max_hyphen_run']} (never three)", e["max_hyphen_run"] < 3),
            (f"largest font expansion {e['max_expansion_pct']:.1f}% (<= 2%)", e["max_expansion_pct"] <= 2.0 + 1e-6),
        ]
    if jobs is not None:
        checks.append((f"--jobs default {jobs['default'] / small['reference']['wall']:.2f}x the single-threaded "
                       f"C loop (<= 0.8)", jobs["default"] / small["reference"]["wall"] <= 0.8))
    cp = result["critical_path"]
    checks.append((f"--jobs default by CPU per thread {cp['projected'] / cp['reference_cpu']:.2f}x the C loop's CPU "
                   "(<= 0.8; the wall ratio on an idle machine)", cp["projected"] / cp["reference_cpu"] <= 0.8))
    if watch is not None:
        checks.append((f"watch rebuild {watch['rebuild'] / watch['full']:.2f} of a full build (<= 0.25)",
                       watch["rebuild"] / watch["full"] <= 0.25))
    print("\nTargets:")
    for text, ok in checks:
        print(f"  {'met ' if ok else 'MISSED'}  {text}")

    print_change(result, previous)
    with open(last_path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print(f"\n(results kept in {last_path})")


def print_change(now, before):
    if not before:
        print("\nNo previous run to compare with.")
        return
    print(f"\nChange against the previous run ({before.get('date', '?')}):")
    for key, label, _, _ in SIZES:
        a, b = now["sizes"].get(key), before.get("sizes", {}).get(key)
        if not a or not b:
            continue
        print(f"  {label:<22} ratio {b['ratio']:.2f} -> {a['ratio']:.2f} ({change(a['ratio'], b['ratio'])}), "
              f"time {change(a['typeset']['wall'], b['typeset']['wall'])}, "
              f"peak memory {b['typeset']['mb']:.1f} -> {a['typeset']['mb']:.1f} MB "
              f"({change(a['typeset']['mb'], b['typeset']['mb'])})")
    if before.get("toc_mb"):
        print(f"  {{{{pages}}}} and @toc, 350k   peak memory {before['toc_mb']['350k']:.1f} -> {now['toc_mb']['350k']:.1f} MB")
    if before.get("tagging_cost") is not None:
        # Runs before the "tagging" entry measured it at the default --jobs (CPU time over every thread).
        how = "" if "tagging" in before else " (then at the default --jobs)"
        print(f"  tagging (CPU, --jobs 1)  {100 * before['tagging_cost']:+.1f}%{how} -> {100 * now['tagging_cost']:+.1f}%")
    a, b = now.get("critical_path"), before.get("critical_path")
    if a and b:
        before_projected = b.get("projected", b["main_cpu"])
        print(f"  --jobs default by CPU per thread / C loop {before_projected / b['reference_cpu']:.2f} -> "
              f"{a['projected'] / a['reference_cpu']:.2f}")
    for key in ("jobs", "watch"):
        a, b = now.get(key), before.get(key)
        if a and b:
            first, second = ("jobs1", "default") if key == "jobs" else ("rebuild", "full")
            print(f"  {key:<22} {b[first] / b[second]:.2f} -> {a[first] / a[second]:.2f}")


if __name__ == "__main__":
    main()
