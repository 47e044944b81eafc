#!/usr/bin/env bash
# Builds and runs the whole XCTest suite. Prints one line per failing test (with its first failure message)
# and the summary line "tests: N passed, N failed, N skipped"; the full log goes to the file named on the
# first line (TEST_LOG overrides it). The suite is XCTest only, so the empty Swift Testing pass is off.
set -uo pipefail
log=${TEST_LOG:-.build/test.log}
mkdir -p "$(dirname "$log")"
echo "tests: full log in $log"
# SwiftPM's temporary folders, the tests' scratch folders and the temporary files of the typeset runs they start
# go in one folder that is removed at the end (a run left hundreds of folders in /tmp).
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/typeset-tests.XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
if ! swift build --build-tests >"$log" 2>&1; then
    grep -E "error:" "$log" | sort -u | head -40
    echo "tests: the build failed (see $log)"
    exit 1
fi
swift test --skip-build --disable-swift-testing "$@" >>"$log" 2>&1
status=$?
# "<file>:<line>: error: Suite.test : message" lines; the first one per test explains its failure.
awk '
    / error: [A-Za-z0-9_]+\.[A-Za-z0-9_]+ : / {
        split($0, parts, " error: ")
        name = parts[2]; sub(/ : .*/, "", name)
        if (!(name in first)) { message = parts[2]; sub(/^[^:]*: /, "", message); first[name] = parts[1] " " substr(message, 1, 240) }
    }
    /^Test Case .* failed \(/ {
        name = $0; sub(/^Test Case ./, "", name); sub(/. failed \(.*/, "", name)
        print "FAILED " name (name in first ? "  " first[name] : "")
    }
' "$log"
summary=$(grep -E "Executed [0-9]+ tests?, with" "$log" | tail -1)
if [ -z "$summary" ]; then
    tail -20 "$log"
    echo "tests: no test summary found (the test process stopped early; see $log)"
    exit 1
fi
total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")
skipped=0
grep -q "skipped" <<<"$summary" && skipped=$(sed -E 's/.*with ([0-9]+) tests? skipped.*/\1/' <<<"$summary")
echo "tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
exit "$status"
