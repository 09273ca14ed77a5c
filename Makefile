# The two set-up commands: `make demo` (the login program) and `make test` (every test).
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift

.PHONY: deps build demo test bench bench-quick clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) run LoginDemo $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks (BENCHMARKS.md): the full run in release mode, and a seconds-long smoke run for CI.
bench: deps
	$(SWIFT) run -c release SQLCipherBench $(ARGS)

bench-quick: deps
	$(SWIFT) run SQLCipherBench --quick

clean:
	rm -rf .build
