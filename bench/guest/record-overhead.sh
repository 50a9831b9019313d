#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/guest/record-overhead.sh: the timed runs of bench/record-overhead
# (POSIX sh: busybox in the guest, where qemu/run gives it the bench's
# directory as /share; also on the host for the cases that make no bpf() call).
#
#   [BENCHTIME=PATH] [BPFRR=PATH] sh record-overhead.sh DIR
#
# DIR/cases holds one case a line, "NAME|KIND|MODES|CMD[|CLEANUP]": KIND is
# "exit" (time CMD to its end) or "ready" (benchtime --ready: to its first
# line, then ^C); CLEANUP, if given, is a shell command run untimed before
# every run (bpftool prog loadall pins, and a pin that exists fails the next);
# MODES is "MODE:REPS ..." with MODE one of
#   bare            CMD
#   record          bpfrr record -o TRACE -- CMD
#   strace          strace -f -e trace=bpf -o FILE CMD       (PTRACE_SYSCALL)
#   strace-seccomp  strace -f --seccomp-bpf -e trace=bpf -o FILE CMD
# Untimed warm-up runs first (under TCG the first run of any code pays for
# its translation): the first case in every mode (bpfrr's and strace's own
# code), each later case bare (its own binary). Then REPS runs of each mode,
# interleaved (bare, record, strace, bare, ...). Appends to DIR/times
# "NAME MODE REP total_us=T ready_us=R sigint=I status=S rc=RC"; keeps the
# last trace of each case as DIR/traces/NAME.trace and the stderr of a failed
# run as DIR/NAME.MODE.err.
dir=$1
bench=${BENCHTIME:-/opt/bpfrr/bench/benchtime}
bpfrr=${BPFRR:-/opt/bpfrr/bpfrr}
# traces and strace output go to a local directory: /share is 9p
work=${TMPDIR:-/tmp}/bench-record.$$
mkdir -p "$work" "$dir/traces" || exit 1
: >"$dir/times"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource >"$dir/clocksource" 2>/dev/null
uname -r >"$dir/guest-uname"

# run_mode NAME KIND MODE REP CMD...: one timed run; REP 0 is the warm-up.
# sh has no local variables: these are r_*, apart from the loop's.
run_mode() {
	r_name=$1 r_ready= r_mode=$3 r_rep=$4
	[ "$2" = ready ] && r_ready=--ready
	shift 4
	case $r_mode in
	bare) ;;
	record) set -- "$bpfrr" record -o "$work/$r_name.trace" -- "$@" ;;
	strace) set -- strace -f -e trace=bpf -o "$work/$r_name.strace" "$@" ;;
	strace-seccomp) set -- strace -f --seccomp-bpf -e trace=bpf -o "$work/$r_name.strace" "$@" ;;
	*) echo "record-overhead.sh: unknown mode $r_mode" >&2; return 1 ;;
	esac
	[ -z "$cleanup" ] || sh -c "$cleanup"
	r_line=$("$bench" $r_ready --limit 240 --err "$work/err" -- "$@")
	r_rc=$?
	[ "$r_rc" = 0 ] || cp "$work/err" "$dir/$r_name.$r_mode.err"
	[ "$r_rep" = 0 ] || echo "$r_name $r_mode $r_rep $r_line rc=$r_rc" >>"$dir/times"
}

warmed=
while IFS='|' read -r name kind modes cmd cleanup; do
	[ -n "$name" ] || continue
	echo "record-overhead: $name" >&2
	max=0
	for m in $modes; do
		[ -z "$warmed" ] || [ "${m%%:*}" = bare ] && run_mode "$name" "$kind" "${m%%:*}" 0 $cmd
		[ "${m##*:}" -gt "$max" ] && max=${m##*:}
	done
	warmed=1
	rep=1
	while [ "$rep" -le "$max" ]; do
		for m in $modes; do
			[ "${m##*:}" -ge "$rep" ] && run_mode "$name" "$kind" "${m%%:*}" "$rep" $cmd
		done
		rep=$((rep + 1))
	done
	[ -f "$work/$name.trace" ] && cp "$work/$name.trace" "$dir/traces/$name.trace"
	rm -f "$work/$name.trace" "$work/$name.strace"
	[ -z "$cleanup" ] || sh -c "$cleanup"
done <"$dir/cases"
rm -rf "$work"
echo "record-overhead: done" >&2
