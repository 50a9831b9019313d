#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The series' bpf_perf_event_open() kfunc and events that register a uprobe:
# on the patched kernel the kfunc refuses a uprobe through the uprobe PMU and a
# uprobe trace event (uprobe_events) opened as a tracepoint with -EOPNOTSUPP,
# also where perf_event_open(2) sets the uprobe up and then fails (clockid
# 12345: -EINVAL; sample_max_stack above perf_event_max_stack: -EOVERFLOW), and
# gives the system call's errno for those failures on kprobe and tracepoint
# events. A kernel that frees such a uprobe event synchronously from the
# calling program hangs the caller in D state for good: each uprobe case runs
# in a child given 20 s, and a hang is reported ("not ok ... hung"), the child
# left behind, the remaining perf cases skipped (such a kernel may hold
# event_mutex for good). The stock kernel has no kfunc: the object does not
# load. See fixtures/kernel/kernel_test.c and fixtures/kernel/perf_open.bpf.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" perfsafe
