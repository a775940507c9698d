# gpushare-sim top-level targets. See README.md.
#   make demo   install missing Debian packages, build (Release), run the main
#               job: compare on the built-in default scenario
#   make test   the same, then every test through CTest
#   make bench  build and run the benchmarks in bench/
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: all deps configure build demo test bench format clean

all: build

deps:
	@bash scripts/install-deps

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DGS_WERROR=ON $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

demo: build
	./$(BUILD_DIR)/gpushare-sim compare

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

bench: build
	cmake --build $(BUILD_DIR) -j$(JOBS) --target gs_bench
	./$(BUILD_DIR)/gs_bench

format:
	find src cli bench -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
