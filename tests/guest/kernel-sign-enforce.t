#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# the policy of docs/signing.md as a BPF LSM program
# (fixtures/kernel/lsm_signed.bpf.c, signed_loaders_only): an unsigned
# loader, a loader verified against a keyring other than the administrator's,
# and a program loaded from user space are refused with -EPERM; a loader
# verified against the administrator's keyring loads. Skipped on the stock
# kernel, which keeps no verdict.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" enforce
