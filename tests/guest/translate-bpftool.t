#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpftool's other loading subcommands (issue 12 item 6), each recorded,
# translated, its effect taken away, replayed with --verify, and the effect
# checked back after the replay has exited (pins and attachments outlive it):
#   prog load OBJ PIN pinmaps DIR   the program pinned at PIN, its map in DIR
#                                   (a directory bpftool makes: a dir slot);
#   prog load OBJ PIN map name M pinned MAP
#                                   the program reuses a map pinned before the
#                                   recording (an object made outside the
#                                   trace: BPF_OBJ_GET of MAP at replay);
#   cgroup attach CG egress pinned PROG
#                                   a program pinned before, attached to a
#                                   cgroup (BPF_PROG_ATTACH, the cgroup opened
#                                   by path);
#   net attach xdp pinned PROG dev D
#                                   a pinned XDP program attached through
#                                   netlink (one user-space step);
#   struct_ops register OBJ         a TCP congestion control (fx_tcpca.bpf.o:
#                                   a struct_ops map whose value holds its
#                                   programs' fds, registered by the map
#                                   update), then used by a TCP connection,
#                                   and by one that loses its ACKs until a
#                                   timeout (corpus-trigger tcploss), so that
#                                   all four callbacks run.
# Debian's bpftool 7.1 has no `prog loadall ... autoattach` (it says
# "expected no more arguments, 'type', 'map' or 'dev', got: 'autoattach'").
. "$(dirname "$0")/translate-lib.sh"
require_fixtures
IP=/usr/sbin/ip
dir=/sys/fs/bpf/translate-bpftool
cg=/sys/fs/cgroup/translate-bpftool
cleanup() {
	bpftool cgroup detach "$cg" egress pinned "$dir/cg" 2>/dev/null
	rmdir "$cg" 2>/dev/null
	$IP link del btA 2>/dev/null
	rm -rf "$dir"
}
cleanup
mkdir -p "$dir" "$cg" || { echo "cannot make $dir and $cg"; exit 1; }
# tag_at PIN: the tag of the program pinned at PIN
tag_at() { bpftool prog show pinned "$1" 2>/dev/null | sed -n 's/.* tag \([0-9a-f]*\).*/\1/p'; }

# --- prog load ... pinmaps --------------------------------------------------------------
tr_before_replay='tag=$(tag_at "$dir/p1"); rm -rf "$dir/p1" "$dir/m1"'
if translate_and_replay pinmaps "" none bpftool prog load "$FX/fx_onemap.bpf.o" "$dir/p1" pinmaps "$dir/m1"; then
	[ -n "$tag" ] && [ "$(tag_at "$dir/p1")" = "$tag" ] && [ -e "$dir/m1/onemap" ] &&
		pass "pinmaps: the replay pinned the program (tag $tag) and its map in the directory it made again" ||
		fail "pinmaps: after the replay: $(find "$dir" -mindepth 1), tag '$(tag_at "$dir/p1")' (recorded '$tag')"
	grep -q "mkdir[at]*  *path slot [0-9]*: a directory on a bpffs the replayer makes: $dir/m1" pinmaps.explain ||
		fail "pinmaps: --explain has no directory slot for $dir/m1"
fi
rm -rf "$dir/p1" "$dir/m1"

# --- prog load ... map name M pinned MAP ------------------------------------------------
bpftool map create "$dir/shared" type array key 4 value 8 entries 4 name onemap ||
	fail "map pinned: bpftool map create failed"
shared_id=$(bpftool map show pinned "$dir/shared" | sed -n 's/^\([0-9]*\): .*/\1/p')
tr_before_replay='rm -f "$dir/p2"'
if translate_and_replay pinned "" none bpftool prog load "$FX/fx_onemap.bpf.o" "$dir/p2" map name onemap pinned "$dir/shared"; then
	maps=$(bpftool prog show pinned "$dir/p2" | sed -n 's/.*map_ids \([0-9,]*\).*/\1/p')
	[ -n "$shared_id" ] && [ "$maps" = "$shared_id" ] &&
		pass "pinned: the replayed program uses the map pinned at $dir/shared (id $shared_id)" ||
		fail "pinned: the replayed program's maps are '$maps', wanted the pinned map $shared_id"
	grep -q 'BPF_OBJ_GET  *kept: ' pinned.explain || fail "pinned: the BPF_OBJ_GET of $dir/shared is not kept"
