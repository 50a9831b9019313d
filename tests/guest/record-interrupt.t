#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Interrupted recordings (issue 14, item 10), with real bpf() calls:
#   - the recorder killed with SIGKILL, with its tracee inside a bpf() call
#     (record-slowcall: BPF_PROG_TEST_RUN with 2^31 repeats) and at several
#     moments of a libbpf-tool's load (runqlat): the trace reads as truncated
#     (`bpfrr dump` exits 3, says "truncated", prints the complete records),
#     the tracee does not run on, stopped or not (PTRACE_O_EXITKILL kills it),
#     and it leaves no BPF object behind;
#   - the tracee killed with SIGKILL inside a bpf() call, and between calls:
#     the recorder exits 137 and the trace is complete, with the call marked
#     as not returned, the task's exit and the end record saying SIGKILL;
#     translate takes it as complete and drops the call that did not return;
#   - SIGINT and SIGTERM sent to the recorder (by timeout) reach the loader,
#     whose handler runs (record-slowcall makes one more bpf() call and exits
#     0; runqlat prints its histogram) and the recording completes with the
#     loader's status;
#   - the recorder under a tracer that follows forks (strace -f, an outer
#     bpfrr record): one line naming the tracer, exit 125, nothing run.
. "$(dirname "$0")/record-lib.sh"

SLOW=$ROOT/tests/guest/record-slowcall

