#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BPF_OBJ_PIN and BPF_OBJ_GET from a SEC("syscall") program with the path name
# in the program's memory: on the patched kernel a program and a map are pinned
# (also relative to a BPF_F_PATH_FD directory) and got back (also read-only),
# with the errors of bpf(2): -EEXIST, -EPERM outside bpffs, -EACCES for a file
# that is no BPF object, -ENOENT, -ENAMETOOLONG for a name without a NUL in
# PATH_MAX bytes, -EFAULT for a NULL or user space name, -EBADF. The stock
# kernel refuses both commands with -EINVAL. See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" pin
