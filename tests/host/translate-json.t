#!/usr/bin/env bash
# tests/host/translate-json.t: the JSON of `bpfrr translate --explain --json`
# and of `bpfrr replay --plan --json` / `--caps --json` with --assume-caps (no
# kernel, no bpf()) on the committed guest traces (tests/data/traces), read
# with jq as a user would (docs/replay-json.md): each call's fate agrees with
# the text explanation, the refused call of the light skeleton is named with
# its reason, the number of loader programs, each call's placement and the
# reason a call stays in user space agree with the golden plans
# (tests/data/translate/NAME.CAPS.plan), and the caps list what the text does.
# (tests/unit/test_json.c checks the writer; tests/guest/replay-json.t the
# JSON of a real replay and --verify.) TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bpfrr=${BPFRR:-${BUILD:-$top/build}/host/bpfrr}
data=$top/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }
if ! command -v jq >/dev/null; then
	echo "1..1"
	echo "not ok 1 - jq is not installed (Debian package jq; ./configure checks for it)"
	exit 1
fi

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check NAME FILE JQ-ARGS...: ok if jq -e holds on FILE
check() {
	local name=$1 file=$2
	shift 2
	if jq -e "$@" "$file" >"$tmp/jq" 2>&1; then
		ok "$name"
	else
		not_ok "$name" "jq $*: $(head -c 300 "$tmp/jq")"
	fi
}
# same NAME A B: ok if the two files are equal
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1" "$(diff "$2" "$3" | head -n 10)"
	fi
}

for trace in "$data"/traces/*.trace; do
	name=$(basename "$trace" .trace)
	if ! "$bpfrr" translate --explain --json -o "$tmp/$name.bundle" "$trace" >"$tmp/x.json" 2>"$tmp/err" ||
	   ! "$bpfrr" translate --explain -o "$tmp/text.bundle" "$trace" >"$tmp/x.text" 2>>"$tmp/err"; then
		not_ok "$name: translate --explain [--json] failed" "$(head -n 3 "$tmp/err")"
		continue
	fi
	check "$name: one object of version 1 naming the trace" "$tmp/x.json" --arg t "$trace" \
		'.version == 1 and .trace == $t and (.error | not)'
	# each recorded call: "SEQ FATE" as the text says it ("SKIPPED:" is "skipped", "path slot" is "path")
	jq -r '.calls[] | "\(.seq) \(.fate)"' "$tmp/x.json" >"$tmp/fates.json"
	sed -n 's/^ *\([0-9][0-9]*\)  [^ ]* *\(kept\|dropped\|SKIPPED\|path\)\b.*/\1 \2/p' "$tmp/x.text" |
		sed 's/SKIPPED/skipped/' >"$tmp/fates.text"
	same "$name: every recorded call with the fate the text gives it ($(wc -l <"$tmp/fates.text") calls)" \
		"$tmp/fates.text" "$tmp/fates.json"
	check "$name: totals count the calls, the output the kept ones" "$tmp/x.json" \
		'(.calls | length) == .totals.recorded and
		 ([.calls[] | select(.fate == "kept")] | length) == .totals.kept and
		 ([.calls[] | select(.fate == "dropped" or .fate == "path")] | length) == .totals.dropped and
		 .output.calls == .totals.kept and .output.slots == .totals.slots and .output.format == "bundle" and
		 ([.calls[] | select(.fate != "kept") | .why | strings] | length) == (.totals.recorded - .totals.kept)'
	point=$(sed -n 's/^replay point: after seq \([0-9]*\) .*/\1/p' "$tmp/x.text")
	check "$name: the replay point is seq $point, a kept call" "$tmp/x.json" --argjson p "$point" \
		'.replay_point.seq == $p and .replay_point.chosen_by == "last_build" and
		 ([.calls[] | select(.seq == $p)][0].fate == "kept")'

	# the plans: loaders, placement, refusals, against the golden text
	for caps in stock-6.12 patched-6.12; do
		golden=$data/translate/$name.$caps.plan
		if ! "$bpfrr" replay --plan --json --assume-caps "$caps" "$tmp/$name.bundle" >"$tmp/p.json" 2>"$tmp/err"; then
			not_ok "$name $caps: replay --plan --json failed" "$(head -n 3 "$tmp/err")"
			continue
		fi
		loaders=$(grep -c '^segment [0-9]* loader:' "$golden")
		check "$name $caps: $loaders loader program(s), one per kernel segment, of the golden's sizes" \
			"$tmp/p.json" --argjson n "$loaders" --arg sizes "$(sed -n 's/^segment \([0-9]*\) loader: \([0-9]*\) insns, blob \([0-9]*\) bytes.*/\1 \2 \3/p' "$golden" | tr '\n' ' ')" \
			'(.loaders | length) == $n and
			 ([.plan.segments[] | select(.side == "kernel") | .segment] == [.loaders[].segment]) and
			 ([.loaders[] | "\(.segment) \(.insn_cnt) \(.blob_bytes) "] | add // "") == $sizes'
		# "seq side why" per call, in the order the plan makes them
		jq -r '.plan.segments[] | .calls[] | "\(.seq) \(.side) \(.why_user // "")"' "$tmp/p.json" >"$tmp/place.json"
		awk '/^  segment [0-9]+: loader run/ { side = "kernel"; next }
		     /^  segment [0-9]+: user space/ { side = "user"; next }
		     /^    call [0-9]+ \(seq [0-9]+\)/ {
			seq = $4; sub(/\)/, "", seq); why = ""
			if (index($0, ": ")) why = substr($0, index($0, ": ") + 2)
			print seq, side, why }' "$golden" >"$tmp/place.text"
		same "$name $caps: every call placed as the golden plan places it, with its reason" \
			"$tmp/place.text" "$tmp/place.json"
		check "$name $caps: the counts add up; user calls say why, kernel calls do not" "$tmp/p.json" \
			'.plan.in_kernel + .plan.in_user == .plan.calls and
			 ([.plan.segments[].calls[]] | length) == .plan.calls and
			 all(.plan.segments[].calls[]; (.side == "user") == (.why_user != null)) and
			 .caps.source == "assumed: '"$caps"'"'
	done
