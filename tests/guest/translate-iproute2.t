#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# iproute2's netlink attachments (issue 12 item 4), end to end, on a veth pair
# made here. Debian's ip and tc load fixtures/fx_netlink.bpf.o with libbpf and
# attach through netlink, not bpf():
#   xdp: `ip link set dev nlA xdp obj F sec xdp` (native) and
#        `ip link set dev nlB xdpgeneric obj F sec xdp`, in one recording;
#   tc:  `tc qdisc add dev nlA clsact`,
#        `tc filter add dev nlA ingress bpf da obj F sec tc` and one more XDP
#        attachment (nlB), in one recording.
# For each: the dump shows the requests decoded (device by name, the program
# fd as the loaded program); the original attachments are taken down; the
# trace is translated (each attaching request a user-space step, the device
# found by its recorded name) and replayed with --verify; then `ip -d link
# show` / `tc filter show` must show the replay's programs (new ids, the
# original's tags) on the same device, hook, mode and priority, as they stay
# after the replay exits (a netlink attachment holds its program without any
# fd). A replay that fails at an attachment (nlB already has an XDP program)
# must undo what it attached before: nlA's XDP program; the filter (only it:
# a filter of the user's own on the same hook stays, and the clsact qdisc that
# was there before).
. "$(dirname "$0")/translate-lib.sh"
require_fixtures
OBJ=$FX/fx_netlink.bpf.o
[ -f "$OBJ" ] || { echo "no $OBJ"; exit 1; }
# by path: busybox's sh runs its own ip and tc applets whatever PATH says
IP=/usr/sbin/ip TC=/usr/sbin/tc
for t in "$IP" "$TC"; do
	"$t" -V 2>&1 | grep -q 'iproute2' || { echo "$t is not iproute2's: $("$t" -V 2>&1 | head -n 1)"; exit 1; }
done

cleanup() {
	$IP link del nlA 2>/dev/null
}
cleanup
$IP link add nlA type veth peer name nlB || { echo "cannot make a veth pair"; exit 1; }
$IP link set nlA up && $IP link set nlB up || { echo "cannot bring the veth pair up"; exit 1; }

# xdp_of DEV: "MODE ID" of the XDP program on DEV, empty if none: the mode as the device's
# first line says it ("xdp" native, "xdpgeneric"), the id from its "prog/xdp id N" line
xdp_of() {
	$IP -d link show dev "$1" | awk '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^xdp/) mode = $i }
		$1 == "prog/xdp" && $2 == "id" { id = $3 }
		END { if (id != "") print mode, id }'
}
# tag_of ID: the tag of program ID
tag_of() {
	bpftool prog show id "$1" 2>/dev/null | sed -n 's/.* tag \([0-9a-f]*\).*/\1/p' | head -n 1
}
# tc_of DEV: "PREF ID TAG" of each bpf filter on DEV's ingress, one per line
tc_of() {
	$TC filter show dev "$1" ingress | awk '
		/ bpf / && / id [0-9]+ / {
			for (i = 1; i <= NF; i++) {
				if ($i == "pref") prio = $(i + 1)
				if ($i == "id") id = $(i + 1)
				if ($i == "tag") tag = $(i + 1)
			}
			print prio, id, tag
		}'
}

# --- xdp --------------------------------------------------------------------------------
take_max
record_cmd xdp.trace xdp.out sh -c "$IP link set dev nlA xdp obj $OBJ sec xdp && $IP link set dev nlB xdpgeneric obj $OBJ sec xdp"
rc=$?
if [ "$rc" != 0 ]; then
	fail "xdp: bpfrr record exited $rc"
	show xdp.out
	cleanup
	finish
