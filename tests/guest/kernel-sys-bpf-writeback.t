#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The size write-backs into the attr of BPF_PROG_LOAD (log_true_size) and
# BPF_BTF_LOAD (btf_log_true_size) issued from a SEC("syscall") program go
# through the series' write check like every other result: on the patched
# kernel, with the attr in the program's global data the size is written back
# as bpf(2) writes it; with the attr on the program's stack and attr_size
# covering the field the load fails with -EFAULT and leaves no program or BTF
# object behind; an attr_size ending before the field loads. The stock kernel
# writes the size back wherever the attr is, so every load there succeeds.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" writeback
