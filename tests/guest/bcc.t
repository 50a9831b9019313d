#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BCC (issue 12 item 8): Debian's bpfcc-tools 0.26, whose tools compile their C
# programs with the clang in libbcc when they start (against the kernel headers
# the image has in /usr/src/linux-bpfrr) and load them with BCC's own loading
# code, not libbpf's. Three tools, one per way BCC attaches:
#   opensnoop-bpfcc -d 5            fexit programs (BPF_RAW_TRACEPOINT_OPEN) on
#                                   open, openat and openat2, a perf buffer;
#   funccount-bpfcc -d 5 vfs_read   a kprobe (perf_event_open of the kprobe PMU,
#                                   PERF_EVENT_IOC_SET_BPF);
#   syscount-bpfcc -d 5             a tracepoint (raw_syscalls/sys_exit).
# For each:
#   bare         it runs 5 s and prints what a user looks for (opensnoop: the
#                opens of a marker file made here; funccount: vfs_read's count;
#                syscount: the count of some system call);
#   record       the same under bpfrr record: the trace is complete, the tool
#                still prints it;
#   translate    the trace translates;
#   replay       bpfrr replay --verify finds no mismatch, and while the replay
#                holds its objects every replayed program runs when its event
#                happens (python's ctypes makes the open and openat2 calls that
#                libc and busybox do not);
# and nothing is left afterwards.
# It prints the times a user waits (the compile is most of them: TCG is slow)
# and each tool's peak resident memory. BCC needs python3, LLVM, clang and the
# headers: it is only in the larger guest image (tests/guest/run-on --image bcc,
# make check-bcc); without it this test skips.
. "$(dirname "$0")/translate-lib.sh"

command -v opensnoop-bpfcc >/dev/null || { echo "BCC is not in this image (run-on --image bcc)"; exit 77; }

uptime_s() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
marker=/tmp/bcc-marker-$$
: >"$marker"

# The opens a run must see: open(2), openat(2) and openat2(2) of the marker.
# libc and busybox use openat only; python's ctypes makes the other two.
cat >opens.py <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
path = sys.argv[1].encode()
if os.uname().machine == "x86_64":
    fd = libc.syscall(2, path, os.O_RDONLY)          # open
    if fd >= 0: os.close(fd)
how = (ctypes.c_uint64 * 3)(os.O_RDONLY, 0, 0)      # struct open_how
fd = libc.syscall(437, -100, path, ctypes.byref(how), ctypes.sizeof(how))  # openat2, AT_FDCWD
if fd >= 0: os.close(fd)
PY

# watch PID OUT: while PID runs, open the marker every 0.2 s, note when OUT
# first has a line (watch_first, uptime) and PID's peak RSS (watch_rss, kB);
# then its exit status (watch_rc)
watch() {
	watch_first= watch_rss=0
	while kill -0 "$1" 2>/dev/null; do
		h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		[ -z "$h" ] || watch_rss=$h
		[ -n "$watch_first" ] || [ ! -s "$2" ] || watch_first=$(uptime_s)
		cat "$marker" >/dev/null
		sleep 0.2
	done
	wait "$1"
	watch_rc=$?
}