fi
keep_trace() {	# for the host half: the host's dump and plans, and tests/data/traces
	[ -n "${BPFRR_TEST_OUT:-}" ] && [ -d "$BPFRR_TEST_OUT" ] && cp "$1" "$BPFRR_TEST_OUT/iproute2-$1"
}
keep_trace xdp.trace
set -- $(xdp_of nlA)
a_mode=$1 a_id=$2 a_tag=$(tag_of "$2")
set -- $(xdp_of nlB)
b_mode=$1 b_id=$2 b_tag=$(tag_of "$2")
[ "$a_mode" = xdp ] && [ -n "$a_tag" ] || fail "xdp: ip attached no native XDP program to nlA: $(xdp_of nlA)"
[ "$b_mode" = xdpgeneric ] && [ -n "$b_tag" ] || fail "xdp: ip attached no generic XDP program to nlB: $(xdp_of nlB)"
pass "xdp: recorded: nlA $a_mode id $a_id tag $a_tag, nlB $b_mode id $b_id tag $b_tag"

"$BPFRR" dump xdp.trace >xdp.dump 2>&1 || fail "xdp: bpfrr dump failed"
n=$(grep -c 'RTM_NEWLINK .*(nl[AB]): attach$' xdp.dump)
[ "$n" = 2 ] || fail "xdp: the dump shows $n XDP attachments by device name, expected 2"
grep -q 'IFLA_XDP: fd [0-9]* -> prog .*fx_xdp_pass' xdp.dump ||
	fail "xdp: the dump does not show IFLA_XDP_FD as the loaded fx_xdp_pass"
grep -q 'IFLA_XDP: .*flags 0x[0-9a-f]* mode skb' xdp.dump || fail "xdp: the dump does not show xdpgeneric's skb mode"
"$BPFRR" dump --json xdp.trace >xdp.json 2>&1 || fail "xdp: bpfrr dump --json failed"
grep -q '"effect":"attach","truncated":false,"ifindex":[0-9]*,"ifname":"nlB","xdp":{"fd":[0-9]*,"object":{"kind":"prog"' xdp.json ||
	fail "xdp: the JSON dump does not decode nlB's attachment"

$IP link set dev nlA xdp off && $IP link set dev nlB xdpgeneric off || fail "xdp: detaching the originals failed"
[ -z "$(xdp_of nlA)$(xdp_of nlB)" ] || fail "xdp: still attached after xdp off: $(xdp_of nlA) $(xdp_of nlB)"
if ! "$BPFRR" translate --explain -o xdp.bundle xdp.trace >xdp.explain 2>xdp.terr; then
	fail "xdp: bpfrr translate failed: $(cat xdp.terr)"
	cleanup
	finish
fi
[ "$(grep -c '^ *[0-9]*  sendmsg(RTM_NEWLINK)  *kept: ' xdp.explain)" = 2 ] ||
	fail "xdp: the two attaching sendmsg(RTM_NEWLINK) are not kept"
grep -q 'sendmsg(RTM_NEWLINK)  *kept: call [0-9]*, fds -> slot [0-9]*, resolves ifindex <- dev nlB' xdp.explain ||
	fail "xdp: nlB's attachment does not relocate its program fd and look nlB's ifindex up by name"
pass "xdp: translated: $(tail -n 1 xdp.explain)"

"$BPFRR" replay --verify xdp.bundle >xdp.replay 2>xdp.replay.err
rc=$?
if [ "$rc" != 0 ]; then
	fail "xdp: bpfrr replay --verify exited $rc"
	sed 's/^/    /' xdp.replay xdp.replay.err
else
	grep -q '^verify: [0-9]* checks, 0 mismatches' xdp.replay || fail "xdp: the verify table has mismatches"
	grep -q '^replay: [0-9]* calls: .*, 2 in user space' xdp.replay ||
		fail "xdp: not 2 user-space steps: $(grep '^replay: ' xdp.replay)"
	# --verify asks the devices which program they hold where the requests attached
	grep -q ' attached  *id \([0-9]*\)  *id \1  *ok (at dev nlA xdp)$' xdp.replay &&
		grep -q ' attached  *id \([0-9]*\)  *id \1  *ok (at dev nlB xdp skb)$' xdp.replay &&
		pass "xdp: --verify finds the replayed programs on nlA (native) and nlB (skb)" ||
		fail "xdp: --verify does not check both attachments: $(grep ' attached ' xdp.replay)"
	pass "xdp: replayed and verified: $(sed -n 's/^replay: \([0-9]* calls: .*\) in user space.*/\1 in user space/p' xdp.replay)"
