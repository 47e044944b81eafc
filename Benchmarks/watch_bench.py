#!/usr/bin/env python3
"""Incremental --watch rebuild time against the full build, through the CLI (for `make bench`).

    watch_bench.py TYPESET DOC.rt        prints: wall: full 12.3 s, rebuild 2.1 s, ratio 0.17 (and cpu: the same)

`measure_watch(bin, rt)` starts `typeset DOC --watch`, waits for the first build's
`typeset: wrote OUT (N pages, T s)` line, changes one word of a paragraph in the middle of a copy of the
document, waits for the rebuild's line and returns (full seconds, rebuild seconds). The times are the ones
typeset prints (the build only, not the one-second polling); with `cpu=True`, the CPU seconds of the process instead
(less disturbed by other load on the machine).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

WROTE = re.compile(r"typeset: wrote .*\(.*?([0-9.]+) (ms|s)\)")


def _seconds(line):
    m = WROTE.search(line)
    if not m:
        return None
    value = float(m.group(1))
    return value / 1000 if m.group(2) == "ms" else value


def _cpu(pid):
    """User + system CPU seconds the process has used so far (Linux /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _next_build(proc, deadline):
    """(wall seconds typeset printed, process CPU seconds when it printed them) of the next build."""
    for line in proc.stderr:
        seconds = _seconds(line)
        if seconds is not None:
            return seconds, _cpu(proc.pid)
        if time.time() > deadline:
            break
    return None


def measure_watch(bin, rt, timeout=600, cpu=False):
    folder = tempfile.mkdtemp(prefix="typeset-watch-")
    doc = os.path.join(folder, "doc.rt")
    shutil.copy(rt, doc)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1")
    proc = subprocess.Popen([bin, doc, "-o", os.path.join(folder, "doc.pdf"), "--watch"], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env=env)
    try:
        deadline = time.time() + timeout
        full = _next_build(proc, deadline)
        if full is None:
            return None
        with open(doc, encoding="utf-8") as f:
            lines = f.read().split("\n")
        body = [i for i, l in enumerate(lines) if l[:1].isalpha() and len(l) > 200]
        if not body:
            return None
        k = body[len(body) // 2]
        lines[k] = "Edited " + lines[k]
        time.sleep(1.1)  # a new modification time for the watcher's once-a-second poll
        with open(doc, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        rebuild = _next_build(proc, deadline)
        if rebuild is None:
            return None
        if cpu:  # CPU seconds: the first build's include start-up; the polling between builds costs ~nothing
            return None if None in (full[1], rebuild[1]) else (full[1], rebuild[1] - full[1])
        return full[0], rebuild[0]
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    for kind in ("wall", "cpu"):
        result = measure_watch(sys.argv[1], sys.argv[2], cpu=kind == "cpu")
        if result is None:
            sys.exit("watch_bench: no rebuild seen")
        full, rebuild = result
        print(f"{kind}: full {full:.2f} s, rebuild {rebuild:.2f} s, ratio {rebuild / full:.2f}")
