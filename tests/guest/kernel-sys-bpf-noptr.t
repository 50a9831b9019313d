#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bpf() commands without pointer arguments, issued from a SEC("syscall")
# program: BPF_PROG_BIND_MAP, BPF_PROG_ATTACH/DETACH (cgroup), BPF_PROG_GET_FD_BY_ID,
# BPF_BTF_GET_FD_BY_ID, BPF_LINK_GET_FD_BY_ID, BPF_LINK_UPDATE, BPF_LINK_DETACH.
# On the patched kernel each works (checked from user space: bound maps, the
# cgroup's programs, link info) and fails as bpf(2) does (-EBADF, -ENOENT,
# -EPERM without CAP_SYS_ADMIN, -ENOLINK, -EINVAL); on the stock kernel each is
# refused with -EINVAL and changes nothing. No BPF object is left behind.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" noptr
