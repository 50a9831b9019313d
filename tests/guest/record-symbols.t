#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the recording kernel's numbers name (issue 11, docs/recorder.md "Kernel
# build and symbols"): runqlat (tp_btf/fentry programs: attach_btf_id) and
# opensnoop (tracepoints through perf_event_open: config) recorded here.  The
# trace's KERNEL record is this kernel (release, machine, GNU build id, size
# of its vmlinux BTF, its SHA-256 only without build id); every SYMBOL names a
# call of the trace (the first that carries its number); the background naming
# writes the same records as naming at the call (BPFRR_RECORD_NAME_INLINE);
# each attach_btf_id is named
# as bpftool names that id in this kernel's BTF, each tracepoint config as the
# tracefs event whose id file holds it; and bpfrr dump shows those names beside the numbers.
. "$(dirname "$0")/record-lib.sh"

# symbols_of_calls TXT: the seq of every SYMBOL is a call of the trace
symbols_of_calls() {
	awk '
		function seq_of(line,    s) { s = line; sub(/.* seq=/, "", s); sub(/ .*/, "", s); return s }
		/^(BPF_CALL|SYSCALL) / { called[seq_of($0)] = 1 }
		/^SYMBOL / { want[seq_of($0)] = 1 }
		END { for (s in want) if (!(s in called)) { print "SYMBOL of call " s ", which is not in the trace"; bad = 1 }
		      exit bad }' "$1"
}
# symbol_lines TXT: its SYMBOL records, sorted (their place in the file aside)
symbol_lines() {
	grep '^SYMBOL ' "$1" | sed 's/^SYMBOL //' | sort
}

# --- runqlat: kernel BTF ids ----------------------------------------------------------------
record_cmd rq.trace rq.out runqlat 1 1
rc=$?
[ "$rc" = 0 ] || fail "bpfrr record -- runqlat 1 1 exited $rc: $(tail -3 rq.out.err)"
txt=rq.trace.txt

[ "$(grep -c '^KERNEL ' "$txt")" = 1 ] || fail "runqlat: not one KERNEL record"
kline=$(grep '^KERNEL ' "$txt")
has() { echo "$kline" | grep -qF " $1 "; }
has "release=$(uname -r)" && has "machine=$(uname -m)" ||
	fail "KERNEL record is not this kernel ($(uname -r) $(uname -m)): $kline"
size=$(wc -c </sys/kernel/btf/vmlinux)
has "btf_size=$size" || fail "KERNEL btf_size is not the $size bytes of /sys/kernel/btf/vmlinux: $kline"
# with a GNU build id (in /sys/kernel/notes) the BTF is not hashed (flag 0x2), else it is
bid=$(echo "$kline" | sed -n 's/.* build_id=\([0-9a-f]*\) .*/\1/p')
if [ -n "$bid" ]; then
	od -An -v -tx1 /sys/kernel/notes | tr -d ' \n' | grep -q "$bid" ||
		fail "KERNEL build_id $bid is not in /sys/kernel/notes: $kline"
	has "flags=0x2" && has "btf_sha256=$(printf '%064d' 0)" ||
		fail "KERNEL with a build id: the BTF hashed all the same: $kline"
elif command -v sha256sum >/dev/null 2>&1; then
	sha=$(sha256sum /sys/kernel/btf/vmlinux | cut -d' ' -f1)
	has "btf_sha256=$sha" || fail "KERNEL btf_sha256 is not $sha: $kline"
fi
out=$(symbols_of_calls "$txt") || fail "runqlat: $out"
grep -q '^SYMBOL .* kind=1 flags=0x1 ' "$txt" &&
	fail "runqlat: BTF ids the recorder could not name: $(grep '^SYMBOL .* kind=1 flags=0x1 ' "$txt" | head -3)"

