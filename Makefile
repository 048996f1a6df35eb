# Thin wrapper around CMake. `make run` and `make test` are the README's two commands;
# both first install the Debian packages they need (idempotently).
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
# Seconds of fuzzing per target in `make test-fuzz` (tests/fuzz/run_target.sh).
FUZZ_SECONDS ?= 30
# The tests that run threads: the store's group committer and concurrent readers,
# the event loop's cross-thread wake-ups, the client library's connections, the
# terminal client's reader thread (eryantis-cli run by CliEndToEnd, itself built with
# TSan), the computer players' worker pool, the password pool (Argon2id off the loop).
# ctest -R over the GoogleTest names.
TSAN_TESTS ?= GroupCommit|ReaderTest|Concurren|EventLoop|LineConnection|ReaderThread|InputReader|CliEndToEnd|ComputerPool|PasswordPool|WorkerPool
TSAN_BINARIES ?= eryantis-store-tests eryantis-net-tests eryantis-client-tests eryantis-cli-tests \
  eryantis-computer-pool-tests eryantis-accounts-tests
JOBS       ?= $(shell nproc)
CONFIG     ?= config/eryantis.toml
# ccache (when installed) sees paths relative to this checkout, so a clone in another
# folder reuses what an earlier build of the same sources compiled.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
# Warnings are errors whenever CI is set (the CI runner sets CI=true).
WERROR     := $(if $(CI),ON,OFF)

.PHONY: all deps configure build run test test-sanitize test-fuzz test-tsan bench format clean package

all: build

deps:
	@bash tools/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DERYANTIS_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/eryantis-server --config $(CONFIG)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
ifdef CI
	@$(MAKE) --no-print-directory test-sanitize
	@$(MAKE) --no-print-directory test-fuzz
	@$(MAKE) --no-print-directory test-tsan
endif

# The same suite once under AddressSanitizer + UndefinedBehaviorSanitizer, with the
# long randomised tests scaled down (ERYANTIS_SANITIZER_RUN shortens them).
test-sanitize: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DERYANTIS_SANITIZE=ON \
	  -DERYANTIS_WERROR=$(WERROR) -DERYANTIS_BENCH=OFF >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ERYANTIS_SANITIZER_RUN=1 ctest --output-on-failure -j $(JOBS)

# libFuzzer targets (tests/fuzz, clang, ASan + UBSan): each runs FUZZ_SECONDS over a
# temporary copy of its seed corpus; a crash fails. One result line per target.
test-fuzz: deps
	@cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DERYANTIS_FUZZ=ON -DERYANTIS_BENCH=OFF >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@rm -rf $(FUZZ_BUILD)/fuzz-results
	@cd $(FUZZ_BUILD) && status=0; FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --output-on-failure -j $(JOBS) || status=$$?; \
	  echo "fuzzing, $(FUZZ_SECONDS) s per target:"; cat fuzz-results/*.txt 2>/dev/null; exit $$status

# The tests that use threads, once under ThreadSanitizer (g++).
test-tsan: deps
	@cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DERYANTIS_TSAN=ON \
	  -DERYANTIS_WERROR=$(WERROR) -DERYANTIS_BENCH=OFF >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(TSAN_BINARIES)
	cd $(TSAN_BUILD) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ERYANTIS_SANITIZER_RUN=1 \
	  ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)'

# The Debian package (packaging/package.cmake): $(BUILD)/eryantis_<version>_<arch>.deb.
package: build
	cd $(BUILD) && cpack -G DEB

bench: build
	./$(BUILD)/eryantis-bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

format:
	@find src include tests tools bench -name '*.cpp' -o -name '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD)
