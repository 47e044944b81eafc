#!/bin/sh
# Coverage-guided fuzzing with libFuzzer (`make fuzz`): the parser for FUZZ_SECONDS, then the whole pipeline
# (PDFs checked with qpdf) for FUZZ_SECONDS, then plain text (bytes mapped to letters, digits, spaces and line
# ends; every character must come back from pdftotext) for FUZZ_SECONDS. Seeds: every example, template and test fixture. The corpus
# grows in .build/fuzz/corpus-*; crashes, timeouts and out-of-memory inputs land in .build/fuzz/findings/.
# Replay one without the fuzzer: `swift run typeset-fuzz FILE` (TYPESET_FUZZ_TARGET=pipeline for PDFs).
# FUZZ_TARGETS picks the targets, FUZZ_JOBS runs several fuzzers at once, FUZZ_KEEP_GOING=1 goes on after findings.
set -eu
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-300}
TARGETS=${FUZZ_TARGETS:-parser pipeline text}
JOBS=${FUZZ_JOBS:-1}
SCRATCH=.build/fuzz
swift build -c release --scratch-path "$SCRATCH" --product typeset-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DTYPESET_LIBFUZZER -Xswiftc -use-ld=lld
BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/typeset-fuzz
SEEDS=$SCRATCH/seeds
rm -rf "$SEEDS" && mkdir -p "$SEEDS" "$SCRATCH/findings"
find Examples Templates Tests/Fixtures -name '*.rt' -o -name '*.md' | while read -r f; do
    cp "$f" "$SEEDS/$(echo "$f" | tr / _)"
done
# libFuzzer's own handlers must see the trap, not Swift's backtracer.
export SWIFT_BACKTRACE=enable=no
status=0
found_before=$(ls "$SCRATCH/findings" | wc -l)
parallel=""
[ "$JOBS" -gt 1 ] && parallel="-jobs=$JOBS -workers=$JOBS"
# FUZZ_KEEP_GOING=1: record every finding and go on (fork mode) instead of stopping at the first.
[ "${FUZZ_KEEP_GOING:-0}" = 1 ] && parallel="$parallel -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
for target in $TARGETS; do
    corpus=$SCRATCH/corpus-$target
    mkdir -p "$corpus"
    case $target in
        # The time bounds are far above the 2 s per MB target (8 KB takes milliseconds) so that a loaded
        # machine and the coverage instrumentation never report a hang that is not one. A slow input is
        # reported at the same bound: a 19 KB input whose nested {{#xs}} sections expand to near the 8 MB
        # bound on text after expansion (7.05 MB) parses in 3.2 s uninstrumented (0.45 s per MB) and took 13 s
        # under the instrumentation beside a build, past libFuzzer's default of 10 s.
        parser) limits="-max_len=65536 -timeout=30 -report_slow_units=30 -rss_limit_mb=2048" ;;
        *) limits="-max_len=8192 -timeout=30 -report_slow_units=30 -rss_limit_mb=3072" ;;
    esac
    echo "typeset-fuzz: $target for ${SECONDS_EACH}s (corpus $corpus)"
    # shellcheck disable=SC2086
    TYPESET_FUZZ_TARGET=$target "$BIN" "$corpus" "$SEEDS" $limits -dict=scripts/rt.dict \
        -max_total_time="$SECONDS_EACH" -print_final_stats=1 $parallel \
        -artifact_prefix="$SCRATCH/findings/$target-" || status=1
done
[ "$(ls "$SCRATCH/findings" | wc -l)" -gt "$found_before" ] && status=1
if [ $status -ne 0 ]; then
    echo "typeset-fuzz: findings in $SCRATCH/findings (add each to Tests/Fixtures/found with a test)" >&2
fi
exit $status
