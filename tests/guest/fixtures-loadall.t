#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Debian's bpftool loads the plain fixture object fx_loadall.bpf.o (three
# program types, two maps, global data, CO-RE) with `prog loadall`, pinning
# programs and maps; unpinning releases everything.
. "$(dirname "$0")/fixtures-lib.sh"
require_fixtures

obj=$FX/fx_loadall.bpf.o
dir=/sys/fs/bpf/fxtest-loadall
rm -rf "$dir"
mkdir -p "$dir"
if bpftool prog loadall "$obj" "$dir/progs" pinmaps "$dir/maps" >loadall.out 2>&1; then
	progs=$(ls "$dir/progs" | sort | tr '\n' ' ')
	maps=$(ls "$dir/maps" | sort | tr '\n' ' ')
	[ "$progs" = "loadall_kprobe loadall_raw_tp loadall_tp " ] ||
		fail "pinned programs are '$progs'"
	for m in opens totals; do
		[ -e "$dir/maps/$m" ] || fail "map $m is not pinned (maps: $maps)"
	done
	ids=
	for p in "$dir"/progs/*; do
		id=$(bpftool prog show pinned "$p" | sed -n 's/^\([0-9]*\): .*/\1/p')
		[ -n "$id" ] || fail "bpftool prog show pinned $p found nothing"
		ids="$ids $id"
	done
	bpftool prog show pinned "$dir/progs/loadall_kprobe" | grep -q kprobe ||
		fail "loadall_kprobe is not a kprobe program"
	rm -rf "$dir"
	wait_gone prog $ids || fail "programs left after unpinning"
	pass "bpftool prog loadall: programs $progs; maps $maps"
else
	fail "bpftool prog loadall exited with status $?"
	rm -rf "$dir"
fi
sed 's/^/    /' loadall.out

finish
