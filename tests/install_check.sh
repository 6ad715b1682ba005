#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make install` (cmake --install) into a DESTDIR in a scratch directory: the
# binary runs, the man page is where `man` looks under PREFIX, and the capture
# library is installed when it was built.
#   install_check.sh SOURCE_DIR BUILD_DIR PREFIX BINDIR MANDIR LIBDIR HAVE_CUPTI
set -u
src=$1 build=$2 prefix=$3 bindir=$4 mandir=$5 libdir=$6 cupti=$7
if command -v make >/dev/null 2>&1; then
	make -s -n -C "$src" install BUILD="$build" >/dev/null 2>&1 || { echo "the Makefile has no install target"; exit 1; }
fi
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
DESTDIR=$dest cmake --install "$build" >"$dest.log" 2>&1 || { cat "$dest.log"; rm -f "$dest.log"; exit 1; }
rm -f "$dest.log"
root=$dest$prefix
fail=0
"$root/$bindir/xplane-stat" --version | grep -q '^xplane-stat ' || { echo "no working $root/$bindir/xplane-stat"; fail=1; }
[ -f "$root/$mandir/man1/xplane-stat.1" ] || { echo "no $root/$mandir/man1/xplane-stat.1"; fail=1; }
if command -v man >/dev/null 2>&1 && [ -f "$root/$mandir/man1/xplane-stat.1" ]; then
	MANPATH=$root/$mandir man -w xplane-stat 2>/dev/null | grep -q "^$root/$mandir/man1/xplane-stat.1" ||
		{ echo "man does not find xplane-stat under MANPATH=$root/$mandir"; fail=1; }
fi
if [ "$cupti" = ON ]; then
	[ -f "$root/$libdir/xplane-stat/libxplane-stat-inject.so" ] ||
		{ echo "no $root/$libdir/xplane-stat/libxplane-stat-inject.so"; fail=1; }
fi
[ $fail -eq 0 ] && echo "installed and found under $prefix: bin, man page$([ "$cupti" = ON ] && echo ', capture library')"
exit $fail
