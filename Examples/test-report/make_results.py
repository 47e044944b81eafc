#!/usr/bin/env python3
"""Writes results.json: 200 made-up test results in 5 suites, the same on every run (seeded), for report.rt."""
import json
import random

rng = random.Random(12)
suites = ["parser", "lowering", "layout", "pdf", "e2e"]
tests, per_suite = [], []
for suite in suites:
    passed = failed = 0
    for k in range(40):
        status = "failed" if rng.random() < 0.04 else "passed"
        seconds = round(rng.lognormvariate(-2.5, 1.0), 3)
        tests.append({"suite": suite, "name": f"test{suite.capitalize()}{k + 1:02}", "status": status,
                      "seconds": seconds})
        passed += status == "passed"
        failed += status == "failed"
    per_suite.append({"name": suite, "passed": passed, "failed": failed})
slowest = sorted(tests, key=lambda t: -t["seconds"])[:8]
data = {"run": "nightly 2026-11-22", "total": len(tests), "failed": sum(s["failed"] for s in per_suite),
        "suites": per_suite, "slowest": slowest, "tests": tests}
with open("results.json", "w") as f:
    json.dump(data, f, indent=1)
    f.write("\n")