"$BPFRR" dump rq.trace >rq.dump 2>rq.dump.err || fail "bpfrr dump rq.trace failed: $(cat rq.dump.err)"
grep -q "^# kernel build: $(uname -r) " rq.dump || fail "dump header has no '# kernel build: $(uname -r) ...' line"
grep -E '^    attach_btf_id: [1-9][0-9]*( |$)' rq.dump >rq.ids
[ -s rq.ids ] || fail "runqlat: no load with an attach_btf_id in the dump"
grep -Ev '^    attach_btf_id: [1-9][0-9]* \([a-z_]+ [A-Za-z0-9_]+\)$' rq.ids >rq.unnamed
[ -s rq.unnamed ] && fail "runqlat: attach_btf_id without its name in the dump: $(head -3 rq.unnamed)"

# the names are this kernel's: bpftool reads the same BTF on its own
if bpftool btf dump file /sys/kernel/btf/vmlinux >vmlinux.btf 2>vmlinux.btf.err; then
	sort -u rq.ids | sed 's/^ *attach_btf_id: \([0-9]*\) (\([a-z_]*\) \([A-Za-z0-9_]*\))$/\1 \2 \3/' |
	while read -r id kind name; do
		KIND=$(echo "$kind" | tr a-z A-Z)
		grep -q "^\[$id\] $KIND '$name'" vmlinux.btf ||
			echo "id $id: dump says $kind $name, bpftool: $(grep "^\[$id\] " vmlinux.btf)"
	done >rq.wrong
	if [ -s rq.wrong ] || [ -s rq.unnamed ]; then
		fail "runqlat: names that are not this kernel's: $(head -3 rq.wrong)"
	else
		pass "runqlat: $(sort -u rq.ids | wc -l) attach_btf_ids named as bpftool names them, e.g. $(head -1 rq.ids | sed 's/^ *//')"
	fi
else
	fail "bpftool btf dump file /sys/kernel/btf/vmlinux failed: $(head -3 vmlinux.btf.err)"
fi

# the recorder took vmlinux's BTF from the kernel through bpf() in one copy, not from
# /sys/kernel/btf/vmlinux a page per read (record_identity.c): under strace (not -f:
# the recorder traces its child; so naming on the main thread, which strace follows) it
# opens no such file, and names the ids all the same
if command -v strace >/dev/null 2>&1; then
	BPFRR_RECORD_NAME_INLINE=1 strace -qq -o rq2.strace -e trace=open,openat "$BPFRR" record -o rq2.trace \
		-- runqlat 1 1 >/dev/null 2>rq2.err
	rc=$?
	"$TRACECAT" rq2.trace >rq2.trace.txt 2>/dev/null
	if [ "$rc" != 0 ]; then
		fail "strace bpfrr record -- runqlat 1 1 exited $rc: $(tail -3 rq2.err)"
	elif grep -q '"/sys/kernel/btf/vmlinux"' rq2.strace; then
		fail "runqlat: the recorder read /sys/kernel/btf/vmlinux: $(grep -m1 '"/sys/kernel/btf/vmlinux"' rq2.strace)"
	elif ! grep -q '^SYMBOL .* kind=1 flags=0 ' rq2.trace.txt; then
		fail "runqlat under strace: no BTF id named"
	else
		pass "runqlat: vmlinux BTF through bpf(), $(grep -c '^SYMBOL .* kind=1 flags=0 ' rq2.trace.txt) BTF ids named"
	fi
fi

# named in the background (the default) or at the call: the same SYMBOL records; the
# summary gives the background thread's time
"$BPFRR" record -s -o rq3.trace -- runqlat 1 1 >rq3.out 2>rq3.err
rc=$?
"$TRACECAT" rq3.trace >rq3.trace.txt 2>/dev/null
bg=$(sed -n 's/.*symbols named in the background \([0-9.]*\).*/\1/p' rq3.err)
BPFRR_RECORD_NAME_INLINE=1 "$BPFRR" record -s -o rq4.trace -- runqlat 1 1 >rq4.out 2>rq4.err
rc4=$?
"$TRACECAT" rq4.trace >rq4.trace.txt 2>/dev/null
inl=$(sed -n 's/.*symbols named in the background \([0-9.]*\).*/\1/p' rq4.err)
symbol_lines rq3.trace.txt | sed 's/ seq=[0-9]*//' >rq3.syms
symbol_lines rq4.trace.txt | sed 's/ seq=[0-9]*//' >rq4.syms
if [ "$rc" != 0 ] || [ "$rc4" != 0 ]; then
	fail "bpfrr record -s -- runqlat 1 1 exited $rc (background), $rc4 (inline): $(tail -2 rq3.err rq4.err)"
