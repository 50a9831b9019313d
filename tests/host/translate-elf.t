#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/translate-elf.t: `bpfrr translate --format elf` on the committed
# guest traces (tests/data/traces), read back by other tools: readelf and
# llvm-objdump (sections, the loader, its relocation against the blob),
# `bpftool btf dump file` (the BTF) and `bpftool gen skeleton` (libbpf opens the
# object: programs, maps, relocations, externs), both under build/host/nobpf;
# and every refusal a trace of the corpus meets. The loads themselves run in
# the guest (tests/guest/translate-elf.t). No bpf() (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
nobpf=$build/host/nobpf
traces=$top/tests/data/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }
[ -x "$nobpf" ] || { echo "1..0 # SKIP $nobpf is not built"; exit 0; }
objdump=$(command -v llvm-objdump || command -v llvm-objdump-14) ||
	{ echo "1..0 # SKIP no llvm-objdump"; exit 0; }

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# check DESC COMMAND...: ok if the command succeeds
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# --- an object: fx_onemap for the patched kernel (the default) ---------------------
obj=$tmp/onemap.bpf.o
if "$bpfrr" translate --format elf -o "$obj" "$traces/x86_64-fx_onemap.trace" >"$tmp/out" 2>"$tmp/err"; then
	ok "x86_64-fx_onemap: $(cat "$tmp/out")"
else
	not_ok "x86_64-fx_onemap: exit $?: $(cat "$tmp/err")"
fi
blob=$(sed -n 's/.* \([0-9]*\)-byte blob.*/\1/p' "$tmp/out")
insns=$(sed -n 's/.* loader of \([0-9]*\) insns.*/\1/p' "$tmp/out")

readelf -h -S -s -r "$obj" >"$tmp/readelf" 2>&1
check "readelf: an ELF64 relocatable for BPF" \
	grep -Eq 'Machine: +Linux BPF' "$tmp/readelf"
check "readelf: REL type" grep -Eq 'Type: +REL ' "$tmp/readelf"
for sec in syscall .relsyscall .data.blob license .BTF .BTF.ext .symtab .strtab; do
	check "readelf: section $sec" grep -Eq "\] $sec +" "$tmp/readelf"
done
check "readelf: bpfrr_loader, a global FUNC of $((insns * 8)) bytes" \
	grep -Eq " $((insns * 8)) FUNC +GLOBAL +DEFAULT +[0-9]+ bpfrr_loader$" "$tmp/readelf"
check "readelf: bpfrr_blob, a global OBJECT of $blob bytes" \
	grep -Eq " $blob OBJECT +GLOBAL +DEFAULT +[0-9]+ bpfrr_blob$" "$tmp/readelf"
check "readelf: no undefined symbol but the null one (no kfunc in this load)" \
	test "$(grep -Ec ' UND [a-z_]' "$tmp/readelf")" = 0

"$objdump" -dr "$obj" >"$tmp/objdump" 2>&1
check "llvm-objdump: the loader disassembles ($insns insns)" \
	grep -q '^0000000000000000 <bpfrr_loader>:' "$tmp/objdump"
# insn 0: r7 = 0 ll with R_BPF_64_64 bpfrr_blob at offset 0, then r6 = r7
check "llvm-objdump: insn 0 loads the blob through R_BPF_64_64 bpfrr_blob, the context is blob+0" \
	bash -c "grep -A3 '<bpfrr_loader>:' '$tmp/objdump' | tr -s ' \t' ' ' |
		tr '\n' '|' | grep -q '0: 18 07 00 00 00 00 00 00 00 00 00 00 00 00 00 00 r7 = 0 ll| 0000000000000000: R_BPF_64_64 bpfrr_blob| 2: bf 76 00 00 00 00 00 00 r6 = r7|'"
check "llvm-objdump: the loader calls bpf_sys_bpf (helper 166) 4 times" \
	test "$(grep -c 'call 166$' "$tmp/objdump")" = 4

"$nobpf" bpftool btf dump file "$obj" >"$tmp/btf" 2>&1
check "bpftool btf dump file: DATASEC .data.blob of $blob bytes" \
	grep -q "DATASEC '.data.blob' size=$blob vlen=1" "$tmp/btf"
check "bpftool btf dump file: VAR bpfrr_blob" grep -q "VAR 'bpfrr_blob' type_id=[0-9]*, linkage=global" "$tmp/btf"
check "bpftool btf dump file: FUNC bpfrr_loader" grep -q "FUNC 'bpfrr_loader' type_id=[0-9]* linkage=global" "$tmp/btf"

(cd "$tmp" && "$nobpf" bpftool -d gen skeleton onemap.bpf.o name onemap >onemap.skel.h 2>skel.err)
check "bpftool gen skeleton: libbpf opens the object, finds its relocation against the blob map" \
	grep -q "prog 'bpfrr_loader': found data map 0 (.data.blob, sec 4, off 0) for insn 0" "$tmp/skel.err"
check "bpftool gen skeleton: the blob is a $blob-byte array" \
	grep -q "unsigned char bpfrr_blob\[$blob\];" "$tmp/onemap.skel.h"

# --- the perf event kfunc: an extern, seen by libbpf ---------------------------------
# (none of the committed traces opens a perf event the format can carry: the unit
# test test_translate_elf and the guest test cover it)

# --- --name --------------------------------------------------------------------------
if "$bpfrr" translate --format elf --name replay_onemap -o "$tmp/named.bpf.o" "$traces/x86_64-fx_onemap.trace" \
	>/dev/null 2>"$tmp/err"; then
	check "--name: the program's symbol" bash -c "readelf -s '$tmp/named.bpf.o' | grep -q ' FUNC .* replay_onemap$'"