fi
rm -f "$dir/p2" "$dir/shared"

# --- cgroup attach ----------------------------------------------------------------------
bpftool prog load "$FX/fx_cgroup.bpf.o" "$dir/cg" type cgroup/skb || fail "cgroup: loading fx_cgroup failed"
cg_prog=$(bpftool prog show pinned "$dir/cg" | sed -n 's/^\([0-9]*\): .*/\1/p')
attached() { bpftool cgroup show "$cg" | awk -v id="$1" '$1 == id && $2 == "cgroup_inet_egress" { print "yes" }'; }
tr_before_replay='bpftool cgroup detach "$cg" egress pinned "$dir/cg" && [ -z "$(attached "$cg_prog")" ] ||
	fail "cgroup: detaching the original failed"'
if translate_and_replay cgattach "" none bpftool cgroup attach "$cg" egress pinned "$dir/cg"; then
	[ "$(attached "$cg_prog")" = yes ] &&
		pass "cgroup: the replay attached program $cg_prog to $cg's egress again" ||
		fail "cgroup: $cg after the replay: $(bpftool cgroup show "$cg")"
fi
bpftool cgroup detach "$cg" egress pinned "$dir/cg" 2>/dev/null

# --- net attach -------------------------------------------------------------------------
if $IP link add btA type veth peer name btB && $IP link set btA up; then
	bpftool prog load "$FX/fx_netlink.bpf.o" "$dir/xdp" type xdp || fail "net: loading fx_netlink failed"
	xdp_prog=$(bpftool prog show pinned "$dir/xdp" | sed -n 's/^\([0-9]*\): .*/\1/p')
	on_dev() { bpftool net show dev btA | sed -n 's/^btA([0-9]*) driver id \([0-9]*\)$/\1/p'; }
	tr_before_replay='bpftool net detach xdp dev btA && [ -z "$(on_dev)" ] || fail "net: detaching the original failed"'
	tr_patched_user=1	# the netlink request
	if translate_and_replay netattach "" none bpftool net attach xdp pinned "$dir/xdp" dev btA; then
		[ -n "$xdp_prog" ] && [ "$(on_dev)" = "$xdp_prog" ] &&
			pass "net: the replay attached program $xdp_prog to btA's XDP hook again" ||
			fail "net: btA after the replay: $(bpftool net show dev btA)"
	fi
	tr_patched_user=
	bpftool net detach xdp dev btA
else
	fail "net: cannot make a veth pair"
fi

