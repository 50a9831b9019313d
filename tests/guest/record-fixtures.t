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
