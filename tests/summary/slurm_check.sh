#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Slurm recipe (tools/cluster/slurm.sh) run for real on a one-node
# cluster (munged, slurmctld, slurmd) started in a temporary folder: its
# merged summary must be byte for byte the single-machine `summarize DIR` put
# through merge, and autotune, functions and diff on it must answer exactly
# as on the directory (a session of 2 hosts and autotune rounds, one of them
# gzipped). The cluster runs in private network, PID and mount namespaces:
# only a loopback exists there, so nothing it serves is reachable from
# outside, and whatever it leaves running dies with the namespace. Skipped
# (77) without Slurm and munge, as non-root, or where they cannot start.
#   tests/summary/slurm_check.sh BIN SYNTH_DIR
skip() { echo "skipped: $*"; exit 77; }
if [ -z "${XPS_SLURM_NS:-}" ]; then
	for c in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scancel unshare ip; do
		command -v "$c" >/dev/null 2>&1 || skip "$c not found (Debian: slurm-wlm munge)"
	done
	[ "$(id -u)" -eq 0 ] || skip "needs root (a private network namespace, slurmd)"
	ns="unshare --net --pid --fork --mount-proc --kill-child"
	$ns true 2>/dev/null || skip "cannot make private namespaces (unshare --net --pid)"
	XPS_SLURM_NS=1 exec $ns sh "$0" "$@"
fi
# From here on: PID 1 of the new namespaces.
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/check_setup.sh"
# Slurm resolves its listening address with AI_ADDRCONFIG, which glibc answers
# only where an IPv4 address other than 127.0.0.1 exists: give lo a second one.
{ ip link set lo up && ip addr add 127.0.0.2/8 dev lo; } || skip "cannot set up the loopback of the namespace"
[ "$(ip -o link show | grep -vc ': lo:')" -eq 0 ] || { echo "the namespace has links other than lo"; exit 1; }
# The jobs run in $tmp, so the binary's path must not be relative.
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
st=$tmp/cluster
mkdir -p "$st/munge" "$st/state" "$st/spool" "$st/log"
# munged wants its socket's directories searchable by all, its key private.
chmod 711 "$tmp" "$st" "$st/munge"
munge_pid='' ctld_pid='' slurmd_pid=''

