#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Debian's libbpf-tools opensnoop, recorded for 3 seconds (SIGINT from
# timeout): its output passes through, the trace is complete, every program,
# map, BTF and link it made has the recorder's identity record, the
# perf_event_open/ioctl attachment and the tracefs id files it read are
# recorded, and the number of bpf() calls per command agrees with strace.
. "$(dirname "$0")/record-lib.sh"

record_cmd os.trace os.out timeout -s INT 3 opensnoop
rc=$?
[ "$rc" = 0 ] || fail "bpfrr record -- timeout -s INT 3 opensnoop exited $rc: $(cat os.out.err)"
grep -q '^PID' os.out || fail "opensnoop's header did not pass through to stdout"
txt=os.trace.txt
loads=$(grep -c '^BPF_CALL .* cmd=BPF_PROG_LOAD .* ret=[0-9]' "$txt")
[ "$loads" -ge 4 ] || fail "only $loads successful BPF_PROG_LOAD calls recorded"
grep -q '^BPF_CALL .* cmd=BPF_PROG_LOAD .* region=attr.insns:entry:len=[1-9]' "$txt" ||
	fail "no BPF_PROG_LOAD with its instructions captured"
grep -q '^BPF_CALL .* cmd=BPF_BTF_LOAD .* region=attr.btf:entry:len=[1-9]' "$txt" ||
	fail "no BPF_BTF_LOAD with its BTF captured"
grep -q '^BPF_CALL .* cmd=BPF_OBJ_GET_INFO_BY_FD .* region=attr.info.info:exit' "$txt" ||
	fail "no BPF_OBJ_GET_INFO_BY_FD with the info the kernel wrote"
grep -q '^BPF_CALL .* cmd=BPF_LINK_CREATE .* ret=[0-9]' "$txt" || fail "no successful BPF_LINK_CREATE"
grep -q '^SYSCALL .* name=perf_event_open .* ret=[0-9].* region=perf_event_attr:entry' "$txt" ||
	fail "no perf_event_open with its attr"
grep -Eq '^SYSCALL .* name=openat .*/events/syscalls/sys_(enter|exit)_open.*/id.* region=content:exit:len=[1-9]' "$txt" ||
	fail "the tracepoint id files opensnoop read are not recorded with their contents"
check_identities opensnoop os.out os.trace
grep -q '^END status=0 ' "$txt" || fail "END does not carry opensnoop's status 0"

# The same run under strace: the same bpf() commands, as many times each.
if strace -f -qq -e trace=bpf -o st.txt timeout -s INT 3 opensnoop >/dev/null 2>&1; then
	sed -n 's/.*bpf(\(BPF_[A-Z_]*\),.*/\1/p' st.txt | sort | uniq -c >st.counts
	sed -n 's/^BPF_CALL .* cmd=\([A-Z_]*\) .*/\1/p' "$txt" | sort | uniq -c >rec.counts
	if ! cmp -s st.counts rec.counts; then
		fail "bpf() calls per command differ from strace's (strace | recorded):"
		paste st.counts rec.counts
	else
		pass "bpf() calls per command agree with strace: $(tr -s ' \n' ' ' <rec.counts)"
	fi
else
	fail "strace -f -e trace=bpf opensnoop failed"
fi
pass "opensnoop: $(grep -c '^BPF_CALL' "$txt") bpf() calls, $(grep -c '^OBJECT' "$txt") identities"

# The recorder gathers records and writes them in bursts, each record within
# REC_FLUSH_MS (20 ms) of being made, whether the loader then waits or keeps
# making calls the filter stops (opensnoop's own opens, on the debug kernel):
# a copy taken while opensnoop still runs reads as truncated and has every
# bpf() call the finished trace has up to its last attachment (its
# last successful BPF_LINK_CREATE; at SIGINT opensnoop makes one call more).
"$BPFRR" record -o live.trace -- timeout -s INT 6 opensnoop >live.out 2>live.err &
rec=$!
i=0
while ! grep -q '^PID' live.out 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
cp live.trace live-copy.trace
wait $rec
"$TRACECAT" live-copy.trace >live-copy.txt 2>live-copy.err
rc=$?
[ "$rc" = 3 ] || fail "the copy of a recording in progress: record_tracecat exited $rc, 3 (truncated) expected: $(cat live-copy.err)"
"$TRACECAT" live.trace >live.txt 2>live.cat.err || fail "the finished recording does not read: $(cat live.cat.err)"
last=$(sed -n 's/^BPF_CALL seq=\([0-9]*\) .* cmd=BPF_LINK_CREATE .* ret=[0-9].*/\1/p' live.txt | tail -n 1)
upto() { awk -v last="${last:-0}" '/^BPF_CALL / { split($2, a, "="); if (a[2] + 0 <= last + 0) n++ } END { print n + 0 }' "$1"; }
during=$(upto live-copy.txt)
after=$(upto live.txt)
if [ -n "$last" ] && [ "$during" -ge 20 ] && [ "$during" = "$after" ]; then
	pass "a recording in progress: all $during bpf() calls up to the last attachment (#$last) in the file while opensnoop waits"
else
	fail "a recording in progress: $during bpf() calls up to the last attachment (#$last) in the file while opensnoop waits, $after in the end"
fi
finish
