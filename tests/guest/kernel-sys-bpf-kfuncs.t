#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# /sys/kernel/bpf/syscall_prog_kfuncs (kernel/series 0015): on the patched
# kernel, mode 0444, one "<btf_id> <name>" line per kfunc registered for
# syscall programs, each id the FUNC of that name in the kernel's own BTF:
# exactly bpf_perf_event_open, with the id a BTF scan finds. The stock kernel
# has no such file. See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" kfuncs
