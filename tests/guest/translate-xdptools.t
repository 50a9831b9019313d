#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# xdp-tools (issue 12 item 5), end to end, on a veth pair made here:
# Debian's `xdp-loader load -m MODE -s xdp DEV fixtures/fx_netlink.bpf.o`,
# native and skb mode. libxdp loads its dispatcher (an XDP program with
# freplace slots), loads fx_xdp_pass as a BPF_PROG_TYPE_EXT program against
# it (attach_prog_fd), links it (LINK_CREATE of the EXT program), attaches the
# dispatcher through netlink, and pins the program and its link under
# /sys/fs/bpf/xdp/dispatch-IFINDEX-PROGID, a directory it finds again by the
# device's index and the dispatcher's id. Before that it pins a test link and
# unlinks it at once (a pair the translator drops).
# For each mode: recorded; xdp-loader unloads the original; translated
# (--explain names the directory's numbers: the device's index, the
# dispatcher's id); replayed with --verify (0 mismatches); then
# `xdp-loader status` must show the replay's dispatcher (same mode, tag) with
# fx_xdp_pass (same tag, priority, chain actions) under it, the directory
# named with the replay's numbers; traffic over the veth pair must run
# fx_xdp_pass (its counter in fx_netlink_seen grows); `xdp-loader unload -a`
# must take it all down, pins included. A replay that fails at the dispatcher's
# attachment (the device has an XDP program already) must leave no pin and no
# directory behind.
. "$(dirname "$0")/translate-lib.sh"
require_fixtures
OBJ=$FX/fx_netlink.bpf.o
[ -f "$OBJ" ] || { echo "no $OBJ"; exit 1; }
IP=/usr/sbin/ip
command -v xdp-loader >/dev/null || { echo "xdp-loader is not in the image"; exit 1; }
"$IP" -V 2>&1 | grep -q iproute2 || { echo "$IP is not iproute2's"; exit 1; }

cleanup() {
	xdp-loader unload -a xdA >/dev/null 2>&1
	$IP link del xdA 2>/dev/null
}
cleanup
$IP link add xdA type veth peer name xdB || { echo "cannot make a veth pair"; exit 1; }
$IP link set xdA up && $IP link set xdB up || { echo "cannot bring the veth pair up"; exit 1; }
$IP addr add 10.77.0.1/24 dev xdA && $IP addr add 10.77.0.2/24 dev xdB ||
	{ echo "cannot address the veth pair"; exit 1; }

# status_of DEV: "DISPATCHER_MODE DISPATCHER_ID DISPATCHER_TAG | PRIO NAME ID TAG ACTIONS" from
# xdp-loader status (its table: the dispatcher's row, then one "=>" row per component program)
status_of() {
	xdp-loader status "$1" 2>&1 | awk -v dev="$1" '
		$1 == dev && $2 == "xdp_dispatcher" { d = $3 " " $4 " " $5 }
		$1 == "=>" { p = p " | " $2 " " $3 " " $4 " " $5 " " $6 }
		END { print d p }'
}
# fx_netlink_seen[0], what fx_xdp_pass (program id $1) counted, "none" if unreadable. (Its
# run_cnt would not do: an freplace program runs in place of the dispatcher's slot, and
# only the dispatcher, the program the hook runs, is counted.)
seen() {
	map=$(bpftool prog show id "$1" 2>/dev/null | sed -n 's/.*map_ids \([0-9]*\).*/\1/p')
	out=$(bpftool map lookup id "${map:-0}" key 0 0 0 0 2>/dev/null)
	case "$out" in
	*'"value"'*) n=$(echo "$out" | sed -n 's/.*"value": *\([0-9]*\).*/\1/p') ;;	# formatted by the map's BTF
	*value:*) n=$(echo "$out" | awk '{ v = 0; for (i = NF; i > 1 && $i ~ /^[0-9a-f][0-9a-f]$/; i--) v = v * 256 + (index("0123456789abcdef", substr($i, 1, 1)) - 1) * 16 + index("0123456789abcdef", substr($i, 2, 1)) - 1; print v }') ;;
	*) n= ;;
	esac
	echo "${n:-none}"
}
# the id of the "=>" program of status_of's output
comp_id() { echo "$1" | awk -F'|' '{ split($2, f, " "); print f[3] }'; }

