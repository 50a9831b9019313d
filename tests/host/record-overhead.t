#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-overhead.t: system calls the seccomp filter lets through
# cost the recorder nothing (TAP). syscall_loop makes N getppid() calls; the
# number of tracee stops must not grow with N, and the wall time under the
# recorder must stay close to the bare run, where a PTRACE_SYSCALL tracer
# (strace -f) stops twice per call. The ratios are printed as comments.
set -u
. "$(dirname "$0")/record-lib.sh"

N=${RECORD_OVERHEAD_N:-200000}

stops() {
	"$bpfrr" record -s -o "$tmp/loop.trace" -- "$loop" "$1" 2>&1 >/dev/null |
		sed -n 's/.* \([0-9]*\) stops$/\1/p'
}
few=$(stops 10)
many=$(stops "$N")
if [ -n "$few" ] && [ "$few" = "$many" ]; then
	ok "tracee stops do not depend on the number of getppid() calls ($few stops for 10 and for $N)"
else
	not_ok "tracee stops do not depend on the number of getppid() calls" "10 calls: '$few' stops, $N calls: '$many'"
fi

# best of 3 wall-clock seconds of a command
best() {
	local i t0 t1 best=
	for i in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s.%N)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" \
			'BEGIN { d = b - a; if (m != "" && m < d) d = m; printf "%.3f\n", d }')
	done
	echo "$best"
}
bare=$(best "$loop" "$N")
rec=$(best "$bpfrr" record -o "$tmp/loop.trace" -- "$loop" "$N")
echo "# $N getppid(): bare ${bare}s, bpfrr record ${rec}s"
if command -v strace >/dev/null; then
	st=$(best strace -f -o /dev/null -- "$loop" "$N")
	echo "# strace -f (PTRACE_SYSCALL): ${st}s"
	awk -v b="$bare" -v r="$rec" -v s="$st" 'BEGIN {
		b = b > 0.01 ? b : 0.01
		printf "# ratios to bare: bpfrr record %.2f, strace -f %.2f\n", r / b, s / b }'
fi
# generous bound for a shared 2-core machine: the fixed start-up cost of the
# recorder plus at most 50% (the filter itself costs a few ns per call)
if [ -z "$bare" ] || [ -z "$rec" ]; then
	not_ok "wall time under the recorder close to bare" "could not time the runs"
elif awk -v b="$bare" -v r="$rec" 'BEGIN { exit !(r <= 1.5 * b + 0.25) }'; then
	ok "wall time under the recorder close to bare (${rec}s vs ${bare}s)"
else
	not_ok "wall time under the recorder close to bare" "bare ${bare}s, recorded ${rec}s"
fi

done_testing
