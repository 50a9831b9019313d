#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Which bpf() commands a SEC("syscall") program may issue through
# bpf_sys_bpf(): probed for every 6.12 command and some non-commands (an attr
# with a non-zero byte past the kernel's union bpf_attr gives -E2BIG if the
# command is accepted, -EINVAL if not). On the patched kernel that is the stock
# nine plus the commands the series adds, and /sys/kernel/bpf/syscall_prog_cmds
# lists exactly those, with the pointers each takes from the program's memory;
# the stock kernel accepts its nine and has no such file.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" cmds
