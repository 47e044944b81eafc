#!/usr/bin/env python3
"""Writes scripts/hot-functions.order: the functions a typical build runs, for the release link (issue 14).

The release binary holds 18 MB of code, the static Swift runtime and Foundation included, and a one-page document
runs under 1 MB of it. Spread over the whole file that 1 MB touches most of its 64 KB windows, and the kernel maps
each touched window whole (fault-around): 12 MB of the binary was resident for one page, a third of peak memory.
lld's --symbol-ordering-file places the listed functions first and together (Package.swift), so what runs shares
few pages. Functions this list misses still work; they only sit elsewhere.

Usage: scripts/link_order.py [BINARY]   (default .build/release/typeset; needs valgrind)
Runs BINARY under callgrind on a one-page document, every example and a 35,000-word report, and lists every
function of the binary that ran: the one-page document's first (start-up), then by how many documents ran them.
Rerun it after large changes (`make link-order`); names that no longer exist are skipped by the linker.

    scripts/link_order.py --faults BINARY   (needs perf)
callgrind misses code that runs before main and in the static Foundation (its C static initializers, type
metadata accessors): this pass runs BINARY, linked with the current list, on the one-page document and the report
under `perf record -e page-faults`, and appends every function whose first instruction fetch faulted in a code page
and is not listed yet. `make link-order` relinks and repeats it until few are left (2 MB less resident code).
The Swift standard library is one object with one code section, so what runs of it cannot be gathered.
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = ".build/release/typeset"
OUT = os.path.join(ROOT, "scripts", "hot-functions.order")
# valgrind loads a position-independent executable at this address.
VALGRIND_BASE = 0x108000


def functions(binary):
    """(start address, size, name) of every function symbol, sorted by address."""
    out = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    syms.sort()
    return syms


def ran(callgrind_out, object_name):
    """Names or addresses of the functions of object_name that ran: each has an fn= block of its own cost."""
    objects, names, seen = {}, {}, set()
    current = None
    for line in open(callgrind_out, errors="replace"):
        m = re.match(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, key, name = m.groups()
        table = objects if kind in ("ob", "cob") else names
        if name:
            table[key] = name.split("'")[0]
        if kind == "ob":
            current = objects[key]
        elif kind == "fn" and current and current.endswith(object_name):
            seen.add(names[key])
    return seen


def resolve(seen, syms):
    starts = [s[0] for s in syms]
    by_name = {s[2] for s in syms}
    found = set()
    for item in seen:
        if not item.startswith("0x"):
            if item in by_name:
                found.add(item)
            continue
        address = int(item, 16)
        for candidate in (address, address - VALGRIND_BASE):
            i = bisect.bisect_right(starts, candidate) - 1
            if i >= 0 and syms[i][0] <= candidate < syms[i][0] + max(syms[i][1], 1):
                found.add(syms[i][2])
                break
    return found


def documents(work):
    one = os.path.join(work, "one-page.rt")
    with open(one, "w") as f:
        f.write("---\ntitle: One page\n---\n\n# Start-up\n\nOne paragraph with *emphasis*, a [link](#start-up) "
                "and `code`.\n")
    sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
    import gen_report
    report = os.path.join(work, "report-35000.rt")
    with open(report, "w") as f:
        f.write(gen_report.generate(35_000, 1, toc=True)[0])
    examples = sorted(os.path.join(ROOT, "Examples", n) for n in os.listdir(os.path.join(ROOT, "Examples"))
                      if n.endswith(".rt"))
    return [one] + examples + [report]


def faulted(binary, docs):
    """Names of the functions of `binary` whose code page faults point at (the instruction's own page)."""
    names = set()
    for doc in docs:
        with tempfile.TemporaryDirectory() as work:
            data = os.path.join(work, "faults.data")
            subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", data, binary, doc,
                            "-o", os.path.join(work, "out.pdf"), "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            script = subprocess.run(["perf", "script", "-i", data, "-F", "addr,ip,sym,dso", "--show-mmap-events"],
                                    capture_output=True, text=True, errors="replace").stdout
        low = high = None
        for line in script.splitlines():
            if "PERF_RECORD_MMAP2" in line:
                m = re.search(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\).*r-xp (\S+)$", line)
                if m and os.path.realpath(m.group(3)) == os.path.realpath(binary):
                    low, high = int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)
                continue
            parts = line.split()
            if low is None or len(parts) < 5:
                continue
            try:
                address, ip = int(parts[0], 16), int(parts[3], 16)
            except ValueError:
                continue
            if low <= address < high and abs(address - ip) < 64 and parts[4] != "[unknown]":
                names.add(parts[4])
    return names


def append_faulted(binary):
    work = tempfile.mkdtemp(prefix="link-order.")
    docs = documents(work)
    listed = [l.strip() for l in open(OUT) if l.strip()]
    new = sorted(faulted(binary, [docs[0], docs[-1]]) - set(listed))
    with open(OUT, "w") as f:
        f.write("\n".join(listed + new) + "\n")
    print(f"{len(new)} functions appended -> {os.path.relpath(OUT, ROOT)}", file=sys.stderr)
    return len(new)


def main():
    if sys.argv[1:2] == ["--faults"]:
        append_faulted(os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, RELEASE)))
        return
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, RELEASE))
    syms = functions(binary)
    work = tempfile.mkdtemp(prefix="link-order.")
    # valgrind reads the stripped copy; symbols come from the original.
    stripped = os.path.join(work, "typeset")
    subprocess.run(["strip", "-o", stripped, binary], check=True)
    docs = documents(work)
    per_doc = []
    for doc in docs:
        out = os.path.join(work, os.path.basename(doc) + ".callgrind")
        cmd = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", stripped, doc,
               "-o", os.path.join(work, "out.pdf"), "--quiet"]
        subprocess.run(cmd, cwd=os.path.dirname(doc), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        names = resolve(ran(out, "/typeset"), syms) if os.path.exists(out) else set()
        print(f"{os.path.basename(doc)}: {len(names)} functions", file=sys.stderr)
        per_doc.append(names)
    counts = collections.Counter(n for names in per_doc for n in names)
    first = sorted(per_doc[0])
    rest = sorted((n for n in counts if n not in per_doc[0]), key=lambda n: (-counts[n], n))
    size = {s[2]: s[1] for s in syms}
    with open(OUT, "w") as f:
        f.write("\n".join(first + rest) + "\n")
    print(f"{len(first) + len(rest)} functions, {sum(size.get(n, 0) for n in first + rest) / 1e6:.2f} MB of code "
          f"-> {os.path.relpath(OUT, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
