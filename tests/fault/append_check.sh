# SPDX-License-Identifier: Apache-2.0
# Appending never loses a byte the user had (RELIABILITY.md, "Files written"):
# --history and summarize --append refuse files that are not theirs untouched,
# refuse a cut last line unless --repair, roll back an append a killed process
# left, and survive SIGKILL at any point. Usage: append_check.sh XPLANE_STAT SYNTH_DIR
bin=$1
synth=$2
trace=$synth/tpu_basic.xplane.pb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 1

bad() {
	echo "FAIL: $*"
	fail=1
}

# expect RC FILE ORIG -- CMD...: CMD exits RC and leaves FILE byte for byte as ORIG
expect_untouched() {
	want=$1 file=$2 orig=$3
	shift 4
	"$@" >/dev/null 2>err
	rc=$?
	[ $rc -eq "$want" ] || bad "$* exited $rc, not $want: $(cat err)"
	cmp -s "$file" "$orig" || bad "$*: '$file' changed"
	[ ! -e "$file-journal" ] || bad "$*: a journal was left"
}

# 1. Files that are not this tool's: a trace, a CSV without its last newline, one line of text.
cp "$trace" trace.pb
printf 'a,b\n1,2' >t.csv
printf 'hello' >one.txt
for f in trace.pb t.csv one.txt; do
	cp $f $f.orig
	expect_untouched 3 $f $f.orig -- "$bin" functions --commit c1 --history $f "$trace"
	expect_untouched 3 $f $f.orig -- "$bin" summarize --append -o $f "$trace"
	grep -q "is not a summary or history file" err || bad "$f: no message saying what it is: $(cat err)"
done

# 2. A history whose last record lacks only its newline keeps it: the newline is added.
"$bin" functions --commit c1 --history h.jsonl "$trace" "$trace" >/dev/null 2>err || bad "first append: $(cat err)"
[ "$(wc -l <h.jsonl)" -eq 2 ] || bad "two inputs did not give two records"
head -c -1 h.jsonl >nonl.jsonl
"$bin" functions --commit c1 --history nonl.jsonl "$trace" >/dev/null 2>err || bad "append after a record without newline: $(cat err)"
[ "$(wc -l <nonl.jsonl)" -eq 3 ] || bad "a record without its newline was lost or glued: $(wc -l <nonl.jsonl) lines"
"$bin" history nonl.jsonl >/dev/null 2>err || bad "history refuses the repaired file: $(cat err)"

# 3. A cut last line (no journal): refused untouched; --repair removes just it.
head -c -30 h.jsonl >cut.jsonl
cp cut.jsonl cut.orig
expect_untouched 3 cut.jsonl cut.orig -- "$bin" functions --commit c1 --history cut.jsonl "$trace"
grep -q -- "--repair" err || bad "the refusal does not name --repair: $(cat err)"
expect_untouched 3 cut.jsonl cut.orig -- "$bin" summarize --append -o cut.jsonl "$trace"
"$bin" functions --commit c1 --history cut.jsonl --repair "$trace" >/dev/null 2>err || bad "--repair failed: $(cat err)"
[ "$(wc -l <cut.jsonl)" -eq 2 ] || bad "--repair: $(wc -l <cut.jsonl) lines, not 2"
head -n 1 h.jsonl >first.want
head -n 1 cut.jsonl >first.got
cmp -s first.want first.got || bad "--repair changed the whole lines"
"$bin" functions --repair "$trace" >/dev/null 2>&1
[ $? -eq 2 ] || bad "--repair without --history is not a usage error"

# 4. An append a killed process left (its journal noting the length before): rolled back.
cp h.jsonl k.jsonl
len=$(wc -c <k.jsonl)
printf '{"xplane_stat_summary":1,"cut by a kil' >>k.jsonl
echo "xplane-stat append journal $(stat -c '%d %i' k.jsonl) $len" >k.jsonl-journal
"$bin" functions --commit c1 --history k.jsonl "$trace" >/dev/null 2>err || bad "recovery failed: $(cat err)"
grep -q "rolled back" err || bad "the rollback is not reported: $(cat err)"
[ ! -e k.jsonl-journal ] || bad "the journal was left"
[ "$(wc -l <k.jsonl)" -eq 3 ] || bad "after the rollback: $(wc -l <k.jsonl) lines, not 3"
head -c "$len" k.jsonl | cmp -s - h.jsonl || bad "the rollback changed what was there before"
"$bin" history k.jsonl >/dev/null 2>err || bad "history refuses the recovered file: $(cat err)"
# a journal of a file since replaced is removed, the file kept
cp h.jsonl r.jsonl
echo "xplane-stat append journal 1 1 5" >r.jsonl-journal
"$bin" summarize --append -o r.jsonl "$trace" 2>err || bad "a stale journal blocked the append: $(cat err)"
[ "$(wc -l <r.jsonl)" -eq 3 ] || bad "a stale journal changed the file"

# 5. SIGKILL at any point of many appends: after the next append every line is whole.
i=0
while [ $i -lt 3 ]; do
	set -- "$trace"
	j=0
	while [ $j -lt 200 ]; do set -- "$@" "$trace"; j=$((j + 1)); done
	"$bin" summarize -j 1 --append -o killed.jsonl "$@" 2>/dev/null &
	pid=$!
	sleep "0.$((i * 2))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	i=$((i + 1))
done
"$bin" summarize --append -o killed.jsonl "$trace" 2>err || bad "append after kills: $(cat err)"
"$bin" merge --check killed.jsonl >/dev/null 2>err || bad "after kills the file is not whole: $(cat err)"

