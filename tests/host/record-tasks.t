#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-tasks.t: the recorder follows fork, threads and exec and
# keeps every fd table right: dup/dup2/dup3/fcntl/close/close_range and
# close-on-exec show up as FD_EVENTs of the right task (TAP). The tracees make
# no bpf() calls; --opens=all makes their /dev/null fds tracked ones.
set -u
. "$(dirname "$0")/record-lib.sh"

# trace NAME ARGS...: record the tracee with --opens=all into $tmp/NAME.txt
trace() {
	local name=$1
	shift
	record "$tmp/$name.trace" --opens=all -- "$tracee" "$@" >/dev/null
	"$tracecat" "$tmp/$name.trace" | grep -v -e '/lib' -e 'ld\.so' >"$tmp/$name.txt"
}

trace fds fds
expect "fds: exit 0" 0 "$rc"
has "open of /dev/null recorded with its path" "$tmp/fds.txt" \
	'^SYSCALL .* name=openat .* ret=3 region=pathname:entry:len=10:flags=0:"/dev/null\."'
has "dup(3) -> 5" "$tmp/fds.txt" '^FD op=dup .* fd=3 newfd=5 .*flags=0 '
has "dup2(3, 20)" "$tmp/fds.txt" '^FD op=dup .* fd=3 newfd=20 .*flags=0 '
has "dup3(4, 21, O_CLOEXEC) is close-on-exec" "$tmp/fds.txt" '^FD op=dup .* fd=4 newfd=21 .*flags=0x1 '
has "fcntl(3, F_DUPFD_CLOEXEC, 30) -> 30" "$tmp/fds.txt" '^FD op=dup .* fd=3 newfd=30 .*flags=0x1 '
has "close_range(20, 21) closes both" "$tmp/fds.txt" '^FD op=close .* fd=21 '
# every dup of fd 3 names the object of the open that made fd 3
obj=$(sed -n 's/^FD op=new .* fd=3 .*object=\([0-9]*\)$/\1/p' "$tmp/fds.txt" | tail -n 1)
n_dups=$(grep -c "^FD op=dup .* fd=3 .*object=$obj\$" "$tmp/fds.txt")
expect "the dups of fd 3 refer to its object (seq $obj)" 3 "$n_dups"
expect "every close is matched: nothing open at the end" 0 \
	"$(awk '/^FD op=(new|adopt)/ { open[$0 ~ /fd=/ ? $5 : ""]++ }
		/^FD op=dup/ { open["fd=" substr($6, 7)]++ }
		/^FD op=(close|exec-close)/ { open[$5]-- }
		END { s = 0; for (k in open) s += open[k]; print s }' "$tmp/fds.txt")"

trace fork fork
expect "fork: the child's status comes back" 3 "$rc"
child=$(sed -n 's/^TASK event=fork tid=\([0-9]*\) .*/\1/p' "$tmp/fork.txt")
parent=$(sed -n 's/^TASK event=start tid=\([0-9]*\) .*/\1/p' "$tmp/fork.txt")
has "a fork TASK record names the parent" "$tmp/fork.txt" "^TASK event=fork tid=$child tgid=$child other=$parent "
has "the child's dup is its own" "$tmp/fork.txt" "^FD op=dup .* tid=$child fd=3 newfd=4 "
has "the child's close of its copy" "$tmp/fork.txt" "^FD op=close .* tid=$child fd=3 "
has "the parent's close of its own copy" "$tmp/fork.txt" "^FD op=close .* tid=$parent fd=3 "
has "the child's exit status is recorded" "$tmp/fork.txt" "^TASK event=exit tid=$child .* status=768 "

trace thread thread
expect "thread: exit 0" 0 "$rc"
thr=$(sed -n 's/^TASK event=thread tid=\([0-9]*\) .*/\1/p' "$tmp/thread.txt")
main=$(sed -n 's/^TASK event=start tid=\([0-9]*\) .*/\1/p' "$tmp/thread.txt")
flags=$(sed -n 's/^TASK event=thread .* clone_flags=\(0x[0-9a-f]*\) .*/\1/p' "$tmp/thread.txt")
expect "the thread shares its creator's tgid" "$main" \
	"$(sed -n 's/^TASK event=thread tid=[0-9]* tgid=\([0-9]*\) .*/\1/p' "$tmp/thread.txt")"
expect "its clone flags have CLONE_THREAD and CLONE_FILES" 1 \
	"$(( (flags & 0x10000) != 0 && (flags & 0x400) != 0 ))"
has "the thread's dup is recorded as the thread's" "$tmp/thread.txt" "^SYSCALL seq=[0-9]* tid=$thr name=dup "

trace exec exec
expect "exec: the exec'd image saw fd 3 kept and fd 4 closed" 0 "$rc"
has "the fd opened with O_CLOEXEC is exec-closed" "$tmp/exec.txt" '^FD op=exec-close seq=0 .* fd=4 '
hasnt "the other fd is not" "$tmp/exec.txt" '^FD op=exec-close .* fd=3 '
line_exec=$(grep -n '^TASK event=exec' "$tmp/exec.txt" | sed -n '2s/:.*//p')
line_close=$(grep -n '^FD op=exec-close' "$tmp/exec.txt" | head -n 1 | sed 's/:.*//')
expect "exec-close follows the exec's TASK record" 1 "$(( line_close > line_exec ))"
has "the TASK exec record has the new argv" "$tmp/exec.txt" '^TASK event=exec .* path=.*record_tracee '

trace thread-exec thread-exec
expect "a thread's exec: the new image's status comes back" 5 "$rc"
has "the exec is reported under the leader's tid, naming the thread" "$tmp/thread-exec.txt" \
	"^TASK event=exec tid=([0-9]+) tgid=\\1 other=$(sed -n 's/^TASK event=thread tid=\([0-9]*\) .*/\1/p' \
		"$tmp/thread-exec.txt") "

# Default --opens=bpf: only paths a load depends on are recorded.
record "$tmp/sysfs.trace" -- "$tracee" sysfs
"$tracecat" "$tmp/sysfs.trace" >"$tmp/sysfs.txt"
has "--opens=bpf records an open of /sys/devices/system/cpu/possible with its content" "$tmp/sysfs.txt" \
	'^SYSCALL .* name=openat .*pathname.*"/sys/devices/system/cpu/possible\.".* region=content:exit'
hasnt "but not the loader's library opens" "$tmp/sysfs.txt" 'name=openat .*/lib'
# A PMU's type (a kprobe's or uprobe's perf event type number): the loader
# opens /sys/bus/event_source/devices/NAME/type, a symlink into /sys/devices.
if [ -r /sys/bus/event_source/devices/software/type ]; then
	record "$tmp/pmu.trace" -- cat /sys/bus/event_source/devices/software/type >/dev/null
	"$tracecat" "$tmp/pmu.trace" >"$tmp/pmu.txt"
	has "the type file of a PMU is recorded with its content (the fd names /sys/devices/software/type)" \
		"$tmp/pmu.txt" '^SYSCALL .* name=openat .*devices/software/type.* region=content:exit'
else
	ok "# SKIP no /sys/bus/event_source/devices/software/type on this host"
fi
record "$tmp/none.trace" --opens=none -- "$tracee" sysfs
"$tracecat" "$tmp/none.trace" >"$tmp/none.txt"
hasnt "--opens=none records no open" "$tmp/none.txt" 'name=open'

done_testing