# --- struct_ops register ----------------------------------------------------------------
# The kernel registers a struct_ops type only with CONFIG_MODULES ('struct module' in its BTF).
ca_avail=/proc/sys/net/ipv4/tcp_available_congestion_control
ca_registered() { tr ' ' '\n' <"$ca_avail" | grep -qx fx_ca; }
TRIGGER=${BPFRR_ROOT:-/opt/bpfrr}/tests/guest/corpus-trigger
# ca_runs [SLOT]: how often the fx_ca callback of SLOT ran (fx_ca_calls: 0 ssthresh, 1 cong_avoid,
# 2 undo_cwnd, 3 init, the default), by its own count (the largest if more than one map has that
# name). Not `bpftool prog show`: bpftool 7.1 prints run_cnt only with a non-zero run_time_ns, and
# these programs run in less than the guest's clock tick.
ca_runs() {
	bpftool -j map dump name fx_ca_calls 2>/dev/null | tr -d ' \n' | tr '{' '\n' |
		sed -n "s/^\"key\":${1:-3},\"value\":\([0-9]*\).*/\1/p" | sort -n | tail -n 1
}
if [ -e /proc/modules ]; then	# CONFIG_MODULES
	# A replay while the original is still registered fails at the map update (the
	# kernel has an fx_ca already) and leaves no object of its own behind; then the
	# original goes and the replay registers its own.
	tr_before_replay='take_max
		if "$BPFRR" replay structops.bundle >structops.busy 2>&1; then
			fail "struct_ops: a replay over the registered original succeeded"
		else
			grep -q "File exists" structops.busy && pass "struct_ops: a replay over the registered original fails: $(grep -m1 -i "exists" structops.busy)" ||
				fail "struct_ops: a replay over the registered original failed otherwise: $(cat structops.busy)"
			check_nothing_left "struct_ops: the failed replay"
		fi
		bpftool struct_ops unregister name fx_ca >/dev/null && ! ca_registered ||
		fail "struct_ops: unregistering the original failed"'
	if translate_and_replay structops "" none bpftool struct_ops register "$FX/fx_tcpca.bpf.o"; then
		# --verify: the kernel's value of the replayed map holds the replayed programs' ids
		grep -q '^ *[0-9]*  *map.fx_ca  *contents  *inuse, 4 programs  *same  *ok$' structops.replay &&
			pass "struct_ops: --verify found fx_ca registered with the 4 replayed programs" ||
			fail "struct_ops: the verify table's contents row: $(grep 'map.fx_ca  *contents' structops.replay)"
		if ca_registered; then
			pass "struct_ops: the replay registered fx_ca again ($(cat "$ca_avail"))"
			# a connection that uses fx_ca: its init callback runs at its start
			old_ca=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
			echo fx_ca >/proc/sys/net/ipv4/tcp_congestion_control
			# (up to five tries: under TCG a listener may not be up in time; a try counts
			# once the listener got the line)
			conns=0
			for port in 7411 7412 7413 7414 7415; do
				rm -f structops.got
				timeout 20 nc -l -p $port >structops.got 2>/dev/null &
				sleep 2
				echo fx_ca | timeout 10 nc 127.0.0.1 $port >/dev/null 2>&1
				wait 2>/dev/null
				grep -q fx_ca structops.got 2>/dev/null && conns=$((conns + 1))
				runs=$(ca_runs)
				[ "${runs:-0}" -gt 0 ] && break
			done
			echo "$old_ca" >/proc/sys/net/ipv4/tcp_congestion_control
			[ "${runs:-0}" -gt 0 ] && pass "struct_ops: a TCP connection ran the replayed fx_ca (fx_ca_init ran $runs times)" ||
				fail "struct_ops: fx_ca_init did not run after $conns connection(s): $(bpftool -j map dump name fx_ca_calls)"
			# a loss and its undo: a connection whose ACKs fx_lossy drops until the sender's
			# timeout, whose retransmission's DSACK shows it spurious (ssthresh, undo_cwnd;
			# about 0.2 s a try; a try that saw no timeout and undo exits 1)
			tries=0
			while [ $tries -lt 3 ]; do
				tries=$((tries + 1))
				"$TRIGGER" tcploss fx_ca "$FX/fx_lossy.bpf.o" >structops.loss 2>&1 && break
			done
			ss=$(ca_runs 0) undo=$(ca_runs 2)
			[ "${ss:-0}" -gt 0 ] && [ "${undo:-0}" -gt 0 ] &&
				pass "struct_ops: a loss and its undo ran fx_ca's ssthresh ($ss) and undo_cwnd ($undo) in $tries tries: $(cat structops.loss)" ||
				fail "struct_ops: after $tries lossy connection(s) ssthresh ran ${ss:-0} and undo_cwnd ${undo:-0} times: $(cat structops.loss)"
		else
			fail "struct_ops: fx_ca is not registered after the replay: $(cat "$ca_avail")"
		fi
		grep -q 'BPF_MAP_UPDATE_ELEM' structops.explain ||
			fail "struct_ops: --explain has no BPF_MAP_UPDATE_ELEM"
	fi
	# the host half reads the recording (translate-bpftool.host)
	[ -n "${BPFRR_TEST_OUT:-}" ] && [ -d "$BPFRR_TEST_OUT" ] && cp structops.trace "$BPFRR_TEST_OUT/structops.trace"
	bpftool struct_ops unregister name fx_ca >/dev/null 2>&1
else
	pass "struct_ops: skipped: this kernel has no CONFIG_MODULES, so no struct_ops type is registered"
fi
tr_before_replay=
cleanup
finish