# 6. Sixteen appenders at once: every record there, each line whole.
: >many.jsonl
k=0
while [ $k -lt 16 ]; do
	"$bin" summarize --append -o many.jsonl "$trace" "$trace" 2>/dev/null &
	k=$((k + 1))
done
wait
[ "$(wc -l <many.jsonl)" -eq 32 ] || bad "16 concurrent appenders left $(wc -l <many.jsonl) lines, not 32"
"$bin" merge --check many.jsonl >/dev/null 2>err || bad "concurrent appends: $(cat err)"

# 7. Through a symbolic link the journal is the real file's: an append cut through the real
# name is rolled back when the next comes through the link.
cp h.jsonl real.jsonl
ln -s real.jsonl link.jsonl
len=$(wc -c <real.jsonl)
printf '{"xplane_stat_summary":1,"cut' >>real.jsonl
echo "xplane-stat append journal $(stat -c '%d %i' real.jsonl) $len $((len + 400))" >real.jsonl-journal
"$bin" summarize --append -o link.jsonl "$trace" 2>err || bad "append through a link: $(cat err)"
grep -q "rolled back" err || bad "through a link the real file's journal was not found: $(cat err)"
[ ! -e real.jsonl-journal ] && [ ! -e link.jsonl-journal ] || bad "a journal was left after the link's append"
"$bin" merge --check real.jsonl >/dev/null 2>err || bad "after the link's append: $(cat err)"

# 8. A journal whose append could not have reached the file's length (lines came after it,
# through another name): nothing is cut, nothing appended, the journal stays.
cp h.jsonl grown.jsonl
len=$(wc -c <grown.jsonl)
echo "xplane-stat append journal $(stat -c '%d %i' grown.jsonl) 10 20" >grown.jsonl-journal
cp grown.jsonl grown.orig
"$bin" summarize --append -o grown.jsonl "$trace" >/dev/null 2>err
[ $? -eq 3 ] || bad "a journal ending short of the file did not refuse with 3: $(cat err)"
cmp -s grown.jsonl grown.orig || bad "a journal ending short of the file cut it"
[ -e grown.jsonl-journal ] || bad "the journal of a refused roll-back was removed"
grep -q "from byte 10" err || bad "the refusal does not say where to look: $(cat err)"

# 9. A file the append made is not left empty when nothing could be appended.
mkdir new.jsonl-journal
"$bin" summarize --append -o new.jsonl "$trace" >/dev/null 2>err
[ $? -ne 0 ] || bad "an append whose journal cannot be written exited 0"
[ ! -e new.jsonl ] || bad "a failed append left the file it made: $(ls -l new.jsonl)"

# 10. A journal holds the bytes its append writes: a cut prefix of them is rolled back; other bytes
# (an append through another name of the file, within the noted end) are never cut.
cp h.jsonl own.jsonl
len=$(wc -c <own.jsonl)
line='{"xplane_stat_summary":1,"the line the interrupted append meant to write"}'
{ echo "xplane-stat append journal $(stat -c '%d %i' own.jsonl) $len $((len + ${#line} + 1))"; echo "$line"; } >own.jsonl-journal
printf '%s' "$line" | head -c 20 >>own.jsonl
"$bin" summarize --append -o own.jsonl "$trace" 2>err || bad "a cut prefix of the journal's bytes: $(cat err)"
grep -q "rolled back" err || bad "a cut prefix of the journal's bytes was not rolled back: $(cat err)"
"$bin" merge --check own.jsonl >/dev/null 2>err || bad "after rolling back the journal's prefix: $(cat err)"
cp h.jsonl other.jsonl
len=$(wc -c <other.jsonl)
{ echo "xplane-stat append journal $(stat -c '%d %i' other.jsonl) $len $((len + ${#line} + 1))"; echo "$line"; } >other.jsonl-journal
printf '{"another appender wrote this"}\n' >>other.jsonl
cp other.jsonl other.orig
"$bin" summarize --append -o other.jsonl "$trace" >/dev/null 2>err
[ $? -eq 3 ] || bad "bytes not the journal's: not refused with 3: $(cat err)"
cmp -s other.jsonl other.orig || bad "bytes another appender wrote were cut"
grep -q "not those its journal" err || bad "the refusal does not say why: $(cat err)"

# 11. Past the file size limit (ulimit -f): exit 1, the file as it was, no journal; not killed by SIGXFSZ.
cp h.jsonl fsz.jsonl
cp fsz.jsonl fsz.orig
blocks=$(( ($(wc -c <fsz.jsonl) + 1023) / 1024 ))
(ulimit -f "$blocks"; exec "$bin" summarize --append -o fsz.jsonl "$trace") >/dev/null 2>err
rc=$?
[ $rc -eq 1 ] || bad "past the file size limit: exit $rc, not 1: $(cat err)"
cmp -s fsz.jsonl fsz.orig || bad "past the file size limit the file changed"
[ ! -e fsz.jsonl-journal ] || bad "past the file size limit a journal was left"

# 12. A symbolic link to a file yet to be made: made through the link, the link kept.
ln -s made.jsonl dangling.jsonl
"$bin" summarize --append -o dangling.jsonl "$trace" 2>err || bad "append through a dangling link: $(cat err)"
[ -L dangling.jsonl ] && [ "$(wc -l <made.jsonl)" -eq 1 ] || bad "the dangling link's target was not made with one line"

[ $fail -eq 0 ] && echo "append protocol: all checks passed"
exit $fail
