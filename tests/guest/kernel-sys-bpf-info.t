#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BPF_OBJ_GET_INFO_BY_FD from a SEC("syscall") program, with the info struct and
# the arrays it points to (map ids, instructions, tags, JITed lengths, BTF data
# and name, a link's tracepoint name) in the program's memory. On the patched
# kernel it gives what the system call gives for a program (itself), a map,
# vmlinux BTF and a raw tracepoint link; errors as the system call (bad fd, not
# a BPF object, oversized info with a non-zero tail or past a page, a name
# buffer too short); and it writes only where the program may write: an info
# or array pointed at its read-only data, its stack, past the end of one of its
# maps or into user space fails with -EFAULT and leaves that memory untouched.
# The stock kernel refuses the command with -EINVAL.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" info
