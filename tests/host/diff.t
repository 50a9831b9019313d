#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/diff.t: bpfrr diff on pairs of traces recorded in the guest
# (tests/data/diff/README.md says how each was made), text and --json,
# compared with tests/data/diff/NAME.{text,json}.out (BPFRR_UPDATE_GOLDEN=1
# rewrites them), and what each pair must show whatever the goldens say:
#  - opensnoop -p 1 / -p 2: exactly one change, the .rodata variable targ_tgid;
#  - the same loader on the stock and the patched kernel: the same, though
#    kernel numbers differ, because both traces name them; on the debug
#    kernel: one program's CO-RE offsets, as a disassembly diff;
#  - two fixtures: objects only in one side, nothing matched wrongly;
#  - every trace with itself: exit 0 and "same"; a truncated one: exit 3;
#    usage errors and an unreadable file: exit 2.
# No bpf(): traces only (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bpfrr=${BPFRR:-${BUILD:-$top/build}/host/bpfrr}
data=$top/tests/data
d=$data/diff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }
command -v jq >/dev/null || { echo "1..0 # SKIP jq is not installed"; exit 0; }

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

# golden NAME WANT_RC A B: text and JSON of `bpfrr diff A B` against the goldens
golden() {
	local name=$1 want=$2 a=$3 b=$4 fmt rc
	for fmt in text json; do
		(cd "$top" && "$bpfrr" diff $([ $fmt = json ] && echo --json) "${a#$top/}" "${b#$top/}") \
			>"$tmp/$name.$fmt" 2>"$tmp/$name.$fmt.err"
		rc=$?
		[ "${BPFRR_UPDATE_GOLDEN:-0}" = 1 ] && cp "$tmp/$name.$fmt" "$d/$name.$fmt.out"
		if [ "$rc" != "$want" ]; then
			not_ok "$name ($fmt): exit $rc, not $want" "$(head -n 3 "$tmp/$name.$fmt.err")"
		elif ! cmp -s "$tmp/$name.$fmt" "$d/$name.$fmt.out"; then
			not_ok "$name ($fmt) differs from tests/data/diff/$name.$fmt.out (BPFRR_UPDATE_GOLDEN=1 rewrites it)" \
				"$(diff "$d/$name.$fmt.out" "$tmp/$name.$fmt" | head -n 10)"
		else
			ok "$name ($fmt): exit $rc, as tests/data/diff/$name.$fmt.out"
		fi
	done
}

# check NAME FILE JQ-ARGS...: a jq -e condition on a JSON output
check() {
	local what=$1 file=$2
	shift 2
	if jq -e "$@" "$file" >/dev/null 2>"$tmp/jq.err"; then
		ok "$what"
	else
		not_ok "$what" "$(cat "$tmp/jq.err")" "$(jq -c '.counts' "$file" 2>/dev/null)"
	fi
}

golden opensnoop-pid 1 "$d/x86_64-opensnoop-p1.trace" "$d/x86_64-opensnoop-p2.trace"
check "opensnoop -p 1 / -p 2: one change, and it is .rodata's targ_tgid 1 -> 2" "$tmp/opensnoop-pid.json" '
	([.items[] | select(.status != "same")] | length == 1) and
	(.items[] | select(.status == "changed") |
	 .key == "map array '"'"'opensnoo.rodata'"'"'" and .fields == [] and .insns == [] and .btf == {} and
	 .values == [{"name": "targ_tgid", "a": "1 (0x1)", "b": "2 (0x2)"}])'

golden runqlat-kernels 0 "$d/x86_64-stock-runqlat.trace" "$d/x86_64-patched-runqlat.trace"
check "runqlat on stock / patched: the same, every item matched" "$tmp/runqlat-kernels.json" \
	'.same and .counts.only_a == 0 and .counts.only_b == 0 and .counts.changed == 0 and .counts.same > 10'
# ... though a kernel number differs between the builds: the traces name them
if "$bpfrr" dump "$d/x86_64-stock-runqlat.trace" | grep -o 'attach_btf_id: [0-9]* ([^)]*)' | sort -u >"$tmp/ids.stock" &&
   "$bpfrr" dump "$d/x86_64-patched-runqlat.trace" | grep -o 'attach_btf_id: [0-9]* ([^)]*)' | sort -u >"$tmp/ids.patched" &&
   [ -s "$tmp/ids.stock" ] && ! cmp -s "$tmp/ids.stock" "$tmp/ids.patched" &&
   cmp -s <(sed 's/: [0-9]* /: /' "$tmp/ids.stock") <(sed 's/: [0-9]* /: /' "$tmp/ids.patched"); then
	ok "runqlat: attach_btf_id numbers differ between the builds, their names do not: $(head -n 1 "$tmp/ids.stock") / $(head -n 1 "$tmp/ids.patched")"
