#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# exclusive maps (kernel/series 0017): a map created with excl_prog_hash
# serves only the program of that SHA-256 digest; another program,
# BPF_PROG_BIND_MAP to another program and a map of maps are refused with
# -EPERM; a hash of the wrong size, -EINVAL. On the stock kernel the field is
# past BPF_MAP_CREATE's last one: -EINVAL.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" excl
