#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/replay-arch.t: `bpfrr replay` refuses a load recorded on another
# arch with one line, before any bpf() call: the committed arm64 trace, and
# its bundle, on this x86_64 host (an arm64 host gets the x86_64 trace).
# Under build/host/nobpf: a replay that got as far as bpf() is killed and
# fails here, it never reaches the host's kernel. `--plan` (nothing runs)
# still plans another arch's load. The guest half of the check is in
# tests/portable/matrix. (TAP)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
nobpf=$build/host/nobpf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }
[ -x "$nobpf" ] || { echo "1..0 # SKIP $nobpf is not built"; exit 0; }
case $(uname -m) in
x86_64) trace=$top/tests/data/traces/arm64-fx_attach.trace other=aarch64 ;;
aarch64) trace=$top/tests/data/traces/x86_64-fx_onemap.trace other=x86_64 ;;
*) echo "1..0 # SKIP no committed trace of another arch than $(uname -m)"; exit 0 ;;
esac

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

if ! "$nobpf" -- "$bpfrr" translate -o "$tmp/other.bundle" "$trace" >"$tmp/out" 2>&1; then
	not_ok "translating $(basename "$trace") (another arch's) on this host: $(cat "$tmp/out")"
fi
# refused FILE [OPTION...]: exit 2, one line on stderr naming both arches
refused() {
	local f=$1
	shift
	"$nobpf" -- "$bpfrr" replay "$@" "$f" >"$tmp/out" 2>"$tmp/err"
	local st=$? what="bpfrr replay${*:+ $*} $(basename "$f")"
	if [ "$st" = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] &&
		grep -q "recorded on $other, this is $(uname -m):" "$tmp/err"; then
		ok "$what: refused: $(cat "$tmp/err")"
	else
		not_ok "$what: exit $st, stderr: $(head -c 400 "$tmp/err")"
	fi
}
refused "$trace"
refused "$tmp/other.bundle"
refused "$tmp/other.bundle" --json
if grep -q '"error":".*recorded on '"$other"', this is' "$tmp/out"; then
	ok "replay --json: the refusal is the object's error"
else
	not_ok "replay --json: no error in $(head -c 300 "$tmp/out")"
fi
if "$nobpf" -- "$bpfrr" replay --plan --assume-caps stock-6.12 "$tmp/other.bundle" >"$tmp/out" 2>&1; then
	ok "replay --plan still plans another arch's load"
else
	not_ok "replay --plan --assume-caps stock-6.12: exit $?: $(tail -n 3 "$tmp/out")"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