# Ends a daemon this test started: TERM, then KILL after 10 s; reaped by wait.
# A zombie counts as gone (this shell, PID 1, reaps it with the wait).
gone() { ! [ -e "/proc/$1" ] || grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
stop() {
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null
	i=0
	while ! gone "$1" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	gone "$1" || kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
cleanup() {
	[ -n "$ctld_pid" ] && ! gone "$ctld_pid" && scancel --quiet --user=root 2>/dev/null
	stop "$slurmd_pid"
	stop "$ctld_pid"
	stop "$munge_pid"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
tails() {
	for f in "$st"/log/* "$tmp"/slurm-*.out "$tmp/submit.out"; do
		[ -f "$f" ] && { echo "--- ${f#"$tmp"/}"; tail -n 15 "$f"; }
	done
}

# munged with its own key, socket, pid, log and seed files.
dd if=/dev/urandom of="$st/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$st/munge/munge.key"
sock=$st/munge/munge.socket
munged -F --key-file="$st/munge/munge.key" --socket="$sock" --pid-file="$st/munge/munged.pid" \
	--log-file="$st/log/munged.log" --seed-file="$st/munge/munged.seed" >"$st/log/munged.out" 2>&1 &
munge_pid=$!
end=$(($(date +%s) + 10))
until munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1; do
	{ gone "$munge_pid" || [ "$(date +%s)" -ge $end ]; } && { tails; skip "munged did not start"; }
	sleep 0.1
done

# One node on 127.0.0.1. The daemons listen on every address of the
# namespace, all of them loopback ones, where nothing else listens: the
# default ports are free. Everything Slurm writes lies under $st.
export SLURM_CONF="$st/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=xps
SlurmctldHost=$(uname -n | cut -d. -f1)(127.0.0.1)
SlurmctldPort=6817
SlurmdPort=6818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$st/state
SlurmdSpoolDir=$st/spool
SlurmctldPidFile=$st/slurmctld.pid
SlurmdPidFile=$st/slurmd.pid
SlurmctldLogFile=$st/log/slurmctld.log
SlurmdLogFile=$st/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MailProg=/bin/true
NodeName=xps-node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=xps Nodes=xps-node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$st/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -N xps-node -f "$SLURM_CONF" >"$st/log/slurmd.out" 2>&1 &
slurmd_pid=$!
end=$(($(date +%s) + 30))
until [ "$(sinfo -h -n xps-node -o %T 2>/dev/null)" = idle ]; do
	{ gone "$ctld_pid" || gone "$slurmd_pid" || [ "$(date +%s)" -ge $end ]; } &&
		{ tails; skip "the Slurm daemons did not start"; }
	sleep 0.1
done

# A session of 2 hosts (4 runs) and 5 autotune rounds; one profile gzipped.
mkdir -p "$tmp/profiles/rounds"
cp -r "$synth/sessions/base" "$tmp/profiles/session"
cp "$synth"/autotune/*.xplane.pb "$tmp/profiles/rounds/"
gzip "$tmp/profiles/session/run_1/host-b.xplane.pb"
n=$(find "$tmp/profiles" -name '*.xplane.pb*' | wc -l)
(cd "$tmp" && XPLANE_STAT=$bin "$root/tools/cluster/slurm.sh" "$tmp/profiles" "$tmp/merged.jsonl") >"$tmp/submit.out" 2>&1 ||
	{ tails; echo "slurm.sh failed"; exit 1; }
# Both jobs are done when the queue is empty; a failed task leaves the merge
# pending for ever (DependencyNeverSatisfied), which ends the wait at once.
end=$(($(date +%s) + 90)) why=
while [ ! -f "$tmp/merged.jsonl" ] || [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
	if gone "$ctld_pid"; then why="slurmctld ended"
	elif squeue -h -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then why="a task of the array failed"
	elif [ "$(date +%s)" -ge $end ]; then why="not done in 90 s"
	fi
	[ -z "$why" ] || { squeue; tails; echo "the Slurm jobs did not finish: $why"; exit 1; }
	sleep 0.1
done
parts=$(find "$tmp/merged.jsonl.parts" -name '[0-9]*.jsonl' | wc -l)
[ "$parts" -eq "$n" ] || { echo "$parts summaries from the job array, not $n"; fail=1; }
"$bin" summarize "$tmp/profiles" -o "$tmp/one.jsonl" && "$bin" merge "$tmp/one.jsonl" -o "$tmp/want.jsonl" || exit 1
cmp -s "$tmp/want.jsonl" "$tmp/merged.jsonl" || { echo "the recipe's summary differs from the single-machine one"; fail=1; }
for c in "autotune --json" "functions --json" "autotune --json --all-devices" "diff --json" "diff --gate 5"; do
	case $c in diff*) cur=$synth/sessions/cur ;; *) cur= ;; esac
	# shellcheck disable=SC2086
	"$bin" $c "$tmp/profiles" $cur >"$tmp/a" 2>&1
	# shellcheck disable=SC2086
	"$bin" $c "$tmp/merged.jsonl" $cur >"$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" || { echo "$c: the merged summary answers otherwise than the directory"; diff "$tmp/a" "$tmp/b" | head; fail=1; }
done
grep -q 'base 9 runs of 13 profiles' "$tmp/b" || { echo "the merged summary is not 9 runs of 13 profiles"; fail=1; }
[ $fail -eq 0 ] && echo "ok: $n profiles as a Slurm job array and a merge (afterok) on a one-node cluster, equal to one machine's; autotune, functions, diff alike"
exit $fail
