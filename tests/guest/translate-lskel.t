#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A light skeleton replayed (issue 16 item 3): fx_onemap_lskel's loader is a
# BPF_PROG_TYPE_SYSCALL program (libbpf's gen_loader) whose BPF_PROG_RUN
# makes the map and the program inside the kernel and writes their fds into
# its context; the loader then attaches the program from user space.  The
# translator replays the recorded syscall program itself (its blob map,
# PROG_LOAD and PROG_RUN) and takes the objects it made from the context
# (docs/translator.md, "Light skeletons").  Checked here:
#  1. the committed trace (tests/data/traces/ARCH-fx_onemap_lskel.trace,
#     translated on the host by the build): replay --verify, 0 mismatches, the
#     products (map.onemap, prog.count_syscalls) and the link verified, the
#     linked program runs (translate-held.sh: run_cnt);
#  2. a fresh recording of the fixture, the same way, and the original's
#     program tag is loaded again;
#  3. replays that fail half-way (ulimit -n) name the failing call and leave
#     no program, map, link or BTF behind (id walk), among them at least one
#     that fails after the syscall program ran: its products are closed too
#     (the replayer itself says when a BPF fd it opened is still open after
#     its cleanup, which the id walk after it exited cannot see).
. "$(dirname "$0")/translate-lib.sh"
require_fixtures
root=${BPFRR_ROOT:-/opt/bpfrr}

# verified NAME REPLAY_OUT: the products and the link are in the verify table, all ok
verified() {
	for row in "map.onemap  *type" "prog.count_syscalls  *tag" "link.count_syscalls  *prog"; do
		grep -q "^ *[0-9]*  $row .* ok$" "$2" || fail "$1: no verified row '$row'"
	done
	grep -q '^verify: [0-9]* checks, 0 mismatches' "$2" && pass "$1: $(grep '^verify: [0-9]* checks' "$2")" ||
		fail "$1: the verify table has mismatches"
}

# 1. the committed trace of this arch, translated on the host
bundle=$root/tests/guest/bundle/fx_onemap_lskel.bundle
if [ -f "$bundle" ]; then
	bpfrr replay --verify "$bundle" -- sh "$HELD" committed committed.replay "" all \
		>committed.replay 2>committed.err
	rc=$?
	if [ $rc = 0 ]; then
		pass "committed trace: replayed: $(grep '^replay: ' committed.replay)"
	else
		fail "committed trace: bpfrr replay --verify exited $rc"
		sed 's/^/    /' committed.replay committed.err
	fi
	verified "committed trace" committed.replay
	sed -n 's/^held: /    /p' committed.replay
else
	pass "committed trace: none of this arch ($(uname -m)) to replay # SKIP"
fi

# 2. a fresh recording; on the patched kernel too the syscall program's run is a
# user-space step (no kernel lets a syscall program run another)
tr_patched_user=1
translate_and_replay lskel lskel.out all "$FX/fx_onemap_lskel" && verified "fresh recording" lskel.replay
grep -q '^ *4  BPF_PROG_TEST_RUN .*its program makes slot 2 map.onemap (fd at attr.test.ctx_in+24), slot 3 prog.count_syscalls (fd at attr.test.ctx_in+40)' lskel.explain &&
	pass "fresh recording: --explain names the products" || { fail "fresh recording: --explain"; cat lskel.explain; }

# 3. failing half-way leaves nothing behind
after_run=0
for lim in 5 6 7 8 9 10 11 12 13 14; do
	take_max
	(ulimit -n $lim && exec bpfrr replay lskel.bundle) >lim.out 2>&1
	st=$?
	if [ $st = 0 ]; then
		check_nothing_left "ulimit -n $lim: replayed, then closed"
		continue
	fi
	# a recorded call, or the loader program of a segment (loader 0 runs before the syscall program)
	grep -q 'still open after the cleanup' lim.out && fail "ulimit -n $lim: $(head -n 1 lim.out)"
	seq=$(sed -n 's/.*seq \([0-9][0-9]*\) .*/\1/p' lim.out | head -n 1)
	loader=$(sed -n 's/^bpfrr replay: loader \([0-9][0-9]*\) .*/\1/p' lim.out | head -n 1)
	if [ -z "$seq$loader" ]; then
		fail "ulimit -n $lim: status $st without a failing call or loader named: $(head -n 3 lim.out)"
		continue
	fi
	[ "${seq:-0}" -gt 4 ] || [ "${loader:-0}" -gt 0 ] && after_run=$((after_run + 1))
	check_nothing_left "ulimit -n $lim: failed at ${seq:+seq $seq}${loader:+loader $loader} ($(head -n 1 lim.out))"
done
[ $after_run -gt 0 ] && pass "$after_run of the failing replays failed after the syscall program ran" ||
	fail "no replay failed after the syscall program ran: the products' cleanup was not exercised"
finish
