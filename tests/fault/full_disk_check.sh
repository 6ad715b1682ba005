# SPDX-License-Identifier: Apache-2.0
# Never report a write that did not happen (RELIABILITY.md, "Files written"):
# on a full file system (a tmpfs of a few pages) every output path exits 1
# with a message, leaves no temporary file and keeps what the target held;
# appends are rolled back to the byte. Needs to mount a tmpfs (root, or a user
# namespace); otherwise skipped (exit 77).
# Usage: full_disk_check.sh XPLANE_STAT SYNTH_DIR REAL_TRACE
bin=$1
synth=$2
real=$3
trace=$synth/tpu_basic.xplane.pb

if [ -z "$XPS_IN_NS" ] && [ "$(id -u)" -ne 0 ]; then
	# an unprivileged user may mount a tmpfs in a namespace of its own
	if command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null; then
		XPS_IN_NS=1 exec unshare -rm sh "$0" "$@"
	fi
	echo "skipped: cannot mount a tmpfs (not root, no user namespaces)"
	exit 77
fi
mnt=$(mktemp -d)
work=$(mktemp -d)
if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
	rmdir "$mnt" "$work"
	echo "skipped: cannot mount a tmpfs here"
	exit 77
fi
trap 'cd /; umount "$mnt"; rmdir "$mnt"; rm -rf "$work"' EXIT
fail=0

bad() {
	echo "FAIL: $*"
	fail=1
}

# fill: no page left but FREE_PAGES (default 0)
fill() {
	rm -f "$mnt/fill"
	cat /dev/zero >"$mnt/fill" 2>/dev/null
	size=$(wc -c <"$mnt/fill")
	truncate -s $((size - ${1:-0} * 4096)) "$mnt/fill"
}

# expect_fail FILE -- CMD...: with the disk full, CMD exits 1 saying it cannot
# write, FILE is as it was (or absent) and no temporary file is left.
expect_fail() {
	file=$1
	shift 2
	[ -e "$file" ] && cp "$file" "$work/before" || rm -f "$work/before"
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ $rc -eq 1 ] || bad "$* exited $rc, not 1 (full disk): $(cat "$work/err")"
	grep -q "cannot write\|cannot create" "$work/err" || bad "$*: no message: $(cat "$work/err")"
	if [ -e "$work/before" ]; then
		cmp -s "$file" "$work/before" || bad "$*: '$file' changed"
	else
		[ ! -e "$file" ] || bad "$*: '$file' was left"
	fi
	leftover=$(find "$mnt" -name '*.tmp-*' -o -name '*-journal' | head -n 1)
	[ -z "$leftover" ] || bad "$*: left $leftover"
	rm -f "$leftover"
}

cd "$mnt" || exit 1
"$bin" summarize -o "$mnt/s.jsonl" "$trace" 2>/dev/null || bad "summarize on the empty tmpfs failed"
"$bin" functions --commit c1 --history "$mnt/h.jsonl" "$trace" >/dev/null 2>&1 || bad "--history on the empty tmpfs failed"

fill 0
# whole-file outputs: nothing written, the old target kept
expect_fail "$mnt/s.jsonl" -- "$bin" summarize -o "$mnt/s.jsonl" "$trace"
expect_fail "$mnt/new.jsonl" -- "$bin" summarize -o "$mnt/new.jsonl" "$trace"
expect_fail "$mnt/m.jsonl" -- "$bin" merge -o "$mnt/m.jsonl" "$mnt/s.jsonl" "$mnt/s.jsonl"
expect_fail "$mnt/f.txt" -- "$bin" functions -o "$mnt/f.txt" "$trace"
expect_fail "$mnt/e.tsv" -- "$bin" events --list -o "$mnt/e.tsv" "$trace"
expect_fail "$mnt/p.jsonl" -- "$bin" functions --per-file -o "$mnt/p.jsonl" "$trace" "$trace"
expect_fail "$mnt/x.json" -- "$bin" export -o "$mnt/x.json" "$trace"
expect_fail "$mnt/r.html" -- "$bin" report -o "$mnt/r.html" "$trace"

# appends with room for the journal but not the lines: rolled back to the byte
fill 1
set -- "$real"
expect_fail "$mnt/s.jsonl" -- "$bin" summarize --append -o "$mnt/s.jsonl" "$@" "$@" "$@"
expect_fail "$mnt/h.jsonl" -- "$bin" functions --commit c1 --history "$mnt/h.jsonl" "$@" "$@" "$@"
fill 0
expect_fail "$mnt/h.jsonl" -- "$bin" functions --commit c1 --history "$mnt/h.jsonl" "$trace"
rm -f "$mnt/fill"
"$bin" history "$mnt/h.jsonl" >/dev/null 2>"$work/err" || bad "history after failed appends: $(cat "$work/err")"
"$bin" merge --check "$mnt/s.jsonl" >/dev/null 2>"$work/err" || bad "the summary after failed appends: $(cat "$work/err")"

# -o onto a symbolic link writes its target and keeps the link
ln -s s.jsonl "$mnt/link.jsonl"
"$bin" summarize -o "$mnt/link.jsonl" "$trace" "$trace" 2>/dev/null || bad "summarize -o LINK failed"
[ -L "$mnt/link.jsonl" ] || bad "-o LINK replaced the link"
[ "$(wc -l <"$mnt/s.jsonl")" -eq 2 ] || bad "-o LINK did not write the link's target"

[ $fail -eq 0 ] && echo "full file system: all checks passed"
exit $fail
