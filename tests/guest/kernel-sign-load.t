#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# signed loads (kernel/series 0018): a PKCS#7 signature (openssl cms, in the
# guest) over the instructions and the contents of the exclusive, frozen
# array maps of fd_array[0..fd_array_cnt), checked against a key added to the
# session keyring as keyctl padd does: verified (fdinfo sig_verdict,
# sig_keyring), and each attack refused at PROG_LOAD with its errno: unknown
# key, other metadata, a flipped bit, a cut signature, other instructions, a
# map not frozen, not exclusive or exclusive to another program, not an
# array, a signed program naming an fd past the signed prefix. The stock
# kernel: -E2BIG.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" sign
