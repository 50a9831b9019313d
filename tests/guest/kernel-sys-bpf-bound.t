#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A map bound to a SEC("syscall") program with BPF_PROG_BIND_MAP after load
# (from user space, or by the program itself) is never where a command issued
# from the program writes its result: on the patched kernel a
# BPF_MAP_LOOKUP_ELEM into such a map's value fails with -EFAULT and leaves it
# unchanged, while the program that uses the map from load on may write there.
# The stock kernel refuses the lookup (and BPF_PROG_BIND_MAP from a program)
# with -EINVAL. See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" bound
