#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages xplane-stat needs to build and test, if any is missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu

PKGS="cmake make gcc pkg-config libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libdeflate-dev libcjson-dev"
# make test also fuzzes (clang with its libFuzzer and sanitizer runtimes) and runs valgrind.
PKGS="$PKGS clang libclang-rt-dev valgrind"
# make test renders the HTML report in headless Chromium (tests/report/).
PKGS="$PKGS chromium"
# and runs the GNU parallel recipe for summaries on a cluster (tools/cluster/).
PKGS="$PKGS parallel"
# and tests the Python package (python/) with Debian's python3 and pytest.
PKGS="$PKGS python3 python3-pytest"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		# pkg-config may be provided by pkgconf.
		if [ "$p" = pkg-config ] && command -v pkg-config >/dev/null 2>&1; then
			continue
		fi
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "xplane-stat: missing Debian packages:$missing" >&2
	echo "install them with:  sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
