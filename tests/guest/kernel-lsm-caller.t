#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# the bpf_prog_load LSM hook's caller argument (kernel/series 0019): a BPF
# LSM program (fixtures/kernel/lsm_signed.bpf.c) sees a load from user space
# as such and one from a syscall program as the kernel's. The stock hook has
# 3 parameters.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" lsmcaller