else
	not_ok "--name replay_onemap: $(cat "$tmp/err")"
fi

# --- refusals: exit 1, the call and the reason ---------------------------------------
# refuse TRACE EXPECTED [ARGS...]: translate must exit 1 with EXPECTED (an ERE) on stderr
refuse() {
	trace=$1 want=$2
	shift 2
	"$bpfrr" translate --format elf "$@" -o "$tmp/r.bpf.o" "$traces/$trace.trace" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 1 ] && grep -Eq "$want" "$tmp/err" && [ ! -e "$tmp/r.bpf.o" ]; then
		ok "$trace $*: refused: $(head -n 1 "$tmp/err" | sed 's/^bpfrr translate: //')"
	else
		not_ok "$trace $*: exit $rc, $(head -n 1 "$tmp/err") (expected /$want/, no output)"
	fi
	rm -f "$tmp/r.bpf.o"
}
refuse x86_64-fx_onemap '^bpfrr translate: seq 26 BPF_RAW_TRACEPOINT_OPEN: the kernel reads attr.raw_tracepoint.name \(10 bytes\) at a user address \(stock-6.12\); a loader run by a libbpf tool has no user memory to put it in, so the elf format cannot carry it$' \
	--assume-caps stock-6.12
# (on stock its perf_event_open is also a user-space step: the reason no kernel lifts comes first)
refuse x86_64-fx_maps '^bpfrr translate: seq 43 perf_event_open: its attr holds the tracepoint id of syscalls/sys_enter_getpid,' \
	--assume-caps stock-6.12
refuse x86_64-fx_maps '^bpfrr translate: seq 43 perf_event_open: its attr holds the tracepoint id of syscalls/sys_enter_getpid, which bpfrr looks up on the replaying kernel; a libbpf tool loading an object does not, so the elf format cannot carry it$'
refuse x86_64-opensnoop '^bpfrr translate: seq 56 perf_event_open: its attr holds the tracepoint id of syscalls/sys_enter_open,'
refuse arm64-fx_attach '^bpfrr translate: seq 50 perf_event_open: its attr holds the PMU type of kprobe,'
refuse x86_64-fx_onemap '^bpfrr translate: seq 21 BPF_BTF_LOAD: command not accepted by bpf_sys_bpf\(\) on this kernel \(none\); the elf format needs every call in the loader: try --assume-caps patched-6.12$' \
	--assume-caps none
# a light skeleton: its syscall program's run is a user-space step on every kernel
refuse x86_64-fx_onemap_lskel '^bpfrr translate: seq 4 BPF_PROG_TEST_RUN: command not accepted by bpf_sys_bpf\(\) on this kernel \(patched-6.12\); the elf format needs every call in the loader$'
refuse x86_64-fx_onemap_lskel '^bpfrr translate: seq 4 BPF_PROG_TEST_RUN: command not accepted by bpf_sys_bpf\(\) on this kernel \(stock-6.12\); the elf format needs every call in the loader$' \
	--assume-caps stock-6.12

# bad usage: exit 2
"$bpfrr" translate --format elf --assume-caps bogus -o "$tmp/u.bpf.o" "$traces/x86_64-fx_onemap.trace" 2>"$tmp/err"
rc=$?
check "--assume-caps bogus: exit 2 ($(cat "$tmp/err"))" test "$rc" = 2
"$bpfrr" translate --format elf --name 'no-dash' -o "$tmp/u.bpf.o" "$traces/x86_64-fx_onemap.trace" 2>"$tmp/err"
rc=$?
check "--name no-dash: exit 2 ($(cat "$tmp/err"))" test "$rc" = 2
"$bpfrr" translate --format elf --pin pins -o "$tmp/u.bpf.o" "$traces/x86_64-fx_onemap.trace" 2>"$tmp/err"
rc=$?
check "--pin pins (relative): exit 2 ($(cat "$tmp/err"))" test "$rc" = 2
"$bpfrr" translate --format bundle --pin /sys/fs/bpf/x -o "$tmp/u.bundle" "$traces/x86_64-fx_onemap.trace" 2>"$tmp/err"
rc=$?
check "--pin with a bundle: exit 2 ($(cat "$tmp/err"))" test "$rc" = 2
refuse x86_64-fx_onemap '^bpfrr translate: --pin: syscall programs cannot pin on this kernel \(stock-6.12: BPF_OBJ_PIN not accepted by bpf_sys_bpf\(\)\)$' \
	--pin /sys/fs/bpf/x --assume-caps stock-6.12
if "$bpfrr" translate --format elf --pin /sys/fs/bpf/onemap -o "$tmp/pin.bpf.o" "$traces/x86_64-fx_onemap.trace" \
	>"$tmp/out" 2>"$tmp/err" && grep -q '(0 through the kfunc, 3 pins)' "$tmp/out"; then
	for p in map_onemap prog_count_syscalls link_count_syscalls; do
		check "--pin: the blob holds /sys/fs/bpf/onemap/$p" grep -qa "/sys/fs/bpf/onemap/$p" "$tmp/pin.bpf.o"
	done
else
	not_ok "--pin /sys/fs/bpf/onemap: $(cat "$tmp/out" "$tmp/err")"
fi
"$bpfrr" translate --format elf -o "$tmp/no/such/dir.bpf.o" "$traces/x86_64-fx_onemap.trace" 2>"$tmp/err" >/dev/null
rc=$?
check "an unwritable output: exit 1, named ($(cat "$tmp/err"))" \
	bash -c "[ $rc = 1 ] && grep -q 'no/such/dir.bpf.o: No such file or directory' '$tmp/err'"

echo "1..$n"
[ "$failed" = 0 ]
