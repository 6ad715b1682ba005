#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages xplane-stat needs to build and test, if any is missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# Optional packages are installed only as root with apt-get, and never fail it.
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
# Optional: make test runs the Slurm recipe on a one-node cluster of its own
# (tests/summary/slurm_check.sh, as root); without these that test is skipped.
OPTIONAL="slurm-wlm munge"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=""
for p in $PKGS; do
	if ! installed "$p"; then
		# pkg-config may be provided by pkgconf.
		if [ "$p" = pkg-config ] && command -v pkg-config >/dev/null 2>&1; then
			continue
		fi
		missing="$missing $p"
	fi
done
optional=""
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	for p in $OPTIONAL; do
		installed "$p" || optional="$optional $p"
	done
fi
[ -z "$missing$optional" ] && exit 0

if [ -n "$missing" ] && [ "$(id -u)" -ne 0 ]; then
	echo "xplane-stat: missing Debian packages:$missing" >&2
	echo "install them with:  sudo apt-get install -y$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "installing:$missing" >&2
	apt-get update -qq
	apt-get install -y -qq $missing >/dev/null
fi
if [ -n "$optional" ]; then
	echo "installing (optional):$optional" >&2
	{ [ -n "$missing" ] || apt-get update -qq; } && apt-get install -y -qq $optional >/dev/null ||
		echo "xplane-stat: could not install$optional; the Slurm test will be skipped" >&2
fi
