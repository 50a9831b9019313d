#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BPF_LINK_CREATE of kprobe_multi and uprobe_multi links from a SEC("syscall")
# program, with symbol names, addresses, cookies, the path, offsets and
# reference counter offsets in the program's memory. On the patched kernel the
# links attach and their programs run (kprobe_multi on x86_64 only: arm64 has
# no fprobe in 6.12, and both ways give -EOPNOTSUPP there), and failures give
# the system call's errno; a uprobe_multi attach failing after its first
# uprobe registered undoes it without hanging the program. The stock kernel
# reads those pointers as user space addresses: -EFAULT.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" multi
