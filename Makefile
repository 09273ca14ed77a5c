# The two set-up commands: `make demo` (the login program) and `make test` (every test).
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift

.PHONY: deps build demo test clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) run LoginDemo $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build
