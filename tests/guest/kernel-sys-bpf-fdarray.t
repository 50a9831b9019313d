#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# fd_array_cnt (kernel/series 0016): on the patched kernel every map and BTF
# of fd_array[0..fd_array_cnt) is bound to the program whether its
# instructions name it or not, an index below fd_array_cnt takes the object
# resolved at the start of the load, and entries that are no map or BTF, no
# fd, or too many are refused with -EINVAL, -EBADF, -E2BIG. On the stock
# kernel the field is past BPF_PROG_LOAD's last one: -EINVAL.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" fdarray
