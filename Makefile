# The two set-up commands: `make demo` (the login program) and `make test` (every test).
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Copies of glib's .pc files without -pthread (written by scripts/ensure-deps.sh), so SwiftPM
# prints no "prohibited flag" warning for the libsecret target.
export PKG_CONFIG_PATH := $(CURDIR)/.build/scm-pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

.PHONY: deps build demo test sanitize bench bench-quick clean

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

# Every test again under ThreadSanitizer and AddressSanitizer, each in its own build folder.
# Leak detection is off: LeakSanitizer reports Foundation's own Process/FileHandle/Pipe
# allocations on Linux, none of them in this package. The address build links with lld (gold
# prints hundreds of "cannot export local symbol __asan_…" warnings).
ASAN := --sanitize=address --scratch-path .build-asan -Xswiftc -use-ld=lld
sanitize: deps
	@scripts/ensure-interop-venv.sh
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	SCM_REQUIRE_INTEROP=1 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) build --build-tests $(ASAN)
	SCM_REQUIRE_INTEROP=1 ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build $(ASAN)

# Benchmarks (BENCHMARKS.md): the full run in release mode, and a seconds-long smoke run for CI.
bench: deps
	$(SWIFT) run -c release SQLCipherBench $(ARGS)

bench-quick: deps
	$(SWIFT) run SQLCipherBench --quick

clean:
	rm -rf .build .build-tsan .build-asan
