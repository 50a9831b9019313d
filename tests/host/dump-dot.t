#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/dump-dot.t: `bpfrr dump --format dot|svg` on the committed guest
# traces (tests/data/traces): Graphviz's dot draws every one (and its -v
# graph) with no warning and exit 0; the relations each trace has are edges
# of the graph (program uses map, map uses BTF, link attaches program, link
# on perf event on tracepoint or kprobe, raw tracepoint, map-in-map holds
# and inner, perf event array holds, tail calls through a program array
# (tests/data/dot), a light skeleton's loader program run, an adopted fd); --format svg runs dot itself, says which package is
# missing without it, and reports dot's failure; --json stays --format
# json. The synthetic relations (tail calls, pins, cgroup, fentry) are
# tests/unit/test_dump_dot.c's. No bpf() (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
traces=$top/tests/data/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }
dot=$(command -v dot) || dot=

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $* # SKIP no Graphviz dot (Debian package graphviz)"; }
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
# has_edge FILE FROM_RE TO_RE LABEL_RE: an edge FROM -> TO whose label matches
has_edge() {
	grep -Eq "^	$2 -> $3 \[label=\"$4\"" "$1"
}
# node_id FILE LABEL_RE: the name of the first node whose label matches
node_id() {
	sed -n "s/^	\([a-z0-9_]*\) \[.*label=\"$2.*/\1/p" "$1" | head -n1
}

