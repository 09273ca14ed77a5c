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

# The interop tests need Python's sqlcipher3 in .venv; with SCM_REQUIRE_INTEROP=1 they fail
# (rather than skip) when a client is missing.
test: deps
	@scripts/ensure-interop-venv.sh
	$(SWIFT) build --build-tests
	SCM_REQUIRE_INTEROP=1 $(SWIFT) test --skip-build

# Benchmarks (BENCHMARKS.md): the full run in release mode, and a seconds-long smoke run for CI.
bench: deps
	$(SWIFT) run -c release SQLCipherBench $(ARGS)

bench-quick: deps
	$(SWIFT) run SQLCipherBench --quick

clean:
	rm -rf .build
