# typeset: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT   ?= swift
RELEASE := .build/release/typeset
# The Swift runtime and Foundation linked into the binary: some 15 fewer shared objects to load and relocate
# at every start (a one-page document starts in about half the time) and less memory mapped. `make bench`
# builds with the same flags (Benchmarks/run.sh), so the two never rebuild each other's objects.
# Every function in a section of its own, the dependencies' too (Package.swift does it for typeset's modules):
# the release link places the functions builds run together (scripts/hot-functions.order).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections
OUT     := out

.PHONY: all deps build demo test bench clean fuzz pipeline-fuzz link-order templates install

SHELL := /bin/bash
# SwiftPM warns "prohibited flag(s): -pthread" about pkg-config's flags for Pango on every build; the flag is
# harmless (ENGINE-NOTES) and avoiding it would mean hard-coding include paths, so only that line is dropped.
# Linking Foundation statically also prints glibc's warning about mktemp, which Foundation calls but typeset
# never reaches (its temporary files are made with O_EXCL); that line is dropped too.
QUIET_PTHREAD := 2>&1 | { grep -v -e 'prohibited flag(s): -pthread' -e "the use of \`mktemp' is dangerous" || true; }

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@set -o pipefail; $(SWIFT) build $(RELEASE_FLAGS) --product typeset $(QUIET_PTHREAD)

# Build in release and typeset the tour example.
demo: build
	@mkdir -p $(OUT)
	$(RELEASE) Examples/tour.rt -o $(OUT)/tour.pdf
	@echo "Wrote $(OUT)/tour.pdf"

# The whole test suite: parser and IR unit tests, layout/PDF tests, end-to-end CLI tests.
test: deps
	scripts/run-tests.sh

# Against a bare C PangoLayout+Cairo loop in the same run: start-up (one page), 35,000 and 350,000 words, peak
# memory at both, --jobs and watch rebuilds; the change against the last run (Benchmarks/out/last-run.json).
# `make bench BENCH_BOUND=1` also builds each pathological input at the 8 MB input bound (several minutes).
bench: deps
	PATHOLOGICAL_BOUND=$(BENCH_BOUND) Benchmarks/run.sh

# Coverage-guided fuzzing with libFuzzer: the parser, the whole pipeline to qpdf-checked PDFs, and plain text that
# must come back whole from pdftotext, each for FUZZ_SECONDS (default 300); findings land in .build/fuzz/findings.
# `make fuzz FUZZ_SECONDS=600` is the 30-minute run. `make test` keeps a short seeded random run.
FUZZ_SECONDS ?= 300
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# Long documents (20-400 KB, huge paragraphs) typeset with --jobs 1 and --jobs 2 by the release binary: the PDFs
# must be byte-identical and qpdf-clean, plain text must come back whole and every glyph must lie inside its
# column (scripts/pipeline_fuzz.py). Runs
# FUZZ_SECONDS (here 600 unless given); failing documents land in /tmp/pfuzz/found. FUZZ_SEED repeats a run.
pipeline-fuzz: build
	scripts/pipeline_fuzz.py --seconds $(if $(filter file,$(origin FUZZ_SECONDS)),600,$(FUZZ_SECONDS)) \
	    $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) --bin $(RELEASE)

# Regenerate scripts/hot-functions.order, the functions typical builds run, placed together by the release link
# (Package.swift): run under callgrind on every example and a 35,000-word report (a few minutes; needs valgrind).
# Then code that callgrind misses (static initializers, Foundation's metadata accessors) is added from perf's page
# faults, relinking between rounds.
link-order: build
	scripts/link_order.py $(RELEASE)
	for round in 1 2 3 4 5; do rm -f $(RELEASE) && $(MAKE) build && scripts/link_order.py --faults $(RELEASE); done
	rm -f $(RELEASE) && $(MAKE) build

# Regenerate the built-in templates compiled into the binary from Templates/*.rt.
templates:
	scripts/embed-templates.sh

# Installs the binary; templates are built in, and Templates/ is copied to share/ for editing and overriding.
# `make install PREFIX=$HOME/.local` needs no root; DESTDIR stages the tree for a package.
PREFIX ?= /usr/local
BINDIR := $(DESTDIR)$(PREFIX)/bin
install: build
	install -d "$(BINDIR)" "$(DESTDIR)$(PREFIX)/share/typeset/templates"
	install -m 755 $(RELEASE) "$(BINDIR)/typeset"
	install -m 644 Templates/*.rt "$(DESTDIR)$(PREFIX)/share/typeset/templates/"
	@echo "Installed $(BINDIR)/typeset"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "Note: $(PREFIX)/bin is not on PATH; add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

clean:
	rm -rf .build $(OUT) Benchmarks/out
