#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/oom-exit.t: out of memory is a failure (exit 1) in every
# subcommand, never bad input (2) or a truncated trace (3), and never a crash
# (TAP). failmalloc.so (LD_PRELOAD) makes the Nth allocation of a run fail;
# each command runs once per N, for every allocation it makes, on a committed
# trace (and its bundle for replay --plan, under build/host/nobpf): each run
# exits 0 (the failure was absorbed: a cache, a fallback) or 1 with a
# message on stderr. Every N takes minutes (~3,800 runs): by default the
# first 20 and then about 25 more spread over the rest, per command;
# OOM_EXIT_ALL=1 runs every one.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
nobpf=$build/host/nobpf
failmalloc=$build/host/tests/host/failmalloc.so
trace=$top/tests/data/traces/x86_64-fx_onemap.trace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$bpfrr" "$nobpf" "$failmalloc"; do
	[ -e "$f" ] || { echo "1..0 # SKIP $f is not built (make check-host builds it)"; exit 0; }
done

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	local line
	for line in "$@"; do echo "# $line"; done
}

# under N CMD...: bpfrr CMD with allocation N failing (0: none), under nobpf;
# status in st, stderr in $tmp/err
under() {
	local nth=$1
	shift
	"$nobpf" -- env BPFRR_FAILMALLOC="$nth" BPFRR_FAILMALLOC_COUNT="$tmp/count" LD_PRELOAD="$failmalloc" \
		"$bpfrr" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
}

# sweep NAME CMD...: CMD once per allocation it makes, that one failing
sweep() {
	local name=$1 total i stride bad=() n0=0 n1=0 runs=0
	shift
	under 0 "$@"
	total=$(cat "$tmp/count" 2>/dev/null || echo 0)
	if [ "$st" != 0 ] || [ "$total" -lt 10 ]; then
		not_ok "$name: without a failure: exit $st after $total allocations" "$(head -c 300 "$tmp/err")"
		return
	fi
	# the first ones (start-up, the reader's open), then a spread over the rest
	stride=1
	[ "${OOM_EXIT_ALL:-0}" = 1 ] || [ "$total" -le 45 ] || stride=$(((total - 20) / 25 + 1))
	for ((i = 1; i <= total; i += (i < 20 ? 1 : stride))); do
		under "$i" "$@"
		runs=$((runs + 1))
		case $st in
		0) n0=$((n0 + 1)) ;;
		1)
			n1=$((n1 + 1))
			[ -s "$tmp/err" ] || bad+=("allocation $i: exit 1 without a message")
			;;
		*) bad+=("allocation $i: exit $st: $(head -c 200 "$tmp/err" | tr '\n' ' ')") ;;
		esac
	done
	if [ ${#bad[@]} -eq 0 ]; then
		ok "$name: $runs of its $total allocations failing in turn: exit 1 with a message ($n1), or 0 ($n0)"
	else
		not_ok "$name: ${#bad[@]} of $runs failed allocations (of $total) end otherwise" "${bad[@]:0:5}"
	fi
}

"$bpfrr" translate -o "$tmp/t.bundle" "$trace" 2>"$tmp/err" ||
	{ echo "1..0 # SKIP translating $trace failed: $(cat "$tmp/err")"; exit 0; }

sweep "dump" dump "$trace"
sweep "dump --json" dump --json "$trace"
sweep "dump --summary" dump --summary "$trace"
sweep "diff" diff "$trace" "$trace"
sweep "translate (bundle)" translate -o "$tmp/o.bundle" "$trace"
sweep "translate --format header" translate --format header -o "$tmp/o.h" "$trace"
sweep "translate --format elf" translate --format elf -o "$tmp/o.o" "$trace"
sweep "replay --plan" replay --plan --assume-caps stock-6.12 "$tmp/t.bundle"

# the kernel running short while an input is read (read(2) failing with
# ENOMEM: tests/faults/run met it on arm64) is a failure too, not bad input
readfail() {
	local name=$1 i
	shift
	for i in 1 2; do
		"$nobpf" -- env BPFRR_FAILREAD=$i LD_PRELOAD="$failmalloc" "$bpfrr" "$@" >"$tmp/out" 2>"$tmp/err"
		st=$?
		if [ "$st" = 1 ] && grep -q 'Cannot allocate memory' "$tmp/err"; then
			ok "$name: read $i of the input failing with ENOMEM: exit 1 ($(head -n 1 "$tmp/err"))"
		else
			not_ok "$name: read $i of the input failing with ENOMEM: exit $st" "$(head -c 300 "$tmp/err")"
		fi
	done
}
readfail "dump" dump "$trace"
readfail "translate" translate -o "$tmp/r.bundle" "$trace"
readfail "replay --plan" replay --plan --assume-caps stock-6.12 "$tmp/t.bundle"

echo "1..$n"
[ "$failed" -eq 0 ]
