#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A SEC("syscall") program, loaded by a loader linked against Debian's
# unmodified libbpf and run once with BPF_PROG_RUN, creates BTF and a hash map
# typed by that BTF through bpf_sys_bpf(); the loader then checks both really
# exist (object info, BTF read back, the inserted element, the kernel's id
# lists). See fixtures/syscall/.
set -e
fixture=$BPFRR_ROOT/fixtures/syscall
"$fixture/load_syscall" "$fixture/syscall.bpf.o" 64
# Again, with another map size: max_entries comes from the context.
"$fixture/load_syscall" "$fixture/syscall.bpf.o" 1000
