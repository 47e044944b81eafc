#!/usr/bin/env bash
# Builds and runs the whole XCTest suite, then prints one plain summary line ("N passed, N failed").
# The suite is XCTest only, so the empty Swift Testing pass is switched off: its "0 tests" line would
# otherwise be the last word of every run.
set -uo pipefail
swift build --build-tests || exit 1
log=$(mktemp)
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E "Executed [0-9]+ tests?, with" "$log" | tail -1)
rm -f "$log"
total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")
skipped=0
grep -q "skipped" <<<"$summary" && skipped=$(sed -E 's/.*with ([0-9]+) tests? skipped.*/\1/' <<<"$summary")
if [ -z "$summary" ]; then echo "no test summary found"; exit 1; fi
echo "tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
exit "$status"
