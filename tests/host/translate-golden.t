#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/translate-golden.t: the loaders bpfrr generates for the committed
# guest traces (tests/data/traces, tests/data/scale), as `bpfrr replay --plan --assume-caps CAPS`
# prints them without a kernel: the plan (which calls run in which loader, which
# in user space and why) and each loader's layout and annotated disassembly, for
# stock 6.12 and for the patched kernel. Compared with tests/data/translate/
# NAME.CAPS.plan, readable diffs of any change in the front end, planner or code
# generator; BPFRR_UPDATE_GOLDEN=1 rewrites them. No bpf(): plans only (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bpfrr=${BPFRR:-${BUILD:-$top/build}/host/bpfrr}
data=$top/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }

n=0 failed=0
# tests/data/scale: fx_scale's load at N=10 (bench/scaling), kept out of traces/
# so that the dump goldens and fuzz seeds stay as they are
for trace in "$data"/traces/*.trace "$data"/scale/*.trace; do
	[ -f "$trace" ] || continue
	name=$(basename "$trace" .trace)
	for caps in stock-6.12 patched-6.12; do
		n=$((n + 1))
		golden=$data/translate/$name.$caps.plan
		if ! "$bpfrr" translate -o "$tmp/$name.bundle" "$trace" >/dev/null 2>"$tmp/err" ||
		   ! "$bpfrr" replay --plan --assume-caps "$caps" "$tmp/$name.bundle" >"$tmp/plan" 2>>"$tmp/err"; then
			failed=$((failed + 1))
			echo "not ok $n - $name on $caps: $(head -n 1 "$tmp/err")"
			continue
		fi
		if [ "${BPFRR_UPDATE_GOLDEN:-0}" = 1 ]; then
			cp "$tmp/plan" "$golden"
		fi
		if cmp -s "$tmp/plan" "$golden"; then
			echo "ok $n - $name on $caps: $(grep -m1 '^plan:' "$tmp/plan")"
		else
			failed=$((failed + 1))
			echo "not ok $n - $name on $caps differs from ${golden#$top/} (BPFRR_UPDATE_GOLDEN=1 rewrites it)"
			diff "$golden" "$tmp/plan" 2>&1 | head -20 | sed 's/^/# /'
		fi
	done
done
echo "1..$n"
[ "$failed" -eq 0 ]
