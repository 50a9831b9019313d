#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/guest/translate-held.sh NAME REPLAY_OUT [LOADER_OUT [MIN_RAN]]: run by
# `bpfrr replay --verify BUNDLE -- sh translate-held.sh ...` while the
# replayed objects are held (the replay's report and verify table are
# already in REPLAY_OUT).  Checks that
#  - every program tag the original loader reported (LOADER_OUT's "prog ...
#    tag=T" lines, from its own BPF_OBJ_GET_INFO_BY_FD) is the tag of a
#    program the kernel has now (the original exited: these are the replay's);
#  - every replayed link's program runs when its events happen (BPF stats on;
#    openat, getpid, getppid and execve calls and block I/O on a loop device
#    made here), or at least MIN_RAN of them
#    when some events cannot be made from a shell (open(2): libc uses openat);
#    MIN_RAN "none": the load has no links.
# Prints "held: ..." lines; exits non-zero on a failed check.
name=$1 replay=$2 out=$3 min_ran=${4:-all}
root=${BPFRR_ROOT:-/opt/bpfrr}
bad=0

now_tags=$(bpftool prog show 2>/dev/null | sed -n 's/.* tag \([0-9a-f]*\).*/\1/p')
if [ -n "$out" ]; then
	for t in $(sed -n 's/^prog .* tag=\([0-9a-f]*\).*/\1/p' "$out"); do
		echo "$now_tags" | grep -qx "$t" || { echo "held: FAIL: tag $t of the original is not loaded"; bad=1; }
	done
	echo "held: the original's $(grep -c '^prog ' "$out") program tags are loaded"
fi

# the programs the replayed links run (the verify table's "prog" rows: "slot N: id M")
ids=$(awk '$3 == "prog" && $4 == "slot" && $6 == "id" { print $7 }' "$replay")
# run counts from the kernel's bpf_prog_info (bpftool hides run_cnt while
# run_time_ns is 0, which a guest's coarse clock leaves so for short programs)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
# block I/O (biolatency): reads of a loop device over a file, each try an uncached range
loopfile=/tmp/translate-held.loop loopdev=
if [ -n "$ids" ] && dd if=/dev/zero of="$loopfile" bs=4096 count=256 2>/dev/null; then
	for d in /dev/loop0 /dev/loop1 /dev/loop2 /dev/loop3; do
		losetup "$d" "$loopfile" 2>/dev/null && { loopdev=$d; break; }
	done
fi
ran=0 pending=$ids tries=0
while [ -n "$pending" ] && [ $tries -lt 20 ]; do
	cat /proc/self/stat >/dev/null			# openat, do_filp_open, sys_enter
	sh -c 'echo $$' >/dev/null			# getpid, execve
	"$root/tests/host/syscall_loop" 10		# getppid
	[ -z "$loopdev" ] || dd if="$loopdev" of=/dev/null bs=4096 count=4 skip=$((tries * 8)) 2>/dev/null
	left=
	for id in $pending; do
		cnt=$("$root/tests/guest/translate-runcnt" "$id" | awk '{ print $2 }')
		if [ -n "$cnt" ] && [ "$cnt" -gt 0 ]; then
			ran=$((ran + 1))
		else
			left="$left $id"
		fi
	done
	pending=$left
	tries=$((tries + 1))
	[ -z "$pending" ] || sleep 0.1 2>/dev/null || sleep 1
done
for id in $pending; do
	echo "held: linked program id $id did not run"
done
echo 0 >/proc/sys/kernel/bpf_stats_enabled
[ -z "$loopdev" ] || losetup -d "$loopdev"
rm -f "$loopfile"
nr=$(echo $ids | wc -w)
[ "$min_ran" = all ] && min_ran=$nr
if [ "$min_ran" = none ]; then
	[ "$nr" -eq 0 ] || { echo "held: FAIL: $nr linked programs, none expected"; bad=1; }
	echo "held: no links, as recorded"
	exit $bad
fi
[ "$nr" -gt 0 ] || { echo "held: FAIL: no linked programs in the verify table"; bad=1; }
[ "$ran" -ge "$min_ran" ] || { echo "held: FAIL: $ran of $nr linked programs ran, $min_ran expected"; bad=1; }
echo "held: $ran of $nr linked programs ran"
exit $bad
