#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every source file the project writes carries the licence in its first two
# lines (a script's shebang comes first), so a file added without it fails.
#   spdx_check.sh SOURCE_DIR
set -u
cd "$1" || exit 1
missing=$(find src include examples tools tests fuzz CMakeLists.txt Makefile -path tests/cli -prune -o -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' -o -name '*.cu' -o -name '*.map' \
	-o -name CMakeLists.txt -o -name Makefile -o -path tools/bench \) -print | sort |
	while IFS= read -r f; do
		head -n 2 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || echo "$f"
	done)
[ -z "$missing" ] && { echo "every source file carries SPDX-License-Identifier: Apache-2.0"; exit 0; }
echo "without 'SPDX-License-Identifier: Apache-2.0' in its first two lines:"
echo "$missing"
exit 1
