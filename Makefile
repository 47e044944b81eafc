# typeset: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT   ?= swift
RELEASE := .build/release/typeset
OUT     := out

.PHONY: all deps build demo test bench clean fuzz templates install

SHELL := /bin/bash
# SwiftPM warns "prohibited flag(s): -pthread" about pkg-config's flags for Pango on every build; the flag is
# harmless (ENGINE-NOTES) and avoiding it would mean hard-coding include paths, so only that line is dropped.
QUIET_PTHREAD := 2>&1 | { grep -v 'prohibited flag(s): -pthread' || true; }

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@set -o pipefail; $(SWIFT) build -c release --product typeset $(QUIET_PTHREAD)

# Build in release and typeset the tour example.
demo: build
	@mkdir -p $(OUT)
	$(RELEASE) Examples/tour.rt -o $(OUT)/tour.pdf
	@echo "Wrote $(OUT)/tour.pdf"

# The whole test suite: parser and IR unit tests, layout/PDF tests, end-to-end CLI tests.
test: deps
	scripts/run-tests.sh

# Throughput against a bare C PangoLayout+Cairo loop measured in the same run.
bench: deps
	Benchmarks/run.sh

# The fuzz harness for longer than the bounded run in `make test` (FUZZ_SECONDS, default 300).
FUZZ_SECONDS ?= 300
fuzz: deps
	@set -o pipefail; $(SWIFT) build --build-tests $(QUIET_PTHREAD)
	TYPESET_FUZZ_SECONDS=$(FUZZ_SECONDS) TYPESET_FUZZ_SEED=$${TYPESET_FUZZ_SEED:-$$(date +%s)} \
		$(SWIFT) test --skip-build --filter FuzzTests

# Regenerate the built-in templates compiled into the binary from Templates/*.rt.
templates:
	scripts/embed-templates.sh

# Installs the binary; templates are built in, and Templates/ is copied to share/ for editing and overriding.
PREFIX ?= /usr/local
install: build
	install -d $(PREFIX)/bin $(PREFIX)/share/typeset/templates
	install -m 755 $(RELEASE) $(PREFIX)/bin/typeset
	install -m 644 Templates/*.rt $(PREFIX)/share/typeset/templates/

clean:
	rm -rf .build $(OUT) Benchmarks/out
