#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BPF_RAW_TRACEPOINT_OPEN from a SEC("syscall") program with the tracepoint
# name in the program's memory: on the patched kernel the raw_tp program is
# attached (link info names sys_enter, and it counts our system calls), unknown
# and unterminated names give -ENOENT, a NULL name -EFAULT, and a user space
# name -EFAULT; the stock kernel reads the name as a user address, so a name in
# the program gives -EFAULT there and a user space one works.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" raw_tp
