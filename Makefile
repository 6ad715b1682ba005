# SPDX-License-Identifier: Apache-2.0
# The two set-up commands: `make demo` and `make test`. Both install missing
# Debian packages (tools/install-deps.sh), configure and build in build/.
# `make test` then runs the suite again under sanitizers (build-asan/) and
# each fuzz harness briefly (build-fuzz/); `make fuzz` fuzzes for longer
# (RELIABILITY.md). `make install` installs the binary, the capture library
# (when CUPTI was found), the man page and the library for other programs
# (libxplane-stat.so, xplane_stat.h, xplane-stat.pc) under PREFIX and the
# Python package (python/xplane_stat) under PYTHON_PREFIX, staged under DESTDIR.
BUILD ?= build
PREFIX ?= /usr/local
# The Python package goes to PYTHON_PREFIX/lib/python3.X/dist-packages (the system's python3).
PYTHON_PREFIX ?= $(PREFIX)
DESTDIR ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXPS_BUILD_TESTS=ON

ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 60
FUZZ_SMOKE ?= 4
FUZZ_HARNESSES ?=
CLANG ?= $(shell command -v clang 2>/dev/null || command -v clang-14 2>/dev/null)
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all deps build demo test install test-asan fuzz-build fuzz fuzz-smoke clean

all: build

deps:
	@sh tools/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DPYTHON_PREFIX=$(PYTHON_PREFIX) >/dev/null
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
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory fuzz-smoke

# PREFIX is built in (where capture looks for its library), so install rebuilds when it changes.
# Installed for real by root: ldconfig, so that programs find the new libxplane-stat.so.0.
install: build
	@DESTDIR=$(DESTDIR) cmake --install $(BUILD)
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null 2>&1; then ldconfig; fi

# Every test again with AddressSanitizer and UndefinedBehaviorSanitizer (gcc);
# any report fails the test.
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DXPS_BUILD_TESTS=ON -DCMAKE_C_COMPILER=gcc \
		"-DCMAKE_C_FLAGS=-O1 $(SANITIZE)" >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS) >$(ASAN_BUILD)/build.log 2>&1 || { cat $(ASAN_BUILD)/build.log; exit 1; }
	@echo "built $(ASAN_BUILD)/xplane-stat (address and undefined-behaviour sanitizers)"
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j$(JOBS)

# libFuzzer harnesses (fuzz/), built with clang in their own directory.
fuzz-build: deps
	@test -n "$(CLANG)" || { echo "xplane-stat: fuzzing needs clang (tools/install-deps.sh installs it)" >&2; exit 1; }
	@cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXPS_BUILD_TESTS=ON -DXPS_FUZZ=ON \
		-DCMAKE_C_COMPILER=$(CLANG) "-DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link $(SANITIZE)" >/dev/null
	@cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzzers >$(FUZZ_BUILD)/build.log 2>&1 || \
		{ cat $(FUZZ_BUILD)/build.log; exit 1; }

# Each harness for FUZZ_TIME seconds (default 60), one after another; FUZZ_HARNESSES picks some.
fuzz: fuzz-build
	@fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZ_HARNESSES)

# Each harness for a few seconds, part of `make test`; skipped without clang.
fuzz-smoke:
	@if [ -z "$(CLANG)" ]; then echo "fuzz smoke run skipped: clang not installed"; \
	else $(MAKE) --no-print-directory fuzz-build && FUZZ_SEED=1 fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SMOKE) $(FUZZ_HARNESSES); fi

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
