#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What `bpfrr replay` learns about the running kernel (`bpfrr replay --caps`:
# the kernel's own /sys/kernel/bpf/syscall_prog_cmds, probes, the perf event
# kfunc in its BTF) against what it assumes when planning without a kernel
# (`--assume-caps stock-6.12` / `patched-6.12`): the same commands, the same
# treatment of every pointer, and perf events from syscall programs only on
# the patched kernel. A kernel series that offers more than bpfrr's list of
# it (replayer/translate/caps.h) fails here until the list is brought up to date.
. "$(dirname "$0")/kernel-lib.sh"
. "$(dirname "$0")/record-lib.sh"

# the accepted commands, then "CMD PATH SEM" per pointer (the basis dropped), sorted
summary() {
	awk '/bpf_sys_bpf accepts:/ { a = 1; next }
	     /pointers in attrs/ { a = 0; p = 1; next }
	     /perf_event_open from/ { p = 0; print "perf", ($5 == "yes" ? "yes" : "no"); next }
	     a { for (i = 1; i <= NF; i++) print "cmd", $i }
	     p && NF >= 3 && $1 ~ /^BPF_/ { print "ptr", $1, $2, $3 }' "$1" | sort
}

if ! "$BPFRR" replay --caps >probed.txt 2>probed.err; then
	fail "bpfrr replay --caps failed: $(cat probed.err)"
	finish
fi
pass "probed: $(head -n 1 probed.txt)"
"$BPFRR" replay --caps --assume-caps "$kernel_variant-6.12" >assumed.txt 2>&1 ||
	fail "bpfrr replay --caps --assume-caps $kernel_variant-6.12 failed: $(cat assumed.txt)"
summary probed.txt >probed.sum
summary assumed.txt >assumed.sum
if cmp -s probed.sum assumed.sum; then
	pass "the $kernel_variant kernel offers what --assume-caps $kernel_variant-6.12 says: $(grep -c '^cmd' probed.sum) commands, $(grep -c '^ptr' probed.sum) pointers"
else
	fail "the $kernel_variant kernel and --assume-caps $kernel_variant-6.12 differ (< kernel, > assumed):"
	diff probed.sum assumed.sum | sed 's/^/    /'
fi
case $kernel_variant in
patched)
	grep -q 'perf_event_open from syscall programs: yes (kfunc bpf_perf_event_open, vmlinux BTF id [1-9]' probed.txt &&
		pass "the perf event kfunc is found in the kernel's BTF" ||
		fail "no perf event kfunc on the patched kernel: $(grep perf_event_open probed.txt)"
	;;
stock)
	grep -q 'perf_event_open from syscall programs: no' probed.txt &&
		pass "no perf event kfunc on the stock kernel" ||
		fail "the stock kernel claims a perf event kfunc: $(grep perf_event_open probed.txt)"
	;;
esac
finish
