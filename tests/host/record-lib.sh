# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-lib.sh: what the recorder's host tests (record-*.t) share.
# Sourced, not run. Sets: bpfrr, tracee, tracecat, loop, tmp; TAP helpers.
#
# The tracees here never call bpf(): these tests run on the build machine.

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
tracee=$build/host/tests/host/record_tracee
tracecat=$build/host/tests/host/record_tracecat
loop=$build/host/tests/host/syscall_loop
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$bpfrr" "$tracee" "$tracecat" "$loop"; do
	if [ ! -x "$f" ]; then
		echo "1..0 # SKIP $f is not built (make check-host builds it)"
		exit 0
	fi
done

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	local line
	for line in "$@"; do echo "# $line"; done
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# expect NAME WANT GOT [DETAIL...]
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "want '$2', got '$3'" "${@:4}"; fi
}
# has NAME FILE REGEX: passes when a line of FILE matches REGEX (grep -E)
has() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else not_ok "$1" "no line of $2 matches: $3" \
		"$(tail -n 5 "$2" 2>/dev/null)"; fi
}
# hasnt NAME FILE REGEX
hasnt() {
	if ! grep -Eq -- "$3" "$2"; then ok "$1"; else not_ok "$1" "a line of $2 matches: $3" \
		"$(grep -E -m 3 -- "$3" "$2")"; fi
}
done_testing() { echo "1..$n"; [ "$failed" -eq 0 ]; }

# record OUT.trace [record options] -- CMD...: run bpfrr record, status in $rc
record() {
	local out=$1
	shift
	"$bpfrr" record -o "$out" "$@"
	rc=$?
}