# wait_file FILE SECS: wait until FILE exists
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# gone PID SECS: wait until PID no longer exists (a zombie counts as gone: it
# does not run), or say in what state it still is
gone() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		[ -e "/proc/$1" ] || return 0
		state=$(sed -n 's/^State:[[:space:]]*\([A-Za-z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
		[ "$state" = Z ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "${state:-?}"
	return 1
}

# child_of PID: the first process whose parent is PID (busybox has no pgrep)
child_of() {
	for st in /proc/[0-9]*/status; do
		if grep -q "^PPid:[[:space:]]*$1\$" "$st" 2>/dev/null; then
			st=${st#/proc/}
			echo "${st%/status}"
			return 0
		fi
	done
	return 1
}

# running NAME: is a process of that command name there (not a zombie)?
running() {
	for st in /proc/[0-9]*/status; do
		grep -q "^Name:[[:space:]]*$1\$" "$st" 2>/dev/null &&
			! grep -q '^State:[[:space:]]*Z' "$st" 2>/dev/null && return 0
	done
	return 1
}

# dump_truncated NAME TRACE WANT_REGEX: dump TRACE must exit 3, say truncated
# on stderr, and print the complete records (WANT_REGEX among them)
dump_truncated() {
	"$BPFRR" dump "$2" >"$1.dump" 2>"$1.dump.err"
	rc=$?
	[ $rc = 3 ] || fail "$1: bpfrr dump exited $rc, not 3: $(tail -2 "$1.dump.err")"
	grep -qi truncated "$1.dump.err" || fail "$1: bpfrr dump did not say truncated: $(cat "$1.dump.err")"
	grep -Eq "$3" "$1.dump" || fail "$1: the dump of the complete records lacks /$3/: $(tail -3 "$1.dump")"
	# every complete record: as many calls as the reader returns
	"$TRACECAT" "$2" >"$1.cat" 2>/dev/null
	ncat=$(grep -c '^BPF_CALL ' "$1.cat")
	ndump=$(grep -Ec '^#[0-9]+ \[[0-9]+\] BPF_' "$1.dump")
	[ "$ncat" = "$ndump" ] || fail "$1: the reader returns $ncat bpf() calls, dump printed $ndump"
	[ $rc = 3 ] && pass "$1: dump exits 3 (truncated) and prints the $ndump complete bpf() calls"
}

# --- 1. the recorder killed while the tracee is inside bpf() ----------------------
take_max
rm -f k1.ready
"$BPFRR" record -o k1.trace -- "$SLOW" "$PWD/k1.ready" incall >k1.out 2>k1.err &
rec=$!
if wait_file k1.ready 30; then
	tracee=$(cut -d' ' -f1 k1.ready)
	sleep 0.5
	grep -q '^State:.*[RS]' "/proc/$tracee/status" ||
		echo "note: tracee $tracee: $(grep '^State' "/proc/$tracee/status")"
	kill -KILL $rec
	wait $rec
	if st=$(gone "$tracee" 5); then
		pass "recorder killed mid-bpf(): its tracee $tracee ended"
	else
		fail "recorder killed mid-bpf(): its tracee $tracee is still there, state $st"
		kill -KILL "$tracee"
	fi
	dump_truncated k1 k1.trace '^#[0-9]+ \[[0-9]+\] BPF_PROG_LOAD = [0-9]+ '
	grep -q 'BPF_PROG_TEST_RUN' k1.dump &&
		fail "k1: a call whose record was never written is in the dump"
	check_nothing_left "recorder killed mid-bpf()"
else
	fail "record-slowcall did not get ready in 30 s: $(cat k1.err)"
	kill -KILL $rec
	wait $rec
fi

# --- 2. the recorder killed at moments of runqlat's load ---------------------------
for at in 0.2 0.5 1 1.5 2 3; do
	take_max
	"$BPFRR" record -o "k2-$at.trace" -- runqlat 1 5 >"k2-$at.out" 2>"k2-$at.err" &
	rec=$!
	sleep "$at"
	tracee=$(child_of $rec)
	kill -KILL $rec
	wait $rec
	if [ -n "$tracee" ] && ! st=$(gone "$tracee" 5); then
		fail "runqlat, recorder killed at $at s: tracee $tracee is still there, state $st"
		kill -KILL "$tracee"
	fi
	running runqlat && fail "runqlat, recorder killed at $at s: a runqlat runs on"
	dump_truncated "k2-$at" "k2-$at.trace" '^# command: runqlat 1 5'
	echo "recorder killed at $at s: $(grep -Ec '^#[0-9]+ \[[0-9]+\] BPF_' "k2-$at.dump") bpf() calls recorded"
	check_nothing_left "runqlat, recorder killed at $at s"
done

# --- 3. the tracee killed inside bpf(), and between calls ---------------------------
for mode in incall between; do
	rm -f "k3-$mode.ready"
	"$BPFRR" record -o "k3-$mode.trace" -- "$SLOW" "$PWD/k3-$mode.ready" $mode \
		>"k3-$mode.out" 2>"k3-$mode.err" &
	rec=$!
	if ! wait_file "k3-$mode.ready" 30; then
		fail "k3-$mode: record-slowcall did not get ready in 30 s: $(cat "k3-$mode.err")"
		kill -KILL $rec
		wait $rec
		continue
	fi
	tracee=$(cut -d' ' -f1 "k3-$mode.ready")
	sleep 0.5
	kill -KILL "$tracee"
	wait $rec
	rc=$?
	[ $rc = 137 ] || fail "k3-$mode: tracee killed: the recorder exited $rc, not 137: $(cat "k3-$mode.err")"
	if ! "$BPFRR" dump "k3-$mode.trace" >"k3-$mode.dump" 2>"k3-$mode.dump.err"; then
		fail "k3-$mode: bpfrr dump of the trace failed: $(cat "k3-$mode.dump.err")"
		continue
	fi
	grep -q "^task $tracee: exit (killed by SIGKILL)" "k3-$mode.dump" ||
		fail "k3-$mode: no task exit killed by SIGKILL in the dump"
	grep -q '^end: traced command killed by SIGKILL' "k3-$mode.dump" ||
		fail "k3-$mode: the end record does not say SIGKILL: $(tail -1 "k3-$mode.dump")"
	if [ $mode = incall ]; then
		grep -Eq "^#[0-9]+ \[$tracee\] BPF_PROG_TEST_RUN = \? \(did not return\)" "k3-$mode.dump" ||
			fail "k3-$mode: BPF_PROG_TEST_RUN is not recorded as not returned: $(grep PROG_TEST_RUN "k3-$mode.dump")"
		grep -q 'call did not return: the task was killed by signal 9' "k3-$mode.dump" ||
			fail "k3-$mode: no note saying why the call did not return: $(grep -i note "k3-$mode.dump")"
	else
		grep -q 'did not return' "k3-$mode.dump" &&
			fail "k3-$mode: a call is marked as not returned though the tracee was between calls"
	fi
	"$BPFRR" translate --explain -o "k3-$mode.bundle" "k3-$mode.trace" >"k3-$mode.explain" 2>&1
	rc=$?
	[ $rc = 0 ] || fail "k3-$mode: translate exited $rc: $(tail -3 "k3-$mode.explain")"
	if [ $mode = incall ]; then
		grep -q 'did not return' "k3-$mode.explain" ||
			fail "k3-$mode: translate --explain does not drop the call that did not return"
	fi
	pass "k3-$mode: tracee killed $mode: recorder 137, complete trace ending in SIGKILL, translate $rc"
done

# --- 4. SIGINT and SIGTERM to the recorder reach the loader ------------------------
for sig in INT TERM; do
	for mode in incall between; do
		name=k4-$sig-$mode
		rm -f "$name.ready"
		timeout -s $sig 4 "$BPFRR" record -o "$name.trace" -- "$SLOW" "$PWD/$name.ready" $mode \
			>"$name.out" 2>"$name.err"
		rc=$?
		[ $rc = 0 ] || fail "$name: SIG$sig to the recorder: exited $rc, not the loader's 0: $(cat "$name.err")"
		grep -q '^cleaned up' "$name.out" || fail "$name: the loader's handler did not run: $(cat "$name.out")"
		if ! "$TRACECAT" "$name.trace" >"$name.cat" 2>"$name.cat.err"; then
			fail "$name: the trace is not complete: $(cat "$name.cat.err")"
			continue
		fi
		"$BPFRR" dump "$name.trace" >"$name.dump" 2>&1
		grep -Eq '^#[0-9]+ \[[0-9]+\] BPF_OBJ_GET_INFO_BY_FD = 0 ' "$name.dump" ||
			fail "$name: the loader's call after the signal is not recorded"
		if [ $mode = incall ]; then
			grep -Eq '^#[0-9]+ \[[0-9]+\] BPF_PROG_TEST_RUN = -1 EINTR ' "$name.dump" ||
				fail "$name: the interrupted BPF_PROG_TEST_RUN does not return EINTR: $(grep PROG_TEST_RUN "$name.dump")"
		fi
		grep -q '^end: traced command exited with 0' "$name.dump" ||
			fail "$name: the end record does not carry the loader's exit 0"
		[ $rc = 0 ] && pass "$name: SIG$sig forwarded, the loader cleaned up and exited 0, the trace is complete"
	done
done
# a libbpf-tool: runqlat prints its histogram on SIGINT and exits 0
timeout -s INT 6 "$BPFRR" record -o k4-runqlat.trace -- runqlat >k4-runqlat.out 2>k4-runqlat.err
rc=$?
if [ $rc = 0 ] && grep -q 'usecs.*: count' k4-runqlat.out &&
	"$TRACECAT" k4-runqlat.trace >k4-runqlat.cat 2>k4-runqlat.cat.err; then
	pass "runqlat: SIGINT forwarded, histogram printed, exit 0, trace complete"
else
	fail "runqlat under SIGINT: exit $rc, output: $(tail -3 k4-runqlat.out) $(tail -2 k4-runqlat.err) $(cat k4-runqlat.cat.err 2>/dev/null)"
fi

# --- 5. already traced ------------------------------------------------------------
rm -f ran
strace -f -o /dev/null "$BPFRR" record -o k5.trace -- touch ran >k5.out 2>k5.err
rc=$?
[ $rc = 125 ] || fail "under strace -f: the recorder exited $rc, not 125"
[ "$(wc -l <k5.err)" = 1 ] || fail "under strace -f: not one line: $(cat k5.err)"
grep -Eq '^bpfrr record: the command is already traced by process [0-9]+ \(strace\): ' k5.err ||
	fail "under strace -f: the line does not name strace: $(cat k5.err)"
"$BPFRR" record -o k5-outer.trace -- "$BPFRR" record -o k5.trace -- touch ran >k5b.out 2>k5b.err
rc2=$?
[ $rc2 = 125 ] || fail "under bpfrr record: the recorder exited $rc2, not 125"
grep -Eq '^bpfrr record: the command is already traced by process [0-9]+ \(bpfrr\): ' k5b.err ||
	fail "under bpfrr record: the line does not name bpfrr: $(cat k5b.err)"
[ -e ran ] && fail "an already traced command ran"
[ $rc = 125 ] && [ $rc2 = 125 ] && pass "already traced (strace -f, bpfrr record): one line, exit 125"

finish
