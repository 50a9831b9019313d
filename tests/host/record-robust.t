#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-robust.t: what is left when things die (TAP).
#   - a recorder killed with SIGKILL takes its tracee with it
#     (PTRACE_O_EXITKILL) and leaves a trace whose complete records read,
#     reported as truncated;
#   - a tracee killed inside a call the recorder waits on leaves that call's
#     record, marked "did not return", and a complete trace;
#   - a command that is already traced (the recorder runs under a tracer that
#     follows forks: another bpfrr record, strace -f) is refused in one line
#     naming the tracer, exit 125, and does not run.
# The tracees make no bpf() calls.
set -u
. "$(dirname "$0")/record-lib.sh"

# wait_for COND SECS: poll until the shell condition holds.  The waits for the
# tracee to block are long: on a loaded machine a kill before the tracee reached
# the FIFO (still the recorder's child, before exec, perhaps waiting on a pipe
# too) makes the recorder exit 125.
wait_for() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		eval "$1" && return 0
		sleep 0.1
	done
	return 1
}

mkfifo "$tmp/fifo"
# the tracee, not the recorder's child before its exec (which may wait on a pipe)
tracee_exe=$(readlink -f "$tracee")

# The recorder dies: the tracee (blocked opening a FIFO) must die with it.
"$bpfrr" record --opens=all -o "$tmp/killed.trace" -- "$tracee" fifo "$tmp/fifo" &
rec=$!
wait_for "pgrep -P $rec >/dev/null" 5
child=$(pgrep -P "$rec")
wait_for "[ \"\$(readlink /proc/$child/exe)\" = \"$tracee_exe\" ] &&
	grep -Eq 'wait_for_partner|fifo|pipe' /proc/$child/wchan 2>/dev/null" 30 ||
	echo "# the tracee did not block in the FIFO open within 30 s"
kill -KILL "$rec"
{ wait "$rec"; } 2>/dev/null
if wait_for "! kill -0 $child 2>/dev/null" 5; then
	ok "a recorder killed with SIGKILL takes the tracee with it"
else
	not_ok "a recorder killed with SIGKILL takes the tracee with it" "tracee $child still runs"
	kill -KILL "$child" 2>/dev/null
fi
"$tracecat" "$tmp/killed.trace" >"$tmp/killed.txt" 2>"$tmp/killed.err"
expect "its trace reads as truncated (status 3)" 3 "$?"
has "with the complete records before the kill" "$tmp/killed.txt" '^TASK event=exec '
has "and the reader names the truncation" "$tmp/killed.err" 'truncat'

# The tracee dies inside a call the recorder waits on (the open of a FIFO).
"$bpfrr" record --opens=all -o "$tmp/midcall.trace" -- "$tracee" fifo "$tmp/fifo" &
rec=$!
wait_for "pgrep -P $rec >/dev/null" 5
child=$(pgrep -P "$rec")
wait_for "[ \"\$(readlink /proc/$child/exe)\" = \"$tracee_exe\" ] &&
	grep -Eq 'wait_for_partner|fifo|pipe' /proc/$child/wchan 2>/dev/null" 30 ||
	echo "# the tracee did not block in the FIFO open within 30 s"
kill -KILL "$child"
wait "$rec"
expect "tracee killed mid-call: the recorder exits 137" 137 "$?"
"$tracecat" "$tmp/midcall.trace" >"$tmp/midcall.txt"
expect "the trace is complete" 0 "$?"
has "the open is recorded as not returned (flag 0x1), with its path" "$tmp/midcall.txt" \
	"^SYSCALL .* name=openat .* flags=0x1 ret=0 region=pathname:entry:len=[0-9]*:flags=0:\"$tmp/fifo\\.\""
has "and a note says why" "$tmp/midcall.txt" '^NOTE .* text=openat_call_did_not_return:_the_task_was_killed_by_signal_9'

# Already traced: the recorder's child is traced by whoever traces the
# recorder with fork-following; the command must not run, unobserved.
"$bpfrr" record -o "$tmp/outer.trace" -- "$bpfrr" record -o "$tmp/inner.trace" -- \
	touch "$tmp/ran" >"$tmp/nested.out" 2>"$tmp/nested.err"
expect "bpfrr record under bpfrr record: exits 125" 125 "$?"
expect "in one line" 1 "$(wc -l <"$tmp/nested.err")" "$(cat "$tmp/nested.err")"
has "naming the tracer" "$tmp/nested.err" \
	'^bpfrr record: the command is already traced by process [0-9]+ \(bpfrr\): '
if [ -e "$tmp/ran" ]; then not_ok "and the command did not run"; else ok "and the command did not run"; fi
if command -v strace >/dev/null; then
	strace -f -o /dev/null "$bpfrr" record -o "$tmp/inner.trace" -- touch "$tmp/ran" \
		>"$tmp/strace.out" 2>"$tmp/strace.err"
	expect "bpfrr record under strace -f: exits 125" 125 "$?"
	has "with one line naming strace" "$tmp/strace.err" \
		'^bpfrr record: the command is already traced by process [0-9]+ \(strace\): '
else
	skip "bpfrr record under strace -f" "no strace on this machine"
	skip "with one line naming strace" "no strace on this machine"
fi

done_testing
