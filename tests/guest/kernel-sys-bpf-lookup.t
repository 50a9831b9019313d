#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Map lookups from a SEC("syscall") program: BPF_MAP_LOOKUP_ELEM,
# BPF_MAP_GET_NEXT_KEY and BPF_MAP_LOOKUP_AND_DELETE_ELEM with key and result in
# the program's memory. On the patched kernel they work, fail as bpf(2) does
# (-ENOENT, -EBADF, -EPERM on a write-only map), and write results only where
# the program may write: a result pointed at its read-only data, its stack, past
# the end of one of its maps or into user space fails with -EFAULT and leaves
# that memory untouched. The stock kernel refuses the three with -EINVAL.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" lookup
