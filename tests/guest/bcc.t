#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BCC (issue 12 item 8): Debian's opensnoop-bpfcc 0.26, which compiles its C
# program with the clang in libbcc when it starts (against the kernel headers
# the image has in /usr/src/linux-bpfrr) and loads it with BCC's own loading
# code, not libbpf's:
#   bare         it runs 5 s and prints the opens of a marker file made here;
#   record       the same under bpfrr record: the trace is complete, the tool
#                still prints the marker;
#   translate    the trace translates;
#   replay       bpfrr replay --verify finds no mismatch, and while the replay
#                holds its objects every replayed program runs when its event
#                happens (opensnoop attaches fexit programs to open, openat and
#                openat2; python's ctypes makes the open and openat2 calls);
#   leaks        nothing is left afterwards.
# It prints the times a user waits (the compile is most of them: TCG is slow)
# and the tool's peak resident memory. BCC needs python3, LLVM, clang and the
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

# saw_marker OUT: OUT has an opensnoop line for the marker
saw_marker() { grep -q "[[:space:]]$marker\$" "$1"; }

take_max
echo "# guest up $(uptime_s) s after boot; $(free -m | awk '/^Mem:/ { print $2 }') MB of memory"

# bare: opensnoop-bpfcc on its own (its header is not necessarily its first line:
# python buffers print() to a file, while BCC's printb flushes each event)
t0=$(uptime_s)
opensnoop-bpfcc -d 5 >bare.out 2>bare.err &
watch $! bare.out
t1=$(uptime_s)
if [ "$watch_rc" = 0 ] && grep -q 'PID  *COMM  *FD  *ERR  *PATH' bare.out && saw_marker bare.out; then
	pass "bare: opensnoop-bpfcc loaded and saw the marker's opens ($(grep -c "$marker" bare.out) lines)"
else
	fail "bare: opensnoop-bpfcc exited $watch_rc; stdout: $(head -n 3 bare.out); stderr: $(grep -v warning bare.err | grep -i -m 3 'error\|exception\|Traceback')"
fi
echo "# bare: first line $(elapsed "$t0" "${watch_first:-$t1}") s after start (compile and load), exit after $(elapsed "$t0" "$t1") s (-d 5), peak RSS $((watch_rss / 1024)) MB"

# record
t0=$(uptime_s)
"$BPFRR" record -o oc.trace -- opensnoop-bpfcc -d 5 >rec.out 2>rec.out.err &
watch $! rec.out
t1=$(uptime_s)
"$TRACECAT" oc.trace >oc.trace.txt 2>oc.trace.err || fail "oc.trace does not read as a complete trace: $(cat oc.trace.err)"
if [ "$watch_rc" = 0 ] && saw_marker rec.out; then
	pass "record: opensnoop-bpfcc under bpfrr record saw the marker's opens; trace $(wc -c <oc.trace) bytes"
else
	fail "record: bpfrr record exited $watch_rc; stdout: $(head -n 3 rec.out); stderr: $(grep -v warning rec.out.err | grep -i -m 3 'error\|exception\|Traceback\|bpfrr')"
	finish
fi
echo "# record: first line $(elapsed "$t0" "${watch_first:-$t1}") s after start, exit after $(elapsed "$t0" "$t1") s"
[ -z "${BPFRR_TEST_OUT:-}" ] || [ ! -d "$BPFRR_TEST_OUT" ] || cp oc.trace "$BPFRR_TEST_OUT/opensnoop-bpfcc.trace"
"$BPFRR" dump oc.trace >oc.dump 2>oc.dump.err || fail "bpfrr dump failed: $(cat oc.dump.err)"
echo "# dump: $(wc -l <oc.dump) lines; the BPF calls: $(sed -n 's/^#[0-9][0-9]* \[[0-9]*\] \(BPF_[A-Z_]*\|perf_event_open\)[ (].*/\1/p' oc.dump |
	sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')"

# translate
t0=$(uptime_s)
if ! "$BPFRR" translate --explain -o oc.bundle oc.trace >oc.explain 2>oc.terr; then
	fail "translate: $(cat oc.terr)"
	finish
fi
pass "translate ($(elapsed "$t0" "$(uptime_s)") s): $(tail -n 1 oc.explain)"

# replay: held.sh runs while the replay holds its objects; the replayed
# programs are found by the tags of the verify table's program rows (the
# original exited: only the replay's have them)
cat >held.sh <<HELD
echo 1 >/proc/sys/kernel/bpf_stats_enabled
for tag in \$(awk '\$2 ~ /^prog\\./ && \$3 == "tag" { print \$4 }' oc.replay); do
	bpftool prog show | awk -v tag="\$tag" '\$0 ~ " tag " tag "( |\$)" { sub(/:.*/, "", \$1); print \$1 }'
done | sort -u >oc.ids
tries=0
while [ \$tries -lt 10 ]; do
	cat "$marker" >/dev/null
	python3 opens.py "$marker"
	for id in \$(cat oc.ids); do "$ROOT/tests/guest/translate-runcnt" "\$id"; done >oc.runcnt
	awk '\$2 == 0 { z++ } END { exit z > 0 }' oc.runcnt && break
	tries=\$((tries + 1))
	sleep 0.3
done
echo 0 >/proc/sys/kernel/bpf_stats_enabled
HELD
t0=$(uptime_s)
if replay_verified oc sh held.sh; then
	echo "# replay: $(elapsed "$t0" "$(uptime_s)") s with the checks; $(grep '^replay: times' oc.replay)"
	progs=$(awk '$2 ~ /^prog\./ && $3 == "tag"' oc.replay | wc -l)
	names=$(awk '$2 ~ /^prog\./ && $3 == "tag" { printf "%s%s", s, $2; s = " " }' oc.replay)
	if [ "$progs" -gt 0 ] && [ "$(wc -l <oc.runcnt)" = "$progs" ] &&
	   awk '$2 == 0 { z++ } END { exit z > 0 }' oc.runcnt; then
		pass "replay: all $progs replayed programs ran ($names; id run_cnt: $(tr '\n' ' ' <oc.runcnt))"
	else
		fail "replay: $progs replayed programs ($names), run counts: $(tr '\n' ' ' <oc.runcnt 2>/dev/null)"
	fi
	user_steps_on_patched oc 0
fi
check_nothing_left opensnoop-bpfcc
rm -f "$marker"
finish
