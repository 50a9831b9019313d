#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A uprobe_multi link created from a SEC("syscall") program whose second
# offset fails to register (past the end of the file: -EINVAL on the patched
# kernel, as from user space; the stock kernel reads the arrays as user
# addresses: -EFAULT), 50 times, each with a fresh uprobe_multi program whose
# only fd is closed right after, while a thread keeps running into the first
# uprobe. Afterwards no BPF object is left and the process runs on. A program
# run by a uprobe the failed attach left registered after the program was
# freed is a use after free only the debug kernel's KASAN reports: this test
# exercises that path for check-debug. See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" multiundo
