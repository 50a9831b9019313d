#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The replayer on a hand-built IR (tests/guest/replay-sample.h: BTF, a
# BTF-typed hash map, a socket filter using the map, a map update):
#  1. the library (replay-ir check): probe, in-kernel and user-space replays
#     that verify and work, failing replays that leave nothing behind, the
#     verifier's log for a refused program;
#  2. `bpfrr replay` on bundles of the same IR: --verify, the report, a
#     failing bundle (exit 1, the failing seq named, object counts unchanged),
#     --pin (a new directory made, a bad one refused before the load), a
#     command run while the objects are held, --plan.
set -u
ir=$BPFRR_ROOT/tests/guest/replay-ir
. "$(dirname "$0")/fixtures-lib.sh"	# fail, pass, take_max, check_nothing_left

"$ir" check || fail "replay-ir check"
"$ir" bundle . || { fail "replay-ir bundle"; exit 1; }

out=$(bpfrr replay --verify sample.bundle 2>&1); status=$?
echo "$out"
[ $status -eq 0 ] && pass "bpfrr replay --verify sample.bundle" || fail "bpfrr replay --verify: status $status"
echo "$out" | grep -q "4 in kernel (1 loader run" && pass "the report counts 4 calls in 1 loader run" ||
	fail "the report does not say 4 calls in kernel in 1 loader run"
echo "$out" | grep -q "2 of 14 recorded calls dropped" && pass "the report counts the dropped calls" ||
	fail "no dropped-call count in the report"
echo "$out" | grep -q "verify: .* 0 mismatches" && pass "verify table with 0 mismatches" ||
	fail "no clean verify table"

take_max
out=$(bpfrr replay fail.bundle 2>&1); status=$?
echo "$out"
[ $status -eq 1 ] && pass "a failing bundle exits 1" || fail "failing bundle: status $status"
echo "$out" | grep -q "seq 12 BPF_MAP_UPDATE_ELEM (in loader 0): No such file or directory" &&
	pass "the failing call is named" || fail "the failing call is not named"
check_nothing_left "after the failing bundle"

take_max
out=$(bpfrr replay badprog.bundle 2>&1); status=$?
echo "$out" | tail -n 5
[ $status -eq 1 ] && echo "$out" | grep -q "R6 !read_ok" && pass "a refused program shows the verifier's log" ||
	fail "refused program: status $status, no verifier log"
check_nothing_left "after the refused program"

grep -q "^[^ ]* /sys/fs/bpf bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf
mkdir -p /sys/fs/bpf/replay-basic
if bpfrr replay --pin /sys/fs/bpf/replay-basic sample.bundle >/dev/null; then
	[ -e /sys/fs/bpf/replay-basic/map_counts ] && [ -e /sys/fs/bpf/replay-basic/prog_count ] &&
		pass "--pin: map_counts and prog_count pinned" || fail "--pin: pins missing: $(ls /sys/fs/bpf/replay-basic)"
	bpftool map dump pinned /sys/fs/bpf/replay-basic/map_counts | grep -q "42" &&
		pass "the pinned map outlives bpfrr and holds the value" || fail "pinned map dump"
	rm -f /sys/fs/bpf/replay-basic/map_counts /sys/fs/bpf/replay-basic/prog_count
else
	fail "bpfrr replay --pin"
fi
rmdir /sys/fs/bpf/replay-basic

# --pin of a directory that does not exist yet: made on the bpffs, as a user expects
if bpfrr replay --pin /sys/fs/bpf/replay-basic-new sample.bundle >/dev/null; then
	[ -e /sys/fs/bpf/replay-basic-new/map_counts ] && pass "--pin NEW: the directory is made and the pins are in it" ||
		fail "--pin NEW: pins missing: $(ls /sys/fs/bpf/replay-basic-new 2>&1)"
	rm -f /sys/fs/bpf/replay-basic-new/*
	rmdir /sys/fs/bpf/replay-basic-new
else
	fail "bpfrr replay --pin /sys/fs/bpf/replay-basic-new (not there yet)"
fi
# ... but not two levels deep, nor outside a bpffs: refused before anything loads
take_max
for dir in /sys/fs/bpf/replay-basic-none/deeper /tmp/replay-basic-pin; do
	out=$(bpfrr replay --pin $dir sample.bundle 2>&1); status=$?
	[ $status -eq 2 ] && echo "$out" | grep -q "not a directory on a bpf filesystem" && [ ! -e $dir ] &&
		pass "--pin $dir: refused before the load" || fail "--pin $dir: status $status: $out"
	check_nothing_left "after --pin $dir"
done

bpfrr replay sample.bundle -- sh -c 'bpftool map show name counts | grep -q hash && exit 7'
status=$?
[ $status -eq 7 ] && pass "the objects exist while the command runs; its status is returned" ||
	fail "replay -- CMD: status $status"

out=$(bpfrr replay --plan --assume-caps stock-6.12 sample.bundle); status=$?
[ $status -eq 0 ] && echo "$out" | grep -q "loader: 75 insns, blob 504 bytes" &&
	pass "--plan --assume-caps stock-6.12 prints the loader" || fail "--plan: status $status"

finish
