#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# BPF_LINK_DETACH, BPF_LINK_UPDATE and BPF_LINK_GET_FD_BY_ID issued from a
# SEC("syscall") program on a uprobe_multi link while another thread closes
# the link's last fd. First, with the fd left open: what bpf(2) gives on such
# a link (DETACH -EOPNOTSUPP, UPDATE -EINVAL: it cannot do either), the same
# from the program on the patched kernel and a new fd from GET_FD_BY_ID, the
# link unchanged; on the stock kernel each is refused with -EINVAL. Then,
# patched only, 240 rounds in a child: a fresh link on uprobe_target(), a
# thread closing its fd as the program issues one of the commands, once or in
# a loop until the close shows; each result is the link's own one or that of
# a closed fd (-EBADF, GET_FD_BY_ID -ENOENT), counted. If the command's link
# put is the last, a uprobe_multi link's release waits for an RCU tasks trace
# grace period, which inside the program never ends: the child is given 60 s
# and reported hung. No link is left and the process runs on. On one CPU the
# guest's kernel, which does not preempt in the kernel, lets the close fall
# only between commands; only more CPUs (qemu/run --smp) make the race real.
# See fixtures/kernel/kernel_test.c.
. "$(dirname "$0")/kernel-lib.sh"
exec "$kernel_fixture/kernel_test" "$kernel_fixture/sys_bpf_relay.bpf.o" "$kernel_variant" linkrace