# bcc_tool NAME PATTERN CMD...: CMD alone and under bpfrr record must exit 0 and
# print a line matching PATTERN (grep -E); then translate, replay --verify with
# held.sh, and every replayed program must have run
bcc_tool() {
	n=$1 pattern=$2
	shift 2
	t0=$(uptime_s)
	"$@" >"$n.bare" 2>"$n.bare.err" &
	watch $! "$n.bare"
	t1=$(uptime_s)
	if [ "$watch_rc" = 0 ] && grep -Eq "$pattern" "$n.bare"; then
		pass "$n: bare: loaded and printed what it traced ($(grep -Ec "$pattern" "$n.bare") line(s) like '$(grep -E -m 1 "$pattern" "$n.bare" | tr -s ' ')')"
	else
		fail "$n: bare: exited $watch_rc; stdout: $(head -n 3 "$n.bare"); stderr: $(grep -v warning "$n.bare.err" | grep -i -m 3 'error\|exception\|Traceback')"
	fi
	echo "# $n: bare: first output $(elapsed "$t0" "${watch_first:-$t1}") s after start, exit after $(elapsed "$t0" "$t1") s (5 s of tracing), peak RSS $((watch_rss / 1024)) MB"

	t0=$(uptime_s)
	"$BPFRR" record -o "$n.trace" -- "$@" >"$n.rec" 2>"$n.rec.err" &
	watch $! "$n.rec"
	t1=$(uptime_s)
	"$TRACECAT" "$n.trace" >"$n.trace.txt" 2>"$n.trace.err" ||
		fail "$n: $n.trace does not read as a complete trace: $(cat "$n.trace.err")"
	if [ "$watch_rc" = 0 ] && grep -Eq "$pattern" "$n.rec"; then
		pass "$n: record: the tool under bpfrr record printed what it traced; trace $(wc -c <"$n.trace") bytes"
	else
		fail "$n: record: bpfrr record exited $watch_rc; stdout: $(head -n 3 "$n.rec"); stderr: $(grep -v warning "$n.rec.err" | grep -i -m 3 'error\|exception\|Traceback\|bpfrr')"
		return 1
	fi
	echo "# $n: record: first output $(elapsed "$t0" "${watch_first:-$t1}") s after start, exit after $(elapsed "$t0" "$t1") s"
	[ -z "${BPFRR_TEST_OUT:-}" ] || [ ! -d "$BPFRR_TEST_OUT" ] || cp "$n.trace" "$BPFRR_TEST_OUT/$n.trace"
	"$BPFRR" dump "$n.trace" >"$n.dump" 2>"$n.dump.err" || fail "$n: bpfrr dump failed: $(cat "$n.dump.err")"
	echo "# $n: dump: $(wc -l <"$n.dump") lines; the BPF calls: $(sed -n 's/^#[0-9][0-9]* \[[0-9]*\] \(BPF_[A-Z_]*\|perf_event_open\)[ (].*/\1/p' "$n.dump" |
		sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')"

	t0=$(uptime_s)
	if ! "$BPFRR" translate --explain -o "$n.bundle" "$n.trace" >"$n.explain" 2>"$n.terr"; then
		fail "$n: translate: $(cat "$n.terr")"
		return 1
	fi
	pass "$n: translate ($(elapsed "$t0" "$(uptime_s)") s): $(tail -n 1 "$n.explain")"

	t0=$(uptime_s)
	replay_verified "$n" sh held.sh "$n" || return 1
	echo "# $n: replay: $(elapsed "$t0" "$(uptime_s)") s with the checks; $(grep '^replay: times' "$n.replay")"
	progs=$(awk '$2 ~ /^prog\./ && $3 == "tag"' "$n.replay" | wc -l)
	names=$(awk '$2 ~ /^prog\./ && $3 == "tag" { printf "%s%s", s, $2; s = " " }' "$n.replay")
	if [ "$progs" -gt 0 ] && [ "$(wc -l <"$n.runcnt")" = "$progs" ] &&
	   awk '$2 == 0 { z++ } END { exit z > 0 }' "$n.runcnt"; then
		pass "$n: replay: all $progs replayed programs ran ($names; id run_cnt: $(tr '\n' ' ' <"$n.runcnt"))"
	else
		fail "$n: replay: $progs replayed programs ($names), run counts: $(tr '\n' ' ' <"$n.runcnt" 2>/dev/null)"
	fi
	# BCC attaches kprobes and tracepoints with PERF_EVENT_IOC_SET_BPF, an ioctl
	# syscall programs cannot make: that one call stays in user space
	user_steps_on_patched "$n" "$(grep -c 'ioctl(PERF_EVENT_IOC_SET_BPF) *kept' "$n.explain")"
}

# held.sh NAME (run by `bpfrr replay --verify NAME.bundle -- sh held.sh NAME`, the
# replay holding its objects): the replayed programs are found by the tags of
# the verify table's program rows (the tools exited: only the replay's have
# them); the events are made (opens and reads of the marker, system calls) and
# each program's run_cnt read (BPF stats on) into NAME.runcnt, "ID RUN_CNT" lines
cat >held.sh <<HELD
n=\$1
echo 1 >/proc/sys/kernel/bpf_stats_enabled
for tag in \$(awk '\$2 ~ /^prog\\./ && \$3 == "tag" { print \$4 }' "\$n.replay"); do
	bpftool prog show | awk -v tag="\$tag" '\$0 ~ " tag " tag "( |\$)" { sub(/:.*/, "", \$1); print \$1 }'
done | sort -u >"\$n.ids"
tries=0
while [ \$tries -lt 10 ]; do
	cat "$marker" >/dev/null
	python3 opens.py "$marker"
	for id in \$(cat "\$n.ids"); do "$ROOT/tests/guest/translate-runcnt" "\$id"; done >"\$n.runcnt"
	awk '\$2 == 0 { z++ } END { exit z > 0 }' "\$n.runcnt" && break
	tries=\$((tries + 1))
	sleep 0.3
done
echo 0 >/proc/sys/kernel/bpf_stats_enabled
HELD

take_max
echo "# guest up $(uptime_s) s after boot; $(free -m | awk '/^Mem:/ { print $2 }') MB of memory"
# opensnoop's header is not necessarily its first line: python buffers print()
# to a file, while BCC's printb flushes each event
bcc_tool opensnoop "[[:space:]]$marker\$" opensnoop-bpfcc -d 5
bcc_tool funccount '^vfs_read +[1-9][0-9]*$' funccount-bpfcc -d 5 vfs_read
bcc_tool syscount '^[a-z_0-9]+ +[1-9][0-9]*$' syscount-bpfcc -d 5
check_nothing_left bcc
rm -f "$marker"
finish
