#!/bin/sh
# `bpfrr replay --json` in a real kernel, guest half: --caps, --plan, a replay
# with --verify and --pin, and a failing replay, each as JSON and as text, on
# replay-ir's bundles (tests/guest/replay-sample.h: BTF, a hash map, a socket
# filter using it, a map update). Here only the exit statuses are checked and
# the outputs left in $BPFRR_TEST_OUT; replay-json.host reads them with jq on
# the host (the guest has no jq) against the text and against what bpfrr
# assumes for this kernel (docs/replay-json.md).
set -u
ir=$BPFRR_ROOT/tests/guest/replay-ir
. "$(dirname "$0")/fixtures-lib.sh"	# fail, pass, finish
. "$(dirname "$0")/kernel-lib.sh"	# kernel_variant
out=${BPFRR_TEST_OUT:-.}

"$ir" bundle . || { fail "replay-ir bundle"; finish; }
echo "$kernel_variant" >"$out/variant"

# run NAME STATUS ARGS...: bpfrr ARGS, stdout to NAME.out, stderr to NAME.err; exits with STATUS
run() {
	name=$1 want=$2
	shift 2
	bpfrr "$@" >"$out/$name.out" 2>"$out/$name.err"
	status=$?
	echo "$status" >"$out/$name.status"
	if [ "$status" -eq "$want" ]; then
		pass "bpfrr $*: exit $status"
	else
		fail "bpfrr $*: exit $status, not $want: $(head -n 3 "$out/$name.err")"
	fi
}

run caps 0 replay --caps --json
run caps-text 0 replay --caps
run plan 0 replay --plan --json sample.bundle
run plan-text 0 replay --plan sample.bundle
run verify 0 replay --verify --json sample.bundle
run verify-text 0 replay --verify sample.bundle
run fail 1 replay --verify --json fail.bundle

grep -q "^[^ ]* /sys/fs/bpf bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf
mkdir -p /sys/fs/bpf/replay-json
run pin 0 replay --json --pin /sys/fs/bpf/replay-json sample.bundle
[ -e /sys/fs/bpf/replay-json/map_counts ] && pass "--json --pin: map_counts pinned" ||
	fail "--json --pin: pins missing: $(ls /sys/fs/bpf/replay-json)"
rm -f /sys/fs/bpf/replay-json/*
rmdir /sys/fs/bpf/replay-json

# -v's listings go to stderr with --json: stdout stays one line
run verbose 0 replay -v --json --verify sample.bundle
lines=$(wc -l <"$out/verbose.out")
[ "$lines" -eq 1 ] && grep -q "^plan:" "$out/verbose.err" && pass "-v --json: one line on stdout, the plan on stderr" ||
	fail "-v --json: $lines lines on stdout"
finish
