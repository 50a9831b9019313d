#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpftrace (issue 12 item 3): Debian's bpftrace 0.17 one-liners, each
# recorded (it loads, attaches, prints its maps at exit), translated after it
# exited, replayed with --verify, and while the replay holds its objects every
# replayed program must run when its event happens (held.sh below):
#   tracepoint   tracepoint:syscalls:sys_enter_openat, a map by comm;
#   kprobe       kprobe and kretprobe on do_sys_openat2, a histogram;
#   uprobe       uprobe on libc's getpid (bash calls it), a count;
#   interval     every one-liner ends with interval:ms:300 { exit(); }: a
#                perf_event_open of a software clock event, whose program runs
#                on its own.
# bpftrace links LLVM and clang: it is only in the larger guest image
# (tests/guest/run-on --image bpftrace, make check-bpftrace); without it this
# test skips.
. "$(dirname "$0")/translate-lib.sh"

command -v bpftrace >/dev/null || { echo "bpftrace is not in this image (run-on --image bpftrace)"; exit 77; }
libc=$(ls /lib/*-linux-gnu/libc.so.6 2>/dev/null | head -n 1)
[ -n "$libc" ] || { echo "no libc.so.6 in /lib/*-linux-gnu"; exit 1; }

# held.sh NAME (run by `bpfrr replay --verify NAME.bundle -- sh held.sh NAME`, the
# replay holding its objects): bpftrace attaches through perf events
# (perf_event_open, then PERF_EVENT_IOC_SET_BPF), not links, so the replayed
# programs are found by the tags of the verify table's program rows (the original
# exited: only the replay's have them); the events are made (an openat, bash
# calling getpid, 300 ms for the interval) and each program's run_cnt read (BPF
# stats on) into NAME.runcnt, "ID RUN_CNT" lines.
cat >held.sh <<'HELD'
n=$1
echo 1 >/proc/sys/kernel/bpf_stats_enabled
for tag in $(awk '$2 ~ /^prog\./ && $3 == "tag" { print $4 }' "$n.replay"); do
	bpftool prog show | awk -v tag="$tag" '$0 ~ " tag " tag "( |$)" { sub(/:.*/, "", $1); print $1 }'
done | sort -u >"$n.ids"
tries=0
while [ $tries -lt 10 ]; do
	cat /proc/self/stat >/dev/null
	bash -c 'echo $$ >/dev/null'
	sleep 0.3
	for id in $(cat "$n.ids"); do /opt/bpfrr/tests/guest/translate-runcnt "$id"; done >"$n.runcnt"
	awk '$2 == 0 { z++ } END { exit z > 0 }' "$n.runcnt" && break
	tries=$((tries + 1))
done
echo 0 >/proc/sys/kernel/bpf_stats_enabled
HELD

# bt NAME PROGRAM: record `bpftrace -e PROGRAM` (it ends itself after 300 ms),
# translate, replay with --verify holding the objects, check every program ran
bt() {
	n=$1
	record_cmd "$n.trace" "$n.rec.out" bpftrace -e "$2"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$n: bpfrr record exited $rc"
		show "$n.rec.out"
		return
	fi
	[ -z "${BPFRR_TEST_OUT:-}" ] || [ ! -d "$BPFRR_TEST_OUT" ] || cp "$n.trace" "$BPFRR_TEST_OUT/bpftrace-$n.trace"
	grep -q '^Attaching [0-9]* probes' "$n.rec.out" || fail "$n: bpftrace did not say it attached: $(head -n 3 "$n.rec.out")"
	grep -q '^@' "$n.rec.out" && pass "$n: recorded; bpftrace printed its maps at exit ($(grep -c '^@' "$n.rec.out") line(s))" ||
		fail "$n: bpftrace printed no map at exit: $(cat "$n.rec.out")"
	if ! "$BPFRR" translate --explain -o "$n.bundle" "$n.trace" >"$n.explain" 2>"$n.terr"; then
		fail "$n: bpfrr translate failed: $(cat "$n.terr")"
		return
	fi
	replay_verified "$n" sh held.sh "$n" || return
	progs=$(awk '$2 ~ /^prog\./ && $3 == "tag"' "$n.replay" | wc -l)
	if [ "$progs" -gt 0 ] && [ "$(wc -l <"$n.runcnt")" = "$progs" ] &&
	   awk '$2 == 0 { z++ } END { exit z > 0 }' "$n.runcnt"; then
		pass "$n: all $progs replayed programs ran (id run_cnt: $(tr '\n' ' ' <"$n.runcnt"))"
	else
		fail "$n: $progs replayed programs, run counts: $(tr '\n' ' ' <"$n.runcnt" 2>/dev/null)"
	fi
}

take_max
bt tracepoint 'tracepoint:syscalls:sys_enter_openat { @opens[comm] = count(); } interval:ms:300 { exit(); }'
bt kprobe 'kprobe:do_sys_openat2 { @start[tid] = nsecs; } kretprobe:do_sys_openat2 /@start[tid]/ { @ns = hist(nsecs - @start[tid]); delete(@start[tid]); } interval:ms:300 { exit(); }'
bt uprobe "uprobe:$libc:getpid { @calls = count(); } interval:ms:300 { exit(); }"
check_nothing_left bpftrace
finish
