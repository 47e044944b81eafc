#!/usr/bin/env python3
"""cmark's pathological inputs (and RT's own) through the whole typeset binary at two sizes: CPU seconds per
MB at each, the slope between them, and peak memory.

Usage: pathological.py TYPESET OUTDIR [TIMEOUT_SECONDS [REFERENCE_MARKUP]]. Prints one line per input; an input
that does not finish in the timeout is shown as such (the parser alone is held linear by Tests/RTSyntaxTests/ScalingTests).
With PATHOLOGICAL_BOUND=1 (`make bench BENCH_BOUND=1`) each input is also built at 8,000,000 bytes, just under
the input bound, for issue 8's memory target (peak under 300 MB for the largest allowed input).
"""
import os
import subprocess
import sys
import time

SIZES = (200_000, 1_000_000)  # cmark's size, and five times it: the slope between them leaves start-up out


def rep(piece, size):
    return piece * max(1, size // len(piece))


def backticks(size):
    text, k = [], 1
    while sum(map(len, text)) < size:
        text.append("`" * k + "a ")
        k += 1
    return "".join(text)


CASES = {
    "[ a_": lambda n: rep("[ a_", n),
    "a]": lambda n: rep("a]", n),
    "[a": lambda n: rep("[a", n),
    "nested [": lambda n: "[" * (n // 4) + "a",
    "{{": lambda n: rep("{{", n),
    "*a **a": lambda n: rep("*a **a ", n),
    "_a _": lambda n: rep("_a _", n),
    "backtick runs": backticks,
    "<": lambda n: rep("<", n),
    "nested >": lambda n: rep("> ", n // 10) + "a\n",
    "nested lists": lambda n: "".join("  " * (k % 300) + "- a\n" for k in range(n // 300)),
    "*": lambda n: rep("*", n),
    "[ then ]": lambda n: "[" * (n // 2) + "]" * (n // 2),
    "[a]( unclosed": lambda n: rep("[a](", n),
    "![[[": lambda n: rep("![[[", n),
    "[a] references": lambda n: rep("[a] ", n) + "\n\n[a]: /x\n",
    "word paragraph": lambda n: rep("word ", n),
    # Markup on every word: a node, an attribute run and a glyph run each (Pango shapes and cairo draws each alone).
    "*a* pairs": lambda n: rep("*a* ", n),
    # Inline code on every word: a font, a size and a ground each (Pango walked its attribute list from the start
    # for every run of a paragraph: 12 s a MB).
    "`a` code": lambda n: rep("`a` ", n),
    "==a== marks": lambda n: rep("==a== ", n),
    "[a]{color} spans": lambda n: rep("[a]{color=red} ", n),
    "[a](/x) links": lambda n: rep("[a](/x) ", n),
    # Output far larger than the text: half a word a line, as in issue 8's 7.5 MB paragraph in 16 columns.
    "16 columns": lambda n: "---\ncolumns: 16\n---\n" + rep("word ", n),
}
# The same text through Pango and Cairo alone (reference_markup.c): its mode and the bytes of RT source per unit.
FLOORS = {"*a* pairs": ("em", 4), "`a` code": ("code", 4), "==a== marks": ("mark", 6), "16 columns": ("narrow", 5)}
BOUND = 8_000_000
MEMORY_TARGET_MB = 300


def run(typeset, out, text, limit):
    """CPU seconds, wall seconds, peak MB and a status note of one build of `text`."""
    path = os.path.join(out, "patho.rt")
    with open(path, "w") as f:
        f.write(text)
    start = time.monotonic()
    proc = subprocess.Popen([typeset, path, "-o", os.path.join(out, "patho.pdf"), "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    status, usage = "", None
    while usage is None:
        pid, code, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            usage = rusage
            if code != 0:
                status = f" (exit {os.waitstatus_to_exitcode(code)})"
        elif time.monotonic() - start > limit:
            proc.kill()
            _, _, usage = os.wait4(proc.pid, 0)
            status = " (timeout)"
        else:
            time.sleep(0.05)
    proc.returncode = 0  # reaped above
    cpu = usage.ru_utime + usage.ru_stime  # steadier than wall time on a shared machine
    return cpu, time.monotonic() - start, usage.ru_maxrss / 1024, status


def floor(reference, out, mode, units, layout_only):
    """CPU seconds of the bare C loop for `units` units of `mode` (drawing left out with `layout_only`)."""
    env = dict(os.environ, LAYOUT_ONLY="1") if layout_only else {k: v for k, v in os.environ.items() if k != "LAYOUT_ONLY"}
    proc = subprocess.Popen([reference, mode, str(units), os.path.join(out, "floor.pdf")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, code, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime if code == 0 else float("nan")


def main():
    typeset, out = sys.argv[1], sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 60
    reference = sys.argv[4] if len(sys.argv) > 4 else None
    walls = {}
    os.makedirs(out, exist_ok=True)
    print("CPU seconds per MB at about 200 KB and 1 MB, and the slope between them (start-up left out);")
    print("issue 8's target is 2 s/MB. Peak memory at 1 MB.")
    print(f"{'input':16} {'bytes':>8} {'cpu-s':>6} {'s/MB':>5} | {'bytes':>8} {'cpu-s':>6} {'wall-s':>6} {'s/MB':>5} "
          f"{'slope':>6} {'peak MB':>7}")
    for name, make in CASES.items():
        small, large = make(SIZES[0]), make(SIZES[1])
        a, b = len(small.encode()), len(large.encode())
        cpu_a, _, _, note_a = run(typeset, out, small, limit)
        cpu_b, wall_b, peak, note_b = run(typeset, out, large, limit)
        slope = (cpu_b - cpu_a) / ((b - a) / 1048576)
        walls[name] = (wall_b, cpu_b, b)
        print(f"{name:16} {a:8} {cpu_a:6.2f} {cpu_a / (a / 1048576):5.2f} | {b:8} {cpu_b:6.2f} {wall_b:6.2f} "
              f"{cpu_b / (b / 1048576):5.2f} {slope:6.2f} {peak:7.0f}{note_a}{note_b}", flush=True)
    if reference:
        # Where 2 s/MB is out of reach for any program on these libraries: one PDF surface is drawn on one thread,
        # so the drawing alone bounds the wall time however many cores lay the lines out.
        print("Pango and Cairo alone on the same text (Benchmarks/reference_markup.c: one thread, untagged), CPU s "
              "per MB of RT source, and the drawing's share; typeset's wall and CPU s/MB from the table above.")
        for name, (mode, per_unit) in FLOORS.items():
            if name not in walls:
                continue
            wall, cpu, size = walls[name]
            units = size // per_unit
            whole, layout = floor(reference, out, mode, units, False), floor(reference, out, mode, units, True)
            mb = units * per_unit / 1048576
            print(f"{name:16} C loop {whole / mb:5.2f} s/MB, drawing {(whole - layout) / mb:5.2f} | "
                  f"typeset wall {wall / (size / 1048576):5.2f} cpu {cpu / (size / 1048576):5.2f}", flush=True)
    if os.environ.get("PATHOLOGICAL_BOUND") == "1":
        print(f"At the input bound ({BOUND} bytes): wall and CPU seconds, CPU s/MB, peak memory "
              f"(target {MEMORY_TARGET_MB} MB).")
        for name, make in CASES.items():
            text = make(BOUND)
            size = len(text.encode())
            cpu, wall, peak, note = run(typeset, out, text, max(limit, 300))
            over = "" if peak <= MEMORY_TARGET_MB else "  over"
            print(f"{name:16} {size:8} wall {wall:6.2f} cpu {cpu:6.2f} {cpu / (size / 1048576):5.2f} s/MB "
                  f"peak {peak:6.0f} MB{over}{note}", flush=True)

if __name__ == "__main__":
    main()
