# The two set-up commands: `make demo` (the login program) and `make test` (every test, the
# explorations sampled; FILTER=<regex> runs only the matching tests). `make test-full` runs the
# explorations whole, as CI does.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift

# Which SQLCipher (README, "Supported versions"): 4 (the default: the system's 4.x,
# from bookworm-backports on Debian 12) or 3 (Debian 12's 3.4.1 unpacked in .build/sqlcipher3
# by scripts/ensure-deps.sh, built in .build-sqlcipher3 so the two legs never share a build).
SQLCIPHER ?= 4
export SQLCIPHER
ifeq ($(SQLCIPHER),3)
SQLCIPHER3 := $(CURDIR)/.build/sqlcipher3
export PKG_CONFIG_PATH := $(SQLCIPHER3)/pkgconfig
export SCM_SQLCIPHER_SHELL := $(SQLCIPHER3)/root/usr/bin/sqlcipher
export PATH := $(SQLCIPHER3)/root/usr/bin:$(PATH)
SCRATCH := --scratch-path .build-sqlcipher3
else
SCRATCH :=
endif

.PHONY: deps build demo test test-full docs check-outside format format-check sanitize bench bench-quick bench-grdb fuzz powerloss clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build $(SCRATCH)

demo: deps
	$(SWIFT) run $(SCRATCH) LoginDemo $(ARGS)

# First the layer check (scripts/check-layers.py: no folder refers to a layer above it, see
# ARCHITECTURE.md). The interop tests need Python's sqlcipher3 in .venv and, on the 4.x leg,
# Debian 12's 3.4.1 shell (the other version's client, unpacked in .build/sqlcipher3 as for
# SQLCIPHER=3); with SCM_REQUIRE_INTEROP=1 they fail (rather than skip) when a client is missing.
# SCM_TEST_DEPTH (Tests/TestSupport/TestDepth.swift): quick samples the explorations (kill loops,
# power-loss states, ledgers, the mutation campaign) within every flow, full runs them whole;
# each sampled run prints its SCM_TEST_SEED, which replays it (SCM_TEST_SEED=<n> make test).
SCM_TEST_DEPTH ?= quick
export SCM_TEST_DEPTH
test-full:
	$(MAKE) test SCM_TEST_DEPTH=full

test: deps
	@python3 scripts/check-layers.py
	@scripts/ensure-interop-venv.sh
	@[ "$(SQLCIPHER)" = 3 ] || SQLCIPHER=3 scripts/ensure-deps.sh || \
		echo "make: no SQLCipher 3.4.1 here (Debian 12 only): the cross-version shell tests are skipped" >&2
	$(SWIFT) build --build-tests $(SCRATCH)
	@scripts/check-sqlcipher.sh "$$($(SWIFT) build $(SCRATCH) --show-bin-path)"
	SCM_REQUIRE_INTEROP=1 $(SWIFT) test --skip-build $(SCRATCH) $(if $(FILTER),--filter '$(FILTER)')

# The DocC site (static, in .build/docs) from Sources/SQLCipherManager/SQLCipherManager.docc with
# the toolchain's docc; fails on a DocC warning, a public symbol without its own doc comment, or
# more than 45 public members on DatabaseManager (scripts/count-manager-members.py prints the count).
docs: deps
	@scripts/build-docs.sh

# A tiny package outside the repository that depends on it by path, built as an app builds it
# (no Makefile, no PKG_CONFIG_PATH): fails on any SwiftPM warning, "prohibited flag(s)" included.
check-outside: deps
	@scripts/check-outside-build.sh

# swift-format (in the toolchain) with the checked-in .swift-format (4 spaces, 140 columns; two
# rules off: ReplaceForEachWithForLoop, which mistakes RowCursor's own throwing forEach for
# Sequence's, and OnlyOneTrailingClosureArgument). `make format` rewrites the files,
# `make format-check` (run by CI) fails on any file that is not formatted or breaks a rule.
FORMAT_PATHS := Package.swift Sources Tests Examples Benchmarks
format:
	$(SWIFT) format format --configuration .swift-format --in-place --recursive --parallel $(FORMAT_PATHS)

format-check:
	$(SWIFT) format lint --configuration .swift-format --strict --recursive --parallel $(FORMAT_PATHS)

