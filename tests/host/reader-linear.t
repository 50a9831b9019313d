#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/reader-linear.t: the trace readers take the same time whatever
# the keys a trace carries. Two traces of 100,000 map creations (each with
# its fd event, identity and close) and 100,000 SYMBOL records, written by
# tests/host/synth_hostile: "plain" numbers calls 1, 2, 3 ...; "collide" spaces
# them 2^47 apart (one slot of the multiplicative hash the readers' maps
# used to have), repeats one symbol value under 100,000 module names (one
# chain) and piles 100,000 identity records of adopted fds on one seq
# (another chain). `bpfrr dump --summary` and `bpfrr translate` of the collide trace
# must take at most twice the plain one's time (best of two runs each; the
# collide run is cut off at 10x, which is how the old maps failed here:
# 114 s against 0.9 s). (TAP)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
nobpf=$build/host/nobpf
synth=$build/host/tests/host/synth_hostile
records=${LINEAR_RECORDS:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$bpfrr" "$nobpf" "$synth"; do
	[ -x "$f" ] || { echo "1..0 # SKIP $f is not built"; exit 0; }
done

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

for mode in plain collide; do
	if ! "$synth" $mode "$records" "$tmp/$mode.trace" 2>"$tmp/err"; then
		echo "1..0 # SKIP synth_hostile $mode: $(cat "$tmp/err")"
		exit 0
	fi
done

# ms LIMIT_S CMD...: run CMD (stdout and stderr to files), print its wall time
# in ms; 124 from timeout when it ran longer than LIMIT_S seconds.
ms() {
	local limit=$1 t0 t1 st
	shift
	t0=$(date +%s%N)
	timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
	return $st
}

# best MODE LIMIT_S ARGS...: the better of two runs of bpfrr ARGS on MODE's trace.
# Exit 1 counts as done: translate refuses the colliding trace's last map (its seq,
# 2^47 * N, does not fit a loader's report) after reading the whole trace, which is
# what is timed; a timeout (124) or bad input (2) does not.
best() {
	local mode=$1 limit=$2 a b st
	shift 2
	a=$(ms "$limit" "$nobpf" -- "$bpfrr" "$@" "$tmp/$mode.trace"); st=$?
	[ $st -le 1 ] || { echo "$a"; return 1; }
	b=$(ms "$limit" "$nobpf" -- "$bpfrr" "$@" "$tmp/$mode.trace"); st=$?
	[ $st -le 1 ] || { echo "$b"; return 1; }
	echo $((a < b ? a : b))
}

check() {
	local what=$1 plain collide limit
	shift
	if ! plain=$(best plain 600 "$@"); then
		not_ok "bpfrr $what of the plain trace failed: $(head -c 300 "$tmp/err")"
		return
	fi
	limit=$(((plain * 10 + 999) / 1000 + 5))
	if ! collide=$(best collide "$limit" "$@"); then
		not_ok "bpfrr $what of the colliding-keys trace: failed or over ${limit} s (plain: $plain ms): $(head -c 300 "$tmp/err")"
		return
	fi
	# 2x, and 150 ms of slack for a loaded machine's jitter on short runs
	if [ "$collide" -le $((plain * 2 + 150)) ]; then
		ok "bpfrr $what, $records records: colliding keys $collide ms, plain $plain ms"
	else
		not_ok "bpfrr $what, $records records: colliding keys $collide ms, more than twice plain's $plain ms"
	fi
}

check "dump --summary" dump --summary
check "translate" translate -o "$tmp/out.bundle"

echo "1..$n"
[ "$failed" = 0 ]