# --- every committed trace: a graph Graphviz draws without a word ---------------------------
for trace in "$traces"/*.trace "$top"/tests/data/dot/*.trace; do
	name=$(basename "$trace" .trace)
	for v in "" -v; do
		out=$tmp/$name$v.dot
		if "$bpfrr" dump --format dot $v "$trace" >"$out" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
			ok "$name$v: dump --format dot"
		else
			not_ok "$name$v: dump --format dot: $(head -n3 "$tmp/err")"
			continue
		fi
		if [ -z "$dot" ]; then
			skip "$name$v: dot -Tsvg"
		elif "$dot" -Tsvg "$out" >"$tmp/svg" 2>"$tmp/doterr" && [ ! -s "$tmp/doterr" ] &&
			grep -q '<svg' "$tmp/svg"; then
			ok "$name$v: dot -Tsvg draws it without a warning"
		else
			not_ok "$name$v: dot -Tsvg: $(head -n3 "$tmp/doterr")"
		fi
	done
done

# --- the relations, as edges ------------------------------------------------------------------
g=$tmp/x86_64-opensnoop.dot
check "opensnoop: a link attaches each tracepoint program" \
	test "$(grep -Ec '^	link[0-9]+ -> prog[0-9]+ \[label="attaches"' "$g")" = 4
check "opensnoop: the link is on its perf event" has_edge "$g" link60 perf56 perf_event
check "opensnoop: the perf event is on syscalls/sys_enter_open (named by the id file libbpf read)" \
	has_edge "$g" perf56 "$(node_id "$g" 'tracepoint syscalls\/sys_enter_open"')" on
for tp in sys_enter_openat sys_exit_open sys_exit_openat; do
	check "opensnoop: tracepoint syscalls/$tp" grep -q "label=\"tracepoint syscalls/$tp\"" "$g"
done
check "opensnoop: a program uses the 'start' map" has_edge "$g" prog41 map28 uses
check "opensnoop: the map uses the BTF object" has_edge "$g" map28 btf23 btf
check "opensnoop: the program uses the BTF object" has_edge "$g" prog41 btf23 btf
check "opensnoop: the perf event array holds the bpf-output event in slot 0" \
	has_edge "$g" map31 perf80 'holds \[0\]'
check "opensnoop: the failed BPF_LINK_CREATE probe is in the note" \
	grep -q '^	failed \[.*#58 BPF_LINK_CREATE: EBADF' "$g"
check "opensnoop: libbpf's probes are folded, the socket_filter probe programs among them" \
	grep -q '^	folded \[.*prog: #1 #3 #24 #33 #39 #43 #57' "$g"
check "opensnoop -v: the probes are drawn" grep -q '^	prog1 \[' "$tmp/x86_64-opensnoop-v.dot"

g=$tmp/x86_64-fx_maps.dot
check "fx_maps: the map-in-map holds inner0 in slot 0 and inner1 in slot 1" \
	eval 'has_edge "$g" map27 map24 "holds \[0\]" && has_edge "$g" map27 map25 "holds \[1\]"'
check "fx_maps: the map-in-map's inner map template" has_edge "$g" map27 map26 inner
check "fx_maps: the program uses the map-in-map and the ring buffer" \
	eval 'has_edge "$g" prog39 map27 uses && has_edge "$g" prog39 map35 uses'
check "fx_maps: the tracepoint syscalls/sys_enter_getpid" \
	has_edge "$g" perf43 "$(node_id "$g" 'tracepoint syscalls\/sys_enter_getpid')" on

g=$tmp/x86_64-fx_tailcall.dot
check "fx_tailcall: the program array's slot 0 holds stage1, slot 1 stage2 (tail calls)" \
	eval 'has_edge "$g" map26 prog42 "tail call \[0\]" && has_edge "$g" map26 prog44 "tail call \[1\]"'
check "fx_tailcall: the entry program uses the program array; the link attaches it" \
	eval 'has_edge "$g" prog35 map26 uses && has_edge "$g" link54 prog35 attaches'
check "fx_tailcall: the tail-called programs' labels" \
	eval 'grep -q "^	prog42 \[.*label=\"prog stage1" "$g" && grep -q "^	prog44 \[.*label=\"prog stage2" "$g"'

g=$tmp/x86_64-fx_onemap.dot
check "fx_onemap: the raw tracepoint link on sys_enter" \
	has_edge "$g" link26 "$(node_id "$g" 'raw_tracepoint sys_enter')" on
check "fx_onemap: it attaches count_syscalls" has_edge "$g" link26 prog25 attaches

g=$tmp/arm64-fx_attach.dot
check "fx_attach (arm64): the kprobe on do_filp_open (the function the recorder captured)" \
	has_edge "$g" perf50 "$(node_id "$g" 'kprobe do_filp_open')" on
check "fx_attach (arm64): the tracepoint and the raw tracepoint" \
	eval 'grep -q "label=\"tracepoint syscalls/sys_enter_openat\"" "$g" &&
	      grep -q "label=\"raw_tracepoint sys_enter\"" "$g"'

g=$tmp/x86_64-fx_onemap_lskel.dot
check "fx_onemap_lskel: the loader program, its map, and the BPF_PROG_TEST_RUN that ran it" \
	eval 'has_edge "$g" prog3 map1 uses && grep -q "^	prog3 \[.*run by #4" "$g"'
check "fx_onemap_lskel: the program it made (an fd the trace did not make) is marked" \
	grep -Eq '^	prog_x[0-9]+ \[.*peripheries=2.*made outside the trace, adopted fd' "$g"

# --- the command line ---------------------------------------------------------------------------
trace=$traces/x86_64-fx_onemap.trace
if [ -n "$dot" ]; then
	"$bpfrr" dump --format svg "$trace" >"$tmp/svg" 2>"$tmp/err"
	st=$?
	check "--format svg: an SVG, exit 0, nothing on stderr" \
		eval 'test $st = 0 && head -c 200 "$tmp/svg" | grep -q "<?xml" && grep -q "</svg>" "$tmp/svg" &&
		      test ! -s "$tmp/err"'
else
	skip "--format svg"
fi
mkdir "$tmp/nodot"
PATH=$tmp/nodot "$bpfrr" dump --format svg "$trace" >"$tmp/out" 2>"$tmp/err"
st=$?
check "--format svg without dot in PATH: exit 2, one line naming the package graphviz, no output" \
	eval 'test $st = 2 && test "$(wc -l <"$tmp/err")" = 1 && grep -q "package graphviz" "$tmp/err" &&
	      test ! -s "$tmp/out"'
mkdir "$tmp/baddot"
printf '#!/bin/sh\ncat >/dev/null\necho "Error: syntax error" >&2\nexit 1\n' >"$tmp/baddot/dot"
chmod +x "$tmp/baddot/dot"
PATH=$tmp/baddot:/usr/bin:/bin "$bpfrr" dump --format svg "$trace" >"$tmp/out" 2>"$tmp/err"
st=$?
check "--format svg when dot fails: exit 1, dot's error and ours" \
	eval 'test $st = 1 && grep -q "syntax error" "$tmp/err" && grep -q "dot -Tsvg failed" "$tmp/err"'
"$bpfrr" dump --json "$trace" >"$tmp/a" 2>&1
"$bpfrr" dump --format json "$trace" >"$tmp/b" 2>&1
check "--json is --format json" cmp -s "$tmp/a" "$tmp/b"
"$bpfrr" dump "$trace" >"$tmp/a" 2>&1
"$bpfrr" dump --format text "$trace" >"$tmp/b" 2>&1
check "text is the default format" cmp -s "$tmp/a" "$tmp/b"
"$bpfrr" dump --format png "$trace" >/dev/null 2>"$tmp/err"
st=$?
check "--format png: exit 2, the formats named" eval 'test $st = 2 && grep -q "text, json, dot or svg" "$tmp/err"'
"$bpfrr" dump --summary --format dot "$trace" >/dev/null 2>"$tmp/err"
check "--summary --format dot: exit 2" test $? = 2

echo "1..$n"
[ "$failed" = 0 ]