fi
set -- $(xdp_of nlA)
[ "$1" = xdp ] && [ "$2" != "$a_id" ] && [ "$(tag_of "$2")" = "$a_tag" ] &&
	pass "xdp: after the replay nlA has $1 id $2 tag $a_tag" ||
	fail "xdp: nlA after the replay: '$(xdp_of nlA)', wanted native XDP with tag $a_tag (original id $a_id)"
set -- $(xdp_of nlB)
[ "$1" = xdpgeneric ] && [ "$2" != "$b_id" ] && [ "$(tag_of "$2")" = "$b_tag" ] &&
	pass "xdp: after the replay nlB has $1 id $2 tag $b_tag" ||
	fail "xdp: nlB after the replay: '$(xdp_of nlB)', wanted generic XDP with tag $b_tag (original id $b_id)"
$IP link set dev nlA xdp off
$IP link set dev nlB xdpgeneric off

# a replay that fails at nlB (it has an XDP program already) detaches what it attached to nlA
$IP link set dev nlB xdpgeneric obj "$OBJ" sec xdp || fail "xdp: attaching a blocker to nlB failed"
set -- $(xdp_of nlB)
blocker=$2
"$BPFRR" replay xdp.bundle >xdp.fail 2>xdp.fail.err
rc=$?
[ "$rc" != 0 ] || fail "xdp: the replay onto an occupied nlB succeeded"
grep -q 'netlink(RTM_NEWLINK) (in user space): Device or resource busy' xdp.fail xdp.fail.err &&
	pass "xdp: the replay onto an occupied nlB fails at its attachment: $(cat xdp.fail.err | head -n 1)" ||
	fail "xdp: the failed replay does not name the busy attachment: $(cat xdp.fail xdp.fail.err)"
grep -q 'undoing' xdp.fail xdp.fail.err && fail "xdp: undoing failed: $(cat xdp.fail.err)"
[ -z "$(xdp_of nlA)" ] && pass "xdp: the failed replay left nothing on nlA" ||
	fail "xdp: the failed replay left $(xdp_of nlA) on nlA"
set -- $(xdp_of nlB)
[ "$2" = "$blocker" ] || fail "xdp: nlB's own program (id $blocker) is not there after the failed replay: $(xdp_of nlB)"
$IP link set dev nlB xdpgeneric off
check_nothing_left "xdp"

# --- tc ----------------------------------------------------------------------------------
# the clsact qdisc and the filter, then one more XDP attachment (nlB generic): the call a
# failing replay below fails at, after the filter
take_max
record_cmd tc.trace tc.out sh -c "$TC qdisc add dev nlA clsact && $TC filter add dev nlA ingress bpf da obj $OBJ sec tc && $IP link set dev nlB xdpgeneric obj $OBJ sec xdp"
rc=$?
if [ "$rc" != 0 ]; then
	fail "tc: bpfrr record exited $rc"
	show tc.out
	cleanup
	finish
fi
keep_trace tc.trace
set -- $(tc_of nlA)
prio=$1 t_id=$2 t_tag=$3
[ -n "$t_tag" ] || fail "tc: no bpf filter on nlA's ingress: $($TC filter show dev nlA ingress)"
pass "tc: recorded: nlA ingress pref $prio id $t_id tag $t_tag"
"$BPFRR" dump tc.trace >tc.dump 2>&1 || fail "tc: bpfrr dump failed"
grep -q 'RTM_NEWQDISC .*(nlA): hook$' tc.dump || fail "tc: the dump does not show the clsact qdisc as a hook"
grep -q 'RTM_NEWTFILTER .*(nlA): attach$' tc.dump || fail "tc: the dump does not show the filter's attachment"
grep -q 'tc: kind "bpf", parent ingress, .*prio [0-9]*' tc.dump || fail "tc: the dump does not decode the filter's tcmsg"
grep -q 'TCA_OPTIONS (bpf): fd [0-9]* -> prog .*fx_tc_pass.* direct-action' tc.dump ||
	fail "tc: the dump does not show TCA_BPF_FD as the loaded fx_tc_pass, direct-action"

