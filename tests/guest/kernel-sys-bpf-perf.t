#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The series' bpf_perf_event_open() kfunc, called by a SEC("syscall") program:
# on the patched kernel it opens a tracepoint perf event in the calling process
# (a close-on-exec perf_event fd), a program attached to it from the same kind
# of program counts our system calls, and for every size rule, bad attr or
# argument and missing permission (perf_event_paranoid 2 without CAP_PERFMON),
# and for a kprobe through the kprobe PMU (function name in user space), it
# gives what perf_event_open(2) gives for the same attr. On the stock kernel
# the kfunc does not exist, so the program does not load (-ESRCH).
# See fixtures/kernel/kernel_test.c and fixtures/kernel/perf_open.bpf.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" perf
