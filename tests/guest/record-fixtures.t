#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every fixture loader, recorded with --trigger: its exit status and output
# pass through unchanged, the trace is complete, and every object the loader
# reports (ids and tags from its own BPF_OBJ_GET_INFO_BY_FD) has an identity
# record of the recorder with the same id and tag. fx_threads: the
# concurrent loads are recorded per thread; fx_fork: the child's calls are
# its own, and the map fd it inherited is known through the fork's copy of
# the fd table (no adopt).
. "$(dirname "$0")/record-lib.sh"
require_fixtures

for l in $(fx_loaders); do
	record_cmd "$l.trace" "$l.out" "$FX/$l" --trigger
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$l --trigger under bpfrr record exited $rc"
		show "$l.out"
		continue
	fi
	check_report "$l" "$l.out"
	grep -q '^trigger .* ok$' "$l.out" || fail "$l --trigger under the recorder printed no 'trigger ... ok'"
	check_identities "$l" "$l.out" "$l.trace"
	pass "$l: $(grep -c '^BPF_CALL' "$l.trace.txt") bpf() calls, $(grep -c '^OBJECT' "$l.trace.txt") identities"
done

# Closes of kernel objects' fds are written at their entry and not stopped at
# their exit (trace format 2.2, flag 0x10): every close of a BPF object fd in
# fx_onemap's trace says so, and the recorder's own count of stops is two per
# kept call less one per such close; with BPFRR_RECORD_WAIT_CLOSES=1 it is two
# per call again and no close carries the flag.
for way in default wait; do
	if [ $way = wait ]; then
		BPFRR_RECORD_WAIT_CLOSES=1 "$BPFRR" record -s -o closes-$way.trace -- "$FX/fx_onemap" \
			>closes-$way.out 2>closes-$way.err
	else
		"$BPFRR" record -s -o closes-$way.trace -- "$FX/fx_onemap" >closes-$way.out 2>closes-$way.err
	fi
	rc=$?
	"$TRACECAT" closes-$way.trace >closes-$way.txt 2>closes-$way.cat.err || rc=1
	if [ "$rc" != 0 ]; then
		fail "closes ($way): fx_onemap recorded or read back badly: $(tail -2 closes-$way.err closes-$way.cat.err)"
		continue
	fi
	calls=$(sed -n 's/.*: \([0-9]*\) bpf() calls, \([0-9]*\) other calls, \([0-9]*\) stops$/\1 \2 \3/p' \
		closes-$way.err)
	set -- $calls
	closes=$(grep -c '^SYSCALL .* name=close ' closes-$way.txt)
	quick=$(grep -c '^SYSCALL .* name=close .* flags=0x10 ret=0' closes-$way.txt)
	if [ $# != 3 ] || [ "$closes" = 0 ]; then
		fail "closes ($way): no summary line or no close: '$calls', $closes closes"
		continue
	fi
	if [ $way = default ]; then
		want=$((2 * ($1 + $2) - closes))
		[ "$quick" = "$closes" ] || fail "closes: $quick of fx_onemap's $closes closes were not waited for, expected all"
	else
		want=$((2 * ($1 + $2)))
		[ "$quick" = 0 ] || fail "closes (BPFRR_RECORD_WAIT_CLOSES=1): $quick closes still not waited for"
	fi
	if [ "$3" = "$want" ]; then
		pass "closes ($way): fx_onemap: $1 bpf() calls, $2 other ($closes closes, $quick not waited for), $3 stops"
	else
		fail "closes ($way): fx_onemap: $3 stops, expected $want ($1 bpf() calls, $2 other, $quick closes not waited for)"
	fi
done

# Trace format 3.0 stores a blob as copies of earlier ones where that is
# shorter (fx_core's BTF and instructions are mostly in its embedded object),
# 4.0 also deflated (the object's own strings, symbols and relocations);
# BPFRR_RECORD_TRACE_V2=1 writes 2.2 without either, BPFRR_RECORD_TRACE_V3=1
# 3.0. Recorded the three ways, fx_core's traces name their format, each is
# smaller than the one before, and all translate to the same standalone header
# (the loader's blob holds its BTF, instructions and line info: every byte
# that went through a copy or the deflate), but for the trace's name.
for v in 2 3 4; do
	if [ $v = 4 ]; then
		"$BPFRR" record -o core-v$v.trace -- "$FX/fx_core" >core-v$v.out 2>core-v$v.err
	else
		env "BPFRR_RECORD_TRACE_V$v=1" "$BPFRR" record -o core-v$v.trace -- "$FX/fx_core" >core-v$v.out 2>core-v$v.err
	fi || fail "fx_core recorded in format $v: $(tail -2 core-v$v.err)"
	mkdir -p core-v$v
	"$BPFRR" translate --format header --name ld -o core-v$v/ld.h core-v$v.trace 2>core-v$v.tr.err ||
		fail "fx_core's $v.x trace: translate --format header: $(tail -2 core-v$v.tr.err)"
	grep -v 'core-v[234]\.trace' core-v$v/ld.h >core-v$v.h
done
f2=$("$BPFRR" dump core-v2.trace 2>/dev/null | sed -n '1s/.*, format \([0-9.]*\),.*/\1/p')
f3=$("$BPFRR" dump core-v3.trace 2>/dev/null | sed -n '1s/.*, format \([0-9.]*\),.*/\1/p')
f4=$("$BPFRR" dump core-v4.trace 2>/dev/null | sed -n '1s/.*, format \([0-9.]*\),.*/\1/p')
s2=$(wc -c <core-v2.trace)
s3=$(wc -c <core-v3.trace)
s4=$(wc -c <core-v4.trace)
if [ "$f2" != 2.2 ] || [ "$f3" != 3.0 ] || [ "$f4" != 4.0 ]; then
	fail "fx_core: formats '$f2' (BPFRR_RECORD_TRACE_V2=1), '$f3' (BPFRR_RECORD_TRACE_V3=1) and '$f4', expected 2.2, 3.0 and 4.0"
elif [ "$s3" -ge "$s2" ] || [ "$s4" -ge "$s3" ]; then
	fail "fx_core: $s4 bytes in 4.0, $s3 in 3.0, $s2 in 2.2: each should be fewer than the one before"
elif ! cmp -s core-v2.h core-v3.h || ! cmp -s core-v3.h core-v4.h; then
	fail "fx_core: the headers translated from its 2.2, 3.0 and 4.0 traces differ: $(diff core-v2.h core-v4.h | head -4)"
else
	pass "fx_core: trace format 4.0 in $s4 bytes, 3.0 in $s3, 2.2 in $s2; the same header from the three"
fi

# fx_threads: 4 threads load concurrently
txt=fx_threads.trace.txt
threads=$(grep -c '^TASK event=thread ' "$txt")
[ "$threads" -ge 4 ] || fail "fx_threads: $threads thread records, expected at least 4"
tids=$(sed -n 's/^BPF_CALL .* tid=\([0-9]*\) cmd=BPF_PROG_LOAD .* ret=[0-9].*/\1/p' "$txt" | sort -u | wc -l)
[ "$tids" -ge 4 ] || fail "fx_threads: programs loaded by $tids tasks, expected at least 4"

# fx_fork: the child loads through the map fd it inherited
txt=fx_fork.trace.txt
child=$(sed -n 's/^TASK event=fork tid=\([0-9]*\) .*/\1/p' "$txt" | head -n 1)
if [ -z "$child" ]; then
	fail "fx_fork: no fork record"
else
	grep -q "^BPF_CALL .* tid=$child cmd=BPF_PROG_LOAD .* ret=[0-9]" "$txt" ||
		fail "fx_fork: no program load by the child $child"
	grep -q "^FD op=adopt .* tid=$child .* kind=1 " "$txt" &&
		fail "fx_fork: the child's inherited map fd was adopted, not known from the fork"
fi
finish
