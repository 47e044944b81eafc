#!/usr/bin/env python3
"""The trade-off between hyphens and even word spacing on the benchmark report (35,000 words, two justified
columns on A4, hyphenate: true): typesets it once per line-breaker setting (TYPESET_BREAKER, untagged so the
added hyphens stay readable) and prints hyphenated lines, word gaps p50 / p95 and lines with a gap over 2x.

    hyphen_tradeoff.py TYPESET [SETTING ...]      a SETTING is e.g. "hyphen-penalty=1500 tolerance=1500"

The issue 13 targets: p95 <= 1.40, < 0.3% of lines over 2x, <= 3% hyphenated, never three in a row."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evenness  # noqa: E402

DEFAULT_SETTINGS = [
    "", "hyphen-penalty=1000", "hyphen-penalty=3000", "hyphen-penalty=9999",
    "tolerance=1000", "tolerance=1000 hyphen-penalty=700", "tolerance=1000 hyphen-penalty=1000",
    "tolerance=1500 hyphen-penalty=1500", "tolerance=3000 hyphen-penalty=2000",
    "tolerance=3000 hyphen-penalty=3000", "space-shrink=0.5 hyphen-penalty=600",
]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    typeset, settings = sys.argv[1], sys.argv[2:] or DEFAULT_SETTINGS
    with tempfile.TemporaryDirectory() as tmp:
        rt, pdf = os.path.join(tmp, "report.rt"), os.path.join(tmp, "report.pdf")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_report.py"), "--words", "35000", "-o", rt],
                       check=True, stderr=subprocess.DEVNULL)
        print(f"{'TYPESET_BREAKER':<40} {'hyphenated':>10} {'run':>4} {'p50':>5} {'p95':>5} {'>2x':>6}")
        for setting in settings:
            env = dict(os.environ, TYPESET_UNTAGGED="1", TYPESET_BREAKER=setting)
            subprocess.run([typeset, rt, "-o", pdf, "--quiet"], check=True, env=env)
            r = evenness.measure(pdf)
            print(f"{setting or '(defaults)':<40} {r['hyphenated_pct']:>9.1f}% {r['max_hyphen_run']:>4} "
                  f"{r['p50']:>5.2f} {r['p95']:>5.2f} {r['over2x_pct']:>5.2f}%", flush=True)


if __name__ == "__main__":
    main()
