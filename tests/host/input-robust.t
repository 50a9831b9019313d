#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/input-robust.t: what the readers make of inputs that are not
# plain, complete files, for dump, translate and replay (--plan, assumed caps,
# under build/host/nobpf: nothing reaches the host's kernel):
# - special files and huge foreign files are refused after their first bytes
#   ("bad magic", exit 2, in seconds and a few MB), not read whole: /dev/zero,
#   /dev/urandom, a 2 GiB sparse file;
# - a trace cut anywhere (inside the prefix, the HEADER, a later record) is
#   "truncated", exit 3, in every subcommand alike;
# - a trace or bundle from a pipe or FIFO is read once and works like a file.
# (TAP)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
nobpf=$build/host/nobpf
trace=$top/tests/data/traces/x86_64-fx_onemap.trace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$bpfrr" "$nobpf"; do
	[ -x "$f" ] || { echo "1..0 # SKIP $f is not built"; exit 0; }
done

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

# run SUBCOMMAND INPUT: bpfrr SUBCOMMAND on INPUT, 20 s at most, 512 MB of
# address space at most; sets st (exit status) and leaves stderr in $tmp/err
run() {
	local sub=$1 input=$2
	case $sub in
	dump) set -- dump --summary ;;
	translate) set -- translate -o "$tmp/out.bundle" ;;
	replay) set -- replay --plan --assume-caps stock-6.12 ;;
	esac
	(ulimit -v 524288; exec timeout 20 "$nobpf" -- "$bpfrr" "$@" "$input") >"$tmp/out" 2>"$tmp/err"
	st=$?
}

expect() {
	local want=$1 pattern=$2 what=$3
	if [ "$st" = "$want" ] && grep -q -- "$pattern" "$tmp/err"; then
		ok "$what: exit $st, $(head -n 1 "$tmp/err")"
	else
		not_ok "$what: exit $st (want $want, stderr matching '$pattern'): $(head -c 300 "$tmp/err")"
	fi
}

truncate -s 2G "$tmp/sparse"
for sub in dump translate replay; do
	for input in /dev/zero /dev/urandom "$tmp/sparse"; do
		run $sub "$input"
		expect 2 "bad magic" "bpfrr $sub $(basename "$input")"
	done
	run $sub /dev/null
	expect 2 "empty file" "bpfrr $sub of an empty file"
done

# cut inside the prefix (5, 12 bytes), inside the HEADER (40), in a later record
for len in 5 12 40 3000; do
	head -c $len "$trace" >"$tmp/cut$len.trace"
	for sub in dump translate replay; do
		run $sub "$tmp/cut$len.trace"
		expect 3 "truncated" "bpfrr $sub of the trace cut at byte $len"
	done
done

# a pipe, a FIFO: the same as the file
"$nobpf" -- "$bpfrr" translate -o "$tmp/file.bundle" "$trace" 2>"$tmp/err" ||
	not_ok "translate $(basename "$trace"): $(cat "$tmp/err")"
"$nobpf" -- "$bpfrr" replay --plan --assume-caps stock-6.12 "$trace" >"$tmp/plan.file" 2>&1
for what in trace bundle; do
	src=$trace
	[ $what = bundle ] && src=$tmp/file.bundle
	run replay <(cat "$src")
	if [ "$st" = 0 ] && diff -q "$tmp/plan.file" "$tmp/out" >/dev/null; then
		ok "bpfrr replay --plan of a $what from a pipe: the plan of the file"
	else
		not_ok "bpfrr replay --plan of a $what from a pipe: exit $st: $(head -c 300 "$tmp/err")"
	fi
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	cat "$src" >"$tmp/fifo" &
	run replay "$tmp/fifo"
	wait
	if [ "$st" = 0 ] && diff -q "$tmp/plan.file" "$tmp/out" >/dev/null; then
		ok "bpfrr replay --plan of a $what from a FIFO: the plan of the file"
	else
		not_ok "bpfrr replay --plan of a $what from a FIFO: exit $st: $(head -c 300 "$tmp/err")"
	fi
done
"$nobpf" -- "$bpfrr" dump "$trace" >"$tmp/dump.file" 2>&1
run dump <(cat "$trace")
"$nobpf" -- "$bpfrr" dump <(cat "$trace") >"$tmp/dump.pipe" 2>&1
if [ "$st" = 0 ] && diff <(sed 1d "$tmp/dump.file") <(sed 1d "$tmp/dump.pipe") >/dev/null; then
	ok "bpfrr dump of a trace from a pipe: the dump of the file"
else
	not_ok "bpfrr dump of a trace from a pipe: exit $st: $(head -c 300 "$tmp/err")"
fi
run translate <(cat "$trace")
"$nobpf" -- "$bpfrr" replay --plan --assume-caps stock-6.12 "$tmp/out.bundle" >"$tmp/plan.pipe" 2>&1
if [ "$st" = 0 ] && diff -q "$tmp/plan.file" "$tmp/plan.pipe" >/dev/null; then
	ok "bpfrr translate of a trace from a pipe: a bundle with the plan of the file's"
else
	not_ok "bpfrr translate of a trace from a pipe: exit $st: $(head -c 300 "$tmp/err")"
fi

echo "1..$n"
[ "$failed" = 0 ]
