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
finish
