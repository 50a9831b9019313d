#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-netlink.t: the recorder follows NETLINK_ROUTE sockets and
# what is sent on them (docs/recorder.md, "Netlink"), on harmless tracees (TAP):
# a NETLINK_GENERIC socket and its send are not recorded; an RTM_GETLINK sent
# with sendmsg in two iovecs is one region, gathered, that dump decodes as a
# read; `ip link set dev lo xdpgeneric off` as sendto (in a network namespace of
# its own, under unshare -n) names lo and decodes IFLA_XDP; translate drops
# both (a query; a detach with nothing built). No bpf(): nothing is loaded.
set -u
. "$(dirname "$0")/record-lib.sh"

record "$tmp/nl.trace" -- "$tracee" netlink
expect "netlink: exit 0" 0 "$rc"
"$tracecat" "$tmp/nl.trace" >"$tmp/nl.txt"
"$bpfrr" dump "$tmp/nl.trace" >"$tmp/nl.dump" 2>&1
"$bpfrr" dump --json "$tmp/nl.trace" >"$tmp/nl.json" 2>&1
expect "one socket recorded (NETLINK_ROUTE; not NETLINK_GENERIC)" 1 "$(grep -c '^SYSCALL .* name=socket ' "$tmp/nl.txt")"
expect "one send recorded (not the NETLINK_GENERIC one)" 1 "$(grep -cE '^SYSCALL .* name=(sendto|sendmsg) ' "$tmp/nl.txt")"
has "sendmsg's two iovecs are one 32-byte region" "$tmp/nl.dump" '^      entry in: 32 bytes, netlink$'
has "dump decodes the request" "$tmp/nl.dump" '^        RTM_GETLINK \[REQUEST\] seq 7, ifindex 1: read$'
has "dump --json decodes it" "$tmp/nl.json" '"netlink":\[\{"type":18,"type_name":"RTM_GETLINK","flags":1,"flags_names":"REQUEST","seq":7,"effect":"read","truncated":false,"ifindex":1,"ifname":null\}\]'
hasnt "a query names no device" "$tmp/nl.dump" 'ifname\.'
"$build/host/nobpf" "$bpfrr" translate --explain -o "$tmp/nl.bundle" "$tmp/nl.trace" >"$tmp/nl.explain" 2>&1
has "translate drops the query" "$tmp/nl.explain" \
	'^ +[0-9]+  sendmsg\(RTM_GETLINK\) +dropped: a netlink request that changes no BPF state \(a query\)$'

if unshare -n true 2>/dev/null; then
	unshare -n "$bpfrr" record -o "$tmp/off.trace" -- "$tracee" netlink-xdp-off
	rc=$?
	expect "netlink-xdp-off (unshare -n): exit 0" 0 "$rc"
	"$bpfrr" dump "$tmp/off.trace" >"$tmp/off.dump" 2>&1
	"$bpfrr" dump --json "$tmp/off.trace" >"$tmp/off.json" 2>&1
	has "dump decodes the detach, lo by name" "$tmp/off.dump" \
		'^        RTM_NEWLINK \[REQUEST\|ACK\] seq 8, ifindex 1 \(lo\): detach$'
	has "dump decodes IFLA_XDP" "$tmp/off.dump" '^          IFLA_XDP: fd -1 \(none\), flags 0x2 mode skb$'
	has "the device's name is a region of the call" "$tmp/off.json" \
		'\{"path":"ifname\.1","phase":"exit","dir":"out","content":"string",.*"text":"lo"\}'
	has "dump --json: xdp fd -1, skb" "$tmp/off.json" '"ifname":"lo","xdp":\{"fd":-1,"flags":2,"mode":"skb"\}'
	"$build/host/nobpf" "$bpfrr" translate --explain -o "$tmp/off.bundle" "$tmp/off.trace" >"$tmp/off.explain" 2>&1
	has "translate: a detach with nothing built replays nothing" "$tmp/off.explain" \
		'^ +[0-9]+  sendto\(RTM_NEWLINK\) +dropped: nothing was built: no replay point$'
else
	skip "netlink-xdp-off" "unshare -n is not allowed here"
fi
done_testing
