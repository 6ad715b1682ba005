# The two set-up commands: `make demo` and `make test`. Both install missing
# Debian packages (tools/install-deps.sh), configure and build in build/.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXPS_BUILD_TESTS=ON

.PHONY: all deps build demo test clean

all: build

deps:
	@sh tools/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS) >$(BUILD)/build.log 2>&1 || { cat $(BUILD)/build.log; exit 1; }
	@echo "built $(BUILD)/xplane-stat"

demo: build
	@echo '$$ xplane-stat testdata/real/mi300x_jax_gemm.xplane.pb'
	@$(BUILD)/xplane-stat testdata/real/mi300x_jax_gemm.xplane.pb
	@echo
	@echo '$$ xplane-stat autotune $(BUILD)/synth/autotune'
	@$(BUILD)/xplane-stat autotune $(BUILD)/synth/autotune

test: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

clean:
	rm -rf $(BUILD)
