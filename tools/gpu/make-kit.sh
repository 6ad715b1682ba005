#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run here (a machine with CUDA's CUPTI, no GPU needed) before checking the
# capture on a GPU machine: builds xplane-stat and libxplane-stat-inject.so
# with CUPTI into build-gpu/ and puts into .gpu/ (git ignores it; the device
# tool carries it) what tools/gpu/check.sh needs there: the two, the shared
# libraries a bare CUDA image may lack (protobuf-c, cJSON), and xplane_pb2.py
# for the comparisons. The binaries need glibc 2.34 or later.
set -eu
cd "$(dirname "$0")/../.."
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXPS_BUILD_TESTS=OFF -DXPS_WITH_CUPTI=ON >/dev/null
cmake --build build-gpu -j"$(nproc)" >build-gpu/build.log 2>&1 || { cat build-gpu/build.log; exit 1; }
rm -rf .gpu
mkdir -p .gpu/lib
cp build-gpu/xplane-stat build-gpu/libxplane-stat-inject.so .gpu/
cp -L build-gpu/libxplane-stat.so.0 .gpu/
mkdir -p .gpu/python
cp -r python/xplane_stat .gpu/python/
for lib in libprotobuf-c.so.1 libcjson.so.1 libdeflate.so.0; do
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ { print $NF; exit }')
	[ -n "$path" ] || { echo "make-kit: $lib not found" >&2; exit 1; }
	cp -L "$path" .gpu/lib/
done
if command -v protoc >/dev/null; then protoc -Iproto --python_out=.gpu proto/xplane.proto; else echo "make-kit: no protoc (Debian: protobuf-compiler): check.sh step 5 will say it cannot read captures from Python" >&2; fi
du -sh .gpu
echo "carry .gpu and run: bash tools/gpu/check.sh"