for mode in native skb; do
	take_max
	record_cmd "$mode.trace" "$mode.out" xdp-loader load -m "$mode" -s xdp xdA "$OBJ"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$mode: bpfrr record exited $rc"
		show "$mode.out"
		continue
	fi
	[ -n "${BPFRR_TEST_OUT:-}" ] && [ -d "$BPFRR_TEST_OUT" ] && cp "$mode.trace" "$BPFRR_TEST_OUT/xdp-loader-$mode.trace"
	orig=$(status_of xdA)
	case "$orig" in
	"$mode "*" | 50 fx_xdp_pass "*" XDP_PASS") pass "$mode: recorded: $orig" ;;
	*) fail "$mode: xdp-loader status after the recording: '$orig'"; continue ;;
	esac
	orig_dir=$(ls -d /sys/fs/bpf/xdp/dispatch-* 2>/dev/null)
	xdp-loader unload -a xdA || fail "$mode: xdp-loader unload of the original failed"
	[ -z "$(ls -d /sys/fs/bpf/xdp/dispatch-* 2>/dev/null)" ] || fail "$mode: the original's pins outlive its unload"

	if ! "$BPFRR" translate --explain -o "$mode.bundle" "$mode.trace" >"$mode.explain" 2>"$mode.terr"; then
		fail "$mode: bpfrr translate failed: $(cat "$mode.terr")"
		continue
	fi
	grep -q "mkdir[at]* .*path slot [0-9]*: a directory on a bpffs the replayer makes: $orig_dir (mode 0700); renamed after the calls ([0-9]*: ifindex of xdA, [0-9]*: id of slot [0-9]* prog.xdp_dispatcher)" "$mode.explain" &&
		pass "$mode: translate names the numbers of $orig_dir: the device's index, the dispatcher's id" ||
		fail "$mode: --explain does not rename $orig_dir: $(grep mkdir "$mode.explain")"
	grep -q 'BPF_OBJ_PIN  *dropped: unpinned by seq [0-9]* before the replay point' "$mode.explain" &&
		grep -q 'unlink[at]*  *dropped: removes what seq [0-9]* made: neither is replayed' "$mode.explain" ||
		fail "$mode: libxdp's test pin and its unlink are not dropped as a pair"

	"$BPFRR" replay --verify "$mode.bundle" >"$mode.replay" 2>"$mode.replay.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$mode: bpfrr replay --verify exited $rc"
		sed 's/^/    /' "$mode.replay" "$mode.replay.err"
		xdp-loader unload -a xdA >/dev/null 2>&1
		continue
	fi
	grep -q '^verify: [0-9]* checks, 0 mismatches' "$mode.replay" || fail "$mode: the verify table has mismatches"
	new=$(status_of xdA)
	new_dir=$(ls -d /sys/fs/bpf/xdp/dispatch-* 2>/dev/null)
	set -- $new
	want_dir=/sys/fs/bpf/xdp/dispatch-$(cat /sys/class/net/xdA/ifindex)-$2
	# the same mode, dispatcher tag, priority, program name and tag, chain actions; new ids
	if [ "$(echo "$new" | awk '{ $2 = ""; $7 = ""; print }')" = "$(echo "$orig" | awk '{ $2 = ""; $7 = ""; print }')" ] &&
	   [ "$new" != "$orig" ]; then
		pass "$mode: after the replay xdp-loader status shows: $new"
	else
		fail "$mode: xdp-loader status after the replay: '$new', recorded '$orig'"
	fi
	[ "$new_dir" = "$want_dir" ] && grep -q "^replay: made $orig_dir as $want_dir" "$mode.replay" &&
		pass "$mode: the replay's pins are in $new_dir, named by the replay's numbers" ||
		fail "$mode: the pin directory is '$new_dir', wanted $want_dir ($(grep 'made ' "$mode.replay"))"
	[ -e "$new_dir/prog0-prog" ] && [ -e "$new_dir/prog0-link" ] || fail "$mode: no prog0-prog/prog0-link in $new_dir"

	# traffic: fx_xdp_pass runs on the packets xdA receives
	id=$(comp_id "$new")
	before=$(seen "$id")
	ping -c 3 -W 1 -I xdB 10.77.0.1 >/dev/null 2>&1
	after=$(seen "$id")
	[ "$before" != none ] && [ "$after" != none ] && [ "$after" -gt "$before" ] &&
		pass "$mode: the replayed fx_xdp_pass (id $id) ran on traffic: its counter $before -> $after" ||
		fail "$mode: fx_xdp_pass (id $id) did not run on traffic: its counter $before -> $after"

	xdp-loader unload -a xdA >"$mode.unload" 2>&1 || fail "$mode: xdp-loader unload after the replay failed: $(cat "$mode.unload")"
	# (/sys/fs/bpf/xdp/globals is iproute2's libbpf's, of another test or of the blocker below)
	[ -z "$(status_of xdA)" ] && [ -z "$(ls -d /sys/fs/bpf/xdp/dispatch-* 2>/dev/null)" ] &&
		pass "$mode: xdp-loader unload -a took the replay's programs and pins down" ||
		fail "$mode: after unload: status '$(status_of xdA)', /sys/fs/bpf/xdp has $(ls -A /sys/fs/bpf/xdp)"

	# a replay that fails at the attachment (xdA has an XDP program of ip's) leaves no pin behind
	had_globals=; [ ! -e /sys/fs/bpf/xdp/globals ] || had_globals=1
	$IP link set dev xdA xdpgeneric obj "$OBJ" sec xdp || fail "$mode: attaching a blocker to xdA failed"
	"$BPFRR" replay "$mode.bundle" >"$mode.fail" 2>"$mode.fail.err"
	rc=$?
	[ "$rc" != 0 ] && grep -q 'netlink(RTM_SETLINK) (in user space): \(File exists\|Device or resource busy\)' "$mode.fail.err" &&
		pass "$mode: the replay onto an occupied xdA fails at its attachment: $(head -n 1 "$mode.fail.err")" ||
		fail "$mode: the replay onto an occupied xdA: exit $rc, $(cat "$mode.fail.err")"
	# (ip's libbpf makes /sys/fs/bpf/xdp/globals for the blocker: not the replay's)
	[ -z "$(find /sys/fs/bpf/xdp -mindepth 1 ! -path '/sys/fs/bpf/xdp/globals*' 2>/dev/null)" ] &&
		pass "$mode: the failed replay left no pin or directory" ||
		fail "$mode: the failed replay left $(find /sys/fs/bpf/xdp -mindepth 1 ! -path '/sys/fs/bpf/xdp/globals*')"
	$IP link set dev xdA xdpgeneric off
	[ -n "$had_globals" ] || rm -rf /sys/fs/bpf/xdp/globals
	check_nothing_left "$mode"
done
cleanup
finish