else
	not_ok "runqlat: the two traces should carry different attach_btf_id numbers with the same names" \
		"$(cat "$tmp/ids.stock")" "$(cat "$tmp/ids.patched")"
fi

# the same loader on the debug build (KASAN, lockdep: other struct layouts): CO-RE gave
# other field offsets, and that is all that differs
golden runqlat-core 1 "$d/x86_64-stock-runqlat.trace" "$d/x86_64-debug-runqlat.trace"
check "runqlat on stock / debug: one program differs, in its CO-RE offsets only" "$tmp/runqlat-core.json" '
	([.items[] | select(.status != "same")] | length == 1) and
	(.items[] | select(.status == "changed") |
	 (.key | startswith("prog tracing ")) and .fields == [] and .values == [] and .btf == {} and
	 ([.insns[] | select(startswith("-") or startswith("+"))] | length > 0 and
	  all(test("^[-+]r[0-9] = [0-9]+$"))))'

golden fixtures 1 "$data/traces/x86_64-fx_onemap.trace" "$data/traces/x86_64-fx_maps.trace"
check "fx_onemap / fx_maps: their own maps only in one side, the common libbpf probes the same" \
	"$tmp/fixtures.json" '
	([.items[] | select(.status == "only_a") | .key] | index("map array '"'"'onemap'"'"'") != null) and
	([.items[] | select(.status == "only_b") | .key] | index("map hash '"'"'counts'"'"'") != null) and
	.counts.same > 0'

for t in "$data"/traces/*.trace "$d"/*.trace; do
	name=$(basename "$t" .trace)
	"$bpfrr" diff "$t" "$t" >"$tmp/self" 2>"$tmp/self.err"
	rc=$?
	if [ "$rc" = 0 ] && tail -n 1 "$tmp/self" | grep -q '^same: '; then
		ok "$name with itself: exit 0, $(tail -n 1 "$tmp/self")"
	else
		not_ok "$name with itself: exit $rc" "$(tail -n 2 "$tmp/self")" "$(head -n 2 "$tmp/self.err")"
	fi
done

# a trace cut short (no END record): compared as far as it goes, exit 3, said so
t=$d/x86_64-opensnoop-p1.trace
head -c $(($(stat -c %s "$t") * 2 / 3)) "$t" >"$tmp/cut.trace"
"$bpfrr" diff "$t" "$tmp/cut.trace" >"$tmp/cut" 2>"$tmp/cut.err"
rc=$?
if [ "$rc" = 3 ] && grep -q 'cut.trace: truncated trace' "$tmp/cut.err" && grep -q '^different: ' "$tmp/cut"; then
	ok "a truncated trace: exit 3, $(head -n 1 "$tmp/cut.err")"
else
	not_ok "a truncated trace: exit $rc" "$(cat "$tmp/cut.err")" "$(tail -n 1 "$tmp/cut")"
fi
"$bpfrr" diff --json "$tmp/cut.trace" "$tmp/cut.trace" >"$tmp/cut.json" 2>/dev/null
rc=$?
if [ "$rc" = 3 ] && jq -e '.a.complete == false and .same' "$tmp/cut.json" >/dev/null; then
	ok "a truncated trace with itself, --json: exit 3, complete false, same"
else
	not_ok "a truncated trace with itself, --json: exit $rc" "$(head -c 300 "$tmp/cut.json")"
fi

# usage and unreadable input: exit 2, nothing on stdout
for args in "$t" "--bogus $t $t" "$t $tmp/missing.trace" "$t /etc/passwd"; do
	# shellcheck disable=SC2086
	"$bpfrr" diff $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && [ -s "$tmp/err" ]; then
		ok "diff $(echo "$args" | sed "s|$top/||g; s|$tmp/||g"): exit 2, $(head -n 1 "$tmp/err" | sed "s|$top/||g; s|$tmp/||g")"
	else
		not_ok "diff $args: exit $rc, not 2 with a message and no output" "$(head -n 2 "$tmp/err")"
	fi
done
"$bpfrr" diff --help >"$tmp/help" && grep -q 'usage: bpfrr diff' "$tmp/help" && ok "diff --help" ||
	not_ok "diff --help"
"$bpfrr" --help | grep -q '^  diff ' && ok "bpfrr --help lists diff" || not_ok "bpfrr --help lists diff"

echo "1..$n"
[ "$failed" -eq 0 ]