elif [ ! -s rq3.syms ] || ! cmp -s rq3.syms rq4.syms; then
	fail "runqlat: SYMBOL records named in the background differ from those named at the call: $(diff rq3.syms rq4.syms | head -4)"
elif ! awk -v b="$bg" -v i="$inl" 'BEGIN { exit !(b > 0 && i == 0) }'; then
	fail "runqlat: the summary's background naming time: ${bg:-none} (background), ${inl:-none} (inline)"
else
	pass "runqlat: $(wc -l <rq3.syms) SYMBOL records, the same named in the background ($bg ms) as at the call"
fi

# --- opensnoop: tracepoint ids --------------------------------------------------------------
record_cmd os.trace os.out timeout -s INT 3 opensnoop
rc=$?
[ "$rc" = 0 ] || fail "bpfrr record -- timeout -s INT 3 opensnoop exited $rc: $(tail -3 os.out.err)"
out=$(symbols_of_calls os.trace.txt) || fail "opensnoop: $out"
tracefs=/sys/kernel/tracing
[ -d "$tracefs/events/syscalls" ] || tracefs=/sys/kernel/debug/tracing
enter=$(cat "$tracefs/events/syscalls/sys_enter_openat/id" 2>/dev/null)
[ -n "$enter" ] || fail "no $tracefs/events/syscalls/sys_enter_openat/id to check against"
grep -q "^SYMBOL .* kind=2 flags=0 value=$enter .* name=syscalls/sys_enter_openat " os.trace.txt ||
	fail "opensnoop: no SYMBOL naming tracepoint id $enter syscalls/sys_enter_openat"
"$BPFRR" dump os.trace >os.dump 2>os.dump.err || fail "bpfrr dump os.trace failed: $(cat os.dump.err)"
grep -q "^        config: $enter (syscalls/sys_enter_openat)$" os.dump ||
	fail "opensnoop: dump does not show 'config: $enter (syscalls/sys_enter_openat)'"
# every tracepoint config the dump shows is named as tracefs names it
grep -E '^        config: [0-9]+ \([a-z0-9_]+/[a-z0-9_]+\)$' os.dump | sort -u |
sed 's/^ *config: \([0-9]*\) (\(.*\))$/\1 \2/' | while read -r id name; do
	[ "$(cat "$tracefs/events/$name/id" 2>/dev/null)" = "$id" ] || echo "$id $name"
done >os.wrong
if [ -s os.wrong ]; then
	fail "opensnoop: tracepoint names that are not this kernel's: $(head -3 os.wrong)"
else
	pass "opensnoop: $(grep -c '^SYMBOL .* kind=2 ' os.trace.txt) tracepoint ids named, e.g. config: $enter (syscalls/sys_enter_openat)"
fi
# the ids come from the id files opensnoop's libbpf read (the recorder reads each as it
# is opened): tracefs is not scanned, no events directory opened (under strace, not -f)
if command -v strace >/dev/null 2>&1; then
	BPFRR_RECORD_NAME_INLINE=1 strace -qq -o os2.strace -e trace=open,openat "$BPFRR" record -o os2.trace \
		-- timeout -s INT 3 opensnoop >/dev/null 2>os2.err
	rc=$?
	"$TRACECAT" os2.trace >os2.trace.txt 2>/dev/null
	if [ "$rc" != 0 ]; then
		fail "strace bpfrr record -- opensnoop exited $rc: $(tail -3 os2.err)"
	elif grep -q '/events", .*O_DIRECTORY' os2.strace; then
		fail "opensnoop: the recorder scanned tracefs: $(grep -m1 '/events", ' os2.strace)"
	elif ! grep -q "^SYMBOL .* kind=2 flags=0 value=$enter .* name=syscalls/sys_enter_openat " os2.trace.txt; then
		fail "opensnoop under strace: tracepoint id $enter not named syscalls/sys_enter_openat"
	else
		pass "opensnoop: tracepoint ids named from the id files the loader read, tracefs not scanned"
	fi
fi
finish