done

# what a user checks on particular traces
t=$data/traces
"$bpfrr" translate --explain --json -o "$tmp/b" "$t/x86_64-fx_onemap.trace" >"$tmp/onemap.json" 2>/dev/null
check "fx_onemap: 11 feature probes dropped; kept BTF, map, prog and raw tracepoint link, the prog using the BTF and the map" "$tmp/onemap.json" \
	'[.calls[] | select(.fate == "kept") | .call] == ["BPF_BTF_LOAD", "BPF_MAP_CREATE", "BPF_PROG_LOAD", "BPF_RAW_TRACEPOINT_OPEN"] and
	 ([.calls[] | select(.call == "BPF_PROG_LOAD" and .fate == "kept")][0] |
	  .fd_slots == [0, 1, 1] and .makes.name == "prog.count_syscalls" and .makes.alive) and
	 ([.calls[] | select(.fate == "dropped" and (.why | startswith("probe:")))] | length) == 11'
"$bpfrr" translate --explain --json -o "$tmp/b" "$t/x86_64-opensnoop.trace" >"$tmp/opensnoop.json" 2>/dev/null
check "opensnoop: a perf_event_open looks up its tracepoint by name" "$tmp/opensnoop.json" \
	'any(.calls[]; .call == "perf_event_open" and .fate == "kept" and
	     any(.lookups[]; .kind == "tracepoint" and .name == "syscalls/sys_enter_open"))'
