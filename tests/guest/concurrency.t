#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Concurrent runs in one guest (issue 14 item 12):
#  1. 8 `bpfrr replay --verify --pin DIR` of the same bundle at once: each
#     succeeds with 0 mismatches, each pins under its own DIR, no two share a
#     program or map id, and once the pins are gone nothing is left (id walk);
#  2. 4 `bpfrr record` of loaders at once: each trace complete, translatable,
#     and with as many bpf() calls as the same loader recorded alone.
. "$(dirname "$0")/record-lib.sh"
require_fixtures

NR_REPLAYS=8
RECORDED="fx_maps fx_globals fx_tailcall fx_core"
PIN_TOP=/sys/fs/bpf/concurrency

# --- 1. replays ------------------------------------------------------------------------------
record_cmd fx_tailcall.trace fx_tailcall.rec.out "$FX/fx_tailcall" ||
	{ fail "fx_tailcall: bpfrr record exited $rc"; show fx_tailcall.rec.out; finish; }
"$BPFRR" translate -o fx_tailcall.bundle fx_tailcall.trace 2>translate.err ||
	{ fail "translate fx_tailcall: $(cat translate.err)"; finish; }

take_max
rm -rf $PIN_TOP
mkdir -p $PIN_TOP
i=1
while [ $i -le $NR_REPLAYS ]; do
	"$BPFRR" replay --verify --pin $PIN_TOP/r$i fx_tailcall.bundle >replay$i.out 2>&1 &
	eval pid$i=$!
	i=$((i + 1))
done
i=1
while [ $i -le $NR_REPLAYS ]; do
	eval wait \$pid$i
	status=$?
	if [ $status -ne 0 ] || ! grep -q '^verify: [0-9]* checks, 0 mismatches' replay$i.out; then
		fail "replay $i of $NR_REPLAYS: status $status"
		sed 's/^/    /' replay$i.out
	fi
	i=$((i + 1))
done
# the objects each replay pinned, as "kind id"; no id may appear twice
: >pinned-ids
i=1
while [ $i -le $NR_REPLAYS ]; do
	n=0
	for p in $PIN_TOP/r$i/*; do
		[ -e "$p" ] || continue
		for kind in prog map link; do
			id=$(bpftool $kind show pinned "$p" 2>/dev/null | sed -n 's/^\([0-9][0-9]*\): .*/\1/p')
			[ -n "$id" ] && { echo "$kind $id" >>pinned-ids; n=$((n + 1)); break; }
		done
	done
	[ $n -gt 0 ] || fail "replay $i pinned nothing under $PIN_TOP/r$i"
	i=$((i + 1))
done
per=$(($(wc -l <pinned-ids) / NR_REPLAYS))
dups=$(sort pinned-ids | uniq -d | tr '\n' ' ')
if [ -n "$dups" ]; then
	fail "concurrent replays share objects: $dups"
elif [ $per -gt 0 ]; then
	pass "$NR_REPLAYS concurrent replays verified, $(wc -l <pinned-ids) pinned objects ($per each), no id shared"
fi
rm -rf $PIN_TOP
check_nothing_left "after $NR_REPLAYS concurrent replays and their pins"

# --- 2. recordings ---------------------------------------------------------------------------
# alone first: the number of bpf() calls each loader makes
for l in $RECORDED; do
	record_cmd "$l.solo.trace" "$l.solo.out" "$FX/$l" || fail "$l alone: bpfrr record exited $rc"
done
take_max
for l in $RECORDED; do
	"$BPFRR" record -o "$l.conc.trace" -- "$FX/$l" >"$l.conc.out" 2>"$l.conc.out.err" &
	eval rpid_$l=$!
done
for l in $RECORDED; do
	eval wait \$rpid_$l
	status=$?
	[ $status -eq 0 ] || { fail "$l recorded concurrently: status $status"; show "$l.conc.out"; continue; }
	if ! "$TRACECAT" "$l.conc.trace" >"$l.conc.trace.txt" 2>"$l.conc.err"; then
		fail "$l recorded concurrently: the trace does not read whole: $(cat "$l.conc.err")"
		continue
	fi
	alone=$(grep -c '^BPF_CALL' "$l.solo.trace.txt")
	conc=$(grep -c '^BPF_CALL' "$l.conc.trace.txt")
	if ! "$BPFRR" translate -o "$l.conc.bundle" "$l.conc.trace" 2>"$l.conc.terr"; then
		fail "$l recorded concurrently does not translate: $(cat "$l.conc.terr")"
	elif [ "$alone" != "$conc" ]; then
		fail "$l recorded concurrently: $conc bpf() calls, $alone alone"
	else
		pass "$l recorded concurrently: complete, translates, $conc bpf() calls as alone"
	fi
done
check_nothing_left "after $(echo $RECORDED | wc -w) concurrent recordings"
finish
