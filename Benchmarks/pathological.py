#!/usr/bin/env python3
"""cmark's pathological inputs (and RT's own) through the whole typeset binary: seconds and peak memory each.

Usage: pathological.py TYPESET OUTDIR [TIMEOUT_SECONDS]. Prints one line per input; an input that does not
finish in the timeout is shown as such (the parser alone is held linear by Tests/RTSyntaxTests/ScalingTests).
"""
import os
import subprocess
import sys
import time

SIZE = 200_000


def rep(piece, size=SIZE):
    return piece * max(1, size // len(piece))


CASES = {
    "[ a_ x50000": rep("[ a_"),
    "a] x65000": rep("a]"),
    "[a x65000": rep("[a"),
    "50000 nested [": "[" * 50_000 + "a",
    "{{ x50000": rep("{{"),
    "*a **a": rep("*a **a "),
    "_a _": rep("_a _"),
    "backtick runs": "".join("`" * k + "a " for k in range(1, 600)),
    "< x100000": rep("<"),
    "nested >": rep("> ", 20_000) + "a\n",
    "nested lists": "".join("  " * k + "- a\n" for k in range(300)),
    "* x200000": rep("*"),
    "[ then ]": "[" * 100_000 + "]" * 100_000,
    "[a]( unclosed": rep("[a]("),
    "![[[": rep("![[["),
    "[a] references": rep("[a] ") + "\n\n[a]: /x\n",
    "word paragraph": rep("word "),
}


def main():
    typeset, out = sys.argv[1], sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 60
    os.makedirs(out, exist_ok=True)
    print(f"{'input':24} {'bytes':>8} {'seconds':>9} {'cpu-s':>7} {'cpu-s/MB':>8} {'peak MB':>8}")
    for name, text in CASES.items():
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
        seconds = time.monotonic() - start
        proc.returncode = 0  # reaped above
        size = len(text.encode())
        cpu = usage.ru_utime + usage.ru_stime  # steadier than wall time on a shared machine
        print(f"{name:24} {size:8} {seconds:9.2f} {cpu:7.2f} {cpu / (size / 1048576):8.2f} "
              f"{usage.ru_maxrss / 1024:8.0f}{status}", flush=True)

if __name__ == "__main__":
    main()