"$bpfrr" replay --plan --json --assume-caps stock-6.12 "$t/x86_64-opensnoop.trace" >"$tmp/os.stock.json" 2>/dev/null
check "opensnoop on stock 6.12: two loaders; BPF_PROG_BIND_MAP and the perf events stay in user space" \
	"$tmp/os.stock.json" \
	'(.loaders | length) == 2 and
	 all(.plan.segments[].calls[] | select(.name == "BPF_PROG_BIND_MAP"); .side == "user" and
	     .why_user == "command not accepted by bpf_sys_bpf() on this kernel") and
	 all(.plan.segments[].calls[] | select(.name == "perf_event_open"); .side == "user")'
"$bpfrr" replay --plan --json --assume-caps patched-6.12 "$t/x86_64-opensnoop.trace" >"$tmp/os.patched.json" 2>/dev/null
check "opensnoop on patched 6.12: every call in one loader" "$tmp/os.patched.json" \
	'(.loaders | length) == 1 and .plan.in_user == 0 and (.plan.segments | length) == 1'

# the light skeleton: its syscall program's run is kept, and says what its program makes
lskel=$t/x86_64-fx_onemap_lskel.trace
"$bpfrr" translate --explain --json -o "$tmp/b" "$lskel" >"$tmp/lskel.json" 2>/dev/null
rc=$?
check "fx_onemap_lskel: translated (exit $rc); the run at seq 4 makes map.onemap and prog.count_syscalls at ctx_in+24, +40" \
	"$tmp/lskel.json" --argjson rc "$rc" \
	'$rc == 0 and (.error | not) and .totals.kept == 5 and
	 ([.calls[] | select(.seq == 4)][0] | .fate == "kept" and
	  ([.products[] | "\(.slot) \(.name) \(.alive) \(.buffer)+\(.offset)"] ==
	   ["2 map.onemap true attr.test.ctx_in+24", "3 prog.count_syscalls true attr.test.ctx_in+40"])) and
	 all(.calls[] | select(.fate == "kept" and .seq != 4); .products == [])'
"$bpfrr" replay --plan --json --assume-caps patched-6.12 "$lskel" >"$tmp/lskel.plan.json" 2>/dev/null
check "fx_onemap_lskel on patched 6.12: the run is the one user-space step" "$tmp/lskel.plan.json" \
	'.plan.in_user == 1 and
	 [.plan.segments[].calls[] | select(.side == "user") | .name] == ["BPF_PROG_TEST_RUN"]'

# the caps: the commands and pointers the text lists
for caps in stock-6.12 patched-6.12 none; do
	"$bpfrr" replay --caps --json --assume-caps "$caps" >"$tmp/c.json" 2>/dev/null
	"$bpfrr" replay --caps --assume-caps "$caps" >"$tmp/c.text" 2>/dev/null
	cmds=$(sed -n '/^  bpf_sys_bpf accepts:/,/^  pointers/p' "$tmp/c.text" | grep -o 'BPF_[A-Z_]*' | tr '\n' ' ')
	ptrs=$(grep -c '^    BPF_[A-Z_]* *attr\.' "$tmp/c.text")
	check "caps $caps: $(echo "$cmds" | wc -w) commands, $ptrs pointers, as the text lists them" "$tmp/c.json" \
		--arg cmds "$cmds" --argjson ptrs "$ptrs" \
		'(.caps.sys_bpf_cmds | map(. + " ") | add // "") == $cmds and (.caps.pointers | length) == $ptrs'
done
check "caps none: perf_event_open not available" "$tmp/c.json" '.caps.perf_event_open.available == false'

# usage and errors
if "$bpfrr" translate --json "$lskel" >"$tmp/out" 2>"$tmp/err"; then rc=0; else rc=$?; fi
[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && ok "translate --json without --explain: exit 2: $(head -n 1 "$tmp/err")" ||
	not_ok "translate --json without --explain: exit $rc"
"$bpfrr" replay --plan --json --assume-caps stock-5.4 "$tmp/b" >"$tmp/e.json" 2>/dev/null
check "replay --plan --json with unknown caps: the object carries the error" "$tmp/e.json" \
	'.version == 1 and (.error | startswith("--assume-caps '"'"'stock-5.4'"'"': unknown"))'

echo "1..$n"
[ "$failed" -eq 0 ]
