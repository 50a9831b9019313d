#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/stage-agree.t: the stages agree on what they accept. Three
# small loads no kernel and no recorder makes (tests/host/synth_hostile):
# - bigseq: a kept call whose seq (2^33) a loader's report cannot name:
#   translate refuses it (exit 1), naming the seq, instead of writing a
#   bundle that replay then refuses;
# - halfimm: a program whose last instruction is the first half of an
#   ld_imm64: translate refuses it (exit 1) by instruction, instead of
#   failing inside or leaving it to the kernel;
# - fdlie: a call that returned fd 3 with an fd event saying fd 4: dump,
#   translate and diff all call the trace bad input (exit 2).
# And for each, what translate accepts, replay --plan (stock and patched
# caps, under build/host/nobpf) accepts too. (TAP)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
nobpf=$build/host/nobpf
synth=$build/host/tests/host/synth_hostile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$bpfrr" "$nobpf" "$synth"; do
	[ -x "$f" ] || { echo "1..0 # SKIP $f is not built"; exit 0; }
done

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

# expect MODE WANT_TRANSLATE PATTERN WANT_DUMP
expect() {
	local mode=$1 want=$2 pattern=$3 want_dump=$4 st caps
	"$synth" $mode "$tmp/$mode.trace" || { not_ok "synth_hostile $mode"; return; }
	"$nobpf" -- "$bpfrr" translate -o "$tmp/$mode.bundle" "$tmp/$mode.trace" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st = "$want" ] && grep -q -- "$pattern" "$tmp/err" && [ ! -e "$tmp/$mode.bundle" ]; then
		ok "$mode: translate exits $st, no bundle: $(head -n 1 "$tmp/err")"
	else
		not_ok "$mode: translate exit $st (want $want, '$pattern'): $(head -c 300 "$tmp/err")"
	fi
	"$nobpf" -- "$bpfrr" dump --summary "$tmp/$mode.trace" >/dev/null 2>"$tmp/err"
	st=$?
	[ $st = "$want_dump" ] && ok "$mode: dump exits $st" || not_ok "$mode: dump exit $st (want $want_dump): $(cat "$tmp/err")"
	# whatever translate wrote, the replay's planner takes
	if [ -e "$tmp/$mode.bundle" ]; then
		for caps in stock-6.12 patched-6.12; do
			"$nobpf" -- "$bpfrr" replay --plan --assume-caps $caps "$tmp/$mode.bundle" >/dev/null 2>"$tmp/err" ||
				not_ok "$mode: translate wrote a bundle replay --plan ($caps) refuses: $(head -c 300 "$tmp/err")"
		done
	fi
}

expect bigseq 1 "seq 8589934593 BPF_MAP_CREATE cannot be translated: its seq does not fit" 0
expect halfimm 1 "instruction 2 is the first half of an ld_imm64" 0
expect fdlie 2 "the fd event of seq 1 (new fd 4) contradicts what that call returned" 2
# diff reads the same trace the same way (it once called this "out of memory")
"$nobpf" -- "$bpfrr" diff "$tmp/fdlie.trace" "$tmp/fdlie.trace" >/dev/null 2>"$tmp/err"
st=$?
if [ $st = 2 ] && grep -q "the fd event of seq 1 contradicts what that call returned" "$tmp/err"; then
	ok "fdlie: diff exits 2: $(head -n 1 "$tmp/err")"
else
	not_ok "fdlie: diff exit $st (want 2, the contradiction named): $(head -c 300 "$tmp/err")"
fi

echo "1..$n"
[ "$failed" = 0 ]
