# Thin wrapper around CMake. `make run` and `make test` are the README's two commands;
# both first install the Debian packages they need (idempotently).
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
CONFIG     ?= config/eryantis.toml
# Warnings are errors whenever CI is set (the CI runner sets CI=true).
WERROR     := $(if $(CI),ON,OFF)

.PHONY: all deps configure build run test test-sanitize bench format clean

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
endif

# The same suite once under AddressSanitizer + UndefinedBehaviorSanitizer, with the
# long randomised tests scaled down (ERYANTIS_SANITIZER_RUN shortens them).
test-sanitize: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DERYANTIS_SANITIZE=ON \
	  -DERYANTIS_WERROR=$(WERROR) -DERYANTIS_BENCH=OFF >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ERYANTIS_SANITIZER_RUN=1 ctest --output-on-failure -j $(JOBS)

bench: build
	./$(BUILD)/eryantis-bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

format:
	@find src include tests tools bench -name '*.cpp' -o -name '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
