#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The header output of the translator as a standalone loader: the committed
# traces of this arch (tests/data/traces/ARCH-*.trace) were translated on the
# host with `bpfrr translate --format header --assume-caps stock-6.12` and
# `patched-6.12` and each header compiled with tests/guest/header-loader.c
# into a static program that has nothing of bpfrr's and no libbpf
# ($BPFRR_ROOT/tests/guest/header/TRACE-stock|patched, Makefile.in). Here:
#  - the loader made for this kernel's kind loads, and every object has the
#    identity the recording saw (its verify table: program tags, types and
#    names, map types, sizes, flags and names, BTF sizes, link programs);
#  - while it holds them, the linked programs run when their events happen
#    (translate-held.sh), and the programs are the kernel's (bpftool);
#  - when it exits nothing it made is left, also when it runs out of fds
#    half-way (ulimit -n): the failing recorded call is named;
#  - the loader made for the other kind is refused (-EOPNOTSUPP) where the
#    kernel does not give its loaders what they need (a patched header on
#    stock; a stock header whose raw tracepoint name is in user memory on the
#    patched kernel, whose list reads it from the program's), else it loads
#    and verifies; either way nothing is left.
. "$(dirname "$0")/fixtures-lib.sh"

ROOT=${BPFRR_ROOT:-/opt/bpfrr}
HDR=$ROOT/tests/guest/header
HELD=$(cd "$(dirname "$0")" && pwd)/translate-held.sh

if [ -e /sys/kernel/bpf/syscall_prog_cmds ]; then
	kind=patched other=stock
else
	kind=stock other=patched
fi
case "$(uname -r)" in
*-bpfrr-patched* | *-bpfrr-debug*) [ $kind = patched ] || fail "a patched kernel without syscall_prog_cmds" ;;
*) [ $kind = stock ] || fail "a stock kernel with syscall_prog_cmds" ;;
esac
echo "kernel: $(uname -r) ($kind)"

# min_ran TRACE: linked programs that must run (opensnoop's sys_enter_open and
# sys_exit_open wait for open(2), which no shell tool makes on x86_64)
min_ran() {
	case "$BPFRR_ARCH-$1" in
	x86_64-opensnoop) echo 2 ;;
	*) echo all ;;
	esac
}

nr=0
for bin in "$HDR"/*-$kind; do
	[ -x "$bin" ] || continue
	nr=$((nr + 1))
	name=${bin##*/}
	trace=${name%-$kind}
	echo "--- $name ($(wc -c <"$bin") bytes)"

	take_max
	rm -f "$name.ready"
	"$bin" --hold "$name.ready" >"$name.out" 2>"$name.err" &
	pid=$!
	tries=0
	while [ ! -e "$name.ready" ] && kill -0 $pid 2>/dev/null && [ $tries -lt 600 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	if [ ! -e "$name.ready" ]; then
		kill $pid 2>/dev/null
		wait $pid
		fail "$name: did not load (status $?)"
		sed 's/^/    /' "$name.out" "$name.err"
		check_nothing_left "$name: after the failed load"
		continue
	fi
	grep '^loaded: ' "$name.out"
	if grep -q '^verify: [0-9]* checks, 0 mismatches' "$name.out"; then
		pass "$name: loaded and verified: $(grep '^verify: ' "$name.out")"
	else
		fail "$name: the verify table has mismatches"
		sed 's/^/    /' "$name.out"
	fi
	# the verify table's program ids are programs the kernel has
	for id in $(awk '$3 == "id" && $4 == "-" { print $5 }' "$name.out"); do
		bpftool prog show id "$id" >/dev/null 2>&1 || fail "$name: program id $id is not loaded"
	done
	# the linked programs run (the verify table's link rows name their ids)
	if sh "$HELD" "$name" "$name.out" "" "$(min_ran "$trace")" >"$name.held" 2>&1; then
		pass "$name: $(grep 'linked programs ran' "$name.held")"
	else
		fail "$name: translate-held.sh: $(grep -v '^held: [0-9]* of' "$name.held" | tr '\n' ' ')"
	fi
	kill -TERM $pid
	wait $pid
	st=$?
	[ $st -eq 0 ] || fail "$name: exited $st after SIGTERM"
	check_nothing_left "$name: after it exited"

	# out of fds half-way: the failing call named, nothing left
	failed_at=
	for lim in 6 7 8 9 10; do
		take_max
		(ulimit -n $lim && exec "$bin") >"$name.lim$lim" 2>&1
		st=$?
		[ $st -eq 0 ] && continue
		if [ $st -ne 1 ] || ! grep -q '^load failed: ' "$name.lim$lim"; then
			fail "$name: with ulimit -n $lim: status $st"
			sed 's/^/    /' "$name.lim$lim"
		fi
		grep -q 'holds fd' "$name.lim$lim" && fail "$name: fds left open: $(grep 'holds fd' "$name.lim$lim")"
		check_nothing_left "$name: ulimit -n $lim ($(head -n 1 "$name.lim$lim"))"
		seq=$(sed -n 's/^load failed: .* at recorded seq \([0-9]*\)$/\1/p' "$name.lim$lim")
		[ -n "$seq" ] && [ "$seq" -gt 0 ] && failed_at="$failed_at $seq"
	done
	[ -n "$failed_at" ] && pass "$name: out of fds: failing recorded calls named (seq$failed_at)" ||
		fail "$name: no run out of fds named a recorded call"

	# the header for the other kind of kernel: a patched one is refused on
	# stock; a stock one runs on the patched kernel unless a loader passes a
	# pointer in user memory that the kernel's list says it reads from the
	# program's (fx_onemap's, fx_onemap_lskel's and fx_attach's raw tracepoint names)
	take_max
	"$HDR/$trace-$other" >"$name.other" 2>&1
	st=$?
	case "$kind-$trace" in
	stock-* | patched-fx_onemap | patched-fx_onemap_lskel | patched-fx_attach) must_refuse=1 ;;
	*) must_refuse=0 ;;
	esac
	if [ $st -eq 1 ] && grep -q '^load failed: Operation not supported' "$name.other"; then
		pass "$trace-$other: refused on a $kind kernel"
	elif [ $must_refuse = 0 ] && [ $st -eq 0 ] && grep -q '^verify: [0-9]* checks, 0 mismatches' "$name.other"; then
		pass "$trace-$other: loaded and verified on a $kind kernel too: $(grep '^verify: ' "$name.other")"
	else
		fail "$trace-$other on a $kind kernel: status $st: $(head -n 3 "$name.other" | tr '\n' ' ')"
	fi
	check_nothing_left "$trace-$other"
done
[ $nr -gt 0 ] || fail "no standalone loaders for $kind kernels in $HDR"
finish
