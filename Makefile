# typeset: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT   ?= swift
RELEASE := .build/release/typeset
OUT     := out

.PHONY: all deps build demo test bench clean fuzz templates install

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product typeset

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

# Coverage-guided fuzzing with libFuzzer: the parser, then the whole pipeline to qpdf-checked PDFs, each for
# FUZZ_SECONDS (default 300); findings land in .build/fuzz/findings. `make test` keeps a short seeded random run.
FUZZ_SECONDS ?= 300
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

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
