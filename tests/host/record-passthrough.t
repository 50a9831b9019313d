#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-passthrough.t: bpfrr record passes the command's exit
# status, signals, stdin/stdout/stderr and job control through, and refuses
# what it cannot record (TAP). The tracees make no bpf() calls.
set -u
. "$(dirname "$0")/record-lib.sh"

record "$tmp/t.trace" -- "$tracee" exit 7
expect "exit status 7 passes through" 7 "$rc"
"$tracecat" "$tmp/t.trace" >"$tmp/t.txt"
expect "the trace is complete" 0 "$?"
has "END carries the wait status of exit 7" "$tmp/t.txt" "^END status=1792 "

record "$tmp/t.trace" -- "$tracee" kill 15
expect "killed by SIGTERM: 128+15" 143 "$rc"
record "$tmp/t.trace" -- "$tracee" kill 9
expect "killed by SIGKILL: 128+9" 137 "$rc"

out=$(echo "hello recorder" | "$bpfrr" record -o "$tmp/t.trace" -- cat)
expect "stdin reaches the command and its stdout comes back" "hello recorder" "$out"
err=$("$bpfrr" record -o "$tmp/t.trace" -- sh -c 'echo to-stderr >&2; echo to-stdout' 2>&1 >/dev/null)
expect "stderr passes through, nothing added" "to-stderr" "$err"

record "$tmp/t.trace" -- "$tracee" signal
expect "a signal the command sends itself reaches its handler" 9 "$rc"
record "$tmp/t.trace" -- "$tracee" stop
expect "group-stop and SIGCONT work for a traced child (PTRACE_LISTEN)" 0 "$rc"

# A signal sent to the recorder itself is meant for the command.
"$bpfrr" record -o "$tmp/spin.trace" -- "$tracee" spin &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
expect "SIGTERM sent to the recorder reaches the command (143)" 143 "$?"
"$tracecat" "$tmp/spin.trace" >"$tmp/spin.txt"
expect "and the trace is still complete" 0 "$?"

record "$tmp/t.trace" -- "$tmp/no-such-command" 2>"$tmp/err"
expect "command not found: 127" 127 "$rc"
has "with a one-line message naming it" "$tmp/err" "^bpfrr record: .*no-such-command: No such file"
"$bpfrr" record -o "$tmp/t.trace" 2>"$tmp/err"
expect "no command: usage error 2" 2 "$?"
"$bpfrr" record --opens=sometimes -- true 2>"$tmp/err"
expect "bad --opens: usage error 2" 2 "$?"
"$bpfrr" record --help >"$tmp/help"
expect "--help exits 0" 0 "$?"
has "--help describes the options" "$tmp/help" "--opens MODE"
"$bpfrr" record -o /dev/full -- true 2>"$tmp/err"
expect "an unwritable trace: 125, the command does not run unobserved" 125 "$?"

# A kernel built without CONFIG_IA32_EMULATION has no i386 ABI: int 0x80 is a
# SIGSEGV and an i386 image does not exec, so there is nothing to refuse.
"$tracee" ia32 >/dev/null 2>&1
ia32_rc=$?
if [ "$(uname -m)" = x86_64 ] && [ "$ia32_rc" -ge 128 ]; then
	for i in 1 2 3 4 5 6; do skip "ia32 refusal" "this kernel has no i386 ABI (int 0x80 ends the process, status $ia32_rc)"; done
elif [ "$(uname -m)" = x86_64 ]; then
	record "$tmp/t.trace" -- "$tracee" ia32 >"$tmp/out" 2>"$tmp/err"
	expect "a 32-bit (int 0x80) system call is refused with 125" 125 "$rc"
	has "with a one-line error naming the ABI" "$tmp/err" "i386 \(32-bit x86\) ABI; only native x86_64"
	expect "and the call never ran" "" "$(cat "$tmp/out")"
	"$tracecat" "$tmp/t.trace" >"$tmp/t.txt"
	has "the trace says why" "$tmp/t.txt" "^NOTE .*level=3 text=refused"
	# a 32-bit image: refused at its exec, before its first instruction
	printf '.globl _start\n_start:\n\tmovl $1, %%eax\n\tmovl $42, %%ebx\n\tint $0x80\n' >"$tmp/i386.s"
	if as --32 "$tmp/i386.s" -o "$tmp/i386.o" 2>/dev/null && ld -m elf_i386 "$tmp/i386.o" -o "$tmp/i386" 2>/dev/null; then
		record "$tmp/t.trace" -- "$tmp/i386" 2>"$tmp/err"
		expect "a 32-bit image is refused with 125 (it would exit 42)" 125 "$rc"
		has "with a one-line error" "$tmp/err" "exec'd a 32-bit image .*only native x86_64"
	else
		for i in 1 2; do skip "32-bit image refusal" "cannot assemble an i386 program"; done
	fi
else
	for i in 1 2 3 4 5 6; do skip "ia32 refusal" "not an x86_64 machine"; done
fi

done_testing
