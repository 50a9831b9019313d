#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Cgroup attachments (issue 12 item 7), end to end: fixtures/fx_cgroup opens a
# cgroup v2 directory made here and attaches count_egress with
# BPF_PROG_ATTACH (egress, BPF_F_ALLOW_MULTI) and on_sock_create with
# BPF_LINK_CREATE (sock_create); it detaches the first before exiting. The
# trace is translated (the cgroup's fd becomes a slot the replayer opens by
# the recorded path; the detach is teardown after the replay point) and
# replayed with --verify; while the replay holds its objects, `bpftool cgroup
# show` must list both programs on that cgroup with the replay's ids and the
# original's tags, and both must run for a ping made inside the cgroup. Once
# the replay exits, the link is gone and the BPF_PROG_ATTACH attachment stays
# (it outlives the replay as it outlived the loader's fds), and is detached here.
. "$(dirname "$0")/translate-lib.sh"
require_fixtures
command -v ping >/dev/null || { echo "no ping in the guest"; exit 1; }

CG=/sys/fs/cgroup/bpfrr-fx-cgroup
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || { echo "no cgroup2 at /sys/fs/cgroup"; exit 1; }
mkdir -p "$CG" || { echo "cannot make $CG"; exit 1; }
export FX_CGROUP=$CG
ifconfig lo 127.0.0.1 up 2>/dev/null

# cgroup_progs: "ID ATTACH_TYPE NAME" per program attached to $CG
cgroup_progs() {
	bpftool cgroup show "$CG" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { print $1, $2, $NF }'
}

take_max
record_cmd fx_cgroup.trace fx_cgroup.out "$FX/fx_cgroup"
rc=$?
if [ "$rc" != 0 ]; then
	fail "fx_cgroup: bpfrr record exited $rc"
	show fx_cgroup.out
	finish
fi
check_report fx_cgroup fx_cgroup.out
[ -z "$(cgroup_progs)" ] || fail "fx_cgroup left attachments on $CG: $(cgroup_progs)"
"$BPFRR" dump fx_cgroup.trace >fx_cgroup.dump 2>&1
grep -q "^ *\"$CG\"\$" fx_cgroup.dump || fail "the dump does not show the path $CG"
[ "$(grep -c 'target_fd: fd [0-9]* -> cgroup (#[0-9]* openat)' fx_cgroup.dump)" -ge 2 ] ||
	fail "the dump does not show the attach, link and detach target_fd as the opened cgroup"

if ! "$BPFRR" translate --explain -o fx_cgroup.bundle fx_cgroup.trace >fx_cgroup.explain 2>fx_cgroup.terr; then
	fail "fx_cgroup: bpfrr translate failed: $(cat fx_cgroup.terr)"
	finish
fi
grep -q '^ *[0-9]*  openat  *path slot [0-9]*: its fd is a slot the replayer opens by path' fx_cgroup.explain ||
	fail "the cgroup's open is not a path slot"
grep -q '^ *[0-9]*  BPF_PROG_ATTACH  *kept: ' fx_cgroup.explain || fail "BPF_PROG_ATTACH is not kept"
grep -q '^ *[0-9]*  BPF_LINK_CREATE  *kept: ' fx_cgroup.explain || fail "BPF_LINK_CREATE is not kept"
grep -q '^ *[0-9]*  BPF_PROG_DETACH  *dropped: after the replay point' fx_cgroup.explain ||
	fail "BPF_PROG_DETACH is not dropped as teardown"
pass "fx_cgroup: translated: $(tail -n 1 fx_cgroup.explain)"

# while the replay holds its objects: what is on the cgroup, and do both run
cat >held.sh <<HELD
bpftool cgroup show "$CG" >held.cgroup 2>&1
bpftool prog show >held.progs 2>&1
echo 1 >/proc/sys/kernel/bpf_stats_enabled
sh -c 'echo \$\$ >"$CG/cgroup.procs" && exec ping -c 2 -W 1 127.0.0.1' >held.ping 2>&1
for id in \$(awk '\$1 ~ /^[0-9]+\$/ { print \$1 }' held.cgroup); do
	"$ROOT/tests/guest/translate-runcnt" "\$id"
done >held.runcnt
echo 0 >/proc/sys/kernel/bpf_stats_enabled
HELD
replay_held fx_cgroup

sed 's/^/    held: /' held.cgroup held.runcnt
# the programs on the cgroup: the replay's (the original's ids are gone), with the original's tags
for want in "count_egress cgroup_inet_egress" "on_sock_create cgroup_inet_sock_create"; do
	set -- $want
	id=$(awk -v n="$1" -v t="$2" '$1 ~ /^[0-9]+$/ && $2 == t && $NF == n { print $1 }' held.cgroup)
	orig_id=$(sed -n "s/^prog name=$1 .* id=\([0-9]*\) .*/\1/p" fx_cgroup.out)
	orig_tag=$(sed -n "s/^prog name=$1 .* tag=\([0-9a-f]*\) .*/\1/p" fx_cgroup.out)
	if [ -z "$id" ]; then
		fail "$1 is not attached to $CG as $2 during the replay"
		continue
	fi
	[ "$id" != "$orig_id" ] || fail "$1 on $CG has the original's id $id"
	grep -q "^$id: .* tag $orig_tag " held.progs ||
		fail "$1 (id $id) on $CG does not have the original's tag $orig_tag"
	cnt=$(awk -v i="$id" '$1 == i { print $2 }' held.runcnt)
	[ -n "$cnt" ] && [ "$cnt" -gt 0 ] || fail "$1 (id $id) did not run for a ping in $CG (run_cnt '${cnt}')"
	pass "$1: attached to $CG as $2 (id $id, tag $orig_tag), ran $cnt times"
done

# after the replay: the link went with the replay's fds, the attachment stays
now=$(cgroup_progs)
echo "$now" | grep -q ' cgroup_inet_sock_create on_sock_create$' && fail "the link is still on $CG after the replay"
id=$(echo "$now" | awk '$2 == "cgroup_inet_egress" && $3 == "count_egress" { print $1 }')
if [ -n "$id" ]; then
	pass "after the replay, count_egress (id $id) stays attached to $CG, as BPF_PROG_ATTACH made it"
	bpftool cgroup detach "$CG" egress id "$id" || fail "bpftool cgroup detach $CG egress id $id failed"
else
	fail "count_egress is not attached to $CG after the replay: $now"
fi
check_nothing_left "fx_cgroup"
rmdir "$CG" 2>/dev/null
finish
