#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The LSM checks of the system calls, kept for what a SEC("syscall") program
# does (kernel/README.md, "Security model"): with BPF LSM programs
# (fixtures/kernel/lsm_deny.bpf.c) attached, denying this process
# BPF_MAP_LOOKUP_ELEM on the bpf hook and every open on the perf_event_open
# hook, the relay's lookup fails with -EPERM as bpf(2) does (security_bpf(),
# through __sys_bpf()) and writes nothing, its BPF_MAP_UPDATE_ELEM still
# works, and a tracepoint event from bpf_perf_event_open() fails with -EPERM
# as perf_event_open(2) does (security_perf_event_open()); once the programs
# are detached all of it works again. Every bpfrr kernel has BPF LSM
# (CONFIG_BPF_LSM, CONFIG_LSM="bpf" in kernel/config/common.config): its
# absence fails the test.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" lsm
