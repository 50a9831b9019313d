#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every fixture loader, run plainly: exits 0, prints the expected object lines
# (with real ids and tags), and leaves nothing behind once it exits; run with
# --trigger: its programs ran and saw what the loader expected (map contents,
# global data, tail calls, CO-RE reads, kprobe/tracepoint/raw_tp hits, per
# thread and across fork).
. "$(dirname "$0")/fixtures-lib.sh"
require_fixtures

for l in $(fx_loaders); do
	out=$PWD/$l.out
	if run_loader "$out" "$l"; then
		check_report "$l" "$out"
		progs=$(ids_of "$out" prog)
		maps=$(ids_of "$out" map)
		links=$(ids_of "$out" link)
		wait_gone link $links || fail "$l left links behind after exiting"
		wait_gone prog $progs || fail "$l left programs behind after exiting"
		wait_gone map $maps || fail "$l left maps behind after exiting"
		pass "$l loads: $(grep -c '' "$out") lines"
	else
		fail "$l exited with status $?"
	fi
	show "$out"

	out=$PWD/$l.trigger.out
	if run_loader "$out" "$l" --trigger; then
		check_report "$l" "$out"
		grep -q '^trigger .* ok$' "$out" || fail "$l --trigger printed no 'trigger ... ok' line"
		pass "$l --trigger"
	else
		fail "$l --trigger exited with status $?"
	fi
	show "$out"
done

# Bad usage: a clear message and status 2, nothing loaded.
out=$PWD/usage.out
run_loader "$out" fx_maps --hold soon
status=$?
[ "$status" = 2 ] || fail "fx_maps --hold soon exited with $status, expected 2"
grep -q 'hold' "$out.err" || fail "fx_maps --hold soon did not name the bad option"
[ -s "$out" ] && fail "fx_maps --hold soon printed objects: $(cat "$out")"
show "$out"

# A failure after loading (pinning outside bpffs): status 1, a message naming
# what failed, and no objects left behind.
mkdir -p /tmp/not-bpffs
out=$PWD/badpin.out
run_loader "$out" fx_attach --pin /tmp/not-bpffs
status=$?
[ "$status" = 1 ] || fail "fx_attach --pin /tmp/not-bpffs exited with $status, expected 1"
grep -q '^fx_attach: error: pinning ' "$out.err" ||
	fail "fx_attach --pin /tmp/not-bpffs did not say what failed"
wait_gone prog $(ids_of "$out" prog) || fail "fx_attach left programs behind after failing"
wait_gone map $(ids_of "$out" map) || fail "fx_attach left maps behind after failing"
show "$out"

finish
