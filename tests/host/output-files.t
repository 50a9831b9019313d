#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/output-files.t: how bpfrr writes what it writes (lib/outfile.h).
# For each `translate --format` (bundle, header, elf):
# - `-o -` is standard output, and no file named "-" appears;
# - a symlink stays a symlink and its target gets the output, a dangling
#   one creates its target;
# - a write that fails (a 1 KiB file-size limit) exits 1 and leaves the
#   existing file as it was, and no temporary file beside it;
# - a replaced file keeps its permission bits.
# And what a command prints must arrive: `translate --explain`, `replay
# --plan`, `replay --caps` and `dump` with stdout on /dev/full exit 1.
# `replay --pin DIR` where DIR is not on a bpf filesystem is refused (exit
# 2) before anything loads (under build/host/nobpf, a bpf() call would
# kill it). Outputs only ever go to files in this test's temporary
# directory. (TAP)
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
check() { if eval "$1"; then ok "$2"; else not_ok "$2${3:+: $3}"; fi; }

# the header names its struct after the output file unless --name says it
xlate() { "$nobpf" -- "$bpfrr" translate ${name:+--name "$name"} "$@"; }

for fmt in bundle header elf; do
	d=$tmp/$fmt
	mkdir "$d"
	name=
	[ $fmt = header ] && name=fx
	xlate --format $fmt -o "$d/ref" "$trace" >/dev/null 2>"$d/err" || not_ok "$fmt: translate -o FILE: $(cat "$d/err")"

	# -o -: standard output, no file named "-"
	(cd "$d" && xlate --format $fmt -o - "$trace" >"$d/stdout" 2>"$d/err")
	st=$?
	same="cmp -s '$d/stdout' '$d/ref'"
	check "[ $st = 0 ] && [ ! -e '$d/-' ] && $same" "$fmt: -o - writes standard output, no file '-'" \
		"exit $st, $(ls "$d") $(head -c 200 "$d/err")"

	# a symlink to an existing file, and a dangling one
	echo old >"$d/target"
	ln -s target "$d/link"
	xlate --format $fmt -o "$d/link" "$trace" >/dev/null 2>"$d/err"
	st=$?
	check "[ $st = 0 ] && [ -L '$d/link' ] && [ \"\$(readlink '$d/link')\" = target ] && cmp -s '$d/target' '$d/ref'" \
		"$fmt: -o SYMLINK keeps the symlink and writes its target" "exit $st, $(ls -l "$d" | tr -d '\n')"
	ln -s "$d/new" "$d/dangling"
	xlate --format $fmt -o "$d/dangling" "$trace" >/dev/null 2>"$d/err"
	st=$?
	check "[ $st = 0 ] && [ -L '$d/dangling' ] && cmp -s '$d/new' '$d/ref'" \
		"$fmt: -o DANGLING-SYMLINK creates its target" "exit $st"

	# a failed write: the old file stays whole, nothing beside it
	echo old >"$d/keep"
	chmod 600 "$d/keep"
	(trap '' XFSZ; ulimit -f 1; xlate --format $fmt -o "$d/keep" "$trace") \
		>/dev/null 2>"$d/err"
	st=$?
	if [ $fmt = elf ] && [ "$(stat -c %s "$d/ref")" -le 1024 ]; then
		ok "# SKIP $fmt: the output fits in the 1 KiB limit"
	else
		check "[ $st = 1 ] && [ \"\$(cat '$d/keep')\" = old ] && [ -z \"\$(ls '$d' | grep bpfrr-)\" ]" \
			"$fmt: a write that fails exits 1, the old file stays, no temporary file" \
			"exit $st, keep: $(head -c 20 "$d/keep"), $(ls "$d" | tr '\n' ' ') $(cat "$d/err")"
	fi
	xlate --format $fmt -o "$d/keep" "$trace" >/dev/null 2>&1
	check "[ \"\$(stat -c %a '$d/keep')\" = 600 ] && cmp -s '$d/keep' '$d/ref'" "$fmt: a replaced file keeps its mode"
done

# stdout that cannot be written: exit 1 with a message
stdout_full() {
	local what=$1
	shift
	"$nobpf" -- "$bpfrr" "$@" >/dev/full 2>"$tmp/err"
	local st=$?
	check "[ $st = 1 ] && grep -q 'No space left' '$tmp/err'" "$what with stdout on /dev/full: exit 1" \
		"exit $st, $(cat "$tmp/err")"
}
stdout_full "translate --explain" translate --explain -o "$tmp/e.bundle" "$trace"
stdout_full "replay --plan" replay --plan --assume-caps stock-6.12 "$trace"
stdout_full "replay --caps" replay --caps --assume-caps stock-6.12
stdout_full "dump" dump "$trace"

# --explain and -o - would share stdout
"$nobpf" -- "$bpfrr" translate --explain -o - "$trace" >/dev/null 2>"$tmp/err"
st=$?
check "[ $st = 2 ]" "translate --explain -o -: refused (exit 2)" "exit $st"

# --pin outside a bpf filesystem: refused before the load
mkdir "$tmp/notbpffs"
for dir in "$tmp/notbpffs" "$tmp/notbpffs/new"; do
	"$nobpf" -- "$bpfrr" replay --pin "$dir" "$tmp/bundle/ref" >/dev/null 2>"$tmp/err"
	st=$?
	check "[ $st = 2 ] && grep -q 'not a directory on a bpf filesystem' '$tmp/err' && [ ! -e '$tmp/notbpffs/new' ]" \
		"replay --pin ${dir#"$tmp"/}: refused before anything loads" "exit $st, $(cat "$tmp/err")"
done

echo "1..$n"
[ "$failed" = 0 ]
