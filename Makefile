# gpushare-sim top-level targets. See README.md.
#   make demo   install missing Debian packages, build (Release), run the main
#               job: compare on the built-in default scenario, with the
#               next step (plan) previewed on its last lines
#   make test   the same, then every test through CTest
#   make bench  build and run the benchmarks in bench/, then the scale table
#   make sanitize  build with clang, ASan + UBSan, and run every test
#   make fuzz   build the libFuzzer targets and run each FUZZ_SECONDS
#   make soak   the property tests over many more seeds
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= 2
CMAKE_FLAGS ?=

SANITIZE_DIR ?= build-sanitize
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
SOAK_SEEDS ?= 1-3000

.PHONY: all deps configure build demo test bench sanitize fuzz soak format clean

all: build

deps:
	@bash scripts/install-deps

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DGS_WERROR=ON $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

demo: build
	./$(BUILD_DIR)/gpushare-sim compare --preview-plan

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

# Google Benchmark's micro and macro benchmarks, then the scale table
# (scripts/bench: one process per case, wall time and peak RSS), written to
# $(BUILD_DIR)/bench/scale.json and compared with the last run's.
bench: build
	cmake --build $(BUILD_DIR) -j$(JOBS) --target gs_bench
	./$(BUILD_DIR)/gs_bench
	python3 scripts/bench ./$(BUILD_DIR)/gpushare-sim $(BUILD_DIR)/bench/scale.json

# clang, ASan + UBSan, -fno-sanitize-recover, libc malloc (jemalloc off);
# Debug-free -O1 keeps the suite fast. Benchmarks are not built.
sanitize: deps
	CXX=clang++ cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DGS_SANITIZE=ON \
	  -DGS_JEMALLOC=OFF -DGS_BUILD_BENCH=OFF -DGS_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_DIR) -j$(JOBS)
	cd $(SANITIZE_DIR) && GS_TEST_TIMEOUT_S=600 \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j$(JOBS)

fuzz: deps
	CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DGS_FUZZ=ON \
	  -DGS_JEMALLOC=OFF -DGS_BUILD_TESTS=OFF -DGS_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(FUZZ_DIR) -j$(JOBS) --target gs_fuzzers
	bash scripts/fuzz run $(FUZZ_DIR) $(FUZZ_SECONDS)

soak: build
	GS_PROPERTY_SEEDS=$(SOAK_SEEDS) ./$(BUILD_DIR)/gs_unit_tests \
	  --gtest_filter='*PropertyTest*'

format:
	find src cli bench -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
