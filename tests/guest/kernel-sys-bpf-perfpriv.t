#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Who may use the series' bpf_perf_event_open() kfunc: on the patched kernel a
# SEC("syscall") program calling it does not load for a process with CAP_BPF
# but neither CAP_PERFMON nor CAP_SYS_ADMIN (-EACCES, as bpf_sys_bpf() is gated)
# and loads with CAP_SYS_ADMIN alone; and, as kernel/README.md documents, the
# kfunc is no system call: under a seccomp filter that makes perf_event_open(2)
# fail with -EPERM it still opens a tracepoint event. (A runner without
# CAP_PERFMON gets the system call's -EACCES at perf_event_paranoid 2: see
# kernel-sys-bpf-perf.t.) On the stock kernel the object never loads.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" perfpriv
