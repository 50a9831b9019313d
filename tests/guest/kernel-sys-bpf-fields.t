#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Results of commands issued from a SEC("syscall") program never land on a
# special field of a map value (bpf_timer, bpf_spin_lock, kptr, ...), which the
# verifier never lets the program itself write: on the patched kernel a
# BPF_MAP_LOOKUP_ELEM value, a BPF_MAP_GET_NEXT_KEY key or a
# BPF_OBJ_GET_INFO_BY_FD info that would overlap the timer or the lock of a
# writable single-element array the program uses fails with -EFAULT and leaves
# the value unchanged, while results right next to them are written. The stock
# kernel refuses the three commands with -EINVAL.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" fields
