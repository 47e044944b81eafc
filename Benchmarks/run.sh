#!/usr/bin/env bash
# make bench: builds typeset (release) and the C reference, then times both on the same documents.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Benchmarks/out
mkdir -p "$out"
cc -O2 Benchmarks/reference.c -o "$out/reference" $(pkg-config --cflags --libs pangocairo)
cc -O2 Benchmarks/reference_markup.c -o "$out/reference_markup" $(pkg-config --cflags --libs pangocairo)
# The release flags of `make build` (Makefile RELEASE_FLAGS): the binary users get, statically linked Swift.
flags=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections)
swift build "${flags[@]}" --product typeset 2>&1 | { grep -v -e 'prohibited flag(s): -pthread' -e "the use of \`mktemp' is dangerous" || true; }
bin="$(swift build "${flags[@]}" --show-bin-path)/typeset"
python3 Benchmarks/bench.py "$bin" "$out/reference" "$out"
# Pathological inputs (issue 8): time and peak memory of each, linear in size, within the memory bound.
Benchmarks/pathological.sh "$bin"
# The parser's pathological set (cmark's among them) through the binary.
python3 Benchmarks/pathological.py "$bin" "$out" "${BENCH_PATHOLOGICAL_TIMEOUT:-60}" "$out/reference_markup"
