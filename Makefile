# typeset: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT   ?= swift
RELEASE := .build/release/typeset
OUT     := out

.PHONY: all deps build demo test bench clean

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

clean:
	rm -rf .build $(OUT) Benchmarks/out