$TC qdisc del dev nlA clsact || fail "tc: deleting the original clsact failed"
$IP link set dev nlB xdpgeneric off
if ! "$BPFRR" translate --explain -o tc.bundle tc.trace >tc.explain 2>tc.terr; then
	fail "tc: bpfrr translate failed: $(cat tc.terr)"
	cleanup
	finish
fi
grep -q 'sendmsg(RTM_NEWQDISC)  *kept: call [0-9]*, resolves ifindex <- dev nlA' tc.explain &&
	grep -q 'sendmsg(RTM_NEWTFILTER)  *kept: call [0-9]*, fds -> slot [0-9]*, resolves ifindex <- dev nlA' tc.explain ||
	fail "tc: the qdisc and the filter requests are not kept with nlA looked up by name"
pass "tc: translated: $(tail -n 1 tc.explain)"
"$BPFRR" replay --verify tc.bundle >tc.replay 2>tc.replay.err
rc=$?
if [ "$rc" != 0 ]; then
	fail "tc: bpfrr replay --verify exited $rc"
	sed 's/^/    /' tc.replay tc.replay.err
else
	grep -q '^verify: [0-9]* checks, 0 mismatches' tc.replay || fail "tc: the verify table has mismatches"
	grep -q '^replay: [0-9]* calls: .*, 3 in user space' tc.replay ||
		fail "tc: not 3 user-space steps: $(grep '^replay: ' tc.replay)"
	grep -q ' attached  *id \([0-9]*\)  *id \1  *ok (at dev nlA tc ingress pref [0-9]*)$' tc.replay &&
		pass "tc: --verify finds the replayed program in nlA's ingress filter" ||
		fail "tc: --verify does not check the filter: $(grep ' attached ' tc.replay)"
	pass "tc: replayed and verified: $(sed -n 's/^replay: \([0-9]* calls: .*\) in user space.*/\1 in user space/p' tc.replay)"
fi
set -- $(tc_of nlA)
[ "$1" = "$prio" ] && [ "$2" != "$t_id" ] && [ "$3" = "$t_tag" ] &&
	pass "tc: after the replay nlA ingress has pref $1 id $2 tag $3" ||
	fail "tc: nlA ingress after the replay: '$(tc_of nlA)', wanted pref $prio tag $t_tag (original id $t_id)"
$TC qdisc del dev nlA clsact
$IP link set dev nlB xdpgeneric off

# a replay failing after its filter (nlB is occupied) removes that filter, and only it: the
# clsact qdisc and a filter of the user's own (pref 7) were there before and stay
$TC qdisc add dev nlA clsact && $TC filter add dev nlA ingress pref 7 bpf da obj "$OBJ" sec tc ||
	fail "tc: the user's own clsact and filter could not be made"
$IP link set dev nlB xdpgeneric obj "$OBJ" sec xdp || fail "tc: attaching a blocker to nlB failed"
own=$(tc_of nlA)
"$BPFRR" replay tc.bundle >tc.fail 2>tc.fail.err
rc=$?
[ "$rc" != 0 ] || fail "tc: the replay onto an occupied nlB succeeded"
grep -q 'netlink(RTM_NEWLINK) (in user space): Device or resource busy' tc.fail tc.fail.err ||
	fail "tc: the failed replay does not name the busy attachment: $(cat tc.fail tc.fail.err)"
grep -q 'undoing' tc.fail tc.fail.err && fail "tc: undoing failed: $(cat tc.fail.err)"
[ "$(tc_of nlA)" = "$own" ] && pass "tc: the failed replay removed its filter and left the user's own: $own" ||
	fail "tc: nlA ingress after the failed replay: '$(tc_of nlA)', wanted only '$own'"
$TC qdisc show dev nlA | grep -q clsact || fail "tc: the failed replay removed a clsact qdisc it did not make"
$TC qdisc del dev nlA clsact
$IP link set dev nlB xdpgeneric off
check_nothing_left "tc"
cleanup
finish