# Every test again under ThreadSanitizer and AddressSanitizer, each in its own build folder, the
# explorations whole (SCM_TEST_DEPTH=full).
# Leak detection is off: LeakSanitizer reports Foundation's own Process/FileHandle/Pipe
# allocations on Linux, none of them in this package. The address build links with lld (gold
# prints hundreds of "cannot export local symbol __asan_…" warnings).
# The ledgers run fewer trials there (each trial is the same code; the sanitizers look at it,
# the plain run counts the trials).
SANITIZE_TRIALS ?= 6
ASAN := --sanitize=address --scratch-path .build-asan -Xswiftc -use-ld=lld
sanitize: deps
	@scripts/ensure-interop-venv.sh
	@[ "$(SQLCIPHER)" = 3 ] || SQLCIPHER=3 scripts/ensure-deps.sh || true
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	SCM_TEST_DEPTH=full SCM_REQUIRE_INTEROP=1 SCM_LEDGER_TRIALS=$(SANITIZE_TRIALS) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) build --build-tests $(ASAN)
	SCM_TEST_DEPTH=full SCM_REQUIRE_INTEROP=1 SCM_LEDGER_TRIALS=$(SANITIZE_TRIALS) ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build $(ASAN)

# libFuzzer over opening hostile files (Tests/SQLCipherFuzz): coverage and
# AddressSanitizer, in its own build folder; the corpus (seeded on first run) is kept in
# .build-fuzz/corpus, crashes are written to .build-fuzz/. ARGS go to libFuzzer, e.g.
# ARGS=-max_total_time=3600. The ordinary build runs the same target as a mutation campaign
# (`SEED=<n> MUTANTS=<n> swift run SQLCipherFuzz`).
FUZZ := --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
	-Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver
fuzz: deps
	$(SWIFT) build $(FUZZ) --product SQLCipherFuzz
	ASAN_OPTIONS=detect_leaks=0 .build-fuzz/debug/SQLCipherFuzz .build-fuzz/corpus -artifact_prefix=.build-fuzz/ \
		-timeout=60 -max_total_time=600 $(ARGS)

# The power-loss explorer (scripts/powerloss): each flow (rekey, settings, encrypt in place
# and --to, decrypt, keys convert / change-password / rotate, first launch) in each journal mode
# (delete, wal, and wal-pending: rows committed only in the -wal) run once under strace, then every
# crash state a POSIX file system may leave replayed and recovered; prints each bad state and one
# line of figures per flow and mode (BENCHMARKS.md). ARGS go to the tool, e.g.
# ARGS="--flows rekey --modes wal --keep" (keeps each bad state's folder) or ARGS="--budget 50".
powerloss: deps
	$(SWIFT) build $(SCRATCH)
	bin="$$($(SWIFT) build $(SCRATCH) --show-bin-path)"; \
	python3 scripts/powerloss/powerloss.py --cipherdb "$$bin/cipherdb" --helper "$$bin/FaultInjectionHelper" $(ARGS)

# Benchmarks (BENCHMARKS.md): the full run in release mode, and a seconds-long smoke run for CI.
bench: deps
	$(SWIFT) run -c release $(SCRATCH) SQLCipherBench $(ARGS)

bench-quick: deps
	$(SWIFT) run $(SCRATCH) SQLCipherBench --quick

# GRDB 7.8 side by side (manual, not in CI; BENCHMARKS.md): GRDB's sources from a local checkout
# (GRDB_REPO, tag GRDB_TAG), built in .build/grdb-comparison; RUNS=1 INSTR=--instructions for callgrind.
BENCH_DIR ?= .build/bench-fixtures
RUNS ?= 5
bench-grdb: deps
	SWIFT="$(SWIFT)" Benchmarks/GRDBComparison/prepare.sh
	$(SWIFT) build -c release --product SQLCipherBench
	.build/release/SQLCipherBench --only seed --dir $(BENCH_DIR) --fixtures-only
	python3 Benchmarks/GRDBComparison/run.py $(BENCH_DIR) $(RUNS) $(INSTR)

clean:
	rm -rf .build .build-sqlcipher3 .build-tsan .build-asan .build-fuzz
