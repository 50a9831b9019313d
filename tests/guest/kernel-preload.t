#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The in-kernel light skeleton path still works with the series: bpf_preload
# (CONFIG_BPF_PRELOAD, in the debug kernel only) runs its loader program with
# kern_sys_bpf(BPF_PROG_RUN) when a bpffs is mounted, and that program creates
# maps and loads and attaches the iterators through bpf_sys_bpf(), which the
# series changed (the run context kern_sys_bpf() sets up, the checks on what a
# command from a program writes). The new bpffs then shows maps.debug and
# progs.debug, whose iterators list the kernel's maps and programs.
# The other kernels are built without it: the test says so and skips.
. "$(dirname "$0")/kernel-lib.sh"

echo "1..3"
if [ "$variant" != debug ]; then
	for n in 1 2 3; do
		echo "ok $n # SKIP the $variant kernel has no CONFIG_BPF_PRELOAD (the debug kernel has)"
	done
	exit 0
fi
dir=$(mktemp -d)
trap 'umount "$dir" 2>/dev/null; rmdir "$dir"' EXIT
if mount -t bpf bpf "$dir" && [ -e "$dir/maps.debug" ] && [ -e "$dir/progs.debug" ]; then
	echo "ok 1 - a new bpffs has maps.debug and progs.debug"
else
	echo "not ok 1 - a new bpffs has maps.debug and progs.debug: $(ls "$dir" 2>&1)"
fi
# progs.debug lists the iterator programs themselves: "  id name  attached".
if grep -q "dump_bpf_map" "$dir/progs.debug" 2>/dev/null; then
	echo "ok 2 - progs.debug lists the preloaded iterator programs"
else
	echo "not ok 2 - progs.debug lists the preloaded iterator programs: $(head -5 "$dir/progs.debug" 2>&1)"
fi
# maps.debug lists maps by id and name; the light skeleton's own map is freed by then,
# so there may be none: the file must at least read, with its header line.
if head -1 "$dir/maps.debug" 2>/dev/null | grep -q "id"; then
	echo "ok 3 - maps.debug reads"
else
	echo "not ok 3 - maps.debug reads: $(head -3 "$dir/maps.debug" 2>&1)"
fi
