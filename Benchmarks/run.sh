#!/usr/bin/env bash
# make bench: builds typeset (release) and the C reference, then times both on the same documents.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Benchmarks/out
mkdir -p "$out"
cc -O2 Benchmarks/reference.c -o "$out/reference" $(pkg-config --cflags --libs pangocairo)
swift build -c release --product typeset
bin="$(swift build -c release --show-bin-path)/typeset"
python3 Benchmarks/bench.py "$bin" "$out/reference" "$out"
# Pathological inputs (issue 8): time and peak memory of each, linear in size, within the memory bound.
Benchmarks/pathological.sh "$bin"
# The parser's pathological set (cmark's among them) through the binary.
python3 Benchmarks/pathological.py "$bin" "$out" "${BENCH_PATHOLOGICAL_TIMEOUT:-60}"
