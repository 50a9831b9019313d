#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An EXT program attached by a program's fd (issue 12 item 7; libxdp's
# dispatcher works so): fixtures/fx_freplace loads xdp_target, then
# new_handler with xdp_target's fd as attach_prog_fd, and links it there
# (BPF_LINK_CREATE, target_fd = that fd, target_btf_id = handler() in
# xdp_target's BTF). The trace is translated and replayed with --verify; while
# the replay holds its objects, the replayed xdp_target (the original's is
# gone) must return new_handler's XDP_DROP (1) to BPF_PROG_TEST_RUN, not
# handler()'s XDP_PASS (2): the replayed link replaced the function in the
# replayed target.
. "$(dirname "$0")/translate-lib.sh"
require_fixtures

take_max
record_cmd fx_freplace.trace fx_freplace.out "$FX/fx_freplace"
rc=$?
if [ "$rc" != 0 ]; then
	fail "fx_freplace: bpfrr record exited $rc"
	show fx_freplace.out
	finish
fi
check_report fx_freplace fx_freplace.out
if ! "$BPFRR" translate --explain -o fx_freplace.bundle fx_freplace.trace >fx_freplace.explain 2>fx_freplace.terr; then
	fail "fx_freplace: bpfrr translate failed: $(cat fx_freplace.terr)"
	finish
fi
[ "$(grep -c '^ *[0-9]*  BPF_PROG_LOAD  *kept: ' fx_freplace.explain)" = 2 ] ||
	fail "fx_freplace: not both program loads are kept"
grep -q '^ *[0-9]*  BPF_LINK_CREATE  *kept: .*fds -> slot [0-9]*,[0-9]*' fx_freplace.explain ||
	fail "fx_freplace: the link to the target program is not kept with both fds"
pass "fx_freplace: translated: $(tail -n 1 fx_freplace.explain)"

# while the replay holds its objects: run the replayed target
head -c 64 /dev/zero >pkt.bin
cat >held.sh <<'HELD'
id=$(bpftool prog show 2>/dev/null | sed -n 's/^\([0-9]*\): xdp  name xdp_target .*/\1/p' | tail -n 1)
echo "$id" >held.id
bpftool prog run id "$id" data_in pkt.bin repeat 1 >held.run 2>&1
HELD
replay_held fx_freplace
id=$(cat held.id)
orig=$(sed -n 's/^prog name=xdp_target .* id=\([0-9]*\) .*/\1/p' fx_freplace.out)
sed 's/^/    held: /' held.run
if [ -z "$id" ] || [ "$id" = "$orig" ]; then
	fail "fx_freplace: no replayed xdp_target (id '$id', the original's $orig)"
elif grep -q 'Return value: 1\b' held.run; then
	pass "fx_freplace: the replayed xdp_target (id $id) returns XDP_DROP: new_handler replaced handler()"
else
	fail "fx_freplace: the replayed xdp_target (id $id) does not return XDP_DROP: $(tr '\n' ' ' <held.run)"
fi
check_nothing_left fx_freplace
finish
